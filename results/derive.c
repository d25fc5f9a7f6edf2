// SPDX-License-Identifier: GPL-2.0
/*
 * derive.c - figures from sample pools: statistics of each pool, ratios of
 * the declared variant pairs, linear fits of the update-cost scaling.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/field.h"
#include "stats.h"
#include "summarize.h"
#include "emrcu/xalloc.h"

int sumconf_load(struct conf *c, struct sumconf *sc, char *err,
		 size_t errlen)
{
	struct fctx f = { .c = c, .err = err, .errlen = errlen };
	double b, s;

	if (fnum(&f, "ci_level", 1, 0, 1, 0, &sc->level) ||
	    fnum(&f, "trim_frac", 1, 0, 0.5, 0, &sc->trim_frac) ||
	    fnum(&f, "contam_threshold_deterministic", 1, 0, HUGE_VAL, 0,
		 &sc->contam_det) ||
	    fnum(&f, "contam_threshold_realtime", 1, 0, HUGE_VAL, 0,
		 &sc->contam_rt) ||
	    fnum(&f, "bootstrap_resamples", 1, 100, 1e6, 0, &b) ||
	    fnum(&f, "bootstrap_seed", 1, 0, HUGE_VAL, 0, &s))
		return -1;
	/* the open ends of the level's and the trim's ranges */
	if (sc->level == 0 || sc->level == 1 || sc->trim_frac == 0.5) {
		snprintf(err, errlen, "%s: ci_level must be in (0, 1), trim_frac in [0, 0.5)",
			 c->path);
		return -1;
	}
	sc->resamples = (unsigned int)b;
	sc->seed = (uint64_t)s;
	return 0;
}

struct json *summarize_methods(const struct sumconf *sc)
{
	struct json *m = json_new_obj();
	char b[400];

	snprintf(b, sizeof(b),
		 "distribution-free order statistics: [x(l), x(n+1-l)] with the largest l such that 1 - 2 P(Binomial(n, 1/2) <= l-1) >= %g; exact coverage in ci_coverage; n too small: [min, max], ci_short",
		 sc->level);
	json_set_str(m, "median_ci", b);
	snprintf(b, sizeof(b),
		 "percentile bootstrap, %u resamples, seed %llu; numerator and denominator samples resampled independently; interval widened to include the point estimate if needed (ci_widened)",
		 sc->resamples, (unsigned long long)sc->seed);
	json_set_str(m, "ratio_ci", b);
	json_set_str(m, "fit",
		     "least squares through the median of each nr_states; CI by stratified bootstrap (samples resampled within each nr_states), same resamples and seed; deterministic mode also in instructions (us * 1000 / 2^shift); residuals_us per point; quadratic_share: x^2 term of a quadratic least-squares fit through the same medians at the largest nr_states, over its median");
	json_set_str(m, "boot_ci",
		     "hot-path figures and ratios, every mode: the interval also covers the range of the per-boot medians (ratios: every numerator boot over every denominator boot), the boot being what a rerun repeats, and in deterministic mode one step of the guest clock either way (clock_step, in the figure's unit: 1e9 / clock_hz / loops, a pass ending a tick earlier or later); n_boots counts the boots, ci_widened_to_boots marks a widened interval");
	json_set_str(m, "pooling",
		     "hot path: every timed pass of every reader CPU of the perf domain, from every run directory with the same figure identity, is one sample");
	snprintf(b, sizeof(b),
		 "passes above median * (1 + threshold): threshold %g in deterministic mode, %g otherwise",
		 sc->contam_det, sc->contam_rt);
	json_set_str(m, "contaminated", b);
	json_set_str(m, "quantiles", "linear interpolation (Hyndman-Fan type 7)");
	json_set_str(m, "spread_pct", "100 * stddev / mean (bootstrap figures: 100 * replicate sd / estimate)");
	snprintf(b, sizeof(b), "range after dropping floor(%g * n) samples at each end",
		 sc->trim_frac);
	json_set_str(m, "trimmed_range", b);
	return m;
}

static struct json *num_array(const double *x, size_t n)
{
	struct json *a = json_new_arr();
	size_t i;

	for (i = 0; i < n; i++)
		json_push(a, json_new_num(x[i]));
	return a;
}

/* Median of each source's samples into @out (p->n slots); returns how many. */
static size_t per_boot_medians(const struct pool *p, double *out)
{
	size_t k, i, m, nb = 0, nsrc = json_len(p->sources);
	double *x = xmalloc(p->n * sizeof(*x));

	for (k = 0; k < nsrc; k++) {
		for (i = m = 0; i < p->n; i++)
			if (p->src[i] == k)
				x[m++] = p->x[i];
		if (m)
			out[nb++] = stats_median_inplace(x, m);
	}
	free(x);
	return nb;
}

