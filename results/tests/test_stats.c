// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - unit tests of stats.c, bootstrap.c and rng.c against
 * hand-derivable values (binomial ranks, quantiles, least squares) and
 * property checks (coverage of the intervals by simulation, scale
 * equivariance, determinism of the fixed seed).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "signtest.h"
#include "stats.h"
#include "check.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

TEST(test_median_quantile)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
	double s[] = { 1, 2, 3, 4, 5 };

	assert_close(stats_median(odd, 3), 2, 0, "median {3,1,2}");
	assert_close(stats_median(even, 4), 2.5, 0, "median {4,1,3,2}");
	assert_close(stats_median(one, 1), 7, 0, "median {7}");
	assert_msg(odd[0] == 3, "stats_median leaves its input alone");
	assert_close(stats_quantile_sorted(s, 5, 0.25), 2, 1e-15, "q25");
	assert_close(stats_quantile_sorted(s, 5, 0.1), 1.4, 1e-15, "q10");
	assert_close(stats_quantile_sorted(s, 5, 0.9), 4.6, 1e-15, "q90");
	assert_close(stats_quantile_sorted(s, 5, 0), 1, 0, "q0");
	assert_close(stats_quantile_sorted(s, 5, 1), 5, 0, "q100");
}

TEST(test_median_inplace)
{
	struct rng r;
	int t, bad = 0;

	rng_seed(&r, 42);
	for (t = 0; t < 2000; t++) {
		size_t n = 1 + rng_below(&r, 60), i;
		double x[64], ref;

		for (i = 0; i < n; i++)	/* many ties, like deterministic data */
			x[i] = (double)rng_below(&r, t % 2 ? 3 : 1000);
		ref = stats_median(x, n);
		if (stats_median_inplace(x, n) != ref)
			bad++;
	}
	assert_msg(!bad, "%d of 2000 selections differ from sort", bad);
}

TEST(test_mean_sd_range)
{
	double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 }, lo, hi, s[20];
	int i;

	assert_close(stats_mean(x, N(x)), 5, 0, "mean");
	assert_close(stats_stddev(x, N(x)), sqrt(32.0 / 7.0), 1e-15, "sample sd");
	assert_close(stats_stddev(x, 1), 0, 0, "sd of one sample");
	for (i = 0; i < 20; i++)
		s[i] = i + 1;
	stats_trimmed_range_sorted(s, 20, 0.05, &lo, &hi);
	assert_msg(lo == 2 && hi == 19, "5%% trim of 1..20 = [2, 19], got [%g, %g]",
		 lo, hi);
	stats_trimmed_range_sorted(s, 20, 0, &lo, &hi);
	assert_msg(lo == 1 && hi == 20, "no trim = [min, max]");
	assert_msg(stats_count_above(x, N(x), 5) == 2, "two above 5");
}

TEST(test_binomial)
{
	assert_close(stats_binom_half_cdf(10, 1), 11.0 / 1024, 1e-15, "P(B10 <= 1)");
	assert_close(stats_binom_half_cdf(10, 5), 638.0 / 1024, 1e-14, "P(B10 <= 5)");
	assert_close(stats_binom_half_cdf(100, 39), 0.017600100108852407, 1e-12,
	       "P(B100 <= 39)");
	assert_close(stats_binom_half_cdf(7, 7), 1, 0, "P(B7 <= 7)");
}

struct ranks {
	size_t n, lo, hi;
	double cov;
	int shortfall;
};

TEST(test_ci_ranks)
{
	/* exact values: 1 - 2 P(B <= l-1), B ~ Binomial(n, 1/2) */
	static const struct ranks cases[] = {
		{ 1, 1, 1, 0.0, 1 },
		{ 5, 1, 5, 0.9375, 1 },
		{ 6, 1, 6, 0.96875, 0 },
		{ 9, 2, 8, 0.9609375, 0 },
		{ 10, 2, 9, 0.978515625, 0 },
		{ 20, 6, 15, 0.9586105346679688, 0 },
		{ 40, 14, 27, 0.9615226917157997, 0 },
		{ 100, 40, 61, 0.9647997997822952, 0 },
		{ 1000, 469, 532, 0.9537088026395019, 0 },
	};
	size_t i;

	for (i = 0; i < N(cases); i++) {
		size_t lo, hi;
		double cov;
		int s = stats_median_ci_ranks(cases[i].n, 0.95, &lo, &hi, &cov);

		assert_msg(s == cases[i].shortfall && lo == cases[i].lo &&
			 hi == cases[i].hi && fabs(cov - cases[i].cov) < 1e-9,
			 "n=%zu: ranks [%zu, %zu] cov %.10f short %d", cases[i].n,
			 lo, hi, cov, s);
	}
}

