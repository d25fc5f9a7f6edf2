/* overlay.c — per-boot overlay cpio and initrd. */
#define _GNU_SOURCE
#include "overlay.h"
#include "cpio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *overlay_module_name(const char *path, int index)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	return xasprintf("%02d-%s", index, base);
}

/* Parent directories of a guest path ("a/b/c" -> "a", "a/b"). */
static void parents(struct cpio *c, const char *rel)
{
	char *p = xstrdup(rel), *s;

	for (s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		cpio_dir(c, p, 0755);
		*s = '/';
	}
	free(p);
}

int overlay_build(const struct run_opts *o, struct buf *out, char *err, size_t errlen)
{
	struct cpio c;
	int i;

	cpio_init(&c, 0);
	cpio_dir(&c, "emrcu", 0755);
	cpio_file(&c, "emrcu/cmd", 0755, o->cmd, strlen(o->cmd));
	cpio_dir(&c, "lib", 0755);
	cpio_dir(&c, "lib/modules-emrcu", 0755);
	for (i = 0; i < o->nmods; i++) {
		char *name = overlay_module_name(o->mods[i].path, i);
		char *gpath = xasprintf("lib/modules-emrcu/%s", name);
		size_t len;
		char *data = read_file(o->mods[i].path, &len);

		if (!data) {
			snprintf(err, errlen, "cannot read module %s: %s", o->mods[i].path,
				 strerror(errno));
			free(name);
			free(gpath);
			buf_free(&c.out);
			return -1;
		}
		cpio_file(&c, gpath, 0644, data, len);
		free(data);
		if (o->mods[i].params) {
			char *ppath = xasprintf("lib/modules-emrcu/%.*s.params",
						(int)(strlen(name) - 3), name);

			cpio_file(&c, ppath, 0644, o->mods[i].params, strlen(o->mods[i].params));
			free(ppath);
		}
		free(name);
		free(gpath);
	}
	for (i = 0; i < o->nfiles; i++) {
		const char *rel = o->files[i].guest + 1;
		struct stat st;
		size_t len;
		char *data;

		if (stat(o->files[i].host, &st) || !(data = read_file(o->files[i].host, &len))) {
			snprintf(err, errlen, "cannot read %s: %s", o->files[i].host, strerror(errno));
			buf_free(&c.out);
			return -1;
		}
		parents(&c, rel);
		cpio_file(&c, rel, st.st_mode & 0777, data, len);
		free(data);
	}
	cpio_end(&c);
	*out = c.out;
	return 0;
}

int overlay_write_initrd(const char *base, const struct buf *overlay, const char *path,
			 char *err, size_t errlen)
{
	struct buf b = { 0 };
	size_t len;
	char *data = read_file(base, &len);
	static const char zero[4];
	int rc;

	if (!data) {
		snprintf(err, errlen, "cannot read base image %s: %s (make -C qemu-runner image)",
			 base, strerror(errno));
		return -1;
	}
	b.p = data;
	b.len = len;
	b.cap = len + 1;
	buf_add(&b, zero, (4 - b.len % 4) % 4);
	buf_add(&b, overlay->p, overlay->len);
	rc = write_file_atomic(path, b.p, b.len);
	if (rc)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	buf_free(&b);
	return rc;
}
