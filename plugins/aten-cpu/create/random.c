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
#include <stdlib.h>

#include "nn/nn.h"
#include "create/factory.h"
#include "create/random.h"

void ts_cpu_dropout_data(int dtype, void *data, int64_t n, double p)
{
    double scale = p < 1 ? 1 / (1 - p) : 0;
    uint64_t base = ts_random_reserve((uint64_t)n);
    for (int64_t i = 0; i < n; i++) {
        bool drop = ts_random_bernoulli(ts_random_draw(base, (uint64_t)i + 1), p);
        ts_nn_set(dtype, data, i, drop ? 0 : ts_nn_get(dtype, data, i) * scale);
    }
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

int ts_cpu_random_draw(TsTensor *t, const TsAtenDraw *d, uint64_t base, const double *p,
                       TsError *err)
{
    (void)err;
    int64_t n = ts_tensor_numel(t);
    size_t es = ts_dtype_size(t->dtype);
    char *out = ts_tensor_data(t);
    for (int64_t i = 0; i < n; i++)
        ts_cpu_store_double(t->dtype, out + i * (int64_t)es, ts_aten_draw_value(d, base, i, p));
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

static const TsCpuOp ops[] = {
    { "aten::randperm", "", k_randperm },
};

const TsCpuTable ts_cpu_random_table = { ops, sizeof ops / sizeof ops[0] };
