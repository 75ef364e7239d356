/* cpu.h — what the aten-cpu plugin's files share: registration tables, the allocator,
 * argument helpers, and the per-dtype macros kernels expand their loops from.
 *
 * Each op family file (factory.c, binary.c, ...) exports one table of kernels; cpu.c
 * registers them all for the "cpu" backend, with the metadata-only kernels every backend
 * shares (views, size queries: aten-common's ts_aten_view_table). Kernels bind all their
 * arguments by their operator's schema first (ts_args_pop, tscript/aten.h), work on
 * borrowed pointers, and end with one of aten.h's endings, which release the arguments and
 * push the result: one shape for every kernel, and no path that leaks a reference.
 */
#ifndef TS_ATEN_CPU_H
#define TS_ATEN_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tscript/aten.h"
#include "engine/block_cache.h"

/* A kernel and a family's table of them: aten.h's, so that aten-common's shared kernels
 * (ts_aten_view_table) are one more table here. */
typedef TsAtenKernel TsCpuOp;
typedef TsAtenTable TsCpuTable;

extern const TsCpuTable ts_cpu_factory_table;   /* factory.c: empty, zeros, ones, full, fill_ */
extern const TsCpuTable ts_cpu_binary_table;    /* binary.c: arithmetic, comparisons, ... */
extern const TsCpuTable ts_cpu_ternary_table;   /* ternary.c: lerp, addcmul, addcdiv, addr */
extern const TsCpuTable ts_cpu_unary_table;     /* unary.c: math, rounding, aten::to */
extern const TsCpuTable ts_cpu_select_table;    /* select.c: where, masked_fill, clamp */
extern const TsCpuTable ts_cpu_linalg_table;    /* linalg.c: mm */
extern const TsCpuTable ts_cpu_format_table;    /* format.c: tscript::format_tensor */
extern const TsCpuTable ts_cpu_blas_table, ts_cpu_conv_table, ts_cpu_pool_table,
    ts_cpu_norm_table, ts_cpu_activation_table, ts_cpu_resample_table, ts_cpu_loss_table,
    ts_cpu_nn_table, ts_cpu_loss_pointwise_table, ts_cpu_rnn_table;   /* the nn ops: nn.h */
extern const TsCpuTable ts_cpu_pool_adaptive_table; /* pool_adaptive.c: adaptive pools */
extern const TsCpuTable ts_cpu_nn_extra_table;  /* nn_extra.c: dropout variants, pixel shuffle, ... */
extern const TsCpuTable ts_cpu_fold_table;      /* fold.c: im2col, col2im */
extern const TsCpuTable ts_cpu_copy_table;      /* copy.c: contiguous, clone, copy_ */
extern const TsCpuTable ts_cpu_join_table;      /* join.c: cat, stack, repeat, flip, roll, ... */
extern const TsCpuTable ts_cpu_reduce_table, ts_cpu_scan_table, ts_cpu_sort_table; /* reduce.c, scan.c, sort.c */
extern const TsCpuTable ts_cpu_index_table;     /* index.c: gather, index, index_put_, ... */
extern const TsCpuTable ts_cpu_create_table;    /* create.c: *_like, arange, tensor, item, ... */
extern const TsCpuTable ts_cpu_query_table;     /* query.c: Int/Float/Bool.Tensor, result_type */
extern const TsCpuTable ts_cpu_tensor_lists_table; /* tensor_lists.c: ==, sort, count of List[Tensor] */
extern const TsCpuTable ts_cpu_close_table;     /* close.c: isclose, allclose, equal */
extern const TsCpuTable ts_cpu_scatter_table;   /* scatter.c: scatter*, index_add/fill/copy */
extern const TsCpuTable ts_cpu_compose_table;   /* compose.c: rot90, vstack, diff, trace, ... */
extern const TsCpuTable ts_cpu_compose_more_table; /* compose_more.c: dist, renorm, addbmm, ... */
extern const TsCpuTable ts_cpu_compose_stats_table; /* compose_stats.c: trapezoid, cov, ... */
extern const TsCpuTable ts_cpu_quantile_table;  /* quantile.c: quantile, nanquantile */
extern const TsCpuTable ts_cpu_arrangements_table; /* arrangements.c: combinations, vander */
extern const TsCpuTable ts_cpu_view_copies_table; /* view_copies.c: permute_copy, ... */
extern const TsCpuTable ts_cpu_histogram_table; /* histogram.c */
extern const TsCpuTable ts_cpu_derived_table;   /* derived.c: tril_, concat, take_along_dim, ... */
extern const TsCpuTable ts_cpu_isin_table;      /* isin.c */
extern const TsCpuTable ts_cpu_window_table;    /* window.c: hann, hamming, ... windows */
extern const TsCpuTable ts_cpu_scatter_views_table; /* scatter_views.c: select_scatter, put_ */
extern const TsCpuTable ts_cpu_resize_table;    /* resize.c: resize_, resize_as_ */
extern const TsCpuTable ts_cpu_strided_table;   /* strided.c: narrow.Tensor, narrow_copy, ... */
extern const TsCpuTable ts_cpu_interleave_table; /* interleave.c: repeat_interleave, kron, ... */
extern const TsCpuTable ts_cpu_bucket_table;    /* bucket.c: searchsorted, bincount, histc */
extern const TsCpuTable ts_cpu_cumext_table;    /* cumext.c: cummax, cummin */
extern const TsCpuTable ts_cpu_unique_table;    /* unique.c: _unique2, unique_dim, ... */
extern const TsCpuTable ts_cpu_order_table;     /* order.c: mode, nanmedian, msort */
/* The layers of schemas/aten_layers.yaml (layers.mk): */
extern const TsCpuTable ts_cpu_conv_transpose_table; /* conv_transpose.c */
extern const TsCpuTable ts_cpu_rnn_layers_table; /* rnn_layers.c: lstm, gru, rnn_* layers */
extern const TsCpuTable ts_cpu_packed_table;    /* packed.c: packed and padded sequences */
extern const TsCpuTable ts_cpu_embedding_bag_table; /* embedding_bag.c */
extern const TsCpuTable ts_cpu_attention_table; /* attention.c: MHA and encoder fast paths */
extern const TsCpuTable ts_cpu_random_table;    /* random.c: randperm */
extern const TsCpuTable ts_cpu_einsum_table;    /* einsum.c */
extern const TsCpuTable ts_cpu_grid_sample_table; /* grid_sample.c: grid_sampler, affine grids */
extern const TsCpuTable ts_cpu_nested_table;    /* nested.c: nested tensors from masks */
/* torch.linalg on LAPACK (linalg/lapack.h) and torch.special (pointwise/special.c): */
extern const TsCpuTable ts_cpu_decomp_table, ts_cpu_spectral_table, ts_cpu_linalg_extra_table,
    ts_cpu_special_table;
