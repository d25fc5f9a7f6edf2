// SPDX-License-Identifier: GPL-2.0
/* test_conf.c - the `key = value` parser and its typed fields. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emrcu/conf.h"
#include "emrcu/field.h"
#include "emrcu/json.h"

static struct conf c;
static char err[400];

static void basic(void **state)
{
	const char *text = "# comment\nname = x   # trailing\n  kind=energy\n"
			   "quick.kind = latency\nurl = a#b\n\n";
	const struct conf_entry *e;
	int dup;

	(void)state;
	assert_int_equal(conf_parse("f.conf", text, &c, err, sizeof(err)), 0);
	e = conf_get(&c, "name", 0, err, sizeof(err), &dup);
	assert_true(e && !strcmp(e->val, "x") && e->line == 2);
	e = conf_get(&c, "kind", 0, err, sizeof(err), &dup);
	assert_true(e && !strcmp(e->val, "energy"));
	e = conf_get(&c, "kind", 1, err, sizeof(err), &dup);
	assert_true(e && !strcmp(e->val, "latency") && e->line == 4);
	assert_true(conf_unused(&c) && !strcmp(conf_unused(&c)->key, "url"));
	e = conf_get(&c, "url", 0, err, sizeof(err), &dup);
	assert_true(e && !strcmp(e->val, "a#b"));
	assert_null(conf_unused(&c));
	assert_true(!conf_get(&c, "absent", 0, err, sizeof(err), &dup) && !dup);
}

static void errors(void **state)
{
	int dup;

	(void)state;
	assert_int_not_equal(conf_parse("f.conf", "a = 1\nnovalue\n", &c, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "f.conf:2:"));
	assert_int_not_equal(conf_parse("f.conf", "Bad = 1\n", &c, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "bad field name"));
	assert_int_not_equal(conf_parse("f.conf", "a =\n", &c, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "field a: empty value"));
	assert_int_equal(conf_parse("f.conf", "a = 1\nb = 2\na = 3\n", &c, err, sizeof(err)), 0);
	assert_true(!conf_get(&c, "a", 0, err, sizeof(err), &dup) && dup);
	assert_non_null(strstr(err, "f.conf:3: field a: given twice (first at line 1)"));
	assert_int_not_equal(conf_load("/nonexistent/x.conf", &c, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "/nonexistent/x.conf: No such file"));
}

static void repeated(void **state)
{
	const struct conf_entry *e[4];

	(void)state;
	assert_int_equal(conf_parse("f.conf", "w = 1\nw = 2\nquick.w = 3\n", &c, err, sizeof(err)), 0);
	assert_true(conf_get_all(&c, "w", 0, e, 4) == 2 && !strcmp(e[1]->val, "2"));
	assert_true(conf_get_all(&c, "w", 1, e, 4) == 1 && !strcmp(e[0]->val, "3"));
	assert_null(conf_unused(&c));
}

static void numbers(void **state)
{
	struct fctx f = { .c = &c, .err = err, .errlen = sizeof(err) };
	struct json *j;
	char *t;
	double d;

	(void)state;
	assert_int_equal(conf_parse("g.conf", "floor = 0.5\nname = x\nx = 1\nx = 2\n",
				    &c, err, sizeof(err)), 0);
	assert_true(!fnum(&f, "floor", 1, 0, 1, 9, &d) && d == 0.5);
	assert_int_not_equal(fnum(&f, "floor", 1, 0.6, 1, 9, &d), 0);
	assert_string_equal(err, "g.conf:1: field floor: 0.5 out of range 0.6..1");
	assert_int_not_equal(fnum(&f, "name", 1, 0, 1, 9, &d), 0);
	assert_string_equal(err, "g.conf:2: field name: 'x' is not a number");
	assert_int_not_equal(fnum(&f, "absent", 1, 0, 1, 9, &d), 0);
	assert_string_equal(err, "g.conf: field absent: missing");
	assert_true(!fnum(&f, "absent", 0, 0, 1, 9, &d) && d == 9);
	assert_int_not_equal(fnum(&f, "x", 1, 0, 9, 9, &d), 0);
	assert_non_null(strstr(err, "given twice"));
	j = conf_to_json(&c);
	t = json_text(j, 0);
	assert_string_equal(t, "{\"floor\":0.5,\"name\":\"x\",\"x\":2}");
	free(t);
	json_free(j);
}

/* Typed fields: integers, words, strings, the unknown one, quick. */
static void fields(void **state)
{
	struct fctx f = { .c = &c, .err = err, .errlen = sizeof(err) };
	char buf[64], *w[3];
	const char *v;
	long n;

	(void)state;
	assert_int_equal(conf_parse("h.conf", "n = 7\nquick.n = 2\nmode = b\nl = a  b\tc\nleft = 1\n",
				    &c, err, sizeof(err)), 0);
	assert_true(!fint(&f, "n", 1, 1, 9, 0, &n) && n == 7);
	f.quick = 1;
	assert_true(!fint(&f, "n", 1, 1, 9, 0, &n) && n == 2);
	assert_int_not_equal(fint(&f, "n", 1, 3, 9, 0, &n), 0);
	assert_string_equal(err, "h.conf:2: field n: 2 out of range 3..9");
	f.quick = 0;
	assert_int_not_equal(fword(&f, "mode", 1, "", (const char *const[]){ "a", NULL },
				   buf, sizeof(buf)), 0);
	assert_string_equal(err, "h.conf:3: field mode: 'b' is not one of the allowed values");
	assert_true(!fstr(&f, "l", 1, &v) && v && !strcmp(v, "a  b\tc"));
	snprintf(buf, sizeof(buf), "%s", v);
	assert_int_equal(fwords(buf, w, 3), 3);
	assert_string_equal(w[2], "c");
	snprintf(buf, sizeof(buf), "%s", v);
	assert_int_equal(fwords(buf, w, 2), 3);	/* more than max: max + 1 */
	assert_true(!fstr(&f, "none", 0, &v) && !v);
	assert_int_not_equal(fstr(&f, "none", 1, &v), 0);
	assert_int_not_equal(funknown(&f), 0);
	assert_string_equal(err, "h.conf:5: field left: unknown");
	assert_true(!fstr(&f, "left", 0, &v) && !funknown(&f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		CASE("lib/conf", basic),
		CASE("lib/conf", errors),
		CASE("lib/conf", repeated),
		CASE("lib/conf", numbers),
		CASE("lib/conf", fields),
	};

	return run_group("lib/conf", tests);
}
