// SPDX-License-Identifier: GPL-2.0
/*
 * kind latency: cyclictest's wakeup latency per load, the load being
 * em_bench's readers and updater (idle, or updates at a rate); each run
 * against the first within its A/A band (verdict.h).
 */
#include <math.h>
#include <string.h>

#include "emrcu/field.h"
#include "judge.h"
#include "kind.h"
#include "latency.h"
#include "planwrite.h"
#include "stats.h"
#include "threads.h"
#include "updater.h"

static int latency_parse(const struct fctx *f, struct scenario *s)
{
	struct scen_latency *l = &s->lat;
	long v;

	if (fint(f, "duration_s", 1, 1, 600, 0, &v))
		return -1;
	l->duration_s = (int)v;
	if (fint(f, "interval_us", 0, 100, 100000, 1000, &v))
		return -1;
	l->interval_us = (int)v;
	if (fint(f, "priority", 0, 1, 99, 95, &v))
		return -1;
	l->priority = (int)v;
	if (fint(f, "nsecs", 0, 0, 1, 0, &v))
		return -1;
	l->nsecs = (int)v;
	/* with -N a bin is 1 ns: cyclictest holds hist_us x 1000 bins a CPU */
	if (fint(f, "hist_us", 0, 100, l->nsecs ? 1000 : 100000,
		 l->nsecs ? 200 : 20000, &v))
		return -1;
	l->hist_us = (int)v;
	if (fnum(f, "pass.noise_factor", 1, 1, 100, 0, &l->noise_factor) ||
	    fnum(f, "pass.noise_floor_pct", 1, 0, 1000, 0, &l->noise_floor_pct) ||
	    fnum(f, "pass.noise_max_pct", 1, 0, 100000, 0, &l->noise_max_pct))
		return -1;
	if (fint(f, "pass.min_boots", 0, 1, 100, 3, &v))
		return -1;
	l->min_boots = (int)v;
	/* 0: p50 reported, not judged (it cannot see the effect there) */
	if (fint(f, "pass.p50", 0, 0, 1, 1, &v))
		return -1;
	l->judge_p50 = (int)v;
	return updater_parse(f, s);
}

static int latency_cmd(FILE *f, const struct scenario *s,
		       const struct scen_run *r, int runtime_em)
{
	const struct scen_latency *l = &s->lat;
	char label[32];
	int i;

	updater_prologue(f, s);
	thr_prologue(f);
	/* The block is printed once the load module is done: its own printk
	 * block must not interleave with ours on the console. */
	fprintf(f, "run_lat() {\n"
		"\tcyclictest -q -m -S -p %d -i %d%s -h %d -D %d --json=/tmp/lat-$1.json >/dev/null\n}\n"
		"print_lat() {\n"
		"\techo \"EMRCU-RESULT-BEGIN lat-$1.json\"\n\tcat /tmp/lat-$1.json\n"
		"\techo\n\techo \"EMRCU-RESULT-END lat-$1.json\"\n}\n",
		l->priority, l->interval_us, l->nsecs ? " -N" : "",
		l->hist_us * (l->nsecs ? 1000 : 1), l->duration_s);
	for (i = 0; i < l->nloads; i++) {
		int hz = l->load_hz[i];

		lat_label(hz, label, sizeof(label));
		fprintf(f, "echo 'emrcu-scenario: step %d/%d %s' >&2\n", i + 1,
			l->nloads, label);
		updater_start(f, s, r, i, runtime_em, l->duration_s * 1000 + 2000, 0);
		thr_open(f);
		fprintf(f, "run_lat %s || exit 1\n", label);
		thr_close(f, label);
		updater_stop(f, s, i);
		fprintf(f, "print_lat %s\n", label);
	}
	return 0;
}

static int latency_nitems(const struct scenario *s)
{
	return s->lat.nloads;
}

