// SPDX-License-Identifier: GPL-2.0
/*
 * test_summarize.c EMRCU_SUMMARIZE EMRCU_COMPARE DATADIR - emrcu-summarize
 * on the synthetic run directories of tests/data/runs (values chosen so
 * the expected figures can be derived by hand, see tests/data/README),
 * its refusal of unusable runs (tests/data/bad), and the pipeline
 * summarize -> compare on a run whose hot path was made 3 % slower.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "origin.h"
#include "emrcu/fs.h"
#include "check.h"

static const char *sum_exe, *cmp_exe, *data;
static char dir[] = "/tmp/emrcu-summarize-XXXXXX";

static int sh(const char *fmt, const char *a, const char *b)
{
	char cmd[3000];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return run_sh(cmd);
}

static const struct fig *find(const struct summary *s, const char *name,
			      const char *variant, const char *mode,
			      const char *hz, long cluster, long nr,
			      const char *scen)
{
	char key[FIG_KEY_MAX];

	snprintf(key, sizeof(key), "%s|%s|%s|none|%s|%ld|%ld|%s", name, variant,
		 mode, hz, cluster, nr, scen);
	return summary_find(s, key);
}

static double num(const struct fig *f, const char *k)
{
	double d = NAN;

	if (f)
		json_num(json_get(f->node, k), &d);
	return d;
}

static struct summary S;
static int loaded;

TEST(test_runs)
{
	char p[PATH_MAX], err[600];
	int rc;

	rc = sh("cp -r %s/runs %s/", data, dir);
	assert_msg(rc == 0, "copy of the test runs");
	snprintf(p, sizeof(p), "cd %s/runs && SOURCE_DATE_EPOCH=0 %s */ 2>%s/err",
		 dir, sum_exe, dir);
	rc = run_sh(p);
	assert_msg(rc == 0, "exit %d", rc);
	snprintf(p, sizeof(p), "%s/runs/summary.json", dir);
	loaded = !summary_load(p, &S, err, sizeof(err));
	assert_msg(loaded, "summary.json loads and validates: %s", err);
	snprintf(p, sizeof(p), "%s/runs/summary-samples.json", dir);
	assert_msg(is_file(p), "summary-samples.json written beside it");
	assert_msg(sh("ls %s/runs | grep -q '\\.tmp\\.' %s", dir, "") != 0,
		 "no temporary file left");
	assert_msg(loaded && !strcmp(json_str(json_get(S.root, "created")),
				   "1970-01-01T00:00:00Z"),
		 "created honours SOURCE_DATE_EPOCH");
}

TEST(test_hot_path)
{
	const struct fig *u0, *u1, *i0, *p0, *rt;

	u0 = find(&S, "hot_path_ns_per_call", "unpatched", "deterministic", "0", 0, 0, "");
	u1 = find(&S, "hot_path_ns_per_call", "unpatched", "deterministic", "0", 1, 0, "");
	p0 = find(&S, "hot_path_ns_per_call", "patched", "deterministic", "100", 0, 0, "");
	assert_msg(u0 && u1 && p0, "figures present");
	if (!u0 || !u1 || !p0)
		goto out;
	/* 2 runs x 2 CPUs x 10 passes; one 74.4 and one 76.4 pass */
	assert_msg(u0->n == 40 && u0->median == 74 && u0->ci_low == 74 &&
		 u0->ci_high == 74, "unpatched pd0: n %ld median %g [%g, %g]",
		 u0->n, u0->median, u0->ci_low, u0->ci_high);
	assert_close(num(u0, "contaminated"), 2, 0, "two contaminated passes");
	assert_close(num(u0, "contam_threshold"), 0.002, 0, "declared threshold");
	assert_close(num(u0, "max"), 76.4, 0, "max");
	assert_close(num(u0, "opps"), 4, 0, "OPP count of pd0");
	assert_close(num(u1, "contaminated"), 2, 0, "pd1: 80.6 in both runs");
	assert_msg(json_len(json_get(u0->node, "sources")) == 2, "pooled from 2 runs");
	assert_close(num(u0, "ci_coverage"), 0.9615226917157997, 1e-12, "coverage n=40");
	assert_msg(p0->n == 20 && p0->median == 76, "patched pd0 76 ns/call");
	i0 = find(&S, "hot_path_instructions_per_call", "unpatched", "deterministic",
		  "0", 0, 0, "");
	assert_msg(i0 && i0->median == 37 && i0->ci_high == 37 &&
		 !strcmp(i0->unit, "instructions/call"),
		 "37 instructions/call at shift 1");
	rt = find(&S, "hot_path_instructions_per_call", "unpatched", "realtime",
		  "0", 0, 0, "");
	assert_msg(!rt, "no instruction counts in realtime mode");
	rt = find(&S, "hot_path_ns_per_call", "unpatched", "realtime", "0", 0, 0, "");
	assert_msg(rt && rt->n == 20 && rt->ci_low < rt->median &&
		 rt->median < rt->ci_high, "realtime figure has a real CI");
	assert_close(num(rt, "contam_threshold"), 0.05, 0, "realtime threshold");
out:
}

