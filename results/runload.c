// SPDX-License-Identifier: GPL-2.0
/* runload.c - load and validate one run directory (see runload.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/fs.h"
#include "runload.h"
#include "emrcu/xalloc.h"

static int load_opt(const char *dir, const char *name, struct json **out,
		    char *err, size_t errlen)
{
	char p[PATH_MAX];
	struct json_err je;

	*out = NULL;
	if (path_join(p, sizeof(p), dir, name) || !is_file(p))
		return 0;
	*out = json_parse_file(p, &je);
	if (!*out) {
		snprintf(err, errlen, "%s", je.msg);
		return -1;
	}
	return 0;
}

static int num_array(const struct json *a)
{
	size_t i;
	double d;

	if (!a || json_kind(a) != JSON_ARRAY)
		return 0;
	for (i = 0; i < json_len(a); i++)
		if (json_num(json_at(a, i), &d) || !isfinite(d))
			return 0;
	return 1;
}

static int is_int(const struct json *j)
{
	int64_t i;

	return !json_int64(j, &i);
}

#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int check_bench(const struct json *b, const char *f, char *err,
		       size_t errlen)
{
	const struct json *pds, *rd, *up, *sc, *par;
	const char *schema = json_str(json_get(b, "schema"));
	size_t i;
	int bv;

	if (!schema || strcmp(schema, EM_BENCH_SCHEMA))
		BAD("%s: schema is '%s', expected '%s'", f,
		    schema ? schema : "(none)", EM_BENCH_SCHEMA);
	if (!json_str(json_get(b, "variant")) || !json_str(json_get(b, "preempt")))
		BAD("%s: 'variant' and 'preempt' must be strings", f);
	if (json_boolean(json_get(b, "runtime_em"), &bv))
		BAD("%s: 'runtime_em' must be a bool", f);
	par = json_get(b, "params");
	if (!par || json_kind(par) != JSON_OBJECT)
		BAD("%s: 'params' must be an object", f);
	pds = json_get(b, "pds");
	if (!pds || json_kind(pds) != JSON_ARRAY)
		BAD("%s: 'pds' must be an array", f);
	for (i = 0; i < json_len(pds); i++) {
		const struct json *p = json_at(pds, i);

		if (!is_int(json_get(p, "pd")) || !is_int(json_get(p, "nr_states")))
			BAD("%s: pds[%zu] needs integer 'pd' and 'nr_states'", f, i);
	}
	rd = json_get(b, "readers");
	if (!rd || json_kind(rd) != JSON_ARRAY)
		BAD("%s: 'readers' must be an array", f);
	for (i = 0; i < json_len(rd); i++) {
		const struct json *r = json_at(rd, i);

		if (!is_int(json_get(r, "cpu")) || !is_int(json_get(r, "pd")) ||
		    !num_array(json_get(r, "ns_per_call")))
			BAD("%s: readers[%zu] needs integer cpu, pd and a numeric ns_per_call array",
			    f, i);
	}
	up = json_get(b, "updater");
	if (!up || json_boolean(json_get(up, "available"), &bv))
		BAD("%s: 'updater.available' must be a bool", f);
	if (bv && json_get(up, "update_ns")) {
		const struct json *pd = json_get(up, "pd"), *upd;

		if (!num_array(json_get(up, "update_ns")))
			BAD("%s: updater.update_ns must be a numeric array", f);
		if (json_get(up, "free_delay_ns") &&
		    !num_array(json_get(up, "free_delay_ns")))
			BAD("%s: updater.free_delay_ns must be a numeric array", f);
		if (!is_int(pd) && !(json_str(pd) && !strcmp(json_str(pd), "all")))
			BAD("%s: updater.pd must be an integer or \"all\"", f);
		if (json_get(up, "pds_updated") && !num_array(json_get(up, "pds_updated")))
			BAD("%s: updater.pds_updated must be a numeric array", f);
		upd = json_get(up, "update_pd");
		if (upd && (!num_array(upd) ||
			    json_len(upd) != json_len(json_get(up, "update_ns"))))
			BAD("%s: updater.update_pd must parallel update_ns", f);
	}
	sc = json_get(b, "scaling");
	if (sc && json_kind(sc) != JSON_ARRAY)
		BAD("%s: 'scaling' must be an array", f);
	for (i = 0; i < json_len(sc); i++) {
		const struct json *s = json_at(sc, i);

		if (!is_int(json_get(s, "nr_states")) ||
		    !num_array(json_get(s, "update_ns")))
			BAD("%s: scaling[%zu] needs integer nr_states and numeric update_ns",
			    f, i);
	}
	return 0;
}

static int check_scenario(const struct json *s, const char *f, char *err,
			  size_t errlen)
{
	const char *schema = json_str(json_get(s, "schema"));
	const struct json *m = json_get(s, "metrics");
	size_t i;

	if (!schema || strcmp(schema, SCENARIO_SCHEMA))
		BAD("%s: schema is '%s', expected '%s'", f,
		    schema ? schema : "(none)", SCENARIO_SCHEMA);
	if (!json_str(json_get(s, "scenario")))
		BAD("%s: 'scenario' must be a string", f);
	if (!m || json_kind(m) != JSON_ARRAY)
		BAD("%s: 'metrics' must be an array", f);
	for (i = 0; i < json_len(m); i++) {
		const struct json *x = json_at(m, i);
		const char *better = json_str(json_get(x, "better"));

		if (!json_str(json_get(x, "name")) || !json_str(json_get(x, "unit")) ||
		    !better || !num_array(json_get(x, "samples")) ||
		    !json_len(json_get(x, "samples")))
			BAD("%s: metrics[%zu] needs name, unit, better and non-empty numeric samples",
			    f, i);
		if (strcmp(better, "lower") && strcmp(better, "higher") &&
		    strcmp(better, "none"))
			BAD("%s: metrics[%zu].better must be lower/higher/none", f, i);
		if (json_get(x, "cluster") && !is_int(json_get(x, "cluster")))
			BAD("%s: metrics[%zu].cluster must be an integer", f, i);
	}
	return 0;
}

#define SAME_TABLE "+same-table"

static int same_table(const struct json *params)
{
	double lo, hi;

	return !json_num(json_get(params, "temp_lo_mc"), &lo) &&
	       !json_num(json_get(params, "temp_hi_mc"), &hi) && lo == hi;
}

int run_load(const char *dir, const char *base, struct run *r, char *err,
	     size_t errlen)
{
	const char *mv, *bv, *mode;
	const struct json *src;
	int64_t sh;
	int avail = 0;

	memset(r, 0, sizeof(*r));
	r->shift = -1;
	if (!is_dir(dir)) {
		snprintf(err, errlen, "%s: not a directory", dir);
		return -1;
	}
	r->dir = strdup(dir);
	r->label = path_label(dir, base);
	if (!r->dir)
		abort();
	if (load_opt(dir, "em_bench.json", &r->bench, err, errlen) ||
	    load_opt(dir, "meta.json", &r->meta, err, errlen) ||
	    load_opt(dir, "params.json", &r->params, err, errlen) ||
	    load_opt(dir, "scenario.json", &r->scenario, err, errlen))
		goto fail;
	if (!r->bench && !r->scenario) {
		run_free(r);
		return 1;
	}
	if (r->bench && check_bench(r->bench, "em_bench.json", err, errlen))
		goto fail_dir;
	if (r->scenario && check_scenario(r->scenario, "scenario.json", err, errlen))
		goto fail_dir;
	if (r->meta && json_kind(r->meta) != JSON_OBJECT) {
		snprintf(err, errlen, "meta.json is not an object");
		goto fail_dir;
	}

	/* variant: meta.json and em_bench.json must agree */
	mv = json_str(json_get(r->meta, "variant"));
	bv = json_str(json_get(r->bench, "variant"));
	if (mv && bv && strcmp(mv, bv)) {
		snprintf(err, errlen, "meta.json variant '%s' != em_bench.json variant '%s'",
			 mv, bv);
		goto fail_dir;
	}
	r->variant = mv ? mv : bv ? bv : json_str(json_get(r->scenario, "variant"));
	if (!r->variant) {
		snprintf(err, errlen, "no variant (meta.json or em_bench.json)");
		goto fail_dir;
	}
	/* mode: meta.json (the runner chose it), else the module's hint */
	mode = json_str(json_get(r->meta, "mode"));
	if (!mode)
		mode = json_str(json_get(json_get(r->bench, "params"), "mode_hint"));
	if (!mode) {
		snprintf(err, errlen, "no mode (meta.json 'mode' or params.mode_hint)");
		goto fail_dir;
	}
	r->mode = mode;
	src = json_get(r->meta, "shift");
	if (!src)
		src = json_get(r->meta, "icount_shift");
	if (src && !json_int64(src, &sh) && sh >= 0 && sh < 32)
		r->shift = (long)sh;
	if (!strcmp(r->mode, "deterministic") && r->shift < 0) {
		snprintf(err, errlen, "deterministic run without an integer meta.json 'shift'");
		goto fail_dir;
	}
	if (strcmp(r->mode, "deterministic"))
		r->shift = -1;
	r->preempt = json_str(json_get(r->bench, "preempt"));
	if (!r->preempt)
		r->preempt = json_str(json_get(r->meta, "preempt"));
	if (!r->preempt)
		r->preempt = json_str(json_get(r->scenario, "preempt"));
	if (!r->preempt)
		r->preempt = "unknown";
	r->release = json_str(json_get(r->meta, "kernel_release"));
	if (!r->release)
		r->release = json_str(json_get(r->meta, "release"));
	if (!r->release)
		r->release = json_str(json_get(r->bench, "release"));
	if (r->bench) {
		const struct json *up = json_get(r->bench, "updater");
		double hz = 0;
		int null = 0, rt = 0;

		json_boolean(json_get(up, "available"), &avail);
		avail = avail && json_get(up, "update_ns");
		/*
		 * A null updater (the readers-only kernel's control) runs at
		 * its rate: its readers are the same-rate baseline of a real
		 * updater's (results/pairs).  On a runtime-EM kernel its
		 * figures would pool with the real updates of the same rate.
		 */
		json_boolean(json_get(up, "null_update"), &null);
		json_boolean(json_get(r->bench, "runtime_em"), &rt);
		if (null && rt) {
			snprintf(err, errlen, "null_update on a kernel with the runtime EM: not a benchmark configuration");
			goto fail_dir;
		}
		avail = avail || null;
		if (avail &&
		    json_num(json_get(json_get(r->bench, "params"), "update_hz"), &hz) &&
		    json_num(json_get(up, "hz"), &hz)) {
			snprintf(err, errlen, "updater available but no params.update_hz");
			goto fail_dir;
		}
		r->update_hz = avail ? hz : 0;
		/*
		 * An updater that pushes one table over and over (params
		 * temp_lo_mc == temp_hi_mc) costs what RCU and the updates
		 * cost, without the content changing what the readers
		 * compute: a configuration of its own, "<variant>+same-table"
		 * (its ratio pair in results/pairs).
		 */
		if (avail && !null && same_table(json_get(r->bench, "params"))) {
			r->variant_own = xmalloc(strlen(r->variant) + sizeof(SAME_TABLE));
			sprintf(r->variant_own, "%s" SAME_TABLE, r->variant);
			r->variant = r->variant_own;
		}
	}
	if (r->meta && json_get(r->meta, "exit_code") &&
	    !json_int64(json_get(r->meta, "exit_code"), &sh) && sh != 0)
		fprintf(stderr, "emrcu-summarize: warning: %s: the run exited with code %lld (%s)\n",
			dir, (long long)sh,
			json_str(json_get(r->meta, "exit_reason")) ?
			json_str(json_get(r->meta, "exit_reason")) : "?");
	return 0;
fail_dir:
	{
		char m[512];

		snprintf(m, sizeof(m), "%s", err);
		snprintf(err, errlen, "%s: %s", dir, m);
	}
fail:
	run_free(r);
	return -1;
}

void run_free(struct run *r)
{
	free(r->variant_own);
	free(r->dir);
	free(r->label);
	json_free(r->bench);
	json_free(r->meta);
	json_free(r->params);
	json_free(r->scenario);
	memset(r, 0, sizeof(*r));
}

long run_pd_states(const struct run *r, long pd)
{
	const struct json *pds = json_get(r->bench, "pds");
	size_t i;

	for (i = 0; i < json_len(pds); i++) {
		int64_t p, n;

		if (!json_int64(json_get(json_at(pds, i), "pd"), &p) && p == pd &&
		    !json_int64(json_get(json_at(pds, i), "nr_states"), &n))
			return (long)n;
	}
	return -1;
}
