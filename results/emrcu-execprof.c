// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu-execprof - instructions executed per call of one function, per
 * source line, from emrcu-run --exec-trace logs; with two profiles, the
 * difference per source line: what a change added to every call, from what
 * ran rather than from the static disassembly.
 *
 *   emrcu-execprof [--func NAME] [--json OUT] NAME LOG LISTING BASE [NAME LOG LISTING BASE]
 *
 * LOG: QEMU exec log; LISTING: `objdump -dl --no-show-raw-insn` of the
 * object holding NAME's function; BASE: the function's address in the guest
 * (hexadecimal).  Exit 0; 1 when a profile saw no call; 2 on bad input.
 */
#define _GNU_SOURCE
#include "execprof.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIN_DELTA 0.005		/* per call: smaller differences are not listed */

struct prof {
	const char *name;
	struct xp_func fn;
	struct xp_line *lines;
	size_t nlines;
};

static int die(const char *msg, const char *what)
{
	fprintf(stderr, "emrcu-execprof: %s: %s\n", what, msg);
	return 2;
}

static int load(struct prof *p, const char *func, char **arg)
{
	char err[256], *end;
	uint64_t base;
	FILE *f;
	long n;

	p->name = arg[0];
	base = strtoull(arg[3], &end, 16);
	if (*end || end == arg[3])
		return die("not a hexadecimal address", arg[3]);
	f = fopen(arg[2], "r");
	if (!f)
		return die("cannot read", arg[2]);
	n = xp_read_listing(f, func, &p->fn, err, sizeof(err));
	fclose(f);
	if (n)
		return die(err, arg[2]);
	f = fopen(arg[1], "r");
	if (!f)
		return die("cannot read", arg[1]);
	n = xp_count_log(f, base, &p->fn, err, sizeof(err));
	fclose(f);
	if (n < 0)
		return die(err, arg[1]);
	p->nlines = xp_lines(&p->fn, &p->lines);
	return 0;
}

static void print(const struct prof *p)
{
	size_t k;

	printf("%s on %s: %" PRIu64 " calls, %.2f instructions executed per call (%zu in the listing)\n",
	       p->fn.name, p->name, xp_calls(&p->fn), xp_per_call(&p->fn), p->fn.n);
	printf("  executed/call  static  source line\n");
	for (k = 0; k < p->nlines; k++)
		printf("  %13.2f  %6d  %s\n", p->lines[k].per_call,
		       p->lines[k].insns, p->lines[k].key);
}

static struct json *prof_json(const struct prof *p)
{
	struct json *o = json_new_obj(), *a = json_new_arr();
	uint64_t calls = xp_calls(&p->fn);
	size_t k;

	json_set_str(o, "name", p->name);
	json_set(o, "calls", json_new_uint(calls));
	json_set_num(o, "executed_per_call", xp_per_call(&p->fn));
	json_set_int(o, "listing_instructions", (int64_t)p->fn.n);
	for (k = 0; k < p->nlines; k++) {
		struct json *l = json_new_obj();

		json_set_str(l, "src", p->lines[k].src);
		json_set_str(l, "line", p->lines[k].key);
		json_set_num(l, "executed_per_call", p->lines[k].per_call);
		json_set_int(l, "static_instructions", p->lines[k].insns);
		json_push(a, l);
	}
	json_set(o, "lines", a);
	a = json_new_arr();
	for (k = 0; k < p->fn.n; k++) {
		struct json *i = json_new_obj();

		json_set_int(i, "offset", (int64_t)p->fn.insn[k].off);
		json_set_str(i, "insn", p->fn.insn[k].text);
		json_set_str(i, "src", p->fn.insn[k].src);
		json_set_num(i, "executed_per_call",
			     calls ? (double)p->fn.insn[k].count / calls : 0);
		json_push(a, i);
	}
	json_set(o, "instructions", a);
	return o;
}

static struct json *diff(const struct prof *a, const struct prof *b)
{
	struct json *o = json_new_obj(), *rows = json_new_arr();
	double da = xp_per_call(&a->fn), db = xp_per_call(&b->fn);
	struct xp_delta *d;
	size_t n, k;

	n = xp_diff(a->lines, a->nlines, b->lines, b->nlines, MIN_DELTA, &d);
	printf("== %s -> %s: %+.2f instructions executed per call (%.2f -> %.2f), by source line:\n",
	       a->name, b->name, db - da, da, db);
	printf("  %8s  %8s  %8s  source line\n", a->name, b->name, "change");
	json_set_str(o, "base", a->name);
	json_set_str(o, "new", b->name);
	json_set_num(o, "change_per_call", db - da);
	for (k = 0; k < n; k++) {
		struct json *r = json_new_obj();

		printf("  %8.2f  %8.2f  %+8.2f  %s\n", d[k].a, d[k].b,
		       d[k].b - d[k].a, d[k].key);
		json_set_str(r, "line", d[k].key);
		json_set(r, "src_base", d[k].src_a ? json_new_str(d[k].src_a) : json_new_null());
		json_set(r, "src_new", d[k].src_b ? json_new_str(d[k].src_b) : json_new_null());
		json_set_num(r, "base", d[k].a);
		json_set_num(r, "new", d[k].b);
		json_set_num(r, "change", d[k].b - d[k].a);
		json_push(rows, r);
	}
	json_set(o, "lines", rows);
	free(d);
	return o;
}

int main(int argc, char **argv)
{
	const char *func = "emb_call", *json_out = NULL;
	struct prof p[2] = { 0 };
	struct json *root, *arr;
	char err[256];
	int i = 1, np, k, rc = 0;

	for (; i < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (i + 1 >= argc)
			return die("wants a value", argv[i]);
		if (!strcmp(argv[i], "--func"))
			func = argv[i + 1];
		else if (!strcmp(argv[i], "--json"))
			json_out = argv[i + 1];
		else
			return die("unknown option", argv[i]);
	}
	np = (argc - i) / 4;
	if ((argc - i) % 4 || np < 1 || np > 2) {
		fprintf(stderr, "usage: emrcu-execprof [--func NAME] [--json OUT] NAME LOG LISTING BASE [NAME LOG LISTING BASE]\n");
		return 2;
	}
	for (k = 0; k < np; k++)
		if (load(&p[k], func, argv + i + 4 * k))
			return 2;
	root = json_new_obj();
	json_set_str(root, "schema", "emrcu/execprof/1");
	json_set_str(root, "what", "instructions executed per call of one function, per source line: QEMU -singlestep -d exec,nochain over the function (emrcu-run --exec-trace), deterministic mode");
	json_set_str(root, "function", func);
	arr = json_new_arr();
	for (k = 0; k < np; k++) {
		print(&p[k]);
		json_push(arr, prof_json(&p[k]));
		if (!xp_calls(&p[k].fn)) {
			fprintf(stderr, "emrcu-execprof: %s: %s was never called in the log\n",
				p[k].name, func);
			rc = 1;
		}
	}
	json_set(root, "profiles", arr);
	if (np == 2)
		json_set(root, "diff", diff(&p[0], &p[1]));
	if (json_out && write_json_atomic(json_out, root, 1, err, sizeof(err)))
		rc = die(err, json_out);
	json_free(root);
	for (k = 0; k < np; k++) {
		xp_lines_free(p[k].lines, p[k].nlines);
		xp_func_free(&p[k].fn);
	}
	return rc;
}
