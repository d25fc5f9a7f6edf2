/* args.c — emrcu-run command line. */
#define _GNU_SOURCE
#include "run.h"
#include "defaults.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"
#include "blocks.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void args_usage(FILE *f)
{
	fprintf(f,
"usage: emrcu-run (--variant NAME | --kernel IMAGE) [options]\n"
"  --variant NAME        kernel of build/NAME/out (Image, .config)\n"
"  --kernel PATH         kernel Image (config: <out>/.config of <out>/arch/arm64/boot/Image)\n"
"  --topo SPEC           clusters COUNTxCAPACITY+... (default " TOPO_DEFAULT ")\n"
"  --mode realtime|deterministic\n"
"                        realtime: MTTCG (-accel tcg,thread=multi), default;\n"
"                        deterministic: -icount shift=N,sleep=off\n"
"  --shift N             icount shift in deterministic mode (default %d)\n"
"  --mem SIZE            guest memory (default " DEFAULT_MEM ")\n"
"  --cpu MODEL           QEMU -cpu (default " DEFAULT_CPU ")\n"
"  --append STR          extra kernel command line\n"
"  --cmd 'SHELL'         guest command (default: true)\n"
"  --cmd-file PATH       guest command script\n"
"  --module PATH.ko[:PARAMS]   load in the guest, in order (repeatable)\n"
"  --file HOST[:GUEST]   add a file (default guest path /emrcu/bin/NAME)\n"
"  --timeout SECONDS     overall limit (default %d)\n"
"  --idle-timeout SECONDS  limit of console silence (default %d)\n"
"  --outdir DIR          console.log, meta.json, result blocks (default\n"
"                        build/runs/<variant>-<time>)\n"
"  --image PATH          base initramfs (default build/image/base.cpio)\n"
"  --dtb PATH            boot this DTB (default: generated from --topo)\n"
"  --no-llc              no per-cluster L2 cache nodes in the generated DTB\n"
"  --qemu PATH           QEMU binary (default " DEFAULT_QEMU ")\n"
"  --echo                copy the console to stdout\n"
"  --exec-trace 0xLO..0xHI[,...]  log every guest instruction executed in [LO, HI]\n"
"                        to OUTDIR/exec.log (QEMU -singlestep -d exec,nochain\n"
"                        -dfilter); deterministic mode only\n",
		DEFAULT_ICOUNT_SHIFT, DEFAULT_TIMEOUT, DEFAULT_IDLE_TIMEOUT);
}

