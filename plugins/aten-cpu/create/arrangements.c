/* arrangements.c — tensors arranged from a vector's elements: combinations (the r-element
 * combinations of a vector, with or without replacement, in itertools' order) and the
 * Vandermonde matrices (vander: decreasing powers by default; linalg.vander: increasing,
 * over a batch).
 *
 * The powers are a running product in the result's dtype, which is the input's promoted
 * with int64 (integers and bools compute in int64, wrapping as PyTorch's cumprod does), so
 * each power is rounded as PyTorch's cumprod rounds it.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/elementwise.h"

/* ---- combinations ------------------------------------------------------------------------ */

/* The number of r-combinations of n (with replacement: of n + r - 1), or -1 past int64. */
static int64_t count_combinations(int64_t n, int64_t r, bool repl)
{
    int64_t top = repl ? n + r - 1 : n;
    if (r > top)
        return 0;
    int64_t c = 1;
    for (int64_t i = 1; i <= r; i++) {          /* c = C(top - r + i, i), exact at each step */
        int64_t f = top - r + i;
        if (c > INT64_MAX / f)
            return -1;
        c = c * f / i;
    }
    return c;
}

/* aten::combinations(Tensor self, int r=2, bool with_replacement=False) */
static int k_combinations(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *o = NULL;
    int64_t r;
    bool repl;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_int(&a, 1, &r);
    if (!rc) rc = ts_args_bool(&a, 2, &repl);
    if (!rc && x->dim != 1) {
        char s[256];
        ts_aten_format_sizes(s, sizeof s, x->dim, x->sizes);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expect a 1D vector, but got shape %s", s);
    }
    if (!rc && r < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expect a non-negative number, but got %lld",
                          (long long)r);
    int64_t n = rc ? 0 : x->sizes[0];
    int64_t count = rc || r == 0 ? 0 : count_combinations(n, r, repl);
    if (!rc && (count < 0 || (r > 0 && count > INT64_MAX / r / 16)))   /* PyTorch's size check */
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "numel: integer multiplication overflow");
    if (!rc) {
        int64_t sizes[2] = { count, r };
        o = ts_cpu_empty(x->dtype, r == 0 ? 1 : 2, sizes, c->error);   /* r 0: shape [0] */
        if (!o)
            rc = c->error->code;
    }
    TsTensor *xc = !rc && count ? ts_cpu_cast(x, x->dtype, c->error) : NULL;
    if (!rc && count && !xc)
        rc = c->error->code;
    int64_t *idx = NULL;
    if (!rc && count && !(idx = malloc((size_t)r * sizeof *idx)))
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "out of memory");
    if (!rc && count) {
        size_t es = ts_dtype_size(x->dtype);
        const char *src = ts_tensor_data(xc);
        char *dst = ts_tensor_data(o);
        for (int64_t j = 0; j < r; j++)
            idx[j] = repl ? 0 : j;
        for (int64_t k = 0; k < count; k++) {
            for (int64_t j = 0; j < r; j++)
                memcpy(dst + (size_t)(k * r + j) * es, src + (size_t)idx[j] * es, es);
            /* the next index tuple, increasing (non-decreasing with replacement) */
            int64_t j = r - 1;
            while (j >= 0 && idx[j] == (repl ? n - 1 : n - r + j))
                j--;
            if (j < 0)
                break;
            idx[j]++;
            for (int64_t m = j + 1; m < r; m++)
                idx[m] = repl ? idx[j] : idx[m - 1] + 1;
        }
    }
    free(idx);
    if (xc)
        ts_tensor_release(xc);
    if (rc && o) {
        ts_tensor_release(o);
        o = NULL;
    }
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- vander, linalg_vander -------------------------------------------------------------- */

/* The powers 0..N-1 of each of the rows x-values of xc (contiguous, dtype dt) into o (rows x
 * N, dtype dt), increasing, or decreasing when reversed. */
