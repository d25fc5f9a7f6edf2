/* SPDX-License-Identifier: GPL-2.0 */
/* emrcu/xalloc.h - allocation that cannot fail: out of memory aborts. */
#ifndef EMRCU_LIB_XALLOC_H
#define EMRCU_LIB_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

/* malloc(n), at least one byte. */
void *xmalloc(size_t n);
/* calloc(1, n): zeroed, at least one byte. */
void *xzalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
