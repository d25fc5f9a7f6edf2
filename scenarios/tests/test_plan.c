// SPDX-License-Identifier: GPL-2.0
/* Host plan writer -> guest plan parser; the guest's trace parser. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emtab.h"
#include "emrcu/json.h"
#include "plan.h"
#include "planwrite.h"
#include "rtapp.h"
#include "scen.h"
#include "check.h"
#include "suites.h"

static struct scenario s;
static struct plan p;
static char err[600];

/* The number @j holds; NaN when it is not one. */
static double num_of(const struct json *j)
{
	double d;

	return json_num(j, &d) ? NAN : d;
}

/*
 * Scenario file @path holding @text (topology 2x1024+2x200) -> the host's
 * plan of its run @run -> the guest's parse of it in @p; 0 when every stage
 * succeeded.
 */
static int plan_of(const char *path, const char *text, int run)
{
	struct scen_override ov = { .topo = "2x1024+2x200" };
	char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	int ret;

	if (!f)
		return -1;
	ret = scen_parse(path, text, 0, &ov, &s, err, sizeof(err)) ||
	      plan_write(f, &s, &s.run[run]);
	fclose(f);
	return ret || plan_parse(buf, &p, err, sizeof(err));
}

TEST(roundtrip)
{
	static const char *text =
		"name = rt\ndescription = d\nkind = shared\nruns = v:oracle\n"
		"timeout_s = 60\nwarmup_ms = 250\nphase_ms = 700\nslice_us = 150\n"
		"temperature = 70\nprofile = memory\nbin_mv = -10\n"
		"workload = pack a util=3 cluster=0; b util=3 cluster=0\n"
		"workload = spread a util=3 cluster=0; b util=3,4 cluster=1 phase_ms=300\n";

	assert_true(!plan_of("rt.conf", text, 0));
	assert_true(p.em == PLAN_EM_PUSH && p.warmup_ms == 250 && p.slice_us == 150);
	/* the scenario's phase, then the workload's own */
	assert_true(p.step[0].phase_ms == 700 && p.step[1].phase_ms == 300);
	assert_true(p.nsteps == 2 && !strcmp(p.step[1].label, "spread"));
	assert_true(p.step[1].temp_mc == 70000 && p.step[1].bin_mv == -10 &&
	       !strcmp(p.step[1].profile, "memory"));
	assert_true(p.step[1].ntasks == 2 && !strcmp(p.step[1].task[1].name, "b.0"));
	/* rank 0 = the 200 cluster = cpus 2-3; rank 1 = cpus 0-1 */
	assert_true(p.step[1].task[0].cpus == 0xc && p.step[1].task[1].cpus == 0x3);
	assert_true(p.step[1].task[1].nphases == 2 && p.step[1].task[1].util[1] == 4);
	assert_true(plan_step_phases(&p.step[1]) == 2);
}

/* A task's profile= reaches the guest as the thread name the platform reads. */
TEST(task_profile)
{
	static const char *text =
		"name = tp\ndescription = d\nkind = energy\nruns = v:static v:best-static\n"
		"timeout_s = 60\nwarmup_ms = 100\nphase_ms = 500\n"
		"knob = profile\ntimeline = nominal fp\n"
		"workload = w a util=3 profile=memory; b util=3\n";

	assert_true(!plan_of("tp.conf", text, 1));
	assert_true(p.em == PLAN_EM_BEST_STATIC && !p.heat[0] && p.nsteps == 2);
	assert_true(!strcmp(p.step[1].task[0].comm, "emp.memory") &&
	       !p.step[1].task[1].comm[0]);
	assert_true(plan_parse("step a 1 nominal 0\ntask t 1000 1 - emp.a-name-too-long\n",
			  &p, err, sizeof(err)));
}

TEST(bad_plans)
{
	assert_true(plan_parse("em fast\nstep a 1 nominal 0\n", &p, err, sizeof(err)));
	assert_true(strstr(err, "line 1: bad 'em'"));
	assert_true(plan_parse("task a 1000 10 -\n", &p, err, sizeof(err)));
	assert_true(strstr(err, "task before the first step"));
	assert_true(plan_parse("step a 1 nominal 0\ntask a 1000 101 -\n", &p, err, sizeof(err)));
	assert_true(strstr(err, "line 2"));
	assert_true(plan_parse("em static\n", &p, err, sizeof(err)));
	assert_true(strstr(err, "no step"));
	assert_true(!plan_parse("step a 1 nominal 0 # c\ntask t 1000 1,2 0-1\n", &p, err, sizeof(err)));
	assert_true(p.step[0].task[0].cpus == 3);
}

/* A trace as the patched kernel writes it (two updates of cpu0: the last
 * one counts), plus an unrelated event and a non-CPU device. */
