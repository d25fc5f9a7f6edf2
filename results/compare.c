// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu-compare BASE.json[:VARIANT] NEW.json[:VARIANT] [--noise NOISE.json]
 *               [--json OUT] [--conf F]
 * emrcu-compare --calibrate A.json A2.json [A3.json...] [--conf F] > NOISE.json
 *
 * Compares two summaries figure by figure (matched by identity), prints
 * one LKP-style line each and a `REGRESSION: ...` line per regressed
 * figure (the rules: results/gate.conf).  Exit 0: nothing regressed,
 * 1: regressions, 2: unusable input (missing file, bad JSON, schema
 * mismatch, no common figures).
 *
 * With FILE:VARIANT on both sides, only the figures of those variants are
 * compared, matched by the rest of their identity: two columns of one run
 * (results/latest/summary.json:patched vs ...:custom) or a column against
 * a baseline's (results/baselines/quick.json:patched vs latest:custom).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/fs.h"
#include "gate.h"

static int usage(void)
{
	fprintf(stderr,
		"usage: emrcu-compare BASE.json[:VARIANT] NEW.json[:VARIANT] [--noise NOISE.json] [--json OUT] [--conf FILE]\n"
		"       emrcu-compare --calibrate A.json A2.json [...] [--conf FILE] > NOISE.json\n");
	return 2;
}

static void fmt_val(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a != 0 && (a >= 1e7 || a < 1e-3))
		snprintf(buf, len, "%.4g", v);
	else if (a >= 1000)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.4f", v);
}

static void fmt_spread(char *buf, size_t len, double s)
{
	if (isnan(s))
		snprintf(buf, len, "%7s", "");
	else
		snprintf(buf, len, s < 10 ? "±%5.2f%%" : "±%5.1f%%", s);
}

/*
 * Spread shown beside a median: half the trimmed (5-95 %) range over the
 * median when the figure has one (robust to the few passes a vCPU switch
 * makes far slower, as the report shows it), else stddev/mean.
 */
static double fig_spread(const struct fig *f)
{
	double lo, hi;

	if (!json_num(json_get(f->node, "trim_low"), &lo) &&
	    !json_num(json_get(f->node, "trim_high"), &hi) && f->median != 0)
		return 100 * (hi - lo) / 2 / fabs(f->median);
	return f->spread_pct;
}

static void fmt_change(char *buf, size_t len, double c)
{
	if (isinf(c))
		snprintf(buf, len, "%s", c > 0 ? "+inf%" : "-inf%");
	else
		snprintf(buf, len, "%+.2f%%", c);
}

static void print_thresholds(const struct gateconf *g, const char *conf_path)
{
	printf("thresholds (%s): regression = wrong way for 'better' AND 95%% CIs disjoint\n"
	       "  (other modes: per-boot median ranges disjoint, >= %g boots a side, else not judged) AND\n"
	       "  |%%change| >= min_effect_pct (deterministic %g, other modes %g;\n"
	       "   deterministic instructions/call at update_hz 0: |change| >= %g instructions per call) AND\n"
	       "  |%%change| > noise band (NOISE.json band, else noise_floor_pct %g;"
	       " calibration: A/A |%%change| x %g, floor %g)\n",
	       conf_path, g->min_boots_rt, g->min_effect_det, g->min_effect_rt,
	       g->min_effect_insns, g->noise_floor, g->noise_factor,
	       g->noise_floor);
}

static struct json *thresholds_json(const struct gateconf *g, const char *path)
{
	struct json *t = json_new_obj();

	json_set_str(t, "conf_file", path);
	json_set_num(t, "min_effect_pct_deterministic", g->min_effect_det);
	json_set_num(t, "min_effect_pct_realtime", g->min_effect_rt);
	json_set_num(t, "min_effect_instructions_deterministic", g->min_effect_insns);
	json_set_num(t, "noise_safety_factor", g->noise_factor);
	json_set_num(t, "noise_floor_pct", g->noise_floor);
	json_set_num(t, "min_boots_realtime", g->min_boots_rt);
	return t;
}

