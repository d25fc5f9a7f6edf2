// SPDX-License-Identifier: GPL-2.0
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind.h"
#include "model.h"

int workload_phases(const struct scen_workload *w)
{
	int i, n = 1;

	for (i = 0; i < w->ntasks; i++)
		if (w->t[i].nphases > n)
			n = w->t[i].nphases;
	return n;
}

int workload_phase_ms(const struct scenario *s, const struct scen_workload *w)
{
	return w->phase_ms ? w->phase_ms : s->phase_ms;
}

double task_util(const struct scen_task *t, int ph)
{
	return t->util[ph < t->nphases ? ph : t->nphases - 1];
}

void topo_capacity_model(const struct topo *t, struct opt_model *m)
{
	int k;

	memset(m, 0, sizeof(*m));
	m->ncl = t->nclusters;
	for (k = 0; k < t->nclusters; k++) {
		m->cl[k].ncpus = t->c[k].ncpus;
		m->cl[k].cap = topo_final_capacity(t, k);
		m->cl[k].nopps = 1;
		m->cl[k].khz[0] = 1;
	}
}

/*
 * One utilisation: % of the biggest CPU, or with the suffix "l" % of the
 * lowest-capacity one (*little set); @little_cap: that CPU's capacity / 1024.
 */
static int parse_util(const char *tok, double little_cap, double *u, int *little)
{
	char buf[32];
	size_t n = strlen(tok);

	*little = n > 1 && tok[n - 1] == 'l';
	if (n >= sizeof(buf))
		return -1;
	strcpy(buf, tok);
	if (*little)
		buf[n - 1] = '\0';
	if (str_to_double(buf, u) || *u < 0 || *u > 100)
		return -1;
	if (*little)
		*u *= little_cap;
	return 0;
}

static int parse_utils(const char *s, double little_cap, struct scen_task *t,
		       int *scaled)
{
	char buf[128], *save = NULL, *tok;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	t->nphases = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (t->nphases == SCEN_MAX_PHASES ||
		    parse_util(tok, little_cap, &t->util[t->nphases],
			       &scaled[t->nphases]))
			return -1;
		t->nphases++;
	}
	return t->nphases ? 0 : -1;
}

/*
 * ramp=FROM:TO:DELTA, LISA's Ramp (lisa.wlgen.rta): FROM, FROM +- DELTA, ...
 * up to the first value past TO, that last one set to TO.  FROM and TO take
 * the "l" suffix; DELTA is in % of the biggest CPU.
 */
static int parse_ramp(const char *s, double little_cap, struct scen_task *t,
		      int *scaled)
{
	char buf[96], *a, *b, *c;
	double from, to, d, v;
	int l;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	a = buf;
	b = strchr(a, ':');
	c = b ? strchr(b + 1, ':') : NULL;
	if (!c)
		return -1;
	*b++ = '\0';
	*c++ = '\0';
	if (parse_util(a, little_cap, &from, &l) ||
	    parse_util(b, little_cap, &to, &l) || str_to_double(c, &d) ||
	    d <= 0 || from == to)
		return -1;
	if (to < from)
		d = -d;
	t->nphases = 0;
	for (v = from;; v += d) {
		if (t->nphases == SCEN_MAX_PHASES)
			return -1;
		scaled[t->nphases] = 1;
		if (d > 0 ? v >= to : v <= to) {
			t->util[t->nphases++] = to;
			return 0;
		}
		t->util[t->nphases++] = v;
	}
}

/* CPUs of the highest capacity (LISA's one task per big CPU). */
static int big_cpus(const struct topo *tp)
{
	int k = scen_cluster_of_rank(tp, tp->nclusters - 1), i, n = 0;

	for (i = 0; i < tp->nclusters; i++)
		if (tp->c[i].capacity == tp->c[k].capacity)
			n += tp->c[i].ncpus;
	return n;
}

