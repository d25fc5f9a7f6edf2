// SPDX-License-Identifier: GPL-2.0
/* Scenario file -> struct scenario: top-level fields, runs, conditions. */
#include "scen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/field.h"
#include "kind.h"
#include "model.h"
#include "workload.h"

static const char *const em_names[] = {
	[EM_STATIC] = "static", [EM_ORACLE] = "oracle",
	[EM_RUNTIME] = "runtime", [EM_BEST_STATIC] = "best-static",
};

const char *scen_em_name(enum scen_em e)
{
	return em_names[e];
}

void scen_run_name(const struct scenario *s, int r, char *out, size_t len)
{
	if (!s->kind->takes_em)
		snprintf(out, len, "%s", s->run[r].variant);
	else
		snprintf(out, len, "%s:%s", s->run[r].variant, s->run[r].em_name);
}

int scen_cluster_of_rank(const struct topo *t, int rank)
{
	int order[TOPO_MAX_CLUSTERS], i, j;

	for (i = 0; i < t->nclusters; i++)
		order[i] = i;
	/* stable insertion sort by capacity */
	for (i = 1; i < t->nclusters; i++) {
		int v = order[i];

		for (j = i; j > 0 && t->c[order[j - 1]].capacity > t->c[v].capacity; j--)
			order[j] = order[j - 1];
		order[j] = v;
	}
	return rank >= 0 && rank < t->nclusters ? order[rank] : -1;
}

static int name_ok(const char *s)
{
	if (!*s || strlen(s) >= SCEN_NAME_LEN)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '-' || *s == '_'))
			return 0;
	return 1;
}

static int topo_asymmetric(const struct topo *t)
{
	int k;

	for (k = 1; k < t->nclusters; k++)
		if (t->c[k].capacity != t->c[0].capacity)
			return 1;
	return 0;
}

static int parse_runs(const struct fctx *f, const char *over,
		      struct scenario *s)
{
	const struct conf_entry *e;
	struct conf_entry ov = { .key = "runs", .line = 0 };
	char buf[CONF_VAL_LEN], *w[SCEN_MAX_RUNS + 1];
	int i, n;

	if (fget(f, "runs", !over, &e))
		return -1;
	if (over) {
		if (strlen(over) >= CONF_VAL_LEN || !*over)
			return ferr(f, NULL, "runs", "--runs: bad value");
		strcpy(ov.val, over);
		e = &ov;
	}
	strcpy(buf, e->val);
	n = fwords(buf, w, SCEN_MAX_RUNS);
	if (n > SCEN_MAX_RUNS)
		return ferr(f, e, "runs", "more than %d runs", SCEN_MAX_RUNS);
	for (i = 0; i < n; i++) {
		struct scen_run *r = &s->run[i];
		char *colon = strchr(w[i], ':');
		int j, k;

		r->em = EM_STATIC;
		if (colon) {
			long p;

			*colon++ = '\0';
			for (k = 0; k < (int)(sizeof(em_names) / sizeof(em_names[0])); k++)
				if (k != EM_RUNTIME && !strcmp(colon, em_names[k]))
					r->em = (enum scen_em)k;
			if (!strncmp(colon, "runtime@", 8)) {
				if (str_to_long(colon + 8, &p) || p < model_drv_period_min_ms() ||
				    p > model_drv_period_max_ms())
					return ferr(f, e, "runs", "'%s': the update period must be %d..%d ms (below %d ms the updates would cost more than a CPU can give: bench/platform/model_data.h)",
						    colon, model_drv_period_min_ms(),
						    model_drv_period_max_ms(),
						    model_drv_period_min_ms());
				r->em = EM_RUNTIME;
				r->period_ms = (int)p;
			} else if (!strcmp(colon, "runtime")) {
				return ferr(f, e, "runs", "':runtime' is gone: ':oracle' pushes the truth (an upper bound), ':runtime@MS' runs the EM driver every MS ms (needs heat)");
			} else if (r->em == EM_STATIC && strcmp(colon, "static")) {
				return ferr(f, e, "runs", "'%s': EM must be static, oracle, best-static or runtime@MS",
					    colon);
			}
		}
		if (!name_ok(w[i]))
			return ferr(f, e, "runs", "bad variant name '%s'", w[i]);
		if (!s->kind->takes_em && r->em != EM_STATIC)
			return ferr(f, e, "runs", "%s runs take no :%s (a run is a kernel)",
				    s->kind->name, em_names[r->em]);
		strcpy(r->variant, w[i]);
		if (r->em == EM_RUNTIME)
			snprintf(r->em_name, sizeof(r->em_name), "runtime@%d", r->period_ms);
		else
			strcpy(r->em_name, em_names[r->em]);
		for (j = 0; j < i; j++)
			if (!strcmp(s->run[j].variant, r->variant) &&
			    !strcmp(s->run[j].em_name, r->em_name))
				return ferr(f, e, "runs", "'%s:%s' given twice",
					    r->variant, r->em_name);
	}
	s->nruns = n;
	return 0;
}

