/* run.h — options of one emrcu-run boot. */
#ifndef EMRCU_RUN_H
#define EMRCU_RUN_H

#include <stdio.h>

#include "emrcu/topo.h"

#define MAX_MODULES 32
#define MAX_FILES 64

struct run_module {
	const char *path;
	const char *params;	/* NULL: none */
};

struct run_file {
	const char *host;
	const char *guest;	/* absolute guest path */
};

struct run_opts {
	const char *top;	/* the project tree (parent of qemu-runner/) */
	const char *build;	/* $BUILD or <top>/build */
	const char *variant;	/* --variant NAME, or "custom" for --kernel */
	const char *kernel;	/* Image */
	const char *config;	/* .config next to the Image, or NULL */
	const char *topo_spec;
	struct topo topo;
	int deterministic;
	int shift;
	const char *mem;
	const char *cpu;
	const char *append;	/* extra kernel command line, or NULL */
	const char *cmd;	/* guest shell script text */
	const char *cmd_origin;	/* "--cmd" or the --cmd-file path */
	struct run_module mods[MAX_MODULES];
	int nmods;
	struct run_file files[MAX_FILES];
	int nfiles;
	int timeout;
	int idle_timeout;
	const char *outdir;
	const char *image;	/* base initramfs (default <build>/image/base.cpio) */
	const char *dtb;	/* use this DTB instead of generating one */
	const char *qemu;
	int llc;		/* per-cluster L2 nodes in the DTB (default on) */
	int echo;		/* copy the console to stdout */
	const char *exec_trace;	/* -dfilter range of --exec-trace, or NULL */
};

/* Parse argv; 0 ok, 1 --help printed, -1 error (message in err). */
int args_parse(int argc, char **argv, struct run_opts *o, char *err, size_t errlen);
void args_usage(FILE *f);

#endif
