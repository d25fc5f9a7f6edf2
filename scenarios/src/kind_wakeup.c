// SPDX-License-Identifier: GPL-2.0
/*
 * kind wakeup: what EAS pays per wakeup, counted from what ran.  rt-app's
 * periodic tasks wake every period; the boot runs under emrcu-run
 * --exec-trace over the wakeup function (select_task_rq_fair, where
 * find_energy_efficient_cpu() is inlined), the energy function
 * (compute_energy, where em_cpu_energy() is inlined) and a marker syscall
 * (sethostname: the guest calls it as each load's window opens and
 * closes).  Deterministic mode: one ordered log, every instruction of
 * those functions counted.  Counts are exclusive: callees outside the two
 * functions are not in them (see README.md).  The loads are updater.h's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "emrcu/field.h"
#include "emrcu/fs.h"
#include "judge.h"
#include "kind.h"
#include "latency.h"
#include "metrics.h"
#include "planwrite.h"
#include "stats.h"
#include "threads.h"
#include "updater.h"
#include "vm.h"

#define MARKER_FN "__arm64_sys_sethostname"
#define TRACE_FILE "trace.txt"		/* NAME LO HI per traced function */
#define COUNTS_FILE "wakeup-counts.txt"	/* what derive kept of exec.log */


static int wakeup_parse(const struct fctx *f, struct scenario *s)
{
	struct scen_wakeup *w = &s->wake;
	const struct conf_entry *e;
	long v;

	if (strcmp(s->mode, "deterministic")) {
		fget(f, "mode", 0, &e);
		return ferr(f, e, "mode", "kind wakeup counts from QEMU's exec log: deterministic only");
	}
	if (fint(f, "tasks", 0, 1, 32, 4, &v))
		return -1;
	w->tasks = (int)v;
	if (fint(f, "period_us", 0, 500, 1000000, 4000, &v))
		return -1;
	w->period_us = (int)v;
	if (fint(f, "run_us", 0, 10, w->period_us, 300, &v))
		return -1;
	w->run_us = (int)v;
	if (fint(f, "duration_s", 1, 1, 60, 0, &v))	/* rt-app: whole seconds */
		return -1;
	w->duration_s = (int)v;
	if (fword(f, "wake_function", 0, "select_task_rq_fair", NULL, w->wake_fn,
		  sizeof(w->wake_fn)) ||
	    fword(f, "energy_function", 0, "compute_energy", NULL, w->energy_fn,
		  sizeof(w->energy_fn)) ||
	    fint(f, "pass.min_wakeups", 0, 0, 1000000, -1, &v))
		return -1;
	w->min_wakeups = (int)v;
	if (fnum(f, "pass.min_energy_calls_per_wakeup", 0, 0, 100, -1,
		 &w->min_energy_calls))
		return -1;
	return updater_parse(f, s);
}

static int wakeup_nitems(const struct scenario *s)
{
	return s->lat.nloads;
}

static int wakeup_cmd(FILE *f, const struct scenario *s,
		      const struct scen_run *r, int runtime_em)
{
	const struct scen_wakeup *w = &s->wake;
	char label[32];
	int i;

	guest_check_cmd(f, s);
	updater_prologue(f, s);
	fprintf(f, "cat >/tmp/wake.json <<'EOF'\n"
		"{ \"tasks\": { \"wake\": { \"instance\": %d, \"loop\": -1, \"run\": %d,\n"
		"  \"timer\": { \"ref\": \"tick\", \"period\": %d } } },\n"
		"  \"global\": { \"duration\": %d, \"calibration\": 100,\n"
		"  \"default_policy\": \"SCHED_OTHER\", \"logdir\": \"/tmp\" } }\nEOF\n",
		w->tasks, w->run_us, w->period_us, w->duration_s);
	thr_prologue(f);
	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		fprintf(f, "echo 'emrcu-scenario: step %d/%d %s' >&2\n", i + 1,
			s->lat.nloads, label);
		updater_start(f, s, r, i, runtime_em, w->duration_s * 1000 + 1500, 1);
		/* the marker opens and closes the window the counts are of */
		thr_open(f);
		fprintf(f, "hostname emrcu-%s\nrt-app /tmp/wake.json >/tmp/rt.log 2>&1 || { cat /tmp/rt.log; exit 1; }\nhostname emrcu\n",
			label);
		thr_close(f, label);
		updater_stop(f, s, i);
	}
	return 0;
}

