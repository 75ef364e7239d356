/* random.c — aten-cpu's generator and the ops that only draw from it: bernoulli_ (a
 * probability or a tensor of them), bernoulli, uniform_, normal_, randperm, manual_seed, and
 * the fill behind the rand/randn/randint factories (factory.c) and their _like forms
 * (create.c). Normal draws use the Box-Muller transform.
 *
 * The generator is splitmix64 over a process-wide atomic counter: each draw adds the golden
 * gamma to the counter and mixes the result, so concurrent callers get disjoint draws without
 * a lock, and a fresh process (or aten::manual_seed(s)) repeats its stream. It is not
 * PyTorch's generator (mt19937 plus MKL's streams): distributions match PyTorch's, individual
 * draws do not. The ops fill a contiguous scratch tensor element by element and copy it into
 * place, so any dtype and strides work; their checks and messages are PyTorch's. A
 * Generator argument other than None is refused by the frontend (no Generator values exist).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "nn/nn.h"
#include "create/factory.h"
#include "create/random.h"
#include "shape/shape_ops.h"

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ULL
#define DEFAULT_STATE 0x2545F4914F6CDD1DULL

static atomic_uint_fast64_t state = DEFAULT_STATE;

uint64_t ts_cpu_random_u64(void)
{
    uint64_t z = atomic_fetch_add(&state, GOLDEN_GAMMA) + GOLDEN_GAMMA;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double ts_cpu_random_unit(void)
{
    return (double)(ts_cpu_random_u64() >> 11) * 0x1.0p-53;
}

void ts_cpu_dropout_data(int dtype, void *data, int64_t n, double p)
{
    double scale = p < 1 ? 1 / (1 - p) : 0;
    for (int64_t i = 0; i < n; i++) {
        double u = ts_cpu_random_unit();
        ts_nn_set(dtype, data, i, u < p ? 0 : ts_nn_get(dtype, data, i) * scale);
    }
}

/* ---- the ops --------------------------------------------------------------------------- */

/* Fills t (any strides) with n values from draw, through a contiguous scratch copy. */
static int fill(TsError *err, TsTensor *t, double (*draw)(void *ctx, int64_t i), void *ctx)
{
    TsTensor *tmp = ts_cpu_empty(t->dtype, t->dim, t->sizes, err);
    if (!tmp)
        return err->code;
    int64_t n = ts_tensor_numel(tmp);
    size_t es = ts_dtype_size(t->dtype);
    char *d = ts_tensor_data(tmp);
    for (int64_t i = 0; i < n; i++)
        ts_cpu_store_double(t->dtype, d + i * (int64_t)es, draw(ctx, i));
    ts_cpu_copy_into(t, tmp);
    ts_tensor_release(tmp);
    return 0;
}

static double draw_bernoulli(void *ctx, int64_t i)
{
    (void)i;
    return ts_cpu_random_unit() < *(const double *)ctx ? 1 : 0;
}

/* Probabilities read from a contiguous float tensor, one per element. */
static double draw_bernoulli_each(void *ctx, int64_t i)
{
    const TsTensor *p = ctx;
    double pi = ts_cpu_load_double(p->dtype, (const char *)ts_tensor_data(p) +
                                                 i * (int64_t)ts_dtype_size(p->dtype));
    return ts_cpu_random_unit() < pi ? 1 : 0;
}

typedef struct Range {
    double from, to;
} Range;

static double draw_uniform(void *ctx, int64_t i)
{
    const Range *r = ctx;
    (void)i;
    return r->from + (r->to - r->from) * ts_cpu_random_unit();
}

static double draw_normal(void *ctx, int64_t i)
{
    const Range *r = ctx;
    (void)i;
    /* 1 - u is in (0, 1]: the log is finite */
    double u1 = 1 - ts_cpu_random_unit(), u2 = ts_cpu_random_unit();
    return r->from + r->to * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

static double draw_int(void *ctx, int64_t i)
{
    const TsCpuDraw *d = ctx;
    (void)i;
    uint64_t span = (uint64_t)d->hi - (uint64_t)d->lo;   /* hi > lo: no wrap */
    return (double)(int64_t)((uint64_t)d->lo + ts_cpu_random_u64() % span);
}

/* Is v representable in the integer dtype (bool: 0 or 1)? Floating dtypes take any. */
static bool int_fits(int dtype, int64_t v)
{
    switch (dtype) {
    case TS_BOOL: return v >= 0 && v <= 1;
    case TS_UINT8: return v >= 0 && v <= 255;
    case TS_INT8: return v >= -128 && v <= 127;
    case TS_INT16: return v >= -32768 && v <= 32767;
    case TS_INT32: return v >= INT32_MIN && v <= INT32_MAX;
    default: return true;
    }
}

static int not_implemented(TsError *err, const char *kernel, int dtype)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel,
                        ts_dtype_type_name(dtype));
}

