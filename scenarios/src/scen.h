/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scen.h - one declared scenario (scenarios/NAME.conf), parsed and checked.
 *
 * Fields (README.md has the full reference):
 *   name, description, kind (kind.c: energy | placement | shared | latency),
 *   topology (default | COUNTxCAP+...), runs (VARIANT[:static|:runtime]...),
 *   mode (realtime | deterministic), boots, timeout_s, platform;
 *   energy/placement/shared: warmup_ms, phase_ms, slice_us, engine, temperature,
 *   profile, bin_mv, knob + timeline (energy), workload (repeatable),
 *   pass.* thresholds;
 *   energy/placement: driver (characterised | meter: what runtime@P runs);
 *   energy with heat (the truth's thermal dynamics, emrcu_platform
 *   thermal=1): heat, sensor_lag_ms, sensor_quant_mc, sensor_noise_mc,
 *   driver_leak_pct;
 *   latency: duration_s, interval_us, priority, hist_us, loads,
 *   bench_readers, bench_loops, pass.noise_factor, pass.noise_floor_pct,
 *   pass.noise_max_pct, pass.min_boots;
 *   wakeup: tasks, period_us, run_us, duration_s, loads, bench_readers,
 *   bench_loops, wake_function, energy_function, pass.min_wakeups,
 *   pass.min_energy_calls_per_wakeup.
 */
#ifndef EMRCU_SCEN_SCEN_H
#define EMRCU_SCEN_SCEN_H

#include <stddef.h>

#include "emrcu/conf.h"
#include "emrcu/topo.h"

#define SCEN_MAX_RUNS 10
#define SCEN_MAX_STEPS 24
#define SCEN_MAX_WORKLOADS 12
#define SCEN_MAX_TASKS 8	/* expanded (count=) tasks per workload */
#define SCEN_MAX_PHASES 16	/* = the guest's PLAN_MAX_PHASES */
#define SCEN_MAX_LOADS 8
#define SCEN_MAX_BOOTS 50
#define SCEN_NAME_LEN 40
#define SCEN_MAX_HEAT 16	/* EMRCU_HEAT_MAX_POINTS */

struct scen_kind;
enum scen_knob { KNOB_NONE, KNOB_TEMPERATURE, KNOB_PROFILE, KNOB_BIN };
/*
 * Which EM a run prices with.  static: as registered at boot.  oracle: the
 * truth pushed into the EM (every step; with heat, every thermal tick): an
 * upper bound by construction, never a finding.  runtime: the platform's EM
 * driver every period_ms: characterised (a sensor and its own model; needs
 * heat) or meter (a nominal model scaled from the cluster's energy counter:
 * knows neither bin nor profile).
 * best-static: the truth at each die's time-weighted mean temperature of a
 * pilot pass, pushed once: the best any static EM could do (needs heat).
 */
enum scen_em { EM_STATIC, EM_ORACLE, EM_RUNTIME, EM_BEST_STATIC };
/* emulated: guest/load.h (work scales with capacity x OPP); rt-app:
 * Debian's rt-app runs the same tasks from generated JSON (its busy loop
 * takes the same time on every vCPU: see README.md). */
enum scen_engine { ENGINE_EMULATED, ENGINE_RTAPP };

struct scen_run {
	char variant[SCEN_NAME_LEN];
	enum scen_em em;
	int period_ms;			/* runtime */
	char em_name[24];		/* "static", "runtime@100", ... */
};

struct scen_cond {
	int temp_mc;
	char profile[24];
	int bin_mv;
	char label[SCEN_NAME_LEN];	/* block-name safe, e.g. s3_85C */
};

struct scen_task {
	char name[SCEN_NAME_LEN];	/* unique: base name + .index */
	int nphases;
	double util[SCEN_MAX_PHASES];	/* % of capacity 1024 at fmax */
	int period_us;
	int cluster;			/* pinned to the cluster of this
					 * capacity rank; -1: anywhere */
	int profile;			/* model profile; -1: the platform's */
};

struct scen_workload {
	char name[SCEN_NAME_LEN];
	int ntasks;
	struct scen_task t[SCEN_MAX_TASKS];
	int phase_ms;			/* one phase; 0: the scenario's */
	double max_over_optimal_pct;	/* placement threshold, <0: none */
};