/*
 * Range of the per-boot medians (in the order of sources), also pushed
 * onto @arr unless NULL; returns the number of boots.
 */
static size_t boot_range(const struct pool *p, double *lo, double *hi,
			 struct json *arr)
{
	double *m = xmalloc(p->n * sizeof(*m));
	size_t k, nb;

	nb = per_boot_medians(p, m);
	for (k = 0; k < nb; k++) {
		if (!k || m[k] < *lo)
			*lo = m[k];
		if (!k || m[k] > *hi)
			*hi = m[k];
		if (arr)
			json_push(arr, json_new_num(m[k]));
	}
	free(m);
	return nb;
}

/*
 * Hot-path figures, every mode: the boot is the unit a rerun repeats.  In
 * deterministic mode every pass of a boot costs the same, so the passes'
 * interval is zero-width while a rerun moves the figure (which table
 * entries, timer ticks and vCPU switches fall where); in realtime mode the
 * passes of one boot share its host noise (the gate judges the ranges of
 * the per-boot medians for that reason).  Their interval also covers the
 * range of the per-boot medians; n_boots says how many boots that range
 * saw (1: a rerun's spread is not known).
 */
static int hot_path(const struct pool *p)
{
	return !strncmp(json_str(json_get(p->tmpl, "name")), "hot_path_", 9);
}

static void widen_to_boots(struct json *f, size_t nb, double lo, double hi)
{
	double cl, ch;

	json_set_int(f, "n_boots", (int64_t)nb);
	if (json_num(json_get(f, "ci_low"), &cl) ||
	    json_num(json_get(f, "ci_high"), &ch))
		return;
	if (lo < cl || hi > ch) {
		json_set_num(f, "ci_low", lo < cl ? lo : cl);
		json_set_num(f, "ci_high", hi > ch ? hi : ch);
		json_set_bool(f, "ci_widened_to_boots", 1);
	}
}

static double num_of(const struct pool *p, const char *k, double dflt)
{
	double d;

	return json_num(json_get(p->tmpl, k), &d) ? dflt : d;
}

static struct json *pool_figure(const struct pool *p, const struct sumconf *sc,
				const char *samples_file, struct json *samples)
{
	struct json *f = json_clone(p->tmpl);
	const char *name = json_str(json_get(f, "name"));
	const char *mode = json_str(json_get(f, "mode"));
	struct stats_desc d;

	stats_describe(p->x, p->n, sc->level, sc->trim_frac, &d);
	json_set_int(f, "n", (int64_t)d.n);
	json_set_num(f, "median", d.median);
	json_set_num(f, "ci_low", d.ci_low);
	json_set_num(f, "ci_high", d.ci_high);
	json_set_num(f, "ci_level", sc->level);
	json_set_num(f, "ci_coverage", d.ci_coverage);
	json_set_str(f, "ci_method", "order-statistics");
	if (d.ci_short)
		json_set_bool(f, "ci_short", 1);
	json_set_num(f, "mean", d.mean);
	json_set_num(f, "stddev", d.stddev);
	json_set_num(f, "min", d.min);
	json_set_num(f, "max", d.max);
	json_set_num(f, "trim_low", d.trim_low);
	json_set_num(f, "trim_high", d.trim_high);
	if (d.mean != 0.0)
		json_set_num(f, "spread_pct", 100.0 * d.stddev / fabs(d.mean));
	if (!strncmp(name, "hot_path_", 9)) {
		double thr = !strcmp(mode, "deterministic") ? sc->contam_det :
							      sc->contam_rt;

		json_set_int(f, "contaminated",
			     (int64_t)stats_count_above(p->x, p->n,
							d.median * (1.0 + thr)));
		json_set_num(f, "contam_threshold", thr);
	}
	json_set_str(f, "samples_file", samples_file);
	json_set_str(f, "samples_id", p->key);
	json_set(f, "sources", json_clone(p->sources));
	{
		struct json *bm = json_new_arr();
		double lo = 0, hi = 0;
		size_t nb = boot_range(p, &lo, &hi, bm);
		double q = num_of(p, "clock_step", 0);

		json_set(f, "boot_medians", bm);
		if (hot_path(p))
			widen_to_boots(f, nb, lo - q, hi + q);
	}
	json_set(samples, p->key, num_array(p->x, p->n));
	return f;
}

static int same_str(const struct pool *a, const struct pool *b, const char *k)
{
	const char *x = json_str(json_get(a->tmpl, k));
	const char *y = json_str(json_get(b->tmpl, k));

	return x && y && !strcmp(x, y);
}