static int num(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	v = strtol(s, &end, 10);
	if (*end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

/*
 * "0xLO..0xHI[,0xLO..0xHI]...", hexadecimal, LO <= HI in each: the ranges
 * QEMU's -dfilter takes (several functions of one image, say).
 */
static int range_ok(const char *s)
{
	unsigned long long lo, hi;
	char *end;

	for (;;) {
		if (strncmp(s, "0x", 2))
			return 0;
		lo = strtoull(s + 2, &end, 16);
		if (end == s + 2 || strncmp(end, "..0x", 4))
			return 0;
		s = end + 4;
		hi = strtoull(s, &end, 16);
		if (end == s || lo > hi)
			return 0;
		if (!*end)
			return 1;
		if (*end != ',')
			return 0;
		s = end + 1;
	}
}

enum {
	O_VARIANT = 256, O_KERNEL, O_TOPO, O_MODE, O_SHIFT, O_MEM, O_CPU,
	O_APPEND, O_CMD, O_CMD_FILE, O_MODULE, O_FILE, O_TIMEOUT, O_IDLE,
	O_OUTDIR, O_IMAGE, O_DTB, O_NO_LLC, O_QEMU, O_ECHO, O_EXEC_TRACE, O_HELP,
};

static const struct option longopts[] = {
	{ "variant", required_argument, NULL, O_VARIANT },
	{ "kernel", required_argument, NULL, O_KERNEL },
	{ "topo", required_argument, NULL, O_TOPO },
	{ "mode", required_argument, NULL, O_MODE },
	{ "shift", required_argument, NULL, O_SHIFT },
	{ "mem", required_argument, NULL, O_MEM },
	{ "cpu", required_argument, NULL, O_CPU },
	{ "append", required_argument, NULL, O_APPEND },
	{ "cmd", required_argument, NULL, O_CMD },
	{ "cmd-file", required_argument, NULL, O_CMD_FILE },
	{ "module", required_argument, NULL, O_MODULE },
	{ "file", required_argument, NULL, O_FILE },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "idle-timeout", required_argument, NULL, O_IDLE },
	{ "outdir", required_argument, NULL, O_OUTDIR },
	{ "image", required_argument, NULL, O_IMAGE },
	{ "dtb", required_argument, NULL, O_DTB },
	{ "no-llc", no_argument, NULL, O_NO_LLC },
	{ "qemu", required_argument, NULL, O_QEMU },
	{ "echo", no_argument, NULL, O_ECHO },
	{ "exec-trace", required_argument, NULL, O_EXEC_TRACE },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int args_parse(int argc, char **argv, struct run_opts *o, char *err, size_t errlen)
{
	const char *mode = "realtime";
	char terr[256];
	int c, shift_set = 0;

	o->topo_spec = TOPO_DEFAULT;
	o->shift = DEFAULT_ICOUNT_SHIFT;
	o->mem = DEFAULT_MEM;
	o->cpu = DEFAULT_CPU;
	o->qemu = getenv("EMRCU_QEMU") ? getenv("EMRCU_QEMU") : DEFAULT_QEMU;
	o->timeout = DEFAULT_TIMEOUT;
	o->idle_timeout = DEFAULT_IDLE_TIMEOUT;
	o->llc = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case O_VARIANT: o->variant = optarg; break;
		case O_KERNEL: o->kernel = optarg; break;
		case O_TOPO: o->topo_spec = optarg; break;
		case O_MODE: mode = optarg; break;
		case O_SHIFT:
			if (num(optarg, 0, 10, &o->shift))
				FAIL("--shift wants 0..10, got '%s'", optarg);
			shift_set = 1;
			break;
		case O_MEM: o->mem = optarg; break;
		case O_CPU: o->cpu = optarg; break;
		case O_APPEND: o->append = optarg; break;
		case O_CMD:
			o->cmd = xasprintf("%s\n", optarg);
			o->cmd_origin = "--cmd";
			break;
		case O_CMD_FILE:
			o->cmd = read_file(optarg, NULL);
			if (!o->cmd)
				FAIL("--cmd-file %s: cannot read", optarg);
			o->cmd_origin = optarg;
			break;
		case O_MODULE: {
			char *s = xstrdup(optarg), *colon = strchr(s, ':');

			if (o->nmods == MAX_MODULES)
				FAIL("more than %d --module", MAX_MODULES);
			if (colon)
				*colon = '\0';
			if (strlen(s) < 4 || strcmp(s + strlen(s) - 3, ".ko"))
				FAIL("--module %s: not a .ko file", optarg);
			if (!file_exists(s))
				FAIL("--module %s: no such file", s);
			o->mods[o->nmods].path = s;
			o->mods[o->nmods].params = colon && colon[1] ? colon + 1 : NULL;
			o->nmods++;
			break;
		}
		case O_FILE: {
			char *s = xstrdup(optarg), *colon = strchr(s, ':');
			const char *base;

			if (o->nfiles == MAX_FILES)
				FAIL("more than %d --file", MAX_FILES);
			if (colon)
				*colon = '\0';
			if (!file_exists(s))
				FAIL("--file %s: no such file", s);
			base = strrchr(s, '/') ? strrchr(s, '/') + 1 : s;
			o->files[o->nfiles].host = s;
			o->files[o->nfiles].guest = colon ? colon + 1 : xasprintf("/emrcu/bin/%s", base);
			if (o->files[o->nfiles].guest[0] != '/' ||
			    strstr(o->files[o->nfiles].guest, ".."))
				FAIL("--file %s: guest path must be absolute, without '..'", optarg);
			o->nfiles++;
			break;
		}
		case O_TIMEOUT:
			if (num(optarg, 1, 86400, &o->timeout))
				FAIL("--timeout wants seconds (1..86400), got '%s'", optarg);
			break;
		case O_IDLE:
			if (num(optarg, 1, 86400, &o->idle_timeout))
				FAIL("--idle-timeout wants seconds (1..86400), got '%s'", optarg);
			break;
		case O_OUTDIR: o->outdir = optarg; break;
		case O_IMAGE: o->image = optarg; break;
		case O_DTB: o->dtb = optarg; break;
		case O_NO_LLC: o->llc = 0; break;
		case O_QEMU: o->qemu = optarg; break;
		case O_ECHO: o->echo = 1; break;
		case O_EXEC_TRACE:
			if (!range_ok(optarg))
				FAIL("--exec-trace wants 0xLO..0xHI[,0xLO..0xHI]... with LO <= HI, got '%s'", optarg);
			o->exec_trace = optarg;
			break;
		case O_HELP: return 1;
		default:
			FAIL("unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		FAIL("unexpected argument '%s'", argv[optind]);
	if (!strcmp(mode, "realtime"))
		o->deterministic = 0;
	else if (!strcmp(mode, "deterministic"))
		o->deterministic = 1;
	else
		FAIL("--mode wants realtime or deterministic, got '%s'", mode);
	if (shift_set && !o->deterministic)
		FAIL("--shift applies to --mode deterministic only");
	if (o->exec_trace && !o->deterministic)
		FAIL("--exec-trace applies to --mode deterministic only (one vCPU thread: one ordered log)");
	if (topo_parse(o->topo_spec, &o->topo, terr, sizeof(terr)))
		FAIL("--topo: %s", terr);
	if (!o->variant && !o->kernel)
		FAIL("need --variant NAME or --kernel IMAGE");
	if (o->variant && !o->kernel) {
		if (!block_name_ok(o->variant))
			FAIL("--variant '%s': not a variant name", o->variant);
		o->kernel = xasprintf("%s/%s/out/arch/arm64/boot/Image", o->build, o->variant);
		o->config = xasprintf("%s/%s/out/.config", o->build, o->variant);
	} else if (!o->variant) {
		/* <out>/arch/arm64/boot/Image -> <out>/.config */
		char *dir = xstrdup(o->kernel), *s;
		int up = 0;

		while (up < 4 && (s = strrchr(dir, '/'))) {
			*s = '\0';
			up++;
		}
		o->variant = "custom";
		if (up == 4) {
			o->config = xasprintf("%s/.config", dir);
			if (!file_exists(o->config))
				o->config = NULL;
		}
	} else {
		FAIL("--variant and --kernel are exclusive");
	}
	if (!file_exists(o->kernel))
		FAIL("kernel %s: no such file", o->kernel);
	if (!o->cmd) {
		o->cmd = "true\n";
		o->cmd_origin = "default";
	}
	return 0;
}
