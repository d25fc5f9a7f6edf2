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

/* Field @key's words but "-" into @w (a copy in *@buf): how many, or -1. */
static int words(const struct fctx *f, const char *key, int required,
		 char **buf, char **w)
{
	const struct conf_entry *e;
	char *all[MAXW + 1];
	int n, i, k = 0;

	*buf = NULL;
	if (fget(f, key, required, &e))
		return -1;
	if (!e)
		return 0;
	*buf = xstrdup(e->val);
	n = fwords(*buf, all, MAXW);
	if (n > MAXW)
		return ferr(f, e, key, "more than %d words", MAXW);
	for (i = 0; i < n; i++)
		if (strcmp(all[i], "-"))
			w[k++] = all[i];
	return k;
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
	struct fctx f = { .c = c, .err = err, .errlen = errlen };
	char *bufs[7] = { 0 }, *modes[MAXW], *hz[MAXW], *base[MAXW], *num_[MAXW];
	char *ro[MAXW], *cols[MAXW];
	struct config cfg[4 * MAXW * MAXW];
	const struct conf_entry *e;
	const char *topo, *build, *pds, *inject = NULL;
	long boots, boots_rt, nruns, tmo, idle;
	int nm, nh, nb, nn, nr, nc, ncfg = 0, i, k, m, b, col, rc = -1;

	nm = words(&f, "modes", 1, &bufs[0], modes);
	nh = nm < 0 ? -1 : words(&f, "update_hz", 1, &bufs[1], hz);
	nb = nh < 0 ? -1 : words(&f, "baselines", 1, &bufs[2], base);
	nn = nb < 0 ? -1 : words(&f, "numerators", 1, &bufs[3], num_);
	nr = nn < 0 ? -1 : words(&f, "readers_only", 0, &bufs[4], ro);
	nc = nr < 0 ? -1 : words(&f, "columns", 1, &bufs[5], cols);
	if (nc < 0 || fstr(&f, "topo", 1, &topo) || fstr(&f, "build", 1, &build) ||
	    fstr(&f, "test_pds", 1, &pds) ||
	    fint(&f, "boots", 1, 1, 1000, 0, &boots) ||
	    fint(&f, "boots_realtime", 1, 1, 1000, 0, &boots_rt) ||
	    fint(&f, "nruns", 1, 1, 1000000, 0, &nruns) ||
	    fint(&f, "timeout_s", 0, 1, 86400, 300, &tmo) ||
	    fint(&f, "idle_timeout_s", 0, 1, 86400, 120, &idle))
		goto out;
	if (has(cols, nc, "N")) {
		if (fstr(&f, "inject", 1, &inject))
			goto out;
	} else if (fget(&f, "inject", 0, &e) || e) {
		if (e)
			ferr(&f, e, "inject", "only with column N");
		goto out;
	}
	if (!nc)
		cols[nc++] = NULL;	/* "-": one unnamed column */
	for (i = 0; i < nm; i++) {
		if (strcmp(modes[i], "deterministic") && strcmp(modes[i], "realtime")) {
			snprintf(err, errlen, "%s: field modes: '%s' is not a mode", c->path, modes[i]);
			goto out;
		}
	}
	if (funknown(&f))
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
