// SPDX-License-Identifier: GPL-2.0
/*
 * kind placement: workloads on an asymmetric topology; where EAS put the
 * tasks against the brute-force optimum, each runtime EM paired per boot
 * with the boot-static one (verdict.h).
 */
#include <math.h>
#include <string.h>

#include "derive.h"
#include "emrcu/field.h"
#include "judge.h"
#include "kind.h"
#include "planwrite.h"
#include "signtest.h"
#include "stats.h"

static int placement_parse(const struct fctx *f, struct scenario *s)
{
	return scen_parse_load(f, s) ||
	       fnum(f, "pass.em_choice_pct_max", 0, 0, 1000, -1,
		    &s->em_choice_pct_max) ||
	       fnum(f, "pass.paired_p_max", 0, 0, 1, -1, &s->paired_p_max) ||
	       fnum(f, "pass.aa_p_min", 0, 0, 1, -1, &s->aa_p_min) ||
	       fnum(f, "pass.tie_pp", 0, 0, 100, 0, &s->tie_pp);
}

static int placement_derive(const struct scenario *s, const char *dir,
			    struct metrics *ms, char *err, size_t errlen)
{
	return derive_steps(s, dir, ms, derive_placement, err, errlen);
}

static int placement_declares(const struct scenario *s)
{
	int i;

	for (i = 0; i < s->nworkloads; i++)
		if (s->w[i].max_over_optimal_pct >= 0)
			return 1;
	return s->em_choice_pct_max >= 0 || s->paired_p_max >= 0 ||
	       s->aa_p_min >= 0;
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

static double median_of(const double *v, int n)
{
	return n ? stats_median(v, (size_t)n) : NAN;
}

/*
 * Runs @a and @b paired per boot on every workload: d = a - b of the
 * placement's energy over the optimum (pp; > 0: @b placed better), a tie
 * within pass.tie_pp.  One table row per workload and a pooled row; the
 * pooled counts are returned.
 */
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
			judge_check(j, what, rn, p, "<=", s->paired_p_max,
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
			judge_check(j, what, rn, p, ">=", s->aa_p_min,
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
			struct pooled p = pool_step_valid(o, no, r, "placement_over_optimal_pct",
							  w->name, -1);
			int judged = s->run[r].em == EM_ORACLE ||
				     s->run[r].em == EM_RUNTIME;
			int straddle = p.n && p.median > w->max_over_optimal_pct &&
				       p.min <= w->max_over_optimal_pct;

			scen_run_name(s, r, rn, sizeof(rn));
			snprintf(what, sizeof(what), "%s: placement energy over optimal %% (%d valid boot(s) of %d%s)",
				 w->name, p.n, boots_ok(o, no, r),
				 straddle ? "; inconclusive: the boots straddle the limit" : "");
			judge_check(j, what, rn, p.median, "<=", w->max_over_optimal_pct,
				    p.n && p.median <= w->max_over_optimal_pct,
				    judged && !straddle);
			j->inconclusive += judged && straddle;
		}
	}
	for (i = 0; s->em_choice_pct_max >= 0 && i < s->nworkloads; i++) {
		for (r = 0; r < s->nruns; r++) {
			struct pooled p = pool_step(o, no, r, "em_choice_declared_over_optimal_pct",
						    s->w[i].name, -1);

			scen_run_name(s, r, rn, sizeof(rn));
			snprintf(what, sizeof(what), "%s: the EM's best placement (declared load) over optimal %%",
				 s->w[i].name);
			judge_check(j, what, rn, p.median, "<=", s->em_choice_pct_max,
				    p.n && p.median <= s->em_choice_pct_max,
				    s->run[r].em == EM_ORACLE);
		}
	}
}

static void placement_judge(struct judge *j, const struct scenario *s,
			    const struct outcome *o, int no)
{
	static const struct table_col cols[] = { PLACEMENT_COLS, { NULL } };

	load_table(j, s, o, no, cols);
	placement_checks(j, s, o, no);
	placement_pairs(j, s, o, no);
}

static const struct scen_load_rules placement_rules = {
	.heat = 1, .over_optimal = 1,
};

const struct scen_kind kind_placement = {
	.name = "placement",
	.takes_em = 1,
	.needs_eas = 1,
	.load = &placement_rules,
	.parse = placement_parse,
	.nitems = scen_nsteps,
	.plan = plan_write,
	.cmd = load_cmd,
	.derive = placement_derive,
	.declares_checks = placement_declares,
	.judge = placement_judge,
};
