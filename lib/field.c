// SPDX-License-Identifier: GPL-2.0
#include "emrcu/field.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ferr(const struct fctx *f, const struct conf_entry *e, const char *key,
	 const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (e && e->line > 0)
		snprintf(f->err, f->errlen, "%s:%d: field %s: %s", f->c->path,
			 e->line, key, msg);
	else if (e)
		snprintf(f->err, f->errlen, "%s: field %s (command line): %s",
			 f->c->path, key, msg);
	else
		snprintf(f->err, f->errlen, "%s: field %s: %s", f->c->path, key,
			 msg);
	return -1;
}

int fget(const struct fctx *f, const char *key, int required,
	 const struct conf_entry **e)
{
	int dup;

	*e = conf_get(f->c, key, f->quick, f->err, f->errlen, &dup);
	if (dup)
		return -1;
	if (!*e && required)
		return ferr(f, NULL, key, "missing");
	return 0;
}

int fint(const struct fctx *f, const char *key, int required, long lo,
	 long hi, long def, long *out)
{
	const struct conf_entry *e;

	if (fget(f, key, required, &e))
		return -1;
	*out = def;
	if (!e)
		return 0;
	if (str_to_long(e->val, out))
		return ferr(f, e, key, "'%s' is not an integer", e->val);
	if (*out < lo || *out > hi)
		return ferr(f, e, key, "%ld out of range %ld..%ld", *out, lo, hi);
	return 0;
}

int fnum(const struct fctx *f, const char *key, int required, double lo,
	 double hi, double def, double *out)
{
	const struct conf_entry *e;

	if (fget(f, key, required, &e))
		return -1;
	*out = def;
	if (!e)
		return 0;
	if (str_to_double(e->val, out))
		return ferr(f, e, key, "'%s' is not a number", e->val);
	if (*out < lo || *out > hi)
		return ferr(f, e, key, "%g out of range %g..%g", *out, lo, hi);
	return 0;
}

int fstr(const struct fctx *f, const char *key, int required,
	 const char **out)
{
	const struct conf_entry *e;

	*out = NULL;
	if (fget(f, key, required, &e))
		return -1;
	*out = e ? e->val : NULL;
	return 0;
}

int funknown(const struct fctx *f)
{
	const struct conf_entry *u = conf_unused(f->c);

	return u ? ferr(f, u, u->key, "unknown") : 0;
}

int fwords(char *buf, char **w, int max)
{
	char *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(buf, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return max + 1;
		w[n++] = tok;
	}
	return n;
}

int fword(const struct fctx *f, const char *key, int required,
	  const char *def, const char *const *allowed, char *out, size_t len)
{
	const struct conf_entry *e;
	const char *v;
	int i;

	if (fget(f, key, required, &e))
		return -1;
	v = e ? e->val : def;
	if (strlen(v) >= len)
		return ferr(f, e, key, "longer than %zu characters", len - 1);
	memcpy(out, v, strlen(v) + 1);
	if (!e || !allowed)
		return 0;
	for (i = 0; allowed[i]; i++)
		if (!strcmp(out, allowed[i]))
			return 0;
	return ferr(f, e, key, "'%s' is not one of the allowed values", e->val);
}
