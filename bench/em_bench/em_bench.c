// SPDX-License-Identifier: GPL-2.0
/*
 * em_bench - cost of em_cpu_energy() on the EAS hot path, with and without a
 * concurrent runtime Energy Model updater, in the style of
 * kernel/rcu/refscale.c: parameters at the top, one measurement engine, an
 * ops table for what differs between kernels, results as one parseable block.
 *
 * The whole run happens in module init: insmod blocks until the result block
 * (EMRCU-RESULT-BEGIN em_bench.json ... EMRCU-RESULT-END em_bench.json) has
 * been printed, then returns 0.  Bad parameters make insmod fail with -EINVAL
 * and a pr_err() naming the parameter.
 *
 * Engine:
 *  - one reader kthread per selected CPU, bound, SCHED_IDLE + nice 19;
 *  - start barrier, then warm-up passes until every reader has checked in;
 *  - @nruns timed passes, each with irqs off inside rcu_read_lock(): @loops
 *    calls of em_cpu_energy() on the reader CPU's perf domain with inputs
 *    precomputed from a seeded xorshift sequence that hits every OPP;
 *    every pass's time per call is kept (picoseconds);
 *  - cool-down: a reader that is done keeps calling until all are done;
 *  - updater kthread (runtime EM kernels only) calling
 *    em_dev_update_perf_domain() at @update_hz, alternating two tables of
 *    the platform's power model (@temp_lo_mc / @temp_hi_mc), computed
 *    before anything is timed: the update's callback returns the next
 *    precomputed value (O(1)), so an update times the series' own work;
 *  - update-cost scaling (@scaling): back-to-back updates of the platform's
 *    test perf domains (different OPP counts), each preceded by a timed
 *    pass of the callback alone over the same table.
 */

#define pr_fmt(fmt) fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/energy_model.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <uapi/linux/sched/types.h>
#ifdef CONFIG_ARM64
#include <asm/arch_timer.h>
#endif

#include "em_bench_platform.h"
#include "emrcu_em_table.h"
#include "emrcu_kmod.h"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("em_cpu_energy() hot path and runtime EM update benchmark");

/* ---- limits: every constant that bounds a run, in one place ------------ */
#define EMB_LOOPS_MAX		1000000
#define EMB_NRUNS_MAX		100000
#define EMB_WARMUP_MAX		100000
#define EMB_UPDATE_HZ_MAX	10000
#define EMB_SPREAD_MS_MAX	60000
#define EMB_MAX_UPDATES		20000	/* recorded updater samples */
#define EMB_BURST_MAX		256	/* due update slots run per wake-up */
#define EMB_SCALING_N_MAX	10000
#define EMB_AUTO_SPREAD_UPDATES	100	/* spread_ms=-1: time of 100 updates */
#define EMB_OVERHEAD_PASSES	16	/* empty timed passes per reader */
#define EMB_TIMEOUT_S		300	/* give up on a run that hangs */
#define EMB_INJECT_MAX		4	/* inject_nops: 0, 1, 2 or 4 */
#define EMB_SLOW_PCT_MAX	100	/* inject_slow_pct: 0..100 */
#define EMB_CALIB_PASSES	8	/* inject_slow_pct: minimum of 8 */
#define EMB_CALIB_SPINS		100000	/* spin iterations timed per pass */
#define EMB_HOLD_NS_MAX		1000000	/* inject_hold_ns: 0..1 ms */
#define EMB_BLOCK_LEN_MAX	64	/* block: result block name length */

/* ---- parameters --------------------------------------------------------- */
static char *readers;
module_param(readers, charp, 0444);
MODULE_PARM_DESC(readers, "Reader CPU list (e.g. 0-3,6); not given: all online CPUs");

static int loops = 100;
module_param(loops, int, 0444);
MODULE_PARM_DESC(loops, "em_cpu_energy() calls per timed pass");

static int nruns = 400;
module_param(nruns, int, 0444);
MODULE_PARM_DESC(nruns, "Timed passes per reader");

static int warmup = 20;
module_param(warmup, int, 0444);
MODULE_PARM_DESC(warmup, "Untimed warm-up passes per reader");

static int update_hz;
module_param(update_hz, int, 0444);
MODULE_PARM_DESC(update_hz, "Runtime EM updates per second, 0..10000 (0: no updater)");

static bool null_update;
module_param(null_update, bool, 0444);
MODULE_PARM_DESC(null_update, "Run the updater's wake-up pattern but skip the update: the control a kernel without the runtime EM can run");

static int update_pd = -1;
module_param(update_pd, int, 0444);
MODULE_PARM_DESC(update_pd, "CPU perf domain the updater modifies (-1: all)");

static int update_cpu = -1;
module_param(update_cpu, int, 0444);
MODULE_PARM_DESC(update_cpu, "Updater CPU (-1: first online non-reader CPU, else last reader)");

static int spread_ms = -1;
module_param(spread_ms, int, 0444);
MODULE_PARM_DESC(spread_ms, "Spread the timed passes over this long (-1: 0, or 100 update periods with an updater)");

static int temp_lo_mc = 25000;
module_param(temp_lo_mc, int, 0444);
MODULE_PARM_DESC(temp_lo_mc, "Model temperature of the first table (m°C)");

static int temp_hi_mc = 85000;
module_param(temp_hi_mc, int, 0444);
MODULE_PARM_DESC(temp_hi_mc, "Model temperature of the second table (m°C)");

static bool same_table;
module_param(same_table, bool, 0444);
MODULE_PARM_DESC(same_table, "Every update pushes the temp_lo_mc table (temp_hi_mc is set to it): what RCU and the updates cost without new content for the readers");

static bool scaling;
module_param(scaling, bool, 0444);
MODULE_PARM_DESC(scaling, "Measure update cost on the platform's test perf domains");

static int scaling_n = 200;
module_param(scaling_n, int, 0444);
MODULE_PARM_DESC(scaling_n, "Updates per test perf domain in the scaling run");

static bool reader_qs = true;
module_param(reader_qs, bool, 0444);
MODULE_PARM_DESC(reader_qs, "Readers call schedule() between passes (an RCU quiescent state, as a CPU that context-switches); 0: cond_resched() only");

static bool reader_idle;
module_param(reader_idle, bool, 0444);
MODULE_PARM_DESC(reader_idle, "Readers sleep between spread passes and in the cool-down instead of keeping their CPU busy: em_bench as a light load beside a measured workload (no CPU overutilized, EAS stays on)");

static ulong seed = 1;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "Seed of the input sequence");

static int inject_nops;
module_param(inject_nops, int, 0444);
MODULE_PARM_DESC(inject_nops, "Positive control of the regression gate: 0, 1, 2 or 4 extra instructions (nop) per em_cpu_energy() call, in the benchmark's own call wrapper (no kernel change)");

static int inject_slow_pct;
module_param(inject_slow_pct, int, 0444);
MODULE_PARM_DESC(inject_slow_pct, "Positive control of the realtime gate: a spin loop after every em_cpu_energy() call, calibrated per reader after the warm-up to add about this % of the call's own time (0..100; no kernel change)");

