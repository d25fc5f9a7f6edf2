/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal JSON output helpers. */
#ifndef EMRCU_GUEST_JSON_H
#define EMRCU_GUEST_JSON_H

#include <stdint.h>
#include <stdio.h>

/* A JSON string literal for @s (quotes, backslashes, control chars). */
void json_str(FILE *f, const char *s);

/* A JSON array of the CPU numbers in @mask. */
void json_cpus(FILE *f, uint64_t mask);

/* The guest protocol's result block around what @body prints. */
void result_begin(FILE *f, const char *name);
void result_end(FILE *f, const char *name);

#endif
