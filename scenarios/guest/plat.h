/* SPDX-License-Identifier: GPL-2.0 */
/* emrcu_platform's debugfs files and the guest protocol's result blocks. */
#ifndef EMRCU_SCEN_PLAT_H
#define EMRCU_SCEN_PLAT_H

#include <stdio.h>

#define PLAT_DIR "/sys/kernel/debug/emrcu_platform"

/* Write @val to PLAT_DIR/@file.  0, or -errno. */
int plat_write(const char *file, const char *val);

/* The platform's file PLAT_DIR/@file as a malloc'd string, or NULL. */
char *plat_read(const char *file);

/* Set temperature, profile and bin.  0, or -errno naming the file in err. */
int plat_set_cond(int temp_mc, const char *profile, int bin_mv, char *err,
		  size_t errlen);

/* Does the kernel have the runtime-modifiable EM (em_update "supported")? */
int plat_runtime_em(void);

/*
 * @text as the result block @name.  JSON is broken into short lines after
 * "}," and "],", so that no console line gets long.
 */
void block_print(FILE *f, const char *name, const char *text);

#endif
