// SPDX-License-Identifier: GPL-2.0
/* execprof.c - per-instruction counts of one function from a QEMU exec log. */
#define _GNU_SOURCE
#include "execprof.h"
#include "emrcu/xalloc.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define XP_INSN_BYTES 4		/* arm64: fixed-size instructions */

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* "  1c:\tldr\tx4, [x0, #8]" -> 0x1c and "ldr\tx4, [x0, #8]" */
static int insn_line(const char *s, uint64_t *addr, const char **text)
{
	char *end;

	while (*s == ' ')
		s++;
	if (!isxdigit((unsigned char)*s))
		return 0;
	*addr = strtoull(s, &end, 16);
	if (end[0] != ':' || end[1] != '\t')
		return 0;
	*text = end + 2;
	return 1;
}

/* "/path/file.h:123" or "/path/file.h:123 (discriminator 2)" */
static int src_line(const char *s)
{
	const char *c = strrchr(s, ':');

	if (!c || c == s || strchr(s, '\t') || !isdigit((unsigned char)c[1]))
		return 0;
	for (c++; isdigit((unsigned char)*c); c++)
		;
	return !*c || !strncmp(c, " (discriminator", 15);
}

int xp_read_listing(FILE *f, const char *func, struct xp_func *out,
		    char *err, size_t errlen)
{
	char *line = NULL, *hdr, src[1024] = "";
	size_t cap = 0, room = 0;
	uint64_t addr, start = 0;
	const char *text;
	int in = 0;

	memset(out, 0, sizeof(*out));
	hdr = xzalloc(strlen(func) + 4);
	sprintf(hdr, " <%s>:", func);
	while (getline(&line, &cap, f) > 0) {
		chomp(line);
		if (!in) {
			size_t n = strlen(line), h = strlen(hdr);

			if (n > h && !strcmp(line + n - h, hdr)) {
				start = strtoull(line, NULL, 16);
				in = 1;
			}
			continue;
		}
		if (!*line || strstr(line, ">:"))
			break;
		if (insn_line(line, &addr, &text)) {
			struct xp_insn *i;

			if (out->n == room) {
				room = room ? 2 * room : 64;
				out->insn = xrealloc(out->insn, room * sizeof(*out->insn));
			}
			i = &out->insn[out->n++];
			i->off = addr - start;
			i->text = xstrdup(text);
			i->src = xstrdup(src);
			i->count = 0;
		} else if (src_line(line)) {
			snprintf(src, sizeof(src), "%s", line);
			if (strchr(src, ' '))
				*strchr(src, ' ') = '\0';
		}
	}
	free(line);
	free(hdr);
	if (!out->n) {
		snprintf(err, errlen, "no instructions of %s in the listing", func);
		return -1;
	}
	out->name = xstrdup(func);
	out->size = out->insn[out->n - 1].off + XP_INSN_BYTES;
	return 0;
}

