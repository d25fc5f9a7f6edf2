// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu-cells: the one driver of guest runs.  A declaration (DECL, a
 * `key = value` file naming its kind) expands into independent cells, one
 * guest boot each (cells.h).
 *
 *   emrcu-cells list DECL [GLOB...]
 *       one line per cell: ID MODE VARIANT; GLOBs (fnmatch) select cells
 *   emrcu-cells run DECL RUNDIR [--jobs N] [GLOB...]
 *       runs the selected cells (all by default) into RUNDIR/runs/ID, with
 *       qemu-runner/emrcu-run (or $EMRCU_RUN), its output in
 *       RUNDIR/runs/ID.log (ending "emrcu-cells: exit N", the runner's
 *       exit code, qemu-runner/exitcodes.h); up to N deterministic cells at once (icount:
 *       their figures do not depend on the host's load), realtime cells
 *       always alone.  One progress line per cell, one FAILED line per
 *       failed cell.  SIGTERM/SIGINT reach the running cells' emrcu-run
 *       (which stops its guest and keeps what it has); no cell starts after.
 *       DECL's name with .json (RUNDIR/cells.json for RUNDIR/cells.conf)
 *       records every cell that ran: id, variant, mode, exit code or
 *       signal, wall seconds, log.
 *
 * Exit: 0 every selected cell ran, 1 one or more failed, 2 bad usage or
 * declaration (nothing ran).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cells.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/xalloc.h"

static int usage(void)
{
	fputs("usage: emrcu-cells list DECL [GLOB...]\n"
	      "       emrcu-cells run DECL RUNDIR [--jobs N] [GLOB...]\n", stderr);
	return 2;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char ts[16];
	time_t t = time(NULL);
	va_list ap;

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&t));
	printf("[cells %s] ", ts);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static int selected(const struct cell *c, char **globs, int n)
{
	int i;

	if (!n)
		return 1;
	for (i = 0; i < n; i++)
		if (!fnmatch(globs[i], c->id, 0))
			return 1;
	return 0;
}

/* qemu-runner/emrcu-run of this program's tree, or $EMRCU_RUN. */
static char *runner(void)
{
	if (getenv("EMRCU_RUN"))
		return xstrdup(getenv("EMRCU_RUN"));
	return xasprintf("%s/qemu-runner/emrcu-run", cells_top());
}

struct job {
	pid_t pid;
	const struct cell *c;
	char *log;
	double t0;
};

/* The record of the cells that ran (DECL's name with .json): CI reads it. */
static struct json *record;

/*
 * SIGTERM/SIGINT: the running cells get the signal (emrcu-run stops its
 * guest and keeps what it has), no further cell starts.
 */
static struct job jobs[64];
static volatile int njobs;
static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	int i;

	stopping = 1;
	for (i = 0; i < njobs; i++)
		if (jobs[i].pid > 0)
			kill(jobs[i].pid, sig);
}

static pid_t start(const char *run, const struct cell *c, const char *rundir, char **log)
{
	char *argv[CELL_MAX_ARGS + 4], *out;
	pid_t pid;
	int i, fd;

	out = c->outdir[0] ? xstrdup(c->outdir) : xasprintf("%s/runs/%s", rundir, c->id);
	*log = c->log[0] ? xstrdup(c->log) : xasprintf("%s.log", out);
	pid = fork();
	if (pid) {
		free(out);
		return pid;
	}
	fd = open(*log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(127);
	argv[0] = (char *)run;
	for (i = 0; i < c->nargs; i++)
		argv[i + 1] = c->args[i];
	argv[++i] = "--outdir";
	argv[++i] = out;
	argv[++i] = NULL;
	execv(run, argv);
	fprintf(stderr, "emrcu-cells: cannot run %s: %s\n", run, strerror(errno));
	_exit(127);
}

/* The last line of @path, for a FAILED line. */
static void last_line(const char *path, char *buf, size_t len)
{
	char *t = read_file(path, NULL), *e, *s;

	buf[0] = '\0';
	if (!t)
		return;
	e = t + strlen(t);
	while (e > t && e[-1] == '\n')
		*--e = '\0';
	s = strrchr(t, '\n');
	snprintf(buf, len, "%s", s ? s + 1 : t);
	free(t);
}

/* The cell's end, as the last line of its log: "emrcu-cells: exit N". */
static void log_status(const char *log, int st)
{
	FILE *f = fopen(log, "a");

	if (!f)
		return;
	if (WIFEXITED(st))
		fprintf(f, "emrcu-cells: exit %d\n", WEXITSTATUS(st));
	else
		fprintf(f, "emrcu-cells: killed by signal %d\n", WTERMSIG(st));
	fclose(f);
}

/* Waits for one running cell; 1 if it failed. */
static int reap(void)
{
	char line[300];
	struct json *r;
	int st, i;
	pid_t pid;

	do
		pid = wait(&st);
	while (pid < 0 && errno == EINTR);
	for (i = 0; i < njobs && jobs[i].pid != pid; i++)
		;
	if (pid < 0 || i == njobs)
		return 0;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		last_line(jobs[i].log, line, sizeof(line));
		say("FAILED: %s %s %s: %s", jobs[i].c->variant, jobs[i].c->mode,
		    jobs[i].c->what, line);
	}
	log_status(jobs[i].log, st);
	r = json_push(record, json_new_obj());
	json_set_str(r, "id", jobs[i].c->id);
	json_set_str(r, "variant", jobs[i].c->variant);
	json_set_str(r, "mode", jobs[i].c->mode);
	json_set(r, "exit_code", WIFEXITED(st) ? json_new_int(WEXITSTATUS(st)) : json_new_null());
	json_set(r, "signal", WIFSIGNALED(st) ? json_new_int(WTERMSIG(st)) : json_new_null());
	json_set_num(r, "wall_s", round((now_s() - jobs[i].t0) * 10) / 10);
	json_set_str(r, "log", jobs[i].log);
	free(jobs[i].log);
	jobs[i] = jobs[njobs - 1];
	njobs--;
	return !WIFEXITED(st) || WEXITSTATUS(st);
}

