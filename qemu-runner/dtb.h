/*
 * dtb.h — the boot DTB of a topology, cached under <build>/dtb/.
 *
 * QEMU's own DTB is dumped with exactly the -machine/-cpu/-smp/-m of the boot,
 * decompiled with dtc, rewritten by dts_apply_topo() and compiled back.  The
 * cache key is the SHA-256 of the QEMU version, the machine arguments, the
 * topology, the llc flag and DTS_XFORM_VERSION.  QEMU still writes /chosen
 * (bootargs, initrd) into a -dtb at boot, so kernel and initrd are not part
 * of the key.
 */
#ifndef EMRCU_DTB_H
#define EMRCU_DTB_H

#include "run.h"

/* Path of the DTB (malloc'd), or NULL with a reason in err. */
char *dtb_get(const struct run_opts *o, const char *qemu_version, char *err, size_t errlen);

#endif
