// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_platform: the Energy Model in effect, and an EM driver that is not
 * the truth.
 *
 * emrcu_em_refresh() reads a CPU perf domain's table back from the kernel
 * (the v2 series' runtime_table, the merged design's em_table, or 6.1's
 * table: Kbuild detects which) into the meter's em_uw, after every change
 * the platform makes: the meter then prices busy time with what EAS reads.
 *
 * drv=runtime (kernels with the series, thermal=1): a kthread that, every
 * drv_period_ms, does what a thermal/EM driver would:
 *   - reads each cluster's temperature sensor (thermal.c: lagged, noisy,
 *     quantised; never the die itself),
 *   - prices the table with its characterised model: dynamic power as the
 *     datasheet gives it, at the profile hint and bin the platform is set
 *     to; leakage from calibration measurements of the silicon every
 *     EMRCU_DRV_CAL_STEP_MC, piecewise linear in temperature (model_data.h),
 *     times drv_leak_pct / 100 (100: as characterised; anything else: a
 *     declared mis-model),
 *   - calls em_dev_update_perf_domain() with a callback that returns the
 *     precomputed value (O(1) per state), timed with local_clock().
 * drv=meter: the same kthread and model, but knowing neither the bin nor the
 *   profile (it prices them nominal), times one scale per cluster that it
 *   corrects every period from the cluster's busy-energy counter against
 *   what the EM in effect estimated for the same busy time (model_data.h).
 * Without thermal=1 the driver reads the set temperature (no sensor).
 * drv=oracle: the same kthread pushes the truth at the die's temperature:
 * an upper bound by construction, never a finding.
 * emrcu_em_push_truth(): one push of the truth at given temperatures
 * (debugfs em_update: the old oracle, and the best static table);
 * emrcu_em_push_mean(): one push of its weighted mean over conditions.
 */
#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/energy_model.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>

#include "emrcu_em_table.h"
#include "emrcu_internal.h"

const char *const emrcu_drv_modes[EMRCU_DRV_NR] = {
	"none", "runtime", "oracle", "meter",
};

int emrcu_drv_mode = EMRCU_DRV_NONE;
int emrcu_drv_period_ms = 100;
int emrcu_drv_leak_pct = 100;

/* Serialises updates and their statistics. */
static DEFINE_MUTEX(emrcu_drv_lock);
static struct emrcu_drv_stats emrcu_drv_st;
static struct task_struct *emrcu_drv_task;
/* drv=meter: each cluster's counters at its last update, and its scale. */
struct emrcu_drv_meter {
	u64 busy_fj, em_fj;
	u32 scale_ppm;
	bool primed;
};

static struct emrcu_drv_meter emrcu_drv_m[ARRAY_SIZE(emrcu_clusters)];
/* What the platform last pushed (the EM in effect when it cannot be read). */
static unsigned long emrcu_pushed_uw[NR_CPUS][EMRCU_MAX_OPPS];

/* drv=meter: @cluster's scale (ppm); 1000000 before the first correction. */
u32 emrcu_drv_scale_ppm(int cluster)
{
	u32 s = READ_ONCE(emrcu_drv_m[cluster].scale_ppm);

	return s ? s : 1000000;
}

const char *emrcu_em_source(void)
{
#if defined(EMRCU_EM_V2_TABLE)
	return "kernel: pd->runtime_table (v2)";
#elif defined(EMRCU_EM_MERGED_TABLE)
	return "kernel: pd->em_table (merged design)";
#elif defined(EMRCU_EM_61_TABLE)
	return "kernel: pd->table (6.1)";
#else
	return "pushed: the platform's own copy (unknown table layout)";
#endif
}

/*
 * The kernel's power of every state of @pd into @uw (@n states) and, bit i
 * for state i, the states it flags inefficient into *@ineff.  0, or -ENOENT.
 */
