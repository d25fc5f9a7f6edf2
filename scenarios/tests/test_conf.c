// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "conf.h"
#include "tcheck.h"

static struct conf c;
static char err[400];

static void basic(void)
{
	const char *text = "# comment\nname = x   # trailing\n  kind=energy\n"
			   "quick.kind = latency\nurl = a#b\n\n";
	const struct conf_entry *e;
	int dup;

	EXPECT(!conf_parse("f.conf", text, &c, err, sizeof(err)));
	e = conf_get(&c, "name", 0, err, sizeof(err), &dup);
	EXPECT(e && !strcmp(e->val, "x") && e->line == 2);
	e = conf_get(&c, "kind", 0, err, sizeof(err), &dup);
	EXPECT(e && !strcmp(e->val, "energy"));
	e = conf_get(&c, "kind", 1, err, sizeof(err), &dup);
	EXPECT(e && !strcmp(e->val, "latency") && e->line == 4);
	EXPECT(conf_unused(&c) && !strcmp(conf_unused(&c)->key, "url"));
	e = conf_get(&c, "url", 0, err, sizeof(err), &dup);
	EXPECT(e && !strcmp(e->val, "a#b"));
	EXPECT(!conf_unused(&c));
	EXPECT(!conf_get(&c, "absent", 0, err, sizeof(err), &dup) && !dup);
}

static void errors(void)
{
	int dup;

	EXPECT(conf_parse("f.conf", "a = 1\nnovalue\n", &c, err, sizeof(err)));
	EXPECT(strstr(err, "f.conf:2:"));
	EXPECT(conf_parse("f.conf", "Bad = 1\n", &c, err, sizeof(err)));
	EXPECT(strstr(err, "bad field name"));
	EXPECT(conf_parse("f.conf", "a =\n", &c, err, sizeof(err)));
	EXPECT(strstr(err, "field a: empty value"));
	EXPECT(!conf_parse("f.conf", "a = 1\nb = 2\na = 3\n", &c, err, sizeof(err)));
	EXPECT(!conf_get(&c, "a", 0, err, sizeof(err), &dup) && dup);
	EXPECT(strstr(err, "f.conf:3: field a: given twice (first at line 1)"));
}

static void repeated(void)
{
	const struct conf_entry *e[4];

	EXPECT(!conf_parse("f.conf", "w = 1\nw = 2\nquick.w = 3\n", &c, err, sizeof(err)));
	EXPECT(conf_get_all(&c, "w", 0, e, 4) == 2 && !strcmp(e[1]->val, "2"));
	EXPECT(conf_get_all(&c, "w", 1, e, 4) == 1 && !strcmp(e[0]->val, "3"));
	EXPECT(!conf_unused(&c));
}

void test_conf(void)
{
	t_run("conf/basic", basic);
	t_run("conf/errors", errors);
	t_run("conf/repeated", repeated);
}
