/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stepdata.h - one step of a guest run, from its result blocks
 * (LABEL.power.json, .em.json, .meter.json, .tasks.json; params.json),
 * reduced to energies:
 *   true_uj       the meter: every CPU (busy + idle) and every cluster's
 *                 shared power, over the measured window;
 *   busy_uj       true busy energy: sum of busy residency per OPP x the
 *                 model's busy power there (the part the EM models);
 *   idle_uj       the same for idle residency;
 *   em_uj         the EM's estimate of the busy energy: busy residency per
 *                 OPP x the EM's power of that OPP (em_cpu_energy() sums
 *                 cost x util / capacity = power x busy fraction);
 *   bg_uj         background: per CPU, the share of its busy time no task
 *                 accounts for x (busy - idle) energy of that time (other
 *                 processes, kernel threads, interrupts; under host
 *                 contention inflated by vCPU stalls);
 *   meter_check   |meter CPU energy - (busy + idle)| / meter, a self-check
 *                 of the meter against the tables (conditions are constant
 *                 inside a window).
 * When the meter integrates busy and EM energy itself (emrcu_platform's
 * busy_uj / em_uj: the truth and the EM in effect at every instant), busy_uj
 * and em_uj are the meter's and the table products only check them
 * (meter_check also compares the EM energies); with heat the conditions
 * change inside the window, so there is no table to check against.
 *   heat          the platform ran thermal dynamics (LABEL.thermal.json):
 *                 per cluster the dies' window statistics, and the EM
 *                 driver's updates (LABEL.driver.json).
 */
#ifndef EMRCU_SCEN_STEPDATA_H
#define EMRCU_SCEN_STEPDATA_H

#include <stddef.h>

#include "optimal.h"

#define SD_MAX_CLUSTERS 16
#define SD_MAX_CPUS 64
#define SD_MAX_TASKS 16
#define SD_MAX_PHASES 16

struct sd_task {
	char name[48];
	double util_decl[SD_MAX_PHASES];	/* declared, % */
	int ndecl;
	double util_ach[SD_MAX_PHASES];		/* achieved, % */
	int pinned_cluster;			/* -1: not pinned */
	double cl_ns[SD_MAX_CLUSTERS];		/* CPU time per cluster */
	long periods, missed;
	double work_pct;			/* done / due */
	/* achieved utilisation per phase and CPU, % (where it ran); only
	 * when the guest recorded it (has_cpu_util) */
	int has_cpu_util;
	double cpu_util[SD_MAX_PHASES][SD_MAX_CPUS];
};

struct stepdata {
	double window_s;
	int nphases;
	double true_uj, shared_uj, busy_uj, idle_uj, em_uj, meter_cpus_uj;
	double meter_check;
	double meter_span_s;			/* reset to snapshot */
	int ncl;
	double cl_busy_ns[SD_MAX_CLUSTERS];	/* all CPUs of the cluster */
	double cl_busy_khz_ns[SD_MAX_CLUSTERS];	/* the same x OPP frequency */
	double cl_shared_uj[SD_MAX_CLUSTERS];
	int ncpus;
	int cpu_cluster[SD_MAX_CPUS];		/* cluster of CPU i, -1: none */
	int cpu_slot[SD_MAX_CPUS];		/* index of CPU i in it */
	double cpu_busy_ns[SD_MAX_CPUS];	/* meter */
	double cpu_task_ns[SD_MAX_CPUS];	/* the tasks' CPU time there */
	double cpu_busy_extra_uj[SD_MAX_CPUS];	/* busy - idle energy there */
	double bg_uj;		/* busy - idle energy of what was not a task */
	int ntasks;
	struct sd_task task[SD_MAX_TASKS];
	struct opt_model model;		/* true + EM power, final capacities */
	char em_source[16];

	/* % of busy time under a task's own profile (profile=), not the
	 * platform's: the truth then is no table of power.json */
	double task_profile_pct;
	int meter_em;				/* busy/EM energies from the meter */
	double cl_busy_uj[SD_MAX_CLUSTERS], cl_em_uj[SD_MAX_CLUSTERS];
	int heat;
	double die_mean_c[SD_MAX_CLUSTERS], die_min_c[SD_MAX_CLUSTERS];
	double die_max_c[SD_MAX_CLUSTERS], sensor_err_c[SD_MAX_CLUSTERS];
	/* the EM's error at the thermal tick: busy, |EM - busy| summed */
	double tick_busy_uj[SD_MAX_CLUSTERS], tick_abs_err_uj[SD_MAX_CLUSTERS];
	double drv_updates, drv_update_ns_sum, drv_update_ns_max, drv_failed;
	double drv_update_ns_min, drv_iters, drv_iter_ns_sum, drv_iter_ns_min;
	double drv_span_ns;			/* first to last update */
	char drv_mode[16];
};

/* Load step @label of run directory @dir.  0, or -1 with err. */
int stepdata_load(const char *dir, const char *label, struct stepdata *d,
		  char *err, size_t errlen);

#endif