TEST(test_ratio)
{
	const struct fig *r0, *r1, *rr;

	r0 = find(&S, "hot_path_ratio", "patched", "deterministic", "100", 0, 0, "");
	r1 = find(&S, "hot_path_ratio", "patched", "deterministic", "100", 1, 0, "");
	rr = find(&S, "hot_path_ratio", "patched", "realtime", "100", 1, 0, "");
	assert_msg(r0 && r1 && rr, "ratio figures present");
	if (!r0 || !r1 || !rr)
		goto out;
	assert_close(r0->median, 76.0 / 74.0, 1e-15, "pd0 ratio 76/74");
	assert_msg(r0->ci_low == r0->median && r0->ci_high == r0->median,
		 "exact data, zero-width CI");
	assert_close(r1->median, 82.0 / 80.0, 1e-15, "pd1 ratio 82/80");
	assert_msg(!strcmp(json_str(json_get(r0->node, "baseline")), "unpatched"),
		 "baseline named");
	assert_close(num(r0, "n_baseline"), 40, 0, "baseline n");
	assert_close(num(r0, "bootstrap_resamples"), 2000, 0, "declared resamples");
	assert_msg(rr->ci_low < rr->median && rr->median < rr->ci_high,
		 "realtime ratio has a real CI");
	r0 = find(&S, "hot_path_ratio", "patched", "deterministic", "0", 0, 0, "");
	assert_msg(r0 && r0->median == 75.0 / 74.0,
		 "patched without updater vs unpatched: 75/74");
out:
}

TEST(test_update)
{
	const struct fig *u0, *u1, *o0, *o1, *rt;

	u0 = find(&S, "update_us", "patched", "deterministic", "100", 0, 0, "");
	u1 = find(&S, "update_us", "patched", "deterministic", "100", 1, 0, "");
	o0 = find(&S, "update_us_per_opp", "patched", "deterministic", "100", 0, 0, "");
	o1 = find(&S, "update_us_per_opp", "patched", "deterministic", "100", 1, 0, "");
	rt = find(&S, "update_us_per_opp", "patched", "realtime", "100", 1, 0, "");
	assert_msg(u0 && u1 && o0 && o1 && rt, "figures present");
	if (!u0 || !u1 || !o0 || !o1 || !rt)
		goto out;
	/* pd0 updates: 8000 + 2i ns for i = 0, 2, .., 10 -> median 8010 */
	assert_close(u0->median, 8.010, 1e-12, "pd0 update us");
	assert_close(o0->median, 8.010 / 4, 1e-12, "pd0 per OPP");
	assert_close(u1->median, 9.512, 1e-12, "pd1 update us");
	assert_close(o1->median, 9.512 / 5, 1e-12, "pd1 per OPP");
	assert_msg(u0->n == 6 && u0->ci_low == 8.0 && u0->ci_high == 8.02,
		 "n 6, CI [min, max] = [8, 8.02]");
	assert_close(num(rt, "opps"), 5, 0, "realtime updater on pd1 (5 OPPs)");
	assert_msg(!find(&S, "update_us", "unpatched", "deterministic", "0", 0, 0, ""),
		 "no update figures without an updater");
	assert_msg(!find(&S, "update_us", "patched", "deterministic", "0", 0, 0, "") &&
		 !find(&S, "update_us", "patched", "deterministic", "0", -1, 0, ""),
		 "none for a patched kernel whose updater did not run");
out:
}

