// SPDX-License-Identifier: GPL-2.0
/* fs.c - files and paths (see emrcu/fs.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/xalloc.h"

char *read_file(const char *path, size_t *len)
{
	struct buf b = { 0 };
	char tmp[65536];
	ssize_t n;
	int e, fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	buf_add(&b, "", 0);
	while ((n = read(fd, tmp, sizeof(tmp))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			buf_free(&b);
			errno = e;
			return NULL;
		}
		buf_add(&b, tmp, (size_t)n);
	}
	close(fd);
	if (len)
		*len = b.len;
	return b.p;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	const char *p = data;
	int e, fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		goto fail;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			goto fail_unlink;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) < 0) {
		close(fd);
		goto fail_unlink;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0)
		goto fail_unlink;
	free(tmp);
	return 0;
fail_unlink:
	e = errno;
	unlink(tmp);
	errno = e;
fail:
	e = errno;
	free(tmp);
	errno = e;
	return -1;
}

int write_json_atomic(const char *path, const struct json *j, int indent,
		      char *err, size_t errlen)
{
	char *text = json_text(j, indent);
	int rc = write_file_atomic(path, text, strlen(text));

	if (rc)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	free(text);
	return rc;
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path), *s;
	int rc = 0;

	for (s = p + 1; *s && !rc; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (!rc && mkdir(p, 0755) < 0 && errno != EEXIST)
		rc = -1;
	free(p);
	return rc;
}

int file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
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
	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == buf)
		buf[1] = '\0';
	else
		buf[slash - buf] = '\0';
}

char *path_label(const char *path, const char *base)
{
	char rp[PATH_MAX], rb[PATH_MAX];
	size_t bl;

	if (!realpath(path, rp))
		snprintf(rp, sizeof(rp), "%s", path);
	if (!realpath(base, rb))
		rb[0] = '\0';
	bl = strlen(rb);
	if (bl && !strncmp(rp, rb, bl) && rp[bl] == '/')
		return xstrdup(rp + bl + 1);
	if (bl && !strcmp(rp, rb))
		return xstrdup(".");
	return xstrdup(rp);
}

void iso_time_now(char *buf, size_t len)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
