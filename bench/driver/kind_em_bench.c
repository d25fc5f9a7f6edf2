// SPDX-License-Identifier: GPL-2.0
/*
 * kind_em_bench.c - em_bench sweeps: every variant x update rate (x the
 * same-table and scaling flavours of a runtime-EM kernel) x mode x boot x
 * A/A column, each one boot of emrcu-run with emrcu_platform and em_bench.
 *
 * Fields (lists are words, "-" for none):
 *   kind = em_bench            topo = SPEC        build = DIR (the variants')
 *   modes = deterministic realtime                boots = N   boots_realtime = N
 *   nruns = N                  update_hz = 0 100 1000 10000
 *   baselines = VARIANTS       numerators = VARIANTS
 *   readers_only = VARIANTS    numerators without the runtime API (optional)
 *   test_pds = LIST            columns = - | A B | A B N
 *   inject = PARAM             em_bench parameter of column N (with N only)
 *   timeout_s = 300            idle_timeout_s = 120    (optional)
 * A baseline runs its readers at every rate too, with em_bench's null
 * updater above 0, so that each updater figure of a numerator is divided by
 * the same load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "emrcu/xalloc.h"

#define MAXW 32

struct decl {
	struct conf *c;
	char *err;
	size_t errlen;
};

/* Field @key's words into @w (a copy in *@buf): how many, -1 on error. */
static int words(struct decl *d, const char *key, int required, char **buf,
		 char **w)
{
	const struct conf_entry *e;
	char *s, *save = NULL;
	int n = 0, dup;

	*buf = NULL;
	e = conf_get(d->c, key, 0, d->err, d->errlen, &dup);
	if (dup)
		return -1;
	if (!e) {
		if (!required)
			return 0;
		snprintf(d->err, d->errlen, "%s: field %s: missing", d->c->path, key);
		return -1;
	}
	*buf = xstrdup(e->val);
	for (s = strtok_r(*buf, " \t", &save); s; s = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(s, "-"))
			continue;
		if (n == MAXW) {
			snprintf(d->err, d->errlen, "%s:%d: field %s: more than %d words",
				 d->c->path, e->line, key, MAXW);
			return -1;
		}
		w[n++] = s;
	}
	return n;
}

/* Field @key as an integer in [lo, hi]; @def when absent and def >= 0. */
static int num(struct decl *d, const char *key, long lo, long hi, long def, long *out)
{
	const struct conf_entry *e;
	char *end;
	int dup;

	e = conf_get(d->c, key, 0, d->err, d->errlen, &dup);
	if (dup)
		return -1;
	if (!e) {
		if (def >= 0) {
			*out = def;
			return 0;
		}
		snprintf(d->err, d->errlen, "%s: field %s: missing", d->c->path, key);
		return -1;
	}
	*out = strtol(e->val, &end, 10);
	if (end == e->val || *end || *out < lo || *out > hi) {
		snprintf(d->err, d->errlen, "%s:%d: field %s: '%s' is not an integer in [%ld, %ld]",
			 d->c->path, e->line, key, e->val, lo, hi);
		return -1;
	}
	return 0;
}

static int has(char *const *w, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(w[i], s))
			return 1;
	return 0;
}

/* One (variant, update rate, flavour) configuration. */
struct config {
	const char *variant;
	const char *hz;
	int baseline, same, scaling;
};