static int inject_hold_ns;
module_param(inject_hold_ns, int, 0444);
MODULE_PARM_DESC(inject_hold_ns, "Negative control of the wakeup-latency checks: after every update hold its CPU this long with preemption off, outside the timed update (0..1000000; no kernel change)");

static char *block = "em_bench.json";
module_param(block, charp, 0444);
MODULE_PARM_DESC(block, "Name of the result block (several loads of one boot keep one block each)");

static char *mode_hint = "";
module_param(mode_hint, charp, 0444);
MODULE_PARM_DESC(mode_hint, "Timing mode label echoed in the results (deterministic|realtime)");

/* ---- state of one run --------------------------------------------------- */
struct emb_input {
	unsigned long max_util;
	unsigned long sum_util;
};

/* An update's power values, per OPP, at temp_lo_mc and temp_hi_mc. */
struct emb_tables {
	unsigned long *power[2];
	void *prep[2];			/* emb_ops.prepare() of power[k] */
	int nr_states;
};

struct emb_pd {
	struct em_perf_domain *pd;
	struct emb_tables tab;		/* updated PDs only */
	struct device *dev;		/* CPU device of the first CPU */
	int first_cpu;
	int nr_cpus;
	unsigned long cap;		/* arch_scale_cpu_capacity() */
	int nr_states;
	int covered;			/* OPPs hit by the inputs */
	struct emb_input *inputs;	/* @loops entries */
	u64 ref_sum;			/* one pass, computed before the run */
};

struct emb_reader {
	struct task_struct *task;
	int cpu;
	int pdi;
	struct emb_input *in;		/* private copy of the PD's inputs */
	u64 *ps;			/* @nruns samples: ps per call */
	u64 checksum;
	u64 overhead_ns;
	unsigned long sink;		/* warm-up/cool-down results */
	u64 calib_call_ps;		/* inject_slow_pct: one plain call */
	u64 calib_spin_ps;		/* inject_slow_pct: one spin iteration */
	u32 spin;			/* inject_slow_pct: iterations per call */
};

struct emb_rec {
	struct rcu_head rh;
	u64 t_end;
	u64 update_ns;
	u64 cb_ns;			/* local_clock() of the marker, 0 until it ran */
};

struct emb_updater {
	struct task_struct *task;
	int cpu;
	int pd_first, pd_last;		/* range of emb_pds[] updated */
	u64 period_ns;
	u64 events;			/* slots run, each updating every PD */
	u64 count, errors, late, missed, tick_sleeps, nrec;
	u64 t_start, t_stop;
	struct emb_rec *recs;
};

struct emb_scale {
	int nr_states;
	const char *name;
	int errors;
	struct emb_tables tab;
	u64 *update_ns;
	u64 *callback_ns;		/* the callback alone, same table */
};

static struct emb_pd *emb_pds;
static int emb_nr_pds;
static struct emb_reader *emb_readers;
static int emb_nr_readers;
static struct emb_updater emb_upd;
static struct emb_scale *emb_scales;
static int emb_nr_scales;
static cpumask_var_t emb_reader_mask;
static u64 emb_spread_ns;

static DECLARE_WAIT_QUEUE_HEAD(emb_start_wq);
static DECLARE_COMPLETION(emb_done);
static bool emb_go;
static bool emb_abort;
static atomic_t emb_n_warm;
static atomic_t emb_n_cool;

/* Platform model, resolved at run time (see em_bench_platform.h). */
static int (*emb_model)(struct device *dev, unsigned long freq_khz,
			int temp_mc, unsigned long *uw);
static int (*emb_nr_test_pds)(void);
static struct device *(*emb_test_pd)(int i);

/* ---- what differs between kernels --------------------------------------- */
struct emb_ops {
	const char *name;
	bool runtime_em;
	/* Frequency (kHz) of state @i; input generation only, not timed. */
	unsigned long (*freq)(struct em_perf_domain *pd, int i);
	/* Identity of the table readers currently see (pointer compare only). */
	const void *(*table_id)(struct em_perf_domain *pd);
	/*
	 * What an update of @dev to @power (@n values, one per OPP) needs,
	 * made ahead of time, untimed (NULL: no memory); released by
	 * @release.  v2: the values its callback hands out; merged design: the
	 * new table, built as its drivers build one.
	 */
	void *(*prepare)(struct device *dev, const unsigned long *power, int n);
	void (*release)(void *prep);
	/* Install a prepared update in @dev's EM: the timed call. */
	int (*update)(struct device *dev, void *prep);
	/*
	 * Time of the driver's own work for one update of @n values: v2, its
	 * @n callbacks as the update makes them, under the EM's mutex; merged
	 * design, building the table (prepare + release), before the update.
	 */
	u64 (*callback_ns)(struct device *dev, const unsigned long *power, int n);
};

#if defined(EMRCU_EM_MERGED_TABLE) || defined(EMRCU_HAVE_RUNTIME_EM)
/* The table readers see: the merged design's, else v2's runtime table. */
#ifdef EMRCU_EM_MERGED_TABLE
#define emb_rcu_table(pd)	rcu_dereference((pd)->em_table)
#else
#define emb_rcu_table(pd)	rcu_dereference((pd)->runtime_table)
#endif

static unsigned long emb_rcu_freq(struct em_perf_domain *pd, int i)
{
	unsigned long f;

	rcu_read_lock();
	f = emb_rcu_table(pd)->state[i].frequency;
	rcu_read_unlock();
	return f;
}

static const void *emb_rcu_table_id(struct em_perf_domain *pd)
{
	const void *t;

	rcu_read_lock();
	t = emb_rcu_table(pd);
	rcu_read_unlock();
	return t;
}
#endif

#if defined(EMRCU_EM_MERGED_TABLE)
/*
 * The merged design: pd->em_table; updates publish tables built ahead of
 * time (emrcu_em_table.h).  A prefix of the series without
 * em_dev_compute_costs() (EMRCU_EM_TABLE_API unset) is benched readers only.
 */

#ifdef EMRCU_EM_TABLE_API
static void *emb_tbl_prepare(struct device *dev, const unsigned long *power,
			     int n)
{
	return emrcu_em_table_build(dev, power, n);
}

static void emb_tbl_release(void *prep)
{
	em_table_free(prep);
}

static int emb_tbl_update(struct device *dev, void *prep)
{
	return em_dev_update_perf_domain(dev, prep);
}

static u64 emb_tbl_build_ns(struct device *dev, const unsigned long *power,
			    int n)
{
	struct em_perf_table *t;
	u64 t0 = local_clock();

	t = emrcu_em_table_build(dev, power, n);
	if (t)
		em_table_free(t);
	return local_clock() - t0;
}

static const struct emb_ops emb_ops = {
	.name		= "table",
	.runtime_em	= true,
	.freq		= emb_rcu_freq,
	.table_id	= emb_rcu_table_id,
	.prepare	= emb_tbl_prepare,
	.release	= emb_tbl_release,
	.update		= emb_tbl_update,
	.callback_ns	= emb_tbl_build_ns,
};
#else
static const struct emb_ops emb_ops = {
	.name		= "table-readers",
	.runtime_em	= false,
	.freq		= emb_rcu_freq,
	.table_id	= emb_rcu_table_id,
};
#endif /* EMRCU_EM_TABLE_API */
#elif defined(EMRCU_HAVE_RUNTIME_EM)
/* The core asks for the states in order: hand out the next value. */
struct emb_cb_ctx {
	const unsigned long *power;
	int n, i;
};

