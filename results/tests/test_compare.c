// SPDX-License-Identifier: GPL-2.0
/*
 * test_compare.c EMRCU_COMPARE - the regression gate on synthetic
 * summaries that this program generates itself: samples drawn with a fixed
 * seed, statistics by stats.c, written as summary.json files, then judged
 * by the real emrcu-compare binary (exit codes, REGRESSION lines, --json,
 * --calibrate) and, for the boundaries, by gate_judge() directly.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emrcu/fs.h"
#include "gate.h"
#include "stats.h"
#include "rng.h"
#include "stats.h"
#include "check.h"

static const char *exe;
static char dir[] = "/tmp/emrcu-compare-XXXXXX";
static const char *variant = "patched";	/* of the figures make_summary writes */

struct spec {
	const char *name, *mode, *better;
	long cluster;
	double center;		/* median of the distribution */
	double rel_sd;		/* relative noise */
	size_t n;
};

/* The figures of a typical summary: hot path, instructions, update cost. */
static const struct spec det[] = {
	{ "hot_path_ns_per_call", "deterministic", "lower", 0, 74.0, 1e-5, 40 },
	{ "hot_path_ns_per_call", "deterministic", "lower", 1, 80.0, 1e-5, 40 },
	{ "update_us", "deterministic", "lower", -1, 8.0, 2e-4, 30 },
	{ "placement_match_pct", "deterministic", "higher", -1, 97.0, 1e-4, 30 },
	{ "update_free_delay_us", "deterministic", "none", -1, 40.0, 1e-3, 30 },
};

static const struct spec rt[] = {
	{ "hot_path_ns_per_call", "realtime", "lower", 0, 30.0, 0.10, 40 },
	{ "hot_path_ns_per_call", "realtime", "lower", 1, 33.0, 0.10, 40 },
};

static const struct spec rtq[] = {
	{ "hot_path_ns_per_call", "realtime", "lower", 0, 30.0, 0.005, 40 },
};

#define NSPEC(a) (sizeof(a) / sizeof((a)[0]))

static char *path(const char *name)
{
	static char buf[8][300];
	static int k;
	char *p = buf[k++ % 8];

	snprintf(p, 300, "%s/%s", dir, name);
	return p;
}

/* Runs written per figure by make_summary: its samples in BOOTS slices. */
#define BOOTS 5

static struct json *boot_medians_json(const double *x, size_t n, size_t boots)
{
	struct json *a = json_new_arr();
	size_t b, per = n / boots;

	for (b = 0; b < boots; b++)
		json_push(a, json_new_num(stats_median(x + b * per, per)));
	return a;
}

/*
 * Writes a summary with the given figures; figure `which` (or every one
 * when which < 0) gets its centre scaled by (1 + shift_pct / 100).
 */
static void make_summary(const char *file, const struct spec *sp, size_t ns,
			 int which, double shift_pct, uint64_t seed)
{
	struct json *s = json_new_obj(), *figs;
	char err[300];
	struct rng r;
	size_t i, k;

	rng_seed(&r, seed);
	json_set_str(s, "schema", SUMMARY_SCHEMA);
	json_set_str(s, "created", "test");
	json_set(s, "constants", json_new_obj());
	figs = json_set(s, "figures", json_new_arr());
	for (i = 0; i < ns; i++) {
		double c = sp[i].center, x[64];
		struct json *f = json_push(figs, json_new_obj());
		struct stats_desc d;

		if (which < 0 || (size_t)which == i)
			c *= 1 + shift_pct / 100;
		for (k = 0; k < sp[i].n; k++)
			x[k] = c * (1 + sp[i].rel_sd * rng_normal(&r));
		stats_describe(x, sp[i].n, 0.95, 0.05, &d);
		json_set(f, "boot_medians", boot_medians_json(x, sp[i].n, BOOTS));
		json_set_str(f, "name", sp[i].name);
		json_set_str(f, "unit", "u");
		json_set_str(f, "variant", variant);
		json_set_str(f, "mode", sp[i].mode);
		json_set_str(f, "preempt", "none");
		json_set_num(f, "update_hz", 0);
		json_set_int(f, "cluster", sp[i].cluster);
		json_set_int(f, "n", (int64_t)d.n);
		json_set_num(f, "median", d.median);
		json_set_num(f, "ci_low", d.ci_low);
		json_set_num(f, "ci_high", d.ci_high);
		json_set_num(f, "spread_pct", 100 * d.stddev / d.mean);
		json_set_str(f, "better", sp[i].better);
	}
	if (write_json_atomic(path(file), s, 1, err, sizeof(err)))
		fprintf(stderr, "test_compare: %s\n", err);
	json_free(s);
}

