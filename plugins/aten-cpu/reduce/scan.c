/* scan.c — operations along one dim whose result has the input's shape: cumsum, cumprod,
 * logcumsumexp, softmax and log_softmax.
 *
 * Each row along the dim is gathered into a buffer (double for floating dtypes, int64 for
 * integral ones, so integer cumsums wrap like PyTorch's int64), computed and scattered into
 * the result. softmax subtracts the row's max before exp, so large inputs do not overflow;
 * log_softmax is x - max - log(sum(exp(x - max))). float32 and bfloat16 softmaxes compute in
 * float32 instead, as PyTorch's vectorized kernels do (vmath.h's exp), a bfloat16 result
 * rounded once.
 */
#include <math.h>
#include <stdlib.h>

#include "reduce/reduce.h"
#include "vhalf.h"

typedef enum ScanKind { S_CUMSUM, S_CUMPROD, S_LOGCUMSUMEXP, S_SOFTMAX, S_LOG_SOFTMAX } ScanKind;

/* log(exp(x) + exp(y)) without overflow; the running value y may be nan (it stays nan), and
 * two equal infinities give themselves (inf - inf would be nan). */
static double log_add_exp(double x, double y)
{
    double lo = isnan(y) ? y : x < y ? x : y, hi = isnan(y) ? y : x < y ? y : x;
    if (lo != hi || isfinite(lo))
        return hi + log1p(exp(lo - hi));
    return x;
}

static void scan_d(ScanKind k, double *x, int64_t n)
{
    if (k == S_CUMSUM) {
        for (int64_t i = 1; i < n; i++)
            x[i] += x[i - 1];
        return;
    }
    if (k == S_CUMPROD) {
        for (int64_t i = 1; i < n; i++)
            x[i] *= x[i - 1];
        return;
    }
    if (k == S_LOGCUMSUMEXP) {
        double run = -INFINITY;
        for (int64_t i = 0; i < n; i++)
            x[i] = run = log_add_exp(x[i], run);
        return;
    }
    double m = -INFINITY, s = 0;
    for (int64_t i = 0; i < n; i++)
        if (x[i] > m || isnan(x[i]))
            m = isnan(m) ? m : x[i];
    /* a row of -inf has no finite max: exp(x - m) would be nan; PyTorch gives nan too */
    for (int64_t i = 0; i < n; i++)
        s += exp(x[i] - m);
    if (k == S_SOFTMAX)
        for (int64_t i = 0; i < n; i++)
            x[i] = exp(x[i] - m) / s;
    else
        for (int64_t i = 0; i < n; i++)
            x[i] = x[i] - m - log(s);
}

/* exp(x - max) / sum, or x - max - log(sum). The max and the sum go in eight lanes (strict
 * float arithmetic does not let the compiler reorder a single running sum); softmax keeps
 * each exp in x until the sum is known, log_softmax only sums them. */