static int emrcu_em_read(struct em_perf_domain *pd, unsigned long *uw,
			 unsigned long *ineff, int n)
{
	const struct em_perf_state *ps;
	int i;

	*ineff = 0;
#if defined(EMRCU_EM_V2_TABLE) || defined(EMRCU_EM_MERGED_TABLE)
	rcu_read_lock();
#if defined(EMRCU_EM_V2_TABLE)
	ps = rcu_dereference(pd->runtime_table)->state;
#else
	ps = rcu_dereference(pd->em_table)->state;
#endif
#elif defined(EMRCU_EM_61_TABLE)
	ps = pd->table;
#else
	return -ENOENT;
#endif
	for (i = 0; i < n; i++) {
		uw[i] = ps[i].power;
		if (ps[i].flags & EM_PERF_STATE_INEFFICIENT)
			*ineff |= BIT(i);
	}
#if defined(EMRCU_EM_V2_TABLE) || defined(EMRCU_EM_MERGED_TABLE)
	rcu_read_unlock();
#endif
	return 0;
}

/*
 * The OPPs of @cl the EM in effect flags inefficient (*@em) and those
 * CPUFreq skips, marked on the cluster's frequency table (*@cpufreq): bit
 * i for OPP i.  They differ where the kernel did not install the EM's
 * efficiencies into CPUFreq, or left stale marks.  0, or -ENOENT.
 */
int emrcu_em_marks(struct emrcu_cluster *cl, unsigned long *em,
		   unsigned long *cpufreq)
{
	unsigned long uw[EMRCU_MAX_OPPS];
	struct em_perf_domain *pd = em_cpu_get(cpumask_first(&cl->cpus));
	int i;

	*cpufreq = 0;
	for (i = 0; i < cl->nr_opps; i++)
		if (READ_ONCE(cl->freq_table[i].flags) & CPUFREQ_INEFFICIENT_FREQ)
			*cpufreq |= BIT(i);
	if (!pd || pd->nr_perf_states != cl->nr_opps)
		return -ENOENT;
	return emrcu_em_read(pd, uw, em, cl->nr_opps);
}

void emrcu_em_refresh(struct emrcu_cluster *cl)
{
	unsigned long uw[EMRCU_MAX_OPPS] = { 0 };
	struct em_perf_domain *pd = em_cpu_get(cpumask_first(&cl->cpus));
	unsigned long ineff;

	if (!pd || pd->nr_perf_states != cl->nr_opps ||
	    emrcu_em_read(pd, uw, &ineff, cl->nr_opps))
		memcpy(uw, emrcu_pushed_uw[cl->id], sizeof(uw));
	emrcu_meter_set_em(cl, uw);
}

/* After registration: the boot EM (the truth at nominal conditions). */
void emrcu_em_boot(void)
{
	int i, j;

	for (i = 0; i < emrcu_nr_clusters; i++) {
		struct emrcu_cluster *cl = &emrcu_clusters[i];

		for (j = 0; j < cl->nr_opps; j++)
			emrcu_pushed_uw[i][j] = emrcu_power_busy(cl->cls, &cl->opp[j],
								 &emrcu_cond_nominal);
		emrcu_em_refresh(cl);
	}
}

#ifdef EMRCU_HAVE_RUNTIME_EM
#ifdef EMRCU_EM_TABLE_API
/*
 * The merged design: build the table ahead of the update, as its drivers
 * do, publish it, give up this driver's reference.  All three are the
 * driver's update, so all three are timed.
 */
static int emrcu_em_update(struct device *dev, const struct emrcu_cluster *cl,
			   const unsigned long *uw)
{
	struct em_perf_table *t = emrcu_em_table_build(dev, uw, cl->nr_opps);
	int ret;

	if (!t)
		return -ENOMEM;
	ret = em_dev_update_perf_domain(dev, t);
	em_table_free(t);
	return ret;
}
#else
struct emrcu_push {
	const struct emrcu_cluster *cl;
	const unsigned long *uw;
	int next;
};

