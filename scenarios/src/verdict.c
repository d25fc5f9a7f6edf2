// SPDX-License-Identifier: GPL-2.0
#include "verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "emrcu/json.h"
#include "latency.h"
#include "model.h"
#include "signtest.h"
#include "stats.h"

/* Boots whose @valid metric (if given) is 1 only. */
static struct pooled pool_if(const struct outcome *o, int no, int run,
			     const char *name, int cluster, const char *valid)
{
	double v[METRIC_MAX_SAMPLES * 8];
	struct pooled p = { 0, NAN, NAN, NAN };
	int i, k;

	for (i = 0; i < no; i++) {
		const struct metric *m;

		if (o[i].run != run || !o[i].ok)
			continue;
		if (valid) {
			m = metric_find(o[i].ms, valid, -1);
			if (!m || !m->n || m->v[0] != 1)
				continue;
		}
		m = metric_find(o[i].ms, name, cluster);
		for (k = 0; m && k < m->n && p.n < (int)(sizeof(v) / sizeof(v[0])); k++)
			v[p.n++] = m->v[k];
	}
	if (!p.n)
		return p;
	stats_sort(v, (size_t)p.n);
	p.min = v[0];
	p.max = v[p.n - 1];
	p.median = stats_median_sorted(v, (size_t)p.n);
	return p;
}

struct pooled pool_metric(const struct outcome *o, int no, int run,
			  const char *name, int cluster)
{
	return pool_if(o, no, run, name, cluster, NULL);
}

struct judge {
	FILE *txt;
	struct json *checks;	/* verdict.json's "checks" */
	int nchecks, judged, inconclusive, failed;
};

static void check(struct judge *j, const char *what, const char *run,
		  double value, const char *op, double limit, int pass, int judged)
{
	struct json *c = json_push(j->checks, json_new_obj());

	j->nchecks++;
	json_set_str(c, "check", what);
	json_set_str(c, "run", run);
	json_set_num(c, "value", value);
	json_set_str(c, "op", op);
	json_set_num(c, "limit", limit);
	json_set_bool(c, "judged", judged);
	json_set_bool(c, "pass", pass);
	if (!strcmp(op, "ran"))
		fprintf(j->txt, "FAIL: %s\n", what);
	else
		fprintf(j->txt, "%s: %s [%s]: %.2f %s %.2f%s\n",
			!judged ? "INFO" : pass ? "PASS" : "FAIL", what, run, value,
			op, limit, judged ? "" : " (not judged)");
	j->judged += judged;
	if (judged && !pass)
		j->failed++;
}

/* Does the scenario declare a threshold its kind judges? */
static int declares_checks(const struct scenario *s)
{
	int i;

	switch (s->kind) {
	case KIND_ENERGY:
		return s->oracle_abs_err_pct_max >= 0 ||
		       s->static_abs_err_pct_min >= 0 || s->aa_static_pp >= 0 ||
		       s->runtime_above_oracle_pp >= 0 ||
		       s->runtime_monotone_pp >= 0 ||
		       s->runtime_vs_best_static_pp >= 0 ||
		       s->runtime_vs_static_pp > -1000 ||
		       s->runtime_opp_err_pct_min >= 0 ||
		       s->runtime_abs_err_pct_min >= 0 ||
		       s->task_profile_pct_min >= 0;
	case KIND_SHARED:
		return s->invisible_pct_min >= 0;
	case KIND_LATENCY:
		return s->lat.nloads > 0;
	case KIND_PLACEMENT:
		for (i = 0; i < s->nworkloads; i++)
			if (s->w[i].max_over_optimal_pct >= 0)
				return 1;
		return s->em_choice_pct_max >= 0 || s->paired_p_max >= 0 ||
		       s->aa_p_min >= 0;
	}
	return 0;
}


static void cell(FILE *f, struct pooled p, const char *fmt)
{
	char b[64];

	if (!p.n) {
		fprintf(f, " %14s", "-");
		return;
	}
	snprintf(b, sizeof(b), fmt, p.median);
	if (p.n > 1) {
		size_t l = strlen(b);

		snprintf(b + l, sizeof(b) - l, "±%.2g", (p.max - p.min) / 2);
	}
	fprintf(f, " %14s", b);
}

