// SPDX-License-Identifier: GPL-2.0
/*
 * kind_boot.c - one guest boot declared field by field: the torture runs
 * (stress/run.sh) and any other single boot whose checks its caller makes.
 *
 * Fields:
 *   kind = boot                variant = NAME        mode = realtime | deterministic
 *   outdir = DIR               log = FILE            (emrcu-run's output)
 *   module = PATH.ko[:PARAMS]  (repeatable, in order)
 *   file = HOST[:GUEST]        (repeatable)          cmd_file = FILE (optional)
 *   topo = SPEC, append = KERNEL-ARGS (optional)
 *   timeout_s = 300            idle_timeout_s = 120  (optional)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "emrcu/str.h"

/* An absent value, or a count of seconds >= 1. */
static int secs(const char *v)
{
	long t;

	return !v || (!str_to_long(v, &t) && t >= 1);
}

static int plan(struct conf *c, struct cells *out, char *err, size_t errlen)
{
	struct fctx f = { .c = c, .err = err, .errlen = errlen };
	const struct conf_entry *mods[16], *files[16];
	const char *v, *mode, *dir, *log, *cmd, *topo, *app, *tmo, *idle;
	struct cell *x;
	int nm, nf, i;

	if (fstr(&f, "variant", 1, &v) || fstr(&f, "mode", 1, &mode) ||
	    fstr(&f, "outdir", 1, &dir) || fstr(&f, "log", 1, &log) ||
	    fstr(&f, "cmd_file", 0, &cmd) || fstr(&f, "topo", 0, &topo) ||
	    fstr(&f, "append", 0, &app) || fstr(&f, "timeout_s", 0, &tmo) ||
	    fstr(&f, "idle_timeout_s", 0, &idle))
		return -1;
	if (strcmp(mode, "realtime") && strcmp(mode, "deterministic")) {
		snprintf(err, errlen, "%s: field mode: '%s' is not a mode", c->path, mode);
		return -1;
	}
	if (!secs(tmo) || !secs(idle)) {
		snprintf(err, errlen, "%s: field %s: seconds (>= 1)", c->path,
			 secs(tmo) ? "idle_timeout_s" : "timeout_s");
		return -1;
	}
	nm = conf_get_all(c, "module", 0, mods, 16);
	nf = conf_get_all(c, "file", 0, files, 16);
	if (funknown(&f))
		return -1;
	x = cells_add(out);
	if (snprintf(x->id, sizeof(x->id), "boot-%s", v) >= (int)sizeof(x->id) ||
	    snprintf(x->variant, sizeof(x->variant), "%s", v) >= (int)sizeof(x->variant) ||
	    snprintf(x->outdir, sizeof(x->outdir), "%s", dir) >= (int)sizeof(x->outdir) ||
	    snprintf(x->log, sizeof(x->log), "%s", log) >= (int)sizeof(x->log)) {
		snprintf(err, errlen, "%s: a field is too long", c->path);
		return -1;
	}
	snprintf(x->mode, sizeof(x->mode), "%s", mode);
	snprintf(x->what, sizeof(x->what), "one boot");
	cell_arg(x, "--variant");
	cell_arg(x, "%s", v);
	cell_arg(x, "--mode");
	cell_arg(x, "%s", mode);
	if (topo) {
		cell_arg(x, "--topo");
		cell_arg(x, "%s", topo);
	}
	for (i = 0; i < nm; i++) {
		cell_arg(x, "--module");
		cell_arg(x, "%s", mods[i]->val);
	}
	for (i = 0; i < nf; i++) {
		cell_arg(x, "--file");
		cell_arg(x, "%s", files[i]->val);
	}
	if (cmd) {
		cell_arg(x, "--cmd-file");
		cell_arg(x, "%s", cmd);
	}
	if (app) {
		cell_arg(x, "--append");
		cell_arg(x, "%s", app);
	}
	cell_arg(x, "--timeout");
	cell_arg(x, "%s", tmo ? tmo : "300");
	cell_arg(x, "--idle-timeout");
	cell_arg(x, "%s", idle ? idle : "120");
	return 0;
}

const struct kind_ops boot_kind = { "boot", plan };