static int is_named(const struct pool *p, const char *name, const char *variant)
{
	return !strcmp(json_str(json_get(p->tmpl, "name")), name) &&
	       (!variant || !strcmp(json_str(json_get(p->tmpl, "variant")), variant));
}

/* Denominator pool for numerator p: same update rate, else no updater. */
static const struct pool *find_baseline(const struct pools *ps,
					const struct pool *p, const char *den)
{
	const struct pool *fallback = NULL;
	size_t i;

	for (i = 0; i < ps->n; i++) {
		const struct pool *q = &ps->p[i];

		if (!is_named(q, "hot_path_ns_per_call", den) ||
		    !same_str(p, q, "mode") ||
		    num_of(p, "cluster", -2) != num_of(q, "cluster", -3) ||
		    num_of(p, "shift", -1) != num_of(q, "shift", -1))
			continue;
		if (num_of(q, "update_hz", 0) == num_of(p, "update_hz", 0))
			return q;
		if (num_of(q, "update_hz", 0) == 0)
			fallback = q;
	}
	return fallback;
}

static void widen(struct json *f, double point, double lo, double hi)
{
	if (point < lo || point > hi)
		json_set_bool(f, "ci_widened", 1);
	json_set_num(f, "ci_low", point < lo ? point : lo);
	json_set_num(f, "ci_high", point > hi ? point : hi);
}

static void boot_fields(struct json *f, const struct stats_boot *b,
			const struct sumconf *sc, const char *method)
{
	json_set_num(f, "median", b->point);
	widen(f, b->point, b->lo, b->hi);
	json_set_num(f, "ci_level", sc->level);
	json_set_str(f, "ci_method", method);
	json_set_int(f, "bootstrap_resamples", b->resamples);
	json_set_int(f, "bootstrap_seed", (int64_t)sc->seed);
	if (b->point != 0.0)
		json_set_num(f, "spread_pct", 100.0 * b->sd / fabs(b->point));
}

static void merge_sources(struct json *dst, const struct json *src)
{
	size_t i, j;

	for (i = 0; i < json_len(src); i++) {
		const char *s = json_str(json_at(src, i));

		for (j = 0; j < json_len(dst); j++)
			if (!strcmp(json_str(json_at(dst, j)), s))
				break;
		if (j == json_len(dst))
			json_push(dst, json_new_str(s));
	}
}

static int add_ratios(struct json *figs, const struct pools *ps,
		      const struct sumconf *sc, const struct pairs *pairs,
		      char *err, size_t errlen)
{
	size_t k, i, j;

	for (k = 0; k < pairs->n; k++) {
		for (j = 0; j < k; j++) {
			if (!strcmp(pairs->num[j], pairs->num[k])) {
				snprintf(err, errlen,
					 "pairs: variant '%s' is a numerator twice",
					 pairs->num[k]);
				return -1;
			}
		}
		for (i = 0; i < ps->n; i++) {
			const struct pool *p = &ps->p[i], *q;
			struct stats_boot b;
			struct json *f, *src;

			if (!is_named(p, "hot_path_ns_per_call", pairs->num[k]))
				continue;
			q = find_baseline(ps, p, pairs->den[k]);
			if (!q)
				continue;
			if (stats_ratio_ci(p->x, p->n, q->x, q->n, sc->level,
					   sc->resamples, sc->seed, &b))
				continue;
			f = fig_template("hot_path_ratio", "ratio", "lower",
					 pairs->num[k],
					 json_str(json_get(p->tmpl, "mode")),
					 json_str(json_get(p->tmpl, "preempt")),
					 num_of(p, "update_hz", 0),
					 (long)num_of(p, "cluster", -1));
			json_set_str(f, "baseline", pairs->den[k]);
			json_set_str(f, "baseline_preempt",
				     json_str(json_get(q->tmpl, "preempt")));
			json_set_num(f, "baseline_update_hz", num_of(q, "update_hz", 0));
			if (json_get(p->tmpl, "shift"))
				json_set_int(f, "shift", (int64_t)num_of(p, "shift", 0));
			if (json_get(p->tmpl, "opps"))
				json_set_int(f, "opps", (int64_t)num_of(p, "opps", 0));
			json_set_int(f, "n", (int64_t)p->n);
			json_set_int(f, "n_baseline", (int64_t)q->n);
			boot_fields(f, &b, sc, "bootstrap-percentile");
			if (hot_path(p)) {
				double nl = 0, nh = 0, dl = 0, dh = 0;
				size_t nn = boot_range(p, &nl, &nh, NULL);
				size_t nd = boot_range(q, &dl, &dh, NULL);
				double qn = num_of(p, "clock_step", 0);
				double qd = num_of(q, "clock_step", 0);

				/*
				 * every pairing of a numerator and a denominator
				 * boot, each a clock step either way
				 */
				widen_to_boots(f, nn, (nl - qn) / (dh + qd),
					       (nh + qn) / (dl - qd));
				json_set_int(f, "n_boots_baseline", (int64_t)nd);
			}
			json_set_str(f, "numerator_id", p->key);
			json_set_str(f, "denominator_id", q->key);
			src = json_clone(p->sources);
			merge_sources(src, q->sources);
			json_set(f, "sources", src);
			json_push(figs, f);
		}
	}
	return 0;
}

