/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cells.h - a declared run expanded into cells.
 *
 * A declaration (a `key = value` file, lib/emrcu/conf.h) names its kind;
 * the kind's ops expand it into independent cells.  Fields run.* are the
 * run's record for its readers and no kind's.  A cell is one guest
 * boot: variant, mode, its identity (the output directory's name) and the
 * emrcu-run arguments that make it.  Cells share nothing, so any subset can
 * run, in any order; deterministic cells (icount: time is instructions)
 * can run side by side without changing their figures.
 */
#ifndef EMRCU_CELLS_H
#define EMRCU_CELLS_H

#include <stddef.h>

#include "emrcu/conf.h"
#include "emrcu/field.h"

#define CELL_MAX_ARGS 128

struct cell {
	char id[128];		/* unique; RUNDIR/runs/<id> */
	char variant[64];
	char mode[16];		/* deterministic | realtime */
	char what[128];		/* one progress phrase, e.g. "update_hz=100" */
	char outdir[1024];	/* "": RUNDIR/runs/<id> */
	char log[1100];		/* "": <outdir>.log */
	int nargs;
	char *args[CELL_MAX_ARGS];	/* emrcu-run arguments, --outdir excluded */
};

struct cells {
	size_t n, cap;
	struct cell *c;
};

struct kind_ops {
	const char *name;
	/* Expand @decl into @out; -1 with "FILE:LINE: field KEY: why" in err. */
	int (*plan)(struct conf *decl, struct cells *out, char *err, size_t errlen);
};

/* The kind @decl declares (field `kind`), or NULL with the reason in err. */
const struct kind_ops *cells_kind(struct conf *decl, char *err, size_t errlen);

/* The repository this program belongs to (its directory's ../..). */
const char *cells_top(void);

/* A new cell at the end of @cs (zeroed). */
struct cell *cells_add(struct cells *cs);
/* Appends a copy of printf-formatted @fmt to @c's arguments. */
void cell_arg(struct cell *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cells_free(struct cells *cs);

/* The kinds. */
extern const struct kind_ops em_bench_kind, scenario_kind, boot_kind;

#endif