/* O(1): the framework asks for the states in ascending order. */
static int emrcu_push_power(struct device *dev, unsigned long freq,
			    unsigned long *power, void *priv)
{
	struct emrcu_push *p = priv;
	int i = p->next;

	if (i >= p->cl->nr_opps || p->cl->opp[i].khz != freq)
		i = emrcu_find_opp(p->cl->opp, p->cl->nr_opps, freq);
	if (i < 0 || p->cl->opp[i].khz != freq)
		return -EINVAL;
	p->next = i + 1;
	*power = p->uw[i];
	return 0;
}

/* v2: the framework asks this driver's callback for every value. */
static int emrcu_em_update(struct device *dev, const struct emrcu_cluster *cl,
			   const unsigned long *uw)
{
	struct em_data_callback cb = EM_UPDATE_CB(emrcu_push_power);
	struct emrcu_push p = { .cl = cl, .uw = uw };

	return em_dev_update_perf_domain(dev, &cb, &p);
}
#endif /* EMRCU_EM_TABLE_API */

/* Push @uw into @cl's perf domain, timed; read back what the kernel holds. */
static int emrcu_push(struct emrcu_cluster *cl, const unsigned long *uw)
{
	struct emrcu_drv_stats *st = &emrcu_drv_st;
	u64 t0, dt;
	int ret;

	lockdep_assert_held(&emrcu_drv_lock);
	t0 = local_clock();
	ret = emrcu_em_update(get_cpu_device(cpumask_first(&cl->cpus)), cl, uw);
	dt = local_clock() - t0;
	st->updates++;
	st->update_ns_sum += dt;
	st->update_ns_max = max(st->update_ns_max, dt);
	if (!st->update_ns_min || dt < st->update_ns_min)
		st->update_ns_min = dt;
	if (!st->first_ns)
		st->first_ns = t0;
	st->last_ns = t0;
	st->last_rc = ret;
	if (ret) {
		st->failed++;
		pr_err_ratelimited(EMRCU_NAME ": cluster%d: em_dev_update_perf_domain: %d\n",
				   cl->id, ret);
		return ret;
	}
	memcpy(emrcu_pushed_uw[cl->id], uw, sizeof(emrcu_pushed_uw[0]));
	emrcu_em_refresh(cl);
	return 0;
}

/* The truth's busy power of @cl at @temp_mc (profile and bin as set). */
static void emrcu_truth_table(const struct emrcu_cluster *cl, int temp_mc,
			      unsigned long *uw)
{
	struct emrcu_cond c;
	int j;

	emrcu_cond_read(&c);
	c.temp_mc = clamp(temp_mc, EMRCU_TEMP_MIN_MC, EMRCU_TEMP_MAX_MC);
	for (j = 0; j < cl->nr_opps; j++)
		uw[j] = emrcu_power_busy(cl->cls, &cl->opp[j], &c);
}

/*
 * The driver's model of @cl at the sensor's @temp_mc: the datasheet's
 * dynamic power, leakage interpolated linearly between the two calibration
 * measurements around @temp_mc (the outer segment beyond them), scaled by
 * drv_leak_pct.
 */
