// SPDX-License-Identifier: GPL-2.0
/*
 * kind energy: one workload along a timeline of conditions (temperature,
 * profile or bin); how far each run's EM is from the truth (verdict.h).
 */
#include <math.h>
#include <string.h>

#include "derive.h"
#include "emrcu/field.h"
#include "judge.h"
#include "kind.h"
#include "model.h"
#include "planwrite.h"

static int energy_parse(const struct fctx *f, struct scenario *s)
{
	return scen_parse_load(f, s) ||
	       fnum(f, "pass.runtime_above_oracle_pp", 0, 0, 1000, -1,
		    &s->runtime_above_oracle_pp) ||
	       fnum(f, "pass.runtime_monotone_pp", 0, 0, 1000, -1,
		    &s->runtime_monotone_pp) ||
	       fnum(f, "pass.runtime_vs_best_static_pp", 0, 0, 1000, -1,
		    &s->runtime_vs_best_static_pp) ||
	       fnum(f, "pass.runtime_abs_err_pct_min", 0, 0, 1000, -1,
		    &s->runtime_abs_err_pct_min) ||
	       fnum(f, "pass.runtime_vs_static_pp", 0, -100, 100, -1000,
		    &s->runtime_vs_static_pp) ||
	       fnum(f, "pass.runtime_opp_err_pct_min", 0, 0, 1000, -1,
		    &s->runtime_opp_err_pct_min) ||
	       fnum(f, "pass.task_profile_pct_min", 0, 0, 100, -1,
		    &s->task_profile_pct_min) ||
	       fnum(f, "pass.oracle_abs_err_pct_max", 0, 0, 1000, -1,
		    &s->oracle_abs_err_pct_max) ||
	       fnum(f, "pass.static_abs_err_pct_min", 0, 0, 1000, -1,
		    &s->static_abs_err_pct_min) ||
	       fnum(f, "pass.aa_static_pp", 0, 0, 1000, -1, &s->aa_static_pp);
}

/* The common figures, then the worst step's |EM error|. */
static int energy_derive(const struct scenario *s, const char *dir,
			 struct metrics *ms, char *err, size_t errlen)
{
	char n[METRIC_NAME_LEN + 64];
	double maxerr = 0;
	int i;

	if (derive_steps(s, dir, ms, NULL, err, errlen))
		return -1;
	for (i = 0; i < scen_nsteps(s); i++) {
		const struct metric *m;

		snprintf(n, sizeof(n), "em_abs_err_pct.%s", step_label(s, i));
		m = metric_find(ms, n, -1);
		if (m && m->n && m->v[0] > maxerr)
			maxerr = m->v[0];
	}
	if (metric_add(ms, "em_abs_err_pct_max", "%", "lower", -1, maxerr)) {
		snprintf(err, errlen, "too many metrics");
		return -1;
	}
	return 0;
}

static int energy_declares(const struct scenario *s)
{
	return s->oracle_abs_err_pct_max >= 0 ||
	       s->static_abs_err_pct_min >= 0 || s->aa_static_pp >= 0 ||
	       s->runtime_above_oracle_pp >= 0 ||
	       s->runtime_monotone_pp >= 0 ||
	       s->runtime_vs_best_static_pp >= 0 ||
	       s->runtime_vs_static_pp > -1000 ||
	       s->runtime_opp_err_pct_min >= 0 ||
	       s->runtime_abs_err_pct_min >= 0 ||
	       s->task_profile_pct_min >= 0;
}

/*
 * Heat runs, and energy scenarios with an EM driver: per step, one row per
 * run: the EM's error (with heat at the tick, in total and per cluster),
 * its worst OPP when the window opened, what the driver cost and, with
 * heat, how hot each die ran.
 */
