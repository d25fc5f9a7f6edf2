// SPDX-License-Identifier: GPL-2.0
#include "derive.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kind.h"

/* Load kinds: a timeline of conditions over one workload, or one step
 * per workload under one condition (kind.h). */
int scen_nsteps(const struct scenario *s)
{
	return s->kind->load->timeline ? s->nsteps : s->nworkloads;
}

const char *step_label(const struct scenario *s, int i)
{
	return s->kind->load->timeline ? s->step[i].label : s->w[i].name;
}

const struct scen_cond *step_cond(const struct scenario *s, int i)
{
	return &s->step[s->kind->load->timeline ? i : 0];
}

const struct scen_workload *step_workload(const struct scenario *s, int i)
{
	return &s->w[s->kind->load->timeline ? 0 : i];
}

int step_optimum(const struct stepdata *d, int declared, struct step_opt *o,
		 char *err, size_t errlen)
{
	struct opt_task t[OPT_MAX_TASKS];
	struct opt_result best, emr;
	double phase_s = d->window_s / d->nphases;
	int ph, i;

	memset(o, 0, sizeof(*o));
	if (d->ntasks > OPT_MAX_TASKS) {
		snprintf(err, errlen, "%d tasks: more than the optimiser's %d",
			 d->ntasks, OPT_MAX_TASKS);
		return -1;
	}
	o->feasible = 1;
	for (ph = 0; ph < d->nphases; ph++) {
		for (i = 0; i < d->ntasks; i++) {
			const struct sd_task *st = &d->task[i];
			double u = !declared ? st->util_ach[ph] :
				st->util_decl[ph < st->ndecl ? ph : st->ndecl - 1];

			t[i].util = u * 1024 / 100;
			t[i].cluster = d->task[i].pinned_cluster;
		}
		if (opt_best(&d->model, t, d->ntasks, OPT_TRUE, &best) ||
		    opt_best(&d->model, t, d->ntasks, OPT_EM, &emr)) {
			snprintf(err, errlen, "optimiser: bad model");
			return -1;
		}
		if (best.truncated || emr.truncated) {
			snprintf(err, errlen, "optimiser: more than %ld placements",
				 OPT_MAX_LEAVES);
			return -1;
		}
		if (!best.feasible || !emr.feasible) {
			o->feasible = 0;
			return 0;
		}
		o->optimal_uj += best.true_uw * phase_s;
		o->em_choice_uj += emr.true_uw * phase_s;
		o->em_choice_em_uj += emr.em_uw * phase_s;
		memcpy(o->opt_cluster, best.cluster, sizeof(best.cluster));
		memcpy(o->em_choice_cluster, emr.cluster, sizeof(emr.cluster));
	}
	return 0;
}

int step_observed(const struct stepdata *d, double *uj)
{
	static double u[OPT_MAX_CLUSTERS][OPT_MAX_CPUS_PER_CL];
	double phase_s = d->window_s / d->nphases, tp, ep;
	int ph, i, c;

	*uj = 0;
	for (i = 0; i < d->ntasks; i++)
		if (!d->task[i].has_cpu_util)
			return 1;
	for (ph = 0; ph < d->nphases; ph++) {
		memset(u, 0, sizeof(u));
		for (c = 0; c < d->ncpus; c++) {
			int k = d->cpu_cluster[c], slot = d->cpu_slot[c];

			if (k < 0 || k >= d->model.ncl || slot >= OPT_MAX_CPUS_PER_CL)
				continue;
			for (i = 0; i < d->ntasks; i++)
				u[k][slot] += d->task[i].cpu_util[ph][c] * 1024 / 100;
			/* what ran there fitted: measurement rounding only */
			if (u[k][slot] > d->model.cl[k].cap)
				u[k][slot] = d->model.cl[k].cap;
		}
		if (!opt_eval_util(&d->model, u, &tp, &ep))
			return -1;
		*uj += tp * phase_s;
	}
	return 0;
}

static void name(char *out, size_t len, const char *metric, const char *label)
{
	snprintf(out, len, "%s.%s", metric, label);
}

