/* norm.c — batch_norm in inference, and dnnl::batch_norm, the batch norm with the relu or
 * relu6 that followed it in the graph (fuse.c).
 *
 * In inference a batch norm is an affine map per channel, y = x * a + b with
 * a = weight / sqrt(running_var + eps) and b = bias - running_mean * a, made as PyTorch's CPU
 * kernel makes them (1 / sqrt(var + eps) and a in float, b one fused multiply-add rounded to
 * float, y another: the product in double is exact), a pass over memory
 * that the relu joins. It runs here for float32 and bfloat16 inputs (parameters of the
 * input's dtype, or float32 ones for bfloat16, as PyTorch's mixed batch norm takes them;
 * bfloat16 computed in float32 and rounded once) in PyTorch's contiguous or channels-last
 * layout, in place when the input is the call's to take (dn_may_reuse: a convolution's
 * result, at its last use), threads over the runtime's workers. Everything
 * else — training, other dtypes and layouts, arguments PyTorch refuses — goes to aten-cpu's
 * kernel, whose kernel this one replaces; dnnl::batch_norm then applies its relu after.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "dn.h"

static _Atomic(TsKernelFn) replaced;

/* What a call needs: the input, the output (float32 or bfloat16, as dt says), the map, the
 * layout. */
typedef struct Affine {
    const void *x;
    void *y;
    dnnl_data_type_t dt;
    float *a, *b;              /* per channel */
    int64_t ch, inner;         /* channels; elements per (image, channel) or 0: channels-last */
    float lo, hi;              /* the relu's clamp; -inf, inf without one */
} Affine;

#define F32_LOAD(v) (v)
#define F32_STORE(v) (v)

/* The loops of one element type T (its LOAD to float and STORE from it): plane, y[i] =
 * clamp(x[i] * a + b) over one channel's plane of n elements (y may be x); pixels, the same
 * over n pixels of ch channels each (channels-last), channel c's a[c] and b[c]. */
#define AFFINE_LOOPS(SUFFIX, T, LOAD, STORE) \
    static DN_VECTORIZE void plane_##SUFFIX(const T *x, T *y, int64_t n, float a, float b, \
                                         float lo, float hi) \
    { \
        for (int64_t i = 0; i < n; i++) { \
            float v = (float)((double)LOAD(x[i]) * a + b); \
            y[i] = STORE(v < lo ? lo : v > hi ? hi : v); \
        } \
    } \
    static DN_VECTORIZE void pixels_##SUFFIX(const T *x, T *y, int64_t n, int64_t ch, \
                                          const float *a, const float *b, float lo, float hi) \
    { \
        for (int64_t p = 0; p < n; p++, x += ch, y += ch) \
            for (int64_t c = 0; c < ch; c++) { \
                float v = (float)((double)LOAD(x[c]) * a[c] + b[c]); \
                y[c] = STORE(v < lo ? lo : v > hi ? hi : v); \
            } \
    } \
    static void rows_##SUFFIX(const Affine *m, int64_t b, int64_t e) \
    { \
        const T *x = m->x; \
        T *y = m->y; \
        if (!m->inner) { \
            pixels_##SUFFIX(x + b * m->ch, y + b * m->ch, e - b, m->ch, m->a, m->b, m->lo, \
                            m->hi); \
            return; \
        } \
        for (int64_t r = b; r < e; r++) { \
            int64_t c = r % m->ch; \
            plane_##SUFFIX(x + r * m->inner, y + r * m->inner, m->inner, m->a[c], m->b[c], \
                           m->lo, m->hi); \
        } \
    }
AFFINE_LOOPS(f32, float, F32_LOAD, F32_STORE)
AFFINE_LOOPS(bf16, uint16_t, dn_bf16_to_float, dn_float_to_bf16)
#undef AFFINE_LOOPS

/* Rows [b, e): a row is one (image, channel) plane, or one pixel's channels. */
static int affine_rows(void *ctx, int64_t b, int64_t e, TsError *err)
{
    const Affine *m = ctx;
    (void)err;
    if (m->dt == dnnl_bf16)
        rows_bf16(m, b, e);
    else
        rows_f32(m, b, e);
    return 0;
}

/* A 1-d tensor of ch elements on the cpu of data type dt, or None when optional. */
static bool vec_ok(TsValue v, int64_t ch, bool optional, dnnl_data_type_t dt)
{
    if (v.tag == TS_TAG_NONE)
        return optional;
    const TsTensor *t = (const TsTensor *)v.u.p;
    return v.tag == TS_TAG_TENSOR && dn_dtype(t) == dt && t->dim == 1 && t->sizes[0] == ch;
}

/* Whether the parameters v[1..4] are of ch elements of data type dt each. */
static bool params_of(const TsValue *v, int64_t ch, dnnl_data_type_t dt)
{
    return vec_ok(v[1], ch, true, dt) && vec_ok(v[2], ch, true, dt) &&
           vec_ok(v[3], ch, false, dt) && vec_ok(v[4], ch, false, dt);
}

static double vec_at(TsValue v, int64_t i, double none)
{
    if (v.tag == TS_TAG_NONE)
        return none;
    const TsTensor *t = (const TsTensor *)v.u.p;
    int64_t at = i * t->strides[0];
    if (t->dtype == TS_BFLOAT16)
        return dn_bf16_to_float(((const uint16_t *)ts_tensor_data(t))[at]);
    return ((const float *)ts_tensor_data(t))[at];
}

