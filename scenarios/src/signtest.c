// SPDX-License-Identifier: GPL-2.0
#include "signtest.h"

#include <math.h>

void sign_add(struct sign_count *c, double d, double tie)
{
	if (d > tie)
		c->wins++;
	else if (d < -tie)
		c->losses++;
	else
		c->ties++;
}

/* P(X >= k), X ~ Bin(n, 1/2), summed in the log domain (n is small). */
static double upper_tail(int n, int k)
{
	double p = 0;
	int i;

	for (i = k; i <= n; i++)
		p += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) -
			 n * log(2.0));
	return p > 1 ? 1 : p;
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
