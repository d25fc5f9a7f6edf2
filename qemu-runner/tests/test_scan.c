/*
 * test_scan.c — the scanner and block extractor on recorded console logs
 * (tests/logs/: real guest logs of the unpatched kernel with tests/emrcu_crash
 * -- clean-boot, warning, oops, panic (sysrq c), rcu-stall, insmod-fail, and
 * bug, recorded with a BUG() case since dropped from the module -- and
 * hand-written ones in the kernel's printk formats for what the unpatched
 * kernel cannot produce: KASAN, lockdep, kmemleak, interleaved blocks).
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "check.h"
#include "suites.h"
#include "scan.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define MAXB 16

struct got {
	char *name[MAXB];
	char *data[MAXB];
	int n;
	int warnings;
};

static void done(void *ctx, const char *name, const char *data, size_t len)
{
	struct got *g = ctx;

	if (g->n < MAXB) {
		g->name[g->n] = xstrdup(name);
		g->data[g->n] = xmalloc(len + 1);
		memcpy(g->data[g->n], data, len);
		g->data[g->n][len] = '\0';
		g->n++;
	}
}

static void warn(void *ctx, const char *msg)
{
	(void)msg;
	((struct got *)ctx)->warnings++;
}

static const char *block(const struct got *g, const char *name)
{
	const char *r = NULL;
	int i;

	for (i = 0; i < g->n; i++)
		if (!strcmp(g->name[i], name))
			r = g->data[i];	/* last one wins, as in the runner */
	return r;
}

/* Feed a log file line by line, as the watcher does. */
static int feed(const char *file, struct scan *s, struct got *g)
{
	char *path = xasprintf("logs/%s", file), *text = read_file(path, NULL), *p, *nl;

	free(path);
	if (!text)
		return -1;
	memset(g, 0, sizeof(*g));
	scan_init(s, done, warn, g);
	for (p = text; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			scan_line(s, p);
			break;
		}
		*nl = '\0';
		scan_line(s, p);
	}
	scan_finish(s);
	free(text);
	return 0;
}

struct expect {
	const char *log;
	enum det first;
	const char *first_prefix;
	int got_exit;
	int rc;
	const char *release;
};

static const struct expect cases[] = {
	{ "clean-boot.log", DET_NONE, "", 1, 0, "6.1.192-emrcu-unpatched" },
	{ "panic.log", DET_PANIC, "Kernel panic - not syncing: sysrq triggered crash", 0, 0,
	  "6.1.192-emrcu-unpatched" },
	{ "oops.log", DET_OOPS, "Unable to handle kernel NULL pointer dereference", 1, 139,
	  "6.1.192-emrcu-unpatched" },
	{ "bug.log", DET_BUG, "kernel BUG at ../mod/emrcu_crash/emrcu_crash.c:", 1, 139,
	  "6.1.192-emrcu-unpatched" },
	{ "warning.log", DET_WARNING, "WARNING: CPU: ", 1, 0, "6.1.192-emrcu-unpatched" },
	{ "rcu-stall.log", DET_RCU_STALL, "rcu: INFO: rcu_sched detected stalls", 1, 0,
	  "6.1.192-emrcu-unpatched" },
	{ "insmod-fail.log", DET_NONE, "", 1, 22, "6.1.192-emrcu-unpatched" },
	{ "kasan.log", DET_KASAN, "BUG: KASAN: use-after-free in em_cpu_energy", 1, 0,
	  "6.1.192-emrcu-patched-debug" },
	{ "lockdep-circular.log", DET_LOCKDEP, "WARNING: possible circular locking", 1, 0,
	  "6.1.192-emrcu-patched-debug" },
	{ "lockdep-rcu.log", DET_LOCKDEP, "WARNING: suspicious RCU usage", 1, 0,
	  "6.1.192-emrcu-patched-debug" },
	{ "lockdep-recursive.log", DET_LOCKDEP, "WARNING: possible recursive locking", 1, 0,
	  "6.1.192-emrcu-patched-debug" },
	{ "kmemleak.log", DET_KMEMLEAK, "kmemleak: 2 new suspected memory leaks", 1, 0,
	  "6.1.192-emrcu-patched-debug" },
	{ "blocks-interleaved.log", DET_NONE, "", 1, 0, "6.1.192-emrcu-patched-debug" },
};

