/*
 * overlay.h — the per-boot cpio appended to the base initramfs.
 *
 * Contents (guest protocol):
 *   /emrcu/cmd                          the guest command (shell script)
 *   /lib/modules-emrcu/NN-name.ko       modules in load order (NN = 00, 01, ...)
 *   /lib/modules-emrcu/NN-name.params   their parameters, when given
 *   any --file HOST:GUEST               (default /emrcu/bin/NAME)
 * Linux unpacks concatenated cpio archives in order, so these entries land
 * on top of the base image.
 */
#ifndef EMRCU_OVERLAY_H
#define EMRCU_OVERLAY_H

#include "run.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

/* Guest file name of module i ("03-em_bench.ko"), malloc'd. */
char *overlay_module_name(const char *path, int index);
/* Overlay cpio into out; 0, or -1 with a reason in err. */
int overlay_build(const struct run_opts *o, struct buf *out, char *err, size_t errlen);
/* base image + 4-byte alignment + overlay, written atomically to path. */
int overlay_write_initrd(const char *base, const struct buf *overlay, const char *path,
			 char *err, size_t errlen);

#endif
