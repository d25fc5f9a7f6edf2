// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu-guest-check: what the guest kernel made of the platform, as one JSON
 * object in an EMRCU-RESULT block: CPU capacities, cpufreq policies and
 * governors, Energy Model perf domains, whether EAS started (and why not).
 *
 *   emrcu-guest-check [--name NAME] [--expect-eas]
 *                     [--expect-capacity C0,C1,...] [--expect-clusters L0/L1/...]
 *
 * With --expect-eas the checks must all pass (exit 1 otherwise): EAS started
 * and is on, every online CPU has a schedutil policy and sits in exactly one
 * CPU perf domain whose states match the policy's frequencies, and there
 * are at least two distinct capacities.  --expect-capacity (per CPU, in CPU
 * order) and --expect-clusters (cpulists, one per cluster, separated by /) add the checks
 * "capacities_as_given" and "one_pd_per_cluster"; `emrcu-topo --expect SPEC`
 * prints both options for a topology spec.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emrcu/em.h"
#include "emrcu/json.h"
#include "emrcu/result.h"
#include "emrcu/sysfs.h"
#include "kmsg.h"
#include "cputopo.h"

#define PLATFORM_DIR "/sys/kernel/debug/emrcu_platform"

struct checks {
	int nr, failed;
	FILE *f;
};

static void check(struct checks *c, const char *name, int ok)
{
	fprintf(c->f, "%s{\"name\":", c->nr++ ? "," : "");
	json_fput_str(c->f, name);
	fprintf(c->f, ",\"pass\":%s}", ok ? "true" : "false");
	if (!ok)
		c->failed++;
}

static void print_cpus(FILE *f, const struct topo *t)
{
	const char *sep = "";
	int cpu;

	fputs("\"cpus\":[", f);
	for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++) {
		if (!(t->online & (1ULL << cpu)))
			continue;
		fprintf(f, "%s{\"cpu\":%d,\"capacity\":%ld,\"policy\":%d}", sep,
			cpu, t->capacity[cpu],
			t->policy_of[cpu] < 0 ? -1 : t->policy[t->policy_of[cpu]].id);
		sep = ",";
	}
	fputs("]", f);
}

static void print_policies(FILE *f, const struct topo *t)
{
	int i;

	fputs("\"policies\":[", f);
	for (i = 0; i < t->nr_policies; i++) {
		const struct policy_info *p = &t->policy[i];

		fprintf(f, "%s{\"policy\":%d,\"cpus\":", i ? "," : "", p->id);
		cpulist_fput_json(f, p->cpus);
		fputs(",\"governor\":", f);
		json_fput_str(f, p->governor);
		fputs(",\"driver\":", f);
		json_fput_str(f, p->driver);
		fprintf(f, ",\"min_khz\":%ld,\"max_khz\":%ld,\"cur_khz\":%ld,\"nr_freqs\":%d}",
			p->min_khz, p->max_khz, p->cur_khz, p->nr_freqs);
	}
	fputs("]", f);
}

static void print_pds(FILE *f, const struct em_pd *pds, int n)
{
	int i, j;

	fputs("\"perf_domains\":[", f);
	for (i = 0; i < n; i++) {
		const struct em_pd *pd = &pds[i];

		fprintf(f, "%s{\"name\":", i ? "," : "");
		json_fput_str(f, pd->name);
		fputs(",\"cpus\":", f);
		if (pd->is_cpu)
			cpulist_fput_json(f, pd->cpus);
		else
			fputs("null", f);
		fprintf(f, ",\"nr_states\":%d,\"khz\":[", pd->nr_states);
		for (j = 0; j < pd->nr_read; j++)
			fprintf(f, "%s%lu", j ? "," : "", pd->ps[j].khz);
		fputs("],\"power_uw\":[", f);
		for (j = 0; j < pd->nr_read; j++)
			fprintf(f, "%s%lu", j ? "," : "", pd->ps[j].power);
		fputs("],\"inefficient\":[", f);
		for (j = 0; j < pd->nr_read; j++)
			fprintf(f, "%s%lu", j ? "," : "", pd->ps[j].inefficient);
		fputs("]}", f);
	}
	fputs("]", f);
}

static void print_eas(FILE *f, const struct eas_state *e, long aware)
{
	int i;

	fprintf(f, "\"eas\":{\"started\":%s,\"starts\":%d,\"stops\":%d,\"sched_energy_aware\":%ld,\"notes\":[",
		e->started ? "true" : "false", e->starts, e->stops, aware);
	for (i = 0; i < e->nr_notes; i++) {
		if (i)
			fputc(',', f);
		json_fput_str(f, e->notes[i]);
	}
	fputs("]}", f);
}

