// SPDX-License-Identifier: GPL-2.0
#include "verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "emrcu/json.h"
#include "judge.h"
#include "kind.h"
#include "stats.h"

/* Boots whose @valid metric (if given) is 1 only. */
static struct pooled pool_if(const struct outcome *o, int no, int run,
			     const char *name, int cluster, const char *valid)
{
	double v[METRIC_MAX_SAMPLES * 8];
	struct pooled p = { 0, NAN, NAN, NAN };
	int i, k;

	for (i = 0; i < no; i++) {
		const struct metric *m;

		if (o[i].run != run || !o[i].ok)
			continue;
		if (valid) {
			m = metric_find(o[i].ms, valid, -1);
			if (!m || !m->n || m->v[0] != 1)
				continue;
		}
		m = metric_find(o[i].ms, name, cluster);
		for (k = 0; m && k < m->n && p.n < (int)(sizeof(v) / sizeof(v[0])); k++)
			v[p.n++] = m->v[k];
	}
	if (!p.n)
		return p;
	stats_sort(v, (size_t)p.n);
	p.min = v[0];
	p.max = v[p.n - 1];
	p.median = stats_median_sorted(v, (size_t)p.n);
	return p;
}

struct pooled pool_metric(const struct outcome *o, int no, int run,
			  const char *name, int cluster)
{
	return pool_if(o, no, run, name, cluster, NULL);
}

void judge_check(struct judge *j, const char *what, const char *run,
		 double value, const char *op, double limit, int pass,
		 int judged)
{
	struct json *c = json_push(j->checks, json_new_obj());

	j->nchecks++;
	json_set_str(c, "check", what);
	json_set_str(c, "run", run);
	json_set_num(c, "value", value);
	json_set_str(c, "op", op);
	json_set_num(c, "limit", limit);
	json_set_bool(c, "judged", judged);
	json_set_bool(c, "pass", pass);
	if (!strcmp(op, "ran"))
		fprintf(j->txt, "FAIL: %s\n", what);
	else
		fprintf(j->txt, "%s: %s [%s]: %.2f %s %.2f%s\n",
			!judged ? "INFO" : pass ? "PASS" : "FAIL", what, run, value,
			op, limit, judged ? "" : " (not judged)");
	j->judged += judged;
	if (judged && !pass)
		j->failed++;
}

void table_cell(FILE *f, struct pooled p, const char *fmt)
{
	char b[64];

	if (!p.n) {
		fprintf(f, " %14s", "-");
		return;
	}
	snprintf(b, sizeof(b), fmt, p.median);
	if (p.n > 1) {
		size_t l = strlen(b);

		snprintf(b + l, sizeof(b) - l, "±%.2g", (p.max - p.min) / 2);
	}
	fprintf(f, " %14s", b);
}

struct pooled pool_step(const struct outcome *o, int no, int r,
			const char *metric, const char *label, int cl)
{
	char n[METRIC_NAME_LEN + 64];

	snprintf(n, sizeof(n), "%s.%s", metric, label);
	return pool_metric(o, no, r, n, cl);
}

/* Like pool_step(), over the boots whose step @label was valid (derive.h). */
struct pooled pool_step_valid(const struct outcome *o, int no, int r,
			      const char *metric, const char *label, int cl)
{
	char n[METRIC_NAME_LEN + 64], v[METRIC_NAME_LEN + 64];

	snprintf(n, sizeof(n), "%s.%s", metric, label);
	snprintf(v, sizeof(v), "step_valid.%s", label);
	return pool_if(o, no, r, n, cl, v);
}

int boots_ok(const struct outcome *o, int no, int r)
{
	int i, n = 0;

	for (i = 0; i < no; i++)
		n += o[i].run == r && o[i].ok;
	return n;
}

/* The run of @em whose variant is @variant, else the first of @em, or -1. */
int run_of(const struct scenario *s, enum scen_em em, const char *variant)
{
	int r, any = -1;

	for (r = 0; r < s->nruns; r++) {
		if (s->run[r].em != em)
			continue;
		if (!variant || !strcmp(s->run[r].variant, variant))
			return r;
		if (any < 0)
			any = r;
	}
	return any;
}

static void share_cell(FILE *f, const struct outcome *o, int no, int r,
		       const char *label, int ncl)
{
	char b[96] = "";
	size_t l = 0;
	int k;

	for (k = 0; k < ncl && l < sizeof(b) - 8; k++) {
		struct pooled p = pool_step(o, no, r, "busy_share_pct", label, k);

		if (p.n)
			l += (size_t)snprintf(b + l, sizeof(b) - l, "%s%.0f",
					      k ? "/" : "", p.median);
		else
			l += (size_t)snprintf(b + l, sizeof(b) - l, "%s-", k ? "/" : "");
	}
	fprintf(f, " %14s", b);
}

