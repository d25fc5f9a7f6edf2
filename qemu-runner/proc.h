/* proc.h — run a helper command to completion (dtc, QEMU's DTB dump). */
#ifndef EMRCU_PROC_H
#define EMRCU_PROC_H

#include <stddef.h>

/*
 * Run argv (PATH lookup), stdin /dev/null, stdout+stderr captured into
 * out (up to outlen-1 bytes kept).  Returns the exit status (0..255),
 * 127 if it could not be executed, 128+N if killed by signal N, -1 on error.
 */
int proc_run(char *const argv[], char *out, size_t outlen);
/* 1 if cmd is an executable file (absolute/relative path) or found in PATH. */
int proc_in_path(const char *cmd);

#endif
