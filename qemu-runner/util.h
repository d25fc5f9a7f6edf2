/* util.h — small helpers shared by the runner and its tools. */
#ifndef EMRCU_UTIL_H
#define EMRCU_UTIL_H

#include <stddef.h>

/* Growable byte buffer, always NUL terminated. */
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

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whole file into a NUL-terminated malloc'd buffer; NULL (errno) on error. */
char *read_file(const char *path, size_t *len);
/* Write path.tmp.<pid>, then rename to path.  0 or -1 (errno). */
int write_file_atomic(const char *path, const void *data, size_t len);
int mkdir_p(const char *path);
int file_exists(const char *path);
/* Monotonic seconds. */
double now_s(void);

#endif