static const char *trace =
	"# tracer: nop\n#\n"
	"              sh-93      [002] .....     4.100000: em_perf_state: dev_name=cpu0 nr_perf_states=2 state=0 frequency=1000 power=10 cost=20 flags=0\n"
	"              sh-93      [002] .....     4.100001: em_perf_state: dev_name=cpu0 nr_perf_states=2 state=1 frequency=2000 power=30 cost=30 flags=0\n"
	"              sh-93      [002] .....     4.100002: em_perf_state: dev_name=gpu nr_perf_states=1 state=0 frequency=5 power=1 cost=1 flags=0\n"
	"              sh-93      [002] .....     4.100003: sched_switch: prev_comm=sh\n"
	"              sh-93      [002] .....     4.200000: em_perf_state: dev_name=cpu0 nr_perf_states=2 state=0 frequency=1000 power=11 cost=22 flags=0\n"
	"              sh-93      [002] .....     4.200001: em_perf_state: dev_name=cpu0 nr_perf_states=2 state=1 frequency=2000 power=33 cost=33 flags=0\n"
	"              sh-93      [002] .....     4.200002: em_perf_state: dev_name=cpu2 nr_perf_states=1 state=0 frequency=1000 power=99 cost=99 flags=0\n";

TEST(trace_parse)
{
	static struct emtab boot, t;

	memset(&boot, 0, sizeof(boot));
	boot.npd = 2;
	strcpy(boot.pd[0].name, "cpu0");
	boot.pd[0].cpus = 3;
	boot.pd[0].n = 2;
	strcpy(boot.pd[1].name, "cpu2");
	boot.pd[1].cpus = 4;
	boot.pd[1].n = 1;
	assert_true(!emtab_parse_trace(trace, &boot, &t));
	assert_true(!strcmp(t.source, "trace") && t.npd == 2);
	assert_true(t.pd[0].n == 2 && t.pd[0].power[0] == 11 && t.pd[0].power[1] == 33 &&
	       t.pd[0].khz[1] == 2000 && t.pd[0].cost[0] == 22 && t.pd[0].cpus == 3);
	assert_true(t.pd[1].power[0] == 99);
	/* cpu2 missing from the trace: incomplete */
	boot.pd[1].n = 2;
	assert_true(emtab_parse_trace(trace, &boot, &t));
	boot.pd[1].n = 1;
	assert_true(emtab_parse_trace("x em_perf_state: dev_name=cpu0 nr_perf_states=2 state=1 frequency=1 power=1 cost=1 flags=0\n",
				 &boot, &t));
}

/* rt-app engine: the plan names the JSON; the JSON is what rt-app reads. */
TEST(rtapp_json)
{
	static const char *text =
		"name = rj\ndescription = d\nkind = placement\nruns = v\nengine = rt-app\n"
		"timeout_s = 60\nwarmup_ms = 1000\nphase_ms = 2000\n"
		"workload = ramp r util=10,50 period_ms=20; p util=25 cluster=1\n";
	struct scen_override ov = { .topo = "2x256+2x1024" };
	const struct json *tasks, *r, *p0, *p1;
	struct json_err je;
	struct json *j;
	char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_true(!scen_parse("rj.conf", text, 0, &ov, &s, err, sizeof(err)));
	assert_true(s.engine == ENGINE_RTAPP);
	assert_true(f && !plan_write(f, &s, &s.run[0]));
	fclose(f);
	assert_true(!plan_parse(buf, &p, err, sizeof(err)));
	assert_true(!strcmp(p.step[0].rtapp, "/emrcu/rtapp-ramp.json"));
	f = fmemopen(buf, sizeof(buf), "w");
	assert_true(f && !rtapp_write(f, &s, &s.w[0]));
	fclose(f);
	j = json_parse(buf, strlen(buf), &je);
	assert_true(j);
	if (!j)
		return;
	tasks = json_get(j, "tasks");
	assert_true(json_len(tasks) == 2);
	r = json_get(tasks, "r.0");
	p0 = json_get(json_get(r, "phases"), "p0");
	p1 = json_get(json_get(r, "phases"), "p1");
	/* 10 % of 20 ms; p0 covers warm-up + one phase: 3 s / 20 ms */
	assert_true(p0 && p1);
	assert_true(num_of(json_get(p0, "runtime")) == 2000);
	assert_true(num_of(json_get(p0, "loop")) == 150);
	assert_true(num_of(json_get(p1, "runtime")) == 10000);
	assert_true(num_of(json_get(json_get(p1, "timer"), "period")) == 20000);
	/* pinned to rank 1 = the 1024 cluster = cpus 2, 3 */
	assert_true(json_len(json_get(json_get(tasks, "p.0"), "cpus")) == 2 &&
	       num_of(json_at(json_get(json_get(tasks, "p.0"), "cpus"), 0)) == 2);
	assert_true(num_of(json_get(json_get(j, "global"), "duration")) >= 5);
	json_free(j);
}

int test_plan(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("scenarios/plan/rt-app-engine-json", rtapp_json),
		NAMED("scenarios/plan/host-writer-guest-parser", roundtrip),
		NAMED("scenarios/plan/task-profile-names-the-thread", task_profile),
		NAMED("scenarios/plan/bad-guest-plans", bad_plans),
		NAMED("scenarios/plan/em-trace-parser", trace_parse),
	};

	return run_group("scenarios/plan", tests);
}
