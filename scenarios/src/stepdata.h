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
};

/* Load step @label of run directory @dir.  0, or -1 with err. */
int stepdata_load(const char *dir, const char *label, struct stepdata *d,
		  char *err, size_t errlen);

#endif
