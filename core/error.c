/* error.c — TsError: one heap-owned message and a code naming the Python exception class.
 *
 * Errors are built where they happen and passed up; callers add context with
 * ts_error_prefix() (file:line:col, the operator's name) on the way out.
 */
#include "tscript/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The message we keep when even the message cannot be allocated. */
static char oom_msg[] = "out of memory";

static void free_msg(TsError *err)
{
    if (err->msg && err->msg != oom_msg)
        free(err->msg);
    err->msg = NULL;
}

int ts_error_setv(TsError *err, TsErrorCode code, const char *fmt, va_list ap)
{
    if (!err)
        return code;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *m = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (m)
        vsnprintf(m, (size_t)n + 1, fmt, ap);
    free_msg(err);
    err->code = code;
    err->msg = m ? m : oom_msg;
    return code;
}

int ts_error_set(TsError *err, TsErrorCode code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ts_error_setv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

void ts_error_prefix(TsError *err, const char *fmt, ...)
{
    if (!err || err->code == TS_OK)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    const char *old = err->msg ? err->msg : "";
    size_t olen = strlen(old);
    char *m = n >= 0 ? malloc((size_t)n + olen + 1) : NULL;
    if (!m)
        return;
    va_start(ap, fmt);
    vsnprintf(m, (size_t)n + 1, fmt, ap);
    va_end(ap);
    memcpy(m + n, old, olen + 1);
    free_msg(err);
    err->msg = m;
}

void ts_error_clear(TsError *err)
{
    if (!err)
        return;
    free_msg(err);
    err->code = TS_OK;
}

void ts_error_move(TsError *dst, TsError *src)
{
    if (dst == src)
        return;
    free_msg(dst);
    *dst = *src;
    src->code = TS_OK;
    src->msg = NULL;
}

const char *ts_error_class(TsErrorCode code)
{
    switch (code) {
    case TS_OK: return "";
    case TS_ERR_TYPE: return "TypeError";
    case TS_ERR_VALUE: return "ValueError";
    case TS_ERR_INDEX: return "IndexError";
    case TS_ERR_KEY: return "KeyError";
    case TS_ERR_ZERO_DIV: return "ZeroDivisionError";
    case TS_ERR_ASSERT: return "AssertionError";
    case TS_ERR_NOT_IMPL: return "NotImplementedError";
    case TS_ERR_NOMEM: return "MemoryError";
    case TS_ERR_IO: return "OSError";
    default: return "RuntimeError";
    }
}
