/*
 * exitcodes.h — exit codes of emrcu-run (documented in README.md).
 * When several things happen, the first detected kernel failure wins, then a
 * timeout, then QEMU trouble, then the guest's own exit code.
 */
#ifndef EMRCU_EXITCODES_H
#define EMRCU_EXITCODES_H

enum {
	EXIT_PASS = 0,		/* EMRCU-EXIT 0 and nothing detected */
	EXIT_GUEST_RC = 1,	/* EMRCU-EXIT <rc> with rc != 0 (failed insmod too) */
	EXIT_USAGE = 2,		/* bad options, invalid --topo */
	EXIT_PANIC = 3,		/* Kernel panic - not syncing */
	EXIT_OOPS = 4,		/* Internal error: / Unable to handle kernel */
	EXIT_BUG = 5,		/* BUG: / kernel BUG at / UBSAN: */
	EXIT_KASAN = 6,		/* BUG: KASAN: */
	EXIT_WARNING = 7,	/* WARNING: */
	EXIT_LOCKDEP = 8,	/* lockdep / suspicious RCU usage */
	EXIT_RCU_STALL = 9,	/* rcu: INFO: rcu_{sched,preempt} ... stall */
	EXIT_KMEMLEAK = 10,	/* kmemleak: N new suspected memory leaks */
	EXIT_TIMEOUT = 11,	/* --timeout reached: hang */
	EXIT_IDLE = 12,		/* no console output for --idle-timeout: hang */
	EXIT_QEMU = 13,		/* QEMU missing or failed to start */
	EXIT_NO_EXIT = 14,	/* QEMU ended without EMRCU-EXIT */
	EXIT_INTERNAL = 15,	/* host-side error: DTB, image, files */
	EXIT_SIGNAL = 16,	/* emrcu-run interrupted (SIGINT/SIGTERM/SIGHUP) */
};

#endif
