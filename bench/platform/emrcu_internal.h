/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emrcu_platform internals: clusters, conditions, power model, meter.
 */
#ifndef EMRCU_INTERNAL_H
#define EMRCU_INTERNAL_H

#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "model_data.h"

#define EMRCU_NAME "emrcu_platform"

/* Kbuild defines EMRCU_HAVE_RUNTIME_EM when the kernel has the series. */
#ifdef EMRCU_HAVE_RUNTIME_EM
#define EMRCU_RUNTIME_EM 1
#else
#define EMRCU_RUNTIME_EM 0
#endif

/* One OPP as the platform uses it. */
struct emrcu_opp {
	unsigned int khz;	/* virtual: what cpufreq and the EM see */
	unsigned int phys_khz;	/* published: what power is computed from */
	unsigned int uv;	/* published voltage, before the bin offset */
};

/* Operating conditions that the true power depends on. */
struct emrcu_cond {
	int temp_mc;
	int profile;		/* index into emrcu_profile_data[] */
	int bin_mv;
};

struct emrcu_cluster_meter {
	u64 shared_fj;		/* cluster-shared (DSU/L3) energy */
	u64 any_busy_ns;	/* time with at least one CPU busy */
	u64 opp_ns[EMRCU_MAX_OPPS];	/* residency per OPP */
	u64 profile_busy_ns[EMRCU_NR_PROFILES];	/* CPU-busy time per profile */
	u64 freq_changes;
	u64 since_ns;		/* last reset */
};

struct emrcu_cpu_meter {
	u64 energy_fj;		/* busy + idle energy of this CPU */
	u64 busy_fj;		/* the busy part (what the EM models) */
	u64 em_fj;		/* the EM in effect's estimate of busy_fj */
	u64 busy_ns;
	u64 busy_opp_ns[EMRCU_MAX_OPPS];
	u64 switches;		/* busy <-> idle transitions */
};

struct emrcu_cluster {
	int id;
	int cls;			/* enum emrcu_class_id */
	unsigned long capacity;		/* arch_scale_cpu_capacity() */
	struct cpumask cpus;
	int nr_cpus;
	int nr_opps;
	struct emrcu_opp opp[EMRCU_MAX_OPPS];
	struct cpufreq_frequency_table freq_table[EMRCU_MAX_OPPS + 1];

	/* Everything below is protected by @lock. */
	raw_spinlock_t lock;
	int cur;			/* current OPP index (virtual hw) */
	u64 last_ns;			/* meter integrated up to here */
	unsigned int nr_busy;
	int profile;				/* the platform's, of busy_uw */
	/* per busy CPU, now, under each profile (model_data.h) */
	unsigned long busy_uw[EMRCU_NR_PROFILES][EMRCU_MAX_OPPS];
	unsigned long idle_uw[EMRCU_MAX_OPPS];	/* per idle CPU, now */
	unsigned long shared_uw;		/* while nr_busy > 0, now */
	unsigned long em_uw[EMRCU_MAX_OPPS];	/* the EM in effect, per CPU */
	int temp_mc;				/* of busy_uw, idle_uw */
	u64 total_fj;				/* since load, never reset: */
	u64 busy_total_fj, em_total_fj;		/* ... busy, EM's estimate */
	struct emrcu_cluster_meter m;
};

struct emrcu_cpu {
	struct emrcu_cluster *cl;
	bool busy;			/* written by its own CPU under cl->lock */
	int profile;			/* of the task running: -1 the platform's */
	struct emrcu_cpu_meter m;
};

struct emrcu_test_pd {
	struct device *dev;
	int nr_opps;
	struct emrcu_opp *opp;
};

extern struct emrcu_cluster emrcu_clusters[NR_CPUS];
extern int emrcu_nr_clusters;
extern struct emrcu_cpu emrcu_cpus[NR_CPUS];
extern struct emrcu_test_pd emrcu_test_pds[EMRCU_MAX_TEST_PDS];
extern int emrcu_nr_tpds;
extern int emrcu_max_opps;

/* Current conditions; writers hold emrcu_cond_lock, readers READ_ONCE. */
extern struct emrcu_cond emrcu_cond;
extern struct mutex emrcu_cond_lock;
extern const struct emrcu_cond emrcu_cond_nominal;

/* model.c: the ground-truth power model (pure functions). */
unsigned long emrcu_power_leak(int cls, const struct emrcu_opp *opp,
			       const struct emrcu_cond *c);
unsigned long emrcu_power_dyn(int cls, const struct emrcu_opp *opp,
			      const struct emrcu_cond *c);
unsigned long emrcu_power_busy(int cls, const struct emrcu_opp *opp,
			       const struct emrcu_cond *c);
void emrcu_power_opp(int cls, const struct emrcu_opp *opp,
		     const struct emrcu_cond *c, unsigned long *busy,
		     unsigned long *idle);
unsigned long emrcu_power_shared(int cls, const struct emrcu_cond *c);
int emrcu_profile_index(const char *name);
int emrcu_cond_check(const struct emrcu_cond *c);
void emrcu_cond_read(struct emrcu_cond *c);
int emrcu_power_for_dev(struct device *dev, unsigned long freq_khz,
			const struct emrcu_cond *c, unsigned long *uw);
