// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_platform: the ground-truth power model.
 *
 * Integer arithmetic only (the kernel has no FP):
 *   V      = published OPP voltage + chip-bin offset
 *   P_dyn  = C * V^2 * f_phys * profile%            (C in uW/(MHz*V^2))
 *   P_leak = leak_uw_per_v * V * 2^((T - T_nom) / T_double)
 *   busy CPU:  P_dyn + P_leak
 *   idle CPU:  P_leak * idle_leak_pct
 *   cluster:   shared_uw * profile shared%, while any of its CPUs is busy
 */
#include <linux/bits.h>
#include <linux/cpu.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/string.h>

#define EMRCU_MODEL_DATA_DEFINE
#include "emrcu_internal.h"
#include "emrcu_platform.h"

struct emrcu_cond emrcu_cond = {
	.temp_mc = EMRCU_TEMP_NOMINAL_MC,
	.profile = EMRCU_PROFILE_NOMINAL,
	.bin_mv = EMRCU_BIN_NOMINAL_MV,
};

/* Serialises writers of emrcu_cond (and em_update); readers use READ_ONCE. */
DEFINE_MUTEX(emrcu_cond_lock);

const struct emrcu_cond emrcu_cond_nominal = {
	.temp_mc = EMRCU_TEMP_NOMINAL_MC,
	.profile = EMRCU_PROFILE_NOMINAL,
	.bin_mv = EMRCU_BIN_NOMINAL_MV,
};

#define Q30		30
#define Q30_ONE		BIT_ULL(Q30)
#define LN2_Q30		744261118ULL	/* ln(2) * 2^30 */

/*
 * 2^(x / 2^16) in Q30 for a Q16 exponent: 2^n * e^(frac * ln 2), the second
 * factor by its Taylor series (12 terms: error < 1e-8 for frac < 1).
 */
static u64 emrcu_exp2_q30(s64 x_q16)
{
	s64 n = x_q16 >= 0 ? x_q16 >> 16 : -((-x_q16 + 0xffff) >> 16);
	u64 frac = (u64)(x_q16 - n * 65536);
	u64 y = (frac * LN2_Q30) >> 16;
	u64 term = Q30_ONE, sum = Q30_ONE;
	int k;

	for (k = 1; k < 12; k++) {
		term = div_u64((term * y) >> Q30, k);
		sum += term;
	}
	n = clamp_t(s64, n, -30, 20);
	return n >= 0 ? sum << n : sum >> -n;
}

static unsigned long emrcu_uv(const struct emrcu_opp *opp,
			      const struct emrcu_cond *c)
{
	return opp->uv + (long)c->bin_mv * 1000;
}

unsigned long emrcu_power_leak(int cls, const struct emrcu_opp *opp,
			       const struct emrcu_cond *c)
{
	const struct emrcu_class_data *d = &emrcu_class_data[cls];
	s64 x_q16 = div_s64(((s64)c->temp_mc - EMRCU_TEMP_NOMINAL_MC) << 16,
			    d->leak_double_mc);
	/* nW at T_nom: < 2^28 for any table value, so the product fits */
	u64 nw = div_u64((u64)d->leak_uw_per_v * emrcu_uv(opp, c), 1000);

	return div_u64((nw * emrcu_exp2_q30(x_q16)) >> Q30, 1000);
}

unsigned long emrcu_power_dyn(int cls, const struct emrcu_opp *opp,
			      const struct emrcu_cond *c)
{
	const struct emrcu_class_data *d = &emrcu_class_data[cls];
	u64 uv = emrcu_uv(opp, c);
	/* uV^2 / 1000 < 2^31; * C (< 2^10) * kHz (< 2^22): < 2^63 */
	u64 v2 = div_u64(uv * uv, 1000);
	u64 uw = div64_u64(v2 * d->dyn_coeff * opp->phys_khz,
			   1000000000000ULL);

	return div_u64(uw * emrcu_profile_data[c->profile].dyn_pct[cls], 100);
}

/* Busy and idle power of one CPU at @opp: the leakage is computed once. */
void emrcu_power_opp(int cls, const struct emrcu_opp *opp,
		     const struct emrcu_cond *c, unsigned long *busy,
		     unsigned long *idle)
{
	unsigned long leak = emrcu_power_leak(cls, opp, c);

	*busy = emrcu_power_dyn(cls, opp, c) + leak;
	*idle = leak * emrcu_class_data[cls].idle_leak_pct / 100;
}

/*
 * Kept apart from emrcu_power_opp(): it is em_bench's update callback, and
 * the update-cost figures the gate judges include its instructions.
 */
