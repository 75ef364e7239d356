/* random.c — aten-cpu's part of the random ops: the random hooks aten-common's shared ones
 * fill through (ts_cpu_random_draw computes the elements on the host with
 * ts_aten_draw_value, as aten-cuda's kernels do on the GPU), randperm, and dropout's mask
 * (nn.c, rnn_layers.c).
 *
 * Everything draws from the process's generator (tscript/random.h, in the core, so that
 * aten-cuda draws from the same stream), reserving an op's draws at once. The kernels that
 * take a tensor (bernoulli_, bernoulli, uniform_, normal_) and manual_seed are aten-common's
 * (random.c there), registered for "cpu" by cpu.c; the factories fill with
 * ts_aten_random_fill (factory.c, create.c). A Generator argument other than None is refused
 * by the frontend (no Generator values exist).
 */
#include <math.h>
#include <stdlib.h>

#include "nn/nn.h"
#include "create/factory.h"
#include "create/random.h"

static double round_to(int dtype, double v);

/* As PyTorch's dropout: a noise of bernoulli_(1 - p) draws divided by 1 - p in the dtype,
 * multiplied in (a dropped element is x * 0: -0 or NaN stay). */
void ts_cpu_dropout_data(int dtype, void *data, int64_t n, double p)
{
    ts_cpu_noise_dropout(dtype, data, n, 1, p, false);
}

void ts_cpu_noise_dropout(int dtype, void *data, int64_t n, int64_t group, double p,
                          bool alpha)
{
    /* alpha dropout's affine correction keeps SELU's mean and variance */
    const double alpha_selu = 1.7580993408473766;
    double a = 1 / sqrt((alpha_selu * alpha_selu * p + 1) * (1 - p));
    double keep = alpha ? round_to(dtype, a) : round_to(dtype, 1 / round_to(dtype, 1 - p));
    double slope = round_to(dtype, alpha_selu * a), shift = round_to(dtype, alpha_selu * a * p);
    ts_random_lock();
    for (int64_t g = 0; g * group < n; g++) {
        bool kept = ts_random_mt_double() < 1 - p;
        double b = round_to(dtype, (kept ? 0 : -1) * slope + shift);
        for (int64_t i = g * group; i < n && i < (g + 1) * group; i++) {
            double x = round_to(dtype, ts_nn_get(dtype, data, i) * (kept ? keep : 0));
            ts_nn_set(dtype, data, i, alpha ? x + b : x);
        }
    }
    ts_random_unlock();
}

/* ---- the random hooks (TsAtenBackend) --------------------------------------------------- */

TsTensor *ts_cpu_random_empty(TsDevice device, int dtype, int dim, const int64_t *sizes,
                              TsError *err)
{
    (void)device;
    return ts_cpu_empty(dtype, dim, sizes, err);
}

int ts_cpu_random_copy_into(TsTensor *dst, const TsTensor *src, TsError *err)
{
    (void)err;
    ts_cpu_copy_into(dst, src);
    return 0;
}

/* ---- PyTorch's cpu draws ------------------------------------------------------------- */

/* v rounded to dtype's precision. */
static double round_to(int dtype, double v)
{
    char elem[16];
    ts_cpu_store_double(dtype, elem, v);
    return ts_cpu_load_double(dtype, elem);
}

/* PyTorch's uniform_real_distribution<scalar_t>(0, 1): as many low bits of a draw as dtype
 * has mantissa digits (53 of 64 for double, 24 of 32 for float, 11 for half, 8 for
 * bfloat16), scaled into [0, 1). */
static double unit(int dtype)
{
    switch (dtype) {
    case TS_FLOAT64: return ts_random_mt_double();
    case TS_FLOAT16: return (double)(ts_random_mt32() & 0x7ff) / 2048;
    case TS_BFLOAT16: return (double)(ts_random_mt32() & 0xff) / 256;
    default: return (double)(ts_random_mt32() & 0xffffff) / 16777216;
    }
}

/* Uniform in [from, to) as uniform_ computes it: in double for double, else in float with
 * the bounds first rounded to dtype. */
