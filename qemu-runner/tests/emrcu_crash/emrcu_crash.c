// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_crash - provoke one kernel failure, for the runner's tests.
 *
 * what=block  print an EMRCU-RESULT block with pr_info() and load fine
 * what=warn   WARN_ON(1)
 * what=oops   NULL pointer dereference
 * what=stall  spin with preemption off for stall_s seconds (RCU stall)
 * what=fail   return -EINVAL from init (a failed insmod)
 * Only ever loaded inside QEMU guests.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/string.h>

static char *what = "block";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "block|warn|oops|stall|fail");

static int stall_s = 30;
module_param(stall_s, int, 0444);
MODULE_PARM_DESC(stall_s, "seconds to spin for what=stall");

static int *emrcu_crash_null;

static int __init emrcu_crash_init(void)
{
	unsigned long end;

	if (!strcmp(what, "block")) {
		pr_info("EMRCU-RESULT-BEGIN crash-block.json\n");
		pr_info("{\"module\": \"emrcu_crash\", \"ok\": true}\n");
		pr_info("EMRCU-RESULT-END crash-block.json\n");
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
