// SPDX-License-Identifier: GPL-2.0
/* test_sysfs.c - the cpulist format, perf state names, streamed JSON. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emrcu/em.h"
#include "emrcu/json.h"
#include "emrcu/sysfs.h"

TEST(cpulist)
{
	static const struct { const char *in; int n; uint64_t mask; } ok[] = {
		{ "0-3", 4, 0xf }, { "0-3,6,8-9", 7, 0x34f }, { "4 5 6 7", 4, 0xf0 },
		{ "0", 1, 1 }, { "", 0, 0 }, { "63", 1, 1ULL << 63 },
		{ "1,1", 1, 2 }, { " 2-3", 2, 0xc },
	};
	static const char *const bad[] = { "3-1", "a", "1-", "64", "0-64", "1;2" };
	uint64_t m;
	size_t i;
	int n;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		n = parse_cpulist(ok[i].in, &m);
		assert_msg(n == ok[i].n && m == ok[i].mask, "'%s' gave %d %#llx",
			   ok[i].in, n, (unsigned long long)m);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = parse_cpulist(bad[i], &m);
		assert_msg(n == -1, "'%s' gave %d", bad[i], n);
	}
}

TEST(em_ps_names)
{
	assert_int_equal(em_ps_khz("ps:2000000"), 2000000);
	assert_int_equal(em_ps_khz("ps:"), -1);
	assert_int_equal(em_ps_khz("cpus"), -1);
	assert_int_equal(em_ps_khz("ps:12x"), -1);
}

TEST(streamed_json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	json_fput_str(f, "a\"b\\c\nd");
	cpulist_fput_json(f, 0x31);
	fclose(f);
	assert_string_equal(buf, "\"a\\\"b\\\\c\\nd\"[0,4,5]");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		CASE("lib/sysfs", cpulist),
		CASE("lib/sysfs", em_ps_names),
		CASE("lib/sysfs", streamed_json),
	};

	return run_group("lib/sysfs", tests);
}
