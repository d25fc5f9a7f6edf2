// SPDX-License-Identifier: GPL-2.0
/* json.c - emrcu/json.h's tree API over json-c. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/xalloc.h"

#define JO(j) ((struct json_object *)(j))
#define J(o) ((struct json *)(o))

static struct json *must(struct json_object *o)
{
	if (!o)
		abort();
	return J(o);
}

static __attribute__((format(printf, 3, 4)))
void set_err(struct json_err *err, long offset, const char *fmt, ...)
{
	va_list ap;

	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/* 0 when every number under o is finite. */
static int all_finite(struct json_object *o)
{
	size_t i;

	switch (json_object_get_type(o)) {
	case json_type_double:
		return isfinite(json_object_get_double(o)) ? 0 : -1;
	case json_type_array:
		for (i = 0; i < json_object_array_length(o); i++)
			if (all_finite(json_object_array_get_idx(o, i)))
				return -1;
		return 0;
	case json_type_object: {
		json_object_object_foreach(o, k, v) {
			(void)k;
			if (all_finite(v))
				return -1;
		}
		return 0;
	}
	default:
		return 0;
	}
}

struct json *json_parse(const char *text, size_t len, struct json_err *err)
{
	struct json_err dummy;
	struct json_tokener *tok;
	struct json_object *o;
	enum json_tokener_error e;
	char *buf;
	size_t end;

	if (!err)
		err = &dummy;
	/* The terminating NUL ends a number or literal at the end of the text. */
	buf = xmalloc(len + 1);
	memcpy(buf, text, len);
	buf[len] = '\0';
	tok = json_tokener_new_ex(JSON_MAX_DEPTH);
	if (!tok)
		abort();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, buf, (int)len + 1);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (e == json_tokener_success) {
		while (end < len && strchr(" \t\r\n", buf[end]))
			end++;
		if (end < len) {
			set_err(err, (long)end, "byte %zu: text after the value",
				end);
			json_object_put(o);
			o = NULL;
		} else if (all_finite(o)) {
			set_err(err, 0, "a number is not finite (NaN, Infinity or out of range)");
			json_object_put(o);
			o = NULL;
		}
	} else {
		if (end > len)
			end = len;
		set_err(err, (long)end, "byte %zu: %s", end,
			e == json_tokener_continue ? "unexpected end of data" :
			json_tokener_error_desc(e));
		json_object_put(o);
		o = NULL;
	}
	free(buf);
	return J(o);
}

struct json *json_parse_file(const char *path, struct json_err *err)
{
	struct json_err dummy;
	struct json *j;
	size_t n;
	char *buf;

	if (!err)
		err = &dummy;
	buf = read_file(path, &n);
	if (!buf) {
		set_err(err, -1, "%.100s: %s", path, strerror(errno));
		return NULL;
	}
	j = json_parse(buf, n, err);
	free(buf);
	if (!j) {
		char m[sizeof(err->msg)];

		snprintf(m, sizeof(m), "%s", err->msg);
		set_err(err, err->offset, "%.100s: %s", path, m);
	}
	return j;
}

/*
 * The i-th member of an object, in insertion order.  json-c's objects are
 * hash tables with an ordered list, so this walks the list; the last
 * position is remembered, which makes a loop over i linear.  json_set() and
 * json_free() forget it (they may free what it points into).
 */
static struct {
	const struct json *obj;
	size_t i;
	struct json_object_iterator it;
} last;

static void forget(void)
{
	last.obj = NULL;
}

void json_free(struct json *j)
{
	forget();
	json_object_put(JO(j));
}

enum json_kind json_kind(const struct json *j)
{
	switch (json_object_get_type(JO(j))) {
	case json_type_boolean:
		return JSON_BOOL;
	case json_type_double:
	case json_type_int:
		return JSON_NUMBER;
	case json_type_string:
		return JSON_STRING;
	case json_type_array:
		return JSON_ARRAY;
	case json_type_object:
		return JSON_OBJECT;
	default:
		return JSON_NULL;
	}
}

struct json *json_get(const struct json *obj, const char *key)
{
	struct json_object *v;

	if (json_kind(obj) != JSON_OBJECT ||
	    !json_object_object_get_ex(JO(obj), key, &v))
		return NULL;
	return J(v);
}

static int member(const struct json *obj, size_t i, const char **k,
		  struct json **v)
{
	struct json_object_iterator end;

	if (json_kind(obj) != JSON_OBJECT || i >= json_len(obj))
		return -1;
	if (last.obj != obj || last.i > i) {
		last.obj = obj;
		last.i = 0;
		last.it = json_object_iter_begin(JO(obj));
	}
	end = json_object_iter_end(JO(obj));
	for (; last.i < i; last.i++)
		json_object_iter_next(&last.it);
	if (json_object_iter_equal(&last.it, &end))
		return -1;
	*k = json_object_iter_peek_name(&last.it);
	*v = J(json_object_iter_peek_value(&last.it));
	return 0;
}

