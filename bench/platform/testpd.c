// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu_platform: test perf domains on devices the module creates (non-CPU,
 * like a GPU), so em_bench can measure update cost against OPP count.
 */
#include <linux/device.h>
#include <linux/energy_model.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/slab.h>

#include "emrcu_internal.h"
#include "emrcu_platform.h"

struct emrcu_test_pd emrcu_test_pds[EMRCU_MAX_TEST_PDS];
int emrcu_nr_tpds;

static struct emrcu_test_pd *emrcu_tpd_of(struct device *dev)
{
	int i;

	for (i = 0; i < emrcu_nr_tpds; i++)
		if (emrcu_test_pds[i].dev == dev)
			return &emrcu_test_pds[i];
	return NULL;
}

static int emrcu_tpd_active_power(struct device *dev, unsigned long *power,
				  unsigned long *freq)
{
	struct emrcu_test_pd *t = emrcu_tpd_of(dev);
	int idx;

	if (!t)
		return -EINVAL;
	idx = emrcu_find_opp(t->opp, t->nr_opps, *freq);
	if (idx < 0)
		return -EINVAL;
	*freq = t->opp[idx].khz;
	*power = emrcu_power_busy(EMRCU_TEST_PD_CLASS, &t->opp[idx],
				  &emrcu_cond_nominal);
	return 0;
}

/* N OPPs evenly spaced over the test range (model_data.h). */
static void emrcu_tpd_fill(struct emrcu_test_pd *t)
{
	int i, n = t->nr_opps;

	for (i = 0; i < n; i++) {
		int num = n == 1 ? 1 : i, den = n == 1 ? 1 : n - 1;

		t->opp[i].khz = EMRCU_TEST_PD_MIN_KHZ +
			(EMRCU_TEST_PD_MAX_KHZ - EMRCU_TEST_PD_MIN_KHZ) / den * num;
		t->opp[i].phys_khz = t->opp[i].khz;
		t->opp[i].uv = EMRCU_TEST_PD_MIN_UV +
			(EMRCU_TEST_PD_MAX_UV - EMRCU_TEST_PD_MIN_UV) / den * num;
	}
}

int emrcu_test_pds_create(const int *nr_opps, int n)
{
	struct em_data_callback cb = EM_DATA_CB(emrcu_tpd_active_power);
	char name[32];
	int i, ret;

	for (i = 0; i < n; i++) {
		struct emrcu_test_pd *t = &emrcu_test_pds[i];

		t->nr_opps = nr_opps[i];
		t->opp = kcalloc(t->nr_opps, sizeof(*t->opp), GFP_KERNEL);
		if (!t->opp) {
			ret = -ENOMEM;
			goto err;
		}
		emrcu_tpd_fill(t);
		snprintf(name, sizeof(name), "emrcu_tpd%d", i);
		t->dev = root_device_register(name);
		if (IS_ERR(t->dev)) {
			ret = PTR_ERR(t->dev);
			t->dev = NULL;
			kfree(t->opp);
			goto err;
		}
		emrcu_nr_tpds = i + 1;
		ret = em_dev_register_perf_domain(t->dev, t->nr_opps, &cb, NULL,
						  true);
		if (ret) {
			pr_err(EMRCU_NAME ": test_pds: %s (%d OPPs): em_dev_register_perf_domain: %d\n",
			       name, t->nr_opps, ret);
			goto err;
		}
	}
	return 0;
err:
	emrcu_test_pds_destroy();
	return ret;
}

void emrcu_test_pds_destroy(void)
{
	int i;

	for (i = emrcu_nr_tpds - 1; i >= 0; i--) {
		struct emrcu_test_pd *t = &emrcu_test_pds[i];

		em_dev_unregister_perf_domain(t->dev);
		root_device_unregister(t->dev);
		kfree(t->opp);
		t->dev = NULL;
		t->opp = NULL;
	}
	emrcu_nr_tpds = 0;
}

int emrcu_platform_nr_test_pds(void)
{
	return emrcu_nr_tpds;
}
EXPORT_SYMBOL_GPL(emrcu_platform_nr_test_pds);

struct device *emrcu_platform_test_pd(int i)
{
	if (i < 0 || i >= emrcu_nr_tpds)
		return NULL;
	return emrcu_test_pds[i].dev;
}
EXPORT_SYMBOL_GPL(emrcu_platform_test_pd);
