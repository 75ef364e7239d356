/* pool.c — max_pool2d on oneDNN: aten-cpu's kernel replaced (ts_override_kernel) for
 * float32 and bfloat16 inputs in PyTorch's contiguous or channels-last layout, the pooling primitive run
 * on that layout itself (prim.c), the result in it too, as PyTorch's.
 *
 * PyTorch's window: output size floor((in + 2 pad - dil (k - 1) - 1) / stride) + 1, or the
 * ceiling when ceil_mode, where a last window must start inside the input or its left
 * padding; oneDNN is told the right padding that gives that size. A nan in a window is the
 * window's maximum in PyTorch, which oneDNN's max does not promise: an input holding one
 * goes to aten-cpu, as does everything else oneDNN is not for (other dtypes and layouts,
 * arguments PyTorch refuses, with its messages).
 */
#include <stdatomic.h>
#include <string.h>

#include "dn.h"

static _Atomic(TsKernelFn) replaced;

/* Whether element i of p is a nan: a float's, or a bfloat16's (its bits). */
#define F32_NAN(p, i) ((p)[i] != (p)[i])
#define BF16_NAN(p, i) (((p)[i] & 0x7fffu) > 0x7f80u)

/* Whether the n dense elements of type T at p hold a nan, 32 at a time (the compiler
 * vectorizes it). */
#define HAS_NAN(name, T, IS_NAN) \
    static bool name(const T *p, int64_t n) \
    { \
        int64_t i = 0; \
        for (; i + 32 <= n; i += 32) { \
            int bad = 0; \
            for (int j = 0; j < 32; j++) \
                bad |= IS_NAN(p, i + j); \
            if (bad) \
                return true; \
        } \
        for (; i < n; i++) \
            if (IS_NAN(p, i)) \
                return true; \
        return false; \
    }
HAS_NAN(has_nan_f32, float, F32_NAN)
HAS_NAN(has_nan_bf16, uint16_t, BF16_NAN)
#undef HAS_NAN

/* PyTorch's pooling_output_shape. Its division rounds toward negative infinity: a window
 * wider than the padded input gives a size below 1, which aten-cpu refuses with PyTorch's
 * "Output size is too small" (C's division made it 1, and oneDNN pooled it). */
static int64_t out_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil,
                        bool ceil_mode)
{
    int64_t span = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
    int64_t o = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
    if (ceil_mode && (o - 1) * stride >= in + pad)
        o--;
    return o;
}

/* max_pool2d's six arguments v into key; false when this file does not take the call. */
static bool read_pool(const TsValue *v, DnKey *k)
{
    if (v[0].tag != TS_TAG_TENSOR || v[5].tag != TS_TAG_BOOL)
        return false;
    const TsTensor *x = (const TsTensor *)v[0].u.p;
    bool last = dn_is_channels_last(x);
    dnnl_data_type_t dt = dn_dtype(x);
    if (dt == dnnl_data_type_undef || (x->dim != 3 && x->dim != 4) || ts_tensor_numel(x) == 0 ||
        (!ts_tensor_is_contiguous(x) && !last))
        return false;
    int64_t kernel[2], stride[2], pad[2], dil[2];
    bool empty_stride = v[2].tag == TS_TAG_LIST && ((const TsList *)v[2].u.p)->len == 0;
    if (!dn_int_list(v[1], 2, kernel) || !dn_int_list(v[3], 2, pad) ||
        !dn_int_list(v[4], 2, dil) || (!empty_stride && !dn_int_list(v[2], 2, stride)))
        return false;
    memset(k, 0, sizeof *k);
    k->kind = DN_MAX_POOL;
    k->nd = 2;
    k->dt = (uint8_t)dt;
    int off = x->dim - 3;              /* 1 when batched */
    k->n = off ? x->sizes[0] : 1;
    k->cin = k->cout = x->sizes[off];
    for (int i = 0; i < 2; i++) {
        int64_t s = empty_stride ? kernel[i] : stride[i];
        if (kernel[i] < 1 || s < 1 || dil[i] < 1 || pad[i] < 0 || pad[i] > kernel[i] / 2)
            return false;
        k->in[i] = x->sizes[off + 1 + i];
        k->k[i] = kernel[i];
        k->stride[i] = s;
        k->dil[i] = dil[i];
        k->pad_l[i] = pad[i];
        k->out[i] = out_size(k->in[i], kernel[i], pad[i], s, dil[i], v[5].u.b);
        if (k->out[i] < 1)
            return false;
        /* the right padding that makes oneDNN's floor division give PyTorch's size */
        int64_t need = (k->out[i] - 1) * s + dil[i] * (kernel[i] - 1) + 1 - k->in[i] - pad[i];
        k->pad_r[i] = need > pad[i] ? need : pad[i];
    }
    k->out_last = last;
    dn_src_strides(x, 4, k->src_strides);
    return dt == dnnl_bf16 ? !has_nan_bf16(ts_tensor_data(x), ts_tensor_numel(x))
                           : !has_nan_f32(ts_tensor_data(x), ts_tensor_numel(x));
}

