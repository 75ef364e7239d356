/* random.c — the random ops every aten backend shares, over the process's generator
 * (tscript/random.h): reading a draw's bounds, PyTorch's checks of a draw against the
 * tensor it fills (dtype, bounds, probabilities) with PyTorch's messages, the fill itself
 * (checks, draws reserved at once, a scratch copy for a tensor that is not contiguous), the
 * kernels that take a tensor (bernoulli_, bernoulli, uniform_, normal_, cauchy_, log_normal_,
 * exponential_, geometric_, random_) and manual_seed, and
 * randperm's shuffle, which runs on the host.
 *
 * What only a backend can do goes through its random hooks (TsAtenBackend, set with
 * ts_aten_set_backend): make a tensor, copy into one, compute the elements of a fill
 * (aten-cpu with PyTorch's cpu generator and transforms, so seeded programs print PyTorch's
 * numbers; aten-cuda on the GPU with ts_aten_draw_value over the counter-based draws, a
 * stream of its own as PyTorch's cuda generator is), and look for probabilities outside
 * [0, 1]. The factories (rand, randn,
 * randint, their _like forms, randperm) read their arguments in each backend, whose factory
 * conventions differ, and fill with ts_aten_random_fill.
 */
#include <math.h>
#include <string.h>

#include "tscript/aten.h"
#include "views.h"

static int64_t int_arg(TsValue v)
{
    return v.tag == TS_TAG_INT ? v.u.i : v.tag == TS_TAG_BOOL ? v.u.b : 0;
}

static double float_arg(TsValue v)
{
    return v.tag == TS_TAG_DOUBLE ? v.u.d : (double)int_arg(v);
}

TsAtenDraw ts_aten_draw(TsAtenDrawKind kind, const TsValue *bounds, size_t n_bounds)
{
    TsAtenDraw d = { kind, kind == TS_ATEN_DRAW_BERNOULLI ? 0.5 : 0, 1, 0, 0, TS_FLOAT64, false,
                     false };
    if (n_bounds) {
        d.lo = n_bounds == 2 ? int_arg(bounds[0]) : 0;
        d.hi = int_arg(bounds[n_bounds - 1]);
    }
    return d;
}

/* ---- checks --------------------------------------------------------------------------- */

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

/* PyTorch's refusal of dtype by its kernel, named head, the backend, then tail. */
static int not_implemented(TsError *err, const char *head, const char *backend,
                           const char *tail, int dtype)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "\"%s%s%s\" not implemented for '%s'", head,
                        backend, tail, ts_dtype_type_name(dtype));
}

static int check_uniform(const TsAtenDraw *d, int dtype, TsError *err)
{
    if (!ts_dtype_is_floating(dtype))
        return not_implemented(err, "check_uniform_bounds", "", "", dtype);
    if (!(d->a <= d->b))
        return ts_error_set(err, TS_ERR_RUNTIME, "uniform_ expects to return a [from, to) "
                            "range, but found from=%g > to=%g", d->a, d->b);
    if (!isfinite(d->a))
        return ts_error_set(err, TS_ERR_RUNTIME, "from is out of bounds for %s",
                            ts_dtype_name(dtype));
    if (!isfinite(d->b))
        return ts_error_set(err, TS_ERR_RUNTIME, "to is out of bounds for %s",
                            ts_dtype_name(dtype));
    return 0;
}

static int check_int(const TsAtenDraw *d, int dtype, TsError *err)
{
    if (ts_dtype_is_complex(dtype))
        return ts_error_set(err, TS_ERR_RUNTIME, "check_random_bounds handles only integral, "
                            "floating-point and boolean types");
    if (d->to_max)
        return 0;              /* from fits: random_.from's int checked nothing else */
    if (d->lo >= d->hi)
        return ts_error_set(err, TS_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', "
                            "but got from=%lld >= to=%lld", (long long)d->lo, (long long)d->hi);
    if (!int_fits(dtype, d->lo))
        return ts_error_set(err, TS_ERR_RUNTIME, "from is out of bounds for %s",
                            ts_dtype_name(dtype));
    if (!int_fits(dtype, d->hi - 1))
        return ts_error_set(err, TS_ERR_RUNTIME, "to - 1 is out of bounds for %s",
                            ts_dtype_name(dtype));
    return 0;
}

