/* copy.c — the ops that copy elements into a layout: contiguous, clone and copy_.
 *
 * contiguous returns self itself when it already is (PyTorch does too: no copy, the same
 * tensor); clone keeps a dense tensor's strides (preserve_format), as PyTorch does; copy_
 * broadcasts src to self's shape and converts dtypes; like PyTorch it refuses a src that
 * partly overlaps self (x[1:].copy_(x[:-1])) rather than read elements it already wrote.
 */
#include "shape/shape_ops.h"

/* PyTorch's MemoryFormat numbering. */
enum { MF_CONTIGUOUS = 0, MF_PRESERVE = 1 };

/* aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a) */
static int k_contiguous(TsCall *c)
{
    TsValue a[2];
    TsTensor *r = NULL;
    ts_cpu_pop_args(c, 2, a);
    TsTensor *t = ts_cpu_tensor_arg(c, "aten::contiguous", "self", a[0]);
    int64_t mf = a[1].tag == TS_TAG_INT ? a[1].u.i : MF_CONTIGUOUS;
    if (!t)
        ;
    else if (mf == MF_PRESERVE)
        ts_error_set(c->error, TS_ERR_RUNTIME,
                     "preserve memory format is unsupported by the contiguous operator");
    else if (mf != MF_CONTIGUOUS)
        ts_error_set(c->error, TS_ERR_RUNTIME,
                     "contiguous: the cpu backend supports only torch.contiguous_format");
    else if (ts_tensor_is_contiguous(t)) {
        ts_tensor_retain(t);
        r = t;
    } else {
        r = ts_cpu_cast(t, t->dtype, c->error);
    }
    return ts_cpu_kernel_end(c, 2, a, r);
}

/* aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor */
static int k_clone(TsCall *c)
{
    TsValue a[2];
    TsTensor *r = NULL;
    ts_cpu_pop_args(c, 2, a);
    TsTensor *t = ts_cpu_tensor_arg(c, "aten::clone", "self", a[0]);
    int64_t mf = a[1].tag == TS_TAG_INT ? a[1].u.i : MF_PRESERVE;
    if (!t)
        ;
    else if (mf != MF_PRESERVE && mf != MF_CONTIGUOUS)
        ts_error_set(c->error, TS_ERR_RUNTIME,
                     "clone: the cpu backend supports only preserve and contiguous formats");
    else if ((r = mf == MF_PRESERVE ? ts_cpu_empty_like(t, t->dtype, c->error)
                                    : ts_cpu_empty(t->dtype, t->dim, t->sizes, c->error)))
        ts_cpu_copy_into(r, t);
    return ts_cpu_kernel_end(c, 2, a, r);
}

/* Copies src into dst (broadcasting, converting); fails when the shapes do not broadcast. */
static int copy_checked(TsError *err, TsTensor *dst, const TsTensor *src)
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
static int copy_kernel(TsCall *c, size_t n)
{
    TsValue a[3];
    ts_cpu_pop_args(c, n, a);
    TsTensor *t = ts_cpu_tensor_arg(c, "aten::copy_", "self", a[0]);
    TsTensor *s = t ? ts_cpu_tensor_arg(c, "aten::copy_", "src", a[1]) : NULL;
    if (!s || copy_checked(c->error, t, s)) {
        ts_cpu_release_args(n, a);
        return c->error->code;
    }
    ts_cpu_release_args(n - 1, a + 1);
    return ts_stack_push(c->stack, a[0], c->error);
}

static int k_copy(TsCall *c) { return copy_kernel(c, 3); }
static int k_copy_tensor(TsCall *c) { return copy_kernel(c, 2); }

/* aten::copy_.int(Tensor(a!) self, int other) and copy_.float: fill with the number,
 * converted like a 0-dim tensor of its own type copied in. */
static int k_copy_scalar(TsCall *c)
{
    TsValue a[2];
    ts_cpu_pop_args(c, 2, a);
    TsTensor *t = ts_cpu_tensor_arg(c, "aten::copy_", "self", a[0]);
    TsTensor *s = t ? ts_cpu_wrap_scalar(a[1], c->error) : NULL;
    int rc = s ? copy_checked(c->error, t, s) : (int)c->error->code;
    if (s)
        ts_tensor_release(s);
    if (rc) {
        ts_cpu_release_args(2, a);
        return rc;
    }
    return ts_stack_push(c->stack, a[0], c->error);
}

static const TsCpuOp ops[] = {
    { "aten::contiguous", "", k_contiguous },
    { "aten::clone", "", k_clone },
    { "aten::copy_", "", k_copy },
    { "aten::copy_", "Tensor", k_copy_tensor },
    { "aten::copy_", "int", k_copy_scalar },
    { "aten::copy_", "float", k_copy_scalar },
};

const TsCpuTable ts_cpu_copy_table = { ops, sizeof ops / sizeof ops[0] };
