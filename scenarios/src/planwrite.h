/* SPDX-License-Identifier: GPL-2.0 */
/*
 * planwrite.h - what one boot does, as files shipped into the guest:
 *   energy/placement/shared: the guest plan (scenarios/guest/plan.h) read
 *     by emrcu-scen-guest, and cmd.sh running the EAS check then it;
 *   latency: cmd.sh running cyclictest per load, em_bench as the load
 *     (kind_latency.c).
 */
#ifndef EMRCU_SCEN_PLANWRITE_H
#define EMRCU_SCEN_PLANWRITE_H

#include <stdio.h>

#include "scen.h"

/* Guest paths of the shipped files. */
#define GUEST_PLAN "/emrcu/plan"
#define GUEST_EM_BENCH "/emrcu/em_bench.ko"
#define GUEST_RTAPP_FMT "/emrcu/rtapp-%s.json"	/* step label */

int plan_write(FILE *f, const struct scenario *s, const struct scen_run *r);

/*
 * cmd.sh: a header, then the kind's ->cmd.  @runtime_em: the variant has
 * the runtime EM (updater allowed).
 */
int cmd_write(FILE *f, const struct scenario *s, const struct scen_run *r,
	      int runtime_em);

/* cmd.sh's first line: the platform's state, and (needs_eas) EAS started. */
void guest_check_cmd(FILE *f, const struct scenario *s);

/* ->cmd of the load kinds: the EAS check, then emrcu-scen-guest's plan. */
int load_cmd(FILE *f, const struct scenario *s, const struct scen_run *r,
	     int runtime_em);

/* cpulist of the cluster of capacity rank @rank ("4-5"). */
void rank_cpulist(const struct topo *t, int rank, char *out, size_t len);

#endif
