// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "kind.h"
#include "planwrite.h"
#include "scen.h"
#include "check.h"
#include "suites.h"
#include "workload.h"

static struct scenario s;
static char err[700];

static int is_conf(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && !strcmp(d->d_name + n - 5, ".conf");
}

/* Every shipped scenario, QUICK and full, on topologies of 2..4 clusters. */
TEST(shipped)
{
	static const char *const topos[] = { NULL, "2x160+2x1024",
		"2x100+2x300+2x600+2x1024" };
	struct dirent **ents;
	char path[600];
	int n, i, q, t, found = 0;

	n = scandir(t_dir, &ents, is_conf, alphasort);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", t_dir, ents[i]->d_name);
		for (t = 0; t < 3; t++) {
			struct scen_override ov = { .topo = topos[t] };

			for (q = 0; q < 2; q++) {
				if (scen_load(path, q, &ov, &s, err, sizeof(err)))
					fail_msg("%s", err);
			}
		}
		found++;
		free(ents[i]);
	}
	free(ents);
	assert_true(found >= 3);
}

/* tests/data/bad/X.conf starts with "# expect: TEXT": the error must name
 * the file and contain TEXT, in QUICK and full parses. */
TEST(bad_files)
{
	struct dirent **ents;
	char dir[600], path[900], line[300], *want;
	int n, i, q;

	snprintf(dir, sizeof(dir), "%s/tests/data/bad", t_dir);
	n = scandir(dir, &ents, is_conf, alphasort);
	assert_true(n >= 10);
	for (i = 0; i < n; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		f = fopen(path, "r");
		assert_true(f && fgets(line, sizeof(line), f));
		if (f)
			fclose(f);
		line[strcspn(line, "\n")] = '\0';
		want = strstr(line, "# expect: ");
		assert_true(want);
		if (!want)
			continue;
		want += 10;
		for (q = 0; q < 2; q++) {
			struct scen_override ov = { 0 };
			int rc = scen_load(path, q, &ov, &s, err, sizeof(err));

			if (!rc || !strstr(err, want) || !strstr(err, ents[i]->d_name))
				fail_msg("%s (quick=%d): got '%s', want '%s'",
					 ents[i]->d_name, q, rc ? err : "(parsed)", want);
		}
		free(ents[i]);
	}
	free(ents);
}

static const char *good =
	"name = good\ndescription = d\nkind = placement\nruns = a b:oracle\n"
	"timeout_s = 60\nwarmup_ms = 100\nphase_ms = 500\ntemperature = 60\n"
	"workload = w1 t util=10 count=3; u util=5,50 ref=little cluster=1\n"
	"workload = w2 t util=1\n"
	"pass.over_optimal_pct = 5\npass.over_optimal_pct.w2 = 7\n";

TEST(fields)
{
	struct scen_override ov = { .topo = "2x256+1x512+1x1024" };
	const struct scen_workload *w;

	assert_true(!scen_parse("x/good.conf", good, 0, &ov, &s, err, sizeof(err)));
	assert_true(s.kind == &kind_placement && s.nruns == 2);
	assert_true(s.run[1].em == EM_ORACLE && !strcmp(s.run[1].variant, "b"));
	assert_true(s.step[0].temp_mc == 60000 && !strcmp(s.step[0].profile, "nominal"));
	assert_true(s.nworkloads == 2);
	w = &s.w[0];
	assert_true(w->ntasks == 4 && !strcmp(w->t[2].name, "t.2") &&
	       !strcmp(w->t[3].name, "u.0"));
	/* ref=little: % of the lowest capacity (256 -> 25 % of 1024) */
	assert_near(w->t[3].util[1], 50 * 0.25, 1e-9);
	assert_true(w->t[3].cluster == 1 && w->t[3].nphases == 2);
	assert_true(workload_phases(w) == 2);
	assert_near(w->max_over_optimal_pct, 5, 0);
	assert_near(s.w[1].max_over_optimal_pct, 7, 0);
	assert_true(!strcmp(s.topo_spec, "2x256+1x512+1x1024"));
}

