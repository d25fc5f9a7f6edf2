/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.h - a scenario's pass thresholds over all its runs and boots,
 * and its tables.  Per (run, metric) the boots are pooled: the median is
 * the figure, n and [min, max] its spread.
 *   energy:    oracle runs: median |EM error| <= pass.oracle_abs_err_pct_max
 *              at every step (a sanity check: the truth pushed); static-EM
 *              runs: >= pass.static_abs_err_pct_min at the last step (the
 *              effect the series exists for is there); two static runs
 *              agree within pass.aa_static_pp (A/A).  For the runtime@P
 *              runs (the worst step's median |error|): above the oracle's
 *              by >= pass.runtime_above_oracle_pp (measured, not pushed
 *              truth); no more than pass.runtime_monotone_pp above the
 *              next longer period's; the shortest period no more than
 *              pass.runtime_vs_best_static_pp above best-static's and
 *              pass.runtime_vs_static_pp (< 0: below by that much) above
 *              the boot-static run's of its kernel; the worst OPP's
 *              |error| of its table at a window's start >=
 *              pass.runtime_opp_err_pct_min (its own table, not the truth);
 *              >= pass.runtime_abs_err_pct_min (a declared mis-model shows);
 *              every run: the least step's median share of busy time the
 *              truth priced under the tasks' own profiles (profile=) >=
 *              pass.task_profile_pct_min;
 *   placement: runtime@P and oracle runs: median energy over optimum <=
 *              the workload's pass.over_optimal_pct (valid boots only;
 *              a median above it with a boot at or below it is
 *              inconclusive: QEMU's boot-to-boot spread, not the EM);
 *              oracle runs: the EM's own best placement of the declared
 *              load (no QEMU noise) over the optimum <=
 *              pass.em_choice_pct_max.  Paired per boot (boots of the same
 *              index, both valid; signtest.h): each runtime@P run against
 *              the boot-static run of its kernel, pooled over workloads,
 *              one-sided sign test p <= pass.paired_p_max (what it buys;
 *              a driver that never updated ties everywhere and fails);
 *              two static runs on different kernels, two-sided p >=
 *              pass.aa_p_min (A/A).  Too few pairs to reach the level:
 *              inconclusive.  The runtime run against best-static is
 *              tabled, not judged;
 *   shared:    median share of the true energy the EM does not see >=
 *              pass.invisible_pct_min for every workload;
 *   latency:   per load, the first run is the baseline; another run's
 *              median p99 / the baseline's must stay within
 *              max(A/A band x pass.noise_factor, pass.noise_floor_pct), the
 *              A/A band being the baseline's own (max - min) / min p99 over
 *              its boots.
 * A run that failed (timeout, crash, bad data) fails the scenario.
 */
#ifndef EMRCU_SCEN_VERDICT_H
#define EMRCU_SCEN_VERDICT_H

#include <stdio.h>

#include "metrics.h"
#include "scen.h"

struct outcome {
	int run;		/* index into scenario.run[] */
	int boot;
	int ok;
	char why[1600];		/* failure: variant, step, reason */
	struct metrics *ms;	/* NULL when !ok */
};

struct pooled {
	int n;
	double median, min, max;
};

/* Samples of (run, name, cluster) over the ok boots. */
struct pooled pool_metric(const struct outcome *o, int no, int run,
			  const char *name, int cluster);

/*
 * Judge, print the tables to @txt and the checks as JSON to @json.
 * Returns the number of failed checks (failed runs included), or -1 when
 * the scenario declares checks (pass.* thresholds) and none could be
 * judged: a suite that checked nothing has failed.  A scenario that
 * declares none ends "MEASURED: NAME: no checks", never PASS.
 */
int verdict(const struct scenario *s, const struct outcome *o, int no,
	    FILE *txt, FILE *json);

#endif
