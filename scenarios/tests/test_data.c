// SPDX-License-Identifier: GPL-2.0
/* Reducers and verdicts on recorded guest outputs (tests/data/README). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "derive.h"
#include "kind.h"
#include "latency.h"
#include "scen.h"
#include "signtest.h"
#include "stepdata.h"
#include "check.h"
#include "suites.h"
#include "verdict.h"

static struct stepdata d;
static struct scenario s;
static struct metrics ms;
static char err[600];

static void data_dir(char *out, size_t len, const char *sub)
{
	snprintf(out, len, "%s/tests/data/%s", t_dir, sub);
}

static const char *ramp =
	"name = ramp\ndescription = d\nkind = energy\nruns = unpatched patched:oracle\n"
	"timeout_s = 60\nwarmup_ms = 500\nphase_ms = 1500\nknob = temperature\n"
	"timeline = 25 55 85\n"
	"workload = mixed small util=8 count=2; medium util=25; big util=60\n"
	"pass.oracle_abs_err_pct_max = 2\npass.static_abs_err_pct_min = 10\n";

TEST(oracle_em)
{
	char dir[600];

	data_dir(dir, sizeof(dir), "run-patched-oracle");
	assert_true(!stepdata_load(dir, "s2_85C", &d, err, sizeof(err)));
	assert_true(!strcmp(d.em_source, "trace"));
	assert_true(d.ncl == 3 && d.ntasks == 4 && d.nphases == 1);
	assert_true(d.meter_check < METER_CHECK_MAX);
	assert_true(d.busy_uj > 0 && d.true_uj > d.busy_uj);
	/* the EM pushed at 85 C is the model at 85 C: estimate == truth */
	assert_near(d.em_uj / d.busy_uj, 1, 1e-4);
	assert_near(d.window_s, 1.5, 1e-9);
	assert_near(d.true_uj, d.meter_cpus_uj + d.shared_uj, d.true_uj * 1e-6);
}

TEST(static_em)
{
	char dir[600];

	data_dir(dir, sizeof(dir), "run-unpatched-static");
	assert_true(!stepdata_load(dir, "s0_25C", &d, err, sizeof(err)));
	assert_true(!strcmp(d.em_source, "debugfs"));
	assert_near(d.em_uj / d.busy_uj, 1, 1e-4);	/* booted at 25 C */
	assert_true(!stepdata_load(dir, "s2_85C", &d, err, sizeof(err)));
	assert_true(d.em_uj / d.busy_uj < 0.9);		/* leakage unseen */
	assert_true(d.meter_check < METER_CHECK_MAX);
}

TEST(derive_metrics)
{
	const struct metric *m;
	char dir[600];

	assert_true(!scen_parse("ramp.conf", ramp, 0, NULL, &s, err, sizeof(err)));
	data_dir(dir, sizeof(dir), "run-unpatched-static");
	memset(&ms, 0, sizeof(ms));
	assert_true(!s.kind->derive(&s, dir, &ms, err, sizeof(err)));
	m = metric_find(&ms, "em_err_pct.s2_85C", -1);
	assert_true(m && m->n == 1 && m->v[0] < -10);
	m = metric_find(&ms, "em_abs_err_pct_max", -1);
	assert_true(m && m->v[0] > 10);
	assert_true(metric_find(&ms, "busy_share_pct.s1_55C", 2));
	assert_true(!metric_find(&ms, "busy_share_pct.s1_55C", 3));
	assert_true(metric_find(&ms, "step_valid.s0_25C", -1));
	/* a missing step names itself and the file */
	s.nsteps = 4;
	strcpy(s.step[3].label, "s3_99C");
	assert_true(s.kind->derive(&s, dir, &ms, err, sizeof(err)));
	assert_true(strstr(err, "step s3_99C") && strstr(err, "s3_99C.power.json"));
}

TEST(optimum_recorded)
{
	struct step_opt o;
	char dir[600];

	data_dir(dir, sizeof(dir), "run-unpatched-static");
	assert_true(!stepdata_load(dir, "s2_85C", &d, err, sizeof(err)));
	assert_true(!step_optimum(&d, 0, &o, err, sizeof(err)) && o.feasible);
	assert_true(o.optimal_uj > 0 && o.optimal_uj <= o.em_choice_uj);
	assert_true(!step_optimum(&d, 1, &o, err, sizeof(err)) && o.feasible);
	assert_true(o.optimal_uj > 0 && o.optimal_uj <= o.em_choice_uj);
}

