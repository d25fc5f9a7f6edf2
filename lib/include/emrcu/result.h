/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emrcu/result.h - the guest protocol's result block, as guest programs
 * write it on the console (qemu-runner/blocks.h reads it; bench/common's
 * emrcu_kmod.h writes the same from modules):
 *
 *   EMRCU-RESULT-BEGIN <name>
 *   <one JSON value>
 *   EMRCU-RESULT-END <name>
 */
#ifndef EMRCU_LIB_RESULT_H
#define EMRCU_LIB_RESULT_H

#include <stdio.h>

void result_begin(FILE *f, const char *name);
void result_end(FILE *f, const char *name);

#endif
