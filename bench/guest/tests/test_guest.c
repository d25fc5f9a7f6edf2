// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the guest programs' parsers, on recorded guest output
 * (tests/logs: real consoles and /dev/kmsg records of the unpatched kernel
 * with emrcu_platform; tests/data: real debugfs output of the module).
 *
 *   test-guest DIR        (DIR = bench/guest/tests; TAP on stdout)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emrcu/em.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/sysfs.h"
#include "kmsg.h"
#include "cputopo.h"

static const char *dir;

TEST(count_words_spaces)
{
	assert_int_equal(count_words("332779 636717 2000000 "), 3);
	assert_int_equal(count_words(""), 0);
	assert_int_equal(count_words("  a\tb\n"), 2);
}

TEST(kmsg_text_forms)
{
	assert_string_equal(kmsg_text("6,177,1409148,-;sched_energy_set: starting EAS"),
			    "sched_energy_set: starting EAS");
	assert_string_equal(kmsg_text("[    1.616423] sched_energy_set: starting EAS"),
			    "sched_energy_set: starting EAS");
	assert_string_equal(kmsg_text("check rc=0"), "check rc=0");
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

TEST(kmsg_eas_started)
{
	struct eas_state st;

	scan_file("kmsg-eas-start.txt", &st);
	assert_msg(st.starts == 1 && st.stops == 0 && st.started && st.nr_notes == 0,
		   "starts %d stops %d started %d notes %d",
		   st.starts, st.stops, st.started, st.nr_notes);
}

TEST(console_performance_then_schedutil)
{
	struct eas_state st;

	scan_file("console-governor-switch.log", &st);
	assert_msg(st.starts == 2 && st.stops == 1 && st.started && st.nr_notes == 1 &&
		   strstr(st.notes[0], "schedutil is mandatory"),
		   "starts %d stops %d started %d notes %d", st.starts, st.stops,
		   st.started, st.nr_notes);
}

TEST(console_symmetric_no_eas)
{
	struct eas_state st;

	scan_file("console-symmetric.log", &st);
	assert_msg(st.starts == 0 && !st.started && st.nr_notes == 2 &&
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
TEST(debugfs_json)
{
	char *params = slurp("params.json"), *power = slurp("power.json");
	char *meter = slurp("meter.json");
	struct json *pa, *po, *me;
	const struct json *c;
	double x = 0;

	assert_msg(params && power && meter, "missing tests/data");
	pa = json_parse(params, strlen(params), NULL);
	po = json_parse(power, strlen(power), NULL);
	me = json_parse(meter, strlen(meter), NULL);
	assert_msg(pa && po && me, "debugfs json parses: params %p power %p meter %p",
		   (void *)pa, (void *)po, (void *)me);
	assert_msg(!json_num(json_get(pa, "fmax_khz"), &x) && x == 2000000,
		   "params fmax: %f", x);
	c = json_get(json_at(json_get(pa, "clusters"), 1), "cpus");
	assert_msg(json_len(c) == 2 && !json_num(json_at(c, 1), &x) && x == 5,
		   "params cluster 1 cpus: %zu cpus", json_len(c));
	c = json_get(json_at(json_get(po, "clusters"), 2), "busy_uw");
	assert_msg(json_len(c) == 17 && !json_num(json_at(c, 16), &x) && x == 2200958,
		   "power cluster 2 busy_uw: %zu states", json_len(c));
	c = json_at(json_get(me, "cpus"), 7);
	assert_msg(!json_num(json_get(c, "energy_uj"), &x) && x > 0,
		   "meter: no energy for cpu7");
	json_free(pa);
	json_free(po);
	json_free(me);
	free(params);
	free(power);
	free(meter);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		CASE("guest", count_words_spaces),
		CASE("guest", kmsg_text_forms),
		CASE("guest", kmsg_eas_started),
		CASE("guest", console_performance_then_schedutil),
		CASE("guest", console_symmetric_no_eas),
		CASE("guest", debugfs_json),
	};

	dir = argc > 1 ? argv[1] : "tests";
	return run_group("guest", tests);
}
