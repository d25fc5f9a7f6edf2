/* SPDX-License-Identifier: GPL-2.0 */
/* emrcu/em.h - the Energy Model's perf domains, from debugfs (energy_model/). */
#ifndef EMRCU_LIB_EM_H
#define EMRCU_LIB_EM_H

#include <stdint.h>

#define EM_DEBUGFS "/sys/kernel/debug/energy_model"
#define EM_MAX_PDS 64
#define EM_MAX_STATES 64

struct em_state {
	unsigned long khz, power, cost, inefficient;
};

struct em_pd {
	char name[256];
	int is_cpu;		/* has a "cpus" file */
	uint64_t cpus;
	int nr_states;		/* ps:* directories */
	int nr_read;		/* states read into @ps (<= EM_MAX_STATES) */
	struct em_state ps[EM_MAX_STATES];	/* ascending frequency */
};

/* Read every perf domain under @root.  Returns how many, or -1. */
int em_read(const char *root, struct em_pd *pds, int max);

/* "ps:1234" -> 1234; -1 if the name is not a perf state. */
long em_ps_khz(const char *name);

#endif
