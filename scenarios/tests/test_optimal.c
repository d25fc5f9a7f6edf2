// SPDX-License-Identifier: GPL-2.0
/* The brute-force optimiser against hand-computed placements. */
#include <string.h>

#include "optimal.h"
#include "check.h"
#include "suites.h"

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

TEST(one_cluster)
{
	struct opt_model m = { .ncl = 1 };
	struct opt_task t = { .util = 256, .cluster = -1 };
	struct opt_result r;

	cluster(&m.cl[0], 1, 1024, 100, 400, 10, 20, 50);
	/* OPP0 holds 512: b = 0.5 -> 0.5*100 + 0.5*10 + 50*0.5 */
	assert_true(!opt_best(&m, &t, 1, OPT_TRUE, &r) && r.feasible);
	assert_near(r.true_uw, 80, 1e-9);
	assert_near(r.em_uw, 50, 1e-9);
	t.util = 700;	/* needs OPP1: b = 700/1024 */
	assert_true(!opt_best(&m, &t, 1, OPT_TRUE, &r) && r.feasible);
	assert_near(r.true_uw, 700.0 / 1024 * 400 + 324.0 / 1024 * 20 + 50 * 700.0 / 1024, 1e-9);
}

static void little_big(struct opt_model *m)
{
	m->ncl = 2;
	cluster(&m->cl[0], 1, 256, 20, 60, 2, 4, 0);
	cluster(&m->cl[1], 1, 1024, 200, 500, 20, 40, 0);
}

TEST(small_goes_little)
{
	struct opt_model m;
	struct opt_task t = { .util = 100, .cluster = -1 };
	struct opt_result r;

	little_big(&m);
	assert_true(!opt_best(&m, &t, 1, OPT_TRUE, &r) && r.feasible);
	assert_true(r.cluster[0] == 0);
	assert_near(r.true_uw, 0.78125 * 20 + 0.21875 * 2 + 20, 1e-9);
	t.util = 300;	/* does not fit 256: big, OPP0 (512) */
	assert_true(!opt_best(&m, &t, 1, OPT_TRUE, &r) && r.feasible);
	assert_true(r.cluster[0] == 1);
	assert_near(r.true_uw, 300.0 / 512 * 200 + 212.0 / 512 * 20 + 2, 1e-9);
}

TEST(em_misleads)
{
	struct opt_model m;
	struct opt_task t = { .util = 100, .cluster = -1 };
	struct opt_result best, em;

	little_big(&m);
	m.cl[0].em_uw[0] = m.cl[0].em_uw[1] = 1000;	/* EM: little is dear */
	assert_true(!opt_best(&m, &t, 1, OPT_TRUE, &best));
	assert_true(!opt_best(&m, &t, 1, OPT_EM, &em));
	assert_true(best.cluster[0] == 0 && em.cluster[0] == 1);
	assert_near(em.true_uw, 100.0 / 512 * 200 + 412.0 / 512 * 20 + 2, 1e-9);
	assert_true(em.true_uw > best.true_uw);
}

TEST(shared_decides)
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
	assert_true(!opt_best(&m, t, 2, OPT_TRUE, &r) && r.feasible);
	assert_near(r.true_uw, 210, 1e-9);
	assert_true(r.cluster[0] == r.cluster[1] && r.cpu[0] != r.cpu[1]);
	assert_true(!opt_best(&m, t, 2, OPT_EM, &r));
	assert_near(r.em_uw, 20, 1e-9);
	assert_near(r.true_uw, 210, 1e-9);	/* ties go to the true optimum */
}

TEST(infeasible)
{
	struct opt_model m;
	struct opt_task t[2] = { { 900, -1 }, { 900, -1 } };
	struct opt_result r;

	little_big(&m);
	assert_true(!opt_best(&m, t, 2, OPT_TRUE, &r) && !r.feasible);
	assert_true(!opt_feasible(&m, t, 2));
	assert_true(opt_feasible(&m, t, 1));
	t[0].util = 2000;
	assert_true(!opt_feasible(&m, t, 1));
}

TEST(canonical_count)
{
	struct opt_model m = { .ncl = 1 };
	struct opt_task t[3] = { { 1, -1 }, { 1, -1 }, { 1, -1 } };
	struct opt_result r;

	cluster(&m.cl[0], 4, 1024, 1, 1, 0, 0, 0);
	assert_true(!opt_best(&m, t, 3, OPT_TRUE, &r));
	assert_true(r.leaves == 5);		/* set partitions of 3 tasks: Bell(3) */
	m.ncl = 2;
	m.cl[0].ncpus = 2;
	m.cl[1] = m.cl[0];
	assert_true(!opt_best(&m, t, 2, OPT_TRUE, &r));
	assert_true(r.leaves == 6);
}

TEST(pinned)
{
	struct opt_model m;
	struct opt_task t = { .util = 100, .cluster = 1 };
	struct opt_result r;

	little_big(&m);
	assert_true(!opt_best(&m, &t, 1, OPT_TRUE, &r) && r.feasible && r.cluster[0] == 1);
	t.cluster = 2;
	assert_true(opt_best(&m, &t, 1, OPT_TRUE, &r) == -1);
}

TEST(split_placement)
{
	static double u[OPT_MAX_CLUSTERS][OPT_MAX_CPUS_PER_CL];
	struct opt_model m;
	struct opt_task t = { .util = 100, .cluster = -1 };
	int cl = 0, cpu = 0;
	double tp, ep, tw, ew, bl = 50.0 / 128, bb = 50.0 / 512;

	little_big(&m);
	/* whole on the little CPU: the same as opt_eval() */
	u[0][0] = 100;
	assert_true(opt_eval_util(&m, u, &tp, &ep));
	assert_true(opt_eval(&m, &t, 1, &cl, &cpu, &tw, &ew));
	assert_near(tp, tw, 1e-9);
	assert_near(ep, ew, 1e-9);
	/* half on each: both at OPP0 (62.5 fits 128 and 512) */
	u[0][0] = 50;
	u[1][0] = 50;
	assert_true(opt_eval_util(&m, u, &tp, &ep));
	assert_near(tp, bl * 20 + (1 - bl) * 2 + bb * 200 + (1 - bb) * 20, 1e-9);
	assert_near(ep, bl * 20 + bb * 200, 1e-9);
	u[0][0] = 300;	/* more than the little CPU holds */
	assert_true(!opt_eval_util(&m, u, &tp, &ep));
}

int test_optimal(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("scenarios/optimal/one-cluster", one_cluster),
		NAMED("scenarios/optimal/small-task-on-little", small_goes_little),
		NAMED("scenarios/optimal/em-choice-evaluated-under-truth", em_misleads),
		NAMED("scenarios/optimal/shared-power-decides-packing", shared_decides),
		NAMED("scenarios/optimal/infeasible", infeasible),
		NAMED("scenarios/optimal/canonical-enumeration", canonical_count),
		NAMED("scenarios/optimal/pinned-cluster", pinned),
		NAMED("scenarios/optimal/split-placement", split_placement),
	};

	return run_group("scenarios/optimal", tests);
}
