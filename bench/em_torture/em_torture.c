// SPDX-License-Identifier: GPL-2.0
/*
 * em_torture - torture test of the runtime-modifiable Energy Model, in the
 * style of kernel/rcu/rcutorture.c.
 *
 * One source for both runtime-modifiable EM APIs (Kbuild detects which one
 * the kernel has, see "EM API" below): the v2 series (the EM calls the
 * driver's update_power() callback and builds the table itself) and the
 * design merged for v6.9 (the driver builds a refcounted table ahead of time
 * and publishes it; -DEMRCU_EM_TABLE_API).
 *
 * Every table the updater publishes with em_dev_update_perf_domain() carries
 * a generation: power[i] = base[i] + (gen & mask), base[] strictly
 * increasing, so each table is a valid EM.  Readers on every online CPU read
 * rcu_dereference() of the PD's table pointer (pd->runtime_table, v2;
 * pd->em_table, merged) inside rcu_read_lock() (alone, or with preemption,
 * irqs or bh disabled) and check, for each table they observe:
 *
 *  - frequency:        the frequencies (merged: and performances) are the
 *                      registered ones;
 *  - mixed-generation: every state is from ONE generation;
 *  - cost, flags:      costs and inefficiency flags are what
 *                      em_compute_costs() gives for those powers (v2:
 *                      power * fmax / freq for every PD; merged:
 *                      10 * power / performance for CPU PDs, and cost 0,
 *                      no flag for the test PDs, whose costs the merged
 *                      EM does not compute);
 *  - mutated:          the table does not change while it is read;
 *  - reader-pipe:      the rcutorture "Reader Pipe" rule: a reader never
 *                      sees a table that was replaced a full grace period
 *                      before (pipe count > 1);
 *  - null-table:       a registered PD always has a table;
 *  - held-table:       (merged) a table the updater still holds a
 *                      reference to keeps a reference count >= 1, and
 *                      exactly 1 once replaced (the updater's own).
 *
 * KASAN (generic) catches a read of a table that was freed too early.
 *
 * Merged design: the updater builds each table ahead of time as a driver
 * does (em_table_alloc(), frequency and performance copied from the current
 * table, powers set, em_dev_compute_costs()), publishes it with
 * em_dev_update_perf_domain() and keeps its own reference to the last
 * EMT_HELD tables it built before em_table_free().  Readers also read those
 * held tables (RCU-published slots; 1 read in 16): the same frequency,
 * mixed-generation, cost and flags rules apply long after the table was
 * replaced, and KASAN reports one the EM freed while a reference was held.
 * inject_held_put=1 (self-test) drops one reference too many: it must FAIL.
 *
 * The pipe count of an observed table is 0 while it is the current one,
 * else 1 + the grace periods counted since it was replaced, minus the one
 * that may have started before: a grace-period ticker (a call_rcu()
 * callback that queues itself again) counts grace periods, and the updater
 * records the tick count right after each update returns.  Two ticks after
 * that record, a whole grace period began and ended after the replacement,
 * so a reader still seeing the old table is a failure.  Every estimate
 * errs towards a lower count, so a reported failure is a real one.
 *
 * A cycler thread unregisters and re-registers one test PD while the
 * updater keeps updating it: an update must return -EINVAL while it is
 * unregistered and 0 while it is registered (update-vs-registration), and
 * readers reach that PD only through an RCU pointer the cycler clears before
 * em_dev_unregister_perf_domain(), whose own grace period protects them
 * (v2).  The merged em_dev_unregister_perf_domain() frees the PD without a
 * grace period (only its table goes through RCU): the cycler waits for one
 * itself, and serialises the PD's lifetime with the updater's table builds
 * (which need the PD) by emt_cyc_mutex; the publication still races the
 * unregistration.  While the PD is unregistered the updater offers the
 * newest table it holds (it cannot allocate one without a PD).
 *
 * Optionally (cpu_pds=1) the CPU perf domains are updated and read too
 * (power[i] = default power[i] + (gen & mask)), so the scheduler's EAS path
 * reads the same tables.
 *
 * Readers are SCHED_NORMAL nice 19, pinned to their CPU (re-pinned when it
 * comes back from hotplug); after each @reader_burst reads they sleep
 * @reader_sleep_us..2x: under TCG an idle vCPU gives its host core to the
 * updater's vCPU.  The updater (nice 0, unbound) updates every PD in turn,
 * back to back.
 *
 * Any violation prints "FAILURE: em_torture: <rule>: <evidence>" (the first
 * EMT_PRINT_MAX of each rule).  The run stops after @duration_s seconds,
 * after @max_updates updates (once @min_duration_s have passed), on a write
 * to /sys/kernel/debug/em_torture/stop or on rmmod; it then prints one result
 * block (EMRCU-RESULT-BEGIN em_torture.json ... EMRCU-RESULT-END
 * em_torture.json) and /sys/kernel/debug/em_torture/state reads "done".
 * rmmod unregisters the test PDs (kmemleak then sees any table left behind).
 */

#define pr_fmt(fmt) fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/energy_model.h>
#include <linux/kref.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>

#include "emrcu_em_table.h"
#include "emrcu_kmod.h"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Torture test of the runtime-modifiable Energy Model");

/* ---- constants: every value that shapes a run, in one place ------------- */
#define EMT_MAX_STATES		32	/* states of a test PD, and CPU PDs read */
#define EMT_MAX_TEST_PDS	4
#define EMT_MAX_DEVS		(EMT_MAX_TEST_PDS + 1 + NR_CPUS)
#define EMT_TEST_KHZ_STEP	100000UL /* test PD: freq[i] = step * (i + 1) */
#define EMT_TEST_UW_UNIT	1000UL	 /* test PD: base[i] = unit * (i + 1)^2 */
#define EMT_TEST_GEN_BITS	24	/* generation bits in a test PD's power */
#define EMT_CPU_GEN_BITS	16	/* ... in a CPU PD's power (uW added) */
#define EMT_RING		1024	/* replacement records per device */
#define EMT_TICK_BITS		24	/* tick count bits in a record */
#define EMT_PIPE_LEN		10	/* histogram buckets, like rcutorture */
#define EMT_PRINT_MAX		5	/* FAILURE lines printed per rule */
#define EMT_HOLD_US_MAX		20	/* longest delay inside a reader */
#define EMT_RECHECK_MASK	15	/* 1 read in 16 reads the table twice */
#define EMT_REPIN_EVERY		256	/* reads between affinity checks */
#define EMT_INJECT_EVERY	4096	/* inject_stale_read: reads between two */
#define EMT_CYCLE_MIN_US	200	/* cycler: time unregistered */
#define EMT_CYCLE_MAX_US	2000
#define EMT_DURATION_MAX_S	86400
#define EMT_LAT_BUCKETS		24	/* update latency: log2(us) buckets */
#define EMT_HELD		3	/* merged: tables the updater holds */
#define EMT_HELD_READ_MASK	15	/* merged: 1 read in 16 reads one too */
#define EMT_INJECT_PUT_EVERY	256	/* inject_held_put: pd0 updates between */

/* ---- parameters ---------------------------------------------------------- */
static int duration_s = 30;
module_param(duration_s, int, 0444);
MODULE_PARM_DESC(duration_s, "Run time in seconds (1..86400)");

static ulong max_updates;
module_param(max_updates, ulong, 0444);
MODULE_PARM_DESC(max_updates, "Stop after this many successful updates (0: no limit)");

static int min_duration_s;
module_param(min_duration_s, int, 0444);
MODULE_PARM_DESC(min_duration_s, "max_updates stops the run only after this many seconds");

static int test_pds[EMT_MAX_TEST_PDS] = { 4, 16 };
static int nr_test_pds = 2;
module_param_array(test_pds, int, &nr_test_pds, 0444);
MODULE_PARM_DESC(test_pds, "States of the stable test PDs, e.g. 4,16 (1..32 each)");

