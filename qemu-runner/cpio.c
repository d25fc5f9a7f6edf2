/* cpio.c — newc cpio writer. */
#include "cpio.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void pad4(struct buf *b)
{
	static const char zero[4];

	buf_add(b, zero, (4 - b->len % 4) % 4);
}

static void entry(struct cpio *c, const char *name, unsigned int mode,
		  unsigned int nlink, const void *data, size_t len)
{
	char hdr[111];

	snprintf(hdr, sizeof(hdr),
		 "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 c->ino++, mode, 0u, 0u, nlink, c->mtime, (unsigned int)len,
		 0u, 0u, 0u, 0u, (unsigned int)strlen(name) + 1, 0u);
	buf_add(&c->out, hdr, 110);
	buf_add(&c->out, name, strlen(name) + 1);
	pad4(&c->out);
	buf_add(&c->out, data, len);
	pad4(&c->out);
}

void cpio_init(struct cpio *c, unsigned int mtime)
{
	memset(c, 0, sizeof(*c));
	c->ino = 0x10000;	/* away from gen_init_cpio's numbers (from 721) */
	c->mtime = mtime;
	buf_add(&c->out, "", 0);
}

void cpio_dir(struct cpio *c, const char *name, unsigned int mode)
{
	entry(c, name, S_IFDIR | (mode & 07777), 2, NULL, 0);
}

void cpio_file(struct cpio *c, const char *name, unsigned int mode,
	       const void *data, size_t len)
{
	entry(c, name, S_IFREG | (mode & 07777), 1, data, len);
}

void cpio_end(struct cpio *c)
{
	entry(c, "TRAILER!!!", 0, 1, NULL, 0);
}
