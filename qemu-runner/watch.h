/*
 * watch.h — run QEMU and watch its console.
 *
 * QEMU runs in its own process group (under `timeout`), stdin /dev/null,
 * console (-serial stdio) on a pipe, stderr to <outdir>/qemu.stderr.  Every
 * byte goes to <outdir>/console.log as it arrives; complete lines go to the
 * scanner.  Limits: --timeout overall, --idle-timeout without console
 * output, EXIT_GRACE after EMRCU-EXIT, PANIC_GRACE after a panic.  The
 * process group is killed (SIGKILL) on every way out of watch_run().
 */
#ifndef EMRCU_WATCH_H
#define EMRCU_WATCH_H

#include "scan.h"

struct watch {
	/* in */
	const char *console_path;
	const char *stderr_path;
	int timeout;
	int idle_timeout;
	int echo;
	struct scan *scan;
	/* out */
	int hang;		/* 0, EXIT_TIMEOUT or EXIT_IDLE */
	int interrupted;	/* signal number, or 0 */
	int spawned;		/* the command was started */
	int status;		/* wait status of the command, -1 if killed by us */
	int killed;		/* we killed it */
	long console_bytes;
	long console_lost;	/* bytes that could not be written to console.log */
	int console_errno;	/* errno of the first failed console.log write */
	double t_start;		/* monotonic */
	double t_init;		/* host seconds from start to "Run /init", or -1 */
	double t_exit;		/* ... to EMRCU-EXIT, or -1 */
	double t_end;		/* ... to the end of the run */
};

/* 0 when the run was watched to its end (whatever happened), -1 on a
 * host error (reason in err). */
int watch_run(struct watch *w, char *const argv[], char *err, size_t errlen);

#endif