static double uniform(int dtype, double from, double to)
{
    if (dtype == TS_FLOAT64)
        return unit(dtype) * (to - from) + from;
    float f = (float)round_to(dtype, from), t = (float)round_to(dtype, to);
    float x = (float)unit(dtype);
    return x * (t - f) + f;
}

/* Box-Muller over v[0..16): pairs (v[j], v[j + 8]) of uniforms become two normals, in the
 * precision PyTorch's normal_fill computes them (its float kernel multiplies by std and adds
 * the mean in one fused step). */
static void normal_16(int dtype, double *v, double mean, double std)
{
    for (int j = 0; j < 8; j++) {
        if (dtype == TS_FLOAT64) {
            double radius = sqrt(-2 * log(1 - v[j]));
            double theta = 2.0f * 3.14159265358979323846 * v[j + 8];
            v[j] = radius * cos(theta) * std + mean;
            v[j + 8] = radius * sin(theta) * std + mean;
        } else if (dtype == TS_FLOAT32) {
            float radius = sqrtf(-2.0f * logf(1.0f - (float)v[j]));
            float theta = 6.2831855f * (float)v[j + 8];
            v[j] = fmaf(radius * cosf(theta), (float)std, (float)mean);
            v[j + 8] = fmaf(radius * sinf(theta), (float)std, (float)mean);
        } else {
            /* half and bfloat16 arithmetic: each operation in float, rounded to the dtype
             * (bfloat16's cos and sin too; half's return a float) */
            bool bf = dtype == TS_BFLOAT16;
            double u1 = round_to(dtype, 1.0f - (float)v[j]), l = logf((float)u1);
            double r2 = bf ? round_to(dtype, -2.0f * (float)round_to(dtype, l)) : -2.0f * (float)l;
            double radius = round_to(dtype, sqrtf((float)r2));
            double theta = round_to(dtype, 6.283185307179586 * v[j + 8]);
            float s = (float)round_to(dtype, std), m = (float)round_to(dtype, mean);
            for (int k = 0; k < 2; k++) {
                float trig = k ? sinf((float)theta) : cosf((float)theta);
                double x = bf ? round_to(dtype, (float)radius * (float)round_to(dtype, trig))
                              : (float)radius * trig;
                x = bf ? round_to(dtype, (float)x * s) : (float)x * s;
                v[j + 8 * k] = round_to(dtype, (float)x + m);
            }
        }
    }
}

/* normal_ of n elements into v: PyTorch's normal_fill for 16 contiguous elements or more
 * (all uniforms drawn first; a tail short of 16 redoes the last 16 from fresh uniforms),
 * else (fewer, or strided) one double normal each from the generator's pairs. */
static void normal_values(int dtype, double *v, int64_t n, double mean, double std,
                          bool strided)
{
    if (n < 16 || strided) {
        for (int64_t i = 0; i < n; i++)
            v[i] = ts_random_mt_normal() * std + mean;
        return;
    }
    for (int64_t i = 0; i < n; i++)
        v[i] = unit(dtype);
    for (int64_t i = 0; i + 16 <= n; i += 16)
        normal_16(dtype, v + i, mean, std);
    if (n % 16) {
        for (int64_t i = n - 16; i < n; i++)
            v[i] = unit(dtype);
        normal_16(dtype, v + n - 16, mean, std);
    }
}

/* An integer in [lo, hi) ([lo, hi] with to_max) as random_from_to draws it: 32 bits modulo
 * the range when it fits in them, else 64 (all 64 for the whole int64 range). */
static int64_t int_in(const TsAtenDraw *d)
{
    uint64_t range = (uint64_t)d->hi - (uint64_t)d->lo + (d->to_max ? 1 : 0);
    uint64_t r = range == 0 ? ts_random_mt64()
               : range >= ((uint64_t)1 << 32) ? ts_random_mt64() % range
                                              : ts_random_mt32() % range;
    return (int64_t)((uint64_t)d->lo + r);
}

