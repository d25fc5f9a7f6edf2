// SPDX-License-Identifier: GPL-2.0
/* The brute-force optimiser against hand-computed placements. */
#include <string.h>

#include "optimal.h"
#include "tcheck.h"

static void cluster(struct opt_cluster *c, int ncpus, double cap,
		    double b0, double b1, double i0, double i1, double shared)
{
	memset(c, 0, sizeof(*c));
	c->ncpus = ncpus;
	c->cap = cap;
	c->nopps = 2;
	c->khz[0] = 1000;
	c->khz[1] = 2000;
	c->busy_uw[0] = c->em_uw[0] = b0;
	c->busy_uw[1] = c->em_uw[1] = b1;
	c->idle_uw[0] = i0;
	c->idle_uw[1] = i1;
	c->shared_uw = shared;
}

static void one_cluster(void)
{
	struct opt_model m = { .ncl = 1 };
	struct opt_task t = { .util = 256, .cluster = -1 };
	struct opt_result r;

	cluster(&m.cl[0], 1, 1024, 100, 400, 10, 20, 50);
	/* OPP0 holds 512: b = 0.5 -> 0.5*100 + 0.5*10 + 50*0.5 */
	EXPECT(!opt_best(&m, &t, 1, OPT_TRUE, &r) && r.feasible);
	EXPECT_NEAR(r.true_uw, 80, 1e-9);
	EXPECT_NEAR(r.em_uw, 50, 1e-9);
	t.util = 700;	/* needs OPP1: b = 700/1024 */
	EXPECT(!opt_best(&m, &t, 1, OPT_TRUE, &r) && r.feasible);
	EXPECT_NEAR(r.true_uw, 700.0 / 1024 * 400 + 324.0 / 1024 * 20 + 50 * 700.0 / 1024, 1e-9);
}

static void little_big(struct opt_model *m)
{
	m->ncl = 2;
	cluster(&m->cl[0], 1, 256, 20, 60, 2, 4, 0);
	cluster(&m->cl[1], 1, 1024, 200, 500, 20, 40, 0);
}

static void small_goes_little(void)
{
	struct opt_model m;
	struct opt_task t = { .util = 100, .cluster = -1 };
	struct opt_result r;

	little_big(&m);
	EXPECT(!opt_best(&m, &t, 1, OPT_TRUE, &r) && r.feasible);
	EXPECT(r.cluster[0] == 0);
	EXPECT_NEAR(r.true_uw, 0.78125 * 20 + 0.21875 * 2 + 20, 1e-9);
	t.util = 300;	/* does not fit 256: big, OPP0 (512) */
	EXPECT(!opt_best(&m, &t, 1, OPT_TRUE, &r) && r.feasible);
	EXPECT(r.cluster[0] == 1);
	EXPECT_NEAR(r.true_uw, 300.0 / 512 * 200 + 212.0 / 512 * 20 + 2, 1e-9);
}

static void em_misleads(void)
{
	struct opt_model m;
	struct opt_task t = { .util = 100, .cluster = -1 };
	struct opt_result best, em;

	little_big(&m);
	m.cl[0].em_uw[0] = m.cl[0].em_uw[1] = 1000;	/* EM: little is dear */
	EXPECT(!opt_best(&m, &t, 1, OPT_TRUE, &best));
	EXPECT(!opt_best(&m, &t, 1, OPT_EM, &em));
	EXPECT(best.cluster[0] == 0 && em.cluster[0] == 1);
	EXPECT_NEAR(em.true_uw, 100.0 / 512 * 200 + 412.0 / 512 * 20 + 2, 1e-9);
	EXPECT(em.true_uw > best.true_uw);
}

