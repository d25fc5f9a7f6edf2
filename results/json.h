/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a small JSON reader (text -> tree) and writer (tree -> text).
 *
 * Enough for the emrcu schemas: objects (keys unique, order kept), arrays,
 * strings with every RFC 8259 escape (\u0000 excepted: strings are C
 * strings), numbers (integers exact up to the full 64-bit range, signed or
 * unsigned, everything else as double), true/false/null.  Parse errors name
 * the byte offset where the text stopped making sense.
 */
#ifndef EMRCU_JSON_H
#define EMRCU_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json {
	enum json_type type;
	union {
		int boolean;
		struct {
			double d;	/* always set */
			int is_int;	/* written without fraction/exponent, fits 64 bits */
			int neg;	/* is_int: value is -mag */
			uint64_t mag;	/* is_int: magnitude */
		} num;
		struct {
			char *s;
			size_t len;
		} str;
		struct {
			struct json **v;
			size_t n, cap;
		} arr;
		struct {
			char **k;
			struct json **v;
			size_t n, cap;
		} obj;
	} u;
};

#define JSON_MAX_DEPTH 128	/* nested arrays/objects */

struct json_err {
	long offset;		/* byte offset of the error, -1 for I/O errors */
	char msg[160];
};

struct json *json_parse(const char *text, size_t len, struct json_err *err);
/* Reads a whole file; err->msg names the file. */
struct json *json_parse_file(const char *path, struct json_err *err);
void json_free(struct json *j);

/* Accessors: NULL / -1 when the node is missing or has another type. */
struct json *json_get(const struct json *obj, const char *key);
struct json *json_at(const struct json *arr, size_t i);
size_t json_len(const struct json *j);	/* array/object members, else 0 */
const char *json_str(const struct json *j);
int json_num(const struct json *j, double *out);
int json_int64(const struct json *j, int64_t *out);	/* integers only */
int json_uint64(const struct json *j, uint64_t *out);	/* integers >= 0 only */
int json_bool(const struct json *j, int *out);
int json_equal(const struct json *a, const struct json *b);

/* Constructors: abort on out-of-memory (these are CLI tools). */
struct json *json_new_null(void);
struct json *json_new_bool(int b);
struct json *json_new_num(double d);
struct json *json_new_int(int64_t i);
struct json *json_new_uint(uint64_t u);
struct json *json_new_str(const char *s);
struct json *json_new_arr(void);
struct json *json_new_obj(void);
struct json *json_clone(const struct json *j);
/* Takes ownership of val; an existing key is replaced. Returns val. */
struct json *json_set(struct json *obj, const char *key, struct json *val);
struct json *json_push(struct json *arr, struct json *val);
/* Shorthands for json_set(obj, key, json_new_X(...)). */
void json_set_str(struct json *obj, const char *key, const char *s);
void json_set_num(struct json *obj, const char *key, double d);
void json_set_int(struct json *obj, const char *key, int64_t i);
void json_set_bool(struct json *obj, const char *key, int b);

/*
 * Writes j as JSON text.  indent > 0 pretty-prints objects with that many
 * spaces per level; arrays holding only scalars stay on one line.  Doubles
 * use the shortest form that reads back to the same value; NaN and
 * infinities (not JSON) are written as null.  Returns 0, -1 on write error.
 */
int json_write(FILE *f, const struct json *j, int indent);

#endif
