/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge.h - what a kind's ->judge (kind.h) uses: checks recorded into
 * verdict.json and printed, figures pooled over boots, table cells.
 */
#ifndef EMRCU_SCEN_JUDGE_H
#define EMRCU_SCEN_JUDGE_H

#include <stdio.h>

#include "verdict.h"

struct json;

struct judge {
	FILE *txt;
	struct json *checks;	/* verdict.json's "checks" */
	int nchecks, judged, inconclusive, failed;
};

/*
 * One check: @value @op @limit on run @run, @pass or not; @judged 0 only
 * reports it (INFO).  @op "ran" is a run that failed.
 */
void judge_check(struct judge *j, const char *what, const char *run,
		 double value, const char *op, double limit, int pass,
		 int judged);

/* METRIC.LABEL of run @r over its ok boots; ..._valid: the boots whose
 * step LABEL was valid (derive.h). */
struct pooled pool_step(const struct outcome *o, int no, int r,
			const char *metric, const char *label, int cl);
struct pooled pool_step_valid(const struct outcome *o, int no, int r,
			      const char *metric, const char *label, int cl);

/* Boots of run @r that produced data. */
int boots_ok(const struct outcome *o, int no, int r);

/* The run of @em whose variant is @variant, else the first of @em, or -1. */
int run_of(const struct scenario *s, enum scen_em em, const char *variant);

/* A table cell: the median as @fmt, "±" half the range over >1 boots. */
void table_cell(FILE *f, struct pooled p, const char *fmt);

/* A column of load_table(). */
struct table_col {
	const char *metric, *head, *fmt;
};

/* The placement columns, for the kinds that price against an optimum. */
#define PLACEMENT_COLS \
	{ "optimal_energy_mj", "opt mJ", "%.2f" }, \
	{ "placement_over_optimal_pct", "placed over %", "%.1f" }, \
	{ "energy_over_optimal_pct", "meter over %", "%.1f" }, \
	{ "task_energy_over_optimal_pct", "-bg over %", "%.1f" }, \
	{ "em_choice_over_optimal_pct", "EM-pick over %", "%.1f" }, \
	{ "em_choice_declared_over_optimal_pct", "..declared %", "%.1f" }

/*
 * Load kinds: per run, a row per step of the energies and EM error, then
 * @extra's columns (terminated by a NULL metric), busy share by cluster,
 * work done and valid boots.
 */
void load_table(struct judge *j, const struct scenario *s,
		const struct outcome *o, int no, const struct table_col *extra);

#endif
