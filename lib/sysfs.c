// SPDX-License-Identifier: GPL-2.0
/* sysfs.c - small sysfs/procfs files and the kernel's cpulist format. */
#include "emrcu/sysfs.h"

#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int read_text(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	if (size == 0)
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return (int)len;
}

int sysfs_write(const char *path, const char *val, int trunc)
{
	size_t len = strlen(val);
	int fd = open(path, O_WRONLY | (trunc ? O_TRUNC : 0)), ret = 0;
	ssize_t n;

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

int read_long(const char *path, long *val)
{
	char buf[64], *end;

	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	errno = 0;
	*val = strtol(buf, &end, 10);
	if (errno || end == buf || *end)
		return -1;
	return 0;
}

static int cpulist_num(const char **p, long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	*v = strtol(*p, &end, 10);
	*p = end;
	return 0;
}

int parse_cpulist(const char *s, uint64_t *mask)
{
	const char *p = s;
	long a, b;
	int n = 0;

	*mask = 0;
	while (*p == ' ')
		p++;
	while (*p) {
		if (cpulist_num(&p, &a))
			return -1;
		b = a;
		if (*p == '-') {
			p++;
			if (cpulist_num(&p, &b) || b < a)
				return -1;
		}
		if (b >= EMRCU_MAX_CPUS)
			return -1;
		for (; a <= b; a++) {
			if (!(*mask & (1ULL << a)))
				n++;
			*mask |= 1ULL << a;
		}
		if (*p == ',' || *p == ' ') {
			p++;
			while (*p == ' ')
				p++;
		} else if (*p) {
			return -1;
		}
	}
	return n;
}

void cpulist_fput_json(FILE *f, uint64_t mask)
{
	const char *sep = "";
	int cpu;

	fputc('[', f);
	for (cpu = 0; cpu < EMRCU_MAX_CPUS; cpu++) {
		if (mask & (1ULL << cpu)) {
			fprintf(f, "%s%d", sep, cpu);
			sep = ",";
		}
	}
	fputc(']', f);
}
