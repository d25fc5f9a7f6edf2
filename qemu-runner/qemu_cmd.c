/* qemu_cmd.c — build QEMU argv. */
#define _GNU_SOURCE
#include "qemu_cmd.h"
#include "defaults.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void argv_add(struct argv *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? a->cap * 2 : 16;
		a->v = xrealloc(a->v, sizeof(char *) * (size_t)a->cap);
	}
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

void argv_addf(struct argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		exit(15);
	va_end(ap);
	argv_add(a, s);
	free(s);
}

void argv_free(struct argv *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

char *argv_join(const struct argv *a)
{
	struct buf b = { 0 };
	int i;

	buf_add(&b, "", 0);
	for (i = 0; i < a->n; i++) {
		const char *s = a->v[i];

		if (i)
			buf_adds(&b, " ");
		if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				    "0123456789-_=+,./:@%") == strlen(s)) {
			buf_adds(&b, s);
			continue;
		}
		buf_adds(&b, "'");
		for (; *s; s++) {
			if (*s == '\'')
				buf_adds(&b, "'\\''");
			else
				buf_add(&b, s, 1);
		}
		buf_adds(&b, "'");
	}
	return b.p;
}

void qemu_machine_args(const struct run_opts *o, struct argv *a, const char *dumpdtb)
{
	argv_add(a, "-machine");
	if (dumpdtb)
		argv_addf(a, "%s,dumpdtb=%s", QEMU_MACHINE, dumpdtb);
	else
		argv_add(a, QEMU_MACHINE);
	argv_add(a, "-cpu");
	argv_add(a, o->cpu);
	/* Plain -smp N: QEMU's clusters= needs equal sizes; our DTB has the map. */
	argv_add(a, "-smp");
	argv_addf(a, "%d", o->topo.ncpus);
	argv_add(a, "-m");
	argv_add(a, o->mem);
}

static void common(const struct run_opts *o, struct argv *a, int seconds)
{
	argv_add(a, "timeout");
	argv_add(a, "--kill-after=5");
	argv_addf(a, "%d", seconds);
	argv_add(a, o->qemu);
	argv_add(a, "-nodefaults");
	argv_add(a, "-no-user-config");
	argv_add(a, "-display");
	argv_add(a, "none");
}

void qemu_boot_argv(const struct run_opts *o, const char *dtb, const char *initrd,
		    const char *cmdline, struct argv *a)
{
	common(o, a, o->timeout + TIMEOUT_MARGIN);
	qemu_machine_args(o, a, NULL);
	if (o->deterministic) {
		argv_add(a, "-accel");
		argv_add(a, "tcg,thread=single");
		argv_add(a, "-icount");
		argv_addf(a, "shift=%d,sleep=off", o->shift);
		argv_add(a, "-rtc");
		argv_add(a, DETERMINISTIC_RTC);
		if (o->exec_trace) {
			/* one instruction a TB, no chaining: one line a step */
			argv_add(a, "-singlestep");
			argv_add(a, "-d");
			argv_add(a, "exec,nochain");
			argv_add(a, "-dfilter");
			argv_add(a, o->exec_trace);
			argv_add(a, "-D");
			argv_addf(a, "%s/exec.log", o->outdir);
		}
	} else {
		argv_add(a, "-accel");
		argv_add(a, "tcg,thread=multi");
	}
	argv_add(a, "-serial");
	argv_add(a, "stdio");
	argv_add(a, "-no-reboot");
	argv_add(a, "-kernel");
	argv_add(a, o->kernel);
	argv_add(a, "-initrd");
	argv_add(a, initrd);
	argv_add(a, "-dtb");
	argv_add(a, dtb);
	argv_add(a, "-append");
	argv_add(a, cmdline);
}

void qemu_dumpdtb_argv(const struct run_opts *o, const char *path, struct argv *a)
{
	common(o, a, DUMPDTB_TIMEOUT);
	qemu_machine_args(o, a, path);
}

char *qemu_cmdline(const struct run_opts *o)
{
	if (o->append && *o->append)
		return xasprintf("%s %s", BASE_APPEND, o->append);
	return xstrdup(BASE_APPEND);
}