static int run_cells(const struct cells *cs, const char *decl, const char *rundir,
		     int maxjobs, char **globs, int nglobs)
{
	char *run = runner(), *runs = xasprintf("%s/runs", rundir), *out, err[300];
	size_t dl = strlen(decl);
	struct sigaction sa = { .sa_handler = on_stop };
	size_t i, total = 0, n = 0;
	int failed = 0;

	if (access(run, X_OK)) {
		fprintf(stderr, "emrcu-cells: %s missing: build it with make tools\n", run);
		return 2;
	}
	if (mkdir_p(rundir) || (cs->n && !cs->c[0].outdir[0] && mkdir_p(runs))) {
		fprintf(stderr, "emrcu-cells: %s: %s\n", runs, strerror(errno));
		return 2;
	}
	for (i = 0; i < cs->n; i++)
		total += selected(&cs->c[i], globs, nglobs);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	for (i = 0; i < cs->n && !stopping; i++) {
		const struct cell *c = &cs->c[i];
		int alone = strcmp(c->mode, "deterministic") != 0;

		if (!selected(c, globs, nglobs))
			continue;
		while (njobs && (njobs >= maxjobs || alone))
			failed += reap();
		if (stopping)
			break;
		say("(%zu/%zu) %s %s %s", ++n, total, c->variant, c->mode, c->what);
		jobs[njobs].c = c;
		jobs[njobs].t0 = now_s();
		jobs[njobs].pid = start(run, c, rundir, &jobs[njobs].log);
		if (jobs[njobs].pid < 0) {
			say("FAILED: %s: fork: %s", c->id, strerror(errno));
			free(jobs[njobs].log);
			failed++;
			continue;
		}
		njobs++;
		if (stopping)	/* the signal came while it started */
			kill(jobs[njobs - 1].pid, SIGTERM);
		if (alone)
			failed += reap();
	}
	while (njobs)
		failed += reap();
	free(run);
	free(runs);
	out = dl > 5 && !strcmp(decl + dl - 5, ".conf") ?
		xasprintf("%.*s.json", (int)(dl - 5), decl) : xasprintf("%s.json", decl);
	if (write_json_atomic(out, record, 2, err, sizeof(err)))
		say("warning: no record of the cells: %s", err);
	free(out);
	if (stopping)
		say("stopped by a signal after %zu of %zu cell(s)", n, total);
	else if (failed)
		say("%d of %zu cell(s) failed; see their logs", failed, total);
	return failed || stopping ? 1 : 0;
}

int main(int argc, char **argv)
{
	static struct conf decl;
	const struct kind_ops *k;
	struct cells cs = { 0 };
	char err[600];
	int i, maxjobs = 1, rc, first;
	size_t c;

	if (argc < 3 || (strcmp(argv[1], "list") && strcmp(argv[1], "run")))
		return usage();
	if (conf_load(argv[2], &decl, err, sizeof(err)) ||
	    !(k = cells_kind(&decl, err, sizeof(err))) ||
	    k->plan(&decl, &cs, err, sizeof(err))) {
		fprintf(stderr, "emrcu-cells: %s\n", err);
		return 2;
	}
	if (!strcmp(argv[1], "list")) {
		for (c = 0; c < cs.n; c++)
			if (selected(&cs.c[c], argv + 3, argc - 3))
				printf("%s %s %s\n", cs.c[c].id, cs.c[c].mode, cs.c[c].variant);
		cells_free(&cs);
		return 0;
	}
	if (argc < 4)
		return usage();
	first = 4;
	if (argc > 5 && !strcmp(argv[4], "--jobs")) {
		maxjobs = atoi(argv[5]);
		if (maxjobs < 1 || maxjobs > 64)
			return usage();
		first = 6;
	}
	for (i = first; i < argc; i++)
		if (argv[i][0] == '-')
			return usage();
	record = json_new_arr();
	rc = run_cells(&cs, argv[2], argv[3], maxjobs, argv + first, argc - first);
	json_free(record);
	cells_free(&cs);
	return rc;
}