static int compare(const char *args)
{
	char cmd[2000];

	snprintf(cmd, sizeof(cmd), "%s %s >%s 2>%s", exe, args, path("out"),
		 path("err"));
	return run_sh(cmd);
}

static char *args2(const char *a, const char *b, const char *extra)
{
	static char buf[1200];

	snprintf(buf, sizeof(buf), "%s %s %s", path(a), path(b), extra ? extra : "");
	return buf;
}

TEST(test_aa)
{
	int rc;

	make_summary("a.json", det, NSPEC(det), -1, 0, 1);
	make_summary("a2.json", det, NSPEC(det), -1, 0, 2);	/* other draw */
	rc = compare(args2("a.json", "a.json", NULL));
	assert_msg(rc == 0, "A vs A: exit %d", rc);
	rc = compare(args2("a.json", "a2.json", NULL));
	assert_msg(rc == 0, "A vs A2: exit %d", rc);
	assert_msg(!file_has(path("out"), "REGRESSION"), "no REGRESSION line");
	assert_msg(file_has(path("out"), "5 figures compared, 0 regressions"),
		 "summary line");
	assert_msg(file_has(path("out"), "min_effect_pct (deterministic 1,"),
		 "thresholds printed");
}

TEST(test_shift)
{
	char extra[400];
	int rc;

	make_summary("b.json", det, NSPEC(det), -1, 0, 1);
	make_summary("n.json", det, NSPEC(det), 0, 2.0, 3);
	snprintf(extra, sizeof(extra), "--json %s", path("x.json"));
	rc = compare(args2("b.json", "n.json", extra));
	assert_msg(rc == 1, "exit %d, expected 1", rc);
	assert_msg(file_count(path("out"), "REGRESSION: ") == 1,
		 "exactly one REGRESSION line");
	assert_msg(file_has(path("out"), "REGRESSION: hot_path_ns_per_call patched deterministic none hz=0 pd0"),
		 "names the figure");
	assert_msg(file_has(path("x.json"), "\"regressions\": 1"), "--json written");
}

/*
 * The figure of spec sp drawn with a seed, as the gate sees it: @boots
 * boots of sp->n samples each; every boot has its own level (relative sd
 * @boot_sd: the host noise one boot shares in realtime mode).
 */
static struct fig draw(const struct spec *sp, double shift_pct, int boots,
		       double boot_sd, struct rng *r)
{
	static double x[16 * 64];
	struct stats_desc d;
	struct fig f;
	size_t k;
	int b;

	memset(&f, 0, sizeof(f));
	f.boot_min = INFINITY;
	f.boot_max = -INFINITY;
	for (b = 0; b < boots; b++) {
		double level = sp->center * (1 + shift_pct / 100) *
			       (1 + boot_sd * rng_normal(r)), m;

		for (k = 0; k < sp->n; k++)
			x[b * sp->n + k] = level * (1 + sp->rel_sd * rng_normal(r));
		m = stats_median(x + b * sp->n, sp->n);
		f.boot_min = fmin(f.boot_min, m);
		f.boot_max = fmax(f.boot_max, m);
	}
	f.nboots = boots;
	stats_describe(x, sp->n * boots, 0.95, 0.05, &d);
	f.name = sp->name;
	f.better = sp->better;
	f.mode = sp->mode;
	f.median = d.median;
	f.ci_low = d.ci_low;
	f.ci_high = d.ci_high;
	snprintf(f.key, sizeof(f.key), "%s", sp->name);
	return f;
}

