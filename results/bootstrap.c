// SPDX-License-Identifier: GPL-2.0
/* bootstrap.c - fixed-seed percentile bootstrap: ratio of medians, line fit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "stats.h"
#include "emrcu/xalloc.h"

/* k-th smallest (0-based) of b[0..n-1], reordering b; 3-way quickselect. */
static double select_kth(double *b, size_t n, size_t k)
{
	size_t lo = 0, hi = n;	/* search in [lo, hi) */

	while (hi - lo > 1) {
		double a = b[lo], m = b[lo + (hi - lo) / 2], c = b[hi - 1];
		double pivot = a < m ? (m < c ? m : (a < c ? c : a)) :
				       (a < c ? a : (m < c ? c : m));
		size_t lt = lo, i = lo, gt = hi;

		while (i < gt) {
			if (b[i] < pivot) {
				double t = b[lt];

				b[lt++] = b[i];
				b[i++] = t;
			} else if (b[i] > pivot) {
				double t = b[--gt];

				b[gt] = b[i];
				b[i] = t;
			} else {
				i++;
			}
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
	return b[lo];
}

double stats_median_inplace(double *b, size_t n)
{
	double m = select_kth(b, n, n / 2), lower;
	size_t i;

	if (n % 2)
		return m;
	/* after selection, b[0..n/2-1] <= m: the lower middle is their max */
	lower = b[0];
	for (i = 1; i < n / 2; i++)
		if (b[i] > lower)
			lower = b[i];
	return (lower + m) / 2.0;
}

static double resampled_median(struct rng *r, const double *x, size_t n,
			       double *buf)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = x[rng_below(r, n)];
	return stats_median_inplace(buf, n);
}

/* Percentile interval + sd of reps[0..n-1] (sorted in place). */
static void finish(double *reps, unsigned int n, double level,
		   struct stats_boot *out)
{
	out->resamples = n;
	if (!n) {
		out->lo = out->hi = out->sd = NAN;
		return;
	}
	out->sd = stats_stddev(reps, n);
	stats_sort(reps, n);
	out->lo = stats_quantile_sorted(reps, n, (1.0 - level) / 2.0);
	out->hi = stats_quantile_sorted(reps, n, (1.0 + level) / 2.0);
}

int stats_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		   double level, unsigned int resamples, uint64_t seed,
		   struct stats_boot *out)
{
	double ma, mb, *buf, *reps;
	unsigned int i, used = 0;
	struct rng r;

	if (!na || !nb || !resamples)
		return -1;
	ma = stats_median(a, na);
	mb = stats_median(b, nb);
	if (mb == 0.0)
		return -1;
	out->point = ma / mb;
	buf = xmalloc((na > nb ? na : nb) * sizeof(*buf));
	reps = xmalloc(resamples * sizeof(*reps));
	rng_seed(&r, seed);
	for (i = 0; i < resamples; i++) {
		double ra = resampled_median(&r, a, na, buf);
		double rb = resampled_median(&r, b, nb, buf);

		if (rb != 0.0 && isfinite(ra / rb))
			reps[used++] = ra / rb;
	}
	finish(reps, used, level, out);
	free(buf);
	free(reps);
	return used ? 0 : -1;
}

int stats_linfit(const double *x, const double *y, size_t n, double *slope,
		 double *intercept, double *r2)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0, ssr = 0;
	size_t i;

	if (n < 2)
		return -1;
	mx = stats_mean(x, n);
	my = stats_mean(y, n);
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx == 0.0)
		return -1;
	*slope = sxy / sxx;
	*intercept = my - *slope * mx;
	for (i = 0; i < n; i++) {
		double e = y[i] - (*slope * x[i] + *intercept);

		ssr += e * e;
	}
	*r2 = syy > 0.0 ? 1.0 - ssr / syy : 1.0;
	return 0;
}

static double det3(const double m[3][3])
{
	return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
	       m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
	       m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

int stats_quadfit(const double *x, const double *y, size_t n, double *c2)
{
	double s[5] = { 0 }, t[3] = { 0 }, m[3][3], mc[3][3], d, mx;
	size_t i;
	int r, k;

	if (n < 3)
		return -1;
	mx = stats_mean(x, n);	/* centred: same x^2 coefficient, better conditioned */
	for (i = 0; i < n; i++) {
		double u = x[i] - mx, p = 1;

		for (k = 0; k < 5; k++) {
			s[k] += p;
			if (k < 3)
				t[k] += p * y[i];
			p *= u;
		}
	}
	for (r = 0; r < 3; r++)
		for (k = 0; k < 3; k++)
			m[r][k] = s[r + k];
	d = det3(m);
	if (fabs(d) <= 1e-12 * fabs(s[2] * s[2] * s[4]) || d == 0.0)
		return -1;
	memcpy(mc, m, sizeof(m));
	for (r = 0; r < 3; r++)
		mc[r][2] = t[r];
	*c2 = det3(mc) / d;
	return 0;
}

int stats_linfit_medians_ci(const double *x, const double *const *ys,
			    const size_t *ny, size_t ngroups, double level,
			    unsigned int resamples, uint64_t seed,
			    struct stats_fit *out)
{
	double *ym = xmalloc(ngroups * sizeof(*ym)), *buf;
	double *rs = xmalloc(resamples * sizeof(double));
	double *ri = xmalloc(resamples * sizeof(double));
	double *rr = xmalloc(resamples * sizeof(double));
	size_t g, maxn = 1;
	unsigned int i, used = 0;
	struct rng r;
	int ret = -1;

	for (g = 0; g < ngroups; g++) {
		if (!ny[g])
			goto out;
		if (ny[g] > maxn)
			maxn = ny[g];
		ym[g] = stats_median(ys[g], ny[g]);
	}
	if (stats_linfit(x, ym, ngroups, &out->slope.point,
			 &out->intercept.point, &out->r2.point))
		goto out;
	buf = xmalloc(maxn * sizeof(*buf));
	rng_seed(&r, seed);
	for (i = 0; i < resamples; i++) {
		for (g = 0; g < ngroups; g++)
			ym[g] = resampled_median(&r, ys[g], ny[g], buf);
		if (!stats_linfit(x, ym, ngroups, &rs[used], &ri[used],
				  &rr[used]))
			used++;
	}
	free(buf);
	finish(rs, used, level, &out->slope);
	finish(ri, used, level, &out->intercept);
	finish(rr, used, level, &out->r2);
	ret = used ? 0 : -1;
out:
	free(ym);
	free(rs);
	free(ri);
	free(rr);
	return ret;
}
