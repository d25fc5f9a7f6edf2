/* test_console.c — line splitting and failure classification. */
#include <stdio.h>

#include "check.h"
#include "suites.h"
#include "console.h"

#include <string.h>

TEST(t_split)
{
	char s[256];
	struct con_line l;

	console_split("[    1.234567] foo: bar\r", s, &l);
	assert_true(!l.user && l.kernel && !strcmp(l.kernel, "foo: bar"));
	assert_true(l.ts > 1.2345 && l.ts < 1.2346);
	console_split("EMRCU-EXIT 0\r", s, &l);
	assert_true(l.user && !strcmp(l.user, "EMRCU-EXIT 0") && !l.kernel);
	console_split("partial[   12.000001] WARNING: CPU: 1", s, &l);
	assert_true(l.user && !strcmp(l.user, "partial"));
	assert_true(l.kernel && !strcmp(l.kernel, "WARNING: CPU: 1"));
	console_split("[12345.123456] x", s, &l);
	assert_true(l.kernel && !strcmp(l.kernel, "x") && l.ts > 12345);
	/* not timestamps */
	console_split("[rt-app] [1.5] x", s, &l);
	assert_true(!l.kernel && l.user);
	console_split("[    1.23456] five digits", s, &l);
	assert_true(!l.kernel);
	console_split("", s, &l);
	assert_true(l.user && !*l.user && !l.kernel);
}

TEST(t_classify)
{
	static const struct { const char *msg; enum det d; } c[] = {
		{ "Kernel panic - not syncing: sysrq triggered crash", DET_PANIC },
		{ "Internal error: Oops: 0000000096000006 [#1] SMP", DET_OOPS },
		{ "Unable to handle kernel NULL pointer dereference at virtual address 0", DET_OOPS },
		{ "Unable to handle kernel paging request at virtual address dead", DET_OOPS },
		{ "kernel BUG at kernel/power/energy_model.c:42!", DET_BUG },
		{ "BUG: sleeping function called from invalid context at mm/slab.h:1", DET_BUG },
		{ "BUG: scheduling while atomic: swapper/0/1/0x00000002", DET_BUG },
		{ "watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [x:1]", DET_BUG },
		{ "BUG: KASAN: use-after-free in em_cpu_energy+0x1a4/0x2c0", DET_KASAN },
		{ "BUG: KASAN: slab-out-of-bounds in foo", DET_KASAN },
		{ "WARNING: CPU: 3 PID: 73 at kernel/foo.c:39 f+0x6c/0x1000", DET_WARNING },
		{ "WARNING: possible circular locking dependency detected", DET_LOCKDEP },
		{ "WARNING: possible recursive locking detected", DET_LOCKDEP },
		{ "WARNING: inconsistent lock state", DET_LOCKDEP },
		{ "WARNING: suspicious RCU usage", DET_LOCKDEP },
		{ "rcu: INFO: rcu_sched detected stalls on CPUs/tasks:", DET_RCU_STALL },
		{ "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:", DET_RCU_STALL },
		{ "rcu: INFO: rcu_sched self-detected stall on CPU", DET_RCU_STALL },
		{ "kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)", DET_KMEMLEAK },
		{ "kmemleak: Kernel memory leak detector initialized (mem pool available: 15)", DET_NONE },
		{ "rcu: Hierarchical RCU implementation.", DET_NONE },
		{ "Run /init as init process", DET_NONE },
		{ "sched_energy_set: starting EAS", DET_NONE },
		{ "  with arguments: WARNING: x", DET_NONE },
		{ "---[ end Kernel panic - not syncing: x ]---", DET_NONE },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_msg(console_classify(c[i].msg) == c[i].d, "'%s' -> %s, want %s", c[i].msg,
			det_name(console_classify(c[i].msg)), det_name(c[i].d));
	assert_true(console_classify(NULL) == DET_NONE);
}

TEST(t_exit_version)
{
	char rel[128];
	int rc = -99;

	assert_true(console_exit_rc("EMRCU-EXIT 0", &rc) && rc == 0);
	assert_true(console_exit_rc("EMRCU-EXIT 139", &rc) && rc == 139);
	assert_true(console_exit_rc("EMRCU-EXIT 3 ", &rc) && rc == 3);
	assert_true(!console_exit_rc("EMRCU-EXIT", &rc));
	assert_true(!console_exit_rc("EMRCU-EXIT x", &rc));
	assert_true(!console_exit_rc("EMRCU-EXIT 1 2", &rc));
	assert_true(!console_exit_rc("echo EMRCU-EXIT 0", &rc));
	assert_true(!console_exit_rc(NULL, &rc));
	assert_true(console_linux_version("Linux version 6.1.192-emrcu-unpatched (emrcu@x) #2", rel,
				     sizeof(rel)) && !strcmp(rel, "6.1.192-emrcu-unpatched"));
	assert_true(!console_linux_version("Linux version", rel, sizeof(rel)));
	assert_true(console_is_run_init("Run /init as init process"));
	assert_true(!console_is_run_init("Run /init"));
}

int console_tests(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("console/split-kernel-user", t_split),
		NAMED("console/classify-patterns", t_classify),
		NAMED("console/exit-rc-and-release", t_exit_version),
	};

	return run_group("qemu-runner/console", tests);
}
