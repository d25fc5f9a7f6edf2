// SPDX-License-Identifier: GPL-2.0
/* test_fs.c - files and paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/xalloc.h"

static void atomic_files(void **state)
{
	char dir[] = "/tmp/emrcu-fs-XXXXXX", err[256];
	struct json *j = json_new_obj();
	char *p, *text;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	p = xasprintf("%s/a/b/c", dir);
	assert_int_equal(mkdir_p(p), 0);
	assert_true(is_dir(p) && !is_file(p));
	free(p);
	p = xasprintf("%s/a/f.json", dir);
	json_set_int(j, "n", 3);
	assert_int_equal(write_json_atomic(p, j, 2, err, sizeof(err)), 0);
	text = read_file(p, &len);
	assert_string_equal(text, "{\n  \"n\": 3\n}\n");
	assert_int_equal(len, strlen(text));
	free(text);
	assert_true(is_file(p) && file_exists(p));
	free(p);
	p = xasprintf("%s/nodir/f.json", dir);
	assert_int_not_equal(write_json_atomic(p, j, 2, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "nodir/f.json: No such file"));
	assert_false(file_exists(p));
	assert_null(read_file(p, NULL));
	free(p);
	json_free(j);
	p = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(p), 0);
	free(p);
}

static void paths(void **state)
{
	char b[64];
	char *l;

	(void)state;
	assert_true(!path_join(b, sizeof(b), "a/", "b") && !strcmp(b, "a/b"));
	assert_true(!path_join(b, sizeof(b), "a", "b") && !strcmp(b, "a/b"));
	assert_int_equal(path_join(b, 4, "abc", "d"), -1);
	path_dirname(b, sizeof(b), "x/y/z//");
	assert_string_equal(b, "x/y");
	path_dirname(b, sizeof(b), "/z");
	assert_string_equal(b, "/");
	path_dirname(b, sizeof(b), "z");
	assert_string_equal(b, ".");
	l = path_label("/usr/bin", "/usr");
	assert_string_equal(l, "bin");
	free(l);
	l = path_label("/usr", "/usr");
	assert_string_equal(l, ".");
	free(l);
	l = path_label("/usr", "/etc");
	assert_string_equal(l, "/usr");
	free(l);
}

static void buffers(void **state)
{
	struct buf b = { 0 };
	int i;

	(void)state;
	for (i = 0; i < 100; i++)
		buf_printf(&b, "%d,", i);
	buf_adds(&b, "end");
	assert_int_equal(b.len, strlen(b.p));
	assert_non_null(strstr(b.p, "98,99,end"));
	buf_free(&b);
	assert_true(!b.p && !b.len);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		CASE("lib/fs", atomic_files),
		CASE("lib/fs", paths),
		CASE("lib/fs", buffers),
	};

	return run_group("lib/fs", tests);
}