/* Element i of a fill with d (not a normal) in PyTorch's cpu order and transforms. */
static double draw_one(int dtype, const TsAtenDraw *d, const double *p, int64_t i)
{
    switch (d->kind) {
    case TS_ATEN_DRAW_UNIFORM:
        return uniform(dtype, d->a, d->b);
    case TS_ATEN_DRAW_INT:
        return (double)int_in(d);
    case TS_ATEN_DRAW_BERNOULLI:
        if (!p)
            return ts_random_mt_double() < d->a;
        if (d->p_dtype == TS_FLOAT64)
            return ts_random_mt_double() < p[i];
        return (float)unit(TS_FLOAT32) < (float)p[i];
    case TS_ATEN_DRAW_EXPONENTIAL:
        return -1.0 / d->a * log1p(-ts_random_mt_double());
    case TS_ATEN_DRAW_CAUCHY:
        return d->a + d->b * tan(3.14159265358979323846 * (ts_random_mt_double() - 0.5));
    case TS_ATEN_DRAW_LOG_NORMAL:
        return exp(ts_random_mt_normal() * d->b + d->a);
    case TS_ATEN_DRAW_GEOMETRIC:
        return ceil(log(ts_random_mt_double()) / log1p(-d->a));
    default:
        return ts_random_mt_normal() * d->b + d->a;
    }
}

/* The cpu's fills draw from PyTorch's generator, not from the block at base (which the GPU
 * backends use), so that a seeded program prints PyTorch's numbers. t is contiguous. */
int ts_cpu_random_draw(TsTensor *t, const TsAtenDraw *d, uint64_t base, const double *p,
                       TsError *err)
{
    (void)base;
    int64_t n = ts_tensor_numel(t);
    size_t es = ts_dtype_size(t->dtype);
    char *out = ts_tensor_data(t);
    double *v = NULL;
    if (d->kind == TS_ATEN_DRAW_NORMAL && !(v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v)))
        return ts_error_set(err, TS_ERR_NOMEM, "normal_: out of memory");
    ts_random_lock();
    if (v)
        normal_values(t->dtype, v, n, d->a, d->b, d->strided);
    for (int64_t i = 0; i < n; i++) {
        char *o = out + i * (int64_t)es;
        if (v)
            ts_cpu_store_double(t->dtype, o, v[i]);
        else if (d->kind == TS_ATEN_DRAW_INT && t->dtype == TS_INT64)
            *(int64_t *)o = int_in(d);     /* exact beyond 2^53 */
        else
            ts_cpu_store_double(t->dtype, o, draw_one(t->dtype, d, p, i));
    }
    ts_random_unlock();
    free(v);
    return 0;
}

int ts_cpu_random_outside_unit(const TsTensor *q, bool *bad, TsError *err)
{
    (void)err;
    const double *d = ts_tensor_data(q);
    *bad = false;
    for (int64_t i = 0; i < ts_tensor_numel(q) && !*bad; i++)
        *bad = !(d[i] >= 0 && d[i] <= 1);
    return 0;
}

/* ---- randperm ------------------------------------------------------------------------- */

/* aten::randperm(int n, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None,
 *                bool? pin_memory=None) -> Tensor */
static int k_randperm(TsCall *c)
{
    TsArgs a;
    int dtype = TS_INT64;
    TsTensor *o = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    int64_t n = rc ? 0 : ts_nn_int(a.v[0]);
    if (!rc)
        rc = ts_cpu_factory_args(&a, 1, &dtype);
    if (!rc)
        rc = ts_aten_check_randperm(n, dtype, c->error);
    int64_t *perm = !rc ? malloc((size_t)(n > 0 ? n : 1) * sizeof *perm) : NULL;
    if (!rc && !perm)
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "randperm: out of memory");
    if (!rc && (o = ts_cpu_empty(dtype, 1, &n, c->error))) {
        ts_aten_randperm(n, perm);
        size_t es = ts_dtype_size(dtype);
        for (int64_t i = 0; i < n; i++)
            ts_cpu_store_double(dtype, (char *)ts_tensor_data(o) + i * (int64_t)es,
                                (double)perm[i]);
    }
    free(perm);
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- normal with tensor arguments ----------------------------------------------------- */

/* t broadcast to sizes as a new contiguous float64 tensor; NULL with err set. */
static TsTensor *as_doubles(const TsTensor *t, int dim, const int64_t *sizes, TsError *err)
{
    TsTensor *d = ts_cpu_empty(TS_FLOAT64, dim, sizes, err);
    if (d)
        ts_cpu_copy_into(d, t);
    return d;
}

