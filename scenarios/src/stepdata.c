// SPDX-License-Identifier: GPL-2.0
#include "stepdata.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "emrcu/json.h"

struct blocks {
	struct json *params, *power, *em, *meter, *tasks, *thermal, *driver;
};

static double num(const struct json *j)
{
	double v = NAN;

	json_num(j, &v);
	return v;
}

static struct json *load(const char *dir, const char *name, char *err,
			 size_t errlen)
{
	char path[600];
	struct json_err je;
	struct json *j;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	j = json_parse_file(path, &je);
	if (!j)
		snprintf(err, errlen, "%s: %s", path, je.msg);
	return j;
}

static int exists(const char *dir, const char *name)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, R_OK);
}

static void blocks_free(struct blocks *b)
{
	json_free(b->params);
	json_free(b->power);
	json_free(b->em);
	json_free(b->meter);
	json_free(b->tasks);
	json_free(b->thermal);
	json_free(b->driver);
}

/*
 * Cluster model k: capacity (params), true power (power), EM (the power
 * block's em_uw: the kernel's table when the window started, read back by
 * the platform; older recordings: the em block).
 */
static int model_cluster(const struct blocks *b, int k, struct opt_cluster *c,
			 char *err, size_t errlen)
{
	const struct json *pc = json_at(json_get(b->params, "clusters"), (size_t)k);
	const struct json *wc = json_at(json_get(b->power, "clusters"), (size_t)k);
	const struct json *cpus = json_get(pc, "cpus"), *pds = json_get(b->em, "pds");
	const struct json *khz = json_get(wc, "khz"), *pd = NULL;
	size_t i, j, n = json_len(khz);
	double first = num(json_at(cpus, 0));

	if (!pc || !wc || !n || n > OPT_MAX_OPPS || !json_len(cpus)) {
		snprintf(err, errlen, "cluster %d: missing from params/power", k);
		return -1;
	}
	for (i = 0; i < json_len(pds); i++) {
		const struct json *pcpus = json_get(json_at(pds, i), "cpus");

		for (j = 0; j < json_len(pcpus); j++)
			if (num(json_at(pcpus, j)) == first)
				pd = json_at(pds, i);
	}
	if (!pd) {
		snprintf(err, errlen, "cluster %d: no EM perf domain with CPU %g", k, first);
		return -1;
	}
	c->ncpus = (int)json_len(cpus);
	c->cap = num(json_get(pc, "capacity"));
	c->nopps = (int)n;
	c->shared_uw = num(json_get(wc, "shared_uw"));
	for (i = 0; i < n; i++) {
		const struct json *ek = json_get(pd, "khz");

		c->khz[i] = num(json_at(khz, i));
		c->busy_uw[i] = num(json_at(json_get(wc, "busy_uw"), i));
		c->idle_uw[i] = num(json_at(json_get(wc, "idle_uw"), i));
		c->em_uw[i] = NAN;
		for (j = 0; j < json_len(ek); j++)
			if (num(json_at(ek, j)) == c->khz[i])
				c->em_uw[i] = num(json_at(json_get(pd, "power_uw"), j));
		/* the kernel's table at the window's start, when recorded */
		if (json_len(json_get(wc, "em_uw")) == n)
			c->em_uw[i] = num(json_at(json_get(wc, "em_uw"), i));
		if (isnan(c->em_uw[i]) || isnan(c->busy_uw[i]) || isnan(c->idle_uw[i])) {
			snprintf(err, errlen, "cluster %d OPP %zu: no EM/true power", k, i);
			return -1;
		}
	}
	return 0;
}

/* Cluster of @cpu (and, with @slot, its index there), or -1. */
static int cpu_place(const struct blocks *b, int cpu, int *slot)
{
	const struct json *cls = json_get(b->params, "clusters");
	size_t k, i;

	for (k = 0; k < json_len(cls); k++) {
		const struct json *cpus = json_get(json_at(cls, k), "cpus");

		for (i = 0; i < json_len(cpus); i++)
			if (num(json_at(cpus, i)) == cpu) {
				if (slot)
					*slot = (int)i;
				return (int)k;
			}
	}
	return -1;
}

static int cluster_of_cpu(const struct blocks *b, int cpu)
{
	return cpu_place(b, cpu, NULL);
}

/*
 * The meter's own busy and EM energies (the truth and the EM in effect,
 * integrated as they changed).  Without heat or driver updates the tables
 * were constant in the window: residency x tables must agree with them.
 */
