/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The load engine: periodic tasks whose work scales with CPU speed.
 *
 * QEMU's vCPUs all run at the host's speed whatever their declared capacity
 * and cpufreq OPP, so a plain busy loop (rt-app's "run") takes the same time
 * on a little CPU at its lowest OPP as on a big one at fmax: schedutil's
 * feedback then drives every domain to its lowest OPP and EAS sees every
 * task as tiny.  Here a task's work is counted in reference nanoseconds (ns
 * on a capacity-1024 CPU at fmax): running for dt on CPU c at frequency f
 * does dt * cap(c)/1024 * f/fmax(c) of it, dt being the thread's own CPU
 * time (CLOCK_THREAD_CPUTIME_ID: time spent preempted does no work).  A task
 * of utilisation u% does u% of its period in reference ns every period, so
 * it stays busy longer on slower CPUs and lower OPPs, as on real hardware,
 * and PELT sees its true utilisation everywhere.
 *
 * A slice ends when CLOCK_MONOTONIC says so; a vCPU that QEMU did not run
 * meanwhile (round-robin TCG in deterministic mode, host contention in
 * realtime mode) reads the clock late, and the guest counts the gap as the
 * thread's CPU time.  Ending every 200 us slice late made tasks do 10-75 %
 * more work than declared when 2-5 vCPUs were busy, and overrun their
 * periods.  The surplus of a period is therefore carried: the next periods
 * do that much less, so over the window a task does what it declared and
 * PELT sees the declared utilisation.
 */
#ifndef EMRCU_SCEN_LOAD_H
#define EMRCU_SCEN_LOAD_H

#include <stdint.h>
#include <stdio.h>

#include "plan.h"
#include "emrcu/sysfs.h"

struct load_cpus {
	int ncpus;
	double speed[EMRCU_MAX_CPUS];	/* cap / 1024 / fmax_khz */
	int freq_fd[EMRCU_MAX_CPUS];	/* scaling_cur_freq, -1: none */
};

struct load_task_stats {
	uint64_t busy_ns[EMRCU_MAX_CPUS];	/* CPU time in the window */
	double work_ns;			/* reference ns done in the window */
	/* the same per phase and CPU: where the scheduler ran the task */
	double phase_cpu_work_ns[PLAN_MAX_PHASES][EMRCU_MAX_CPUS];
	double expected_ns;		/* reference ns due in the window */
	long periods, missed;		/* periods started in the window */
};

/* Work rate of @cpu now (cap / 1024 x f / fmax; 1 if unknown). */
double load_rate(const struct load_cpus *c, int cpu);

/* Open every CPU's capacity and frequency.  0, or -1. */
int load_cpus_open(struct load_cpus *c);

/*
 * Run @s's tasks: from now for @warmup_ms (not counted), then the measured
 * window of plan_step_phases(s) * @phase_ms.  @window_start is called at the
 * start of the window (reset the meter there), @window_end at its end (read
 * the meter); the tasks are stopped after.  Per-task stats in @st.
 * 0, or -1 when a task could not be started.
 */
int load_run(const struct load_cpus *c, const struct plan_step *s,
	     long warmup_ms, long phase_ms, long slice_us,
	     void (*window_start)(void *), void (*window_end)(void *),
	     void *arg, struct load_task_stats *st, uint64_t *window_ns);

/* @engine: "emulated" or "rt-app". */
void load_print_json(FILE *f, const struct plan_step *s,
		     const struct load_task_stats *st, int ncpus,
		     uint64_t window_ns, const char *engine);

/*
 * The same contract as load_run() with Debian's rt-app running the step's
 * JSON (s->rtapp).  rt-app's threads (named after the tasks) are sampled
 * every RTAPP_SAMPLE_MS: CPU time from /proc/PID/task/TID/sched is
 * charged to the CPU the thread was last seen on, and weighted by that
 * CPU's work rate, so work_ns is what the scheduler sees (PELT).  Periods
 * and overruns are not observable (0).
 */
#define RTAPP_SAMPLE_MS 5
int rtapp_run(const struct load_cpus *c, const struct plan_step *s,
	      long warmup_ms, long phase_ms,
	      void (*window_start)(void *), void (*window_end)(void *),
	      void *arg, struct load_task_stats *st, uint64_t *window_ns);

#endif