/* normal.Tensor_float(Tensor mean, float std=1.), normal.float_Tensor(float mean, Tensor std)
 * and normal.Tensor_Tensor(Tensor mean, Tensor std): as PyTorch composes them, a standard
 * normal tensor of the tensor arguments' broadcast shape and the dtype of mean (of std when
 * mean is a float), times std plus mean, with its checks of std first. */
static int normal_tensors(TsCall *c, bool mean_tensor, bool std_tensor)
{
    TsArgs a;
    TsTensor *in[2] = { NULL, NULL }, *o = NULL, *m = NULL, *s = NULL;
    int dim = 0;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    int n = 0;
    if (!rc && mean_tensor)
        rc = ts_args_tensor(&a, 0, &in[n++]);
    if (!rc && std_tensor)
        rc = ts_args_tensor(&a, 1, &in[n++]);
    if (!rc && !std_tensor && !(ts_nn_double(a.v[1]) >= 0))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g",
                          ts_nn_double(a.v[1]));
    if (!rc)
        rc = ts_aten_broadcast_shape(n, in, &dim, sizes, c->error);
    if (!rc && !(o = ts_cpu_empty(in[0]->dtype, dim, sizes, c->error)))
        rc = c->error->code;
    if (!rc && mean_tensor && !(m = as_doubles(in[0], dim, sizes, c->error)))
        rc = c->error->code;
    if (!rc && std_tensor && !(s = as_doubles(in[n - 1], dim, sizes, c->error)))
        rc = c->error->code;
    const double *sd = s ? ts_tensor_data(s) : NULL, *md = m ? ts_tensor_data(m) : NULL;
    int64_t numel = ts_tensor_numel(o ? o : in[0]);
    for (int64_t i = 0; !rc && sd && i < numel; i++)
        if (!(sd[i] >= 0))
            rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                              "normal expects all elements of std >= 0.0");
    if (!rc) {
        TsAtenDraw d = ts_aten_draw(TS_ATEN_DRAW_NORMAL, NULL, 0);
        rc = ts_aten_random_fill(o, &d, c->error);
    }
    if (!rc) {
        double mean = md ? 0 : ts_nn_double(a.v[0]), std = sd ? 0 : ts_nn_double(a.v[1]);
        size_t es = ts_dtype_size(o->dtype);
        char *od = ts_tensor_data(o);
        for (int64_t i = 0; i < numel; i++) {
            double z = ts_cpu_load_double(o->dtype, od + i * (int64_t)es);
            ts_cpu_store_double(o->dtype, od + i * (int64_t)es,
                                z * (sd ? sd[i] : std) + (md ? md[i] : mean));
        }
    }
    if (m)
        ts_tensor_release(m);
    if (s)
        ts_tensor_release(s);
    if (rc && o) {
        ts_tensor_release(o);
        o = NULL;
    }
    return ts_args_return_tensor(&a, rc, o);
}

static int k_normal_tensor_float(TsCall *c) { return normal_tensors(c, true, false); }
static int k_normal_float_tensor(TsCall *c) { return normal_tensors(c, false, true); }
static int k_normal_tensor_tensor(TsCall *c) { return normal_tensors(c, true, true); }

/* ---- multinomial ---------------------------------------------------------------------- */

/* PyTorch's checks of multinomial's arguments, in its order. */
static int check_multinomial(const TsTensor *p, int64_t n_sample, bool replacement, TsError *err)
{
    if (p->dim < 1 || p->dim > 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "prob_dist must be 1 or 2 dim");
    if (!ts_dtype_is_floating(p->dtype))
        return ts_error_set(err, TS_ERR_RUNTIME, "multinomial only supports floating-point "
                            "dtypes for input, got: %s", ts_dtype_type_name(p->dtype));
    if (n_sample <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "cannot sample n_sample <= 0 samples");
    int64_t n_cat = p->sizes[p->dim - 1];
    if (!replacement && n_sample > n_cat)
        return ts_error_set(err, TS_ERR_RUNTIME, "cannot sample n_sample > prob_dist.size(-1) "
                            "samples without replacement");
    if (n_cat > ((int64_t)1 << 24))
        return ts_error_set(err, TS_ERR_RUNTIME, "number of categories cannot exceed 2^24");
    return 0;
}

