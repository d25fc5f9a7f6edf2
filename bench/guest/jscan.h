/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tiny scanner for the flat JSON the platform module prints (debugfs
 * emrcu_platform/params, power, meter): find a key, read a number or an
 * array of numbers.  Not a general JSON parser.
 */
#ifndef EMRCU_GUEST_JSCAN_H
#define EMRCU_GUEST_JSCAN_H

/* Pointer just past `"key":` (first occurrence at or after @from), or NULL. */
const char *json_find(const char *from, const char *key);

/* The number at @p.  0, or -1 if there is none. */
int json_num(const char *p, double *v);

/* The array of numbers at @p ("[1,2.5,3]").  Count (<= max), or -1. */
int json_nums(const char *p, double *v, int max);

#endif
