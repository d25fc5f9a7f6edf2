// SPDX-License-Identifier: GPL-2.0
/*
 * kind shared: workloads whose energy goes partly to cluster-shared power
 * that no EM models; the share of the true energy the EM does not see
 * (verdict.h).
 */
#include <stdio.h>

#include "derive.h"
#include "emrcu/field.h"
#include "judge.h"
#include "kind.h"
#include "planwrite.h"

static int shared_parse(const struct fctx *f, struct scenario *s)
{
	return scen_parse_load(f, s) ||
	       fnum(f, "pass.invisible_pct_min", 0, 0, 100, -1,
		    &s->invisible_pct_min);
}

/* The placement figures, then against the first workload's. */
static int shared_step(const struct scenario *s, int i,
		       const struct stepdata *d, struct metrics *ms, char *err,
		       size_t errlen)
{
	static struct stepdata ref;
	const char *l = step_label(s, i);
	char m[METRIC_NAME_LEN];

	int ret;

	if (derive_placement(s, i, d, ms, err, errlen))
		return -1;
	ret = step_add(ms, "em_invisible_pct", l, "%", "none", -1,
		       -step_pct(d->em_uj, d->true_uj));
	if (i == 0) {
		ref = *d;
	} else {
		snprintf(m, sizeof(m), "vs_%s_true_pct", step_label(s, 0));
		ret |= step_add(ms, m, l, "%", "none", -1,
				step_pct(d->true_uj, ref.true_uj));
		snprintf(m, sizeof(m), "vs_%s_em_pct", step_label(s, 0));
		ret |= step_add(ms, m, l, "%", "none", -1,
				step_pct(d->em_uj, ref.em_uj));
	}
	if (ret)
		snprintf(err, errlen, "too many metrics");
	return ret;
}

static int shared_derive(const struct scenario *s, const char *dir,
			 struct metrics *ms, char *err, size_t errlen)
{
	return derive_steps(s, dir, ms, shared_step, err, errlen);
}

static int shared_declares(const struct scenario *s)
{
	return s->invisible_pct_min >= 0;
}

static void shared_judge(struct judge *j, const struct scenario *s,
			 const struct outcome *o, int no)
{
	static const struct table_col cols[] = {
		PLACEMENT_COLS,
		{ "shared_power_mw", "shared mW", "%.1f" },
		{ "shared_pct", "shared %", "%.1f" },
		{ NULL }
	};
	char rn[80], what[160];
	int r, i;

	load_table(j, s, o, no, cols);
	for (i = 0; s->invisible_pct_min >= 0 && i < s->nworkloads; i++) {
		for (r = 0; r < s->nruns; r++) {
			/* residency-based: valid under contention too */
			struct pooled p = pool_step(o, no, r, "em_invisible_pct",
						    s->w[i].name, -1);

			scen_run_name(s, r, rn, sizeof(rn));
			snprintf(what, sizeof(what), "%s: true energy the EM does not see %%",
				 s->w[i].name);
			judge_check(j, what, rn, p.median, ">=", s->invisible_pct_min,
				    p.n && p.median >= s->invisible_pct_min, 1);
		}
	}
}

static const struct scen_load_rules shared_rules = { 0 };

const struct scen_kind kind_shared = {
	.name = "shared",
	.takes_em = 1,
	.needs_eas = 1,
	.load = &shared_rules,
	.parse = shared_parse,
	.nitems = scen_nsteps,
	.plan = plan_write,
	.cmd = load_cmd,
	.derive = shared_derive,
	.declares_checks = shared_declares,
	.judge = shared_judge,
};