TsCpuDraw ts_cpu_draw(TsCpuDrawKind kind, const TsValue *bounds, size_t n_bounds)
{
    TsCpuDraw d = { kind, 0, 1, 0, 0 };
    if (n_bounds) {
        d.lo = n_bounds == 2 ? ts_nn_int(bounds[0]) : 0;
        d.hi = ts_nn_int(bounds[n_bounds - 1]);
    }
    return d;
}

int ts_cpu_random_fill(TsError *err, TsTensor *t, const TsCpuDraw *d)
{
    Range r = { d->a, d->b };
    switch (d->kind) {
    case TS_DRAW_UNIFORM:
        if (!ts_dtype_is_floating(t->dtype))
            return not_implemented(err, "check_uniform_bounds", t->dtype);
        return fill(err, t, draw_uniform, &r);
    case TS_DRAW_NORMAL:
        if (!ts_dtype_is_floating(t->dtype))
            return not_implemented(err, "normal_kernel_cpu", t->dtype);
        if (!(d->b >= 0))
            return ts_error_set(err, TS_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g",
                                d->b);
        return fill(err, t, draw_normal, &r);
    case TS_DRAW_INT:
        if (ts_dtype_is_complex(t->dtype))
            return ts_error_set(err, TS_ERR_RUNTIME, "check_random_bounds handles only "
                                "integral, floating-point and boolean types");
        if (d->lo >= d->hi)
            return ts_error_set(err, TS_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', "
                                "but got from=%lld >= to=%lld", (long long)d->lo,
                                (long long)d->hi);
        if (!int_fits(t->dtype, d->lo))
            return ts_error_set(err, TS_ERR_RUNTIME, "from is out of bounds for %s",
                                ts_dtype_name(t->dtype));
        if (!int_fits(t->dtype, d->hi - 1))
            return ts_error_set(err, TS_ERR_RUNTIME, "to - 1 is out of bounds for %s",
                                ts_dtype_name(t->dtype));
        return fill(err, t, draw_int, (void *)d);
    }
    return ts_error_set(err, TS_ERR_RUNTIME, "unknown random draw");
}

static int check_p(TsError *err, double p)
{
    if (p >= 0 && p <= 1)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got p=%g",
                        p);
}

/* p (broadcast to shape of t) as a contiguous tensor of probabilities, checked. */
static TsTensor *probabilities(TsError *err, const TsTensor *t, const TsTensor *p)
{
    if (!ts_dtype_is_floating(p->dtype)) {
        ts_error_set(err, TS_ERR_RUNTIME, "\"bernoulli_tensor_cpu_p_\" not implemented for '%s'",
                     ts_dtype_type_name(p->dtype));
        return NULL;
    }
    TsTensor *q = ts_cpu_empty(TS_FLOAT64, t->dim, t->sizes, err);
    if (!q)
        return NULL;
    TsTensor *const in[2] = { q, (TsTensor *)p };
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (ts_aten_broadcast_shape(2, in, &dim, sizes, err)) {
        ts_tensor_release(q);
        return NULL;
    }
    ts_cpu_copy_into(q, p);
    const double *d = ts_tensor_data(q);
    for (int64_t i = 0; i < ts_tensor_numel(q); i++)
        if (!(d[i] >= 0 && d[i] <= 1)) {
            ts_error_set(err, TS_ERR_RUNTIME, "Expected p_in >= 0 && p_in <= 1 to be true, but "
                         "got false.  (Could this error message be improved?  If so, please "
                         "report an enhancement request to PyTorch.)");
            ts_tensor_release(q);
            return NULL;
        }
    return q;
}

/* aten::bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) */
static int k_bernoulli_float_(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    double p = rc ? 0 : ts_nn_double(a.v[1]);
    if (!rc)
        rc = check_p(c->error, p);
    if (!rc)
        rc = fill(c->error, t, draw_bernoulli, &p);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) */
static int k_bernoulli_tensor_(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *p, *q = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &p);
    if (!rc && !(q = probabilities(c->error, t, p)))
        rc = c->error->code;
    if (!rc)
        rc = fill(c->error, t, draw_bernoulli_each, q);
    if (q)
        ts_tensor_release(q);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::bernoulli(Tensor self, *, Generator? generator=None) -> Tensor (self holds the
 * probabilities) and aten::bernoulli.p(Tensor self, float p, *, Generator? generator=None). */