/* PyTorch's checks of d for a tensor of dtype; backend names its kernels. */
static int check_draw(const TsAtenDraw *d, int dtype, const char *backend, TsError *err)
{
    switch (d->kind) {
    case TS_ATEN_DRAW_UNIFORM:
        return check_uniform(d, dtype, err);
    case TS_ATEN_DRAW_NORMAL:
        if (!ts_dtype_is_floating(dtype))
            return not_implemented(err, "normal_kernel_", backend, "", dtype);
        if (!(d->b >= 0))
            return ts_error_set(err, TS_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g",
                                d->b);
        return 0;
    case TS_ATEN_DRAW_INT:
        return check_int(d, dtype, err);
    case TS_ATEN_DRAW_BERNOULLI:
        if (d->a >= 0 && d->a <= 1)
            return 0;
        return ts_error_set(err, TS_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got "
                            "p=%g", d->a);
    case TS_ATEN_DRAW_EXPONENTIAL:
        if (!(d->a >= 0))
            return ts_error_set(err, TS_ERR_RUNTIME, "exponential_ expects lambda >= 0.0, but "
                                "found lambda=%g", d->a);
        return ts_dtype_is_floating(dtype) ? 0
                                           : not_implemented(err, "exponential_", backend, "", dtype);
    case TS_ATEN_DRAW_CAUCHY:
        return ts_dtype_is_floating(dtype) ? 0 : not_implemented(err, "cauchy_", backend, "", dtype);
    case TS_ATEN_DRAW_LOG_NORMAL:
        if (!(d->b > 0))
            return ts_error_set(err, TS_ERR_RUNTIME, "log_normal_ expects std > 0.0, but found "
                                "std=%g", d->b);
        return ts_dtype_is_floating(dtype) ? 0
                                           : not_implemented(err, "log_normal_", backend, "", dtype);
    case TS_ATEN_DRAW_GEOMETRIC:
        if (d->a > 0 && d->a < 1)
            return 0;
        return ts_error_set(err, TS_ERR_RUNTIME, "geometric_ expects p to be in (0, 1), but got "
                            "p=%g", d->a);
    }
    return ts_error_set(err, TS_ERR_RUNTIME, "unknown random draw");
}

int ts_aten_check_randperm(int64_t n, int dtype, TsError *err)
{
    if (n < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "Trying to create tensor with negative "
                            "dimension %lld: [%lld]", (long long)n, (long long)n);
    if (dtype == TS_BOOL || ts_dtype_is_complex(dtype))
        return ts_error_set(err, TS_ERR_RUNTIME, "\"randperm\" not implemented for '%s'",
                            ts_dtype_type_name(dtype));
    if (n > 1) {
        char elem[16];
        return ts_aten_scalar_to_elem(ts_int(n - 1), dtype, elem, err);
    }
    return 0;
}

/* ---- fills ---------------------------------------------------------------------------- */

/* The random hooks of t's backend, or NULL with err set. */
static const TsAtenBackend *hooks(const TsTensor *t, TsError *err)
{
    const TsAtenBackend *b = ts_aten_backend_of(t->device.type);
    if (b && b->name && b->empty && b->copy_into && b->draw && b->outside_unit)
        return b;
    char dev[32];
    ts_device_str(t->device, dev, sizeof dev);
    ts_error_set(err, TS_ERR_RUNTIME, "the backend of device %s gave no random hooks "
                 "(ts_aten_set_backend)", dev);
    return NULL;
}

/* The dims of t in memory order, by decreasing stride (equal strides keep their order):
 * the order PyTorch's cpu kernels fill a tensor that is not contiguous in. */
static void memory_perm(const TsTensor *t, int *perm)
{
    for (int i = 0; i < t->dim; i++) {
        int k = i;
        for (; k > 0 && t->strides[perm[k - 1]] < t->strides[i]; k--)
            perm[k] = perm[k - 1];
        perm[k] = i;
    }
}

