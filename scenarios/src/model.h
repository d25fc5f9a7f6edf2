/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - the platform's declared ranges and profile names, on the host.
 * They come from bench/platform/model_data.h itself (model.c includes it),
 * so a scenario is checked against the constants the guest module uses.
 */
#ifndef EMRCU_SCEN_MODEL_H
#define EMRCU_SCEN_MODEL_H

int model_temp_min_mc(void);
int model_temp_max_mc(void);
int model_bin_min_mv(void);
int model_bin_max_mv(void);
int model_nr_profiles(void);
const char *model_profile_name(int i);
/* Index of a profile name, or -1. */
int model_profile_index(const char *name);
/* Comma-separated profile names, for messages. */
const char *model_profile_list(void);
/*
 * The thread name that makes the platform run a task under profile @i
 * (EMRCU_TASK_PROFILE_PREFIX NAME), or NULL for an unknown profile or a
 * name longer than a task's comm (15 characters).
 */
const char *model_task_comm(int i);
/* Thermal dynamics and EM driver limits (heat scenarios). */
int model_ext_heat_max_mw(void);
int model_r_ext_max_mc_per_w(void);	/* the most coupled class */
int model_cal_last_mc(void);		/* the driver's last calibration point */
int model_drv_period_min_ms(void);
int model_drv_period_max_ms(void);
int model_thermal_tick_ms(void);

#endif
