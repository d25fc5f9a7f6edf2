/* SPDX-License-Identifier: GPL-2.0 */
/*
 * figure.h - one figure of a summary.json, its identity key, and loading
 * a summary with schema validation (shared by summarize, compare, tests).
 *
 * A figure is identified by (name, variant, mode, preempt, update_hz,
 * cluster, nr_states, scenario); the last two are 0 / "" when absent.
 */
#ifndef EMRCU_FIGURE_H
#define EMRCU_FIGURE_H

#include <stddef.h>

#include "emrcu/json.h"

#define SUMMARY_SCHEMA "emrcu/summary/1"
#define NOISE_SCHEMA "emrcu/noise/1"
#define FIG_KEY_MAX 512

struct fig {
	const struct json *node;
	const char *name, *unit, *variant, *mode, *preempt, *better, *scenario;
	double update_hz;
	long cluster, nr_states, n;
	double median, ci_low, ci_high;
	double spread_pct;	/* NAN when the figure has none */
	/* per-boot medians ("boot_medians"): how many, their range */
	long nboots;
	double boot_min, boot_max;
	char key[FIG_KEY_MAX];	/* matching key (variant "*" after a select) */
	char id_key[FIG_KEY_MAX];	/* its full identity (noise look-up) */
};

/* Canonical key of a figure object (the fields above); -1 if incomplete. */
int fig_key_json(const struct json *fig, char *buf, size_t len);
/* Human-readable identity: "name variant mode preempt hz=H pdC ...". */
void fig_label(const struct fig *f, char *buf, size_t len);
/* Validates one figure object; err says which field is wrong. */
int fig_from_json(const struct json *node, struct fig *f, char *err,
		  size_t errlen);

struct summary {
	struct json *root;
	struct fig *figs;
	size_t n;
};

/* Loads and validates a summary.json (schema, fields, unique keys). */
int summary_load(const char *path, struct summary *s, char *err, size_t errlen);
void summary_free(struct summary *s);
const struct fig *summary_find(const struct summary *s, const char *key);
/*
 * Keeps only the figures of one variant and matches them by the rest of
 * their identity (key with variant "*"), so that two columns of one or two
 * summaries can be compared (patched vs custom).  -1 and err when no
 * figure has that variant.
 */
int summary_select(struct summary *s, const char *variant, const char *path,
		   char *err, size_t errlen);
/*
 * "FILE:VARIANT" -> FILE and VARIANT when FILE exists and VARIANT is a
 * plain name; else the whole argument is the file and *variant = NULL.
 * file must hold strlen(arg) + 1 bytes.
 */
void summary_arg(const char *arg, char *file, const char **variant);

#endif
