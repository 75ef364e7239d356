/* random.c — aten-cuda's part of the random ops: the factories rand, randn, randint and
 * their _like forms, randperm, and the random hooks through which aten-common's shared random
 * ops (bernoulli_, bernoulli, uniform_, normal_, manual_seed: registered for "cuda" by
 * plugin.c) and the factories fill.
 *
 * They draw from the process's counter-based generator (tscript/random.h): aten-common
 * checks the arguments (PyTorch's checks and messages, with the cuda kernels' names) and
 * reserves every draw of the op at once, and the GPU computes element i from its own draws
 * (random_kernels.cu), so manual_seed reproduces a program's numbers on cuda. As in
 * PyTorch, they are not the cpu's numbers (aten-cpu draws PyTorch's cpu stream in order). randperm shuffles on the host
 * (aten-common's ts_aten_randperm, as aten-cpu) and copies the permutation over.
 */
#include <stdlib.h>

#include "create/factory.h"
#include "create/random.h"

/* ---- the random hooks (TsAtenBackend) --------------------------------------------------- */

int ts_cuda_random_draw(TsTensor *t, const TsAtenDraw *d, uint64_t base, const double *p,
                        TsError *err)
{
    int rc = ts_cuda_use_device(t->device, err);
    return rc ? rc : ts_cuda_launch_draw(d, base, p, t->dtype, ts_tensor_data(t),
                                         ts_tensor_numel(t), err);
}

int ts_cuda_random_outside_unit(const TsTensor *q, bool *bad, TsError *err)
{
    int rc = ts_cuda_use_device(q->device, err);
    return rc ? rc : ts_cuda_launch_check_probabilities(ts_tensor_data(q), ts_tensor_numel(q),
                                                         bad, err);
}

/* ---- the factories -------------------------------------------------------------------- */

/* rand and randn: (int[] size, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None) -> Tensor; randint: ([int low,] int high,
 *     int[] size, *, ScalarType? dtype=4, ...) -> Tensor; rand_like and randn_like: (Tensor
 *     self, *, <the tail>, MemoryFormat? memory_format=None) -> Tensor; randint_like: (Tensor
 *     self, [int low,] int high, *, <the tail>) -> Tensor. n_bounds ints come first, after
 *     self in the _like forms. */
static int random_factory(TsCall *c, TsAtenDrawKind kind, size_t n_bounds)
{
    TsArgs a;
    TsCudaRequest q;
    TsTensor *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc && !(rc = ts_cuda_read_request(&a, &q)) &&
        !(r = ts_cuda_empty_on(q.device, q.dtype, q.dim, q.sizes, c->error)))
        rc = c->error->code;
    if (!rc) {
        TsAtenDraw d = ts_aten_draw(kind, a.v + (q.like ? 1 : 0), n_bounds);
        rc = ts_aten_random_fill(r, &d, c->error);
    }
    return ts_args_return_tensor(&a, rc, r);
}

static int k_rand(TsCall *c) { return random_factory(c, TS_ATEN_DRAW_UNIFORM, 0); }
static int k_randn(TsCall *c) { return random_factory(c, TS_ATEN_DRAW_NORMAL, 0); }
static int k_randint(TsCall *c) { return random_factory(c, TS_ATEN_DRAW_INT, 1); }
static int k_randint_low(TsCall *c) { return random_factory(c, TS_ATEN_DRAW_INT, 2); }

static int perm_elem(void *ctx, int64_t i, int dtype, void *out, TsError *err)
{
    return ts_aten_scalar_to_elem(ts_int(((const int64_t *)ctx)[i]), dtype, out, err);
}

/* randperm(int n, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None,
 *          bool? pin_memory=None) -> Tensor */
static int k_randperm(TsCall *c)
{
    TsArgs a;
    TsCudaRequest q;
    TsTensor *o = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    int64_t n = !rc && a.v[0].tag == TS_TAG_INT ? a.v[0].u.i : 0;
    if (!rc)
        rc = ts_cuda_read_request(&a, &q);
    if (!rc)
        rc = ts_aten_check_randperm(n, q.dtype, c->error);
    int64_t *perm = !rc ? malloc((size_t)(n > 0 ? n : 1) * sizeof *perm) : NULL;
    if (!rc && !perm)
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "randperm: out of memory");
    if (!rc) {
        ts_aten_randperm(n, perm);
        if (!(o = ts_cuda_from_host(q.device, q.dtype, 1, &n, n, perm_elem, perm, c->error)))
            rc = c->error->code;
    }
    free(perm);
    return ts_args_return_tensor(&a, rc, o);
}

static const TsCudaOp ops[] = {
    { "aten::rand", "", k_rand },
    { "aten::randn", "", k_randn },
    { "aten::randint", "", k_randint },
    { "aten::randint", "low", k_randint_low },
    { "aten::rand_like", "", k_rand },
    { "aten::randn_like", "", k_randn },
    { "aten::randint_like", "", k_randint },
    { "aten::randint_like", "low_dtype", k_randint_low },
    { "aten::randperm", "", k_randperm },
};

const TsCudaTable ts_cuda_random_table = { ops, sizeof ops / sizeof ops[0] };