TEST(test_noisy_equal)
{
	const struct gateconf g = { 1.0, 5.0, 2.0, 0.5, 5, 0.5 };
	const int pairs = 2000;
	int rc, t, fp = 0, tp = 0, fp_pooled = 0, few = 0;
	struct rng r;

	make_summary("rb.json", rt, NSPEC(rt), -1, 0, 100);
	make_summary("rn.json", rt, NSPEC(rt), -1, 0, 200);
	rc = compare(args2("rb.json", "rn.json", NULL));
	assert_msg(rc == 0, "noisy A/A (10 %% noise, n = 40): exit %d", rc);
	/*
	 * A 3 % shift in realtime mode is below its 5 % minimum effect (quiet
	 * passes, so that the observed change is the shift: with 10 % noise
	 * and 8 passes a boot it can come out at 8 %, which is then flagged).
	 */
	make_summary("rb.json", rtq, NSPEC(rtq), -1, 0, 100);
	make_summary("rn.json", rtq, NSPEC(rtq), -1, 3.0, 7);
	rc = compare(args2("rb.json", "rn.json", NULL));
	assert_msg(rc == 0, "realtime +3%%: exit %d", rc);
	/*
	 * Realtime A/A pairs whose boots differ by 10 % (as measured: boot
	 * medians of one column 75-106 ns/call): with 5 boots a side the
	 * per-boot ranges flag about 0.4 % (2 / C(10, 5), one direction); the
	 * CIs of the pooled passes (the rule before) flag far more; +50 % is
	 * still found; with 3 boots nothing is judged.
	 */
	rng_seed(&r, 2024);
	for (t = 0; t < pairs; t++) {
		struct fig a = draw(&rt[0], 0, 5, 0.10, &r);
		struct fig b = draw(&rt[0], 0, 5, 0.10, &r);
		struct fig c = draw(&rt[0], 50, 5, 0.10, &r);
		struct fig s3 = draw(&rt[0], 50, 3, 0.10, &r);
		struct fig a3 = draw(&rt[0], 0, 3, 0.10, &r);
		struct verdict v;

		gate_judge(&a, &b, &g, NULL, &v);
		fp += v.regression;
		fp_pooled += v.wrong_way && v.big_enough &&
			     (b.ci_low > a.ci_high || a.ci_low > b.ci_high);
		gate_judge(&a, &c, &g, NULL, &v);
		tp += v.regression;
		gate_judge(&a3, &s3, &g, NULL, &v);
		few += v.few_boots && !v.regression;
	}
	assert_msg(fp <= pairs / 100, "false positives %d of %d A/A pairs", fp, pairs);
	assert_msg(fp_pooled >= pairs / 10, "pooled CIs flag only %d of %d A/A pairs (the simulation lost the boot effect)",
		 fp_pooled, pairs);
	assert_msg(tp >= pairs * 9 / 10, "+50 %% detected in only %d of %d", tp, pairs);
	assert_msg(few == pairs, "3 boots judged in %d of %d", pairs - few, pairs);
}

TEST(test_improvement)
{
	int rc;

	make_summary("b.json", det, NSPEC(det), -1, 0, 1);
	make_summary("n.json", det, NSPEC(det), 0, -5.0, 3);
	rc = compare(args2("b.json", "n.json", NULL));
	assert_msg(rc == 0, "exit %d", rc);
	assert_msg(file_has(path("out"), "(improvement)") &&
		 file_has(path("out"), "1 improvements"), "marked as improvement");
	/* better = higher: a drop regresses, a rise does not */
	make_summary("n.json", det, NSPEC(det), 3, -3.0, 3);
	assert_msg(compare(args2("b.json", "n.json", NULL)) == 1,
		 "higher-is-better drop flagged");
	make_summary("n.json", det, NSPEC(det), 3, 3.0, 3);
	assert_msg(compare(args2("b.json", "n.json", NULL)) == 0,
		 "higher-is-better rise passes");
	/* better = none is never gated */
	make_summary("n.json", det, NSPEC(det), 4, 50.0, 3);
	assert_msg(compare(args2("b.json", "n.json", NULL)) == 0 &&
		 file_has(path("out"), "(not gated)"), "better=none not gated");
}

