/* test_dts.c — cpu-map/capacity rewrite of a recorded QEMU virt DTS. */
#define _GNU_SOURCE
#include <stdio.h>

#include "check.h"
#include "suites.h"
#include "dts.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIXTURE "fixtures/qemu-virt-8cpu.dts"

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

/* Output of a shell command, first line, trailing newline dropped. */
static int sh(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");

	out[0] = '\0';
	if (!p)
		return -1;
	if (!fgets(out, (int)len, p))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return pclose(p);
}

TEST(t_text)
{
	struct topo t;
	char err[256];
	char *in = read_file(FIXTURE, NULL), *out;

	assert_true(in);
	assert_true(topo_parse("4x160+2x512+2x1024", &t, err, sizeof(err)) == 0);
	out = dts_apply_topo(in, &t, 1, err, sizeof(err));
	assert_msg(out, "%s", err);
	assert_true(!strncmp(out, in, strlen(in)));	/* QEMU's DTS kept as is */
	assert_true(count(out, "capacity-dmips-mhz = <160>;") == 4);
	assert_true(count(out, "capacity-dmips-mhz = <512>;") == 2);
	assert_true(count(out, "capacity-dmips-mhz = <1024>;") == 2);
	assert_true(count(out, "/delete-node/ cpu-map;") == 1);
	assert_true(count(out, "next-level-cache = <&emrcu_l2_") == 8);
	assert_true(strstr(out, "emrcu_l2_2: l2-cache-cluster2"));
	free(out);
	out = dts_apply_topo(in, &t, 0, err, sizeof(err));
	assert_true(out && !strstr(out, "next-level-cache") && !strstr(out, "l2-cache"));
	free(out);
	free(in);
}

TEST(t_mismatch)
{
	struct topo t;
	char err[256] = "";
	char *in = read_file(FIXTURE, NULL);

	assert_true(in);
	assert_true(topo_parse("2x100+2x1024", &t, err, sizeof(err)) == 0);
	assert_true(dts_apply_topo(in, &t, 1, err, sizeof(err)) == NULL);
	assert_msg(strstr(err, "8 cpu nodes") && strstr(err, "4 CPUs"), "err '%s'", err);
	assert_true(dts_apply_topo("/dts-v1/;\n/ {\n\tcpus {\n", &t, 1, err, sizeof(err)) == NULL);
	free(in);
}

/* Compile with dtc and read the result back with fdtget, as the kernel sees it. */
TEST(t_compiled)
{
	struct topo t;
	char err[256], dir[] = "/tmp/emrcu-dts-XXXXXX", cmd[1024], out[256], ph[64];
	char *in = read_file(FIXTURE, NULL), *dts, *path;
	int rc;

	assert_true(in);
	assert_true(mkdtemp(dir));
	assert_true(topo_parse("4x160+2x512+2x1024", &t, err, sizeof(err)) == 0);
	dts = dts_apply_topo(in, &t, 1, err, sizeof(err));
	assert_true(dts);
	path = xasprintf("%s/t.dts", dir);
	assert_true(write_file_atomic(path, dts, strlen(dts)) == 0);
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o %s/t.dtb %s 2>&1", dir, path);
	rc = sh(cmd, out, sizeof(out));
	assert_msg(rc == 0, "dtc: %s", out);
	snprintf(cmd, sizeof(cmd), "fdtget -t u %s/t.dtb /cpus/cpu@6 capacity-dmips-mhz", dir);
	assert_true(sh(cmd, out, sizeof(out)) == 0 && !strcmp(out, "1024"));
	snprintf(cmd, sizeof(cmd), "fdtget -t u %s/t.dtb /cpus/cpu@3 capacity-dmips-mhz", dir);
	assert_true(sh(cmd, out, sizeof(out)) == 0 && !strcmp(out, "160"));
	/* cluster2/core1 is cpu@7 */
	snprintf(cmd, sizeof(cmd), "fdtget -t x %s/t.dtb /cpus/cpu@7 phandle", dir);
	assert_true(sh(cmd, ph, sizeof(ph)) == 0 && ph[0]);
	snprintf(cmd, sizeof(cmd), "fdtget -t x %s/t.dtb /cpus/cpu-map/socket0/cluster2/core1 cpu", dir);
	assert_true(sh(cmd, out, sizeof(out)) == 0);
	assert_msg(!strcmp(out, ph), "core1 -> %s, cpu@7 is %s", out, ph);
	/* QEMU's one-cluster map is gone: no core4 in cluster0, no cluster3 */
	snprintf(cmd, sizeof(cmd), "fdtget %s/t.dtb /cpus/cpu-map/socket0/cluster0/core4 cpu 2>/dev/null", dir);
	assert_true(sh(cmd, out, sizeof(out)) != 0);
	snprintf(cmd, sizeof(cmd), "fdtget -l %s/t.dtb /cpus/cpu-map/socket0 | tr '\\n' ' '", dir);
	assert_true(sh(cmd, out, sizeof(out)) == 0);
	assert_msg(!strcmp(out, "cluster0 cluster1 cluster2 "), "clusters '%s'", out);
	/* every CPU of cluster1 shares one L2 node, distinct from cluster0's */
	snprintf(cmd, sizeof(cmd), "fdtget -t x %s/t.dtb /cpus/cpu@4 next-level-cache; "
		 "fdtget -t x %s/t.dtb /cpus/cpu@5 next-level-cache; "
		 "fdtget -t x %s/t.dtb /cpus/cpu@0 next-level-cache | tr '\\n' ' '", dir, dir, dir);
	{
		FILE *p = popen(cmd, "r");
		char a[32] = "", b[32] = "", c[32] = "";

		assert_true(p);
		assert_true(fscanf(p, "%31s %31s %31s", a, b, c) == 3);
		pclose(p);
		assert_true(!strcmp(a, b) && strcmp(a, c));
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_true(system(cmd) == 0);
	free(path);
	free(dts);
	free(in);
}

int dts_tests(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("dts/capacities-and-cpu-map-text", t_text),
		NAMED("dts/cpu-count-mismatch-refused", t_mismatch),
		NAMED("dts/compiled-dtb-cpu-map-phandles", t_compiled),
	};

	return run_group("qemu-runner/dts", tests);
}
