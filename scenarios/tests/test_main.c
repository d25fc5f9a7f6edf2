// SPDX-License-Identifier: GPL-2.0
/* scenarios/ unit tests: test-scenarios SCENARIOS_DIR (TAP on stdout) */
#include "check.h"
#include "suites.h"

const char *t_dir = ".";

int main(int argc, char **argv)
{
	int failed;

	if (argc > 1)
		t_dir = argv[1];
	failed = test_scen() + test_optimal() + test_plan() + test_data();
	return failed ? 1 : 0;
}
