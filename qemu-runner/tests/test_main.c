/* test_main.c — run every case, print PASS:/FAIL: lines and the totals. */
#include "test.h"

#include <string.h>

int main(int argc, char **argv)
{
	const struct test_case *const suites[] = {
		topo_tests, dts_tests, cpio_tests, console_tests, scan_tests, misc_tests,
	};
	int passed = 0, failed = 0;
	size_t s;

	for (s = 0; s < sizeof(suites) / sizeof(suites[0]); s++) {
		const struct test_case *t;

		for (t = suites[s]; t->name; t++) {
			char why[WHY_MAX] = "";

			if (argc > 1 && !strstr(t->name, argv[1]))
				continue;
			if (t->fn(why) == 0) {
				printf("PASS: %s\n", t->name);
				passed++;
			} else {
				char *c;

				for (c = why; *c; c++)	/* keep it one line */
					if (*c == '\n' || *c == '\r')
						*c = '|';
				printf("FAIL: %s (%s)\n", t->name, why);
				failed++;
			}
			fflush(stdout);
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