/* A category and its key: the sort of sample_distinct. */
typedef struct Keyed {
    double key;
    int64_t index;
} Keyed;

/* Larger keys first; equal keys by index. */
static int by_key(const void *x, const void *y)
{
    const Keyed *a = x, *b = y;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* Without replacement: PyTorch's Gumbel trick, the n_sample largest of
 * p / q with q exponential (1) per category (all rows' drawn first, in dtype), largest
 * first. */
static int sample_distinct(int dtype, const double *p, int64_t rows, int64_t n_cat,
                           int64_t n_sample, int64_t *out, TsError *err)
{
    for (int64_t i = 0; i < rows * n_cat; i++)
        if (!(p[i] >= 0 && p[i] < INFINITY))
            return ts_error_set(err, TS_ERR_RUNTIME, "probability tensor contains either `inf`, "
                                "`nan` or element < 0");
    for (int64_t r = 0; r < rows; r++) {
        double sum = 0;
        for (int64_t j = 0; j < n_cat; j++)
            sum += p[r * n_cat + j];
        if (sum == 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "invalid multinomial distribution (sum of "
                                "probabilities <= 0)");
    }
    Keyed *k = malloc((size_t)(n_cat > 0 ? n_cat : 1) * sizeof *k);
    if (!k)
        return ts_error_set(err, TS_ERR_NOMEM, "multinomial: out of memory");
    ts_random_lock();
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t j = 0; j < n_cat; j++) {
            double q = round_to(dtype, -log1p(-ts_random_mt_double()));
            k[j].key = round_to(dtype, p[r * n_cat + j] / q);
            k[j].index = j;
        }
        qsort(k, (size_t)n_cat, sizeof *k, by_key);
        for (int64_t s = 0; s < n_sample; s++)
            out[r * n_sample + s] = k[s].index;
    }
    ts_random_unlock();
    free(k);
    return 0;
}

/* With replacement: each row's cumulative distribution (summed and normalized in dtype),
 * searched for a double uniform draw per sample (the first category whose cumulative
 * probability reaches it). */
static int sample_replaced(int dtype, const double *p, int64_t rows, int64_t n_cat,
                           int64_t n_sample, int64_t *out, TsError *err)
{
    double *cum = malloc((size_t)(n_cat > 0 ? n_cat : 1) * sizeof *cum);
    if (!cum)
        return ts_error_set(err, TS_ERR_NOMEM, "multinomial: out of memory");
    int rc = 0;
    ts_random_lock();
    for (int64_t r = 0; r < rows && !rc; r++) {
        double sum = 0;
        for (int64_t j = 0; j < n_cat && !rc; j++) {
            double v = p[r * n_cat + j];
            if (!(v >= 0))
                rc = ts_error_set(err, TS_ERR_RUNTIME, "invalid multinomial distribution "
                                  "(encountering probability entry < 0)");
            else if (!isfinite(v))
                rc = ts_error_set(err, TS_ERR_RUNTIME, "invalid multinomial distribution "
                                  "(encountering probability entry = infinity or NaN)");
            sum = round_to(dtype, sum + v);
            cum[j] = sum;
        }
        if (!rc && !(sum > 0))
            rc = ts_error_set(err, TS_ERR_RUNTIME, "invalid multinomial distribution (sum of "
                              "probabilities <= 0)");
        if (rc)
            break;
        for (int64_t j = 0; j < n_cat; j++)
            cum[j] = round_to(dtype, cum[j] / sum);
        cum[n_cat - 1] = 1;
        for (int64_t k = 0; k < n_sample; k++) {
            double u = ts_random_mt_double();
            int64_t lo = 0, hi = n_cat;
            while (hi > lo) {
                int64_t mid = lo + (hi - lo) / 2;
                if (cum[mid] < u)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            out[r * n_sample + k] = lo;
        }
    }
    ts_random_unlock();
    free(cum);
    return rc;
}

/* multinomial(Tensor self, int num_samples, bool replacement=False, *,
 *             Generator? generator=None) -> Tensor: int64 category indices, one row of
 * num_samples per row of self's probabilities (which need not sum to 1). */
static int k_multinomial(TsCall *c)
{
    TsArgs a;
    TsTensor *p, *q = NULL, *o = NULL;
    int64_t n_sample = 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &p);
    if (!rc)
        rc = ts_args_int(&a, 1, &n_sample);
    bool replacement = !rc && a.v[2].tag == TS_TAG_BOOL && a.v[2].u.b;
    if (!rc)
        rc = check_multinomial(p, n_sample, replacement, c->error);
    int64_t n_cat = rc ? 0 : p->sizes[p->dim - 1], rows = rc || p->dim == 1 ? 1 : p->sizes[0];
    if (!rc && replacement && p->dtype == TS_FLOAT16)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "multinomial is not implemented for half "
                          "on CPU");
    int64_t sizes[2] = { rows, n_sample };
    if (!rc && !(o = ts_cpu_empty(TS_INT64, p->dim, p->dim == 1 ? sizes + 1 : sizes, c->error)))
        rc = c->error->code;
    if (!rc && !(q = ts_cpu_cast(p, TS_FLOAT64, c->error)))
        rc = c->error->code;
    if (!rc && ts_tensor_numel(o) > 0) {
        if (!replacement)
            rc = sample_distinct(p->dtype, ts_tensor_data(q), rows, n_cat, n_sample, ts_tensor_data(o),
                                 c->error);
        else
            rc = sample_replaced(p->dtype, ts_tensor_data(q), rows, n_cat, n_sample, ts_tensor_data(o),
                                 c->error);
    }
    if (q)
        ts_tensor_release(q);
    if (rc && o) {
        ts_tensor_release(o);
        o = NULL;
    }
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- poisson, binomial, gamma, dirichlet ------------------------------------------------ */