void load_table(struct judge *j, const struct scenario *s,
		const struct outcome *o, int no, const struct table_col *extra)
{
	static const struct table_col cols[] = {
		{ "true_energy_mj", "true mJ", "%.2f" },
		{ "em_energy_mj", "EM mJ", "%.2f" },
		{ "em_err_pct", "EM err %", "%.2f" },
		{ "em_err_total_pct", "vs total %", "%.2f" },
		{ NULL }
	};
	const struct table_col *c;
	char rn[80];
	int r, i, ncl = s->topo.nclusters;

	for (r = 0; r < s->nruns; r++) {
		scen_run_name(s, r, rn, sizeof(rn));
		fprintf(j->txt, "\n[%s]\n%-20s", rn, "step");
		for (c = cols; c->metric; c++)
			fprintf(j->txt, " %14s", c->head);
		for (c = extra; c && c->metric; c++)
			fprintf(j->txt, " %14s", c->head);
		fprintf(j->txt, " %14s %14s %6s\n", "busy % by cl", "work %", "valid");
		for (i = 0; i < scen_nsteps(s); i++) {
			const char *l = step_label(s, i);

			fprintf(j->txt, "%-20s", l);
			for (c = cols; c->metric; c++)
				table_cell(j->txt, pool_step(o, no, r, c->metric, l, -1), c->fmt);
			for (c = extra; c && c->metric; c++)
				table_cell(j->txt, pool_step(o, no, r, c->metric, l, -1), c->fmt);
			share_cell(j->txt, o, no, r, l, ncl);
			table_cell(j->txt, pool_step(o, no, r, "work_pct", l, -1), "%.0f");
			fprintf(j->txt, " %3d/%-2d\n",
				pool_step_valid(o, no, r, "work_pct", l, -1).n,
				boots_ok(o, no, r));
		}
	}
	fputc('\n', j->txt);
}

int verdict(const struct scenario *s, const struct outcome *o, int no,
	    FILE *txt, FILE *json)
{
	struct json *root = json_new_obj();
	struct judge j = { .txt = txt };
	char rn[80];
	int i, rc;

	json_set_str(root, "schema", "emrcu/scenario-verdict/1");
	json_set_str(root, "scenario", s->name);
	json_set_str(root, "kind", s->kind->name);
	json_set_str(root, "topology", s->topo_spec);
	json_set_str(root, "mode", s->mode);
	j.checks = json_set(root, "checks", json_new_arr());
	fprintf(txt, "== %s (%s): %s\n   topology %s, mode %s, %d boot(s) per run\n",
		s->name, s->kind->name, s->description, s->topo_spec,
		s->mode, s->boots);
	for (i = 0; i < no; i++) {
		if (o[i].ok)
			continue;
		scen_run_name(s, o[i].run, rn, sizeof(rn));
		judge_check(&j, o[i].why, rn, 0, "ran", 0, 0, 1);
	}
	s->kind->judge(&j, s, o, no);
	json_set_int(root, "failed", j.failed);
	json_set_int(root, "judged", j.judged);
	if (!j.judged && !j.inconclusive && s->kind->declares_checks(s)) {
		json_set_str(root, "verdict", "none judged");
		json_write(json, root, 2);
		json_free(root);
		fprintf(txt, "FAIL: %s: declares checks, none could be judged (%d value(s) reported)\n",
			s->name, j.nchecks);
		return -1;
	}
	json_set_int(root, "inconclusive", j.inconclusive);
	json_set_str(root, "verdict", j.failed ? "fail" : j.judged ? "pass" : "measured");
	rc = json_write(json, root, 2);
	json_free(root);
	if (rc)
		return -1;
	if (j.judged)
		fprintf(txt, "%s: %s: %d check(s), %d failed", j.failed ? "FAIL" : "PASS",
			s->name, j.judged, j.failed);
	else if (j.inconclusive)
		fprintf(txt, "MEASURED: %s: no check resolved", s->name);
	else
		fprintf(txt, "MEASURED: %s: no checks (declares no threshold; the figures are in the tables)",
			s->name);
	if (j.inconclusive)
		fprintf(txt, " (%d inconclusive)", j.inconclusive);
	fputc('\n', txt);
	return j.failed;
}
