// SPDX-License-Identifier: GPL-2.0
/* test_json.c - unit tests of the JSON reader/writer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "rng.h"
#include "tcheck.h"

static struct json *P(const char *s)
{
	struct json_err e;

	return json_parse(s, strlen(s), &e);
}

static char *to_text(const struct json *j, int indent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	json_write(f, j, indent);
	fclose(f);
	return buf;
}

static void test_scalars(void)
{
	struct json *j;
	double d;
	int b;

	t_begin("json.scalars");
	j = P("null");
	t_expect(j && j->type == JSON_NULL, "null");
	json_free(j);
	j = P(" true ");
	t_expect(j && !json_bool(j, &b) && b == 1, "true");
	json_free(j);
	j = P("false");
	t_expect(j && !json_bool(j, &b) && b == 0, "false");
	json_free(j);
	j = P("\"x\"");
	t_expect(j && json_str(j) && !strcmp(json_str(j), "x"), "string");
	t_expect(json_num(j, &d) == -1, "string is not a number");
	json_free(j);
	j = P("\t\r\n-0\n");
	t_expect(j && !json_num(j, &d) && d == 0.0, "-0");
	json_free(j);
	t_end();
}

static void test_nesting(void)
{
	const char *doc = "{\"a\": [1, {\"b\": [[], {}]}, \"c\"], \"d\": {\"e\": null}}";
	struct json *j = P(doc), *b;
	char deep[2 * JSON_MAX_DEPTH + 8];
	struct json_err e;
	int i;

	t_begin("json.nesting");
	t_expect(j && j->type == JSON_OBJECT && json_len(j) == 2, "top object");
	t_expect(json_len(json_get(j, "a")) == 3, "array of 3");
	b = json_get(json_at(json_get(j, "a"), 1), "b");
	t_expect(b && b->type == JSON_ARRAY && json_len(b) == 2, "a[1].b");
	t_expect(json_at(b, 0)->type == JSON_ARRAY && !json_len(json_at(b, 0)),
		 "empty array");
	t_expect(json_at(b, 1)->type == JSON_OBJECT && !json_len(json_at(b, 1)),
		 "empty object");
	t_expect(json_get(json_get(j, "d"), "e")->type == JSON_NULL, "d.e null");
	t_expect(!json_get(j, "zz") && !json_at(json_get(j, "a"), 3),
		 "missing members are NULL");
	json_free(j);

	/* JSON_MAX_DEPTH nested arrays parse, one more does not */
	for (i = 0; i <= JSON_MAX_DEPTH; i++)
		deep[i] = '[';
	for (i = 0; i <= JSON_MAX_DEPTH; i++)
		deep[JSON_MAX_DEPTH + 1 + i] = ']';
	j = json_parse(deep + 1, 2 * JSON_MAX_DEPTH, &e);
	t_expect(j != NULL, "depth %d parses: %s", JSON_MAX_DEPTH, e.msg);
	json_free(j);
	j = json_parse(deep, 2 * JSON_MAX_DEPTH + 2, &e);
	t_expect(!j && e.offset == JSON_MAX_DEPTH,
		 "depth %d rejected at offset %d (got %ld: %s)",
		 JSON_MAX_DEPTH + 1, JSON_MAX_DEPTH, e.offset, e.msg);
	json_free(j);
	t_end();
}

static void test_strings(void)
{
	struct json *j;

	t_begin("json.strings");
	j = P("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t\"");
	t_expect(j && !strcmp(json_str(j), "q\" b\\ s/ \b\f\n\r\t"),
		 "simple escapes");
	json_free(j);
	j = P("\"\\u00e9\\u20AC\"");
	t_expect(j && !strcmp(json_str(j), "\xc3\xa9\xe2\x82\xac"),
		 "\\u escapes to UTF-8");
	json_free(j);
	j = P("\"\\ud83d\\ude00\"");
	t_expect(j && !strcmp(json_str(j), "\xf0\x9f\x98\x80"),
		 "surrogate pair");
	json_free(j);
	j = P("\"\xc2\xb5s per OPP\"");
	t_expect(j && !strcmp(json_str(j), "\xc2\xb5s per OPP"),
		 "raw UTF-8 kept");
	json_free(j);
	t_end();
}

static void test_numbers(void)
{
	struct json *j;
	uint64_t u;
	int64_t i;
	double d;

	t_begin("json.numbers");
	j = P("9223372036854775807");
	t_expect(j && !json_int64(j, &i) && i == INT64_MAX, "INT64_MAX");
	json_free(j);
	j = P("-9223372036854775808");
	t_expect(j && !json_int64(j, &i) && i == INT64_MIN, "INT64_MIN");
	t_expect(json_uint64(j, &u) == -1, "negative is not uint64");
	json_free(j);
	j = P("18446744073709551615");
	t_expect(j && !json_uint64(j, &u) && u == UINT64_MAX, "UINT64_MAX");
	t_expect(json_int64(j, &i) == -1, "UINT64_MAX is not int64");
	json_free(j);
	j = P("18446744073709551616");
	t_expect(j && json_uint64(j, &u) == -1 && !json_num(j, &d) &&
		 d == 18446744073709551616.0, "2^64 becomes a double");
	json_free(j);
	j = P("1E2");
	t_expect(j && json_int64(j, &i) == -1 && !json_num(j, &d) && d == 100,
		 "1E2 is a double 100");
	json_free(j);
	j = P("-2.5e-3");
	t_expect(j && !json_num(j, &d) && d == -0.0025, "-2.5e-3");
	json_free(j);
	j = P("0.1");
	t_expect(j && !json_num(j, &d) && d == 0.1, "0.1");
	json_free(j);
	j = P("74.000123");
	t_expect(j && !json_num(j, &d) && d == 74.000123, "74.000123");
	json_free(j);
	t_end();
}

