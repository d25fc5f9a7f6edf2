// SPDX-License-Identifier: GPL-2.0
/* test_main.c - every group, TAP on stdout; run-tests [GLOB] runs the matching cases. */
#include <stdio.h>

#include "check.h"
#include "suites.h"

int main(int argc, char **argv)
{
	int failed;

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	failed = topo_tests() + dts_tests() + cpio_tests() + console_tests() +
		 scan_tests() + misc_tests();
	return failed ? 1 : 0;
}
