// SPDX-License-Identifier: GPL-2.0
/*
 * collect.c - one run directory's samples into the figure pools.
 *
 * hot_path_ns_per_call: every timed pass (ns_per_call entry) of every
 *   reader CPU of a perf domain, pooled: the CPUs of one cluster run the
 *   same code on the same core type, so their passes are treated as one
 *   sample (runs of the same identity are pooled too; not the readers of
 *   the update-cost scaling boot).
 * hot_path_instructions_per_call: the same passes / 2^shift
 *   (deterministic mode only: guest time = instructions << shift).
 * update_us, update_us_per_opp, update_free_delay_us: every update of the
 *   updater kthread, by the perf domain it updated.
 * update_scaling_us: the scaling runs, one figure per nr_states;
 *   update_callback_us: the update's callback alone in the same runs (a
 *   pass of nr_states calls timed before each update).
 * scenario metrics: the samples a scenario driver reported.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "summarize.h"

static struct json *tmpl_for(const struct run *r, const char *name,
			     const char *unit, const char *better, long cluster)
{
	struct json *t = fig_template(name, unit, better, r->variant, r->mode,
				      r->preempt, r->update_hz, cluster);

	if (r->shift >= 0)
		json_set_int(t, "shift", r->shift);
	return t;
}

/*
 * Deterministic mode: the ns/call one step of the guest's clock is worth
 * over a pass (1e9 / clock_hz / loops), 0 when em_bench did not report
 * its clock.  A rerun's pass can end a step earlier or later, so it is a
 * figure's quantum (pool_figure and the ratios widen by it).
 */
static double clock_step_ns(const struct run *r)
{
	double hz = 0, loops = 0;

	if (json_num(json_get(r->bench, "clock_hz"), &hz) ||
	    json_num(json_get(json_get(r->bench, "params"), "loops"), &loops) ||
	    hz <= 0 || loops <= 0)
		return 0;
	return 1e9 / hz / loops;
}

static int collect_readers(struct pools *ps, const struct run *r, char *err,
			   size_t errlen)
{
	const struct json *rd = json_get(r->bench, "readers");
	int det = !strcmp(r->mode, "deterministic");
	double step = det ? clock_step_ns(r) : 0;
	size_t i, k;

	for (i = 0; i < json_len(rd); i++) {
		const struct json *rr = json_at(rd, i);
		const struct json *ns = json_get(rr, "ns_per_call");
		struct pool *pn, *pi = NULL;
		struct json *t;
		int64_t pd;
		long opps;

		json_int64(json_get(rr, "pd"), &pd);
		opps = run_pd_states(r, (long)pd);
		t = tmpl_for(r, "hot_path_ns_per_call", "ns/call", "lower", (long)pd);
		if (opps > 0)
			json_set_int(t, "opps", opps);
		if (step > 0)
			json_set_num(t, "clock_step", step);
		pn = pools_get(ps, t, err, errlen);
		if (!pn)
			return -1;
		if (det) {
			t = tmpl_for(r, "hot_path_instructions_per_call",
				     "instructions/call", "lower", (long)pd);
			if (opps > 0)
				json_set_int(t, "opps", opps);
			if (step > 0)
				json_set_num(t, "clock_step", ldexp(step, -(int)r->shift));
			pi = pools_get(ps, t, err, errlen);
			if (!pi)
				return -1;
		}
		for (k = 0; k < json_len(ns); k++) {
			double v;

			json_num(json_at(ns, k), &v);
			pool_add(pn, v, r->label);
			if (pi)
				pool_add(pi, ldexp(v, -(int)r->shift), r->label);
		}
	}
	return 0;
}

/*
 * Perf domain of update k: updater.update_pd[k] when the module reports it
 * (only for update_ns), else updater.pd, else -1 ("all").
 */
static long update_pd_of(const struct json *up, size_t k, int per_update)
{
	const struct json *upd = json_get(up, "update_pd");
	int64_t pd;
	double d;

	if (per_update && upd && !json_num(json_at(upd, k), &d))
		return (long)d;
	if (!json_int64(json_get(up, "pd"), &pd))
		return (long)pd;
	return -1;
}

/*
 * OPPs an update of pd touches: its nr_states; for "all", the nr_states
 * shared by every updated domain (updater.pds_updated, else all pds), -1
 * when they differ.
 */
static long update_opps(const struct run *r, const struct json *up, long pd)
{
	const struct json *list = json_get(up, "pds_updated");
	const struct json *pds = json_get(r->bench, "pds");
	long common = -1, n;
	size_t i;

	if (pd >= 0)
		return run_pd_states(r, pd);
	for (i = 0; i < (list ? json_len(list) : json_len(pds)); i++) {
		int64_t p = 0;
		double d;

		if (list && !json_num(json_at(list, i), &d))
			p = (int64_t)d;
		else
			json_int64(json_get(json_at(pds, i), "pd"), &p);
		n = run_pd_states(r, (long)p);
		if (n <= 0 || (common >= 0 && common != n))
			return -1;
		common = n;
	}
	return common;
}

