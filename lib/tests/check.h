/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - what every emrcu C unit test includes: cmocka (TAP output,
 * which tests/run.sh reads as cases) and a few helpers.
 */
#ifndef EMRCU_LIB_CHECK_H
#define EMRCU_LIB_CHECK_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

/* A case function; its state pointer is unused (setup runs in main). */
#define TEST(fn) static void fn(void **state __attribute__((unused)))
/* A case named @name in TAP (e.g. "results/stats.ratio_ci"). */
#define NAMED(name, fn) { name, fn, NULL, NULL, NULL }
/* A case named "<group>/<function>". */
#define CASE(group, fn) NAMED(group "/" #fn, fn)

/* |a - b| <= tol, both printed when not. */
#define assert_near(a, b, tol) do {					\
	double a_ = (a), b_ = (b);					\
	if (!(a_ - b_ <= (tol) && b_ - a_ <= (tol)))			\
		fail_msg("%s = %.9g, expected %.9g +- %g", #a, a_, b_,	\
			 (double)(tol));				\
} while (0)

/* |a - b| <= tol or both NaN; @what names the value in the failure. */
#define assert_close(a, b, tol, what) do {				\
	double a_ = (a), b_ = (b);					\
	if (!(fabs(a_ - b_) <= (tol) || (isnan(a_) && isnan(b_))))	\
		fail_msg("%s: got %.17g, expected %.17g (tol %g)", what,	\
			 a_, b_, (double)(tol));			\
} while (0)

/* A condition with a printf-style reason shown when it is false. */
#define assert_msg(c, ...) do {						\
	if (!(c))							\
		fail_msg(__VA_ARGS__);					\
} while (0)

/* Runs cmd through sh; its exit status (-1 if it did not exit). */
int run_sh(const char *cmd);
/* Occurrences of needle in the file at path (0 if unreadable). */
int file_count(const char *path, const char *needle);
int file_has(const char *path, const char *needle);

/* cmocka_run_group_tests_name() with TAP output unless the caller chose. */
#define run_group(name, tests) \
	(setenv("CMOCKA_MESSAGE_OUTPUT", "TAP", 0), \
	 cmocka_run_group_tests_name(name, tests, NULL, NULL))

#endif
