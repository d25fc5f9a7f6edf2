// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu-summarize [-o OUT] [--conf FILE] [--pairs FILE] [--command TEXT] RUNDIR...
 *
 * Reads each run directory (em_bench.json, meta.json, params.json,
 * scenario.json), pools samples by figure identity, computes every figure
 * (results/SCHEMA.md) and writes OUT (default: RUNDIR/summary.json for one
 * run directory, else <their common parent>/summary.json) and, beside it,
 * summary-samples.json with each figure's pooled samples.  Both files are
 * written atomically.  summary.json carries the provenance block (origin.h;
 * TEXT: the command that made the runs) and an id per figure.  Exit 0 on
 * success, 2 on unusable input.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/fs.h"
#include "origin.h"
#include "summarize.h"

#define SAMPLES_NAME "summary-samples.json"
#define SAMPLES_SCHEMA "emrcu/samples/1"

static int usage(void)
{
	fprintf(stderr,
		"usage: emrcu-summarize [-o OUT] [--conf FILE] [--pairs FILE] [--command TEXT] RUNDIR...\n");
	return 2;
}

/* Copy of object o without the members named in drop (NULL-terminated). */
static struct json *clone_without(const struct json *o, const char *const *drop)
{
	struct json *c = json_new_obj();
	size_t i, k;

	for (i = 0; i < json_len(o) && json_kind(o) == JSON_OBJECT; i++) {
		for (k = 0; drop[k]; k++)
			if (!strcmp(json_key(o, i), drop[k]))
				break;
		if (!drop[k])
			json_set(c, json_key(o, i), json_clone(json_at(o, i)));
	}
	return c;
}

/* Array of the objects of a, each without the members named in drop. */
static struct json *clone_each_without(const struct json *a,
				       const char *const *drop)
{
	struct json *c = json_new_arr();
	size_t i;

	for (i = 0; i < json_len(a); i++)
		json_push(c, clone_without(json_at(a, i), drop));
	return c;
}

/* Everything a run reports except its samples: what shaped its figures. */
static struct json *run_constants(const struct run *r)
{
	static const char *const samples_up[] = { "update_ns", "free_delay_ns",
						  "update_pd", NULL };
	static const char *const samples_rd[] = { "ns_per_call", NULL };
	static const char *const samples_sc[] = { "update_ns", NULL };
	struct json *c = json_new_obj();

	json_set_str(c, "variant", r->variant);
	json_set_str(c, "mode", r->mode);
	json_set_str(c, "preempt", r->preempt);
	if (r->release)
		json_set_str(c, "release", r->release);
	if (r->shift >= 0)
		json_set_int(c, "shift", r->shift);
	if (r->meta)
		json_set(c, "meta", json_clone(r->meta));
	if (r->bench) {
		json_set(c, "bench_params", json_clone(json_get(r->bench, "params")));
		if (json_get(r->bench, "limits"))
			json_set(c, "bench_limits",
				 json_clone(json_get(r->bench, "limits")));
		json_set(c, "pds", json_clone(json_get(r->bench, "pds")));
		json_set(c, "runtime_em", json_clone(json_get(r->bench, "runtime_em")));
		json_set(c, "readers", clone_each_without(json_get(r->bench, "readers"),
							  samples_rd));
		json_set(c, "updater", clone_without(json_get(r->bench, "updater"),
						     samples_up));
		json_set(c, "scaling", clone_each_without(json_get(r->bench, "scaling"),
							  samples_sc));
	}
	if (r->params)
		json_set(c, "params", json_clone(r->params));
	if (r->scenario) {
		json_set_str(c, "scenario", json_str(json_get(r->scenario, "scenario")));
		if (json_get(r->scenario, "constants"))
			json_set(c, "scenario_constants",
				 json_clone(json_get(r->scenario, "constants")));
	}
	return c;
}

/* Default output: RUNDIR/summary.json, or the runs' common parent. */
static int default_out(char **dirs, int n, char *out, size_t len)
{
	char first[PATH_MAX], other[PATH_MAX], rp[PATH_MAX];
	int i;

	if (n == 1)
		return path_join(out, len, dirs[0], "summary.json");
	if (!realpath(dirs[0], rp))
		return -1;
	path_dirname(first, sizeof(first), rp);
	for (i = 1; i < n; i++) {
		if (!realpath(dirs[i], rp))
			return -1;
		path_dirname(other, sizeof(other), rp);
		if (strcmp(first, other))
			return -1;
	}
	return path_join(out, len, first, "summary.json");
}