static void emrcu_drv_table(const struct emrcu_cluster *cl, int temp_mc,
			    unsigned long *uw)
{
	struct emrcu_cond c, lo, hi;
	int j, k;

	emrcu_cond_read(&c);
	if (emrcu_drv_mode == EMRCU_DRV_METER) {
		c.profile = EMRCU_PROFILE_NOMINAL;
		c.bin_mv = EMRCU_BIN_NOMINAL_MV;
	}
	k = (temp_mc - EMRCU_DRV_CAL_FIRST_MC) / EMRCU_DRV_CAL_STEP_MC;
	k = clamp(k, 0, EMRCU_DRV_CAL_POINTS - 2);
	lo = c;
	hi = c;
	lo.temp_mc = EMRCU_DRV_CAL_FIRST_MC + k * EMRCU_DRV_CAL_STEP_MC;
	hi.temp_mc = lo.temp_mc + EMRCU_DRV_CAL_STEP_MC;
	for (j = 0; j < cl->nr_opps; j++) {
		const struct emrcu_opp *o = &cl->opp[j];
		s64 l0 = emrcu_power_leak(cl->cls, o, &lo);
		s64 l1 = emrcu_power_leak(cl->cls, o, &hi);
		s64 leak = l0 + div_s64((l1 - l0) * (temp_mc - lo.temp_mc),
					hi.temp_mc - lo.temp_mc);

		leak = div_s64(max_t(s64, leak, 0) * emrcu_drv_leak_pct, 100);
		uw[j] = emrcu_power_dyn(cl->cls, o, &c) + leak;
		if (emrcu_drv_mode == EMRCU_DRV_METER)
			uw[j] = mul_u64_u64_div_u64(uw[j], emrcu_drv_scale_ppm(cl->id),
						    1000000);
	}
}

/*
 * drv=meter: the truth over the EM's estimate of the busy time since the
 * last update, times the scale the EM was priced with, is the scale that
 * would have priced it right.
 */
static void emrcu_drv_meter_correct(struct emrcu_cluster *cl)
{
	struct emrcu_totals t;
	u64 db, de, s;

	emrcu_meter_total(cl, &t);
	db = t.busy_fj - emrcu_drv_m[cl->id].busy_fj;
	de = t.em_fj - emrcu_drv_m[cl->id].em_fj;
	emrcu_drv_m[cl->id].busy_fj = t.busy_fj;
	emrcu_drv_m[cl->id].em_fj = t.em_fj;
	if (!emrcu_drv_m[cl->id].primed) {
		emrcu_drv_m[cl->id].primed = true;
		return;
	}
	if (de < EMRCU_DRV_METER_MIN_FJ)
		return;
	s = mul_u64_u64_div_u64(emrcu_drv_scale_ppm(cl->id), db, de);
	WRITE_ONCE(emrcu_drv_m[cl->id].scale_ppm,
		   clamp_t(u64, s, EMRCU_DRV_METER_SCALE_MIN_PPM,
			   EMRCU_DRV_METER_SCALE_MAX_PPM));
}

/* The driver's temperature of @cluster: the sensor, or the set one. */
static int emrcu_drv_temp_mc(int cluster)
{
	struct emrcu_cond c;

	if (emrcu_thermal_on)
		return emrcu_thermal_sensor_mc(cluster);
	emrcu_cond_read(&c);
	return c.temp_mc;
}

int emrcu_em_push_truth(const int *temp_mc, const char *why)
{
	unsigned long uw[EMRCU_MAX_OPPS];
	int i, ret = 0, err;

	mutex_lock(&emrcu_drv_lock);
	for (i = 0; i < emrcu_nr_clusters; i++) {
		emrcu_truth_table(&emrcu_clusters[i], temp_mc[i], uw);
		err = emrcu_push(&emrcu_clusters[i], uw);
		if (err) {
			pr_err(EMRCU_NAME ": em_update (%s): cluster%d: %d\n",
			       why, i, err);
			ret = err;
		}
	}
	mutex_unlock(&emrcu_drv_lock);
	return ret;
}

/*
 * One push of the truth's weighted mean over @n conditions @c with weights
 * @w (debugfs em_update avg: the best static table of a scenario whose
 * conditions step, each weighted by the time it lasts).
 */