static int parse_topology(const struct fctx *f, const char *override,
			  struct scenario *s)
{
	const struct conf_entry *e;
	const char *spec;
	char terr[200];

	if (fget(f, "topology", 0, &e))
		return -1;
	spec = override && *override ? override :
	       e && strcmp(e->val, "default") ? e->val : TOPO_DEFAULT;
	if (strlen(spec) >= sizeof(s->topo_spec))
		return ferr(f, e, "topology", "too long");
	memcpy(s->topo_spec, spec, strlen(spec) + 1);
	if (topo_parse(s->topo_spec, &s->topo, terr, sizeof(terr))) {
		if (override && *override)
			return ferr(f, NULL, "topology", "TOPO=%s: impossible topology: %s",
				    override, terr);
		return ferr(f, e, "topology", "impossible topology: %s", terr);
	}
	return 0;
}

static int temp_check(const struct fctx *f, const struct conf_entry *e,
		      const char *key, double c, int *mc)
{
	double lo = model_temp_min_mc() / 1000.0, hi = model_temp_max_mc() / 1000.0;

	if (c < lo || c > hi)
		return ferr(f, e, key, "temperature %g C outside the model's range %g..%g C (bench/platform/model_data.h)",
			    c, lo, hi);
	*mc = (int)lround(c * 1000);
	return 0;
}

static int bin_check(const struct fctx *f, const struct conf_entry *e,
		     const char *key, double mv, int *out)
{
	if (mv != floor(mv) || mv < model_bin_min_mv() || mv > model_bin_max_mv())
		return ferr(f, e, key, "bin offset %g mV outside the model's range %d..%d mV (integer)",
			    mv, model_bin_min_mv(), model_bin_max_mv());
	*out = (int)mv;
	return 0;
}

static int profile_check(const struct fctx *f, const struct conf_entry *e,
			 const char *key, const char *name, char *out)
{
	if (model_profile_index(name) < 0)
		return ferr(f, e, key, "unknown profile '%s' (model: %s)", name,
			    model_profile_list());
	if (strlen(name) >= 24)
		return ferr(f, e, key, "profile name too long");
	memcpy(out, name, strlen(name) + 1);
	return 0;
}

/* temperature, profile, bin_mv: the conditions outside the knob. */
static int parse_base_cond(const struct fctx *f, struct scen_cond *c)
{
	const struct conf_entry *e;
	double v;

	memset(c, 0, sizeof(*c));
	if (fnum(f, "temperature", 0, -1e9, 1e9, 25, &v) ||
	    fget(f, "temperature", 0, &e) ||
	    temp_check(f, e, "temperature", v, &c->temp_mc))
		return -1;
	if (fget(f, "profile", 0, &e) ||
	    profile_check(f, e, "profile", e ? e->val : "nominal", c->profile))
		return -1;
	if (fnum(f, "bin_mv", 0, -1e9, 1e9, 0, &v) ||
	    fget(f, "bin_mv", 0, &e) || bin_check(f, e, "bin_mv", v, &c->bin_mv))
		return -1;
	return 0;
}

static void step_label(char *out, size_t len, int i, enum scen_knob k,
		       const struct scen_cond *c)
{
	if (k == KNOB_TEMPERATURE)
		snprintf(out, len, "s%d_%gC", i, c->temp_mc / 1000.0);
	else if (k == KNOB_PROFILE)
		snprintf(out, len, "s%d_%s", i, c->profile);
	else
		snprintf(out, len, "s%d_%s%dmV", i, c->bin_mv < 0 ? "m" : "p",
			 abs(c->bin_mv));
}