int step_add(struct metrics *ms, const char *metric, const char *label,
	     const char *unit, const char *better, int cluster, double v)
{
	char n[METRIC_NAME_LEN + 64];

	name(n, sizeof(n), metric, label);
	return metric_add(ms, n, unit, better, cluster, v);
}

double step_pct(double a, double b)
{
	return b != 0 ? 100 * (a - b) / b : 0;
}

void step_validity(const struct stepdata *d, struct step_validity *v)
{
	int i;

	v->work_dev_pct = 0;
	v->missed_pct = 0;
	for (i = 0; i < d->ntasks; i++) {
		const struct sd_task *t = &d->task[i];
		double m = t->periods ? 100.0 * t->missed / t->periods : 100;

		v->work_dev_pct = fmax(v->work_dev_pct, fabs(t->work_pct - 100));
		v->missed_pct = fmax(v->missed_pct, m);
	}
	v->late_pct = 100 * (d->meter_span_s / d->window_s - 1);
	v->valid = v->work_dev_pct <= STEP_WORK_DEV_MAX_PCT &&
		   v->late_pct <= STEP_LATE_MAX_PCT;
}

static int validity(const struct stepdata *d, const char *l,
		    struct metrics *ms)
{
	struct step_validity v;
	int ret = 0;

	step_validity(d, &v);
	ret |= step_add(ms, "work_dev_pct_max", l, "%", "none", -1, v.work_dev_pct);
	ret |= step_add(ms, "missed_pct_max", l, "%", "none", -1, v.missed_pct);
	ret |= step_add(ms, "meter_late_pct", l, "%", "none", -1, v.late_pct);
	ret |= step_add(ms, "step_valid", l, "bool", "none", -1, v.valid);
	return ret;
}

/*
 * Heat runs: the EM's error resolved at the thermal tick (|EM - busy| per
 * tick, summed, over the busy energy: the error EAS prices with at each
 * instant, which a window total lets cancel), the dies over the window,
 * the sensor's error.
 */
static int heat_metrics(const struct stepdata *d, const char *l,
			struct metrics *ms)
{
	double err = 0, busy = 0;
	int k, ret = 0;

	if (!d->heat)
		return 0;
	for (k = 0; k < d->ncl; k++) {
		err += d->tick_abs_err_uj[k];
		busy += d->tick_busy_uj[k];
		if (d->tick_busy_uj[k] > 0)
			ret |= step_add(ms, "em_tick_abs_err_pct", l, "%", "lower", k,
				        100 * d->tick_abs_err_uj[k] / d->tick_busy_uj[k]);
		ret |= step_add(ms, "die_mean_c", l, "C", "none", k, d->die_mean_c[k]);
		ret |= step_add(ms, "die_min_c", l, "C", "none", k, d->die_min_c[k]);
		ret |= step_add(ms, "die_max_c", l, "C", "none", k, d->die_max_c[k]);
		if (d->drv_updates > 0 && strcmp(d->drv_mode, "oracle"))
			ret |= step_add(ms, "sensor_abs_err_c", l, "C", "none", k,
				        d->sensor_err_c[k]);
	}
	if (busy > 0)
		ret |= step_add(ms, "em_tick_abs_err_pct", l, "%", "lower", -1,
			        100 * err / busy);
	return ret;
}

/*
 * Runs with an EM driver: what it did and cost: updates, time per update
 * (min: free of other vCPUs' instructions in deterministic mode), and its
 * CPU time (whole iterations) as % of one CPU.
 */
static int driver_metrics(const struct stepdata *d, const char *l,
			  struct metrics *ms)
{
	double per;
	int ret = 0;

