/* json.c — JSON string escaping and key/value output. */
#include "json.h"

#include <math.h>
#include <stdio.h>

void json_str(struct buf *b, const char *s)
{
	if (!s) {
		buf_adds(b, "null");
		return;
	}
	buf_adds(b, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\n')
			buf_adds(b, "\\n");
		else if (c == '\t')
			buf_adds(b, "\\t");
		else if (c == '\r')
			buf_adds(b, "\\r");
		else if (c < 0x20 || c >= 0x7f)	/* bytes >= 0x80 as U+0080..U+00FF: always valid JSON */
			buf_printf(b, "\\u%04x", c);
		else
			buf_add(b, s, 1);
	}
	buf_adds(b, "\"");
}

void json_kstr(struct buf *b, const char *key, const char *val, int comma)
{
	json_str(b, key);
	buf_adds(b, ": ");
	json_str(b, val);
	if (comma)
		buf_adds(b, ",\n");
}

void json_knum(struct buf *b, const char *key, double val, int comma)
{
	json_str(b, key);
	if (isnan(val) || val < 0)
		buf_adds(b, ": null");
	else
		buf_printf(b, ": %.3f", val);
	if (comma)
		buf_adds(b, ",\n");
}

void json_kint(struct buf *b, const char *key, long val, int comma)
{
	json_str(b, key);
	buf_printf(b, ": %ld", val);
	if (comma)
		buf_adds(b, ",\n");
}