static int emb_update_power(struct device *dev, unsigned long freq,
			    unsigned long *power, void *priv)
{
	struct emb_cb_ctx *c = priv;

	if (c->i >= c->n)
		return -EINVAL;
	*power = c->power[c->i++];
	return 0;
}

static struct em_data_callback emb_em_cb = EM_UPDATE_CB(emb_update_power);

static u64 emb_rt_callback_ns(struct device *dev, const unsigned long *power,
			      int n)
{
	struct emb_cb_ctx c = { .power = power, .n = n };
	unsigned long v;
	u64 t0;
	int i;

	t0 = local_clock();
	for (i = 0; i < n; i++)
		emb_em_cb.update_power(dev, 0, &v, &c);
	return local_clock() - t0;
}

static void *emb_rt_prepare(struct device *dev, const unsigned long *power,
			    int n)
{
	struct emb_cb_ctx *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (c) {
		c->power = power;
		c->n = n;
	}
	return c;
}

static void emb_rt_release(void *prep)
{
	kfree(prep);
}

static int emb_rt_update(struct device *dev, void *prep)
{
	struct emb_cb_ctx *c = prep;

	c->i = 0;
	return em_dev_update_perf_domain(dev, &emb_em_cb, c);
}

static const struct emb_ops emb_ops = {
	.name		= "runtime",
	.runtime_em	= true,
	.freq		= emb_rcu_freq,
	.table_id	= emb_rcu_table_id,
	.prepare	= emb_rt_prepare,
	.release	= emb_rt_release,
	.update		= emb_rt_update,
	.callback_ns	= emb_rt_callback_ns,
};
#else
static unsigned long emb_static_freq(struct em_perf_domain *pd, int i)
{
	return pd->table[i].frequency;
}

static const void *emb_static_table_id(struct em_perf_domain *pd)
{
	return pd->table;
}

static const struct emb_ops emb_ops = {
	.name		= "static",
	.runtime_em	= false,
	.freq		= emb_static_freq,
	.table_id	= emb_static_table_id,
	.update		= NULL,
	.callback_ns	= NULL,
};
#endif

/* ---- the measured code: identical source on every kernel ---------------- */

/*
 * One call, out of line so that every call reloads what em_cpu_energy()
 * reads (pd->table or pd->runtime_table, nr_perf_states, cpus, cpu_scale),
 * as the scheduler's compute_energy() does.  bench/em_bench/disasm.sh shows
 * this function per variant.
 */
static noinline unsigned long emb_call(struct em_perf_domain *pd,
				       unsigned long max_util,
				       unsigned long sum_util,
				       unsigned long cap)
{
	return em_cpu_energy(pd, max_util, sum_util, cap);
}

static noinline u64 emb_pass(struct em_perf_domain *pd,
			     const struct emb_input *in, int n,
			     unsigned long cap)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += emb_call(pd, in[i].max_util, in[i].sum_util, cap);
	return sum;
}

/*
 * inject_nops: the same pass with N nops after every call, for the gate's
 * positive control (exactly N more instructions per call, whatever the
 * kernel).  The pass is chosen once per reader (a register-indirect call
 * costs what the direct one does), so inject_nops=0 times emb_pass().
 */
typedef u64 (*emb_pass_t)(struct em_perf_domain *pd,
			  const struct emb_input *in, int n, unsigned long cap);

#define EMB_DEFINE_NOP_PASS(nops)					\
static noinline u64 emb_pass_nop##nops(struct em_perf_domain *pd,	\
				       const struct emb_input *in,	\
				       int n, unsigned long cap)	\
{									\
	u64 sum = 0;							\
	int i;								\
									\
	for (i = 0; i < n; i++) {					\
		sum += emb_call(pd, in[i].max_util, in[i].sum_util, cap); \
		asm volatile(".rept " #nops "\n\tnop\n\t.endr");	\
	}								\
	return sum;							\
}

EMB_DEFINE_NOP_PASS(1)
EMB_DEFINE_NOP_PASS(2)
EMB_DEFINE_NOP_PASS(4)

/*
 * inject_slow_pct: the same pass with a spin loop of this CPU's emb_spin
 * iterations after every call, sized by emb_calibrate() so that it adds
 * about inject_slow_pct % of the call's own time: a slowdown of known size
 * for the realtime gate, where one instruction is far below the noise.
 */
static DEFINE_PER_CPU(u32, emb_spin);

static __always_inline void emb_spin_loop(u32 n)
{
	for (; n; n--)
		asm volatile("nop");
}

static noinline u64 emb_pass_spin(struct em_perf_domain *pd,
				  const struct emb_input *in, int n,
				  unsigned long cap)
{
	u32 spin = this_cpu_read(emb_spin);
	u64 sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		sum += emb_call(pd, in[i].max_util, in[i].sum_util, cap);
		emb_spin_loop(spin);
	}
	return sum;
}

static emb_pass_t emb_pass_sel = emb_pass;

/* ---- inputs ------------------------------------------------------------- */
/* The state em_cpu_energy() picks for @util (ignoring inefficiencies). */
static int emb_state_of(struct emb_pd *p, const unsigned long *freq,
			unsigned long util)
{
	unsigned long f;
	int i;

	util = min(map_util_perf(util), p->cap);
	f = map_util_freq(util, freq[p->nr_states - 1], p->cap);
	for (i = 0; i < p->nr_states - 1; i++)
		if (freq[i] >= f)
			break;
	return i;
}

/*
 * @loops inputs for perf domain @p: each picks an OPP uniformly, then a
 * max_util uniformly among the utilisations that map to it, and a sum_util
 * in [max_util, max_util + (nr_cpus - 1) * cap].  Depends only on @seed,
 * the PD index, its frequencies, capacity and CPU count.
 */
static int emb_make_inputs(struct emb_pd *p, int pdi)
{
	unsigned long *freq, *lo, *hi, u;
	u64 s;
	int i, k, ret = -ENOMEM;

	freq = kcalloc(p->nr_states, sizeof(*freq), GFP_KERNEL);
	lo = kcalloc(p->nr_states, sizeof(*lo), GFP_KERNEL);
	hi = kcalloc(p->nr_states, sizeof(*hi), GFP_KERNEL);
	p->inputs = kvcalloc(loops, sizeof(*p->inputs), GFP_KERNEL);
	if (!freq || !lo || !hi || !p->inputs)
		goto out;

	for (i = 0; i < p->nr_states; i++)
		freq[i] = emb_ops.freq(p->pd, i);
	for (u = p->cap; u >= 1; u--) {
		k = emb_state_of(p, freq, u);
		if (!hi[k])
			hi[k] = u;
		lo[k] = u;
	}
	p->covered = 0;
	for (k = 0; k < p->nr_states; k++)
		p->covered += !!hi[k];

	s = (seed ^ (0x9e3779b97f4a7c15ULL * (pdi + 1))) | 1;
	for (i = 0; i < loops; i++) {
		k = emrcu_rand(&s) % p->nr_states;
		while (!hi[k])
			k = (k + 1) % p->nr_states;
		u = lo[k] + emrcu_rand(&s) % (hi[k] - lo[k] + 1);
		p->inputs[i].max_util = u;
		p->inputs[i].sum_util = u + emrcu_rand(&s) %
					((p->nr_cpus - 1) * p->cap + 1);
	}
	ret = 0;
out:
	kfree(freq);
	kfree(lo);
	kfree(hi);
	return ret;
}