/* One task of 100 capacity units on a little (256) + big (1024) model. */
TEST(observed_placement)
{
	static struct stepdata sd;
	struct step_opt o;
	double uj, opt;
	int k;

	memset(&sd, 0, sizeof(sd));
	sd.window_s = 2;
	sd.nphases = 2;
	sd.ncl = sd.model.ncl = 2;
	sd.ncpus = 2;
	for (k = 0; k < 2; k++) {
		struct opt_cluster *c = &sd.model.cl[k];

		c->ncpus = 1;
		c->cap = k ? 1024 : 256;
		c->nopps = 2;
		c->khz[0] = 1000;
		c->khz[1] = 2000;
		c->busy_uw[0] = c->em_uw[0] = k ? 200 : 20;
		c->busy_uw[1] = c->em_uw[1] = k ? 500 : 60;
		c->idle_uw[0] = k ? 20 : 2;
		c->idle_uw[1] = k ? 40 : 4;
		sd.cpu_cluster[k] = k;
	}
	sd.ntasks = 1;
	sd.task[0].pinned_cluster = -1;
	sd.task[0].util_ach[0] = sd.task[0].util_ach[1] = 100 * 100.0 / 1024;
	assert_true(step_observed(&sd, &uj) == 1);	/* not recorded: not priced */
	sd.task[0].has_cpu_util = 1;
	sd.task[0].cpu_util[0][0] = sd.task[0].cpu_util[1][0] = 100 * 100.0 / 1024;
	assert_true(!step_optimum(&sd, 0, &o, err, sizeof(err)) && o.feasible);
	opt = o.optimal_uj;
	assert_true(!step_observed(&sd, &uj));
	assert_near(uj, opt, 1e-9);		/* on the little CPU: the optimum */
	sd.task[0].cpu_util[1][0] = 0;		/* phase 2 on the big CPU */
	sd.task[0].cpu_util[1][1] = 100 * 100.0 / 1024;
	assert_true(!step_observed(&sd, &uj));
	assert_near(uj - opt, (100.0 / 512 * 200 + 412.0 / 512 * 20 + 2) -
		    (100.0 / 128 * 20 + 28.0 / 128 * 2 + 20), 1e-9);
}

/*
 * Validity (derive.h): a task that did its work is valid however many
 * periods it overran (a late slice is paid back); one that did 25 % too
 * much or too little is not, nor is a meter read late.
 */
TEST(validity_rule)
{
	static struct stepdata sd;
	struct step_validity v;

	memset(&sd, 0, sizeof(sd));
	sd.window_s = 3;
	sd.meter_span_s = 3.001;
	sd.ntasks = 2;
	sd.task[0] = (struct sd_task){ .periods = 57, .missed = 24, .work_pct = 98.6 };
	sd.task[1] = (struct sd_task){ .periods = 61, .missed = 2, .work_pct = 102.9 };
	step_validity(&sd, &v);
	assert_true(v.valid);
	assert_near(v.work_dev_pct, 2.9, 1e-9);
	assert_near(v.missed_pct, 100.0 * 24 / 57, 1e-9);
	assert_near(v.late_pct, 100 * (3.001 / 3 - 1), 1e-9);
	sd.task[1].work_pct = 140;	/* stalls charged as work */
	step_validity(&sd, &v);
	assert_true(!v.valid && v.work_dev_pct > STEP_WORK_DEV_MAX_PCT);
	sd.task[1].work_pct = 75;	/* starved on a crowded CPU */
	step_validity(&sd, &v);
	assert_true(!v.valid);
	sd.task[1].work_pct = 100;
	sd.meter_span_s = 3.2;		/* meter read 6.7 % late */
	step_validity(&sd, &v);
	assert_true(!v.valid);
	sd.meter_span_s = 3;
	sd.task[0].periods = 0;		/* never started: 100 % missed, no work */
	sd.task[0].work_pct = 0;
	step_validity(&sd, &v);
	assert_true(!v.valid && v.missed_pct == 100);
}

TEST(cyclictest)
{
	static const char *synth =
		"{\"thread\": {\"0\": {\"histogram\": {\"1\": 50, \"2\": 49, \"5\": 1},"
		" \"cycles\": 100, \"min\": 1, \"max\": 5, \"avg\": 1.56},"
		" \"1\": {\"histogram\": {\"3\": 100}, \"cycles\": 110, \"max\": 900, \"avg\": 90}}}";
	static const struct lat_sel all = { -1, 0 };
	struct lat_stats st;
	char path[600], *text;
	FILE *f;
	long len;

	assert_true(!lat_reduce(synth, &all, -1, &st, err, sizeof(err)));
	/* 210 samples: 50 x 1, 49 x 2, 100 x 3, 1 x 5, 10 overflow */
	assert_true(st.cycles == 210 && st.overflow == 10 && st.nthreads == 2);
	assert_near(st.p50, 3, 0);
	assert_near(st.p99, 900, 0);	/* in the overflow: the max */
	assert_near(st.max, 900, 0);
	assert_near(st.avg, (1.56 * 100 + 90 * 110) / 210, 1e-9);
	assert_true(lat_reduce("{\"thread\": {}}", &all, -1, &st, err, sizeof(err)));
	assert_true(lat_reduce("{", &all, -1, &st, err, sizeof(err)) &&
		    strstr(err, "cyclictest JSON"));
	/* per CPU: the synthetic threads have none, a named failure */
	assert_true(lat_reduce(synth, &(struct lat_sel){ 0, 0 }, -1, &st, err,
			       sizeof(err)) && strstr(err, "has no cpu"));

	data_dir(path, sizeof(path), "cyclictest.json");
	f = fopen(path, "r");
	assert_true(f);
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_true(text && fread(text, 1, (size_t)len, f) == (size_t)len);
	fclose(f);
	assert_true(!lat_reduce(text, &all, -1, &st, err, sizeof(err)));
	assert_true(st.nthreads == 2 && st.cycles == 1904 + 1884);
	assert_true(st.p50 <= st.p99 && st.p99 <= st.max && st.max == 18653);
	/* the recorded run's threads one CPU at a time */
	assert_true(!lat_reduce(text, &(struct lat_sel){ 1, 0 }, -1, &st, err,
				sizeof(err)));
	assert_true(st.nthreads == 1 && st.cycles == 1884);
	assert_true(!lat_reduce(text, &(struct lat_sel){ 1, 1 }, -1, &st, err,
				sizeof(err)));
	assert_true(st.nthreads == 1 && st.cycles == 1904);
	assert_true(lat_reduce(text, &(struct lat_sel){ 5, 0 }, -1, &st, err,
			       sizeof(err)) && strstr(err, "no thread on CPU 5"));
	free(text);
}

