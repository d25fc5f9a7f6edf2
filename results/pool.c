// SPDX-License-Identifier: GPL-2.0
/* pool.c - sample pools keyed by figure identity. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"

struct json *fig_template(const char *name, const char *unit,
			  const char *better, const char *variant,
			  const char *mode, const char *preempt,
			  double update_hz, long cluster)
{
	struct json *f = json_new_obj();

	json_set_str(f, "name", name);
	json_set_str(f, "unit", unit);
	json_set_str(f, "variant", variant);
	json_set_str(f, "mode", mode);
	json_set_str(f, "preempt", preempt);
	json_set_num(f, "update_hz", update_hz);
	json_set_int(f, "cluster", cluster);
	json_set_str(f, "better", better);
	return f;
}

struct pool *pools_get(struct pools *ps, struct json *tmpl, char *err,
		       size_t errlen)
{
	char key[FIG_KEY_MAX];
	struct pool *p;
	size_t i;

	if (fig_key_json(tmpl, key, sizeof(key))) {
		snprintf(err, errlen, "figure identity incomplete");
		json_free(tmpl);
		return NULL;
	}
	for (i = 0; i < ps->n; i++) {
		if (strcmp(ps->p[i].key, key))
			continue;
		if (!json_equal(ps->p[i].tmpl, tmpl)) {
			snprintf(err, errlen,
				 "runs disagree on figure %s (unit, icount shift, OPP count or clock step differ)",
				 key);
			json_free(tmpl);
			return NULL;
		}
		json_free(tmpl);
		return &ps->p[i];
	}
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 16;
		ps->p = realloc(ps->p, ps->cap * sizeof(*ps->p));
		if (!ps->p)
			abort();
	}
	p = &ps->p[ps->n++];
	memset(p, 0, sizeof(*p));
	p->tmpl = tmpl;
	snprintf(p->key, sizeof(p->key), "%s", key);
	p->sources = json_new_arr();
	return p;
}

void pool_add(struct pool *p, double v, const char *source)
{
	size_t i;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->x = realloc(p->x, p->cap * sizeof(*p->x));
		p->src = realloc(p->src, p->cap * sizeof(*p->src));
		if (!p->x || !p->src)
			abort();
	}
	for (i = 0; i < json_len(p->sources); i++)
		if (!strcmp(json_str(json_at(p->sources, i)), source))
			break;
	if (i == json_len(p->sources))
		json_push(p->sources, json_new_str(source));
	p->src[p->n] = i;
	p->x[p->n++] = v;
}

void pools_free(struct pools *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		json_free(ps->p[i].tmpl);
		json_free(ps->p[i].sources);
		free(ps->p[i].x);
		free(ps->p[i].src);
	}
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}
