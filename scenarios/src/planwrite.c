// SPDX-License-Identifier: GPL-2.0
#include "planwrite.h"

#include <string.h>

#include "derive.h"
#include "kind.h"
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
	for (i = 0; i < scen_nsteps(s); i++) {
		write_step(f, s, step_label(s, i), step_cond(s, i),
			   step_workload(s, i));
		write_tasks(f, s, step_workload(s, i));
	}
	return ferror(f) ? -1 : 0;
}

void guest_check_cmd(FILE *f, const struct scenario *s)
{
	if (s->kind->needs_eas)
		fputs("emrcu-guest-check --expect-eas || { echo 'emrcu-scenario: EAS did not start' >&2; exit 3; }\n",
		      f);
	else
		fputs("emrcu-guest-check\n", f);
}

int load_cmd(FILE *f, const struct scenario *s, const struct scen_run *r,
	     int runtime_em)
{
	(void)r;
	(void)runtime_em;
	guest_check_cmd(f, s);
	fprintf(f, "emrcu-scen-guest %s\n", GUEST_PLAN);
	return 0;
}

int cmd_write(FILE *f, const struct scenario *s, const struct scen_run *r,
	      int runtime_em)
{
	fprintf(f, "# %s, run %s:%s (written by scenarios/emrcu-scenario)\n",
		s->name, r->variant, r->em_name);
	if (s->kind->cmd(f, s, r, runtime_em))
		return -1;
	return ferror(f) ? -1 : 0;
}