struct bad {
	const char *text;
	long offset;
};

static void test_invalid(void)
{
	static const struct bad cases[] = {
		{ "", 0 }, { "{", 1 }, { "[", 1 }, { "[1,]", 3 },
		{ "{\"a\":1,}", 7 }, { "01", 1 }, { "-01", 2 }, { "1.", 2 },
		{ ".5", 0 }, { "-", 1 }, { "1e", 2 }, { "1e+", 3 },
		{ "\"abc", 4 }, { "\"a\x01\"", 2 }, { "\"\\x\"", 1 },
		{ "tru", 0 }, { "nul", 0 }, { "[1 2]", 3 }, { "{\"a\" 1}", 5 },
		{ "{1:2}", 1 }, { "1 2", 2 }, { "\"\\ud800\"", 1 },
		{ "\"\\udc00\"", 1 }, { "\"\\ud800\\u0041\"", 1 },
		{ "\"\\u12\"", 5 }, { "{\"a\":1,\"a\":2}", 7 },
		{ "\"\\u0000\"", 1 }, { "1e400", 0 }, { "[1,2", 4 },
		{ "{\"a\":}", 5 }, { "NaN", 0 }, { "[01]", 2 },
	};
	size_t i;

	t_begin("json.invalid_with_offsets");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct json_err e = { -2, "" };
		struct json *j = json_parse(cases[i].text, strlen(cases[i].text), &e);

		t_expect(!j, "'%s' accepted", cases[i].text);
		t_expect(e.offset == cases[i].offset && e.msg[0],
			 "'%s': offset %ld (%s), expected %ld", cases[i].text,
			 e.offset, e.msg, cases[i].offset);
		json_free(j);
	}
	t_end();
}

static void test_roundtrip(void)
{
	const char *doc =
		"{\"schema\":\"emrcu/em_bench/1\",\"runtime_em\":true,\"x\":null,"
		"\"readers\":[{\"cpu\":0,\"ns_per_call\":[74.0,74.4,1e-9,-3.25e+30],"
		"\"checksum\":18446744073709551557}],\"s\":\"tab\\there \\u0001\"}";
	struct json *a = P(doc), *b, *c;
	struct rng r;
	char *t0, *t1;
	int i, bad = 0;

	t_begin("json.roundtrip");
	t_expect(a != NULL, "document parses");
	t0 = to_text(a, 0);
	t1 = to_text(a, 2);
	b = P(t0);
	c = P(t1);
	t_expect(b && json_equal(a, b), "compact round trip: %s", t0);
	t_expect(c && json_equal(a, c), "pretty round trip");
	t_expect(strstr(t0, "18446744073709551557") != NULL,
		 "u64 written exactly");
	t_expect(strstr(t0, "\\u0001") && strstr(t0, "\\t"),
		 "control characters escaped");
	free(t0);
	free(t1);
	json_free(b);
	json_free(c);
	json_free(a);

	/* every finite double reads back bit-exact */
	rng_seed(&r, 1);
	for (i = 0; i < 20000; i++) {
		uint64_t bits = rng_next(&r);
		double d;
		struct json *n, *m;
		char *t;

		memcpy(&d, &bits, sizeof(d));
		if (!isfinite(d))
			continue;
		n = json_new_num(d);
		t = to_text(n, 0);
		m = P(t);
		if (!m || m->u.num.d != d)
			bad++;
		free(t);
		json_free(n);
		json_free(m);
	}
	t_expect(!bad, "%d doubles did not round-trip", bad);
	t_end();
}

static void test_build(void)
{
	struct json *o = json_new_obj(), *a;
	char *t;
	double d;

	t_begin("json.build_and_write");
	json_set_str(o, "name", "hot_path_ns_per_call");
	json_set_num(o, "median", 74.0);
	json_set_num(o, "bad", NAN);
	json_set_int(o, "n", -40);
	json_set_int(o, "n", 40);	/* replaces */
	a = json_set(o, "samples", json_new_arr());
	json_push(a, json_new_num(0.5));
	json_push(a, json_new_uint(UINT64_MAX));
	t = to_text(o, 0);
	t_expect(!strcmp(t, "{\"name\":\"hot_path_ns_per_call\",\"median\":74,"
			    "\"bad\":null,\"n\":40,\"samples\":[0.5,18446744073709551615]}"),
		 "text: %s", t);
	t_expect(json_len(o) == 5, "replace keeps 5 keys");
	t_expect(json_num(json_get(o, "name"), &d) == -1, "type mismatch is -1");
	free(t);
	json_free(o);
	t_end();
}

static void test_file(void)
{
	char path[] = "/tmp/emrcu-json-XXXXXX";
	struct json_err e;
	struct json *j;
	int fd = mkstemp(path);

	t_begin("json.file_errors");
	j = json_parse_file("/nonexistent/emrcu.json", &e);
	t_expect(!j && e.offset == -1 && strstr(e.msg, "nonexistent"),
		 "missing file: %ld %s", e.offset, e.msg);
	t_expect(fd >= 0 && write(fd, "{\"a\": [1, 2,, 3]}", 17) == 17, "tmp file");
	close(fd);
	j = json_parse_file(path, &e);
	t_expect(!j && e.offset == 12 && strstr(e.msg, "byte 12"),
		 "garbage file: %ld %s", e.offset, e.msg);
	unlink(path);
	t_end();
}

int main(void)
{
	test_scalars();
	test_nesting();
	test_strings();
	test_numbers();
	test_invalid();
	test_roundtrip();
	test_build();
	test_file();
	return t_status();
}
