// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "load.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "emrcu/json.h"
#include "emrcu/result.h"
#include "emrcu/sysfs.h"

int load_cpus_open(struct load_cpus *c)
{
	char path[128];
	int cpu;

	memset(c, 0, sizeof(*c));
	for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++) {
		long cap, fmax;

		c->freq_fd[cpu] = -1;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
		if (read_long(path, &cap))
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
		if (read_long(path, &fmax) || fmax <= 0)
			return -1;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
		c->freq_fd[cpu] = open(path, O_RDONLY);
		if (c->freq_fd[cpu] < 0)
			return -1;
		c->speed[cpu] = (double)cap / 1024.0 / (double)fmax;
		c->ncpus = cpu + 1;
	}
	return c->ncpus ? 0 : -1;
}

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void ns_to_ts(int64_t ns, struct timespec *ts)
{
	ts->tv_sec = ns / 1000000000;
	ts->tv_nsec = ns % 1000000000;
}

struct load_thread {
	pthread_t th;
	const struct load_cpus *c;
	const struct plan_task *t;
	struct load_task_stats *st;
	int64_t t_start, t_win, t_end;	/* CLOCK_MONOTONIC ns */
	int64_t phase_ns, slice_ns;
	int nphases;
	volatile int *stop;
};

/* Work rate of @cpu now: reference ns per ns. */
double load_rate(const struct load_cpus *c, int cpu)
{
	char buf[32];
	ssize_t n;

	if (cpu < 0 || cpu >= c->ncpus || c->freq_fd[cpu] < 0)
		return 1.0;
	n = pread(c->freq_fd[cpu], buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 1.0;
	buf[n] = '\0';
	return c->speed[cpu] * strtod(buf, NULL);
}

static int phase_at(const struct load_thread *l, int64_t now)
{
	int64_t k;

	if (now < l->t_win)
		return 0;
	k = (now - l->t_win) / l->phase_ns;
	return k >= l->nphases ? l->nphases - 1 : (int)k;
}

/* Do @target reference ns of work.  Returns the reference ns done. */
static double do_work(struct load_thread *l, double target)
{
	double done = 0;

	while (done < target && !*l->stop) {
		int cpu = sched_getcpu();
		double r = load_rate(l->c, cpu);
		int64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), c1;
		int64_t w0 = clock_ns(CLOCK_MONOTONIC), w1 = w0;
		int64_t want = (int64_t)((target - done) / r) + 1;

		if (want > l->slice_ns)
			want = l->slice_ns;
		while (w1 - w0 < want)
			w1 = clock_ns(CLOCK_MONOTONIC);
		c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		done += (double)(c1 - c0) * r;
		if (w0 >= l->t_win && w1 <= l->t_end && cpu >= 0 &&
		    cpu < EMRCU_MAX_CPUS) {
			l->st->busy_ns[cpu] += (uint64_t)(c1 - c0);
			l->st->work_ns += (double)(c1 - c0) * r;
			l->st->phase_cpu_work_ns[phase_at(l, w0)][cpu] +=
				(double)(c1 - c0) * r;
		}
	}
	return done;
}

static void *task_fn(void *arg)
{
	struct load_thread *l = arg;
	const struct plan_task *t = l->t;
	int64_t period = (int64_t)t->period_us * 1000, next = l->t_start;
	double carry = 0;	/* reference ns done beyond what was due */
	struct timespec ts;

	if (t->comm[0] && prctl(PR_SET_NAME, t->comm))
		return (void *)1;
	if (t->cpus) {
		cpu_set_t set;
		int cpu;

		CPU_ZERO(&set);
		for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++)
			if (t->cpus & (1ULL << cpu))
				CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return (void *)1;
	}
	while (!*l->stop) {
		int64_t now = clock_ns(CLOCK_MONOTONIC);
		int ph = phase_at(l, now);
		int nph = t->nphases;
		double u = t->util[ph < nph ? ph : nph - 1];
		double target = u / 100.0 * (double)period;
		int counted = now >= l->t_win && now < l->t_end;

		if (counted) {
			l->st->periods++;
			l->st->expected_ns += target;
		}
		/* a late slice's surplus is owed back by the next periods */
		carry += (target > carry ? do_work(l, target - carry) : 0) - target;
		next += period;
		now = clock_ns(CLOCK_MONOTONIC);
		if (next < now) {
			if (counted)
				l->st->missed++;
			next = now;
		}
		ns_to_ts(next, &ts);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	return NULL;
}

