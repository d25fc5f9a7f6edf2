/* SPDX-License-Identifier: GPL-2.0 */
/* emrcu/str.h - string helpers. */
#ifndef EMRCU_LIB_STR_H
#define EMRCU_LIB_STR_H

/* s without leading and trailing white space (trailing cut in place). */
char *str_trim(char *s);
/* The whole of s as a number (strtod/strtol, base 10): 0, or -1. */
int str_to_double(const char *s, double *out);
int str_to_long(const char *s, long *out);

#endif
