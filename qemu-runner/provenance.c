// SPDX-License-Identifier: GPL-2.0
/* provenance.c - the host, the harness and the kernel tree behind a boot. */
#include "provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/str.h"
#include "emrcu/xalloc.h"
#include "proc.h"

/* The first line git printed, or NULL when it failed. */
static char *git_line(const char *dir, const char *a, const char *b,
		      const char *c)
{
	char *argv[] = { "git", "-C", (char *)dir, (char *)a, (char *)b,
			 (char *)c, NULL };
	char out[1024];

	if (proc_run(argv, out, sizeof(out)) != 0)
		return NULL;
	out[strcspn(out, "\n")] = '\0';
	return xstrdup(out);
}

/* The value after "KEY" and a colon on its line of @text, trimmed. */
static char *field_of(const char *text, const char *key)
{
	const char *p = text;
	size_t n = strlen(key);
	char line[256];

	while (p && *p) {
		if (!strncmp(p, key, n) && strchr(" \t:", p[n])) {
			const char *c = strchr(p, ':');
			size_t len = strcspn(p, "\n");

			if (!c || c >= p + len)
				return NULL;
			snprintf(line, sizeof(line), "%.*s", (int)(p + len - c - 1), c + 1);
			return xstrdup(str_trim(line));
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

struct json *prov_host(void)
{
	struct json *h = json_new_obj();
	char *cpu = read_file("/proc/cpuinfo", NULL);
	char *mem = read_file("/proc/meminfo", NULL);
	char *model = cpu ? field_of(cpu, "model name") : NULL;
	char *total = mem ? field_of(mem, "MemTotal") : NULL;
	long kb;

	json_set_str(h, "cpu_model", model);
	json_set_int(h, "ncpus", sysconf(_SC_NPROCESSORS_ONLN));
	if (total && !str_to_long(strtok(total, " "), &kb))
		json_set_int(h, "mem_mb", kb / 1024);
	else
		json_set(h, "mem_mb", json_new_null());
	free(cpu);
	free(mem);
	free(model);
	free(total);
	return h;
}

struct json *prov_harness(const char *top)
{
	char *argv[] = { "git", "-C", (char *)top, "status", "--porcelain",
			 "--untracked-files=no", NULL };
	char *commit = git_line(top, "rev-parse", "HEAD", NULL);
	char out[4096];
	struct json *h;
	int rc;

	if (!commit)
		return json_new_null();
	rc = proc_run(argv, out, sizeof(out));
	h = json_new_obj();
	json_set_str(h, "commit", commit);
	if (rc)
		json_set(h, "dirty", json_new_null());
	else
		json_set_bool(h, "dirty", out[0] != '\0');
	free(commit);
	return h;
}

struct json *prov_kernel(const char *build, const char *variant)
{
	char *pristine = xasprintf("%s/pristine", build);
	char *src = xasprintf("%s/%s/src", build, variant);
	char *inputs_path = xasprintf("%s/.emrcu-inputs", src);
	char *base = git_line(pristine, "log", "-1", "--format=%s");
	char *tree = git_line(src, "rev-parse", "HEAD^{tree}", NULL);
	char *inputs = read_file(inputs_path, NULL);
	struct json *k;

	if (!base && !tree && !inputs) {
		k = json_new_null();
	} else {
		k = json_new_obj();
		json_set_str(k, "base", base);
		json_set_str(k, "source_tree", tree);
		json_set_str(k, "inputs", inputs ? str_trim(inputs) : NULL);
	}
	free(pristine);
	free(src);
	free(inputs_path);
	free(base);
	free(tree);
	free(inputs);
	return k;
}
