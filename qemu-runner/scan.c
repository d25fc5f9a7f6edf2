/* scan.c — console line scanner. */
#include "scan.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scan_init(struct scan *s,
	       void (*done)(void *, const char *, const char *, size_t),
	       void (*warn)(void *, const char *), void *ctx)
{
	memset(s, 0, sizeof(*s));
	blocks_init(&s->blocks, done, warn, ctx);
	s->init_ts = -1;
}

unsigned int scan_line(struct scan *s, const char *line)
{
	size_t n = strlen(line);
	char small[1024];
	char *scratch = n + 2 <= sizeof(small) ? small : xmalloc(n + 2);
	struct con_line cl;
	unsigned int ev = 0;
	int rc;

	s->lines++;
	console_split(line, scratch, &cl);
	if (cl.user) {
		blocks_feed(&s->blocks, STREAM_USER, cl.user);
		if (!s->got_exit && console_exit_rc(cl.user, &rc)) {
			s->got_exit = 1;
			s->guest_rc = rc;
			ev |= SCAN_EXIT;
		}
	}
	if (cl.kernel) {
		enum det d = console_classify(cl.kernel);

		blocks_feed(&s->blocks, STREAM_KERNEL, cl.kernel);
		if (d != DET_NONE) {
			s->counts[d]++;
			if (s->first == DET_NONE) {
				s->first = d;
				snprintf(s->first_msg, sizeof(s->first_msg), "%s", cl.kernel);
				ev |= SCAN_FIRST_DET;
			}
			if (d == DET_PANIC)
				ev |= SCAN_PANIC;
		}
		if (!s->release[0])
			console_linux_version(cl.kernel, s->release, sizeof(s->release));
		if (s->init_ts < 0 && console_is_run_init(cl.kernel)) {
			s->init_ts = cl.ts;
			ev |= SCAN_INIT;
		}
	}
	if (scratch != small)
		free(scratch);
	return ev;
}

void scan_finish(struct scan *s)
{
	blocks_finish(&s->blocks);
}