static int cycle_states = 8;
module_param(cycle_states, int, 0444);
MODULE_PARM_DESC(cycle_states, "States of the unregistered/re-registered test PD (0: none)");

static bool cpu_pds = true;
module_param(cpu_pds, bool, 0444);
MODULE_PARM_DESC(cpu_pds, "Also update and read the CPU perf domains, if any");

static int reader_burst = 64;
module_param(reader_burst, int, 0444);
MODULE_PARM_DESC(reader_burst, "Reads between two sleeps of a reader (1..1000000)");

static int reader_sleep_us = 5000;
module_param(reader_sleep_us, int, 0444);
MODULE_PARM_DESC(reader_sleep_us, "Reader sleep after each burst, us (0: never sleeps; ..100000)");

static int cycle_ms = 1000;
module_param(cycle_ms, int, 0444);
MODULE_PARM_DESC(cycle_ms, "Time the cycled PD stays registered, ms (1..60000)");

static int stat_interval_s = 60;
module_param(stat_interval_s, int, 0444);
MODULE_PARM_DESC(stat_interval_s, "Print a progress line every this many seconds (0: never)");

static bool inject_stale_read;
module_param(inject_stale_read, bool, 0444);
MODULE_PARM_DESC(inject_stale_read, "Self-test of the pipe rule: reader 0 sometimes uses a generation it read before two grace periods (must FAIL)");

#ifdef EMRCU_EM_TABLE_API
static bool inject_held_put;
module_param(inject_held_put, bool, 0444);
MODULE_PARM_DESC(inject_held_put, "Self-test of the held-table rule (merged design): the updater sometimes gives up one reference too many to a table it holds (must FAIL)");
#endif

static ulong seed = 1;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "Seed of the readers' random choices");

/* ---- rules --------------------------------------------------------------- */
enum emt_rule {
	EMT_R_FREQ,
	EMT_R_MIXED,
	EMT_R_COST,
	EMT_R_FLAGS,
	EMT_R_MUTATED,
	EMT_R_PIPE,
	EMT_R_NULL,
	EMT_R_NR_STATES,
	EMT_R_UPDATE,
	EMT_R_UPD_REG,
	EMT_R_REGISTER,
	EMT_R_CALLBACK,
#ifdef EMRCU_EM_TABLE_API
	EMT_R_HELD,
#endif
	EMT_NR_RULES
};

static const char * const emt_rule_name[EMT_NR_RULES] = {
	[EMT_R_FREQ]		= "frequency",
	[EMT_R_MIXED]		= "mixed-generation",
	[EMT_R_COST]		= "cost",
	[EMT_R_FLAGS]		= "flags",
	[EMT_R_MUTATED]		= "mutated",
	[EMT_R_PIPE]		= "reader-pipe",
	[EMT_R_NULL]		= "null-table",
	[EMT_R_NR_STATES]	= "nr-states",
	[EMT_R_UPDATE]		= "update-error",
	[EMT_R_UPD_REG]		= "update-vs-registration",
	[EMT_R_REGISTER]	= "register",
	[EMT_R_CALLBACK]	= "update-callback",
#ifdef EMRCU_EM_TABLE_API
	[EMT_R_HELD]		= "held-table",
#endif
};

static atomic_long_t emt_failures[EMT_NR_RULES];

/* ---- reader modes -------------------------------------------------------- */
enum emt_mode {
	EMT_M_RCU,
	EMT_M_PREEMPT,
	EMT_M_IRQ,
	EMT_M_BH,
	EMT_NR_MODES
};

static const char * const emt_mode_name[EMT_NR_MODES] = {
	[EMT_M_RCU]		= "rcu",
	[EMT_M_PREEMPT]		= "rcu_preempt_off",
	[EMT_M_IRQ]		= "rcu_irqs_off",
	[EMT_M_BH]		= "rcu_bh_off",
};

/* ---- state --------------------------------------------------------------- */
enum emt_kind { EMT_TEST, EMT_CYCLE, EMT_CPU };

static const char * const emt_kind_name[] = {
	[EMT_TEST] = "test", [EMT_CYCLE] = "cycle", [EMT_CPU] = "cpu",
};

struct emt_dev {
	char name[24];
	enum emt_kind kind;
	struct device *dev;		/* root device, or first CPU's device */
	struct em_perf_domain *pd;	/* stable kinds only */
	int nr;
	bool check_cost;		/* false for artificial EMs */
	unsigned long freq[EMT_MAX_STATES];
	unsigned long base[EMT_MAX_STATES];
	unsigned long mask;		/* generation bits in the powers */
	unsigned long gen;		/* last published generation */
	u64 ring[EMT_RING];		/* gen << EMT_TICK_BITS | tick */
#ifdef EMRCU_EM_TABLE_API
	unsigned long perf[EMT_MAX_STATES];	/* 0: not a CPU PD */
	/* Tables the updater holds a reference to (readers read them too). */
	struct em_perf_table __rcu *held[EMT_HELD];
	int held_next;			/* updater only: the oldest slot */
#endif
	/* updater only */
	unsigned long updates, einval, errors;
	u64 update_ns_sum, update_ns_max;
};

struct emt_reader {
	struct task_struct *task;
	int cpu;
	u64 rng;
	unsigned long reads, repins, null_pd, null_tables;
#ifdef EMRCU_EM_TABLE_API
	unsigned long held_reads;
#endif
	unsigned long dev_reads[EMT_MAX_DEVS];
	unsigned long pipe[EMT_PIPE_LEN + 1];
	unsigned long batch[EMT_PIPE_LEN + 1];
	unsigned long modes[EMT_NR_MODES];
	struct em_perf_state snap[EMT_MAX_STATES];
};

static struct emt_dev *emt_devs;
static int emt_nr_devs;
static struct emt_dev *emt_cyc;		/* the cycled device, or NULL */
static struct em_perf_domain __rcu *emt_cyc_pd;
static unsigned long emt_epoch;		/* cycler: odd = in transition */
static unsigned long emt_cycles, emt_cycle_fail;

/* Updater only: successful updates by latency, bucket b: [2^(b-1), 2^b) us. */
static unsigned long emt_lat[EMT_LAT_BUCKETS];

static struct emt_reader *emt_readers;
static int emt_nr_readers;
static struct task_struct *emt_updater_task, *emt_cycler_task;
static struct task_struct *emt_control_task;
static struct dentry *emt_dir;

static DECLARE_WAIT_QUEUE_HEAD(emt_wq);
static bool emt_go;			/* workers start */
static bool emt_stop_req;		/* control: stop now */
static bool emt_done;			/* result block printed */
static const char *emt_stop_reason = "rmmod";
static u64 emt_t_start, emt_t_stop;

/* Grace-period ticker. */
static struct rcu_head emt_tick_rh;
static unsigned long emt_ticks;
static bool emt_tick_stop, emt_tick_done;

/* ---- helpers ------------------------------------------------------------- */
static __printf(2, 3) void emt_fail(enum emt_rule rule, const char *fmt, ...)
{
	struct va_format vaf;
	va_list ap;

	if (atomic_long_inc_return(&emt_failures[rule]) > EMT_PRINT_MAX)
		return;
	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	pr_err("FAILURE: em_torture: %s: %pV\n", emt_rule_name[rule], &vaf);
	va_end(ap);
}

static void emt_request_stop(const char *why)
{
	if (!READ_ONCE(emt_stop_req)) {
		emt_stop_reason = why;
		WRITE_ONCE(emt_stop_req, true);
	}
	wake_up_all(&emt_wq);
}

static bool emt_should_stop(void)
{
	return kthread_should_stop();
}

static void emt_tick_cb(struct rcu_head *rh)
{
	WRITE_ONCE(emt_ticks, emt_ticks + 1);
	if (READ_ONCE(emt_tick_stop)) {
		WRITE_ONCE(emt_tick_done, true);
		return;
	}
	call_rcu(rh, emt_tick_cb);
}

