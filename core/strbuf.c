/* strbuf.c — TsBuf: append bytes, grow by doubling, fail once and stay failed. */
#include "tscript/strbuf.h"

#include <stdbool.h>
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

/* Appends the decimal digits of v (with a '-' when negative). */
static void put_int(TsBuf *b, bool negative, unsigned long long v)
{
    char digits[24], *p = digits + sizeof digits;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (negative)
        *--p = '-';
    ts_buf_add(b, p, (size_t)(digits + sizeof digits - p));
}

static void put_signed(TsBuf *b, long long v)
{
    put_int(b, v < 0, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v);
}

/* Formats the plain conversions (%s %c %d %u %ld %lu %lld %llu %zu %%, no flags, width or
 * precision) itself and returns true; false, having appended nothing it keeps, at anything
 * else. Printing an int is the hot path of str(), and glibc's printf takes its slow path
 * for every call once a library (libquadmath, pulled in by BLAS) registers printf hooks. */
static bool printf_plain(TsBuf *b, const char *fmt, va_list ap)
{
    size_t start = b->len;
    while (*fmt) {
        const char *pct = strchr(fmt, '%');
        if (!pct) {
            ts_buf_puts(b, fmt);
            break;
        }
        if (pct > fmt)
            ts_buf_add(b, fmt, (size_t)(pct - fmt));
        const char *f = pct + 1;
        int longs = 0;
        bool size = false;
        if (*f == 'z') {
            size = true;
            f++;
        }
        while (*f == 'l' && longs < 2) {
            longs++;
            f++;
        }
        switch (*f) {
        case '%':
            if (f != pct + 1)
                goto unknown;
            ts_buf_putc(b, '%');
            break;
        case 's':
            if (f != pct + 1)
                goto unknown;
            {
                const char *str = va_arg(ap, const char *);
                ts_buf_puts(b, str ? str : "(null)");      /* as glibc prints it */
            }
            break;
        case 'c':
            if (f != pct + 1)
                goto unknown;
            ts_buf_putc(b, (char)va_arg(ap, int));
            break;
        case 'd':
        case 'i':
            if (size)
                goto unknown;
            put_signed(b, longs == 2 ? va_arg(ap, long long)
                          : longs == 1 ? va_arg(ap, long) : va_arg(ap, int));
            break;
        case 'u':
            put_int(b, false, size ? va_arg(ap, size_t)
                              : longs == 2 ? va_arg(ap, unsigned long long)
                              : longs == 1 ? va_arg(ap, unsigned long)
                                           : va_arg(ap, unsigned));
            break;
        default:
            goto unknown;
        }
        fmt = f + 1;
    }
    return true;
unknown:
    if (!b->failed) {
        b->len = start;
        if (b->p)
            b->p[start] = '\0';
    }
    return false;
}

void ts_buf_printf(TsBuf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    bool done = printf_plain(b, fmt, ap);
    va_end(ap);
    if (done) {
        va_end(ap2);
        return;
    }
    /* one pass when the text fits the room left, a second after growing when not */
    va_list ap3;
    va_copy(ap3, ap2);
    size_t room = b->cap - b->len;
    int n = vsnprintf(room ? b->p + b->len : NULL, room, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->failed = TS_ERR_NOMEM;
    } else if ((size_t)n < room) {
        b->len += (size_t)n;
    } else {
        ts_buf_reserve(b, (size_t)n);
        if (!b->failed) {
            vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap3);
            b->len += (size_t)n;
        }
    }
    va_end(ap3);
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
