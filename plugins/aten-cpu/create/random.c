/* random.c — aten-cpu's random ops: bernoulli_ (a probability or a tensor of them),
 * bernoulli, uniform_, normal_, randperm, manual_seed, the fill behind the rand/randn/randint
 * factories (factory.c) and their _like forms (create.c), and dropout's mask (nn.c,
 * rnn_layers.c).
 *
 * They draw from the process's generator (tscript/random.h, in the core, so that aten-cuda
 * draws from the same stream): an op reserves all its draws at once, then computes element i
 * from its own draws with ts_aten_draw_value, as aten-cuda's kernels do on the GPU. The ops
 * fill a contiguous scratch tensor and copy it into place, so any dtype and strides work;
 * their checks and messages are PyTorch's (aten-common's random_check.c). A Generator
 * argument other than None is refused by the frontend (no Generator values exist).
 */
#include <stdlib.h>

#include "nn/nn.h"
#include "create/factory.h"
#include "create/random.h"
#include "shape/shape_ops.h"

void ts_cpu_dropout_data(int dtype, void *data, int64_t n, double p)
{
    double scale = p < 1 ? 1 / (1 - p) : 0;
    uint64_t base = ts_random_reserve((uint64_t)n);
    for (int64_t i = 0; i < n; i++) {
        bool drop = ts_random_bernoulli(ts_random_draw(base, (uint64_t)i + 1), p);
        ts_nn_set(dtype, data, i, drop ? 0 : ts_nn_get(dtype, data, i) * scale);
    }
}

/* ---- the ops --------------------------------------------------------------------------- */

/* Fills t (any strides) with d's values, or with bernoulli draws of the probabilities in p
 * (contiguous float64, t's shape) when p is not NULL, through a contiguous scratch copy. */
static int fill(TsError *err, TsTensor *t, const TsAtenDraw *d, const TsTensor *p)
{
    TsTensor *tmp = ts_cpu_empty(t->dtype, t->dim, t->sizes, err);
    if (!tmp)
        return err->code;
    int64_t n = ts_tensor_numel(tmp);
    size_t es = ts_dtype_size(t->dtype);
    char *out = ts_tensor_data(tmp);
    const double *pi = p ? ts_tensor_data(p) : NULL;
    uint64_t base = ts_random_reserve((uint64_t)n * TS_ATEN_DRAWS_PER_ELEM(d->kind));
    for (int64_t i = 0; i < n; i++) {
        double v = pi ? ts_random_bernoulli(ts_random_draw(base, (uint64_t)i + 1), pi[i])
                      : ts_aten_draw_value(d, base, i);
        ts_cpu_store_double(t->dtype, out + i * (int64_t)es, v);
    }
    ts_cpu_copy_into(t, tmp);
    ts_tensor_release(tmp);
    return 0;
}

int ts_cpu_random_fill(TsError *err, TsTensor *t, const TsAtenDraw *d)
{
    if (ts_aten_check_draw(d, t->dtype, "cpu", err))
        return err->code;
    return fill(err, t, d, NULL);
}

/* p (broadcast to shape of t) as a contiguous float64 tensor of probabilities, checked. */
static TsTensor *probabilities(TsError *err, const TsTensor *t, const TsTensor *p)
{
    if (ts_aten_check_probabilities(p->dtype, "cpu", err))
        return NULL;
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
            ts_aten_probability_error(err);
            ts_tensor_release(q);
            return NULL;
        }
    return q;
}

/* bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None),
 * uniform_(Tensor(a!) self, float from=0., float to=1., *, Generator? generator=None) and
 * normal_(Tensor(a!) self, float mean=0., float std=1., *, Generator? generator=None): self
 * filled in place with the draw of kind its float arguments give. */
static int fill_self(TsCall *c, TsAtenDrawKind kind)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc) {
        TsAtenDraw d = ts_aten_draw(kind, NULL, 0);
        d.a = ts_nn_double(a.v[1]);
        if (kind != TS_ATEN_DRAW_BERNOULLI)
            d.b = ts_nn_double(a.v[2]);
        rc = ts_cpu_random_fill(c->error, t, &d);
    }
    return ts_args_return_arg(&a, rc, 0);
}

static int k_bernoulli_float_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_BERNOULLI); }
static int k_uniform_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_UNIFORM); }
static int k_normal_(TsCall *c) { return fill_self(c, TS_ATEN_DRAW_NORMAL); }

/* aten::bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) */
static int k_bernoulli_tensor_(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *p, *q = NULL;
    TsAtenDraw d = ts_aten_draw(TS_ATEN_DRAW_BERNOULLI, NULL, 0);
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &p);
    if (!rc && !(q = probabilities(c->error, t, p)))
        rc = c->error->code;
    if (!rc)
        rc = fill(c->error, t, &d, q);
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
    TsAtenDraw d = ts_aten_draw(TS_ATEN_DRAW_BERNOULLI, NULL, 0);
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc && scalar_p) {
        d.a = ts_nn_double(a.v[1]);
        rc = ts_aten_check_draw(&d, t->dtype, "cpu", c->error);
    }
    if (!rc && !scalar_p && !(q = probabilities(c->error, t, t)))
        rc = c->error->code;
    if (!rc && !(o = ts_cpu_empty(t->dtype, t->dim, t->sizes, c->error)))
        rc = c->error->code;
    if (!rc)
        rc = fill(c->error, o, &d, q);
    if (q)
        ts_tensor_release(q);
    return ts_args_return_tensor(&a, rc, o);
}

static int k_bernoulli(TsCall *c) { return bernoulli_new(c, false); }
static int k_bernoulli_p(TsCall *c) { return bernoulli_new(c, true); }

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

/* aten::manual_seed(int seed) -> (): seeds the process's generator, which every backend
 * draws from. The op takes no tensor: it runs here whatever the default backend is unless
 * that backend has a kernel of its own (aten-cuda's does the same). */
static int k_manual_seed(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        ts_random_seed(ts_nn_int(a.v[0]));
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
