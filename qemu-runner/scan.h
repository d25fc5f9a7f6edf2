/*
 * scan.h — what the console says, one line at a time: failures (first one
 * wins), the guest's EMRCU-EXIT, kernel release, time to /init, result
 * blocks.  No I/O: the watcher feeds it, the tests feed it recorded logs.
 */
#ifndef EMRCU_SCAN_H
#define EMRCU_SCAN_H

#include "blocks.h"
#include "console.h"

#define SCAN_MSG_MAX 400

enum {
	SCAN_FIRST_DET = 1,	/* this line is the first failure */
	SCAN_PANIC = 2,		/* a kernel panic (QEMU will reboot = exit) */
	SCAN_EXIT = 4,		/* EMRCU-EXIT seen */
	SCAN_INIT = 8,		/* kernel runs /init */
};

struct scan {
	struct blocks blocks;
	enum det first;
	char first_msg[SCAN_MSG_MAX];
	int counts[DET_COUNT];
	int got_exit;
	int guest_rc;
	char release[128];
	double init_ts;		/* printk time of "Run /init as init process", or -1 */
	long lines;
};

void scan_init(struct scan *s,
	       void (*done)(void *, const char *, const char *, size_t),
	       void (*warn)(void *, const char *), void *ctx);
/* One console line (no newline); returns SCAN_* flags. */
unsigned int scan_line(struct scan *s, const char *line);
void scan_finish(struct scan *s);

#endif