	if (!d->drv_mode[0] || !strcmp(d->drv_mode, "none"))
		return 0;
	ret |= step_add(ms, "driver_updates", l, "updates", "none", -1, d->drv_updates);
	ret |= step_add(ms, "driver_failed_updates", l, "updates", "lower", -1, d->drv_failed);
	if (d->drv_updates > 0) {
		ret |= step_add(ms, "update_us_mean", l, "us", "lower", -1,
			        d->drv_update_ns_sum / d->drv_updates / 1000);
		ret |= step_add(ms, "update_us_min", l, "us", "lower", -1,
			        d->drv_update_ns_min / 1000);
		ret |= step_add(ms, "update_us_max", l, "us", "lower", -1,
			        d->drv_update_ns_max / 1000);
		ret |= step_add(ms, "update_cpu_pct", l, "% of a CPU", "lower", -1,
			        100 * d->drv_update_ns_sum / (d->window_s * 1e9));
		/*
		 * Deterministic mode: an iteration spanning a vCPU switch also
		 * counts other vCPUs' instructions, so the sum is an upper bound
		 * and the fastest iteration x their number a lower one.
		 */
		ret |= step_add(ms, "driver_cpu_pct", l, "% of a CPU", "lower", -1,
			        100 * d->drv_iter_ns_sum / (d->window_s * 1e9));
		ret |= step_add(ms, "driver_cpu_min_pct", l, "% of a CPU", "lower", -1,
			        100 * d->drv_iter_ns_min * d->drv_iters / (d->window_s * 1e9));
		ret |= step_add(ms, "driver_iter_us_min", l, "us", "lower", -1,
			        d->drv_iter_ns_min / 1000);
	}
	/* one update per cluster each period */
	per = d->drv_updates / d->ncl - 1;
	if (per >= 1)
		ret |= step_add(ms, "driver_period_ms", l, "ms", "none", -1,
			        d->drv_span_ns / per / 1e6);
	return ret;
}

static int common(const struct stepdata *d, const char *l, struct metrics *ms)
{
	double busy_all = 0, work = 0, worst_all = 0;
	int k, i, ret = validity(d, l, ms);

	for (k = 0; k < d->ncl; k++)
		busy_all += d->cl_busy_ns[k];
	for (i = 0; i < d->ntasks; i++)
		work += d->task[i].work_pct / d->ntasks;
	ret |= step_add(ms, "true_energy_mj", l, "mJ", "lower", -1, d->true_uj / 1000);
	ret |= step_add(ms, "busy_energy_mj", l, "mJ", "none", -1, d->busy_uj / 1000);
	ret |= step_add(ms, "em_energy_mj", l, "mJ", "none", -1, d->em_uj / 1000);
	ret |= step_add(ms, "em_err_pct", l, "%", "none", -1, step_pct(d->em_uj, d->busy_uj));
	ret |= step_add(ms, "em_abs_err_pct", l, "%", "lower", -1,
		        fabs(step_pct(d->em_uj, d->busy_uj)));
	ret |= step_add(ms, "em_err_total_pct", l, "%", "none", -1,
		        step_pct(d->em_uj, d->true_uj));
	ret |= step_add(ms, "shared_energy_mj", l, "mJ", "none", -1, d->shared_uj / 1000);
	ret |= step_add(ms, "background_energy_mj", l, "mJ", "none", -1, d->bg_uj / 1000);
	ret |= step_add(ms, "shared_power_mw", l, "mW", "none", -1,
		        d->shared_uj / 1000 / d->window_s);
	ret |= step_add(ms, "shared_pct", l, "%", "none", -1,
		        d->true_uj > 0 ? 100 * d->shared_uj / d->true_uj : 0);
	ret |= step_add(ms, "idle_pct", l, "%", "none", -1,
		        d->true_uj > 0 ? 100 * d->idle_uj / d->true_uj : 0);
	ret |= step_add(ms, "work_pct", l, "%", "none", -1, work);
	ret |= step_add(ms, "task_profile_busy_pct", l, "%", "none", -1,
		        d->task_profile_pct);
	ret |= heat_metrics(d, l, ms);
	ret |= driver_metrics(d, l, ms);
	for (k = 0; k < d->ncl; k++) {
		const struct opt_cluster *c = &d->model.cl[k];
		double worst = 0;

		/*
		 * The table's shape when the window opened: the worst OPP's
		 * |EM - truth|, which a residency-weighted error can hide
		 * (a scale fitted to one OPP mix is right on that mix only).
		 */
		for (i = 0; i < c->nopps; i++)
			if (c->busy_uw[i] > 0)
				worst = fmax(worst, fabs(step_pct(c->em_uw[i], c->busy_uw[i])));
		ret |= step_add(ms, "em_opp_abs_err_pct_max", l, "%", "none", k, worst);
		worst_all = fmax(worst_all, worst);

		if (d->meter_em && d->cl_busy_uj[k] > 0)
			ret |= step_add(ms, "em_err_pct", l, "%", "none", k,
				        step_pct(d->cl_em_uj[k], d->cl_busy_uj[k]));
		ret |= step_add(ms, "busy_share_pct", l, "%", "none", k,
			        busy_all > 0 ? 100 * d->cl_busy_ns[k] / busy_all : 0);
		/* DVFS: busy-time-weighted frequency, % of the cluster's fmax */
		if (d->cl_busy_ns[k] > 0)
			ret |= step_add(ms, "busy_freq_pct", l, "%", "none", k,
				        100 * d->cl_busy_khz_ns[k] /
				        (d->cl_busy_ns[k] * c->khz[c->nopps - 1]));
	}
	ret |= step_add(ms, "em_opp_abs_err_pct_max", l, "%", "none", -1, worst_all);
	return ret;
}

