/* SPDX-License-Identifier: GPL-2.0 */
/*
 * latency.h - cyclictest --json histograms and em_bench's updater block
 * -> wakeup latency figures per load.
 *
 * Histograms: the selected threads (one per CPU, each with its "cpu") are
 * pooled; bins are microseconds, or nanoseconds when the file says so
 * (cyclictest -N: "resolution_in_ns": 1); figures are in microseconds.
 * Samples beyond the histogram (cycles - histogram count) are overflow: a
 * percentile that lands there is reported as the largest thread max.
 *
 * The updater's CPU is reported apart from the others: that is where an
 * update and the RCU callbacks freeing the old tables run.  Its block
 * (updater-<label>.json) gives what the bound on the added latency is made
 * of: the longest update slot, and the longest time RCU took to invoke
 * LAT_RCU_BLIMIT callbacks, what softirq runs before it checks whether a
 * task waits (6.1 kernel/rcu/tree.c, DEFAULT_RCU_BLIMIT): an update queues
 * two (the old table's free, em_bench's marker), so the span of
 * LAT_RCU_BLIMIT / 2 + 1 markers that ran with no gap of LAT_BATCH_GAP_NS
 * (a gap: something else ran, the batch was interrupted).
 */
#ifndef EMRCU_SCEN_LATENCY_H
#define EMRCU_SCEN_LATENCY_H

#include <stddef.h>

#include "metrics.h"
#include "scen.h"

/* Markers closer than this ran in one run of RCU callbacks. */
#define LAT_BATCH_GAP_NS 5000
/* Callbacks softirq invokes before it yields to a waiting task. */
#define LAT_RCU_BLIMIT 10

struct lat_stats {
	long cycles, overflow;
	double p50, p99, p999, max, avg;	/* us */
	double tail_pct;	/* share of samples above lat_reduce's @over_us */
	int nthreads;
};

/* Which threads: all (cpu < 0), those on @cpu, or (@others) the rest. */
struct lat_sel {
	int cpu, others;
};

/*
 * Reduce one cyclictest JSON text to the threads @sel names; tail_pct
 * counts samples above @over_us (< 0: none).  0, or -1 with err (also
 * when @sel names a CPU and a thread has none, or no thread matches).
 */
int lat_reduce(const char *text, const struct lat_sel *sel, double over_us,
	       struct lat_stats *st, char *err, size_t errlen);

struct upd_stats {
	int cpu, runtime;	/* runtime 0: null_update, no update figures */
	double hz;		/* achieved */
	double update_p50_us, slot_max_us, busy_pct;
	double batch_max_us;	/* LAT_RCU_BLIMIT callbacks, longest */
	double batch_busy_pct;	/* every run of callbacks */
};

/* Reduce one em_bench block of an updater load.  0, or -1 with err. */
int upd_reduce(const char *text, struct upd_stats *u, char *err,
	       size_t errlen);

/* "idle" or "upd<HZ>hz": block and metric label of a load. */
void lat_label(int hz, char *out, size_t len);

/* Every load of @s from run directory @dir into @ms. */
int lat_derive_run(const struct scenario *s, const char *dir,
		   struct metrics *ms, char *err, size_t errlen);

#endif