static void powers(const TsTensor *xc, TsTensor *o, int64_t rows, int64_t N, bool reversed)
{
    for (int64_t i = 0; i < rows; i++) {
        int64_t base = i * N;
#define POWERS(T)                                                                        \
        {                                                                                \
            T v = ((const T *)ts_tensor_data(xc))[i], p = 1;                             \
            T *out = (T *)ts_tensor_data(o);                                             \
            for (int64_t k = 0; k < N; k++) {                                            \
                out[base + (reversed ? N - 1 - k : k)] = p;                              \
                p = (T)(p * v);                                                          \
            }                                                                            \
        }
        switch (o->dtype) {
        case TS_FLOAT32: POWERS(float) break;
        case TS_FLOAT64: POWERS(double) break;
        default: {             /* int64: wraps as PyTorch's integer product does */
            int64_t v = ((const int64_t *)ts_tensor_data(xc))[i];
            uint64_t p = 1;
            int64_t *out = (int64_t *)ts_tensor_data(o);
            for (int64_t k = 0; k < N; k++) {
                out[base + (reversed ? N - 1 - k : k)] = (int64_t)p;
                p *= (uint64_t)v;
            }
        }
        }
#undef POWERS
    }
}

/* The Vandermonde matrix of each vector of x (its last dim), N powers each. */
static TsTensor *vandermonde(TsCall *c, TsTensor *x, int64_t N, bool reversed)
{
    int dt = ts_dtype_is_floating(x->dtype) ? x->dtype : TS_INT64;
    bool half = dt == TS_FLOAT16 || dt == TS_BFLOAT16;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (x->dim >= TS_TENSOR_MAX_DIMS) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "vander: too many dimensions");
        return NULL;
    }
    memcpy(sizes, x->sizes, (size_t)x->dim * sizeof *sizes);
    sizes[x->dim] = N;
    /* half types compute in float32 and round each power once */
    TsTensor *xc = ts_cpu_cast(x, half ? TS_FLOAT32 : dt, c->error);
    TsTensor *o = xc ? ts_cpu_empty(half ? TS_FLOAT32 : dt, x->dim + 1, sizes, c->error) : NULL;
    if (o)
        powers(xc, o, ts_tensor_numel(x), N, reversed);
    if (xc)
        ts_tensor_release(xc);
    if (o && half) {
        TsTensor *h = ts_cpu_cast(o, dt, c->error);
        ts_tensor_release(o);
        o = h;
    }
    return o;
}

/* aten::vander(Tensor x, int? N=None, bool increasing=False) */
static int k_vander(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *o = NULL;
    int64_t N = 0;
    bool has_n, increasing;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_opt_int(&a, 1, &N, &has_n);
    if (!rc) rc = ts_args_bool(&a, 2, &increasing);
    if (!rc && x->dim != 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "x must be a one-dimensional tensor.");
    if (!rc && !has_n)
        N = x->sizes[0];
    if (!rc && N < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "N must be non-negative.");
    if (!rc && !(o = vandermonde(c, x, N, !increasing)))
        rc = c->error->code;
    return ts_args_return_tensor(&a, rc, o);
}

/* aten::linalg_vander(Tensor x, *, int? N=None): increasing powers over x's last dim */
static int k_linalg_vander(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *o = NULL;
    int64_t N = 0;
    bool has_n;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_opt_int(&a, 1, &N, &has_n);
    if (!rc && !has_n)
        N = x->dim ? x->sizes[x->dim - 1] : 1;
    if (!rc && N <= 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "N must be greater than 1.");
    if (!rc && !(o = vandermonde(c, x, N, false)))
        rc = c->error->code;
    return ts_args_return_tensor(&a, rc, o);
}

static const TsCpuOp ops[] = {
    { "aten::combinations", "", k_combinations },
    { "aten::vander", "", k_vander },
    { "aten::linalg_vander", "", k_linalg_vander },
};

const TsCpuTable ts_cpu_arrangements_table = { ops, sizeof ops / sizeof ops[0] };