static struct json *verdict_json(const struct fig *b, const struct fig *n,
				 const struct verdict *v)
{
	struct json *e = json_new_obj();
	static const char *const k[] = { "name", "unit", "variant", "mode",
					 "preempt", "update_hz", "cluster",
					 "nr_states", "scenario", "better" };
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (json_get(b->node, k[i]))
			json_set(e, k[i], json_clone(json_get(b->node, k[i])));
	if (strcmp(b->variant, n->variant))
		json_set_str(e, "new_variant", n->variant);
	json_set_num(e, "base_median", b->median);
	json_set_num(e, "base_ci_low", b->ci_low);
	json_set_num(e, "base_ci_high", b->ci_high);
	json_set_int(e, "base_n", b->n);
	json_set_num(e, "new_median", n->median);
	json_set_num(e, "new_ci_low", n->ci_low);
	json_set_num(e, "new_ci_high", n->ci_high);
	json_set_int(e, "new_n", n->n);
	if (isfinite(v->change_pct))
		json_set_num(e, "change_pct", v->change_pct);
	else
		json_set_str(e, "change_pct", v->change_pct > 0 ? "+inf" : "-inf");
	json_set_num(e, "noise_band_pct", v->band_pct);
	json_set_bool(e, "noise_calibrated", v->calibrated);
	json_set_num(e, "min_effect_pct", v->min_effect_pct);
	if (v->min_effect_abs > 0)
		json_set_num(e, "min_effect_abs", v->min_effect_abs);
	json_set_bool(e, "wrong_way", v->wrong_way);
	json_set_bool(e, "ci_disjoint", v->ci_disjoint);
	if (v->boots_method) {
		json_set_int(e, "base_boots", b->nboots);
		json_set_int(e, "new_boots", n->nboots);
		if (b->nboots) {
			json_set_num(e, "base_boot_min", b->boot_min);
			json_set_num(e, "base_boot_max", b->boot_max);
		}
		if (n->nboots) {
			json_set_num(e, "new_boot_min", n->boot_min);
			json_set_num(e, "new_boot_max", n->boot_max);
		}
		json_set_bool(e, "few_boots", v->few_boots);
	}
	json_set_bool(e, "regression", v->regression);
	json_set_bool(e, "improvement", v->improvement);
	return e;
}

/* fig_label of base; "(new: VARIANT)" when the columns differ */
static void label2(const struct fig *b, const struct fig *n, char *buf,
		   size_t len)
{
	size_t l;

	fig_label(b, buf, len);
	l = strlen(buf);
	if (strcmp(b->variant, n->variant) && l < len)
		snprintf(buf + l, len - l, " (new: %s)", n->variant);
}

static int calibrate(char **files, int nf, const struct gateconf *g)
{
	struct summary *s = calloc((size_t)nf, sizeof(*s));
	struct json *out = NULL;
	char err[1024];
	int i, loaded = 0, rc = 2;

	if (!s)
		abort();
	for (i = 0; i < nf; i++, loaded++) {
		if (summary_load(files[i], &s[i], err, sizeof(err))) {
			fprintf(stderr, "emrcu-compare: %s\n", err);
			goto out;
		}
	}
	out = noise_calibrate(s, (size_t)nf, g, err, sizeof(err));
	if (!out) {
		fprintf(stderr, "emrcu-compare: %s\n", err);
		goto out;
	}
	json_write(stdout, out, 1);
	rc = fflush(stdout) ? 2 : 0;
out:
	json_free(out);
	for (i = 0; i < loaded; i++)
		summary_free(&s[i]);
	free(s);
	return rc;
}