TEST(test_fit)
{
	const struct fig *s8, *sl, *ic, *r2;

	s8 = find(&S, "update_scaling_us", "patched", "deterministic", "100", -1, 8, "");
	sl = find(&S, "update_fit_slope_us_per_opp", "patched", "deterministic", "100", -1, 0, "");
	ic = find(&S, "update_fit_intercept_us", "patched", "deterministic", "100", -1, 0, "");
	r2 = find(&S, "update_fit_r2", "patched", "deterministic", "100", -1, 0, "");
	assert_msg(s8 && sl && ic && r2, "figures present");
	if (!s8 || !sl || !ic || !r2)
		goto out;
	/* update_ns = 2000 + 1500 n + 4k, k = 0..4: medians 2008 + 1500 n */
	assert_close(s8->median, 14.008, 1e-12, "nr_states 8 median");
	assert_close(sl->median, 1.5, 1e-12, "slope 1.5 us/OPP");
	assert_close(ic->median, 2.008, 1e-9, "intercept 2.008 us");
	assert_close(r2->median, 1, 1e-12, "r2");
	assert_msg(sl->ci_low <= 1.5 && 1.5 <= sl->ci_high && sl->n == 4,
		 "slope CI holds the slope; 4 points");
	assert_msg(!strcmp(r2->better, "none"), "r2 is not gated");
	sl = find(&S, "update_fit_slope_instructions_per_opp", "patched",
		  "deterministic", "100", -1, 0, "");
	assert_close(num(sl, "median"), 750, 1e-9, "shift 1: 1.5 us/OPP = 750 instructions/OPP");
	ic = find(&S, "update_fit_quadratic_share", "patched", "deterministic",
		  "100", -1, 0, "");
	assert_msg(ic && fabs(ic->median) < 1e-9, "a straight line has no curvature");
	/* callback_ns = 100 + 40 n + n^2: x^2 term 1.024 of 2.404 us at n 32 */
	ic = find(&S, "callback_fit_quadratic_share", "patched", "deterministic",
		  "100", -1, 0, "");
	assert_close(num(ic, "median"), 1.024 / 2.404, 1e-9, "the callback's curvature is seen");
	sl = find(&S, "callback_fit_slope_us_per_opp", "patched", "deterministic",
		  "100", -1, 0, "");
	assert_msg(sl && json_len(json_get(sl->node, "residuals_us")) == 4 &&
		 !strcmp(json_str(json_get(sl->node, "fit_of")), "update_callback_us"),
		 "the callback's fit, with a residual per point");
out:
}

TEST(test_constants)
{
	const struct json *c = json_get(S.root, "constants");
	const struct json *run = json_get(json_get(c, "runs"), "det-patched");
	const struct fig *sc;
	double d = 0;

	assert_msg(run != NULL, "run labelled relative to the summary: det-patched");
	assert_msg(json_len(json_get(json_at(json_get(json_get(run, "params"),
						   "clusters"), 1), "opps")) == 5,
		 "params.json (OPP tables) copied");
	json_num(json_get(json_get(run, "bench_params"), "loops"), &d);
	assert_msg(d == 1000, "bench params copied");
	assert_msg(json_get(json_get(run, "meta"), "topology") != NULL, "topology copied");
	json_num(json_get(json_get(c, "summarize"), "ci_level"), &d);
	assert_msg(d == 0.95, "summarize.conf copied");
	assert_msg(json_str(json_get(json_get(c, "methods"), "median_ci")) != NULL,
		 "methods stated");
	assert_msg(json_len(json_get(c, "pairs")) >= 3, "pairs copied");
	sc = find(&S, "energy_vs_optimal_pct", "patched", "deterministic", "0", -1, 0,
		  "three_small");
	assert_msg(sc && sc->median == 3.05 && !strcmp(sc->unit, "%"),
		 "scenario metric summarized");
	assert_msg(json_get(json_get(json_get(c, "runs"), "scen-three-small-patched"),
			  "scenario_constants") != NULL, "scenario constants copied");
}

/*
 * The provenance block and the ids: every figure named uniquely by its
 * identity; two figures with one identity are refused (negative control).
 */