/* @fn's [lo, hi] from System.map (sorted): up to the next symbol. */
static int symbol_range(const char *map, const char *fn, uint64_t *lo,
			uint64_t *hi)
{
	const char *p = map;
	char name[128], type;
	uint64_t a;
	int n, found = 0;

	while (p && *p) {
		if (sscanf(p, "%" SCNx64 " %c %127s%n", &a, &type, name, &n) == 3) {
			if (found && a > *lo) {
				*hi = a - 1;
				return 0;
			}
			if (!found && !strcmp(name, fn) && (type == 't' || type == 'T')) {
				*lo = a;
				found = 1;
			}
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

static int wakeup_boot(const struct env *e, const struct scenario *s, int r,
		       const char *dir, struct vm_boot *b)
{
	static char ranges[256];
	const char *fns[] = { s->wake.wake_fn, s->wake.energy_fn, MARKER_FN };
	char path[1300], *map;
	uint64_t lo, hi;
	size_t n = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s/out/System.map", e->build, s->run[r].variant);
	map = read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/%s", dir, TRACE_FILE);
	f = map ? fopen(path, "w") : NULL;
	if (!f) {
		fprintf(stderr, "emrcu-scenario: %s: no System.map of %s, or cannot write %s\n",
			s->name, s->run[r].variant, path);
		free(map);
		return -1;
	}
	for (i = 0; i < 3; i++) {
		if (symbol_range(map, fns[i], &lo, &hi)) {
			fprintf(stderr, "emrcu-scenario: %s: %s is not a function of %s (inlined?)\n",
				s->name, fns[i], s->run[r].variant);
			fclose(f);
			free(map);
			return -1;
		}
		fprintf(f, "%s 0x%" PRIx64 " 0x%" PRIx64 "\n", fns[i], lo, hi);
		if (n < sizeof(ranges))
			n += (size_t)snprintf(ranges + n, sizeof(ranges) - n,
					      "%s0x%" PRIx64 "..0x%" PRIx64,
					      i ? "," : "", lo, hi);
	}
	free(map);
	b->exec_trace = ranges;
	return fclose(f) || n >= sizeof(ranges) ? -1 : 0;
}

/* The traced functions, in trace.txt's order (the marker is third). */
enum { WAKE, ENERGY, NFN };

/* Per load and traced function: calls, instructions, p50 and p99 per call. */
struct seg {
	int64_t calls[NFN], insns[NFN];
	double pct[NFN][2];
};

/* One traced function's calls in the current window, one count each. */
struct calls {
	double *v;
	size_t n, cap;
	int open;		/* a call is being counted: v[n - 1] */
};

static void call_enter(struct calls *c)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		c->v = realloc(c->v, c->cap * sizeof(*c->v));
		if (!c->v)
			abort();
	}
	c->v[c->n++] = 0;
	c->open = 1;
}

/* p50 and p99 of the window's calls into @out, then an empty window. */
static void calls_close(struct calls *c, double out[2])
{
	out[0] = out[1] = 0;
	if (c->n) {
		stats_sort(c->v, c->n);
		out[0] = stats_quantile_sorted(c->v, c->n, 0.5);
		out[1] = stats_quantile_sorted(c->v, c->n, 0.99);
	}
	c->n = 0;
	c->open = 0;
}

/*
 * exec.log into @g (one per load, @nseg of them), then the counts kept in
 * COUNTS_FILE and the log removed (hundreds of MB, redone by a boot).
 */
static int count_log(const char *dir, struct seg *g, int nseg, char *err,
		     size_t errlen)
{
	uint64_t lo[3], hi[3], pc;
	char path[1300], name[128], line[256];
	struct calls cl[NFN] = { { 0 } };
	int i, marks = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, TRACE_FILE);
	f = fopen(path, "r");
	for (i = 0; f && i < 3; i++)
		if (fscanf(f, "%127s %" SCNx64 " %" SCNx64, name, &lo[i], &hi[i]) != 3)
			break;
	if (f)
		fclose(f);
	if (i < 3) {
		snprintf(err, errlen, "%s: not three traced functions", path);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/exec.log", dir);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "no exec.log (emrcu-run --exec-trace) nor %s", COUNTS_FILE);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		/*
		 * "Trace CPU: HOST [FLAGS/PC/...]": one instruction executed;
		 * "Stopped execution of TB chain before HOST [PC]": the one
		 * logged last at PC did not run after all (execprof.h).
		 */
		int undo = !strncmp(line, "Stopped execution", 17);
		char *p = strchr(line, undo ? '[' : '/');
		int64_t d = undo ? -1 : 1;
		int k;

		if (!p || sscanf(p + 1, "%" SCNx64, &pc) != 1)
			continue;
		if (pc == lo[2]) {
			/* a window closes: its calls' distribution */
			if (marks % 2 && marks / 2 < nseg && d > 0)
				for (i = 0; i < NFN; i++)
					calls_close(&cl[i], g[marks / 2].pct[i]);
			marks += (int)d;
			continue;
		}
		k = marks / 2;
		if (marks % 2 == 0 || k >= nseg)	/* outside a window */
			continue;
		for (i = 0; i < NFN; i++) {
			struct calls *c = &cl[i];

			if (pc < lo[i] || pc > hi[i])
				continue;
			if (pc == lo[i] && d > 0)
				call_enter(c);
			else if (pc == lo[i] && c->n)	/* that entry did not run: */
				c->open = --c->n > 0;	/* back to the call before */
			if (c->open)
				c->v[c->n - 1] += (double)d;
			g[k].insns[i] += d;
			g[k].calls[i] += pc == lo[i] ? d : 0;
		}
	}
	fclose(f);
	for (i = 0; i < NFN; i++)
		free(cl[i].v);
	if (marks != 2 * nseg) {
		snprintf(err, errlen, "exec.log has %d window markers (%s), want %d: a load did not run",
			 marks, MARKER_FN, 2 * nseg);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, COUNTS_FILE);
	f = fopen(path, "w");
	for (i = 0; f && i < nseg; i++)
		fprintf(f, "%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %.17g %.17g %.17g %.17g\n",
			g[i].calls[WAKE], g[i].insns[WAKE], g[i].calls[ENERGY],
			g[i].insns[ENERGY], g[i].pct[WAKE][0], g[i].pct[WAKE][1],
			g[i].pct[ENERGY][0], g[i].pct[ENERGY][1]);
	if (!f || fclose(f)) {
		snprintf(err, errlen, "cannot write %s", path);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/exec.log", dir);
	remove(path);
	return 0;
}

static int read_counts(const char *dir, struct seg *g, int nseg)
{
	char path[1300];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s", dir, COUNTS_FILE);
	f = fopen(path, "r");
	if (!f)
		return -1;
	for (i = 0; i < nseg; i++)
		if (fscanf(f, "%" SCNd64 " %" SCNd64 " %" SCNd64 " %" SCNd64 " %lf %lf %lf %lf",
			   &g[i].calls[WAKE], &g[i].insns[WAKE], &g[i].calls[ENERGY],
			   &g[i].insns[ENERGY], &g[i].pct[WAKE][0], &g[i].pct[WAKE][1],
			   &g[i].pct[ENERGY][0], &g[i].pct[ENERGY][1]) != 8)
			break;
	fclose(f);
	return i == nseg ? 0 : -1;
}

static int wakeup_derive(const struct scenario *s, const char *dir,
			 struct metrics *ms, char *err, size_t errlen)
{
	struct seg g[SCEN_MAX_LOADS];
	char label[32];
	int i, ret = 0;

	memset(g, 0, sizeof(g));
	if (read_counts(dir, g, s->lat.nloads) &&
	    count_log(dir, g, s->lat.nloads, err, errlen))
		return -1;
	for (i = 0; i < s->lat.nloads; i++) {
		const struct seg *sg = &g[i];
		double calls = (double)sg->calls[WAKE];
		/*
		 * Per call without an updater, the gate's one-instruction rule
		 * (results/gate.conf) applies: its unit says so.  With one the
		 * count depends on the tables priced: the percentage floor.
		 */
		const char *per_call = s->lat.load_hz[i] ? "instructions" :
							   "instructions/call";

		lat_label(s->lat.load_hz[i], label, sizeof(label));
		if (sg->calls[WAKE] <= 0) {
			snprintf(err, errlen, "load %s: no call of %s in the window",
				 label, s->wake.wake_fn);
			return -1;
		}
#define ADD(metric, unit, better, v) \
		(ret |= step_add(ms, metric, label, unit, better, -1, v))
		ADD("wakeups", "calls", "none", calls);
		ADD("energy_calls_per_wakeup", "calls", "none",
		    (double)sg->calls[ENERGY] / calls);
		ADD("wake_insns_per_call", per_call, "lower",
		    (double)sg->insns[WAKE] / calls);
		ADD("energy_insns_per_call", per_call, "lower", sg->calls[ENERGY] ?
		    (double)sg->insns[ENERGY] / (double)sg->calls[ENERGY] : 0);
		ADD("eas_insns_per_wakeup", "instructions", "lower",
		    (double)(sg->insns[WAKE] + sg->insns[ENERGY]) / calls);
		ADD("wake_insns_p50", "instructions", "lower", sg->pct[WAKE][0]);
		ADD("wake_insns_p99", "instructions", "lower", sg->pct[WAKE][1]);
		ADD("energy_insns_p50", "instructions", "lower", sg->pct[ENERGY][0]);
		ADD("energy_insns_p99", "instructions", "lower", sg->pct[ENERGY][1]);
#undef ADD
		if (thr_derive(dir, label, ms, err, errlen))
			return -1;
	}
	if (ret)
		snprintf(err, errlen, "too many metrics");
	return ret;
}

static int wakeup_declares(const struct scenario *s)
{
	return s->wake.min_wakeups >= 0 || s->wake.min_energy_calls >= 0;
}

/*
 * Per load, a row per run; then each run's difference from the first (the
 * baseline): per wakeup, and the energy function's share of it (its
 * per-call difference x its calls per wakeup: what em_cpu_energy()'s cost
 * adds, the rest being the wakeup function's own).
 */
static void wakeup_judge(struct judge *j, const struct scenario *s,
			 const struct outcome *o, int no)
{
	static const char *const cols[] = { "wakeups", "energy_calls_per_wakeup",
		"wake_insns_per_call", "energy_insns_per_call", "energy_insns_p50",
		"energy_insns_p99", "eas_insns_per_wakeup", NULL };
	static const char *const heads[] = { "wakeups", "energy/wake", "wake insns",
		"energy insns", "energy p50", "energy p99", "EAS insns/wake" };
	char label[32], rn[80], what[200];
	int i, r, c;

	fprintf(j->txt, "\n%-12s %-16s", "load", "run");
	for (c = 0; cols[c]; c++)
		fprintf(j->txt, " %14s", heads[c]);
	fprintf(j->txt, " %14s %14s\n", "d EAS/wake", "d energy part");
	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		/* the baseline: the first run */
		struct pooled a0 = pool_step(o, no, 0, "eas_insns_per_wakeup", label, -1);
		struct pooled e0 = pool_step(o, no, 0, "energy_insns_per_call", label, -1);

		for (r = 0; r < s->nruns; r++) {
			struct pooled a = pool_step(o, no, r, "eas_insns_per_wakeup", label, -1);
			struct pooled e = pool_step(o, no, r, "energy_insns_per_call", label, -1);
			struct pooled k = pool_step(o, no, r, "energy_calls_per_wakeup", label, -1);

			scen_run_name(s, r, rn, sizeof(rn));
			fprintf(j->txt, "%-12s %-16s", label, rn);
			for (c = 0; cols[c]; c++)
				table_cell(j->txt, pool_step(o, no, r, cols[c], label, -1), "%.2f");
			if (r && a.n && a0.n && e.n && e0.n && k.n)
				fprintf(j->txt, " %+14.2f %+14.2f\n", a.median - a0.median,
					(e.median - e0.median) * k.median);
			else
				fprintf(j->txt, " %14s %14s\n", "-", "-");
		}
	}
	thr_table(j, s, o, no);
	fputc('\n', j->txt);
	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		for (r = 0; r < s->nruns; r++) {
			struct pooled w = pool_step(o, no, r, "wakeups", label, -1);
			struct pooled k = pool_step(o, no, r, "energy_calls_per_wakeup", label, -1);

			scen_run_name(s, r, rn, sizeof(rn));
			if (s->wake.min_wakeups >= 0) {
				snprintf(what, sizeof(what), "%s: calls of %s traced in the window (least boot)",
					 label, s->wake.wake_fn);
				judge_check(j, what, rn, w.min, ">=", s->wake.min_wakeups,
					    w.n && w.min >= s->wake.min_wakeups, 1);
			}
			if (s->wake.min_energy_calls >= 0) {
				snprintf(what, sizeof(what), "%s: EAS ran: %s calls per wakeup (least boot)",
					 label, s->wake.energy_fn);
				judge_check(j, what, rn, k.min, ">=", s->wake.min_energy_calls,
					    k.n && k.min >= s->wake.min_energy_calls, 1);
			}
		}
	}
}

const struct scen_kind kind_wakeup = {
	.name = "wakeup",
	.needs_eas = 1,
	.module = "bench/em_bench",
	.module_guest = GUEST_EM_BENCH,
	.parse = wakeup_parse,
	.nitems = wakeup_nitems,
	.cmd = wakeup_cmd,
	.boot = wakeup_boot,
	.derive = wakeup_derive,
	.declares_checks = wakeup_declares,
	.judge = wakeup_judge,
};