TS_VM_VECTORIZE void ts_cpu_softmax_f32(float *x, int64_t n, bool log)
{
    float mx8[8], sum8[8], mx = -INFINITY, sum = 0;
    int64_t i = 0;
    for (int k = 0; k < 8; k++) {
        mx8[k] = -INFINITY;
        sum8[k] = 0;
    }
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            mx8[k] = x[i + k] > mx8[k] ? x[i + k] : mx8[k];
    for (int k = 0; k < 8; k++)
        mx = mx8[k] > mx ? mx8[k] : mx;
    for (; i < n; i++)
        mx = x[i] > mx ? x[i] : mx;
    if (!log)
        for (i = 0; i < n; i++)
            x[i] = ts_expf(x[i] - mx);
    for (i = 0; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            sum8[k] += log ? ts_expf(x[i + k] - mx) : x[i + k];
    for (; i < n; i++)
        sum += log ? ts_expf(x[i] - mx) : x[i];
    for (int k = 0; k < 8; k++)
        sum += sum8[k];
    if (!log) {
        for (i = 0; i < n; i++)
            x[i] /= sum;
        return;
    }
    float lsum = logf(sum);
    for (i = 0; i < n; i++)
        x[i] = (x[i] - mx) - lsum;
}

/* softmax and log_softmax of a float32 or bfloat16 x along the dim of plan ri into o (same
 * dtype and sizes, plan ro): each row widened into buf, computed in float32, and stored
 * (rounded once, for bfloat16). */
static void softmax_rows(const TsCpuRed *ri, const TsCpuRed *ro, bool log, float *buf)
{
    int64_t n = ri->nred;
    int64_t si = ri->nr ? ri->rstride[0] : 0, so = ro->nr ? ro->rstride[0] : 0;
    bool bf16 = ri->dtype == TS_BFLOAT16;
    for (int64_t i = 0; i < ri->nout; i++) {
        const char *src = ts_cpu_red_base(ri, i);
        char *dst = (char *)ts_cpu_red_base(ro, i);
        if (bf16)
            ts_vh_widen(true, buf, 1, (const uint16_t *)src, si / 2, n);
        else
            for (int64_t j = 0; j < n; j++)
                buf[j] = *(const float *)(src + j * si);
        ts_cpu_softmax_f32(buf, n, log);
        if (bf16)
            ts_vh_narrow(true, (uint16_t *)dst, so / 2, buf, 1, n);
        else
            for (int64_t j = 0; j < n; j++)
                *(float *)(dst + j * so) = buf[j];
    }
}

static void scan_i(ScanKind k, int64_t *x, int64_t n)
{
    for (int64_t i = 1; i < n; i++)
        x[i] = k == S_CUMSUM ? (int64_t)((uint64_t)x[i] + (uint64_t)x[i - 1])
                             : (int64_t)((uint64_t)x[i] * (uint64_t)x[i - 1]);
}

/* Runs the scan of x along dim d into a new tensor of dtype (x already has the dtype the scan
 * computes in, or one that converts exactly). */
static TsTensor *scan(ScanKind k, TsTensor *x, int d, int dtype, TsError *err)
{
    uint64_t mask = x->dim ? UINT64_C(1) << d : 0;
    bool soft = k == S_SOFTMAX || k == S_LOG_SOFTMAX;
    bool f32 = soft && (x->dtype == TS_FLOAT32 || x->dtype == TS_BFLOAT16) && x->dtype == dtype;
    int work = f32 ? dtype : ts_cpu_work_dtype(dtype);
    TsTensor *o = ts_cpu_empty(work, x->dim, x->sizes, err);
    if (!o)
        return NULL;
    TsCpuRed ri, ro;
    ts_cpu_red_plan(x, mask, &ri);
    ts_cpu_red_plan(o, mask, &ro);
    bool fd = ts_dtype_is_floating(x->dtype);
    void *buf = ri.nred && ri.nout ? malloc((size_t)ri.nred * sizeof(double)) : NULL;
    if (f32 && buf) {
        softmax_rows(&ri, &ro, k == S_LOG_SOFTMAX, buf);
        free(buf);
        return o;
    }
    if (ri.nred && ri.nout && !buf) {
        ts_tensor_release(o);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (int64_t i = 0; buf && i < ri.nout; i++) {
        const char *src = ts_cpu_red_base(&ri, i);
        char *dst = (char *)ts_cpu_red_base(&ro, i);
        if (fd) {
            ts_cpu_gather_d(&ri, src, 0, ri.nred, buf);
            scan_d(k, buf, ri.nred);
            ts_cpu_scatter_d(&ro, dst, buf);
        } else {
            ts_cpu_gather_i(&ri, src, 0, ri.nred, buf);
            scan_i(k, buf, ri.nred);
            ts_cpu_scatter_i(&ro, dst, buf);
        }
    }
    free(buf);
    return ts_cpu_finish(o, dtype, err);
}

/* X(kernel, op name, kind, arguments on the stack, position of out or 0) */
#define SCAN_KERNELS(X) \
    X(k_cumsum, S_CUMSUM, false) X(k_cumsum_out, S_CUMSUM, true) \
    X(k_cumprod, S_CUMPROD, false) X(k_cumprod_out, S_CUMPROD, true) \
    X(k_logcumsumexp, S_LOGCUMSUMEXP, false) X(k_logcumsumexp_out, S_LOGCUMSUMEXP, true) \
    X(k_softmax, S_SOFTMAX, false) X(k_softmax_out, S_SOFTMAX, true) \
    X(k_log_softmax, S_LOG_SOFTMAX, false) X(k_log_softmax_out, S_LOG_SOFTMAX, true)

/* The result dtype: dtype= when given (the input is cast to it first); else cumsum and
 * cumprod make integers int64, and softmax needs a floating input. */
static int result_dtype(TsCall *c, ScanKind k, const TsTensor *x, int d, int dtype, int *out)
{
    bool soft = k == S_SOFTMAX || k == S_LOG_SOFTMAX;
    int dt = dtype >= 0 ? dtype : x->dtype;
    /* PyTorch 1.13 has no float16 softmax on the cpu */
    if (soft && (!ts_dtype_is_floating(dt) || dt == TS_FLOAT16))
        return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s_kernel_impl\" not implemented for "
                            "'%s'", d == x->dim - 1 || x->dim == 0 ?
                            (k == S_SOFTMAX ? "softmax_lastdim" : "log_softmax_lastdim") :
                            "softmax", ts_dtype_type_name(dt));
    /* logcumsumexp: floating dtypes but float16 */
    if (k == S_LOGCUMSUMEXP && (!ts_dtype_is_floating(dt) || dt == TS_FLOAT16))
        return ts_error_set(c->error, TS_ERR_RUNTIME, "\"logcumsumexp_out_cpu\" not "
                            "implemented for '%s'", ts_dtype_type_name(dt));
    /* nor a float16 cumsum or cumprod (the other dim kernel serves log_softmax too) */
    if (!soft && dt == TS_FLOAT16)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s_out_cpu\" not implemented for "
                            "'Half'", k == S_CUMSUM ? "cumsum" : "cumprod");
    if (!soft && dtype < 0 && ts_dtype_is_integral(dt, true))
        dt = TS_INT64;
    *out = dt;
    return 0;
}

