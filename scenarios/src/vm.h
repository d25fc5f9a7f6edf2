/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm.h - the environment of a scenario run: where things are, kernel
 * variants (built? runtime EM? preempt?), out-of-tree modules (built by
 * bench/kmod.sh, which serialises kernel builds), and what one boot
 * through qemu-runner/emrcu-run needs (bench/driver runs it: drive.h).
 */
#ifndef EMRCU_SCEN_VM_H
#define EMRCU_SCEN_VM_H

#include <stddef.h>

#define VM_MAX_MODULES 4
#define VM_MAX_FILES 40

struct env {
	char top[512];		/* the repository */
	char build[512];	/* $BUILD or TOP/build */
};

void env_init(struct env *e, const char *top);

/* build/VARIANT/out/arch/arm64/boot/Image exists. */
int variant_built(const struct env *e, const char *variant);
/* The variant's energy_model.h has em_dev_update_perf_domain(). */
int variant_runtime_em(const struct env *e, const char *variant);
/* "none", "voluntary", "full" or "unknown", from the variant's .config. */
const char *variant_preempt(const struct env *e, const char *variant);

/* bench/kmod.sh VARIANT DIR: the .ko path into @ko.  0, or -1 (log kept). */
int module_build(const struct env *e, const char *variant, const char *dir,
		 char *ko, size_t len, const char *log);

struct vm_boot {
	const char *variant, *mode, *topo, *outdir, *cmd_file, *log;
	int timeout_s;
	int nmod;
	const char *module[VM_MAX_MODULES];	/* PATH.ko[:params] */
	int nfile;
	const char *file[VM_MAX_FILES];		/* HOST[:GUEST] */
	const char *exec_trace;			/* emrcu-run --exec-trace, or NULL */
};

/* The runner's verdict line ("emrcu-run: ...") from @log, or "". */
void vm_verdict(const char *log, char *out, size_t len);

#endif
