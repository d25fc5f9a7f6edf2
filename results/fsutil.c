// SPDX-License-Identifier: GPL-2.0
/* fsutil.c - atomic JSON output, path helpers, timestamps. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"

int write_json_atomic(const char *path, const struct json *j, int indent,
		      char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	FILE *f;
	int rc;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >=
	    (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	rc = json_write(f, j, indent);
	if (fflush(f) || fsync(fileno(f)))
		rc = -1;
	if (fclose(f))
		rc = -1;
	if (rc || rename(tmp, path)) {
		snprintf(err, errlen, "%s: %s", path,
			 errno ? strerror(errno) : "write failed");
		unlink(tmp);
		return -1;
	}
	return 0;
}

int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int path_join(char *buf, size_t len, const char *dir, const char *name)
{
	size_t dl = strlen(dir);
	const char *sep = dl && dir[dl - 1] == '/' ? "" : "/";

	return snprintf(buf, len, "%s%s%s", dir, sep, name) >= (int)len ? -1 : 0;
}

void path_dirname(char *buf, size_t len, const char *path)
{
	const char *slash;
	size_t n;

	snprintf(buf, len, "%s", path);
	n = strlen(buf);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash) {
		snprintf(buf, len, ".");
		return;
	}
	if (slash == buf)
		buf[1] = '\0';
	else
		buf[slash - buf] = '\0';
}

char *path_label(const char *path, const char *base)
{
	char rp[PATH_MAX], rb[PATH_MAX];
	size_t bl;
	char *s;

	if (!realpath(path, rp))
		snprintf(rp, sizeof(rp), "%s", path);
	if (!realpath(base, rb))
		rb[0] = '\0';
	bl = strlen(rb);
	if (bl && !strncmp(rp, rb, bl) && rp[bl] == '/')
		s = strdup(rp + bl + 1);
	else if (bl && !strcmp(rp, rb))
		s = strdup(".");
	else
		s = strdup(rp);
	if (!s)
		abort();
	return s;
}

void iso_time_now(char *buf, size_t len)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