static void emt_ticker_stop(void)
{
	WRITE_ONCE(emt_tick_stop, true);
	while (!READ_ONCE(emt_tick_done))
		rcu_barrier();
}

static struct emt_dev *emt_dev_of(struct device *dev)
{
	int i;

	for (i = 0; i < emt_nr_devs; i++)
		if (emt_devs[i].dev == dev)
			return &emt_devs[i];
	return NULL;
}

static int emt_state_of(const struct emt_dev *d, unsigned long freq)
{
	int i;

	for (i = 0; i < d->nr; i++)
		if (d->freq[i] >= freq)
			return i;
	return -1;
}

/* ---- EM callbacks -------------------------------------------------------- */
/* Registration: the table of the device's current generation. */
static int emt_active_power(struct device *dev, unsigned long *power,
			    unsigned long *freq)
{
	struct emt_dev *d = emt_dev_of(dev);
	int i;

	if (!d)
		return -EINVAL;
	i = emt_state_of(d, *freq);
	if (i < 0)
		return -EINVAL;
	*freq = d->freq[i];
	*power = d->base[i] + (READ_ONCE(d->gen) & d->mask);
	return 0;
}

/*
 * ---- EM API: all that differs between the two designs -------------------
 * emt_table()		the PD's table, inside rcu_read_lock()
 * emt_costed()		does the EM compute the costs and flags of @d?
 * emt_cost()		the cost the EM computes for state @i
 * emt_perf_ok()	state @i's performance is the registered one
 * emt_em_update()	build and publish generation @gen of @d's table
 * emt_skipped()	emt_em_update() had nothing to publish
 * emt_cyc_unregister(), emt_cyc_register()	the cycler's two steps
 * emt_cpu_init()	a CPU PD's frequencies and generation-0 powers
 * emt_release()	rmmod: the references the updater still holds
 */
#define EMT_SKIPPED	1		/* emt_em_update(): nothing to publish */

#ifndef EMRCU_EM_TABLE_API
/* v2: the EM builds the table itself, calling the driver's update_power(). */
#define EMT_TABLE_NAME	"runtime_table"
#define emt_table(pd)	rcu_dereference((pd)->runtime_table)

/* v2: em_compute_costs() runs for every device. */
static bool emt_costed(const struct emt_dev *d)
{
	return true;
}

static unsigned long emt_cost(const struct em_perf_state *s, int i, u64 fmax)
{
	return div64_u64(fmax * s[i].power, s[i].frequency);
}

static bool emt_perf_ok(const struct emt_dev *d, const struct em_perf_state *s,
			int i)
{
	return true;
}

struct emt_update_ctx {
	struct emt_dev *d;
	unsigned long gen;
};

static int emt_update_power(struct device *dev, unsigned long freq,
			    unsigned long *power, void *priv)
{
	struct emt_update_ctx *c = priv;
	int i = emt_state_of(c->d, freq);

	if (i < 0 || c->d->freq[i] != freq) {
		emt_fail(EMT_R_CALLBACK,
			 "%s: update_power() asked for %lu kHz, not a registered frequency",
			 c->d->name, freq);
		return -EINVAL;
	}
	*power = c->d->base[i] + (c->gen & c->d->mask);
	return 0;
}

static int emt_em_update(struct emt_dev *d, unsigned long gen)
{
	struct em_data_callback cb = EM_UPDATE_CB(emt_update_power);
	struct emt_update_ctx c = { .d = d, .gen = gen };

	return em_dev_update_perf_domain(d->dev, &cb, &c);
}

static bool emt_skipped(int ret)
{
	return false;
}

/* v2: unregistration waits for a grace period before freeing the PD. */
static void emt_cyc_unregister(struct emt_dev *d)
{
	RCU_INIT_POINTER(emt_cyc_pd, NULL);
	em_dev_unregister_perf_domain(d->dev);
}

static int emt_cyc_register(struct emt_dev *d, struct em_data_callback *cb)
{
	int ret;

	ret = em_dev_register_perf_domain(d->dev, d->nr, cb, NULL, true);
	if (!ret)
		rcu_assign_pointer(emt_cyc_pd, d->dev->em_pd);
	return ret;
}

/* v2: the default table never changes; generation 0 is its powers. */
static void emt_cpu_init(struct emt_dev *d, struct em_perf_domain *pd)
{
	struct em_perf_table *tbl = pd->default_table;
	int i;

	for (i = 0; i < d->nr; i++) {
		d->freq[i] = tbl->state[i].frequency;
		d->base[i] = tbl->state[i].power;
	}
}

static void emt_release(struct emt_dev *d)
{
}
#else
/*
 * Merged design: the driver builds a refcounted table ahead of time and
 * publishes it; em_dev_update_perf_domain() takes a reference of its own.
 */
#define EMT_TABLE_NAME	"em_table"

/* The cycled PD's lifetime vs the updater's table builds (they need it). */
static DEFINE_MUTEX(emt_cyc_mutex);

#define emt_table(pd)	rcu_dereference((pd)->em_table)

/* Merged: em_dev_compute_costs() leaves other devices' cost and flags. */
static bool emt_costed(const struct emt_dev *d)
{
	return d->kind == EMT_CPU;
}

static unsigned long emt_cost(const struct em_perf_state *s, int i, u64 fmax)
{
	return div64_u64(10 * (u64)s[i].power, s[i].performance);
}

static bool emt_perf_ok(const struct emt_dev *d, const struct em_perf_state *s,
			int i)
{
	if (s[i].performance == d->perf[i])
		return true;
	emt_fail(EMT_R_FREQ,
		 "%s: state %d performance %lu, registered %lu (frequency %lu)",
		 d->name, i, s[i].performance, d->perf[i], s[i].frequency);
	return false;
}

/*
 * Generation @gen of @d's table, built from its PD's current one and
 * priced, as the bench's drivers build one (emrcu_em_table.h); @d's PD
 * must stay registered meanwhile.
 */
static struct em_perf_table *emt_build(struct emt_dev *d, unsigned long gen)
{
	unsigned long power[EMT_MAX_STATES];
	int i;

	for (i = 0; i < d->nr; i++)
		power[i] = d->base[i] + (gen & d->mask);
	return emrcu_em_table_build(d->dev, power, d->nr);
}

static struct em_perf_table *emt_newest(struct emt_dev *d)
{
	return rcu_dereference_protected(d->held[(d->held_next + EMT_HELD - 1) %
						 EMT_HELD], true);
}

/*
 * Keep the updater's reference to @t; give up the one to the table built
 * EMT_HELD builds before.  Every later build was published after it or
 * failed because its PD was unregistered, so no PD refers to it any more:
 * the updater's reference is its last one.
 */
static void emt_hold(struct emt_dev *d, struct em_perf_table *t)
{
	struct em_perf_table *old;
	unsigned int refs;

	old = rcu_replace_pointer(d->held[d->held_next], t, true);
	d->held_next = (d->held_next + 1) % EMT_HELD;
	if (!old)
		return;
	refs = kref_read(&old->kref);
	if (refs != 1)
		emt_fail(EMT_R_HELD,
			 "%s: a table built %d builds ago has refcount %u when the updater gives its reference up, expected 1",
			 d->name, EMT_HELD, refs);
	/* The slot no longer points to @old: see emt_read_held(). */
	em_table_free(old);
}

