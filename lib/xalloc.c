// SPDX-License-Identifier: GPL-2.0
/* xalloc.c - allocation that cannot fail (see emrcu/xalloc.h). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/xalloc.h"

static void *nonnull(void *p)
{
	if (!p) {
		fputs("out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return nonnull(malloc(n ? n : 1));
}

void *xzalloc(size_t n)
{
	return nonnull(calloc(1, n ? n : 1));
}

void *xrealloc(void *p, size_t n)
{
	return nonnull(realloc(p, n ? n : 1));
}

char *xstrdup(const char *s)
{
	return nonnull(strdup(s));
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	return nonnull(vasprintf(&s, fmt, ap) < 0 ? NULL : s);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