/* One TASK (words w[0..n-1]) -> @count tasks appended to @wl. */
static int parse_task(const struct fctx *f, const struct conf_entry *e,
		      const struct scenario *s, struct scen_workload *wl,
		      char **w, int n)
{
	struct scen_task t = { .period_us = TASK_DEFAULT_PERIOD_MS * 1000,
			       .cluster = -1, .profile = -1 };
	double little = topo_final_capacity(&s->topo,
					    scen_cluster_of_rank(&s->topo, 0)) / 1024.0;
	int scaled[SCEN_MAX_PHASES] = { 0 };
	long count = 1, v;
	double scale = 1;
	int i, have_util = 0;

	if (!n || strchr(w[0], '=') || strlen(w[0]) > SCEN_NAME_LEN - 4)
		return ferr(f, e, "workload", "%s: a task must start with its name",
			    wl->name);
	for (i = 1; i < n; i++) {
		char *eq = strchr(w[i], '=');

		if (!eq)
			return ferr(f, e, "workload", "%s/%s: '%s' is not key=value",
				    wl->name, w[0], w[i]);
		*eq++ = '\0';
		if (!strcmp(w[i], "util") || !strcmp(w[i], "ramp")) {
			if (have_util)
				return ferr(f, e, "workload", "%s/%s: util= or ramp= given twice",
					    wl->name, w[0]);
			if (w[i][0] == 'u' && parse_utils(eq, little, &t, scaled))
				return ferr(f, e, "workload", "%s/%s: util=%s: want %% values 0..100 (suffix l: of the smallest CPU), at most %d phases",
					    wl->name, w[0], eq, SCEN_MAX_PHASES);
			if (w[i][0] == 'r' && parse_ramp(eq, little, &t, scaled))
				return ferr(f, e, "workload", "%s/%s: ramp=%s: want FROM:TO:DELTA, %% values 0..100 (suffix l: of the smallest CPU), FROM != TO, DELTA > 0, at most %d phases",
					    wl->name, w[0], eq, SCEN_MAX_PHASES);
			have_util = 1;
		} else if (!strcmp(w[i], "period_ms")) {
			if (str_to_long(eq, &v) || v < 1 || v > 1000)
				return ferr(f, e, "workload", "%s/%s: period_ms=%s: want 1..1000",
					    wl->name, w[0], eq);
			t.period_us = (int)v * 1000;
		} else if (!strcmp(w[i], "phase_ms")) {
			if (str_to_long(eq, &v) || v < 100 || v > 600000 ||
			    (wl->phase_ms && wl->phase_ms != v))
				return ferr(f, e, "workload", "%s/%s: phase_ms=%s: want 100..600000, one value per workload",
					    wl->name, w[0], eq);
			wl->phase_ms = (int)v;
		} else if (!strcmp(w[i], "count")) {
			if (!strcmp(eq, "bigs"))
				count = big_cpus(&s->topo);
			else if (str_to_long(eq, &count) || count < 1 || count > SCEN_MAX_TASKS)
				return ferr(f, e, "workload", "%s/%s: count=%s: want 1..%d or bigs",
					    wl->name, w[0], eq, SCEN_MAX_TASKS);
		} else if (!strcmp(w[i], "ref")) {
			if (!strcmp(eq, "little"))
				scale = little;
			else if (strcmp(eq, "big"))
				return ferr(f, e, "workload", "%s/%s: ref=%s: want little or big",
					    wl->name, w[0], eq);
		} else if (!strcmp(w[i], "cluster")) {
			if (str_to_long(eq, &v) || v < 0)
				return ferr(f, e, "workload", "%s/%s: cluster=%s: want a capacity rank >= 0",
					    wl->name, w[0], eq);
			if (v >= s->topo.nclusters)
				return ferr(f, e, "workload", "%s/%s: cluster=%ld: impossible topology: %s has %d cluster(s)",
					    wl->name, w[0], v, s->topo_spec,
					    s->topo.nclusters);
			t.cluster = (int)v;
		} else if (!strcmp(w[i], "profile")) {
			if (!s->kind->load->task_profiles)
				return ferr(f, e, "workload", "%s/%s: profile=: kind %s prices every task with the platform's profile (its optimum does)",
					    wl->name, w[0], s->kind->name);
			if (s->engine != ENGINE_EMULATED)
				return ferr(f, e, "workload", "%s/%s: profile= needs engine = emulated (rt-app names its own threads)",
					    wl->name, w[0]);
			t.profile = model_profile_index(eq);
			if (!model_task_comm(t.profile))
				return ferr(f, e, "workload", "%s/%s: profile=%s: unknown profile (model: %s)",
					    wl->name, w[0], eq,
					    model_profile_list());
		} else {
			return ferr(f, e, "workload", "%s/%s: unknown task field '%s'",
				    wl->name, w[0], w[i]);
		}
	}
	if (!have_util)
		return ferr(f, e, "workload", "%s/%s: util= or ramp= missing",
			    wl->name, w[0]);
	for (i = 0; i < t.nphases; i++)
		if (!scaled[i])
			t.util[i] *= scale;
	if (wl->ntasks + count > SCEN_MAX_TASKS)
		return ferr(f, e, "workload", "%s: more than %d tasks", wl->name,
			    SCEN_MAX_TASKS);
	for (v = 0; v < count; v++) {
		struct scen_task *d = &wl->t[wl->ntasks++];

		*d = t;
		snprintf(d->name, sizeof(d->name), "%s.%ld", w[0], v);
	}
	return 0;
}