/* Runs the pooling p of x into a new tensor of the result's shape; NULL with err. */
static TsTensor *run_pool(TsCall *c, const DnPrim *p, const TsTensor *x)
{
    int64_t sizes[5], strides[5];
    int skip = 4 - x->dim;             /* unbatched: no batch dim in the result */
    dn_out_layout(&p->key, sizes, strides);
    TsAllocator *alloc = ts_runtime_allocator(c->runtime, TS_DEV_CPU);
    TsTensor *o = ts_tensor_empty(alloc, x->device, x->dtype, x->dim, sizes + skip, c->error);
    if (o && p->key.out_last &&
        ts_tensor_set_shape(o, x->dim, sizes + skip, strides + skip, 0, c->error)) {
        ts_tensor_release(o);
        return NULL;
    }
    if (o)
        o->flags |= x->flags & DN_FLAG_CHOSEN_LAST;
    dnnl_stream_t s = o ? dn_stream(c->error) : NULL;
    void *scratch = s ? dn_scratch(p->scratch_bytes + 64, c->error) : NULL;
    dnnl_engine_t eng = scratch ? dn_engine(c->error) : NULL;
    if (!eng) {
        if (o)
            ts_tensor_release(o);
        return NULL;
    }
    dnnl_memory_t m[3] = { NULL, NULL, NULL };
    dnnl_status_t st = dn_lib.memory_create(&m[0], &p->src_md, eng, ts_tensor_data(x));
    if (st == dnnl_success)
        st = dn_lib.memory_create(&m[1], &p->dst_md, eng, ts_tensor_data(o));
    if (st == dnnl_success)
        st = dn_lib.memory_create(&m[2], &p->scratch_md, eng, scratch);
    if (st == dnnl_success) {
        dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC, m[0] }, { DNNL_ARG_DST, m[1] },
                                    { DNNL_ARG_SCRATCHPAD, m[2] } };
        st = dn_lib.primitive_execute(p->op, s, 3, args);
    }
    if (st == dnnl_success)
        st = dn_lib.stream_wait(s);
    for (int i = 0; i < 3; i++)
        if (m[i])
            dn_lib.memory_destroy(m[i]);
    if (st != dnnl_success) {
        dn_fail(c->error, "running a max pooling", st);
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
 *                  int[2] dilation=1, bool ceil_mode=False) -> Tensor */
static int k_max_pool2d(TsCall *c)
{
    TsKernelFn prev = atomic_load_explicit(&replaced, memory_order_relaxed);
    DnKey key;
    if (c->stack->len < 6 || !read_pool(ts_stack_arg(c->stack, 6, 0), &key) || !dn_lib_open())
        return prev(c);
    TsError quiet = TS_ERROR_INIT;
    key.nthr = dn_threads_begin();
    DnPrim *p = dn_prim_get(&key, &quiet);
    ts_error_clear(&quiet);
    if (!p || p->src_reorder || p->dst_reorder) {
        if (p)
            dn_prim_release(p);
        dn_threads_end(key.nthr);
        return prev(c);
    }
    TsTensor *o = run_pool(c, p, (const TsTensor *)ts_stack_arg(c->stack, 6, 0)->u.p);
    dn_prim_release(p);
    dn_threads_end(key.nthr);
    ts_stack_drop(c->stack, 6);
    if (!o)
        return c->error->code ? (int)c->error->code : TS_ERR_RUNTIME;
    return ts_stack_push(c->stack, ts_obj_value(o, TS_TAG_TENSOR), c->error);
}

int dn_register_pool(TsRegistry *r, TsError *err)
{
    TsKernelFn prev = NULL;
    int rc = ts_override_kernel(r, "aten::max_pool2d", "", "cpu", k_max_pool2d, &prev, err);
    if (!rc)
        atomic_store_explicit(&replaced, prev, memory_order_relaxed);
    return rc;
}
