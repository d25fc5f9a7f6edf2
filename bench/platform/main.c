// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_platform: virtual DVFS platform for QEMU virt guests.
 *
 * Per-cluster cpufreq driver + Energy Model (ground-truth power model at
 * nominal conditions), a true-energy meter fed by sched_switch and the
 * frequency changes, settable temperature / workload profile / chip bin,
 * optional test perf domains on non-CPU devices.  See README.md.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>

#include "emrcu_internal.h"

int emrcu_max_opps;
module_param_named(max_opps, emrcu_max_opps, int, 0444);
MODULE_PARM_DESC(max_opps, "OPPs per cluster, evenly spaced (0 = all published)");

static int temperature = EMRCU_TEMP_NOMINAL_MC;
module_param(temperature, int, 0444);
MODULE_PARM_DESC(temperature, "initial SoC temperature, m°C");

static char *profile = "nominal";
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile, "initial workload profile (nominal, memory, fp)");

static int bin_mv = EMRCU_BIN_NOMINAL_MV;
module_param(bin_mv, int, 0444);
MODULE_PARM_DESC(bin_mv, "initial chip-bin voltage offset, mV");

static char *classes;
module_param(classes, charp, 0444);
MODULE_PARM_DESC(classes, "class per cluster, e.g. little,mid,big (default: by capacity rank)");

static int test_pds[EMRCU_MAX_TEST_PDS];
static int nr_test_pds;
module_param_array(test_pds, int, &nr_test_pds, 0444);
MODULE_PARM_DESC(test_pds, "OPP counts of test perf domains on non-CPU devices, e.g. 4,8,16");

static bool meter = true;
module_param(meter, bool, 0444);
MODULE_PARM_DESC(meter, "attach the energy meter to sched_switch (busy/idle energy)");

static bool thermal;
module_param(thermal, bool, 0444);
MODULE_PARM_DESC(thermal, "the dies follow a thermal RC model (temperature= is then the ambient)");

module_param_named(sensor_lag_ms, emrcu_sensor_lag_ms, int, 0444);
MODULE_PARM_DESC(sensor_lag_ms, "temperature sensor: first-order lag behind the die, ms");
module_param_named(sensor_quant_mc, emrcu_sensor_quant_mc, int, 0444);
MODULE_PARM_DESC(sensor_quant_mc, "temperature sensor: quantisation step, m°C (0: none)");
module_param_named(sensor_noise_mc, emrcu_sensor_noise_mc, int, 0444);
MODULE_PARM_DESC(sensor_noise_mc, "temperature sensor: triangular noise half-width, m°C");

static ulong seed = 1;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the sensor noise");

static char *drv = "none";
module_param(drv, charp, 0444);
MODULE_PARM_DESC(drv, "EM driver: none, runtime (sensor + characterised model), oracle (the truth), meter (nominal model x energy-counter scale)");
module_param_named(drv_period_ms, emrcu_drv_period_ms, int, 0444);
MODULE_PARM_DESC(drv_period_ms, "EM driver: update period, ms");
module_param_named(drv_leak_pct, emrcu_drv_leak_pct, int, 0444);
MODULE_PARM_DESC(drv_leak_pct, "EM driver: its leakage model x this / 100 (a declared mis-model)");

static int __init emrcu_range(const char *name, int v, int lo, int hi)
{
	if (v >= lo && v <= hi)
		return 0;
	pr_err(EMRCU_NAME ": %s=%d out of range [%d, %d]\n", name, v, lo, hi);
	return -EINVAL;
}

static int __init emrcu_thermal_params_check(void)
{
	int i;

	emrcu_drv_mode = -1;
	for (i = 0; i < EMRCU_DRV_NR; i++)
		if (sysfs_streq(drv, emrcu_drv_modes[i]))
			emrcu_drv_mode = i;
	if (emrcu_drv_mode < 0) {
		pr_err(EMRCU_NAME ": drv=%s unknown (none, runtime, oracle, meter)\n",
		       drv);
		return -EINVAL;
	}
	if (emrcu_drv_mode != EMRCU_DRV_NONE && !EMRCU_RUNTIME_EM) {
		pr_err(EMRCU_NAME ": drv=%s needs a kernel with the runtime-modifiable EM\n",
		       drv);
		return -EINVAL;
	}
	if (emrcu_drv_mode == EMRCU_DRV_ORACLE && !thermal) {
		pr_err(EMRCU_NAME ": drv=oracle needs thermal=1 (without it, em_update pushes the truth)\n");
		return -EINVAL;
	}
	return emrcu_range("sensor_lag_ms", emrcu_sensor_lag_ms, 0, 60000) ?:
	       emrcu_range("sensor_quant_mc", emrcu_sensor_quant_mc, 0, 10000) ?:
	       emrcu_range("sensor_noise_mc", emrcu_sensor_noise_mc, 0, 10000) ?:
	       emrcu_range("drv_period_ms", emrcu_drv_period_ms,
			   EMRCU_DRV_PERIOD_MIN_MS, EMRCU_DRV_PERIOD_MAX_MS) ?:
	       emrcu_range("drv_leak_pct", emrcu_drv_leak_pct, 0, 1000);
}

