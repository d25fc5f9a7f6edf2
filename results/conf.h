/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conf.h - the declared-constants files of results/: `key = value` lines
 * (summarize.conf, gate.conf) and the variant pairing list (pairs).
 * '#' starts a comment.  The tools find them beside their own binary
 * (results/), or where --conf/--pairs say.
 */
#ifndef EMRCU_CONF_H
#define EMRCU_CONF_H

#include <stddef.h>

#include "json.h"

struct conf {
	char *path;
	size_t n;
	char **key, **val;
};

int conf_load(const char *path, struct conf *c, char *err, size_t errlen);
void conf_free(struct conf *c);
/* A missing key or a value that is not a number is an error. */
int conf_double(const struct conf *c, const char *key, double *out, char *err,
		size_t errlen);
/* Every key: numbers as numbers, the rest as strings. */
struct json *conf_to_json(const struct conf *c);

struct pairs {
	size_t n;
	char **num, **den;	/* ratio = num / den */
};

int pairs_load(const char *path, struct pairs *p, char *err, size_t errlen);
void pairs_free(struct pairs *p);

/* buf = <directory of the running binary>/name. */
int conf_default_path(const char *name, char *buf, size_t len);

#endif