TEST(test_describe)
{
	double x[] = { 7, 3, 10, 1, 5, 9, 2, 8, 4, 6 };
	struct stats_desc d;

	stats_describe(x, N(x), 0.95, 0.1, &d);
	assert_msg(d.n == 10 && d.min == 1 && d.max == 10 && d.median == 5.5,
		 "n/min/max/median");
	assert_msg(d.ci_low == 2 && d.ci_high == 9 && !d.ci_short,
		 "CI [x(2), x(9)] = [2, 9], got [%g, %g]", d.ci_low, d.ci_high);
	assert_msg(d.trim_low == 2 && d.trim_high == 9, "10%% trimmed range");
	assert_close(d.mean, 5.5, 1e-15, "mean");
}

/* Exponential samples (skewed): true median ln 2. */
TEST(test_ci_coverage)
{
	const int trials = 4000, n = 25;
	size_t lo, hi;
	double cov, x[25], se;
	struct rng r;
	int t, i, hit = 0;

	stats_median_ci_ranks((size_t)n, 0.95, &lo, &hi, &cov);
	rng_seed(&r, 7);
	for (t = 0; t < trials; t++) {
		struct stats_desc d;

		for (i = 0; i < n; i++)
			x[i] = -log(1.0 - rng_uniform(&r));
		stats_describe(x, (size_t)n, 0.95, 0, &d);
		hit += d.ci_low <= M_LN2 && M_LN2 <= d.ci_high;
	}
	se = sqrt(cov * (1 - cov) / trials);
	assert_msg(fabs((double)hit / trials - cov) < 4 * se,
		 "coverage %.4f, exact %.4f", (double)hit / trials, cov);
}

TEST(test_ratio)
{
	double a[40], b[40], a3[40], c76[20], c74[30];
	struct stats_boot r1, r2, r3, rc;
	struct rng r;
	int i, t, hit = 0;
	const int trials = 300;

	for (i = 0; i < 20; i++)
		c76[i] = 76;
	for (i = 0; i < 30; i++)
		c74[i] = 74;
	assert_msg(!stats_ratio_ci(c76, 20, c74, 30, 0.95, 2000, 1, &rc) &&
		 rc.point == 76.0 / 74 && rc.lo == rc.point && rc.hi == rc.point,
		 "constant samples: exact ratio, zero-width CI");
	rng_seed(&r, 3);
	for (i = 0; i < 40; i++) {
		a[i] = 100 + 5 * rng_normal(&r);
		b[i] = 80 + 5 * rng_normal(&r);
		a3[i] = 3 * a[i];
	}
	stats_ratio_ci(a, 40, b, 40, 0.95, 2000, 99, &r1);
	stats_ratio_ci(a, 40, b, 40, 0.95, 2000, 99, &r2);
	stats_ratio_ci(a3, 40, b, 40, 0.95, 2000, 99, &r3);
	assert_msg(r1.lo == r2.lo && r1.hi == r2.hi && r1.sd == r2.sd,
		 "same seed, same interval");
	assert_msg(r1.lo < r1.point && r1.point < r1.hi, "interval around the estimate");
	assert_close(r1.point, stats_median(a, 40) / stats_median(b, 40), 1e-15, "point");
	assert_close(r3.lo / r1.lo, 3, 1e-12, "scale equivariance (lo)");
	assert_close(r3.hi / r1.hi, 3, 1e-12, "scale equivariance (hi)");
	assert_msg(r1.resamples == 2000, "all replicates used");
	assert_msg(stats_ratio_ci(a, 40, b, 0, 0.95, 2000, 1, &rc) == -1,
		 "empty sample rejected");

	/* coverage of the true ratio 100/80 by simulation (normal data) */
	for (t = 0; t < trials; t++) {
		struct stats_boot q;

		for (i = 0; i < 40; i++) {
			a[i] = 100 + 5 * rng_normal(&r);
			b[i] = 80 + 5 * rng_normal(&r);
		}
		stats_ratio_ci(a, 40, b, 40, 0.95, 1000, (uint64_t)t, &q);
		hit += q.lo <= 1.25 && 1.25 <= q.hi;
	}
	assert_msg(hit >= 0.90 * trials && hit <= 0.995 * trials,
		 "ratio coverage %d/%d", hit, trials);
}

