/* dtb.c — dump, rewrite and cache the topology DTB. */
#define _GNU_SOURCE
#include "dtb.h"
#include "dts.h"
#include "proc.h"
#include "qemu_cmd.h"
#include "sha256.h"
#include "emrcu/buf.h"
#include "emrcu/fs.h"
#include "emrcu/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int dtc(const char *from, const char *to, const char *in, const char *out,
	       char *err, size_t errlen)
{
	char *argv[] = { "dtc", "-q", "-I", (char *)from, "-O", (char *)to,
			 "-o", (char *)out, (char *)in, NULL };
	char msg[2048];
	int rc = proc_run(argv, msg, sizeof(msg));

	if (rc) {
		msg[strcspn(msg, "\n")] = '\0';
		snprintf(err, errlen, "dtc -I %s -O %s %s failed (%d): %s", from, to, in, rc, msg);
		return -1;
	}
	return 0;
}

char *dtb_get(const struct run_opts *o, const char *qemu_version, char *err, size_t errlen)
{
	struct argv m = { 0 }, dump = { 0 };
	char spec[256], hex[65], msg[2048];
	char *key, *dir, *dtb, *raw, *rawdts, *dts, *tmp, *text, *newdts;
	int rc;

	topo_format(&o->topo, spec, sizeof(spec));
	qemu_machine_args(o, &m, NULL);
	text = argv_join(&m);
	key = xasprintf("emrcu-dtb\nqemu %s\nmachine %s\ntopo %s\nllc %d\nxform %d\n",
			qemu_version, text, spec, o->llc, DTS_XFORM_VERSION);
	sha256_str(key, strlen(key), hex);
	hex[16] = '\0';
	dir = xasprintf("%s/dtb", o->build);
	dtb = xasprintf("%s/%s.dtb", dir, hex);
	free(text);
	free(key);
	argv_free(&m);
	if (file_exists(dtb))
		return dtb;
	if (mkdir_p(dir)) {
		snprintf(err, errlen, "cannot create %s", dir);
		return NULL;
	}
	raw = xasprintf("%s/%s.qemu.%d.dtb", dir, hex, (int)getpid());
	rawdts = xasprintf("%s/%s.qemu.%d.dts", dir, hex, (int)getpid());
	dts = xasprintf("%s/%s.dts", dir, hex);
	tmp = xasprintf("%s.tmp.%d", dtb, (int)getpid());
	qemu_dumpdtb_argv(o, raw, &dump);
	rc = proc_run(dump.v, msg, sizeof(msg));
	argv_free(&dump);
	if (rc || !file_exists(raw)) {
		msg[strcspn(msg, "\n")] = '\0';
		snprintf(err, errlen, "QEMU dumpdtb failed (%d): %s", rc, msg);
		goto fail;
	}
	if (dtc("dtb", "dts", raw, rawdts, err, errlen))
		goto fail;
	text = read_file(rawdts, NULL);
	if (!text) {
		snprintf(err, errlen, "cannot read %s", rawdts);
		goto fail;
	}
	newdts = dts_apply_topo(text, &o->topo, o->llc, err, errlen);
	free(text);
	if (!newdts)
		goto fail;
	rc = write_file_atomic(dts, newdts, strlen(newdts));
	free(newdts);
	if (rc) {
		snprintf(err, errlen, "cannot write %s", dts);
		goto fail;
	}
	if (dtc("dts", "dtb", dts, tmp, err, errlen))
		goto fail;
	if (rename(tmp, dtb)) {
		snprintf(err, errlen, "cannot rename %s", tmp);
		goto fail;
	}
	unlink(raw);
	unlink(rawdts);
	free(raw); free(rawdts); free(dts); free(tmp); free(dir);
	return dtb;
fail:
	unlink(raw);
	unlink(rawdts);
	unlink(tmp);
	free(raw); free(rawdts); free(dts); free(tmp); free(dir); free(dtb);
	return NULL;
}
