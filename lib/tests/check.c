// SPDX-License-Identifier: GPL-2.0
/* check.c - the unit tests' helpers (see check.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "emrcu/fs.h"

int run_sh(const char *cmd)
{
	int st = system(cmd);

	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int file_count(const char *path, const char *needle)
{
	char *b = read_file(path, NULL), *p;
	int c = 0;

	if (!b)
		return 0;
	for (p = b; (p = strstr(p, needle)); p += strlen(needle))
		c++;
	free(b);
	return c;
}

int file_has(const char *path, const char *needle)
{
	return file_count(path, needle) > 0;
}