static int latency_declares(const struct scenario *s)
{
	return s->lat.nloads > 0;
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
			  const char *metric, int judged)
{
	char rn[80], what[300];
	struct pooled b = pool_step(o, no, 0, metric, label, -1);
	double band = b.n >= 2 && b.min > 0 ? 100 * (b.max - b.min) / b.min : NAN;
	double limit = stats_noise_band(band, s->lat.noise_factor, s->lat.noise_floor_pct);
	int r, resolved;

	scen_run_name(s, 0, rn, sizeof(rn));
	snprintf(what, sizeof(what), "%s %s: A/A band over %d boots (max - min) / min %%",
		 label, metric, b.n);
	/* no data fails; one boot (min_boots 1): judged against the floor */
	resolved = !b.n || (b.n >= s->lat.min_boots &&
			    (isnan(band) || band <= s->lat.noise_max_pct));
	judge_check(j, what, rn, band, "<=", s->lat.noise_max_pct,
		    !isnan(band) && band <= s->lat.noise_max_pct, 0);
	for (r = 1; r < s->nruns; r++) {
		struct pooled p = pool_step(o, no, r, metric, label, -1);
		double dev = p.n && b.n && b.median > 0 ?
			fabs(stats_pct_change(b.median, p.median)) : NAN;

		scen_run_name(s, r, rn, sizeof(rn));
		snprintf(what, sizeof(what), "%s %s: |median / %s median - 1| %%%s",
			 label, metric, s->run[0].variant,
			 !judged ? " (reported: the scenario does not judge it)" :
			 resolved ? "" : b.n < s->lat.min_boots ?
			 " (inconclusive: too few boots for an A/A band)" :
			 " (inconclusive: A/A band too wide)");
		judge_check(j, what, rn, dev, "<=", limit, !isnan(dev) && dev <= limit,
			    judged && resolved);
		j->inconclusive += judged && !resolved;
	}
}

/* "ucpu_" when the runs have the updater's CPU apart, else "" (pooled). */
static const char *latency_prefix(const struct scenario *s,
				  const struct outcome *o, int no)
{
	char label[32];
	int i;

	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		if (pool_step(o, no, 0, "ucpu_wakeup_p99_us", label, -1).n)
			return "ucpu_";
	}
	return "";
}

/*
 * The bound on what an updater load adds on the updater's CPU, run @r
 * against the first.  The added max latency against the longest update
 * slot plus the longest stretch of RCU callbacks softirq runs before it
 * yields (latency.h; both from em_bench's own clock: the update cannot be
 * preempted on PREEMPT_NONE, softirq never): reported, not judged, since
 * RCU's grace-period thread runs on that CPU for the freed tables too and
 * its longest stretch is not measured.  The share of wakeups pushed above
 * the idle load's max is at most the share of time the updates, the
 * callbacks and the extra CPU time of RCU's and softirq's threads take
 * (threads.h), plus the boot-to-boot spread (max - min) of the share on
 * either side (a few samples out of thousands move it): judged
 * in deterministic mode (in realtime mode the host's preemption of a vCPU
 * lands there as well).
 */
static void latency_bound(struct judge *j, const struct scenario *s,
			  const struct outcome *o, int no, int r,
			  const char *label)
{
	static const char *const busy[] = { "rcu", "ksoftirqd", "kworker" };
	struct pooled bm = pool_step(o, no, 0, "ucpu_wakeup_max_us", label, -1);
	struct pooled rm = pool_step(o, no, r, "ucpu_wakeup_max_us", label, -1);
	struct pooled sl = pool_step(o, no, r, "update_slot_max_us", label, -1);
	struct pooled ba = pool_step(o, no, r, "rcu_batch_max_us", label, -1);
	struct pooled bt = pool_step(o, no, 0, "ucpu_wakeup_tail_pct", label, -1);
	struct pooled rt = pool_step(o, no, r, "ucpu_wakeup_tail_pct", label, -1);
	struct pooled ub = pool_step(o, no, r, "update_busy_pct", label, -1);
	struct pooled bb = pool_step(o, no, r, "rcu_batch_busy_pct", label, -1);
	int det = !strcmp(s->mode, "deterministic");
	double added, bound, kt = 0;
	char rn[80], what[300], m[48];
	size_t k;

	if (!sl.n || !bm.n || !rm.n)
		return;
	scen_run_name(s, r, rn, sizeof(rn));
	/* the worst boot against the worst case any boot measured */
	added = rm.max - bm.median;
	bound = sl.max + ba.max;
	snprintf(what, sizeof(what), "%s bound: max latency added on the updater's CPU, worst boot (us) <= longest update slot + RCU callback stretch (not judged: RCU's own threads run there too)",
		 label);
	judge_check(j, what, rn, added, "<=", bound, added <= bound, 0);
	if (!rt.n || !bt.n)
		return;
	/* the CPU time RCU's and softirq's threads took beyond the baseline's */
	for (k = 0; k < sizeof(busy) / sizeof(busy[0]); k++) {
		snprintf(m, sizeof(m), "cpu_ms_%s", busy[k]);
		kt += pool_step(o, no, r, m, label, -1).median -
		      pool_step(o, no, 0, m, label, -1).median;
	}
	kt = kt > 0 ? 100 * kt / (s->lat.duration_s * 1000.0) : 0;
	added = rt.median - bt.median;
	bound = ub.median + bb.median + kt + (bt.max - bt.min) + (rt.max - rt.min);
	snprintf(what, sizeof(what), "%s bound: share of wakeups above the idle max added (pp) <= update + callback + RCU/softirq thread busy %% + both runs' spread%s",
		 label, det ? "" : " (realtime: not judged)");
	judge_check(j, what, rn, added, "<=", bound, added <= bound, det);
}