static void meter_energies(const struct blocks *b, struct stepdata *d)
{
	const struct json *cpus = json_get(b->meter, "cpus");
	double busy = 0, em = 0, check;
	size_t i;

	for (i = 0; i < json_len(cpus); i++) {
		const struct json *c = json_at(cpus, i);
		int k = (int)num(json_get(c, "cluster"));
		double bu = num(json_get(c, "busy_uj")), eu = num(json_get(c, "em_uj"));

		busy += bu;
		em += eu;
		if (k >= 0 && k < SD_MAX_CLUSTERS) {
			d->cl_busy_uj[k] += bu;
			d->cl_em_uj[k] += eu;
		}
	}
	if (!d->heat && !d->drv_updates) {
		check = d->busy_uj > 0 && !d->task_profile_pct ?
			fabs(busy - d->busy_uj) / d->busy_uj : 0;
		d->meter_check = fmax(d->meter_check, check);
		check = d->em_uj > 0 ? fabs(em - d->em_uj) / d->em_uj : 0;
		d->meter_check = fmax(d->meter_check, check);
	} else {
		d->meter_check = 0;	/* tables moved: none to check against */
	}
	d->busy_uj = busy;
	d->em_uj = em;
	d->meter_em = 1;
}

/* LABEL.thermal.json (heat runs). */
static void thermal_block(const struct blocks *b, struct stepdata *d)
{
	const struct json *cl = json_get(b->thermal, "clusters");
	size_t k;

	d->heat = 1;
	for (k = 0; k < json_len(cl) && k < SD_MAX_CLUSTERS; k++) {
		const struct json *c = json_at(cl, k);

		d->die_mean_c[k] = num(json_get(c, "mean_mc")) / 1000;
		d->die_min_c[k] = num(json_get(c, "min_mc")) / 1000;
		d->die_max_c[k] = num(json_get(c, "max_mc")) / 1000;
		d->sensor_err_c[k] = num(json_get(c, "sensor_abs_err_mc")) / 1000;
		d->tick_busy_uj[k] = num(json_get(c, "tick_busy_uj"));
		d->tick_abs_err_uj[k] = num(json_get(c, "tick_abs_err_uj"));
	}
}

/* LABEL.driver.json (runs with an EM driver, and every heat run). */
static void driver_block(const struct blocks *b, struct stepdata *d)
{
	const char *mode = json_str(json_get(b->driver, "mode"));

	snprintf(d->drv_mode, sizeof(d->drv_mode), "%s", mode ? mode : "none");
	d->drv_updates = num(json_get(b->driver, "updates"));
	d->drv_failed = num(json_get(b->driver, "failed"));
	d->drv_update_ns_sum = num(json_get(b->driver, "update_ns_sum"));
	d->drv_update_ns_max = num(json_get(b->driver, "update_ns_max"));
	d->drv_update_ns_min = num(json_get(b->driver, "update_ns_min"));
	d->drv_iters = num(json_get(b->driver, "iters"));
	d->drv_iter_ns_sum = num(json_get(b->driver, "iter_ns_sum"));
	d->drv_iter_ns_min = num(json_get(b->driver, "iter_ns_min"));
	d->drv_span_ns = num(json_get(b->driver, "last_ns")) -
			 num(json_get(b->driver, "first_ns"));
}

/*
 * Busy time the meter priced under a task's own profile rather than the
 * platform's (tasks declared profile=; meters before per-task profiles
 * have no profile_busy_ns: 0).
 */
static void profile_mix(const struct blocks *b, struct stepdata *d)
{
	const struct json *mcl = json_get(b->meter, "clusters");
	const char *plat = json_str(json_get(b->meter, "profile"));
	double own = 0, all = 0;
	size_t k, i;

	for (k = 0; k < json_len(mcl); k++) {
		const struct json *pb = json_get(json_at(mcl, k), "profile_busy_ns");

		for (i = 0; json_kind(pb) == JSON_OBJECT && i < json_len(pb); i++) {
			double ns = num(json_at(pb, i));

			all += ns;
			if (!plat || strcmp(json_key(pb, i), plat))
				own += ns;
		}
	}
	d->task_profile_pct = all > 0 ? 100 * own / all : 0;
}