static struct xp_insn *at(struct xp_func *fn, uint64_t off)
{
	size_t lo = 0, hi = fn->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (fn->insn[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < fn->n && fn->insn[lo].off == off ? &fn->insn[lo] : NULL;
}

/* The PC of an exec log line: "Trace N: HOST [CSBASE/PC/FLAGS/CFLAGS] sym" */
static int trace_pc(const char *s, uint64_t *pc)
{
	const char *b = strchr(s, '['), *slash;

	if (!b || !(slash = strchr(b, '/')))
		return 0;
	*pc = strtoull(slash + 1, NULL, 16);
	return 1;
}

/* "Stopped execution of TB chain before HOST [PC] sym" */
static int stopped_pc(const char *s, uint64_t *pc)
{
	const char *b = strchr(s, '[');

	if (!b)
		return 0;
	*pc = strtoull(b + 1, NULL, 16);
	return 1;
}

long xp_count_log(FILE *f, uint64_t base, struct xp_func *fn,
		  char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	long counted = 0;
	uint64_t pc;
	int undo;

	while (getline(&line, &cap, f) > 0) {
		struct xp_insn *i;

		if (!strncmp(line, "Trace ", 6) && trace_pc(line, &pc))
			undo = 0;
		else if (!strncmp(line, "Stopped execution", 17) && stopped_pc(line, &pc))
			undo = 1;
		else
			continue;
		if (pc < base || pc - base >= fn->size)
			continue;
		i = at(fn, pc - base);
		if (!i) {
			snprintf(err, errlen, "PC 0x%" PRIx64 " (+0x%" PRIx64
				 ") is no instruction of %s: wrong listing or base",
				 pc, pc - base, fn->name);
			free(line);
			return -1;
		}
		if (undo) {
			if (i->count) {
				i->count--;
				counted--;
			}
		} else {
			i->count++;
			counted++;
		}
	}
	free(line);
	return counted;
}

uint64_t xp_calls(const struct xp_func *fn)
{
	return fn->n && fn->insn[0].off == 0 ? fn->insn[0].count : 0;
}

double xp_per_call(const struct xp_func *fn)
{
	uint64_t calls = xp_calls(fn), sum = 0;
	size_t k;

	if (!calls)
		return 0;
	for (k = 0; k < fn->n; k++)
		sum += fn->insn[k].count;
	return (double)sum / calls;
}

/* The text of line N of file, whitespace collapsed; NULL when unreadable. */
static char *source_text(const char *src)
{
	const char *c = strrchr(src, ':');
	char *path, *line = NULL, *out = NULL;
	size_t cap = 0;
	long want, n = 0;
	FILE *f;

	if (!c)
		return NULL;
	want = strtol(c + 1, NULL, 10);
	path = xzalloc(c - src + 1);
	memcpy(path, src, c - src);
	f = fopen(path, "r");
	free(path);
	if (!f)
		return NULL;
	while (getline(&line, &cap, f) > 0)
		if (++n == want) {
			char *w = line, *r = line;
			int space = 1;

			for (; *r; r++) {
				if (isspace((unsigned char)*r)) {
					if (!space)
						*w++ = ' ';
					space = 1;
				} else {
					*w++ = *r;
					space = 0;
				}
			}
			if (w > line && w[-1] == ' ')
				w--;
			*w = '\0';
			out = xstrdup(line);
			break;
		}
	free(line);
	fclose(f);
	return out;
}

static char *line_key(const char *src)
{
	const char *slash = strrchr(src, '/'), *colon = strrchr(src, ':');
	const char *base = slash ? slash + 1 : src;
	char *text = source_text(src), *key;

	if (!text || !colon)
		return text ? text : xstrdup(src);
	key = xzalloc((colon - base) + strlen(text) + 3);
	sprintf(key, "%.*s: %s", (int)(colon - base), base, text);
	free(text);
	return key;
}

size_t xp_lines(const struct xp_func *fn, struct xp_line **out)
{
	uint64_t calls = xp_calls(fn);
	struct xp_line *l = xzalloc(fn->n * sizeof(*l));
	size_t n = 0, k, j;

	for (k = 0; k < fn->n; k++) {
		const struct xp_insn *i = &fn->insn[k];

		for (j = 0; j < n && strcmp(l[j].src, i->src); j++)
			;
		if (j == n) {
			l[n].src = xstrdup(i->src);
			l[n].key = line_key(i->src);
			n++;
		}
		l[j].insns++;
		if (calls)
			l[j].per_call += (double)i->count / calls;
	}
	*out = l;
	return n;
}

static int by_change(const void *pa, const void *pb)
{
	const struct xp_delta *a = pa, *b = pb;
	double da = fabs(a->b - a->a), db = fabs(b->b - b->a);

	return da < db ? 1 : da > db ? -1 : strcmp(a->key, b->key);
}

/* Sums over lines of one side sharing a key (a statement inlined twice). */
static double side(const struct xp_line *l, size_t n, const char *key,
		   const char **src)
{
	double s = 0;
	size_t k;

	*src = NULL;
	for (k = 0; k < n; k++)
		if (!strcmp(l[k].key, key)) {
			s += l[k].per_call;
			if (!*src)
				*src = l[k].src;
		}
	return s;
}

size_t xp_diff(const struct xp_line *a, size_t na, const struct xp_line *b,
	       size_t nb, double min_abs, struct xp_delta **out)
{
	struct xp_delta *d = xzalloc((na + nb) * sizeof(*d));
	size_t n = 0, k, j;

	for (k = 0; k < na + nb; k++) {
		const char *key = k < na ? a[k].key : b[k - na].key;

		for (j = 0; j < n && strcmp(d[j].key, key); j++)
			;
		if (j < n)
			continue;
		d[n].key = key;
		d[n].a = side(a, na, key, &d[n].src_a);
		d[n].b = side(b, nb, key, &d[n].src_b);
		if (fabs(d[n].b - d[n].a) >= min_abs)
			n++;
	}
	qsort(d, n, sizeof(*d), by_change);
	*out = d;
	return n;
}

void xp_func_free(struct xp_func *fn)
{
	size_t k;

	for (k = 0; k < fn->n; k++) {
		free(fn->insn[k].text);
		free(fn->insn[k].src);
	}
	free(fn->insn);
	free(fn->name);
	memset(fn, 0, sizeof(*fn));
}

void xp_lines_free(struct xp_line *l, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		free(l[k].src);
		free(l[k].key);
	}
	free(l);
}
