/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gate.h - the regression verdict for one figure (base vs new), the noise
 * bands calibrated from A/A runs, and the thresholds of results/gate.conf.
 */
#ifndef EMRCU_GATE_H
#define EMRCU_GATE_H

#include <stddef.h>

#include "emrcu/conf.h"
#include "pairs.h"
#include "figure.h"
#include "emrcu/json.h"

struct gateconf {
	double min_effect_det;	/* minimum |%change|, deterministic mode */
	double min_effect_rt;	/* minimum |%change|, any other mode */
	double noise_factor;	/* band = observed A/A |%change| * this */
	double noise_floor;	/* band >= this (and the band when uncalibrated) */
	double min_boots_rt;	/* boots per side to judge a non-deterministic figure */
	/*
	 * Deterministic figures counted in instructions (unit
	 * "instructions/call") without an updater (update_hz 0): minimum
	 * |change| in instructions per call, instead of min_effect_det.
	 */
	double min_effect_insns;
};

/* Is @f judged by the absolute instruction floor (min_effect_insns)? */
int gate_insn_figure(const struct fig *f);

int gateconf_load(struct conf *c, struct gateconf *g, char *err,
		  size_t errlen);

/* A loaded NOISE.json: per-figure noise bands (percent). */
struct noise {
	struct json *root;
	size_t n;
	char (*key)[FIG_KEY_MAX];
	double *band;
};

int noise_load(const char *path, struct noise *nz, char *err, size_t errlen);
void noise_free(struct noise *nz);
/* Band of a figure, -1 when the noise file does not know it. */
double noise_band(const struct noise *nz, const char *key);

/* 100 * (new - base) / |base|; +-INFINITY when base is 0 and new is not. */

struct verdict {
	double change_pct;
	double band_pct;	/* noise band used */
	int calibrated;		/* band came from NOISE.json */
	double min_effect_pct;
	double min_effect_abs;	/* > 0: the floor is this |change| in the unit */
	int gated;		/* better is lower/higher */
	/*
	 * Non-deterministic modes: the boot is the unit.  boots_method: the
	 * intervals are the ranges of the per-boot medians; few_boots: a side
	 * has fewer than min_boots_rt boots, so the figure is not judged.
	 */
	int boots_method, few_boots;
	int wrong_way, ci_disjoint, big_enough, above_noise;
	int regression;		/* all four */
	int improvement;	/* right way, same three conditions */
};

void gate_judge(const struct fig *base, const struct fig *new_,
		const struct gateconf *g, const struct noise *nz,
		struct verdict *v);

/*
 * NOISE.json from two or more A/A summaries: per common figure, the
 * largest |%change| between any two of them, times the safety factor,
 * at least the floor.  NULL and err on unusable input.
 */
struct json *noise_calibrate(const struct summary *runs, size_t nruns,
			     const struct gateconf *g, char *err,
			     size_t errlen);

#endif
