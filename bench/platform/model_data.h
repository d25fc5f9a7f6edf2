/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emrcu_platform: every constant of the virtual platform, declared once.
 *
 * Included by the module (through emrcu_internal.h; model.c alone defines
 * EMRCU_MODEL_DATA_DEFINE and so the tables) and by the host's scenario
 * driver (scenarios/src/model.c: the ranges it checks declarations
 * against); every value here is printed by debugfs `params`.
 *
 * Units: frequencies in kHz, voltages in uV, power in uW, temperatures in
 * milli-degrees Celsius (m°C), percentages in %.
 *
 * Source [GS101]: Linux mainline arch/arm64/boot/dts/exynos/google/gs101.dtsi
 *   (Google Tensor GS101, Pixel 6; torvalds/linux, added in v6.8): the OPP
 *   tables cpucl0/1/2_opp_table (opp-hz, opp-microvolt), the CPUs'
 *   dynamic-power-coefficient (70 / 284 / 650) and capacity-dmips-mhz
 *   (250 / 620 / 1024) of the Cortex-A55 / A76 / X1 clusters.
 * Source [LWN]: "Reports from OSPM 2023, part 3", LWN, 2023-06-23, section
 *   "Dynamic Energy Model" (Lukasz Luba): DSU/L3 power of two tiny tasks
 *   "~35mW"; "~40mW means an average power of one [little] CPU core running
 *   at 1GHz, fully loaded"; CPU power at a fixed frequency varies between
 *   benchmarks.
 * Source [COVER]: cover letter of "[PATCH v2 00/17] Introduce runtime
 *   modifiable Energy Model" (Lukasz Luba, 2023-05-12): leakage grows with
 *   the SoC temperature (hot GPU/ISP), "HP cells have bigger leakage" than LP
 *   cells; EM derived from a benchmark (e.g. Dhrystone) may not fit the
 *   running workload; chip binning known only after boot.
 * Source [LPC22]: reference [1] of [COVER], LPC 2022 "Dynamic Energy Model to
 *   handle leakage power": big-CPU power ~18-20 % higher when a hot GPU heats
 *   the SoC.  (Figure as quoted in the project brief; the slides are not in
 *   the offline reference set, so it is a calibration target, not a
 *   re-checked number.)
 * Source [TEMP]: K. De Vogeleer et al., "Modeling the Temperature Bias of
 *   Power Consumption for Nanometer-Scale CPUs in Application Processors",
 *   arXiv:1404.3381: the power/temperature relation of application
 *   processors is exponential over 20-85 °C.
 * [ASSUMED]: a modelling choice of this project, no published figure; the
 *   comment says what it was chosen for.
 */
#ifndef EMRCU_MODEL_DATA_H
#define EMRCU_MODEL_DATA_H

/*
 * Common maximum frequency of every CPU class.  arch_topology renormalises
 * cpu_capacity = capacity-dmips-mhz x cluster fmax (biggest = 1024) once every
 * CPU has a cpufreq policy; with one fmax for all clusters that leaves
 * cpu_capacity = capacity-dmips-mhz scaled so that the biggest is 1024.  So a
 * topology's capacity-dmips-mhz values ARE the CPU capacities.  The published
 * OPP frequencies of a class are scaled linearly onto [.., EMRCU_FMAX_KHZ]
 * (virtual kHz, what cpufreq and the EM see); power is computed from the
 * published (physical) frequency.  A linear rescale of the frequency axis
 * leaves every EM cost (power x fmax / f) and every relative performance
 * level (f / fmax) unchanged.  To reproduce Pixel 6's real capacities give
 * the topology 161 / 498 / 1024 (= 250 x 1803, 620 x 2253, 1024 x 2802 MHz
 * from [GS101], normalised).  [ASSUMED: 2 GHz is a round number]
 */
#define EMRCU_FMAX_KHZ		2000000

