// SPDX-License-Identifier: GPL-2.0
#include "plat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emrcu/json.h"
#include "emrcu/result.h"
#include "emrcu/sysfs.h"

int plat_write(const char *file, const char *val)
{
	char path[256];
	size_t len = strlen(val);
	ssize_t n;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", PLAT_DIR, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

char *read_all(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (cap - len < 2048) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

char *plat_read(const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", PLAT_DIR, file);
	return read_all(path);
}

int plat_set_cond(int temp_mc, const char *profile, int bin_mv, char *err,
		  size_t errlen)
{
	char v[32];
	int ret;

	snprintf(v, sizeof(v), "%d", temp_mc);
	ret = plat_write("temperature", v);
	if (!ret) {
		ret = plat_write("profile", profile);
		if (ret) {
			snprintf(err, errlen, "profile=%s: %s", profile,
				 strerror(-ret));
			return ret;
		}
	} else {
		snprintf(err, errlen, "temperature=%s: %s", v, strerror(-ret));
		return ret;
	}
	snprintf(v, sizeof(v), "%d", bin_mv);
	ret = plat_write("bin", v);
	if (ret)
		snprintf(err, errlen, "bin=%s: %s", v, strerror(-ret));
	return ret;
}

int plat_runtime_em(void)
{
	char *s = plat_read("em_update");
	int yes = s && strstr(s, "\"supported\":true");

	free(s);
	return yes;
}

void block_print(FILE *f, const char *name, const char *text)
{
	size_t len = strlen(text);
	const char *p;

	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	result_begin(f, name);
	for (p = text; p < text + len; p++) {
		fputc(*p, f);
		if (*p == ',' && p > text && (p[-1] == '}' || p[-1] == ']'))
			fputc('\n', f);
	}
	result_end(f, name);
}