static int compare(const char *barg, const char *narg, const char *noise_path,
		   const char *json_out, const struct gateconf *g,
		   const char *conf_path)
{
	struct summary base, nw;
	struct noise nz = { 0 };
	struct json *out, *list;
	char err[1024], *bpath, *npath;
	const char *bvar, *nvar;
	size_t i, common = 0, regressions = 0, improvements = 0, only_base = 0;
	size_t only_new = 0;
	int rc = 2;

	bpath = malloc(strlen(barg) + 1);
	npath = malloc(strlen(narg) + 1);
	if (!bpath || !npath)
		abort();
	summary_arg(barg, bpath, &bvar);
	summary_arg(narg, npath, &nvar);
	if (!bvar != !nvar) {
		fprintf(stderr, "emrcu-compare: give a variant on both sides (FILE:VARIANT) or on neither\n");
		free(bpath);
		free(npath);
		return 2;
	}
	if (summary_load(bpath, &base, err, sizeof(err))) {
		fprintf(stderr, "emrcu-compare: %s\n", err);
		free(bpath);
		free(npath);
		return 2;
	}
	if (summary_load(npath, &nw, err, sizeof(err))) {
		fprintf(stderr, "emrcu-compare: %s\n", err);
		summary_free(&base);
		free(bpath);
		free(npath);
		return 2;
	}
	if (bvar && (summary_select(&base, bvar, bpath, err, sizeof(err)) ||
		     summary_select(&nw, nvar, npath, err, sizeof(err)))) {
		fprintf(stderr, "emrcu-compare: %s\n", err);
		goto out_sum;
	}
	if (noise_path && noise_load(noise_path, &nz, err, sizeof(err))) {
		fprintf(stderr, "emrcu-compare: %s\n", err);
		goto out_sum;
	}
	for (i = 0; i < base.n; i++) {
		const struct fig *n = summary_find(&nw, base.figs[i].key);

		if (!n)
			continue;
		if (strcmp(n->unit, base.figs[i].unit) ||
		    strcmp(n->better, base.figs[i].better)) {
			fprintf(stderr, "emrcu-compare: figure %s: unit or 'better' differ between %s and %s\n",
				base.figs[i].key, bpath, npath);
			goto out_noise;
		}
		common++;
	}
	if (!common) {
		fprintf(stderr, "emrcu-compare: %s and %s have no figure in common\n",
			bpath, npath);
		goto out_noise;
	}

	out = json_new_obj();
	json_set_str(out, "schema", "emrcu/compare/1");
	json_set_str(out, "base", bpath);
	json_set_str(out, "new", npath);
	if (bvar) {
		json_set_str(out, "base_variant", bvar);
		json_set_str(out, "new_variant", nvar);
	}
	json_set_str(out, "noise", noise_path ? noise_path : "");
	json_set(out, "thresholds", thresholds_json(g, conf_path));
	list = json_set(out, "figures", json_new_arr());

	printf("emrcu-compare  base: %s%s%s  new: %s%s%s  noise: %s\n", bpath,
	       bvar ? " variant " : "", bvar ? bvar : "", npath,
	       nvar ? " variant " : "", nvar ? nvar : "",
	       noise_path ? noise_path : "(none: noise_floor_pct)");
	print_thresholds(g, conf_path);
	printf("spread: half the 5-95 %% range / median (stddev/mean when a figure has no range)\n");
	printf("\n%12s %7s %6s %9s %12s %7s %6s %7s  %s\n", "base", "±%sprd", "n",
	       "%change", "new", "±%sprd", "n", "noise%", "figure (mode in the label)");
	for (i = 0; i < base.n; i++) {
		const struct fig *b = &base.figs[i];
		const struct fig *n = summary_find(&nw, b->key);
		char bv[32], nv[32], bs[32], ns[32], ch[32], lab[600];
		struct verdict v;

		if (!n) {
			only_base++;
			continue;
		}
		gate_judge(b, n, g, &nz, &v);
		fmt_val(bv, sizeof(bv), b->median);
		fmt_val(nv, sizeof(nv), n->median);
		fmt_spread(bs, sizeof(bs), fig_spread(b));
		fmt_spread(ns, sizeof(ns), fig_spread(n));
		fmt_change(ch, sizeof(ch), v.change_pct);
		label2(b, n, lab, sizeof(lab));
		printf("%12s %7s %6ld %9s %12s %7s %6ld %6.2f%s  %s [%s]%s\n", bv, bs,
		       b->n, ch, nv, ns, n->n, v.band_pct, v.calibrated ? " " : "*",
		       lab, b->unit,
		       v.regression ? "  <-- regression" :
		       v.improvement ? "  (improvement)" :
		       !v.gated ? "  (not gated)" :
		       v.few_boots ? "  (not judged: too few boots)" : "");
		json_push(list, verdict_json(b, n, &v));
		regressions += v.regression;
		improvements += v.improvement;
	}
	for (i = 0; i < nw.n; i++)
		if (!summary_find(&base, nw.figs[i].key))
			only_new++;
	printf("(* = noise band not calibrated for this figure)\n\n");
	for (i = 0; i < base.n; i++) {
		const struct fig *b = &base.figs[i];
		const struct fig *n = summary_find(&nw, b->key);
		char lab[600], ch[32], minef[64];
		struct verdict v;

		if (!n)
			continue;
		gate_judge(b, n, g, &nz, &v);
		if (!v.regression)
			continue;
		label2(b, n, lab, sizeof(lab));
		fmt_change(ch, sizeof(ch), v.change_pct);
		if (v.min_effect_abs > 0)
			snprintf(minef, sizeof(minef), "%g %s", v.min_effect_abs, b->unit);
		else
			snprintf(minef, sizeof(minef), "%g%%", v.min_effect_pct);
		printf("REGRESSION: %s: %g [%g, %g] -> %g [%g, %g] %s (%s %s is better; %s disjoint; min effect %s; noise band %g%%%s)\n",
		       lab, b->median,
		       v.boots_method ? b->boot_min : b->ci_low,
		       v.boots_method ? b->boot_max : b->ci_high, n->median,
		       v.boots_method ? n->boot_min : n->ci_low,
		       v.boots_method ? n->boot_max : n->ci_high, b->unit, ch,
		       b->better, v.boots_method ? "per-boot median ranges" : "CIs",
		       minef, v.band_pct,
		       v.calibrated ? "" : " uncalibrated");
	}
	printf("%zu figures compared, %zu regressions, %zu improvements, %zu only in base, %zu only in new\n",
	       common, regressions, improvements, only_base, only_new);
	json_set_int(out, "compared", (int64_t)common);
	json_set_int(out, "regressions", (int64_t)regressions);
	json_set_int(out, "improvements", (int64_t)improvements);
	json_set_int(out, "only_in_base", (int64_t)only_base);
	json_set_int(out, "only_in_new", (int64_t)only_new);
	rc = regressions ? 1 : 0;
	if (json_out && write_json_atomic(json_out, out, 1, err, sizeof(err))) {
		fprintf(stderr, "emrcu-compare: %s\n", err);
		rc = 2;
	}
	json_free(out);
out_noise:
	noise_free(&nz);
out_sum:
	summary_free(&base);
	summary_free(&nw);
	free(bpath);
	free(npath);
	return rc;
}