static int parse_timeline(const struct fctx *f, struct scenario *s)
{
	static const char *const knobs[] = { "temperature", "profile", "bin", NULL };
	const struct conf_entry *e;
	char knob[16], buf[CONF_VAL_LEN], *w[SCEN_MAX_STEPS + 1];
	struct scen_cond base;
	int i, n;

	if (parse_base_cond(f, &base) ||
	    fword(f, "knob", 1, "", knobs, knob, sizeof(knob)) ||
	    fget(f, "timeline", 1, &e))
		return -1;
	s->knob = !strcmp(knob, "temperature") ? KNOB_TEMPERATURE :
		  !strcmp(knob, "profile") ? KNOB_PROFILE : KNOB_BIN;
	strcpy(buf, e->val);
	n = fwords(buf, w, SCEN_MAX_STEPS);
	if (n > SCEN_MAX_STEPS)
		return ferr(f, e, "timeline", "more than %d steps", SCEN_MAX_STEPS);
	for (i = 0; i < n; i++) {
		struct scen_cond *c = &s->step[i];
		double v;

		*c = base;
		if (s->knob != KNOB_PROFILE && str_to_double(w[i], &v))
			return ferr(f, e, "timeline", "step %d: '%s' is not a number", i, w[i]);
		if ((s->knob == KNOB_TEMPERATURE &&
		     temp_check(f, e, "timeline", v, &c->temp_mc)) ||
		    (s->knob == KNOB_BIN && bin_check(f, e, "timeline", v, &c->bin_mv)) ||
		    (s->knob == KNOB_PROFILE &&
		     profile_check(f, e, "timeline", w[i], c->profile)))
			return -1;
		step_label(c->label, sizeof(c->label), i, s->knob, c);
	}
	s->nsteps = n;
	return 0;
}

static int parse_load_fields(const struct fctx *f, struct scenario *s)
{
	static const char *const engines[] = { "emulated", "rt-app", NULL };
	static const char *const drivers[] = { "characterised", "meter", NULL };
	char engine[16], driver[16];
	long v;

	if (fword(f, "engine", 0, "emulated", engines, engine, sizeof(engine)) ||
	    fword(f, "driver", 0, "characterised", drivers, driver, sizeof(driver)))
		return -1;
	s->engine = strcmp(engine, "rt-app") ? ENGINE_EMULATED : ENGINE_RTAPP;
	s->driver_meter = !strcmp(driver, "meter");

	if (fint(f, "warmup_ms", 1, 0, 60000, 0, &v))
		return -1;
	s->warmup_ms = (int)v;
	if (fint(f, "phase_ms", 1, 100, 600000, 0, &v))
		return -1;
	s->phase_ms = (int)v;
	if (fint(f, "slice_us", 0, 20, 10000, 200, &v))
		return -1;
	s->slice_us = (int)v;
	if (s->kind->load->timeline)
		return parse_timeline(f, s);
	s->knob = KNOB_NONE;
	s->nsteps = 1;
	if (parse_base_cond(f, &s->step[0]))
		return -1;
	strcpy(s->step[0].label, "cond");
	return 0;
}

/*
 * heat = MS:MW ...: the external source's power from MS ms after each step
 * starts.  The source alone must not take a die above the last calibration
 * temperature of the driver's model (beyond it nothing was characterised).
 */
