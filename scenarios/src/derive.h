/* SPDX-License-Identifier: GPL-2.0 */
/* derive.h - the metrics of one energy/placement/shared run directory. */
#ifndef EMRCU_SCEN_DERIVE_H
#define EMRCU_SCEN_DERIVE_H

#include <stddef.h>

#include "metrics.h"
#include "scen.h"
#include "stepdata.h"

/* Largest meter self-check error accepted (fraction). */
#define METER_CHECK_MAX 0.01

/*
 * A step is valid for placement verdicts when the load ran as declared, so
 * that PELT saw the declared utilisation: every task's work within
 * STEP_WORK_DEV_MAX_PCT of what was due (a task starved by a crowded CPU
 * falls short) and the meter read at most STEP_LATE_MAX_PCT after the
 * window's end.  Overrun periods (missed_pct_max) are reported, not judged:
 * a vCPU that QEMU runs late ends a slice late, the task overruns that
 * period and owes the surplus back in the next ones (guest/load.h), so its
 * utilisation is unchanged: many periods may overrun while the work done
 * stays within the deviation.
 */
#define STEP_WORK_DEV_MAX_PCT 10
#define STEP_LATE_MAX_PCT 5

/* Largest |work - due| % over @d's tasks; overrun % of periods; meter late %. */
struct step_validity {
	double work_dev_pct, missed_pct, late_pct;
	int valid;
};

void step_validity(const struct stepdata *d, struct step_validity *v);

/*
 * Brute-force optimum of one step: per phase, of the tasks' achieved
 * utilisation (@declared 0: what ran) or of the declared one (@declared 1:
 * the model alone, free of QEMU noise).
 */
struct step_opt {
	int feasible;
	double optimal_uj;	/* best placement under the true model */
	double em_choice_uj;	/* best placement under the EM, true energy */
	double em_choice_em_uj;	/* ... and what the EM thinks it costs */
	int em_choice_cluster[OPT_MAX_TASKS];	/* last phase */
	int opt_cluster[OPT_MAX_TASKS];
};

int step_optimum(const struct stepdata *d, int declared, struct step_opt *o,
		 char *err, size_t errlen);

/*
 * Where the scheduler put the tasks, priced like the optimum (LISA's
 * method: the observed placement's estimated energy, not the meter, so
 * DVFS and vCPU noise do not count against the placement): per phase, each
 * task's achieved utilisation split over the CPUs it ran on, under the
 * true model with the kernel's OPP rule (optimal.h).  *uj; 0, 1 when
 * the guest did not record per-CPU work (nothing to price), -1 when a
 * CPU's utilisation fits no OPP (cannot happen for what really ran).
 */
int step_observed(const struct stepdata *d, double *uj);

/*
 * Every step of @s from run directory @dir into @ms: the figures every
 * load kind has, then @step's (NULL: none).  The label of step i is
 * step_label(s, i).  0, or -1 with err naming the step.
 */
typedef int (*derive_step_fn)(const struct scenario *s, int i,
			      const struct stepdata *d, struct metrics *ms,
			      char *err, size_t errlen);
int derive_steps(const struct scenario *s, const char *dir,
		 struct metrics *ms, derive_step_fn step, char *err,
		 size_t errlen);

/* A step's placement against the optimum (kinds with workloads as steps). */
int derive_placement(const struct scenario *s, int i,
		     const struct stepdata *d, struct metrics *ms, char *err,
		     size_t errlen);

/* Metric METRIC.LABEL of a step; 100 x (a - b) / b. */
int step_add(struct metrics *ms, const char *metric, const char *label,
	     const char *unit, const char *better, int cluster, double v);
double step_pct(double a, double b);

/* Step @i of a load kind (kind.h): its guest label, condition, workload. */
int scen_nsteps(const struct scenario *s);
const char *step_label(const struct scenario *s, int i);
const struct scen_cond *step_cond(const struct scenario *s, int i);
const struct scen_workload *step_workload(const struct scenario *s, int i);

#endif
