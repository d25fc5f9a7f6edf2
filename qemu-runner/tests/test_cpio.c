/* test_cpio.c — newc writer, per-boot overlay, initrd concatenation. */
#define _GNU_SOURCE
#include <stdio.h>

#include "check.h"
#include "suites.h"
#include "cpio.h"
#include "overlay.h"
#include "run.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Field k (0 = ino ... 12 = check) of the header at p. */
static unsigned long field(const char *p, int k)
{
	char f[9];

	memcpy(f, p + 6 + 8 * k, 8);
	f[8] = '\0';
	return strtoul(f, NULL, 16);
}

TEST(t_format)
{
	struct cpio c;
	const char *p;
	size_t off;

	cpio_init(&c, 0);
	cpio_dir(&c, "emrcu", 0755);
	cpio_file(&c, "emrcu/cmd", 0755, "true\n", 5);
	cpio_end(&c);
	p = c.out.p;
	assert_true(!strncmp(p, "070701", 6));
	assert_true(field(p, 1) == (S_IFDIR | 0755));
	assert_true(field(p, 11) == 6);	/* "emrcu" + NUL */
	assert_true(!strcmp(p + 110, "emrcu"));
	off = (110 + 6 + 3) & ~3UL;	/* name padded to 4 */
	assert_true(off == 116);
	assert_true(!strncmp(p + off, "070701", 6));
	assert_true(field(p + off, 1) == (S_IFREG | 0755));
	assert_true(field(p + off, 6) == 5);	/* filesize */
	assert_true(field(p + off, 4) == 1);	/* nlink */
	assert_true(!strcmp(p + off + 110, "emrcu/cmd"));
	off += (110 + 10 + 3) & ~3UL;
	assert_true(!memcmp(p + off, "true\n", 5));
	off += 8;
	assert_true(!strncmp(p + off + 110, "TRAILER!!!", 10));
	assert_true(c.out.len % 4 == 0);
	assert_true(field(p, 0) != field(p + 116, 0));	/* distinct inodes */
	buf_free(&c.out);
}

/* GNU cpio reads what we write back to the same bytes. */
TEST(t_roundtrip)
{
	char dir[] = "/tmp/emrcu-cpio-XXXXXX", cmd[512], *path, *got;
	struct cpio c;
	static const char data[] = "#!/bin/sh\necho 'quoted \"x\"'\n";
	size_t len;
	struct stat st;

	assert_true(mkdtemp(dir));
	cpio_init(&c, 0);
	cpio_dir(&c, "a", 0755);
	cpio_dir(&c, "a/b", 0700);
	cpio_file(&c, "a/b/script", 0750, data, strlen(data));
	cpio_file(&c, "a/empty", 0644, "", 0);
	cpio_end(&c);
	path = xasprintf("%s/t.cpio", dir);
	assert_true(write_file_atomic(path, c.out.p, c.out.len) == 0);
	snprintf(cmd, sizeof(cmd), "cd %s && cpio -id --quiet < t.cpio", dir);
	assert_true(system(cmd) == 0);
	free(path);
	path = xasprintf("%s/a/b/script", dir);
	got = read_file(path, &len);
	assert_true(got && len == strlen(data) && !memcmp(got, data, len));
	assert_true(stat(path, &st) == 0 && (st.st_mode & 0777) == 0750);
	free(path);
	path = xasprintf("%s/a/empty", dir);
	assert_true(stat(path, &st) == 0 && st.st_size == 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_true(system(cmd) == 0);
	free(got);
	free(path);
	buf_free(&c.out);
}

TEST(t_overlay)
{
	char dir[] = "/tmp/emrcu-ovl-XXXXXX", cmd[512], *ko1, *ko2, *base, *initrd, *s;
	struct run_opts o = { 0 };
	struct buf ovl = { 0 };
	char err[256];
	size_t len;

	assert_true(mkdtemp(dir));
	ko1 = xasprintf("%s/platform.ko", dir);
	ko2 = xasprintf("%s/em_bench.ko", dir);
	assert_true(write_file_atomic(ko1, "KO1", 3) == 0);
	assert_true(write_file_atomic(ko2, "KO2!", 4) == 0);
	o.cmd = "echo hi\n";
	o.mods[0].path = ko1;
	o.mods[0].params = "opp=4 temp=45";
	o.mods[1].path = ko2;
	o.nmods = 2;
	assert_true(overlay_build(&o, &ovl, err, sizeof(err)) == 0);
	base = xasprintf("%s/base.cpio", dir);
	assert_true(write_file_atomic(base, "12345", 5) == 0);	/* odd size */
	initrd = xasprintf("%s/initrd.img", dir);
	assert_true(overlay_write_initrd(base, &ovl, initrd, err, sizeof(err)) == 0);
	s = read_file(initrd, &len);
	assert_true(s && len == 8 + ovl.len);
	assert_true(!memcmp(s, "12345\0\0\0", 8));	/* overlay 4-byte aligned */
	assert_true(!memcmp(s + 8, ovl.p, ovl.len));
	free(s);
	/* contents, extracted */
	free(base);
	base = xasprintf("%s/ovl.cpio", dir);
	assert_true(write_file_atomic(base, ovl.p, ovl.len) == 0);
	snprintf(cmd, sizeof(cmd), "cd %s && mkdir x && cd x && cpio -id --quiet < ../ovl.cpio", dir);
	assert_true(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "cd %s/x && test \"$(cat emrcu/cmd)\" = 'echo hi' && "
		 "test \"$(cat lib/modules-emrcu/00-platform.ko)\" = KO1 && "
		 "test \"$(cat lib/modules-emrcu/00-platform.params)\" = 'opp=4 temp=45' && "
		 "test \"$(cat lib/modules-emrcu/01-em_bench.ko)\" = 'KO2!' && "
		 "test ! -e lib/modules-emrcu/01-em_bench.params && "
		 "test \"$(ls lib/modules-emrcu | tr '\\n' ' ')\" = '00-platform.ko 00-platform.params 01-em_bench.ko '",
		 dir);
	assert_true(system(cmd) == 0);
	/* a missing module is an error naming it */
	o.mods[1].path = "/nonexistent/x.ko";
	buf_free(&ovl);
	assert_true(overlay_build(&o, &ovl, err, sizeof(err)) == -1 && strstr(err, "/nonexistent/x.ko"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_true(system(cmd) == 0);
	free(ko1);
	free(ko2);
	free(base);
	free(initrd);
}

int cpio_tests(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("cpio/newc-header-layout", t_format),
		NAMED("cpio/roundtrip-gnu-cpio", t_roundtrip),
		NAMED("cpio/overlay-modules-params-initrd", t_overlay),
	};

	return run_group("qemu-runner/cpio", tests);
}
