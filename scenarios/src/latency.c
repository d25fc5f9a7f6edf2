// SPDX-License-Identifier: GPL-2.0
#include "latency.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "stats.h"
#include "threads.h"
#include "updater.h"

void lat_label(int hz, char *out, size_t len)
{
	if (hz)
		snprintf(out, len, "upd%dhz", hz);
	else
		snprintf(out, len, "idle");
}

struct bin {
	long at, n;	/* bin (us or ns), samples */
};

static int bin_cmp(const void *a, const void *b)
{
	const struct bin *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

/* The @q quantile of @total samples over sorted @b; the max if beyond. */
static double pctl(const struct bin *b, size_t nb, long total, double q,
		   double unit_us, double max)
{
	long want = (long)ceil(q * (double)total), acc = 0;
	size_t i;

	if (want < 1)
		want = 1;
	for (i = 0; i < nb; i++) {
		acc += b[i].n;
		if (acc >= want)
			return (double)b[i].at * unit_us;
	}
	return max;
}

static int sel_thread(const struct json *t, const struct lat_sel *sel,
		      int *take)
{
	double cpu;

	*take = 1;
	if (sel->cpu < 0)
		return 0;
	if (json_num(json_get(t, "cpu"), &cpu))
		return -1;
	*take = ((int)cpu == sel->cpu) != !!sel->others;
	return 0;
}

int lat_reduce(const char *text, const struct lat_sel *sel, double over_us,
	       struct lat_stats *st, char *err, size_t errlen)
{
	struct json_err je;
	struct json *root = json_parse(text, strlen(text), &je);
	const struct json *th;
	struct bin *b = NULL;
	size_t nb = 0, cap = 0, i, j;
	long inhist = 0, above = 0;
	double wsum = 0, res = 0, unit_us;
	int take, ret = -1;

	memset(st, 0, sizeof(*st));
	if (!root) {
		snprintf(err, errlen, "cyclictest JSON: %s at %ld", je.msg, je.offset);
		return -1;
	}
	th = json_get(root, "thread");
	json_num(json_get(root, "resolution_in_ns"), &res);
	unit_us = res == 1 ? 1e-3 : 1;
	if (json_kind(th) != JSON_OBJECT || !json_len(th)) {
		snprintf(err, errlen, "cyclictest JSON: no threads");
		goto out;
	}
	for (i = 0; i < json_len(th); i++) {
		const struct json *t = json_at(th, i), *hist = json_get(t, "histogram");
		double cyc = 0, mx = 0, avg = 0;

		if (sel_thread(t, sel, &take)) {
			snprintf(err, errlen, "cyclictest JSON: thread %s has no cpu",
				 json_key(th, i));
			goto out;
		}
		if (!take)
			continue;
		json_num(json_get(t, "cycles"), &cyc);
		json_num(json_get(t, "max"), &mx);
		json_num(json_get(t, "avg"), &avg);
		st->cycles += (long)cyc;
		wsum += avg * unit_us * cyc;
		if (mx * unit_us > st->max)
			st->max = mx * unit_us;
		for (j = 0; json_kind(hist) == JSON_OBJECT && j < json_len(hist); j++) {
			long at = strtol(json_key(hist, j), NULL, 10);
			double c = 0;

			json_num(json_at(hist, j), &c);
			if (at < 0 || c <= 0)
				continue;
			if (nb == cap) {
				cap = cap ? 2 * cap : 256;
				b = realloc(b, cap * sizeof(*b));
				if (!b)
					abort();
			}
			b[nb].at = at;
			b[nb++].n = (long)c;
			inhist += (long)c;
			if (over_us >= 0 && (double)at * unit_us > over_us)
				above += (long)c;
		}
		st->nthreads++;
	}
	if (!st->nthreads) {
		snprintf(err, errlen, "cyclictest JSON: no thread on %sCPU %d",
			 sel->others ? "a CPU other than " : "", sel->cpu);
		goto out;
	}
	if (!st->cycles) {
		snprintf(err, errlen, "cyclictest JSON: no cycles");
		goto out;
	}
	qsort(b, nb, sizeof(*b), bin_cmp);
	st->overflow = st->cycles > inhist ? st->cycles - inhist : 0;
	st->avg = wsum / (double)st->cycles;
	st->p50 = pctl(b, nb, st->cycles, 0.50, unit_us, st->max);
	st->p99 = pctl(b, nb, st->cycles, 0.99, unit_us, st->max);
	st->p999 = pctl(b, nb, st->cycles, 0.999, unit_us, st->max);
	/* overflow samples lie beyond every bin, so above any threshold */
	st->tail_pct = over_us < 0 ? NAN :
		100.0 * (double)(above + st->overflow) / (double)st->cycles;
	ret = 0;
out:
	free(b);
	json_free(root);
	return ret;
}

/* The u64 array @key of @o into a new array of doubles; its length. */
static size_t num_array(const struct json *o, const char *key, double **out)
{
	const struct json *a = json_get(o, key);
	size_t i, n = json_len(a);

	*out = calloc(n + 1, sizeof(**out));
	if (!*out)
		abort();
	for (i = 0; i < n; i++)
		json_num(json_at(a, i), &(*out)[i]);
	return n;
}

/*
 * Runs of RCU callbacks: markers (sorted times) less than LAT_BATCH_GAP_NS
 * apart.  @max_ns: the longest span of LAT_RCU_BLIMIT / 2 + 1 markers in
 * one run (LAT_RCU_BLIMIT callbacks); @sum_ns: the spans of all runs.  A
 * span misses the callback before a run's first marker: both are lower
 * estimates of the softirq time, by one callback.
 */
static void batches(double *at, size_t n, double *max_ns, double *sum_ns)
{
	const size_t k = LAT_RCU_BLIMIT / 2;
	size_t i, first = 0;

	*max_ns = *sum_ns = 0;
	stats_sort(at, n);
	for (i = 1; i <= n; i++) {
		if (i < n && at[i] - at[i - 1] < LAT_BATCH_GAP_NS) {
			if (i - first >= k && at[i] - at[i - k] > *max_ns)
				*max_ns = at[i] - at[i - k];
			continue;
		}
		if (i - first <= k && at[i - 1] - at[first] > *max_ns)
			*max_ns = at[i - 1] - at[first];
		*sum_ns += at[i - 1] - at[first];
		first = i;
	}
}

int upd_reduce(const char *text, struct upd_stats *u, char *err,
	       size_t errlen)
{
	struct json_err je;
	struct json *root = json_parse(text, strlen(text), &je);
	const struct json *up = json_get(root, "updater");
	double cpu, count = 0, rec = 0, el = 0, npd, *upd, *at, sum = 0, slot;
	double bmax, bsum;
	size_t n, nat, i, k;
	int avail = 0, null = 0;

	memset(u, 0, sizeof(*u));
	if (!root) {
		snprintf(err, errlen, "em_bench JSON: %s at %ld", je.msg, je.offset);
		return -1;
	}
	json_boolean(json_get(up, "available"), &avail);
	json_boolean(json_get(up, "null_update"), &null);
	if ((!avail && !null) || json_num(json_get(up, "cpu"), &cpu) ||
	    json_num(json_get(up, "achieved_hz"), &u->hz) ||
	    json_num(json_get(up, "elapsed_ns"), &el) || el <= 0) {
		snprintf(err, errlen, "em_bench JSON: no updater (cpu, achieved_hz, elapsed_ns)");
		json_free(root);
		return -1;
	}
	u->cpu = (int)cpu;
	u->runtime = !null;
	if (null) {
		json_free(root);
		return 0;
	}
	npd = (double)json_len(json_get(up, "pds_updated"));
	json_num(json_get(up, "count"), &count);
	json_num(json_get(up, "recorded"), &rec);
	n = num_array(up, "update_ns", &upd);
	nat = num_array(up, "callback_at_ns", &at);
	if (!n || npd < 1 || rec != (double)n || count < rec) {
		snprintf(err, errlen, "em_bench JSON: updater recorded %zu update(s) of %g (%g PDs)",
			 n, rec, npd);
		free(upd);
		free(at);
		json_free(root);
		return -1;
	}
	/* a slot updates every PD in turn, then cond_resched() */
	for (i = 0; i < n; i += (size_t)npd) {
		for (k = 0, slot = 0; k < (size_t)npd && i + k < n; k++)
			slot += upd[i + k];
		if (slot / 1000 > u->slot_max_us)
			u->slot_max_us = slot / 1000;
	}
	for (i = 0; i < n; i++)
		sum += upd[i];
	u->busy_pct = 100 * sum * (count / rec) / el;
	u->update_p50_us = stats_median_inplace(upd, n) / 1000;
	batches(at, nat, &bmax, &bsum);
	u->batch_max_us = bmax / 1000;
	/* the markers cover the recorded updates only: scale like the updates */
	u->batch_busy_pct = 100 * bsum * (count / rec) / el;
	free(upd);
	free(at);
	json_free(root);
	return 0;
}

static int add_lat(struct metrics *ms, const char *pfx, const char *label,
		   const struct lat_stats *st)
{
	char m[64];
	int ret = 0;

#define LAT(name, v) do { snprintf(m, sizeof(m), "%swakeup_%s_us", pfx, name); \
		ret |= step_add(ms, m, label, "us", "lower", -1, v); } while (0)
	LAT("p50", st->p50);
	LAT("p99", st->p99);
	LAT("p999", st->p999);
	LAT("max", st->max);
	LAT("avg", st->avg);
#undef LAT
	snprintf(m, sizeof(m), "%swakeup_overflow", pfx);
	return ret | step_add(ms, m, label, "samples", "none", -1, (double)st->overflow);
}

