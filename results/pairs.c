// SPDX-License-Identifier: GPL-2.0
/* pairs.c - the variant pairing list, and where the declared files live. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emrcu/xalloc.h"
#include "emrcu/str.h"
#include "pairs.h"

int pairs_load(const char *path, struct pairs *p, char *err, size_t errlen)
{
	char line[512];
	int lineno = 0;
	FILE *f;

	memset(p, 0, sizeof(*p));
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char a[128], b[128], extra[2];
		int k;

		lineno++;
		line[strcspn(line, "#")] = '\0';
		if (!*str_trim(line))
			continue;
		k = sscanf(line, "%127s %127s %1s", a, b, extra);
		if (k != 2) {
			snprintf(err, errlen,
				 "%s:%d: expected 'NUMERATOR DENOMINATOR'",
				 path, lineno);
			fclose(f);
			pairs_free(p);
			return -1;
		}
		p->num = xrealloc(p->num, (p->n + 1) * sizeof(char *));
		p->den = xrealloc(p->den, (p->n + 1) * sizeof(char *));
		p->num[p->n] = xstrdup(a);
		p->den[p->n] = xstrdup(b);
		p->n++;
	}
	fclose(f);
	return 0;
}

void pairs_free(struct pairs *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->num[i]);
		free(p->den[i]);
	}
	free(p->num);
	free(p->den);
	memset(p, 0, sizeof(*p));
}

int declared_path(const char *name, char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	slash[1] = '\0';
	if (strlen(buf) + strlen(name) + 1 > len)
		return -1;
	strcat(buf, name);
	return 0;
}
