/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emrcu_kmod.h - scaffolding shared by the bench modules (em_bench,
 * em_torture): the result block printer, parameter errors, the kernel's
 * identity in a result, the readers' random numbers and their kthreads.
 *
 * bench/kmod.sh copies this directory next to the module being built
 * ($BUILD/<variant>/mod/common); a module's Kbuild adds -I$(src)/../common.
 * Everything is static inline: each module keeps its own copy, unused
 * helpers cost nothing, and no module depends on another one.
 */
#ifndef _EMRCU_KMOD_H
#define _EMRCU_KMOD_H

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utsname.h>

/* ---- result blocks -------------------------------------------------------
 * EMRCU-RESULT-BEGIN <name> ... EMRCU-RESULT-END <name>, one JSON value in
 * printk lines of at most EMRCU_LINE_SOFT (+ one token) characters, each
 * tagged EMRCU_DATA_TAG; qemu-runner/emrcu-run writes the tagged lines
 * between the markers to <name> (untagged: another printk, left out).
 */
#define EMRCU_DATA_TAG		"EMRCU-DATA "	/* qemu-runner/blocks.h */
#define EMRCU_LINE_SOFT		760

struct emrcu_out {
	const char *name;
	char line[EMRCU_LINE_SOFT + 256];
	size_t len;
};

static inline void emrcu_flush(struct emrcu_out *o)
{
	if (!o->len)
		return;
	pr_info(EMRCU_DATA_TAG "%s\n", o->line);
	o->len = 0;
	o->line[0] = '\0';
}

/*
 * Append one or more whole JSON tokens.  Lines are cut only between calls,
 * hence between tokens, where JSON allows a newline.
 */
static inline __printf(2, 3) void emrcu_put(struct emrcu_out *o,
					    const char *fmt, ...)
{
	size_t room = sizeof(o->line) - o->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->line + o->len, room, fmt, ap);
	va_end(ap);
	o->len += min_t(size_t, n, room - 1);
	if (o->len >= EMRCU_LINE_SOFT)
		emrcu_flush(o);
}

/* Start block @name (a static string); NULL when out of memory. */
static inline struct emrcu_out *emrcu_block_begin(const char *name)
{
	struct emrcu_out *o = kzalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return NULL;
	o->name = name;
	pr_info("EMRCU-RESULT-BEGIN %s\n", name);
	return o;
}

static inline void emrcu_block_end(struct emrcu_out *o)
{
	emrcu_flush(o);
	pr_info("EMRCU-RESULT-END %s\n", o->name);
	kfree(o);
}

/*
 * "variant":..,"release":..,"preempt":.., of the running kernel; the variant
 * is what follows "-emrcu-" in the release (kernel/variant.sh builds with
 * make LOCALVERSION=-emrcu-<variant>), "" for a kernel not built that way.
 */
static inline void emrcu_put_kernel(struct emrcu_out *o)
{
	const char *rel = init_utsname()->release, *preempt = "none";
	const char *v = strstr(rel, "-emrcu-");

	v = v ? v + strlen("-emrcu-") : "";
	if (IS_ENABLED(CONFIG_PREEMPT))
		preempt = "full";
	else if (IS_ENABLED(CONFIG_PREEMPT_VOLUNTARY))
		preempt = "voluntary";
	emrcu_put(o, "\"variant\":\"%s\",", v);
	emrcu_put(o, "\"release\":\"%s\",\"preempt\":\"%s\",",
		  rel, preempt);
}

/* ---- parameters ---------------------------------------------------------- */
/* "<module>: invalid parameter <param>: <why>"; returns -EINVAL. */
static inline int emrcu_bad_param(const char *param, const char *why)
{
	pr_err("%s: invalid parameter %s: %s\n", KBUILD_MODNAME, param, why);
	return -EINVAL;
}

/* ---- random numbers ------------------------------------------------------ */
/* xorshift64* (Vigna); *s must not be 0. */
static inline u64 emrcu_rand(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* ---- kthreads ------------------------------------------------------------ */
/*
 * A stopped kthread "<name>/<cpu>" for @cpu: bound (kthread_bind(), for a
 * run without CPU hotplug) or only pinned (its affinity may be changed, it
 * survives its CPU going offline).  Woken by the caller.
 */
static inline struct task_struct *
emrcu_kthread_on_cpu(int (*fn)(void *), void *data, int cpu, bool bind,
		     const char *name)
{
	struct task_struct *t;

	t = kthread_create(fn, data, "%s/%d", name, cpu);
	if (IS_ERR(t))
		return t;
	if (bind)
		kthread_bind(t, cpu);
	else
		set_cpus_allowed_ptr(t, cpumask_of(cpu));
	return t;
}

/* kthread_stop() *@t if it is set, then clear it. */
static inline void emrcu_kthread_stop(struct task_struct **t)
{
	if (*t)
		kthread_stop(*t);
	*t = NULL;
}

/* The end of a kthread that is done: it returns only to kthread_stop(). */
static inline void emrcu_wait_stop(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
}

#endif /* _EMRCU_KMOD_H */