static int parse_heat(const struct fctx *f, struct scenario *s)
{
	const struct conf_entry *e;
	char buf[CONF_VAL_LEN], *w[SCEN_MAX_HEAT + 1];
	int i, n, maxmw = 0;
	long v;

	s->sensor_lag_ms = s->sensor_quant_mc = s->sensor_noise_mc = -1;
	s->driver_leak_pct = -1;
	if (fget(f, "heat", 0, &e))
		return -1;
	if (!e)
		return 0;
	if (!s->kind->load->heat)
		return ferr(f, e, "heat", "kind %s takes no heat schedule",
			    s->kind->name);
	strcpy(buf, e->val);
	n = fwords(buf, w, SCEN_MAX_HEAT);
	if (!n || n > SCEN_MAX_HEAT)
		return ferr(f, e, "heat", "want 1..%d MS:MW points", SCEN_MAX_HEAT);
	for (i = 0; i < n; i++) {
		char *c = strchr(w[i], ':');
		long ms, mw;

		if (!c)
			return ferr(f, e, "heat", "'%s': want MS:MW", w[i]);
		*c = '\0';
		if (str_to_long(w[i], &ms) || str_to_long(c + 1, &mw) || ms < 0 ||
		    (i && ms <= s->heat_ms[i - 1]) || ms > 3600000)
			return ferr(f, e, "heat", "point %d: want increasing MS >= 0 and an integer MW", i);
		if (mw < 0 || mw > model_ext_heat_max_mw())
			return ferr(f, e, "heat", "point %d: %ld mW outside 0..%d mW (bench/platform/model_data.h)",
				    i, mw, model_ext_heat_max_mw());
		s->heat_ms[i] = (int)ms;
		s->heat_mw[i] = (int)mw;
		maxmw = mw > maxmw ? (int)mw : maxmw;
	}
	s->heat = 1;
	s->nheat = n;
	for (i = 0; i < s->nsteps; i++) {
		double t = s->step[i].temp_mc / 1000.0 +
			   model_r_ext_max_mc_per_w() / 1000.0 * maxmw / 1000.0;

		if (t > model_cal_last_mc() / 1000.0)
			return ferr(f, e, "heat", "%d mW would take a die to %.0f C from %g C ambient on its own, above the %g C the model is calibrated to",
				    maxmw, t, s->step[i].temp_mc / 1000.0,
				    model_cal_last_mc() / 1000.0);
	}
	if (fint(f, "sensor_lag_ms", 0, 0, 60000, -1, &v))
		return -1;
	s->sensor_lag_ms = (int)v;
	if (fint(f, "sensor_quant_mc", 0, 0, 10000, -1, &v))
		return -1;
	s->sensor_quant_mc = (int)v;
	if (fint(f, "sensor_noise_mc", 0, 0, 10000, -1, &v))
		return -1;
	s->sensor_noise_mc = (int)v;
	if (fint(f, "driver_leak_pct", 0, 0, 1000, -1, &v))
		return -1;
	s->driver_leak_pct = (int)v;
	return 0;
}

/*
 * What each EM needs: the series for oracle/runtime/best-static; heat or a
 * timeline for best-static, and heat for runtime unless its driver is the
 * metered one.
 */
static int check_run_ems(const struct fctx *f, const struct scenario *s)
{
	const struct conf_entry *e;
	int r;

	for (r = 0; r < s->nruns; r++) {
		enum scen_em em = s->run[r].em;

		if (!s->heat && em == EM_BEST_STATIC &&
		    !(s->kind->load && s->kind->load->timeline)) {
			fget(f, "runs", 0, &e);
			return ferr(f, e, "runs", "%s:%s needs a heat schedule (field heat) or kind = energy (the truth's mean over the timeline's steps)",
				    s->run[r].variant, s->run[r].em_name);
		}
		if (!s->heat && em == EM_RUNTIME && !s->driver_meter) {
			fget(f, "runs", 0, &e);
			return ferr(f, e, "runs", "%s:%s without heat needs driver = meter: the characterised driver is handed the bin and profile, so it would push the truth",
				    s->run[r].variant, s->run[r].em_name);
		}
	}
	return 0;
}

/* No threshold: each kind's ->parse reads the ones it judges. */
static void thresholds_none(struct scenario *s)
{
	s->oracle_abs_err_pct_max = -1;
	s->static_abs_err_pct_min = -1;
	s->runtime_above_oracle_pp = s->runtime_monotone_pp = -1;
	s->runtime_vs_static_pp = -1000;
	s->runtime_opp_err_pct_min = s->task_profile_pct_min = -1;
	s->runtime_vs_best_static_pp = s->runtime_abs_err_pct_min = -1;
	s->aa_static_pp = -1;
	s->invisible_pct_min = -1;
	s->em_choice_pct_max = -1;
	s->paired_p_max = s->aa_p_min = -1;
}

int scen_parse_load(const struct fctx *f, struct scenario *s)
{
	return parse_load_fields(f, s) || parse_workloads(f, s) ||
	       parse_heat(f, s);
}

/*
 * --inject 'NAME=N ...': em_bench parameters (a defect such as
 * inject_hold_ns) for every run but the first; words of [a-z_]=digits
 * only, since they go into cmd.sh as they are.
 */
static int parse_inject(const struct fctx *f, const char *v, struct scenario *s)
{
	const char *p = v, *w;
	int ok = *v != '\0';

	if (!s->kind->module || strcmp(s->kind->module, "bench/em_bench")) {
		snprintf(f->err, f->errlen, "--inject: kind %s loads no em_bench",
			 s->kind->name);
		return -1;
	}
	while (ok && *p) {
		for (w = p; *p == '_' || (*p >= 'a' && *p <= 'z'); p++)
			;
		ok = p > w && *p++ == '=' && *p >= '0' && *p <= '9';
		while (*p >= '0' && *p <= '9')
			p++;
		/* one space between words, none at the end */
		if (ok && *p == ' ')
			ok = *++p != '\0';
		else if (*p)
			ok = 0;
	}
	if (!ok || strlen(v) >= sizeof(s->inject)) {
		snprintf(f->err, f->errlen, "--inject '%s': want NAME=N words, under %zu characters",
			 v, sizeof(s->inject));
		return -1;
	}
	strcpy(s->inject, v);
	return 0;
}

