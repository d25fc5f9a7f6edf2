/* test_misc.c — sha256, JSON escaping, option parsing, QEMU command lines. */
#define _GNU_SOURCE
#include <stdio.h>

#include "check.h"
#include "suites.h"
#include "defaults.h"
#include "emrcu/json.h"
#include "provenance.h"
#include "qemu_cmd.h"
#include "run.h"
#include "sha256.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(t_sha256)
{
	char hex[65];
	char *big = xmalloc(1000000);

	sha256_str("abc", 3, hex);
	assert_true(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
	sha256_str("", 0, hex);
	assert_true(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
	memset(big, 'a', 1000000);
	sha256_str(big, 1000000, hex);
	assert_true(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
	free(big);
}

static int parse(struct run_opts *o, char *err, const char *a1, const char *a2,
		 const char *a3, const char *a4)
{
	char *argv[8] = { "emrcu-run", (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL };
	int argc = 1;

	while (argv[argc])
		argc++;
	memset(o, 0, sizeof(*o));
	o->build = "/nonexistent-build";
	return args_parse(argc, argv, o, err, 256);
}

TEST(t_args)
{
	struct run_opts o;
	char err[256];

	/* /bin/sh stands in for a kernel Image: it exists */
	assert_true(parse(&o, err, "--kernel", "/bin/sh", NULL, NULL) == 0);
	assert_true(!strcmp(o.topo_spec, TOPO_DEFAULT) && o.topo.ncpus == 8);
	assert_true(!o.deterministic && o.shift == DEFAULT_ICOUNT_SHIFT);
	assert_true(!strcmp(o.cmd, "true\n") && !strcmp(o.variant, "custom"));
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--mode", "deterministic") == 0);
	assert_true(o.deterministic);
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--mode", "fast") == -1 &&
	       strstr(err, "--mode"));
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--topo", "0x1") == -1 &&
	       strstr(err, "0 CPUs"));
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--shift", "2") == -1 &&
	       strstr(err, "deterministic"));
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--timeout", "0") == -1);
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--module", "/bin/sh") == -1 &&
	       strstr(err, ".ko"));
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--file", "/bin/sh:rel/path") == -1);
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--file", "/bin/sh") == 0 &&
	       !strcmp(o.files[0].guest, "/emrcu/bin/sh"));
	assert_true(parse(&o, err, "--variant", "nosuch", NULL, NULL) == -1 &&
	       strstr(err, "/nonexistent-build/nosuch/out/arch/arm64/boot/Image"));
	assert_true(parse(&o, err, "--variant", "../x", NULL, NULL) == -1);
	assert_true(parse(&o, err, NULL, NULL, NULL, NULL) == -1 && strstr(err, "--variant"));
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--bogus", NULL) == -1);
}

static int has(const struct argv *a, const char *s)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (!strcmp(a->v[i], s))
			return i;
	return -1;
}

TEST(t_qemu_argv)
{
	struct run_opts o;
	struct argv a = { 0 }, d = { 0 };
	char err[256], *cl;
	int i;

	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--topo", "2x100+3x1024") == 0);
	cl = qemu_cmdline(&o);
	assert_true(strstr(cl, "console=ttyAMA0") && strstr(cl, "sched_verbose"));
	qemu_boot_argv(&o, "x.dtb", "i.img", cl, &a);
	assert_true(!strcmp(a.v[0], "timeout"));
	assert_true((i = has(&a, "-smp")) > 0 && !strcmp(a.v[i + 1], "5"));
	assert_true((i = has(&a, "-accel")) > 0 && !strcmp(a.v[i + 1], "tcg,thread=multi"));
	assert_true(has(&a, "-icount") < 0 && has(&a, "-no-reboot") > 0);
	assert_true((i = has(&a, "-dtb")) > 0 && !strcmp(a.v[i + 1], "x.dtb"));
	/* the DTB dump uses the same machine arguments */
	qemu_dumpdtb_argv(&o, "d.dtb", &d);
	assert_true(!strcmp(d.v[0], "timeout"));
	assert_true((i = has(&d, "-smp")) > 0 && !strcmp(d.v[i + 1], "5"));
	assert_true((i = has(&d, "-cpu")) > 0 && !strcmp(d.v[i + 1], DEFAULT_CPU));
	assert_true((i = has(&d, "-m")) > 0 && !strcmp(d.v[i + 1], DEFAULT_MEM));
	assert_true((i = has(&d, "-machine")) > 0 && strstr(d.v[i + 1], "dumpdtb=d.dtb"));
	argv_free(&a);
	argv_free(&d);
	free(cl);
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--mode", "deterministic") == 0);
	cl = qemu_cmdline(&o);
	qemu_boot_argv(&o, "x.dtb", "i.img", cl, &a);
	assert_true((i = has(&a, "-icount")) > 0 && !strcmp(a.v[i + 1], "shift=1,sleep=off"));
	assert_true((i = has(&a, "-accel")) > 0 && !strcmp(a.v[i + 1], "tcg,thread=single"));
	cl = argv_join(&a);
	assert_true(strstr(cl, "-append 'console=ttyAMA0 "));
	argv_free(&a);
	free(cl);
}

