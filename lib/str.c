// SPDX-License-Identifier: GPL-2.0
/* str.c - string helpers (see emrcu/str.h). */
#include <ctype.h>
#include <string.h>

#include "emrcu/str.h"

char *str_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}
