/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emrcu_platform: what other modules (em_bench) use of the virtual platform.
 * All three are EXPORT_SYMBOL_GPL; em_bench resolves them with symbol_get().
 */
#ifndef EMRCU_PLATFORM_H
#define EMRCU_PLATFORM_H

struct device;

/* Number of test perf domains created by the test_pds= module parameter. */
int emrcu_platform_nr_test_pds(void);

/* Device of test perf domain @i (0 <= i < nr), or NULL. */
struct device *emrcu_platform_test_pd(int i);

/*
 * True busy power (uW) of one CPU of @dev's cluster (a CPU device) or of the
 * test device @dev, at the lowest OPP >= @freq_khz, at temperature @temp_mc
 * (m°C) and the current workload profile and chip bin.  Sleepable or atomic
 * context; takes no lock.  0 or -EINVAL (unknown device, @freq_khz above the
 * highest OPP, @temp_mc out of range).
 */
int emrcu_model_power(struct device *dev, unsigned long freq_khz, int temp_mc,
		      unsigned long *uw);

#endif /* EMRCU_PLATFORM_H */