TEST(test_linfit)
{
	double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 5, 4, 5 }, yl[5];
	double c[] = { 3, 3, 3 }, s, i0, r2;
	int k;

	assert_msg(!stats_linfit(x, y, 5, &s, &i0, &r2), "fits");
	assert_close(s, 0.6, 1e-14, "slope");
	assert_close(i0, 2.2, 1e-14, "intercept");
	assert_close(r2, 0.6, 1e-14, "r2");
	for (k = 0; k < 5; k++)
		yl[k] = 1.5 * x[k] + 2;
	stats_linfit(x, yl, 5, &s, &i0, &r2);
	assert_msg(fabs(s - 1.5) < 1e-14 && fabs(i0 - 2) < 1e-14 && r2 == 1,
		 "exact line");
	assert_msg(stats_linfit(c, y, 3, &s, &i0, &r2) == -1, "constant x rejected");
	assert_msg(stats_linfit(x, y, 1, &s, &i0, &r2) == -1, "one point rejected");
}

TEST(test_quadfit)
{
	double x[] = { 4, 8, 16, 32, 64 }, y[5], c[] = { 3, 3, 5 }, c2;
	int k;

	for (k = 0; k < 5; k++)
		y[k] = 1.5 * x[k] + 2;
	assert_msg(!stats_quadfit(x, y, 5, &c2) && fabs(c2) < 1e-12,
		 "a line has no curvature (%g)", c2);
	for (k = 0; k < 5; k++)
		y[k] = 0.01 * x[k] * x[k] + 1.5 * x[k] + 2;
	assert_msg(!stats_quadfit(x, y, 5, &c2), "fits");
	assert_close(c2, 0.01, 1e-12, "x^2 coefficient recovered");
	assert_msg(stats_quadfit(x, y, 2, &c2) == -1, "two points rejected");
	assert_msg(stats_quadfit(c, y, 3, &c2) == -1, "two distinct x rejected");
}

TEST(test_linfit_ci)
{
	double xs[4] = { 4, 8, 16, 32 }, g[4][30];
	const double *ys[4] = { g[0], g[1], g[2], g[3] };
	size_t ny[4] = { 30, 30, 30, 30 };
	struct stats_fit f, f2;
	struct rng r;
	int k, i;

	rng_seed(&r, 11);
	for (k = 0; k < 4; k++)
		for (i = 0; i < 30; i++)
			g[k][i] = 2 + 1.5 * xs[k] + 0.3 * rng_normal(&r);
	assert_msg(!stats_linfit_medians_ci(xs, ys, ny, 4, 0.95, 2000, 5, &f),
		 "fits");
	assert_msg(f.slope.lo < 1.5 && 1.5 < f.slope.hi,
		 "slope CI [%g, %g] holds 1.5", f.slope.lo, f.slope.hi);
	assert_msg(f.intercept.lo < 2 && 2 < f.intercept.hi,
		 "intercept CI [%g, %g] holds 2", f.intercept.lo, f.intercept.hi);
	assert_msg(f.slope.hi - f.slope.lo < 0.05, "slope CI is tight");
	assert_msg(f.r2.point > 0.999 && f.r2.hi <= 1, "r2 near 1");
	stats_linfit_medians_ci(xs, ys, ny, 4, 0.95, 2000, 5, &f2);
	assert_msg(f2.slope.lo == f.slope.lo && f2.r2.hi == f.r2.hi,
		 "deterministic with the fixed seed");
	assert_msg(stats_linfit_medians_ci(xs, ys, ny, 1, 0.95, 100, 5, &f) == -1,
		 "one group rejected");
}