static char *load_file(const char *dir, const char *name, const char *label,
		       char *err, size_t errlen)
{
	char path[600];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = read_file(path, NULL);
	if (!text)
		snprintf(err, errlen, "load %s: no %s", label, path);
	return text;
}

/*
 * The updater's CPU: what every updater load's block says (they must
 * agree); -1 without any updater load.
 */
static int updater_cpu(const struct scenario *s, const char *dir,
		       struct upd_stats *us, char *err, size_t errlen)
{
	char label[32], block[48], e2[300];
	int i, cpu = -1;

	for (i = 0; i < s->lat.nloads; i++) {
		char *text;

		if (!s->lat.load_hz[i])
			continue;
		lat_label(s->lat.load_hz[i], label, sizeof(label));
		updater_block(s, i, block, sizeof(block));
		text = load_file(dir, block, label, err, errlen);
		if (!text)
			return -2;
		if (upd_reduce(text, &us[i], e2, sizeof(e2))) {
			free(text);
			snprintf(err, errlen, "load %s: %s: %s", label, block, e2);
			return -2;
		}
		free(text);
		if (cpu >= 0 && us[i].cpu != cpu) {
			snprintf(err, errlen, "load %s: updater on CPU %d, CPU %d before",
				 label, us[i].cpu, cpu);
			return -2;
		}
		cpu = us[i].cpu;
	}
	return cpu;
}

