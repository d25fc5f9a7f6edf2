// SPDX-License-Identifier: GPL-2.0
#include "vm.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void env_init(struct env *e, const char *top)
{
	const char *b = getenv("BUILD");

	snprintf(e->top, sizeof(e->top), "%s", top);
	if (b && *b)
		snprintf(e->build, sizeof(e->build), "%s", b);
	else
		snprintf(e->build, sizeof(e->build), "%s/build", top);
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

int variant_built(const struct env *e, const char *variant)
{
	char p[1200];

	snprintf(p, sizeof(p), "%s/%s/out/arch/arm64/boot/Image", e->build, variant);
	return exists(p);
}

static int file_has(const char *path, const char *needle)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, needle) != NULL;
	fclose(f);
	return found;
}

int variant_runtime_em(const struct env *e, const char *variant)
{
	char p[1200];

	snprintf(p, sizeof(p), "%s/%s/src/include/linux/energy_model.h", e->build,
		 variant);
	return file_has(p, "em_dev_update_perf_domain");
}

const char *variant_preempt(const struct env *e, const char *variant)
{
	char p[1200];

	snprintf(p, sizeof(p), "%s/%s/out/.config", e->build, variant);
	if (file_has(p, "CONFIG_PREEMPT=y"))
		return "full";
	if (file_has(p, "CONFIG_PREEMPT_VOLUNTARY=y"))
		return "voluntary";
	if (file_has(p, "CONFIG_PREEMPT_NONE=y"))
		return "none";
	return "unknown";
}

/* fork + exec @argv, stdout and stderr to @log; the exit status or -1. */
static int spawn(char *const *argv, const char *log, char *capture,
		 size_t caplen)
{
	int fd, status, pfd[2] = { -1, -1 };
	pid_t pid;

	if (capture && pipe(pfd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(127);
		dup2(capture ? pfd[1] : fd, 1);
		dup2(fd, 2);
		if (capture) {
			close(pfd[0]);
			close(pfd[1]);
		}
		close(fd);
		execv(argv[0], argv);
		_exit(127);
	}
	if (capture) {
		size_t len = 0;
		ssize_t n;

		close(pfd[1]);
		while ((n = read(pfd[0], capture + len, caplen - 1 - len)) > 0)
			len += (size_t)n;
		capture[len] = '\0';
		close(pfd[0]);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static double mtime(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (double)st.st_mtim.tv_sec +
					 st.st_mtim.tv_nsec * 1e-9;
}

/*
 * The .ko bench/kmod.sh built before, if it is newer than every source
 * (Kbuild, *.c, *.h) of @dir and than the variant's kernel: then there is nothing to
 * build, and no need to wait for the kernel-build lock kmod.sh takes.
 */
static int module_fresh(const struct env *e, const char *variant,
			const char *dir, char *ko, size_t len)
{
	char src[700], out[1200], p[1800], found[1800] = "";
	const char *base = strrchr(dir, '/');
	struct dirent *d;
	double t_ko, newest = 0;
	DIR *dp;
	int nko = 0;

	base = base ? base + 1 : dir;
	snprintf(src, sizeof(src), "%s/%s", e->top, dir);
	snprintf(out, sizeof(out), "%s/%s/mod/%s", e->build, variant, base);
	dp = opendir(out);
	while (dp && (d = readdir(dp))) {
		size_t n = strlen(d->d_name);

		if (n > 3 && !strcmp(d->d_name + n - 3, ".ko")) {
			snprintf(found, sizeof(found), "%s/%s", out, d->d_name);
			nko++;
		}
	}
	if (dp)
		closedir(dp);
	if (nko != 1 || strlen(found) >= len)
		return 0;
	t_ko = mtime(found);
	dp = opendir(src);
	while (dp && (d = readdir(dp))) {
		size_t n = strlen(d->d_name);
		int is_src = !strcmp(d->d_name, "Kbuild") ||
			(n > 2 && (!strcmp(d->d_name + n - 2, ".c") ||
				   !strcmp(d->d_name + n - 2, ".h")));

		snprintf(p, sizeof(p), "%s/%s", src, d->d_name);
		if (is_src && mtime(p) > newest)
			newest = mtime(p);
	}
	if (dp)
		closedir(dp);
	snprintf(p, sizeof(p), "%s/%s/out/arch/arm64/boot/Image", e->build, variant);
	if (mtime(p) > newest)
		newest = mtime(p);
	if (!dp || t_ko < newest)
		return 0;
	memcpy(ko, found, strlen(found) + 1);
	return 1;
}

int module_build(const struct env *e, const char *variant, const char *dir,
		 char *ko, size_t len, const char *log)
{
	char kmod[600], d[600], out[4096], *last, *nl;
	char *argv[] = { kmod, (char *)variant, d, NULL };

	if (module_fresh(e, variant, dir, ko, len))
		return 0;
	snprintf(kmod, sizeof(kmod), "%s/bench/kmod.sh", e->top);
	snprintf(d, sizeof(d), "%s/%s", e->top, dir);
	if (spawn(argv, log, out, sizeof(out)))
		return -1;
	while ((nl = strrchr(out, '\n')) && !nl[1])
		*nl = '\0';
	last = strrchr(out, '\n');
	last = last ? last + 1 : out;
	if (!strstr(last, ".ko"))
		return -1;
	snprintf(ko, len, "%s", last);
	return 0;
}

void vm_verdict(const char *log, char *out, size_t len)
{
	char line[1024];
	FILE *f = fopen(log, "r");

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "emrcu-run: ", 11)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%s", line);
		}
	fclose(f);
}
