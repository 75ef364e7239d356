/* fused.c — the kernels of dnnl::conv_add and dnnl::conv_bn: a convolution, the batch norm
 * after it (in inference) folded in, the tensor added to the result (a residual connection)
 * and the relu after that, in one oneDNN convolution (fuse.c makes these nodes):
 *
 *   dnnl::conv_add(conv{nd}d's 7 arguments, int nd, int post, Tensor other, int add)
 *   dnnl::conv_bn(conv{nd}d's 7 arguments, int nd, int post, Tensor? other, int add,
 *                 batch_norm's 8 arguments after its input)
 *
 * add says how the graph added other (alpha 1): DN_ADD_NONE, DN_ADD (aten::add(y, other)),
 * DN_ADD_FIRST (aten::add(other, y)) or DN_ADD_INPLACE (aten::add_(y, other)).
 *
 * A batch norm in inference is y * a + b per channel (norm.c's map): the weight is scaled by
 * a per output channel (weight.c keeps the scaled weight, keyed by a's values) and the bias
 * becomes bias * a + b, in float32 (for bfloat16 too). The add is oneDNN's sum post-op:
 * other, of the result's sizes and dtype, is copied into the destination before the
 * convolution (reordered into its layout), or is the destination where the call holds its
 * last reference and it has the result's layout (dn_may_reuse: nobody else sees it
 * written). The sum comes before the relu, as the graph had them.
 *
 * Everything else — a batch norm in training or with parameters norm.c does not take, an
 * other that broadcasts or is of another dtype, a weight not contiguous, a call oneDNN does
 * not take — runs as the nodes did, one after the other: aten-cpu's convolution, the batch
 * norm (norm.c or aten-cpu), aten-cpu's add or add_ (whose kernels this file replaces to
 * reach them, every call of them handed on untouched), then the relu; so results and errors
 * are theirs.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "dn.h"

/* aten-cpu's add.Tensor and add_.Tensor. */
static _Atomic(TsKernelFn) add_kernel, add_inplace_kernel;

static int k_add(TsCall *c) { return atomic_load_explicit(&add_kernel, memory_order_relaxed)(c); }

static int k_add_inplace(TsCall *c)
{
    return atomic_load_explicit(&add_inplace_kernel, memory_order_relaxed)(c);
}

/* Whether other may be the sum post-op's tensor for cv: the result's sizes and data type. */
static bool sum_fits(const DnConv *cv, const TsTensor *other)
{
    int64_t sizes[5], strides[5];
    int skip = cv->key.nd + 2 - cv->out_dim;
    dn_out_layout(&cv->key, sizes, strides);
    if (dn_dtype(other) != (dnnl_data_type_t)cv->key.dt || other->dim != cv->out_dim)
        return false;
    for (int i = 0; i < cv->out_dim; i++)
        if (other->sizes[i] != sizes[skip + i])
            return false;
    return true;
}

static float bias_at(const TsTensor *b, int64_t i)
{
    const void *d = ts_tensor_data(b);
    return b->dtype == TS_BFLOAT16 ? dn_bf16_to_float(((const uint16_t *)d)[i])
                                   : ((const float *)d)[i];
}

/* Folds the batch norm of arguments bn into cv: *ab (made here, the caller frees it) holds
 * the weight's scale and the new bias. False when norm.c's map does not apply. */
static bool fold(DnConv *cv, const TsValue *bn, float **ab)
{
    int64_t ch = cv->key.cout;
    if (cv->key.transposed || !ts_tensor_is_contiguous(cv->w) ||
        !dn_bn_fits(bn, ch, (dnnl_data_type_t)cv->key.dt) ||
        !(*ab = malloc((size_t)ch * 2 * sizeof **ab)))
        return false;
    float *a = *ab, *b = *ab + ch;
    dn_bn_map(bn, ch, a, b);
    if (cv->b)
        for (int64_t k = 0; k < ch; k++)
            b[k] += bias_at(cv->b, k) * a[k];
    cv->scale = a;
    cv->bias_f32 = b;
    cv->key.bias = DN_BIAS_F32;
    return true;
}

/* The nodes one after the other; the n arguments on the stack (bn: the batch norm's 8 after
 * the first 11). */
