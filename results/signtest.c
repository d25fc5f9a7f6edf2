// SPDX-License-Identifier: GPL-2.0
/* signtest.c - the exact sign test on paired differences (see signtest.h). */
#include <math.h>

#include "signtest.h"
#include "stats.h"

void sign_add(struct sign_count *c, double d, double tie)
{
	if (d > tie)
		c->wins++;
	else if (d < -tie)
		c->losses++;
	else
		c->ties++;
}

/* P(X >= k) = P(X <= n - k) for X ~ Bin(n, 1/2). */
static double upper_tail(int n, int k)
{
	return k <= 0 ? 1 : k > n ? 0 : stats_binom_half_cdf((size_t)n, (size_t)(n - k));
}

double sign_p_one(const struct sign_count *c)
{
	return upper_tail(c->wins + c->losses, c->wins);
}

double sign_p_two(const struct sign_count *c)
{
	int n = c->wins + c->losses;
	double up = upper_tail(n, c->wins), down = upper_tail(n, c->losses);
	double p = 2 * (up < down ? up : down);

	return p > 1 ? 1 : p;
}

double sign_p_floor(const struct sign_count *c)
{
	return pow(0.5, c->wins + c->losses + c->ties);
}