static int plan(struct conf *c, struct cells *out, char *err, size_t errlen)
{
	struct decl d = { c, err, errlen };
	char *bufs[7] = { 0 }, *modes[MAXW], *hz[MAXW], *base[MAXW], *num_[MAXW];
	char *ro[MAXW], *cols[MAXW];
	struct config cfg[4 * MAXW * MAXW];
	const char *topo, *build, *pds, *inject = NULL;
	long boots, boots_rt, nruns, tmo, idle;
	int nm, nh, nb, nn, nr, nc, ncfg = 0, i, k, m, b, col, rc = -1, bad = 0;

	nm = words(&d, "modes", 1, &bufs[0], modes);
	nh = nm < 0 ? -1 : words(&d, "update_hz", 1, &bufs[1], hz);
	nb = nh < 0 ? -1 : words(&d, "baselines", 1, &bufs[2], base);
	nn = nb < 0 ? -1 : words(&d, "numerators", 1, &bufs[3], num_);
	nr = nn < 0 ? -1 : words(&d, "readers_only", 0, &bufs[4], ro);
	nc = nr < 0 ? -1 : words(&d, "columns", 1, &bufs[5], cols);
	if (nc < 0 || !(topo = cells_field(c, "topo", 1, err, errlen, &bad)) ||
	    !(build = cells_field(c, "build", 1, err, errlen, &bad)) ||
	    !(pds = cells_field(c, "test_pds", 1, err, errlen, &bad)) ||
	    num(&d, "boots", 1, 1000, -1, &boots) ||
	    num(&d, "boots_realtime", 1, 1000, -1, &boots_rt) ||
	    num(&d, "nruns", 1, 1000000, -1, &nruns) ||
	    num(&d, "timeout_s", 1, 86400, 300, &tmo) ||
	    num(&d, "idle_timeout_s", 1, 86400, 120, &idle))
		goto out;
	if (has(cols, nc, "N")) {
		if (!(inject = cells_field(c, "inject", 1, err, errlen, &bad)))
			goto out;
	} else {
		int dup;

		if (conf_get(c, "inject", 0, err, errlen, &dup)) {
			snprintf(err, errlen, "%s: field inject: only with column N", c->path);
			goto out;
		}
	}
	if (!nc)
		cols[nc++] = NULL;	/* "-": one unnamed column */
	for (i = 0; i < nm; i++) {
		if (strcmp(modes[i], "deterministic") && strcmp(modes[i], "realtime")) {
			snprintf(err, errlen, "%s: field modes: '%s' is not a mode", c->path, modes[i]);
			goto out;
		}
	}
	if (cells_unknown(c, err, errlen))
		goto out;

	for (i = 0; i < nb; i++)
		for (k = 0; k < nh; k++)
			cfg[ncfg++] = (struct config){ base[i], hz[k], 1, 0, 0 };
	for (i = 0; i < nn; i++) {
		if (has(ro, nr, num_[i])) {
			cfg[ncfg++] = (struct config){ num_[i], "0", 0, 0, 0 };
			continue;
		}
		for (k = 0; k < nh; k++)
			cfg[ncfg++] = (struct config){ num_[i], hz[k], 0, 0, 0 };
		for (k = 0; k < nh; k++)
			if (strcmp(hz[k], "0"))
				cfg[ncfg++] = (struct config){ num_[i], hz[k], 0, 1, 0 };
		cfg[ncfg++] = (struct config){ num_[i], "0", 0, 0, 1 };
	}

	for (m = 0; m < nm; m++) {
		long nboots = strcmp(modes[m], "realtime") ? boots : boots_rt;

		for (i = 0; i < ncfg; i++) {
			const struct config *f = &cfg[i];
			char tag[80], params[256], what[64];

			if (f->scaling) {
				snprintf(tag, sizeof(tag), "%s-%s-scaling", f->variant, modes[m]);
				snprintf(params, sizeof(params), "nruns=20 scaling=1 mode_hint=%s",
					 modes[m]);
				snprintf(what, sizeof(what), "update-cost scaling");
			} else {
				snprintf(tag, sizeof(tag), "%s-%s-hz%s%s", f->variant, modes[m],
					 f->hz, f->same ? "-same" : "");
				snprintf(params, sizeof(params), "nruns=%ld update_hz=%s mode_hint=%s%s%s",
					 nruns, f->hz, modes[m],
					 f->baseline && strcmp(f->hz, "0") ? " null_update=1" : "",
					 f->same ? " same_table=1" : "");
				snprintf(what, sizeof(what), "update_hz=%s%s", f->hz,
					 f->same ? " (same table)" :
					 f->baseline && strcmp(f->hz, "0") ? " (null updater)" : "");
			}
			/* A/A: columns alternate boot by boot, so host drift lands in both */
			for (b = 1; b <= nboots; b++) {
				for (col = 0; col < nc; col++) {
					struct cell *x = cells_add(out);
					int n = cols[col] && !strcmp(cols[col], "N");

					if (cols[col])
						snprintf(x->id, sizeof(x->id), "%s-%s-b%d", tag, cols[col], b);
					else
						snprintf(x->id, sizeof(x->id), "%s-b%d", tag, b);
					snprintf(x->variant, sizeof(x->variant), "%s", f->variant);
					snprintf(x->mode, sizeof(x->mode), "%s", modes[m]);
					snprintf(x->what, sizeof(x->what), "%s boot %d%s", what, b,
						 cols[col] ? cols[col] : "");
					cell_arg(x, "--variant");
					cell_arg(x, "%s", f->variant);
					cell_arg(x, "--mode");
					cell_arg(x, "%s", modes[m]);
					cell_arg(x, "--topo");
					cell_arg(x, "%s", topo);
					cell_arg(x, "--module");
					cell_arg(x, "%s/%s/mod/platform/emrcu_platform.ko:test_pds=%s",
						 build, f->variant, pds);
					cell_arg(x, "--module");
					cell_arg(x, "%s/%s/mod/em_bench/em_bench.ko:%s%s%s", build,
						 f->variant, params, n ? " " : "", n ? inject : "");
					cell_arg(x, "--timeout");
					cell_arg(x, "%ld", tmo);
					cell_arg(x, "--idle-timeout");
					cell_arg(x, "%ld", idle);
				}
			}
		}
	}
	rc = 0;
out:
	for (i = 0; i < 7; i++)
		free(bufs[i]);
	return rc;
}

const struct kind_ops em_bench_kind = { "em_bench", plan };