struct scen_latency {
	int duration_s, interval_us, priority, hist_us;
	int nsecs;	/* cyclictest -N: histogram bins of 1 ns */
	int nloads;
	int load_hz[SCEN_MAX_LOADS];	/* 0: idle */
	char readers[32];		/* "last" or a cpulist */
	int loops;
	double noise_factor, noise_floor_pct, noise_max_pct;
	int min_boots;	/* baseline boots below which nothing resolves */
	int judge_p50;	/* pass.p50: 0, p50 reported only */
};

/* wakeup: the EAS wakeup path in situ, counted from QEMU's exec log. */
struct scen_wakeup {
	int tasks, period_us, run_us, duration_s;	/* rt-app per load */
	char wake_fn[48];	/* its calls are the wakeups (feec inlined) */
	char energy_fn[48];	/* called per candidate (em_cpu_energy inlined) */
	int min_wakeups;	/* pass.min_wakeups, < 0: none */
	double min_energy_calls;	/* pass.min_energy_calls_per_wakeup */
};

struct scenario {
	char path[256];
	char name[SCEN_NAME_LEN];
	char description[256];
	const struct scen_kind *kind;	/* kind.h */
	char topo_spec[128];
	struct topo topo;
	int nruns;
	struct scen_run run[SCEN_MAX_RUNS];
	char mode[16];
	int boots, timeout_s;
	char platform[128];

	/* energy, placement, shared */
	int warmup_ms, phase_ms, slice_us;
	enum scen_engine engine;
	enum scen_knob knob;
	int nsteps;
	struct scen_cond step[SCEN_MAX_STEPS];	/* energy: the timeline;
						 * else one condition */
	int nworkloads;
	struct scen_workload w[SCEN_MAX_WORKLOADS];
	double oracle_abs_err_pct_max;		/* energy, <0: none */
	double static_abs_err_pct_min;		/* energy, last step, <0: none */
	/* energy with runtime runs, <0: none (verdict.h says what each judges) */
	double runtime_above_oracle_pp, runtime_monotone_pp;
	double runtime_vs_best_static_pp, runtime_abs_err_pct_min;
	double runtime_vs_static_pp;		/* <= -1000: none */
	double runtime_opp_err_pct_min;
	double task_profile_pct_min;		/* energy, <0: none */
	double aa_static_pp;
	double invisible_pct_min;		/* shared, <0: none */
	double em_choice_pct_max;		/* placement, <0: none */
	/* placement, paired per boot (sign test, verdict.h), <0: none */
	double paired_p_max, aa_p_min;
	double tie_pp;		/* placement: |d| <= this is a tie (pp) */

	/* energy with heat; -1: the platform's default (model_data.h) */
	int heat, nheat;
	int heat_ms[SCEN_MAX_HEAT], heat_mw[SCEN_MAX_HEAT];
	int sensor_lag_ms, sensor_quant_mc, sensor_noise_mc, driver_leak_pct;
	int driver_meter;	/* runtime@P: emrcu_platform drv=meter */

	struct scen_latency lat;	/* latency; wakeup: its loads */
	struct scen_wakeup wake;
	/* --inject: em_bench parameters of every run but the first, the
	 * negative control of a latency or wakeup verdict ("" none) */
	char inject[128];
};

/* Command-line replacements of fields (NULL: the file's). */
struct scen_override {
	const char *topo;	/* TOPO= */
	const char *runs;	/* --runs */
	const char *inject;	/* --inject */
};

/*
 * Parse and check @path.  0, or -1 with "FILE:LINE: field F: reason" (or
 * "FILE: field F: reason" for missing fields) in err.
 */
int scen_load(const char *path, int quick, const struct scen_override *ov,
	      struct scenario *s, char *err, size_t errlen);
int scen_parse(const char *path, const char *text, int quick,
	       const struct scen_override *ov, struct scenario *s, char *err,
	       size_t errlen);

const char *scen_em_name(enum scen_em e);
/* A run's label, "VARIANT:EM" ("VARIANT" for latency). */
void scen_run_name(const struct scenario *s, int r, char *out, size_t len);

/* Index of the cluster of capacity rank @rank (0 = lowest), or -1. */
int scen_cluster_of_rank(const struct topo *t, int rank);

#endif