static int emt_em_update(struct emt_dev *d, unsigned long gen)
{
	struct em_perf_domain *pd;
	struct em_perf_table *t = NULL;
	int ret;

	if (d->kind == EMT_CYCLE) {
		mutex_lock(&emt_cyc_mutex);
		pd = rcu_dereference_protected(emt_cyc_pd,
					       lockdep_is_held(&emt_cyc_mutex));
		if (pd)
			t = emt_build(d, gen);
		mutex_unlock(&emt_cyc_mutex);
		if (!pd) {
			/* Unregistered: offer the newest table held. */
			t = emt_newest(d);
			return t ? em_dev_update_perf_domain(d->dev, t) :
				   EMT_SKIPPED;
		}
	} else {
		t = emt_build(d, gen);
	}
	if (!t)
		return -ENOMEM;
	ret = em_dev_update_perf_domain(d->dev, t);
	emt_hold(d, t);
	/*
	 * inject_held_put: drop a reference the updater does not own, as a
	 * driver with a refcounting bug would: the table is freed once the
	 * next update replaces it, while its slot still holds it.
	 */
	if (inject_held_put && !ret && d == &emt_devs[0] &&
	    d->kind == EMT_TEST && !(gen % EMT_INJECT_PUT_EVERY))
		em_table_free(t);
	return ret;
}

static bool emt_skipped(int ret)
{
	return ret == EMT_SKIPPED;
}

/*
 * Merged: em_dev_unregister_perf_domain() frees the PD at once (only its
 * table goes through RCU), so the readers that reached it through
 * emt_cyc_pd must be gone first.
 */
static void emt_cyc_unregister(struct emt_dev *d)
{
	mutex_lock(&emt_cyc_mutex);
	RCU_INIT_POINTER(emt_cyc_pd, NULL);
	synchronize_rcu();
	em_dev_unregister_perf_domain(d->dev);
	mutex_unlock(&emt_cyc_mutex);
}

static int emt_cyc_register(struct emt_dev *d, struct em_data_callback *cb)
{
	int ret;

	mutex_lock(&emt_cyc_mutex);
	ret = em_dev_register_perf_domain(d->dev, d->nr, cb, NULL, true);
	if (!ret)
		rcu_assign_pointer(emt_cyc_pd, d->dev->em_pd);
	mutex_unlock(&emt_cyc_mutex);
	return ret;
}

/* Merged: no default table; generation 0 is the table at load time. */
static void emt_cpu_init(struct emt_dev *d, struct em_perf_domain *pd)
{
	struct em_perf_state *st;
	int i;

	rcu_read_lock();
	st = em_perf_state_from_pd(pd);
	for (i = 0; i < d->nr; i++) {
		d->freq[i] = st[i].frequency;
		d->base[i] = st[i].power;
		d->perf[i] = st[i].performance;
		if (!d->perf[i])
			d->check_cost = false;	/* no cost to recompute */
	}
	rcu_read_unlock();
}

static void emt_release(struct emt_dev *d)
{
	struct em_perf_table *t;
	int k;

	for (k = 0; k < EMT_HELD; k++) {
		t = rcu_replace_pointer(d->held[k], NULL, true);
		if (t)
			em_table_free(t);
	}
}
#endif /* EMRCU_EM_TABLE_API */

/* ---- readers ------------------------------------------------------------- */
/* Full generation of a table whose state 0 has @power0; false if corrupt. */
static bool emt_gen_of(const struct emt_dev *d, unsigned long power0,
		       unsigned long cur, unsigned long *gen)
{
	unsigned long low;

	if (power0 < d->base[0] || power0 - d->base[0] > d->mask)
		return false;
	low = power0 - d->base[0];
	if (((cur + 1) & d->mask) == low)
		*gen = cur + 1;		/* published, updater not back yet */
	else
		*gen = cur - ((cur - low) & d->mask);
	return true;
}

/* Pipe count of generation @gen (see the top comment). */
static int emt_pipe(const struct emt_dev *d, unsigned long gen,
		    unsigned long cur, unsigned long tick)
{
	unsigned long diff;
	u64 v;

	if (gen >= cur)
		return 0;
	v = READ_ONCE(d->ring[gen % EMT_RING]);
	if ((v >> EMT_TICK_BITS) < gen)
		return 1;
	diff = (tick - v) & ((1UL << EMT_TICK_BITS) - 1);
	if (diff < 2)
		return 1;
	return min_t(unsigned long, diff, EMT_PIPE_LEN);
}

static void emt_check(struct emt_reader *r, const struct emt_dev *d,
		      unsigned long gen, bool gen_ok)
{
	const struct em_perf_state *s = r->snap;
	unsigned long prev_cost = ULONG_MAX, delta, cost, flags;
	u64 fmax = s[d->nr - 1].frequency;
	int i;

	for (i = 0; i < d->nr; i++) {
		if (s[i].frequency != d->freq[i]) {
			emt_fail(EMT_R_FREQ,
				 "%s: state %d frequency %lu, registered %lu (power %lu cost %lu)",
				 d->name, i, s[i].frequency, d->freq[i],
				 s[i].power, s[i].cost);
			return;
		}
		if (!emt_perf_ok(d, s, i))
			return;
	}
	if (!gen_ok) {
		emt_fail(EMT_R_MIXED,
			 "%s: state 0 power %lu is no generation of base %lu (mask %#lx)",
			 d->name, s[0].power, d->base[0], d->mask);
		return;
	}
	delta = s[0].power - d->base[0];
	for (i = 1; i < d->nr; i++) {
		if (s[i].power != d->base[i] + delta) {
			emt_fail(EMT_R_MIXED,
				 "%s: state 0 is generation %lu (low bits %lu) but state %d has power %lu, expected %lu",
				 d->name, gen, delta, i, s[i].power,
				 d->base[i] + delta);
			return;
		}
	}
	if (!d->check_cost)
		return;
	for (i = d->nr - 1; i >= 0; i--) {
		cost = emt_costed(d) ? emt_cost(s, i, fmax) : 0;
		if (s[i].cost != cost) {
			emt_fail(EMT_R_COST,
				 "%s: generation %lu state %d power %lu freq %lu: cost %lu, recomputed %lu",
				 d->name, gen, i, s[i].power, s[i].frequency,
				 s[i].cost, cost);
			return;
		}
		flags = 0;
		if (cost >= prev_cost && emt_costed(d))
			flags = EM_PERF_STATE_INEFFICIENT;
		else
			prev_cost = cost;
		if (s[i].flags != flags) {
			emt_fail(EMT_R_FLAGS,
				 "%s: generation %lu state %d: flags %#lx, recomputed %#lx",
				 d->name, gen, i, s[i].flags, flags);
			return;
		}
	}
}

