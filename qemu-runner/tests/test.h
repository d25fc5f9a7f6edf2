/* test.h — minimal unit test harness: one PASS:/FAIL: line per case. */
#ifndef EMRCU_TEST_H
#define EMRCU_TEST_H

#include <stdio.h>

#define WHY_MAX 512

typedef int (*test_fn)(char *why);

struct test_case {
	const char *name;
	test_fn fn;
};

/* Fail the case with file:line and the expression (or a message). */
#define EXPECT(c) do { \
	if (!(c)) { \
		snprintf(why, WHY_MAX, "%s:%d: %s", __FILE__, __LINE__, #c); \
		return 1; \
	} \
} while (0)
#define EXPECTF(c, ...) do { \
	if (!(c)) { \
		int n_ = snprintf(why, WHY_MAX, "%s:%d: ", __FILE__, __LINE__); \
		snprintf(why + n_, WHY_MAX - (size_t)n_, __VA_ARGS__); \
		return 1; \
	} \
} while (0)

extern const struct test_case topo_tests[], dts_tests[], cpio_tests[],
	console_tests[], scan_tests[], misc_tests[];

#endif
