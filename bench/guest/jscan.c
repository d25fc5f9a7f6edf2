// SPDX-License-Identifier: GPL-2.0
#include "jscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *json_find(const char *from, const char *key)
{
	char pat[128];
	const char *p;

	if (!from || snprintf(pat, sizeof(pat), "\"%s\":", key) >= (int)sizeof(pat))
		return NULL;
	p = strstr(from, pat);
	return p ? p + strlen(pat) : NULL;
}

int json_num(const char *p, double *v)
{
	char *end;

	if (!p)
		return -1;
	*v = strtod(p, &end);
	return end == p ? -1 : 0;
}

int json_nums(const char *p, double *v, int max)
{
	int n = 0;
	char *end;

	if (!p || *p != '[')
		return -1;
	p++;
	if (*p == ']')
		return 0;
	for (;;) {
		double x = strtod(p, &end);

		if (end == p)
			return -1;
		if (n < max)
			v[n] = x;
		n++;
		p = end;
		if (*p == ']')
			return n < max ? n : max;
		if (*p != ',')
			return -1;
		p++;
	}
}
