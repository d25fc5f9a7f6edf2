/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - the `workload` fields of a scenario:
 *
 *   workload = NAME TASK [; TASK]...
 *   TASK     = TNAME util=U[,U...]|ramp=FROM:TO:DELTA [ref=big|little]
 *              [period_ms=P] [phase_ms=MS] [count=N|bigs] [cluster=R]
 *              [profile=NAME]
 *
 * util: % of the biggest CPU at its highest OPP (ref=little, or the suffix
 * "l" on one value: of the lowest-capacity CPU, as LISA sizes small tasks),
 * one value per phase (a task with one value keeps it in every phase);
 * ramp: LISA's Ramp, FROM by DELTA up to the first value past TO, which is
 * set to TO, one phase each; period_ms (default 16); phase_ms: this
 * workload's phase length (default: the scenario's); count: N identical
 * tasks TNAME.0 .. TNAME.(N-1), bigs: one per CPU of the highest capacity
 * (LISA's one task per big CPU); cluster: pinned to the
 * cluster of capacity rank R (0 = lowest capacity), nothing hard-codes how
 * many clusters there are; profile: the model's power profile this task
 * runs under, whatever the platform's (energy scenarios; model_data.h: the
 * guest names the thread EMRCU_TASK_PROFILE_PREFIX NAME).  Every phase must fit the topology (a brute-force
 * search for one placement in which no CPU is over capacity).
 */
#ifndef EMRCU_SCEN_WORKLOAD_H
#define EMRCU_SCEN_WORKLOAD_H

#include "emrcu/field.h"
#include "optimal.h"
#include "scen.h"

#define TASK_DEFAULT_PERIOD_MS 16	/* LISA's rt-app default period */

int parse_workloads(const struct fctx *f, struct scenario *s);

/* Phases of a workload: the most of any task (>= 1). */
int workload_phases(const struct scen_workload *w);

/* The length of one of @w's phases, ms. */
int workload_phase_ms(const struct scenario *s, const struct scen_workload *w);

/* Utilisation of a task in phase @ph (% of 1024). */
double task_util(const struct scen_task *t, int ph);

/* The topology as an optimiser model with capacities only (no power). */
void topo_capacity_model(const struct topo *t, struct opt_model *m);

#endif