int derive_placement(const struct scenario *s, int i,
		     const struct stepdata *d, struct metrics *ms, char *err,
		     size_t errlen)
{
	const char *l = step_label(s, i);
	struct step_opt o, od;
	double obs;
	int ret = 0, priced;

	if (step_optimum(d, 0, &o, err, errlen) ||
	    step_optimum(d, 1, &od, err, errlen))
		return -1;
	if (!o.feasible) {
		snprintf(err, errlen, "the achieved utilisation fits no placement");
		return -1;
	}
	ret |= step_add(ms, "optimal_energy_mj", l, "mJ", "none", -1, o.optimal_uj / 1000);
	ret |= step_add(ms, "energy_over_optimal_pct", l, "%", "lower", -1,
		        step_pct(d->true_uj, o.optimal_uj));
	ret |= step_add(ms, "em_choice_over_optimal_pct", l, "%", "lower", -1,
		        step_pct(o.em_choice_uj, o.optimal_uj));
	priced = step_observed(d, &obs);
	if (priced < 0) {
		snprintf(err, errlen, "the observed placement fits no OPP");
		return -1;
	}
	if (!priced)
		ret |= step_add(ms, "placement_over_optimal_pct", l, "%", "lower", -1,
			        step_pct(obs, o.optimal_uj));
	/* without the background's busy energy (stepdata.h): the tasks' share */
	ret |= step_add(ms, "task_energy_over_optimal_pct", l, "%", "none", -1,
		        step_pct(d->true_uj - d->bg_uj, o.optimal_uj));
	/* the same for the declared load: the model alone, no QEMU noise */
	if (od.feasible)
		ret |= step_add(ms, "em_choice_declared_over_optimal_pct", l, "%", "lower",
			        -1, step_pct(od.em_choice_uj, od.optimal_uj));
	return ret;
}

int derive_steps(const struct scenario *s, const char *dir,
		 struct metrics *ms, derive_step_fn step, char *err,
		 size_t errlen)
{
	static struct stepdata d;
	char e2[400];
	int i, n = scen_nsteps(s);

	for (i = 0; i < n; i++) {
		const char *l = step_label(s, i);

		if (stepdata_load(dir, l, &d, e2, sizeof(e2)))
			goto fail;
		if (d.meter_check > METER_CHECK_MAX) {
			snprintf(e2, sizeof(e2), "meter disagrees with the power tables by %.2f %%",
				 100 * d.meter_check);
			goto fail;
		}
		if (common(&d, l, ms)) {
			snprintf(e2, sizeof(e2), "too many metrics");
			goto fail;
		}
		if (step && step(s, i, &d, ms, e2, sizeof(e2)))
			goto fail;
		continue;
fail:
		snprintf(err, errlen, "step %s: %s", l, e2);
		return -1;
	}
	return 0;
}