TEST(test_rng)
{
	struct rng a, b;
	int i, same = 1, counts[10] = { 0 }, inrange = 1;
	double chi = 0;

	rng_seed(&a, 20230522);
	rng_seed(&b, 20230522);
	for (i = 0; i < 1000; i++)
		same &= rng_next(&a) == rng_next(&b);
	assert_msg(same, "same seed, same stream");
	rng_seed(&b, 20230523);
	assert_msg(rng_next(&a) != rng_next(&b), "other seed, other stream");
	for (i = 0; i < 100000; i++) {
		double u = rng_uniform(&a);

		inrange &= u >= 0 && u < 1;
		counts[rng_below(&a, 10)]++;
	}
	for (i = 0; i < 10; i++)
		chi += (counts[i] - 10000.0) * (counts[i] - 10000.0) / 10000.0;
	assert_msg(inrange, "uniform in [0, 1)");
	/* chi-square, 9 degrees of freedom: P(> 27.9) = 0.001 */
	assert_msg(chi < 27.9, "rng_below(10) chi-square %g", chi);
}

/* The exact sign test; ties are dropped. */
TEST(test_sign)
{
	struct sign_count c = { 0 };
	int i;

	for (i = 0; i < 5; i++)
		sign_add(&c, 3, 0.1);
	sign_add(&c, 0.05, 0.1);		/* a tie: dropped */
	assert_true(c.wins == 5 && c.ties == 1 && !c.losses);
	assert_close(sign_p_one(&c), 1.0 / 32, 1e-12, "sign_p_one(&c)");
	assert_close(sign_p_two(&c), 1.0 / 16, 1e-12, "sign_p_two(&c)");
	assert_close(sign_p_floor(&c), 1.0 / 64, 1e-12, "sign_p_floor(&c)");
	sign_add(&c, -1, 0.1);
	sign_add(&c, -1, 0.1);
	/* 5 of 7: P(X >= 5) = (21 + 7 + 1) / 128 */
	assert_close(sign_p_one(&c), 29.0 / 128, 1e-12, "sign_p_one(&c)");
	assert_close(sign_p_two(&c), 58.0 / 128, 1e-12, "sign_p_two(&c)");
	memset(&c, 0, sizeof(c));
	assert_close(sign_p_one(&c), 1, 0, "sign_p_one(&c)");
}

/* The noise rule: max(observed x factor, floor), the floor when unobserved. */
TEST(test_noise_band)
{
	assert_close(stats_noise_band(3, 2, 0.5), 6, 0, "3 % x 2");
	assert_close(stats_noise_band(0.1, 2, 0.5), 0.5, 0, "floor");
	assert_close(stats_noise_band(NAN, 2, 0.5), 0.5, 0, "unobserved: floor");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("results/stats.median_quantile", test_median_quantile),
		NAMED("results/stats.median_selection_matches_sort", test_median_inplace),
		NAMED("results/stats.mean_stddev_trim_count", test_mean_sd_range),
		NAMED("results/stats.binomial_cdf", test_binomial),
		NAMED("results/stats.median_ci_ranks", test_ci_ranks),
		NAMED("results/stats.describe", test_describe),
		NAMED("results/stats.median_ci_coverage_property", test_ci_coverage),
		NAMED("results/stats.ratio_ci", test_ratio),
		NAMED("results/stats.linfit", test_linfit),
		NAMED("results/stats.quadfit", test_quadfit),
		NAMED("results/stats.linfit_medians_ci", test_linfit_ci),
		NAMED("results/rng.determinism_uniformity", test_rng),
		NAMED("results/stats.sign_test", test_sign),
		NAMED("results/stats.noise_band", test_noise_band),
	};
	int rc;

	rc = run_group("results", tests);
	return rc ? 1 : 0;
}
