/* sha256.h — SHA-256 (FIPS 180-4), for config hashes and cache keys. */
#ifndef EMRCU_SHA256_H
#define EMRCU_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char blk[64];
	size_t n;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* hex: 65 bytes (64 hex digits + NUL). */
void sha256_hex(struct sha256 *s, char hex[65]);
/* One-shot helpers; sha256_file returns -1 if the file cannot be read. */
void sha256_str(const void *data, size_t len, char hex[65]);
int sha256_file(const char *path, char hex[65]);

#endif
