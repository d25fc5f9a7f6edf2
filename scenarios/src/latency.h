/* SPDX-License-Identifier: GPL-2.0 */
/*
 * latency.h - cyclictest --json histograms -> wakeup latency figures.
 * All threads (one per CPU) of a boot are pooled into one histogram of
 * 1 us buckets; samples beyond the histogram (cycles - histogram count)
 * are overflow: a percentile that lands there is reported as the largest
 * thread max (and flagged).
 */
#ifndef EMRCU_SCEN_LATENCY_H
#define EMRCU_SCEN_LATENCY_H

#include <stddef.h>

#include "metrics.h"
#include "scen.h"

#define LAT_MAX_US 100000

struct lat_stats {
	long cycles, overflow;
	double p50, p99, p999, max, avg;
	int nthreads;
};

/* Reduce one cyclictest JSON text.  0, or -1 with err. */
int lat_reduce(const char *text, struct lat_stats *st, char *err,
	       size_t errlen);

/* "idle" or "upd<HZ>hz": block and metric label of a load. */
void lat_label(int hz, char *out, size_t len);

/* Every load of @s from run directory @dir into @ms. */
int lat_derive_run(const struct scenario *s, const char *dir,
		   struct metrics *ms, char *err, size_t errlen);

#endif
