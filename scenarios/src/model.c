// SPDX-License-Identifier: GPL-2.0
#include "model.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define EMRCU_MODEL_DATA_DEFINE
#include "model_data.h"

int model_temp_min_mc(void)
{
	return EMRCU_TEMP_MIN_MC;
}

int model_temp_max_mc(void)
{
	return EMRCU_TEMP_MAX_MC;
}

int model_bin_min_mv(void)
{
	return EMRCU_BIN_MIN_MV;
}

int model_bin_max_mv(void)
{
	return EMRCU_BIN_MAX_MV;
}

int model_nr_profiles(void)
{
	return emrcu_nr_profiles;
}

const char *model_profile_name(int i)
{
	return i >= 0 && i < emrcu_nr_profiles ? emrcu_profile_data[i].name : NULL;
}

int model_profile_index(const char *name)
{
	int i;

	for (i = 0; i < emrcu_nr_profiles; i++)
		if (!strcmp(name, emrcu_profile_data[i].name))
			return i;
	return -1;
}

const char *model_task_comm(int i)
{
	static char buf[EMRCU_NR_PROFILES][16];

	if (i < 0 || i >= emrcu_nr_profiles ||
	    (size_t)snprintf(buf[i], sizeof(buf[i]), "%s%s",
			     EMRCU_TASK_PROFILE_PREFIX,
			     emrcu_profile_data[i].name) >= sizeof(buf[i]))
		return NULL;
	return buf[i];
}

const char *model_profile_list(void)
{
	static char buf[256];
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < emrcu_nr_profiles && len < sizeof(buf) - 40; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? ", " : "", emrcu_profile_data[i].name);
	return buf;
}

int model_ext_heat_max_mw(void)
{
	return EMRCU_EXT_HEAT_MAX_MW;
}

int model_r_ext_max_mc_per_w(void)
{
	unsigned int m = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(emrcu_class_data); i++)
		if (emrcu_class_data[i].r_ext_mc_per_w > m)
			m = emrcu_class_data[i].r_ext_mc_per_w;
	return (int)m;
}

int model_cal_last_mc(void)
{
	return EMRCU_DRV_CAL_LAST_MC;
}

int model_drv_period_min_ms(void)
{
	return EMRCU_DRV_PERIOD_MIN_MS;
}

int model_drv_period_max_ms(void)
{
	return EMRCU_DRV_PERIOD_MAX_MS;
}

int model_thermal_tick_ms(void)
{
	return EMRCU_THERMAL_TICK_MS;
}