/* cyclictest -N: bins in ns, figures in us; the tail above a threshold */
TEST(cyclictest_nsecs)
{
	static const char *ns =
		"{\"resolution_in_ns\": 1, \"thread\": {\"0\": {\"histogram\":"
		" {\"5000\": 90, \"5500\": 8, \"20000\": 2}, \"cycles\": 101,"
		" \"max\": 90000, \"avg\": 6000, \"cpu\": 0},"
		" \"1\": {\"histogram\": {\"100\": 5}, \"cycles\": 5, \"max\": 100,"
		" \"cpu\": 1}}}";
	struct lat_stats st;

	assert_true(!lat_reduce(ns, &(struct lat_sel){ 0, 0 }, 10, &st, err,
				sizeof(err)));
	assert_true(st.cycles == 101 && st.overflow == 1 && st.nthreads == 1);
	assert_near(st.p50, 5, 1e-12);
	assert_near(st.p99, 20, 1e-12);
	assert_near(st.max, 90, 1e-12);
	assert_near(st.avg, 6, 1e-12);
	/* 2 in the 20 us bin and 1 overflow lie above 10 us */
	assert_near(st.tail_pct, 100.0 * 3 / 101, 1e-9);
}

/* a unit is kept whole (the gate matches "instructions/call"), or refused */
TEST(metric_unit)
{
	static struct metrics ms;

	assert_true(!metric_add(&ms, "a", "instructions/call", "lower", -1, 1));
	assert_string_equal(ms.m[0].unit, "instructions/call");
	assert_true(metric_add(&ms, "b", "instructions per wakeup, each", "lower", -1, 1));
	assert_true(metric_add(&ms, "c", "%", "much-lower", -1, 1));
}

/* em_bench's updater block: rate, slots, busy shares, callback batches */
TEST(updater_json)
{
	/* 2 PDs: slots of 1000+3000 and 2000+2000 ns; 4 of 8 updates
	 * recorded; a run of 7 markers 0..5.5 us (any 6 of them, 10
	 * callbacks, span at most 5 us), one 6 us later (a gap), one alone */
	static const char *blk =
		"{\"updater\": {\"available\": true, \"null_update\": false, \"cpu\": 1,"
		" \"achieved_hz\": 999.5, \"pds_updated\": [0, 1], \"count\": 8,"
		" \"recorded\": 4, \"elapsed_ns\": 1000000,"
		" \"update_ns\": [1000, 3000, 2000, 2000],"
		" \"callback_at_ns\": [5000, 0, 100000, 1000, 2000, 3000, 4500, 5500,"
		" 11500]}}";
	static const char *null =
		"{\"updater\": {\"available\": false, \"null_update\": true, \"cpu\": 0,"
		" \"achieved_hz\": 10, \"elapsed_ns\": 5}}";
	struct upd_stats u;

	assert_true(!upd_reduce(blk, &u, err, sizeof(err)));
	assert_true(u.cpu == 1 && u.runtime);
	assert_near(u.hz, 999.5, 0);
	assert_near(u.slot_max_us, 4, 1e-12);
	assert_near(u.update_p50_us, 2, 1e-12);
	assert_near(u.busy_pct, 100.0 * 8000 * 2 / 1e6, 1e-9);
	assert_near(u.batch_max_us, 5, 1e-12);
	assert_near(u.batch_busy_pct, 100.0 * 5500 * 2 / 1e6, 1e-9);
	assert_true(!upd_reduce(null, &u, err, sizeof(err)) && !u.runtime && u.cpu == 0);
	/* named failures: no updater, recorded but no samples */
	assert_true(upd_reduce("{\"updater\": {\"available\": false}}", &u, err,
			       sizeof(err)) && strstr(err, "no updater"));
	assert_true(upd_reduce("{\"updater\": {\"available\": true, \"cpu\": 0,"
			       " \"achieved_hz\": 1, \"elapsed_ns\": 9, \"pds_updated\": [0],"
			       " \"count\": 3, \"recorded\": 3, \"update_ns\": []}}",
			       &u, err, sizeof(err)) && strstr(err, "recorded 0 update"));
}

static struct outcome o[8];

static void add_boot(int i, int run, const char *metric, double v)
{
	o[i].run = run;
	o[i].boot = i;
	o[i].ok = 1;
	if (!o[i].ms)
		o[i].ms = calloc(1, sizeof(*o[i].ms));
	metric_add(o[i].ms, metric, "%", "lower", -1, v);
}

/* Free the metrics of the first @n outcomes. */
static void free_boots(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(o[i].ms);
		o[i].ms = NULL;
	}
}

static int judge(void)
{
	FILE *devnull = fopen("/dev/null", "w");
	int n = verdict(&s, o, 2, devnull, devnull);

	fclose(devnull);
	return n;
}

TEST(verdict_energy)
{
	int i;

	assert_true(!scen_parse("ramp.conf", ramp, 0, NULL, &s, err, sizeof(err)));
	memset(o, 0, sizeof(o));
	for (i = 0; i < 3; i++) {
		char n[64];

		snprintf(n, sizeof(n), "em_abs_err_pct.%s", s.step[i].label);
		add_boot(0, 0, n, 10.0 * i);	/* static: 0, 10, 20 */
		add_boot(1, 1, n, 1);		/* runtime: 1 everywhere */
	}
	assert_true(judge() == 0);		/* runtime 1 <= 2, static 20 >= 10 */
	o[1].ms->m[2].v[0] = 3;		/* runtime 3 % at 85 C */
	assert_true(judge() == 1);
	o[0].ms->m[2].v[0] = 9;		/* and static only 9 % */
	assert_true(judge() == 2);
	o[1].ok = 0;			/* a failed run fails too */
	strcpy(o[1].why, "patched boot 0 failed at step s1_55C: timeout");
	assert_true(judge() == 3);		/* failed run, static, runtime without data */
	free_boots(2);
}

