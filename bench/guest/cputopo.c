// SPDX-License-Identifier: GPL-2.0
#include "cputopo.h"

#include <stdio.h>
#include <string.h>

#define SYS_CPU "/sys/devices/system/cpu"

int count_words(const char *s)
{
	int n = 0, in = 0;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\n' || *s == '\t') {
			in = 0;
		} else if (!in) {
			in = 1;
			n++;
		}
	}
	return n;
}

static void read_policy(struct policy_info *p, int id)
{
	char path[128], buf[1024];

	p->id = id;
	snprintf(path, sizeof(path), SYS_CPU "/cpufreq/policy%d/related_cpus", id);
	if (read_text(path, buf, sizeof(buf)) < 0 || parse_cpulist(buf, &p->cpus) < 0)
		p->cpus = 0;
	snprintf(path, sizeof(path), SYS_CPU "/cpufreq/policy%d/scaling_governor", id);
	if (read_text(path, p->governor, sizeof(p->governor)) < 0)
		strcpy(p->governor, "");
	snprintf(path, sizeof(path), SYS_CPU "/cpufreq/policy%d/scaling_driver", id);
	if (read_text(path, p->driver, sizeof(p->driver)) < 0)
		strcpy(p->driver, "");
	snprintf(path, sizeof(path), SYS_CPU "/cpufreq/policy%d/cpuinfo_min_freq", id);
	if (read_long(path, &p->min_khz))
		p->min_khz = -1;
	snprintf(path, sizeof(path), SYS_CPU "/cpufreq/policy%d/cpuinfo_max_freq", id);
	if (read_long(path, &p->max_khz))
		p->max_khz = -1;
	snprintf(path, sizeof(path), SYS_CPU "/cpufreq/policy%d/scaling_cur_freq", id);
	if (read_long(path, &p->cur_khz))
		p->cur_khz = -1;
	snprintf(path, sizeof(path),
		 SYS_CPU "/cpufreq/policy%d/scaling_available_frequencies", id);
	p->nr_freqs = read_text(path, buf, sizeof(buf)) < 0 ? 0 : count_words(buf);
}

int topo_read(struct topo *t)
{
	char path[128], buf[256];
	int cpu, n;

	memset(t, 0, sizeof(*t));
	if (read_text(SYS_CPU "/online", buf, sizeof(buf)) < 0)
		return -1;
	n = parse_cpulist(buf, &t->online);
	if (n < 0)
		return -1;
	t->nr_cpus = n;
	for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++) {
		t->capacity[cpu] = -1;
		t->policy_of[cpu] = -1;
		if (!(t->online & (1ULL << cpu)))
			continue;
		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cpu_capacity", cpu);
		if (read_long(path, &t->capacity[cpu]))
			t->capacity[cpu] = -1;
	}
	for (n = 0; n < EMRCU_MAX_POLICIES; n++) {
		struct policy_info *p = &t->policy[t->nr_policies];

		snprintf(path, sizeof(path), SYS_CPU "/cpufreq/policy%d", n);
		if (read_text(strcat(path, "/related_cpus"), buf, sizeof(buf)) < 0)
			continue;
		read_policy(p, n);
		for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++)
			if (p->cpus & (1ULL << cpu))
				t->policy_of[cpu] = t->nr_policies;
		t->nr_policies++;
	}
	return 0;
}

static uint64_t topo_extreme(const struct topo *t, int want_max)
{
	long best = -1;
	uint64_t mask = 0;
	int cpu;

	for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++) {
		long c = t->capacity[cpu];

		if (!(t->online & (1ULL << cpu)) || c < 0)
			continue;
		if (best < 0 || (want_max ? c > best : c < best)) {
			best = c;
			mask = 0;
		}
		if (c == best)
			mask |= 1ULL << cpu;
	}
	return mask;
}

uint64_t topo_lowest(const struct topo *t)
{
	return topo_extreme(t, 0);
}

uint64_t topo_highest(const struct topo *t)
{
	return topo_extreme(t, 1);
}
