/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rng.h - a seeded, platform-independent pseudo-random generator for the
 * bootstrap: xoshiro256** (Blackman & Vigna) seeded through splitmix64, so
 * a given seed gives the same stream on every machine and compiler.
 */
#ifndef EMRCU_RNG_H
#define EMRCU_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform integer in [0, n), n > 0, without modulo bias (Lemire). */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform double in [0, 1) with 53 random bits. */
double rng_uniform(struct rng *r);
/* Standard normal deviate (Box-Muller, one value per call). */
double rng_normal(struct rng *r);

#endif