TEST(verdict_latency)
{
	static const char *lat =
		"name = lat\ndescription = d\nkind = latency\nruns = base new\n"
		"timeout_s = 60\nduration_s = 5\nloads = idle\n"
		"pass.noise_factor = 1.5\npass.noise_floor_pct = 10\npass.noise_max_pct = 50\n"
		"pass.min_boots = 2\n";
	FILE *devnull;
	int i, n;

	assert_true(!scen_parse("lat.conf", lat, 0, NULL, &s, err, sizeof(err)));
	memset(o, 0, sizeof(o));
	/* baseline p99 over boots: 100, 110 -> band 10 %, limit max(15, 10) */
	add_boot(0, 0, "wakeup_p99_us.idle", 100);
	add_boot(1, 0, "wakeup_p99_us.idle", 110);
	add_boot(2, 1, "wakeup_p99_us.idle", 120);	/* 14.3 % off 105 */
	add_boot(3, 1, "wakeup_p99_us.idle", 121);
	devnull = fopen("/dev/null", "w");
	n = verdict(&s, o, 4, devnull, devnull);
	assert_true(n == 1);		/* no p50 figures: the comparison fails */
	for (i = 0; i < 4; i++)
		metric_add(o[i].ms, "wakeup_p50_us.idle", "us", "lower", -1, 50);
	n = verdict(&s, o, 4, devnull, devnull);
	assert_true(n == 0);
	o[2].ms->m[0].v[0] = 130;			/* 19.5 % off */
	o[3].ms->m[0].v[0] = 131;
	n = verdict(&s, o, 4, devnull, devnull);
	assert_true(n == 1);
	o[1].ms->m[0].v[0] = 200;	/* band 100 %: inconclusive, not judged */
	n = verdict(&s, o, 4, devnull, devnull);
	assert_true(n == 0);
	o[1].ms->m[0].v[0] = 140;	/* band 40 %: limit 60 %, 16.7 % off */
	o[2].ms->m[0].v[0] = 300;	/* 150 % off: judged, fails */
	n = verdict(&s, o, 4, devnull, devnull);
	assert_true(n == 1);
	s.lat.min_boots = 3;	/* a 2-boot band resolves nothing */
	n = verdict(&s, o, 4, devnull, devnull);
	assert_true(n == 0);
	assert_true(!scen_parse("lat.conf", "name = lat\ndescription = d\nkind = latency\n"
			   "runs = base new\ntimeout_s = 60\nduration_s = 5\nloads = idle\n"
			   "pass.noise_factor = 1.5\npass.noise_floor_pct = 10\n"
			   "pass.noise_max_pct = 50\n", 0, NULL, &s, err, sizeof(err)));
	assert_true(s.lat.min_boots == 3);	/* the default */
	fclose(devnull);
	free_boots(4);
}

/*
 * A scenario that declares no threshold is "measured", never PASS; one that
 * declares thresholds and could judge none of them has failed (-1).
 */
TEST(verdict_no_checks)
{
	static const char *nochecks =
		"name = nc\ndescription = d\nkind = energy\nruns = unpatched\n"
		"timeout_s = 60\nwarmup_ms = 500\nphase_ms = 1500\nknob = temperature\n"
		"timeline = 25 55\nworkload = w small util=8\n";
	FILE *txt, *devnull;
	char *out = NULL;
	size_t len = 0;
	int i;

	memset(o, 0, sizeof(o));
	for (i = 0; i < 2; i++)
		add_boot(i, 0, "em_abs_err_pct.s0_25C", 1);
	assert_true(!scen_parse("nc.conf", nochecks, 0, NULL, &s, err, sizeof(err)));
	txt = open_memstream(&out, &len);
	devnull = fopen("/dev/null", "w");
	assert_true(verdict(&s, o, 2, txt, devnull) == 0);
	fclose(txt);
	fclose(devnull);
	assert_true(strstr(out, "\nMEASURED: nc: no checks") && !strstr(out, "PASS"));
	free(out);
	/* placement thresholds are judged on runtime-EM runs: none here */
	assert_true(!scen_parse("pl.conf", "name = pl\ndescription = d\nkind = placement\n"
			   "runs = unpatched:static\ntimeout_s = 60\nwarmup_ms = 500\n"
			   "phase_ms = 1000\ntemperature = 85\n"
			   "workload = one-small small util=50 ref=little\n"
			   "pass.over_optimal_pct = 5\n", 0, NULL, &s, err, sizeof(err)));
	assert_true(judge() == -1);
	/* a runtime EM with no data at any step fails, never passes on 0 */
	assert_true(!scen_parse("ramp.conf", ramp, 0, NULL, &s, err, sizeof(err)));
	o[1].run = 1;
	o[1].ms->n = 0;
	assert_true(judge() == 2);	/* runtime: no data; static: 1 % < 10 % */
	free_boots(2);
}

/*
 * A recorded heat run (thermal-ramp QUICK, patched:runtime@10): the meter's
 * own busy and EM energies, the per-tick error and the driver's figures,
 * each against what jq computes from the blocks.
 */
