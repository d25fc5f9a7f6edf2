/*
 * dts.h — add our topology to the DTS that QEMU's virt machine generated.
 *
 * The DTS (dtc -I dtb -O dts of QEMU's dumpdtb) is kept as is; an override
 * block is appended that dtc merges into it:
 *   - /cpus/cpu-map (QEMU's one-cluster map) is deleted and rewritten as
 *     socket0 { cluster0 { core0 {cpu=<&cpu>} ...} cluster1 {...} ... }:
 *     6.1's parse_socket()/parse_cluster() give every CPU package_id 0 and
 *     cluster_id = its cluster;
 *   - every cpu node gets capacity-dmips-mhz and, when llc is set,
 *     next-level-cache = one L2 cache node per cluster (/cpus/l2-cache-clusterN,
 *     cache-level 2, unified).  That makes each cluster its own LLC domain, so
 *     the MC sched domain spans one cluster and the DIE level above it spans
 *     the package with SD_ASYM_CPUCAPACITY(_FULL) across clusters.
 * cpu nodes are matched to logical CPUs in DT order (the order Linux numbers
 * them in), and their count must equal the topology's CPU count.
 */
#ifndef EMRCU_DTS_H
#define EMRCU_DTS_H

#include "emrcu/topo.h"

/* Version of the transformation: part of the DTB cache key. */
#define DTS_XFORM_VERSION 1

/* New malloc'd DTS text, or NULL with a one-line reason in err. */
char *dts_apply_topo(const char *dts, const struct topo *t, int llc,
		     char *err, size_t errlen);

#endif
