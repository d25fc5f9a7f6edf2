// SPDX-License-Identifier: GPL-2.0
#include "kmsg.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *kmsg_text(const char *record)
{
	const char *p;

	if (record[0] == '[') {
		p = strchr(record, ']');
		if (!p)
			return record;
		p++;
		while (*p == ' ')
			p++;
		return p;
	}
	if (isdigit((unsigned char)record[0])) {
		p = strchr(record, ';');
		if (p)
			return p + 1;
	}
	return record;
}

/* Messages of kernel/sched/topology.c that say why EAS did not start. */
static const char *const eas_refusals[] = {
	"CPUs do not have asymmetric capacities",
	"Disabling EAS",
	"Failed to start EAS",
	"EM complexity is too high",
};

void eas_scan_line(struct eas_state *st, const char *msg)
{
	size_t i;

	/* Only the kernel's own lines: "sched_energy_set: ..." / "rd 0-7: ..." */
	if (!strcmp(msg, "sched_energy_set: starting EAS")) {
		st->starts++;
		st->started = 1;
		return;
	}
	if (!strcmp(msg, "sched_energy_set: stopping EAS")) {
		st->stops++;
		st->started = 0;
		return;
	}
	if (strncmp(msg, "rd ", 3))
		return;
	for (i = 0; i < sizeof(eas_refusals) / sizeof(eas_refusals[0]); i++) {
		if (!strstr(msg, eas_refusals[i]))
			continue;
		if (st->nr_notes < EAS_MAX_NOTES) {
			snprintf(st->notes[st->nr_notes], EAS_NOTE_LEN, "%s", msg);
			st->nr_notes++;
		}
		return;
	}
}

int eas_scan_kmsg(struct eas_state *st)
{
	char rec[8192];
	ssize_t n;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten record: skip */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		rec[strcspn(rec, "\n")] = '\0';
		eas_scan_line(st, kmsg_text(rec));
	}
	close(fd);
	return 0;
}
