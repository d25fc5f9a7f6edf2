// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "emrcu/json.h"
#include "metrics.h"

#define SCENARIO_SCHEMA "emrcu/scenario/1"

static struct metric *find(struct metrics *ms, const char *name, int cluster)
{
	int i;

	for (i = 0; i < ms->n; i++)
		if (ms->m[i].cluster == cluster && !strcmp(ms->m[i].name, name))
			return &ms->m[i];
	return NULL;
}

const struct metric *metric_find(const struct metrics *ms, const char *name,
				 int cluster)
{
	return find((struct metrics *)ms, name, cluster);
}

int metric_add(struct metrics *ms, const char *name, const char *unit,
	       const char *better, int cluster, double v)
{
	struct metric *m = find(ms, name, cluster);

	if (!m) {
		if (ms->n == METRICS_MAX || strlen(name) >= METRIC_NAME_LEN ||
		    strlen(unit) >= sizeof(m->unit) || strlen(better) >= sizeof(m->better))
			return -1;
		m = &ms->m[ms->n++];
		memset(m, 0, sizeof(*m));
		strcpy(m->name, name);
		strcpy(m->unit, unit);
		strcpy(m->better, better);
		m->cluster = cluster;
	}
	if (m->n == METRIC_MAX_SAMPLES)
		return -1;
	m->v[m->n++] = v;
	return 0;
}

int metrics_write(const char *path, const char *scenario, const char *variant,
		  const char *preempt, struct json *constants,
		  const struct metrics *ms, char *err, size_t errlen)
{
	struct json *root = json_new_obj(), *arr = json_new_arr();
	char tmp[4200];
	FILE *f;
	int i, k, ret;

	json_set_str(root, "schema", SCENARIO_SCHEMA);
	json_set_str(root, "scenario", scenario);
	json_set_str(root, "variant", variant);
	if (preempt)
		json_set_str(root, "preempt", preempt);
	if (constants)
		json_set(root, "constants", constants);
	for (i = 0; i < ms->n; i++) {
		const struct metric *m = &ms->m[i];
		struct json *o = json_new_obj(), *s = json_new_arr();

		json_set_str(o, "name", m->name);
		json_set_str(o, "unit", m->unit);
		json_set_str(o, "better", m->better);
		if (m->cluster >= 0)
			json_set_int(o, "cluster", m->cluster);
		for (k = 0; k < m->n; k++)
			json_push(s, json_new_num(m->v[k]));
		json_set(o, "samples", s);
		json_push(arr, o);
	}
	json_set(root, "metrics", arr);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "%s: cannot write", tmp);
		json_free(root);
		return -1;
	}
	ret = json_write(f, root, 1);
	ret |= fputc('\n', f) == EOF;
	ret |= fclose(f);
	json_free(root);
	if (ret || rename(tmp, path)) {
		snprintf(err, errlen, "%s: cannot write", path);
		return -1;
	}
	return 0;
}