int lat_derive_run(const struct scenario *s, const char *dir,
		   struct metrics *ms, char *err, size_t errlen)
{
	struct upd_stats us[SCEN_MAX_LOADS];
	struct lat_sel all = { -1, 0 }, on, off;
	char label[32], name[48], e2[300];
	struct lat_stats st;
	double idle_max = -1;
	int i, cpu, ret = 0;

	cpu = updater_cpu(s, dir, us, err, errlen);
	if (cpu == -2)
		return -1;
	on = (struct lat_sel){ cpu, 0 };
	off = (struct lat_sel){ cpu, 1 };
	for (i = 0; i < s->lat.nloads; i++) {
		char *text;

		lat_label(s->lat.load_hz[i], label, sizeof(label));
		snprintf(name, sizeof(name), "lat-%s.json", label);
		text = load_file(dir, name, label, err, errlen);
		if (!text)
			return -1;
		if (lat_reduce(text, &all, -1, &st, e2, sizeof(e2)))
			goto bad;
		ret |= add_lat(ms, "", label, &st);
		if (cpu >= 0) {
			/* the tail: above the idle load's max on this CPU */
			if (lat_reduce(text, &on, s->lat.load_hz[i] ? idle_max : -1,
				       &st, e2, sizeof(e2)))
				goto bad;
			ret |= add_lat(ms, "ucpu_", label, &st);
			if (!s->lat.load_hz[i])
				idle_max = st.max;
			else if (idle_max >= 0)
				ret |= step_add(ms, "ucpu_wakeup_tail_pct", label, "%",
						"lower", -1, st.tail_pct);
			if (s->topo.ncpus > 1) {
				if (lat_reduce(text, &off, -1, &st, e2, sizeof(e2)))
					goto bad;
				ret |= add_lat(ms, "ocpu_", label, &st);
			}
		}
		free(text);
		if (thr_derive(dir, label, ms, err, errlen))
			return -1;
		if (!s->lat.load_hz[i])
			continue;
		ret |= step_add(ms, "updater_hz", label, "Hz", "none", -1, us[i].hz);
		if (!us[i].runtime)
			continue;
		ret |= step_add(ms, "update_p50_us", label, "us", "lower", -1, us[i].update_p50_us);
		ret |= step_add(ms, "update_slot_max_us", label, "us", "lower", -1, us[i].slot_max_us);
		ret |= step_add(ms, "update_busy_pct", label, "%", "lower", -1, us[i].busy_pct);
		ret |= step_add(ms, "rcu_batch_max_us", label, "us", "lower", -1, us[i].batch_max_us);
		ret |= step_add(ms, "rcu_batch_busy_pct", label, "%", "lower", -1, us[i].batch_busy_pct);
		continue;
bad:
		free(text);
		snprintf(err, errlen, "load %s: %s", label, e2);
		return -1;
	}
	if (ret)
		snprintf(err, errlen, "too many metrics");
	return ret;
}
