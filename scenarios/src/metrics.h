/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - the figures of one run directory, written as its
 * scenario.json (results/SCHEMA.md section 3): one metric per (name,
 * cluster) with its samples; emrcu-summarize turns each into a figure.
 */
#ifndef EMRCU_SCEN_METRICS_H
#define EMRCU_SCEN_METRICS_H

#define METRIC_NAME_LEN 96
#define METRICS_MAX 2048
#define METRIC_MAX_SAMPLES 64

struct metric {
	char name[METRIC_NAME_LEN];
	char unit[24];
	char better[8];		/* lower, higher, none */
	int cluster;		/* -1: not cluster-specific */
	int n;
	double v[METRIC_MAX_SAMPLES];
};

struct metrics {
	int n;
	struct metric m[METRICS_MAX];
};

/* Add one sample to metric (name, cluster), creating it.  0, or -1 when
 * full or a name, unit or better is too long for its field. */
int metric_add(struct metrics *ms, const char *name, const char *unit,
	       const char *better, int cluster, double v);

/* The metric (name, cluster), or NULL. */
const struct metric *metric_find(const struct metrics *ms, const char *name,
				 int cluster);

struct json;
/*
 * scenario.json: schema, scenario, variant, preempt, constants (@constants
 * is taken over, may be NULL), metrics.  0, or -1 (err names the file).
 */
int metrics_write(const char *path, const char *scenario, const char *variant,
		  const char *preempt, struct json *constants,
		  const struct metrics *ms, char *err, size_t errlen);

#endif
