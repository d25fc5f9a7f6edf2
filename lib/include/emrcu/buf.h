/* SPDX-License-Identifier: GPL-2.0 */
/* emrcu/buf.h - a growable byte buffer, always NUL terminated. */
#ifndef EMRCU_LIB_BUF_H
#define EMRCU_LIB_BUF_H

#include <stddef.h>

struct buf {
	char *p;
	size_t len;
	size_t cap;
};

void buf_add(struct buf *b, const void *data, size_t len);
void buf_adds(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_free(struct buf *b);

#endif
