/* tscript/error.h — the one error type, passed up and never printed deep inside.
 *
 * Every fallible function takes a TsError * and returns a status (0 on success, or a
 * TsErrorCode). The message is owned by the TsError and freed by ts_error_clear().
 * The code names the Python exception class that TorchScript would raise, so the
 * interpreter can print "RuntimeError: ..." and `except`-less programs still read like
 * PyTorch's.
 */
#ifndef TSCRIPT_ERROR_H
#define TSCRIPT_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#include "tscript/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TsErrorCode {
    TS_OK = 0,
    TS_ERR_RUNTIME,        /* RuntimeError: the general case */
    TS_ERR_NOMEM,          /* out of memory */
    TS_ERR_IO,             /* a file could not be read or written */
    TS_ERR_SYNTAX,         /* malformed source, schema, YAML or IR text */
    TS_ERR_TYPE,           /* TypeError */
    TS_ERR_VALUE,          /* ValueError */
    TS_ERR_INDEX,          /* IndexError */
    TS_ERR_KEY,            /* KeyError */
    TS_ERR_ZERO_DIV,       /* ZeroDivisionError */
    TS_ERR_ASSERT,         /* AssertionError */
    TS_ERR_NOT_IMPL,       /* NotImplementedError */
    TS_ERR_PLUGIN,         /* a plugin could not be loaded or registered */
    TS_ERR_CONFIG,         /* a bad configuration file */
    TS_ERR_LIMIT,          /* a checked limit (recursion depth, sizes) was exceeded */
    TS_ERR_USAGE,          /* a bad command line or API call */
    TS_ERR__COUNT
} TsErrorCode;

typedef struct TsError {
    TsErrorCode code;
    char *msg;             /* heap-owned, NUL-terminated; NULL when code == TS_OK */
} TsError;

#define TS_ERROR_INIT { TS_OK, NULL }

/* Sets the error (replacing any previous one) and returns code. */
TS_API int ts_error_set(TsError *err, TsErrorCode code, const char *fmt, ...)
    TS_PRINTF(3, 4);
TS_API int ts_error_setv(TsError *err, TsErrorCode code, const char *fmt, va_list ap);

/* Puts "prefix" in front of the current message: "file.yaml:3:7: " + old message. */
TS_API void ts_error_prefix(TsError *err, const char *fmt, ...)
    TS_PRINTF(2, 3);

/* Frees the message and resets to TS_OK. Safe on a cleared error. */
TS_API void ts_error_clear(TsError *err);

/* Moves src into dst (dst's old message is freed; src is left cleared). */
TS_API void ts_error_move(TsError *dst, TsError *src);

/* The Python exception class name for a code: "RuntimeError", "IndexError", ... */
TS_API const char *ts_error_class(TsErrorCode code);

#ifdef __cplusplus
}
#endif
#endif
