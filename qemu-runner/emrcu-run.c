/*
 * emrcu-run — boot one kernel in a QEMU arm64 guest, run a command, judge it.
 * See README.md (usage, exit codes) and run.h / watch.h / scan.h.
 */
#define _GNU_SOURCE
#include "defaults.h"
#include "dtb.h"
#include "exitcodes.h"
#include "emrcu/json.h"
#include "overlay.h"
#include "proc.h"
#include "provenance.h"
#include "qemu_cmd.h"
#include "run.h"
#include "scan.h"
#include "sha256.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"
#include "watch.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_NAMES 256

struct sink {
	const char *outdir;
	char *results[MAX_NAMES];
	int nresults;
	char *warnings[MAX_NAMES];
	int nwarnings;
	char *write_error;	/* first output file that could not be written */
};

/* Remember the first output file that could not be written. */
static void sink_write_error(struct sink *s, const char *path, int err)
{
	if (!s->write_error)
		s->write_error = xasprintf("cannot write %s: %s", path, strerror(err));
}

static const char *const reserved[] = {
	"console.log", "meta.json", "qemu.stderr", "initrd.img", NULL,
};

static void sink_warn(void *ctx, const char *msg)
{
	struct sink *s = ctx;

	fprintf(stderr, "emrcu-run: warning: %s\n", msg);
	if (s->nwarnings < MAX_NAMES)
		s->warnings[s->nwarnings++] = xstrdup(msg);
}

static void sink_block(void *ctx, const char *name, const char *data, size_t len)
{
	struct sink *s = ctx;
	char *path;
	int i;

	for (i = 0; reserved[i]; i++) {
		if (!strcmp(name, reserved[i])) {
			char *m = xasprintf("result block '%s' has a reserved name: not written", name);

			sink_warn(ctx, m);
			free(m);
			return;
		}
	}
	path = xasprintf("%s/%s", s->outdir, name);
	if (write_file_atomic(path, data, len)) {
		char *m = xasprintf("cannot write %s: %s", path, strerror(errno));

		sink_write_error(s, path, errno);
		sink_warn(ctx, m);
		free(m);
	} else {
		for (i = 0; i < s->nresults; i++)
			if (!strcmp(s->results[i], name))
				break;
		if (i < s->nresults) {
			char *m = xasprintf("result block '%s' seen again: overwritten", name);

			sink_warn(ctx, m);
			free(m);
		} else if (s->nresults < MAX_NAMES) {
			s->results[s->nresults++] = xstrdup(name);
		}
	}
	free(path);
}

static int det_exit_code(enum det d)
{
	switch (d) {
	case DET_PANIC: return EXIT_PANIC;
	case DET_OOPS: return EXIT_OOPS;
	case DET_BUG: return EXIT_BUG;
	case DET_KASAN: return EXIT_KASAN;
	case DET_WARNING: return EXIT_WARNING;
	case DET_LOCKDEP: return EXIT_LOCKDEP;
	case DET_RCU_STALL: return EXIT_RCU_STALL;
	case DET_KMEMLEAK: return EXIT_KMEMLEAK;
	default: return EXIT_INTERNAL;
	}
}

/* Directory of the running executable's parent: the project tree. */
static char *find_top(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return xstrdup(".");
	exe[n] = '\0';
	return xstrdup(dirname(dirname(exe)));
}

static char *first_line_of(const char *path)
{
	char *s = read_file(path, NULL);

	if (!s)
		return xstrdup("");
	s[strcspn(s, "\n")] = '\0';
	return s;
}

static char *qemu_version(const char *qemu)
{
	char *argv[] = { (char *)qemu, "--version", NULL };
	char out[512];

	if (proc_run(argv, out, sizeof(out)) != 0)
		return NULL;
	out[strcspn(out, "\n")] = '\0';
	return xstrdup(out);
}

static int fail_early(int code, const char *what, const char *msg)
{
	fprintf(stderr, "emrcu-run: FAIL %s: %s\n", what, msg);
	return code;
}

