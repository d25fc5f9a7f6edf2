/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pool.h - sample pools, one per figure identity.  Every run directory
 * adds its samples to the pool of the figure they belong to; runs that
 * share a figure identity are pooled (all passes of all of them).
 */
#ifndef EMRCU_POOL_H
#define EMRCU_POOL_H

#include <stddef.h>

#include "figure.h"
#include "emrcu/json.h"

struct pool {
	struct json *tmpl;	/* identity + descriptive fields of the figure */
	char key[FIG_KEY_MAX];
	double *x;
	size_t *src;		/* x[i] came from sources[src[i]] */
	size_t n, cap;
	struct json *sources;	/* labels of the runs that contributed */
};

struct pools {
	struct pool *p;
	size_t n, cap;
};

/* New figure template: the identity fields in schema order. */
struct json *fig_template(const char *name, const char *unit,
			  const char *better, const char *variant,
			  const char *mode, const char *preempt,
			  double update_hz, long cluster);

/*
 * The pool for tmpl (ownership taken).  A pool with the same identity but
 * other descriptive fields (unit, shift, OPP count…) is a conflict: NULL,
 * err says which figure.
 */
struct pool *pools_get(struct pools *ps, struct json *tmpl, char *err,
		       size_t errlen);
void pool_add(struct pool *p, double v, const char *source);
void pools_free(struct pools *ps);

#endif
