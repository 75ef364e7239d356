/* meta.c — questions about a tensor's header, answered the same on every device: its sizes,
 * dims, element count, strides, storage offset, contiguity, dtype facts, device, layout and
 * flags (aten::size, dim, numel, stride, is_contiguous, len, prim::dtype, prim::device, ...),
 * autograd's flags (requires_grad, is_leaf: tscript/tensor.h's TS_GRAD_*) and requires_grad_,
 * which sets one; real and imag of a real tensor.
 *
 * Dimension indices wrap like Python's, with PyTorch's IndexError messages.
 */
#include "views.h"

/* Pops the arguments of a kernel whose first is its one tensor. */
static int pop_tensor(TsCall *c, TsArgs *a, TsTensor **t)
{
    int rc = ts_args_pop_same_device(c, a);
    return rc ? rc : ts_args_tensor(a, 0, t);
}

/* ---- ints of the header --------------------------------------------------------------- */

/* A question answered by one int of a tensor's metadata. */
static int int_query(TsCall *c, int64_t (*get)(const TsTensor *t))
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    return ts_args_return(&a, rc, ts_int(rc ? 0 : get(t)));
}

static int64_t dim_of(const TsTensor *t) { return t->dim; }
static int64_t offset_of(const TsTensor *t) { return t->offset; }   /* in elements */
static int64_t dtype_of(const TsTensor *t) { return t->dtype; }
static int64_t strided(const TsTensor *t) { (void)t; return 0; }     /* torch.strided */

/* aten::dim(Tensor self) -> int */
int ts_aten_k_dim(TsCall *c) { return int_query(c, dim_of); }
/* aten::numel(Tensor self) -> int */
int ts_aten_k_numel(TsCall *c) { return int_query(c, ts_tensor_numel); }
/* aten::storage_offset(Tensor self) -> int */
int ts_aten_k_storage_offset(TsCall *c) { return int_query(c, offset_of); }
/* prim::dtype(Tensor a) -> int */
int ts_aten_k_dtype(TsCall *c) { return int_query(c, dtype_of); }
/* prim::layout(Tensor a) -> Layout: every tensor here is strided. */
int ts_aten_k_layout(TsCall *c) { return int_query(c, strided); }

/* An int list of the header: aten::size(Tensor self) -> int[], aten::stride -> int[]. */
static int list_query(TsCall *c, bool strides)
{
    TsArgs a;
    TsTensor *t;
    TsList *l = NULL;
    int rc = pop_tensor(c, &a, &t);
    if (!rc && (l = ts_list_new(ts_type_int(), (size_t)t->dim, c->error)))
        for (int d = 0; d < t->dim; d++)
            l->items[l->len++] = ts_int(strides ? t->strides[d] : t->sizes[d]);
    return ts_args_return_list(&a, rc, l);
}

int ts_aten_k_sizes(TsCall *c) { return list_query(c, false); }
int ts_aten_k_strides(TsCall *c) { return list_query(c, true); }

/* aten::size.int(Tensor self, int dim) -> int */
int ts_aten_k_size(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int64_t d, n = 0, size = 0;
    int rc = pop_tensor(c, &a, &t);
    if (!rc) rc = ts_args_int(&a, 1, &d);
    if (!rc)
        n = t->dim;
    if (!rc && n == 0)
        rc = ts_error_set(c->error, TS_ERR_INDEX,
                          "Dimension specified as %lld but tensor has no dimensions",
                          (long long)d);
    else if (!rc && (d < -n || d >= n))
        rc = ts_error_set(c->error, TS_ERR_INDEX,
                          "Dimension out of range (expected to be in range of [%lld, %lld], "
                          "but got %lld)", (long long)-n, (long long)(n - 1), (long long)d);
    if (!rc)
        size = t->sizes[d < 0 ? d + n : d];
    return ts_args_return(&a, rc, ts_int(size));
}

/* aten::stride.int(Tensor self, int dim) -> int */
int ts_aten_k_stride(TsCall *c)
{
    TsArgs a;
    int d;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, false, &d);
    return ts_args_return(&a, rc, ts_int(rc ? 0 : t->strides[d]));
}

/* aten::len.Tensor(Tensor t) -> int */
int ts_aten_k_len(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc && t->dim == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "len() of a 0-d tensor");
    return ts_args_return(&a, rc, ts_int(rc ? 0 : t->sizes[0]));
}

/* ---- contiguity ----------------------------------------------------------------------- */

/* aten::is_contiguous(Tensor self) -> bool
 * aten::is_contiguous.memory_format(Tensor self, MemoryFormat memory_format) -> bool */