static char *default_image(const struct run_opts *o, char *err, size_t errlen)
{
	char *img = xasprintf("%s/image/base.cpio", o->build);
	char *argv[] = { NULL, NULL };
	char out[8192];
	int rc;

	if (file_exists(img))
		return img;
	argv[0] = xasprintf("%s/qemu-runner/image.sh", o->top);
	fprintf(stderr, "emrcu-run: building the base image (%s)\n", argv[0]);
	rc = proc_run(argv, out, sizeof(out));
	free(argv[0]);
	if (rc || !file_exists(img)) {
		char *last = strrchr(out, '\n');

		while (last && last > out && last[1] == '\0') {
			*last = '\0';
			last = strrchr(out, '\n');
		}
		snprintf(err, errlen, "image.sh failed (%d): %.900s", rc, last ? last + 1 : out);
		free(img);
		return NULL;
	}
	return img;
}

/* Seconds with millisecond resolution; null when unknown (negative or NaN). */
static struct json *secs(double v)
{
	return isnan(v) || v < 0 ? json_new_null() : json_new_num(round(v * 1000) / 1000);
}

static struct json *str_array(char *const *v, int n)
{
	struct json *a = json_new_arr();
	int i;

	for (i = 0; i < n; i++)
		json_push(a, json_new_str(v[i]));
	return a;
}

static int write_meta(const struct run_opts *o, const char *path, const struct argv *qa,
		       const char *qver, const char *cfg_hash, const char *dtb,
		       const char *image, const char *cmdline, const struct scan *sc,
		       const struct watch *w, const struct sink *sk, int code,
		       const char *reason_kind, const char *reason, const char *started)
{
	struct json *m = json_new_obj(), *t, *a, *d;
	char spec[256], *text;
	int i, rc;

	topo_format(&o->topo, spec, sizeof(spec));
	json_set_int(m, "schema", 1);
	json_set_str(m, "started_utc", started);
	json_set_str(m, "variant", o->variant);
	json_set_str(m, "kernel_image", o->kernel);
	json_set_str(m, "kernel_release", sc->release[0] ? sc->release : NULL);
	json_set_str(m, "config_sha256", cfg_hash);
	json_set(m, "kernel_tree", o->variant ? prov_kernel(o->build, o->variant)
					      : json_new_null());
	json_set_str(m, "qemu_version", qver);
	json_set(m, "qemu_argv", str_array(qa->v, qa->n));
	json_set(m, "host", prov_host());
	json_set(m, "harness", prov_harness(o->top));
	json_set_str(m, "kernel_cmdline", cmdline);
	t = json_set(m, "topology", json_new_obj());
	json_set_str(t, "spec", spec);
	json_set_int(t, "ncpus", o->topo.ncpus);
	json_set_bool(t, "llc_per_cluster", o->llc);
	a = json_set(t, "clusters", json_new_arr());
	for (i = 0; i < o->topo.nclusters; i++) {
		d = json_push(a, json_new_obj());
		json_set_int(d, "cpus", o->topo.c[i].ncpus);
		json_set_int(d, "capacity_dmips_mhz", o->topo.c[i].capacity);
		json_set_int(d, "cpu_capacity", topo_final_capacity(&o->topo, i));
	}
	json_set_str(m, "cpu", o->cpu);
	json_set_str(m, "mem", o->mem);
	json_set_str(m, "mode", o->deterministic ? "deterministic" : "realtime");
	json_set(m, "icount_shift", o->deterministic ? json_new_int(o->shift) : json_new_null());
	json_set_str(m, "dtb", dtb);
	json_set_str(m, "image", image);
	json_set_str(m, "cmd_origin", o->cmd_origin);
	json_set_str(m, "cmd", o->cmd);
	a = json_set(m, "modules", json_new_arr());
	for (i = 0; i < o->nmods; i++) {
		d = json_push(a, json_new_obj());
		json_set_str(d, "path", o->mods[i].path);
		json_set_str(d, "params", o->mods[i].params);
	}
	json_set_int(m, "timeout_s", o->timeout);
	json_set_int(m, "idle_timeout_s", o->idle_timeout);
	json_set(m, "wall_time_s", secs(w->t_end));
	json_set(m, "wall_to_init_s", secs(w->t_init));
	json_set(m, "wall_to_exit_s", secs(w->t_exit));
	json_set(m, "boot_to_init_s", secs(sc->init_ts));
	json_set(m, "guest_rc", sc->got_exit ? json_new_int(sc->guest_rc) : json_new_null());
	json_set_int(m, "exit_code", code);
	json_set_str(m, "exit_kind", reason_kind);
	json_set_str(m, "exit_reason", reason);
	d = json_set(m, "detections", json_new_obj());
	for (i = 1; i < DET_COUNT; i++)
		json_set_int(d, det_name((enum det)i), sc->counts[i]);
	json_set_int(m, "console_bytes", (int64_t)w->console_bytes);
	json_set(m, "results", str_array(sk->results, sk->nresults));
	json_set(m, "warnings", str_array(sk->warnings, sk->nwarnings));
	text = json_text(m, 2);
	rc = write_file_atomic(path, text, strlen(text)) ? errno : 0;
	if (rc)
		fprintf(stderr, "emrcu-run: warning: cannot write %s: %s\n", path, strerror(rc));
	free(text);
	json_free(m);
	return rc;	/* 0 or the errno */
}