int main(int argc, char **argv)
{
	char conf_path[PATH_MAX] = "", err[1024];
	const char *noise = NULL, *json_out = NULL;
	int i, nf = 0, cal = 0, rc;
	struct gateconf g;
	struct conf conf;
	char **files;

	files = calloc((size_t)argc, sizeof(*files));
	if (!files)
		return 2;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--noise") && i + 1 < argc)
			noise = argv[++i];
		else if (!strcmp(argv[i], "--json") && i + 1 < argc)
			json_out = argv[++i];
		else if (!strcmp(argv[i], "--conf") && i + 1 < argc)
			snprintf(conf_path, sizeof(conf_path), "%s", argv[++i]);
		else if (!strcmp(argv[i], "--calibrate"))
			cal = 1;
		else if (argv[i][0] == '-' && argv[i][1])
			nf = -argc;	/* unknown option */
		else if (nf >= 0)
			files[nf++] = argv[i];
	}
	if (nf < 0 || (cal && nf < 2) || (!cal && nf != 2) ||
	    (cal && (noise || json_out))) {
		free(files);
		return usage();
	}
	if (!conf_path[0] &&
	    declared_path("gate.conf", conf_path, sizeof(conf_path))) {
		fprintf(stderr, "emrcu-compare: cannot locate results/gate.conf (use --conf)\n");
		free(files);
		return 2;
	}
	if (conf_load(conf_path, &conf, err, sizeof(err))) {
		fprintf(stderr, "emrcu-compare: %s\n", err);
		free(files);
		return 2;
	}
	if (gateconf_load(&conf, &g, err, sizeof(err))) {
		fprintf(stderr, "emrcu-compare: %s\n", err);
		free(files);
		return 2;
	}
	rc = cal ? calibrate(files, nf, &g) :
		   compare(files[0], files[1], noise, json_out, &g, conf_path);
	free(files);
	return rc;
}
