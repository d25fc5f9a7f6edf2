/*
 * console.h — classify guest console lines.
 *
 * A console line is split into a user part and a kernel part: the kernel
 * part starts at a printk timestamp "[    1.234567] " (CONFIG_PRINTK_TIME)
 * and runs to the end of the line; text before it is user output that the
 * kernel message interrupted.  Failure patterns are matched only in kernel
 * parts, so a guest program printing "WARNING:" is not a kernel warning
 * (every kernel variant has CONFIG_PRINTK_TIME=y).
 */
#ifndef EMRCU_CONSOLE_H
#define EMRCU_CONSOLE_H

#include <stddef.h>

enum det {
	DET_NONE = 0,
	DET_PANIC,
	DET_OOPS,
	DET_BUG,
	DET_KASAN,
	DET_WARNING,
	DET_LOCKDEP,
	DET_RCU_STALL,
	DET_KMEMLEAK,
	DET_COUNT,
};

/* Short name used in "emrcu-run: FAIL <name>: ..." and meta.json. */
const char *det_name(enum det d);

struct con_line {
	const char *user;	/* user text (NUL-terminated copy), or NULL */
	const char *kernel;	/* kernel message after the timestamp, or NULL */
	double ts;		/* printk timestamp of the kernel part, or -1 */
};

/*
 * Split line (no trailing newline; a '\r' is dropped) into parts, using
 * scratch (>= strlen(line) + 2 bytes) for the copies.
 */
void console_split(const char *line, char *scratch, struct con_line *out);

/* Failure kind of a kernel message, DET_NONE if it is not one. */
enum det console_classify(const char *kmsg);

/* "EMRCU-EXIT <rc>" user line: 1 and *rc set, or 0. */
int console_exit_rc(const char *user, int *rc);

/* "Linux version <release> ..." kernel message: release into out. */
int console_linux_version(const char *kmsg, char *out, size_t outlen);

/* The kernel is about to run /init ("Run /init as init process"). */
int console_is_run_init(const char *kmsg);

#endif
