// SPDX-License-Identifier: GPL-2.0
#include "emtab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emrcu/em.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/result.h"
#include "emrcu/sysfs.h"
#include "plat.h"

#define TRACE_DIR "/sys/kernel/tracing"
#define EM_EVENT TRACE_DIR "/events/energy_model/em_perf_state/enable"

int emtab_from_debugfs(struct emtab *t)
{
	static struct em_pd pds[EM_MAX_PDS];
	int n, i, j;

	memset(t, 0, sizeof(*t));
	strcpy(t->source, "debugfs");
	n = em_read(EM_DEBUGFS, pds, EM_MAX_PDS);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct emtab_pd *d;

		if (!pds[i].is_cpu)
			continue;
		if (t->npd == EM_MAX_PDS || pds[i].nr_read > EM_MAX_STATES)
			return -1;
		d = &t->pd[t->npd++];
		if (strlen(pds[i].name) >= sizeof(d->name))
			return -1;
		memcpy(d->name, pds[i].name, strlen(pds[i].name) + 1);
		d->cpus = pds[i].cpus;
		d->n = pds[i].nr_read;
		for (j = 0; j < d->n; j++) {
			d->khz[j] = pds[i].ps[j].khz;
			d->power[j] = pds[i].ps[j].power;
			d->cost[j] = pds[i].ps[j].cost;
		}
	}
	return t->npd ? 0 : -1;
}

int emtab_update_traced(const struct emtab *boot, struct emtab *t,
			const char *what, char *err, size_t errlen)
{
	char *trace;
	int ret;

	ret = sysfs_write(EM_EVENT, "1", 0);
	if (ret) {
		snprintf(err, errlen, "%s: %s", EM_EVENT, strerror(-ret));
		return -1;
	}
	sysfs_write(TRACE_DIR "/trace", "", 1);
	ret = plat_write("em_update", what);
	sysfs_write(EM_EVENT, "0", 0);
	if (ret) {
		snprintf(err, errlen, "em_update: %s", strerror(-ret));
		return -1;
	}
	trace = read_file(TRACE_DIR "/trace", NULL);
	if (!trace) {
		snprintf(err, errlen, "cannot read %s/trace", TRACE_DIR);
		return -1;
	}
	ret = emtab_parse_trace(trace, boot, t);
	free(trace);
	if (ret)
		snprintf(err, errlen, "em_perf_state trace: incomplete or malformed tables");
	return ret;
}

static void print_ul(FILE *f, const char *key, const unsigned long *v, int n)
{
	int i;

	fprintf(f, "\"%s\":[", key);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%lu", i ? "," : "", v[i]);
	fputc(']', f);
}

void emtab_print_json(FILE *f, const struct emtab *t)
{
	int i;

	fprintf(f, "{\"source\":\"%s\",\"pds\":[", t->source);
	for (i = 0; i < t->npd; i++) {
		const struct emtab_pd *d = &t->pd[i];

		fprintf(f, "%s\n{\"name\":", i ? "," : "");
		json_fput_str(f, d->name);
		fputs(",\"cpus\":", f);
		cpulist_fput_json(f, d->cpus);
		fputc(',', f);
		print_ul(f, "khz", d->khz, d->n);
		fputc(',', f);
		print_ul(f, "power_uw", d->power, d->n);
		fputc(',', f);
		print_ul(f, "cost", d->cost, d->n);
		fputc('}', f);
	}
	fputs("]}", f);
}
