/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kind.h - a scenario kind as an ops table, the way refscale and
 * rcutorture declare their readers: scen.c parses the fields every kind
 * has and calls ->parse for the kind's own; drive.c ships ->plan and
 * ->cmd into each boot and calls ->derive on what the boot left;
 * verdict.c calls ->judge over all boots.  A new kind is one kind_NAME.c
 * and one line in kind.c's table.
 */
#ifndef EMRCU_SCEN_KIND_H
#define EMRCU_SCEN_KIND_H

#include <stddef.h>
#include <stdio.h>

#include "scen.h"

struct env;
struct fctx;
struct judge;
struct metrics;
struct outcome;
struct vm_boot;

/*
 * Kinds whose boots run emrcu-scen-guest's plan: one step per workload
 * under one condition, or (@timeline) one workload under a timeline of
 * conditions.  scen.c parses their common fields (scen_parse_load()).
 */
struct scen_load_rules {
	int timeline;
	int heat;		/* takes a heat schedule (field heat) */
	int task_profiles;	/* tasks may run under their own profile= */
	int over_optimal;	/* workloads take pass.over_optimal_pct */
};

struct scen_kind {
	const char *name;
	int takes_em;		/* runs are VARIANT:EM (else VARIANT alone) */
	int needs_eas;		/* two CPU capacities; the boot checks EAS ran */
	const struct scen_load_rules *load;	/* NULL: no guest plan */
	/* A second module built per variant and shipped as @module_guest. */
	const char *module, *module_guest;

	/* The kind's own fields and pass.* thresholds. */
	int (*parse)(const struct fctx *f, struct scenario *s);
	/* Steps, workloads or loads one boot runs. */
	int (*nitems)(const struct scenario *s);
	/* The guest plan (load kinds), then cmd.sh's body. */
	int (*plan)(FILE *f, const struct scenario *s, const struct scen_run *r);
	int (*cmd)(FILE *f, const struct scenario *s, const struct scen_run *r,
		   int runtime_em);
	/* Optional: files of its own in @dir, runner options in @b. */
	int (*boot)(const struct env *e, const struct scenario *s, int r,
		    const char *dir, struct vm_boot *b);
	/* One boot's figures from its run directory; 0 or -1 with err. */
	int (*derive)(const struct scenario *s, const char *dir,
		      struct metrics *ms, char *err, size_t errlen);
	/* Does @s declare a threshold this kind judges? */
	int (*declares_checks)(const struct scenario *s);
	/* Tables to j->txt, checks through judge_check() (judge.h). */
	void (*judge)(struct judge *j, const struct scenario *s,
		      const struct outcome *o, int no);
};

extern const struct scen_kind kind_energy, kind_placement, kind_shared,
	kind_latency, kind_wakeup;

/* Every kind, NULL-terminated (kind.c). */
extern const struct scen_kind *const scen_kinds[];

/* Fields every load kind has (scen.c): load, workloads, heat. */
int scen_parse_load(const struct fctx *f, struct scenario *s);

#endif