static void driver_table(struct judge *j, const struct scenario *s,
			 const struct outcome *o, int no)
{
	int i, r, k, ncl = s->topo.nclusters;
	char rn[80], h[32];

	for (i = 0; i < scen_nsteps(s); i++) {
		const char *l = step_label(s, i);

		if (s->heat) {
			fprintf(j->txt, "\nheat %s: |EM error| %% at the %d ms tick (all, per cluster), window total, worst OPP at the window's start, EM driver, dies (mean/max C)\n%-28s %14s",
				l, model_thermal_tick_ms(), "run", "|err| %");
			for (k = 0; k < ncl; k++) {
				snprintf(h, sizeof(h), "pd%d %%", k);
				fprintf(j->txt, " %14s", h);
			}
		} else {
			fprintf(j->txt, "\n%s: EM error %% over the window, worst OPP at the window's start, EM driver\n%-28s",
				l, "run");
		}
		fprintf(j->txt, " %14s %14s", "window %", "OPP max %");
		fprintf(j->txt, " %14s %14s %14s %14s %14s", "drv CPU %", "..min %", "updates",
			"period ms", "min us/upd");
		for (k = 0; s->heat && k < ncl; k++) {
			snprintf(h, sizeof(h), "die%d C", k);
			fprintf(j->txt, " %13s", h);
		}
		fputc('\n', j->txt);
		for (r = 0; r < s->nruns; r++) {
			scen_run_name(s, r, rn, sizeof(rn));
			fprintf(j->txt, "%-28s", rn);
			if (s->heat) {
				table_cell(j->txt, pool_step(o, no, r, "em_tick_abs_err_pct", l, -1), "%.2f");
				for (k = 0; k < ncl; k++)
					table_cell(j->txt, pool_step(o, no, r, "em_tick_abs_err_pct", l, k), "%.2f");
			}
			table_cell(j->txt, pool_step(o, no, r, "em_err_pct", l, -1), "%.2f");
			table_cell(j->txt, pool_step(o, no, r, "em_opp_abs_err_pct_max", l, -1), "%.2f");
			table_cell(j->txt, pool_step(o, no, r, "driver_cpu_pct", l, -1), "%.3f");
			table_cell(j->txt, pool_step(o, no, r, "driver_cpu_min_pct", l, -1), "%.3f");
			table_cell(j->txt, pool_step(o, no, r, "driver_updates", l, -1), "%.0f");
			table_cell(j->txt, pool_step(o, no, r, "driver_period_ms", l, -1), "%.1f");
			table_cell(j->txt, pool_step(o, no, r, "update_us_min", l, -1), "%.1f");
			for (k = 0; s->heat && k < ncl; k++) {
				struct pooled a = pool_step(o, no, r, "die_mean_c", l, k);
				struct pooled b = pool_step(o, no, r, "die_max_c", l, k);

				if (a.n && b.n)
					fprintf(j->txt, " %6.1f/%-6.1f", a.median, b.median);
				else
					fprintf(j->txt, " %13s", "-");
			}
			fputc('\n', j->txt);
		}
	}
}

/*
 * The |EM error| a scenario is judged on: over the window when conditions
 * are constant in it; with heat, resolved at the thermal tick (a window
 * total lets an error that changes sign cancel: a static table at the mean
 * temperature would read near 0 while mis-pricing every instant).
 */
static const char *err_metric(const struct scenario *s)
{
	return s->heat ? "em_tick_abs_err_pct" : "em_abs_err_pct";
}

/*
 * Median @metric of run @r over the steps: the highest step's, or with
 * @least the lowest's.
 */
static double step_extreme(const struct scenario *s, const struct outcome *o,
			   int no, int r, const char *metric, int least)
{
	double ext = NAN;
	int i;

	for (i = 0; i < scen_nsteps(s); i++) {
		struct pooled p = pool_step(o, no, r, metric, step_label(s, i), -1);

		if (p.n && !(least ? p.median >= ext : p.median <= ext))
			ext = p.median;
	}
	return ext;	/* no step with data: NAN, which fails every check */
}

/* Median @metric of run @r over the steps: the worst (highest) step's. */
static double worst_step(const struct scenario *s, const struct outcome *o,
			 int no, int r, const char *metric)
{
	return step_extreme(s, o, no, r, metric, 0);
}

/* Median |EM error| % of run @r over the steps: the worst step's. */
static double worst_abs_err(const struct scenario *s, const struct outcome *o,
			    int no, int r)
{
	return worst_step(s, o, no, r, err_metric(s));
}

/*
 * What it buys: the worst-step |EM error| of runtime run @best (the
 * shortest period) minus that of the @em run on its kernel, <= @limit pp.
 */
static void buys_check(struct judge *j, const struct scenario *s,
		       const struct outcome *o, int no, int best,
		       enum scen_em em, const char *whose, double limit)
{
	char rn[80], what[160];
	int q;
	double d;

	if (best < 0)
		return;
	q = run_of(s, em, s->run[best].variant);
	d = q >= 0 ? worst_abs_err(s, o, no, best) - worst_abs_err(s, o, no, q) : NAN;
	scen_run_name(s, best, rn, sizeof(rn));
	snprintf(what, sizeof(what), "what it buys: runtime |EM error| at the shortest period - %s, pp",
		 whose);
	judge_check(j, what, rn, d, "<=", limit, d <= limit, 1);
}

/*
 * Energy checks (verdict.h).  The oracle's is a sanity check: the truth
 * pushed into the EM, so its error is bounded by construction.  The
 * runtime checks compare measured errors: a driver reading a sensor and
 * pricing with its own model, against the oracle, the best static EM and
 * its own other periods.
 */