static void emt_read_one(struct emt_reader *r, struct emt_dev *d, int di)
{
	unsigned long irqflags = 0, cur = 0, gen = 0, t0, t1;
	u64 x = emrcu_rand(&r->rng);
	int mode = x % EMT_NR_MODES, pipe = -1, nr = 0;
	bool recheck = !((x >> 8) & EMT_RECHECK_MASK);
	bool mutated = false, gen_ok = false, null_tbl = false;
	unsigned int hold = (x >> 16) % (EMT_HOLD_US_MAX + 1);
	struct em_perf_domain *pd;
	struct em_perf_table *tbl;
	struct em_perf_state *st;

	switch (mode) {
	case EMT_M_PREEMPT:
		preempt_disable();
		break;
	case EMT_M_IRQ:
		local_irq_save(irqflags);
		break;
	case EMT_M_BH:
		local_bh_disable();
		break;
	}
	rcu_read_lock();
	t0 = READ_ONCE(emt_ticks);
	if (d->kind == EMT_CYCLE)
		pd = rcu_dereference(emt_cyc_pd);
	else
		pd = d->pd;
	if (!pd)
		goto unlock;
	tbl = emt_table(pd);
	if (!tbl) {
		null_tbl = true;
		goto unlock;
	}
	nr = pd->nr_perf_states;
	if (nr != d->nr)
		goto unlock;
	st = tbl->state;
	memcpy(r->snap, st, nr * sizeof(*st));
	if (recheck) {
		udelay(hold);
		mutated = memcmp(r->snap, st, nr * sizeof(*st)) != 0;
	}
	if (d->kind != EMT_CYCLE) {
		/* Pairs with emt_update_one(): the ring slot of gen < cur. */
		cur = smp_load_acquire(&d->gen);
		gen_ok = emt_gen_of(d, r->snap[0].power, cur, &gen);
		if (gen_ok)
			pipe = emt_pipe(d, gen, cur, READ_ONCE(emt_ticks));
	} else {
		gen_ok = emt_gen_of(d, r->snap[0].power,
				    READ_ONCE(d->gen), &gen);
	}
unlock:
	t1 = READ_ONCE(emt_ticks);
	rcu_read_unlock();
	switch (mode) {
	case EMT_M_PREEMPT:
		preempt_enable();
		break;
	case EMT_M_IRQ:
		local_irq_restore(irqflags);
		break;
	case EMT_M_BH:
		local_bh_enable();
		break;
	}

	r->reads++;
	r->dev_reads[di]++;
	r->modes[mode]++;
	r->batch[min_t(unsigned long, t1 - t0, EMT_PIPE_LEN)]++;
	if (!pd) {
		r->null_pd++;
		return;
	}
	if (null_tbl) {
		if (d->kind == EMT_CYCLE)
			r->null_tables++;
		else
			emt_fail(EMT_R_NULL,
				 "%s: " EMT_TABLE_NAME " is NULL on a registered PD",
				 d->name);
		return;
	}
	if (nr != d->nr) {
		emt_fail(EMT_R_NR_STATES,
			 "%s: nr_perf_states %d, registered %d",
			 d->name, nr, d->nr);
		return;
	}
	if (mutated)
		emt_fail(EMT_R_MUTATED,
			 "%s: table changed within %u us inside one read-side section (state 0 power %lu)",
			 d->name, hold, r->snap[0].power);
	if (pipe >= 0) {
		r->pipe[pipe]++;
		if (pipe > 1)
			emt_fail(EMT_R_PIPE,
				 "%s: read generation %lu while generation %lu is current, %d grace periods after it was replaced (mode %s)",
				 d->name, gen, cur, pipe, emt_mode_name[mode]);
	}
	emt_check(r, d, gen, gen_ok);
}

#ifdef EMRCU_EM_TABLE_API
/*
 * Merged: sometimes (1 read in EMT_HELD_READ_MASK + 1) read one of the
 * tables the updater holds a reference to, whether replaced or not.  The
 * table rules apply; its reference count cannot be 0 while the slot still
 * points to it: emt_hold() replaces the slot before em_table_free(), whose
 * kref_put() orders that before the decrement, and the read of the count
 * comes before the second read of the slot.
 */
static void emt_read_held(struct emt_reader *r, struct emt_dev *d)
{
	u64 x = emrcu_rand(&r->rng);
	int k = (x >> 8) % EMT_HELD;
	unsigned long gen = 0;
	struct em_perf_table *t;
	bool gen_ok = false, held = false;
	unsigned int refs = 0;

	if (x & EMT_HELD_READ_MASK)
		return;
	rcu_read_lock();
	t = rcu_dereference(d->held[k]);
	if (t) {
		refs = kref_read(&t->kref);
		smp_rmb();	/* pairs with kref_put()'s release */
		held = rcu_access_pointer(d->held[k]) == t;
		memcpy(r->snap, t->state, d->nr * sizeof(*t->state));
		gen_ok = emt_gen_of(d, r->snap[0].power, READ_ONCE(d->gen),
				    &gen);
	}
	rcu_read_unlock();
	if (!t)
		return;
	r->held_reads++;
	if (held && !refs)
		emt_fail(EMT_R_HELD,
			 "%s: a table the updater holds (state 0 power %lu) has refcount 0",
			 d->name, r->snap[0].power);
	emt_check(r, d, gen, gen_ok);
}
#else
static void emt_read_held(struct emt_reader *r, struct emt_dev *d)
{
}
#endif

static void emt_repin(struct emt_reader *r)
{
	if (raw_smp_processor_id() == r->cpu || !cpu_online(r->cpu))
		return;
	if (!set_cpus_allowed_ptr(current, cpumask_of(r->cpu)))
		r->repins++;
}

/*
 * inject_stale_read: what a reader that keeps a table across
 * rcu_read_unlock() would see.  Read the generation of a stable PD's table,
 * leave the read-side section, wait until that table was replaced and
 * three grace periods passed, then count its pipe inside a new section as
 * if the table had just been read (its memory is not touched again: that
 * would be the use-after-free KASAN reports).  Must give reader-pipe.
 */
static void emt_inject_stale(struct emt_reader *r)
{
	struct emt_dev *d = NULL;
	unsigned long cur, gen, t;
	struct em_perf_table *tbl;
	bool ok = false;
	int i, pipe;

	for (i = 0; i < emt_nr_devs && !d; i++)
		if (emt_devs[i].kind != EMT_CYCLE)
			d = &emt_devs[i];
	if (!d)
		return;
	rcu_read_lock();
	tbl = emt_table(d->pd);
	if (tbl)
		ok = emt_gen_of(d, tbl->state[0].power, READ_ONCE(d->gen),
				&gen);
	rcu_read_unlock();
	if (!ok)
		return;
	while (READ_ONCE(d->gen) <= gen)
		if (emt_should_stop() || schedule_timeout_interruptible(1))
			return;
	t = READ_ONCE(emt_ticks);
	while (READ_ONCE(emt_ticks) - t < 3)
		if (emt_should_stop() || schedule_timeout_interruptible(1))
			return;
	rcu_read_lock();
	cur = smp_load_acquire(&d->gen);	/* pairs with emt_update_one() */
	pipe = emt_pipe(d, gen, cur, READ_ONCE(emt_ticks));
	rcu_read_unlock();
	r->pipe[pipe]++;
	if (pipe > 1)
		emt_fail(EMT_R_PIPE,
			 "%s: read generation %lu while generation %lu is current, %d grace periods after it was replaced (injected stale read)",
			 d->name, gen, cur, pipe);
}

static int emt_reader_fn(void *arg)
{
	struct emt_reader *r = arg;
	unsigned long n = 0;

	set_user_nice(current, MAX_NICE);
	wait_event_interruptible(emt_wq, READ_ONCE(emt_go) || emt_should_stop());
	while (!emt_should_stop()) {
		int di = emrcu_rand(&r->rng) % emt_nr_devs;

		emt_read_one(r, &emt_devs[di], di);
		emt_read_held(r, &emt_devs[di]);
		if (!(++n % EMT_REPIN_EVERY))
			emt_repin(r);
		if (inject_stale_read && r == emt_readers &&
		    !(n % EMT_INJECT_EVERY))
			emt_inject_stale(r);
		if (n % reader_burst)
			continue;
		/* Idle vCPUs give the host's cores to the updater (TCG). */
		if (reader_sleep_us)
			usleep_range(reader_sleep_us, 2 * reader_sleep_us);
		else
			cond_resched();
	}
	return 0;
}

