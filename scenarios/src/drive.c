// SPDX-License-Identifier: GPL-2.0
#define _XOPEN_SOURCE 700
#include "drive.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "derive.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "kind.h"
#include "metrics.h"
#include "model.h"
#include "planwrite.h"
#include "rtapp.h"
#include "verdict.h"

#define GUEST_SCEN "scenarios/guest/emrcu-scen-guest"	/* under BUILD */
#define GUEST_CHECK "guest/emrcu-guest-check"		/* under BUILD */

#define STR_(x) #x
#define STR(x) STR_(x)
static const char *const methods[][2] = {
	{ "em_err_pct", "100 x (EM estimate - true busy energy) / true busy energy; EM estimate = sum over CPUs and OPPs of busy residency (meter) x the EM's power at that OPP (what em_cpu_energy() computes); true busy energy = the same residency x the model's busy power" },
	{ "em_err_total_pct", "100 x (EM estimate - true total energy) / true total; the total adds idle leakage and cluster-shared power, which no EM models" },
	{ "true_energy_mj", "emrcu_platform meter over the measured window: busy and idle energy of every CPU plus cluster-shared energy" },
	{ "optimal_energy_mj", "brute-force best placement of the tasks' achieved utilisation per phase under the true model (scenarios/src/optimal.h), x window" },
	{ "em_choice_over_optimal_pct", "the best placement by the EM's own numbers (ties to the truly cheaper), its true energy over the optimum" },
	{ "task_profile_busy_pct", "share of all CPUs' busy time the meter priced under a task's own power profile (workload profile=: the thread's name, model_data.h) rather than the platform's; the EM keeps one table per perf domain whatever runs" },
	{ "busy_share_pct", "share of all CPUs' busy time in the window spent on the cluster" },
	{ "wakeup_p99_us", "cyclictest --json histograms of every CPU pooled per boot, 1 us buckets; p50/p99/p99.9 from the histogram, max of the threads' max" },
	{ "load", "the guest load engine (scenarios/guest/load.h): work in reference ns scaled by capacity x f / fmax of the CPU it runs on, so tasks behave as on asymmetric hardware under QEMU's equal-speed vCPUs; a late slice's surplus is owed back by the next periods" },
	{ "step_valid", "every task's work within " STR(STEP_WORK_DEV_MAX_PCT) " % of what was due and the meter read at most " STR(STEP_LATE_MAX_PCT) " % after the window (src/derive.h); overrun periods reported, not judged; placement verdicts use valid boots only" },
};

static int rm_fn(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void run_dir(const struct scenario *s, const char *out, int r, int b,
		    char *dir, size_t len)
{
	if (!s->kind->takes_em)
		snprintf(dir, len, "%s/%s/%s-b%d", out, s->name, s->run[r].variant, b);
	else
		snprintf(dir, len, "%s/%s/%s-%s-b%d", out, s->name, s->run[r].variant,
			 s->run[r].em_name, b);
}

/* The boot runs emrcu-guest-check: before a guest plan, or to see EAS start. */
static int ships_guest_check(const struct scenario *s)
{
	return s->kind->plan || s->kind->needs_eas;
}

static int env_check(const struct env *e, const struct scenario *s)
{
	char p[1200];
	int r;

	for (r = 0; r < s->nruns; r++) {
		const char *v = s->run[r].variant;

		if (!variant_built(e, v)) {
			fprintf(stderr, "emrcu-scenario: %s: field runs: variant %s is not built (%s/%s/out/arch/arm64/boot/Image; make kernel-%s)\n",
				s->path, v, e->build, v, v);
			return -1;
		}
		if (s->run[r].em != EM_STATIC && !variant_runtime_em(e, v)) {
			fprintf(stderr, "emrcu-scenario: %s: field runs: %s:%s, but variant %s has no runtime-modifiable EM (no em_dev_update_perf_domain())\n",
				s->path, v, s->run[r].em_name, v);
			return -1;
		}
	}
	if (s->kind->plan) {
		snprintf(p, sizeof(p), "%s/%s", e->build, GUEST_SCEN);
		if (access(p, X_OK)) {
			fprintf(stderr, "emrcu-scenario: %s missing (make tools)\n", p);
			return -1;
		}
	}
	if (ships_guest_check(s)) {
		snprintf(p, sizeof(p), "%s/%s", e->build, GUEST_CHECK);
		if (access(p, X_OK)) {
			fprintf(stderr, "emrcu-scenario: %s missing (make tools)\n", p);
			return -1;
		}
	}
	return 0;
}

/* Last "step i/n LABEL" the guest announced, or "boot". */
static void failed_step(const char *dir, char *out, size_t len)
{
	char path[1300], line[512], *p;
	FILE *f;

	snprintf(out, len, "boot (before the first step)");
	snprintf(path, sizeof(path), "%s/console.log", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, ": step ");
		if (p && (strstr(line, "emrcu-scen-guest") || strstr(line, "emrcu-scenario"))) {
			line[strcspn(line, "\r\n")] = '\0';
			snprintf(out, len, "step %s", p + 7);
		}
	}
	fclose(f);
}

