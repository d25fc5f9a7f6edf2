/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What em_bench uses of emrcu_platform (bench/platform): the ground-truth
 * power model and the update-cost test perf domains.  em_bench resolves them
 * with symbol_get() at run time, so it loads (readers only) without it.
 */
#ifndef EM_BENCH_PLATFORM_H
#define EM_BENCH_PLATFORM_H

#ifdef EMRCU_HAVE_PLATFORM_H
#include <emrcu_platform.h>
#else
struct device;

int emrcu_platform_nr_test_pds(void);
struct device *emrcu_platform_test_pd(int i);
int emrcu_model_power(struct device *dev, unsigned long freq_khz, int temp_mc,
		      unsigned long *uw);
#endif

#endif /* EM_BENCH_PLATFORM_H */
