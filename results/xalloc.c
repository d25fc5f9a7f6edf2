// SPDX-License-Identifier: GPL-2.0
/* xalloc.c - allocation that cannot fail (see xalloc.h). */
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static void *nonnull(void *p)
{
	if (!p)
		abort();
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