TEST(heat_recorded)
{
	static const char *heat =
		"name = h\ndescription = d\nkind = energy\nruns = patched:runtime@10\n"
		"timeout_s = 60\nwarmup_ms = 500\nphase_ms = 7500\nknob = temperature\n"
		"timeline = 25\nheat = 0:0 500:3500\n"
		"workload = mixed small util=8 count=2; medium util=25; big util=60\n";
	char dir[600];
	const struct metric *m;

	data_dir(dir, sizeof(dir), "run-heat-runtime10");
	assert_true(!stepdata_load(dir, "s0_25C", &d, err, sizeof(err)));
	assert_true(d.heat && d.meter_em && !strcmp(d.drv_mode, "runtime"));
	assert_true(d.meter_check == 0);	/* conditions changed: nothing to check */
	assert_near(100 * (d.em_uj / d.busy_uj - 1), 0.18735, 1e-4);
	assert_near(d.die_mean_c[2], 46.544, 1e-9);
	assert_near(d.die_max_c[2], 55.476, 1e-9);
	assert_true(!scen_parse("h.conf", heat, 0, NULL, &s, err, sizeof(err)));
	memset(&ms, 0, sizeof(ms));
	assert_true(!s.kind->derive(&s, dir, &ms, err, sizeof(err)));
	m = metric_find(&ms, "em_tick_abs_err_pct.s0_25C", -1);
	assert_true(m && m->n == 1);
	if (m)
		assert_near(m->v[0], 0.642355, 1e-5);
	m = metric_find(&ms, "driver_period_ms.s0_25C", -1);
	assert_true(m && m->v[0] > 9.9 && m->v[0] < 10.1);
	assert_true(metric_find(&ms, "em_tick_abs_err_pct.s0_25C", 2));
	assert_true(metric_find(&ms, "driver_cpu_min_pct.s0_25C", -1));
}

/*
 * The heat checks on synthetic medians.  Negative controls: a driver that
 * pushed the truth (error = the oracle's) fails "measured, not by
 * construction"; one worse than the best static EM fails "what it buys";
 * a longer period that does better fails the monotone check.
 */
TEST(verdict_heat)
{
	static const char *heat =
		"name = h\ndescription = d\nkind = energy\n"
		"runs = p:static p:best-static p:runtime@10 p:runtime@1000 p:oracle\n"
		"timeout_s = 60\nwarmup_ms = 500\nphase_ms = 1500\nknob = temperature\n"
		"timeline = 25\nheat = 0:0 100:3000\nworkload = w small util=8\n"
		"pass.oracle_abs_err_pct_max = 0.5\npass.static_abs_err_pct_min = 3\n"
		"pass.runtime_above_oracle_pp = 0.05\npass.runtime_monotone_pp = 0.25\n"
		"pass.runtime_vs_best_static_pp = 0\n";
	/* static, best-static, runtime@10, runtime@1000, oracle */
	static const double good[] = { 6.7, 1.8, 0.6, 2.0, 0.02 };
	FILE *devnull = fopen("/dev/null", "w");
	int i;

	assert_true(!scen_parse("h.conf", heat, 0, NULL, &s, err, sizeof(err)));
	assert_true(s.heat && s.run[2].em == EM_RUNTIME && s.run[2].period_ms == 10 &&
	       !strcmp(s.run[3].em_name, "runtime@1000"));
	memset(o, 0, sizeof(o));
	for (i = 0; i < 5; i++)
		add_boot(i, i, "em_tick_abs_err_pct.s0_25C", good[i]);
	assert_true(verdict(&s, o, 5, devnull, devnull) == 0);
	o[2].ms->m[0].v[0] = 0.03;	/* runtime@10 pushed the truth */
	assert_true(verdict(&s, o, 5, devnull, devnull) == 1);
	o[2].ms->m[0].v[0] = 1.9;	/* worse than best static (1.8) */
	assert_true(verdict(&s, o, 5, devnull, devnull) == 1);
	o[2].ms->m[0].v[0] = 2.5;	/* ... and than 1000 ms (2.0) */
	assert_true(verdict(&s, o, 5, devnull, devnull) == 2);
	o[2].ms->m[0].v[0] = 0.6;
	o[4].ms->m[0].v[0] = 0.7;	/* the oracle's bound broken */
	assert_true(verdict(&s, o, 5, devnull, devnull) == 2);	/* + above-oracle */
	fclose(devnull);
	free_boots(5);
}

/* The exact sign test against hand-computed binomial tails. */
/*
 * The paired placement checks on synthetic boots.  Negative controls: a
 * runtime EM that placed like the boot-static one (a driver that never
 * updates) fails "what it buys"; two kernels whose static EMs place
 * differently on every boot fail the A/A check; too few boots decide
 * nothing (inconclusive, not pass).
 */