static int bernoulli_new(TsCall *c, bool scalar_p)
{
    TsArgs a;
    TsTensor *t, *o = NULL, *q = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    double p = !rc && scalar_p ? ts_nn_double(a.v[1]) : 0;
    if (!rc && scalar_p)
        rc = check_p(c->error, p);
    if (!rc && !scalar_p && !(q = probabilities(c->error, t, t)))
        rc = c->error->code;
    if (!rc && !(o = ts_cpu_empty(t->dtype, t->dim, t->sizes, c->error)))
        rc = c->error->code;
    if (!rc)
        rc = scalar_p ? fill(c->error, o, draw_bernoulli, &p)
                      : fill(c->error, o, draw_bernoulli_each, q);
    if (q)
        ts_tensor_release(q);
    return ts_args_return_tensor(&a, rc, o);
}

static int k_bernoulli(TsCall *c) { return bernoulli_new(c, false); }
static int k_bernoulli_p(TsCall *c) { return bernoulli_new(c, true); }

/* aten::uniform_(Tensor(a!) self, float from=0., float to=1., *, Generator? generator=None) */
static int k_uniform_(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    Range r = { 0, 0 };
    if (!rc)
        r = (Range){ ts_nn_double(a.v[1]), ts_nn_double(a.v[2]) };
    if (!rc && !ts_dtype_is_floating(t->dtype))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"check_uniform_bounds\" not implemented "
                          "for '%s'", ts_dtype_type_name(t->dtype));
    if (!rc && !(r.from <= r.to))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "uniform_ expects to return a [from, to) "
                          "range, but found from=%g > to=%g", r.from, r.to);
    if (!rc && !isfinite(r.from))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "from is out of bounds for %s",
                          ts_dtype_name(t->dtype));
    if (!rc && !isfinite(r.to))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "to is out of bounds for %s",
                          ts_dtype_name(t->dtype));
    if (!rc)
        rc = fill(c->error, t, draw_uniform, &r);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::normal_(Tensor(a!) self, float mean=0., float std=1., *, Generator? generator=None) */
static int k_normal_(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc) {
        TsCpuDraw d = { TS_DRAW_NORMAL, ts_nn_double(a.v[1]), ts_nn_double(a.v[2]), 0, 0 };
        rc = ts_cpu_random_fill(c->error, t, &d);
    }
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::randperm(int n, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None,
 *                bool? pin_memory=None) -> Tensor: a Fisher-Yates shuffle of 0..n-1. */
static int k_randperm(TsCall *c)
{
    TsArgs a;
    int dtype = TS_INT64;
    TsTensor *o = NULL;
    char elem[16];
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    int64_t n = rc ? 0 : ts_nn_int(a.v[0]);
    if (!rc)
        rc = ts_cpu_factory_args(&a, 1, &dtype);
    if (!rc && n < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Trying to create tensor with negative "
                          "dimension %lld: [%lld]", (long long)n, (long long)n);
    if (!rc && (dtype == TS_BOOL || ts_dtype_is_complex(dtype)))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"randperm\" not implemented for '%s'",
                          ts_dtype_type_name(dtype));
    if (!rc && n > 1)
        rc = ts_aten_scalar_to_elem(ts_int(n - 1), dtype, elem, c->error);
    int64_t *perm = !rc ? malloc((size_t)(n > 0 ? n : 1) * sizeof *perm) : NULL;
    if (!rc && !perm)
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "randperm: out of memory");
    if (!rc && (o = ts_cpu_empty(dtype, 1, &n, c->error))) {
        for (int64_t i = 0; i < n; i++)
            perm[i] = i;
        for (int64_t i = 0; i + 1 < n; i++) {
            int64_t j = i + (int64_t)(ts_cpu_random_u64() % (uint64_t)(n - i)), tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
        size_t es = ts_dtype_size(dtype);
        for (int64_t i = 0; i < n; i++)
            ts_cpu_store_double(dtype, (char *)ts_tensor_data(o) + i * (int64_t)es,
                                (double)perm[i]);
    }
    free(perm);
    return ts_args_return_tensor(&a, rc, o);
}

/* aten::manual_seed(int seed) -> (): restarts the stream at a point the seed picks. */
static int k_manual_seed(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        atomic_store(&state, DEFAULT_STATE ^ ((uint64_t)ts_nn_int(a.v[0]) * GOLDEN_GAMMA));
    return ts_args_fail(&a, rc);
}

static const TsCpuOp ops[] = {
    { "aten::bernoulli_", "float", k_bernoulli_float_ },
    { "aten::bernoulli_", "Tensor", k_bernoulli_tensor_ },
    { "aten::bernoulli", "", k_bernoulli },
    { "aten::bernoulli", "p", k_bernoulli_p },
    { "aten::uniform_", "", k_uniform_ },
    { "aten::normal_", "", k_normal_ },
    { "aten::randperm", "", k_randperm },
    { "aten::manual_seed", "", k_manual_seed },
};

const TsCpuTable ts_cpu_random_table = { ops, sizeof ops / sizeof ops[0] };
