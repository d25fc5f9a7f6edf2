/* SPDX-License-Identifier: GPL-2.0 */
/* emrcu/fs.h - files and paths: whole-file reads, atomic writes, labels. */
#ifndef EMRCU_LIB_FS_H
#define EMRCU_LIB_FS_H

#include <stddef.h>

struct json;

/* Whole file into a NUL-terminated malloc'd buffer; NULL (errno) on error. */
char *read_file(const char *path, size_t *len);
/* Write path.tmp.<pid>, fsync, rename to path.  0 or -1 (errno). */
int write_file_atomic(const char *path, const void *data, size_t len);
/* write_file_atomic() of json_write(j, indent); the reason in err. */
int write_json_atomic(const char *path, const struct json *j, int indent,
		      char *err, size_t errlen);
int mkdir_p(const char *path);
int file_exists(const char *path);
int is_dir(const char *path);
int is_file(const char *path);
/* dir + "/" + name into buf; -1 if it does not fit. */
int path_join(char *buf, size_t len, const char *dir, const char *name);
/* Directory part of path ("." when none) into buf. */
void path_dirname(char *buf, size_t len, const char *path);
/*
 * A stable label for path as seen from base: the relative path when path
 * is inside base, else its absolute path.  Malloc'd.
 */
char *path_label(const char *path, const char *base);
/* UTC ISO-8601 time; honours SOURCE_DATE_EPOCH (reproducible outputs). */
void iso_time_now(char *buf, size_t len);
/* Monotonic seconds. */
double now_s(void);

#endif
