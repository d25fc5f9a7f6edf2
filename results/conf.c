// SPDX-License-Identifier: GPL-2.0
/* conf.c - `key = value` constants files and the pairs list. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "xalloc.h"

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static void strip_comment(char *s)
{
	char *h = strchr(s, '#');

	if (h)
		*h = '\0';
}

int conf_load(const char *path, struct conf *c, char *err, size_t errlen)
{
	char line[1024];
	int lineno = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	c->path = xstrdup(path);
	while (fgets(line, sizeof(line), f)) {
		char *s, *eq, *k, *v;
		size_t i;

		lineno++;
		strip_comment(line);
		s = trim(line);
		if (!*s)
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errlen, "%s:%d: expected 'key = value'",
				 path, lineno);
			goto fail;
		}
		*eq = '\0';
		k = trim(s);
		v = trim(eq + 1);
		if (!*k || !*v) {
			snprintf(err, errlen, "%s:%d: empty key or value", path,
				 lineno);
			goto fail;
		}
		for (i = 0; i < c->n; i++) {
			if (!strcmp(c->key[i], k)) {
				snprintf(err, errlen, "%s:%d: '%s' declared twice",
					 path, lineno, k);
				goto fail;
			}
		}
		c->key = xrealloc(c->key, (c->n + 1) * sizeof(char *));
		c->val = xrealloc(c->val, (c->n + 1) * sizeof(char *));
		c->key[c->n] = xstrdup(k);
		c->val[c->n] = xstrdup(v);
		c->n++;
	}
	fclose(f);
	return 0;
fail:
	fclose(f);
	conf_free(c);
	return -1;
}

void conf_free(struct conf *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->key[i]);
		free(c->val[i]);
	}
	free(c->key);
	free(c->val);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

static int parse_double(const char *s, double *out)
{
	char *e;

	errno = 0;
	*out = strtod(s, &e);
	return (e == s || *e || errno) ? -1 : 0;
}

int conf_double(const struct conf *c, const char *key, double *out, char *err,
		size_t errlen)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (strcmp(c->key[i], key))
			continue;
		if (parse_double(c->val[i], out)) {
			snprintf(err, errlen, "%s: '%s = %s' is not a number",
				 c->path, key, c->val[i]);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "%s: '%s' is not declared", c->path, key);
	return -1;
}

struct json *conf_to_json(const struct conf *c)
{
	struct json *o = json_new_obj();
	size_t i;

	for (i = 0; i < c->n; i++) {
		double d;

		if (!parse_double(c->val[i], &d))
			json_set_num(o, c->key[i], d);
		else
			json_set_str(o, c->key[i], c->val[i]);
	}
	return o;
}

int pairs_load(const char *path, struct pairs *p, char *err, size_t errlen)
{
	char line[512];
	int lineno = 0;
	FILE *f;

	memset(p, 0, sizeof(*p));
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char a[128], b[128], extra[2];
		int k;

		lineno++;
		strip_comment(line);
		if (!*trim(line))
			continue;
		k = sscanf(line, "%127s %127s %1s", a, b, extra);
		if (k != 2) {
			snprintf(err, errlen,
				 "%s:%d: expected 'NUMERATOR DENOMINATOR'",
				 path, lineno);
			fclose(f);
			pairs_free(p);
			return -1;
		}
		p->num = xrealloc(p->num, (p->n + 1) * sizeof(char *));
		p->den = xrealloc(p->den, (p->n + 1) * sizeof(char *));
		p->num[p->n] = xstrdup(a);
		p->den[p->n] = xstrdup(b);
		p->n++;
	}
	fclose(f);
	return 0;
}

void pairs_free(struct pairs *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->num[i]);
		free(p->den[i]);
	}
	free(p->num);
	free(p->den);
	memset(p, 0, sizeof(*p));
}

int conf_default_path(const char *name, char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	slash[1] = '\0';
	if (strlen(buf) + strlen(name) + 1 > len)
		return -1;
	strcat(buf, name);
	return 0;
}