static struct pooled pm(const struct outcome *o, int no, int r,
			const char *metric, const char *label, int cl)
{
	char n[METRIC_NAME_LEN + 64];

	snprintf(n, sizeof(n), "%s.%s", metric, label);
	return pool_metric(o, no, r, n, cl);
}

/* Like pm(), over the boots whose step @label was valid (derive.h). */
static struct pooled pmv(const struct outcome *o, int no, int r,
			 const char *metric, const char *label, int cl)
{
	char n[METRIC_NAME_LEN + 64], v[METRIC_NAME_LEN + 64];

	snprintf(n, sizeof(n), "%s.%s", metric, label);
	snprintf(v, sizeof(v), "step_valid.%s", label);
	return pool_if(o, no, r, n, cl, v);
}

static int boots_ok(const struct outcome *o, int no, int r)
{
	int i, n = 0;

	for (i = 0; i < no; i++)
		n += o[i].run == r && o[i].ok;
	return n;
}

static void share_cell(FILE *f, const struct outcome *o, int no, int r,
		       const char *label, int ncl)
{
	char b[96] = "";
	size_t l = 0;
	int k;

	for (k = 0; k < ncl && l < sizeof(b) - 8; k++) {
		struct pooled p = pm(o, no, r, "busy_share_pct", label, k);

		if (p.n)
			l += (size_t)snprintf(b + l, sizeof(b) - l, "%s%.0f",
					      k ? "/" : "", p.median);
		else
			l += (size_t)snprintf(b + l, sizeof(b) - l, "%s-", k ? "/" : "");
	}
	fprintf(f, " %14s", b);
}

