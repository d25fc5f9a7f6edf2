// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the guest programs' parsers, on recorded guest output
 * (tests/logs: real consoles and /dev/kmsg records of the unpatched kernel
 * with emrcu_platform; tests/data: real debugfs output of the module).
 *
 *   test-guest DIR        (DIR = bench/guest/tests)
 * One "PASS: name" / "FAIL: name: why" line per case, then
 * "N passed, N failed"; exit 1 if any failed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/em.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/result.h"
#include "emrcu/sysfs.h"
#include "kmsg.h"
#include "cputopo.h"

static int passed, failed;
static const char *dir;

#define EXPECT(name, cond, ...) do {					\
	if (cond) {							\
		printf("PASS: %s\n", name);				\
		passed++;						\
	} else {							\
		printf("FAIL: %s: ", name);				\
		printf(__VA_ARGS__);					\
		printf("\n");						\
		failed++;						\
	}								\
} while (0)

static void test_cpulist(void)
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
		EXPECT("cpulist ok", n == ok[i].n && m == ok[i].mask,
		       "'%s' gave %d %#llx", ok[i].in, n, (unsigned long long)m);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = parse_cpulist(bad[i], &m);
		EXPECT("cpulist bad", n == -1, "'%s' gave %d", bad[i], n);
	}
}

static void test_small(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	EXPECT("count_words", count_words("332779 636717 2000000 ") == 3 &&
	       count_words("") == 0 && count_words("  a\tb\n") == 2, "miscounted");
	EXPECT("em_ps_khz", em_ps_khz("ps:2000000") == 2000000 &&
	       em_ps_khz("ps:") == -1 && em_ps_khz("cpus") == -1 &&
	       em_ps_khz("ps:12x") == -1, "wrong");
	EXPECT("kmsg_text record",
	       !strcmp(kmsg_text("6,177,1409148,-;sched_energy_set: starting EAS"),
		       "sched_energy_set: starting EAS"), "wrong");
	EXPECT("kmsg_text console",
	       !strcmp(kmsg_text("[    1.616423] sched_energy_set: starting EAS"),
		       "sched_energy_set: starting EAS"), "wrong");
	EXPECT("kmsg_text user line", !strcmp(kmsg_text("check rc=0"), "check rc=0"),
	       "wrong");
	f = open_memstream(&buf, &len);
	json_fput_str(f, "a\"b\\c\nd");
	cpulist_fput_json(f, 0x31);
	fclose(f);
	EXPECT("json_fput_str/cpulist_fput_json", !strcmp(buf, "\"a\\\"b\\\\c\\nd\"[0,4,5]"),
	       "got %s", buf);
	free(buf);
}

static void scan_file(const char *name, struct eas_state *st)
{
	char path[512], line[4096];
	FILE *f;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "%s/logs/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		st->starts = -1;
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		eas_scan_line(st, kmsg_text(line));
	}
	fclose(f);
}

static void test_logs(void)
{
	struct eas_state st;

	scan_file("kmsg-eas-start.txt", &st);
	EXPECT("kmsg: EAS started", st.starts == 1 && st.stops == 0 && st.started &&
	       st.nr_notes == 0, "starts %d stops %d started %d notes %d",
	       st.starts, st.stops, st.started, st.nr_notes);

	scan_file("console-governor-switch.log", &st);
	EXPECT("console: performance then schedutil",
	       st.starts == 2 && st.stops == 1 && st.started && st.nr_notes == 1 &&
	       strstr(st.notes[0], "schedutil is mandatory"),
	       "starts %d stops %d started %d notes %d", st.starts, st.stops,
	       st.started, st.nr_notes);

	scan_file("console-symmetric.log", &st);
	EXPECT("console: symmetric, no EAS",
	       st.starts == 0 && !st.started && st.nr_notes == 2 &&
	       strstr(st.notes[0], "do not have asymmetric capacities"),
	       "starts %d started %d notes %d", st.starts, st.started, st.nr_notes);
}

static char *slurp(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/data/%s", dir, name);
	return read_file(path, NULL);
}

/* The module's recorded debugfs output reads as JSON (json-c, as the guest reads it). */
static void test_debugfs_json(void)
{
	char *params = slurp("params.json"), *power = slurp("power.json");
	char *meter = slurp("meter.json");
	struct json *pa, *po, *me;
	const struct json *c;
	double x = 0;

	EXPECT("data files", params && power && meter, "missing tests/data");
	if (!params || !power || !meter)
		return;
	pa = json_parse(params, strlen(params), NULL);
	po = json_parse(power, strlen(power), NULL);
	me = json_parse(meter, strlen(meter), NULL);
	EXPECT("debugfs json parses", pa && po && me, "params %p power %p meter %p",
	       (void *)pa, (void *)po, (void *)me);
	EXPECT("params fmax", !json_num(json_get(pa, "fmax_khz"), &x) && x == 2000000,
	       "fmax %f", x);
	c = json_get(json_at(json_get(pa, "clusters"), 1), "cpus");
	EXPECT("params cluster 1 cpus", json_len(c) == 2 &&
	       !json_num(json_at(c, 1), &x) && x == 5, "%zu cpus", json_len(c));
	c = json_get(json_at(json_get(po, "clusters"), 2), "busy_uw");
	EXPECT("power cluster 2 busy_uw", json_len(c) == 17 &&
	       !json_num(json_at(c, 16), &x) && x == 2200958, "%zu states", json_len(c));
	c = json_at(json_get(me, "cpus"), 7);
	EXPECT("meter cpu7 energy", !json_num(json_get(c, "energy_uj"), &x) && x > 0,
	       "no energy for cpu7");
	json_free(pa);
	json_free(po);
	json_free(me);
	free(params);
	free(power);
	free(meter);
}

int main(int argc, char **argv)
{
	dir = argc > 1 ? argv[1] : "tests";
	test_cpulist();
	test_small();
	test_logs();
	test_debugfs_json();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