/* ---- readers ------------------------------------------------------------ */
static void emb_set_idle(void)
{
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_IDLE,
		.sched_nice	= MAX_NICE,
	};

	WARN_ON_ONCE(sched_setattr_nocheck(current, &attr));
	set_user_nice(current, MAX_NICE);
}

/*
 * Between passes.  On !PREEMPT, cond_resched() reports a quiescent state
 * only once RCU has asked for one (jiffies_to_sched_qs, HZ/10 jiffies into a
 * grace period), so CPU-bound readers would stretch every grace period to
 * 100+ ms; schedule() is a context switch, hence a quiescent state, like a
 * CPU that runs tasks.
 */
static void emb_between(void)
{
	if (reader_qs)
		schedule();
	else
		cond_resched();
}

static bool emb_stopping(void)
{
	return READ_ONCE(emb_abort) || kthread_should_stop();
}

/*
 * inject_slow_pct: the fastest of EMB_CALIB_PASSES plain passes and spin
 * loops (irqs off) sizes this reader's spin, as a share of its own call.
 */
static void emb_calibrate(struct emb_reader *r, struct emb_pd *p)
{
	u64 t, call = U64_MAX, spin = U64_MAX;
	unsigned long flags;
	int i;

	for (i = 0; i < EMB_CALIB_PASSES && !emb_stopping(); i++) {
		local_irq_save(flags);
		rcu_read_lock();
		t = local_clock();
		r->sink += emb_pass(p->pd, r->in, loops, p->cap);
		call = min(call, local_clock() - t);
		rcu_read_unlock();
		t = local_clock();
		emb_spin_loop(EMB_CALIB_SPINS);
		spin = min(spin, local_clock() - t);
		local_irq_restore(flags);
		emb_between();
	}
	r->calib_call_ps = div_u64(call * 1000, loops);
	r->calib_spin_ps = max_t(u64, div_u64(spin * 1000, EMB_CALIB_SPINS), 1);
	r->spin = DIV64_U64_ROUND_CLOSEST((u64)inject_slow_pct * r->calib_call_ps,
					  100 * r->calib_spin_ps);
	per_cpu(emb_spin, r->cpu) = r->spin;
}

/* An untimed pass (warm-up, spreading, cool-down), irqs on. */
static void emb_fill(struct emb_reader *r, struct emb_pd *p)
{
	rcu_read_lock();
	r->sink += emb_pass_sel(p->pd, r->in, loops, p->cap);
	rcu_read_unlock();
	emb_between();
}

#define EMB_IDLE_US 200	/* reader_idle: one sleep between passes */

/* Between spread passes and in the cool-down: the load kept on, or idle. */
static void emb_wait(struct emb_reader *r, struct emb_pd *p)
{
	if (reader_idle)
		usleep_range(EMB_IDLE_US, 2 * EMB_IDLE_US);
	else
		emb_fill(r, p);
}

static int emb_reader_fn(void *arg)
{
	struct emb_reader *r = arg;
	struct emb_pd *p = &emb_pds[r->pdi];
	emb_pass_t pass = emb_pass_sel;
	unsigned long flags;
	u64 t0, t, dt, sum = 0;
	int i;

	emb_set_idle();
	wait_event(emb_start_wq, READ_ONCE(emb_go) || kthread_should_stop());
	WARN_ON_ONCE(raw_smp_processor_id() != r->cpu);

	/* Warm-up, then keep warming until every reader has checked in. */
	for (i = 0; i < warmup && !emb_stopping(); i++)
		emb_fill(r, p);
	if (atomic_dec_return(&emb_n_warm))
		while (atomic_read_acquire(&emb_n_warm) && !emb_stopping())
			emb_fill(r, p);
	if (inject_slow_pct)
		emb_calibrate(r, p);

	/* Cost of the timing itself: empty passes. */
	r->overhead_ns = U64_MAX;
	for (i = 0; i < EMB_OVERHEAD_PASSES; i++) {
		local_irq_save(flags);
		rcu_read_lock();
		t = local_clock();
		dt = local_clock() - t;
		rcu_read_unlock();
		local_irq_restore(flags);
		r->overhead_ns = min(r->overhead_ns, dt);
	}

	t0 = local_clock();
	for (i = 0; i < nruns && !emb_stopping(); i++) {
		/* Spread the passes evenly over emb_spread_ns. */
		while (emb_spread_ns && !emb_stopping() &&
		       local_clock() - t0 < div_u64(emb_spread_ns * i, nruns))
			emb_wait(r, p);

		local_irq_save(flags);
		rcu_read_lock();
		t = local_clock();
		sum += pass(p->pd, r->in, loops, p->cap);
		dt = local_clock() - t;
		rcu_read_unlock();
		local_irq_restore(flags);

		r->ps[i] = div_u64(dt * 1000, loops);
		emb_between();
	}
	r->checksum = sum;

	/* Cool-down: keep the load on until every reader is done. */
	if (!atomic_dec_return(&emb_n_cool))
		complete(&emb_done);
	else
		while (atomic_read_acquire(&emb_n_cool) && !emb_stopping())
			emb_wait(r, p);

	emrcu_wait_stop();
	return 0;
}

/* ---- updater ------------------------------------------------------------ */

/*
 * Free delay: em_dev_update_perf_domain() hands the old table to call_rcu()
 * on this CPU (the updater is bound); the marker queued right after it on
 * the same CPU is invoked after it (per-CPU RCU callbacks run in queueing
 * order), so marker time - update return time bounds from above the delay
 * until the old table was freed, by one callback invocation.
 */
static void emb_marker_cb(struct rcu_head *rh)
{
	struct emb_rec *rec = container_of(rh, struct emb_rec, rh);

	WRITE_ONCE(rec->cb_ns, local_clock());
}

static void emb_update_one(struct emb_updater *u, struct emb_pd *p, int k)
{
	const void *old = emb_ops.table_id(p->pd);
	struct emb_rec *rec;
	u64 t0, t1;
	int ret;

	if (null_update) {
		u->count++;
		return;
	}
	t0 = local_clock();
	ret = emb_ops.update(p->dev, p->tab.prep[k]);
	t1 = local_clock();
	u->count++;
	if (inject_hold_ns) {
		/* untimed: work on this CPU that update_ns does not show */
		preempt_disable();
		while (local_clock() - t1 < inject_hold_ns)
			cpu_relax();
		preempt_enable();
	}
	if (ret || emb_ops.table_id(p->pd) == old) {
		if (!u->errors)
			pr_err("em_bench: FAILURE: update of pd %d: %s (%d)\n",
			       (int)(p - emb_pds),
			       ret ? "error" : "table not replaced", ret);
		u->errors++;
		return;
	}
	if (u->nrec >= EMB_MAX_UPDATES)
		return;
	rec = &u->recs[u->nrec++];
	rec->t_end = t1;
	rec->update_ns = t1 - t0;
	rec->cb_ns = 0;
	call_rcu(&rec->rh, emb_marker_cb);
}