static void energy_tables(struct judge *j, const struct scenario *s,
			  const struct outcome *o, int no)
{
	static const char *const cols[] = { "true_energy_mj", "em_energy_mj",
					    "em_err_pct", "em_err_total_pct", NULL };
	static const char *const heads[] = { "true mJ", "EM mJ", "EM err %",
					     "vs total %" };
	char rn[80];
	int r, i, c, ncl = s->topo.nclusters;

	for (r = 0; r < s->nruns; r++) {
		scen_run_name(s, r, rn, sizeof(rn));
		fprintf(j->txt, "\n[%s]\n%-20s", rn, "step");
		for (c = 0; cols[c]; c++)
			fprintf(j->txt, " %14s", heads[c]);
		if (s->kind != KIND_ENERGY)
			fprintf(j->txt, " %14s %14s %14s %14s", "opt mJ", "placed over %",
				"meter over %", "-bg over %");
		if (s->kind != KIND_ENERGY)
			fprintf(j->txt, " %14s %14s", "EM-pick over %", "..declared %");
		if (s->kind == KIND_SHARED)
			fprintf(j->txt, " %14s %14s", "shared mW", "shared %");
		fprintf(j->txt, " %14s %14s %6s\n", "busy % by cl", "work %", "valid");
		for (i = 0; i < scen_nsteps(s); i++) {
			const char *l = step_label(s, i);

			fprintf(j->txt, "%-20s", l);
			for (c = 0; cols[c]; c++)
				cell(j->txt, pm(o, no, r, cols[c], l, -1), "%.2f");
			if (s->kind != KIND_ENERGY) {
				cell(j->txt, pm(o, no, r, "optimal_energy_mj", l, -1), "%.2f");
				cell(j->txt, pm(o, no, r, "placement_over_optimal_pct", l, -1), "%.1f");
				cell(j->txt, pm(o, no, r, "energy_over_optimal_pct", l, -1), "%.1f");
				cell(j->txt, pm(o, no, r, "task_energy_over_optimal_pct", l, -1), "%.1f");
				cell(j->txt, pm(o, no, r, "em_choice_over_optimal_pct", l, -1), "%.1f");
				cell(j->txt, pm(o, no, r, "em_choice_declared_over_optimal_pct", l, -1), "%.1f");
			}
			if (s->kind == KIND_SHARED) {
				cell(j->txt, pm(o, no, r, "shared_power_mw", l, -1), "%.1f");
				cell(j->txt, pm(o, no, r, "shared_pct", l, -1), "%.1f");
			}
			share_cell(j->txt, o, no, r, l, ncl);
			cell(j->txt, pm(o, no, r, "work_pct", l, -1), "%.0f");
			fprintf(j->txt, " %3d/%-2d\n", pmv(o, no, r, "work_pct", l, -1).n,
				boots_ok(o, no, r));
		}
	}
	fputc('\n', j->txt);
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
				cell(j->txt, pm(o, no, r, "em_tick_abs_err_pct", l, -1), "%.2f");
				for (k = 0; k < ncl; k++)
					cell(j->txt, pm(o, no, r, "em_tick_abs_err_pct", l, k), "%.2f");
			}
			cell(j->txt, pm(o, no, r, "em_err_pct", l, -1), "%.2f");
			cell(j->txt, pm(o, no, r, "em_opp_abs_err_pct_max", l, -1), "%.2f");
			cell(j->txt, pm(o, no, r, "driver_cpu_pct", l, -1), "%.3f");
			cell(j->txt, pm(o, no, r, "driver_cpu_min_pct", l, -1), "%.3f");
			cell(j->txt, pm(o, no, r, "driver_updates", l, -1), "%.0f");
			cell(j->txt, pm(o, no, r, "driver_period_ms", l, -1), "%.1f");
			cell(j->txt, pm(o, no, r, "update_us_min", l, -1), "%.1f");
			for (k = 0; s->heat && k < ncl; k++) {
				struct pooled a = pm(o, no, r, "die_mean_c", l, k);
				struct pooled b = pm(o, no, r, "die_max_c", l, k);

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
		struct pooled p = pm(o, no, r, metric, step_label(s, i), -1);

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

/* The run of @em whose variant is @variant, else the first of @em, or -1. */
static int run_of(const struct scenario *s, enum scen_em em, const char *variant)
{
	int r, any = -1;

	for (r = 0; r < s->nruns; r++) {
		if (s->run[r].em != em)
			continue;
		if (!variant || !strcmp(s->run[r].variant, variant))
			return r;
		if (any < 0)
			any = r;
	}
	return any;
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
	check(j, what, rn, d, "<=", limit, d <= limit, 1);
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
			check(j, "sanity (bound by construction: the truth pushed): oracle |EM error| % at every step",
			      rn, e, "<=", s->oracle_abs_err_pct_max,
			      e <= s->oracle_abs_err_pct_max, 1);
		if (run->em == EM_STATIC && s->static_abs_err_pct_min >= 0) {
			struct pooled p = pm(o, no, r, err_metric(s), last, -1);

			snprintf(what, sizeof(what), "static EM |error| %% at the last step (%s)", last);
			check(j, what, rn, p.median, ">=", s->static_abs_err_pct_min,
			      p.n && p.median >= s->static_abs_err_pct_min, 1);
		}
		if (s->task_profile_pct_min >= 0) {
			double lo = step_extreme(s, o, no, r, "task_profile_busy_pct", 1);

			check(j, "the truth ran tasks under their own profiles: % of busy time, the least step",
			      rn, lo, ">=", s->task_profile_pct_min,
			      lo >= s->task_profile_pct_min, 1);
		}
		if (run->em != EM_RUNTIME)
			continue;
		if (s->runtime_abs_err_pct_min >= 0)
			check(j, "the driver's declared mis-model shows: runtime |EM error| % at the worst step",
			      rn, e, ">=", s->runtime_abs_err_pct_min,
			      e >= s->runtime_abs_err_pct_min, 1);
		if (s->runtime_opp_err_pct_min >= 0) {
			double d = worst_step(s, o, no, r, "em_opp_abs_err_pct_max");

			check(j, "measured, not by construction: runtime table's worst OPP |error| % at the worst step",
			      rn, d, ">=", s->runtime_opp_err_pct_min,
			      d >= s->runtime_opp_err_pct_min, 1);
		}
		q = run_of(s, EM_ORACLE, run->variant);
		if (s->runtime_above_oracle_pp >= 0) {
			double d = q >= 0 ? e - worst_abs_err(s, o, no, q) : NAN;

			check(j, "measured, not by construction: runtime |EM error| - oracle's, pp",
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
		check(j, what, rn, d, "<=", s->runtime_monotone_pp,
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
			check(j, what, rn, d, "<=", s->aa_static_pp, d <= s->aa_static_pp, 1);
		}
	}
}

/*
 * Boot @boot's value of @metric.@label in run @r, if that boot ran and its
 * step was valid (derive.h).  1 with *v set, else 0.
 */
static int boot_value(const struct outcome *o, int no, int r, int boot,
		      const char *metric, const char *label, double *v)
{
	char n[METRIC_NAME_LEN + 64];
	const struct metric *m;
	int i;

	for (i = 0; i < no; i++) {
		if (o[i].run != r || o[i].boot != boot || !o[i].ok)
			continue;
		snprintf(n, sizeof(n), "step_valid.%s", label);
		m = metric_find(o[i].ms, n, -1);
		if (!m || !m->n || m->v[0] != 1)
			return 0;
		snprintf(n, sizeof(n), "%s.%s", metric, label);
		m = metric_find(o[i].ms, n, -1);
		if (!m || !m->n)
			return 0;
		*v = m->v[0];
		return 1;
	}
	return 0;
}

/*
 * Runs @a and @b paired per boot on every workload: d = a - b of the
 * placement's energy over the optimum (pp; > 0: @b placed better), a tie
 * within pass.tie_pp.  One table row per workload and a pooled row; the
 * pooled counts are returned.
 */
static double median_of(const double *v, int n)
{
	return n ? stats_median(v, (size_t)n) : NAN;
}

static struct sign_count paired_table(struct judge *j, const struct scenario *s,
				      const struct outcome *o, int no, int a, int b)
{
	static double all_d[SCEN_MAX_BOOTS * SCEN_MAX_WORKLOADS];
	struct sign_count all = { 0 };
	char ra[80], rb[80];
	int i, k, nall = 0;

	scen_run_name(s, a, ra, sizeof(ra));
	scen_run_name(s, b, rb, sizeof(rb));
	fprintf(j->txt, "\npaired per boot: %s - %s, placed over optimal pp (> 0: %s placed better; tie within %.1f pp; sign test over the non-tied pairs)\n",
		ra, rb, rb, s->tie_pp);
	fprintf(j->txt, "%-22s %5s %10s %16s %11s %11s\n", "workload", "pairs",
		"median d", "better/tie/worse", "p one-sided", "p two-sided");
	for (i = 0; i <= s->nworkloads; i++) {
		const char *l = i < s->nworkloads ? s->w[i].name : "pooled";
		struct sign_count c = { 0 };
		double d[SCEN_MAX_BOOTS], va, vb, med;
		int n = 0;

		if (i == s->nworkloads) {
			c = all;
			med = median_of(all_d, nall);
		} else {
			for (k = 0; k < s->boots; k++)
				if (boot_value(o, no, a, k, "placement_over_optimal_pct", l, &va) &&
				    boot_value(o, no, b, k, "placement_over_optimal_pct", l, &vb)) {
					d[n++] = va - vb;
					all_d[nall++] = va - vb;
					sign_add(&c, va - vb, s->tie_pp);
				}
			all.wins += c.wins;
			all.losses += c.losses;
			all.ties += c.ties;
			med = median_of(d, n);
		}
		fprintf(j->txt, "%-22s %5d %10.1f %10d/%d/%-3d %11.3g %11.3g\n", l,
			c.wins + c.losses + c.ties, med, c.wins, c.ties, c.losses,
			sign_p_one(&c), sign_p_two(&c));
	}
	return all;
}

/*
 * What the runtime EM buys, paired per boot (verdict.h): each runtime@P
 * run against the boot-static and best-static EMs on the same kernel, and
 * the static EM on two kernels (the A/A pair).  A test whose pairs cannot
 * reach the declared p is inconclusive, not judged.
 */
static void placement_pairs(struct judge *j, const struct scenario *s,
			    const struct outcome *o, int no)
{
	char rn[80], what[240];
	int r, a;

	for (r = 0; r < s->nruns; r++) {
		const char *v = s->run[r].variant;
		int st = -1, bs = -1;

		if (s->run[r].em != EM_RUNTIME)
			continue;
		for (a = 0; a < s->nruns; a++) {
			if (strcmp(s->run[a].variant, v))
				continue;
			if (s->run[a].em == EM_STATIC)
				st = a;
			else if (s->run[a].em == EM_BEST_STATIC)
				bs = a;
		}
		if (bs >= 0)
			paired_table(j, s, o, no, bs, r);
		if (st < 0)
			continue;
		{
			struct sign_count c = paired_table(j, s, o, no, st, r);
			double p = sign_p_one(&c);
			int resolved = sign_p_floor(&c) <= s->paired_p_max;

			if (s->paired_p_max < 0)
				continue;
			scen_run_name(s, r, rn, sizeof(rn));
			snprintf(what, sizeof(what), "what it buys: placed better than the boot-static EM, pooled paired sign test, one-sided p (%d better, %d tied, %d worse)%s",
				 c.wins, c.ties, c.losses,
				 resolved ? "" : " (inconclusive: too few pairs to reach p)");
			check(j, what, rn, p, "<=", s->paired_p_max,
			      p <= s->paired_p_max, resolved);
			j->inconclusive += !resolved;
		}
	}
	/* A/A: the static EM on two different kernels */
	for (r = 0; s->aa_p_min >= 0 && r < s->nruns; r++) {
		if (s->run[r].em != EM_STATIC)
			continue;
		for (a = r + 1; a < s->nruns; a++) {
			struct sign_count c;
			double p;
			int resolved;

			if (s->run[a].em != EM_STATIC ||
			    !strcmp(s->run[a].variant, s->run[r].variant))
				continue;
			c = paired_table(j, s, o, no, r, a);
			p = sign_p_two(&c);
			/* could this many pairs reject at all? */
			resolved = 2 * sign_p_floor(&c) < s->aa_p_min;
			scen_run_name(s, a, rn, sizeof(rn));
			snprintf(what, sizeof(what), "A/A: static EM on %s vs %s agree, pooled paired sign test, two-sided p (%d/%d/%d)%s",
				 s->run[r].variant, s->run[a].variant, c.wins,
				 c.ties, c.losses,
				 resolved ? "" : " (inconclusive: too few pairs to reject)");
			check(j, what, rn, p, ">=", s->aa_p_min,
			      p >= s->aa_p_min, resolved);
			j->inconclusive += !resolved;
		}
	}
}

/*
 * Placement checks (verdict.h): LISA's limit on the runtime-driver runs
 * (measured) and the oracle runs (a sanity check: the truth pushed); the
 * EM's own pick on the oracle; static and best-static runs are reported
 * and judged only through the paired tests.
 */
static void placement_checks(struct judge *j, const struct scenario *s,
			     const struct outcome *o, int no)
{
	char rn[80], what[160];
	int r, i;

	for (i = 0; i < s->nworkloads; i++) {
		const struct scen_workload *w = &s->w[i];

		if (w->max_over_optimal_pct < 0)
			continue;
		for (r = 0; r < s->nruns; r++) {
			struct pooled p = pmv(o, no, r, "placement_over_optimal_pct",
					      w->name, -1);
			int judged = s->run[r].em == EM_ORACLE ||
				     s->run[r].em == EM_RUNTIME;
			int straddle = p.n && p.median > w->max_over_optimal_pct &&
				       p.min <= w->max_over_optimal_pct;

			scen_run_name(s, r, rn, sizeof(rn));
			snprintf(what, sizeof(what), "%s: placement energy over optimal %% (%d valid boot(s) of %d%s)",
				 w->name, p.n, boots_ok(o, no, r),
				 straddle ? "; inconclusive: the boots straddle the limit" : "");
			check(j, what, rn, p.median, "<=", w->max_over_optimal_pct,
			      p.n && p.median <= w->max_over_optimal_pct,
			      judged && !straddle);
			j->inconclusive += judged && straddle;
		}
	}
	for (i = 0; s->em_choice_pct_max >= 0 && i < s->nworkloads; i++) {
		for (r = 0; r < s->nruns; r++) {
			struct pooled p = pm(o, no, r, "em_choice_declared_over_optimal_pct",
					     s->w[i].name, -1);

			scen_run_name(s, r, rn, sizeof(rn));
			snprintf(what, sizeof(what), "%s: the EM's best placement (declared load) over optimal %%",
				 s->w[i].name);
			check(j, what, rn, p.median, "<=", s->em_choice_pct_max,
			      p.n && p.median <= s->em_choice_pct_max,
			      s->run[r].em == EM_ORACLE);
		}
	}
	for (i = 0; s->kind == KIND_SHARED && s->invisible_pct_min >= 0 &&
	     i < s->nworkloads; i++) {
		for (r = 0; r < s->nruns; r++) {
			/* residency-based: valid under contention too */
			struct pooled p = pm(o, no, r, "em_invisible_pct",
					     s->w[i].name, -1);

			scen_run_name(s, r, rn, sizeof(rn));
			snprintf(what, sizeof(what), "%s: true energy the EM does not see %%",
				 s->w[i].name);
			check(j, what, rn, p.median, ">=", s->invisible_pct_min,
			      p.n && p.median >= s->invisible_pct_min, 1);
		}
	}
}

/*
 * One figure of one load: the baseline's boot-to-boot band (the A/A noise,
 * reported), then every other run against it, judged inside
 * max(band x pass.noise_factor, pass.noise_floor_pct).  A band wider than
 * pass.noise_max_pct resolves nothing: the comparison is then reported as
 * inconclusive instead of judged, so host noise neither passes nor fails it.
 * Nor does a band from fewer than pass.min_boots boots: (max - min) / min
 * of two boots is no estimate of the spread (two boots can show a band ten
 * times narrower than five boots of the same kernel).
 */
static void latency_check(struct judge *j, const struct scenario *s,
			  const struct outcome *o, int no, const char *label,
			  const char *metric)
{
	char rn[80], what[200];
	struct pooled b = pm(o, no, 0, metric, label, -1);
	double band = b.n >= 2 && b.min > 0 ? 100 * (b.max - b.min) / b.min : NAN;
	double limit = stats_noise_band(band, s->lat.noise_factor, s->lat.noise_floor_pct);
	int r, resolved;

	scen_run_name(s, 0, rn, sizeof(rn));
	snprintf(what, sizeof(what), "%s %s: A/A band over %d boots (max - min) / min %%",
		 label, metric, b.n);
	/* no data fails; one boot (min_boots 1): judged against the floor */
	resolved = !b.n || (b.n >= s->lat.min_boots &&
			    (isnan(band) || band <= s->lat.noise_max_pct));
	check(j, what, rn, band, "<=", s->lat.noise_max_pct,
	      !isnan(band) && band <= s->lat.noise_max_pct, 0);
	for (r = 1; r < s->nruns; r++) {
		struct pooled p = pm(o, no, r, metric, label, -1);
		double dev = p.n && b.n && b.median > 0 ?
			fabs(stats_pct_change(b.median, p.median)) : NAN;

		scen_run_name(s, r, rn, sizeof(rn));
		snprintf(what, sizeof(what), "%s %s: |median / %s median - 1| %%%s",
			 label, metric, s->run[0].variant,
			 resolved ? "" : b.n < s->lat.min_boots ?
			 " (inconclusive: too few boots for an A/A band)" :
			 " (inconclusive: A/A band too wide)");
		check(j, what, rn, dev, "<=", limit, !isnan(dev) && dev <= limit,
		      resolved);
		j->inconclusive += !resolved;
	}
}

static void latency_part(struct judge *j, const struct scenario *s,
			 const struct outcome *o, int no)
{
	static const char *const cols[] = { "wakeup_p50_us", "wakeup_p99_us",
					    "wakeup_p999_us", "wakeup_max_us", NULL };
	char rn[80], label[32];
	int r, i, c;

	fprintf(j->txt, "\n%-12s %-16s %4s", "load", "run", "n");
	for (c = 0; cols[c]; c++)
		fprintf(j->txt, " %14s", cols[c] + 7);
	fputc('\n', j->txt);
	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		for (r = 0; r < s->nruns; r++) {
			scen_run_name(s, r, rn, sizeof(rn));
			fprintf(j->txt, "%-12s %-16s %4d", label, rn,
				pm(o, no, r, cols[0], label, -1).n);
			for (c = 0; cols[c]; c++)
				cell(j->txt, pm(o, no, r, cols[c], label, -1), "%.0f");
			fputc('\n', j->txt);
		}
	}
	fputc('\n', j->txt);
	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		for (c = 0; c < 2; c++)
			latency_check(j, s, o, no, label, c ? "wakeup_p99_us" : "wakeup_p50_us");
	}
}

