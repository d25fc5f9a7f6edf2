/* SPDX-License-Identifier: GPL-2.0 */
/* fsutil.h - atomic JSON output, path helpers, timestamps. */
#ifndef EMRCU_FSUTIL_H
#define EMRCU_FSUTIL_H

#include <stddef.h>

#include "json.h"

/*
 * Writes j to path atomically: a temporary file in the same directory,
 * fsync, rename.  Readers see the old file or the new one, never half.
 */
int write_json_atomic(const char *path, const struct json *j, int indent,
		      char *err, size_t errlen);
int is_dir(const char *path);
int is_file(const char *path);
/* dir + "/" + name into buf; -1 if it does not fit. */
int path_join(char *buf, size_t len, const char *dir, const char *name);
/* Directory part of path ("." when none) into buf. */
void path_dirname(char *buf, size_t len, const char *path);
/*
 * A stable label for path as seen from base: the relative path when path
 * is inside base, else its absolute path.  Both must exist.  Malloc'd.
 */
char *path_label(const char *path, const char *base);
/* UTC ISO-8601 time; honours SOURCE_DATE_EPOCH (reproducible outputs). */
void iso_time_now(char *buf, size_t len);

#endif