/*
 * A cell that did not run to the end (meta.json's exit_code): why, named
 * by its run, boot, the guest's last step and the runner's verdict.
 */
static int cell_failed(const struct scenario *s, const char *dir, struct outcome *o)
{
	char p[1300], v[300], step[300];
	struct json *meta;
	int64_t code = -1;

	snprintf(p, sizeof(p), "%s/meta.json", dir);
	meta = json_parse_file(p, NULL);
	json_int64(json_get(meta, "exit_code"), &code);
	json_free(meta);
	if (code == 0)
		return 0;
	snprintf(p, sizeof(p), "%s/runner.log", dir);
	vm_verdict(p, v, sizeof(v));
	failed_step(dir, step, sizeof(step));
	snprintf(o->why, sizeof(o->why), "%s:%s boot %d failed at %s: %s",
		 s->run[o->run].variant, s->run[o->run].em_name, o->boot, step,
		 v[0] ? v : "emrcu-run did not run");
	return 1;
}

static struct json *constants(const struct scenario *s, int r, int b,
			      int quick)
{
	struct json *c = json_new_obj(), *m = json_new_obj();
	char rn[80];
	FILE *f;
	size_t i;

	json_set_str(c, "scenario_file", s->path);
	f = fopen(s->path, "r");
	if (f) {
		static char text[65536];
		size_t n = fread(text, 1, sizeof(text) - 1, f);

		text[n] = '\0';
		fclose(f);
		json_set_str(c, "scenario_text", text);
	}
	json_set_bool(c, "quick", quick);
	json_set_str(c, "kind", s->kind->name);
	json_set_str(c, "topology", s->topo_spec);
	snprintf(rn, sizeof(rn), "%s:%s", s->run[r].variant, s->run[r].em_name);
	json_set_str(c, "run", rn);
	json_set_str(c, "em", s->run[r].em_name);
	json_set_int(c, "boot", b);
	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		json_set_str(m, methods[i][0], methods[i][1]);
	json_set(c, "methods", m);
	return c;
}