static void shared_decides(void)
{
	struct opt_model m = { .ncl = 2 };
	struct opt_task t[2] = { { 102.4, -1 }, { 102.4, -1 } };
	struct opt_result r;
	int k;

	for (k = 0; k < 2; k++) {
		cluster(&m.cl[k], 2, 1024, 100, 100, 0, 0, 1000);
		m.cl[k].nopps = 1;
	}
	/* pack on two CPUs of one cluster: 2*10 + 1000*(1 - 0.9^2) = 210;
	 * same CPU: 20 + 200; spread: 20 + 2*100.  The EM sees 20 in all. */
	EXPECT(!opt_best(&m, t, 2, OPT_TRUE, &r) && r.feasible);
	EXPECT_NEAR(r.true_uw, 210, 1e-9);
	EXPECT(r.cluster[0] == r.cluster[1] && r.cpu[0] != r.cpu[1]);
	EXPECT(!opt_best(&m, t, 2, OPT_EM, &r));
	EXPECT_NEAR(r.em_uw, 20, 1e-9);
	EXPECT_NEAR(r.true_uw, 210, 1e-9);	/* ties go to the true optimum */
}

static void infeasible(void)
{
	struct opt_model m;
	struct opt_task t[2] = { { 900, -1 }, { 900, -1 } };
	struct opt_result r;

	little_big(&m);
	EXPECT(!opt_best(&m, t, 2, OPT_TRUE, &r) && !r.feasible);
	EXPECT(!opt_feasible(&m, t, 2));
	EXPECT(opt_feasible(&m, t, 1));
	t[0].util = 2000;
	EXPECT(!opt_feasible(&m, t, 1));
}

static void canonical_count(void)
{
	struct opt_model m = { .ncl = 1 };
	struct opt_task t[3] = { { 1, -1 }, { 1, -1 }, { 1, -1 } };
	struct opt_result r;

	cluster(&m.cl[0], 4, 1024, 1, 1, 0, 0, 0);
	EXPECT(!opt_best(&m, t, 3, OPT_TRUE, &r));
	EXPECT(r.leaves == 5);		/* set partitions of 3 tasks: Bell(3) */
	m.ncl = 2;
	m.cl[0].ncpus = 2;
	m.cl[1] = m.cl[0];
	EXPECT(!opt_best(&m, t, 2, OPT_TRUE, &r));
	EXPECT(r.leaves == 6);
}

static void pinned(void)
{
	struct opt_model m;
	struct opt_task t = { .util = 100, .cluster = 1 };
	struct opt_result r;

	little_big(&m);
	EXPECT(!opt_best(&m, &t, 1, OPT_TRUE, &r) && r.feasible && r.cluster[0] == 1);
	t.cluster = 2;
	EXPECT(opt_best(&m, &t, 1, OPT_TRUE, &r) == -1);
}

static void split_placement(void)
{
	static double u[OPT_MAX_CLUSTERS][OPT_MAX_CPUS_PER_CL];
	struct opt_model m;
	struct opt_task t = { .util = 100, .cluster = -1 };
	int cl = 0, cpu = 0;
	double tp, ep, tw, ew, bl = 50.0 / 128, bb = 50.0 / 512;

	little_big(&m);
	/* whole on the little CPU: the same as opt_eval() */
	u[0][0] = 100;
	EXPECT(opt_eval_util(&m, u, &tp, &ep));
	EXPECT(opt_eval(&m, &t, 1, &cl, &cpu, &tw, &ew));
	EXPECT_NEAR(tp, tw, 1e-9);
	EXPECT_NEAR(ep, ew, 1e-9);
	/* half on each: both at OPP0 (62.5 fits 128 and 512) */
	u[0][0] = 50;
	u[1][0] = 50;
	EXPECT(opt_eval_util(&m, u, &tp, &ep));
	EXPECT_NEAR(tp, bl * 20 + (1 - bl) * 2 + bb * 200 + (1 - bb) * 20, 1e-9);
	EXPECT_NEAR(ep, bl * 20 + bb * 200, 1e-9);
	u[0][0] = 300;	/* more than the little CPU holds */
	EXPECT(!opt_eval_util(&m, u, &tp, &ep));
}

void test_optimal(void)
{
	t_run("optimal/one-cluster", one_cluster);
	t_run("optimal/small-task-on-little", small_goes_little);
	t_run("optimal/em-choice-evaluated-under-truth", em_misleads);
	t_run("optimal/shared-power-decides-packing", shared_decides);
	t_run("optimal/infeasible", infeasible);
	t_run("optimal/canonical-enumeration", canonical_count);
	t_run("optimal/pinned-cluster", pinned);
	t_run("optimal/split-placement", split_placement);
}
