// SPDX-License-Identifier: GPL-2.0
#include "optimal.h"

#include <string.h>

struct search {
	const struct opt_model *m;
	const struct opt_task *t;
	int n;
	enum opt_objective obj;
	int stop_at_first;
	int cl[OPT_MAX_TASKS], cpu[OPT_MAX_TASKS];
	struct opt_result *r;
};

/* Lowest OPP of @c holding @u, or -1. */
static int opp_for(const struct opt_cluster *c, double u)
{
	double top = c->khz[c->nopps - 1];
	int j;

	for (j = 0; j < c->nopps; j++)
		if (c->cap * c->khz[j] / top >= u - 1e-9)
			return j;
	return -1;
}

int opt_eval_util(const struct opt_model *m,
		  double u[][OPT_MAX_CPUS_PER_CL], double *true_uw,
		  double *em_uw)
{
	double tp = 0, ep = 0;
	int k, i;

	for (k = 0; k < m->ncl; k++) {
		const struct opt_cluster *c = &m->cl[k];
		double umax = 0, none_busy = 1, capj;
		int j;

		for (i = 0; i < c->ncpus; i++)
			if (u[k][i] > umax)
				umax = u[k][i];
		if (umax <= 0) {
			tp += c->ncpus * c->idle_uw[0];
			continue;
		}
		if (opp_for(c, umax) < 0)
			return 0;
		/* the OPP the kernel picks for it: schedutil's headroom, capped */
		j = opp_for(c, umax * OPT_FREQ_HEADROOM);
		if (j < 0)
			j = c->nopps - 1;
		capj = c->cap * c->khz[j] / c->khz[c->nopps - 1];
		for (i = 0; i < c->ncpus; i++) {
			double b = u[k][i] / capj;

			if (b > 1)
				b = 1;
			tp += b * c->busy_uw[j] + (1 - b) * c->idle_uw[j];
			ep += b * c->em_uw[j];
			none_busy *= 1 - b;
		}
		tp += c->shared_uw * (1 - none_busy);
	}
	*true_uw = tp;
	*em_uw = ep;
	return 1;
}

int opt_eval(const struct opt_model *m, const struct opt_task *t, int n,
	     const int *cluster, const int *cpu, double *true_uw,
	     double *em_uw)
{
	double u[OPT_MAX_CLUSTERS][OPT_MAX_CPUS_PER_CL];
	int i;

	memset(u, 0, sizeof(u));
	for (i = 0; i < n; i++)
		u[cluster[i]][cpu[i]] += t[i].util;
	return opt_eval_util(m, u, true_uw, em_uw);
}

static int better(const struct search *s, double tp, double ep)
{
	const struct opt_result *r = s->r;
	double a = s->obj == OPT_EM ? ep : tp;
	double b = s->obj == OPT_EM ? r->em_uw : r->true_uw;
	double tol = 1e-9 * (b > 0 ? b : 1);

	if (!r->feasible || a < b - tol)
		return 1;
	return a <= b + tol && tp < r->true_uw;
}

static int recurse(struct search *s, int i, int *used)
{
	const struct opt_model *m = s->m;
	int k, c;

	if (s->r->leaves >= OPT_MAX_LEAVES) {
		s->r->truncated = 1;
		return 1;
	}
	if (i == s->n) {
		double tp, ep;

		s->r->leaves++;
		if (!opt_eval(m, s->t, s->n, s->cl, s->cpu, &tp, &ep))
			return 0;
		if (better(s, tp, ep)) {
			s->r->feasible = 1;
			s->r->true_uw = tp;
			s->r->em_uw = ep;
			memcpy(s->r->cluster, s->cl, sizeof(s->cl));
			memcpy(s->r->cpu, s->cpu, sizeof(s->cpu));
		}
		return s->stop_at_first && s->r->feasible;
	}
	for (k = 0; k < m->ncl; k++) {
		if (s->t[i].cluster >= 0 && s->t[i].cluster != k)
			continue;
		for (c = 0; c <= used[k] && c < m->cl[k].ncpus; c++) {
			int grew = c == used[k];

			s->cl[i] = k;
			s->cpu[i] = c;
			used[k] += grew;
			if (recurse(s, i + 1, used))
				return 1;
			used[k] -= grew;
		}
	}
	return 0;
}

static int check(const struct opt_model *m, const struct opt_task *t, int n)
{
	int k, i;

	if (n < 0 || n > OPT_MAX_TASKS || m->ncl < 1 || m->ncl > OPT_MAX_CLUSTERS)
		return -1;
	for (k = 0; k < m->ncl; k++)
		if (m->cl[k].ncpus < 1 || m->cl[k].ncpus > OPT_MAX_CPUS_PER_CL ||
		    m->cl[k].nopps < 1 || m->cl[k].nopps > OPT_MAX_OPPS ||
		    m->cl[k].khz[m->cl[k].nopps - 1] <= 0)
			return -1;
	for (i = 0; i < n; i++)
		if (t[i].cluster >= m->ncl)
			return -1;
	return 0;
}

static int search(const struct opt_model *m, const struct opt_task *t, int n,
		  enum opt_objective obj, int first, struct opt_result *r)
{
	struct search s = { .m = m, .t = t, .n = n, .obj = obj,
			    .stop_at_first = first, .r = r };
	int used[OPT_MAX_CLUSTERS] = { 0 };

	memset(r, 0, sizeof(*r));
	if (check(m, t, n))
		return -1;
	recurse(&s, 0, used);
	return 0;
}

int opt_best(const struct opt_model *m, const struct opt_task *t, int n,
	     enum opt_objective obj, struct opt_result *r)
{
	return search(m, t, n, obj, 0, r);
}

int opt_feasible(const struct opt_model *m, const struct opt_task *t, int n)
{
	struct opt_result r;

	return !search(m, t, n, OPT_TRUE, 1, &r) && r.feasible;
}