TEST(verdict_paired)
{
	static const char *pl =
		"name = p\ndescription = d\nkind = placement\n"
		"runs = u:static p:static p:runtime@100\nboots = 6\n"
		"timeout_s = 60\nwarmup_ms = 500\nphase_ms = 1000\ntemperature = 75\n"
		"heat = 0:0\nworkload = w t util=10\n"
		"pass.paired_p_max = 0.05\npass.aa_p_min = 0.05\n"
		"pass.tie_pp = 1\n";
	static struct outcome po[18];
	FILE *devnull = fopen("/dev/null", "w");
	int i;

	assert_true(!scen_parse("p.conf", pl, 0, NULL, &s, err, sizeof(err)));
	assert_true(s.boots == 6 && s.paired_p_max == 0.05 && s.tie_pp == 1);
	for (i = 0; i < 18; i++) {
		int run = i / 6, boot = i % 6;
		/* static 30 +- 1 on both kernels, runtime 5 */
		double v = run == 2 ? 5 : 30 + (boot % 2 ? 1 : -1) * (run ? 1 : 0);

		po[i].run = run;
		po[i].boot = boot;
		po[i].ok = 1;
		po[i].ms = calloc(1, sizeof(*po[i].ms));
		metric_add(po[i].ms, "placement_over_optimal_pct.w", "%", "lower", -1, v);
		metric_add(po[i].ms, "step_valid.w", "", "none", -1, 1);
	}
	assert_true(verdict(&s, po, 18, devnull, devnull) == 0);
	for (i = 12; i < 18; i++)	/* runtime placed like static */
		po[i].ms->m[0].v[0] = po[i - 6].ms->m[0].v[0];
	assert_true(verdict(&s, po, 18, devnull, devnull) == 1);
	for (i = 12; i < 18; i++)	/* better, but within the tie band */
		po[i].ms->m[0].v[0] = po[i - 6].ms->m[0].v[0] - 0.9;
	assert_true(verdict(&s, po, 18, devnull, devnull) == 1);
	for (i = 12; i < 18; i++)
		po[i].ms->m[0].v[0] = 5;
	for (i = 0; i < 6; i++)		/* unpatched static always 10 pp worse */
		po[i].ms->m[0].v[0] = 40;
	assert_true(verdict(&s, po, 18, devnull, devnull) == 1);
	/* three boots: 2^-3 > 0.05, nothing decided, nothing failed */
	s.boots = 3;
	assert_true(verdict(&s, po, 18, devnull, devnull) == 0);
	fclose(devnull);
	for (i = 0; i < 18; i++)
		free(po[i].ms);
}

/*
 * The metered driver without heat (chip-binning): judged on the window
 * error and the table's worst OPP.  Negative controls: a driver that
 * pushed the truth (worst OPP 0) fails "measured"; one that never updated
 * (static's error) fails "what it buys" and the period order.
 */
TEST(verdict_meter)
{
	static const char *cb =
		"name = c\ndescription = d\nkind = energy\n"
		"runs = p:static p:runtime@100 p:runtime@1000 p:oracle\ndriver = meter\n"
		"mode = realtime\ntimeout_s = 60\nwarmup_ms = 500\nphase_ms = 1500\n"
		"knob = bin\ntimeline = 40\nworkload = w small util=8\n"
		"pass.oracle_abs_err_pct_max = 0.5\npass.static_abs_err_pct_min = 5\n"
		"pass.runtime_opp_err_pct_min = 1\npass.runtime_monotone_pp = 0.5\n"
		"pass.runtime_vs_static_pp = -3\n";
	/* static, runtime@100, runtime@1000, oracle: window |err|, worst OPP */
	static const double win[] = { 7.8, 0.05, 5.6, 0 };
	static const double opp[] = { 12, 3.7, 16.9, 0 };
	FILE *devnull = fopen("/dev/null", "w");
	int i;

	assert_true(!scen_parse("c.conf", cb, 0, NULL, &s, err, sizeof(err)));
	assert_true(!s.heat && s.driver_meter && s.runtime_vs_static_pp == -3);
	memset(o, 0, sizeof(o));
	for (i = 0; i < 4; i++) {
		add_boot(i, i, "em_abs_err_pct.s0_p40mV", win[i]);
		add_boot(i, i, "em_opp_abs_err_pct_max.s0_p40mV", opp[i]);
	}
	assert_true(verdict(&s, o, 4, devnull, devnull) == 0);
	o[1].ms->m[1].v[0] = 0;		/* runtime@100 pushed the truth */
	assert_true(verdict(&s, o, 4, devnull, devnull) == 1);
	o[1].ms->m[1].v[0] = 3.7;
	o[1].ms->m[0].v[0] = 7.8;	/* never updated: the boot table */
	assert_true(verdict(&s, o, 4, devnull, devnull) == 2);
	fclose(devnull);
	free_boots(4);
}

/*
 * Per-task profiles: the check that the truth priced the tasks under their
 * own profiles passes on a share above the limit and fails (negative
 * control: a platform that ignores the tasks' names) on none.
 */
TEST(verdict_task_profile)
{
	static const char *ct =
		"name = t\ndescription = d\nkind = energy\n"
		"runs = p:static p:runtime@100\ndriver = meter\n"
		"timeout_s = 60\nwarmup_ms = 500\nphase_ms = 1500\n"
		"knob = profile\ntimeline = nominal\n"
		"workload = w a util=8 profile=memory; b util=8 profile=fp\n"
		"pass.task_profile_pct_min = 10\n";
	FILE *devnull = fopen("/dev/null", "w");
	int i;

	assert_true(!scen_parse("t.conf", ct, 0, NULL, &s, err, sizeof(err)));
	assert_true(s.w[0].t[0].profile == 1 && s.w[0].t[1].profile == 2 &&
	       s.task_profile_pct_min == 10);
	memset(o, 0, sizeof(o));
	for (i = 0; i < 2; i++)
		add_boot(i, i, "task_profile_busy_pct.s0_nominal", 61.5);
	assert_true(verdict(&s, o, 2, devnull, devnull) == 0);
	o[1].ms->m[0].v[0] = 0;
	assert_true(verdict(&s, o, 2, devnull, devnull) == 1);
	fclose(devnull);
	free_boots(2);
}

