/* strbuf.c — TsBuf: append bytes, grow by doubling, fail once and stay failed. */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ts_buf_reserve(TsBuf *b, size_t n)
{
    if (b->failed)
        return;
    if (n >= TS_BUF_MAX || b->len >= TS_BUF_MAX - n) {
        b->failed = TS_ERR_LIMIT;
        return;
    }
    if (b->cap - b->len > n)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->len <= n)
        cap *= 2;
    char *np = realloc(b->p, cap);
    if (!np) {
        b->failed = TS_ERR_NOMEM;
        return;
    }
    b->p = np;
    b->cap = cap;
}

void ts_buf_add(TsBuf *b, const char *s, size_t n)
{
    ts_buf_reserve(b, n);
    if (b->failed)
        return;
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void ts_buf_puts(TsBuf *b, const char *s)
{
    ts_buf_add(b, s, strlen(s));
}

void ts_buf_putc(TsBuf *b, char c)
{
    ts_buf_add(b, &c, 1);
}

void ts_buf_printf(TsBuf *b, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = b->failed ? b->failed : TS_ERR_NOMEM;
    } else {
        ts_buf_reserve(b, (size_t)n);
        if (!b->failed) {
            vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap2);
            b->len += (size_t)n;
        }
    }
    va_end(ap2);
}

int ts_buf_check(const TsBuf *b, TsError *err)
{
    if (b->failed == TS_ERR_LIMIT)
        return ts_error_set(err, TS_ERR_LIMIT, "text longer than %zu bytes", TS_BUF_MAX);
    if (b->failed)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory building text");
    return 0;
}

char *ts_buf_take(TsBuf *b, TsError *err)
{
    if (ts_buf_check(b, err)) {
        ts_buf_free(b);
        return NULL;
    }
    ts_buf_reserve(b, 0);
    if (ts_buf_check(b, err)) {
        ts_buf_free(b);
        return NULL;
    }
    b->p[b->len] = '\0';
    char *p = b->p;
    *b = (TsBuf)TS_BUF_INIT;
    return p;
}

void ts_buf_free(TsBuf *b)
{
    free(b->p);
    *b = (TsBuf)TS_BUF_INIT;
}
