/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emrcu/field.h - typed fields of a parsed `key = value` file (conf.h),
 * errors naming file, line and field: "FILE:LINE: field KEY: reason".
 */
#ifndef EMRCU_LIB_FIELD_H
#define EMRCU_LIB_FIELD_H

#include <stddef.h>

#include "emrcu/conf.h"
#include "emrcu/str.h"

struct fctx {
	struct conf *c;
	int quick;
	char *err;
	size_t errlen;
};

/* "FILE:LINE: field KEY: " + message (FILE: when @e is NULL). */
int ferr(const struct fctx *f, const struct conf_entry *e, const char *key,
	 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * A field: *e set (NULL when absent; -1 when @required and absent, or given
 * twice).  Returns 0 on success.
 */
int fget(const struct fctx *f, const char *key, int required,
	 const struct conf_entry **e);

/* Integer / number / word in [lo, hi]; the default when absent. */
int fint(const struct fctx *f, const char *key, int required, long lo,
	 long hi, long def, long *out);
int fnum(const struct fctx *f, const char *key, int required, double lo,
	 double hi, double def, double *out);

/*
 * A word into @out (@def when absent), one of @allowed (NULL-terminated)
 * unless @allowed is NULL.
 */
int fword(const struct fctx *f, const char *key, int required,
	  const char *def, const char *const *allowed, char *out, size_t len);

/* A string field: *out NULL when absent (-1 when @required). */
int fstr(const struct fctx *f, const char *key, int required,
	 const char **out);

/* -1 with "FILE:LINE: field KEY: unknown" when a field nobody asked for
 * is left, else 0. */
int funknown(const struct fctx *f);

/* Split a value into blank-separated words (modifies @buf).  Count. */
int fwords(char *buf, char **w, int max);

#endif
