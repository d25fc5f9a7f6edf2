/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emrcu/conf.h - the one parser of the declared `key = value` files
 * (the scenario files, results/gate.conf, results/summarize.conf):
 *
 *   # comment                      (also after a value: " # ...")
 *   key = value                    one field; keys [a-z0-9_.-]+
 *   quick.key = value              the value of `key` in QUICK runs
 *
 * A key may be given once, except the repeatable keys the caller names
 * (conf_get_all()).  Every entry remembers its line so that errors name
 * "FILE:LINE: field KEY: reason"; fields nobody asked for are "unknown".
 * Typed fields (numbers in a range, words, strings): emrcu/field.h.
 */
#ifndef EMRCU_LIB_CONF_H
#define EMRCU_LIB_CONF_H

#include <stddef.h>

#define CONF_MAX 256
#define CONF_KEY_LEN 64
#define CONF_VAL_LEN 512

struct json;

struct conf_entry {
	char key[CONF_KEY_LEN];
	char val[CONF_VAL_LEN];
	int line;
	int used;
};

struct conf {
	char path[256];
	int n;
	struct conf_entry e[CONF_MAX];
};

/* Parse @text (the contents of @path).  0, or -1 with the reason in err. */
int conf_parse(const char *path, const char *text, struct conf *c, char *err,
	       size_t errlen);
/* Read and parse a file. */
int conf_load(const char *path, struct conf *c, char *err, size_t errlen);

/*
 * The entry of @key (the quick.@key one when @quick and present), marking
 * both used; NULL when absent.  -1 in *dup (with err) when given twice.
 */
const struct conf_entry *conf_get(struct conf *c, const char *key, int quick,
				  char *err, size_t errlen, int *dup);

/*
 * Every entry of a repeatable @key, in file order (quick.@key entries
 * replace all of them when @quick and any is present).  Returns how many.
 */
int conf_get_all(struct conf *c, const char *key, int quick,
		 const struct conf_entry **out, int max);

/* The first entry nobody asked for, or NULL. */
const struct conf_entry *conf_unused(const struct conf *c);

/* Every entry: numbers as numbers, the rest as strings. */
struct json *conf_to_json(const struct conf *c);

#endif
