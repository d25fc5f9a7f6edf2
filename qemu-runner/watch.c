/* watch.c — QEMU process and console loop. */
#define _GNU_SOURCE
#include "watch.h"
#include "defaults.h"
#include "exitcodes.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The one piece of global state: the signal that interrupted us. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void line_out(struct watch *w, struct buf *line, double t)
{
	unsigned int ev = scan_line(w->scan, line->p);

	if ((ev & SCAN_INIT) && w->t_init < 0)
		w->t_init = t - w->t_start;
	if ((ev & SCAN_EXIT) && w->t_exit < 0)
		w->t_exit = t - w->t_start;
	line->len = 0;
	line->p[0] = '\0';
}

int watch_run(struct watch *w, char *const argv[], char *err, size_t errlen)
{
	struct sigaction sa = { 0 }, old_int, old_term, old_hup;
	struct buf line = { 0 };
	int pfd[2], logfd, errfd, status = 0, reaped = 0, eof = 0;
	double last_out, deadline_extra = -1;
	pid_t pid;

	w->hang = 0;
	w->interrupted = 0;
	w->spawned = 0;
	w->status = -1;
	w->killed = 0;
	w->console_bytes = 0;
	w->console_lost = 0;
	w->console_errno = 0;
	w->t_init = w->t_exit = -1;
	buf_add(&line, "", 0);

	logfd = open(w->console_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (logfd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", w->console_path, strerror(errno));
		return -1;
	}
	errfd = open(w->stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (errfd < 0 || pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot set up QEMU output: %s", strerror(errno));
		close(logfd);
		return -1;
	}
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	got_signal = 0;

	w->t_start = now_s();
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		close(logfd);
		close(errfd);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		dup2(null, 0);
		dup2(pfd[1], 1);
		dup2(errfd, 2);
		execvp(argv[0], argv);
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	w->spawned = 1;
	close(pfd[1]);
	close(errfd);
	last_out = w->t_start;

	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		double now = now_s(), limit;
		char tmp[8192];
		ssize_t n;
		int r;

		if (got_signal) {
			w->interrupted = got_signal;
			break;
		}
		if (now - w->t_start >= w->timeout) {
			w->hang = EXIT_TIMEOUT;
			break;
		}
		if (now - last_out >= w->idle_timeout) {
			w->hang = EXIT_IDLE;
			break;
		}
		if (deadline_extra < 0 && w->t_exit >= 0)
			deadline_extra = now + EXIT_GRACE;
		if (deadline_extra < 0 && w->scan->counts[DET_PANIC])
			deadline_extra = now + PANIC_GRACE;
		if (deadline_extra >= 0 && now >= deadline_extra)
			break;	/* guest done (or dead) but QEMU lingers */
		limit = w->t_start + w->timeout;
		if (last_out + w->idle_timeout < limit)
			limit = last_out + w->idle_timeout;
		if (deadline_extra >= 0 && deadline_extra < limit)
			limit = deadline_extra;
		r = poll(&p, 1, (int)((limit - now) * 1000) + 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (r == 0)
			continue;
		n = read(pfd[0], tmp, sizeof(tmp));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			eof = 1;	/* QEMU exited (or closed its console) */
			break;
		}
		now = now_s();
		last_out = now;
		w->console_bytes += n;
		if (!w->console_errno) {
			ssize_t done = 0, k;

			/* A short write is retried: the next one says why. */
			while (done < n) {
				k = write(logfd, tmp + done, (size_t)(n - done));
				if (k < 0 && errno == EINTR)
					continue;
				if (k <= 0) {
					w->console_errno = k < 0 ? errno : EIO;
					break;
				}
				done += k;
			}
			w->console_lost += n - done;
		} else {
			/*
			 * Keep watching (the verdict does not depend on the
			 * log), but a lost log is an output failure.
			 */
			w->console_lost += n;
		}
		if (w->echo && fwrite(tmp, 1, (size_t)n, stdout) != (size_t)n)
			w->echo = 0;
		for (ssize_t i = 0; i < n; i++) {
			if (tmp[i] == '\n')
				line_out(w, &line, now);
			else if (tmp[i] != '\0')
				buf_add(&line, tmp + i, 1);
		}
		if (w->echo)
			fflush(stdout);
	}
	if (line.len)
		line_out(w, &line, now_s());
	/*
	 * Reap if QEMU exited by itself (give it a moment after closing its
	 * output), otherwise kill the whole process group: timeout(1) and
	 * QEMU.  The group is only signalled before the leader is reaped.
	 */
	for (int i = 0; i < 100 && !reaped; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			reaped = 1;
		else if (!eof)
			break;
		else
			usleep(50000);
	}
	if (!reaped) {
		kill(-pid, SIGKILL);
		w->killed = 1;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	w->status = w->killed ? -1 : status;
	w->t_end = now_s() - w->t_start;
	close(pfd[0]);
	close(logfd);
	buf_free(&line);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	return 0;
}
