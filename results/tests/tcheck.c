// SPDX-License-Identifier: GPL-2.0
/* tcheck.c - minimal unit-test helper (see tcheck.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tcheck.h"

static const char *cur;
static char why[512];
static int failed_cases, cur_failed;

void t_begin(const char *name)
{
	cur = name;
	cur_failed = 0;
	why[0] = '\0';
}

int t_expect(int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return 1;
	if (!cur_failed++) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
	}
	return 0;
}

int t_near(double a, double b, double tol, const char *what)
{
	return t_expect(fabs(a - b) <= tol || (isnan(a) && isnan(b)),
			"%s: got %.17g, expected %.17g (tol %g)", what, a, b, tol);
}

void t_end(void)
{
	if (cur_failed) {
		printf("FAIL: results/%s (%s)\n", cur, why);
		failed_cases++;
	} else {
		printf("PASS: results/%s\n", cur);
	}
	fflush(stdout);
}

int t_status(void)
{
	return failed_cases ? 1 : 0;
}

int t_run(const char *cmd)
{
	int st = system(cmd);

	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, n = 0, r;
	char *b;

	if (!f)
		return NULL;
	b = malloc(cap);
	while (b && (r = fread(b + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	if (b)
		b[n] = '\0';
	return b;
}

int t_file_count(const char *path, const char *needle)
{
	char *b = slurp(path), *p;
	int c = 0;

	if (!b)
		return 0;
	for (p = b; (p = strstr(p, needle)); p += strlen(needle))
		c++;
	free(b);
	return c;
}

int t_file_has(const char *path, const char *needle)
{
	return t_file_count(path, needle) > 0;
}
