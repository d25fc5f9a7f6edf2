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
	u64 freq_changes;
	u64 since_ns;		/* last reset */
};

struct emrcu_cpu_meter {
	u64 energy_fj;		/* busy + idle energy of this CPU */
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
	unsigned long busy_uw[EMRCU_MAX_OPPS];	/* per busy CPU, now */
	unsigned long idle_uw[EMRCU_MAX_OPPS];	/* per idle CPU, now */
	unsigned long shared_uw;		/* while nr_busy > 0, now */
	struct emrcu_cluster_meter m;
};

struct emrcu_cpu {
	struct emrcu_cluster *cl;
	bool busy;			/* written by its own CPU under cl->lock */
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
unsigned long emrcu_power_busy(int cls, const struct emrcu_opp *opp,
			       const struct emrcu_cond *c);
unsigned long emrcu_power_idle(int cls, const struct emrcu_opp *opp,
			       const struct emrcu_cond *c);
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
void emrcu_meter_reset(void);
void emrcu_meter_snapshot(struct emrcu_cluster *cl_out, struct emrcu_cpu *cpu_out,
			  u64 *now);
bool emrcu_meter_probing(void);

/* cpufreq.c */
int emrcu_cpufreq_register(void);
void emrcu_cpufreq_unregister(void);
int emrcu_em_check_existing(void);

/* testpd.c */
int emrcu_test_pds_create(const int *nr_opps, int n);
void emrcu_test_pds_destroy(void);

/* debugfs.c */
int emrcu_debugfs_init(void);
void emrcu_debugfs_exit(void);

#endif /* EMRCU_INTERNAL_H */