/* The view of x (t's shape) with its dims permuted by perm. */
static TsTensor *permuted(const TsTensor *x, const int *perm, TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    for (int i = 0; i < x->dim; i++) {
        sizes[i] = x->sizes[perm[i]];
        strides[i] = x->strides[perm[i]];
    }
    return ts_aten_view(x, x->dim, sizes, strides, x->offset, err);
}

/* Fills t (any strides) with d's values; p, when not NULL, holds a bernoulli draw's
 * probabilities (contiguous float64 on t's device, t's shape). A t that is not contiguous
 * is drawn into a contiguous scratch in t's memory order (p's copied into that order too),
 * as PyTorch's kernels draw, then copied into t. */
static int fill(const TsAtenBackend *b, TsTensor *t, const TsAtenDraw *d, const TsTensor *p,
                TsError *err)
{
    TsAtenDraw dd = *d;
    dd.strided = !ts_tensor_is_contiguous(t);
    int perm[TS_TENSOR_MAX_DIMS];
    TsTensor *view = t, *out = t, *pv = NULL, *q = NULL;
    int rc = 0;
    if (dd.strided) {
        memory_perm(t, perm);
        if (!(view = permuted(t, perm, err)) ||  /* NULL: nothing to release */
            !(out = b->empty(t->device, t->dtype, view->dim, view->sizes, err)))
            rc = err->code;
        if (!rc && p && (!(pv = permuted(p, perm, err)) ||
                         !(q = b->empty(t->device, TS_FLOAT64, view->dim, view->sizes, err)) ||
                         b->copy_into(q, pv, err)))
            rc = err->code;
    }
    int64_t n = ts_tensor_numel(t);
    uint64_t base = ts_random_reserve((uint64_t)n * TS_ATEN_DRAWS_PER_ELEM(d->kind));
    if (!rc)
        rc = b->draw(out, &dd, base, p ? ts_tensor_data(q ? q : p) : NULL, err);
    if (!rc && dd.strided)
        rc = b->copy_into(view, out, err);
    if (view != t)
        ts_tensor_release(view);
    if (out && out != t)
        ts_tensor_release(out);
    if (pv)
        ts_tensor_release(pv);
    if (q)
        ts_tensor_release(q);
    return rc;
}

int ts_aten_random_fill(TsTensor *t, const TsAtenDraw *d, TsError *err)
{
    const TsAtenBackend *b = hooks(t, err);
    if (!b || check_draw(d, t->dtype, b->name, err))
        return err->code;
    return fill(b, t, d, NULL, err);
}

/* PyTorch's expand of p to t's shape, which bernoulli_ does in place: expand's message for
 * more dims than t has. */
static int check_expand(const TsAtenBackend *b, const TsTensor *t, const TsTensor *p,
                        TsError *err)
{
    if (p->dim <= t->dim)
        return ts_aten_check_expand(p, t->dim, t->sizes, err);
    char from[256], to[256];
    ts_aten_format_sizes(from, sizeof from, p->dim, p->sizes);
    ts_aten_format_sizes(to, sizeof to, t->dim, t->sizes);
    return ts_error_set(err, TS_ERR_RUNTIME, "expand(torch.%s%sTensor{%s}, size=%s): the "
                        "number of sizes provided (%d) must be greater or equal to the number "
                        "of dimensions in the tensor (%d)", strcmp(b->name, "cpu") ? "cuda." : "",
                        ts_dtype_type_name(p->dtype), from, to, t->dim, p->dim);
}

/* p broadcast to t's shape as a contiguous float64 tensor of probabilities on t's device,
 * checked with PyTorch's checks and messages. */
