// SPDX-License-Identifier: GPL-2.0
/* The rt-app engine (load.h): rt-app runs the tasks, we watch its threads. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emrcu/fs.h"
#include "load.h"
#include "plat.h"

#define MAX_TIDS 64

struct tid_state {
	int tid, task;		/* task: index into the step, -1: not ours */
	unsigned long long cpu_ns;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_ns(long long ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	while (ns > 0 && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* comm and last CPU of a thread (stat), its CPU time (schedstat). */
static int thread_read(int pid, int tid, char *comm, size_t len, int *cpu,
		       unsigned long long *ns)
{
	char path[96], *t, *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	t = read_file(path, NULL);
	if (!t)
		return -1;
	p = strrchr(t, ')');
	if (!p || !strchr(t, '(')) {
		free(t);
		return -1;
	}
	*p = '\0';
	snprintf(comm, len, "%s", strchr(t, '(') + 1);
	/* field 39 (processor): 37 fields after the state, field 3 */
	for (i = 0, p += 2; i < 36 && p; i++)
		p = strchr(p + 1, ' ');
	*cpu = p ? atoi(p + 1) : -1;
	free(t);
	/* CONFIG_SCHED_DEBUG: se.sum_exec_runtime, ms with ns resolution */
	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", pid, tid);
	t = read_file(path, NULL);
	if (!t)
		return -1;
	p = strstr(t, "se.sum_exec_runtime");
	p = p ? strchr(p, ':') : NULL;
	*ns = p ? (unsigned long long)(strtod(p + 1, NULL) * 1e6) : 0;
	free(t);
	return p ? 0 : -1;
}

/* Which task a thread name belongs to (rt-app names threads after them,
 * truncated to 15 characters), or -1. */
static int task_of(const struct plan_step *s, const char *comm)
{
	int i;

	for (i = 0; i < s->ntasks; i++)
		if (!strncmp(s->task[i].name, comm, 15) && strlen(comm) <= 15 &&
		    !strncmp(comm, s->task[i].name, strlen(comm)))
			return i;
	return -1;
}

static int sample(const struct load_cpus *c, const struct plan_step *s,
		  int pid, struct tid_state *ts, int *nts, int counting,
		  int phase, struct load_task_stats *st)
{
	char path[64], comm[64];
	struct dirent *d;
	DIR *dp;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dp = opendir(path);
	if (!dp)
		return -1;
	while ((d = readdir(dp))) {
		unsigned long long ns;
		int tid = atoi(d->d_name), cpu, i;

		if (tid <= 0 || thread_read(pid, tid, comm, sizeof(comm), &cpu, &ns))
			continue;
		for (i = 0; i < *nts && ts[i].tid != tid; i++)
			;
		if (i == *nts) {
			if (*nts == MAX_TIDS)
				continue;
			ts[i] = (struct tid_state){ tid, task_of(s, comm), ns };
			(*nts)++;
			continue;
		}
		if (ts[i].task < 0)	/* named after creation: look again */
			ts[i].task = task_of(s, comm);
		if (counting && ts[i].task >= 0 && cpu >= 0 && cpu < EMRCU_MAX_CPUS) {
			struct load_task_stats *t = &st[ts[i].task];
			double dt = (double)(ns - ts[i].cpu_ns);

			t->busy_ns[cpu] += ns - ts[i].cpu_ns;
			t->work_ns += dt * load_rate(c, cpu);
			t->phase_cpu_work_ns[phase][cpu] += dt * load_rate(c, cpu);
		}
		ts[i].cpu_ns = ns;
	}
	closedir(dp);
	return 0;
}

int rtapp_run(const struct load_cpus *c, const struct plan_step *s,
	      long warmup_ms, long phase_ms,
	      void (*window_start)(void *), void (*window_end)(void *),
	      void *arg, struct load_task_stats *st, uint64_t *window_ns)
{
	static struct tid_state ts[MAX_TIDS];
	int nph = plan_step_phases(s), nts = 0, status, i, ph, ret = 0;
	long long t0 = now_ns(), t_win, t_end, t;
	pid_t pid;

	memset(st, 0, sizeof(*st) * (size_t)s->ntasks);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execlp("rt-app", "rt-app", s->rtapp, (char *)NULL);
		_exit(127);
	}
	t_win = t0 + warmup_ms * 1000000LL;
	t_end = t_win + nph * phase_ms * 1000000LL;
	while ((t = now_ns()) < t_win) {
		sample(c, s, pid, ts, &nts, 0, 0, st);
		sleep_ns(RTAPP_SAMPLE_MS * 1000000LL);
	}
	window_start(arg);
	sample(c, s, pid, ts, &nts, 0, 0, st);
	while ((t = now_ns()) < t_end) {
		sleep_ns(RTAPP_SAMPLE_MS * 1000000LL);
		if (waitpid(pid, &status, WNOHANG) == pid) {
			fprintf(stderr, "emrcu-scen-guest: rt-app %s ended early (status %d)\n",
				s->rtapp, status);
			return -1;
		}
		ph = (int)((now_ns() - t_win) / (phase_ms * 1000000LL));
		sample(c, s, pid, ts, &nts, 1, ph < nph ? ph : nph - 1, st);
	}
	window_end(arg);
	kill(pid, SIGTERM);
	if (waitpid(pid, &status, 0) != pid)
		ret = -1;
	for (i = 0; i < s->ntasks; i++)
		st[i].expected_ns = 0;
	for (i = 0; i < s->ntasks; i++) {
		for (ph = 0; ph < nph; ph++) {
			const struct plan_task *pt = &s->task[i];
			double u = pt->util[ph < pt->nphases ? ph : pt->nphases - 1];

			st[i].expected_ns += u / 100 * (double)phase_ms * 1e6;
		}
	}
	*window_ns = (uint64_t)(t_end - t_win);
	return ret;
}