struct json *json_at(const struct json *j, size_t i)
{
	const char *k;
	struct json *v;

	if (json_kind(j) == JSON_ARRAY)
		return i < json_len(j) ?
			J(json_object_array_get_idx(JO(j), i)) : NULL;
	return member(j, i, &k, &v) ? NULL : v;
}

const char *json_key(const struct json *obj, size_t i)
{
	const char *k;
	struct json *v;

	return member(obj, i, &k, &v) ? NULL : k;
}

size_t json_len(const struct json *j)
{
	switch (json_kind(j)) {
	case JSON_ARRAY:
		return json_object_array_length(JO(j));
	case JSON_OBJECT:
		return (size_t)json_object_object_length(JO(j));
	default:
		return 0;
	}
}

const char *json_str(const struct json *j)
{
	return json_kind(j) == JSON_STRING ? json_object_get_string(JO(j)) : NULL;
}

/* An integer node above INT64_MAX (json-c keeps those as uint64). */
static int is_big(const struct json *j)
{
	return json_object_get_int64(JO(j)) == INT64_MAX &&
	       json_object_get_uint64(JO(j)) != (uint64_t)INT64_MAX;
}

int json_num(const struct json *j, double *out)
{
	if (json_kind(j) != JSON_NUMBER)
		return -1;
	if (json_object_get_type(JO(j)) == json_type_int && is_big(j))
		*out = (double)json_object_get_uint64(JO(j));
	else
		*out = json_object_get_double(JO(j));
	return 0;
}

int json_int64(const struct json *j, int64_t *out)
{
	if (json_object_get_type(JO(j)) != json_type_int || is_big(j))
		return -1;
	*out = json_object_get_int64(JO(j));
	return 0;
}

int json_uint64(const struct json *j, uint64_t *out)
{
	if (json_object_get_type(JO(j)) != json_type_int ||
	    json_object_get_int64(JO(j)) < 0)
		return -1;
	*out = json_object_get_uint64(JO(j));
	return 0;
}

int json_boolean(const struct json *j, int *out)
{
	if (json_kind(j) != JSON_BOOL)
		return -1;
	*out = json_object_get_boolean(JO(j));
	return 0;
}

int json_equal(const struct json *a, const struct json *b)
{
	int64_t ia, ib;
	uint64_t ua, ub;
	double da, db;
	size_t i;

	if (json_kind(a) != json_kind(b))
		return 0;
	switch (json_kind(a)) {
	case JSON_NULL:
		return 1;
	case JSON_BOOL:
		return json_object_get_boolean(JO(a)) == json_object_get_boolean(JO(b));
	case JSON_NUMBER:
		if (!json_int64(a, &ia) && !json_int64(b, &ib))
			return ia == ib;
		if (!json_uint64(a, &ua) && !json_uint64(b, &ub))
			return ua == ub;
		json_num(a, &da);
		json_num(b, &db);
		return da == db || (isnan(da) && isnan(db));
	case JSON_STRING:
		return json_object_get_string_len(JO(a)) ==
			json_object_get_string_len(JO(b)) &&
		       !memcmp(json_str(a), json_str(b),
			       (size_t)json_object_get_string_len(JO(a)));
	case JSON_ARRAY:
	case JSON_OBJECT:
		if (json_len(a) != json_len(b))
			return 0;
		for (i = 0; i < json_len(a); i++) {
			const struct json *vb = json_kind(a) == JSON_ARRAY ?
				json_at(b, i) : json_get(b, json_key(a, i));

			if (json_kind(a) == JSON_OBJECT &&
			    !json_object_object_get_ex(JO(b), json_key(a, i), NULL))
				return 0;
			if (!json_equal(json_at(a, i), vb))
				return 0;
		}
		return 1;
	}
	return 0;
}

struct json *json_new_null(void)
{
	return NULL;
}

struct json *json_new_bool(int b)
{
	return must(json_object_new_boolean(!!b));
}

struct json *json_new_num(double d)
{
	return must(json_object_new_double(d));
}

struct json *json_new_int(int64_t i)
{
	return must(json_object_new_int64(i));
}

struct json *json_new_uint(uint64_t u)
{
	return must(json_object_new_uint64(u));
}

struct json *json_new_str(const char *s)
{
	return s ? must(json_object_new_string(s)) : NULL;
}

struct json *json_new_arr(void)
{
	return must(json_object_new_array());
}

struct json *json_new_obj(void)
{
	return must(json_object_new_object());
}

struct json *json_clone(const struct json *j)
{
	struct json_object *c = NULL;

	if (j && json_object_deep_copy(JO(j), &c, NULL))
		abort();
	return J(c);
}

struct json *json_set(struct json *obj, const char *key, struct json *val)
{
	forget();
	if (json_object_object_add(JO(obj), key, JO(val)))
		abort();
	return val;
}

struct json *json_push(struct json *arr, struct json *val)
{
	if (json_object_array_add(JO(arr), JO(val)))
		abort();
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
