/*
 * defaults.h — every constant that shapes a run, declared once.
 * (The default topology is qemu-runner/default.topo.)
 */
#ifndef EMRCU_DEFAULTS_H
#define EMRCU_DEFAULTS_H

/* QEMU machine: GICv3 (GICv2 stops at 8 CPUs). */
#define QEMU_MACHINE "virt,gic-version=3"
/*
 * cortex-a72: ARMv8.0-A, no SVE/MTE/pointer authentication, so TCG runs it
 * faster than "max" (whose QARMA pointer-auth emulation is slow).  The same
 * model on every CPU: capacities come from capacity-dmips-mhz only.
 */
#define DEFAULT_CPU "cortex-a72"
#define DEFAULT_MEM "512M"
#define DEFAULT_QEMU "qemu-system-aarch64"
/*
 * Deterministic mode: -icount shift=N,sleep=off: each guest instruction
 * advances the virtual clock by 2^N ns (shift 1: 2 ns, a 500 MHz CPU).
 */
#define DEFAULT_ICOUNT_SHIFT 1
/* Fixed RTC in deterministic mode: the guest's wall clock is reproducible. */
#define DETERMINISTIC_RTC "base=2026-01-01T00:00:00,clock=vm"
/* Kernel command line of every boot (the guest protocol requires the first two). */
#define BASE_APPEND "console=ttyAMA0 sched_verbose panic=-1 rdinit=/init"
/* Seconds: overall run limit, limit of console silence. */
#define DEFAULT_TIMEOUT 600
#define DEFAULT_IDLE_TIMEOUT 120
/* Seconds QEMU gets to exit after EMRCU-EXIT (poweroff) / after a panic. */
#define EXIT_GRACE 15
#define PANIC_GRACE 5
/* Seconds for the dumpdtb QEMU run and for the outer `timeout` margin. */
#define DUMPDTB_TIMEOUT 60
#define TIMEOUT_MARGIN 10

#endif
