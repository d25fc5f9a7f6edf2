/* SPDX-License-Identifier: GPL-2.0 */
/*
 * optimal.h - brute-force task placement under a power model (as LISA's
 * EAS behaviour tests do, under the platform's ground truth here).
 *
 * A placement puts every task on one CPU.  Per cluster the OPP is the lowest
 * whose capacity (cap * khz / khz_max) holds OPT_FREQ_HEADROOM times the
 * busiest CPU's summed utilisation, capped at the top OPP (no placement fits
 * when the top OPP does not hold the utilisation itself); a CPU with
 * utilisation U is busy b = U / capacity-at-OPP of the time.  Power:
 *   true: sum over CPUs of b * busy_uw + (1 - b) * idle_uw, plus the
 *         cluster's shared_uw times P(any CPU busy) = 1 - prod(1 - b)
 *         (busy periods taken as independent); a cluster without tasks
 *         idles at its lowest OPP;
 *   em:   sum over CPUs of b * em_uw (what em_cpu_energy() computes: the EM
 *         models busy power only).
 * CPUs of one cluster are interchangeable, so only canonical placements are
 * enumerated (a task goes to a used CPU of the cluster or to its next one).
 */
#ifndef EMRCU_SCEN_OPTIMAL_H
#define EMRCU_SCEN_OPTIMAL_H

/*
 * The frequency headroom the kernel applies when it picks an OPP for a
 * utilisation: map_util_perf() (util + util/4) in schedutil and in 6.1's
 * em_cpu_energy().  An optimum without it assumes OPPs the kernel never
 * selects, and every observed placement would look ~20 % worse than it is.
 */
#define OPT_FREQ_HEADROOM 1.25

#define OPT_MAX_CLUSTERS 16
#define OPT_MAX_OPPS 32
#define OPT_MAX_TASKS 8
#define OPT_MAX_CPUS_PER_CL 16
#define OPT_MAX_LEAVES 50000000L	/* enumeration budget */

struct opt_cluster {
	int ncpus;
	double cap;			/* final capacity, biggest = 1024 */
	int nopps;
	double khz[OPT_MAX_OPPS];
	double busy_uw[OPT_MAX_OPPS];
	double idle_uw[OPT_MAX_OPPS];
	double em_uw[OPT_MAX_OPPS];
	double shared_uw;
};

struct opt_model {
	int ncl;
	struct opt_cluster cl[OPT_MAX_CLUSTERS];
};

struct opt_task {
	double util;			/* capacity units, 0..1024 */
	int cluster;			/* allowed cluster index, -1: any */
};

enum opt_objective { OPT_TRUE, OPT_EM };

struct opt_result {
	int feasible;
	long leaves;			/* placements evaluated */
	int truncated;			/* OPT_MAX_LEAVES hit */
	double true_uw;			/* of the chosen placement */
	double em_uw;
	int cluster[OPT_MAX_TASKS];	/* per task */
	int cpu[OPT_MAX_TASKS];		/* index inside its cluster */
};

/*
 * The placement minimising @obj; ties (within 1e-9 relative) go to the
 * lower true power, so OPT_EM gives the best the EM's own numbers can do.
 * 0, or -1 on bad input (too many tasks, clusters or OPPs).
 */
int opt_best(const struct opt_model *m, const struct opt_task *t, int n,
	     enum opt_objective obj, struct opt_result *r);

/* Power of one placement (@cluster/@cpu per task); 0 infeasible, 1 ok. */
int opt_eval(const struct opt_model *m, const struct opt_task *t, int n,
	     const int *cluster, const int *cpu, double *true_uw,
	     double *em_uw);

/*
 * Power of a split placement: @u[k][i] the utilisation (capacity units) on
 * CPU i of cluster k, which may hold parts of tasks (a task that ran on
 * several CPUs in a phase).  Same rules as opt_eval(); 0 infeasible, 1 ok.
 */
int opt_eval_util(const struct opt_model *m,
		  double u[][OPT_MAX_CPUS_PER_CL], double *true_uw,
		  double *em_uw);

/* Is there any placement where every CPU's utilisation fits? (power unused) */
int opt_feasible(const struct opt_model *m, const struct opt_task *t, int n);

#endif