/* Nominal conditions: the EM registered at boot is the model at these. */
#define EMRCU_TEMP_NOMINAL_MC	25000	/* [ASSUMED] lab/room temperature */
#define EMRCU_TEMP_MIN_MC	(-40000)	/* [ASSUMED] junction range */
#define EMRCU_TEMP_MAX_MC	125000		/* [ASSUMED] junction range */
#define EMRCU_BIN_MIN_MV	(-50)	/* [COVER] binning; +-50 mV [ASSUMED] */
#define EMRCU_BIN_MAX_MV	50
#define EMRCU_BIN_NOMINAL_MV	0

/* cpufreq: virtual hardware switches instantly. [ASSUMED] */
#define EMRCU_TRANSITION_LATENCY_NS	10000
/* schedutil rate limit; = cpufreq's LATENCY_MULTIPLIER default (1000 us) */
#define EMRCU_TRANSITION_DELAY_US	1000

/* Largest published OPP table (big, 17 OPPs) and test-PD limits. */
#define EMRCU_MAX_OPPS		17
#define EMRCU_MAX_TEST_PDS	16
#define EMRCU_MAX_TEST_PD_OPPS	1024	/* [ASSUMED] update-cost sweep range */

enum emrcu_class_id {
	EMRCU_CLASS_LITTLE,
	EMRCU_CLASS_MID,
	EMRCU_CLASS_BIG,
	EMRCU_NR_CLASSES,
};

/* One published OPP: physical frequency and voltage. */
struct emrcu_opp_src {
	unsigned int khz;
	unsigned int uv;
};

struct emrcu_class_data {
	const char *name;
	const char *core;
	/* dynamic power P = C * V^2 * f, C in uW / (MHz * V^2) [GS101] */
	unsigned int dyn_coeff;
	/* leakage P = leak_uw_per_v * V * 2^((T - T_nom) / leak_double_mc) */
	unsigned int leak_uw_per_v;
	unsigned int leak_double_mc;
	/* an idle CPU burns this % of its leakage (no dynamic power) */
	unsigned int idle_leak_pct;
	/* cluster-shared (DSU/L3) power while any CPU of the cluster is busy */
	unsigned int shared_uw;
	/*
	 * Thermal RC model of the cluster's die (thermal=1, below):
	 * steady state T_amb + r_self * P_cluster + r_ext * P_ext, reached
	 * with time constant tau.  m°C per W, ms.
	 */
	unsigned int r_self_mc_per_w;
	unsigned int r_ext_mc_per_w;
	unsigned int tau_ms;
	const struct emrcu_opp_src *opps;
	unsigned int nr_opps;
	const char *source;
};

struct emrcu_profile_data {
	const char *name;
	unsigned int dyn_pct[EMRCU_NR_CLASSES];
	unsigned int shared_pct;
};

/*
 * The tables.  Only model.c defines EMRCU_MODEL_DATA_DEFINE, so they exist
 * once; everything else sees the extern declarations below.
 */
extern const struct emrcu_class_data emrcu_class_data[EMRCU_NR_CLASSES];
extern const struct emrcu_profile_data emrcu_profile_data[];
extern const int emrcu_nr_profiles;

/*
 * Per-task profiles: a task whose name (comm) is EMRCU_TASK_PROFILE_PREFIX
 * followed by a profile's name, alone or followed by '.', runs under that
 * profile's dynamic power; every other task under the platform's (debugfs
 * profile).  The cluster's shared power follows the platform's profile
 * [ASSUMED: the L3's load is not split per task].  What the meter, and so
 * the truth, integrates per busy CPU is the profile of the task running
 * there; the EM has one table per perf domain whatever runs.
 */
#define EMRCU_TASK_PROFILE_PREFIX	"emp."
#define EMRCU_NR_PROFILES		3

#ifdef EMRCU_MODEL_DATA_DEFINE

/* [GS101] cpucl0_opp_table (Cortex-A55) */
static const struct emrcu_opp_src emrcu_opps_little[] = {
	{  300000, 537500 }, {  574000, 600000 }, {  738000, 618750 },
	{  930000, 668750 }, { 1098000, 712500 }, { 1197000, 731250 },
	{ 1328000, 762500 }, { 1401000, 781250 }, { 1598000, 831250 },
	{ 1704000, 862500 }, { 1803000, 906250 },
};