TEST(test_noise_file)
{
	struct json_err e;
	struct json *nz;
	double band = -1;
	char cmd[1200];
	int rc;

	/* A/A runs that differ by 1.6 %: band 3.2 % hides a 2 % shift */
	make_summary("a.json", det, NSPEC(det), -1, 0, 1);
	make_summary("a2.json", det, NSPEC(det), -1, 1.6, 1);
	snprintf(cmd, sizeof(cmd), "%s --calibrate %s %s >%s 2>%s", exe,
		 path("a.json"), path("a2.json"), path("noise.json"), path("err"));
	rc = run_sh(cmd);
	assert_msg(rc == 0, "calibrate exit %d", rc);
	nz = json_parse_file(path("noise.json"), &e);
	assert_msg(nz != NULL, "noise.json parses: %s", e.msg);
	json_num(json_get(json_at(json_get(nz, "figures"), 0), "band_pct"), &band);
	assert_close(band, 3.2, 1e-6, "band = 2 x 1.6 %");
	json_free(nz);
	make_summary("n.json", det, NSPEC(det), 0, 2.0, 3);
	assert_msg(compare(args2("a.json", "n.json", NULL)) == 1,
		 "uncalibrated: 2 %% flagged");
	snprintf(cmd, sizeof(cmd), "--noise %s", path("noise.json"));
	assert_msg(compare(args2("a.json", "n.json", cmd)) == 0,
		 "inside the calibrated band: passes");
	make_summary("n.json", det, NSPEC(det), 0, 4.0, 3);
	assert_msg(compare(args2("a.json", "n.json", cmd)) == 1,
		 "4 %% beyond the band: flagged");

	/* identical A/A: band at the floor */
	snprintf(cmd, sizeof(cmd), "%s --calibrate %s %s >%s 2>%s", exe,
		 path("a.json"), path("a.json"), path("noise.json"), path("err"));
	run_sh(cmd);
	nz = json_parse_file(path("noise.json"), &e);
	json_num(json_get(json_at(json_get(nz, "figures"), 0), "band_pct"), &band);
	assert_close(band, 0.5, 1e-12, "floor 0.5 %");
	json_free(nz);
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(path(name), "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

TEST(test_unusable)
{
	static const struct spec other[] = {
		{ "other_figure", "deterministic", "lower", 0, 1.0, 0.01, 10 },
	};
	char extra[600];

	make_summary("b.json", det, NSPEC(det), -1, 0, 1);
	assert_msg(compare(args2("b.json", "missing.json", NULL)) == 2, "missing file");
	put("garbage.json", "{\"schema\": \"emrcu/summary/1\", \"figures\": [}");
	assert_msg(compare(args2("b.json", "garbage.json", NULL)) == 2, "bad JSON");
	assert_msg(file_has(path("err"), "byte"), "error names the byte offset");
	put("schema.json", "{\"schema\": \"emrcu/summary/0\", \"figures\": []}");
	assert_msg(compare(args2("b.json", "schema.json", NULL)) == 2, "schema");
	put("fig.json", "{\"schema\": \"emrcu/summary/1\", \"figures\": [{\"name\": \"x\"}]}");
	assert_msg(compare(args2("b.json", "fig.json", NULL)) == 2, "bad figure");
	make_summary("other.json", other, 1, -1, 0, 1);
	assert_msg(compare(args2("b.json", "other.json", NULL)) == 2,
		 "no common figures");
	snprintf(extra, sizeof(extra), "--noise %s", path("garbage.json"));
	assert_msg(compare(args2("b.json", "b.json", extra)) == 2, "bad noise file");
	assert_msg(compare(path("b.json")) == 2, "one argument");
	assert_msg(compare("--bogus") == 2, "unknown option");
}

TEST(test_columns)
{
	char a[1200];

	make_summary("b.json", det, NSPEC(det), -1, 0, 1);
	variant = "custom";
	make_summary("c.json", det, NSPEC(det), 0, 2.0, 3);
	variant = "patched";
	assert_msg(compare(args2("b.json", "c.json", NULL)) == 2,
		 "different variants, no selector: nothing in common");
	snprintf(a, sizeof(a), "%s:patched %s:custom", path("b.json"), path("c.json"));
	assert_msg(compare(a) == 1, "patched vs custom +2 %%: flagged");
	assert_msg(file_has(path("out"),
			    "REGRESSION: hot_path_ns_per_call patched deterministic none hz=0 pd0 (new: custom)"),
		 "names both columns");
	assert_msg(file_count(path("out"), "REGRESSION: ") == 1, "only that figure");
	snprintf(a, sizeof(a), "%s:patched %s:patched", path("b.json"), path("b.json"));
	assert_msg(compare(a) == 0, "a column against itself passes");
	snprintf(a, sizeof(a), "%s:patched %s", path("b.json"), path("c.json"));
	assert_msg(compare(a) == 2 && file_has(path("err"), "both sides"),
		 "selector on one side only: exit 2");
	snprintf(a, sizeof(a), "%s:nosuch %s:custom", path("b.json"), path("c.json"));
	assert_msg(compare(a) == 2 && file_has(path("err"), "no figure of variant 'nosuch'"),
		 "unknown variant: exit 2");
}

static struct fig F(const char *better, double med, double lo, double hi,
		    const char *mode)
{
	struct fig f;

	memset(&f, 0, sizeof(f));
	f.name = "x";
	f.better = better;
	f.mode = mode;
	f.median = med;
	f.ci_low = lo;
	f.ci_high = hi;
	snprintf(f.key, sizeof(f.key), "x");
	return f;
}

TEST(test_judge)
{
	struct gateconf g = { 1.0, 5.0, 2.0, 0.5, 5, 0.5 };
	struct fig b = F("lower", 100, 99.9, 100.1, "deterministic"), n;
	struct verdict v;

	n = F("lower", 101, 100.9, 101.1, "deterministic");
	gate_judge(&b, &n, &g, NULL, &v);
	assert_msg(v.regression && v.big_enough, "exactly min effect (1 %%) counts");
	n = F("lower", 100.99, 100.9, 101.1, "deterministic");
	gate_judge(&b, &n, &g, NULL, &v);
	assert_msg(!v.regression && !v.big_enough, "just below min effect");
	n = F("lower", 101, 100.1, 101.1, "deterministic");
	gate_judge(&b, &n, &g, NULL, &v);
	assert_msg(!v.regression && !v.ci_disjoint, "touching CIs overlap");
	n = F("lower", 104, 103.9, 104.1, "realtime");
	b.mode = "realtime";
	b.nboots = n.nboots = 5;
	b.boot_min = 99;
	b.boot_max = 101;
	n.boot_min = 103;
	n.boot_max = 105;
	gate_judge(&b, &n, &g, NULL, &v);
	assert_msg(!v.regression && v.min_effect_pct == 5.0 && v.ci_disjoint,
		 "realtime min effect");
	n = F("lower", 110, 109.9, 110.1, "realtime");
	n.nboots = 5;
	n.boot_min = 100.5;	/* boot ranges overlap: CIs do not count */
	n.boot_max = 112;
	gate_judge(&b, &n, &g, NULL, &v);
	assert_msg(!v.regression && !v.ci_disjoint && v.boots_method,
		 "realtime judged on boot ranges");
	n.boot_min = 101.5;
	gate_judge(&b, &n, &g, NULL, &v);
	assert_msg(v.regression, "realtime +10 %%, boot ranges disjoint");
	n.nboots = 4;
	gate_judge(&b, &n, &g, NULL, &v);
	assert_msg(!v.regression && v.few_boots, "4 boots < min_boots_realtime");
	/* instructions/call at update_hz 0: the floor is 0.5 instruction */
	b = F("lower", 102.80, 102.72, 102.80, "deterministic");
	b.unit = "instructions/call";
	n = F("lower", 103.76, 103.76, 103.76, "deterministic");
	n.unit = "instructions/call";
	gate_judge(&b, &n, &g, NULL, &v);
	assert_msg(v.regression && v.min_effect_abs == 0.5,
		 "one nop (+0.96 instructions, +0.93 %%) is flagged");
	n.median = n.ci_low = n.ci_high = 103.2;
	gate_judge(&b, &n, &g, NULL, &v);
	assert_msg(!v.regression && !v.big_enough, "+0.4 instruction is below the floor");
	n.median = n.ci_low = n.ci_high = 103.76;
	b.update_hz = n.update_hz = 1000;
	gate_judge(&b, &n, &g, NULL, &v);
	assert_msg(!v.regression && !v.big_enough && v.min_effect_abs == 0,
		 "with an updater the percentage floor applies");
	assert_close(stats_pct_change(0, 0), 0, 0, "0 -> 0");
	assert_msg(isinf(stats_pct_change(0, 1)), "0 -> 1 is infinite");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		NAMED("results/compare.aa_equal_passes", test_aa),
		NAMED("results/compare.det_plus_2pct_flagged", test_shift),
		NAMED("results/compare.noisy_equal_passes", test_noisy_equal),
		NAMED("results/compare.improvement_not_flagged", test_improvement),
		NAMED("results/compare.calibrated_noise_band", test_noise_file),
		NAMED("results/compare.unusable_input_exit_2", test_unusable),
		NAMED("results/compare.variant_columns", test_columns),
		NAMED("results/compare.gate_judge_boundaries", test_judge),
	};
	int rc;

	char cmd[400];

	if (argc != 2) {
		fprintf(stderr, "usage: test_compare EMRCU_COMPARE\n");
		return 2;
	}
	exe = argv[1];
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	rc = run_group("results", tests);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	run_sh(cmd);
	return rc ? 1 : 0;
}