/*
 * LISA's limit on the runtime run: a median under it passes; a median over
 * it with a boot under it is inconclusive (QEMU's spread straddles the
 * limit); every boot over it fails (negative control: a static-like EM).
 */
TEST(verdict_lisa_limit)
{
	static const char *pl =
		"name = p\ndescription = d\nkind = placement\n"
		"runs = p:runtime@100\nboots = 3\n"
		"timeout_s = 60\nwarmup_ms = 500\nphase_ms = 1000\ntemperature = 75\n"
		"heat = 0:0\nworkload = w t util=10\npass.over_optimal_pct = 20\n";
	static const double runs[3][3] = {
		{ 9, 25, 3 },		/* median 9: pass */
		{ 23, 18, 24 },		/* median 23, one boot under: inconclusive */
		{ 30, 31, 29 },		/* every boot over: fail */
	};
	static const int want[3] = { 0, 0, 1 };
	static struct outcome po[3];
	FILE *devnull = fopen("/dev/null", "w");
	int c, i;

	assert_true(!scen_parse("p.conf", pl, 0, NULL, &s, err, sizeof(err)));
	for (c = 0; c < 3; c++) {
		for (i = 0; i < 3; i++) {
			po[i] = (struct outcome){ .run = 0, .boot = i, .ok = 1 };
			po[i].ms = calloc(1, sizeof(*po[i].ms));
			metric_add(po[i].ms, "placement_over_optimal_pct.w", "%",
				   "lower", -1, runs[c][i]);
			metric_add(po[i].ms, "step_valid.w", "", "none", -1, 1);
		}
		assert_true(verdict(&s, po, 3, devnull, devnull) == want[c]);
		for (i = 0; i < 3; i++)
			free(po[i].ms);
	}
	fclose(devnull);
}

/* One exec.log line at @pc, the form QEMU's -d exec,nochain writes. */
static void trace_line(FILE *f, unsigned long pc)
{
	fprintf(f, "Trace 0: 0x7f6d987a0200 [0000000000005001/%016lx/00000021/ff020201] \n", pc);
}

/* A wakeup: the wake function's 10 instructions, two energy calls of 5. */
static void trace_wakeup(FILE *f, int energy_calls)
{
	int i, k;

	for (i = 0; i < 10; i++)
		trace_line(f, 0xffffffc000001000UL + 4 * i);
	for (k = 0; k < energy_calls; k++)
		for (i = 0; i < 5; i++)
			trace_line(f, 0xffffffc000002000UL + 4 * i);
}

/*
 * kind wakeup on a synthetic exec log: two loads, each window opened and
 * closed by the marker; what runs outside a window is not counted.  The
 * counts are kept and the log removed; the verdict's two checks and their
 * negative controls (no energy call: EAS did not run; too few wakeups),
 * and a log whose markers do not match the loads is a named failure.
 */