int emrcu_em_push_mean(const struct emrcu_cond *c, const unsigned int *w,
		       int n)
{
	unsigned long uw[EMRCU_MAX_OPPS];
	u64 sum, wsum = 0;
	int i, j, k, ret = 0, err;

	for (k = 0; k < n; k++)
		wsum += w[k];
	if (!wsum)
		return -EINVAL;
	mutex_lock(&emrcu_drv_lock);
	for (i = 0; i < emrcu_nr_clusters; i++) {
		const struct emrcu_cluster *cl = &emrcu_clusters[i];

		for (j = 0; j < cl->nr_opps; j++) {
			sum = 0;
			for (k = 0; k < n; k++)
				sum += (u64)w[k] *
				       emrcu_power_busy(cl->cls, &cl->opp[j],
							&c[k]);
			uw[j] = div64_u64(sum + wsum / 2, wsum);
		}
		err = emrcu_push(&emrcu_clusters[i], uw);
		if (err) {
			pr_err(EMRCU_NAME ": em_update (avg): cluster%d: %d\n",
			       i, err);
			ret = err;
		}
	}
	mutex_unlock(&emrcu_drv_lock);
	return ret;
}

static void emrcu_drv_update_all(void)
{
	unsigned long uw[EMRCU_MAX_OPPS];
	u64 t0;
	int i;

	mutex_lock(&emrcu_drv_lock);
	t0 = local_clock();
	for (i = 0; i < emrcu_nr_clusters; i++) {
		struct emrcu_cluster *cl = &emrcu_clusters[i];

		if (emrcu_drv_mode == EMRCU_DRV_ORACLE) {
			emrcu_truth_table(cl, emrcu_thermal_die_mc(i), uw);
		} else {
			if (emrcu_drv_mode == EMRCU_DRV_METER)
				emrcu_drv_meter_correct(cl);
			emrcu_drv_table(cl, emrcu_drv_temp_mc(i), uw);
		}
		emrcu_push(cl, uw);
	}
	t0 = local_clock() - t0;
	emrcu_drv_st.iters++;
	emrcu_drv_st.iter_ns_sum += t0;
	if (!emrcu_drv_st.iter_ns_min || t0 < emrcu_drv_st.iter_ns_min)
		emrcu_drv_st.iter_ns_min = t0;
	mutex_unlock(&emrcu_drv_lock);
}

static int emrcu_drv_fn(void *unused)
{
	ktime_t next = ktime_get();

	while (!kthread_should_stop()) {
		next = ktime_add_ms(next, emrcu_drv_period_ms);
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_hrtimeout_range(&next, 50 * NSEC_PER_USEC,
					 HRTIMER_MODE_ABS);
		if (kthread_should_stop())
			break;
		emrcu_drv_update_all();
	}
	return 0;
}

int emrcu_drv_start(void)
{
	struct task_struct *t;

	if (emrcu_drv_mode == EMRCU_DRV_NONE)
		return 0;
	t = kthread_run(emrcu_drv_fn, NULL, "emrcu_emdrv");
	if (IS_ERR(t))
		return PTR_ERR(t);
	emrcu_drv_task = t;
	return 0;
}
#else
int emrcu_em_push_truth(const int *temp_mc, const char *why)
{
	return -EOPNOTSUPP;
}

int emrcu_em_push_mean(const struct emrcu_cond *c, const unsigned int *w,
		       int n)
{
	return -EOPNOTSUPP;
}

int emrcu_drv_start(void)
{
	return emrcu_drv_mode == EMRCU_DRV_NONE ? 0 : -EOPNOTSUPP;
}
#endif /* EMRCU_HAVE_RUNTIME_EM */

void emrcu_drv_stop(void)
{
	if (emrcu_drv_task)
		kthread_stop(emrcu_drv_task);
	emrcu_drv_task = NULL;
}

void emrcu_drv_stats(struct emrcu_drv_stats *st)
{
	mutex_lock(&emrcu_drv_lock);
	*st = emrcu_drv_st;
	mutex_unlock(&emrcu_drv_lock);
}

void emrcu_drv_reset_stats(void)
{
	mutex_lock(&emrcu_drv_lock);
	memset(&emrcu_drv_st, 0, sizeof(emrcu_drv_st));
	mutex_unlock(&emrcu_drv_lock);
}
