/* copy.c — the ops that copy elements into a layout: contiguous, clone and copy_.
 *
 * contiguous returns self itself when it already is, in the memory format asked (PyTorch
 * does too: no copy, the same tensor); clone keeps a dense tensor's strides
 * (preserve_format) or makes the format asked (channels_last ...), as PyTorch does; copy_
 * broadcasts src to self's shape and converts dtypes; like PyTorch it refuses a src that
 * partly overlaps self (x[1:].copy_(x[:-1])) rather than read elements it already wrote.
 */
#include "shape/shape_ops.h"

/* aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a): self when
 * it is laid out so already, else a copy in that format (contiguous, channels_last,
 * channels_last_3d). */
static int k_contiguous(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    int64_t mf = !rc && a.v[1].tag == TS_TAG_INT ? a.v[1].u.i : TS_ATEN_MF_CONTIGUOUS;
    /* PyTorch asks the tensor first, and preserve_format asks for plain contiguity */
    if (rc)
        ;
    else if (ts_aten_is_contiguous_as(t, mf == TS_ATEN_MF_PRESERVE ? TS_ATEN_MF_CONTIGUOUS
                                                                   : mf)) {
        ts_tensor_retain(t);
        r = t;
    } else if (mf == TS_ATEN_MF_PRESERVE) {
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "preserve memory format is unsupported by the contiguous operator");
    } else if ((r = ts_cpu_empty_format(t->dtype, t->dim, t->sizes, mf, c->error))) {
        ts_cpu_copy_into(r, t);
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor: always a copy,
 * keeping a dense tensor's strides (preserve_format, the default) or in the format asked. */
static int k_clone(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    int64_t mf = !rc && a.v[1].tag == TS_TAG_INT ? a.v[1].u.i : TS_ATEN_MF_PRESERVE;
    if (!rc && (r = mf == TS_ATEN_MF_PRESERVE
                        ? ts_cpu_empty_like(t, t->dtype, c->error)
                        : ts_cpu_empty_format(t->dtype, t->dim, t->sizes, mf, c->error)))
        ts_cpu_copy_into(r, t);
    return ts_args_return_tensor(&a, rc, r);
}

int ts_cpu_copy_checked(TsError *err, TsTensor *dst, const TsTensor *src)
{
    /* copy_ of a tensor onto itself does nothing (PyTorch returns at once) */
    if (dst != src && ts_cpu_check_internal_overlap(dst, err))
        return err->code;
    TsTensor *pair[2] = { dst, (TsTensor *)src };
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int dim;
    if (ts_aten_broadcast_shape(2, pair, &dim, sizes, err))
        return err->code;
    bool same = dim == dst->dim;
    for (int d = 0; same && d < dim; d++)
        same = sizes[d] == dst->sizes[d];
    if (!same) {
        char b1[256], b2[256];
        ts_aten_format_sizes(b1, sizeof b1, dim, sizes);
        ts_aten_format_sizes(b2, sizeof b2, dst->dim, dst->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "output with shape %s doesn't match the "
                            "broadcast shape %s", b2, b1);
    }
    if (ts_tensor_numel(dst) == 0)
        return 0;
    if (ts_cpu_partial_overlap(dst, src))
        return ts_cpu_input_overlap_error(err);
    ts_cpu_copy_into(dst, src);
    return 0;
}

/* aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
 * aten::copy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!) */
static int k_copy(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *s;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 1, &s);
    if (!rc) rc = ts_cpu_copy_checked(c->error, t, s);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::copy_.int(Tensor(a!) self, int other) and copy_.float: fill with the number,
 * converted like a 0-dim tensor of its own type copied in. */
static int k_copy_scalar(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *s = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && !(s = ts_cpu_wrap_scalar(a.v[1], c->error)))
        rc = c->error->code;
    if (!rc) rc = ts_cpu_copy_checked(c->error, t, s);
    if (s)
        ts_tensor_release(s);
    return ts_args_return_arg(&a, rc, 0);
}

static const TsCpuOp ops[] = {
    { "aten::contiguous", "", k_contiguous },
    { "aten::clone", "", k_clone },
    { "aten::copy_", "", k_copy },
    { "aten::copy_", "Tensor", k_copy },
    { "aten::copy_", "int", k_copy_scalar },
    { "aten::copy_", "float", k_copy_scalar },
};

const TsCpuTable ts_cpu_copy_table = { ops, sizeof ops / sizeof ops[0] };
