/* json.h — minimal JSON output helpers (for meta.json). */
#ifndef EMRCU_JSON_H
#define EMRCU_JSON_H

#include "util.h"

/* s as a JSON string literal (NULL -> null). */
void json_str(struct buf *b, const char *s);
/* "key": value pieces; comma handling is up to the caller. */
void json_kstr(struct buf *b, const char *key, const char *val, int comma);
void json_knum(struct buf *b, const char *key, double val, int comma);
void json_kint(struct buf *b, const char *key, long val, int comma);

#endif