/* [GS101] cpucl1_opp_table (Cortex-A76) */
static const struct emrcu_opp_src emrcu_opps_mid[] = {
	{  400000, 506250 }, {  553000, 537500 }, {  696000, 562500 },
	{  799000, 581250 }, {  910000, 606250 }, { 1024000, 625000 },
	{ 1197000, 662500 }, { 1328000, 687500 }, { 1491000, 731250 },
	{ 1663000, 775000 }, { 1836000, 818750 }, { 1999000, 868750 },
	{ 2130000, 918750 }, { 2253000, 968750 },
};

/* [GS101] cpucl2_opp_table (Cortex-X1) */
static const struct emrcu_opp_src emrcu_opps_big[] = {
	{  500000,  500000 }, {  851000,  556250 }, {  984000,  575000 },
	{ 1106000,  606250 }, { 1277000,  631250 }, { 1426000,  662500 },
	{ 1582000,  693750 }, { 1745000,  731250 }, { 1826000,  750000 },
	{ 2048000,  793750 }, { 2188000,  831250 }, { 2252000,  850000 },
	{ 2401000,  887500 }, { 2507000,  925000 }, { 2630000,  968750 },
	{ 2704000, 1000000 }, { 2802000, 1056250 },
};

/*
 * Leakage calibration [LPC22] [COVER] [TEMP] [ASSUMED]: exponential in T
 * (doubling every leak_double_mc), HP cells (big) leak more and faster than
 * LP cells (little).  leak_uw_per_v chosen so that, at the top OPP, heating
 * from 25 to 70 °C raises the CPU's total busy power by ~19 % on big (the
 * [LPC22] 18-20 %), ~10 % on mid and ~4 % on little; leakage is then 7.7 /
 * 5.5 / 2.8 % of the total at 25 °C.  Cross-check with [LWN]: little at
 * 1098 MHz / 712.5 mV = 70 * 0.7125^2 * 1098 = 39.0 mW dynamic, the "~40mW
 * ... one CPU core running at 1GHz".
 *
 * idle_leak_pct [ASSUMED]: idle CPUs are mostly power-collapsed (the [GS101]
 * cpu-idle-states are power-down C2 states); 10 % of the leakage remains.
 * shared_uw [LWN]: ~35 mW DSU/L3 power, the same for every cluster.
 */
const struct emrcu_class_data emrcu_class_data[EMRCU_NR_CLASSES] = {
	[EMRCU_CLASS_LITTLE] = {
		.name = "little", .core = "Cortex-A55",
		.dyn_coeff = 70,		/* [GS101] */
		.leak_uw_per_v = 3300,		/* [ASSUMED] calibrated, above */
		.leak_double_mc = 35000,	/* [ASSUMED] LP cells */
		.idle_leak_pct = 10,		/* [ASSUMED] */
		.shared_uw = 35000,		/* [LWN] */
		.r_self_mc_per_w = 12000,	/* [ASSUMED] thermal, below */
		.r_ext_mc_per_w = 7000,	/* [ASSUMED] */
		.tau_ms = 2000,			/* [ASSUMED] */
		.opps = emrcu_opps_little,
		.nr_opps = ARRAY_SIZE(emrcu_opps_little),
		.source = "gs101.dtsi cpucl0 (Pixel 6 Cortex-A55), dpc 70",
	},
	[EMRCU_CLASS_MID] = {
		.name = "mid", .core = "Cortex-A76",
		.dyn_coeff = 284,		/* [GS101] */
		.leak_uw_per_v = 36000,		/* [ASSUMED] calibrated, above */
		.leak_double_mc = 30000,	/* [ASSUMED] */
		.idle_leak_pct = 10,		/* [ASSUMED] */
		.shared_uw = 35000,		/* [LWN] */
		.r_self_mc_per_w = 8000,	/* [ASSUMED] thermal, below */
		.r_ext_mc_per_w = 9000,	/* [ASSUMED] */
		.tau_ms = 2000,			/* [ASSUMED] */
		.opps = emrcu_opps_mid,
		.nr_opps = ARRAY_SIZE(emrcu_opps_mid),
		.source = "gs101.dtsi cpucl1 (Pixel 6 Cortex-A76), dpc 284",
	},
	[EMRCU_CLASS_BIG] = {
		.name = "big", .core = "Cortex-X1",
		.dyn_coeff = 650,		/* [GS101] */
		.leak_uw_per_v = 160000,	/* [ASSUMED] calibrated, above */
		.leak_double_mc = 25000,	/* [ASSUMED] HP cells */
		.idle_leak_pct = 10,		/* [ASSUMED] */
		.shared_uw = 35000,		/* [LWN] */
		.r_self_mc_per_w = 6000,	/* [ASSUMED] thermal, below */
		.r_ext_mc_per_w = 10000,	/* [ASSUMED] */
		.tau_ms = 2000,			/* [ASSUMED] */
		.opps = emrcu_opps_big,
		.nr_opps = ARRAY_SIZE(emrcu_opps_big),
		.source = "gs101.dtsi cpucl2 (Pixel 6 Cortex-X1), dpc 650",
	},
};

