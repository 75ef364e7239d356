/* tscript/export.h — what makes a declaration part of the public surface, and the few
 * spellings that differ between C11, C++ and nvcc.
 *
 * libtscript is built with -fvisibility=hidden: a function is exported only when its
 * declaration in an installed header carries TS_API (t/visibility.sh checks that the
 * library exports exactly those). Plugins and embedders may call only such functions.
 */
#ifndef TSCRIPT_EXPORT_H
#define TSCRIPT_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define TS_API __attribute__((visibility("default")))
#define TS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define TS_API
#define TS_PRINTF(fmt, args)
#endif

/* A compile-time check that C11 and C++11 both accept. */
#ifdef __cplusplus
#define TS_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define TS_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#endif