TEST(wakeup_counts)
{
	static const char *conf =
		"name = w\ndescription = d\nkind = wakeup\nruns = base new\nmode = deterministic\n"
		"timeout_s = 60\nduration_s = 1\nloads = idle 1000\n"
		"pass.min_wakeups = 2\npass.min_energy_calls_per_wakeup = 1\n";
	char dir[] = "/tmp/emrcu-wakeup-XXXXXX", p[300];
	const struct metric *m;
	FILE *f, *devnull;
	int i;

	assert_true(!scen_parse("w.conf", conf, 0, NULL, &s, err, sizeof(err)));
	assert_true(s.kind == &kind_wakeup && s.lat.nloads == 2);
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/trace.txt", dir);
	f = fopen(p, "w");
	fprintf(f, "select_task_rq_fair 0xffffffc000001000 0xffffffc0000010ff\n"
		"compute_energy 0xffffffc000002000 0xffffffc0000020ff\n"
		"__arm64_sys_sethostname 0xffffffc000003000 0xffffffc0000030ff\n");
	fclose(f);
	snprintf(p, sizeof(p), "%s/exec.log", dir);
	f = fopen(p, "w");
	trace_wakeup(f, 2);			/* before the first window */
	for (i = 0; i < 2; i++) {
		trace_line(f, 0xffffffc000003000UL);	/* open */
		trace_line(f, 0xffffffc000003004UL);	/* the marker's body */
		trace_wakeup(f, 2);
		trace_wakeup(f, 2);
		if (i)
			trace_wakeup(f, 2);	/* a third wakeup at 1000 Hz */
		/* logged, then not executed: taken back */
		trace_line(f, 0xffffffc000001004UL);
		fprintf(f, "Stopped execution of TB chain before 0x7f6d987a0200 [ffffffc000001004] select_task_rq_fair\n");
		trace_line(f, 0xffffffc000003000UL);	/* close */
	}
	fclose(f);
	/* who ran: without the snapshot, a named failure */
	memset(&ms, 0, sizeof(ms));
	assert_true(s.kind->derive(&s, dir, &ms, err, sizeof(err)) &&
		    strstr(err, "threads-idle.txt"));
	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/threads-%s.txt", dir, i ? "upd1000hz" : "idle");
		f = fopen(p, "w");
		/* rcu_sched 10 -> 15 switches, 1.5 -> 2.0 ms; a kworker born in
		 * the window counts from 0; one that exited is lost */
		fprintf(f, "B 11 rcu_sched 10 1.5\nB 40 kworker/0:1-events 3 0.25\n"
			"A 11 rcu_sched 15 2.0\nA 41 kworker/0:2 2 0.125\n");
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/exec.log", dir);
	memset(&ms, 0, sizeof(ms));
	assert_msg(!s.kind->derive(&s, dir, &ms, err, sizeof(err)), "%s", err);
	m = metric_find(&ms, "vcsw_rcu.idle", -1);
	assert_true(m && m->v[0] == 5);
	m = metric_find(&ms, "cpu_ms_rcu.upd1000hz", -1);
	assert_true(m && m->v[0] == 0.5);
	m = metric_find(&ms, "vcsw_kworker.idle", -1);
	assert_true(m && m->v[0] == 2);
	m = metric_find(&ms, "wakeups.idle", -1);
	assert_true(m && m->v[0] == 2);
	m = metric_find(&ms, "wakeups.upd1000hz", -1);
	assert_true(m && m->v[0] == 3);
	m = metric_find(&ms, "eas_insns_per_wakeup.idle", -1);
	assert_true(m && m->v[0] == 20);	/* 10 + 2 x 5 */
	m = metric_find(&ms, "energy_calls_per_wakeup.upd1000hz", -1);
	assert_true(m && m->v[0] == 2);
	m = metric_find(&ms, "energy_insns_per_call.idle", -1);
	assert_true(m && m->v[0] == 5);
	/* per call: every wakeup 10, every energy call 5 (the undone one not) */
	m = metric_find(&ms, "wake_insns_p99.upd1000hz", -1);
	assert_true(m && m->v[0] == 10);
	m = metric_find(&ms, "energy_insns_p50.idle", -1);
	assert_true(m && m->v[0] == 5);
	assert_true(access(p, F_OK) != 0);	/* the log went, its counts stay */
	memset(&ms, 0, sizeof(ms));
	assert_true(!s.kind->derive(&s, dir, &ms, err, sizeof(err)));
	m = metric_find(&ms, "wakeups.upd1000hz", -1);
	assert_true(m && m->v[0] == 3);
	m = metric_find(&ms, "wake_insns_p99.upd1000hz", -1);
	assert_true(m && m->v[0] == 10);	/* kept in the counts file */

	/* the verdict, then without energy calls and with too few wakeups */
	memset(o, 0, sizeof(o));
	for (i = 0; i < 2; i++) {
		add_boot(i, i, "wakeups.idle", 5);
		metric_add(o[i].ms, "energy_calls_per_wakeup.idle", "calls", "none", -1, 2);
		metric_add(o[i].ms, "wakeups.upd1000hz", "calls", "none", -1, 5);
		metric_add(o[i].ms, "energy_calls_per_wakeup.upd1000hz", "calls", "none", -1, 2);
	}
	devnull = fopen("/dev/null", "w");
	assert_true(verdict(&s, o, 2, devnull, devnull) == 0);
	o[1].ms->m[1].v[0] = 0;		/* new, idle: EAS did not run */
	assert_true(verdict(&s, o, 2, devnull, devnull) == 1);
	o[0].ms->m[2].v[0] = 1;		/* base, 1 kHz: one wakeup traced */
	assert_true(verdict(&s, o, 2, devnull, devnull) == 2);
	fclose(devnull);
	free_boots(2);

	/* one window closed only: a load did not run */
	snprintf(p, sizeof(p), "%s/wakeup-counts.txt", dir);
	remove(p);
	snprintf(p, sizeof(p), "%s/exec.log", dir);
	f = fopen(p, "w");
	trace_line(f, 0xffffffc000003000UL);
	trace_wakeup(f, 1);
	fclose(f);
	memset(&ms, 0, sizeof(ms));
	assert_true(s.kind->derive(&s, dir, &ms, err, sizeof(err)) &&
		    strstr(err, "window markers"));
	snprintf(p, sizeof(p), "rm -rf %s", dir);
	assert_true(system(p) == 0);
}

int test_data(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("scenarios/data/oracle-em-estimate-matches-truth-sanity", oracle_em),
		NAMED("scenarios/data/static-em-misses-leakage", static_em),
		NAMED("scenarios/data/derive-metrics-and-missing-step", derive_metrics),
		NAMED("scenarios/data/optimum-on-recorded-step", optimum_recorded),
		NAMED("scenarios/data/observed-placement-priced-like-the-optimum", observed_placement),
		NAMED("scenarios/data/step-validity-judges-work-not-overruns", validity_rule),
		NAMED("scenarios/data/cyclictest-percentiles", cyclictest),
		NAMED("scenarios/data/cyclictest-nsecs-tail", cyclictest_nsecs),
		NAMED("scenarios/data/updater-block", updater_json),
		NAMED("scenarios/data/metric-unit-whole", metric_unit),
		NAMED("scenarios/data/verdict-energy-thresholds", verdict_energy),
		NAMED("scenarios/data/verdict-latency-noise-band", verdict_latency),
		NAMED("scenarios/data/verdict-no-checks-is-not-a-pass", verdict_no_checks),
		NAMED("scenarios/data/heat-run-recorded", heat_recorded),
		NAMED("scenarios/data/verdict-placement-paired-and-negative-controls", verdict_paired),
		NAMED("scenarios/data/verdict-heat-checks-and-their-negative-controls", verdict_heat),
		NAMED("scenarios/data/verdict-placement-lisa-limit-straddle", verdict_lisa_limit),
		NAMED("scenarios/data/verdict-metered-driver-and-its-negative-controls", verdict_meter),
		NAMED("scenarios/data/verdict-task-profiles-seen-and-its-negative-control", verdict_task_profile),
		NAMED("scenarios/data/wakeup-counts-verdict-and-negative-controls", wakeup_counts),
	};

	return run_group("scenarios/data", tests);
}