int main(int argc, char **argv)
{
	char conf_path[PATH_MAX] = "", pairs_path[PATH_MAX] = "";
	char out[PATH_MAX] = "", outdir[PATH_MAX], samples_path[PATH_MAX];
	char err[1024], created[40];
	struct json *summary, *consts, *runs, *figs, *samples, *sfile, *pl;
	struct pools ps = { 0 };
	struct pairs pairs;
	struct sumconf sc;
	struct conf conf;
	const char *command = NULL;
	char **dirs;
	int i, nd = 0, used = 0, rc = 2;
	size_t k;

	dirs = calloc((size_t)argc, sizeof(*dirs));
	if (!dirs)
		return 2;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			snprintf(out, sizeof(out), "%s", argv[++i]);
		else if (!strcmp(argv[i], "--conf") && i + 1 < argc)
			snprintf(conf_path, sizeof(conf_path), "%s", argv[++i]);
		else if (!strcmp(argv[i], "--pairs") && i + 1 < argc)
			snprintf(pairs_path, sizeof(pairs_path), "%s", argv[++i]);
		else if (!strcmp(argv[i], "--command") && i + 1 < argc)
			command = argv[++i];
		else if (argv[i][0] == '-')
			nd = -argc;	/* unknown option */
		else if (nd >= 0)
			dirs[nd++] = argv[i];
	}
	if (nd <= 0) {
		free(dirs);
		return usage();
	}
	if ((!conf_path[0] &&
	     declared_path("summarize.conf", conf_path, sizeof(conf_path))) ||
	    (!pairs_path[0] &&
	     declared_path("pairs", pairs_path, sizeof(pairs_path)))) {
		fprintf(stderr, "emrcu-summarize: cannot locate results/ (use --conf and --pairs)\n");
		goto out_args;
	}
	if (conf_load(conf_path, &conf, err, sizeof(err))) {
		fprintf(stderr, "emrcu-summarize: %s\n", err);
		goto out_args;
	}
	if (sumconf_load(&conf, &sc, err, sizeof(err)) ||
	    pairs_load(pairs_path, &pairs, err, sizeof(err))) {
		fprintf(stderr, "emrcu-summarize: %s\n", err);
		goto out_args;
	}
	if (!out[0] && default_out(dirs, nd, out, sizeof(out))) {
		fprintf(stderr, "emrcu-summarize: run directories have no common parent: use -o\n");
		goto out_conf;
	}
	path_dirname(outdir, sizeof(outdir), out);
	if (!is_dir(outdir)) {
		fprintf(stderr, "emrcu-summarize: %s: no such directory\n", outdir);
		goto out_conf;
	}

	consts = json_new_obj();
	json_set(consts, "summarize", conf_to_json(&conf));
	json_set_str(json_get(consts, "summarize"), "conf_file", conf_path);
	json_set(consts, "methods", summarize_methods(&sc));
	pl = json_new_arr();
	for (k = 0; k < pairs.n; k++) {
		struct json *p = json_new_arr();

		json_push(p, json_new_str(pairs.num[k]));
		json_push(p, json_new_str(pairs.den[k]));
		json_push(pl, p);
	}
	json_set(consts, "pairs", pl);
	runs = json_set(consts, "runs", json_new_obj());

	for (i = 0; i < nd; i++) {
		struct run r;
		int st = run_load(dirs[i], outdir, &r, err, sizeof(err));

		if (st < 0) {
			fprintf(stderr, "emrcu-summarize: %s\n", err);
			goto out_json;
		}
		if (st > 0) {
			fprintf(stderr, "emrcu-summarize: %s: no em_bench.json or scenario.json, skipped\n",
				dirs[i]);
			continue;
		}
		if (json_get(runs, r.label)) {
			fprintf(stderr, "emrcu-summarize: %s given twice\n", dirs[i]);
			run_free(&r);
			goto out_json;
		}
		json_set(runs, r.label, run_constants(&r));
		if (collect_run(&ps, &r, err, sizeof(err))) {
			fprintf(stderr, "emrcu-summarize: %s: %s\n", dirs[i], err);
			run_free(&r);
			goto out_json;
		}
		run_free(&r);
		used++;
	}
	if (!used) {
		fprintf(stderr, "emrcu-summarize: no run directory had results\n");
		goto out_json;
	}

	samples = json_new_obj();
	figs = derive_figures(&ps, &sc, &pairs, SAMPLES_NAME, samples, err,
			      sizeof(err));
	if (!figs || origin_ids(figs, err, sizeof(err))) {
		fprintf(stderr, "emrcu-summarize: %s\n", err);
		json_free(figs);
		json_free(samples);
		goto out_json;
	}
	iso_time_now(created, sizeof(created));
	summary = json_new_obj();
	json_set_str(summary, "schema", SUMMARY_SCHEMA);
	json_set_str(summary, "created", created);
	json_set(summary, "provenance", origin_block(runs, command));
	json_set(summary, "constants", consts);
	json_set(summary, "figures", figs);
	consts = NULL;

	sfile = json_new_obj();
	json_set_str(sfile, "schema", SAMPLES_SCHEMA);
	json_set(sfile, "samples", samples);
	if (path_join(samples_path, sizeof(samples_path), outdir, SAMPLES_NAME) ||
	    write_json_atomic(samples_path, sfile, 0, err, sizeof(err)) ||
	    write_json_atomic(out, summary, 1, err, sizeof(err))) {
		fprintf(stderr, "emrcu-summarize: %s\n", err);
	} else {
		fprintf(stderr, "emrcu-summarize: %zu figures from %d run(s) -> %s\n",
			json_len(figs), used, out);
		rc = 0;
	}
	json_free(sfile);
	json_free(summary);
out_json:
	json_free(consts);
	pools_free(&ps);
out_conf:
	pairs_free(&pairs);
out_args:
	free(dirs);
	return rc;
}
