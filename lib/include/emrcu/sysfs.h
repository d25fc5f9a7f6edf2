/* SPDX-License-Identifier: GPL-2.0 */
/* emrcu/sysfs.h - small sysfs/procfs files and the kernel's cpulist format. */
#ifndef EMRCU_LIB_SYSFS_H
#define EMRCU_LIB_SYSFS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EMRCU_MAX_CPUS 64

/* Read a whole (small) file, NUL-terminated, trailing newline removed.
 * Returns the length or -1. */
int read_text(const char *path, char *buf, size_t size);

/* Write @val to the (sysfs, debugfs, tracefs) file @path, truncating it
 * first when @trunc: 0, or -errno (-EIO on a short write). */
int sysfs_write(const char *path, const char *val, int trunc);

/* Read one decimal integer from a file.  0 on success, -1 on error. */
int read_long(const char *path, long *val);

/* Parse "0-3,6,8-9" (or "0 1 2 3" as in cpufreq's related_cpus) into a
 * bit mask.  Returns the number of CPUs, or -1 on a malformed list or a
 * CPU >= EMRCU_MAX_CPUS. */
int parse_cpulist(const char *s, uint64_t *mask);

/* The CPUs of @mask as a JSON array ("[0,1,4]"). */
void cpulist_fput_json(FILE *f, uint64_t mask);

#endif
