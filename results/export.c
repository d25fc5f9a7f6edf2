// SPDX-License-Identifier: GPL-2.0
/*
 * emrcu-export [--format bmf] [-o OUT] SUMMARY - a summary.json in a format
 * benchmark trackers read.
 *
 *   bmf: Bencher Metric Format, {BENCHMARK: {MEASURE: {"value",
 *        "lower_value", "upper_value"}}}: BENCHMARK is a figure's identity
 *        without its name ("patched/deterministic/none/hz1000/pd0", then
 *        "/opps=N" and "/SCENARIO" when it has them), MEASURE its name;
 *        value the median, lower/upper the confidence interval.
 *
 * Writes OUT (default: standard output).  Exit 0, or 2 on unusable input.
 */
#include <stdio.h>
#include <string.h>

#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "figure.h"

static int usage(void)
{
	fprintf(stderr, "usage: emrcu-export [--format bmf] [-o OUT] SUMMARY\n");
	return 2;
}

static void bench_name(const struct fig *f, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "%s/%s/%s/hz%g", f->variant, f->mode,
				    f->preempt, f->update_hz);

	if (f->cluster >= 0 && n < len)
		n += (size_t)snprintf(out + n, len - n, "/pd%ld", f->cluster);
	if (f->nr_states && n < len)
		n += (size_t)snprintf(out + n, len - n, "/opps=%ld", f->nr_states);
	if (f->scenario && f->scenario[0] && n < len)
		snprintf(out + n, len - n, "/%s", f->scenario);
}

static struct json *bmf(const struct summary *s)
{
	struct json *root = json_new_obj();
	char name[FIG_KEY_MAX];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct fig *f = &s->figs[i];
		struct json *b, *m;

		bench_name(f, name, sizeof(name));
		b = json_get(root, name);
		if (!b)
			b = json_set(root, name, json_new_obj());
		if (json_get(b, f->name)) {	/* summary_load keeps ids unique */
			fprintf(stderr, "emrcu-export: %s/%s given twice\n", name, f->name);
			json_free(root);
			return NULL;
		}
		m = json_set(b, f->name, json_new_obj());
		json_set_num(m, "value", f->median);
		json_set_num(m, "lower_value", f->ci_low);
		json_set_num(m, "upper_value", f->ci_high);
	}
	return root;
}

int main(int argc, char **argv)
{
	const char *format = "bmf", *out = NULL, *in = NULL;
	struct summary s;
	struct json *j;
	char err[600];
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc)
			format = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-' || in)
			return usage();
		else
			in = argv[i];
	}
	if (!in)
		return usage();
	if (strcmp(format, "bmf")) {
		fprintf(stderr, "emrcu-export: --format %s: only bmf (Bencher Metric Format)\n",
			format);
		return 2;
	}
	if (summary_load(in, &s, err, sizeof(err))) {
		fprintf(stderr, "emrcu-export: %s\n", err);
		return 2;
	}
	j = bmf(&s);
	if (!j) {
		rc = -1;
	} else if (out) {
		rc = write_json_atomic(out, j, 1, err, sizeof(err));
		if (rc)
			fprintf(stderr, "emrcu-export: %s\n", err);
	} else {
		rc = json_write(stdout, j, 1);
	}
	json_free(j);
	summary_free(&s);
	return rc ? 2 : 0;
}