/* The losses, distances and contractions of schemas/aten_loss.yaml: */
extern const TsCpuTable ts_cpu_loss_more_table, ts_cpu_ctc_table, ts_cpu_distance_table,
    ts_cpu_unpool_table, ts_cpu_tensordot_table;
/* overloads.c: the second overloads of schemas/aten_overloads.yaml (named, Generator?, ...) */
extern const TsCpuTable ts_cpu_overloads_table;
/* and its kernel factory (einsum.sublist, variadic) */
int ts_cpu_overloads_register(TsRegistry *r, TsError *err);

/* The one element of a cpu tensor that has exactly one, as an int, float or bool value
 * (query.c). */
TsValue ts_cpu_one_value(const TsTensor *t);

/* The "cpu" allocator (cpu.c): 64-byte aligned blocks; zero bytes gives a valid block. */
extern TsAllocator ts_cpu_allocator;


/* ---- kernels calling kernels, and the out= ending (call.c) ----------------------- */

/* Runs the kernel of qualname.overload in table on the n values of args (their references
 * are taken), bound by that operator's schema, and puts its one result in *out (None on
 * failure, error set). */
int ts_cpu_call_kernel(TsCall *c, const TsCpuTable *table, const char *qualname,
                       const char *overload, size_t n, TsValue *args, TsValue *out);
/* An int[] value of the n ints (the argument a called kernel takes); None with err set when
 * out of memory. */
TsValue ts_cpu_int_list(TsError *err, int n, const int64_t *v);
/* The same for a kernel that returns one tensor: it, or NULL with the error set. */
TsTensor *ts_cpu_call_tensor(TsCall *c, const TsCpuTable *table, const char *qualname,
                             const char *overload, size_t n, TsValue *args);
/* Writes result into the out= tensor out, resized to result's shape and cast to its dtype
 * (as sum.out does; PyTorch's stricter dtype checks of some out= forms are not made). */
int ts_cpu_store_out(TsTensor *out, const TsTensor *result, TsError *err);
/* The end of a kernel with an out= form (out): without out, ts_args_return_tensor; with
 * it, result (taken; NULL on failure) is stored into the last argument, which is pushed. */
int ts_cpu_return_out(TsArgs *a, int rc, TsTensor *result, bool out);

/* ---- dtypes (convert.c) ----------------------------------------------------- */

/* 0, or PyTorch's refusal of a dtype the cpu backend has no loops for (complex and
 * quantized ones): "dtype ComplexFloat is not supported by the cpu backend". */
int ts_cpu_check_dtype(int dtype, TsError *err);

/* ---- filling (fill.c) -------------------------------------------------------- */

/* Fills every element of t (any strides) with the esize-byte pattern elem. */
void ts_cpu_fill(TsTensor *t, const void *elem);

#endif
