/*
 * cpio.h — "newc" (SVR4, no CRC) cpio writer, the format of Linux's
 * initramfs (Documentation/driver-api/early-userspace/buffer-format.rst).
 * Archives are built in memory; cpio_end() writes the TRAILER!!! entry and
 * pads to a 4-byte boundary so that another archive can follow.
 */
#ifndef EMRCU_CPIO_H
#define EMRCU_CPIO_H

#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

struct cpio {
	struct buf out;
	unsigned int ino;
	unsigned int mtime;
};

void cpio_init(struct cpio *c, unsigned int mtime);
/* name without leading '/', e.g. "emrcu/cmd". mode: permission bits only. */
void cpio_dir(struct cpio *c, const char *name, unsigned int mode);
void cpio_file(struct cpio *c, const char *name, unsigned int mode,
	       const void *data, size_t len);
void cpio_end(struct cpio *c);

#endif