static int energies(const struct blocks *b, struct stepdata *d, char *err,
		    size_t errlen)
{
	const struct json *cpus = json_get(b->meter, "cpus");
	const struct json *mcl = json_get(b->meter, "clusters");
	size_t i, j;

	d->true_uj = num(json_get(b->meter, "total_uj"));
	d->meter_span_s = (num(json_get(b->meter, "now_ns")) -
			   num(json_get(json_at(mcl, 0), "since_ns"))) * 1e-9;
	for (i = 0; i < json_len(mcl) && i < SD_MAX_CLUSTERS; i++) {
		d->cl_shared_uj[i] = num(json_get(json_at(mcl, i), "shared_uj"));
		d->shared_uj += d->cl_shared_uj[i];
	}
	for (i = 0; i < json_len(cpus); i++) {
		const struct json *c = json_at(cpus, i);
		int k = (int)num(json_get(c, "cluster"));
		const struct json *bo = json_get(c, "busy_opp_ns");
		const struct json *co = json_get(json_at(mcl, (size_t)k), "opp_ns");
		const struct opt_cluster *oc = &d->model.cl[k];

		if (k < 0 || k >= d->ncl || (int)json_len(bo) != oc->nopps ||
		    (int)json_len(co) != oc->nopps) {
			snprintf(err, errlen, "meter: CPU %zu: bad cluster/OPP residency", i);
			return -1;
		}
		d->meter_cpus_uj += num(json_get(c, "energy_uj"));
		if (i < SD_MAX_CPUS) {
			d->ncpus = (int)i + 1;
			d->cpu_busy_ns[i] = num(json_get(c, "busy_ns"));
			d->cpu_cluster[i] = cpu_place(b, (int)i, &d->cpu_slot[i]);
		}
		for (j = 0; j < (size_t)oc->nopps; j++) {
			double busy = num(json_at(bo, j));
			double idle = num(json_at(co, j)) - busy;

			if (idle < 0)
				idle = 0;
			d->busy_uj += busy * oc->busy_uw[j] * 1e-9;
			d->idle_uj += idle * oc->idle_uw[j] * 1e-9;
			d->em_uj += busy * oc->em_uw[j] * 1e-9;
			d->cl_busy_ns[k] += busy;
			if (i < SD_MAX_CPUS)
				d->cpu_busy_extra_uj[i] += busy *
					(oc->busy_uw[j] - oc->idle_uw[j]) * 1e-9;
			d->cl_busy_khz_ns[k] += busy * oc->khz[j];
		}
	}
	profile_mix(b, d);
	/* tasks under their own profiles: the platform's tables miss them */
	d->meter_check = d->meter_cpus_uj > 0 && !d->task_profile_pct ?
		fabs(d->meter_cpus_uj - d->busy_uj - d->idle_uj) / d->meter_cpus_uj : 0;
	if (json_get(json_at(cpus, 0), "em_uj"))
		meter_energies(b, d);
	if (isnan(d->true_uj) || isnan(d->meter_check)) {
		snprintf(err, errlen, "meter: missing energies");
		return -1;
	}
	return 0;
}

