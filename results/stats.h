/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - descriptive statistics and confidence intervals for emrcu.
 *
 * Methods (stated here once, printed into every summary.json):
 *  - quantiles: linear interpolation between order statistics (Hyndman &
 *    Fan type 7, R's default); the median of an even sample is the mean of
 *    the two middle values.
 *  - stddev: sample standard deviation (n - 1 denominator).
 *  - CI of a median: distribution-free, from order statistics.  With
 *    B ~ Binomial(n, 1/2), the interval [x(l), x(n+1-l)] (1-based ranks)
 *    covers the population median with probability 1 - 2 P(B <= l - 1);
 *    l is the largest rank for which that is >= the requested level.  Only
 *    assumes independent, identically distributed samples.  When n is too
 *    small for the level (n < 6 at 95 %), [min, max] is returned with its
 *    true (lower) coverage and the call says so.
 *  - CI of a ratio of medians of two independent samples: percentile
 *    bootstrap, each sample resampled with replacement on its own, the
 *    ratio of the resampled medians taken B times, with a fixed seed
 *    (rng.h), so the same data always gives the same interval.
 *  - Linear fit: ordinary least squares; its CI by a stratified bootstrap
 *    (each x's samples resampled, line refitted through the medians).
 */
#ifndef EMRCU_STATS_H
#define EMRCU_STATS_H

#include <stddef.h>
#include <stdint.h>

void stats_sort(double *x, size_t n);
/* p in [0, 1]; s sorted ascending, n > 0. */
double stats_quantile_sorted(const double *s, size_t n, double p);
double stats_median_sorted(const double *s, size_t n);
/* Median of unsorted data (copies; x is not modified). */
double stats_median(const double *x, size_t n);
/* Median by selection in O(n), reordering x (bootstrap inner loop). */
double stats_median_inplace(double *x, size_t n);
double stats_mean(const double *x, size_t n);
double stats_stddev(const double *x, size_t n);	/* 0 when n < 2 */
/* Range left after dropping floor(frac * n) samples at each end. */
void stats_trimmed_range_sorted(const double *s, size_t n, double frac,
				double *lo, double *hi);
size_t stats_count_above(const double *x, size_t n, double limit);

/*
 * The noise band a change must exceed, the rule of the gate and of the
 * scenario verdicts alike: max(observed x factor, floor), in %; the floor
 * alone when nothing was observed (NaN).
 */
double stats_noise_band(double observed_pct, double factor, double floor_pct);
/* 100 (new - base) / |base|; +-inf (0 if both are 0) when base is 0. */
double stats_pct_change(double base, double new_);

/* P(B <= k) for B ~ Binomial(n, 1/2). */
double stats_binom_half_cdf(size_t n, size_t k);
/*
 * 1-based ranks [*lo_rank, *hi_rank] of the order-statistic CI of the
 * median at the given level and its exact coverage.  Returns 0 when the
 * level is reached, 1 when n is too small (ranks 1..n, coverage below level).
 */
int stats_median_ci_ranks(size_t n, double level, size_t *lo_rank,
			  size_t *hi_rank, double *coverage);

struct stats_desc {
	size_t n;
	double min, max, mean, stddev, median;
	double ci_low, ci_high, ci_coverage;
	int ci_short;		/* 1: n too small, coverage < level */
	double trim_low, trim_high;
};

/* Fills d from n > 0 samples (x is not modified). */
void stats_describe(const double *x, size_t n, double level, double trim_frac,
		    struct stats_desc *d);

struct stats_boot {
	double point;		/* statistic on the original samples */
	double lo, hi;		/* percentile interval */
	double sd;		/* standard deviation of the replicates */
	unsigned int resamples;	/* replicates actually used (finite) */
};

/* median(a) / median(b), a and b independent; returns -1 if unusable. */
int stats_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		   double level, unsigned int resamples, uint64_t seed,
		   struct stats_boot *out);

/* OLS y = slope * x + intercept; returns -1 when n < 2 or x is constant. */
int stats_linfit(const double *x, const double *y, size_t n, double *slope,
		 double *intercept, double *r2);

/*
 * OLS y = c0 + c1 x + c2 x^2: *c2, the curvature a straight-line fit
 * hides; returns -1 with fewer than 3 distinct x.
 */
int stats_quadfit(const double *x, const double *y, size_t n, double *c2);

struct stats_fit {
	struct stats_boot slope, intercept, r2;
};

/*
 * Fit through the medians of groups (x[g], samples ys[g][0..ny[g]-1]);
 * bootstrap CI by resampling inside each group.  Needs >= 2 distinct x.
 */
int stats_linfit_medians_ci(const double *x, const double *const *ys,
			    const size_t *ny, size_t ngroups, double level,
			    unsigned int resamples, uint64_t seed,
			    struct stats_fit *out);

#endif