TEST(test_origin)
{
	const struct json *p = json_get(S.root, "provenance");
	const struct json *figs = json_get(S.root, "figures");
	struct json *two;
	char key[FIG_KEY_MAX], err[300];
	size_t i;

	assert_msg(p && json_kind(json_get(p, "command")) == JSON_NULL,
		   "provenance block, no --command: command null");
	assert_msg(json_get(json_get(p, "variants"), "patched") &&
		   json_get(json_get(p, "variants"), "unpatched"),
		   "both variants' kernels recorded");
	assert_msg(json_str(json_get(p, "qemu_version")) != NULL, "QEMU version recorded");
	for (i = 0; i < json_len(figs); i++) {
		const struct json *f = json_at(figs, i);

		assert_true(!fig_key_json(f, key, sizeof(key)));
		assert_msg(json_str(json_get(f, "id")) &&
			   !strcmp(json_str(json_get(f, "id")), key),
			   "figure %zu: id is its identity", i);
	}
	two = json_new_arr();
	json_push(two, json_clone(json_at(figs, 0)));
	json_push(two, json_clone(json_at(figs, 0)));
	assert_msg(origin_ids(two, err, sizeof(err)) && strstr(err, "two figures have the id"),
		   "a duplicate identity refused: %s", err);
	json_free(two);
}

TEST(test_samples)
{
	struct json_err e;
	struct json *sm;
	char p[PATH_MAX];
	size_t i, bad = 0, checked = 0;

	snprintf(p, sizeof(p), "%s/runs/summary-samples.json", dir);
	sm = json_parse_file(p, &e);
	assert_msg(sm != NULL, "parses: %s", e.msg);
	for (i = 0; sm && i < S.n; i++) {
		const char *id = json_str(json_get(S.figs[i].node, "samples_id"));
		const struct json *a;

		if (!id)
			continue;
		a = json_get(json_get(sm, "samples"), id);
		checked++;
		if (!a || (long)json_len(a) != S.figs[i].n)
			bad++;
	}
	assert_msg(checked >= 20 && !bad, "%zu of %zu figures lack their samples",
		 bad, checked);
	json_free(sm);
}

TEST(test_reproducible)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p),
		 "cd %s/runs && cp summary.json /tmp/emrcu-s1.$$ && SOURCE_DATE_EPOCH=0 %s */ 2>/dev/null && cmp -s summary.json /tmp/emrcu-s1.$$; r=$?; rm -f /tmp/emrcu-s1.$$; exit $r",
		 dir, sum_exe);
	assert_msg(run_sh(p) == 0, "same runs, same summary.json (fixed bootstrap seed)");
}

TEST(test_bad)
{
	char p[PATH_MAX];
	static const char *const bad[] = { "garbage", "mismatch", "noshift" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(p, sizeof(p), "%s -o %s/x.json %s/bad/%s 2>%s/err", sum_exe,
			 dir, data, bad[i], dir);
		assert_msg(run_sh(p) == 2, "bad/%s accepted", bad[i]);
	}
	snprintf(p, sizeof(p), "%s/err", dir);
	assert_msg(file_has(p, "shift"), "error says what is missing");
	snprintf(p, sizeof(p), "%s -o %s/x.json %s/nonexistent 2>/dev/null", sum_exe,
		 dir, data);
	assert_msg(run_sh(p) == 2, "missing run directory");
	snprintf(p, sizeof(p), "mkdir -p %s/empty && %s %s/empty 2>/dev/null", dir,
		 sum_exe, dir);
	assert_msg(run_sh(p) == 2, "run directory without results");
	snprintf(p, sizeof(p), "%s 2>/dev/null", sum_exe);
	assert_msg(run_sh(p) == 2, "no arguments");
	snprintf(p, sizeof(p), "%s/x.json", dir);
	assert_msg(!is_file(p), "nothing written on failure");
}

/* Scales the passes of every reader of perf domain pd in em_bench.json. */
static int slow_down(const char *file, long pd, double factor)
{
	struct json *b = json_parse_file(file, NULL);
	struct json *rd = json_get(b, "readers");
	char err[300];
	size_t i, k;
	int rc;

	if (!b)
		return -1;
	for (i = 0; i < json_len(rd); i++) {
		struct json *r = json_at(rd, i), *ns = json_get(r, "ns_per_call");
		int64_t p;

		if (json_int64(json_get(r, "pd"), &p) || p != pd)
			continue;
		struct json *scaled = json_new_arr();

		for (k = 0; k < json_len(ns); k++) {
			double v = 0;

			json_num(json_at(ns, k), &v);
			json_push(scaled, json_new_num(v * factor));
		}
		json_set(r, "ns_per_call", scaled);
	}
	rc = write_json_atomic(file, b, 1, err, sizeof(err));
	json_free(b);
	return rc;
}

