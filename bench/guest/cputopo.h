/* SPDX-License-Identifier: GPL-2.0 */
/* The CPU topology as the guest kernel reports it (sysfs). */
#ifndef EMRCU_GUEST_CPUTOPO_H
#define EMRCU_GUEST_CPUTOPO_H

#include <stdint.h>

#include "emrcu/sysfs.h"

#define EMRCU_MAX_POLICIES EMRCU_MAX_CPUS

struct policy_info {
	int id;			/* policyN */
	uint64_t cpus;		/* related_cpus */
	char governor[32];
	char driver[32];
	long min_khz, max_khz, cur_khz;
	int nr_freqs;		/* scaling_available_frequencies */
};

struct topo {
	uint64_t online;
	int nr_cpus;
	long capacity[EMRCU_MAX_CPUS];	/* -1: unknown */
	int policy_of[EMRCU_MAX_CPUS];	/* -1: none */
	int nr_policies;
	struct policy_info policy[EMRCU_MAX_POLICIES];
};

/* Read it all.  0, or -1 if the online CPU list is unreadable. */
int topo_read(struct topo *t);

/* Online CPUs whose capacity is the lowest / the highest. */
uint64_t topo_lowest(const struct topo *t);
uint64_t topo_highest(const struct topo *t);

/* Count the words of a space-separated list. */
int count_words(const char *s);

#endif
