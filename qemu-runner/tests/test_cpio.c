/* test_cpio.c — newc writer, per-boot overlay, initrd concatenation. */
#define _GNU_SOURCE
#include "test.h"
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

static int t_format(char *why)
{
	struct cpio c;
	const char *p;
	size_t off;

	cpio_init(&c, 0);
	cpio_dir(&c, "emrcu", 0755);
	cpio_file(&c, "emrcu/cmd", 0755, "true\n", 5);
	cpio_end(&c);
	p = c.out.p;
	EXPECT(!strncmp(p, "070701", 6));
	EXPECT(field(p, 1) == (S_IFDIR | 0755));
	EXPECT(field(p, 11) == 6);	/* "emrcu" + NUL */
	EXPECT(!strcmp(p + 110, "emrcu"));
	off = (110 + 6 + 3) & ~3UL;	/* name padded to 4 */
	EXPECT(off == 116);
	EXPECT(!strncmp(p + off, "070701", 6));
	EXPECT(field(p + off, 1) == (S_IFREG | 0755));
	EXPECT(field(p + off, 6) == 5);	/* filesize */
	EXPECT(field(p + off, 4) == 1);	/* nlink */
	EXPECT(!strcmp(p + off + 110, "emrcu/cmd"));
	off += (110 + 10 + 3) & ~3UL;
	EXPECT(!memcmp(p + off, "true\n", 5));
	off += 8;
	EXPECT(!strncmp(p + off + 110, "TRAILER!!!", 10));
	EXPECT(c.out.len % 4 == 0);
	EXPECT(field(p, 0) != field(p + 116, 0));	/* distinct inodes */
	buf_free(&c.out);
	return 0;
}

/* GNU cpio reads what we write back to the same bytes. */
static int t_roundtrip(char *why)
{
	char dir[] = "/tmp/emrcu-cpio-XXXXXX", cmd[512], *path, *got;
	struct cpio c;
	static const char data[] = "#!/bin/sh\necho 'quoted \"x\"'\n";
	size_t len;
	struct stat st;

	EXPECT(mkdtemp(dir));
	cpio_init(&c, 0);
	cpio_dir(&c, "a", 0755);
	cpio_dir(&c, "a/b", 0700);
	cpio_file(&c, "a/b/script", 0750, data, strlen(data));
	cpio_file(&c, "a/empty", 0644, "", 0);
	cpio_end(&c);
	path = xasprintf("%s/t.cpio", dir);
	EXPECT(write_file_atomic(path, c.out.p, c.out.len) == 0);
	snprintf(cmd, sizeof(cmd), "cd %s && cpio -id --quiet < t.cpio", dir);
	EXPECT(system(cmd) == 0);
	free(path);
	path = xasprintf("%s/a/b/script", dir);
	got = read_file(path, &len);
	EXPECT(got && len == strlen(data) && !memcmp(got, data, len));
	EXPECT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0750);
	free(path);
	path = xasprintf("%s/a/empty", dir);
	EXPECT(stat(path, &st) == 0 && st.st_size == 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT(system(cmd) == 0);
	free(got);
	free(path);
	buf_free(&c.out);
	return 0;
}

static int t_overlay(char *why)
{
	char dir[] = "/tmp/emrcu-ovl-XXXXXX", cmd[512], *ko1, *ko2, *base, *initrd, *s;
	struct run_opts o = { 0 };
	struct buf ovl = { 0 };
	char err[256];
	size_t len;

	EXPECT(mkdtemp(dir));
	ko1 = xasprintf("%s/platform.ko", dir);
	ko2 = xasprintf("%s/em_bench.ko", dir);
	EXPECT(write_file_atomic(ko1, "KO1", 3) == 0);
	EXPECT(write_file_atomic(ko2, "KO2!", 4) == 0);
	o.cmd = "echo hi\n";
	o.mods[0].path = ko1;
	o.mods[0].params = "opp=4 temp=45";
	o.mods[1].path = ko2;
	o.nmods = 2;
	EXPECT(overlay_build(&o, &ovl, err, sizeof(err)) == 0);
	base = xasprintf("%s/base.cpio", dir);
	EXPECT(write_file_atomic(base, "12345", 5) == 0);	/* odd size */
	initrd = xasprintf("%s/initrd.img", dir);
	EXPECT(overlay_write_initrd(base, &ovl, initrd, err, sizeof(err)) == 0);
	s = read_file(initrd, &len);
	EXPECT(s && len == 8 + ovl.len);
	EXPECT(!memcmp(s, "12345\0\0\0", 8));	/* overlay 4-byte aligned */
	EXPECT(!memcmp(s + 8, ovl.p, ovl.len));
	free(s);
	/* contents, extracted */
	free(base);
	base = xasprintf("%s/ovl.cpio", dir);
	EXPECT(write_file_atomic(base, ovl.p, ovl.len) == 0);
	snprintf(cmd, sizeof(cmd), "cd %s && mkdir x && cd x && cpio -id --quiet < ../ovl.cpio", dir);
	EXPECT(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "cd %s/x && test \"$(cat emrcu/cmd)\" = 'echo hi' && "
		 "test \"$(cat lib/modules-emrcu/00-platform.ko)\" = KO1 && "
		 "test \"$(cat lib/modules-emrcu/00-platform.params)\" = 'opp=4 temp=45' && "
		 "test \"$(cat lib/modules-emrcu/01-em_bench.ko)\" = 'KO2!' && "
		 "test ! -e lib/modules-emrcu/01-em_bench.params && "
		 "test \"$(ls lib/modules-emrcu | tr '\\n' ' ')\" = '00-platform.ko 00-platform.params 01-em_bench.ko '",
		 dir);
	EXPECT(system(cmd) == 0);
	/* a missing module is an error naming it */
	o.mods[1].path = "/nonexistent/x.ko";
	buf_free(&ovl);
	EXPECT(overlay_build(&o, &ovl, err, sizeof(err)) == -1 && strstr(err, "/nonexistent/x.ko"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT(system(cmd) == 0);
	free(ko1);
	free(ko2);
	free(base);
	free(initrd);
	return 0;
}

const struct test_case cpio_tests[] = {
	{ "cpio/newc-header-layout", t_format },
	{ "cpio/roundtrip-gnu-cpio", t_roundtrip },
	{ "cpio/overlay-modules-params-initrd", t_overlay },
	{ NULL, NULL },
};