static TsTensor *probabilities(const TsAtenBackend *b, const TsTensor *t, const TsTensor *p,
                               TsError *err)
{
    if (!ts_dtype_is_floating(p->dtype)) {
        not_implemented(err, "bernoulli_tensor_", b->name, "_p_", p->dtype);
        return NULL;
    }
    if (check_expand(b, t, p, err))
        return NULL;
    bool bad = false;
    TsTensor *q = b->empty(t->device, TS_FLOAT64, t->dim, t->sizes, err);
    if (q && !b->copy_into(q, p, err) && !b->outside_unit(q, &bad, err) && !bad)
        return q;
    if (bad)
        ts_error_set(err, TS_ERR_RUNTIME, "Expected p_in >= 0 && p_in <= 1 to be true, but got "
                     "false.  (Could this error message be improved?  If so, please report an "
                     "enhancement request to PyTorch.)");
    if (q)
        ts_tensor_release(q);
    return NULL;
}

/* ---- the kernels ---------------------------------------------------------------------- */

/* The largest value random_ draws for dtype when no 'to' is given (inclusive): the dtype's
 * maximum for integers, 2^digits for floating dtypes, whose integers are exact up to it. */
static int64_t random_top(int dtype)
{
    switch (dtype) {
    case TS_BOOL: return 1;
    case TS_UINT8: return 255;
    case TS_INT8: return 127;
    case TS_INT16: return 32767;
    case TS_INT32: return INT32_MAX;
    case TS_FLOAT16: return (int64_t)1 << 11;
    case TS_BFLOAT16: return (int64_t)1 << 8;
    case TS_FLOAT32: return (int64_t)1 << 24;
    case TS_FLOAT64: return (int64_t)1 << 53;
    default: return INT64_MAX;
    }
}

/* The draw of kind for self (t) from the arguments after it: random_'s n_bounds ints
 * (random_: none, from 0 up to random_top; random_.to: to; random_.from: from and int? to),
 * else the float parameters (p, lambd; or two: from and to, mean and std, median and
 * sigma). */
static TsAtenDraw self_draw(const TsArgs *a, const TsTensor *t, TsAtenDrawKind kind,
                            int n_bounds)
{
    TsAtenDraw d = ts_aten_draw(kind, NULL, 0);
    if (kind == TS_ATEN_DRAW_INT) {
        d.lo = n_bounds == 2 ? int_arg(a->v[1]) : 0;
        if (n_bounds == 0 || (n_bounds == 2 && a->v[2].tag == TS_TAG_NONE)) {
            d.to_max = t->dtype == TS_INT64;
            d.hi = random_top(t->dtype) + (d.to_max ? 0 : 1);
        } else {
            d.hi = int_arg(a->v[n_bounds]);
        }
        return d;
    }
    d.a = float_arg(a->v[1]);
    if (kind != TS_ATEN_DRAW_BERNOULLI && kind != TS_ATEN_DRAW_EXPONENTIAL &&
        kind != TS_ATEN_DRAW_GEOMETRIC)
        d.b = float_arg(a->v[2]);
    return d;
}

/* The in-place fills: bernoulli_.float(Tensor(a!) self, float p=0.5), uniform_(self,
 * float from=0., float to=1.), normal_(self, float mean=0., float std=1.), cauchy_(self,
 * float median=0., float sigma=1.), log_normal_(self, float mean=1., float std=2.),
 * exponential_(self, float lambd=1.), geometric_(self, float p), random_(self),
 * random_.to(self, int to) and random_.from(self, int from, int? to), each ending with
 * *, Generator? generator=None: self filled with the draw its arguments give. */
static int fill_self(TsCall *c, TsAtenDrawKind kind, int n_bounds)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc) {
        TsAtenDraw d = self_draw(&a, t, kind, n_bounds);
        rc = ts_aten_random_fill(t, &d, c->error);
    }
    return ts_args_return_arg(&a, rc, 0);
}

static int k_bernoulli_float_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_BERNOULLI, 0); }
static int k_uniform_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_UNIFORM, 0); }
static int k_normal_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_NORMAL, 0); }
static int k_cauchy_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_CAUCHY, 0); }
static int k_log_normal_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_LOG_NORMAL, 0); }
static int k_exponential_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_EXPONENTIAL, 0); }
static int k_geometric_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_GEOMETRIC, 0); }
static int k_random_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_INT, 0); }
static int k_random_to(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_INT, 1); }
static int k_random_from(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_INT, 2); }

/* bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) -> Tensor(a!) */
static int k_bernoulli_tensor_(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *p, *q = NULL;
    const TsAtenBackend *b = NULL;
    TsAtenDraw d = ts_aten_draw(TS_ATEN_DRAW_BERNOULLI, NULL, 0);
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &p);
    if (!rc && (!(b = hooks(t, c->error)) || !(q = probabilities(b, t, p, c->error))))
        rc = c->error->code;
    if (!rc)
        d.p_dtype = p->dtype;
    if (!rc)
        rc = fill(b, t, &d, q, c->error);
    if (q)
        ts_tensor_release(q);
    return ts_args_return_arg(&a, rc, 0);
}

/* bernoulli(Tensor self, *, Generator? generator=None) -> Tensor (self holds the
 * probabilities) and bernoulli.p(Tensor self, float p, *, Generator? generator=None). */
static int bernoulli_new(TsCall *c, bool scalar_p)
{
    TsArgs a;
    TsTensor *t, *o = NULL, *q = NULL;
    const TsAtenBackend *b = NULL;
    TsAtenDraw d = ts_aten_draw(TS_ATEN_DRAW_BERNOULLI, NULL, 0);
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc && !(b = hooks(t, c->error)))
        rc = c->error->code;
    if (!rc && scalar_p) {
        d.a = float_arg(a.v[1]);
        rc = check_draw(&d, t->dtype, b->name, c->error);
    }
    if (!rc && !scalar_p && !(q = probabilities(b, t, t, c->error)))
        rc = c->error->code;
    if (!rc && !scalar_p)
        d.p_dtype = t->dtype;
    if (!rc && !(o = b->empty(t->device, t->dtype, t->dim, t->sizes, c->error)))
        rc = c->error->code;
    if (!rc)
        rc = fill(b, o, &d, q, c->error);
    if (q)
        ts_tensor_release(q);
    return ts_args_return_tensor(&a, rc, o);
}

static int k_bernoulli(TsCall *c) { return bernoulli_new(c, false); }
static int k_bernoulli_p(TsCall *c) { return bernoulli_new(c, true); }

/* manual_seed(int seed) -> (): seeds the process's generator, which every backend draws
 * from. It takes no tensor, so it runs the default backend's kernel, or any backend's
 * (core/sched/dispatch.h): whichever runs, it seeds the one stream. */
static int k_manual_seed(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc)
        ts_random_seed(int_arg(a.v[0]));
    return ts_args_fail(&a, rc);
}

void ts_aten_randperm(int64_t n, int64_t *perm)
{
    for (int64_t i = 0; i < n; i++)
        perm[i] = i;
    ts_random_lock();
    for (int64_t i = 0; i + 1 < n; i++) {
        int64_t j = i + (int64_t)(ts_random_mt32() % (uint64_t)(n - i));
        int64_t tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
    ts_random_unlock();
}

static const TsAtenKernel kernels[] = {
    { "aten::bernoulli_", "float", k_bernoulli_float_ },
    { "aten::bernoulli_", "Tensor", k_bernoulli_tensor_ },
    { "aten::bernoulli", "", k_bernoulli },
    { "aten::bernoulli", "p", k_bernoulli_p },
    { "aten::uniform_", "", k_uniform_ },
    { "aten::normal_", "", k_normal_ },
    { "aten::_no_grad_uniform_", "", k_uniform_ },
    { "aten::_no_grad_normal_", "", k_normal_ },
    { "aten::cauchy_", "", k_cauchy_ },
    { "aten::log_normal_", "", k_log_normal_ },
    { "aten::exponential_", "", k_exponential_ },
    { "aten::geometric_", "", k_geometric_ },
    { "aten::random_", "", k_random_ },
    { "aten::random_", "to", k_random_to },
    { "aten::random_", "from", k_random_from },
    { "aten::manual_seed", "", k_manual_seed },
};

const TsAtenTable ts_aten_random_table = { kernels, sizeof kernels / sizeof kernels[0] };

int ts_aten_register_random(TsRegistry *r, const char *backend, TsError *err)
{
    return ts_aten_register_table(r, &ts_aten_random_table, backend, err);
}
