// SPDX-License-Identifier: GPL-2.0
/*
 * test_execprof.c - execprof.c on a hand-written objdump listing and QEMU
 * exec log: counts per instruction, calls, the undo of a logged but not
 * executed TB, lines keyed by source text across two trees whose line
 * numbers differ, and the refusal of a PC between instructions.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "execprof.h"
#include "check.h"

static char dir[] = "/tmp/emrcu-xp-XXXXXX";

static FILE *text(const char *s)
{
	return fmemopen((void *)s, strlen(s), "r");
}

static void put(const char *name, const char *s)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	fputs(s, f);
	fclose(f);
}

/* A listing of f at 0x20: three instructions in a.h (line L), one in m.c. */
static char *listing(int l)
{
	char *s;

	if (asprintf(&s,
		     "0000000000000000 <other>:\n   0:\tret\n\n"
		     "0000000000000020 <f>:\nf():\n%s/m.c:1\n  20:\tpaciasp\n"
		     "g():\n%s/a.h:%d (discriminator 2)\n  24:\tldr\tx1, [x0]\n"
		     "  28:\tldr\tx1, [x1]\n%s/m.c:2\n  2c:\tret\n\n"
		     "0000000000000030 <next>:\n  30:\tret\n", dir, dir, l, dir) < 0)
		exit(2);
	return s;
}

static const char *log_a =
	"Trace 0: 0x7f00 [00000000/ffff000000001000/00000000/ff000201] f\n"
	"Trace 0: 0x7f00 [00000000/ffff000000001004/00000000/ff000201] f\n"
	"Trace 0: 0x7f00 [00000000/ffff000000001008/00000000/ff000201] f\n"
	"Trace 0: 0x7f00 [00000000/ffff00000000100c/00000000/ff000201] f\n"
	"Trace 0: 0x7f00 [00000000/ffff000000001000/00000000/ff000201] f\n"
	"Trace 0: 0x7f00 [00000000/ffff000000001004/00000000/ff000201] f\n"
	"Stopped execution of TB chain before 0x7f00 [ffff000000001004] f\n"
	"Trace 0: 0x7f00 [00000000/ffff000000001004/00000000/ff000201] f\n"
	"Trace 0: 0x7f00 [00000000/ffff000000001008/00000000/ff000201] f\n"
	"Trace 0: 0x7f00 [00000000/ffff00000000100c/00000000/ff000201] f\n"
	"Trace 0: 0x7f00 [00000000/ffff000000002000/00000000/ff000201] x\n"
	"unrelated line\n";

static struct xp_func a, b;
static struct xp_line *la, *lb;
static size_t na, nb;

TEST(test_listing)
{
	char err[256], *s = listing(2);
	FILE *f = text(s);

	assert_msg(xp_read_listing(f, "f", &a, err, sizeof(err)) == 0, "read: %s", err);
	fclose(f);
	assert_msg(a.n == 4 && a.size == 0x10, "4 instructions, 16 bytes (got %zu, %lu)",
		   a.n, (unsigned long)a.size);
	assert_msg(a.n == 4 && a.insn[1].off == 4 && !strcmp(a.insn[1].text, "ldr\tx1, [x0]"),
		   "offsets from the function, operands kept");
	assert_msg(a.n == 4 && strstr(a.insn[2].src, "/a.h:2") && !strstr(a.insn[2].src, "discr"),
		   "source of each instruction, discriminator dropped");
	f = text(s);
	assert_msg(xp_read_listing(f, "nosuch", &b, err, sizeof(err)) == -1 &&
		   strstr(err, "nosuch"), "an absent function is refused");
	fclose(f);
	free(s);
}

TEST(test_count)
{
	char err[256];
	FILE *f = text(log_a);
	long n = xp_count_log(f, 0xffff000000001000ULL, &a, err, sizeof(err));

	fclose(f);
	assert_msg(n == 8, "8 instructions executed in f (got %ld)", n);
	assert_msg(xp_calls(&a) == 2, "2 calls (got %lu)", (unsigned long)xp_calls(&a));
	assert_close(xp_per_call(&a), 4, 1e-12, "4 executed per call");
	assert_msg(a.insn[1].count == 2, "the stopped TB is not counted twice");
	f = text("Trace 0: 0x7f00 [00000000/ffff000000001006/00000000/ff000201] f\n");
	assert_msg(xp_count_log(f, 0xffff000000001000ULL, &a, err, sizeof(err)) == -1 &&
		   strstr(err, "+0x6"), "a PC between instructions is refused");
	fclose(f);
}

TEST(test_lines_and_diff)
{
	struct xp_delta *d;
	char err[256], *s;
	size_t nd;
	FILE *f;

	na = xp_lines(&a, &la);
	assert_msg(na == 3, "3 source lines (got %zu)", na);
	assert_msg(!strcmp(la[1].key, "a.h: int *q = *p;") && la[1].insns == 2,
		   "a line keyed by file and collapsed text (got '%s')", la[1].key);
	/* b: the same code one line further down in a.h, and one more load */
	put("a.h", "x\ny\n  int *q =   *p;\n\tint *r = *q;\n");
	s = listing(3);
	f = text(s);
	xp_read_listing(f, "f", &b, err, sizeof(err));
	fclose(f);
	free(s);
	f = text(log_a);
	xp_count_log(f, 0xffff000000001000ULL, &b, err, sizeof(err));
	fclose(f);
	nb = xp_lines(&b, &lb);
	nd = xp_diff(la, na, lb, nb, 0.005, &d);
	assert_msg(nd == 0, "the same statements at other line numbers: no difference (got %zu)", nd);
	free(d);
	b.insn[2].count += 2;	/* one more instruction per call on "int *q" */
	xp_lines_free(lb, nb);
	nb = xp_lines(&b, &lb);
	nd = xp_diff(la, na, lb, nb, 0.005, &d);
	assert_msg(nd == 1 && fabs(d[0].b - d[0].a - 1) < 1e-12 && strstr(d[0].key, "int *q"),
		   "+1 per call attributed to its statement");
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		NAMED("results/execprof.listing", test_listing),
		NAMED("results/execprof.count", test_count),
		NAMED("results/execprof.lines_and_diff", test_lines_and_diff),
	};
	char *s;
	int rc;

	if (!mkdtemp(dir))
		return 2;
	put("a.h", "x\n  int *q =   *p;\n\tint *r = *q;\n");
	put("m.c", "{\n}\n");
	rc = run_group("results", tests);
	xp_lines_free(la, na);
	xp_lines_free(lb, nb);
	xp_func_free(&a);
	xp_func_free(&b);
	if (asprintf(&s, "rm -rf %s", dir) > 0)
		run_sh(s);
	return rc ? 1 : 0;
}
