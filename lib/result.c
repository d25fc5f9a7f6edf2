// SPDX-License-Identifier: GPL-2.0
/* result.c - the guest protocol's result block (see emrcu/result.h). */
#include "emrcu/result.h"

void result_begin(FILE *f, const char *name)
{
	fprintf(f, "EMRCU-RESULT-BEGIN %s\n", name);
}

void result_end(FILE *f, const char *name)
{
	fprintf(f, "\nEMRCU-RESULT-END %s\n", name);
	fflush(f);
}