static int __init emrcu_params_check(struct emrcu_cond *c)
{
	int i;

	if (emrcu_max_opps < 0 || emrcu_max_opps > EMRCU_MAX_OPPS) {
		pr_err(EMRCU_NAME ": max_opps=%d out of range [0, %d]\n",
		       emrcu_max_opps, EMRCU_MAX_OPPS);
		return -EINVAL;
	}
	if (temperature < EMRCU_TEMP_MIN_MC || temperature > EMRCU_TEMP_MAX_MC) {
		pr_err(EMRCU_NAME ": temperature=%d out of range [%d, %d] m°C\n",
		       temperature, EMRCU_TEMP_MIN_MC, EMRCU_TEMP_MAX_MC);
		return -EINVAL;
	}
	if (bin_mv < EMRCU_BIN_MIN_MV || bin_mv > EMRCU_BIN_MAX_MV) {
		pr_err(EMRCU_NAME ": bin_mv=%d out of range [%d, %d] mV\n",
		       bin_mv, EMRCU_BIN_MIN_MV, EMRCU_BIN_MAX_MV);
		return -EINVAL;
	}
	c->temp_mc = temperature;
	c->bin_mv = bin_mv;
	c->profile = emrcu_profile_index(profile);
	if (c->profile < 0) {
		pr_err(EMRCU_NAME ": profile=%s unknown (nominal, memory, fp)\n",
		       profile);
		return -EINVAL;
	}
	for (i = 0; i < nr_test_pds; i++) {
		if (test_pds[i] < 1 || test_pds[i] > EMRCU_MAX_TEST_PD_OPPS) {
			pr_err(EMRCU_NAME ": test_pds: entry %d = %d out of range [1, %d]\n",
			       i, test_pds[i], EMRCU_MAX_TEST_PD_OPPS);
			return -EINVAL;
		}
	}
	return 0;
}

static int __init emrcu_init(void)
{
	struct emrcu_cond c;
	int ret, i;

	ret = emrcu_model_check();
	if (ret)
		return ret;
	ret = emrcu_params_check(&c) ?: emrcu_thermal_params_check();
	if (ret)
		return ret;
	emrcu_thermal_on = thermal;
	emrcu_ambient_mc = c.temp_mc;
	emrcu_thermal_seed(seed);
	ret = emrcu_clusters_init(classes);
	if (ret)
		return ret;
	ret = emrcu_em_check_existing();
	if (ret)
		return ret;

	mutex_lock(&emrcu_cond_lock);
	emrcu_cond = c;
	for (i = 0; i < emrcu_nr_clusters; i++)
		emrcu_clusters[i].temp_mc = c.temp_mc;
	emrcu_meter_set_cond(&c);
	mutex_unlock(&emrcu_cond_lock);

	ret = emrcu_meter_start(meter);
	if (ret)
		goto err_meter;
	ret = emrcu_cpufreq_register();
	if (ret)
		goto err_meter;
	emrcu_em_boot();
	ret = emrcu_test_pds_create(test_pds, nr_test_pds);
	if (ret)
		goto err_cpufreq;
	ret = emrcu_thermal_start();
	if (ret)
		goto err_tpds;
	ret = emrcu_drv_start();
	if (ret)
		goto err_thermal;
	ret = emrcu_debugfs_init();
	if (ret)
		goto err_drv;
	pr_info(EMRCU_NAME ": %d clusters, %d test PDs, meter %s, runtime EM %s, thermal %s, EM driver %s\n",
		emrcu_nr_clusters, emrcu_nr_tpds, meter ? "on" : "off",
		EMRCU_RUNTIME_EM ? "yes" : "no", thermal ? "on" : "off", drv);
	return 0;

err_drv:
	emrcu_drv_stop();
err_thermal:
	emrcu_thermal_stop();
err_tpds:
	emrcu_test_pds_destroy();
err_cpufreq:
	emrcu_cpufreq_unregister();
err_meter:
	emrcu_meter_stop();
	return ret;
}

static void __exit emrcu_exit(void)
{
	emrcu_debugfs_exit();
	emrcu_drv_stop();
	emrcu_thermal_stop();
	emrcu_test_pds_destroy();
	emrcu_cpufreq_unregister();
	emrcu_meter_stop();
}

module_init(emrcu_init);
module_exit(emrcu_exit);
MODULE_DESCRIPTION("emrcu-bench virtual platform: per-cluster cpufreq, EM, power model, energy meter");
MODULE_LICENSE("GPL");
