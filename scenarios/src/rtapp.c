// SPDX-License-Identifier: GPL-2.0
#include "rtapp.h"

#include <math.h>

#include "workload.h"

static void task_cpus(FILE *f, const struct scenario *s, const struct scen_task *t)
{
	int k = scen_cluster_of_rank(&s->topo, t->cluster), first = 0, i;

	for (i = 0; i < k; i++)
		first += s->topo.c[i].ncpus;
	fputs(", \"cpus\": [", f);
	for (i = 0; i < s->topo.c[k].ncpus; i++)
		fprintf(f, "%s%d", i ? ", " : "", first + i);
	fputc(']', f);
}

int rtapp_write(FILE *f, const struct scenario *s, const struct scen_workload *w)
{
	int nph = workload_phases(w), phase_ms = workload_phase_ms(s, w), i, ph;
	/* rt-app stops at its duration; the guest ends it after the window */
	int duration = (int)ceil((s->warmup_ms + (double)nph * phase_ms) / 1000) + 5;

	fprintf(f, "{\n  \"global\": {\"duration\": %d, \"calibration\": %d, \"default_policy\": \"SCHED_OTHER\", \"logdir\": \"/tmp\", \"log_basename\": \"rt-app\", \"lock_pages\": false, \"ftrace\": false},\n  \"tasks\": {",
		duration, RTAPP_CALIBRATION_NS);
	for (i = 0; i < w->ntasks; i++) {
		const struct scen_task *t = &w->t[i];

		fprintf(f, "%s\n    \"%s\": {\"loop\": 1", i ? "," : "", t->name);
		if (t->cluster >= 0)
			task_cpus(f, s, t);
		fputs(", \"phases\": {", f);
		for (ph = 0; ph < nph; ph++) {
			double ms = phase_ms + (ph ? 0 : s->warmup_ms);
			long loops = (long)ceil(ms * 1000 / t->period_us);
			long run = lround(task_util(t, ph) / 100 * t->period_us);

			if (ph == nph - 1)
				loops += 5000000 / t->period_us;	/* past the end */
			fprintf(f, "%s\n      \"p%d\": {\"loop\": %ld, \"runtime\": %ld, \"timer\": {\"ref\": \"%s\", \"period\": %d}}",
				ph ? "," : "", ph, loops, run > 0 ? run : 1, t->name,
				t->period_us);
		}
		fputs("}}", f);
	}
	fputs("\n  }\n}\n", f);
	return ferror(f) ? -1 : 0;
}
