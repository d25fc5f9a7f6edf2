// SPDX-License-Identifier: GPL-2.0
/* origin.c - the provenance block and the figures' ids. */
#include "origin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/json.h"
#include "emrcu/xalloc.h"
#include "figure.h"

/* Do a and b print the same (both absent counts as the same)? */
static int same(const struct json *a, const struct json *b)
{
	char *ta, *tb;
	int eq;

	if (!a || !b)
		return !a && !b;
	ta = json_text(a, 0);
	tb = json_text(b, 0);
	eq = !strcmp(ta, tb);
	free(ta);
	free(tb);
	return eq;
}

/* meta.@key of the first run, marked when another run's differs. */
static struct json *first_of(const struct json *runs, const char *key)
{
	const struct json *first = NULL, *m;
	struct json *out;
	int mixed = 0;
	size_t i;

	for (i = 0; i < json_len(runs); i++) {
		m = json_get(json_get(json_at(runs, i), "meta"), key);
		if (!i)
			first = m;
		else if (!same(first, m))
			mixed = 1;
	}
	if (!first)
		return json_new_null();
	if (mixed && json_kind(first) == JSON_STRING) {
		char *s = xasprintf("%s (mixed)", json_str(first));

		out = json_new_str(s);
		free(s);
		return out;
	}
	out = json_clone(first);
	if (mixed && json_kind(out) == JSON_OBJECT)
		json_set_bool(out, "mixed", 1);
	return out;
}

struct json *origin_block(const struct json *runs, const char *command)
{
	struct json *p = json_new_obj(), *vars;
	size_t i;

	json_set_str(p, "command", command);
	json_set(p, "harness", first_of(runs, "harness"));
	json_set(p, "host", first_of(runs, "host"));
	json_set(p, "qemu_version", first_of(runs, "qemu_version"));
	json_set(p, "qemu_argv", first_of(runs, "qemu_argv"));
	vars = json_set(p, "variants", json_new_obj());
	for (i = 0; i < json_len(runs); i++) {
		const struct json *m = json_get(json_at(runs, i), "meta");
		const char *v = json_str(json_get(json_at(runs, i), "variant"));
		struct json *o;

		if (!v || json_get(vars, v))
			continue;
		o = json_set(vars, v, json_new_obj());
		json_set(o, "kernel_release", json_clone(json_get(m, "kernel_release")));
		json_set(o, "config_sha256", json_clone(json_get(m, "config_sha256")));
		json_set(o, "kernel_tree", json_clone(json_get(m, "kernel_tree")));
	}
	return p;
}

int origin_ids(struct json *figs, char *err, size_t errlen)
{
	char key[FIG_KEY_MAX];
	size_t i, j;

	for (i = 0; i < json_len(figs); i++) {
		struct json *f = json_at(figs, i);

		if (fig_key_json(f, key, sizeof(key))) {
			snprintf(err, errlen, "figure %zu (%s) has no identity", i,
				 json_str(json_get(f, "name")));
			return -1;
		}
		for (j = 0; j < i; j++)		/* as summary_load() checks them */
			if (!strcmp(json_str(json_get(json_at(figs, j), "id")), key)) {
				snprintf(err, errlen, "two figures have the id %s", key);
				return -1;
			}
		json_set_str(f, "id", key);
	}
	return 0;
}
