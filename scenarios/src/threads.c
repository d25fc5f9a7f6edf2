// SPDX-License-Identifier: GPL-2.0
/* threads.c - who ran around a load's window (threads.h). */
#include "threads.h"

#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "judge.h"
#include "latency.h"

/*
 * Thread name prefix -> class, the first that matches.  Only threads free
 * to move reach select_task_rq_*() on a wakeup (rcu_sched, rt-app's, the
 * shell); those bound to one CPU (em_bench's updater and readers,
 * ksoftirqd/N, per-CPU kworkers) are woken where they are.
 */
static const char *const classes[THR_CLASSES][2] = {
	{ "rcu_", "rcu" }, { "ksoftirqd", "ksoftirqd" }, { "em_bench_u", "updater" },
	{ "em_bench_r", "readers" }, { "kworker", "kworker" }, { "", "other" },
};

#define THR_MAX 4096

void thr_prologue(FILE *f)
{
	fprintf(f, "threads() {\n\tawk -v t=$1 'FNR == 1 { n = $1 } /^se.sum_exec_runtime/ { rt = $3 } /^nr_voluntary_switches/ { split(FILENAME, p, \"/\"); print t, p[5], n, $3, rt }' /proc/[0-9]*/task/[0-9]*/sched 2>/dev/null\n}\n");
}

void thr_open(FILE *f)
{
	fprintf(f, "threads B >/tmp/threads.txt\n");
}

void thr_close(FILE *f, const char *label)
{
	fprintf(f, "threads A >>/tmp/threads.txt\n"
		"echo 'EMRCU-RESULT-BEGIN threads-%s.txt'\ncat /tmp/threads.txt\n"
		"echo 'EMRCU-RESULT-END threads-%s.txt'\n", label, label);
}

static int classify(const char *name)
{
	int c;

	for (c = 0; c < THR_CLASSES - 1; c++)
		if (!strncmp(name, classes[c][0], strlen(classes[c][0])))
			break;
	return c;
}

int thr_derive(const char *dir, const char *label, struct metrics *ms,
	       char *err, size_t errlen)
{
	static struct { long tid; double sw, ms; } b[THR_MAX];
	double sw[THR_CLASSES] = { 0 }, cpu[THR_CLASSES] = { 0 }, n, rt;
	char path[600], t, name[64], m[64];
	size_t nb = 0, i;
	int c, seen = 0, ret = 0;
	long tid;
	FILE *f;

	snprintf(path, sizeof(path), "%s/threads-%s.txt", dir, label);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "load %s: no %s", label, path);
		return -1;
	}
	while (fscanf(f, " %c %ld %63s %lf %lf", &t, &tid, name, &n, &rt) == 5) {
		double sw0 = 0, ms0 = 0;

		if (t == 'B') {
			if (nb < THR_MAX) {
				b[nb].tid = tid;
				b[nb].sw = n;
				b[nb++].ms = rt;
			}
			continue;
		}
		for (i = 0; i < nb; i++)
			if (b[i].tid == tid) {
				sw0 = b[i].sw;
				ms0 = b[i].ms;
			}
		c = classify(name);
		sw[c] += n - sw0;
		cpu[c] += rt - ms0;
		seen++;
	}
	fclose(f);
	if (!nb || !seen) {
		snprintf(err, errlen, "load %s: %s: no before and after snapshot (CONFIG_SCHED_DEBUG?)",
			 label, path);
		return -1;
	}
	for (c = 0; c < THR_CLASSES; c++) {
		snprintf(m, sizeof(m), "vcsw_%s", classes[c][1]);
		ret |= step_add(ms, m, label, "switches", "none", -1, sw[c]);
		snprintf(m, sizeof(m), "cpu_ms_%s", classes[c][1]);
		ret |= step_add(ms, m, label, "ms", "none", -1, cpu[c]);
	}
	if (ret)
		snprintf(err, errlen, "too many metrics");
	return ret;
}

void thr_table(struct judge *j, const struct scenario *s,
	       const struct outcome *o, int no)
{
	char label[32], rn[80], m[64];
	int i, r, c, k;

	fprintf(j->txt, "\nwho ran around the window: voluntary switches / CPU ms, by thread\n%-12s %-16s",
		"load", "run");
	for (c = 0; c < THR_CLASSES; c++)
		fprintf(j->txt, " %18s", classes[c][1]);
	fputc('\n', j->txt);
	for (i = 0; i < s->lat.nloads; i++) {
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		for (r = 0; r < s->nruns; r++) {
			scen_run_name(s, r, rn, sizeof(rn));
			fprintf(j->txt, "%-12s %-16s", label, rn);
			for (c = 0; c < THR_CLASSES; c++) {
				double v[2];

				for (k = 0; k < 2; k++) {
					snprintf(m, sizeof(m), "%s_%s", k ? "cpu_ms" : "vcsw",
						 classes[c][1]);
					v[k] = pool_step(o, no, r, m, label, -1).median;
				}
				fprintf(j->txt, " %9.0f/%8.2f", v[0], v[1]);
			}
			fputc('\n', j->txt);
		}
	}
}
