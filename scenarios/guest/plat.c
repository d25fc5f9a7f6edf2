// SPDX-License-Identifier: GPL-2.0
#include "plat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emrcu/fs.h"
#include "emrcu/json.h"
#include "emrcu/result.h"
#include "emrcu/sysfs.h"

int plat_write(const char *file, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", PLAT_DIR, file);
	return sysfs_write(path, val, 0);
}

char *plat_read(const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", PLAT_DIR, file);
	return read_file(path, NULL);
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
