/* test_dts.c — cpu-map/capacity rewrite of a recorded QEMU virt DTS. */
#define _GNU_SOURCE
#include "test.h"
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

static int t_text(char *why)
{
	struct topo t;
	char err[256];
	char *in = read_file(FIXTURE, NULL), *out;

	EXPECT(in);
	EXPECT(topo_parse("4x160+2x512+2x1024", &t, err, sizeof(err)) == 0);
	out = dts_apply_topo(in, &t, 1, err, sizeof(err));
	EXPECTF(out, "%s", err);
	EXPECT(!strncmp(out, in, strlen(in)));	/* QEMU's DTS kept as is */
	EXPECT(count(out, "capacity-dmips-mhz = <160>;") == 4);
	EXPECT(count(out, "capacity-dmips-mhz = <512>;") == 2);
	EXPECT(count(out, "capacity-dmips-mhz = <1024>;") == 2);
	EXPECT(count(out, "/delete-node/ cpu-map;") == 1);
	EXPECT(count(out, "next-level-cache = <&emrcu_l2_") == 8);
	EXPECT(strstr(out, "emrcu_l2_2: l2-cache-cluster2"));
	free(out);
	out = dts_apply_topo(in, &t, 0, err, sizeof(err));
	EXPECT(out && !strstr(out, "next-level-cache") && !strstr(out, "l2-cache"));
	free(out);
	free(in);
	return 0;
}

static int t_mismatch(char *why)
{
	struct topo t;
	char err[256] = "";
	char *in = read_file(FIXTURE, NULL);

	EXPECT(in);
	EXPECT(topo_parse("2x100+2x1024", &t, err, sizeof(err)) == 0);
	EXPECT(dts_apply_topo(in, &t, 1, err, sizeof(err)) == NULL);
	EXPECTF(strstr(err, "8 cpu nodes") && strstr(err, "4 CPUs"), "err '%s'", err);
	EXPECT(dts_apply_topo("/dts-v1/;\n/ {\n\tcpus {\n", &t, 1, err, sizeof(err)) == NULL);
	free(in);
	return 0;
}

/* Compile with dtc and read the result back with fdtget, as the kernel sees it. */
static int t_compiled(char *why)
{
	struct topo t;
	char err[256], dir[] = "/tmp/emrcu-dts-XXXXXX", cmd[1024], out[256], ph[64];
	char *in = read_file(FIXTURE, NULL), *dts, *path;
	int rc;

	EXPECT(in);
	EXPECT(mkdtemp(dir));
	EXPECT(topo_parse("4x160+2x512+2x1024", &t, err, sizeof(err)) == 0);
	dts = dts_apply_topo(in, &t, 1, err, sizeof(err));
	EXPECT(dts);
	path = xasprintf("%s/t.dts", dir);
	EXPECT(write_file_atomic(path, dts, strlen(dts)) == 0);
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o %s/t.dtb %s 2>&1", dir, path);
	rc = sh(cmd, out, sizeof(out));
	EXPECTF(rc == 0, "dtc: %s", out);
	snprintf(cmd, sizeof(cmd), "fdtget -t u %s/t.dtb /cpus/cpu@6 capacity-dmips-mhz", dir);
	EXPECT(sh(cmd, out, sizeof(out)) == 0 && !strcmp(out, "1024"));
	snprintf(cmd, sizeof(cmd), "fdtget -t u %s/t.dtb /cpus/cpu@3 capacity-dmips-mhz", dir);
	EXPECT(sh(cmd, out, sizeof(out)) == 0 && !strcmp(out, "160"));
	/* cluster2/core1 is cpu@7 */
	snprintf(cmd, sizeof(cmd), "fdtget -t x %s/t.dtb /cpus/cpu@7 phandle", dir);
	EXPECT(sh(cmd, ph, sizeof(ph)) == 0 && ph[0]);
	snprintf(cmd, sizeof(cmd), "fdtget -t x %s/t.dtb /cpus/cpu-map/socket0/cluster2/core1 cpu", dir);
	EXPECT(sh(cmd, out, sizeof(out)) == 0);
	EXPECTF(!strcmp(out, ph), "core1 -> %s, cpu@7 is %s", out, ph);
	/* QEMU's one-cluster map is gone: no core4 in cluster0, no cluster3 */
	snprintf(cmd, sizeof(cmd), "fdtget %s/t.dtb /cpus/cpu-map/socket0/cluster0/core4 cpu 2>/dev/null", dir);
	EXPECT(sh(cmd, out, sizeof(out)) != 0);
	snprintf(cmd, sizeof(cmd), "fdtget -l %s/t.dtb /cpus/cpu-map/socket0 | tr '\\n' ' '", dir);
	EXPECT(sh(cmd, out, sizeof(out)) == 0);
	EXPECTF(!strcmp(out, "cluster0 cluster1 cluster2 "), "clusters '%s'", out);
	/* every CPU of cluster1 shares one L2 node, distinct from cluster0's */
	snprintf(cmd, sizeof(cmd), "fdtget -t x %s/t.dtb /cpus/cpu@4 next-level-cache; "
		 "fdtget -t x %s/t.dtb /cpus/cpu@5 next-level-cache; "
		 "fdtget -t x %s/t.dtb /cpus/cpu@0 next-level-cache | tr '\\n' ' '", dir, dir, dir);
	{
		FILE *p = popen(cmd, "r");
		char a[32] = "", b[32] = "", c[32] = "";

		EXPECT(p);
		EXPECT(fscanf(p, "%31s %31s %31s", a, b, c) == 3);
		pclose(p);
		EXPECT(!strcmp(a, b) && strcmp(a, c));
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT(system(cmd) == 0);
	free(path);
	free(dts);
	free(in);
	return 0;
}

const struct test_case dts_tests[] = {
	{ "dts/capacities-and-cpu-map-text", t_text },
	{ "dts/cpu-count-mismatch-refused", t_mismatch },
	{ "dts/compiled-dtb-cpu-map-phandles", t_compiled },
	{ NULL, NULL },
};
