/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drive.h - run a parsed scenario: every run x boot through emrcu-run into
 * OUT/NAME/<variant>[-<em>]-b<boot>/ (console, meta.json, result blocks,
 * plan, cmd.sh, runner.log, scenario.json), then the verdict
 * (OUT/NAME/verdict.json, OUT/NAME/table.txt, also on stdout).
 */
#ifndef EMRCU_SCEN_DRIVE_H
#define EMRCU_SCEN_DRIVE_H

#include "scen.h"
#include "vm.h"

/*
 * Exit status: 0 every check passed, 1 a run or a check failed, 2 the
 * environment cannot run the scenario (nothing run; the message names the
 * file and field where one is to blame).
 */
int drive(const struct env *e, const struct scenario *s, const char *out,
	  int quick);

/* Recompute metrics and the verdict from existing run directories. */
int drive_derive(const struct env *e, const struct scenario *s,
		 const char *out, int quick);

#endif
