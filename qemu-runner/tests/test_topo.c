/* test_topo.c — topology spec parser and the emrcu-topo CLI. */
#include "test.h"
#include "emrcu/topo.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int t_default(char *why)
{
	struct topo t;
	char err[256], s[256];

	EXPECT(topo_parse(TOPO_DEFAULT, &t, err, sizeof(err)) == 0);
	EXPECT(t.nclusters == 3);
	EXPECT(t.c[0].ncpus == 4 && t.c[1].ncpus == 2 && t.c[2].ncpus == 2);
	EXPECT(t.c[0].capacity < t.c[1].capacity && t.c[1].capacity < t.c[2].capacity);
	EXPECT(t.ncpus == 8);
	topo_format(&t, s, sizeof(s));
	EXPECT(!strcmp(s, TOPO_DEFAULT));
	return 0;
}

static int t_unequal(char *why)
{
	struct topo t;
	char err[256], s[256];

	EXPECT(topo_parse("1x100+3x200+1x300+2x1024", &t, err, sizeof(err)) == 0);
	EXPECT(t.nclusters == 4 && t.ncpus == 7);
	EXPECT(topo_cpu_cluster(&t, 0) == 0);
	EXPECT(topo_cpu_cluster(&t, 1) == 1 && topo_cpu_cluster(&t, 3) == 1);
	EXPECT(topo_cpu_cluster(&t, 4) == 2);
	EXPECT(topo_cpu_cluster(&t, 6) == 3);
	EXPECT(topo_cpu_cluster(&t, 7) == -1);
	topo_format(&t, s, sizeof(s));
	EXPECT(!strcmp(s, "1x100+3x200+1x300+2x1024"));
	EXPECT(topo_parse("016x0001", &t, err, sizeof(err)) == 0);
	EXPECT(t.ncpus == 16 && t.c[0].capacity == 1);
	return 0;
}

static int t_final_capacity(char *why)
{
	struct topo t;
	char err[256];

	EXPECT(topo_parse("2x256+2x512", &t, err, sizeof(err)) == 0);
	EXPECT(topo_final_capacity(&t, 0) == 512);
	EXPECT(topo_final_capacity(&t, 1) == 1024);
	EXPECT(topo_parse("4x160+2x512+2x1024", &t, err, sizeof(err)) == 0);
	EXPECT(topo_final_capacity(&t, 0) == 160);
	EXPECT(topo_parse("1x3+1x7", &t, err, sizeof(err)) == 0);
	EXPECT(topo_final_capacity(&t, 0) == 438);	/* floor(3 * 1024 / 7) */
	return 0;
}

static int t_invalid(char *why)
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

		EXPECTF(topo_parse(bad[i].spec, &t, err, sizeof(err)) == -1,
			"'%s' accepted", bad[i].spec);
		EXPECTF(strstr(err, bad[i].want) && !strchr(err, '\n'),
			"'%s': error '%s', want '%s'", bad[i].spec, err, bad[i].want);
	}
	return 0;
}

static int t_cli(char *why)
{
	FILE *p;
	char line[512], line2[512];
	int st;

	p = popen("../emrcu-topo 4x160+0x2 2>&1", "r");
	EXPECT(p);
	EXPECT(fgets(line, sizeof(line), p));
	EXPECT(!fgets(line2, sizeof(line2), p));	/* one line */
	st = pclose(p);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	EXPECTF(strstr(line, "cluster 1: 0 CPUs"), "got '%s'", line);
	p = popen("../emrcu-topo --default", "r");
	EXPECT(p && fgets(line, sizeof(line), p));
	st = pclose(p);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	line[strcspn(line, "\n")] = '\0';
	EXPECT(!strcmp(line, TOPO_DEFAULT));
	st = system("../emrcu-topo 2x100+1x1024 >/dev/null");
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return 0;
}

const struct test_case topo_tests[] = {
	{ "topo/default-is-little-mid-big", t_default },
	{ "topo/unequal-clusters", t_unequal },
	{ "topo/final-capacity-scaling", t_final_capacity },
	{ "topo/invalid-specs-one-line-errors", t_invalid },
	{ "topo/cli-exit-codes", t_cli },
	{ NULL, NULL },
};
