// SPDX-License-Identifier: GPL-2.0
#include "latency.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/fs.h"
#include "emrcu/json.h"

void lat_label(int hz, char *out, size_t len)
{
	if (hz)
		snprintf(out, len, "upd%dhz", hz);
	else
		snprintf(out, len, "idle");
}

static double pctl(const long *h, long total, double q, long overflow,
		   double max, int *over)
{
	long want = (long)(q * (double)total + 0.999999), acc = 0;
	int i;

	if (want < 1)
		want = 1;
	for (i = 0; i < LAT_MAX_US; i++) {
		acc += h[i];
		if (acc >= want)
			return i;
	}
	(void)overflow;
	*over = 1;
	return max;
}

int lat_reduce(const char *text, struct lat_stats *st, char *err,
	       size_t errlen)
{
	static long h[LAT_MAX_US];
	struct json_err je;
	struct json *root = json_parse(text, strlen(text), &je);
	const struct json *th;
	long inhist = 0;
	double wsum = 0;
	size_t i, j;
	int over = 0;

	memset(st, 0, sizeof(*st));
	memset(h, 0, sizeof(h));
	if (!root) {
		snprintf(err, errlen, "cyclictest JSON: %s at %ld", je.msg, je.offset);
		return -1;
	}
	th = json_get(root, "thread");
	if (json_kind(th) != JSON_OBJECT || !json_len(th)) {
		snprintf(err, errlen, "cyclictest JSON: no threads");
		json_free(root);
		return -1;
	}
	for (i = 0; i < json_len(th); i++) {
		const struct json *t = json_at(th, i), *hist = json_get(t, "histogram");
		double cyc = 0, mx = 0, avg = 0;

		json_num(json_get(t, "cycles"), &cyc);
		json_num(json_get(t, "max"), &mx);
		json_num(json_get(t, "avg"), &avg);
		st->cycles += (long)cyc;
		wsum += avg * cyc;
		if (mx > st->max)
			st->max = mx;
		for (j = 0; json_kind(hist) == JSON_OBJECT && j < json_len(hist); j++) {
			long us = strtol(json_key(hist, j), NULL, 10);
			double c = 0;

			json_num(json_at(hist, j), &c);
			if (us >= 0 && us < LAT_MAX_US) {
				h[us] += (long)c;
				inhist += (long)c;
			}
		}
		st->nthreads++;
	}
	json_free(root);
	if (!st->cycles) {
		snprintf(err, errlen, "cyclictest JSON: no cycles");
		return -1;
	}
	st->overflow = st->cycles > inhist ? st->cycles - inhist : 0;
	st->avg = wsum / (double)st->cycles;
	st->p50 = pctl(h, st->cycles, 0.50, st->overflow, st->max, &over);
	st->p99 = pctl(h, st->cycles, 0.99, st->overflow, st->max, &over);
	st->p999 = pctl(h, st->cycles, 0.999, st->overflow, st->max, &over);
	return 0;
}

int lat_derive_run(const struct scenario *s, const char *dir,
		   struct metrics *ms, char *err, size_t errlen)
{
	char label[32], path[600], n[METRIC_NAME_LEN], e2[300];
	struct lat_stats st;
	int i, ret = 0;

	for (i = 0; i < s->lat.nloads; i++) {
		char *text;

		lat_label(s->lat.load_hz[i], label, sizeof(label));
		snprintf(path, sizeof(path), "%s/lat-%s.json", dir, label);
		text = read_file(path, NULL);
		if (!text) {
			snprintf(err, errlen, "load %s: no %s", label, path);
			return -1;
		}
		ret = lat_reduce(text, &st, e2, sizeof(e2));
		free(text);
		if (ret) {
			snprintf(err, errlen, "load %s: %s", label, e2);
			return -1;
		}
#define ADD(metric, unit, v) do { snprintf(n, sizeof(n), "%s.%s", metric, label); \
		ret |= metric_add(ms, n, unit, "lower", -1, v); } while (0)
		ADD("wakeup_p50_us", "us", st.p50);
		ADD("wakeup_p99_us", "us", st.p99);
		ADD("wakeup_p999_us", "us", st.p999);
		ADD("wakeup_max_us", "us", st.max);
		ADD("wakeup_avg_us", "us", st.avg);
#undef ADD
		snprintf(n, sizeof(n), "wakeup_overflow.%s", label);
		ret |= metric_add(ms, n, "samples", "none", -1, (double)st.overflow);
	}
	if (ret)
		snprintf(err, errlen, "too many metrics");
	return ret;
}
