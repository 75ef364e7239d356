/* plugin.c — the aten-cuda plugin's entry point: gives the "cuda" device its allocator and
 * registers the kernels of every op family table for the "cuda" backend with aten-common's
 * metadata-only ones (views, size queries) and random ops (through the random hooks), and
 * torch.cuda's functions (schemas/cuda.yaml) for any backend, since they take no tensor to
 * dispatch by.
 *
 * Loading the plugin touches no GPU: the CUDA runtime is linked in statically and first
 * asked for a device when a program uses one (device.c).
 */
#include "engine/cuda.h"
#include "create/random.h"

static const TsCudaTable *const tables[] = {
    &ts_cuda_stream_table,
    &ts_cuda_factory_table,
    &ts_cuda_random_table,
    &ts_cuda_copy_table,
    &ts_cuda_format_table,
    &ts_cuda_pointwise_table,
    &ts_cuda_reduce_table,
    &ts_cuda_softmax_table,
    &ts_cuda_norm_table,
    &ts_cuda_join_table,
    &ts_cuda_index_table,
    &ts_cuda_blas_table,
    &ts_cuda_conv_table,
    &ts_cuda_pool_table,
    &ts_cuda_embedding_table,
    &ts_cuda_rnn_cell_table,
};

/* The copy aten-common's shared view kernels ask for (reshape of a tensor no view
 * expresses). */
static TsTensor *contiguous_copy(const TsTensor *src, TsError *err)
{
    return ts_cuda_cast(src, src->dtype, err);
}

static const TsAtenBackend backend = {
    .device_type = TS_DEV_CUDA,
    .contiguous_copy = contiguous_copy,
    .name = "cuda",
    .empty = ts_cuda_empty_on,
    .copy_into = ts_cuda_copy_into,
    .draw = ts_cuda_random_draw,
    .outside_unit = ts_cuda_random_outside_unit,
};

static int init(TsRegistry *r, TsError *err)
{
    int rc = ts_register_allocator(r, "cuda", &ts_cuda_allocator, err);
    if (!rc)
        rc = ts_aten_set_backend(&backend, err);
    if (!rc)
        rc = ts_aten_register_views(r, "cuda", err);
    if (!rc)
        rc = ts_aten_register_random(r, "cuda", err);
    for (size_t i = 0; !rc && i < ts_cuda_device_table.n; i++) {
        const TsCudaOp *op = &ts_cuda_device_table.ops[i];
        rc = ts_register_kernel(r, op->qualname, op->overload, TS_BACKEND_ANY, op->fn, err);
    }
    for (size_t t = 0; !rc && t < sizeof tables / sizeof tables[0]; t++)
        for (size_t i = 0; !rc && i < tables[t]->n; i++) {
            const TsCudaOp *op = &tables[t]->ops[i];
            rc = ts_register_kernel(r, op->qualname, op->overload, "cuda", op->fn, err);
        }
    return rc;
}

static const char *const schema_files[] = { "cuda.yaml", NULL };

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "aten-cuda", schema_files, init, NULL
};