int verdict(const struct scenario *s, const struct outcome *o, int no,
	    FILE *txt, FILE *json)
{
	struct json *root = json_new_obj();
	struct judge j = { .txt = txt };
	char rn[80];
	int i, rc;

	json_set_str(root, "schema", "emrcu/scenario-verdict/1");
	json_set_str(root, "scenario", s->name);
	json_set_str(root, "kind", scen_kind_name(s->kind));
	json_set_str(root, "topology", s->topo_spec);
	json_set_str(root, "mode", s->mode);
	j.checks = json_set(root, "checks", json_new_arr());
	fprintf(txt, "== %s (%s): %s\n   topology %s, mode %s, %d boot(s) per run\n",
		s->name, scen_kind_name(s->kind), s->description, s->topo_spec,
		s->mode, s->boots);
	for (i = 0; i < no; i++) {
		if (o[i].ok)
			continue;
		scen_run_name(s, o[i].run, rn, sizeof(rn));
		check(&j, o[i].why, rn, 0, "ran", 0, 0, 1);
	}
	if (s->kind == KIND_LATENCY) {
		latency_part(&j, s, o, no);
	} else {
		energy_tables(&j, s, o, no);
		if (s->kind == KIND_ENERGY &&
		    (s->heat || run_of(s, EM_RUNTIME, NULL) >= 0))
			driver_table(&j, s, o, no);
		if (s->kind == KIND_ENERGY)
			energy_checks(&j, s, o, no);
		else
			placement_checks(&j, s, o, no);
		if (s->kind == KIND_PLACEMENT)
			placement_pairs(&j, s, o, no);
	}
	json_set_int(root, "failed", j.failed);
	json_set_int(root, "judged", j.judged);
	if (!j.judged && !j.inconclusive && declares_checks(s)) {
		json_set_str(root, "verdict", "none judged");
		json_write(json, root, 2);
		json_free(root);
		fprintf(txt, "FAIL: %s: declares checks, none could be judged (%d value(s) reported)\n",
			s->name, j.nchecks);
		return -1;
	}
	json_set_int(root, "inconclusive", j.inconclusive);
	json_set_str(root, "verdict", j.failed ? "fail" : j.judged ? "pass" : "measured");
	rc = json_write(json, root, 2);
	json_free(root);
	if (rc)
		return -1;
	if (j.judged)
		fprintf(txt, "%s: %s: %d check(s), %d failed", j.failed ? "FAIL" : "PASS",
			s->name, j.judged, j.failed);
	else if (j.inconclusive)
		fprintf(txt, "MEASURED: %s: no check resolved", s->name);
	else
		fprintf(txt, "MEASURED: %s: no checks (declares no threshold; the figures are in the tables)",
			s->name);
	if (j.inconclusive)
		fprintf(txt, " (%d inconclusive)", j.inconclusive);
	fputc('\n', txt);
	return j.failed;
}
