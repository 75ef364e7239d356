/* window.c — the signal windows: hann, hamming, blackman, bartlett and kaiser.
 *
 * Each is computed as PyTorch's factory computes it, step by step in the window's own dtype
 * (float32 arithmetic for a float32 window, so the roundings are PyTorch's): an arange of
 * the length (one more when periodic, the last element then dropped), scaled, through cos,
 * and shifted. kaiser's Bessel function I0 is a power series in double, exact to the last
 * bit a float32 window keeps.
 */
#include <math.h>

#include "create/factory.h"
#include "engine/elementwise.h"

typedef enum WindowKind { W_HAMMING, W_BLACKMAN, W_BARTLETT, W_KAISER } WindowKind;

/* The modified Bessel function of the first kind, order 0: sum of ((x/2)^k / k!)^2. */
static double bessel_i0(double x)
{
    double term = 1, sum = 1, q = x * x / 4;
    for (int k = 1; k < 500 && term > sum * 1e-17; k++) {
        term *= q / ((double)k * (double)k);
        sum += term;
    }
    return sum;
}

/* Element k of a window of n points (n > 1, periodic already added) computed in float. */
static float window_f(WindowKind kind, int64_t k, int64_t n, double alpha, double beta)
{
    float x = (float)k;
    switch (kind) {
    case W_HAMMING:
        return cosf(x * (float)(M_PI * 2. / (double)(n - 1))) * (float)-beta + (float)alpha;
    case W_BLACKMAN: {
        float w = x * (float)(M_PI / (double)(n - 1));
        return cosf(w * 4.0f) * 0.08f - cosf(w * 2.0f) * 0.5f + 0.42f;
    }
    case W_BARTLETT: {
        float w = x * (float)(2. / (double)(n - 1));
        return k < ((n - 1) >> 1) + 1 ? w : w * -1.0f + 2.0f;
    }
    case W_KAISER: {
        double a = (double)(n - 1) / 2, r = ((double)k - a) / a;
        return (float)(bessel_i0(beta * sqrt(1 - r * r)) / bessel_i0(beta));
    }
    }
    return 0;
}

static double window_d(WindowKind kind, int64_t k, int64_t n, double alpha, double beta)
{
    double x = (double)k;
    switch (kind) {
    case W_HAMMING:
        return cos(x * (M_PI * 2. / (double)(n - 1))) * -beta + alpha;
    case W_BLACKMAN: {
        double w = x * (M_PI / (double)(n - 1));
        return cos(w * 4.0) * 0.08 - cos(w * 2.0) * 0.5 + 0.42;
    }
    case W_BARTLETT: {
        double w = x * (2. / (double)(n - 1));
        return k < ((n - 1) >> 1) + 1 ? w : w * -1.0 + 2.0;
    }
    case W_KAISER: {
        double a = (double)(n - 1) / 2, r = ((double)k - a) / a;
        return bessel_i0(beta * sqrt(1 - r * r)) / bessel_i0(beta);
    }
    }
    return 0;
}

static const char *const window_name[] = { "hamming_window", "blackman_window",
                                            "bartlett_window", "kaiser_window" };

/* (int window_length[, bool periodic[, float alpha or beta[, float beta]]], *, dtype, layout,
 * device, pin_memory): nparams is how many of the optional ones this overload has. */
