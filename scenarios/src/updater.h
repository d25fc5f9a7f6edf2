/* SPDX-License-Identifier: GPL-2.0 */
/*
 * updater.h - the loads of the latency and wakeup kinds: idle, or
 * em_bench's updater at a rate (with its readers on bench_readers), the
 * same on every kernel: without the runtime EM the updater wakes at the
 * same rate and skips the update (em_bench null_update), the control.
 *
 *   loads = idle | HZ ...      bench_readers = last | CPULIST
 *   bench_loops = N
 */
#ifndef EMRCU_SCEN_UPDATER_H
#define EMRCU_SCEN_UPDATER_H

#include <stddef.h>
#include <stdio.h>

#include "scen.h"

struct fctx;

/* The fields above into s->lat (loads, readers, loops).  0 or -1. */
int updater_parse(const struct fctx *f, struct scenario *s);

/* cmd.sh: $READERS, once, before the loads. */
void updater_prologue(FILE *f, const struct scenario *s);

/* Load @i's em_bench result block, "updater-<label>.json" (latency.h). */
void updater_block(const struct scenario *s, int i, char *out, size_t len);

/*
 * cmd.sh: start load @i's updater of run @r in the background for @ms ms
 * (nothing for idle), then stop it and wait for it (its result block,
 * updater_block(), printed after whatever the load measured).
 * @idle_readers: the readers sleep between their passes (em_bench
 * reader_idle=1) instead of keeping their CPU busy, which would leave the
 * root domain overutilized and EAS off.  Runs after the first get
 * s->inject too.
 */
void updater_start(FILE *f, const struct scenario *s, const struct scen_run *r,
		   int i, int runtime_em, int ms, int idle_readers);
void updater_stop(FILE *f, const struct scenario *s, int i);

#endif
