// SPDX-License-Identifier: GPL-2.0
/* scenarios/ unit tests: test-scenarios SCENARIOS_DIR */
#include <stdio.h>
#include <stdlib.h>

#include "tcheck.h"

int t_failed_checks;
const char *t_dir = ".";
static int passed, failed;

void t_run(const char *name, void (*fn)(void))
{
	int before = t_failed_checks;

	fn();
	if (t_failed_checks == before) {
		printf("PASS: scenarios/%s\n", name);
		passed++;
	} else {
		printf("FAIL: scenarios/%s\n", name);
		failed++;
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		t_dir = argv[1];
	test_scen();
	test_optimal();
	test_plan();
	test_data();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