static void group_key(const struct pool *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s|%s|%s|%.17g|%g",
		 json_str(json_get(p->tmpl, "variant")),
		 json_str(json_get(p->tmpl, "mode")),
		 json_str(json_get(p->tmpl, "preempt")),
		 num_of(p, "update_hz", 0), num_of(p, "shift", -1));
}

static int cmp_nr(const void *a, const void *b)
{
	double x = num_of(*(const struct pool *const *)a, "nr_states", 0);
	double y = num_of(*(const struct pool *const *)b, "nr_states", 0);

	return (x > y) - (x < y);
}

/* A straight-line fit of one scaling series (update, or callback alone). */
struct fit_series {
	const char *of;		/* figure fitted: update_scaling_us, ... */
	const char *prefix;	/* of the fit's figures: update_fit_, ... */
};

static const struct fit_series fit_series[] = {
	{ "update_scaling_us", "update_fit_" },
	{ "update_callback_us", "callback_fit_" },
};

static struct json *fit_figure(struct json *figs, const struct pool *p0,
			       const struct fit_series *fs, const char *what,
			       const char *unit, const char *better,
			       const struct stats_boot *b,
			       const struct sumconf *sc,
			       const struct pool *const *grp, size_t ng)
{
	char name[96];
	struct json *f, *pts = json_new_arr(), *src = json_new_arr();
	size_t g, ns = 0;

	snprintf(name, sizeof(name), "%s%s", fs->prefix, what);
	f = fig_template(name, unit, better,
			 json_str(json_get(p0->tmpl, "variant")),
			 json_str(json_get(p0->tmpl, "mode")),
			 json_str(json_get(p0->tmpl, "preempt")),
			 num_of(p0, "update_hz", 0), -1);
	if (json_get(p0->tmpl, "shift"))
		json_set_int(f, "shift", (int64_t)num_of(p0, "shift", 0));
	for (g = 0; g < ng; g++) {
		json_push(pts, json_new_int((int64_t)num_of(grp[g], "nr_states", 0)));
		merge_sources(src, grp[g]->sources);
		ns += grp[g]->n;
	}
	json_set_int(f, "n", (int64_t)ng);
	json_set_int(f, "n_samples", (int64_t)ns);
	boot_fields(f, b, sc, "bootstrap-percentile (stratified by nr_states)");
	json_set_str(f, "fit_of", fs->of);
	json_set(f, "points", pts);
	json_set(f, "sources", src);
	json_push(figs, f);
	return f;
}

/* @b in another unit: point and interval times @k (k > 0). */
static struct stats_boot boot_scaled(const struct stats_boot *b, double k)
{
	struct stats_boot r = *b;

	r.point *= k;
	r.lo *= k;
	r.hi *= k;
	r.sd *= k;
	return r;
}

/*
 * The fit of one group (same variant, mode, preempt, rate, shift): slope,
 * intercept, r2; in deterministic mode the same in guest instructions
 * (us * 1000 / 2^shift); the residual of each point's median beside the
 * slope; and the curvature a line hides: the x^2 term of a quadratic fit
 * through the same medians, as a share of the largest point's median.
 */