/*
 * Thermal model [ASSUMED] (used with thermal=1): each cluster's die is one
 * first-order RC node, heated by the cluster's own metered power (r_self)
 * and by an external source, a GPU/ISP whose power the scenario schedules
 * (r_ext: how strongly it couples into that cluster), from the ambient
 * EMRCU_AMBIENT_MC.  Resistances of 6-12 °C/W are the order of a phone
 * SoC's junction-to-ambient path; the big cores sit closest to the GPU in
 * this model (highest r_ext) and spread their heat over the most area
 * (lowest r_self).  Stability: leakage feeds back (dP/dT = P_leak ln2 /
 * T_double), and a big cluster with both CPUs at fmax plus a 3.5 W GPU
 * settles near 100 °C with a loop gain of about 0.45 (r_self 12 °C/W
 * ran away to the 125 °C clamp, measured in a guest).  With a 3.5 W GPU
 * alone the dies settle 25-35 °C above ambient, inside the 25..85 °C span
 * the leakage model is calibrated on.  tau = 2 s is compressed: a real die settles in seconds
 * and its package and skin in minutes; 2 s lets a 10-30 s scenario sweep
 * the range, and every period of the scenarios (sensor lag, EM update
 * period) scales with it.
 */

/*
 * Workload profiles: % of the class's dynamic power (the EM's reference is
 * "nominal", a Dhrystone-like benchmark [COVER]) and % of the shared power.
 * [LWN]: power at a fixed frequency varies between benchmarks; the numbers
 * are [ASSUMED]: memory-bound code stalls the wide out-of-order cores most
 * and works the L3 harder, FP/SIMD-heavy code switches more logic.
 */
const struct emrcu_profile_data emrcu_profile_data[] = {
	{ "nominal", { 100, 100, 100 }, 100 },
	{ "memory",  {  85,  75,  65 }, 200 },
	{ "fp",      { 110, 115, 120 }, 100 },
};

const int emrcu_nr_profiles = ARRAY_SIZE(emrcu_profile_data);
static_assert(ARRAY_SIZE(emrcu_profile_data) == EMRCU_NR_PROFILES,
	      "EMRCU_NR_PROFILES sizes the meter's per-profile tables");

#endif /* EMRCU_MODEL_DATA_DEFINE */

#define EMRCU_PROFILE_NOMINAL	0

/*
 * Class rule: clusters are ranked by CPU capacity (distinct values, low to
 * high).  The lowest rank is little, the highest is big, every rank between
 * is mid; with a single capacity every cluster is big.  Works for 1..16
 * clusters; the `classes=` module parameter overrides it per cluster.
 */

