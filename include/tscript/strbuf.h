/* tscript/strbuf.h — TsBuf, a growable byte string for building text (printed values,
 * messages), shared by the core and the plugins that format values.
 *
 * Appends never fail on the spot: running out of memory (or past TS_BUF_MAX) makes the
 * buffer "failed", later appends do nothing, and ts_buf_check() reports it once at the end.
 * So a printer appends freely and checks one status. The bytes are always NUL-terminated
 * once anything was appended; they may contain NUL bytes (len is authoritative).
 */
#ifndef TSCRIPT_STRBUF_H
#define TSCRIPT_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "tscript/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* No text we build is meant to be larger than this; past it a buffer fails (TS_ERR_LIMIT). */
#define TS_BUF_MAX ((size_t)1 << 31)

typedef struct TsBuf {
    char *p;               /* NULL until the first append */
    size_t len, cap;
    int failed;            /* 0, TS_ERR_NOMEM or TS_ERR_LIMIT */
} TsBuf;

#define TS_BUF_INIT { NULL, 0, 0, 0 }

void ts_buf_add(TsBuf *b, const char *s, size_t n);
void ts_buf_puts(TsBuf *b, const char *s);
void ts_buf_putc(TsBuf *b, char c);
void ts_buf_printf(TsBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Makes room for n more bytes (and the NUL) in one step; the buffer fails if it cannot. */
void ts_buf_reserve(TsBuf *b, size_t n);
/* 0, or the failure's code with err set. */
int ts_buf_check(const TsBuf *b, TsError *err);
/* The text (NUL-terminated, "" when empty), or NULL with err when the buffer failed; the
 * caller frees it. The buffer is left empty either way. */
char *ts_buf_take(TsBuf *b, TsError *err);
void ts_buf_free(TsBuf *b);

#ifdef __cplusplus
}
#endif
#endif