/* Drops updater.update_pd (an optional field) from em_bench.json. */
static int drop_update_pd(const char *file)
{
	struct json *b = json_parse_file(file, NULL), *up, *c;
	char err[300];
	size_t i;
	int rc;

	up = json_get(b, "updater");
	if (!up)
		return -1;
	c = json_new_obj();
	for (i = 0; i < json_len(up); i++)
		if (strcmp(json_key(up, i), "update_pd"))
			json_set(c, json_key(up, i), json_clone(json_at(up, i)));
	json_set(b, "updater", c);
	rc = write_json_atomic(file, b, 1, err, sizeof(err));
	json_free(b);
	return rc;
}

/* emrcu-summarize in dir/@sub over @runs, then its summary.json into @s. */
/*
 * dir/sub made anew from fixture runs: COPIES ("runs/a runs/b") as they
 * are, and runs/SRC as sub/DST with jq's EDIT applied to its em_bench.json.
 */
static int fixture(const char *sub, const char *copies, const char *src,
		   const char *dst, const char *edit)
{
	char p[4 * PATH_MAX];

	snprintf(p, sizeof(p), "cd %s && rm -rf %s && mkdir %s && cp -r %s %s/ && "
		 "cp -r runs/%s %s/%s && cd %s/%s && jq '%s' em_bench.json > n.json && "
		 "mv n.json em_bench.json", dir, sub, sub, copies, sub, src, sub, dst,
		 sub, dst, edit);
	return run_sh(p);
}

static void summarize_in(const char *sub, const char *runs, struct summary *s)
{
	char p[2 * PATH_MAX], err[600];

	snprintf(p, sizeof(p), "cd %s/%s && %s %s 2>../%s.err", dir, sub, sum_exe,
		 runs, sub);
	assert_msg(run_sh(p) == 0, "%s summarized", sub);
	snprintf(p, sizeof(p), "%s/%s/summary.json", dir, sub);
	assert_msg(!summary_load(p, s, err, sizeof(err)), "%s", err);
}

/* updater.pd "all" without update_pd: one update figure, no per-OPP one */
TEST(test_update_all)
{
	char p[2 * PATH_MAX], err[600];
	struct summary s;
	const struct fig *u;

	snprintf(p, sizeof(p), "cd %s && rm -rf all && mkdir all && cp -r runs/det-patched all/",
		 dir);
	assert_msg(run_sh(p) == 0, "copy");
	snprintf(p, sizeof(p), "%s/all/det-patched/em_bench.json", dir);
	assert_msg(!drop_update_pd(p), "update_pd dropped");
	snprintf(p, sizeof(p), "cd %s/all && %s det-patched 2>../all.err", dir, sum_exe);
	assert_msg(run_sh(p) == 0, "summarized");
	snprintf(p, sizeof(p), "%s/all/det-patched/summary.json", dir);
	assert_msg(!summary_load(p, &s, err, sizeof(err)), "%s", err);
	u = find(&s, "update_us", "patched", "deterministic", "100", -1, 0, "");
	assert_msg(u && u->n == 12, "update_us over all perf domains, n 12");
	assert_msg(!find(&s, "update_us_per_opp", "patched", "deterministic", "100", -1, 0, ""),
		 "no per-OPP figure: the domains have 4 and 5 OPPs");
	assert_msg(find(&s, "update_free_delay_us", "patched", "deterministic", "100", -1, 0, "") != NULL,
		 "free delay kept");
	summary_free(&s);
	snprintf(p, sizeof(p), "%s/all.err", dir);
	assert_msg(file_has(p, "no update_us_per_opp"), "the missing figure is explained");
}

/*
 * A null updater's readers are the same-rate baseline: the unpatched run
 * made a null updater at 100 Hz divides the patched 100 Hz run; the same
 * null updater on a runtime-EM kernel is refused.
 */
