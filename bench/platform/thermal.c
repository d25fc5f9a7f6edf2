// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_platform: the truth's own thermal dynamics (thermal=1).
 *
 * Every EMRCU_THERMAL_TICK_MS a kthread integrates, per cluster, a
 * first-order RC model of the die (model_data.h):
 *   P      = the cluster's metered power since the last tick (every CPU,
 *            busy and idle, and the shared power: what really dissipated)
 *   T_ss   = T_amb + r_self * P + r_ext * P_ext(t)
 *   T     += (T_ss - T) * dt / (tau + dt)          (implicit Euler)
 * P_ext(t) follows the external heat schedule (a GPU/ISP) written to
 * debugfs `heat`.  When a die moved EMRCU_TEMP_APPLY_MC since its power
 * tables were computed, they are recomputed at the new temperature: from
 * then on the meter integrates the new truth.
 *
 * The sensor a driver may read is sampled at the same tick: a first-order
 * lag behind the die (sensor_lag_ms), then, when read, quantised
 * (sensor_quant_mc) with seeded triangular noise (sensor_noise_mc).
 *
 * Window statistics (reset with the meter): per cluster the time-weighted
 * mean, minimum and maximum die temperature, the mean |sensor - die|, and
 * the EM's error resolved at the tick: each tick's busy energy, the EM in
 * effect's estimate of it, and the sum of |estimate - busy| over ticks (an
 * error that changes sign inside the window cancels in the window's totals,
 * not here: what EAS mis-prices at each instant).
 */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "emrcu_internal.h"

struct emrcu_die {
	s64 temp_uc;		/* die temperature, micro-°C (tick only) */
	s64 sensor_uc;		/* lagged sensor, micro-°C (tick only) */
	struct emrcu_totals last;	/* the cluster's energies at the last tick */
	/* window statistics, under emrcu_thermal_lock */
	s64 sum_mc_us;		/* integral of T dt, m°C x us */
	u64 sum_us;
	int min_mc, max_mc;
	u64 sens_err_sum_mc;	/* sum over reads of |reading - die| */
	u64 sens_reads;
	u64 tick_busy_fj, tick_em_fj, tick_abs_err_fj;
};

static struct emrcu_die emrcu_dies[NR_CPUS];
static DEFINE_SPINLOCK(emrcu_thermal_lock);
static struct task_struct *emrcu_thermal_task;
static u64 emrcu_thermal_last_ns;

/* The external heat schedule: P_ext = mw[i] from t_ms[i] after its start. */
static struct {
	int n;
	unsigned int t_ms[EMRCU_HEAT_MAX_POINTS];
	unsigned int mw[EMRCU_HEAT_MAX_POINTS];
	u64 start_ns;
} emrcu_heat;

/* Seeded xorshift64* for the sensor noise (one stream, reads serialised). */
static u64 emrcu_noise_state;

int emrcu_thermal_on;
int emrcu_ambient_mc = EMRCU_AMBIENT_MC;
int emrcu_sensor_lag_ms = EMRCU_SENSOR_LAG_MS;
int emrcu_sensor_quant_mc = EMRCU_SENSOR_QUANT_MC;
int emrcu_sensor_noise_mc = EMRCU_SENSOR_NOISE_MC;

static u64 emrcu_noise_next(void)
{
	u64 x = emrcu_noise_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	emrcu_noise_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

void emrcu_thermal_seed(u64 seed)
{
	emrcu_noise_state = seed ? seed : 1;
}

static unsigned int emrcu_heat_mw(u64 now)
{
	u64 t_ms;
	unsigned int mw = 0;
	int i;

	if (!emrcu_heat.n || now < emrcu_heat.start_ns)
		return 0;
	t_ms = div_u64(now - emrcu_heat.start_ns, NSEC_PER_MSEC);
	for (i = 0; i < emrcu_heat.n && emrcu_heat.t_ms[i] <= t_ms; i++)
		mw = emrcu_heat.mw[i];
	return mw;
}

/* Every cluster's die (and sensor) at ambient; statistics cleared. */
void emrcu_thermal_reset(void)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&emrcu_thermal_lock, flags);
	for (i = 0; i < emrcu_nr_clusters; i++) {
		struct emrcu_die *d = &emrcu_dies[i];

		d->temp_uc = (s64)emrcu_ambient_mc * 1000;
		d->sensor_uc = d->temp_uc;
		emrcu_meter_total(&emrcu_clusters[i], &d->last);
	}
	emrcu_heat.n = 0;
	spin_unlock_irqrestore(&emrcu_thermal_lock, flags);
	emrcu_thermal_reset_stats();
	for (i = 0; i < emrcu_nr_clusters; i++)
		emrcu_meter_set_cluster_temp(&emrcu_clusters[i], emrcu_ambient_mc);
}

