/* SPDX-License-Identifier: GPL-2.0 */
/*
 * execprof.h - instructions a guest actually executed in one function, per
 * instruction and per source line, from QEMU's exec log (emrcu-run
 * --exec-trace: -singlestep -d exec,nochain, so one "Trace" line per
 * instruction executed) and the function's `objdump -dl` listing.
 */
#ifndef EMRCU_EXECPROF_H
#define EMRCU_EXECPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct xp_insn {
	uint64_t off;		/* from the function's first instruction */
	char *text;		/* mnemonic and operands */
	char *src;		/* "file:line" objdump gave it, or "" */
	uint64_t count;		/* times executed */
};

struct xp_func {
	char *name;
	struct xp_insn *insn;
	size_t n;
	uint64_t size;		/* bytes: last offset + 4 (arm64) */
};

/*
 * Reads FUNC's listing from `objdump -dl --no-show-raw-insn` output on f:
 * instructions, offsets relative to the function, source of each.
 * 0, or -1 with a message in err (function absent or empty).
 */
int xp_read_listing(FILE *f, const char *func, struct xp_func *out,
		    char *err, size_t errlen);

/*
 * Adds the exec log on f to the counts of fn, loaded at address base:
 * each "Trace" line whose PC lies in [base, base + size) counts once; a
 * "Stopped execution of TB chain before ... [PC]" line takes one back (the
 * one-instruction TB was logged, then not executed).  Returns the number
 * of lines counted in the function, or -1 (a PC inside the function that
 * is not an instruction boundary of the listing: the wrong listing).
 */
long xp_count_log(FILE *f, uint64_t base, struct xp_func *fn,
		  char *err, size_t errlen);

/* Times the function was entered: the count of its first instruction. */
uint64_t xp_calls(const struct xp_func *fn);

/* Executed instructions per call, summed over fn (0 when never called). */
double xp_per_call(const struct xp_func *fn);

/* Per source line: executed instructions per call, in listing order. */
struct xp_line {
	char *src;		/* "file:line" */
	char *key;		/* basename:trimmed source text (or src) */
	double per_call;
	int insns;		/* static instructions attributed */
};

/*
 * Groups fn's instructions by source line; the key of a line is its file's
 * basename and its text, read from the file (whitespace collapsed), so the
 * same statement matches across two trees whose line numbers differ.
 * Returns the count of lines (*out malloc'd).
 */
size_t xp_lines(const struct xp_func *fn, struct xp_line **out);

/* One row of a comparison: a key with its per-call count in a and in b. */
struct xp_delta {
	const char *key;
	const char *src_a, *src_b;	/* NULL when absent on that side */
	double a, b;
};

/*
 * Every key of a and b with |b - a| >= min_abs, largest |change| first.
 * Returns the count (*out malloc'd; keys point into a and b).
 */
size_t xp_diff(const struct xp_line *a, size_t na, const struct xp_line *b,
	       size_t nb, double min_abs, struct xp_delta **out);

void xp_func_free(struct xp_func *fn);
void xp_lines_free(struct xp_line *l, size_t n);

#endif
