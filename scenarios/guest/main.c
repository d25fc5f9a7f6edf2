// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu-scen-guest PLAN: one boot of an energy/placement scenario.
 *
 * For every step of the plan (plan.h): set the platform's conditions (with
 * heat: the ambient, which resets the dies, then the heat schedule); with
 * "em push" push the truth into the EM (em_update) and read back what the
 * kernel published; with "em best-static" run a pilot pass first and push
 * the truth at its mean die temperatures (without heat: push once, before
 * the first step, the truth's mean over every step's conditions, weighted
 * by their lengths); run the step's tasks (load.h),
 * the meter covering exactly the measured window.  Result blocks (host:
 * scenarios/src/):
 *   params.json              the platform's constants (once)
 *   boot.em.json             the EM as booted (debugfs)
 *   LABEL.power.json         true power tables and the EM in effect when
 *                            the window opened
 *   LABEL.em.json            the EM as this program last set or read it
 *   LABEL.meter.json         the true-energy meter over the window
 *   LABEL.tasks.json         per task: CPU time per CPU, work done / due
 *   LABEL.thermal.json       with heat: dies, sensors, window statistics
 *   LABEL.driver.json        with heat or a driver: its updates and cost
 * Exit 0; 1 when a step failed (the message names the step); 2 on a bad
 * plan or a missing platform.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emtab.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/result.h"
#include "emrcu/sysfs.h"
#include "load.h"
#include "plan.h"
#include "plat.h"

struct window {
	char *meter, *power;
	int reset_rc;
};

/*
 * The window opens: the meter restarts, and the true power and the EM in
 * effect are read (with heat both moved during the warm-up).
 */
static void win_start(void *arg)
{
	struct window *w = arg;

	w->reset_rc = plat_write("meter", "0");
	w->power = plat_read("power");
}

static void win_end(void *arg)
{
	struct window *w = arg;

	w->meter = plat_read("meter");
}

static void print_text_block(const char *label, const char *what,
			     const char *text)
{
	char name[PLAN_NAME_LEN + 16];

	snprintf(name, sizeof(name), "%s.%s", label, what);
	block_print(stdout, name, text);
}

static void print_em(const char *label, const struct emtab *t)
{
	char name[PLAN_NAME_LEN + 16];

	snprintf(name, sizeof(name), "%s.em.json", label);
	result_begin(stdout, name);
	emtab_print_json(stdout, t);
	result_end(stdout, name);
}

/* The step's conditions; with heat the dies restart from the ambient. */
static int step_start(const struct plan *p, const struct plan_step *s,
		      char *err, size_t errlen)
{
	int ret;

	if (plat_set_cond(s->temp_mc, s->profile, s->bin_mv, err, errlen))
		return -1;
	if (p->heat[0]) {
		ret = plat_write("heat", p->heat);
		if (ret) {
			snprintf(err, errlen, "heat: %s", strerror(-ret));
			return -1;
		}
	}
	return 0;
}

/* One pass of the step's load, the meter over its window. */
static int run_load(const struct plan *p, const struct plan_step *s,
		    const struct load_cpus *cpus, struct window *w,
		    struct load_task_stats *st, uint64_t *window_ns)
{
	if ((s->rtapp[0] ?
	     rtapp_run(cpus, s, p->warmup_ms, s->phase_ms, win_start, win_end,
		       w, st, window_ns) :
	     load_run(cpus, s, p->warmup_ms, s->phase_ms, p->slice_us,
		      win_start, win_end, w, st, window_ns)) ||
	    w->reset_rc || !w->meter || !w->power) {
		fprintf(stderr, "emrcu-scen-guest: step %s: the load, the meter or the power tables failed\n",
			s->label);
		free(w->meter);
		free(w->power);
		w->meter = w->power = NULL;
		return -1;
	}
	return 0;
}

static void print_plat_block(const char *label, const char *file)
{
	char what[32], *text = plat_read(file);

	snprintf(what, sizeof(what), "%s.json", file);
	print_text_block(label, what, text ? text : "{}");
	free(text);
}

/* With heat, or when an EM driver runs: what it did in the window. */
static void print_driver_block(const char *label, int heat)
{
	char *text = plat_read("driver");

	if (heat || (text && !strstr(text, "\"mode\":\"none\"")))
		print_text_block(label, "driver.json", text ? text : "{}");
	free(text);
}

static int run_step(const struct plan *p, const struct plan_step *s,
		    const struct load_cpus *cpus, const struct emtab *boot,
		    struct emtab *cur)
{
	static struct load_task_stats st[PLAN_MAX_TASKS];
	struct window w = { 0 };
	char err[256], name[PLAN_NAME_LEN + 16];
	uint64_t window_ns;

