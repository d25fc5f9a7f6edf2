// SPDX-License-Identifier: GPL-2.0
/* json_write.c - the one JSON writer: tree -> text (shortest round-trip doubles). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/json.h"

/* Length of the valid UTF-8 sequence at s (1 to 4), 0 if none. */
static int utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;	/* overlong, surrogate or beyond U+10FFFF */
	return n;
}

/*
 * A string literal.  Bytes that are not valid UTF-8 (console text can hold
 * any) are written as the code points U+0080..U+00FF, so that the output is
 * always valid JSON.
 */
void json_fput_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		int n = utf8_len((const unsigned char *)s);

		if (n > 1) {
			fwrite(s, 1, (size_t)n, f);
			s += n - 1;
			continue;
		}
		if (!n) {
			fprintf(f, "\\u%04x", c);
			continue;
		}

		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (c < 0x20)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
	}
	fputc('"', f);
}

static void write_number(FILE *f, const struct json *j)
{
	char buf[40];
	uint64_t u;
	int64_t i;
	double d;
	int prec;

	if (!json_int64(j, &i)) {
		fprintf(f, "%lld", (long long)i);
		return;
	}
	if (!json_uint64(j, &u)) {
		fprintf(f, "%llu", (unsigned long long)u);
		return;
	}
	json_num(j, &d);
	if (!isfinite(d)) {
		fputs("null", f);
		return;
	}
	if (d == floor(d) && fabs(d) < 0x1p53) {
		fprintf(f, "%.0f", d);
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	fputs(buf, f);
}

static int scalar_only(const struct json *a)
{
	size_t i;

	for (i = 0; i < json_len(a); i++)
		if (json_kind(json_at(a, i)) == JSON_ARRAY ||
		    json_kind(json_at(a, i)) == JSON_OBJECT)
			return 0;
	return 1;
}

static void newline(FILE *f, int indent, int level)
{
	if (indent > 0)
		fprintf(f, "\n%*s", indent * level, "");
}

static void write_value(FILE *f, const struct json *j, int indent, int level)
{
	int flat, obj = json_kind(j) == JSON_OBJECT;
	size_t i, n = json_len(j);

	switch (json_kind(j)) {
	case JSON_NULL:
		fputs("null", f);
		break;
	case JSON_BOOL:
		json_boolean(j, &flat);
		fputs(flat ? "true" : "false", f);
		break;
	case JSON_NUMBER:
		write_number(f, j);
		break;
	case JSON_STRING:
		json_fput_str(f, json_str(j));
		break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		flat = !obj && (indent <= 0 || scalar_only(j));
		fputc(obj ? '{' : '[', f);
		for (i = 0; i < n; i++) {
			if (i)
				fputs(flat && indent > 0 ? ", " : ",", f);
			if (!flat)
				newline(f, indent, level + 1);
			if (obj) {
				json_fput_str(f, json_key(j, i));
				fputs(indent > 0 ? ": " : ":", f);
			}
			write_value(f, json_at(j, i), indent, level + 1);
		}
		if (!flat && n)
			newline(f, indent, level);
		fputc(obj ? '}' : ']', f);
		break;
	}
}

int json_write(FILE *f, const struct json *j, int indent)
{
	write_value(f, j, indent, 0);
	if (indent > 0)
		fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

char *json_text(const struct json *j, int indent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	json_write(f, j, indent);
	if (fclose(f))
		abort();
	return buf;
}
