/* cpu.c — the aten-cpu plugin's entry point and its allocator.
 *
 * The plugin gives the "cpu" device its allocator (64-byte aligned, so kernels may use
 * aligned vector loads) and registers the kernels of every op family table for the "cpu"
 * backend, aten-common's shared metadata-only kernels and random ops (with the copy and the
 * random hooks they need: its TsAtenBackend), the tensor printer's hook and the backend's
 * description (tscript::backend_info, openblas.c), after checking the config's blas_core.
 * The schemas are schemas/aten.yaml; the kernels live in one file per family, but for the
 * out= forms of aten_out.yaml, which one adaptor serves with their functional kernels
 * (out_variants.c, which finds them with ts_cpu_find_kernel).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/elementwise.h"
#include "engine/out_variants.h"
#include "create/random.h"
#include "linalg/openblas.h"

#define CPU_ALIGNMENT 64

/* Blocks come from plain malloc (large ones through block_cache.c, which keeps them for
 * reuse), over-allocated by the alignment, with the pointer malloc returned kept just below
 * the aligned block. posix_memalign would split a larger chunk and free its ends, bypassing
 * malloc's per-thread cache: with small tensors (an LSTM step at batch 1) that churn was a
 * fifth of the run time. */
static void *cpu_alloc(TsAllocator *self, size_t nbytes, TsDevice device)
{
    (void)self;
    (void)device;
    if (nbytes > SIZE_MAX - CPU_ALIGNMENT)
        return NULL;
    char *raw = ts_cpu_block_alloc(nbytes + CPU_ALIGNMENT);   /* zero bytes: a real block */
    if (!raw)
        return NULL;
    char *p = (char *)(((uintptr_t)raw + CPU_ALIGNMENT) & ~(uintptr_t)(CPU_ALIGNMENT - 1));
    ((void **)p)[-1] = raw;                      /* malloc aligns to >= 16: room for it */
    return p;
}

static void cpu_free(TsAllocator *self, void *ptr, size_t nbytes, TsDevice device)
{
    (void)self;
    (void)nbytes;
    (void)device;
    if (ptr)
        ts_cpu_block_free(((void **)ptr)[-1], nbytes + CPU_ALIGNMENT);
}

TsAllocator ts_cpu_allocator = { "cpu", cpu_alloc, cpu_free, NULL, NULL, NULL, NULL };

static const TsCpuTable *const tables[] = {
    &ts_cpu_factory_table,
    &ts_cpu_binary_table,
    &ts_cpu_ternary_table,
    &ts_cpu_unary_table,
    &ts_cpu_select_table,
    &ts_cpu_linalg_table,
    &ts_cpu_format_table,
    &ts_cpu_blas_table, &ts_cpu_conv_table, &ts_cpu_pool_table, &ts_cpu_norm_table,
    &ts_cpu_activation_table, &ts_cpu_resample_table, &ts_cpu_loss_table, &ts_cpu_nn_table,
    &ts_cpu_loss_pointwise_table, &ts_cpu_rnn_table, &ts_cpu_pool_adaptive_table,
    &ts_cpu_nn_extra_table, &ts_cpu_fold_table,
    &ts_cpu_copy_table,
    &ts_cpu_join_table,
    &ts_cpu_index_table,
    &ts_cpu_reduce_table, &ts_cpu_scan_table, &ts_cpu_sort_table,
    &ts_cpu_create_table,
    &ts_cpu_query_table, &ts_cpu_tensor_lists_table, &ts_cpu_close_table,
    &ts_cpu_scatter_table, &ts_cpu_compose_table, &ts_cpu_compose_more_table,
    &ts_cpu_compose_stats_table, &ts_cpu_quantile_table, &ts_cpu_arrangements_table,
    &ts_cpu_view_copies_table, &ts_cpu_histogram_table,
    &ts_cpu_strided_table, &ts_cpu_interleave_table, &ts_cpu_bucket_table, &ts_cpu_cumext_table,
    &ts_cpu_derived_table, &ts_cpu_isin_table, &ts_cpu_window_table,
    &ts_cpu_scatter_views_table, &ts_cpu_resize_table,
    &ts_cpu_unique_table, &ts_cpu_order_table,
    &ts_cpu_conv_transpose_table, &ts_cpu_rnn_layers_table, &ts_cpu_packed_table,
    &ts_cpu_embedding_bag_table,
    &ts_cpu_attention_table, &ts_cpu_random_table, &ts_cpu_einsum_table,
    &ts_cpu_grid_sample_table, &ts_cpu_nested_table,
    &ts_cpu_loss_more_table, &ts_cpu_ctc_table, &ts_cpu_distance_table, &ts_cpu_unpool_table,
    &ts_cpu_tensordot_table,
    &ts_cpu_openblas_table,
    &ts_cpu_decomp_table, &ts_cpu_spectral_table, &ts_cpu_linalg_extra_table,
    &ts_cpu_special_table,
    &ts_cpu_overloads_table,
};

