// SPDX-License-Identifier: GPL-2.0
/* The em_perf_state trace lines -> EM tables (pure: host-tested). */
#include <stdio.h>
#include <string.h>

#include "emtab.h"

static struct emtab_pd *find_pd(struct emtab *t, const char *name)
{
	int i;

	for (i = 0; i < t->npd; i++)
		if (!strcmp(t->pd[i].name, name))
			return &t->pd[i];
	return NULL;
}

/* "... em_perf_state: dev_name=cpu0 nr_perf_states=11 state=3 frequency=.." */
static int parse_event(const char *line, struct emtab *t)
{
	const char *p = strstr(line, "em_perf_state: ");
	unsigned long f, pw, c, fl;
	char name[64];
	int nr, st;
	struct emtab_pd *d;

	if (!p)
		return 0;
	if (sscanf(p, "em_perf_state: dev_name=%63s nr_perf_states=%d state=%d frequency=%lu power=%lu cost=%lu flags=%lu",
		   name, &nr, &st, &f, &pw, &c, &fl) != 7)
		return -1;
	d = find_pd(t, name);
	if (!d || nr < 1 || nr > EM_MAX_STATES || st < 0 || st >= nr)
		return d ? -1 : 0;	/* not a CPU PD: ignore */
	if (st == 0)
		d->n = 0;		/* a new table of this device */
	if (st != d->n)
		return -1;
	d->khz[st] = f;
	d->power[st] = pw;
	d->cost[st] = c;
	d->n = st + 1;
	return 0;
}

int emtab_parse_trace(const char *text, const struct emtab *cpus_from,
		      struct emtab *t)
{
	const struct emtab_pd *ref;
	const char *q = text;
	char line[512];
	int i;

	memset(t, 0, sizeof(*t));
	strcpy(t->source, "trace");
	t->npd = cpus_from->npd;
	for (i = 0; i < t->npd; i++) {
		strcpy(t->pd[i].name, cpus_from->pd[i].name);
		t->pd[i].cpus = cpus_from->pd[i].cpus;
		t->pd[i].n = -1;
	}
	while (*q) {
		const char *nl = strchr(q, '\n');
		size_t len = nl ? (size_t)(nl - q) : strlen(q);

		if (len < sizeof(line)) {
			memcpy(line, q, len);
			line[len] = '\0';
			if (parse_event(line, t))
				return -1;
		}
		q += len + (nl ? 1 : 0);
	}
	for (i = 0; i < t->npd; i++) {
		ref = &cpus_from->pd[i];
		if (t->pd[i].n != ref->n)
			return -1;
	}
	return 0;
}