/* The batch norm of the 10 or 9 arguments v (input, weight, bias, running_mean, running_var,
 * training, momentum, eps, cudnn_enabled) in inference, with post: false when it is not
 * for this file; else 0 and *out the result, or an error. */
static bool run(TsCall *c, const TsValue *v, int post, TsTensor **out, int *rc)
{
    *rc = 0;
    if (v[0].tag != TS_TAG_TENSOR || v[5].tag != TS_TAG_BOOL || v[5].u.b ||
        v[7].tag != TS_TAG_DOUBLE)
        return false;
    TsTensor *x = (TsTensor *)v[0].u.p;
    bool last = dn_is_channels_last(x);
    dnnl_data_type_t dt = dn_dtype(x);
    if (dt == dnnl_data_type_undef || x->dim < 2 || ts_tensor_numel(x) == 0 ||
        (!ts_tensor_is_contiguous(x) && !last))
        return false;
    int64_t ch = x->sizes[1];
    if (!params_of(v, ch, dt) && !(dt == dnnl_bf16 && params_of(v, ch, dnnl_f32)))
        return false;
    TsError *err = c->error;
    Affine m = { ts_tensor_data(x), NULL, dt, malloc((size_t)ch * 2 * sizeof(float)), NULL, ch,
                 0, post ? 0.0f : -INFINITY, post & DN_POST_RELU6 ? 6.0f : INFINITY };
    TsTensor *o = NULL;
    if (!m.a) {
        *rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return true;
    }
    m.b = m.a + ch;
    double eps = v[7].u.d;
    for (int64_t k = 0; k < ch; k++) {
        float invstd = 1.0f / sqrtf((float)vec_at(v[4], k, 0) + (float)eps);
        m.a[k] = invstd * (float)vec_at(v[1], k, 1.0);
        m.b[k] = (float)(vec_at(v[2], k, 0.0) - vec_at(v[3], k, 0) * m.a[k]);
    }
    if (dn_may_reuse(c, x)) {
        ts_tensor_retain(x);
        o = x;
    } else {
        TsAllocator *alloc = ts_runtime_allocator(c->runtime, TS_DEV_CPU);
        o = ts_tensor_empty(alloc, x->device, x->dtype, x->dim, x->sizes, err);
        if (o && last && ts_tensor_set_shape(o, x->dim, x->sizes, x->strides, 0, err)) {
            ts_tensor_release(o);
            o = NULL;
        }
        if (o)
            o->flags |= x->flags & DN_FLAG_CHOSEN_LAST;
    }
    if (o) {
        m.y = ts_tensor_data(o);
        int64_t rows = ts_tensor_numel(x) / ch;
        if (!last) {
            m.inner = rows / x->sizes[0];
            rows = x->sizes[0] * ch;
        }
        int64_t per_row = last ? ch : m.inner, grain = 32768 / (per_row ? per_row : 1) + 1;
        *rc = ts_parallel_for(0, rows, grain, affine_rows, &m, err);
        if (*rc) {
            ts_tensor_release(o);
            o = NULL;
        }
    } else {
        *rc = err->code;
    }
    free(m.a);
    *out = o;
    return true;
}

/* The kernel of 9 + extra arguments: this file's, else aten-cpu's then the relu. */
static int batch_norm_call(TsCall *c, size_t extra, int post)
{
    size_t n = 9 + extra;
    if (c->stack->len < n)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "batch_norm: too few arguments");
    TsTensor *o = NULL;
    int rc;
    if (run(c, ts_stack_arg(c->stack, n, 0), post, &o, &rc)) {
        ts_stack_drop(c->stack, n);
        return rc ? rc : ts_stack_push(c->stack, ts_obj_value(o, TS_TAG_TENSOR), c->error);
    }
    c->stack->len -= extra;            /* post: an int */
    rc = dn_call_replaced(c, "aten::batch_norm", "",
                          atomic_load_explicit(&replaced, memory_order_relaxed));
    if (rc || !post)
        return rc;
    return dn_post_apply((TsTensor *)ts_stack_arg(c->stack, 1, 0)->u.p, post, c->error);
}

/* aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
 *   Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) */
static int k_batch_norm(TsCall *c) { return batch_norm_call(c, 0, 0); }

/* dnnl::batch_norm(..., bool cudnn_enabled, int post) -> Tensor */
static int k_dnnl_batch_norm(TsCall *c)
{
    const TsValue *post = c->stack->len >= 10 ? ts_stack_arg(c->stack, 1, 0) : NULL;
    if (!post || post->tag != TS_TAG_INT || (post->u.i & ~(DN_POST_RELU | DN_POST_RELU6)))
        return ts_error_set(c->error, TS_ERR_RUNTIME, "dnnl::batch_norm: bad arguments");
    return batch_norm_call(c, 1, (int)post->u.i);
}

int dn_register_norm(TsRegistry *r, TsError *err)
{
    TsKernelFn prev = NULL;
    int rc = ts_override_kernel(r, "aten::batch_norm", "", "cpu", k_batch_norm, &prev, err);
    if (rc)
        return rc;
    atomic_store_explicit(&replaced, prev, memory_order_relaxed);
    return ts_register_kernel(r, "dnnl::batch_norm", "", "cpu", k_dnnl_batch_norm, err);
}
