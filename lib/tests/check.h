/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - what every emrcu C unit test includes: cmocka (TAP output under
 * CMOCKA_MESSAGE_OUTPUT=TAP, as `make check` runs them) and two helpers.
 */
#ifndef EMRCU_LIB_CHECK_H
#define EMRCU_LIB_CHECK_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* A case named "<group>/<function>", so that TAP lines name their file. */
#define CASE(group, fn) { group "/" #fn, fn, NULL, NULL, NULL }

/* |a - b| <= tol, both printed when not. */
#define assert_near(a, b, tol) do {					\
	double a_ = (a), b_ = (b);					\
	if (!(a_ - b_ <= (tol) && b_ - a_ <= (tol)))			\
		fail_msg("%s = %.9g, expected %.9g +- %g", #a, a_, b_,	\
			 (double)(tol));				\
} while (0)

/* A condition with a printf-style reason shown when it is false. */
#define assert_msg(c, ...) do {						\
	if (!(c))							\
		fail_msg(__VA_ARGS__);					\
} while (0)

#endif