static int collect_series(struct pools *ps, const struct run *r,
			  const struct json *up, const char *field,
			  const char *name, const char *better, int per_opp,
			  char *err, size_t errlen)
{
	const struct json *a = json_get(up, field);
	int per_update = !strcmp(field, "update_ns");
	size_t k;

	for (k = 0; k < json_len(a); k++) {
		long pd = update_pd_of(up, k, per_update);
		long opps = update_opps(r, up, pd);
		struct json *t;
		struct pool *p;
		double v;

		if (per_opp && opps <= 0) {
			fprintf(stderr,
				"emrcu-summarize: %s: updates of \"all\" perf domains with different OPP counts and no update_pd: no %s\n",
				r->label, name);
			return 0;
		}
		t = tmpl_for(r, name, per_opp ? "us/OPP" : "us", better, pd);
		if (opps > 0)
			json_set_int(t, "opps", opps);
		p = pools_get(ps, t, err, errlen);
		if (!p)
			return -1;
		json_num(json_at(a, k), &v);
		pool_add(p, per_opp ? v / 1000.0 / (double)opps : v / 1000.0,
			 r->label);
	}
	return 0;
}

static int collect_updater(struct pools *ps, const struct run *r, char *err,
			   size_t errlen)
{
	const struct json *up = json_get(r->bench, "updater");
	int avail = 0;

	json_boolean(json_get(up, "available"), &avail);
	if (!avail || !json_get(up, "update_ns"))
		return 0;
	if (collect_series(ps, r, up, "update_ns", "update_us", "lower", 0,
			   err, errlen) ||
	    collect_series(ps, r, up, "update_ns", "update_us_per_opp", "lower",
			   1, err, errlen) ||
	    collect_series(ps, r, up, "free_delay_ns", "update_free_delay_us",
			   "none", 0, err, errlen))
		return -1;
	return 0;
}

/* One scaling series (update_ns or callback_ns) into @name per nr_states. */
static int collect_scaling_series(struct pools *ps, const struct run *r,
				  const struct json *s, const char *field,
				  const char *name, char *err, size_t errlen)
{
	const struct json *u = json_get(s, field);
	struct json *t;
	struct pool *p;
	int64_t nr;
	size_t k;

	if (!json_len(u))
		return 0;
	json_int64(json_get(s, "nr_states"), &nr);
	t = tmpl_for(r, name, "us", "lower", -1);
	json_set_int(t, "nr_states", nr);
	p = pools_get(ps, t, err, errlen);
	if (!p)
		return -1;
	for (k = 0; k < json_len(u); k++) {
		double v;

		json_num(json_at(u, k), &v);
		pool_add(p, v / 1000.0, r->label);
	}
	return 0;
}

static int collect_scaling(struct pools *ps, const struct run *r, char *err,
			   size_t errlen)
{
	const struct json *sc = json_get(r->bench, "scaling");
	size_t i;

	for (i = 0; i < json_len(sc); i++) {
		const struct json *s = json_at(sc, i);

		if (collect_scaling_series(ps, r, s, "update_ns",
					   "update_scaling_us", err, errlen) ||
		    collect_scaling_series(ps, r, s, "callback_ns",
					   "update_callback_us", err, errlen))
			return -1;
	}
	return 0;
}

static int collect_scenario(struct pools *ps, const struct run *r, char *err,
			    size_t errlen)
{
	const struct json *m = json_get(r->scenario, "metrics");
	const char *scen = json_str(json_get(r->scenario, "scenario"));
	size_t i, k;

	for (i = 0; i < json_len(m); i++) {
		const struct json *x = json_at(m, i), *s = json_get(x, "samples");
		int64_t cl = -1;
		struct json *t;
		struct pool *p;

		json_int64(json_get(x, "cluster"), &cl);
		t = tmpl_for(r, json_str(json_get(x, "name")),
			     json_str(json_get(x, "unit")),
			     json_str(json_get(x, "better")), (long)cl);
		json_set_str(t, "scenario", scen);
		p = pools_get(ps, t, err, errlen);
		if (!p)
			return -1;
		for (k = 0; k < json_len(s); k++) {
			double v;

			json_num(json_at(s, k), &v);
			pool_add(p, v, r->label);
		}
	}
	return 0;
}

/*
 * The update-cost scaling boot (scaling, no updater) runs a few reader
 * passes before its updates: not the readers-only configuration of that
 * kernel (other nruns, another boot's purpose), so they are not pooled
 * into its hot-path figures.
 */
static int scaling_boot(const struct run *r)
{
	int sc = 0;

	json_boolean(json_get(json_get(r->bench, "params"), "scaling"), &sc);
	return sc && r->update_hz == 0 && json_len(json_get(r->bench, "scaling"));
}

int collect_run(struct pools *ps, const struct run *r, char *err,
		size_t errlen)
{
	if (r->bench && ((!scaling_boot(r) && collect_readers(ps, r, err, errlen)) ||
			 collect_updater(ps, r, err, errlen) ||
			 collect_scaling(ps, r, err, errlen)))
		return -1;
	if (r->scenario && collect_scenario(ps, r, err, errlen))
		return -1;
	return 0;
}
