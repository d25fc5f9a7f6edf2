// SPDX-License-Identifier: GPL-2.0
#include "rtapp.h"

#include <math.h>

#include "emrcu/json.h"

#include "workload.h"

/* The CPUs of the cluster of capacity rank @t->cluster. */
static struct json *task_cpus(const struct scenario *s, const struct scen_task *t)
{
	int k = scen_cluster_of_rank(&s->topo, t->cluster), first = 0, i;
	struct json *a = json_new_arr();

	for (i = 0; i < k; i++)
		first += s->topo.c[i].ncpus;
	for (i = 0; i < s->topo.c[k].ncpus; i++)
		json_push(a, json_new_int(first + i));
	return a;
}

int rtapp_write(FILE *f, const struct scenario *s, const struct scen_workload *w)
{
	int nph = workload_phases(w), phase_ms = workload_phase_ms(s, w), i, ph, rc;
	/* rt-app stops at its duration; the guest ends it after the window */
	int duration = (int)ceil((s->warmup_ms + (double)nph * phase_ms) / 1000) + 5;
	struct json *root = json_new_obj(), *g, *tasks;

	g = json_set(root, "global", json_new_obj());
	json_set_int(g, "duration", duration);
	json_set_int(g, "calibration", RTAPP_CALIBRATION_NS);
	json_set_str(g, "default_policy", "SCHED_OTHER");
	json_set_str(g, "logdir", "/tmp");
	json_set_str(g, "log_basename", "rt-app");
	json_set_bool(g, "lock_pages", 0);
	json_set_bool(g, "ftrace", 0);
	tasks = json_set(root, "tasks", json_new_obj());
	for (i = 0; i < w->ntasks; i++) {
		const struct scen_task *t = &w->t[i];
		struct json *task = json_set(tasks, t->name, json_new_obj()), *phases;

		json_set_int(task, "loop", 1);
		if (t->cluster >= 0)
			json_set(task, "cpus", task_cpus(s, t));
		phases = json_set(task, "phases", json_new_obj());
		for (ph = 0; ph < nph; ph++) {
			double ms = phase_ms + (ph ? 0 : s->warmup_ms);
			long loops = (long)ceil(ms * 1000 / t->period_us);
			long run = lround(task_util(t, ph) / 100 * t->period_us);
			struct json *p, *timer;
			char name[16];

			if (ph == nph - 1)
				loops += 5000000 / t->period_us;	/* past the end */
			snprintf(name, sizeof(name), "p%d", ph);
			p = json_set(phases, name, json_new_obj());
			json_set_int(p, "loop", loops);
			json_set_int(p, "runtime", run > 0 ? run : 1);
			timer = json_set(p, "timer", json_new_obj());
			json_set_str(timer, "ref", t->name);
			json_set_int(timer, "period", t->period_us);
		}
	}
	rc = json_write(f, root, 2);
	json_free(root);
	return rc || ferror(f) ? -1 : 0;
}