static void sleep_until(int64_t t)
{
	struct timespec ts;

	ns_to_ts(t, &ts);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int load_run(const struct load_cpus *c, const struct plan_step *s,
	     long warmup_ms, long phase_ms, long slice_us,
	     void (*window_start)(void *), void (*window_end)(void *),
	     void *arg, struct load_task_stats *st, uint64_t *window_ns)
{
	static struct load_thread th[PLAN_MAX_TASKS];
	volatile int stop = 0;
	int nph = plan_step_phases(s), i, started = 0, ret = 0;
	int64_t now = clock_ns(CLOCK_MONOTONIC), t_win, t_end;

	t_win = now + (int64_t)warmup_ms * 1000000;
	t_end = t_win + (int64_t)nph * phase_ms * 1000000;
	memset(st, 0, sizeof(*st) * (size_t)s->ntasks);
	for (i = 0; i < s->ntasks; i++) {
		th[i] = (struct load_thread) {
			.c = c, .t = &s->task[i], .st = &st[i],
			.t_start = now, .t_win = t_win, .t_end = t_end,
			.phase_ns = (int64_t)phase_ms * 1000000,
			.slice_ns = (int64_t)slice_us * 1000,
			.nphases = nph, .stop = &stop,
		};
		if (pthread_create(&th[i].th, NULL, task_fn, &th[i])) {
			ret = -1;
			break;
		}
		started++;
	}
	if (!ret) {
		sleep_until(t_win);
		window_start(arg);
		sleep_until(t_end);
		window_end(arg);
	}
	stop = 1;
	for (i = 0; i < started; i++) {
		void *rv;

		pthread_join(th[i].th, &rv);
		if (rv)
			ret = -1;
	}
	*window_ns = (uint64_t)(t_end - t_win);
	return ret;
}

void load_print_json(FILE *f, const struct plan_step *s,
		     const struct load_task_stats *st, int ncpus,
		     uint64_t window_ns, const char *engine)
{
	int i, j, cpu, nph = plan_step_phases(s);

	fprintf(f, "{\"engine\":\"%s\",\"window_ns\":%llu,\"phases\":%d,\"tasks\":[",
		engine, (unsigned long long)window_ns, nph);
	for (i = 0; i < s->ntasks; i++) {
		const struct plan_task *t = &s->task[i];

		fprintf(f, "%s\n{\"name\":", i ? "," : "");
		json_fput_str(f, t->name);
		fprintf(f, ",\"period_us\":%ld,\"util_pct\":[", t->period_us);
		for (j = 0; j < t->nphases; j++)
			fprintf(f, "%s%g", j ? "," : "", t->util[j]);
		fputs("],\"pinned\":", f);
		cpulist_fput_json(f, t->cpus);
		fprintf(f, ",\"periods\":%ld,\"missed\":%ld,\"work_ns\":%.0f,\"expected_ns\":%.0f,\"busy_ns\":[",
			st[i].periods, st[i].missed, st[i].work_ns,
			st[i].expected_ns);
		for (cpu = 0; cpu < ncpus; cpu++)
			fprintf(f, "%s%llu", cpu ? "," : "",
				(unsigned long long)st[i].busy_ns[cpu]);
		fputs("],\"phase_work_ns\":[", f);
		for (j = 0; j < nph; j++) {
			double w = 0;

			for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++)
				w += st[i].phase_cpu_work_ns[j][cpu];
			fprintf(f, "%s%.0f", j ? "," : "", w);
		}
		fputs("],\"phase_cpu_work_ns\":[", f);
		for (j = 0; j < nph; j++) {
			fputs(j ? ",[" : "[", f);
			for (cpu = 0; cpu < ncpus; cpu++)
				fprintf(f, "%s%.0f", cpu ? "," : "",
					st[i].phase_cpu_work_ns[j][cpu]);
			fputc(']', f);
		}
		fputs("]}", f);
	}
	fputs("]}", f);
}
