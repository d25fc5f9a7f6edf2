// SPDX-License-Identifier: GPL-2.0
/* json_write.c - JSON tree -> text (shortest round-trip doubles). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static int write_string(FILE *f, const char *s, size_t len)
{
	size_t i;

	if (fputc('"', f) == EOF)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

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
	return fputc('"', f) == EOF ? -1 : 0;
}

static void write_double(FILE *f, double d)
{
	char buf[40];
	int prec;

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

	for (i = 0; i < a->u.arr.n; i++)
		if (a->u.arr.v[i]->type == JSON_ARRAY ||
		    a->u.arr.v[i]->type == JSON_OBJECT)
			return 0;
	return 1;
}

static void newline(FILE *f, int indent, int level)
{
	if (indent <= 0)
		return;
	fprintf(f, "\n%*s", indent * level, "");
}

static void write_value(FILE *f, const struct json *j, int indent, int level)
{
	size_t i;

	switch (j->type) {
	case JSON_NULL:
		fputs("null", f);
		break;
	case JSON_BOOL:
		fputs(j->u.boolean ? "true" : "false", f);
		break;
	case JSON_NUMBER:
		if (j->u.num.is_int)
			fprintf(f, "%s%llu", j->u.num.neg ? "-" : "",
				(unsigned long long)j->u.num.mag);
		else
			write_double(f, j->u.num.d);
		break;
	case JSON_STRING:
		write_string(f, j->u.str.s, j->u.str.len);
		break;
	case JSON_ARRAY: {
		int flat = indent <= 0 || scalar_only(j);

		fputc('[', f);
		for (i = 0; i < j->u.arr.n; i++) {
			if (i)
				fputs(flat && indent > 0 ? ", " : ",", f);
			if (!flat)
				newline(f, indent, level + 1);
			write_value(f, j->u.arr.v[i], indent, level + 1);
		}
		if (!flat && j->u.arr.n)
			newline(f, indent, level);
		fputc(']', f);
		break;
	}
	case JSON_OBJECT:
		fputc('{', f);
		for (i = 0; i < j->u.obj.n; i++) {
			if (i)
				fputc(',', f);
			newline(f, indent, level + 1);
			write_string(f, j->u.obj.k[i], strlen(j->u.obj.k[i]));
			fputs(indent > 0 ? ": " : ":", f);
			write_value(f, j->u.obj.v[i], indent, level + 1);
		}
		if (j->u.obj.n)
			newline(f, indent, level);
		fputc('}', f);
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