static int derive_one(const struct env *e, const struct scenario *s,
		      const char *dir, struct outcome *o, int quick)
{
	char path[1300], err[300], label[SCEN_NAME_LEN + 16];

	if (cell_failed(s, dir, o))
		return -1;
	o->ms = calloc(1, sizeof(*o->ms));
	if (!o->ms)
		abort();
	if (s->kind->derive(s, dir, o->ms, err, sizeof(err))) {
		snprintf(o->why, sizeof(o->why), "%s boot %d: %s", s->run[o->run].variant,
			 o->boot, err);
		return -1;
	}
	/*
	 * Figure identity (results/SCHEMA.md) has no EM field: runs of one
	 * variant with different EMs are told apart by the scenario label,
	 * "NAME:static", "NAME:oracle", "NAME:runtime@100" (latency: "NAME").
	 */
	if (!s->kind->takes_em)
		snprintf(label, sizeof(label), "%s", s->name);
	else
		snprintf(label, sizeof(label), "%s:%s", s->name,
			 s->run[o->run].em_name);
	snprintf(path, sizeof(path), "%s/scenario.json", dir);
	if (metrics_write(path, label, s->run[o->run].variant,
			  variant_preempt(e, s->run[o->run].variant),
			  constants(s, o->run, o->boot, quick), o->ms, err, sizeof(err))) {
		snprintf(o->why, sizeof(o->why), "%s", err);
		return -1;
	}
	o->ok = 1;
	return 0;
}

struct mods {
	char platform[SCEN_MAX_RUNS][1024];
	char second[SCEN_MAX_RUNS][1024];	/* the kind's ->module */
};

static int build_modules(const struct env *e, const struct scenario *s,
			 const char *base, struct mods *m)
{
	char log[1200];
	int r;

	for (r = 0; r < s->nruns; r++) {
		const char *v = s->run[r].variant;

		snprintf(log, sizeof(log), "%s/build-%s.log", base, v);
		if (module_build(e, v, "bench/platform", m->platform[r],
				 sizeof(m->platform[r]), log) ||
		    (s->kind->module &&
		     module_build(e, v, s->kind->module, m->second[r],
				  sizeof(m->second[r]), log))) {
			fprintf(stderr, "emrcu-scenario: %s: modules for variant %s failed to build (%s)\n",
				s->name, v, log);
			return -1;
		}
	}
	return 0;
}

static int write_file(const char *path, const struct scenario *s, int r,
		      int plan, int runtime_em)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = plan ? s->kind->plan(f, s, &s->run[r]) :
		     cmd_write(f, s, &s->run[r], runtime_em);
	return fclose(f) || ret ? -1 : 0;
}

/* rt-app engine: RUNDIR/rtapp-LABEL.json per step, shipped to the guest. */
static int rtapp_files(const struct scenario *s, const char *dir,
		       struct vm_boot *b)
{
	static char spec[SCEN_MAX_STEPS + SCEN_MAX_WORKLOADS][1500];
	char host[1300], guest[200];
	int i, n = scen_nsteps(s);

	for (i = 0; i < n && b->nfile < VM_MAX_FILES; i++) {
		const struct scen_workload *w = step_workload(s, i);
		FILE *f;
		int ret;

		snprintf(host, sizeof(host), "%s/rtapp-%s.json", dir, step_label(s, i));
		snprintf(guest, sizeof(guest), GUEST_RTAPP_FMT, step_label(s, i));
		f = fopen(host, "w");
		if (!f)
			return -1;
		ret = rtapp_write(f, s, w);
		if (fclose(f) || ret)
			return -1;
		snprintf(spec[i], sizeof(spec[i]), "%s:%s", host, guest);
		b->file[b->nfile++] = spec[i];
	}
	return i == n ? 0 : -1;
}

/*
 * emrcu_platform's parameters for run @r: the scenario's own, then with
 * heat the thermal dynamics and the sensor (seeded by the boot), and the EM
 * driver the run's EM needs (runtime: the declared driver every period;
 * oracle with heat: the truth every thermal tick, without: em push steps).
 */