/* One slot: update every PD of the set, alternating the two tables. */
static void emb_update_slot(struct emb_updater *u)
{
	int i;

	for (i = u->pd_first; i <= u->pd_last; i++)
		emb_update_one(u, &emb_pds[i], u->events & 1);
	u->events++;
	cond_resched();		/* RCU quiescent state on !PREEMPT */
}

/*
 * Sleep until @next.  Under deterministic TCG (-icount, vCPUs run round
 * robin) arming the timer ends this vCPU's turn and the timer has expired
 * when it runs again, so schedule_hrtimeout() returns without switching
 * out; then sleep one tick too, or this SCHED_FIFO thread would own its CPU
 * and starve the reader and softirqs there.
 */
static void emb_updater_sleep(struct emb_updater *u, u64 next)
{
	unsigned long sw = current->nvcsw + current->nivcsw;
	ktime_t kt = ns_to_ktime(next);

	set_current_state(TASK_INTERRUPTIBLE);
	if (emb_stopping()) {
		__set_current_state(TASK_RUNNING);
		return;
	}
	schedule_hrtimeout(&kt, HRTIMER_MODE_ABS);
	if (current->nvcsw + current->nivcsw == sw && !emb_stopping()) {
		u->tick_sleeps++;
		schedule_timeout_interruptible(1);
	}
}

/*
 * Slots lie on the grid t_start + k * period.  On each wake-up the updater
 * runs every slot that is due, late ones included (counted in @late), at
 * most EMB_BURST_MAX; then it sleeps at least as long as the burst took, so
 * it never takes more than half of its CPU (no RT throttling, the reader
 * there keeps running), even when an update costs more than a period (debug
 * kernels).  Slots skipped by that are dropped and counted in @missed.
 */
static int emb_updater_fn(void *arg)
{
	struct emb_updater *u = arg;
	u64 next, now, start, n;

	sched_set_fifo_low(current);
	wait_event(emb_start_wq, READ_ONCE(emb_go) || kthread_should_stop());
	u->t_start = ktime_get_ns();
	next = u->t_start;
	while (!emb_stopping()) {
		start = ktime_get_ns();
		n = 0;
		while (next <= start && n < EMB_BURST_MAX && !emb_stopping()) {
			if (start - next >= u->period_ns)
				u->late++;
			emb_update_slot(u);
			next += u->period_ns;
			n++;
		}
		now = ktime_get_ns();
		now += now - start;	/* earliest next wake-up */
		if (next <= now) {
			n = div64_u64(now - next, u->period_ns) + 1;
			u->missed += n;
			next += n * u->period_ns;
		}
		emb_updater_sleep(u, next);
	}
	u->t_stop = ktime_get_ns();
	emrcu_wait_stop();
	return 0;
}

/* @t: the model's power of every OPP of @pd at temp_lo_mc and temp_hi_mc. */
static int emb_make_tables(struct device *dev, struct em_perf_domain *pd,
			   struct emb_tables *t)
{
	int temps[2] = { temp_lo_mc, temp_hi_mc };
	int i, k, ret;

	t->nr_states = pd->nr_perf_states;
	for (k = 0; k < 2; k++) {
		t->power[k] = kcalloc(t->nr_states, sizeof(*t->power[k]),
				      GFP_KERNEL);
		if (!t->power[k])
			return -ENOMEM;
		for (i = 0; i < t->nr_states; i++) {
			ret = emb_model(dev, emb_ops.freq(pd, i), temps[k],
					&t->power[k][i]);
			if (ret) {
				pr_err("em_bench: the platform model refused %s at %d m°C (%d)\n",
				       dev_name(dev), temps[k], ret);
				return ret;
			}
		}
		if (!emb_ops.prepare)
			continue;
		t->prep[k] = emb_ops.prepare(dev, t->power[k], t->nr_states);
		if (!t->prep[k])
			return -ENOMEM;
	}
	return 0;
}

static void emb_free_tables(struct emb_tables *t)
{
	int k;

	for (k = 0; k < 2; k++) {
		if (t->prep[k])
			emb_ops.release(t->prep[k]);
		kfree(t->power[k]);
	}
}

/* ---- update-cost scaling on the platform's test PDs --------------------- */
static int emb_run_scaling(void)
{
	struct em_perf_domain *pd;
	struct emb_scale *sc;
	struct device *dev;
	u64 t0;
	int i, j, ret;

	emb_nr_scales = emb_nr_test_pds();
	if (emb_nr_scales <= 0)
		return 0;
	emb_scales = kcalloc(emb_nr_scales, sizeof(*emb_scales), GFP_KERNEL);
	if (!emb_scales)
		return -ENOMEM;
	for (i = 0; i < emb_nr_scales; i++) {
		sc = &emb_scales[i];
		dev = emb_test_pd(i);
		pd = dev ? em_pd_get(dev) : NULL;
		if (!pd) {
			pr_err("em_bench: scaling: test pd %d has no energy model\n",
			       i);
			return -ENODEV;
		}
		sc->nr_states = pd->nr_perf_states;
		sc->name = dev_name(dev);
		sc->update_ns = kvcalloc(scaling_n, sizeof(u64), GFP_KERNEL);
		sc->callback_ns = kvcalloc(scaling_n, sizeof(u64), GFP_KERNEL);
		if (!sc->update_ns || !sc->callback_ns)
			return -ENOMEM;
		ret = emb_make_tables(dev, pd, &sc->tab);
		if (ret)
			return ret;
		for (j = 0; j < scaling_n; j++) {
			const unsigned long *pw = sc->tab.power[j & 1];

			sc->callback_ns[j] = emb_ops.callback_ns(dev, pw,
								 sc->nr_states);
			t0 = local_clock();
			ret = emb_ops.update(dev, sc->tab.prep[j & 1]);
			sc->update_ns[j] = local_clock() - t0;
			if (ret)
				sc->errors++;
			cond_resched();
		}
		if (sc->errors)
			pr_err("em_bench: FAILURE: scaling: %d of %d updates of %s failed\n",
			       sc->errors, scaling_n, sc->name);
		/* Let the old tables go before the next domain. */
		rcu_barrier();
	}
	return 0;
}

/* ---- output (emrcu_kmod.h: emrcu_put() and the block markers) ---------- */
static void emb_put_ns_array(struct emrcu_out *o, const char *key,
			     const u64 *v, u64 n, size_t stride)
{
	const u64 *x;
	u64 i;

	emrcu_put(o, "\"%s\":[", key);
	for (i = 0; i < n; i++) {
		x = (const u64 *)((const char *)v + i * stride);
		emrcu_put(o, "%s%llu", i ? "," : "", *x);
	}
	emrcu_put(o, "]");
}

