// SPDX-License-Identifier: GPL-2.0
#include "planwrite.h"

#include <string.h>

#include "latency.h"
#include "model.h"
#include "workload.h"

void rank_cpulist(const struct topo *t, int rank, char *out, size_t len)
{
	int k = scen_cluster_of_rank(t, rank), first = 0, i;

	for (i = 0; i < k; i++)
		first += t->c[i].ncpus;
	if (t->c[k].ncpus == 1)
		snprintf(out, len, "%d", first);
	else
		snprintf(out, len, "%d-%d", first, first + t->c[k].ncpus - 1);
}

static void write_tasks(FILE *f, const struct scenario *s,
			const struct scen_workload *w)
{
	char cpus[32];
	int i, j;

	for (i = 0; i < w->ntasks; i++) {
		const struct scen_task *t = &w->t[i];

		fprintf(f, "task %s %d ", t->name, t->period_us);
		for (j = 0; j < t->nphases; j++)
			fprintf(f, "%s%g", j ? "," : "", t->util[j]);
		if (t->cluster >= 0) {
			rank_cpulist(&s->topo, t->cluster, cpus, sizeof(cpus));
			fprintf(f, " %s", cpus);
		} else {
			fputs(" -", f);
		}
		if (t->profile >= 0)
			fprintf(f, " %s", model_task_comm(t->profile));
		fputc('\n', f);
	}
}

static void write_step(FILE *f, const struct scenario *s, const char *label,
		       const struct scen_cond *c, const struct scen_workload *w)
{
	fprintf(f, "phase_ms %d\nstep %s %d %s %d\n", workload_phase_ms(s, w),
		label, c->temp_mc, c->profile, c->bin_mv);
	if (s->engine == ENGINE_RTAPP) {
		fputs("rtapp ", f);
		fprintf(f, GUEST_RTAPP_FMT, label);
		fputc('\n', f);
	}
}

int plan_write(FILE *f, const struct scenario *s, const struct scen_run *r)
{
	int i;

	/*
	 * What the guest does to the EM: push the truth at every step (the
	 * oracle without heat), a pilot pass then the truth at its mean
	 * temperatures (best-static), or nothing (static; with heat the
	 * platform's EM driver updates it: runtime@P, oracle).
	 */
	const char *em = r->em == EM_BEST_STATIC ? "best-static" :
			 r->em == EM_ORACLE && !s->heat ? "push" : "static";

	fprintf(f, "# %s (%s), run %s:%s\n", s->name, s->path, r->variant,
		r->em_name);
	fprintf(f, "em %s\nwarmup_ms %d\nslice_us %d\n", em, s->warmup_ms,
		s->slice_us);
	if (s->heat) {
		fputs("heat", f);
		for (i = 0; i < s->nheat; i++)
			fprintf(f, "%c%d:%d", i ? ',' : ' ', s->heat_ms[i], s->heat_mw[i]);
		fputc('\n', f);
	}
	if (s->kind == KIND_ENERGY) {
		for (i = 0; i < s->nsteps; i++) {
			write_step(f, s, s->step[i].label, &s->step[i], &s->w[0]);
			write_tasks(f, s, &s->w[0]);
		}
	} else {
		for (i = 0; i < s->nworkloads; i++) {
			write_step(f, s, s->w[i].name, &s->step[0], &s->w[i]);
			write_tasks(f, s, &s->w[i]);
		}
	}
	return ferror(f) ? -1 : 0;
}

static void lat_cmd(FILE *f, const struct scenario *s, int runtime_em)
{
	const struct scen_latency *l = &s->lat;
	char label[32];
	int i;

	fprintf(f, "N=$(nproc)\n");
	if (!strcmp(l->readers, "last"))
		fprintf(f, "READERS=$((N - 1))\n");
	else
		fprintf(f, "READERS=%s\n", l->readers);
	/* The block is printed once the load module is done: its own printk
	 * block must not interleave with ours on the console. */
	fprintf(f, "run_lat() {\n"
		"\tcyclictest -q -m -S -p %d -i %d -h %d -D %d --json=/tmp/lat-$1.json\n}\n"
		"print_lat() {\n"
		"\techo \"EMRCU-RESULT-BEGIN lat-$1.json\"\n\tcat /tmp/lat-$1.json\n"
		"\techo\n\techo \"EMRCU-RESULT-END lat-$1.json\"\n}\n",
		l->priority, l->interval_us, l->hist_us, l->duration_s);
	for (i = 0; i < l->nloads; i++) {
		int hz = l->load_hz[i];

		lat_label(hz, label, sizeof(label));
		fprintf(f, "echo 'emrcu-scenario: step %d/%d %s' >&2\n", i + 1,
			l->nloads, label);
		if (!hz) {
			fprintf(f, "run_lat %s || exit 1\nprint_lat %s\n", label, label);
			continue;
		}
		/*
		 * Same readers and updater thread on every kernel; without the
		 * runtime EM the updater wakes at the same rate and skips the
		 * update (em_bench null_update): the control.
		 */
		fprintf(f, "insmod %s readers=$READERS loops=%d nruns=1000 warmup=10 update_hz=%d null_update=%d spread_ms=%d mode_hint=%s &\n",
			GUEST_EM_BENCH, l->loops, hz, !runtime_em,
			l->duration_s * 1000 + 2000, s->mode);
		fprintf(f, "P=$!\nsleep 1\nrun_lat %s || exit 1\nwait $P || exit 1\nrmmod em_bench || exit 1\nprint_lat %s\n",
			label, label);
	}
}

int cmd_write(FILE *f, const struct scenario *s, const struct scen_run *r,
	      int runtime_em)
{
	fprintf(f, "# %s, run %s:%s (written by scenarios/emrcu-scenario)\n",
		s->name, r->variant, r->em_name);
	if (s->kind == KIND_LATENCY) {
		lat_cmd(f, s, runtime_em);
	} else {
		if (s->kind == KIND_ENERGY)
			fputs("emrcu-guest-check\n", f);
		else
			fputs("emrcu-guest-check --expect-eas || { echo 'emrcu-scenario: EAS did not start' >&2; exit 3; }\n",
			      f);
		fprintf(f, "emrcu-scen-guest %s\n", GUEST_PLAN);
	}
	return ferror(f) ? -1 : 0;
}
