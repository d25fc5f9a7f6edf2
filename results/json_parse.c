// SPDX-License-Identifier: GPL-2.0
/* json_parse.c - strict RFC 8259 JSON text -> tree, errors with byte offset. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

struct parser {
	const char *p, *start, *end;
	struct json_err *err;
	int failed;
};

static void fail(struct parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = 1;
	ps->err->offset = (long)(at - ps->start);
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static struct json *parse_value(struct parser *ps, int depth);

static int literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n)) {
		fail(ps, ps->p, "invalid literal (expected '%s')", word);
		return -1;
	}
	ps->p += n;
	return 0;
}

static int is_digit(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

static struct json *parse_number(struct parser *ps)
{
	const char *s = ps->p, *q = ps->p;
	int frac = 0, neg = 0;
	uint64_t mag = 0;
	int overflow = 0;
	char buf[512];
	struct json *j;
	size_t len;
	double d;
	char *e;

	if (q < ps->end && *q == '-') {
		neg = 1;
		q++;
	}
	if (!is_digit(q, ps->end)) {
		fail(ps, q, "invalid number: digit expected");
		return NULL;
	}
	if (*q == '0') {
		q++;
		if (is_digit(q, ps->end)) {
			fail(ps, q, "invalid number: leading zero");
			return NULL;
		}
	} else {
		while (is_digit(q, ps->end)) {
			unsigned int dig = (unsigned int)(*q - '0');

			if (mag > (UINT64_MAX - dig) / 10)
				overflow = 1;
			else
				mag = mag * 10 + dig;
			q++;
		}
	}
	if (q < ps->end && *q == '.') {
		frac = 1;
		q++;
		if (!is_digit(q, ps->end)) {
			fail(ps, q, "invalid number: digit expected after '.'");
			return NULL;
		}
		while (is_digit(q, ps->end))
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		frac = 1;
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (!is_digit(q, ps->end)) {
			fail(ps, q, "invalid number: digit expected in exponent");
			return NULL;
		}
		while (is_digit(q, ps->end))
			q++;
	}
	len = (size_t)(q - s);
	if (len >= sizeof(buf)) {
		fail(ps, s, "number too long");
		return NULL;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	d = strtod(buf, &e);
	if (isinf(d)) {
		fail(ps, s, "number out of range");
		return NULL;
	}
	ps->p = q;
	j = json_new_num(d);
	if (!frac && !overflow && (!neg || mag <= (uint64_t)INT64_MAX + 1)) {
		j->u.num.is_int = 1;
		j->u.num.neg = neg && mag;
		j->u.num.mag = mag;
	}
	return j;
}

static int hex4(struct parser *ps, const char *q, unsigned int *out)
{
	unsigned int v = 0;
	int i;

	for (i = 0; i < 4; i++, q++) {
		if (q >= ps->end) {
			fail(ps, q, "truncated \\u escape");
			return -1;
		}
		v <<= 4;
		if (*q >= '0' && *q <= '9') {
			v |= (unsigned int)(*q - '0');
		} else if (*q >= 'a' && *q <= 'f') {
			v |= (unsigned int)(*q - 'a' + 10);
		} else if (*q >= 'A' && *q <= 'F') {
			v |= (unsigned int)(*q - 'A' + 10);
		} else {
			fail(ps, q, "invalid hex digit in \\u escape");
			return -1;
		}
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* ps->p at the opening quote; returns a malloc'd string (decoded). */
static char *parse_string_raw(struct parser *ps, size_t *lenp)
{
	const char *q = ps->p + 1;
	size_t cap = 16, n = 0;
	char *o = malloc(cap);

	if (!o)
		abort();
	for (;;) {
		unsigned char c;

		if (cap - n < 8) {
			cap *= 2;
			o = realloc(o, cap);
			if (!o)
				abort();
		}
		if (q >= ps->end) {
			fail(ps, q, "unterminated string");
			goto err;
		}
		c = (unsigned char)*q;
		if (c == '"') {
			q++;
			break;
		}
		if (c < 0x20) {
			fail(ps, q, "control character in string");
			goto err;
		}
		if (c != '\\') {
			o[n++] = (char)c;
			q++;
			continue;
		}
		q++;
		if (q >= ps->end) {
			fail(ps, q, "unterminated escape");
			goto err;
		}
		switch (*q) {
		case '"':
		case '\\':
		case '/':
			o[n++] = *q;
			break;
		case 'b':
			o[n++] = '\b';
			break;
		case 'f':
			o[n++] = '\f';
			break;
		case 'n':
			o[n++] = '\n';
			break;
		case 'r':
			o[n++] = '\r';
			break;
		case 't':
			o[n++] = '\t';
			break;
		case 'u': {
			unsigned int cp, lo;
			const char *esc = q - 1;

			if (hex4(ps, q + 1, &cp))
				goto err;
			q += 4;
			if (cp >= 0xdc00 && cp <= 0xdfff) {
				fail(ps, esc, "lone low surrogate");
				goto err;
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (ps->end - q < 7 || q[1] != '\\' || q[2] != 'u') {
					fail(ps, esc, "high surrogate without low surrogate");
					goto err;
				}
				if (hex4(ps, q + 3, &lo))
					goto err;
				if (lo < 0xdc00 || lo > 0xdfff) {
					fail(ps, esc, "high surrogate without low surrogate");
					goto err;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				q += 6;
			}
			if (cp == 0) {
				fail(ps, esc, "\\u0000 is not supported");
				goto err;
			}
			n += put_utf8(o + n, cp);
			break;
		}
		default:
			fail(ps, q - 1, "invalid escape '\\%c'", *q);
			goto err;
		}
		q++;
	}
	o[n] = '\0';
	*lenp = n;
	ps->p = q;
	return o;
err:
	free(o);
	return NULL;
}

static struct json *parse_string(struct parser *ps)
{
	struct json *j;
	size_t len;
	char *s = parse_string_raw(ps, &len);

	if (!s)
		return NULL;
	j = json_new_null();
	j->type = JSON_STRING;
	j->u.str.s = s;
	j->u.str.len = len;
	return j;
}

static struct json *parse_array(struct parser *ps, int depth)
{
	struct json *a = json_new_arr();

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return a;
	}
	for (;;) {
		struct json *v = parse_value(ps, depth + 1);

		if (!v)
			goto err;
		json_push(a, v);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			skip_ws(ps);
			if (ps->p < ps->end && *ps->p == ']') {
				fail(ps, ps->p, "trailing comma in array");
				goto err;
			}
			continue;
		}
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			return a;
		}
		fail(ps, ps->p, "expected ',' or ']' in array");
		goto err;
	}
