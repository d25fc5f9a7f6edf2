// SPDX-License-Identifier: GPL-2.0
/* cells.c - cells and the table of kinds (see cells.h). */
#define _GNU_SOURCE
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cells.h"
#include "emrcu/xalloc.h"

static const struct kind_ops *const kinds[] = { &em_bench_kind, &scenario_kind, &boot_kind, NULL };

const char *cells_top(void)
{
	static char top[PATH_MAX];
	char exe[PATH_MAX];
	ssize_t n;

	if (top[0])
		return top;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	snprintf(top, sizeof(top), "%s/../..", n > 0 ? dirname(exe) : ".");
	return top;
}

const struct kind_ops *cells_kind(struct conf *decl, char *err, size_t errlen)
{
	const struct conf_entry *e;
	int i, dup;

	e = conf_get(decl, "kind", 0, err, errlen, &dup);
	if (dup)
		return NULL;
	if (!e) {
		snprintf(err, errlen, "%s: field kind: missing", decl->path);
		return NULL;
	}
	/* run.*: the run's record for readers downstream, not the kind's */
	for (i = 0; i < decl->n; i++)
		if (!strncmp(decl->e[i].key, "run.", 4))
			decl->e[i].used = 1;
	for (i = 0; kinds[i]; i++)
		if (!strcmp(e->val, kinds[i]->name))
			return kinds[i];
	snprintf(err, errlen, "%s:%d: field kind: unknown kind '%s'", decl->path,
		 e->line, e->val);
	return NULL;
}

struct cell *cells_add(struct cells *cs)
{
	if (cs->n == cs->cap) {
		cs->cap = cs->cap ? 2 * cs->cap : 64;
		cs->c = xrealloc(cs->c, cs->cap * sizeof(*cs->c));
	}
	memset(&cs->c[cs->n], 0, sizeof(cs->c[0]));
	return &cs->c[cs->n++];
}

void cell_arg(struct cell *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nargs == CELL_MAX_ARGS) {
		fputs("emrcu-cells: too many arguments for one cell\n", stderr);
		abort();
	}
	va_start(ap, fmt);
	c->args[c->nargs++] = xvasprintf(fmt, ap);
	va_end(ap);
}

void cells_free(struct cells *cs)
{
	size_t i;
	int k;

	for (i = 0; i < cs->n; i++)
		for (k = 0; k < cs->c[i].nargs; k++)
			free(cs->c[i].args[k]);
	free(cs->c);
	memset(cs, 0, sizeof(*cs));
}
