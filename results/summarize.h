/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summarize.h - emrcu-summarize's two stages: collect (run directories ->
 * sample pools) and derive (pools -> figures with statistics, ratios of
 * declared variant pairs, linear fits of the update-cost scaling).
 */
#ifndef EMRCU_SUMMARIZE_H
#define EMRCU_SUMMARIZE_H

#include <stddef.h>
#include <stdint.h>

#include "emrcu/conf.h"
#include "pairs.h"
#include "emrcu/json.h"
#include "pool.h"
#include "runload.h"

/* The constants of results/summarize.conf. */
struct sumconf {
	double level;		/* confidence level of every interval */
	double trim_frac;	/* trimmed range: fraction dropped at each end */
	double contam_det;	/* contaminated pass: > median * (1 + this) */
	double contam_rt;
	unsigned int resamples;	/* bootstrap replicates */
	uint64_t seed;		/* bootstrap seed */
};

int sumconf_load(struct conf *c, struct sumconf *sc, char *err,
		 size_t errlen);

/* Adds every sample of one run to the pools. */
int collect_run(struct pools *ps, const struct run *r, char *err,
		size_t errlen);

/*
 * Figures (a JSON array) from the pools: per-pool statistics, then the
 * ratios of the declared pairs, then the scaling fits.  Each pool's
 * samples go into samples (an object: samples_id -> array), which the
 * caller writes to samples_file.
 */
struct json *derive_figures(const struct pools *ps, const struct sumconf *sc,
			    const struct pairs *pairs, const char *samples_file,
			    struct json *samples, char *err, size_t errlen);

/* The statistical methods, in words, for summary.json "constants". */
struct json *summarize_methods(const struct sumconf *sc);

#endif
