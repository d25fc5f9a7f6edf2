/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pairs.h - the variant pairing list of results/ (pairs: "NUMERATOR
 * DENOMINATOR" lines, '#' starts a comment), and where results/' declared
 * files (summarize.conf, gate.conf, pairs) are found: beside the tools'
 * own binary, unless --conf/--pairs say otherwise.
 */
#ifndef EMRCU_PAIRS_H
#define EMRCU_PAIRS_H

#include <stddef.h>

struct pairs {
	size_t n;
	char **num, **den;	/* ratio = num / den */
};

int pairs_load(const char *path, struct pairs *p, char *err, size_t errlen);
void pairs_free(struct pairs *p);

/* buf = <directory of the running binary>/name. */
int declared_path(const char *name, char *buf, size_t len);

#endif
