/* SPDX-License-Identifier: GPL-2.0 */
/*
 * threads.h - who ran around a load's window, for the kinds with updater
 * loads (latency, wakeup): every thread's voluntary context switches (each
 * a sleep it was woken from) and CPU time (se.sum_exec_runtime of
 * /proc/<pid>/task/<tid>/sched, CONFIG_SCHED_DEBUG) just before and just
 * after the window, block threads-<load>.txt, lines
 * "B|A TID NAME SWITCHES RUNTIME_MS".  Summed per class of thread name
 * (threads.c), as vcsw_<class>.<load> and cpu_ms_<class>.<load>.
 * Threads that live only inside the window (rt-app's) are not seen; a
 * thread that exited is lost: what differs between kernels is seen.
 */
#ifndef EMRCU_SCEN_THREADS_H
#define EMRCU_SCEN_THREADS_H

#include <stddef.h>
#include <stdio.h>

#include "metrics.h"

struct judge;
struct outcome;
struct scenario;

#define THR_CLASSES 6

/* cmd.sh: the shell function, once; then around each window. */
void thr_prologue(FILE *f);
void thr_open(FILE *f);
void thr_close(FILE *f, const char *label);

/* threads-<label>.txt of @dir into @ms.  0, or -1 with err. */
int thr_derive(const char *dir, const char *label, struct metrics *ms,
	       char *err, size_t errlen);

/* The table: per load and run, each class's switches and CPU ms. */
void thr_table(struct judge *j, const struct scenario *s,
	       const struct outcome *o, int no);

#endif