TEST(t_logs)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct expect *e = &cases[i];
		struct scan s;
		struct got g;

		assert_msg(feed(e->log, &s, &g) == 0, "cannot read logs/%s", e->log);
		assert_msg(s.first == e->first, "%s: first %s, want %s", e->log,
			det_name(s.first), det_name(e->first));
		assert_msg(!strncmp(s.first_msg, e->first_prefix, strlen(e->first_prefix)),
			"%s: first line '%s'", e->log, s.first_msg);
		assert_msg(s.got_exit == e->got_exit && (!e->got_exit || s.guest_rc == e->rc),
			"%s: exit %d rc %d", e->log, s.got_exit, s.guest_rc);
		assert_msg(!strcmp(s.release, e->release), "%s: release '%s'", e->log, s.release);
		assert_msg(s.init_ts > 0.3 && s.init_ts < 5, "%s: init at %f", e->log, s.init_ts);
	}
}

TEST(t_clean_blocks)
{
	struct scan s;
	struct got g;

	assert_true(feed("clean-boot.log", &s, &g) == 0);
	assert_true(g.n == 2 && g.warnings == 0);
	/* printk prefix and \r stripped from the module's block */
	assert_true(block(&g, "crash-block.json") &&
	       !strcmp(block(&g, "crash-block.json"), "{\"module\": \"emrcu_crash\", \"ok\": true}\n"));
	assert_true(block(&g, "user.txt") && !strcmp(block(&g, "user.txt"), "hello\n"));
	assert_true(s.counts[DET_WARNING] == 0 && s.counts[DET_BUG] == 0);
}

TEST(t_interleaved)
{
	struct scan s;
	struct got g;

	assert_true(feed("blocks-interleaved.log", &s, &g) == 0);
	/* user text that looks like failures is not a kernel failure */
	assert_true(s.first == DET_NONE);
	/* kern.json: the user line and the untagged hrtimer printk left out */
	assert_msg(block(&g, "kern.json") && !strcmp(block(&g, "kern.json"), "{\"x\": [1,\n2]}\n"),
		"kern.json '%s'", block(&g, "kern.json"));
	assert_true(block(&g, "mixed.txt") && !strcmp(block(&g, "mixed.txt"), "line one\nline two\n"));
	assert_true(block(&g, "empty.txt") && !strcmp(block(&g, "empty.txt"), ""));
	assert_true(block(&g, "user.json") && !strcmp(block(&g, "user.json"), "{\"again\": true}\n"));
	assert_true(!block(&g, "mismatch.txt") && !block(&g, "other.txt"));
	assert_true(!block(&g, "never-ended.txt") && !block(&g, "bad/name"));
	/* first user.json (kernel line inside left out) was complete too */
	assert_true(g.n == 5);
	assert_true(!strcmp(g.data[0], "{\"a\": 1,\n \"b\": 2}\n"));
	/* bad name, mismatched END, never ended */
	assert_msg(g.warnings == 3, "%d warnings", g.warnings);
}

TEST(t_failure_blocks)
{
	struct scan s;
	struct got g;

	assert_true(feed("kasan.log", &s, &g) == 0);
	assert_true(block(&g, "em_bench-warmup.json") &&
	       !strcmp(block(&g, "em_bench-warmup.json"), "{\"cpu\": 0, \"ns_per_call\": 74.0}\n"));
	assert_true(block(&g, "pre-kasan.json"));
	assert_true(s.counts[DET_KASAN] == 1 && s.counts[DET_BUG] == 0);
	assert_true(feed("kmemleak.log", &s, &g) == 0);
	/* the kernel's kmemleak line inside a user block is not part of it */
	assert_true(block(&g, "leaks.txt") && !strstr(block(&g, "leaks.txt"), "kmemleak:") &&
	       strstr(block(&g, "leaks.txt"), "unreferenced object"));
	assert_true(feed("lockdep-circular.log", &s, &g) == 0);
	assert_true(s.counts[DET_LOCKDEP] == 2 && s.counts[DET_WARNING] == 0);
	assert_true(feed("rcu-stall.log", &s, &g) == 0);
	assert_true(s.counts[DET_RCU_STALL] >= 2);
	assert_true(feed("oops.log", &s, &g) == 0);
	assert_true(s.counts[DET_OOPS] == 2);	/* Unable to handle + Internal error */
}

int scan_tests(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("scan/recorded-logs-verdicts", t_logs),
		NAMED("scan/clean-boot-blocks-crlf", t_clean_blocks),
		NAMED("scan/interleaved-and-broken-blocks", t_interleaved),
		NAMED("scan/blocks-and-counts-in-failure-logs", t_failure_blocks),
	};

	return run_group("qemu-runner/scan", tests);
}