/*
 * The truth's thermal dynamics and the EM driver that is not the truth
 * (thermal.c, emdrv.c).  [ASSUMED] throughout; what each is chosen for:
 *
 * EMRCU_AMBIENT_MC: ambient temperature the dies start from and cool to.
 * EMRCU_THERMAL_TICK_MS: integration step of the RC model (tau / 200) and
 *   the sensor's sampling period (thermal zones poll at 10-100 ms).
 * EMRCU_TEMP_APPLY_MC: the truth's power tables are recomputed when a die
 *   moved this much since they were (0.1 °C: 0.2-0.3 % of leakage).
 * EMRCU_EXT_HEAT_MAX_MW: largest external (GPU/ISP) power a schedule may
 *   declare (a phone GPU peaks at a few W).
 * Sensor defaults: first-order lag 200 ms (a sensor away from the hotspot,
 *   plus filtering), 1 °C quantisation, +-0.5 °C noise (triangular).
 * Driver model: leakage characterised at EMRCU_DRV_CAL_POINTS calibration
 *   temperatures from EMRCU_DRV_CAL_FIRST_MC, EMRCU_DRV_CAL_STEP_MC apart
 *   (25, 45, 65, 85 °C), piecewise linear between them and extrapolated
 *   beyond (the truth is exponential: each chord overestimates inside its
 *   segment, by up to 4 % of the leakage for big's 25 °C doubling), dynamic
 *   power as the datasheet gives it (the truth's, at the profile hint and
 *   bin the platform is set to).  EMRCU_DRV_PERIOD_MIN_MS: the shortest
 *   update period a scenario may declare; an update of the three CPU perf
 *   domains costs 20-80 us on this harness (em_bench's update-cost run),
 *   so 1 ms keeps the driver under 10 % of a CPU.
 * Metered driver (drv=meter): knows neither the chip's bin nor the running
 *   profile; it prices the table as the runtime driver would at the nominal
 *   bin and profile, times one scale per cluster, corrected every period by
 *   the cluster's busy-energy counter against the EM's own estimate of the
 *   same busy time [ASSUMED: a per-cluster rail whose idle and shared power
 *   the driver subtracts from its own characterisation].  A period with
 *   less than EMRCU_DRV_METER_MIN_FJ of estimated busy energy (10 uJ: about
 *   a real energy counter's resolution, 15.3 uJ for RAPL's default unit)
 *   leaves the scale alone; the scale stays within 1/4..4 (a table off by
 *   more is a fault, not a bin).
 * Upper bound of the heat schedule: the external source alone must not take
 *   a die above the last calibration temperature (scenarios refuse it).
 */
#define EMRCU_AMBIENT_MC		25000
#define EMRCU_THERMAL_TICK_MS		10
#define EMRCU_TEMP_APPLY_MC		100
#define EMRCU_EXT_HEAT_MAX_MW		10000
#define EMRCU_HEAT_MAX_POINTS		16
#define EMRCU_SENSOR_LAG_MS		200
#define EMRCU_SENSOR_QUANT_MC		1000
#define EMRCU_SENSOR_NOISE_MC		500
#define EMRCU_DRV_CAL_FIRST_MC		25000
#define EMRCU_DRV_CAL_STEP_MC		20000
#define EMRCU_DRV_CAL_POINTS		4
#define EMRCU_DRV_CAL_LAST_MC \
	(EMRCU_DRV_CAL_FIRST_MC + (EMRCU_DRV_CAL_POINTS - 1) * EMRCU_DRV_CAL_STEP_MC)
#define EMRCU_DRV_PERIOD_MIN_MS		1
#define EMRCU_DRV_PERIOD_MAX_MS		60000
#define EMRCU_DRV_METER_MIN_FJ		10000000000ULL
#define EMRCU_DRV_METER_SCALE_MIN_PPM	250000
#define EMRCU_DRV_METER_SCALE_MAX_PPM	4000000

/*
 * Test perf domains (non-CPU devices, update-cost measurements): N OPPs
 * spaced evenly over [min, max] kHz, voltage linear over [min, max] uV, the
 * mid class's power coefficients.  [ASSUMED] GPU-like range.
 */
#define EMRCU_TEST_PD_MIN_KHZ	200000
#define EMRCU_TEST_PD_MAX_KHZ	1000000
#define EMRCU_TEST_PD_MIN_UV	550000
#define EMRCU_TEST_PD_MAX_UV	850000
#define EMRCU_TEST_PD_CLASS	EMRCU_CLASS_MID

#endif /* EMRCU_MODEL_DATA_H */