	if (step_start(p, s, err, sizeof(err))) {
		fprintf(stderr, "emrcu-scen-guest: step %s: %s\n", s->label, err);
		return -1;
	}
	if (p->em == PLAN_EM_PUSH &&
	    emtab_update_traced(boot, cur, "1", err, sizeof(err))) {
		fprintf(stderr, "emrcu-scen-guest: step %s: %s\n", s->label, err);
		return -1;
	}
	if (p->em == PLAN_EM_BEST_STATIC && p->heat[0]) {
		fprintf(stderr, "emrcu-scen-guest: step %s: pilot pass (best static EM)\n",
			s->label);
		if (run_load(p, s, cpus, &w, st, &window_ns))
			return -1;
		free(w.meter);
		free(w.power);
		memset(&w, 0, sizeof(w));
		if (emtab_update_traced(boot, cur, "mean", err, sizeof(err)) ||
		    step_start(p, s, err, sizeof(err))) {
			fprintf(stderr, "emrcu-scen-guest: step %s: %s\n", s->label, err);
			return -1;
		}
	}
	print_em(s->label, cur);
	fflush(stdout);

	if (run_load(p, s, cpus, &w, st, &window_ns))
		return -1;
	print_text_block(s->label, "power.json", w.power);
	print_text_block(s->label, "meter.json", w.meter);
	free(w.power);
	free(w.meter);
	if (p->heat[0])
		print_plat_block(s->label, "thermal");
	print_driver_block(s->label, p->heat[0]);
	snprintf(name, sizeof(name), "%s.tasks.json", s->label);
	result_begin(stdout, name);
	load_print_json(stdout, s, st, cpus->ncpus, window_ns,
			s->rtapp[0] ? "rt-app" : "emulated");
	result_end(stdout, name);
	return 0;
}

/*
 * Best static without heat: one push, before the first step, of the
 * truth's mean over every step's conditions, each weighted by its length.
 */
static int push_step_mean(const struct plan *p, const struct emtab *boot,
			  struct emtab *cur)
{
	char spec[2048], err[256];
	size_t len;
	int i;

	len = (size_t)snprintf(spec, sizeof(spec), "avg");
	for (i = 0; i < p->nsteps && len < sizeof(spec); i++) {
		const struct plan_step *s = &p->step[i];

		len += (size_t)snprintf(spec + len, sizeof(spec) - len,
					" %d:%s:%d:%ld", s->temp_mc, s->profile,
					s->bin_mv,
					s->phase_ms * plan_step_phases(s));
	}
	if (len >= sizeof(spec)) {
		fprintf(stderr, "emrcu-scen-guest: best-static: too many steps\n");
		return -1;
	}
	fprintf(stderr, "emrcu-scen-guest: best static EM: the truth's mean over the steps (em_update %s)\n",
		spec);
	if (emtab_update_traced(boot, cur, spec, err, sizeof(err))) {
		fprintf(stderr, "emrcu-scen-guest: best-static: %s\n", err);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct plan plan;
	static struct emtab boot, cur;
	struct load_cpus cpus;
	char err[256], *text, *params;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s PLAN\n", argv[0]);
		return 2;
	}
	text = read_file(argv[1], NULL);
	if (!text || plan_parse(text, &plan, err, sizeof(err))) {
		fprintf(stderr, "emrcu-scen-guest: %s: %s\n", argv[1],
			text ? err : "cannot read");
		return 2;
	}
	free(text);
	params = plat_read("params");
	if (!params || emtab_from_debugfs(&boot) || load_cpus_open(&cpus)) {
		fprintf(stderr, "emrcu-scen-guest: no platform (emrcu_platform debugfs, EM, cpufreq)\n");
		return 2;
	}
	if (plan.em != PLAN_EM_STATIC && !plat_runtime_em()) {
		fprintf(stderr, "emrcu-scen-guest: em push/best-static: this kernel has no runtime-modifiable EM\n");
		return 2;
	}
	block_print(stdout, "params.json", params);
	free(params);
	print_em("boot", &boot);
	cur = boot;
	if (plan.em == PLAN_EM_BEST_STATIC && !plan.heat[0] &&
	    push_step_mean(&plan, &boot, &cur))
		return 1;
	for (i = 0; i < plan.nsteps; i++) {
		fprintf(stderr, "emrcu-scen-guest: step %d/%d %s\n", i + 1,
			plan.nsteps, plan.step[i].label);
		if (run_step(&plan, &plan.step[i], &cpus, &boot, &cur))
			return 1;
	}
	return 0;
}