static void fit_group(struct json *figs, const struct fit_series *fs,
		      const struct pool **grp, size_t ng,
		      const struct sumconf *sc)
{
	const struct pool *const *cg = (const struct pool *const *)grp;
	struct json *sl, *res;
	struct stats_fit fit;
	const double **ys;
	double *xs, *ym, c2, shift;
	size_t *ny, g;

	qsort(grp, ng, sizeof(*grp), cmp_nr);
	xs = calloc(ng, sizeof(*xs));
	ym = calloc(ng, sizeof(*ym));
	ys = calloc(ng, sizeof(*ys));
	ny = calloc(ng, sizeof(*ny));
	if (!xs || !ym || !ys || !ny)
		abort();
	for (g = 0; g < ng; g++) {
		xs[g] = num_of(grp[g], "nr_states", 0);
		ys[g] = grp[g]->x;
		ny[g] = grp[g]->n;
		ym[g] = stats_median(grp[g]->x, grp[g]->n);
	}
	if (stats_linfit_medians_ci(xs, ys, ny, ng, sc->level, sc->resamples,
				    sc->seed, &fit))
		goto out;
	sl = fit_figure(figs, grp[0], fs, "slope_us_per_opp", "us/OPP",
			"lower", &fit.slope, sc, cg, ng);
	res = json_new_arr();
	for (g = 0; g < ng; g++)
		json_push(res, json_new_num(ym[g] - (fit.slope.point * xs[g] +
						      fit.intercept.point)));
	json_set(sl, "residuals_us", res);
	fit_figure(figs, grp[0], fs, "intercept_us", "us", "lower",
		   &fit.intercept, sc, cg, ng);
	fit_figure(figs, grp[0], fs, "r2", "1", "none", &fit.r2, sc, cg, ng);
	shift = num_of(grp[0], "shift", -1);
	if (shift >= 0) {
		double k = 1000.0 / ldexp(1.0, (int)shift);
		struct stats_boot si = boot_scaled(&fit.slope, k);
		struct stats_boot ii = boot_scaled(&fit.intercept, k);

		fit_figure(figs, grp[0], fs, "slope_instructions_per_opp",
			   "instructions/OPP", "lower", &si, sc, cg, ng);
		fit_figure(figs, grp[0], fs, "intercept_instructions",
			   "instructions", "lower", &ii, sc, cg, ng);
	}
	if (!stats_quadfit(xs, ym, ng, &c2) && ym[ng - 1] != 0.0) {
		struct stats_boot q = { 0 };
		struct json *f;

		q.point = q.lo = q.hi = c2 * xs[ng - 1] * xs[ng - 1] / ym[ng - 1];
		f = fit_figure(figs, grp[0], fs, "quadratic_share", "1", "none",
			       &q, sc, cg, ng);
		json_set_str(f, "ci_method",
			     "point only: x^2 term of least squares y = c0 + c1 x + c2 x^2 through the medians, c2 x_max^2 / median(x_max)");
	}
out:
	free(xs);
	free(ym);
	free(ys);
	free(ny);
}

static void add_fits(struct json *figs, const struct pools *ps,
		     const struct sumconf *sc)
{
	const struct pool **grp = calloc(ps->n + 1, sizeof(*grp));
	char *done = calloc(ps->n + 1, 1);
	size_t i, j, s;

	if (!grp || !done)
		abort();
	for (s = 0; s < sizeof(fit_series) / sizeof(fit_series[0]); s++) {
		const char *of = fit_series[s].of;

		memset(done, 0, ps->n + 1);
		for (i = 0; i < ps->n; i++) {
			char ki[600], kj[600];
			size_t ng = 0;

			if (done[i] || !ps->p[i].n || !is_named(&ps->p[i], of, NULL))
				continue;
			group_key(&ps->p[i], ki, sizeof(ki));
			for (j = i; j < ps->n; j++) {
				if (done[j] || !ps->p[j].n ||
				    !is_named(&ps->p[j], of, NULL))
					continue;
				group_key(&ps->p[j], kj, sizeof(kj));
				if (strcmp(ki, kj))
					continue;
				done[j] = 1;
				grp[ng++] = &ps->p[j];
			}
			if (ng >= 2)
				fit_group(figs, &fit_series[s], grp, ng, sc);
		}
	}
	free(grp);
	free(done);
}

struct json *derive_figures(const struct pools *ps, const struct sumconf *sc,
			    const struct pairs *pairs, const char *samples_file,
			    struct json *samples, char *err, size_t errlen)
{
	struct json *figs = json_new_arr();
	size_t i, j;

	for (i = 0; i < ps->n; i++)
		if (ps->p[i].n)
			json_push(figs, pool_figure(&ps->p[i], sc, samples_file,
						    samples));
	if (add_ratios(figs, ps, sc, pairs, err, errlen)) {
		json_free(figs);
		return NULL;
	}
	add_fits(figs, ps, sc);
	for (i = 0; i < json_len(figs); i++) {
		char a[FIG_KEY_MAX], b[FIG_KEY_MAX];

		fig_key_json(json_at(figs, i), a, sizeof(a));
		for (j = 0; j < i; j++) {
			fig_key_json(json_at(figs, j), b, sizeof(b));
			if (!strcmp(a, b)) {
				snprintf(err, errlen, "two figures with identity %s", a);
				json_free(figs);
				return NULL;
			}
		}
	}
	return figs;
}