/* LISA's shapes: a ramp, values of the smallest CPU, one task per big CPU. */
TEST(lisa_shapes)
{
	static const char *text =
		"name = l\ndescription = d\nkind = placement\nruns = a\n"
		"timeout_s = 60\nwarmup_ms = 100\nphase_ms = 1000\n"
		"workload = up r ramp=10l:70:5 phase_ms=500\n"
		"workload = down r ramp=70:10l:5 phase_ms=500\n"
		"workload = wmig w util=20l,70,20l,70 count=bigs phase_ms=2000\n";
	struct scen_override ov = { .topo = "4x160+2x512+2x1024" };
	const struct scen_task *t;

	assert_true(!scen_parse("l.conf", text, 0, &ov, &s, err, sizeof(err)));
	if (s.nworkloads != 3)
		return;
	/* 10 % of 160 = 1.5625 % of 1024; by 5 up to 71.5625, clipped to 70 */
	t = &s.w[0].t[0];
	assert_true(t->nphases == 15);
	assert_near(t->util[0], 1.5625, 1e-9);
	assert_near(t->util[13], 66.5625, 1e-9);
	assert_near(t->util[14], 70, 1e-9);
	t = &s.w[1].t[0];
	assert_true(t->nphases == 15);
	assert_near(t->util[0], 70, 1e-9);
	assert_near(t->util[13], 5, 1e-9);
	assert_near(t->util[14], 1.5625, 1e-9);
	assert_true(s.w[0].phase_ms == 500 && workload_phase_ms(&s, &s.w[2]) == 2000);
	/* two CPUs of capacity 1024: two tasks; 20 % of 160 is 3.125 */
	assert_true(s.w[2].ntasks == 2);
	assert_near(s.w[2].t[1].util[2], 3.125, 1e-9);
	assert_near(s.w[2].t[1].util[3], 70, 1e-9);
	assert_true(workload_phase_ms(&s, &s.w[2]) == 2000);
}

TEST(ranks)
{
	struct topo t;
	char cpus[32];

	assert_true(!topo_parse("2x1024+4x160+1x512", &t, err, sizeof(err)));
	assert_true(scen_cluster_of_rank(&t, 0) == 1);
	assert_true(scen_cluster_of_rank(&t, 1) == 2);
	assert_true(scen_cluster_of_rank(&t, 2) == 0);
	assert_true(scen_cluster_of_rank(&t, 3) == -1);
	rank_cpulist(&t, 0, cpus, sizeof(cpus));
	assert_true(!strcmp(cpus, "2-5"));
	rank_cpulist(&t, 1, cpus, sizeof(cpus));
	assert_true(!strcmp(cpus, "6"));
}

TEST(labels)
{
	static const char *energy =
		"name = e\ndescription = d\nkind = energy\nruns = a\ntimeout_s = 60\n"
		"warmup_ms = 0\nphase_ms = 100\nknob = bin\ntimeline = -20 0 35\n"
		"temperature = 45\nworkload = w t util=10\n";
	static const char *prof =
		"name = e\ndescription = d\nkind = energy\nruns = a\ntimeout_s = 60\n"
		"warmup_ms = 0\nphase_ms = 100\nknob = profile\ntimeline = nominal memory\n"
		"workload = w t util=10\n";

	assert_true(!scen_parse("e.conf", energy, 0, NULL, &s, err, sizeof(err)));
	assert_true(s.nsteps == 3 && !strcmp(s.step[0].label, "s0_m20mV") &&
	       !strcmp(s.step[2].label, "s2_p35mV") && s.step[2].bin_mv == 35 &&
	       s.step[1].temp_mc == 45000);
	assert_true(scen_nsteps(&s) == 3 && !strcmp(step_label(&s, 1), "s1_p0mV"));
	assert_true(!scen_parse("e.conf", prof, 0, NULL, &s, err, sizeof(err)));
	assert_true(!strcmp(s.step[1].label, "s1_memory") &&
	       !strcmp(s.step[1].profile, "memory"));
}