static void emb_print_updater(struct emrcu_out *o)
{
	struct emb_updater *u = &emb_upd;
	u64 el = u->t_stop - u->t_start, i, ok = 0;
	u64 hz_milli = el ? div64_u64(u->events * 1000ULL * NSEC_PER_SEC, el) : 0;

	if (!update_hz || (!emb_ops.runtime_em && !null_update)) {
		emrcu_put(o, "\"updater\":{\"available\":%s}",
			  emb_ops.runtime_em ? "true,\"hz\":0,\"count\":0" : "false");
		return;
	}
	/* A null updater publishes nothing: no update figures to collect. */
	emrcu_put(o, "\"updater\":{\"available\":%s,\"null_update\":%s,\"hz\":%d,",
		  null_update ? "false" : "true", null_update ? "true" : "false",
		  update_hz);
	emrcu_put(o, "\"achieved_hz\":%llu.%03llu,", hz_milli / 1000,
		  hz_milli % 1000);
	if (null_update) {
		emrcu_put(o, "\"cpu\":%d,\"events\":%llu,", u->cpu, u->events);
		emrcu_put(o, "\"late\":%llu,\"missed\":%llu,\"tick_sleeps\":%llu,",
			  u->late, u->missed, u->tick_sleeps);
		emrcu_put(o, "\"elapsed_ns\":%llu}", el);
		return;
	}
	if (update_pd < 0)
		emrcu_put(o, "\"pd\":\"all\",");
	else
		emrcu_put(o, "\"pd\":%d,", update_pd);
	emrcu_put(o, "\"pds_updated\":[");
	for (i = u->pd_first; i <= u->pd_last; i++)
		emrcu_put(o, "%s%llu", i > u->pd_first ? "," : "", i);
	emrcu_put(o, "],\"cpu\":%d,\"events\":%llu,\"count\":%llu,", u->cpu,
		  u->events, u->count);
	emrcu_put(o, "\"errors\":%llu,", u->errors);
	emrcu_put(o, "\"late\":%llu,\"missed\":%llu,\"tick_sleeps\":%llu,",
		  u->late, u->missed, u->tick_sleeps);
	emrcu_put(o, "\"recorded\":%llu,\"elapsed_ns\":%llu,", u->nrec, el);
	emrcu_put(o, "\"temps_mc\":[%d,%d],", temp_lo_mc, temp_hi_mc);
	emb_put_ns_array(o, "update_ns", &u->recs[0].update_ns, u->nrec,
			 sizeof(*u->recs));
	emrcu_put(o, ",\"free_delay_ns\":[");
	for (i = 0; i < u->nrec; i++) {
		if (!READ_ONCE(u->recs[i].cb_ns))
			continue;
		emrcu_put(o, "%s%llu", ok++ ? "," : "",
			  u->recs[i].cb_ns - u->recs[i].t_end);
	}
	/*
	 * When each marker ran, from the first update's end: markers close
	 * together ran in one batch of RCU callbacks (the old tables' frees
	 * between them), a stretch the updater's CPU runs in softirq.
	 */
	emrcu_put(o, "],\"callback_at_ns\":[");
	for (i = 0, ok = 0; i < u->nrec; i++) {
		if (!READ_ONCE(u->recs[i].cb_ns))
			continue;
		emrcu_put(o, "%s%llu", ok++ ? "," : "",
			  u->recs[i].cb_ns - u->recs[0].t_end);
	}
	emrcu_put(o, "],\"free_delay_method\":\"%s\"}",
		  "call_rcu marker after each update on the updater CPU");
}

/*
 * The rate local_clock() counts at (arm64: sched_clock runs on the
 * architected counter), 0 when not known: one step of it, over a pass of
 * @loops calls, is the quantum of every ns/call figure.
 */
static u64 emb_clock_hz(void)
{
#ifdef CONFIG_ARM64
	return arch_timer_get_cntfrq();
#else
	return 0;
#endif
}

static void emb_print(void)
{
	struct emrcu_out *o;
	struct emb_pd *p;
	struct emb_reader *r;
	int i, j;

	o = emrcu_block_begin(block);
	if (!o)
		return;
	emrcu_put(o, "{\"schema\":\"emrcu/em_bench/1\",");
	emrcu_put_kernel(o);
	emrcu_put(o, "\"runtime_em\":%s,",
		  emb_ops.runtime_em ? "true" : "false");
	emrcu_put(o, "\"params\":{\"readers\":\"%*pbl\",\"loops\":%d,",
		  cpumask_pr_args(emb_reader_mask), loops);
	emrcu_put(o, "\"nruns\":%d,\"warmup\":%d,\"update_hz\":%d,", nruns,
		  warmup, update_hz);
	emrcu_put(o, "\"update_pd\":%d,\"update_cpu\":%d,\"spread_ms\":%llu,",
		  update_pd, emb_upd.cpu, div_u64(emb_spread_ns, NSEC_PER_MSEC));
	emrcu_put(o, "\"temp_lo_mc\":%d,\"temp_hi_mc\":%d,", temp_lo_mc,
		  temp_hi_mc);
	emrcu_put(o, "\"scaling\":%s,\"scaling_n\":%d,\"reader_qs\":%s,",
		  scaling ? "true" : "false", scaling_n,
		  reader_qs ? "true" : "false");
	emrcu_put(o, "\"reader_idle\":%s,", reader_idle ? "true" : "false");
	emrcu_put(o, "\"seed\":%lu,\"inject_nops\":%d,\"inject_slow_pct\":%d,",
		  seed, inject_nops, inject_slow_pct);
	emrcu_put(o, "\"inject_hold_ns\":%d,\"mode_hint\":\"%s\"},",
		  inject_hold_ns, mode_hint);
	emrcu_put(o, "\"clock_hz\":%llu,", emb_clock_hz());
	emrcu_put(o, "\"limits\":{\"update_hz_max\":%d,\"max_updates\":%d},",
		  EMB_UPDATE_HZ_MAX, EMB_MAX_UPDATES);

	emrcu_put(o, "\"pds\":[");
	for (i = 0; i < emb_nr_pds; i++) {
		p = &emb_pds[i];
		emrcu_put(o, "%s{\"pd\":%d,\"cpus\":\"%*pbl\",\"nr_states\":%d,",
			  i ? "," : "", i, cpumask_pr_args(em_span_cpus(p->pd)),
			  p->nr_states);
		emrcu_put(o, "\"capacity\":%lu,\"opps_covered\":%d,\"ref_sum\":%llu}",
			  p->cap, p->covered, p->ref_sum);
	}
	emrcu_put(o, "],\"readers\":[");
	for (i = 0; i < emb_nr_readers; i++) {
		r = &emb_readers[i];
		emrcu_put(o, "%s{\"cpu\":%d,\"pd\":%d,\"ns_per_call\":[",
			  i ? "," : "", r->cpu, r->pdi);
		for (j = 0; j < nruns; j++)
			emrcu_put(o, "%s%llu.%03llu", j ? "," : "",
				  r->ps[j] / 1000, r->ps[j] % 1000);
		emrcu_put(o, "],\"checksum\":%llu,\"checksum_ok\":%s,",
			  r->checksum, update_hz && !null_update ? "null" :
			  r->checksum == emb_pds[r->pdi].ref_sum * nruns ?
			  "true" : "false");
		emrcu_put(o, "\"timer_overhead_ns\":%llu,", r->overhead_ns);
		emrcu_put(o, "\"inject_spin\":%u,\"calib_call_ps\":%llu,\"calib_spin_ps\":%llu}",
			  r->spin, r->calib_call_ps, r->calib_spin_ps);
	}
	emrcu_put(o, "],");
	emb_print_updater(o);
	emrcu_put(o, ",\"scaling\":[");
	for (i = 0; i < emb_nr_scales; i++) {
		emrcu_put(o, "%s{\"nr_states\":%d,\"device\":\"%s\",\"errors\":%d,",
			  i ? "," : "", emb_scales[i].nr_states,
			  emb_scales[i].name, emb_scales[i].errors);
		emb_put_ns_array(o, "update_ns", emb_scales[i].update_ns,
				 emb_scales[i].update_ns ? scaling_n : 0,
				 sizeof(u64));
		emrcu_put(o, ",");
		emb_put_ns_array(o, "callback_ns", emb_scales[i].callback_ns,
				 emb_scales[i].callback_ns ? scaling_n : 0,
				 sizeof(u64));
		emrcu_put(o, "}");
	}
	emrcu_put(o, "]}");
	emrcu_block_end(o);
}

