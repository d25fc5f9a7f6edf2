// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_crash - provoke one kernel failure, for the runner's tests.
 *
 * what=block  print an EMRCU-RESULT block with pr_info() and load fine
 * what=warn   WARN_ON(1)
 * what=oops   NULL pointer dereference
 * what=stall  spin with preemption off for stall_s seconds (RCU stall)
 * what=fail   return -EINVAL from init (a failed insmod)
 * what=kasan  read a kmalloc()ed object after kfree() (KASAN kernels)
 * what=leak   kmalloc() an object and forget it (kmemleak kernels)
 * what=hang   never return from init, silently (a hung insmod)
 * block=1     print the result block first, then do @what (the results a
 *             run had before it failed must survive the failure)
 * Only ever loaded inside QEMU guests.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *what = "block";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "block|warn|oops|stall|fail|kasan|leak|hang");

static int stall_s = 30;
module_param(stall_s, int, 0444);
MODULE_PARM_DESC(stall_s, "seconds to spin for what=stall");

static bool block;
module_param(block, bool, 0444);
MODULE_PARM_DESC(block, "print the result block before doing @what");

static int *emrcu_crash_null;
static void *emrcu_crash_leak;

static void emrcu_crash_block(void)
{
	pr_info("EMRCU-RESULT-BEGIN crash-block.json\n");
	pr_info("EMRCU-DATA {\"module\": \"emrcu_crash\", \"ok\": true}\n");
	pr_info("EMRCU-RESULT-END crash-block.json\n");
}

/* Use after free: KASAN reports the read. */
static void emrcu_crash_kasan(void)
{
	int *p = kmalloc(sizeof(*p) * 16, GFP_KERNEL);

	if (!p)
		return;
	p[3] = 42;
	kfree(p);
	pr_info("emrcu_crash: freed value %d\n", READ_ONCE(p[3]));
}

static int __init emrcu_crash_init(void)
{
	unsigned long end;

	if (block || !strcmp(what, "block"))
		emrcu_crash_block();
	if (!strcmp(what, "block")) {
		/* done above */
	} else if (!strcmp(what, "warn")) {
		WARN_ON(1);
	} else if (!strcmp(what, "oops")) {
		pr_info("emrcu_crash: value %d\n", *READ_ONCE(emrcu_crash_null));
	} else if (!strcmp(what, "stall")) {
		end = jiffies + stall_s * HZ;
		preempt_disable();
		while (time_before(jiffies, end))
			cpu_relax();
		preempt_enable();
	} else if (!strcmp(what, "fail")) {
		return -EINVAL;
	} else if (!strcmp(what, "kasan")) {
		emrcu_crash_kasan();
	} else if (!strcmp(what, "leak")) {
		/* Only a stack/register copy would point to it: lost. */
		WRITE_ONCE(emrcu_crash_leak, kmalloc(512, GFP_KERNEL));
		WRITE_ONCE(emrcu_crash_leak, NULL);
	} else if (!strcmp(what, "hang")) {
		for (;;)
			msleep_interruptible(1000);
	}
	return 0;
}

static void __exit emrcu_crash_exit(void)
{
}

module_init(emrcu_crash_init);
module_exit(emrcu_crash_exit);
MODULE_DESCRIPTION("Provoke kernel failures for emrcu-run tests");
MODULE_LICENSE("GPL");
