/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest plan: what emrcu-scen-guest does in one boot, written by the
 * host driver (scenarios/src/planwrite.c) and read here.  One directive per
 * line, fields separated by blanks, '#' starts a comment:
 *
 *   em static|push|best-static
 *                            static: never touch the EM (with heat the
 *                            platform's EM driver may); push: the truth
 *                            into the EM (em_update) at every step;
 *                            best-static: each step runs twice, a pilot
 *                            pass, then the truth at each die's mean
 *                            temperature of it pushed once (em_update
 *                            mean), then the measured pass
 *   heat MS:MW,MS:MW...      the external heat schedule, written to the
 *                            platform (thermal=1) at every step's start,
 *                            after the temperature (the ambient, which
 *                            resets the dies)
 *   warmup_ms N              load before the meter starts, per step
 *   phase_ms N               length of one workload phase, for the
 *                            steps that follow (default 1000)
 *   slice_us N               work-accounting slice of the load engine
 *   step LABEL TEMP_MC PROFILE BIN_MV
 *                            a new step: set the conditions, run its tasks
 *   rtapp PATH               run the current step's tasks with rt-app from
 *                            the JSON file PATH instead of the load engine
 *   task NAME PERIOD_US UTILS CPUS [COMM]
 *                            a periodic task of the current step.  UTILS:
 *                            comma-separated utilisation per phase, % of the
 *                            biggest CPU at its highest frequency; CPUS:
 *                            "-" (anywhere) or a cpulist (pinned); COMM: the
 *                            thread's name (the platform reads a per-task
 *                            power profile from it), "-" or absent: kept
 */
#ifndef EMRCU_SCEN_PLAN_H
#define EMRCU_SCEN_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define PLAN_MAX_STEPS 32
#define PLAN_MAX_TASKS 16
#define PLAN_MAX_PHASES 16
#define PLAN_NAME_LEN 48

enum plan_em { PLAN_EM_STATIC, PLAN_EM_PUSH, PLAN_EM_BEST_STATIC };

struct plan_task {
	char name[PLAN_NAME_LEN];
	long period_us;
	int nphases;
	double util[PLAN_MAX_PHASES];	/* % of capacity 1024 at fmax */
	uint64_t cpus;			/* 0: anywhere */
	char comm[16];			/* "": the process's name */
};

struct plan_step {
	char label[PLAN_NAME_LEN];
	int temp_mc;
	char profile[32];
	int bin_mv;
	long phase_ms;		/* one phase of this step's tasks */
	char rtapp[96];		/* "": the load engine */
	int ntasks;
	struct plan_task task[PLAN_MAX_TASKS];
};

struct plan {
	enum plan_em em;
	char heat[256];		/* "MS:MW MS:MW ...", "": no heat */
	long warmup_ms, phase_ms, slice_us;	/* phase_ms: the next step's */
	int nsteps;
	struct plan_step step[PLAN_MAX_STEPS];
};

/* Parse a whole plan.  0, or -1 with "line N: reason" in err. */
int plan_parse(const char *text, struct plan *p, char *err, size_t errlen);

/* Phases of a step: the most phases of any of its tasks (>= 1). */
int plan_step_phases(const struct plan_step *s);

#endif
