// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_platform: a per-cluster cpufreq driver for QEMU's virt machine.
 *
 * One policy per cluster.  ->target_index and ->fast_switch make the core
 * enable frequency-invariant load tracking (cpufreq_register_driver()) and
 * let schedutil switch from the scheduler's context; the "hardware" only
 * records the OPP (and the meter accounts the old one).  ->register_em
 * gives every policy an Energy Model in uW, the ground-truth model at
 * nominal conditions.
 */
#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/energy_model.h>
#include <linux/printk.h>

#include "emrcu_internal.h"

static struct emrcu_cluster *emrcu_cluster_of(struct device *dev)
{
	unsigned int cpu = dev->id;

	if (cpu >= nr_cpu_ids || get_cpu_device(cpu) != dev)
		return NULL;
	return emrcu_cpus[cpu].cl;
}

/* EM callback: power at the lowest OPP >= *freq, nominal conditions. */
static int emrcu_em_active_power(struct device *dev, unsigned long *power,
				 unsigned long *freq)
{
	struct emrcu_cluster *cl = emrcu_cluster_of(dev);
	int idx;

	if (!cl)
		return -EINVAL;
	idx = emrcu_find_opp(cl->opp, cl->nr_opps, *freq);
	if (idx < 0)
		return -EINVAL;
	*freq = cl->opp[idx].khz;
	*power = emrcu_power_busy(cl->cls, &cl->opp[idx], &emrcu_cond_nominal);
	return 0;
}

static void emrcu_cpufreq_register_em(struct cpufreq_policy *policy)
{
	struct em_data_callback cb = EM_DATA_CB(emrcu_em_active_power);
	struct emrcu_cluster *cl = policy->driver_data;
	int ret;

	/* Left by an earlier load (same tables: emrcu_em_check_existing()). */
	if (em_cpu_get(policy->cpu)) {
		pr_info(EMRCU_NAME ": cluster%d: reusing the EM of an earlier load\n",
			cl->id);
		return;
	}
	/* The whole cluster: policy->cpus lacks the CPUs not online yet */
	ret = em_dev_register_perf_domain(get_cpu_device(policy->cpu),
					  cl->nr_opps, &cb, policy->related_cpus,
					  true);
	if (ret)
		pr_err(EMRCU_NAME ": cluster%d: em_dev_register_perf_domain: %d\n",
		       cl->id, ret);
}

static int emrcu_cpufreq_init(struct cpufreq_policy *policy)
{
	struct emrcu_cluster *cl = emrcu_cpus[policy->cpu].cl;

	if (!cl)
		return -ENODEV;
	cpumask_copy(policy->cpus, &cl->cpus);
	policy->driver_data = cl;
	policy->freq_table = cl->freq_table;
	policy->cpuinfo.transition_latency = EMRCU_TRANSITION_LATENCY_NS;
	policy->transition_delay_us = EMRCU_TRANSITION_DELAY_US;
	policy->fast_switch_possible = true;
	policy->dvfs_possible_from_any_cpu = true;
	policy->cur = cl->opp[READ_ONCE(cl->cur)].khz;
	return 0;
}

static unsigned int emrcu_cpufreq_get(unsigned int cpu)
{
	struct emrcu_cluster *cl = emrcu_cpus[cpu].cl;

	return cl ? cl->opp[READ_ONCE(cl->cur)].khz : 0;
}

static int emrcu_cpufreq_target_index(struct cpufreq_policy *policy,
				      unsigned int index)
{
	emrcu_meter_set_opp(policy->driver_data, index);
	return 0;
}

/* Scheduler context (irqs off): the lowest OPP >= @target_freq. */
static unsigned int emrcu_cpufreq_fast_switch(struct cpufreq_policy *policy,
					      unsigned int target_freq)
{
	struct emrcu_cluster *cl = policy->driver_data;
	int idx = emrcu_find_opp(cl->opp, cl->nr_opps, target_freq);

	if (idx < 0)
		idx = cl->nr_opps - 1;
	emrcu_meter_set_opp(cl, idx);
	return cl->opp[idx].khz;
}

static struct cpufreq_driver emrcu_cpufreq_driver = {
	.name		= "emrcu-cpufreq",
	.flags		= CPUFREQ_HAVE_GOVERNOR_PER_POLICY,
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= emrcu_cpufreq_target_index,
	.fast_switch	= emrcu_cpufreq_fast_switch,
	.get		= emrcu_cpufreq_get,
	.init		= emrcu_cpufreq_init,
	.register_em	= emrcu_cpufreq_register_em,
	.attr		= cpufreq_generic_attr,
};

/*
 * 6.1 cannot unregister a CPU perf domain, so a CPU EM registered by an
 * earlier load of this module survives its unload.  It is reused if it has
 * the same number of states (same tables); otherwise refuse to load.
 */
int emrcu_em_check_existing(void)
{
	struct em_perf_domain *pd;
	int i, cpu;

	for (i = 0; i < emrcu_nr_clusters; i++) {
		cpu = cpumask_first(&emrcu_clusters[i].cpus);
		pd = em_cpu_get(cpu);
		if (pd && pd->nr_perf_states != emrcu_clusters[i].nr_opps) {
			pr_err(EMRCU_NAME ": CPU%d keeps an EM of %d states from an earlier load, cluster%d would get %d (max_opps=%d, class %s): reboot to change OPP tables\n",
			       cpu, pd->nr_perf_states, i,
			       emrcu_clusters[i].nr_opps, emrcu_max_opps,
			       emrcu_class_data[emrcu_clusters[i].cls].name);
			return -EBUSY;
		}
	}
	return 0;
}

int emrcu_cpufreq_register(void)
{
	int ret = cpufreq_register_driver(&emrcu_cpufreq_driver);

	if (ret)
		pr_err(EMRCU_NAME ": cpufreq_register_driver: %d (another cpufreq driver loaded?)\n",
		       ret);
	return ret;
}

void emrcu_cpufreq_unregister(void)
{
	cpufreq_unregister_driver(&emrcu_cpufreq_driver);
}
