/* topo.c — parse and print CPU topology specs. */
#include "emrcu/topo.h"

#include <stdio.h>
#include <string.h>

/* Decimal number of at most 9 digits at *p; -1 if there is none. */
static long spec_num(const char **p)
{
	long v = 0;
	int n = 0;

	while (**p >= '0' && **p <= '9') {
		if (n++ == 9)
			return -2;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	return n ? v : -1;
}

int topo_parse(const char *spec, struct topo *t, char *err, size_t errlen)
{
	const char *p = spec;
	int i;

	memset(t, 0, sizeof(*t));
	if (!spec || !*spec) {
		snprintf(err, errlen, "empty topology spec (want e.g. 4x400+2x1024)");
		return -1;
	}
	for (i = 0;; i++) {
		const char *start = p;
		const char *end = strchr(p, '+');
		int len = end ? (int)(end - p) : (int)strlen(p);
		long count, cap;

		if (len == 0) {
			snprintf(err, errlen, "cluster %d is empty in '%s'", i, spec);
			return -1;
		}
		if (i == TOPO_MAX_CLUSTERS) {
			snprintf(err, errlen, "more than %d clusters in '%s'",
				 TOPO_MAX_CLUSTERS, spec);
			return -1;
		}
		count = spec_num(&p);
		if (count >= 0 && *p == 'x') {
			p++;
			cap = spec_num(&p);
		} else {
			cap = -1;
		}
		if (count < 0 || cap < 0 || (p - start) != len) {
			snprintf(err, errlen,
				 "cluster %d: expected COUNTxCAPACITY, got '%.*s'",
				 i, len, start);
			return -1;
		}
		if (count == 0) {
			snprintf(err, errlen, "cluster %d: 0 CPUs", i);
			return -1;
		}
		if (cap < 1 || cap > TOPO_MAX_CAPACITY) {
			snprintf(err, errlen,
				 "cluster %d: capacity %ld out of range 1..%d",
				 i, cap, TOPO_MAX_CAPACITY);
			return -1;
		}
		if (t->ncpus + count > TOPO_MAX_CPUS) {
			snprintf(err, errlen,
				 "%ld CPUs or more in '%s', more than NR_CPUS=%d",
				 t->ncpus + count, spec, TOPO_MAX_CPUS);
			return -1;
		}
		t->c[i].ncpus = (int)count;
		t->c[i].capacity = (int)cap;
		t->ncpus += (int)count;
		t->nclusters = i + 1;
		if (!end)
			break;
		p = end + 1;
	}
	return 0;
}

void topo_format(const struct topo *t, char *out, size_t outlen)
{
	size_t n = 0;
	int i;

	if (outlen)
		out[0] = '\0';
	for (i = 0; i < t->nclusters && n < outlen; i++) {
		int k = snprintf(out + n, outlen - n, "%s%dx%d", i ? "+" : "",
				 t->c[i].ncpus, t->c[i].capacity);
		if (k < 0)
			break;
		n += (size_t)k;
	}
}

int topo_cpu_cluster(const struct topo *t, int cpu)
{
	int i, first = 0;

	for (i = 0; i < t->nclusters; i++) {
		if (cpu < first + t->c[i].ncpus)
			return i;
		first += t->c[i].ncpus;
	}
	return -1;
}

int topo_final_capacity(const struct topo *t, int cluster)
{
	int i, max = 0;

	for (i = 0; i < t->nclusters; i++)
		if (t->c[i].capacity > max)
			max = t->c[i].capacity;
	if (!max)
		return 0;
	/* arch_topology: capacity = raw * SCHED_CAPACITY_SCALE / max (floor). */
	return (int)((long)t->c[cluster].capacity * 1024 / max);
}