TEST(test_null_baseline)
{
	static const char *nul =
		".updater = {\"available\":false,\"null_update\":true,\"hz\":100,"
		"\"achieved_hz\":100.0,\"cpu\":0,\"events\":10,\"late\":0,"
		"\"missed\":0,\"tick_sleeps\":0,\"elapsed_ns\":100000000}"
		" | .params.update_hz = 100";
	char p[3 * PATH_MAX];
	struct summary s;
	const struct fig *r, *u;

	assert_msg(fixture("null", "runs/det-patched runs/det-unpatched-1",
			 "det-unpatched-2", "det-unpatched-2", nul) == 0,
		 "copy, null updater at 100 Hz on one unpatched run");
	summarize_in("null", "*/", &s);
	u = find(&s, "hot_path_ns_per_call", "unpatched", "deterministic", "100", 0, 0, "");
	assert_msg(u && u->n == 20, "the null-updater run is its own figure at 100 Hz");
	u = find(&s, "hot_path_ns_per_call", "unpatched", "deterministic", "0", 0, 0, "");
	assert_msg(u && u->n == 20, "not pooled into the readers-only figure");
	r = find(&s, "hot_path_ratio", "patched", "deterministic", "100", 0, 0, "");
	assert_close(num(r, "baseline_update_hz"), 100, 0, "patched 100 Hz divided by the 100 Hz null run");
	summary_free(&s);
	snprintf(p, sizeof(p), "cd %s/null && jq '.runtime_em = true' det-unpatched-2/em_bench.json > n.json && "
		 "mv n.json det-unpatched-2/em_bench.json && %s */ 2>../null.err", dir, sum_exe);
	assert_msg(run_sh(p) == 2, "null updater on a runtime-EM kernel refused");
	snprintf(p, sizeof(p), "%s/null.err", dir);
	assert_msg(file_has(p, "null_update on a kernel with the runtime EM"), "and why");
}

/*
 * An updater that pushes one table (temp_lo_mc == temp_hi_mc, em_bench
 * same_table=1) is its own configuration, "<variant>+same-table", with
 * its ratio to the unpatched null updater of its rate (results/pairs);
 * the alternating-table run of the same kernel keeps its figures.
 */
TEST(test_same_table)
{
	struct summary s;
	const struct fig *f;

	assert_msg(fixture("same", "runs/det-patched runs/det-unpatched-1 runs/det-unpatched-2",
			 "det-patched", "det-patched-same",
			 ".params.temp_hi_mc = .params.temp_lo_mc") == 0,
		 "copy, one patched run pushing one table");
	summarize_in("same", "*/", &s);
	f = find(&s, "hot_path_ns_per_call", "patched+same-table", "deterministic", "100", 0, 0, "");
	assert_msg(f && f->n == 20, "the same-table run is its own figure (n %ld)", f ? f->n : -1L);
	f = find(&s, "hot_path_ns_per_call", "patched", "deterministic", "100", 0, 0, "");
	assert_msg(f && f->n == 20, "not pooled into the alternating-table figure");
	assert_msg(find(&s, "hot_path_ratio", "patched+same-table", "deterministic", "100", 0, 0, "") != NULL,
		 "its ratio to the unpatched kernel (results/pairs)");
	summary_free(&s);
}

/*
 * The update-cost scaling boot (scaling, no updater) is not pooled into the
 * readers-only hot path of its kernel; its updates are still the scaling
 * figure.
 */
TEST(test_scaling_boot)
{
	static const char *sc =
		".params.scaling = true | .scaling = [{\"nr_states\":4,"
		"\"device\":\"emrcu-test4\",\"errors\":0,\"update_ns\":[1000,1002]}]";
	struct summary s;
	const struct fig *h;

	assert_msg(fixture("scb", "runs/det-patched-idle", "det-patched-idle", "sc", sc) == 0,
		 "copy, one of them a scaling boot");
	summarize_in("scb", "*/", &s);
	h = find(&s, "hot_path_ns_per_call", "patched", "deterministic", "0", 0, 0, "");
	assert_msg(h && json_len(json_get(h->node, "sources")) == 1,
		 "hot path from the readers-only boot alone");
	assert_msg(find(&s, "update_scaling_us", "patched", "deterministic", "0", -1, 4, "") != NULL,
		 "the scaling boot's updates kept");
	summary_free(&s);
}

/* The largest per-boot median of a figure. */
static double max_boot_median(const struct fig *f)
{
	const struct json *b = json_get(f->node, "boot_medians");
	double m = -INFINITY, v;
	size_t i;

	for (i = 0; i < json_len(b); i++)
		if (!json_num(json_at(b, i), &v) && v > m)
			m = v;
	return m;
}

/*
 * Deterministic passes of one boot are identical, so the passes' interval is
 * zero-width; a second boot 1 % slower must widen the figure's interval and
 * the ratio's to what the boots gave.
 */