/* x in the precision of the samplers' scalar_t: float unless dtype is double. */
static double in_dtype(int dtype, double x)
{
    return dtype == TS_FLOAT64 ? x : (double)(float)x;
}

/* PyTorch's sample_poisson: products of uniforms below rate 10, else Hoermann's transformed
 * rejection (PTRS). */
static double sample_poisson(double lambda)
{
    if (lambda >= 10) {
        double slam = sqrt(lambda), loglam = log(lambda);
        double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
        double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
        for (;;) {
            double u = ts_random_mt_double() - 0.5, v = ts_random_mt_double();
            double us = 0.5 - fabs(u);
            int64_t k = (int64_t)floor((2 * a / us + b) * u + lambda + 0.43);
            if (us >= 0.07 && v <= vr)
                return (double)k;
            if (k < 0 || (us < 0.013 && v > us))
                continue;
            if (log(v) + log(invalpha) - log(a / (us * us) + b) <=
                -lambda + (double)k * loglam - lgamma((double)k + 1))
                return (double)k;
        }
    }
    if (lambda == 0)
        return 0;
    double enlam = exp(-lambda), prod = 1;
    int64_t x = 0;
    for (;;) {
        prod *= ts_random_mt_double();
        if (prod <= enlam)
            return (double)x;
        x++;
    }
}

