// SPDX-License-Identifier: GPL-2.0
/* json_tree.c - JSON tree: constructors, accessors, comparison, free. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "xalloc.h"

static struct json *new_node(enum json_type t)
{
	struct json *j = xzalloc(sizeof(*j));

	j->type = t;
	return j;
}

struct json *json_new_null(void)
{
	return new_node(JSON_NULL);
}

struct json *json_new_bool(int b)
{
	struct json *j = new_node(JSON_BOOL);

	j->u.boolean = !!b;
	return j;
}

struct json *json_new_num(double d)
{
	struct json *j = new_node(JSON_NUMBER);

	j->u.num.d = d;
	return j;
}

struct json *json_new_int(int64_t i)
{
	struct json *j = new_node(JSON_NUMBER);

	j->u.num.d = (double)i;
	j->u.num.is_int = 1;
	j->u.num.neg = i < 0;
	j->u.num.mag = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
	return j;
}

struct json *json_new_uint(uint64_t u)
{
	struct json *j = new_node(JSON_NUMBER);

	j->u.num.d = (double)u;
	j->u.num.is_int = 1;
	j->u.num.mag = u;
	return j;
}

struct json *json_new_str(const char *s)
{
	struct json *j = new_node(JSON_STRING);

	j->u.str.len = strlen(s);
	j->u.str.s = xzalloc(j->u.str.len + 1);
	memcpy(j->u.str.s, s, j->u.str.len);
	return j;
}

struct json *json_new_arr(void)
{
	return new_node(JSON_ARRAY);
}

struct json *json_new_obj(void)
{
	return new_node(JSON_OBJECT);
}

static void grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *np;

	if (need <= *cap)
		return;
	ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * elem);
	if (!np)
		abort();
	*p = np;
	*cap = ncap;
}

struct json *json_push(struct json *arr, struct json *val)
{
	size_t cap = arr->u.arr.cap;

	grow((void **)&arr->u.arr.v, &cap, arr->u.arr.n + 1, sizeof(val));
	arr->u.arr.cap = cap;
	arr->u.arr.v[arr->u.arr.n++] = val;
	return val;
}

struct json *json_set(struct json *obj, const char *key, struct json *val)
{
	size_t i, cap;

	for (i = 0; i < obj->u.obj.n; i++) {
		if (!strcmp(obj->u.obj.k[i], key)) {
			json_free(obj->u.obj.v[i]);
			obj->u.obj.v[i] = val;
			return val;
		}
	}
	cap = obj->u.obj.cap;
	grow((void **)&obj->u.obj.k, &cap, obj->u.obj.n + 1, sizeof(char *));
	cap = obj->u.obj.cap;
	grow((void **)&obj->u.obj.v, &cap, obj->u.obj.n + 1, sizeof(val));
	obj->u.obj.cap = cap;
	obj->u.obj.k[obj->u.obj.n] = strcpy(xzalloc(strlen(key) + 1), key);
	obj->u.obj.v[obj->u.obj.n++] = val;
	return val;
}

void json_set_str(struct json *obj, const char *key, const char *s)
{
	json_set(obj, key, json_new_str(s));
}

void json_set_num(struct json *obj, const char *key, double d)
{
	json_set(obj, key, json_new_num(d));
}

void json_set_int(struct json *obj, const char *key, int64_t i)
{
	json_set(obj, key, json_new_int(i));
}

void json_set_bool(struct json *obj, const char *key, int b)
{
	json_set(obj, key, json_new_bool(b));
}

struct json *json_clone(const struct json *j)
{
	struct json *c;
	size_t i;

	if (!j)
		return NULL;
	switch (j->type) {
	case JSON_STRING:
		c = new_node(JSON_STRING);
		c->u.str.len = j->u.str.len;
		c->u.str.s = xzalloc(j->u.str.len + 1);
		memcpy(c->u.str.s, j->u.str.s, j->u.str.len);
		return c;
	case JSON_ARRAY:
		c = json_new_arr();
		for (i = 0; i < j->u.arr.n; i++)
			json_push(c, json_clone(j->u.arr.v[i]));
		return c;
	case JSON_OBJECT:
		c = json_new_obj();
		for (i = 0; i < j->u.obj.n; i++)
			json_set(c, j->u.obj.k[i], json_clone(j->u.obj.v[i]));
		return c;
	default:
		c = new_node(j->type);
		c->u = j->u;
		return c;
	}
}

void json_free(struct json *j)
{
	size_t i;

	if (!j)
		return;
	switch (j->type) {
	case JSON_STRING:
		free(j->u.str.s);
		break;
	case JSON_ARRAY:
		for (i = 0; i < j->u.arr.n; i++)
			json_free(j->u.arr.v[i]);
		free(j->u.arr.v);
		break;
	case JSON_OBJECT:
		for (i = 0; i < j->u.obj.n; i++) {
			free(j->u.obj.k[i]);
			json_free(j->u.obj.v[i]);
		}
		free(j->u.obj.k);
		free(j->u.obj.v);
		break;
	default:
		break;
	}
	free(j);
}

struct json *json_get(const struct json *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->u.obj.n; i++)
		if (!strcmp(obj->u.obj.k[i], key))
			return obj->u.obj.v[i];
	return NULL;
}

struct json *json_at(const struct json *arr, size_t i)
{
	if (!arr || arr->type != JSON_ARRAY || i >= arr->u.arr.n)
		return NULL;
	return arr->u.arr.v[i];
}

size_t json_len(const struct json *j)
{
	if (!j)
		return 0;
	if (j->type == JSON_ARRAY)
		return j->u.arr.n;
	if (j->type == JSON_OBJECT)
		return j->u.obj.n;
	return 0;
}

const char *json_str(const struct json *j)
{
	return j && j->type == JSON_STRING ? j->u.str.s : NULL;
}

int json_num(const struct json *j, double *out)
{
	if (!j || j->type != JSON_NUMBER)
		return -1;
	*out = j->u.num.d;
	return 0;
}

int json_int64(const struct json *j, int64_t *out)
{
	if (!j || j->type != JSON_NUMBER || !j->u.num.is_int)
		return -1;
	if (j->u.num.neg) {
		if (j->u.num.mag > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = j->u.num.mag == (uint64_t)INT64_MAX + 1 ?
			INT64_MIN : -(int64_t)j->u.num.mag;
	} else {
		if (j->u.num.mag > (uint64_t)INT64_MAX)
			return -1;
		*out = (int64_t)j->u.num.mag;
	}
	return 0;
}

int json_uint64(const struct json *j, uint64_t *out)
{
	if (!j || j->type != JSON_NUMBER || !j->u.num.is_int ||
	    (j->u.num.neg && j->u.num.mag))
		return -1;
	*out = j->u.num.mag;
	return 0;
}

int json_bool(const struct json *j, int *out)
{
	if (!j || j->type != JSON_BOOL)
		return -1;
	*out = j->u.boolean;
	return 0;
}

int json_equal(const struct json *a, const struct json *b)
{
	size_t i;

	if (!a || !b || a->type != b->type)
		return a == b;
	switch (a->type) {
	case JSON_NULL:
		return 1;
	case JSON_BOOL:
		return a->u.boolean == b->u.boolean;
	case JSON_NUMBER:
		if (a->u.num.is_int && b->u.num.is_int)
			return a->u.num.mag == b->u.num.mag &&
			       (a->u.num.neg == b->u.num.neg || !a->u.num.mag);
		return a->u.num.d == b->u.num.d ||
		       (isnan(a->u.num.d) && isnan(b->u.num.d));
	case JSON_STRING:
		return a->u.str.len == b->u.str.len &&
		       !memcmp(a->u.str.s, b->u.str.s, a->u.str.len);
	case JSON_ARRAY:
		if (a->u.arr.n != b->u.arr.n)
			return 0;
		for (i = 0; i < a->u.arr.n; i++)
			if (!json_equal(a->u.arr.v[i], b->u.arr.v[i]))
				return 0;
		return 1;
	case JSON_OBJECT:
		if (a->u.obj.n != b->u.obj.n)
			return 0;
		for (i = 0; i < a->u.obj.n; i++)
			if (!json_equal(a->u.obj.v[i], json_get(b, a->u.obj.k[i])))
				return 0;
		return 1;
	}
	return 0;
}