TEST(test_boot_intervals)
{
	char p[3 * PATH_MAX];
	struct summary s;
	const struct fig *u, *r;

	snprintf(p, sizeof(p), "cd %s && rm -rf bi && mkdir bi && "
		 "cp -r runs/det-unpatched-1 runs/det-unpatched-2 runs/det-patched-idle bi/ && "
		 "cp -r runs/det-unpatched-2 bi/det-unpatched-3", dir);
	assert_msg(run_sh(p) == 0, "copy, three unpatched boots");
	/* 40 passes at 74, 20 at 74.74: the passes' interval is [74, 74] */
	snprintf(p, sizeof(p), "%s/bi/det-unpatched-3/em_bench.json", dir);
	assert_msg(!slow_down(p, 0, 1.01), "third boot 1 %% slower on pd0");
	summarize_in("bi", "*/", &s);
	u = find(&s, "hot_path_ns_per_call", "unpatched", "deterministic", "0", 0, 0, "");
	assert_msg(u && u->ci_low <= 74 && u->ci_high >= 74.74 - 1e-9 &&
		 num(u, "n_boots") == 3, "unpatched pd0 interval covers every boot (74, 74.74)");
	r = find(&s, "hot_path_ratio", "patched", "deterministic", "0", 0, 0, "");
	assert_msg(r && r->ci_low <= 75 / 74.74 + 1e-12 && r->ci_high >= 75.0 / 74 - 1e-12,
		 "ratio interval covers every denominator boot");
	u = find(&s, "hot_path_ns_per_call", "unpatched", "deterministic", "0", 1, 0, "");
	assert_msg(u && u->ci_low == u->ci_high, "pd1, equal boots: still exact");
	summary_free(&s);

	/* realtime: the boot is the unit too (three boots, one 10 % slower) */
	snprintf(p, sizeof(p), "cd %s && rm -rf br && mkdir br && cp -r runs/rt-unpatched br/a && "
		 "cp -r runs/rt-unpatched br/b && cp -r runs/rt-unpatched br/c", dir);
	assert_msg(run_sh(p) == 0, "copy, three realtime boots");
	snprintf(p, sizeof(p), "%s/br/c/em_bench.json", dir);
	assert_msg(!slow_down(p, 0, 1.10), "third boot 10 %% slower on pd0");
	summarize_in("br", "*/", &s);
	u = find(&s, "hot_path_ns_per_call", "unpatched", "realtime", "0", 0, 0, "");
	assert_msg(u && num(u, "n_boots") == 3 &&
		 json_get(u->node, "ci_widened_to_boots") &&
		 u->ci_high >= max_boot_median(u) - 1e-9,
		 "realtime pd0 interval reaches the slow boot's median");
	summary_free(&s);
}

/*
 * Deterministic mode: a pass can end a tick of the guest clock earlier or
 * later, so a figure's interval reaches its boots' medians +- one tick over
 * the pass (1e9 / clock_hz / loops, em_bench's clock_hz and loops); a run
 * without clock_hz keeps its interval.
 */
TEST(test_clock_step)
{
	const double q = 1e9 / 62500000.0 / 1000;	/* 16 ns over 1000 calls */
	const struct fig *u, *i, *r, *pt;
	struct summary s;

	assert_msg(fixture("cs", "runs/det-patched-idle", "det-unpatched-1", "u",
			 ".clock_hz = 62500000") == 0, "copy, unpatched with its clock rate");
	summarize_in("cs", "*/", &s);
	u = find(&s, "hot_path_ns_per_call", "unpatched", "deterministic", "0", 0, 0, "");
	assert_msg(u && fabs(u->ci_low - (u->median - q)) < 1e-9 &&
		 fabs(u->ci_high - (u->median + q)) < 1e-9,
		 "ns/call: median +- one tick per pass");
	i = find(&s, "hot_path_instructions_per_call", "unpatched", "deterministic", "0", 0, 0, "");
	assert_msg(i && fabs(i->ci_high - i->ci_low - ldexp(2 * q, -(int)num(i, "shift"))) < 1e-9,
		 "instructions/call: the same tick in instructions");
	pt = find(&s, "hot_path_ns_per_call", "patched", "deterministic", "0", 0, 0, "");
	assert_msg(pt && pt->ci_low == pt->ci_high, "a run without clock_hz keeps its interval");
	r = find(&s, "hot_path_ratio", "patched", "deterministic", "0", 0, 0, "");
	assert_msg(r && u && pt && r->ci_low <= pt->median / (u->median + q) + 1e-12 &&
		 r->ci_high >= pt->median / (u->median - q) - 1e-12,
		 "the ratio covers the denominator's tick");
	summary_free(&s);
}

