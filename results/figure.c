// SPDX-License-Identifier: GPL-2.0
/* figure.c - figure identity and summary.json loading/validation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"

static int get_long(const struct json *o, const char *k, long *out, long dflt)
{
	const struct json *v = json_get(o, k);
	int64_t i;

	if (!v) {
		*out = dflt;
		return 0;
	}
	if (json_int64(v, &i))
		return -1;
	*out = (long)i;
	return 0;
}

int fig_key_json(const struct json *fig, char *buf, size_t len)
{
	const char *name = json_str(json_get(fig, "name"));
	const char *variant = json_str(json_get(fig, "variant"));
	const char *mode = json_str(json_get(fig, "mode"));
	const char *preempt = json_str(json_get(fig, "preempt"));
	const char *scen = json_str(json_get(fig, "scenario"));
	long cluster, nr;
	double hz;

	if (!name || !variant || !mode || !preempt ||
	    json_num(json_get(fig, "update_hz"), &hz) ||
	    get_long(fig, "cluster", &cluster, -1) || !json_get(fig, "cluster") ||
	    get_long(fig, "nr_states", &nr, 0))
		return -1;
	if (snprintf(buf, len, "%s|%s|%s|%s|%.17g|%ld|%ld|%s", name, variant,
		     mode, preempt, hz, cluster, nr, scen ? scen : "") >= (int)len)
		return -1;
	return 0;
}

void fig_label(const struct fig *f, char *buf, size_t len)
{
	char cl[32], nr[32] = "", hz[40];

	if (f->cluster >= 0)
		snprintf(cl, sizeof(cl), "pd%ld", f->cluster);
	else
		snprintf(cl, sizeof(cl), "pd*");
	if (f->nr_states)
		snprintf(nr, sizeof(nr), " opps=%ld", f->nr_states);
	snprintf(hz, sizeof(hz), "%g", f->update_hz);
	snprintf(buf, len, "%s%s%s %s %s %s hz=%s %s%s", f->scenario[0] ? f->scenario : "",
		 f->scenario[0] ? "/" : "", f->name, f->variant, f->mode,
		 f->preempt, hz, cl, nr);
}

/* "boot_medians" (optional) -> nboots, boot_min, boot_max; -1 if malformed. */
static int boot_range(const struct json *node, struct fig *f)
{
	const struct json *a = json_get(node, "boot_medians");
	size_t i;

	f->nboots = 0;
	f->boot_min = INFINITY;
	f->boot_max = -INFINITY;
	if (!a)
		return 0;
	if (json_kind(a) != JSON_ARRAY)
		return -1;
	for (i = 0; i < json_len(a); i++) {
		double d;

		if (json_num(json_at(a, i), &d) || !isfinite(d))
			return -1;
		f->boot_min = fmin(f->boot_min, d);
		f->boot_max = fmax(f->boot_max, d);
		f->nboots++;
	}
	return 0;
}

int fig_from_json(const struct json *node, struct fig *f, char *err,
		  size_t errlen)
{
	static const char *const strs[] = { "name", "unit", "variant", "mode",
					    "preempt", "better" };
	static const char *const nums[] = { "update_hz", "median", "ci_low",
					    "ci_high" };
	size_t i;

	memset(f, 0, sizeof(*f));
	f->node = node;
	if (!node || json_kind(node) != JSON_OBJECT) {
		snprintf(err, errlen, "figure is not an object");
		return -1;
	}
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		if (!json_str(json_get(node, strs[i]))) {
			snprintf(err, errlen, "figure lacks string '%s'", strs[i]);
			return -1;
		}
	}
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		double d;

		if (json_num(json_get(node, nums[i]), &d) || !isfinite(d)) {
			snprintf(err, errlen, "figure '%s' lacks number '%s'",
				 json_str(json_get(node, "name")), nums[i]);
			return -1;
		}
	}
	f->name = json_str(json_get(node, "name"));
	f->unit = json_str(json_get(node, "unit"));
	f->variant = json_str(json_get(node, "variant"));
	f->mode = json_str(json_get(node, "mode"));
	f->preempt = json_str(json_get(node, "preempt"));
	f->better = json_str(json_get(node, "better"));
	f->scenario = json_str(json_get(node, "scenario"));
	if (!f->scenario)
		f->scenario = "";
	if (strcmp(f->better, "lower") && strcmp(f->better, "higher") &&
	    strcmp(f->better, "none")) {
		snprintf(err, errlen, "figure '%s': better must be lower/higher/none",
			 f->name);
		return -1;
	}
	json_num(json_get(node, "update_hz"), &f->update_hz);
	json_num(json_get(node, "median"), &f->median);
	json_num(json_get(node, "ci_low"), &f->ci_low);
	json_num(json_get(node, "ci_high"), &f->ci_high);
	if (!json_get(node, "cluster") ||
	    get_long(node, "cluster", &f->cluster, -1) ||
	    get_long(node, "nr_states", &f->nr_states, 0) ||
	    get_long(node, "n", &f->n, -1) || f->n < 1) {
		snprintf(err, errlen,
			 "figure '%s': cluster, n (>= 1), nr_states must be integers",
			 f->name);
		return -1;
	}
	if (!(f->ci_low <= f->median && f->median <= f->ci_high)) {
		snprintf(err, errlen, "figure '%s': ci_low <= median <= ci_high violated",
			 f->name);
		return -1;
	}
	if (json_num(json_get(node, "spread_pct"), &f->spread_pct))
		f->spread_pct = NAN;
	if (boot_range(node, f)) {
		snprintf(err, errlen, "figure '%s': boot_medians must be an array of numbers",
			 f->name);
		return -1;
	}
	if (fig_key_json(node, f->key, sizeof(f->key))) {
		snprintf(err, errlen, "figure '%s': key too long", f->name);
		return -1;
	}
	memcpy(f->id_key, f->key, sizeof(f->key));
	return 0;
}