unsigned long emrcu_power_busy(int cls, const struct emrcu_opp *opp,
			       const struct emrcu_cond *c)
{
	return emrcu_power_dyn(cls, opp, c) + emrcu_power_leak(cls, opp, c);
}

unsigned long emrcu_power_shared(int cls, const struct emrcu_cond *c)
{
	return (unsigned long)emrcu_class_data[cls].shared_uw *
	       emrcu_profile_data[c->profile].shared_pct / 100;
}

int emrcu_profile_index(const char *name)
{
	int i;

	for (i = 0; i < emrcu_nr_profiles; i++)
		if (sysfs_streq(name, emrcu_profile_data[i].name))
			return i;
	return -EINVAL;
}

int emrcu_cond_check(const struct emrcu_cond *c)
{
	if (c->temp_mc < EMRCU_TEMP_MIN_MC || c->temp_mc > EMRCU_TEMP_MAX_MC)
		return -ERANGE;
	if (c->bin_mv < EMRCU_BIN_MIN_MV || c->bin_mv > EMRCU_BIN_MAX_MV)
		return -ERANGE;
	if (c->profile < 0 || c->profile >= emrcu_nr_profiles)
		return -EINVAL;
	return 0;
}

/* Lock-free snapshot of the current conditions (each field is one int). */
void emrcu_cond_read(struct emrcu_cond *c)
{
	c->temp_mc = READ_ONCE(emrcu_cond.temp_mc);
	c->profile = READ_ONCE(emrcu_cond.profile);
	c->bin_mv = READ_ONCE(emrcu_cond.bin_mv);
}

/* Index of the lowest OPP >= @khz, or -ERANGE above the highest. */
int emrcu_find_opp(const struct emrcu_opp *opp, int nr, unsigned long khz)
{
	int i;

	for (i = 0; i < nr; i++)
		if (opp[i].khz >= khz)
			return i;
	return -ERANGE;
}

static struct emrcu_cluster *emrcu_cluster_of_dev(struct device *dev)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (get_cpu_device(cpu) == dev)
			return emrcu_cpus[cpu].cl;
	return NULL;
}

/* True busy power of @dev (CPU or test device) at @freq_khz under @c. */
int emrcu_power_for_dev(struct device *dev, unsigned long freq_khz,
			const struct emrcu_cond *c, unsigned long *uw)
{
	struct emrcu_cluster *cl = emrcu_cluster_of_dev(dev);
	int i, idx;

	if (cl) {
		idx = emrcu_find_opp(cl->opp, cl->nr_opps, freq_khz);
		if (idx < 0)
			return -EINVAL;
		*uw = emrcu_power_busy(cl->cls, &cl->opp[idx], c);
		return 0;
	}
	for (i = 0; i < emrcu_nr_tpds; i++) {
		struct emrcu_test_pd *t = &emrcu_test_pds[i];

		if (t->dev != dev)
			continue;
		idx = emrcu_find_opp(t->opp, t->nr_opps, freq_khz);
		if (idx < 0)
			return -EINVAL;
		*uw = emrcu_power_busy(EMRCU_TEST_PD_CLASS, &t->opp[idx], c);
		return 0;
	}
	return -EINVAL;
}

int emrcu_model_power(struct device *dev, unsigned long freq_khz, int temp_mc,
		      unsigned long *uw)
{
	struct emrcu_cond c;

	emrcu_cond_read(&c);
	c.temp_mc = temp_mc;
	if (emrcu_cond_check(&c))
		return -EINVAL;
	return emrcu_power_for_dev(dev, freq_khz, &c, uw);
}
EXPORT_SYMBOL_GPL(emrcu_model_power);

/* Sanity of the data tables (they are data: check them, do not trust them). */
int emrcu_model_check(void)
{
	int i, j;

	for (i = 0; i < EMRCU_NR_CLASSES; i++) {
		const struct emrcu_class_data *d = &emrcu_class_data[i];

		if (!d->nr_opps || d->nr_opps > EMRCU_MAX_OPPS ||
		    d->leak_double_mc < 5000 || !d->dyn_coeff) {
			pr_err(EMRCU_NAME ": class %s: bad table (%u OPPs, max %d)\n",
			       d->name, d->nr_opps, EMRCU_MAX_OPPS);
			return -EINVAL;
		}
		for (j = 1; j < d->nr_opps; j++) {
			if (d->opps[j].khz <= d->opps[j - 1].khz ||
			    d->opps[j].uv < d->opps[j - 1].uv) {
				pr_err(EMRCU_NAME ": class %s: OPP %d not increasing\n",
				       d->name, j);
				return -EINVAL;
			}
		}
	}
	return 0;
}
