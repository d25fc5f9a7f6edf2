// SPDX-License-Identifier: GPL-2.0
/* Parser of the guest plan (format: plan.h). */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emrcu/sysfs.h"

#define MAX_FIELDS 8

static int split(char *line, char **f)
{
	char *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(line, " \t\r", &save); tok && n <= MAX_FIELDS;
	     tok = strtok_r(NULL, " \t\r", &save))
		f[n++] = tok;
	return n;
}

static int to_long(const char *s, long lo, long hi, long *v)
{
	char *end;

	*v = strtol(s, &end, 10);
	return end == s || *end || *v < lo || *v > hi ? -1 : 0;
}

static int parse_utils(const char *s, struct plan_task *t)
{
	const char *p = s;
	char *end;

	t->nphases = 0;
	for (;;) {
		double u = strtod(p, &end);

		if (end == p || u < 0 || u > 100 || t->nphases == PLAN_MAX_PHASES)
			return -1;
		t->util[t->nphases++] = u;
		if (!*end)
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

static int parse_line(char *line, struct plan *p, char *err, size_t errlen)
{
	char *f[MAX_FIELDS + 1];
	struct plan_step *s = p->nsteps ? &p->step[p->nsteps - 1] : NULL;
	int n = split(line, f);
	long v;

	if (!n)
		return 0;
	if (!strcmp(f[0], "em") && n == 2) {
		if (!strcmp(f[1], "static"))
			p->em = PLAN_EM_STATIC;
		else if (!strcmp(f[1], "push"))
			p->em = PLAN_EM_PUSH;
		else if (!strcmp(f[1], "best-static"))
			p->em = PLAN_EM_BEST_STATIC;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(f[0], "heat") && n == 2) {
		char *c;

		if (strlen(f[1]) >= sizeof(p->heat))
			goto bad;
		strcpy(p->heat, f[1]);
		for (c = p->heat; *c; c++)
			if (*c == ',')
				*c = ' ';
		return 0;
	}
	if ((!strcmp(f[0], "warmup_ms") || !strcmp(f[0], "phase_ms") ||
	     !strcmp(f[0], "slice_us")) && n == 2) {
		if (to_long(f[1], f[0][0] == 'w' ? 0 : 1, 600000, &v))
			goto bad;
		if (f[0][0] == 'w')
			p->warmup_ms = v;
		else if (f[0][0] == 'p')
			p->phase_ms = v;
		else
			p->slice_us = v;
		return 0;
	}
	if (!strcmp(f[0], "step") && n == 5) {
		long t, b;

		if (p->nsteps == PLAN_MAX_STEPS) {
			snprintf(err, errlen, "more than %d steps", PLAN_MAX_STEPS);
			return -1;
		}
		if (strlen(f[1]) >= PLAN_NAME_LEN || strlen(f[3]) >= 32 ||
		    to_long(f[2], -1000000, 1000000, &t) ||
		    to_long(f[4], -1000, 1000, &b))
			goto bad;
		s = &p->step[p->nsteps++];
		memset(s, 0, sizeof(*s));
		strcpy(s->label, f[1]);
		strcpy(s->profile, f[3]);
		s->temp_mc = (int)t;
		s->bin_mv = (int)b;
		s->phase_ms = p->phase_ms;
		return 0;
	}
	if (!strcmp(f[0], "rtapp") && n == 2) {
		if (!s || strlen(f[1]) >= sizeof(s->rtapp))
			goto bad;
		strcpy(s->rtapp, f[1]);
		return 0;
	}
	if (!strcmp(f[0], "task") && (n == 5 || n == 6)) {
		struct plan_task *t;

		if (!s) {
			snprintf(err, errlen, "task before the first step");
			return -1;
		}
		if (s->ntasks == PLAN_MAX_TASKS) {
			snprintf(err, errlen, "more than %d tasks in step %s",
				 PLAN_MAX_TASKS, s->label);
			return -1;
		}
		t = &s->task[s->ntasks];
		memset(t, 0, sizeof(*t));
		if (strlen(f[1]) >= PLAN_NAME_LEN ||
		    to_long(f[2], 100, 10000000, &t->period_us) ||
		    parse_utils(f[3], t))
			goto bad;
		strcpy(t->name, f[1]);
		if (strcmp(f[4], "-") && parse_cpulist(f[4], &t->cpus) <= 0)
			goto bad;
		if (n == 6 && strcmp(f[5], "-")) {
			if (strlen(f[5]) >= sizeof(t->comm))
				goto bad;
			strcpy(t->comm, f[5]);
		}
		s->ntasks++;
		return 0;
	}
bad:
	snprintf(err, errlen, "bad '%s' directive", f[0]);
	return -1;
}

int plan_parse(const char *text, struct plan *p, char *err, size_t errlen)
{
	char line[1024], msg[200];
	const char *q = text;
	int lineno = 0;

	memset(p, 0, sizeof(*p));
	p->phase_ms = 1000;
	p->slice_us = 200;
	while (*q) {
		const char *nl = strchr(q, '\n');
		size_t len = nl ? (size_t)(nl - q) : strlen(q);
		char *hash;

		lineno++;
		if (len >= sizeof(line)) {
			snprintf(err, errlen, "line %d: too long", lineno);
			return -1;
		}
		memcpy(line, q, len);
		line[len] = '\0';
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (parse_line(line, p, msg, sizeof(msg))) {
			snprintf(err, errlen, "line %d: %s", lineno, msg);
			return -1;
		}
		q += len + (nl ? 1 : 0);
	}
	if (!p->nsteps) {
		snprintf(err, errlen, "no step");
		return -1;
	}
	return 0;
}

int plan_step_phases(const struct plan_step *s)
{
	int i, n = 1;

	for (i = 0; i < s->ntasks; i++)
		if (s->task[i].nphases > n)
			n = s->task[i].nphases;
	return n;
}
