/* console.c — console line classification. */
#include "console.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[DET_COUNT] = {
	[DET_NONE] = "none",
	[DET_PANIC] = "panic",
	[DET_OOPS] = "oops",
	[DET_BUG] = "bug",
	[DET_KASAN] = "kasan",
	[DET_WARNING] = "warning",
	[DET_LOCKDEP] = "lockdep",
	[DET_RCU_STALL] = "rcu-stall",
	[DET_KMEMLEAK] = "kmemleak",
};

const char *det_name(enum det d)
{
	return d >= 0 && d < DET_COUNT ? names[d] : "?";
}

/* Length of a printk timestamp "[ *d+.d{6}] " at p, or 0. */
static size_t ts_len(const char *p, double *ts)
{
	const char *s = p;
	char *end;

	if (*s++ != '[')
		return 0;
	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return 0;
	while (*s >= '0' && *s <= '9')
		s++;
	if (*s++ != '.')
		return 0;
	if (strspn(s, "0123456789") != 6)
		return 0;
	s += 6;
	if (s[0] != ']')
		return 0;
	s++;
	if (*s == ' ')
		s++;
	*ts = strtod(p + 1, &end);
	return (size_t)(s - p);
}

void console_split(const char *line, char *scratch, struct con_line *out)
{
	size_t n = strlen(line), i;
	double ts = -1;

	while (n && (line[n - 1] == '\r' || line[n - 1] == '\n'))
		n--;
	out->user = NULL;
	out->kernel = NULL;
	out->ts = -1;
	for (i = 0; i < n; i++) {
		size_t k;

		if (line[i] != '[')
			continue;
		k = ts_len(line + i, &ts);
		if (!k)
			continue;
		/* user part: line[0..i), kernel part: line[i+k..n) */
		memcpy(scratch, line, i);
		scratch[i] = '\0';
		memcpy(scratch + i + 1, line + i + k, n - i - k);
		scratch[i + 1 + n - i - k] = '\0';
		out->user = i ? scratch : NULL;
		out->kernel = scratch + i + 1;
		out->ts = ts;
		return;
	}
	memcpy(scratch, line, n);
	scratch[n] = '\0';
	out->user = scratch;
}

struct pattern {
	enum det det;
	int anchored;		/* match at the start of the message only */
	const char *text;
};

/* First match wins: specific kinds come before the generic BUG/WARNING. */
static const struct pattern patterns[] = {
	{ DET_PANIC, 1, "Kernel panic - not syncing" },
	{ DET_KASAN, 1, "BUG: KASAN: " },
	{ DET_LOCKDEP, 0, "possible recursive locking detected" },
	{ DET_LOCKDEP, 0, "possible circular locking dependency detected" },
	{ DET_LOCKDEP, 0, "inconsistent lock state" },
	{ DET_LOCKDEP, 0, "suspicious RCU usage" },
	{ DET_LOCKDEP, 0, "possible irq lock inversion dependency detected" },
	{ DET_LOCKDEP, 0, "bad unlock balance detected" },
	{ DET_LOCKDEP, 1, "BUG: held lock freed" },
	{ DET_LOCKDEP, 0, "lock held when returning to user space" },
	{ DET_RCU_STALL, 1, "rcu: INFO: rcu_sched detected stalls" },
	{ DET_RCU_STALL, 1, "rcu: INFO: rcu_preempt detected stalls" },
	{ DET_RCU_STALL, 1, "rcu: INFO: rcu_sched self-detected stall" },
	{ DET_RCU_STALL, 1, "rcu: INFO: rcu_preempt self-detected stall" },
	{ DET_RCU_STALL, 1, "INFO: rcu_sched detected stalls" },
	{ DET_RCU_STALL, 1, "INFO: rcu_preempt detected stalls" },
	{ DET_KMEMLEAK, 1, "kmemleak: " },	/* refined in console_classify() */
	{ DET_OOPS, 1, "Unable to handle kernel " },
	{ DET_OOPS, 1, "Internal error: " },
	{ DET_BUG, 1, "kernel BUG at " },
	{ DET_BUG, 1, "BUG: " },
	{ DET_BUG, 1, "watchdog: BUG: " },
	{ DET_BUG, 1, "UBSAN: " },
	{ DET_WARNING, 1, "WARNING: " },
};

enum det console_classify(const char *kmsg)
{
	size_t i;

	if (!kmsg)
		return DET_NONE;
	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		const struct pattern *p = &patterns[i];
		int hit = p->anchored ? !strncmp(kmsg, p->text, strlen(p->text))
				      : strstr(kmsg, p->text) != NULL;

		if (!hit)
			continue;
		if (p->det == DET_KMEMLEAK &&
		    !strstr(kmsg, "new suspected memory leak"))
			continue;
		return p->det;
	}
	return DET_NONE;
}

int console_exit_rc(const char *user, int *rc)
{
	static const char tag[] = "EMRCU-EXIT ";
	char *end;
	long v;

	if (!user || strncmp(user, tag, sizeof(tag) - 1))
		return 0;
	user += sizeof(tag) - 1;
	if (!*user || !strchr("-0123456789", *user))
		return 0;
	v = strtol(user, &end, 10);
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end)
		return 0;
	*rc = (int)v;
	return 1;
}

int console_linux_version(const char *kmsg, char *out, size_t outlen)
{
	static const char tag[] = "Linux version ";
	size_t n;

	if (!kmsg || strncmp(kmsg, tag, sizeof(tag) - 1))
		return 0;
	kmsg += sizeof(tag) - 1;
	n = strcspn(kmsg, " ");
	if (!n || n >= outlen)
		return 0;
	memcpy(out, kmsg, n);
	out[n] = '\0';
	return 1;
}

int console_is_run_init(const char *kmsg)
{
	return kmsg && !strncmp(kmsg, "Run ", 4) &&
	       strstr(kmsg, " as init process");
}