static void latency_judge(struct judge *j, const struct scenario *s,
			 const struct outcome *o, int no)
{
	static const char *const cols[] = { "wakeup_p50_us", "wakeup_p99_us",
					    "wakeup_p999_us", "wakeup_max_us", NULL };
	static const char *const upd[] = { "updater_hz", "update_slot_max_us",
					   "rcu_batch_max_us", "update_busy_pct",
					   "rcu_batch_busy_pct",
					   "ucpu_wakeup_tail_pct", NULL };
	static const char *const uhead[] = { "upd Hz", "slot max", "rcu 10 cb",
					     "upd busy%", "rcu busy%", "tail %" };
	const char *pfx = latency_prefix(s, o, no);
	char rn[80], label[32], m[64];
	int r, i, c;

	fprintf(j->txt, "\nwakeup latency (us) %s\n%-12s %-16s %4s", *pfx ?
		"on the updater's CPU" : "of every CPU", "load", "run", "n");
	for (c = 0; cols[c]; c++)
		fprintf(j->txt, " %14s", cols[c] + 7);
	for (c = 0; upd[c]; c++)
		fprintf(j->txt, " %14s", uhead[c]);
	fputc('\n', j->txt);
	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		for (r = 0; r < s->nruns; r++) {
			snprintf(m, sizeof(m), "%s%s", pfx, cols[0]);
			scen_run_name(s, r, rn, sizeof(rn));
			fprintf(j->txt, "%-12s %-16s %4d", label, rn,
				pool_step(o, no, r, m, label, -1).n);
			for (c = 0; cols[c]; c++) {
				snprintf(m, sizeof(m), "%s%s", pfx, cols[c]);
				table_cell(j->txt, pool_step(o, no, r, m, label, -1), "%.2f");
			}
			for (c = 0; upd[c]; c++)
				table_cell(j->txt, pool_step(o, no, r, upd[c], label, -1), "%.2f");
			fputc('\n', j->txt);
		}
	}
	thr_table(j, s, o, no);
	fputc('\n', j->txt);
	if (s->inject[0])
		fprintf(j->txt, "negative control: runs after %s ran em_bench with %s\n\n",
			s->run[0].variant, s->inject);
	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		for (c = 0; c < 2; c++) {
			snprintf(m, sizeof(m), "%swakeup_p%s_us", pfx, c ? "99" : "50");
			latency_check(j, s, o, no, label, m, c || s->lat.judge_p50);
		}
		for (r = 1; s->lat.load_hz[i] && r < s->nruns; r++)
			latency_bound(j, s, o, no, r, label);
	}
}

const struct scen_kind kind_latency = {
	.name = "latency",
	.module = "bench/em_bench",
	.module_guest = GUEST_EM_BENCH,
	.parse = latency_parse,
	.nitems = latency_nitems,
	.cmd = latency_cmd,
	.derive = lat_derive_run,
	.declares_checks = latency_declares,
	.judge = latency_judge,
};
