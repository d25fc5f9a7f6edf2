/*
 * loop.c — guest program: time a fixed busy loop (CLOCK_MONOTONIC), print one
 * EMRCU-RESULT block "loop.json" with every pass in ns.  Built static with
 * aarch64-linux-gnu-gcc; used by tests/measure.sh for the run-to-run spread
 * of deterministic mode.
 *   loop [ITERATIONS [PASSES]]   (default 2000000 iterations, 10 passes)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 2000000;
	int passes = argc > 2 ? atoi(argv[2]) : 10;
	volatile unsigned long acc = 0;
	int p;

	printf("EMRCU-RESULT-BEGIN loop.json\n{\"iterations\": %ld, \"ns\": [", iters);
	for (p = 0; p < passes; p++) {
		long long t0 = now_ns();

		for (long i = 0; i < iters; i++)
			acc += (unsigned long)i ^ (acc >> 3);
		printf("%s%lld", p ? ", " : "", now_ns() - t0);
	}
	printf("]}\nEMRCU-RESULT-END loop.json\n");
	return 0;
}
