/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emrcu/json.h - the one JSON layer of every emrcu program, host and guest:
 * a tree API over json-c (reader, accessors, constructors) and one writer.
 *
 * The tree is json-c's: JSON null is a NULL pointer, so a missing member
 * and a null one read alike.  Integers are exact over int64 and uint64;
 * json-c saturates wider ones.  The reader is json-c's strict mode plus two
 * rules of ours: the whole text must be one value, and every number must be
 * finite (json-c accepts NaN and Infinity; JSON does not).  Errors name the
 * byte offset where json-c stopped.
 */
#ifndef EMRCU_LIB_JSON_H
#define EMRCU_LIB_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json;			/* a json-c json_object */

enum json_kind {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
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

enum json_kind json_kind(const struct json *j);
/* Accessors: NULL / -1 when the node is missing or has another type. */
struct json *json_get(const struct json *obj, const char *key);
/* Element i of an array, or the value of an object's i-th member. */
struct json *json_at(const struct json *j, size_t i);
/* The key of an object's i-th member (insertion order). */
const char *json_key(const struct json *obj, size_t i);
size_t json_len(const struct json *j);	/* array/object members, else 0 */
const char *json_str(const struct json *j);
int json_num(const struct json *j, double *out);
int json_int64(const struct json *j, int64_t *out);	/* integers only */
int json_uint64(const struct json *j, uint64_t *out);	/* integers >= 0 only */
int json_boolean(const struct json *j, int *out);
/* Numbers compare by value whether written as integers or not. */
int json_equal(const struct json *a, const struct json *b);

/* Constructors: abort on out-of-memory; json_new_str(NULL) is null. */
struct json *json_new_null(void);
struct json *json_new_bool(int b);
struct json *json_new_num(double d);
struct json *json_new_int(int64_t i);
struct json *json_new_uint(uint64_t u);
struct json *json_new_str(const char *s);
struct json *json_new_arr(void);
struct json *json_new_obj(void);
struct json *json_clone(const struct json *j);
/* Takes ownership of val; an existing key is replaced in place. Returns val. */
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
 * infinities (not JSON) are written as null; bytes of a string that are
 * not UTF-8 as \u0080..\u00ff.  Returns 0, -1 on write error.
 */
int json_write(FILE *f, const struct json *j, int indent);
/* The string literal json_write() writes for s, for streaming writers. */
void json_fput_str(FILE *f, const char *s);
/* The text json_write() writes, malloc'd. */
char *json_text(const struct json *j, int indent);

#endif
