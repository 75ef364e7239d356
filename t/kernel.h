/* kernel.h — calling an operator's kernel directly, for the tests of the operator plugins
 * (t/prim.t, t/cpu.t): open the default runtime, find an operator by name and overload, push
 * arguments on a fresh stack, run the backend's kernel, and take its one result.
 */
#ifndef TS_T_KERNEL_H
#define TS_T_KERNEL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime.h"
#include "tap.h"

static TsRuntime *kt_rt;

/* Opens the runtime with the default config (the build tree's prim and aten-cpu). */
static int kt_open(void)
{
    TsError err = TS_ERROR_INIT;
    kt_rt = ts_runtime_open(NULL, &err);
    if (!ok(kt_rt != NULL, "the default runtime opens"))
        diag("%s", err.msg);
    ts_error_clear(&err);
    return kt_rt != NULL;
}

static const TsOperator *kt_find(const char *qualname, const char *overload)
{
    return ts_optable_find(ts_runtime_optable(kt_rt), qualname, overload);
}

/* Runs qualname.overload on backend with the n values in args (their references are taken)
 * and puts its single result in *out. Returns the kernel's status (err set), or -1 when the
 * operator or its kernel is missing or the kernel left the stack wrong. */
static int kt_call(const char *qualname, const char *overload, const char *backend, size_t n,
                   const TsValue *args, TsValue *out, TsError *err)
{
    *out = ts_none();
    const TsOperator *op = kt_find(qualname, overload);
    const TsKernelEntry *k = op ? ts_operator_kernel(op, backend) : NULL;
    if (!k || !k->fn) {
        diag("no %s kernel for %s.%s", backend, qualname, overload);
        for (size_t i = 0; i < n; i++)
            ts_value_release(args[i]);
        return -1;
    }
    TsStack s = { NULL, 0, 0 };
    for (size_t i = 0; i < n; i++)
        if (ts_stack_push(&s, args[i], err)) {
            for (size_t j = i + 1; j < n; j++)
                ts_value_release(args[j]);
            ts_stack_free(&s);
            return -1;
        }
    TsCall call = { &s, err, NULL, kt_rt, op };
    int rc = k->fn(&call);
    if (rc == 0 && s.len != 1) {
        diag("%s.%s left %zu values on the stack", qualname, overload, s.len);
        rc = -1;
    } else if (rc == 0) {
        *out = ts_stack_pop(&s);
    } else if (err->code == TS_OK) {
        diag("%s.%s failed without setting the error", qualname, overload);
        rc = -1;
    }
    ts_stack_free(&s);
    return rc;
}

/* Same value for floats, where nan equals nan and 0.0 differs from -0.0. */
__attribute__((unused)) static int kt_same_float(double got, double want)
{
    if (isnan(want))
        return isnan(got);
    return got == want && signbit(got) == signbit(want);
}

#endif
