/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runload.h - one run directory as the runner left it: em_bench.json
 * (bench/em_bench), meta.json (runner), optional params.json (platform
 * constants: OPP tables, power model) and scenario.json (scenario drivers).
 * Everything is validated here, so the figure code can trust the shapes.
 */
#ifndef EMRCU_RUNLOAD_H
#define EMRCU_RUNLOAD_H

#include <stddef.h>

#include "emrcu/json.h"

#define EM_BENCH_SCHEMA "emrcu/em_bench/1"
#define SCENARIO_SCHEMA "emrcu/scenario/1"

struct run {
	char *dir, *label;	/* label: path relative to the summary's directory */
	struct json *bench;	/* em_bench.json or NULL */
	struct json *meta;	/* meta.json or NULL */
	struct json *params;	/* params.json or NULL */
	struct json *scenario;	/* scenario.json or NULL */
	const char *variant, *mode, *preempt, *release;
	long shift;		/* icount shift, -1 when not deterministic/unknown */
	double update_hz;	/* requested rate of a running updater (null or not), else 0 */
	char *variant_own;	/* "<variant>+same-table" when variant points here */
};

/*
 * Returns 0 when loaded, 1 when dir holds neither em_bench.json nor
 * scenario.json (nothing to summarize), -1 on an unusable run (err says why).
 */
int run_load(const char *dir, const char *base, struct run *r, char *err,
	     size_t errlen);
void run_free(struct run *r);
/* nr_states of perf domain pd in em_bench.json's "pds", -1 if unknown. */
long run_pd_states(const struct run *r, long pd);

#endif
