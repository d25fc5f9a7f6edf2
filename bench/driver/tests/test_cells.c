// SPDX-License-Identifier: GPL-2.0
/* test_cells.c - declarations -> cells: the em_bench kind, bad declarations. */
#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "check.h"

static struct conf decl;
static char err[600];

static const char *base_decl =
	"kind = em_bench\ntopo = 4x160+2x512+2x1024\nbuild = /b\n"
	"modes = deterministic realtime\nboots = 2\nboots_realtime = 5\nnruns = 200\n"
	"update_hz = 0 100\nbaselines = unpatched\nnumerators = patched custom\n"
	"readers_only = custom\ntest_pds = 4,8\ncolumns = -\n";

static int plan(const char *text, struct cells *cs)
{
	const struct kind_ops *k;

	memset(cs, 0, sizeof(*cs));
	if (conf_parse("d.conf", text, &decl, err, sizeof(err)))
		return -1;
	k = cells_kind(&decl, err, sizeof(err));
	return k ? k->plan(&decl, cs, err, sizeof(err)) : -1;
}

static const struct cell *find(const struct cells *cs, const char *id)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->c[i].id, id))
			return &cs->c[i];
	return NULL;
}

static int has_arg(const struct cell *c, const char *s)
{
	int i;

	for (i = 0; i < c->nargs; i++)
		if (strstr(c->args[i], s))
			return 1;
	return 0;
}

/*
 * Per mode: unpatched at 0 and 100 Hz (null updater), patched at 0 and
 * 100 Hz, same table at 100 Hz, scaling; custom readers only: 7
 * configurations, x 2 boots deterministic + x 5 realtime = 49 cells.
 */
TEST(em_bench_expansion)
{
	struct cells cs;
	const struct cell *c;

	assert_msg(!plan(base_decl, &cs), "%s", err);
	assert_int_equal(cs.n, 7 * 2 + 7 * 5);
	c = find(&cs, "unpatched-deterministic-hz100-b2");
	assert_non_null(c);
	assert_true(has_arg(c, "em_bench.ko:nruns=200 update_hz=100 mode_hint=deterministic null_update=1"));
	assert_true(has_arg(c, "/b/unpatched/mod/platform/emrcu_platform.ko:test_pds=4,8"));
	assert_string_equal(c->what, "update_hz=100 (null updater) boot 2");
	c = find(&cs, "patched-realtime-hz100-same-b5");
	assert_true(c && has_arg(c, "same_table=1") && !has_arg(c, "null_update"));
	c = find(&cs, "patched-deterministic-scaling-b1");
	assert_true(c && has_arg(c, "em_bench.ko:nruns=20 scaling=1 mode_hint=deterministic"));
	assert_non_null(find(&cs, "custom-realtime-hz0-b1"));
	assert_null(find(&cs, "custom-realtime-hz100-b1"));
	assert_null(find(&cs, "unpatched-deterministic-hz100-same-b1"));
	cells_free(&cs);
}

/* run.* fields are the run's record: no kind reads them, none refuses them. */
TEST(run_record_fields)
{
	struct cells cs;
	char text[1024];

	snprintf(text, sizeof(text), "%srun.quick = 1\nrun.aa_variants = -\n", base_decl);
	assert_msg(!plan(text, &cs), "%s", err);
	assert_int_equal(cs.n, 49);
	cells_free(&cs);
}

/* One boot declared field by field (the torture run), modules in order. */
TEST(one_boot)
{
	struct cells cs;
	const struct cell *c;

	assert_msg(!plan("kind = boot\nvariant = patched-debug\nmode = realtime\n"
			 "module = /m/p.ko\nmodule = /m/t.ko:duration_s=75 max_updates=10000\n"
			 "cmd_file = /o/cmd.sh\nappend = rcupdate.rcu_cpu_stall_timeout=60\n"
			 "timeout_s = 225\noutdir = /o/run\nlog = /tmp/x\n", &cs), "%s", err);
	assert_int_equal(cs.n, 1);
	c = &cs.c[0];
	assert_string_equal(c->outdir, "/o/run");
	assert_string_equal(c->log, "/tmp/x");
	assert_int_equal(c->nargs, 16);
	assert_string_equal(c->args[5], "/m/p.ko");
	assert_string_equal(c->args[7], "/m/t.ko:duration_s=75 max_updates=10000");
	assert_string_equal(c->args[11], "rcupdate.rcu_cpu_stall_timeout=60");
	assert_string_equal(c->args[13], "225");
	assert_string_equal(c->args[15], "120");
	cells_free(&cs);
	assert_true(plan("kind = boot\nvariant = v\nmode = realtime\noutdir = o\nlog = l\n"
			 "timeout_s = 0\n", &cs) && strstr(err, "field timeout_s: seconds"));
	cells_free(&cs);
	assert_true(plan("kind = boot\nvariant = v\nmode = fast\noutdir = o\nlog = l\n", &cs) &&
		    strstr(err, "'fast' is not a mode"));
	cells_free(&cs);
}