err:
	json_free(a);
	return NULL;
}

static struct json *parse_object(struct parser *ps, int depth)
{
	struct json *o = json_new_obj();

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return o;
	}
	for (;;) {
		const char *kat = ps->p;
		struct json *v;
		size_t klen;
		char *k;

		if (ps->p >= ps->end || *ps->p != '"') {
			fail(ps, ps->p, ps->p < ps->end && *ps->p == '}' ?
			     "trailing comma in object" : "expected string key");
			goto err;
		}
		k = parse_string_raw(ps, &klen);
		if (!k)
			goto err;
		if (json_get(o, k)) {
			fail(ps, kat, "duplicate key \"%.60s\"", k);
			free(k);
			goto err;
		}
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ':') {
			fail(ps, ps->p, "expected ':' after key");
			free(k);
			goto err;
		}
		ps->p++;
		v = parse_value(ps, depth + 1);
		if (!v) {
			free(k);
			goto err;
		}
		json_set(o, k, v);
		free(k);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			skip_ws(ps);
			continue;
		}
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			return o;
		}
		fail(ps, ps->p, "expected ',' or '}' in object");
		goto err;
	}
err:
	json_free(o);
	return NULL;
}

static struct json *parse_value(struct parser *ps, int depth)
{
	skip_ws(ps);
	if (ps->p < ps->end && (*ps->p == '[' || *ps->p == '{') &&
	    depth >= JSON_MAX_DEPTH) {
		fail(ps, ps->p, "nesting deeper than %d", JSON_MAX_DEPTH);
		return NULL;
	}
	if (ps->p >= ps->end) {
		fail(ps, ps->p, "unexpected end of input");
		return NULL;
	}
	switch (*ps->p) {
	case '{':
		return parse_object(ps, depth);
	case '[':
		return parse_array(ps, depth);
	case '"':
		return parse_string(ps);
	case 't':
		return literal(ps, "true") ? NULL : json_new_bool(1);
	case 'f':
		return literal(ps, "false") ? NULL : json_new_bool(0);
	case 'n':
		return literal(ps, "null") ? NULL : json_new_null();
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return parse_number(ps);
		fail(ps, ps->p, "unexpected character '%c'",
		     *ps->p >= 0x20 && *ps->p < 0x7f ? *ps->p : '?');
		return NULL;
	}
}

struct json *json_parse(const char *text, size_t len, struct json_err *err)
{
	struct json_err dummy;
	struct parser ps = { text, text, text + len, err ? err : &dummy, 0 };
	struct json *j;

	ps.err->offset = 0;
	ps.err->msg[0] = '\0';
	j = parse_value(&ps, 0);
	if (!j)
		return NULL;
	skip_ws(&ps);
	if (ps.p != ps.end) {
		fail(&ps, ps.p, "trailing characters after JSON value");
		json_free(j);
		return NULL;
	}
	return j;
}

struct json *json_parse_file(const char *path, struct json_err *err)
{
	struct json_err dummy;
	size_t cap = 65536, n = 0, r;
	struct json *j;
	char *buf;
	FILE *f;

	if (!err)
		err = &dummy;
	f = fopen(path, "r");
	if (!f) {
		err->offset = -1;
		snprintf(err->msg, sizeof(err->msg), "%.100s: %s", path,
			 strerror(errno));
		return NULL;
	}
	buf = malloc(cap);
	if (!buf)
		abort();
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
	}
	if (ferror(f)) {
		err->offset = -1;
		snprintf(err->msg, sizeof(err->msg), "%.100s: read error", path);
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	j = json_parse(buf, n, err);
	free(buf);
	if (!j) {
		char m[sizeof(err->msg)];

		snprintf(m, sizeof(m), "%s", err->msg);
		snprintf(err->msg, sizeof(err->msg), "%.60s: byte %ld: %.80s",
			 path, err->offset, m);
	}
	return j;
}
