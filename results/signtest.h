/* SPDX-License-Identifier: GPL-2.0 */
/*
 * signtest.h - the exact sign test on paired differences (boots paired by
 * index: same seed, same position in the interleaved order).  Each pair
 * is a win for one side when the difference exceeds a tie band, a loss when
 * it falls below minus the band, else a tie (ties are dropped, as the test
 * prescribes).  Under "no difference" wins ~ Binomial(wins + losses, 1/2).
 */
#ifndef EMRCU_SIGNTEST_H
#define EMRCU_SIGNTEST_H

struct sign_count {
	int wins, losses, ties;
};

/* Classify d against the tie band @tie (>= 0). */
void sign_add(struct sign_count *c, double d, double tie);

/* P(X >= wins) for X ~ Bin(wins + losses, 1/2): one-sided p; 1 with no pair. */
double sign_p_one(const struct sign_count *c);

/* Two-sided: 2 min(P(X >= wins), P(X <= wins)), at most 1. */
double sign_p_two(const struct sign_count *c);

/*
 * The smallest one-sided p that these pairs, ties included, could have
 * given: 2^-(wins + losses + ties).  A test whose floor is above its level
 * cannot decide; one that can, and sees only ties, finds no difference.
 */
double sign_p_floor(const struct sign_count *c);

#endif