/* summarize a copy of the runs with the patched pd0 hot path 3 % slower */
TEST(test_pipeline)
{
	char p[4 * PATH_MAX];
	int rc;

	snprintf(p, sizeof(p), "cd %s && rm -rf slow && cp -r runs slow && rm -f slow/*.json",
		 dir);
	assert_msg(run_sh(p) == 0, "copy");
	snprintf(p, sizeof(p), "%s/slow/det-patched/em_bench.json", dir);
	assert_msg(!slow_down(p, 0, 1.03), "slowed down");
	snprintf(p, sizeof(p), "cd %s && %s slow/*/ 2>/dev/null", dir, sum_exe);
	rc = run_sh(p);
	assert_msg(rc == 0, "slow copy summarized (exit %d)", rc);
	snprintf(p, sizeof(p), "%s %s/runs/summary.json %s/slow/summary.json >%s/cmp.out 2>&1",
		 cmp_exe, dir, dir, dir);
	rc = run_sh(p);
	assert_msg(rc == 1, "compare exit %d, expected 1", rc);
	snprintf(p, sizeof(p), "%s/cmp.out", dir);
	assert_msg(file_has(p, "REGRESSION: hot_path_ns_per_call patched deterministic none hz=100 pd0"),
		 "ns/call regression reported");
	assert_msg(file_has(p, "REGRESSION: hot_path_instructions_per_call patched deterministic none hz=100 pd0"),
		 "instructions regression reported");
	assert_msg(file_has(p, "REGRESSION: hot_path_ratio patched deterministic none hz=100 pd0"),
		 "ratio regression reported");
	assert_msg(file_count(p, "REGRESSION: ") == 3, "nothing else regressed");
	snprintf(p, sizeof(p), "%s %s/runs/summary.json %s/runs/summary.json >/dev/null 2>&1",
		 cmp_exe, dir, dir);
	assert_msg(run_sh(p) == 0, "summary vs itself passes");
}

/* The cases that read runs_dir's summary fail unless it loaded. */
static int needs_runs(void **state)
{
	(void)state;
	return loaded ? 0 : -1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		NAMED("results/summarize.runs_dir", test_runs),
		{ "results/summarize.hot_path_pooled", test_hot_path, needs_runs, NULL, NULL },
		{ "results/summarize.hot_path_ratio", test_ratio, needs_runs, NULL, NULL },
		{ "results/summarize.update_cost", test_update, needs_runs, NULL, NULL },
		{ "results/summarize.scaling_fit", test_fit, needs_runs, NULL, NULL },
		{ "results/summarize.constants_and_scenario", test_constants, needs_runs, NULL, NULL },
		{ "results/summarize.samples_file", test_samples, needs_runs, NULL, NULL },
		{ "results/summarize.reproducible", test_reproducible, needs_runs, NULL, NULL },
		NAMED("results/summarize.unusable_runs_exit_2", test_bad),
		NAMED("results/summarize.update_all_pds", test_update_all),
		NAMED("results/summarize.null_updater_same_rate_baseline", test_null_baseline),
		NAMED("results/summarize.same_table_own_configuration", test_same_table),
		NAMED("results/summarize.scaling_boot_not_pooled", test_scaling_boot),
		NAMED("results/summarize.interval_covers_boots", test_boot_intervals),
		NAMED("results/summarize.interval_covers_clock_step", test_clock_step),
		NAMED("results/summarize.pipeline_gate", test_pipeline),
		NAMED("results/summarize.provenance_and_ids", test_origin),
	};
	char cmd[400];
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: test_summarize EMRCU_SUMMARIZE EMRCU_COMPARE DATADIR\n");
		return 2;
	}
	sum_exe = realpath(argv[1], NULL);
	cmp_exe = realpath(argv[2], NULL);
	data = realpath(argv[3], NULL);
	if (!sum_exe || !cmp_exe || !data) {
		fprintf(stderr, "test_summarize: missing program or data directory\n");
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	rc = run_group("results", tests);
	if (loaded)
		summary_free(&S);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	run_sh(cmd);
	return rc ? 1 : 0;
}
