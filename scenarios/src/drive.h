/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drive.h - a parsed scenario as cells and its verdict: every run x boot
 * is one cell, OUT/NAME/<variant>[-<em>]-b<boot>/ (plan, cmd.sh; then
 * console, meta.json, result blocks, runner.log from the boot, which
 * bench/driver runs), and the verdict from what the boots left
 * (scenario.json per boot, OUT/NAME/verdict.json, OUT/NAME/table.txt, also
 * on stdout).
 */
#ifndef EMRCU_SCEN_DRIVE_H
#define EMRCU_SCEN_DRIVE_H

#include "scen.h"
#include "vm.h"

#include <stdio.h>

/*
 * Prepare every cell's directory (modules built, guest files written) and
 * print the cells to @f, one line each (drive.c: cell_one()).  0, or 2
 * when the environment cannot run the scenario (the message says why).
 */
int drive_cells(const struct env *e, const struct scenario *s, const char *out,
		FILE *f);

/*
 * Metrics and the verdict from the cells' directories.  Exit status: 0
 * every check passed, 1 a run or a check failed, 3 every run produced its
 * data but a target was missed.
 */
int drive_derive(const struct env *e, const struct scenario *s,
		 const char *out, int quick);

#endif
