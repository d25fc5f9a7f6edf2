/* SPDX-License-Identifier: GPL-2.0 */
/*
 * origin.h - where a summary's figures come from: the provenance block of
 * summary.json (results/SCHEMA.md) from its runs' meta.json, and the id
 * that names each figure uniquely.
 */
#ifndef EMRCU_RESULTS_ORIGIN_H
#define EMRCU_RESULTS_ORIGIN_H

#include <stddef.h>

struct json;

/*
 * {"command", "harness", "host", "qemu_version", "qemu_argv", "variants"}
 * from @runs (label -> constants with "meta"): each of harness, host and
 * qemu_version as the first run gave it, with "mixed": true added (or the
 * version suffixed " (mixed)") when another run differs; per variant its
 * kernel release, config hash and kernel tree.  @command may be NULL.
 */
struct json *origin_block(const struct json *runs, const char *command);

/*
 * Every figure of @figs gets "id", its identity (figure.h's key).  0, or -1
 * with err naming a figure without an identity or two with the same one.
 */
int origin_ids(struct json *figs, char *err, size_t errlen);

#endif