int emrcu_find_opp(const struct emrcu_opp *opp, int nr, unsigned long khz);
int emrcu_model_check(void);

/* cluster.c: topology -> clusters, classes, OPP tables. */
int emrcu_clusters_init(const char *classes);
int emrcu_class_index(const char *name);

/* meter.c: the true-energy meter. */
int emrcu_meter_start(bool probe);
void emrcu_meter_stop(void);
void emrcu_meter_set_opp(struct emrcu_cluster *cl, int idx);
void emrcu_meter_set_cond(const struct emrcu_cond *c);
void emrcu_meter_set_cluster_temp(struct emrcu_cluster *cl, int temp_mc);
void emrcu_meter_set_em(struct emrcu_cluster *cl, const unsigned long *uw);
void emrcu_em_snapshot(struct emrcu_cluster *cl, unsigned long *uw);
struct emrcu_totals {
	u64 now, fj, busy_fj, em_fj;
};

void emrcu_meter_total(struct emrcu_cluster *cl, struct emrcu_totals *t);
void emrcu_meter_reset(void);
void emrcu_meter_snapshot(struct emrcu_cluster *cl_out, struct emrcu_cpu *cpu_out,
			  u64 *now);
bool emrcu_meter_probing(void);

/* cpufreq.c */
int emrcu_cpufreq_register(void);
void emrcu_cpufreq_unregister(void);
int emrcu_em_check_existing(void);

/* thermal.c: the truth's thermal dynamics (thermal=1) and its sensor. */
/*
 * tick_*: the EM's error resolved at the thermal tick: per tick the busy
 * energy and the EM's estimate of it; abs_err sums |EM - busy| per tick.
 */
struct emrcu_thermal_stats {
	int now_mc, sensor_mc, mean_mc, min_mc, max_mc;
	int sens_err_mean_mc;
	u64 sens_reads;
	u64 tick_busy_fj, tick_em_fj, tick_abs_err_fj;
	unsigned int ext_mw;
};

extern int emrcu_thermal_on;
extern int emrcu_ambient_mc;
extern int emrcu_sensor_lag_ms, emrcu_sensor_quant_mc, emrcu_sensor_noise_mc;
int emrcu_thermal_start(void);
void emrcu_thermal_stop(void);
void emrcu_thermal_seed(u64 seed);
void emrcu_thermal_reset(void);
void emrcu_thermal_reset_stats(void);
int emrcu_thermal_set_heat(const unsigned int *t_ms, const unsigned int *mw,
			   int n);
int emrcu_thermal_die_mc(int cluster);
int emrcu_thermal_sensor_mc(int cluster);
void emrcu_thermal_stats(int cluster, struct emrcu_thermal_stats *st);

/*
 * emdrv.c: the Energy Model in effect (read back from the kernel) and, on
 * kernels with the series, the EM driver kthread (drv=).
 */
enum emrcu_drv_mode {
	EMRCU_DRV_NONE, EMRCU_DRV_RUNTIME, EMRCU_DRV_ORACLE, EMRCU_DRV_METER,
	EMRCU_DRV_NR
};

extern const char *const emrcu_drv_modes[EMRCU_DRV_NR];

/*
 * update_*: each em_dev_update_perf_domain() call (the series' cost);
 * iter_*: each driver iteration (sensor reads, its model, every update).
 * In deterministic mode a call that spans a vCPU switch also counts the
 * other vCPUs' instructions: min is the uncontaminated cost.
 */
struct emrcu_drv_stats {
	u64 updates, update_ns_sum, update_ns_min, update_ns_max, failed;
	u64 iters, iter_ns_sum, iter_ns_min;
	u64 first_ns, last_ns;	/* first and last update of the window */
	int last_rc;
};

extern int emrcu_drv_mode, emrcu_drv_period_ms, emrcu_drv_leak_pct;
void emrcu_em_boot(void);
void emrcu_em_refresh(struct emrcu_cluster *cl);
int emrcu_em_marks(struct emrcu_cluster *cl, unsigned long *em,
		   unsigned long *cpufreq);
int emrcu_em_push_truth(const int *temp_mc, const char *why);
#define EMRCU_MEAN_MAX_CONDS	32
int emrcu_em_push_mean(const struct emrcu_cond *c, const unsigned int *w,
		       int n);
int emrcu_drv_start(void);
void emrcu_drv_stop(void);
void emrcu_drv_stats(struct emrcu_drv_stats *st);
void emrcu_drv_reset_stats(void);
u32 emrcu_drv_scale_ppm(int cluster);
const char *emrcu_em_source(void);

/* testpd.c */
int emrcu_test_pds_create(const int *nr_opps, int n);
void emrcu_test_pds_destroy(void);

/* debugfs.c */
int emrcu_debugfs_init(void);
void emrcu_debugfs_exit(void);

#endif /* EMRCU_INTERNAL_H */
