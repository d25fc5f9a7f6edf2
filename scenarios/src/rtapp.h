/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtapp.h - a workload as rt-app JSON (Debian's rt-app 1.0, the tool
 * LISA's EAS tests use): one periodic task per scenario task, "runtime" =
 * util x period (us of busy loop, wall clock), "timer" = the period, one
 * rt-app phase per workload phase (the first one also covers the warm-up),
 * "cpus" when pinned.  "runtime", not "run": rt-app's calibrated "run"
 * loop is what a vCPU executes at the host's speed anyway, and its
 * calibration ("CPU0") takes ~10 s under TCG; the fixed calibration value
 * below is then never used.
 */
#ifndef EMRCU_SCEN_RTAPP_H
#define EMRCU_SCEN_RTAPP_H

#include <stdio.h>

#include "scen.h"

#define RTAPP_CALIBRATION_NS 100	/* unused: no "run" events */

int rtapp_write(FILE *f, const struct scenario *s, const struct scen_workload *w);

#endif
