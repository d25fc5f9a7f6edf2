/* SPDX-License-Identifier: GPL-2.0 */
/* suites.h - scenarios/' unit test groups (tests/check.h, cmocka). */
#ifndef EMRCU_SCEN_SUITES_H
#define EMRCU_SCEN_SUITES_H

extern const char *t_dir;	/* scenarios/ */

/* Each runs one group; its failed cases. */
int test_scen(void);
int test_optimal(void);
int test_data(void);
int test_plan(void);

#endif
