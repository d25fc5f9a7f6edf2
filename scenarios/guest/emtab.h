/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Energy Model the kernel uses, per CPU perf domain.  Static EM: the
 * debugfs tables (energy_model/<pd>/ps:<khz>/).  After a runtime update
 * debugfs still shows the table registered at boot, so the table pushed by
 * em_update is read back from the series' trace event em_perf_state, which
 * em_perf_runtime_table_set() emits for every state of the new table.
 */
#ifndef EMRCU_SCEN_EMTAB_H
#define EMRCU_SCEN_EMTAB_H

#include <stdint.h>
#include <stdio.h>

#include "emrcu/em.h"		/* EM_MAX_PDS, EM_MAX_STATES: the one limit */

struct emtab_pd {
	char name[64];
	uint64_t cpus;
	int n;
	unsigned long khz[EM_MAX_STATES];
	unsigned long power[EM_MAX_STATES];
	unsigned long cost[EM_MAX_STATES];
};

struct emtab {
	char source[16];	/* "debugfs" or "trace" */
	int npd;
	struct emtab_pd pd[EM_MAX_PDS];
};

/* The CPU perf domains from debugfs.  0, or -1. */
int emtab_from_debugfs(struct emtab *t);

/*
 * Lines of the trace buffer -> tables.  Every "em_perf_state:" line is one
 * state; the last table of each device wins.  @cpus_from gives each PD's
 * CPUs (by name).  0, or -1 when a device of @cpus_from is missing or a
 * table is incomplete.
 */
int emtab_parse_trace(const char *text, const struct emtab *cpus_from,
		      struct emtab *t);

/*
 * em_update with the trace event on: the truth goes into every CPU PD
 * (@what "1": at each die's temperature now; "mean": at its mean of the
 * last window); @t gets the tables the kernel published.  0, or -1 with
 * the reason in err.
 */
int emtab_update_traced(const struct emtab *boot, struct emtab *t,
			const char *what, char *err, size_t errlen);

void emtab_print_json(FILE *f, const struct emtab *t);

#endif
