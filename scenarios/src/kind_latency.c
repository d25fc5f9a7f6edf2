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

static int latency_parse(const struct fctx *f, struct scenario *s)
{
	struct scen_latency *l = &s->lat;
	const struct conf_entry *e;
	char buf[CONF_VAL_LEN], *w[SCEN_MAX_LOADS + 1];
	long v;
	int i, n;

	if (fint(f, "duration_s", 1, 1, 600, 0, &v))
		return -1;
	l->duration_s = (int)v;
	if (fint(f, "interval_us", 0, 100, 100000, 1000, &v))
		return -1;
	l->interval_us = (int)v;
	if (fint(f, "priority", 0, 1, 99, 95, &v))
		return -1;
	l->priority = (int)v;
	if (fint(f, "hist_us", 0, 100, 100000, 20000, &v))
		return -1;
	l->hist_us = (int)v;
	if (fint(f, "bench_loops", 0, 1, 100000, 10, &v))
		return -1;
	l->loops = (int)v;
	if (fword(f, "bench_readers", 0, "last", NULL, l->readers,
		     sizeof(l->readers)))
		return -1;
	if (fnum(f, "pass.noise_factor", 1, 1, 100, 0, &l->noise_factor) ||
	    fnum(f, "pass.noise_floor_pct", 1, 0, 1000, 0, &l->noise_floor_pct) ||
	    fnum(f, "pass.noise_max_pct", 1, 0, 100000, 0, &l->noise_max_pct))
		return -1;
	if (fint(f, "pass.min_boots", 0, 1, 100, 3, &v))
		return -1;
	l->min_boots = (int)v;
	if (fget(f, "loads", 1, &e))
		return -1;
	strcpy(buf, e->val);
	n = fwords(buf, w, SCEN_MAX_LOADS);
	if (n > SCEN_MAX_LOADS)
		return ferr(f, e, "loads", "more than %d loads", SCEN_MAX_LOADS);
	for (i = 0; i < n; i++) {
		if (!strcmp(w[i], "idle")) {
			l->load_hz[i] = 0;
			continue;
		}
		if (str_to_long(w[i], &v) || v < 1 || v > 10000)
			return ferr(f, e, "loads", "'%s': want idle or an update rate 1..10000 Hz",
				    w[i]);
		l->load_hz[i] = (int)v;
	}
	l->nloads = n;
	return 0;
}

static int latency_cmd(FILE *f, const struct scenario *s,
		       const struct scen_run *r, int runtime_em)
{
	const struct scen_latency *l = &s->lat;
	char label[32];
	int i;

	(void)r;
	fprintf(f, "N=$(nproc)\n");
	if (!strcmp(l->readers, "last"))
		fprintf(f, "READERS=$((N - 1))\n");
	else
		fprintf(f, "READERS=%s\n", l->readers);
	/* The block is printed once the load module is done: its own printk
	 * block must not interleave with ours on the console. */
	fprintf(f, "run_lat() {\n"
		"\tcyclictest -q -m -S -p %d -i %d -h %d -D %d --json=/tmp/lat-$1.json\n}\n"
		"print_lat() {\n"
		"\techo \"EMRCU-RESULT-BEGIN lat-$1.json\"\n\tcat /tmp/lat-$1.json\n"
		"\techo\n\techo \"EMRCU-RESULT-END lat-$1.json\"\n}\n",
		l->priority, l->interval_us, l->hist_us, l->duration_s);
	for (i = 0; i < l->nloads; i++) {
		int hz = l->load_hz[i];

		lat_label(hz, label, sizeof(label));
		fprintf(f, "echo 'emrcu-scenario: step %d/%d %s' >&2\n", i + 1,
			l->nloads, label);
		if (!hz) {
			fprintf(f, "run_lat %s || exit 1\nprint_lat %s\n", label, label);
			continue;
		}
		/*
		 * Same readers and updater thread on every kernel; without the
		 * runtime EM the updater wakes at the same rate and skips the
		 * update (em_bench null_update): the control.
		 */
		fprintf(f, "insmod %s readers=$READERS loops=%d nruns=1000 warmup=10 update_hz=%d null_update=%d spread_ms=%d mode_hint=%s &\n",
			GUEST_EM_BENCH, l->loops, hz, !runtime_em,
			l->duration_s * 1000 + 2000, s->mode);
		fprintf(f, "P=$!\nsleep 1\nrun_lat %s || exit 1\nwait $P || exit 1\nrmmod em_bench || exit 1\nprint_lat %s\n",
			label, label);
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
			  const char *metric)
{
	char rn[80], what[200];
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
			 resolved ? "" : b.n < s->lat.min_boots ?
			 " (inconclusive: too few boots for an A/A band)" :
			 " (inconclusive: A/A band too wide)");
		judge_check(j, what, rn, dev, "<=", limit, !isnan(dev) && dev <= limit,
			    resolved);
		j->inconclusive += !resolved;
	}
}

static void latency_judge(struct judge *j, const struct scenario *s,
			 const struct outcome *o, int no)
{
	static const char *const cols[] = { "wakeup_p50_us", "wakeup_p99_us",
					    "wakeup_p999_us", "wakeup_max_us", NULL };
	char rn[80], label[32];
	int r, i, c;

	fprintf(j->txt, "\n%-12s %-16s %4s", "load", "run", "n");
	for (c = 0; cols[c]; c++)
		fprintf(j->txt, " %14s", cols[c] + 7);
	fputc('\n', j->txt);
	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		for (r = 0; r < s->nruns; r++) {
			scen_run_name(s, r, rn, sizeof(rn));
			fprintf(j->txt, "%-12s %-16s %4d", label, rn,
				pool_step(o, no, r, cols[0], label, -1).n);
			for (c = 0; cols[c]; c++)
				table_cell(j->txt, pool_step(o, no, r, cols[c], label, -1), "%.0f");
			fputc('\n', j->txt);
		}
	}
	fputc('\n', j->txt);
	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		for (c = 0; c < 2; c++)
			latency_check(j, s, o, no, label, c ? "wakeup_p99_us" : "wakeup_p50_us");
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
