/* SPDX-License-Identifier: GPL-2.0 */
/* Did EAS start?  The scheduler says so in the kernel log (sched_verbose). */
#ifndef EMRCU_GUEST_KMSG_H
#define EMRCU_GUEST_KMSG_H

#include <stddef.h>

#define EAS_MAX_NOTES 8
#define EAS_NOTE_LEN 160

struct eas_state {
	int starts;		/* "sched_energy_set: starting EAS" */
	int stops;		/* "sched_energy_set: stopping EAS" */
	int started;		/* the last of the two was a start */
	int nr_notes;		/* lines explaining a refusal */
	char notes[EAS_MAX_NOTES][EAS_NOTE_LEN];
};

/* The message of one /dev/kmsg record ("pri,seq,ts,flags;message"), or of
 * a console line ("[    1.616423] message"); the line itself otherwise. */
const char *kmsg_text(const char *record);

/* Account one log message (the text after the printk prefix): exactly
 * "sched_energy_set: starting|stopping EAS", or a line "rd <cpus>: ..."
 * saying why EAS is off.  Anything else (user output) is ignored. */
void eas_scan_line(struct eas_state *st, const char *msg);

/* Read the whole kernel log from /dev/kmsg.  0, or -1 if unreadable. */
int eas_scan_kmsg(struct eas_state *st);

#endif