void emrcu_thermal_reset_stats(void)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&emrcu_thermal_lock, flags);
	for (i = 0; i < emrcu_nr_clusters; i++) {
		struct emrcu_die *d = &emrcu_dies[i];
		int t = div_s64(d->temp_uc, 1000);

		d->sum_mc_us = 0;
		d->sum_us = 0;
		d->min_mc = t;
		d->max_mc = t;
		d->sens_err_sum_mc = 0;
		d->sens_reads = 0;
		d->tick_busy_fj = 0;
		d->tick_em_fj = 0;
		d->tick_abs_err_fj = 0;
	}
	spin_unlock_irqrestore(&emrcu_thermal_lock, flags);
}

int emrcu_thermal_set_heat(const unsigned int *t_ms, const unsigned int *mw,
			   int n)
{
	unsigned long flags;
	int i;

	if (n < 0 || n > EMRCU_HEAT_MAX_POINTS)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (mw[i] > EMRCU_EXT_HEAT_MAX_MW || (i && t_ms[i] <= t_ms[i - 1]))
			return -EINVAL;
	spin_lock_irqsave(&emrcu_thermal_lock, flags);
	memcpy(emrcu_heat.t_ms, t_ms, n * sizeof(*t_ms));
	memcpy(emrcu_heat.mw, mw, n * sizeof(*mw));
	emrcu_heat.n = n;
	emrcu_heat.start_ns = local_clock();
	spin_unlock_irqrestore(&emrcu_thermal_lock, flags);
	return 0;
}

/* First-order step toward @target over @dt_us with time constant @tau_us. */
static s64 emrcu_lag(s64 cur, s64 target, u64 dt_us, u64 tau_us)
{
	return cur + div64_s64((target - cur) * (s64)dt_us,
			       (s64)(tau_us + dt_us));
}

static void emrcu_thermal_tick(void)
{
	unsigned int ext_mw;
	unsigned long flags;
	u64 now, dt_ns, dt_us;
	int i;

	now = local_clock();
	dt_ns = now - emrcu_thermal_last_ns;
	emrcu_thermal_last_ns = now;
	dt_us = div_u64(dt_ns, NSEC_PER_USEC);
	if (!dt_us)
		return;
	for (i = 0; i < emrcu_nr_clusters; i++) {
		struct emrcu_cluster *cl = &emrcu_clusters[i];
		const struct emrcu_class_data *cd = &emrcu_class_data[cl->cls];
		struct emrcu_die *d = &emrcu_dies[i];
		struct emrcu_totals t;
		u64 p_uw, db, de;
		s64 ss_uc;
		int t_mc;

		emrcu_meter_total(cl, &t);
		spin_lock_irqsave(&emrcu_thermal_lock, flags);
		ext_mw = emrcu_heat_mw(now);
		/* fJ / ns = uW */
		p_uw = t.fj > d->last.fj ? div64_u64(t.fj - d->last.fj, dt_ns) : 0;
		db = t.busy_fj - d->last.busy_fj;
		de = t.em_fj - d->last.em_fj;
		d->tick_busy_fj += db;
		d->tick_em_fj += de;
		d->tick_abs_err_fj += de > db ? de - db : db - de;
		d->last = t;
		/* m°C/W x uW / 1000 = micro-°C */
		ss_uc = (s64)emrcu_ambient_mc * 1000 +
			(s64)div_u64((u64)cd->r_self_mc_per_w * p_uw, 1000) +
			(s64)cd->r_ext_mc_per_w * ext_mw;
		d->temp_uc = emrcu_lag(d->temp_uc, ss_uc, dt_us,
				       (u64)cd->tau_ms * 1000);
		d->temp_uc = clamp_t(s64, d->temp_uc,
				     (s64)EMRCU_TEMP_MIN_MC * 1000,
				     (s64)EMRCU_TEMP_MAX_MC * 1000);
		d->sensor_uc = emrcu_lag(d->sensor_uc, d->temp_uc, dt_us,
					 (u64)emrcu_sensor_lag_ms * 1000);
		t_mc = div_s64(d->temp_uc, 1000);
		d->sum_mc_us += (s64)t_mc * (s64)dt_us;
		d->sum_us += dt_us;
		d->min_mc = min(d->min_mc, t_mc);
		d->max_mc = max(d->max_mc, t_mc);
		spin_unlock_irqrestore(&emrcu_thermal_lock, flags);
		if (abs(t_mc - READ_ONCE(cl->temp_mc)) >= EMRCU_TEMP_APPLY_MC)
			emrcu_meter_set_cluster_temp(cl, t_mc);
	}
}