TEST(override_runs)
{
	struct scen_override ov = { .runs = "v1 v2:oracle" };

	assert_true(!scen_parse("x/good.conf", good, 0, &ov, &s, err, sizeof(err)));
	assert_true(s.nruns == 2 && !strcmp(s.run[0].variant, "v1") &&
	       s.run[1].em == EM_ORACLE);
	ov.runs = "v1:fast";
	assert_true(scen_parse("x/good.conf", good, 0, &ov, &s, err, sizeof(err)));
	assert_true(strstr(err, "x/good.conf: field runs (command line): 'fast'"));
	ov.runs = NULL;
	ov.topo = "17x100";
	assert_true(scen_parse("x/good.conf", good, 0, &ov, &s, err, sizeof(err)));
	assert_true(strstr(err, "field topology: TOPO=17x100: impossible topology"));
}

/* --inject: NAME=N words for em_bench's kinds only, nothing shell can read */
TEST(override_inject)
{
	static const char *lat =
		"name = l\ndescription = d\nkind = latency\nruns = a b\n"
		"timeout_s = 60\nduration_s = 1\nloads = idle 1000\n"
		"pass.noise_factor = 1.5\npass.noise_floor_pct = 10\npass.noise_max_pct = 50\n";
	static const char *const bad[] = { "inject_hold_ns=", "=5", "A=1", "a=1;reboot",
		"a=1  b=2", "a=1 ", "", NULL };
	struct scen_override ov = { .inject = "inject_hold_ns=30000 seed=2" };
	int i;

	assert_msg(!scen_parse("l.conf", lat, 0, &ov, &s, err, sizeof(err)), "%s", err);
	assert_string_equal(s.inject, "inject_hold_ns=30000 seed=2");
	for (i = 0; bad[i]; i++) {
		ov.inject = bad[i];
		assert_msg(scen_parse("l.conf", lat, 0, &ov, &s, err, sizeof(err)) &&
			   strstr(err, "want NAME=N words"), "'%s' taken", bad[i]);
	}
	ov.inject = "seed=2";		/* a kind that loads no em_bench */
	assert_true(scen_parse("x/good.conf", good, 0, &ov, &s, err, sizeof(err)) &&
		    strstr(err, "loads no em_bench"));
}

/*
 * Every kind the engine may be handed is whole: the ops it calls on every
 * kind, and a plan for those that run the guest's plan.  Each shipped
 * scenario names a kind, and each kind is named by one.
 */
TEST(kinds)
{
	static const char *const files[] = { "chip-binning", "placement",
		"shared-domain", "wakeup-latency", "feec" };
	const struct scen_kind *const *k;
	char path[600];
	int i, seen;

	for (k = scen_kinds; *k; k++) {
		assert_msg((*k)->name && (*k)->parse && (*k)->nitems &&
			   (*k)->cmd && (*k)->derive && (*k)->declares_checks &&
			   (*k)->judge, "kind %s lacks an op", (*k)->name);
		assert_msg(!(*k)->load == !(*k)->plan,
			   "kind %s: a plan if and only if load rules", (*k)->name);
		assert_msg(!(*k)->module == !(*k)->module_guest,
			   "kind %s: module without its guest path", (*k)->name);
		seen = 0;
		for (i = 0; i < (int)(sizeof(files) / sizeof(files[0])); i++) {
			snprintf(path, sizeof(path), "%s/%s.conf", t_dir, files[i]);
			if (scen_load(path, 1, NULL, &s, err, sizeof(err)))
				fail_msg("%s", err);
			seen += s.kind == *k;
		}
		assert_msg(seen == 1, "kind %s: %d of the files name it", (*k)->name, seen);
	}
}

int test_scen(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("scenarios/scen/shipped-files-any-topology", shipped),
		NAMED("scenarios/scen/bad-files", bad_files),
		NAMED("scenarios/scen/fields", fields),
		NAMED("scenarios/scen/lisa-shapes", lisa_shapes),
		NAMED("scenarios/scen/capacity-ranks", ranks),
		NAMED("scenarios/scen/step-labels", labels),
		NAMED("scenarios/scen/command-line-overrides", override_runs),
		NAMED("scenarios/scen/inject-words", override_inject),
		NAMED("scenarios/scen/kinds-complete", kinds),
	};

	return run_group("scenarios/scen", tests);
}