int ts_aten_k_is_contiguous(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    int64_t mf = a.n == 2 && a.v[1].tag == TS_TAG_INT ? a.v[1].u.i : 0;
    bool yes = false;
    if (!rc && (mf == TS_ATEN_MF_CONTIGUOUS || mf == TS_ATEN_MF_CHANNELS_LAST ||
                mf == TS_ATEN_MF_CHANNELS_LAST_3D))
        yes = ts_aten_is_contiguous_as(t, mf);
    else if (!rc)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "is_contiguous: unsupported memory format %lld", (long long)mf);
    return ts_args_return(&a, rc, ts_bool(yes));
}

/* ---- dtype facts and flags ------------------------------------------------------------ */

/* A bool fact of a tensor. */
static int bool_query(TsCall *c, bool (*get)(const TsTensor *t))
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    return ts_args_return(&a, rc, ts_bool(!rc && get(t)));
}

static bool is_floating(const TsTensor *t) { return ts_dtype_is_floating(t->dtype); }
static bool is_signed(const TsTensor *t) { return t->dtype != TS_UINT8 && t->dtype != TS_BOOL; }
static bool is_complex(const TsTensor *t) { return ts_dtype_is_complex(t->dtype); }
static bool requires_grad(const TsTensor *t) { return t->requires_grad != 0; }
static bool is_cuda(const TsTensor *t) { return t->device.type == TS_DEV_CUDA; }
static bool is_cpu(const TsTensor *t) { return t->device.type == TS_DEV_CPU; }
static bool is_leaf(const TsTensor *t)
{
    return t->requires_grad != TS_GRAD_COMPUTED && t->requires_grad != TS_GRAD_LEAF_VIEW;
}
static bool never(const TsTensor *t) { (void)t; return false; }

int ts_aten_k_is_floating_point(TsCall *c) { return bool_query(c, is_floating); }
int ts_aten_k_is_signed(TsCall *c) { return bool_query(c, is_signed); }
int ts_aten_k_is_complex(TsCall *c) { return bool_query(c, is_complex); }
/* prim::requires_grad, is_cuda; and is_sparse, is_quantized, is_meta, is_mkldnn: every
 * tensor here is strided, dense and not quantized. */
int ts_aten_k_requires_grad(TsCall *c) { return bool_query(c, requires_grad); }
int ts_aten_k_is_cuda(TsCall *c) { return bool_query(c, is_cuda); }
int ts_aten_k_is_cpu(TsCall *c) { return bool_query(c, is_cpu); }
/* aten::is_leaf; aten::retains_grad: no tensor here retains its grad (retain_grad is not) */
int ts_aten_k_is_leaf(TsCall *c) { return bool_query(c, is_leaf); }
int ts_aten_k_false_flag(TsCall *c) { return bool_query(c, never); }

/* prim::name(Tensor a) -> str?: named tensors are not here */
int ts_aten_k_name(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    return ts_args_return(&a, rc, ts_none());
}

/* aten::real(Tensor(a) self) -> Tensor(a): a real tensor is its own real part (complex
 * tensors are not here); aten::imag(Tensor(a) self) -> Tensor(a) has none. */
int ts_aten_k_real(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc && ts_dtype_is_complex(t->dtype))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "real is not implemented for complex "
                          "tensors here");
    return ts_args_return_arg(&a, rc, 0);
}

int ts_aten_k_imag(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "imag is not implemented for tensors "
                          "with non-complex dtypes.");
    return ts_args_return(&a, rc, ts_none());
}

static int64_t element_size(const TsTensor *t) { return (int64_t)ts_dtype_size(t->dtype); }

/* aten::element_size(Tensor self) -> int */
int ts_aten_k_element_size(TsCall *c) { return int_query(c, element_size); }

/* prim::device(Tensor a) -> Device */
int ts_aten_k_device(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    return ts_args_return(&a, rc, rc ? ts_none() : ts_device(t->device));
}

/* aten::requires_grad_(Tensor(a!) self, bool requires_grad=True) -> Tensor(a!) */
int ts_aten_k_requires_grad_(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    bool on;
    int rc = pop_tensor(c, &a, &t);
    if (!rc) rc = ts_args_bool(&a, 1, &on);
    if (!rc && on && !ts_dtype_is_floating(t->dtype) && !ts_dtype_is_complex(t->dtype))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "only Tensors of floating point dtype "
                          "can require gradients");
    /* a computed tensor cannot stop requiring grad; one that requires it stays what it is */
    if (!rc && !on && !is_leaf(t))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "you can only change requires_grad flags "
                          "of leaf variables. If you want to use a computed variable in a "
                          "subgraph that doesn't require differentiation use var_no_grad = "
                          "var.detach().");
    if (!rc && (!on || !t->requires_grad))
        t->requires_grad = on ? TS_GRAD_LEAF : TS_GRAD_NONE;
    return ts_args_return_arg(&a, rc, 0);
}
