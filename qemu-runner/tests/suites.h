/* SPDX-License-Identifier: GPL-2.0 */
/* suites.h - qemu-runner's unit test groups (tests/check.h, cmocka). */
#ifndef EMRCU_QR_SUITES_H
#define EMRCU_QR_SUITES_H

/* Each runs one group; its failed cases. */
int topo_tests(void);
int dts_tests(void);
int cpio_tests(void);
int console_tests(void);
int scan_tests(void);
int misc_tests(void);

#endif
