/* SPDX-License-Identifier: GPL-2.0 */
/*
 * provenance.h - what a boot's figures depend on beyond emrcu-run's own
 * options, for meta.json: the host, the harness's commit, the kernel tree
 * and what was applied to it.  Each is JSON null when it cannot be read
 * (no git, a kernel built elsewhere).
 */
#ifndef EMRCU_PROVENANCE_H
#define EMRCU_PROVENANCE_H

struct json;

/* {"cpu_model", "ncpus", "mem_mb"} of this machine. */
struct json *prov_host(void);

/* {"commit", "dirty"} of the work tree at @top (dirty: tracked changes). */
struct json *prov_harness(const char *top);

/*
 * {"base", "source_tree", "inputs"} of variant @variant under @build: the
 * pristine tree's commit subject (linux-source-6.1 and its version), the
 * git tree hash of the variant's source after its patches (equal trees,
 * equal sources), kernel/variant.sh's hash of its inputs.
 */
struct json *prov_kernel(const char *build, const char *variant);

#endif