static void energy_checks(struct judge *j, const struct scenario *s,
			  const struct outcome *o, int no)
{
	const char *last = step_label(s, scen_nsteps(s) - 1);
	char rn[80], what[200];
	int r, q, best = -1;

	for (r = 0; r < s->nruns; r++) {
		const struct scen_run *run = &s->run[r];
		double e = worst_abs_err(s, o, no, r);

		scen_run_name(s, r, rn, sizeof(rn));
		if (run->em == EM_ORACLE && s->oracle_abs_err_pct_max >= 0)
			judge_check(j, "sanity (bound by construction: the truth pushed): oracle |EM error| % at every step",
				    rn, e, "<=", s->oracle_abs_err_pct_max,
				    e <= s->oracle_abs_err_pct_max, 1);
		if (run->em == EM_STATIC && s->static_abs_err_pct_min >= 0) {
			struct pooled p = pool_step(o, no, r, err_metric(s), last, -1);

			snprintf(what, sizeof(what), "static EM |error| %% at the last step (%s)", last);
			judge_check(j, what, rn, p.median, ">=", s->static_abs_err_pct_min,
				    p.n && p.median >= s->static_abs_err_pct_min, 1);
		}
		if (s->task_profile_pct_min >= 0) {
			double lo = step_extreme(s, o, no, r, "task_profile_busy_pct", 1);

			judge_check(j, "the truth ran tasks under their own profiles: % of busy time, the least step",
				    rn, lo, ">=", s->task_profile_pct_min,
				    lo >= s->task_profile_pct_min, 1);
		}
		if (run->em != EM_RUNTIME)
			continue;
		if (s->runtime_abs_err_pct_min >= 0)
			judge_check(j, "the driver's declared mis-model shows: runtime |EM error| % at the worst step",
				    rn, e, ">=", s->runtime_abs_err_pct_min,
				    e >= s->runtime_abs_err_pct_min, 1);
		if (s->runtime_opp_err_pct_min >= 0) {
			double d = worst_step(s, o, no, r, "em_opp_abs_err_pct_max");

			judge_check(j, "measured, not by construction: runtime table's worst OPP |error| % at the worst step",
				    rn, d, ">=", s->runtime_opp_err_pct_min,
				    d >= s->runtime_opp_err_pct_min, 1);
		}
		q = run_of(s, EM_ORACLE, run->variant);
		if (s->runtime_above_oracle_pp >= 0) {
			double d = q >= 0 ? e - worst_abs_err(s, o, no, q) : NAN;

			judge_check(j, "measured, not by construction: runtime |EM error| - oracle's, pp",
				    rn, d, ">=", s->runtime_above_oracle_pp,
				    d >= s->runtime_above_oracle_pp, 1);
		}
		if (best < 0 || run->period_ms < s->run[best].period_ms)
			best = r;
	}
	/* error does not grow as the period shortens */
	for (r = 0; s->runtime_monotone_pp >= 0 && r < s->nruns; r++) {
		int next = -1;
		double d;

		if (s->run[r].em != EM_RUNTIME)
			continue;
		for (q = 0; q < s->nruns; q++)
			if (s->run[q].em == EM_RUNTIME &&
			    !strcmp(s->run[q].variant, s->run[r].variant) &&
			    s->run[q].period_ms > s->run[r].period_ms &&
			    (next < 0 || s->run[q].period_ms < s->run[next].period_ms))
				next = q;
		if (next < 0)
			continue;
		d = worst_abs_err(s, o, no, r) - worst_abs_err(s, o, no, next);
		scen_run_name(s, r, rn, sizeof(rn));
		snprintf(what, sizeof(what), "|EM error| %% at %d ms - at %d ms (shorter period, no worse), pp",
			 s->run[r].period_ms, s->run[next].period_ms);
		judge_check(j, what, rn, d, "<=", s->runtime_monotone_pp,
			    d <= s->runtime_monotone_pp, 1);
	}
	if (s->runtime_vs_static_pp > -1000)
		buys_check(j, s, o, no, best, EM_STATIC, "the boot-static EM's",
			   s->runtime_vs_static_pp);
	if (s->runtime_vs_best_static_pp >= 0)
		buys_check(j, s, o, no, best, EM_BEST_STATIC, "best static EM's",
			   s->runtime_vs_best_static_pp);
	/* A/A: the static EM on two kernels must agree */
	for (r = 0; s->aa_static_pp >= 0 && r < s->nruns; r++) {
		for (q = r + 1; q < s->nruns; q++) {
			double d;

			if (s->run[r].em != EM_STATIC || s->run[q].em != EM_STATIC)
				continue;
			d = fabs(worst_abs_err(s, o, no, r) - worst_abs_err(s, o, no, q));
			scen_run_name(s, q, rn, sizeof(rn));
			snprintf(what, sizeof(what), "A/A: static EM |error| on %s vs %s, |difference| pp",
				 s->run[r].variant, s->run[q].variant);
			judge_check(j, what, rn, d, "<=", s->aa_static_pp, d <= s->aa_static_pp, 1);
		}
	}
}

static void energy_judge(struct judge *j, const struct scenario *s,
			 const struct outcome *o, int no)
{
	load_table(j, s, o, no, NULL);
	if (s->heat || run_of(s, EM_RUNTIME, NULL) >= 0)
		driver_table(j, s, o, no);
	energy_checks(j, s, o, no);
}

static const struct scen_load_rules energy_rules = {
	.timeline = 1, .heat = 1, .task_profiles = 1,
};

const struct scen_kind kind_energy = {
	.name = "energy",
	.takes_em = 1,
	.load = &energy_rules,
	.parse = energy_parse,
	.nitems = scen_nsteps,
	.plan = plan_write,
	.cmd = load_cmd,
	.derive = energy_derive,
	.declares_checks = energy_declares,
	.judge = energy_judge,
};