/* Every online CPU in one CPU PD, with as many states as its policy. */
static int pds_cover_cpus(const struct topo *t, const struct em_pd *pds, int n)
{
	uint64_t seen = 0;
	int i, cpu;

	for (i = 0; i < n; i++) {
		if (!pds[i].is_cpu)
			continue;
		if (pds[i].cpus & seen)
			return 0;
		seen |= pds[i].cpus;
		for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++) {
			int p;

			if (!(pds[i].cpus & (1ULL << cpu)))
				continue;
			p = t->policy_of[cpu];
			if (p < 0 || t->policy[p].nr_freqs != pds[i].nr_states)
				return 0;
		}
	}
	return (seen & t->online) == t->online;
}

/* Every online CPU has the capacity the topology spec asked for. */
static int capacities_as_given(const struct topo *t, const char *list)
{
	const char *p = list;
	int cpu = 0;

	while (*p) {
		char *end;
		long want = strtol(p, &end, 10);

		if (end == p || cpu >= EMRCU_MAX_CPUS)
			return 0;
		if (!(t->online & (1ULL << cpu)) || t->capacity[cpu] != want)
			return 0;
		cpu++;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return 0;
	}
	return cpu == t->nr_cpus;
}

/* The CPU perf domains are exactly the clusters: one PD per cluster. */
static int one_pd_per_cluster(const struct em_pd *pds, int n, const char *clusters)
{
	char buf[1024], *save, *l;
	int nclusters = 0, ncpu_pds = 0, i;

	if (strlen(clusters) >= sizeof(buf))
		return 0;
	strcpy(buf, clusters);
	for (i = 0; i < n; i++)
		ncpu_pds += pds[i].is_cpu;
	for (l = strtok_r(buf, "/", &save); l; l = strtok_r(NULL, "/", &save)) {
		uint64_t mask;
		int found = 0;

		if (parse_cpulist(l, &mask) <= 0)
			return 0;
		for (i = 0; i < n; i++)
			found += pds[i].is_cpu && pds[i].cpus == mask;
		if (found != 1)
			return 0;
		nclusters++;
	}
	return nclusters == ncpu_pds;
}

static int schedutil_everywhere(const struct topo *t)
{
	int cpu;

	for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++) {
		if (!(t->online & (1ULL << cpu)))
			continue;
		if (t->policy_of[cpu] < 0 ||
		    strcmp(t->policy[t->policy_of[cpu]].governor, "schedutil"))
			return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	static struct em_pd pds[EM_MAX_PDS];
	const char *name = "guest-check.json";
	const char *want_cap = NULL, *want_clusters = NULL;
	struct eas_state eas = { 0 };
	struct checks c = { 0, 0, stdout };
	struct topo t;
	long aware = -1;
	int expect = 0, i, npd;
	FILE *f = stdout;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			name = argv[++i];
		} else if (!strcmp(argv[i], "--expect-eas")) {
			expect = 1;
		} else if (!strcmp(argv[i], "--expect-capacity") && i + 1 < argc) {
			want_cap = argv[++i];
		} else if (!strcmp(argv[i], "--expect-clusters") && i + 1 < argc) {
			want_clusters = argv[++i];
		} else {
			fprintf(stderr, "usage: %s [--name NAME] [--expect-eas] "
				"[--expect-capacity LIST] [--expect-clusters LISTS]\n", argv[0]);
			return 2;
		}
	}
	if (topo_read(&t)) {
		fprintf(stderr, "emrcu-guest-check: cannot read %s\n",
			"/sys/devices/system/cpu/online");
		return 2;
	}
	npd = em_read(EM_DEBUGFS, pds, EM_MAX_PDS);
	if (npd < 0)
		npd = 0;
	eas_scan_kmsg(&eas);
	if (read_long("/proc/sys/kernel/sched_energy_aware", &aware))
		aware = -1;

	result_begin(f, name);
	fprintf(f, "{\"nr_cpus\":%d,", t.nr_cpus);
	print_cpus(f, &t);
	fputc(',', f);
	print_policies(f, &t);
	fputc(',', f);
	print_pds(f, pds, npd);
	fputc(',', f);
	print_eas(f, &eas, aware);
	fprintf(f, ",\"platform_loaded\":%s,\"lowest_cpus\":",
		access(PLATFORM_DIR, F_OK) ? "false" : "true");
	cpulist_fput_json(f, topo_lowest(&t));
	fputs(",\"highest_cpus\":", f);
	cpulist_fput_json(f, topo_highest(&t));
	fputs(",\"checks\":[", f);
	check(&c, "eas_started", eas.started);
	check(&c, "sched_energy_aware", aware == 1);
	check(&c, "asymmetric_capacities", topo_lowest(&t) != topo_highest(&t));
	check(&c, "schedutil_on_every_cpu", schedutil_everywhere(&t));
	check(&c, "perf_domains_cover_cpus", pds_cover_cpus(&t, pds, npd));
	if (want_cap)
		check(&c, "capacities_as_given", capacities_as_given(&t, want_cap));
	if (want_clusters)
		check(&c, "one_pd_per_cluster", one_pd_per_cluster(pds, npd, want_clusters));
	fprintf(f, "],\"pass\":%s}", c.failed ? "false" : "true");
	result_end(f, name);
	return expect && c.failed ? 1 : 0;
}