int summary_load(const char *path, struct summary *s, char *err, size_t errlen)
{
	struct json_err je;
	const struct json *figs;
	const char *schema;
	size_t i, j;

	memset(s, 0, sizeof(*s));
	s->root = json_parse_file(path, &je);
	if (!s->root) {
		snprintf(err, errlen, "%s", je.msg);
		return -1;
	}
	schema = json_str(json_get(s->root, "schema"));
	if (!schema || strcmp(schema, SUMMARY_SCHEMA)) {
		snprintf(err, errlen, "%s: schema is '%s', expected '%s'", path,
			 schema ? schema : "(none)", SUMMARY_SCHEMA);
		goto fail;
	}
	figs = json_get(s->root, "figures");
	if (!figs || json_kind(figs) != JSON_ARRAY) {
		snprintf(err, errlen, "%s: no 'figures' array", path);
		goto fail;
	}
	s->n = json_len(figs);
	s->figs = calloc(s->n ? s->n : 1, sizeof(*s->figs));
	if (!s->figs)
		abort();
	for (i = 0; i < s->n; i++) {
		char e[200];

		if (fig_from_json(json_at(figs, i), &s->figs[i], e, sizeof(e))) {
			snprintf(err, errlen, "%s: figures[%zu]: %s", path, i, e);
			goto fail;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(s->figs[j].key, s->figs[i].key)) {
				snprintf(err, errlen,
					 "%s: figures[%zu] and [%zu] have the same identity",
					 path, j, i);
				goto fail;
			}
		}
	}
	return 0;
fail:
	summary_free(s);
	return -1;
}

void summary_free(struct summary *s)
{
	json_free(s->root);
	free(s->figs);
	memset(s, 0, sizeof(*s));
}

const struct fig *summary_find(const struct summary *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->figs[i].key, key))
			return &s->figs[i];
	return NULL;
}

int summary_select(struct summary *s, const char *variant, const char *path,
		   char *err, size_t errlen)
{
	size_t i, k = 0;

	for (i = 0; i < s->n; i++) {
		struct fig *f = &s->figs[i];
		char *bar1, *bar2;

		if (strcmp(f->variant, variant))
			continue;
		/* key is name|variant|rest: replace the variant field by '*' */
		bar1 = strchr(f->id_key, '|');
		bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
		if (!bar2)
			abort();
		snprintf(f->key, sizeof(f->key), "%.*s|*%s",
			 (int)(bar1 - f->id_key), f->id_key, bar2);
		if (k != i)
			s->figs[k] = *f;
		k++;
	}
	s->n = k;
	if (!k) {
		snprintf(err, errlen, "%s: no figure of variant '%s'", path, variant);
		return -1;
	}
	return 0;
}

void summary_arg(const char *arg, char *file, const char **variant)
{
	const char *c = strrchr(arg, ':');
	FILE *f;

	strcpy(file, arg);
	*variant = NULL;
	if (!c || !c[1] || strchr(c, '/'))
		return;
	file[c - arg] = 0;
	f = fopen(file, "r");
	if (!f) {
		strcpy(file, arg);
		return;
	}
	fclose(f);
	*variant = c + 1;
}