int main(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct argv qa = { 0 };
	struct buf overlay = { 0 };
	struct sink sk = { 0 };
	struct scan sc;
	struct watch w = { 0 };
	char err[1024], cfg_hash[65], started[32], *qver, *dtb, *image, *initrd, *cmdline;
	char *meta, *reason = NULL;
	const char *kind;
	int code, rc;
	time_t now = time(NULL);

	o.top = find_top();
	o.build = getenv("BUILD") && *getenv("BUILD") ? getenv("BUILD")
						       : xasprintf("%s/build", o.top);
	rc = args_parse(argc, argv, &o, err, sizeof(err));
	if (rc == 1) {
		args_usage(stdout);
		return 0;
	}
	if (rc) {
		fprintf(stderr, "emrcu-run: %s (see emrcu-run --help)\n", err);
		return EXIT_USAGE;
	}
	if (!proc_in_path(o.qemu))
		return fail_early(EXIT_QEMU, "qemu", xasprintf("%s not found (install qemu-system-arm)", o.qemu));
	if (!proc_in_path("timeout"))
		return fail_early(EXIT_INTERNAL, "internal", "timeout(1) not found (coreutils)");
	qver = qemu_version(o.qemu);
	if (!qver)
		return fail_early(EXIT_QEMU, "qemu", xasprintf("%s --version failed", o.qemu));
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (!o.outdir) {
		char ts[32];

		strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", localtime(&now));
		o.outdir = xasprintf("%s/runs/%s-%s-%d", o.build, o.variant, ts, (int)getpid());
	}
	if (mkdir_p(o.outdir))
		return fail_early(EXIT_INTERNAL, "internal",
				  xasprintf("cannot create %s: %s", o.outdir, strerror(errno)));
	if (!o.config || sha256_file(o.config, cfg_hash))
		strcpy(cfg_hash, "");
	dtb = o.dtb ? xstrdup(o.dtb) : dtb_get(&o, qver, err, sizeof(err));
	if (!dtb)
		return fail_early(EXIT_INTERNAL, "dtb", err);
	image = o.image ? xstrdup(o.image) : default_image(&o, err, sizeof(err));
	if (!image)
		return fail_early(EXIT_INTERNAL, "image", err);
	if (overlay_build(&o, &overlay, err, sizeof(err)))
		return fail_early(EXIT_INTERNAL, "overlay", err);
	initrd = xasprintf("%s/initrd.img", o.outdir);
	if (overlay_write_initrd(image, &overlay, initrd, err, sizeof(err)))
		return fail_early(EXIT_INTERNAL, "initrd", err);
	cmdline = qemu_cmdline(&o);
	qemu_boot_argv(&o, dtb, initrd, cmdline, &qa);

	sk.outdir = o.outdir;
	scan_init(&sc, sink_block, sink_warn, &sk);
	w.console_path = xasprintf("%s/console.log", o.outdir);
	w.stderr_path = xasprintf("%s/qemu.stderr", o.outdir);
	w.timeout = o.timeout;
	w.idle_timeout = o.idle_timeout;
	w.echo = o.echo;
	w.scan = &sc;
	if (watch_run(&w, qa.v, err, sizeof(err))) {
		unlink(initrd);
		return fail_early(EXIT_INTERNAL, "internal", err);
	}
	scan_finish(&sc);

	/* Verdict: first kernel failure, signal, hang, QEMU, guest rc. */
	if (sc.first != DET_NONE) {
		code = det_exit_code(sc.first);
		kind = det_name(sc.first);
		reason = xstrdup(sc.first_msg);
	} else if (w.interrupted) {
		code = EXIT_SIGNAL;
		kind = "signal";
		reason = xasprintf("interrupted by signal %d", w.interrupted);
	} else if (w.hang == EXIT_TIMEOUT) {
		code = EXIT_TIMEOUT;
		kind = "timeout";
		reason = xasprintf("hang: no EMRCU-EXIT within --timeout %d s", o.timeout);
	} else if (w.hang == EXIT_IDLE) {
		code = EXIT_IDLE;
		kind = "idle";
		reason = xasprintf("hang: no console output for --idle-timeout %d s", o.idle_timeout);
	} else if (!sc.got_exit) {
		char *e = first_line_of(w.stderr_path);
		int st = w.status;

		if (w.console_bytes == 0 && !w.killed) {
			code = EXIT_QEMU;
			kind = "qemu";
			reason = xasprintf("QEMU failed to start (exit %d)%s%s",
					   WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
					   *e ? ": " : "", e);
		} else {
			code = EXIT_NO_EXIT;
			kind = "no-exit";
			if (w.killed)
				reason = xasprintf("guest powered off/stopped without EMRCU-EXIT; QEMU killed%s%s",
						   *e ? ": " : "", e);
			else
				reason = xasprintf("QEMU exited (status %d) without EMRCU-EXIT%s%s",
						   WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
						   *e ? ": " : "", e);
		}
		free(e);
	} else if (sc.guest_rc != 0) {
		code = EXIT_GUEST_RC;
		kind = "guest";
		reason = xasprintf("EMRCU-EXIT %d", sc.guest_rc);
	} else {
		code = EXIT_PASS;
		kind = "pass";
		reason = xstrdup("EMRCU-EXIT 0");
	}
	/*
	 * Results lost (disk full, ...): a run that otherwise passed or only
	 * failed in the guest is an output failure, never a PASS.  A kernel
	 * failure, signal or hang keeps its name; the loss is in "warnings".
	 */
	if (w.console_errno) {
		char *m = xasprintf("console.log: %ld bytes not written: %s", w.console_lost,
				    strerror(w.console_errno));

		sink_write_error(&sk, w.console_path, w.console_errno);
		sink_warn(&sk, m);
		free(m);
	}
	if (sk.write_error && (code == EXIT_PASS || code == EXIT_GUEST_RC)) {
		char *r = xasprintf("results not saved: %s (guest: %s)", sk.write_error, reason);

		free(reason);
		reason = r;
		code = EXIT_INTERNAL;
		kind = "output";
	}
	/* The initrd goes first: its space lets the verdict be written. */
	if (!getenv("EMRCU_KEEP_INITRD"))
		unlink(initrd);
	meta = xasprintf("%s/meta.json", o.outdir);
	rc = write_meta(&o, meta, &qa, qver, cfg_hash[0] ? cfg_hash : NULL, dtb, image, cmdline,
			&sc, &w, &sk, code, kind, reason, started);
	if (rc && code == EXIT_PASS) {
		char *r = xasprintf("results not saved: cannot write %s: %s", meta, strerror(rc));

		free(reason);
		reason = r;
		code = EXIT_INTERNAL;
		kind = "output";
	}
	if (code == EXIT_PASS)
		fprintf(stderr, "emrcu-run: PASS (%s, %.1f s, %d result(s)) %s\n", reason,
			w.t_end, sk.nresults, o.outdir);
	else
		fprintf(stderr, "emrcu-run: FAIL %s: %s (%s)\n", kind, reason, o.outdir);
	return code;
}