/* ---- updater ------------------------------------------------------------- */
static void emt_update_one(struct emt_dev *d)
{
	unsigned long gen = d->gen + 1, e1 = 0, e2 = 0;
	u64 t0, dt;
	int ret;

	if (d->kind == EMT_CYCLE)	/* pairs with emt_epoch_next() */
		e1 = smp_load_acquire(&emt_epoch);
	t0 = local_clock();
	ret = emt_em_update(d, gen);
	dt = local_clock() - t0;
	if (d->kind == EMT_CYCLE)	/* as above */
		e2 = smp_load_acquire(&emt_epoch);
	if (emt_skipped(ret))
		return;

	if (ret == 0) {
		/*
		 * Record when generation d->gen was replaced, then publish.
		 * The full barrier orders the table's publication before the
		 * read of the tick count: a grace period that starts after the
		 * next tick (its callback queued after that read) starts after
		 * the publication, so readers beginning later see the new table.
		 */
		smp_mb();
		WRITE_ONCE(d->ring[d->gen % EMT_RING],
			   ((u64)d->gen << EMT_TICK_BITS) |
			   (READ_ONCE(emt_ticks) & ((1UL << EMT_TICK_BITS) - 1)));
		/* Pairs with emt_read_one(): ring slot before the gen. */
		smp_store_release(&d->gen, gen);
		d->updates++;
		d->update_ns_sum += dt;
		d->update_ns_max = max(d->update_ns_max, dt);
		emt_lat[min_t(int, fls64(div_u64(dt, NSEC_PER_USEC)),
			      EMT_LAT_BUCKETS - 1)]++;
	} else if (ret == -EINVAL) {
		d->einval++;
	} else {
		d->errors++;
	}

	if (d->kind != EMT_CYCLE) {
		if (ret)
			emt_fail(EMT_R_UPDATE,
				 "%s: em_dev_update_perf_domain() = %d on a registered PD (generation %lu)",
				 d->name, ret, gen);
		return;
	}
	if (ret && ret != -EINVAL)
		emt_fail(EMT_R_UPDATE,
			 "%s: em_dev_update_perf_domain() = %d (only 0 or -EINVAL expected)",
			 d->name, ret);
	if (e1 != e2 || (e1 & 1))
		return;		/* raced a transition: either answer is fine */
	if (e1 % 4 == 0 && ret)
		emt_fail(EMT_R_UPD_REG,
			 "%s: update = %d while registered (epoch %lu)",
			 d->name, ret, e1);
	else if (e1 % 4 == 2 && ret != -EINVAL)
		emt_fail(EMT_R_UPD_REG,
			 "%s: update = %d while unregistered (epoch %lu), -EINVAL expected",
			 d->name, ret, e1);
}

static unsigned long emt_total_updates(void)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < emt_nr_devs; i++)
		n += READ_ONCE(emt_devs[i].updates);
	return n;
}

static int emt_updater_fn(void *arg)
{
	unsigned long n = 0;
	int i = 0;

	wait_event_interruptible(emt_wq, READ_ONCE(emt_go) || emt_should_stop());
	while (!emt_should_stop()) {
		emt_update_one(&emt_devs[i]);
		i = (i + 1) % emt_nr_devs;
		if (max_updates && emt_total_updates() >= max_updates &&
		    local_clock() - emt_t_start >=
		    (u64)min_duration_s * NSEC_PER_SEC) {
			emt_request_stop("max_updates");
			break;
		}
		if (!(++n % 64))
			cond_resched();
	}
	emrcu_wait_stop();
	return 0;
}

/* ---- cycler -------------------------------------------------------------- */
static void emt_epoch_next(void)
{
	/* Pairs with emt_update_one(): (un)registration before the epoch. */
	smp_store_release(&emt_epoch, emt_epoch + 1);
}

static int emt_cycler_fn(void *arg)
{
	struct em_data_callback cb = EM_DATA_CB(emt_active_power);
	struct emt_dev *d = emt_cyc;
	int ret;

	wait_event_interruptible(emt_wq, READ_ONCE(emt_go) || emt_should_stop());
	while (!emt_should_stop()) {
		schedule_timeout_interruptible(msecs_to_jiffies(cycle_ms));
		if (emt_should_stop())
			break;
		emt_epoch_next();			/* odd: unregistering */
		emt_cyc_unregister(d);
		if (d->dev->em_pd)
			emt_fail(EMT_R_REGISTER,
				 "%s: em_pd still set after unregister",
				 d->name);
		emt_epoch_next();			/* 2 mod 4: unregistered */
		usleep_range(EMT_CYCLE_MIN_US, EMT_CYCLE_MAX_US);
		emt_epoch_next();			/* odd: registering */
		ret = emt_cyc_register(d, &cb);
		if (ret) {
			emt_fail(EMT_R_REGISTER,
				 "%s: re-register = %d", d->name,
				 ret);
			emt_cycle_fail++;
			emt_epoch_next();		/* 2 mod 4 again */
			emt_epoch_next();
			emt_epoch_next();
			continue;
		}
		emt_epoch_next();			/* 0 mod 4: registered */
		emt_cycles++;
	}
	return 0;
}

/* ---- output (emrcu_kmod.h: emrcu_put() and the block markers) ----------- */
static void emt_put_hist(struct emrcu_out *o, const char *key, size_t off)
{
	unsigned long sum;
	int i, j;

	emrcu_put(o, "\"%s\":[", key);
	for (i = 0; i <= EMT_PIPE_LEN; i++) {
		sum = 0;
		for (j = 0; j < emt_nr_readers; j++)
			sum += ((unsigned long *)((char *)&emt_readers[j] + off))[i];
		emrcu_put(o, "%s%lu", i ? "," : "", sum);
	}
	emrcu_put(o, "],");
}

static u64 emt_per_s(u64 n, u64 ns)
{
	return ns ? div64_u64(n * NSEC_PER_SEC, ns) : 0;
}

