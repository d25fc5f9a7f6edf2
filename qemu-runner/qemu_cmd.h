/* qemu_cmd.h — QEMU command lines (boot and DTB dump share the machine). */
#ifndef EMRCU_QEMU_CMD_H
#define EMRCU_QEMU_CMD_H

#include "run.h"

struct argv {
	char **v;
	int n;
	int cap;
};

void argv_add(struct argv *a, const char *s);
void argv_addf(struct argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void argv_free(struct argv *a);
/* Space-separated, shell-quoted when needed (for logs). */
char *argv_join(const struct argv *a);

/* -machine/-cpu/-smp/-m: exactly what the DTB must be dumped with. */
void qemu_machine_args(const struct run_opts *o, struct argv *a, const char *dumpdtb);
/* Full boot command, under `timeout`. */
void qemu_boot_argv(const struct run_opts *o, const char *dtb, const char *initrd,
		    const char *cmdline, struct argv *a);
/* DTB dump command, under `timeout`. */
void qemu_dumpdtb_argv(const struct run_opts *o, const char *path, struct argv *a);
/* Kernel command line: BASE_APPEND + --append. */
char *qemu_cmdline(const struct run_opts *o);

#endif
