/* test_topo.c — topology spec parser and the emrcu-topo CLI. */
#include <stdio.h>

#include "check.h"
#include "suites.h"
#include "emrcu/topo.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

TEST(t_default)
{
	struct topo t;
	char err[256], s[256];

	assert_true(topo_parse(TOPO_DEFAULT, &t, err, sizeof(err)) == 0);
	assert_true(t.nclusters == 3);
	assert_true(t.c[0].ncpus == 4 && t.c[1].ncpus == 2 && t.c[2].ncpus == 2);
	assert_true(t.c[0].capacity < t.c[1].capacity && t.c[1].capacity < t.c[2].capacity);
	assert_true(t.ncpus == 8);
	topo_format(&t, s, sizeof(s));
	assert_true(!strcmp(s, TOPO_DEFAULT));
}

TEST(t_unequal)
{
	struct topo t;
	char err[256], s[256];

	assert_true(topo_parse("1x100+3x200+1x300+2x1024", &t, err, sizeof(err)) == 0);
	assert_true(t.nclusters == 4 && t.ncpus == 7);
	assert_true(topo_cpu_cluster(&t, 0) == 0);
	assert_true(topo_cpu_cluster(&t, 1) == 1 && topo_cpu_cluster(&t, 3) == 1);
	assert_true(topo_cpu_cluster(&t, 4) == 2);
	assert_true(topo_cpu_cluster(&t, 6) == 3);
	assert_true(topo_cpu_cluster(&t, 7) == -1);
	topo_format(&t, s, sizeof(s));
	assert_true(!strcmp(s, "1x100+3x200+1x300+2x1024"));
	assert_true(topo_parse("016x0001", &t, err, sizeof(err)) == 0);
	assert_true(t.ncpus == 16 && t.c[0].capacity == 1);
}

TEST(t_final_capacity)
{
	struct topo t;
	char err[256];

	assert_true(topo_parse("2x256+2x512", &t, err, sizeof(err)) == 0);
	assert_true(topo_final_capacity(&t, 0) == 512);
	assert_true(topo_final_capacity(&t, 1) == 1024);
	assert_true(topo_parse("4x160+2x512+2x1024", &t, err, sizeof(err)) == 0);
	assert_true(topo_final_capacity(&t, 0) == 160);
	assert_true(topo_parse("1x3+1x7", &t, err, sizeof(err)) == 0);
	assert_true(topo_final_capacity(&t, 0) == 438);	/* floor(3 * 1024 / 7) */
}

TEST(t_invalid)
{
	static const struct { const char *spec, *want; } bad[] = {
		{ "", "empty topology" },
		{ "0x160", "0 CPUs" },
		{ "4x160+0x512", "cluster 1: 0 CPUs" },
		{ "17x100", "NR_CPUS=16" },
		{ "8x100+9x100", "NR_CPUS=16" },
		{ "4x0", "capacity 0 out of range" },
		{ "4x1025", "capacity 1025 out of range" },
		{ "garbage", "expected COUNTxCAPACITY, got 'garbage'" },
		{ "4x160+", "cluster 1 is empty" },
		{ "+4x160", "cluster 0 is empty" },
		{ "4x160++2x512", "cluster 1 is empty" },
		{ "4x", "expected COUNTxCAPACITY" },
		{ "x160", "expected COUNTxCAPACITY" },
		{ "4x160 ", "expected COUNTxCAPACITY" },
		{ "-1x100", "expected COUNTxCAPACITY" },
		{ "4X160", "expected COUNTxCAPACITY" },
		{ "1234567890x1", "expected COUNTxCAPACITY" },
		{ "4*160", "expected COUNTxCAPACITY" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct topo t;
		char err[256] = "";

		assert_msg(topo_parse(bad[i].spec, &t, err, sizeof(err)) == -1,
			"'%s' accepted", bad[i].spec);
		assert_msg(strstr(err, bad[i].want) && !strchr(err, '\n'),
			"'%s': error '%s', want '%s'", bad[i].spec, err, bad[i].want);
	}
}

TEST(t_cli)
{
	FILE *p;
	char line[512], line2[512];
	int st;

	p = popen("../emrcu-topo 4x160+0x2 2>&1", "r");
	assert_true(p);
	assert_true(fgets(line, sizeof(line), p));
	assert_true(!fgets(line2, sizeof(line2), p));	/* one line */
	st = pclose(p);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	assert_msg(strstr(line, "cluster 1: 0 CPUs"), "got '%s'", line);
	p = popen("../emrcu-topo --default", "r");
	assert_true(p && fgets(line, sizeof(line), p));
	st = pclose(p);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	line[strcspn(line, "\n")] = '\0';
	assert_true(!strcmp(line, TOPO_DEFAULT));
	st = system("../emrcu-topo 2x100+1x1024 >/dev/null");
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int topo_tests(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("topo/default-is-little-mid-big", t_default),
		NAMED("topo/unequal-clusters", t_unequal),
		NAMED("topo/final-capacity-scaling", t_final_capacity),
		NAMED("topo/invalid-specs-one-line-errors", t_invalid),
		NAMED("topo/cli-exit-codes", t_cli),
	};

	return run_group("qemu-runner/topo", tests);
}