static int parse_all(const struct fctx *f, const struct scen_override *ov,
		     struct scenario *s)
{
	static const char *const modes[] = { "realtime", "deterministic", NULL };
	const struct conf_entry *e;
	const char *base;
	static const char *kind_names[16];
	char kind[16];
	long v;
	int i;

	if (fget(f, "name", 1, &e))
		return -1;
	base = strrchr(s->path, '/');
	base = base ? base + 1 : s->path;
	if (!name_ok(e->val))
		return ferr(f, e, "name", "'%s': want [a-z0-9_-]+", e->val);
	if (strncmp(base, e->val, strlen(e->val)) ||
	    strcmp(base + strlen(e->val), ".conf"))
		return ferr(f, e, "name", "'%s' does not match the file name %s",
			    e->val, base);
	strcpy(s->name, e->val);
	if (fget(f, "description", 1, &e))
		return -1;
	if (strlen(e->val) >= sizeof(s->description))
		return ferr(f, e, "description", "longer than %zu characters",
			    sizeof(s->description) - 1);
	strcpy(s->description, e->val);
	for (i = 0; scen_kinds[i]; i++)
		kind_names[i] = scen_kinds[i]->name;
	if (fword(f, "kind", 1, "", kind_names, kind, sizeof(kind)))
		return -1;
	for (i = 0; scen_kinds[i]; i++)
		if (!strcmp(kind, scen_kinds[i]->name))
			s->kind = scen_kinds[i];
	if (parse_topology(f, ov ? ov->topo : NULL, s) ||
	    parse_runs(f, ov ? ov->runs : NULL, s) ||
	    fword(f, "mode", 0, "realtime", modes, s->mode, sizeof(s->mode)))
		return -1;
	if (fint(f, "boots", 0, 1, SCEN_MAX_BOOTS, 1, &v))
		return -1;
	s->boots = (int)v;
	if (fint(f, "timeout_s", 1, 10, 3600, 0, &v))
		return -1;
	s->timeout_s = (int)v;
	if (fword(f, "platform", 0, "", NULL, s->platform, sizeof(s->platform)))
		return -1;
	if (strstr(s->platform, "temperature=") || strstr(s->platform, "profile=") ||
	    strstr(s->platform, "bin_mv=")) {
		fget(f, "platform", 0, &e);
		return ferr(f, e, "platform", "conditions belong in the scenario's own fields");
	}
	if (s->kind->needs_eas && !topo_asymmetric(&s->topo)) {
		fget(f, "topology", 0, &e);
		return ferr(f, e, "topology", "impossible topology %s for a %s scenario: EAS needs at least two CPU capacities",
			    s->topo_spec, s->kind->name);
	}
	thresholds_none(s);
	if (ov && ov->inject && parse_inject(f, ov->inject, s))
		return -1;
	return s->kind->parse(f, s) || check_run_ems(f, s);
}

int scen_parse(const char *path, const char *text, int quick,
	       const struct scen_override *ov, struct scenario *s, char *err,
	       size_t errlen)
{
	static struct conf c;
	struct fctx f = { .c = &c, .quick = quick, .err = err, .errlen = errlen };
	const struct conf_entry *u;

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (conf_parse(path, text, &c, err, errlen) || parse_all(&f, ov, s))
		return -1;
	u = conf_unused(&c);
	if (u)
		return ferr(&f, u, u->key, "unknown field (for kind %s)",
			    s->kind->name);
	return 0;
}

int scen_load(const char *path, int quick, const struct scen_override *ov,
	      struct scenario *s, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	char *text;
	long len;
	int ret;

	if (!fp) {
		snprintf(err, errlen, "%s: cannot open", path);
		return -1;
	}
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	text = calloc(1, (size_t)len + 1);
	if (!text || fread(text, 1, (size_t)len, fp) != (size_t)len) {
		fclose(fp);
		free(text);
		snprintf(err, errlen, "%s: cannot read", path);
		return -1;
	}
	fclose(fp);
	ret = scen_parse(path, text, quick, ov, s, err, errlen);
	free(text);
	return ret;
}