static int check_phases(const struct fctx *f, const struct conf_entry *e,
			struct scen_workload *wl)
{
	int i, n = 0;

	for (i = 0; i < wl->ntasks; i++) {
		if (wl->t[i].nphases == 1)
			continue;
		if (n && wl->t[i].nphases != n)
			return ferr(f, e, "workload", "%s: tasks have %d and %d phases",
				    wl->name, n, wl->t[i].nphases);
		n = wl->t[i].nphases;
	}
	return 0;
}

static int check_fit(const struct fctx *f, const struct conf_entry *e,
		     const struct scenario *s, const struct scen_workload *wl)
{
	struct opt_model m;
	struct opt_task t[OPT_MAX_TASKS];
	int ph, i;

	topo_capacity_model(&s->topo, &m);
	for (ph = 0; ph < workload_phases(wl); ph++) {
		for (i = 0; i < wl->ntasks; i++) {
			t[i].util = task_util(&wl->t[i], ph) * 1024 / 100;
			t[i].cluster = wl->t[i].cluster < 0 ? -1 :
				scen_cluster_of_rank(&s->topo, wl->t[i].cluster);
		}
		if (!opt_feasible(&m, t, wl->ntasks))
			return ferr(f, e, "workload", "%s: cannot fit topology %s (phase %d: no placement keeps every CPU within its capacity)",
				    wl->name, s->topo_spec, ph);
	}
	return 0;
}

static int parse_one(const struct fctx *f, const struct conf_entry *e,
		     struct scenario *s, struct scen_workload *wl)
{
	char buf[CONF_VAL_LEN], *w[40], *save = NULL, *part;
	char key[CONF_KEY_LEN + 48];
	int n, first = 1, i;
	double def;

	strcpy(buf, e->val);
	memset(wl, 0, sizeof(*wl));
	for (part = strtok_r(buf, ";", &save); part; part = strtok_r(NULL, ";", &save)) {
		n = fwords(part, w, 39);
		if (n > 39)
			return ferr(f, e, "workload", "too many words");
		if (first) {
			if (!n || strchr(w[0], '=') || strlen(w[0]) >= SCEN_NAME_LEN - 8)
				return ferr(f, e, "workload", "want 'NAME TASK [; TASK]...'");
			for (i = 0; w[0][i]; i++)
				if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-", w[0][i]))
					return ferr(f, e, "workload", "name '%s': want [a-z0-9-]+", w[0]);
			strcpy(wl->name, w[0]);
			if (parse_task(f, e, s, wl, w + 1, n - 1))
				return -1;
			first = 0;
			continue;
		}
		if (parse_task(f, e, s, wl, w, n))
			return -1;
	}
	if (first)
		return ferr(f, e, "workload", "empty");
	if (check_phases(f, e, wl) || check_fit(f, e, s, wl))
		return -1;
	wl->max_over_optimal_pct = -1;
	if (!s->kind->load->over_optimal)
		return 0;
	if (fnum(f, "pass.over_optimal_pct", 0, 0, 1000, -1, &def))
		return -1;
	snprintf(key, sizeof(key), "pass.over_optimal_pct.%s", wl->name);
	return fnum(f, key, 0, 0, 1000, def, &wl->max_over_optimal_pct);
}

int parse_workloads(const struct fctx *f, struct scenario *s)
{
	const struct conf_entry *e[SCEN_MAX_WORKLOADS + 1];
	int n = conf_get_all(f->c, "workload", f->quick, e, SCEN_MAX_WORKLOADS + 1);
	int i, j;

	if (!n)
		return ferr(f, NULL, "workload", "missing");
	if (n > SCEN_MAX_WORKLOADS)
		return ferr(f, e[SCEN_MAX_WORKLOADS], "workload", "more than %d workloads",
			    SCEN_MAX_WORKLOADS);
	if (s->kind->load->timeline && n != 1)
		return ferr(f, e[1], "workload", "kind %s runs one workload along its timeline",
			    s->kind->name);
	for (i = 0; i < n; i++) {
		if (parse_one(f, e[i], s, &s->w[i]))
			return -1;
		for (j = 0; j < i; j++)
			if (!strcmp(s->w[j].name, s->w[i].name))
				return ferr(f, e[i], "workload", "'%s' given twice",
					    s->w[i].name);
	}
	s->nworkloads = n;
	return 0;
}
