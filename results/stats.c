// SPDX-License-Identifier: GPL-2.0
/* stats.c - descriptive statistics and the order-statistic median CI. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
}

double stats_quantile_sorted(const double *s, size_t n, double p)
{
	double h, frac;
	size_t i;

	if (n == 1 || p <= 0.0)
		return s[0];
	if (p >= 1.0)
		return s[n - 1];
	h = (double)(n - 1) * p;
	i = (size_t)floor(h);
	frac = h - (double)i;
	if (i + 1 >= n)
		return s[n - 1];
	return s[i] + frac * (s[i + 1] - s[i]);
}

double stats_median_sorted(const double *s, size_t n)
{
	if (n % 2)
		return s[n / 2];
	return (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

double stats_median(const double *x, size_t n)
{
	double *c = malloc(n * sizeof(*c)), m;

	if (!c)
		abort();
	memcpy(c, x, n * sizeof(*c));
	stats_sort(c, n);
	m = stats_median_sorted(c, n);
	free(c);
	return m;
}

double stats_mean(const double *x, size_t n)
{
	double sum = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += x[i];
	return n ? sum / (double)n : NAN;
}

double stats_stddev(const double *x, size_t n)
{
	double m, ss = 0.0;
	size_t i;

	if (n < 2)
		return 0.0;
	m = stats_mean(x, n);
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (double)(n - 1));
}

void stats_trimmed_range_sorted(const double *s, size_t n, double frac,
				double *lo, double *hi)
{
	size_t k = (size_t)floor(frac * (double)n);

	if (2 * k >= n)
		k = (n - 1) / 2;
	*lo = s[k];
	*hi = s[n - 1 - k];
}

size_t stats_count_above(const double *x, size_t n, double limit)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		if (x[i] > limit)
			c++;
	return c;
}

static double log_binom_half_pmf(size_t n, size_t k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) -
	       lgamma((double)(n - k) + 1) - (double)n * M_LN2;
}

double stats_binom_half_cdf(size_t n, size_t k)
{
	double sum = 0.0;
	size_t i;

	if (k >= n)
		return 1.0;
	for (i = 0; i <= k; i++)
		sum += exp(log_binom_half_pmf(n, i));
	return sum > 1.0 ? 1.0 : sum;
}

int stats_median_ci_ranks(size_t n, double level, size_t *lo_rank,
			  size_t *hi_rank, double *coverage)
{
	const double eps = 1e-12;
	double cum;
	size_t l;

	cum = exp(log_binom_half_pmf(n, 0));	/* P(B <= 0) */
	if (n == 0 || 1.0 - 2.0 * cum < level - eps) {
		*lo_rank = 1;
		*hi_rank = n;
		*coverage = n ? 1.0 - 2.0 * cum : 0.0;
		if (*coverage < 0)
			*coverage = 0;
		return 1;
	}
	l = 1;
	for (;;) {
		double next = cum + exp(log_binom_half_pmf(n, l));

		/* rank l + 1 must stay at or below rank n + 1 - (l + 1) */
		if (2 * (l + 1) > n + 1 || 1.0 - 2.0 * next < level - eps)
			break;
		cum = next;
		l++;
	}
	*lo_rank = l;
	*hi_rank = n + 1 - l;
	*coverage = 1.0 - 2.0 * cum;
	return 0;
}

void stats_describe(const double *x, size_t n, double level, double trim_frac,
		    struct stats_desc *d)
{
	double *s = malloc(n * sizeof(*s));
	size_t lo, hi;

	if (!s)
		abort();
	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	d->n = n;
	d->min = s[0];
	d->max = s[n - 1];
	d->mean = stats_mean(s, n);
	d->stddev = stats_stddev(s, n);
	d->median = stats_median_sorted(s, n);
	d->ci_short = stats_median_ci_ranks(n, level, &lo, &hi,
					    &d->ci_coverage);
	d->ci_low = s[lo - 1];
	d->ci_high = s[hi - 1];
	stats_trimmed_range_sorted(s, n, trim_frac, &d->trim_low, &d->trim_high);
	free(s);
}

double stats_noise_band(double observed_pct, double factor, double floor_pct)
{
	return isnan(observed_pct) ? floor_pct : fmax(observed_pct * factor, floor_pct);
}

double stats_pct_change(double base, double new_)
{
	if (base == 0.0)
		return new_ == 0.0 ? 0.0 : (new_ > 0 ? INFINITY : -INFINITY);
	return 100.0 * (new_ - base) / fabs(base);
}