static int window(TsCall *c, WindowKind kind, int nparams, bool hann)
{
    TsArgs a;
    int64_t len;
    bool periodic = true;
    double alpha = hann ? 0.5 : 0.54, beta = kind == W_KAISER ? 12.0 : hann ? 0.5 : 0.46;
    int dtype = TS_FLOAT32;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_int(&a, 0, &len);
    if (!rc && nparams >= 1) rc = ts_args_bool(&a, 1, &periodic);
    if (!rc && nparams >= 2) rc = ts_args_float(&a, 2, kind == W_KAISER ? &beta : &alpha);
    if (!rc && nparams >= 3) rc = ts_args_float(&a, 3, &beta);
    if (!rc) rc = ts_cpu_factory_args(&a, (size_t)nparams + 1, &dtype);
    const char *name = hann ? "hann_window" : window_name[kind];
    if (!rc && len < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s requires non-negative window_length, "
                          "got window_length=%lld", name, (long long)len);
    else if (!rc && !ts_dtype_is_floating(dtype))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s expects floating point dtypes, got: "
                          "TensorOptions(dtype=%s, device=cpu, layout=Strided (default), "
                          "requires_grad=false (default), pinned_memory=false, "
                          "memory_format=(nullopt))", name, ts_cpu_cxx_type(dtype));
    if (rc)
        return ts_args_fail(&a, rc);
    TsTensor *w = ts_cpu_empty(dtype == TS_FLOAT64 ? TS_FLOAT64 : TS_FLOAT32, 1, &len, c->error);
    if (w && len > 0) {
        int64_t n = len == 1 ? 1 : len + (periodic ? 1 : 0);
        for (int64_t k = 0; k < len; k++) {
            if (n == 1)
                ts_cpu_store_double(w->dtype, (char *)ts_tensor_data(w), 1.0);
            else if (w->dtype == TS_FLOAT64)
                ((double *)ts_tensor_data(w))[k] = window_d(kind, k, n, alpha, beta);
            else
                ((float *)ts_tensor_data(w))[k] = window_f(kind, k, n, alpha, beta);
        }
    }
    TsTensor *r = w && w->dtype != dtype ? ts_cpu_cast(w, dtype, c->error) : w;
    if (r != w && w)
        ts_tensor_release(w);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

static int k_hann(TsCall *c) { return window(c, W_HAMMING, 0, true); }
static int k_hann_p(TsCall *c) { return window(c, W_HAMMING, 1, true); }
static int k_hamming(TsCall *c) { return window(c, W_HAMMING, 0, false); }
static int k_hamming_p(TsCall *c) { return window(c, W_HAMMING, 1, false); }
static int k_hamming_pa(TsCall *c) { return window(c, W_HAMMING, 2, false); }
static int k_hamming_pab(TsCall *c) { return window(c, W_HAMMING, 3, false); }
static int k_blackman(TsCall *c) { return window(c, W_BLACKMAN, 0, false); }
static int k_blackman_p(TsCall *c) { return window(c, W_BLACKMAN, 1, false); }
static int k_bartlett(TsCall *c) { return window(c, W_BARTLETT, 0, false); }
static int k_bartlett_p(TsCall *c) { return window(c, W_BARTLETT, 1, false); }
static int k_kaiser(TsCall *c) { return window(c, W_KAISER, 0, false); }
static int k_kaiser_p(TsCall *c) { return window(c, W_KAISER, 1, false); }
static int k_kaiser_b(TsCall *c) { return window(c, W_KAISER, 2, false); }

static const TsCpuOp ops[] = {
    { "aten::hann_window", "", k_hann }, { "aten::hann_window", "periodic", k_hann_p },
    { "aten::hamming_window", "", k_hamming },
    { "aten::hamming_window", "periodic", k_hamming_p },
    { "aten::hamming_window", "periodic_alpha", k_hamming_pa },
    { "aten::hamming_window", "periodic_alpha_beta", k_hamming_pab },
    { "aten::blackman_window", "", k_blackman },
    { "aten::blackman_window", "periodic", k_blackman_p },
    { "aten::bartlett_window", "", k_bartlett },
    { "aten::bartlett_window", "periodic", k_bartlett_p },
    { "aten::kaiser_window", "", k_kaiser }, { "aten::kaiser_window", "periodic", k_kaiser_p },
    { "aten::kaiser_window", "beta", k_kaiser_b },
};

const TsCpuTable ts_cpu_window_table = { ops, sizeof ops / sizeof ops[0] };
