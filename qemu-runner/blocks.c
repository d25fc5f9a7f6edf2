/* blocks.c — EMRCU-RESULT block extractor. */
#include "blocks.h"

#include <stdio.h>
#include <string.h>

static const char BEGIN[] = "EMRCU-RESULT-BEGIN ";
static const char END[] = "EMRCU-RESULT-END ";

int block_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > BLOCK_NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	return strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789._-") == n;
}

void blocks_init(struct blocks *b,
		 void (*done)(void *, const char *, const char *, size_t),
		 void (*warn)(void *, const char *), void *ctx)
{
	memset(b, 0, sizeof(*b));
	b->done = done;
	b->warn = warn;
	b->ctx = ctx;
}

static void warnf(struct blocks *b, const char *fmt, const char *a, const char *c)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, a, c);
	if (b->warn)
		b->warn(b->ctx, msg);
}

/* Marker argument: the name after the tag, trailing blanks dropped. */
static int marker(const char *line, const char *tag, size_t taglen, char *name)
{
	size_t n;

	if (strncmp(line, tag, taglen))
		return 0;
	line += taglen;
	n = strlen(line);
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	if (n > BLOCK_NAME_MAX)
		n = BLOCK_NAME_MAX + 1;	/* too long: block_name_ok() refuses it */
	memcpy(name, line, n);
	name[n] = '\0';
	return 1;
}

void blocks_feed(struct blocks *b, int stream, const char *line)
{
	char name[BLOCK_NAME_MAX + 2];
	const char *sname = stream == STREAM_KERNEL ? "kernel" : "user";
	size_t len;

	if (stream < 0 || stream >= STREAM_COUNT || !line)
		return;
	len = strlen(line);
	if (marker(line, BEGIN, sizeof(BEGIN) - 1, name)) {
		if (!block_name_ok(name)) {
			warnf(b, "invalid result block name '%s' (%s stream)", name, sname);
			return;
		}
		if (b->s[stream].open)
			warnf(b, "block '%s' not ended before BEGIN of '%s': discarded",
			      b->s[stream].name, name);
		b->s[stream].open = 1;
		strcpy(b->s[stream].name, name);
		b->s[stream].content.len = 0;
		buf_add(&b->s[stream].content, "", 0);
		return;
	}
	if (!b->s[stream].open)
		return;
	if (marker(line, END, sizeof(END) - 1, name)) {
		b->s[stream].open = 0;
		if (strcmp(name, b->s[stream].name)) {
			warnf(b, "block '%s' ended by END of '%s': discarded",
			      b->s[stream].name, name);
			return;
		}
		if (b->done)
			b->done(b->ctx, b->s[stream].name, b->s[stream].content.p,
				b->s[stream].content.len);
		return;
	}
	if (stream == STREAM_KERNEL) {
		size_t tl = sizeof(BLOCK_KERNEL_TAG) - 1;

		if (strncmp(line, BLOCK_KERNEL_TAG, tl))
			return;		/* another printk, not the block's */
		line += tl;
		len -= tl;
	}
	buf_add(&b->s[stream].content, line, len);
	buf_add(&b->s[stream].content, "\n", 1);
}

void blocks_finish(struct blocks *b)
{
	int i;

	for (i = 0; i < STREAM_COUNT; i++) {
		if (b->s[i].open)
			warnf(b, "block '%s' never ended (%s): discarded", b->s[i].name,
			      i == STREAM_KERNEL ? "kernel stream" : "user stream");
		b->s[i].open = 0;
		buf_free(&b->s[i].content);
	}
}