/* ---- setup, checks, teardown -------------------------------------------- */
static bool emb_label_ok(const char *s)
{
	for (; *s; s++)
		if (!isalnum(*s) && *s != '.' && *s != '_' && *s != '-')
			return false;
	return true;
}

static int emb_pd_index(struct em_perf_domain *pd)
{
	int i;

	for (i = 0; i < emb_nr_pds; i++)
		if (emb_pds[i].pd == pd)
			return i;
	return -1;
}

/* Every CPU perf domain, in order of first CPU. */
static int emb_find_pds(void)
{
	struct em_perf_domain *pd;
	struct emb_pd *p;
	int cpu;

	emb_pds = kcalloc(nr_cpu_ids, sizeof(*emb_pds), GFP_KERNEL);
	if (!emb_pds)
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		pd = em_cpu_get(cpu);
		if (!pd || emb_pd_index(pd) >= 0)
			continue;
		p = &emb_pds[emb_nr_pds++];
		p->pd = pd;
		p->first_cpu = cpumask_first(em_span_cpus(pd));
		p->dev = get_cpu_device(p->first_cpu);
		p->nr_cpus = cpumask_weight(em_span_cpus(pd));
		p->cap = arch_scale_cpu_capacity(p->first_cpu);
		p->nr_states = pd->nr_perf_states;
	}
	return 0;
}

static int emb_check_params(void)
{
	int cpu;

	if (loops < 1 || loops > EMB_LOOPS_MAX)
		return emrcu_bad_param("loops", "must be 1..1000000");
	if (nruns < 1 || nruns > EMB_NRUNS_MAX)
		return emrcu_bad_param("nruns", "must be 1..100000");
	if (warmup < 0 || warmup > EMB_WARMUP_MAX)
		return emrcu_bad_param("warmup", "must be 0..100000");
	if (update_hz < 0 || update_hz > EMB_UPDATE_HZ_MAX)
		return emrcu_bad_param("update_hz", "must be 0..10000");
	if (update_hz && !emb_ops.runtime_em && !null_update)
		return emrcu_bad_param("update_hz",
			       "this kernel has no em_dev_update_perf_domain() (null_update=1: the control)");
	if (scaling && !emb_ops.runtime_em)
		return emrcu_bad_param("scaling",
			       "this kernel has no em_dev_update_perf_domain()");
	if (scaling_n < 1 || scaling_n > EMB_SCALING_N_MAX)
		return emrcu_bad_param("scaling_n", "must be 1..10000");
	if (spread_ms < -1 || spread_ms > EMB_SPREAD_MS_MAX)
		return emrcu_bad_param("spread_ms", "must be -1..60000");
	if (!emb_label_ok(mode_hint))
		return emrcu_bad_param("mode_hint", "only [A-Za-z0-9._-]");
	if (!*block || strlen(block) > EMB_BLOCK_LEN_MAX || !emb_label_ok(block))
		return emrcu_bad_param("block", "1..64 of [A-Za-z0-9._-]");
	if (inject_hold_ns < 0 || inject_hold_ns > EMB_HOLD_NS_MAX)
		return emrcu_bad_param("inject_hold_ns", "must be 0..1000000");
	if (inject_hold_ns && null_update)
		return emrcu_bad_param("inject_hold_ns",
				       "not with null_update (it follows an update)");
	switch (inject_nops) {
	case 0:
		emb_pass_sel = emb_pass;
		break;
	case 1:
		emb_pass_sel = emb_pass_nop1;
		break;
	case 2:
		emb_pass_sel = emb_pass_nop2;
		break;
	case EMB_INJECT_MAX:
		emb_pass_sel = emb_pass_nop4;
		break;
	default:
		return emrcu_bad_param("inject_nops", "must be 0, 1, 2 or 4");
	}
	if (same_table)
		temp_hi_mc = temp_lo_mc;
	if (inject_slow_pct < 0 || inject_slow_pct > EMB_SLOW_PCT_MAX)
		return emrcu_bad_param("inject_slow_pct", "must be 0..100");
	if (inject_slow_pct && inject_nops)
		return emrcu_bad_param("inject_slow_pct", "not with inject_nops");
	if (inject_slow_pct)
		emb_pass_sel = emb_pass_spin;

	if (!emb_nr_pds) {
		pr_err("em_bench: no CPU has an energy model (is emrcu_platform loaded?)\n");
		return -ENODEV;
	}
	if (update_pd < -1 || update_pd >= emb_nr_pds)
		return emrcu_bad_param("update_pd", "no such CPU perf domain");

	if (readers) {
		if (cpulist_parse(readers, emb_reader_mask))
			return emrcu_bad_param("readers", "not a list of possible CPUs");
	} else {
		cpumask_copy(emb_reader_mask, cpu_online_mask);
	}
	if (cpumask_empty(emb_reader_mask))
		return emrcu_bad_param("readers", "empty CPU list");
	if (!cpumask_subset(emb_reader_mask, cpu_online_mask))
		return emrcu_bad_param("readers", "names an offline or absent CPU");
	for_each_cpu(cpu, emb_reader_mask)
		if (!em_cpu_get(cpu))
			return emrcu_bad_param("readers",
				       "names a CPU without an energy model");

	if (update_cpu == -1) {
		update_cpu = cpumask_last(emb_reader_mask);
		for_each_online_cpu(cpu) {
			if (!cpumask_test_cpu(cpu, emb_reader_mask)) {
				update_cpu = cpu;
				break;
			}
		}
	}
	if (update_cpu < 0 || update_cpu >= nr_cpu_ids ||
	    !cpu_online(update_cpu))
		return emrcu_bad_param("update_cpu", "not an online CPU");
	return 0;
}