TsKernelFn ts_cpu_find_kernel(const char *qualname, const char *overload)
{
    static const TsCpuTable *const shared[] = { &ts_aten_view_table, &ts_aten_random_table };
    for (size_t t = 0; t < sizeof tables / sizeof tables[0] + 2; t++) {
        const TsCpuTable *tab = t < sizeof tables / sizeof tables[0]
                                    ? tables[t] : shared[t - sizeof tables / sizeof tables[0]];
        for (size_t i = 0; i < tab->n; i++)
            if (strcmp(tab->ops[i].qualname, qualname) == 0 &&
                strcmp(tab->ops[i].overload, overload) == 0)
                return tab->ops[i].fn;
    }
    return NULL;
}

/* The tensor-printing hook of core/value/print.h; the prim plugin may declare it too (identical
 * declarations are shared). */
static const char format_schema[] = "tscript::format_tensor(Tensor self) -> str";

/* The copy the shared kernels ask for (reshape of a tensor no view expresses). */
static TsTensor *contiguous_copy(const TsTensor *src, TsError *err)
{
    return ts_cpu_cast(src, src->dtype, err);
}

static const TsAtenBackend cpu_backend = {
    .device_type = TS_DEV_CPU,
    .contiguous_copy = contiguous_copy,
    .name = "cpu",
    .empty = ts_cpu_random_empty,
    .copy_into = ts_cpu_random_copy_into,
    .draw = ts_cpu_random_draw,
    .outside_unit = ts_cpu_random_outside_unit,
};

static int init(TsRegistry *r, TsError *err)
{
    int rc = ts_cpu_blas_check_setting(err);       /* the config's blas_core */
    if (!rc)
        rc = ts_register_allocator(r, "cpu", &ts_cpu_allocator, err);
    if (!rc)
        rc = ts_register_schema(r, format_schema, err);
    if (!rc)
        rc = ts_register_schema(r, TS_BACKEND_INFO_SCHEMA, err);
    if (!rc)
        rc = ts_aten_set_backend(&cpu_backend, err);
    if (!rc)
        rc = ts_aten_register_views(r, "cpu", err);
    if (!rc)
        rc = ts_aten_register_random(r, "cpu", err);
    if (!rc)
        rc = ts_cpu_overloads_register(r, err);
    for (size_t t = 0; !rc && t < sizeof tables / sizeof tables[0]; t++)
        for (size_t i = 0; !rc && i < tables[t]->n; i++) {
            const TsCpuOp *op = &tables[t]->ops[i];
            rc = ts_register_kernel(r, op->qualname, op->overload, "cpu", op->fn, err);
        }
    if (!rc)
        rc = ts_cpu_register_out_variants(r, err);
    return rc;
}

static const char *const schema_files[] = { "aten.yaml", "aten_nn.yaml", "aten_shape.yaml", "aten_reduce.yaml", "aten_tensor.yaml",
                                            "aten_layers.yaml", "aten_linalg.yaml", "aten_special.yaml",
                                            "aten_loss.yaml", "aten_out.yaml",
                                            "aten_overloads.yaml",
                                            "torch.nn.functional.py", "torch.functional.py",
                                            "torch.nn.init.py", NULL };

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "aten-cpu", schema_files, init, ts_cpu_block_drain
};
