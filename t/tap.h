/* tap.h — a tiny TAP producer for the C tests in t/ (run by automake's TAP driver and prove).
 *
 * ok(cond, fmt, ...) prints "ok N - name" or "not ok N - name"; is_int/is_str compare and
 * print a diagnostic on mismatch; done_testing() prints the plan and returns the exit status.
 */
#ifndef TS_TAP_H
#define TS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static void tap_vresult(int pass, const char *fmt, va_list ap)
{
    printf("%sok %d - ", pass ? "" : "not ", ++tap_n);
    vprintf(fmt, ap);
    printf("\n");
    if (!pass)
        tap_failed++;
    fflush(stdout);
}

__attribute__((format(printf, 2, 3), unused))
static int ok(int pass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_vresult(pass, fmt, ap);
    va_end(ap);
    return pass;
}

__attribute__((format(printf, 1, 2), unused))
static void diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("# ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

__attribute__((format(printf, 3, 4), unused))
static int is_int(long long got, long long want, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_vresult(got == want, fmt, ap);
    va_end(ap);
    if (got != want)
        diag("got %lld, want %lld", got, want);
    return got == want;
}

__attribute__((format(printf, 3, 4), unused))
static int is_str(const char *got, const char *want, const char *fmt, ...)
{
    int pass = got && want ? strcmp(got, want) == 0 : got == want;
    va_list ap;
    va_start(ap, fmt);
    tap_vresult(pass, fmt, ap);
    va_end(ap);
    if (!pass)
        diag("got  '%s'\n# want '%s'", got ? got : "(null)", want ? want : "(null)");
    return pass;
}

/* contains: substring check, for error messages. */
__attribute__((format(printf, 3, 4), unused))
static int like(const char *got, const char *needle, const char *fmt, ...)
{
    int pass = got && strstr(got, needle) != NULL;
    va_list ap;
    va_start(ap, fmt);
    tap_vresult(pass, fmt, ap);
    va_end(ap);
    if (!pass)
        diag("'%s'\n# does not contain '%s'", got ? got : "(null)", needle);
    return pass;
}

static int done_testing(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