static void emt_print(void)
{
	unsigned long reads = 0, upd = 0, fails = 0, null_pd = 0, null_t = 0;
	unsigned long einval = 0, errors = 0, dreads, modes;
	u64 el = emt_t_stop - emt_t_start;
	struct emrcu_out *o;
	struct emt_dev *d;
	int i, j;

	for (j = 0; j < emt_nr_readers; j++) {
		reads += emt_readers[j].reads;
		null_pd += emt_readers[j].null_pd;
		null_t += emt_readers[j].null_tables;
	}
	for (i = 0; i < emt_nr_devs; i++) {
		upd += emt_devs[i].updates;
		einval += emt_devs[i].einval;
		errors += emt_devs[i].errors;
	}
	for (i = 0; i < EMT_NR_RULES; i++)
		fails += atomic_long_read(&emt_failures[i]);

	o = emrcu_block_begin("em_torture.json");
	if (!o)
		return;
	emrcu_put(o, "{\"schema\":\"emrcu/em_torture/1\",");
	emrcu_put_kernel(o);
	emrcu_put(o, "\"config\":{\"kasan\":%s,\"prove_rcu\":%s,\"lockdep\":%s,",
		  IS_ENABLED(CONFIG_KASAN) ? "true" : "false",
		  IS_ENABLED(CONFIG_PROVE_RCU) ? "true" : "false",
		  IS_ENABLED(CONFIG_PROVE_LOCKING) ? "true" : "false");
	emrcu_put(o, "\"kmemleak\":%s,\"debug_objects_rcu_head\":%s},",
		  IS_ENABLED(CONFIG_DEBUG_KMEMLEAK) ? "true" : "false",
		  IS_ENABLED(CONFIG_DEBUG_OBJECTS_RCU_HEAD) ? "true" : "false");
	emrcu_put(o, "\"params\":{\"duration_s\":%d,\"min_duration_s\":%d,",
		  duration_s, min_duration_s);
	emrcu_put(o, "\"max_updates\":%lu,\"test_pds\":[", max_updates);
	for (i = 0; i < nr_test_pds; i++)
		emrcu_put(o, "%s%d", i ? "," : "", test_pds[i]);
	emrcu_put(o, "],\"cycle_states\":%d,\"cycle_ms\":%d,\"cpu_pds\":%s,",
		  cycle_states, cycle_ms, cpu_pds ? "true" : "false");
	emrcu_put(o, "\"reader_burst\":%d,\"reader_sleep_us\":%d,", reader_burst,
		  reader_sleep_us);
	emrcu_put(o, "\"stat_interval_s\":%d,\"inject_stale_read\":%s,",
		  stat_interval_s, inject_stale_read ? "true" : "false");
	emrcu_put(o, "\"seed\":%lu},", seed);
	emrcu_put(o, "\"limits\":{\"pipe_len\":%d,\"hold_us_max\":%d,",
		  EMT_PIPE_LEN, EMT_HOLD_US_MAX);
	emrcu_put(o, "\"test_gen_bits\":%d,\"cpu_gen_bits\":%d,\"ring\":%d},",
		  EMT_TEST_GEN_BITS, EMT_CPU_GEN_BITS, EMT_RING);
	emrcu_put(o, "\"stop_reason\":\"%s\",\"duration_ms\":%llu,",
		  emt_stop_reason, div_u64(el, NSEC_PER_MSEC));
	emrcu_put(o, "\"updates\":%lu,\"updates_per_s\":%llu,", upd,
		  emt_per_s(upd, el));
	emrcu_put(o, "\"reads\":%lu,\"reads_per_s\":%llu,", reads,
		  emt_per_s(reads, el));
#ifdef EMRCU_EM_TABLE_API
	for (j = 0, dreads = 0; j < emt_nr_readers; j++)
		dreads += emt_readers[j].held_reads;
	emrcu_put(o, "\"em_api\":\"merged\",\"held\":%d,\"held_reads\":%lu,",
		  EMT_HELD, dreads);
	emrcu_put(o, "\"inject_held_put\":%s,",
		  inject_held_put ? "true" : "false");
#endif
	emrcu_put(o, "\"readers\":%d,\"grace_periods\":%lu,", emt_nr_readers,
		  READ_ONCE(emt_ticks));
	emrcu_put(o, "\"failures_total\":%lu,\"failures\":{", fails);
	for (i = 0; i < EMT_NR_RULES; i++)
		emrcu_put(o, "%s\"%s\":%ld", i ? "," : "", emt_rule_name[i],
			  atomic_long_read(&emt_failures[i]));
	emrcu_put(o, "},");
	emt_put_hist(o, "pipe", offsetof(struct emt_reader, pipe));
	emt_put_hist(o, "batch", offsetof(struct emt_reader, batch));
	emrcu_put(o, "\"update_us_log2\":[");
	for (i = 0; i < EMT_LAT_BUCKETS; i++)
		emrcu_put(o, "%s%lu", i ? "," : "", emt_lat[i]);
	emrcu_put(o, "],\"modes\":{");
	for (i = 0; i < EMT_NR_MODES; i++) {
		modes = 0;
		for (j = 0; j < emt_nr_readers; j++)
			modes += emt_readers[j].modes[i];
		emrcu_put(o, "%s\"%s\":%lu", i ? "," : "", emt_mode_name[i],
			  modes);
	}
	emrcu_put(o, "},\"cycle\":{\"present\":%s,\"cycles\":%lu,\"register_failures\":%lu,",
		  emt_cyc ? "true" : "false", emt_cycles, emt_cycle_fail);
	emrcu_put(o, "\"update_einval\":%lu,\"update_errors\":%lu,", einval,
		  errors);
	emrcu_put(o, "\"null_pd_reads\":%lu,\"null_table_reads\":%lu},",
		  null_pd, null_t);
	emrcu_put(o, "\"devices\":[");
	for (i = 0; i < emt_nr_devs; i++) {
		d = &emt_devs[i];
		dreads = 0;
		for (j = 0; j < emt_nr_readers; j++)
			dreads += emt_readers[j].dev_reads[i];
		emrcu_put(o, "%s{\"name\":\"%s\",\"kind\":\"%s\",\"nr_states\":%d,",
			  i ? "," : "", d->name, emt_kind_name[d->kind], d->nr);
		emrcu_put(o, "\"updates\":%lu,\"einval\":%lu,\"errors\":%lu,\"generation\":%lu,",
			  d->updates, d->einval, d->errors, d->gen);
		emrcu_put(o, "\"update_ns_avg\":%llu,\"update_ns_max\":%llu,\"reads\":%lu}",
			  d->updates ? div64_u64(d->update_ns_sum, d->updates) : 0,
			  d->update_ns_max, dreads);
	}
	emrcu_put(o, "],\"reader_cpus\":[");
	for (j = 0; j < emt_nr_readers; j++)
		emrcu_put(o, "%s{\"cpu\":%d,\"reads\":%lu,\"repins\":%lu}",
			  j ? "," : "", emt_readers[j].cpu, emt_readers[j].reads,
			  emt_readers[j].repins);
	emrcu_put(o, "]}");
	emrcu_block_end(o);
	pr_info("em_torture: %s: %lu updates, %lu reads, %lu failures in %llu ms\n",
		fails ? "FAIL" : "PASS", upd, reads, fails,
		div_u64(el, NSEC_PER_MSEC));
}

/* ---- control ------------------------------------------------------------- */
static void emt_stop_workers(void)
{
	int i;

	emrcu_kthread_stop(&emt_cycler_task);
	emrcu_kthread_stop(&emt_updater_task);
	for (i = 0; i < emt_nr_readers; i++)
		emrcu_kthread_stop(&emt_readers[i].task);
}

static bool emt_stopping(void)
{
	return READ_ONCE(emt_stop_req) || kthread_should_stop();
}

/* Like rcutorture's stat_interval lines; racy sums, information only. */
static void emt_progress(void)
{
	unsigned long reads = 0, fails = 0;
	int i;

	for (i = 0; i < emt_nr_readers; i++)
		reads += READ_ONCE(emt_readers[i].reads);
	for (i = 0; i < EMT_NR_RULES; i++)
		fails += atomic_long_read(&emt_failures[i]);
	pr_info("em_torture: progress %llu s: %lu updates, %lu reads, %lu failures, %lu grace periods\n",
		div_u64(local_clock() - emt_t_start, NSEC_PER_SEC),
		emt_total_updates(), reads, fails, READ_ONCE(emt_ticks));
}

static int emt_control_fn(void *arg)
{
	unsigned long end = jiffies + (unsigned long)duration_s * HZ;
	unsigned long next = jiffies + (unsigned long)stat_interval_s * HZ;
	long t;

	emt_t_start = local_clock();
	WRITE_ONCE(emt_go, true);
	wake_up_all(&emt_wq);
	while (!emt_stopping() && time_before(jiffies, end)) {
		t = (long)((stat_interval_s && time_before(next, end) ?
			    next : end) - jiffies);
		wait_event_interruptible_timeout(emt_wq, emt_stopping(),
						 max(t, 1L));
		if (stat_interval_s && time_after_eq(jiffies, next) &&
		    !emt_stopping()) {
			emt_progress();
			next += (unsigned long)stat_interval_s * HZ;
		}
	}
	if (!emt_stopping())
		emt_stop_reason = "duration";
	emt_stop_workers();
	emt_t_stop = local_clock();
	emt_ticker_stop();
	emt_print();
	/* Pairs with emt_state_show(): "done" means the block is out. */
	smp_store_release(&emt_done, true);
	emrcu_wait_stop();
	return 0;
}

