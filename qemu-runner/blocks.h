/*
 * blocks.h — extract EMRCU-RESULT blocks from the console.
 *
 *   EMRCU-RESULT-BEGIN <name>
 *   ...content lines...
 *   EMRCU-RESULT-END <name>
 *
 * <name> matches [A-Za-z0-9._-]+ (not "." or "..").  The console carries two
 * streams: kernel lines (printk, timestamp stripped) and user lines.  Each
 * stream has at most one open block; a block opened by a kernel line takes
 * only kernel lines, one opened by a user line only user lines, so kernel
 * messages from other CPUs interleaved in a user block (and user output
 * inside a module's block) are left out of it.  A kernel block's content
 * lines carry BLOCK_KERNEL_TAG (bench/common/emrcu_kmod.h prints it), which
 * is stripped: any other printk line inside it (another CPU's message, e.g.
 * "hrtimer: interrupt took N ns" in realtime mode) is not part of it.
 * A BEGIN while a block of the same stream is open, an END of another name,
 * or a block still open at the end discards that block with a warning.
 */
#ifndef EMRCU_BLOCKS_H
#define EMRCU_BLOCKS_H

#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#define BLOCK_NAME_MAX 128
#define BLOCK_KERNEL_TAG "EMRCU-DATA "

enum { STREAM_USER, STREAM_KERNEL, STREAM_COUNT };

struct blocks {
	struct {
		int open;
		char name[BLOCK_NAME_MAX + 1];
		struct buf content;
	} s[STREAM_COUNT];
	/* A complete block. */
	void (*done)(void *ctx, const char *name, const char *data, size_t len);
	/* A discarded block or a malformed marker. */
	void (*warn)(void *ctx, const char *msg);
	void *ctx;
};

void blocks_init(struct blocks *b,
		 void (*done)(void *, const char *, const char *, size_t),
		 void (*warn)(void *, const char *), void *ctx);
/* One line of one stream (no newline). */
void blocks_feed(struct blocks *b, int stream, const char *line);
/* End of console: warn about (and drop) blocks still open. */
void blocks_finish(struct blocks *b);
/* 1 if name is a valid block name. */
int block_name_ok(const char *name);

#endif
