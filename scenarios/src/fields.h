/* SPDX-License-Identifier: GPL-2.0 */
/* fields.h - typed access to scenario fields, errors naming file and field. */
#ifndef EMRCU_SCEN_FIELDS_H
#define EMRCU_SCEN_FIELDS_H

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

/* Split a value into blank-separated words (modifies @buf).  Count. */
int fwords(char *buf, char **w, int max);

#endif