/* --exec-trace: a checked range, deterministic only, four QEMU arguments */
TEST(t_exec_trace)
{
	char *good[] = { "emrcu-run", "--kernel", "/bin/sh", "--mode", "deterministic",
			 "--outdir", "/o", "--exec-trace", "0xffff800001000000..0xffff80000100010f", NULL };
	char *bad[] = { "0x20..0x10", "0x10-0x20", "16..32", "0x..0x2", "0x1..0x2z",
			 "0x1..0x2,", "0x1..0x2,0x9..0x8", "0x1..0x2;0x3..0x4" };
	struct run_opts o;
	struct argv a = { 0 };
	char err[256], *cl;
	unsigned int k;
	int i;

	memset(&o, 0, sizeof(o));
	o.build = "/nonexistent-build";
	assert_true(args_parse(9, good, &o, err, sizeof(err)) == 0);
	cl = qemu_cmdline(&o);
	qemu_boot_argv(&o, "x.dtb", "i.img", cl, &a);
	assert_true(has(&a, "-singlestep") > 0);
	assert_true((i = has(&a, "-d")) > 0 && !strcmp(a.v[i + 1], "exec,nochain"));
	assert_true((i = has(&a, "-dfilter")) > 0 && !strcmp(a.v[i + 1], good[8]));
	assert_true((i = has(&a, "-D")) > 0 && !strcmp(a.v[i + 1], "/o/exec.log"));
	argv_free(&a);
	free(cl);
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		good[8] = bad[k];
		memset(&o, 0, sizeof(o));
		assert_true(args_parse(9, good, &o, err, sizeof(err)) == -1 && strstr(err, "--exec-trace"));
	}
	assert_true(parse(&o, err, "--kernel", "/bin/sh", "--exec-trace", "0x1..0x2") == -1 &&
	       strstr(err, "deterministic"));
	good[8] = "0x10..0x1f,0x40..0x4f";	/* two functions */
	memset(&o, 0, sizeof(o));
	o.build = "/nonexistent-build";
	assert_true(args_parse(9, good, &o, err, sizeof(err)) == 0 && o.exec_trace == good[8]);
}

/* Provenance: this host, a git tree and a directory that is none. */
TEST(t_provenance)
{
	struct json *h = prov_host(), *g, *k;
	char tmp[] = "/tmp/emrcu-prov.XXXXXX";
	int64_t n;

	assert_true(json_int64(json_get(h, "ncpus"), &n) == 0 && n >= 1);
	json_free(h);
	assert_non_null(mkdtemp(tmp));
	g = prov_harness(tmp);
	assert_true(json_kind(g) == JSON_NULL);
	json_free(g);
	k = prov_kernel(tmp, "nope");
	assert_true(json_kind(k) == JSON_NULL);
	json_free(k);
	rmdir(tmp);
	g = prov_harness("..");	/* tests run from qemu-runner/ */
	if (json_kind(g) != JSON_NULL) {	/* a git checkout: a 40-digit commit */
		const char *c = json_str(json_get(g, "commit"));

		assert_true(c && strlen(c) == 40);
	}
	json_free(g);
}

int misc_tests(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("misc/sha256-vectors", t_sha256),
		NAMED("misc/exec-trace", t_exec_trace),
		NAMED("misc/args-validation", t_args),
		NAMED("misc/qemu-argv-modes", t_qemu_argv),
		NAMED("misc/provenance", t_provenance),
	};

	return run_group("qemu-runner/misc", tests);
}
