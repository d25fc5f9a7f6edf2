// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu-scenario - declared scenarios (scenarios/NAME.conf) on kernel
 * variants.
 *
 *   emrcu-scenario check [--quick] [--topo SPEC] FILE...
 *   emrcu-scenario plan  [--quick] [--topo SPEC] FILE       (guest files)
 *   emrcu-scenario cells [--quick] [--topo SPEC] [--runs 'V[:em] ...']
 *                        [--boots N] --outdir DIR FILE
 *       every boot as a cell (bench/driver's scenario kind runs them)
 *   emrcu-scenario derive [same options] --outdir DIR FILE
 *       metrics and verdict from the boots the cells left
 *
 * Exit: 0 pass, 1 a run failed (boot, timeout, crash, bad data), 2 bad
 * scenario file or environment (nothing run), 3 every run produced its
 * data but a pass threshold (a target) was missed.
 */
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emrcu/conf.h"
#include "drive.h"
#include "kind.h"
#include "planwrite.h"
#include "scen.h"
#include "vm.h"

struct opts {
	int quick, boots;
	const char *topo, *runs, *inject, *outdir;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: emrcu-scenario check|plan|cells|derive [--quick] [--topo SPEC]\n"
		"       [--runs 'VARIANT[:static|:runtime] ...'] [--boots N] [--outdir DIR]\n"
		"       [--inject 'EM_BENCH_PARAM=N ...'] FILE...\n");
	exit(2);
}

/* The repository: EMRCU_TOP, else the directory above this program's. */
static void find_top(char *top, size_t len)
{
	char exe[PATH_MAX];
	const char *t = getenv("EMRCU_TOP");
	ssize_t n;

	if (t && *t) {
		snprintf(top, len, "%s", t);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(top, len, ".");
		return;
	}
	exe[n] = '\0';
	snprintf(top, len, "%s", dirname(dirname(exe)));
}

static int load(const char *path, const struct opts *o, struct scenario *s)
{
	struct scen_override ov = { .topo = o->topo, .runs = o->runs,
				    .inject = o->inject };
	char err[600];

	if (scen_load(path, o->quick, &ov, s, err, sizeof(err))) {
		fprintf(stderr, "emrcu-scenario: %s\n", err);
		return -1;
	}
	if (o->boots > 0)
		s->boots = o->boots;
	return 0;
}

static int cmd_check(int argc, char **argv, struct opts *o)
{
	static struct scenario s;
	int i, q;

	if (!argc)
		usage();
	for (i = 0; i < argc; i++) {
		for (q = 0; q < 2; q++) {
			o->quick = q;
			if (load(argv[i], o, &s))
				return 2;
		}
		printf("%s: ok (%s, %d run(s), topology %s, %d step(s)/workload(s))\n",
		       argv[i], s.kind->name, s.nruns, s.topo_spec,
		       s.kind->nitems(&s));
	}
	return 0;
}

static int cmd_plan(const char *path, struct opts *o, const struct env *e)
{
	static struct scenario s;
	int r;

	if (load(path, o, &s))
		return 2;
	for (r = 0; r < s.nruns; r++) {
		printf("### run %s:%s\n", s.run[r].variant, s.run[r].em_name);
		if (s.kind->plan)
			s.kind->plan(stdout, &s, &s.run[r]);
		printf("### cmd.sh\n");
		cmd_write(stdout, &s, &s.run[r], variant_runtime_em(e, s.run[r].variant));
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "topo", required_argument, NULL, 't' },
		{ "runs", required_argument, NULL, 'r' },
		{ "boots", required_argument, NULL, 'b' },
		{ "outdir", required_argument, NULL, 'o' },
		{ "inject", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	static struct scenario s;
	struct opts o = { 0 };
	const char *cmd;
	struct env e;
	char top[PATH_MAX];
	int c;

	if (argc < 2)
		usage();
	cmd = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'q': o.quick = 1; break;
		case 't': o.topo = optarg; break;
		case 'r': o.runs = optarg; break;
		case 'b': o.boots = atoi(optarg);
			if (o.boots < 1 || o.boots > SCEN_MAX_BOOTS)
				usage();
			break;
		case 'o': o.outdir = optarg; break;
		case 'i': o.inject = optarg; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!strcmp(cmd, "check"))
		return cmd_check(argc, argv, &o);
	if (argc != 1)
		usage();
	find_top(top, sizeof(top));
	env_init(&e, top);
	if (!strcmp(cmd, "plan"))
		return cmd_plan(argv[0], &o, &e);
	if ((strcmp(cmd, "cells") && strcmp(cmd, "derive")) || !o.outdir)
		usage();
	if (load(argv[0], &o, &s))
		return 2;
	return !strcmp(cmd, "cells") ? drive_cells(&e, &s, o.outdir, stdout) :
				       drive_derive(&e, &s, o.outdir, o.quick);
}
