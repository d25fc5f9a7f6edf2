// SPDX-License-Identifier: GPL-2.0
/* updater.c - em_bench's updater as the load of a boot (updater.h). */
#include "updater.h"

#include <string.h>

#include "emrcu/field.h"
#include "latency.h"
#include "planwrite.h"

int updater_parse(const struct fctx *f, struct scenario *s)
{
	struct scen_latency *l = &s->lat;
	const struct conf_entry *e;
	char buf[CONF_VAL_LEN], *w[SCEN_MAX_LOADS + 1];
	long v;
	int i, n;

	if (fint(f, "bench_loops", 0, 1, 100000, 10, &v))
		return -1;
	l->loops = (int)v;
	if (fword(f, "bench_readers", 0, "last", NULL, l->readers,
		  sizeof(l->readers)))
		return -1;
	if (fget(f, "loads", 1, &e))
		return -1;
	strcpy(buf, e->val);
	n = fwords(buf, w, SCEN_MAX_LOADS);
	if (n > SCEN_MAX_LOADS)
		return ferr(f, e, "loads", "more than %d loads", SCEN_MAX_LOADS);
	for (i = 0; i < n; i++) {
		if (!strcmp(w[i], "idle")) {
			l->load_hz[i] = 0;
			continue;
		}
		if (str_to_long(w[i], &v) || v < 1 || v > 10000)
			return ferr(f, e, "loads", "'%s': want idle or an update rate 1..10000 Hz",
				    w[i]);
		l->load_hz[i] = (int)v;
	}
	l->nloads = n;
	return 0;
}

void updater_prologue(FILE *f, const struct scenario *s)
{
	fprintf(f, "N=$(nproc)\n");
	if (!strcmp(s->lat.readers, "last"))
		fprintf(f, "READERS=$((N - 1))\n");
	else
		fprintf(f, "READERS=%s\n", s->lat.readers);
}

void updater_block(const struct scenario *s, int i, char *out, size_t len)
{
	char label[32];

	lat_label(s->lat.load_hz[i], label, sizeof(label));
	snprintf(out, len, "updater-%s.json", label);
}

void updater_start(FILE *f, const struct scenario *s, const struct scen_run *r,
		   int i, int runtime_em, int ms, int idle_readers)
{
	char block[48];

	if (!s->lat.load_hz[i])
		return;
	updater_block(s, i, block, sizeof(block));
	fprintf(f, "insmod %s readers=$READERS loops=%d nruns=1000 warmup=10 update_hz=%d null_update=%d spread_ms=%d mode_hint=%s block=%s%s",
		GUEST_EM_BENCH, s->lat.loops, s->lat.load_hz[i], !runtime_em, ms,
		s->mode, block, idle_readers ? " reader_idle=1" : "");
	if (r != &s->run[0] && s->inject[0])
		fprintf(f, " %s", s->inject);
	fprintf(f, " &\n");
	fprintf(f, "P=$!\nsleep 1\n");
}

void updater_stop(FILE *f, const struct scenario *s, int i)
{
	if (s->lat.load_hz[i])
		fprintf(f, "wait $P || exit 1\nrmmod em_bench || exit 1\n");
}