static int emrcu_thermal_fn(void *unused)
{
	ktime_t tick = ms_to_ktime(EMRCU_THERMAL_TICK_MS);

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_hrtimeout_range(&tick, 100 * NSEC_PER_USEC,
					 HRTIMER_MODE_REL);
		if (kthread_should_stop())
			break;
		emrcu_thermal_tick();
	}
	return 0;
}

/* The die temperature now, m°C (the truth; oracle and statistics). */
int emrcu_thermal_die_mc(int cluster)
{
	return div_s64(READ_ONCE(emrcu_dies[cluster].temp_uc), 1000);
}

/*
 * What the sensor reads now: the lagged value, with noise, quantised.
 * Callers serialise (the driver kthread is the only reader).
 */
int emrcu_thermal_sensor_mc(int cluster)
{
	struct emrcu_die *d = &emrcu_dies[cluster];
	unsigned long flags;
	s64 v = div_s64(READ_ONCE(d->sensor_uc), 1000);
	int die = emrcu_thermal_die_mc(cluster);
	int q = emrcu_sensor_quant_mc;

	if (emrcu_sensor_noise_mc) {
		u32 a = emrcu_noise_next() >> 32, b = emrcu_noise_next() >> 32;
		/* triangular on [-noise, noise]: sum of two uniforms */
		s64 u = (s64)a + b - (1LL << 32);

		v += div64_s64(u * emrcu_sensor_noise_mc, 1LL << 32);
	}
	if (q > 1)
		v = div_s64(v >= 0 ? v + q / 2 : v - q / 2, q) * q;
	spin_lock_irqsave(&emrcu_thermal_lock, flags);
	d->sens_err_sum_mc += abs((int)v - die);
	d->sens_reads++;
	spin_unlock_irqrestore(&emrcu_thermal_lock, flags);
	return v;
}

/* Window statistics of @cluster (m°C); mean_mc is the die's time-weighted mean. */
void emrcu_thermal_stats(int cluster, struct emrcu_thermal_stats *st)
{
	struct emrcu_die *d = &emrcu_dies[cluster];
	unsigned long flags;

	spin_lock_irqsave(&emrcu_thermal_lock, flags);
	st->now_mc = div_s64(d->temp_uc, 1000);
	st->sensor_mc = div_s64(d->sensor_uc, 1000);
	st->mean_mc = d->sum_us ? div64_s64(d->sum_mc_us, (s64)d->sum_us) :
				  st->now_mc;
	st->min_mc = d->min_mc;
	st->max_mc = d->max_mc;
	st->sens_err_mean_mc = d->sens_reads ?
		div64_u64(d->sens_err_sum_mc, d->sens_reads) : 0;
	st->sens_reads = d->sens_reads;
	st->tick_busy_fj = d->tick_busy_fj;
	st->tick_em_fj = d->tick_em_fj;
	st->tick_abs_err_fj = d->tick_abs_err_fj;
	st->ext_mw = emrcu_heat_mw(local_clock());
	spin_unlock_irqrestore(&emrcu_thermal_lock, flags);
}

int emrcu_thermal_start(void)
{
	struct task_struct *t;

	if (!emrcu_thermal_on)
		return 0;
	emrcu_thermal_last_ns = local_clock();
	emrcu_thermal_reset();
	t = kthread_run(emrcu_thermal_fn, NULL, "emrcu_thermal");
	if (IS_ERR(t))
		return PTR_ERR(t);
	emrcu_thermal_task = t;
	return 0;
}

void emrcu_thermal_stop(void)
{
	if (emrcu_thermal_task)
		kthread_stop(emrcu_thermal_task);
	emrcu_thermal_task = NULL;
}