static void platform_params(const struct scenario *s, int r, int boot,
			    char *out, size_t len)
{
	const struct scen_run *run = &s->run[r];
	size_t n = (size_t)snprintf(out, len, "%s", s->platform);

#define ADD(...) (n += (size_t)snprintf(out + n, n < len ? len - n : 0, __VA_ARGS__))
	if (s->heat) {
		ADD("%sthermal=1 seed=%d", n ? " " : "", boot + 1);
		if (s->sensor_lag_ms >= 0)
			ADD(" sensor_lag_ms=%d", s->sensor_lag_ms);
		if (s->sensor_quant_mc >= 0)
			ADD(" sensor_quant_mc=%d", s->sensor_quant_mc);
		if (s->sensor_noise_mc >= 0)
			ADD(" sensor_noise_mc=%d", s->sensor_noise_mc);
	}
	if (run->em == EM_RUNTIME) {
		ADD("%sdrv=%s drv_period_ms=%d", n ? " " : "",
		    s->driver_meter ? "meter" : "runtime", run->period_ms);
		if (s->driver_leak_pct >= 0)
			ADD(" drv_leak_pct=%d", s->driver_leak_pct);
	} else if (run->em == EM_ORACLE && s->heat) {
		ADD(" drv=oracle drv_period_ms=%d", model_thermal_tick_ms());
	}
#undef ADD
}

/* @v with tabs and newlines as blanks: one field of a cell line. */
static void field(FILE *f, const char *v, int last)
{
	for (; *v; v++)
		fputc(*v == '\t' || *v == '\n' ? ' ' : *v, f);
	fputc(last ? '\n' : '\t', f);
}

/*
 * One cell: run @r's boot @boot in @dir (emptied, then its plan, cmd.sh
 * and rt-app files written), printed to @f as a line of tab-separated
 * fields: id, mode, variant, what, outdir, log, then the emrcu-run
 * arguments (bench/driver's scenario kind reads it).
 */
static int cell_one(const struct env *e, const struct scenario *s,
		    const struct mods *m, const char *dir, int r, int boot,
		    FILE *f)
{
	char plan[1300], cmd[1300], log[1300], pf[1400], gs[1200], gc[1200];
	char em[1200], mod[1400], pp[300], what[200], tmo[16];
	struct vm_boot b = { .variant = s->run[r].variant, .mode = s->mode,
			     .topo = s->topo_spec, .outdir = dir, .cmd_file = cmd,
			     .log = log, .timeout_s = s->timeout_s };
	int i;

	nftw(dir, rm_fn, 16, FTW_DEPTH | FTW_PHYS);
	mkdir_p(dir);
	snprintf(plan, sizeof(plan), "%s/plan.txt", dir);
	snprintf(cmd, sizeof(cmd), "%s/cmd.sh", dir);
	snprintf(log, sizeof(log), "%s/runner.log", dir);
	if ((s->kind->plan && write_file(plan, s, r, 1, 0)) ||
	    write_file(cmd, s, r, 0, variant_runtime_em(e, s->run[r].variant))) {
		fprintf(stderr, "emrcu-scenario: %s: cannot write plan/cmd\n", dir);
		return -1;
	}
	platform_params(s, r, boot, pp, sizeof(pp));
	snprintf(mod, sizeof(mod), "%s%s%s", m->platform[r], pp[0] ? ":" : "", pp);
	b.module[b.nmod++] = mod;
	if (s->kind->module) {
		snprintf(em, sizeof(em), "%s:%s", m->second[r], s->kind->module_guest);
		b.file[b.nfile++] = em;
	}
	if (s->kind->plan) {
		snprintf(pf, sizeof(pf), "%s:%s", plan, GUEST_PLAN);
		snprintf(gs, sizeof(gs), "%s/%s", e->build, GUEST_SCEN);
		b.file[b.nfile++] = pf;
		b.file[b.nfile++] = gs;
	}
	if (ships_guest_check(s)) {
		snprintf(gc, sizeof(gc), "%s/%s", e->build, GUEST_CHECK);
		b.file[b.nfile++] = gc;
	}
	if (s->kind->plan && s->engine == ENGINE_RTAPP && rtapp_files(s, dir, &b)) {
		fprintf(stderr, "emrcu-scenario: %s: cannot write the rt-app files\n", dir);
		return -1;
	}
	if (s->kind->boot && s->kind->boot(e, s, r, dir, &b)) {
		fprintf(stderr, "emrcu-scenario: %s: the %s boot could not be prepared\n",
			dir, s->kind->name);
		return -1;
	}
	snprintf(what, sizeof(what), "%s %s:%s boot %d", s->name, s->run[r].variant,
		 s->run[r].em_name, boot);
	snprintf(tmo, sizeof(tmo), "%d", b.timeout_s);
	field(f, strrchr(dir, '/') + 1, 0);
	field(f, b.mode, 0);
	field(f, b.variant, 0);
	field(f, what, 0);
	field(f, dir, 0);
	field(f, log, 0);
	fprintf(f, "--variant\t%s\t--mode\t%s\t--topo\t%s\t--timeout\t%s",
		b.variant, b.mode, b.topo, tmo);
	for (i = 0; i < b.nmod; i++)
		fprintf(f, "\t--module\t%s", b.module[i]);
	for (i = 0; i < b.nfile; i++)
		fprintf(f, "\t--file\t%s", b.file[i]);
	if (b.exec_trace)
		fprintf(f, "\t--exec-trace\t%s", b.exec_trace);
	fprintf(f, "\t--cmd-file\t%s\n", cmd);
	return 0;
}


