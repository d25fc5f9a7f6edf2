/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal test framework: one PASS:/FAIL: line per case. */
#ifndef EMRCU_SCEN_TCHECK_H
#define EMRCU_SCEN_TCHECK_H

#include <stdio.h>

extern int t_failed_checks;
extern const char *t_dir;	/* scenarios/ */

#define EXPECT(cond) do { if (!(cond)) { \
	fprintf(stderr, "  %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
	t_failed_checks++; } } while (0)

#define EXPECT_NEAR(a, b, tol) do { double a_ = (a), b_ = (b); \
	if (!(a_ - b_ <= (tol) && b_ - a_ <= (tol))) { \
	fprintf(stderr, "  %s:%d: %s = %.9g, expected %.9g +- %g\n", __FILE__, \
		__LINE__, #a, a_, b_, (double)(tol)); t_failed_checks++; } } while (0)

/* Run one case: prints PASS/FAIL. */
void t_run(const char *name, void (*fn)(void));

void test_scen(void);
void test_optimal(void);
void test_data(void);
void test_plan(void);

#endif
