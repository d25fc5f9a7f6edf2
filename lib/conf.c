// SPDX-License-Identifier: GPL-2.0
/* conf.c - `key = value` files (see emrcu/conf.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/conf.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/str.h"

static int key_ok(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!islower((unsigned char)*k) && !isdigit((unsigned char)*k) &&
		    *k != '_' && *k != '.' && *k != '-')
			return 0;
	return 1;
}

/* " # comment" ends the value; a '#' inside a word does not. */
static void strip_comment(char *s)
{
	char *p;

	if (s[0] == '#') {
		s[0] = '\0';
		return;
	}
	for (p = s; (p = strchr(p, '#')); p++) {
		if (p > s && isspace((unsigned char)p[-1])) {
			*p = '\0';
			return;
		}
	}
}

static int parse_line(char *line, int lineno, struct conf *c, char *err,
		      size_t errlen)
{
	char *eq, *k, *v;
	struct conf_entry *e;

	strip_comment(line);
	k = str_trim(line);
	if (!*k)
		return 0;
	eq = strchr(k, '=');
	if (!eq) {
		snprintf(err, errlen, "%s:%d: expected 'key = value'", c->path, lineno);
		return -1;
	}
	*eq = '\0';
	k = str_trim(k);
	v = str_trim(eq + 1);
	if (!key_ok(k) || strlen(k) >= CONF_KEY_LEN) {
		snprintf(err, errlen, "%s:%d: bad field name '%s'", c->path, lineno, k);
		return -1;
	}
	if (strlen(v) >= CONF_VAL_LEN) {
		snprintf(err, errlen, "%s:%d: field %s: value too long", c->path,
			 lineno, k);
		return -1;
	}
	if (!*v) {
		snprintf(err, errlen, "%s:%d: field %s: empty value", c->path,
			 lineno, k);
		return -1;
	}
	if (c->n == CONF_MAX) {
		snprintf(err, errlen, "%s:%d: more than %d fields", c->path,
			 lineno, CONF_MAX);
		return -1;
	}
	e = &c->e[c->n++];
	strcpy(e->key, k);
	strcpy(e->val, v);
	e->line = lineno;
	e->used = 0;
	return 0;
}

int conf_parse(const char *path, const char *text, struct conf *c, char *err,
	       size_t errlen)
{
	const char *q = text;
	char line[CONF_VAL_LEN + CONF_KEY_LEN + 64];
	int lineno = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	while (*q) {
		const char *nl = strchr(q, '\n');
		size_t len = nl ? (size_t)(nl - q) : strlen(q);

		lineno++;
		if (len >= sizeof(line)) {
			snprintf(err, errlen, "%s:%d: line too long", path, lineno);
			return -1;
		}
		memcpy(line, q, len);
		line[len] = '\0';
		if (parse_line(line, lineno, c, err, errlen))
			return -1;
		q += len + (nl ? 1 : 0);
	}
	return 0;
}

int conf_load(const char *path, struct conf *c, char *err, size_t errlen)
{
	char *text = read_file(path, NULL);
	int ret;

	if (!text) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = conf_parse(path, text, c, err, errlen);
	free(text);
	return ret;
}

static struct conf_entry *find(struct conf *c, const char *key, int from)
{
	int i;

	for (i = from; i < c->n; i++)
		if (!strcmp(c->e[i].key, key))
			return &c->e[i];
	return NULL;
}

static int once(struct conf *c, const char *key, struct conf_entry **out,
		char *err, size_t errlen)
{
	struct conf_entry *a = find(c, key, 0), *b;

	*out = a;
	if (!a)
		return 0;
	a->used = 1;
	b = find(c, key, (int)(a - c->e) + 1);
	if (b) {
		b->used = 1;
		snprintf(err, errlen, "%s:%d: field %s: given twice (first at line %d)",
			 c->path, b->line, key, a->line);
		return -1;
	}
	return 0;
}

const struct conf_entry *conf_get(struct conf *c, const char *key, int quick,
				  char *err, size_t errlen, int *dup)
{
	struct conf_entry *base, *q;
	char qkey[CONF_KEY_LEN + 8];

	*dup = 0;
	snprintf(qkey, sizeof(qkey), "quick.%s", key);
	if (once(c, key, &base, err, errlen) || once(c, qkey, &q, err, errlen)) {
		*dup = -1;
		return NULL;
	}
	return quick && q ? q : base;
}

int conf_get_all(struct conf *c, const char *key, int quick,
		 const struct conf_entry **out, int max)
{
	char qkey[CONF_KEY_LEN + 8];
	int i, n = 0, nq = 0;

	snprintf(qkey, sizeof(qkey), "quick.%s", key);
	for (i = 0; i < c->n; i++) {
		if (!strcmp(c->e[i].key, qkey)) {
			c->e[i].used = 1;
			nq++;
		}
	}
	for (i = 0; i < c->n; i++) {
		const char *want = quick && nq ? qkey : key;

		if (!strcmp(c->e[i].key, key))
			c->e[i].used = 1;
		if (!strcmp(c->e[i].key, want) && n < max)
			out[n++] = &c->e[i];
	}
	return n;
}

const struct conf_entry *conf_unused(const struct conf *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!c->e[i].used)
			return &c->e[i];
	return NULL;
}

struct json *conf_to_json(const struct conf *c)
{
	struct json *o = json_new_obj();
	double d;
	int i;

	for (i = 0; i < c->n; i++) {
		if (!str_to_double(c->e[i].val, &d))
			json_set_num(o, c->e[i].key, d);
		else
			json_set_str(o, c->e[i].key, c->e[i].val);
	}
	return o;
}