/* ---- debugfs: state, stop ------------------------------------------------ */
static int emt_state_show(struct seq_file *s, void *unused)
{
	/* Pairs with the release in emt_control_fn(). */
	seq_puts(s, smp_load_acquire(&emt_done) ? "done\n" : "running\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emt_state);

static ssize_t emt_stop_write(struct file *f, const char __user *buf,
			      size_t len, loff_t *ppos)
{
	emt_request_stop("stop_file");
	return len;
}

static const struct file_operations emt_stop_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= emt_stop_write,
	.llseek	= noop_llseek,
};

/* ---- setup --------------------------------------------------------------- */
static int emt_check_params(void)
{
	int i;

	if (duration_s < 1 || duration_s > EMT_DURATION_MAX_S)
		return emrcu_bad_param("duration_s", "out of range 1..86400");
	if (min_duration_s < 0 || min_duration_s > duration_s)
		return emrcu_bad_param("min_duration_s", "out of range 0..duration_s");
	for (i = 0; i < nr_test_pds; i++)
		if (test_pds[i] < 1 || test_pds[i] > EMT_MAX_STATES)
			return emrcu_bad_param("test_pds", "each entry 1..32");
	if (cycle_states < 0 || cycle_states > EMT_MAX_STATES)
		return emrcu_bad_param("cycle_states", "out of range 0..32");
	if (!seed)
		return emrcu_bad_param("seed", "must not be 0");
	if (stat_interval_s < 0 || stat_interval_s > EMT_DURATION_MAX_S)
		return emrcu_bad_param("stat_interval_s", "out of range 0..86400");
	if (reader_burst < 1 || reader_burst > 1000000)
		return emrcu_bad_param("reader_burst", "out of range 1..1000000");
	if (reader_sleep_us < 0 || reader_sleep_us > 100000)
		return emrcu_bad_param("reader_sleep_us", "out of range 0..100000");
	if (cycle_ms < 1 || cycle_ms > 60000)
		return emrcu_bad_param("cycle_ms", "out of range 1..60000");
	if (!nr_test_pds && !cycle_states && !cpu_pds)
		return emrcu_bad_param("test_pds", "nothing to torture");
	return 0;
}

static void emt_fill_test(struct emt_dev *d, enum emt_kind kind, int idx,
			  int nr)
{
	int i;

	d->kind = kind;
	d->nr = nr;
	d->check_cost = true;
	d->mask = (1UL << EMT_TEST_GEN_BITS) - 1;
	if (kind == EMT_CYCLE)
		snprintf(d->name, sizeof(d->name), "em_torture_cycle");
	else
		snprintf(d->name, sizeof(d->name), "em_torture_pd%d", idx);
	for (i = 0; i < nr; i++) {
		d->freq[i] = EMT_TEST_KHZ_STEP * (i + 1);
		d->base[i] = EMT_TEST_UW_UNIT * (i + 1) * (i + 1);
	}
}

static int emt_add_test(enum emt_kind kind, int idx, int nr)
{
	struct em_data_callback cb = EM_DATA_CB(emt_active_power);
	struct emt_dev *d = &emt_devs[emt_nr_devs];
	struct device *dev;
	int ret;

	emt_fill_test(d, kind, idx, nr);
	dev = root_device_register(d->name);
	if (IS_ERR(dev)) {
		pr_err("em_torture: root_device_register(%s) = %ld\n", d->name,
		       PTR_ERR(dev));
		return PTR_ERR(dev);
	}
	d->dev = dev;
	emt_nr_devs++;
	ret = em_dev_register_perf_domain(dev, nr, &cb, NULL, true);
	if (ret) {
		pr_err("em_torture: em_dev_register_perf_domain(%s, %d) = %d\n",
		       d->name, nr, ret);
		return ret;
	}
	if (kind == EMT_CYCLE) {
		emt_cyc = d;
		rcu_assign_pointer(emt_cyc_pd, dev->em_pd);
	} else {
		d->pd = dev->em_pd;
	}
	return 0;
}

static void emt_add_cpu_pds(void)
{
	struct em_perf_domain *pd;
	struct emt_dev *d;
	int cpu;

	for_each_possible_cpu(cpu) {
		pd = em_cpu_get(cpu);
		if (!pd || cpumask_first(em_span_cpus(pd)) != cpu)
			continue;
		if (pd->nr_perf_states > EMT_MAX_STATES) {
			pr_info("em_torture: CPU%d PD has %d states (> %d): not tortured\n",
				cpu, pd->nr_perf_states, EMT_MAX_STATES);
			continue;
		}
		d = &emt_devs[emt_nr_devs++];
		snprintf(d->name, sizeof(d->name), "cpu%d", cpu);
		d->kind = EMT_CPU;
		d->dev = get_cpu_device(cpu);
		d->pd = pd;
		d->nr = pd->nr_perf_states;
		d->check_cost = !em_is_artificial(pd);
		d->mask = (1UL << EMT_CPU_GEN_BITS) - 1;
		emt_cpu_init(d, pd);
	}
}

static void emt_cleanup(void)
{
	int i;

	debugfs_remove_recursive(emt_dir);
	emt_dir = NULL;
	for (i = emt_nr_devs - 1; i >= 0; i--) {
		struct emt_dev *d = &emt_devs[i];

		emt_release(d);
		if (d->kind == EMT_CPU)
			continue;
		if (d->kind == EMT_CYCLE)
			RCU_INIT_POINTER(emt_cyc_pd, NULL);
		em_dev_unregister_perf_domain(d->dev);
		root_device_unregister(d->dev);
	}
	emt_nr_devs = 0;
	kfree(emt_readers);
	emt_readers = NULL;
	kfree(emt_devs);
	emt_devs = NULL;
}

static int emt_start_threads(void)
{
	struct emt_reader *r;
	int cpu, i = 0;

	emt_nr_readers = num_online_cpus();
	emt_readers = kcalloc(emt_nr_readers, sizeof(*emt_readers),
			      GFP_KERNEL);
	if (!emt_readers)
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		if (i == emt_nr_readers)
			break;
		r = &emt_readers[i++];
		r->cpu = cpu;
		r->rng = (seed * 0x9e3779b97f4a7c15ULL + cpu) | 1;
		/* Pinned, not bound: it survives its CPU going offline. */
		r->task = emrcu_kthread_on_cpu(emt_reader_fn, r, cpu, false,
					       "em_torture_r");
		if (IS_ERR(r->task)) {
			r->task = NULL;
			return -ENOMEM;
		}
		wake_up_process(r->task);
	}
	emt_nr_readers = i;
	emt_updater_task = kthread_run(emt_updater_fn, NULL, "em_torture_u");
	if (IS_ERR(emt_updater_task)) {
		emt_updater_task = NULL;
		return -ENOMEM;
	}
	if (emt_cyc) {
		emt_cycler_task = kthread_run(emt_cycler_fn, NULL,
					      "em_torture_c");
		if (IS_ERR(emt_cycler_task)) {
			emt_cycler_task = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

static int __init em_torture_init(void)
{
	int i, ret;

	ret = emt_check_params();
	if (ret)
		return ret;
	emt_devs = kcalloc(EMT_MAX_DEVS, sizeof(*emt_devs), GFP_KERNEL);
	if (!emt_devs)
		return -ENOMEM;
	for (i = 0; i < nr_test_pds; i++) {
		ret = emt_add_test(EMT_TEST, i, test_pds[i]);
		if (ret)
			goto err;
	}
	if (cycle_states) {
		ret = emt_add_test(EMT_CYCLE, 0, cycle_states);
		if (ret)
			goto err;
	}
	if (cpu_pds)
		emt_add_cpu_pds();
	if (!emt_nr_devs) {
		ret = emrcu_bad_param("cpu_pds", "no CPU perf domain and no test PD");
		goto err;
	}

	call_rcu(&emt_tick_rh, emt_tick_cb);
	ret = emt_start_threads();
	if (ret)
		goto err_threads;
	emt_control_task = kthread_run(emt_control_fn, NULL, "em_torture_ctl");
	if (IS_ERR(emt_control_task)) {
		ret = PTR_ERR(emt_control_task);
		emt_control_task = NULL;
		goto err_threads;
	}
	emt_dir = debugfs_create_dir("em_torture", NULL);
	debugfs_create_file("state", 0444, emt_dir, NULL, &emt_state_fops);
	debugfs_create_file("stop", 0200, emt_dir, NULL, &emt_stop_fops);
	pr_info("em_torture: %d devices, %d readers, duration %d s, max_updates %lu\n",
		emt_nr_devs, emt_nr_readers, duration_s, max_updates);
	return 0;

err_threads:
	emt_stop_workers();
	emt_ticker_stop();
err:
	emt_cleanup();
	return ret;
}

static void __exit em_torture_exit(void)
{
	emt_request_stop("rmmod");
	kthread_stop(emt_control_task);
	emt_cleanup();
}

module_init(em_torture_init);
module_exit(em_torture_exit);