static int unfused(TsCall *c, size_t n, bool bn, int nd, int post, int add)
{
    TsStack *s = c->stack;
    TsValue tail[12];                  /* nd, post, other, add, then the batch norm's 8 */
    size_t nt = n - 7, used = 4;       /* tail[used..nt): still ours to release */
    memcpy(tail, ts_stack_arg(s, n, 7), nt * sizeof *tail);
    s->len -= nt;
    int rc = dn_conv_replaced(c, nd);
    for (; !rc && bn && used < nt; used++)
        rc = ts_stack_push(s, tail[used], c->error);
    if (!rc && bn)
        rc = dn_batch_norm(c);
    if (!rc && add != DN_ADD_NONE) {
        TsValue y = s->data[--s->len], other = tail[2];
        tail[2] = ts_none();           /* handed to the stack */
        rc = ts_stack_push(s, add == DN_ADD_FIRST ? other : y, c->error);
        if (rc)
            ts_value_release(add == DN_ADD_FIRST ? y : other);
        else
            rc = ts_stack_push(s, add == DN_ADD_FIRST ? y : other, c->error);
        if (!rc)
            rc = ts_stack_push(s, ts_int(1), c->error);
        if (!rc && add == DN_ADD_INPLACE)
            rc = dn_call_replaced(c, "aten::add_", "Tensor",
                                  atomic_load_explicit(&add_inplace_kernel, memory_order_relaxed));
        else if (!rc)
            rc = dn_call_replaced(c, "aten::add", "Tensor",
                                  atomic_load_explicit(&add_kernel, memory_order_relaxed));
    }
    ts_value_release(tail[2]);
    for (; used < nt; used++)
        ts_value_release(tail[used]);
    if (rc || !(post & ~DN_MAY_LAST))
        return rc;
    return dn_post_apply((TsTensor *)ts_stack_arg(s, 1, 0)->u.p, post, c->error);
}

/* The kernel of n arguments, bn: with a batch norm. */
static int fused_call(TsCall *c, size_t n, bool bn)
{
    int nd, post;
    int rc = dn_conv_nd_post(c, n, 0, &nd, &post);
    if (rc)
        return rc;
    const TsValue *v = ts_stack_arg(c->stack, n, 0);
    TsTensor *other = v[9].tag == TS_TAG_TENSOR ? (TsTensor *)v[9].u.p : NULL;
    if (v[10].tag != TS_TAG_INT || v[10].u.i < DN_ADD_NONE || v[10].u.i > DN_ADD_INPLACE ||
        (v[10].u.i != DN_ADD_NONE && !other) || (!bn && v[10].u.i == DN_ADD_NONE))
        return ts_error_set(c->error, TS_ERR_RUNTIME, "%s: bad arguments",
                            bn ? "dnnl::conv_bn" : "dnnl::conv_add");
    int add = (int)v[10].u.i;
    DnConv cv;
    float *ab = NULL;
    if (dn_conv_read_fused(c, n, nd, post, &cv) && (!bn || fold(&cv, v + 11, &ab)) &&
        (add == DN_ADD_NONE || sum_fits(&cv, other))) {
        if (add != DN_ADD_NONE) {
            cv.sum = other;
            cv.key.post |= DN_POST_SUM;
            dn_src_strides(other, nd + 2, cv.key.sum_strides);
        }
        rc = dn_conv_call(c, &cv, n);
        free(ab);
        return rc == DN_HAND_ON ? unfused(c, n, bn, nd, post, add) : rc;
    }
    free(ab);
    return unfused(c, n, bn, nd, post, add);
}

static int k_conv_add(TsCall *c) { return fused_call(c, 11, false); }
static int k_conv_bn(TsCall *c) { return fused_call(c, 19, true); }

int dn_register_fused(TsRegistry *r, TsError *err)
{
    TsKernelFn prev = NULL;
    int rc = ts_override_kernel(r, "aten::add", "Tensor", "cpu", k_add, &prev, err);
    if (rc)
        return rc;
    atomic_store_explicit(&add_kernel, prev, memory_order_relaxed);
    if ((rc = ts_override_kernel(r, "aten::add_", "Tensor", "cpu", k_add_inplace, &prev, err)))
        return rc;
    atomic_store_explicit(&add_inplace_kernel, prev, memory_order_relaxed);
    if ((rc = ts_register_kernel(r, "dnnl::conv_add", "", "cpu", k_conv_add, err)))
        return rc;
    return ts_register_kernel(r, "dnnl::conv_bn", "", "cpu", k_conv_bn, err);
}