/* The platform's model and test PDs; needed by the updater and scaling. */
static int emb_get_platform(void)
{
	if (!update_hz && !scaling)
		return 0;
	emb_model = symbol_get(emrcu_model_power);
	if (!emb_model) {
		pr_err("em_bench: update_hz/scaling need emrcu_platform (emrcu_model_power)\n");
		return -ENODEV;
	}
	if (!scaling)
		return 0;
	emb_nr_test_pds = symbol_get(emrcu_platform_nr_test_pds);
	emb_test_pd = symbol_get(emrcu_platform_test_pd);
	if (!emb_nr_test_pds || !emb_test_pd) {
		pr_err("em_bench: scaling needs emrcu_platform test perf domains\n");
		return -ENODEV;
	}
	return 0;
}

static void emb_put_platform(void)
{
	if (emb_model)
		symbol_put(emrcu_model_power);
	if (emb_nr_test_pds)
		symbol_put(emrcu_platform_nr_test_pds);
	if (emb_test_pd)
		symbol_put(emrcu_platform_test_pd);
	emb_model = NULL;
	emb_nr_test_pds = NULL;
	emb_test_pd = NULL;
}

static int emb_setup_readers(void)
{
	struct emb_reader *r;
	struct emb_pd *p;
	int i, cpu;

	for (i = 0; i < emb_nr_pds; i++) {
		p = &emb_pds[i];
		if (emb_make_inputs(p, i))
			return -ENOMEM;
		rcu_read_lock();
		p->ref_sum = emb_pass(p->pd, p->inputs, loops, p->cap);
		rcu_read_unlock();
	}

	emb_readers = kcalloc(cpumask_weight(emb_reader_mask),
			      sizeof(*emb_readers), GFP_KERNEL);
	if (!emb_readers)
		return -ENOMEM;
	for_each_cpu(cpu, emb_reader_mask) {
		r = &emb_readers[emb_nr_readers];
		r->cpu = cpu;
		r->pdi = emb_pd_index(em_cpu_get(cpu));
		p = &emb_pds[r->pdi];
		r->in = kvmalloc_array(loops, sizeof(*r->in), GFP_KERNEL);
		r->ps = kvcalloc(nruns, sizeof(*r->ps), GFP_KERNEL);
		if (!r->in || !r->ps)
			return -ENOMEM;
		memcpy(r->in, p->inputs, loops * sizeof(*r->in));
		r->task = emrcu_kthread_on_cpu(emb_reader_fn, r, cpu, true,
					       "em_bench_r");
		if (IS_ERR(r->task)) {
			int ret = PTR_ERR(r->task);

			r->task = NULL;
			return ret;
		}
		emb_nr_readers++;
	}
	return 0;
}

static int emb_setup_updater(void)
{
	struct emb_updater *u = &emb_upd;
	int i, ret;

	u->cpu = update_cpu;
	if (!update_hz)
		return 0;
	u->period_ns = div_u64(NSEC_PER_SEC, update_hz);
	u->pd_first = update_pd < 0 ? 0 : update_pd;
	u->pd_last = update_pd < 0 ? emb_nr_pds - 1 : update_pd;
	u->recs = kvcalloc(EMB_MAX_UPDATES, sizeof(*u->recs), GFP_KERNEL);
	if (!u->recs)
		return -ENOMEM;
	for (i = u->pd_first; !null_update && i <= u->pd_last; i++) {
		ret = emb_make_tables(emb_pds[i].dev, emb_pds[i].pd,
				      &emb_pds[i].tab);
		if (ret)
			return ret;
	}
	u->task = emrcu_kthread_on_cpu(emb_updater_fn, u, u->cpu, true,
				       "em_bench_u");
	if (IS_ERR(u->task)) {
		ret = PTR_ERR(u->task);
		u->task = NULL;
		return ret;
	}
	return 0;
}

static void emb_stop_threads(void)
{
	int i;

	emrcu_kthread_stop(&emb_upd.task);
	for (i = 0; i < emb_nr_readers; i++)
		emrcu_kthread_stop(&emb_readers[i].task);
	/* Markers of the updater point into emb_upd.recs. */
	rcu_barrier();
}

static void emb_free(void)
{
	int i;

	for (i = 0; emb_readers && i < emb_nr_readers; i++) {
		kvfree(emb_readers[i].in);
		kvfree(emb_readers[i].ps);
	}
	for (i = 0; emb_pds && i < emb_nr_pds; i++) {
		kvfree(emb_pds[i].inputs);
		emb_free_tables(&emb_pds[i].tab);
	}
	for (i = 0; emb_scales && i < emb_nr_scales; i++) {
		kvfree(emb_scales[i].update_ns);
		kvfree(emb_scales[i].callback_ns);
		emb_free_tables(&emb_scales[i].tab);
	}
	kvfree(emb_upd.recs);
	kfree(emb_scales);
	kfree(emb_readers);
	kfree(emb_pds);
	free_cpumask_var(emb_reader_mask);
}

static int emb_run(void)
{
	int i, ret;

	atomic_set(&emb_n_warm, emb_nr_readers);
	atomic_set(&emb_n_cool, emb_nr_readers);
	if (emb_upd.task)
		wake_up_process(emb_upd.task);
	for (i = 0; i < emb_nr_readers; i++)
		wake_up_process(emb_readers[i].task);
	/* Pairs with READ_ONCE() in the wait_event()s: counters set first. */
	smp_store_release(&emb_go, true);
	wake_up_all(&emb_start_wq);

	if (!wait_for_completion_timeout(&emb_done, EMB_TIMEOUT_S * HZ)) {
		pr_err("em_bench: FAILURE: readers did not finish in %d s\n",
		       EMB_TIMEOUT_S);
		WRITE_ONCE(emb_abort, true);
		emb_stop_threads();
		return -ETIMEDOUT;
	}
	emb_stop_threads();

	if (scaling) {
		ret = emb_run_scaling();
		if (ret)
			return ret;
	}
	return 0;
}

static int __init em_bench_init(void)
{
	int ret;

	if (!zalloc_cpumask_var(&emb_reader_mask, GFP_KERNEL))
		return -ENOMEM;
	cpus_read_lock();
	ret = emb_find_pds();
	if (!ret)
		ret = emb_check_params();
	cpus_read_unlock();
	if (!ret)
		ret = emb_get_platform();
	if (ret)
		goto out;

	if (spread_ms >= 0)
		emb_spread_ns = (u64)spread_ms * NSEC_PER_MSEC;
	else if (update_hz)
		emb_spread_ns = div_u64(EMB_AUTO_SPREAD_UPDATES * NSEC_PER_SEC,
					update_hz);

	ret = emb_setup_readers();
	if (!ret)
		ret = emb_setup_updater();
	if (ret) {
		emb_stop_threads();
		goto out;
	}

	ret = emb_run();
	if (!ret)
		emb_print();
out:
	emb_put_platform();
	emb_free();
	return ret;
}

static void __exit em_bench_exit(void)
{
}

module_init(em_bench_init);
module_exit(em_bench_exit);