static int tasks(const struct blocks *b, struct stepdata *d, char *err,
		 size_t errlen)
{
	const struct json *ts = json_get(b->tasks, "tasks");
	double window_ns = num(json_get(b->tasks, "window_ns"));
	size_t i, j;

	d->window_s = window_ns * 1e-9;
	d->nphases = (int)num(json_get(b->tasks, "phases"));
	if (!(d->window_s > 0) || d->nphases < 1 || d->nphases > SD_MAX_PHASES ||
	    json_len(ts) > SD_MAX_TASKS) {
		snprintf(err, errlen, "tasks: bad window/phases/tasks");
		return -1;
	}
	d->ntasks = (int)json_len(ts);
	for (i = 0; i < json_len(ts); i++) {
		const struct json *t = json_at(ts, i);
		struct sd_task *s = &d->task[i];
		const struct json *u = json_get(t, "util_pct"), *pin = json_get(t, "pinned");
		const struct json *bz = json_get(t, "busy_ns"), *pw = json_get(t, "phase_work_ns");
		const struct json *pcw = json_get(t, "phase_cpu_work_ns");
		double phase_ns = window_ns / d->nphases, due;

		snprintf(s->name, sizeof(s->name), "%s", json_str(json_get(t, "name")) ?
			 json_str(json_get(t, "name")) : "?");
		s->ndecl = (int)json_len(u);
		for (j = 0; j < json_len(u) && j < SD_MAX_PHASES; j++)
			s->util_decl[j] = num(json_at(u, j));
		for (j = 0; j < (size_t)d->nphases; j++)
			s->util_ach[j] = 100 * num(json_at(pw, j)) / phase_ns;
		s->pinned_cluster = json_len(pin) ?
			cluster_of_cpu(b, (int)num(json_at(pin, 0))) : -1;
		for (j = 0; j < json_len(bz); j++) {
			int k = cluster_of_cpu(b, (int)j);

			if (k >= 0)
				s->cl_ns[k] += num(json_at(bz, j));
			if (j < SD_MAX_CPUS)
				d->cpu_task_ns[j] += num(json_at(bz, j));
		}
		s->has_cpu_util = pcw != NULL;
		if (pcw && json_len(pcw) != (size_t)d->nphases) {
			snprintf(err, errlen, "tasks: %s: phase_cpu_work_ns has %zu phases, not %d",
				 s->name, json_len(pcw), d->nphases);
			return -1;
		}
		for (j = 0; pcw && j < (size_t)d->nphases; j++) {
			const struct json *row = json_at(pcw, j);
			size_t c;

			for (c = 0; c < json_len(row) && c < SD_MAX_CPUS; c++)
				s->cpu_util[j][c] = 100 * num(json_at(row, c)) / phase_ns;
		}
		s->periods = (long)num(json_get(t, "periods"));
		s->missed = (long)num(json_get(t, "missed"));
		due = num(json_get(t, "expected_ns"));
		s->work_pct = due > 0 ? 100 * num(json_get(t, "work_ns")) / due : 100;
		if ((size_t)d->nphases != json_len(pw)) {
			snprintf(err, errlen, "tasks: %s: phase_work_ns has %zu phases, not %d",
				 s->name, json_len(pw), d->nphases);
			return -1;
		}
	}
	return 0;
}

int stepdata_load(const char *dir, const char *label, struct stepdata *d,
		  char *err, size_t errlen)
{
	struct blocks b = { 0 };
	char name[128];
	int k, ret = -1;

	memset(d, 0, sizeof(*d));
	b.params = load(dir, "params.json", err, errlen);
	snprintf(name, sizeof(name), "%s.power.json", label);
	if (b.params)
		b.power = load(dir, name, err, errlen);
	snprintf(name, sizeof(name), "%s.em.json", label);
	if (b.power)
		b.em = load(dir, name, err, errlen);
	snprintf(name, sizeof(name), "%s.meter.json", label);
	if (b.em)
		b.meter = load(dir, name, err, errlen);
	snprintf(name, sizeof(name), "%s.tasks.json", label);
	if (b.meter)
		b.tasks = load(dir, name, err, errlen);
	if (!b.tasks)
		goto out;
	/*
	 * Heat runs have both blocks; runs with an EM driver the driver's;
	 * other runs neither, and their absence is not an error.
	 */
	snprintf(name, sizeof(name), "%s.thermal.json", label);
	if (exists(dir, name)) {
		b.thermal = load(dir, name, err, errlen);
		if (!b.thermal)
			goto out;
		thermal_block(&b, d);
	}
	snprintf(name, sizeof(name), "%s.driver.json", label);
	if (b.thermal || exists(dir, name)) {
		b.driver = load(dir, name, err, errlen);
		if (!b.driver)
			goto out;
		driver_block(&b, d);
	}
	d->ncl = (int)json_len(json_get(b.params, "clusters"));
	if (d->ncl < 1 || d->ncl > SD_MAX_CLUSTERS || d->ncl > OPT_MAX_CLUSTERS) {
		snprintf(err, errlen, "params.json: %d clusters", d->ncl);
		goto out;
	}
	snprintf(d->em_source, sizeof(d->em_source), "%s",
		 json_str(json_get(b.em, "source")) ? json_str(json_get(b.em, "source")) : "?");
	d->model.ncl = d->ncl;
	for (k = 0; k < d->ncl; k++)
		if (model_cluster(&b, k, &d->model.cl[k], err, errlen))
			goto out;
	if (energies(&b, d, err, errlen) || tasks(&b, d, err, errlen))
		goto out;
	for (k = 0; k < d->ncpus; k++) {
		double bg = d->cpu_busy_ns[k] - d->cpu_task_ns[k];

		if (bg > 0 && d->cpu_busy_ns[k] > 0)
			d->bg_uj += d->cpu_busy_extra_uj[k] * bg / d->cpu_busy_ns[k];
	}
	ret = 0;
out:
	blocks_free(&b);
	return ret;
}
