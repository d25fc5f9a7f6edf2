/* SPDX-License-Identifier: GPL-2.0 */
/* emrcu/str.h - string helpers. */
#ifndef EMRCU_LIB_STR_H
#define EMRCU_LIB_STR_H

/* s without leading and trailing white space (trailing cut in place). */
char *str_trim(char *s);

#endif
