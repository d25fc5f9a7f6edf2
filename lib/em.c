// SPDX-License-Identifier: GPL-2.0
/* em.c - the Energy Model's perf domains, from debugfs. */
#include "emrcu/em.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/sysfs.h"

long em_ps_khz(const char *name)
{
	char *end;
	long v;

	if (strncmp(name, "ps:", 3) || !name[3])
		return -1;
	v = strtol(name + 3, &end, 10);
	return *end || v < 0 ? -1 : v;
}

static int cmp_state(const void *a, const void *b)
{
	const struct em_state *x = a, *y = b;

	return x->khz < y->khz ? -1 : x->khz > y->khz;
}

static unsigned long read_ul(const char *dir, const char *ps, const char *f)
{
	char path[1024];
	long v;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, ps, f);
	return read_long(path, &v) ? 0 : (unsigned long)v;
}

static void em_read_pd(const char *root, struct em_pd *pd)
{
	char dir[512], path[600], buf[256];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%s", root, pd->name);
	snprintf(path, sizeof(path), "%s/cpus", dir);
	pd->is_cpu = read_text(path, buf, sizeof(buf)) >= 0;
	if (!pd->is_cpu || parse_cpulist(buf, &pd->cpus) < 0)
		pd->cpus = 0;
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		long khz = em_ps_khz(e->d_name);

		if (khz < 0)
			continue;
		pd->nr_states++;
		if (pd->nr_read >= EM_MAX_STATES)
			continue;
		pd->ps[pd->nr_read].khz = (unsigned long)khz;
		pd->ps[pd->nr_read].power = read_ul(dir, e->d_name, "power");
		pd->ps[pd->nr_read].cost = read_ul(dir, e->d_name, "cost");
		pd->ps[pd->nr_read].inefficient =
			read_ul(dir, e->d_name, "inefficient");
		pd->nr_read++;
	}
	closedir(d);
	qsort(pd->ps, (size_t)pd->nr_read, sizeof(pd->ps[0]), cmp_state);
}

static int cmp_pd(const void *a, const void *b)
{
	const struct em_pd *x = a, *y = b;

	return strcmp(x->name, y->name);
}

int em_read(const char *root, struct em_pd *pds, int max)
{
	struct dirent *e;
	int n = 0;
	DIR *d;

	d = opendir(root);
	if (!d)
		return -1;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.')
			continue;
		memset(&pds[n], 0, sizeof(pds[n]));
		snprintf(pds[n].name, sizeof(pds[n].name), "%s", e->d_name);
		em_read_pd(root, &pds[n]);
		n++;
	}
	closedir(d);
	qsort(pds, (size_t)n, sizeof(pds[0]), cmp_pd);
	return n;
}