/* A/A columns alternate per boot; only column N gets the injection. */
TEST(aa_columns)
{
	struct cells cs;
	char text[1024];

	snprintf(text, sizeof(text), "%s", base_decl);
	*strstr(text, "columns = -") = '\0';
	strcat(text, "columns = A B N\ninject = inject_nops=1\n");
	assert_msg(!plan(text, &cs), "%s", err);
	assert_int_equal(cs.n, 3 * 49);
	assert_string_equal(cs.c[0].id, "unpatched-deterministic-hz0-A-b1");
	assert_string_equal(cs.c[1].id, "unpatched-deterministic-hz0-B-b1");
	assert_string_equal(cs.c[2].id, "unpatched-deterministic-hz0-N-b1");
	assert_string_equal(cs.c[3].id, "unpatched-deterministic-hz0-A-b2");
	assert_true(has_arg(&cs.c[2], "inject_nops=1") && !has_arg(&cs.c[1], "inject_nops"));
	cells_free(&cs);
}

/* Each bad declaration is refused naming the field (and its line). */
TEST(bad_declarations)
{
	static const struct { const char *add, *drop, *want; } bad[] = {
		{ "colour = red\n", NULL, "d.conf:14: field colour: unknown" },
		{ NULL, "boots = 2\n", "field boots: missing" },
		{ "inject = x\n", NULL, "field inject: only with column N" },
	};
	char text[1024], *p;
	struct cells cs;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s", base_decl);
		if (bad[i].drop && (p = strstr(text, bad[i].drop)))
			memmove(p, p + strlen(bad[i].drop), strlen(p + strlen(bad[i].drop)) + 1);
		if (bad[i].add)
			strcat(text, bad[i].add);
		assert_msg(plan(text, &cs) && strstr(err, bad[i].want), "case %zu: '%s'", i, err);
		cells_free(&cs);
	}
	assert_true(plan("kind = nope\n", &cs) && strstr(err, "d.conf:1: field kind: unknown kind 'nope'"));
	assert_true(plan("topo = 1x1024\n", &cs) && strstr(err, "field kind: missing"));
	assert_true(plan("kind = scenario\nfile = x.conf\n", &cs) &&
		    strstr(err, "field outdir: missing"));
	assert_true(plan("kind = scenario\nfile = x.conf\noutdir = o\nquick = 2\n", &cs) &&
		    strstr(err, "field quick: use 0 or 1"));
	assert_true(plan("kind = scenario\nfile = x.conf\noutdir = o\nboot = 2\n", &cs) &&
		    strstr(err, "d.conf:4: field boot: unknown"));
	snprintf(text, sizeof(text), "%s", base_decl);
	p = strstr(text, "realtime");
	memcpy(p, "realtim3", 8);
	assert_true(plan(text, &cs) && strstr(err, "'realtim3' is not a mode"));
	cells_free(&cs);
	snprintf(text, sizeof(text), "%s", base_decl);
	p = strstr(text, "boots = 2");
	memcpy(p, "boots = x", 9);
	assert_true(plan(text, &cs) && strstr(err, "d.conf:5: field boots: 'x' is not an integer"));
	cells_free(&cs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		CASE("driver", em_bench_expansion),
		CASE("driver", run_record_fields),
		CASE("driver", aa_columns),
		CASE("driver", one_boot),
		CASE("driver", bad_declarations),
	};

	return run_group("driver", tests);
}
