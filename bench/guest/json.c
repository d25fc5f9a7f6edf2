// SPDX-License-Identifier: GPL-2.0
#include "json.h"

#include "util.h"

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void json_cpus(FILE *f, uint64_t mask)
{
	const char *sep = "";
	int cpu;

	fputc('[', f);
	for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++) {
		if (mask & (1ULL << cpu)) {
			fprintf(f, "%s%d", sep, cpu);
			sep = ",";
		}
	}
	fputc(']', f);
}

void result_begin(FILE *f, const char *name)
{
	fprintf(f, "EMRCU-RESULT-BEGIN %s\n", name);
}

void result_end(FILE *f, const char *name)
{
	fprintf(f, "\nEMRCU-RESULT-END %s\n", name);
	fflush(f);
}