/* (Tensor self, int dim, ScalarType? dtype=None) (logcumsumexp: no dtype), with Tensor(a!)
 * out after them in the out= form (out_form). */
static int run(TsCall *c, ScanKind k, bool out_form)
{
    TsArgs a;
    TsTensor *x = NULL, *o = NULL, *in = NULL, *out = NULL;
    int64_t dim = 0;
    int d = 0, dtype = -1, result = 0;
    bool has_dtype = k != S_LOGCUMSUMEXP;     /* logcumsumexp(self, dim[, out]) has none */
    size_t out_at = has_dtype ? 3 : 2;
    int st = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!st)
        st = ts_args_tensor(&a, 0, &x);
    if (!st && out_form)
        st = ts_args_tensor(&a, out_at, &out);
    if (!st && (ts_cpu_strict_int(&a, 1, &dim) ||
                ts_aten_wrap_dim(dim, x->dim, true, &d, c->error) ||
                (has_dtype && ts_cpu_dtype_arg(&a, 2, &dtype)) ||
                result_dtype(c, k, x, d, dtype, &result)))
        st = c->error->code;
    if (!st) {
        /* the input is computed in the result's dtype, except integers widening to int64,
         * which the int64 buffers compute exactly anyway */
        bool cast = x->dtype != result && !(dtype < 0 && result == TS_INT64);
        in = cast ? ts_cpu_cast(x, result, c->error) : x;
        if (in && !cast)
            ts_tensor_retain(in);
        o = in ? scan(k, in, d, result, c->error) : NULL;
        if (in)
            ts_tensor_release(in);
        st = o ? 0 : (int)c->error->code;
    }
    if (!out)
        return ts_args_return_tensor(&a, st, st ? NULL : o);
    if (!st)
        st = ts_cpu_store_out(out, o, c->error);
    if (o)
        ts_tensor_release(o);
    return ts_args_return_arg(&a, st, out_at);
}

#define DEFINE(FN, KIND, OUT) \
    static int FN(TsCall *c) { return run(c, KIND, OUT); }
SCAN_KERNELS(DEFINE)
#undef DEFINE

static const TsCpuOp ops[] = {
    { "aten::cumsum", "", k_cumsum }, { "aten::cumsum", "out", k_cumsum_out },
    { "aten::cumprod", "", k_cumprod }, { "aten::cumprod", "out", k_cumprod_out },
    { "aten::logcumsumexp", "", k_logcumsumexp },
    { "aten::logcumsumexp", "out", k_logcumsumexp_out },
    { "aten::softmax", "int", k_softmax }, { "aten::softmax", "int_out", k_softmax_out },
    { "aten::log_softmax", "int", k_log_softmax },
    { "aten::log_softmax", "int_out", k_log_softmax_out },
};

const TsCpuTable ts_cpu_scan_table = { ops, sizeof ops / sizeof ops[0] };
