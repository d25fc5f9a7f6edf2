/*
 * emrcu-topo — topology specs: validate, describe, rewrite a DTS, build the DTB.
 *
 *   emrcu-topo --default                 print the default spec
 *   emrcu-topo [SPEC]                    validate and describe (default spec if none)
 *   emrcu-topo --json [SPEC]             the same as one JSON object
 *   emrcu-topo --expect [SPEC]           what a guest must see, as options of
 *                                        emrcu-guest-check (capacities, clusters)
 *   emrcu-topo --dts [--no-llc] SPEC     QEMU DTS on stdin -> our DTS on stdout
 *   emrcu-topo --dtb [--no-llc] [--cpu M] [--mem S] [SPEC]
 *                                        path of the cached boot DTB (built if needed)
 * Exit: 0 ok, 2 invalid spec or usage, 15 host error.
 */
#define _GNU_SOURCE
#include "defaults.h"
#include "dtb.h"
#include "dts.h"
#include "proc.h"
#include "run.h"
#include "emrcu/topo.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr,
		"usage: emrcu-topo --default | [--json|--expect] [SPEC] | --dts [--no-llc] SPEC < in.dts\n"
		"       | --dtb [--no-llc] [--cpu MODEL] [--mem SIZE] [SPEC]\n");
	return 2;
}

/* "--expect-capacity 160,160,512 --expect-clusters 0-1/2" */
static void expect(const struct topo *t)
{
	int i, j, cpu = 0;

	printf("--expect-capacity ");
	for (i = 0; i < t->nclusters; i++)
		for (j = 0; j < t->c[i].ncpus; j++)
			printf("%s%d", i || j ? "," : "", topo_final_capacity(t, i));
	printf(" --expect-clusters ");
	for (i = 0; i < t->nclusters; cpu += t->c[i].ncpus, i++)
		printf(t->c[i].ncpus > 1 ? "%s%d-%d" : "%s%d", i ? "/" : "", cpu,
		       cpu + t->c[i].ncpus - 1);
	printf("\n");
}

static void describe(const struct topo *t, int json)
{
	char spec[256];
	int i, cpu = 0;

	topo_format(t, spec, sizeof(spec));
	if (json) {
		printf("{\"spec\": \"%s\", \"ncpus\": %d, \"clusters\": [", spec, t->ncpus);
		for (i = 0; i < t->nclusters; cpu += t->c[i].ncpus, i++)
			printf("%s{\"first_cpu\": %d, \"cpus\": %d, \"capacity_dmips_mhz\": %d, "
			       "\"cpu_capacity\": %d}", i ? ", " : "", cpu, t->c[i].ncpus,
			       t->c[i].capacity, topo_final_capacity(t, i));
		printf("]}\n");
		return;
	}
	printf("%s: %d CPUs, %d clusters\n", spec, t->ncpus, t->nclusters);
	for (i = 0; i < t->nclusters; cpu += t->c[i].ncpus, i++)
		printf("cluster%d: cpu%d-cpu%d capacity-dmips-mhz %d cpu_capacity %d\n", i, cpu,
		       cpu + t->c[i].ncpus - 1, t->c[i].capacity, topo_final_capacity(t, i));
}

int main(int argc, char **argv)
{
	enum { DESCRIBE, JSON, EXPECT, DTS, DTB } mode = DESCRIBE;
	struct run_opts o = { 0 };
	const char *spec = NULL;
	char err[512];
	int i;

	o.cpu = DEFAULT_CPU;
	o.mem = DEFAULT_MEM;
	o.qemu = getenv("EMRCU_QEMU") ? getenv("EMRCU_QEMU") : DEFAULT_QEMU;
	o.llc = 1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--default")) {
			printf("%s\n", TOPO_DEFAULT);
			return 0;
		} else if (!strcmp(argv[i], "--json")) {
			mode = JSON;
		} else if (!strcmp(argv[i], "--expect")) {
			mode = EXPECT;
		} else if (!strcmp(argv[i], "--dts")) {
			mode = DTS;
		} else if (!strcmp(argv[i], "--dtb")) {
			mode = DTB;
		} else if (!strcmp(argv[i], "--no-llc")) {
			o.llc = 0;
		} else if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
			o.cpu = argv[++i];
		} else if (!strcmp(argv[i], "--mem") && i + 1 < argc) {
			o.mem = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1] == '-') {
			return usage();
		} else if (!spec) {
			spec = argv[i];
		} else {
			return usage();
		}
	}
	if (!spec) {
		if (mode == DTS)
			return usage();
		spec = TOPO_DEFAULT;
	}
	if (topo_parse(spec, &o.topo, err, sizeof(err))) {
		fprintf(stderr, "emrcu-topo: invalid topology: %s\n", err);
		return 2;
	}
	if (mode == EXPECT) {
		expect(&o.topo);
		return 0;
	}
	if (mode == DESCRIBE || mode == JSON) {
		describe(&o.topo, mode == JSON);
		return 0;
	}
	if (mode == DTS) {
		char *in = read_file("/dev/stdin", NULL), *out;

		if (!in) {
			fprintf(stderr, "emrcu-topo: cannot read stdin\n");
			return 15;
		}
		out = dts_apply_topo(in, &o.topo, o.llc, err, sizeof(err));
		if (!out) {
			fprintf(stderr, "emrcu-topo: %s\n", err);
			return 15;
		}
		fputs(out, stdout);
		return 0;
	}
	{
		char exe[4096], ver[512], *path;
		char *vargv[] = { (char *)o.qemu, "--version", NULL };
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		exe[n > 0 ? n : 0] = '\0';
		o.top = xstrdup(n > 0 ? dirname(dirname(exe)) : ".");
		o.build = getenv("BUILD") && *getenv("BUILD") ? getenv("BUILD")
							       : xasprintf("%s/build", o.top);
		if (proc_run(vargv, ver, sizeof(ver)) != 0) {
			fprintf(stderr, "emrcu-topo: %s --version failed\n", o.qemu);
			return 15;
		}
		ver[strcspn(ver, "\n")] = '\0';
		path = dtb_get(&o, ver, err, sizeof(err));
		if (!path) {
			fprintf(stderr, "emrcu-topo: %s\n", err);
			return 15;
		}
		printf("%s\n", path);
	}
	return 0;
}
