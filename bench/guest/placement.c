// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu-guest-placement: EAS placement smoke test.
 *
 *   phase "small": a periodic task (busy busy_us every period_us) must wake
 *                  up on the lowest-capacity CPUs;
 *   phase "big":   an always-running task (does not fit the lowest CPUs)
 *                  must run on the highest-capacity CPUs.
 * Each task records sched_getcpu() (the CPU field of /proc/self/stat) at
 * every wake-up (small) or every sample_us (big), after a warm-up.  A phase
 * passes when at least min_pct % of its samples are on its target CPUs.
 * EAS must have started (kernel log), else the test fails.
 *
 *   emrcu-guest-placement [--name NAME] [--seconds S] [--warmup S]
 *                         [--period-us N] [--busy-us N] [--min-pct P]
 * Exit 0 when both phases pass, 1 otherwise, 2 on usage/setup errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/result.h"
#include "emrcu/sysfs.h"
#include "kmsg.h"
#include "cputopo.h"

/* Every constant of the test, printed into its result. */
struct opts {
	const char *name;
	double seconds;		/* measured time per phase */
	double warmup;		/* ignored time at the start of a phase */
	long period_us;		/* small task period */
	long busy_us;		/* small task busy time per period */
	long sample_us;		/* big task sampling interval */
	double min_pct;		/* pass threshold */
};

static const struct opts defaults = {
	.name = "placement.json",
	.seconds = 2.0,
	.warmup = 1.0,
	.period_us = 16000,
	.busy_us = 1000,
	.sample_us = 1000,
	.min_pct = 90.0,
};

struct samples {
	long per_cpu[EMRCU_MAX_CPUS];
	long total;
	long bad_cpu;		/* sched_getcpu() failed or out of range */
};

static void record(struct samples *s)
{
	int cpu = sched_getcpu();

	if (cpu < 0 || cpu >= EMRCU_MAX_CPUS) {
		s->bad_cpu++;
		return;
	}
	s->per_cpu[cpu]++;
	s->total++;
}

static void spin_until(double t)
{
	while (now_s() < t)
		;
}

static void run_small(struct samples *s, const struct opts *o)
{
	struct timespec next;
	double t0 = now_s(), end = t0 + o->warmup + o->seconds;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (now_s() < end) {
		if (now_s() >= t0 + o->warmup)
			record(s);
		spin_until(now_s() + (double)o->busy_us * 1e-6);
		next.tv_nsec += o->period_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
}

static void run_big(struct samples *s, const struct opts *o)
{
	double t0 = now_s(), end = t0 + o->warmup + o->seconds, t;

	for (t = now_s(); t < end; t = now_s()) {
		spin_until(t + (double)o->sample_us * 1e-6);
		if (now_s() >= t0 + o->warmup)
			record(s);
	}
}

/* Run one phase in a child process; its samples come back in shared memory. */
static int run_phase(struct samples *out, const struct opts *o, int big)
{
	struct samples *sh;
	int status;
	pid_t pid;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return -1;
	memset(sh, 0, sizeof(*sh));
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (big)
			run_big(sh, o);
		else
			run_small(sh, o);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	*out = *sh;
	munmap(sh, sizeof(*sh));
	return 0;
}

static double on_target_pct(const struct samples *s, uint64_t target)
{
	long on = 0;
	int cpu;

	for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++)
		if (target & (1ULL << cpu))
			on += s->per_cpu[cpu];
	return s->total ? 100.0 * (double)on / (double)s->total : 0.0;
}

static int print_phase(FILE *f, const char *key, const struct samples *s,
		       const char *target_name, uint64_t target, double min_pct,
		       int ncpu)
{
	double pct = on_target_pct(s, target);
	int pass = s->total > 0 && pct >= min_pct;
	int cpu;

	fprintf(f, "\"%s\":{\"target\":\"%s\",\"target_cpus\":", key, target_name);
	cpulist_fput_json(f, target);
	fprintf(f, ",\"samples\":%ld,\"bad_cpu\":%ld,\"per_cpu\":[", s->total,
		s->bad_cpu);
	for (cpu = 0; cpu < ncpu; cpu++)
		fprintf(f, "%s%ld", cpu ? "," : "", s->per_cpu[cpu]);
	fprintf(f, "],\"on_target_pct\":%.1f,\"pass\":%s}", pct,
		pass ? "true" : "false");
	return pass;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	int i;

	*o = defaults;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			return -1;
		if (!strcmp(a, "--name"))
			o->name = v;
		else if (!strcmp(a, "--seconds"))
			o->seconds = atof(v);
		else if (!strcmp(a, "--warmup"))
			o->warmup = atof(v);
		else if (!strcmp(a, "--period-us"))
			o->period_us = atol(v);
		else if (!strcmp(a, "--busy-us"))
			o->busy_us = atol(v);
		else if (!strcmp(a, "--min-pct"))
			o->min_pct = atof(v);
		else
			return -1;
		i++;
	}
	if (o->seconds <= 0 || o->warmup < 0 || o->period_us <= 0 ||
	    o->busy_us <= 0 || o->busy_us >= o->period_us ||
	    o->min_pct < 0 || o->min_pct > 100)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct samples small, big;
	struct eas_state eas = { 0 };
	uint64_t low, high;
	struct opts o;
	struct topo t;
	int pass, ncpu;
	FILE *f = stdout;

	if (parse_args(argc, argv, &o)) {
		fprintf(stderr, "usage: %s [--name NAME] [--seconds S] [--warmup S] [--period-us N] [--busy-us N] [--min-pct P]\n",
			argv[0]);
		return 2;
	}
	if (topo_read(&t)) {
		fprintf(stderr, "emrcu-guest-placement: cannot read the topology\n");
		return 2;
	}
	eas_scan_kmsg(&eas);
	low = topo_lowest(&t);
	high = topo_highest(&t);
	for (ncpu = EMRCU_MAX_CPUS; ncpu > 0 && !(t.online & (1ULL << (ncpu - 1))); ncpu--)
		;
	if (run_phase(&small, &o, 0) || run_phase(&big, &o, 1)) {
		fprintf(stderr, "emrcu-guest-placement: a phase failed to run\n");
		return 2;
	}

	result_begin(f, o.name);
	fprintf(f, "{\"params\":{\"seconds\":%.3f,\"warmup\":%.3f,\"period_us\":%ld,\"busy_us\":%ld,\"sample_us\":%ld,\"min_pct\":%.1f},",
		o.seconds, o.warmup, o.period_us, o.busy_us, o.sample_us,
		o.min_pct);
	fprintf(f, "\"eas_started\":%s,\"asymmetric\":%s,", eas.started ? "true" : "false",
		low != high ? "true" : "false");
	pass = eas.started && low != high;
	pass &= print_phase(f, "small", &small, "lowest", low, o.min_pct, ncpu);
	fputc(',', f);
	pass &= print_phase(f, "big", &big, "highest", high, o.min_pct, ncpu);
	fprintf(f, ",\"pass\":%s}", pass ? "true" : "false");
	result_end(f, o.name);
	return pass ? 0 : 1;
}