/* Stirling's series' tail of log(k!), tabulated below 10 (BTRS). */
static double stirling_tail(double k)
{
    static const double small[10] = {
        0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
        0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
        0.00925546218271273, 0.00833056343336287 };
    if (k <= 9)
        return small[(int)k];
    double kp1sq = (k + 1) * (k + 1);
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

/* Binomial by inversion: geometric gaps summed until they pass count. */
static double binomial_inversion(int dtype, double count, double prob)
{
    double geom_sum = 0, num = 0, logprob = log1p(-prob);
    for (;;) {
        geom_sum += ceil(log(ts_random_mt_double()) / logprob);
        if (geom_sum > count)
            return num;
        num++;
    }
    (void)dtype;
}

/* Binomial by Hoermann's transformed rejection (BTRS), count * prob >= 10. */
static double binomial_btrs(int dtype, double count, double prob)
{
    double stddev = in_dtype(dtype, sqrt(in_dtype(dtype, in_dtype(dtype, count * prob) *
                                                         in_dtype(dtype, 1 - prob))));
    double b = 1.15 + 2.53 * stddev, a = -0.0873 + 0.0248 * b + 0.01 * prob;
    double c = in_dtype(dtype, count * prob) + 0.5, v_r = 0.92 - 4.2 / b;
    double r = in_dtype(dtype, prob / in_dtype(dtype, 1 - prob));
    double alpha = (2.83 + 5.1 / b) * stddev;
    double m = floor(in_dtype(dtype, in_dtype(dtype, count + 1) * prob));
    for (;;) {
        double u = ts_random_mt_double() - 0.5, v = ts_random_mt_double();
        double us = 0.5 - fabs(u);
        double k = in_dtype(dtype, floor((2 * a / us + b) * u + c));
        if (k < 0 || k > count)
            continue;
        if (us >= 0.07 && v <= v_r)
            return k;
        v = log(v * alpha / (a / (us * us) + b));
        double upper = (m + 0.5) * log((m + 1) / (r * (count - m + 1))) +
                       (count + 1) * log((count - m + 1) / (count - k + 1)) +
                       (k + 0.5) * log(r * (count - k + 1) / (k + 1)) +
                       stirling_tail(m) + stirling_tail(count - m) - stirling_tail(k) -
                       stirling_tail(count - k);
        if (v <= upper)
            return k;
    }
}

/* PyTorch's sample_binomial over count and prob in dtype's precision. */
static double sample_binomial(int dtype, double count, double prob)
{
    if (count <= 0 || prob <= 0)
        return 0;
    if (prob >= 1)
        return count;
    if (prob <= 0.5)
        return in_dtype(dtype, count * prob) >= 10 ? binomial_btrs(dtype, count, prob)
                                                   : binomial_inversion(dtype, count, prob);
    if (prob > 0.5) {
        double q = in_dtype(dtype, 1 - prob);
        return count - (in_dtype(dtype, count * q) >= 10 ? binomial_btrs(dtype, count, q)
                                                         : binomial_inversion(dtype, count, q));
    }
    return NAN;
}

/* PyTorch's sample_gamma: Marsaglia and Tsang's rejection, alpha below 1 boosted by one
 * with a power of a uniform; alpha held in dtype (its float constants as PyTorch's). */
static double sample_gamma(int dtype, double alpha)
{
    double scale = 1;
    if (alpha < 1) {
        if (alpha == 0)
            return 0;
        scale *= pow(1 - ts_random_mt_double(), 1.0f / alpha);
        alpha = in_dtype(dtype, alpha + 1.0f);
    }
    double d = in_dtype(dtype, alpha - 1.0f / 3.0f), c = 1.0f / sqrt(9.0f * d);
    for (;;) {
        double x, y;
        do {
            x = ts_random_mt_normal();
            y = 1.0f + c * x;
        } while (y <= 0);
        double v = y * y * y, u = 1 - ts_random_mt_double(), xx = x * x;
        if (u < 1.0f - 0.0331f * xx * xx)
            return scale * d * v;
        if (log(u) < 0.5f * xx + d * (1.0f - v + log(v)))
            return scale * d * v;
    }
}

/* The smallest positive normal value of a floating dtype (the samplers' floor). */
static double tiny(int dtype)
{
    switch (dtype) {
    case TS_FLOAT64: return 2.2250738585072014e-308;
    case TS_FLOAT16: return 6.103515625e-05;
    default: return 1.1754943508222875e-38;
    }
}

typedef enum Sampler { S_POISSON, S_GAMMA, S_DIRICHLET, S_BINOMIAL } Sampler;

/* poisson(Tensor self, Generator? generator=None), _standard_gamma(Tensor self, ...),
 * _sample_dirichlet(Tensor self, ...) and binomial(Tensor count, Tensor prob, ...): a new
 * tensor of self's shape and dtype, one sample per element in order. */
static int sampler_call(TsCall *c, Sampler kind)
{
    TsArgs a;
    TsTensor *t, *prob = NULL, *x = NULL, *px = NULL, *o = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc && kind == S_BINOMIAL)
        rc = ts_args_tensor(&a, 1, &prob);
    static const char *const names[] = { "poisson_cpu", "gamma_cpu", "dirichlet", "binomial_cpu" };
    if (!rc && (!ts_dtype_is_floating(t->dtype) ||
                (kind == S_DIRICHLET && t->dtype != TS_FLOAT32 && t->dtype != TS_FLOAT64)))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                          names[kind], ts_dtype_type_name(t->dtype));
    if (!rc && prob && !ts_aten_same_shape(prob, t->dim, t->sizes))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "binomial: count and prob must have the "
                          "same shape");
    if (!rc && !(x = ts_cpu_cast(t, TS_FLOAT64, c->error)))
        rc = c->error->code;
    if (!rc && prob && !(px = ts_cpu_cast(prob, TS_FLOAT64, c->error)))
        rc = c->error->code;
    if (!rc && !(o = ts_cpu_empty(t->dtype, t->dim, t->sizes, c->error)))
        rc = c->error->code;
    int64_t n = rc ? 0 : ts_tensor_numel(t);
    const double *xv = x ? ts_tensor_data(x) : NULL, *pv = px ? ts_tensor_data(px) : NULL;
    double *v = NULL;
    if (!rc && !(v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v)))
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "out of memory");
    for (int64_t i = 0; !rc && kind == S_POISSON && i < n; i++)
        if (!(xv[i] >= 0))
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "invalid Poisson rate, expected rate "
                              "to be non-negative");
    if (!rc) {
        int dt = t->dtype;
        ts_random_lock();
        for (int64_t i = 0; i < n; i++) {
            switch (kind) {
            case S_POISSON: v[i] = sample_poisson(xv[i]); break;
            case S_BINOMIAL: v[i] = sample_binomial(dt, xv[i], pv[i]); break;
            case S_GAMMA: v[i] = fmax(tiny(dt), round_to(dt, sample_gamma(dt, xv[i]))); break;
            case S_DIRICHLET: v[i] = fmax(tiny(TS_FLOAT64), sample_gamma(TS_FLOAT64, xv[i]));
            }
        }
        ts_random_unlock();
        /* dirichlet: each gamma over its row's sum (the last dim), kept inside (0, 1) */
        int64_t row = t->dim ? t->sizes[t->dim - 1] : 1;
        for (int64_t r0 = 0; kind == S_DIRICHLET && row > 0 && r0 < n; r0 += row) {
            double sum = 0;
            for (int64_t j = 0; j < row; j++)
                sum += v[r0 + j];
            double below_one = dt == TS_FLOAT64 ? nextafter(1.0, 0.0) : nextafterf(1.0f, 0.0f);
            for (int64_t j = 0; j < row; j++)
                v[r0 + j] = fmin(below_one, fmax(tiny(dt), round_to(dt, v[r0 + j] / sum)));
        }
        size_t es = ts_dtype_size(dt);
        for (int64_t i = 0; i < n; i++)
            ts_cpu_store_double(dt, (char *)ts_tensor_data(o) + i * (int64_t)es, v[i]);
    }
    free(v);
    if (x)
        ts_tensor_release(x);
    if (px)
        ts_tensor_release(px);
    if (rc && o) {
        ts_tensor_release(o);
        o = NULL;
    }
    return ts_args_return_tensor(&a, rc, o);
}

static int k_poisson(TsCall *c) { return sampler_call(c, S_POISSON); }
static int k_standard_gamma(TsCall *c) { return sampler_call(c, S_GAMMA); }
static int k_sample_dirichlet(TsCall *c) { return sampler_call(c, S_DIRICHLET); }
static int k_binomial(TsCall *c) { return sampler_call(c, S_BINOMIAL); }

static const TsCpuOp ops[] = {
    { "aten::poisson", "", k_poisson },
    { "aten::_standard_gamma", "", k_standard_gamma },
    { "aten::_sample_dirichlet", "", k_sample_dirichlet },
    { "aten::binomial", "", k_binomial },
    { "aten::randperm", "", k_randperm },
    { "aten::normal", "Tensor_float", k_normal_tensor_float },
    { "aten::normal", "float_Tensor", k_normal_float_tensor },
    { "aten::normal", "Tensor_Tensor", k_normal_tensor_tensor },
    { "aten::multinomial", "", k_multinomial },
};

const TsCpuTable ts_cpu_random_table = { ops, sizeof ops / sizeof ops[0] };