static int finish(const struct scenario *s, const char *base,
		  struct outcome *o, int no)
{
	char p[1200];
	FILE *txt, *json;
	int failed, runs_failed = 0, i;

	snprintf(p, sizeof(p), "%s/table.txt", base);
	txt = fopen(p, "w");
	snprintf(p, sizeof(p), "%s/verdict.json", base);
	json = fopen(p, "w");
	if (!txt || !json) {
		fprintf(stderr, "emrcu-scenario: cannot write %s\n", p);
		return 1;
	}
	failed = verdict(s, o, no, txt, json);
	fclose(txt);
	fclose(json);
	snprintf(p, sizeof(p), "%s/table.txt", base);
	txt = fopen(p, "r");
	if (txt) {
		int c;

		while ((c = fgetc(txt)) != EOF)
			putchar(c);
		fclose(txt);
		fflush(stdout);
	}
	for (i = 0; i < no; i++) {
		runs_failed += !o[i].ok;
		free(o[i].ms);
	}
	/*
	 * A failed run, or declared checks none of which could be judged, is
	 * an error; a missed target is a finding (main.c).
	 */
	return runs_failed || failed < 0 ? 1 : failed ? 3 : 0;
}

int drive_cells(const struct env *e, const struct scenario *s, const char *out,
		FILE *f)
{
	static struct mods m;
	char base[1100], dir[1200];
	int r, b;

	snprintf(base, sizeof(base), "%s/%s", out, s->name);
	if (mkdir_p(base)) {
		fprintf(stderr, "emrcu-scenario: cannot create %s\n", base);
		return 2;
	}
	if (env_check(e, s) || build_modules(e, s, base, &m))
		return 2;
	for (b = 0; b < s->boots; b++) {
		for (r = 0; r < s->nruns; r++) {
			run_dir(s, out, r, b, dir, sizeof(dir));
			if (cell_one(e, s, &m, dir, r, b, f))
				return 2;
		}
	}
	return fflush(f) ? 2 : 0;
}

int drive_derive(const struct env *e, const struct scenario *s,
		 const char *out, int quick)
{
	static struct outcome o[SCEN_MAX_RUNS * 50];
	char base[1100], dir[1200];
	int r, b, no = 0;

	snprintf(base, sizeof(base), "%s/%s", out, s->name);
	for (b = 0; b < s->boots; b++) {
		for (r = 0; r < s->nruns; r++) {
			struct outcome *x = &o[no++];

			memset(x, 0, sizeof(*x));
			x->run = r;
			x->boot = b;
			run_dir(s, out, r, b, dir, sizeof(dir));
			if (derive_one(e, s, dir, x, quick))
				fprintf(stderr, "emrcu-scenario: FAIL %s\n", x->why);
		}
	}
	return finish(s, base, o, no);
}
