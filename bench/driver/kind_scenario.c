// SPDX-License-Identifier: GPL-2.0
/*
 * kind_scenario.c - a declared scenario (scenarios/NAME.conf): every run x
 * boot one cell.  The scenario's own engine plans them: scenarios/
 * emrcu-scenario cells builds the modules, writes each boot's guest files
 * into its directory and prints one line per cell (tab-separated: id,
 * mode, variant, what, outdir, log, emrcu-run arguments); its verdict
 * comes after the cells ran (emrcu-scenario derive, scenarios/run.sh).
 *
 * Fields:
 *   kind = scenario            file = scenarios/NAME.conf
 *   outdir = DIR               (the cells go to DIR/NAME/...)
 *   quick = 0 | 1              topo = SPEC, runs = 'V[:em] ...', boots = N
 *                              (optional overrides)
 *   inject = 'P=N ...'         em_bench parameters of every run but the
 *                              first: a negative control (optional)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cells.h"
#include "emrcu/buf.h"
#include "emrcu/xalloc.h"

/* The planner's output, or NULL (its exit status in *st). */
static char *plan_output(char *const *argv, int *st)
{
	struct buf b = { 0 };
	char tmp[4096];
	int fd[2];
	ssize_t n;
	pid_t pid;

	if (pipe(fd))
		return NULL;
	pid = fork();
	if (pid < 0)
		return NULL;
	if (!pid) {
		close(fd[0]);
		if (dup2(fd[1], 1) < 0)
			_exit(127);
		execv(argv[0], argv);
		fprintf(stderr, "emrcu-cells: cannot run %s\n", argv[0]);
		_exit(127);
	}
	close(fd[1]);
	buf_add(&b, "", 0);
	while ((n = read(fd[0], tmp, sizeof(tmp))) > 0)
		buf_add(&b, tmp, (size_t)n);
	close(fd[0]);
	waitpid(pid, st, 0);
	return b.p;
}

/* One line of the planner into a cell: 0, or -1. */
static int parse_line(char *line, struct cell *c)
{
	char *f[6], *save = NULL, *t;
	int i;

	for (i = 0; i < 6; i++) {
		f[i] = strtok_r(i ? NULL : line, "\t", &save);
		if (!f[i])
			return -1;
	}
	if (snprintf(c->id, sizeof(c->id), "%s", f[0]) >= (int)sizeof(c->id) ||
	    snprintf(c->mode, sizeof(c->mode), "%s", f[1]) >= (int)sizeof(c->mode) ||
	    snprintf(c->variant, sizeof(c->variant), "%s", f[2]) >= (int)sizeof(c->variant) ||
	    snprintf(c->what, sizeof(c->what), "%s", f[3]) >= (int)sizeof(c->what) ||
	    snprintf(c->outdir, sizeof(c->outdir), "%s", f[4]) >= (int)sizeof(c->outdir) ||
	    snprintf(c->log, sizeof(c->log), "%s", f[5]) >= (int)sizeof(c->log))
		return -1;
	while ((t = strtok_r(NULL, "\t", &save))) {
		if (c->nargs == CELL_MAX_ARGS)
			return -1;
		cell_arg(c, "%s", t);
	}
	return c->nargs ? 0 : -1;
}

static int plan(struct conf *c, struct cells *out, char *err, size_t errlen)
{
	struct fctx f = { .c = c, .err = err, .errlen = errlen };
	const char *file, *dir, *quick, *topo, *runs, *boots, *inject;
	char *argv[16], *text, *line, *save = NULL;
	int n = 0, st = 0;

	if (fstr(&f, "file", 1, &file) || fstr(&f, "outdir", 1, &dir) ||
	    fstr(&f, "quick", 0, &quick) || fstr(&f, "topo", 0, &topo) ||
	    fstr(&f, "runs", 0, &runs) || fstr(&f, "boots", 0, &boots) ||
	    fstr(&f, "inject", 0, &inject))
		return -1;
	if (quick && strcmp(quick, "0") && strcmp(quick, "1")) {
		snprintf(err, errlen, "%s: field quick: use 0 or 1", c->path);
		return -1;
	}
	if (funknown(&f))
		return -1;
	argv[n++] = xasprintf("%s/scenarios/emrcu-scenario", cells_top());
	argv[n++] = xstrdup("cells");
	if (quick && !strcmp(quick, "1"))
		argv[n++] = xstrdup("--quick");
#define OPT(name, v) do { if (v) { argv[n++] = xstrdup(name); argv[n++] = xstrdup(v); } } while (0)
	OPT("--topo", topo);
	OPT("--runs", runs);
	OPT("--boots", boots);
	OPT("--inject", inject);
	OPT("--outdir", dir);
#undef OPT
	argv[n++] = xstrdup(file);
	argv[n] = NULL;
	text = plan_output(argv, &st);
	while (n--)
		free(argv[n]);
	if (!text || !WIFEXITED(st) || WEXITSTATUS(st)) {
		snprintf(err, errlen, "%s: the scenario's cells could not be planned "
			 "(emrcu-scenario cells exit %d; see above)", c->path,
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		free(text);
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (parse_line(line, cells_add(out))) {
			snprintf(err, errlen, "%s: emrcu-scenario cells printed a bad line",
				 c->path);
			free(text);
			return -1;
		}
	}
	free(text);
	if (!out->n) {
		snprintf(err, errlen, "%s: the scenario has no cells", c->path);
		return -1;
	}
	return 0;
}

const struct kind_ops scenario_kind = { "scenario", plan };
