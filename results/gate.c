// SPDX-License-Identifier: GPL-2.0
/* gate.c - regression verdicts, noise bands, A/A calibration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "emrcu/field.h"
#include "stats.h"

int gateconf_load(struct conf *c, struct gateconf *g, char *err,
		  size_t errlen)
{
	struct fctx f = { .c = c, .err = err, .errlen = errlen };

	/* instructions: a positive effect (fnum's bounds are inclusive) */
	if (fnum(&f, "min_effect_pct_deterministic", 1, 0, HUGE_VAL, 0,
		 &g->min_effect_det) ||
	    fnum(&f, "min_effect_pct_realtime", 1, 0, HUGE_VAL, 0,
		 &g->min_effect_rt) ||
	    fnum(&f, "noise_safety_factor", 1, 1, HUGE_VAL, 0, &g->noise_factor) ||
	    fnum(&f, "noise_floor_pct", 1, 0, HUGE_VAL, 0, &g->noise_floor) ||
	    fnum(&f, "min_boots_realtime", 1, 2, HUGE_VAL, 0, &g->min_boots_rt) ||
	    fnum(&f, "min_effect_instructions_deterministic", 1, 1e-9, HUGE_VAL,
		 0, &g->min_effect_insns))
		return -1;
	return 0;
}

int noise_load(const char *path, struct noise *nz, char *err, size_t errlen)
{
	const struct json *figs;
	const char *schema;
	struct json_err je;
	size_t i;

	memset(nz, 0, sizeof(*nz));
	nz->root = json_parse_file(path, &je);
	if (!nz->root) {
		snprintf(err, errlen, "%s", je.msg);
		return -1;
	}
	schema = json_str(json_get(nz->root, "schema"));
	figs = json_get(nz->root, "figures");
	if (!schema || strcmp(schema, NOISE_SCHEMA) || !figs ||
	    json_kind(figs) != JSON_ARRAY) {
		snprintf(err, errlen, "%s: not a %s file", path, NOISE_SCHEMA);
		goto fail;
	}
	nz->n = json_len(figs);
	nz->key = calloc(nz->n + 1, sizeof(*nz->key));
	nz->band = calloc(nz->n + 1, sizeof(*nz->band));
	if (!nz->key || !nz->band)
		abort();
	for (i = 0; i < nz->n; i++) {
		const struct json *f = json_at(figs, i);

		if (fig_key_json(f, nz->key[i], sizeof(nz->key[i])) ||
		    json_num(json_get(f, "band_pct"), &nz->band[i]) ||
		    !(nz->band[i] >= 0)) {
			snprintf(err, errlen, "%s: figures[%zu]: identity or band_pct missing",
				 path, i);
			goto fail;
		}
	}
	return 0;
fail:
	noise_free(nz);
	return -1;
}

void noise_free(struct noise *nz)
{
	json_free(nz->root);
	free(nz->key);
	free(nz->band);
	memset(nz, 0, sizeof(*nz));
}

double noise_band(const struct noise *nz, const char *key)
{
	size_t i;

	for (i = 0; nz && i < nz->n; i++)
		if (!strcmp(nz->key[i], key))
			return nz->band[i];
	return -1;
}

int gate_insn_figure(const struct fig *f)
{
	return !strcmp(f->mode, "deterministic") && f->unit &&
	       !strcmp(f->unit, "instructions/call") && f->update_hz == 0;
}

void gate_judge(const struct fig *base, const struct fig *new_,
		const struct gateconf *g, const struct noise *nz,
		struct verdict *v)
{
	int lower = !strcmp(base->better, "lower");
	int higher = !strcmp(base->better, "higher");
	double band = noise_band(nz, base->id_key[0] ? base->id_key : base->key);
	double mag;
	int right_way;

	memset(v, 0, sizeof(*v));
	v->change_pct = stats_pct_change(base->median, new_->median);
	mag = fabs(v->change_pct);
	v->calibrated = band >= 0;
	v->band_pct = v->calibrated ? band : g->noise_floor;
	v->min_effect_pct = !strcmp(base->mode, "deterministic") ?
			    g->min_effect_det : g->min_effect_rt;
	v->gated = lower || higher;
	v->wrong_way = (lower && new_->median > base->median) ||
		       (higher && new_->median < base->median);
	right_way = (lower && new_->median < base->median) ||
		    (higher && new_->median > base->median);
	v->boots_method = strcmp(base->mode, "deterministic") != 0;
	if (v->boots_method) {
		/* samples of one boot share its host noise: boots are the unit */
		v->few_boots = base->nboots < g->min_boots_rt ||
			       new_->nboots < g->min_boots_rt;
		v->ci_disjoint = !v->few_boots &&
				 (new_->boot_min > base->boot_max ||
				  base->boot_min > new_->boot_max);
	} else {
		v->ci_disjoint = new_->ci_low > base->ci_high ||
				 base->ci_low > new_->ci_high;
	}
	if (gate_insn_figure(base)) {
		/* one instruction per call is the effect, whatever the % */
		v->min_effect_abs = g->min_effect_insns;
		v->big_enough = fabs(new_->median - base->median) >= g->min_effect_insns;
	} else {
		v->big_enough = mag >= v->min_effect_pct;
	}
	v->above_noise = mag > v->band_pct;
	v->regression = v->gated && v->wrong_way && v->ci_disjoint &&
			v->big_enough && v->above_noise;
	v->improvement = v->gated && right_way && v->ci_disjoint &&
			 v->big_enough && v->above_noise;
}

static void copy_identity(struct json *dst, const struct json *src)
{
	static const char *const k[] = { "name", "unit", "variant", "mode",
					 "preempt", "update_hz", "cluster",
					 "nr_states", "scenario" };
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (json_get(src, k[i]))
			json_set(dst, k[i], json_clone(json_get(src, k[i])));
}

struct json *noise_calibrate(const struct summary *runs, size_t nruns,
			     const struct gateconf *g, char *err,
			     size_t errlen)
{
	struct json *out, *figs;
	size_t i, a, b;

	if (nruns < 2) {
		snprintf(err, errlen, "calibration needs at least two A/A summaries");
		return NULL;
	}
	out = json_new_obj();
	json_set_str(out, "schema", NOISE_SCHEMA);
	json_set_num(out, "noise_safety_factor", g->noise_factor);
	json_set_num(out, "noise_floor_pct", g->noise_floor);
	json_set_int(out, "summaries", (int64_t)nruns);
	figs = json_set(out, "figures", json_new_arr());
	for (i = 0; i < runs[0].n; i++) {
		const struct fig *f0 = &runs[0].figs[i];
		double observed = 0;
		struct json *e;

		for (a = 1; a < nruns; a++)
			if (!summary_find(&runs[a], f0->key))
				break;
		if (a < nruns)
			continue;
		for (a = 0; a < nruns; a++) {
			for (b = a + 1; b < nruns; b++) {
				double c = fabs(stats_pct_change(
					summary_find(&runs[a], f0->key)->median,
					summary_find(&runs[b], f0->key)->median));

				if (c > observed)
					observed = c;
			}
		}
		if (!isfinite(observed))
			continue;
		e = json_push(figs, json_new_obj());
		copy_identity(e, f0->node);
		json_set_num(e, "observed_pct", observed);
		json_set_num(e, "band_pct",
			     stats_noise_band(observed, g->noise_factor, g->noise_floor));
	}
	if (!json_len(figs)) {
		snprintf(err, errlen, "the A/A summaries have no figure in common");
		json_free(out);
		return NULL;
	}
	return out;
}
