/* args.c — a convolution call's arguments, read where they lie on the stack, into a DnConv.
 *
 * The kernels look before they take: a call that oneDNN is not for goes to aten-cpu's kernel
 * with the stack as it came, so this file refuses (returns false) rather than reports. It
 * takes float32 or bfloat16 tensors on the cpu, input, weight and bias of one dtype (mixed
 * ones are PyTorch's errors), with the shapes PyTorch accepts (batched, or unbatched for the
 * conv{1,2,3}d forms), at least one element in and out, and the parameters within PyTorch's
 * rules: anything else, an error included, is aten-cpu's to say, in PyTorch's words. The
 * geometry follows PyTorch's: "same" padding puts the odd pixel after, and a transposed
 * convolution's output_padding is padding taken off the far side.
 */
#include <string.h>

#include "dn.h"

dnnl_data_type_t dn_dtype(const TsTensor *t)
{
    if (t->device.type != TS_DEV_CPU || !t->storage)
        return dnnl_data_type_undef;
    return t->dtype == TS_FLOAT32 ? dnnl_f32 : t->dtype == TS_BFLOAT16 ? dnnl_bf16
                                                                       : dnnl_data_type_undef;
}

int dn_ts_dtype(dnnl_data_type_t dt)
{
    return dt == dnnl_bf16 ? TS_BFLOAT16 : TS_FLOAT32;
}

/* The channels-last strides of t's sizes ([n, c, spatial...] stored as [n, spatial..., c]). */
static void channels_last_strides(const TsTensor *t, int64_t *st)
{
    int64_t step = 1;
    st[1] = step;
    step *= t->sizes[1] > 1 ? t->sizes[1] : 1;
    for (int i = t->dim - 1; i >= 2; i--) {
        st[i] = step;
        step *= t->sizes[i] > 1 ? t->sizes[i] : 1;
    }
    st[0] = step;
}

bool dn_is_channels_last(const TsTensor *t)
{
    if ((t->dim != 4 && t->dim != 5) || ts_tensor_is_contiguous(t))
        return false;
    int64_t st[5];
    channels_last_strides(t, st);
    for (int i = 0; i < t->dim; i++)
        if (t->sizes[i] > 1 && t->strides[i] != st[i])
            return false;
    return true;
}

void dn_src_strides(const TsTensor *x, int dims, int64_t *st)
{
    int64_t sizes[5];
    int off = dims - x->dim;           /* 1: unbatched, a batch of one in front */
    for (int i = 0; i < dims; i++)
        sizes[i] = i < off ? 1 : x->sizes[i - off];
    if (ts_tensor_is_contiguous(x)) {
        ts_contiguous_strides(dims, sizes, st);
        return;
    }
    if (dn_is_channels_last(x)) {
        channels_last_strides(x, st);
        return;
    }
    for (int i = 0; i < dims; i++)
        st[i] = i < off ? ts_tensor_numel(x) : x->strides[i - off];
}

bool dn_int_list(TsValue v, int nd, int64_t *out)
{
    if (v.tag == TS_TAG_INT) {
        for (int i = 0; i < nd; i++)
            out[i] = v.u.i;
        return true;
    }
    if (v.tag != TS_TAG_LIST)
        return false;
    const TsList *l = (const TsList *)v.u.p;
    if (l->len != 1 && l->len != (size_t)nd)
        return false;
    for (int i = 0; i < nd; i++) {
        TsValue e = l->items[l->len == 1 ? 0 : i];
        if (e.tag != TS_TAG_INT)
            return false;
        out[i] = e.u.i;
    }
    return true;
}

/* The output sizes from the input's, or false when PyTorch would refuse them. */
static bool out_sizes(DnKey *k, const int64_t *out_pad)
{
    for (int i = 0; i < k->nd; i++) {
        if (k->stride[i] < 1 || k->dil[i] < 1 || k->pad_l[i] < 0 || k->pad_r[i] < 0 ||
            k->in[i] < 1 || k->k[i] < 1)
            return false;
        int64_t span = k->dil[i] * (k->k[i] - 1) + 1;
        if (k->transposed) {
            if (out_pad[i] < 0 || (out_pad[i] >= k->stride[i] && out_pad[i] >= k->dil[i]))
                return false;
            k->out[i] = (k->in[i] - 1) * k->stride[i] - k->pad_l[i] - k->pad_r[i] + span +
                        out_pad[i];
            k->pad_r[i] -= out_pad[i];         /* oneDNN: the far side's padding, less it */
        } else {
            int64_t padded = k->in[i] + k->pad_l[i] + k->pad_r[i];
            if (padded < span)
                return false;
            k->out[i] = (padded - span) / k->stride[i] + 1;
        }
        if (k->out[i] < 1)
            return false;
    }
    return true;
}

/* The channel counts from the weight, checked against the input and bias as PyTorch does. */
static bool channels(DnKey *k, const TsTensor *x, const TsTensor *w, const TsTensor *b,
                     int batch_dim)
{
    k->n = batch_dim ? x->sizes[0] : 1;
    k->cin = x->sizes[batch_dim];
    if (k->groups < 1 || k->n < 1 || k->cin < 1 || w->sizes[0] < 1 || w->sizes[1] < 1)
        return false;
    if (k->transposed) {
        if (w->sizes[0] != k->cin || k->cin % k->groups)
            return false;
        k->cout = w->sizes[1] * k->groups;
    } else {
        if (k->cin != w->sizes[1] * k->groups || w->sizes[0] % k->groups)
            return false;
        k->cout = w->sizes[0];
    }
    /* oneDNN reads the bias dense */
    return !b || (b->dim == 1 && b->sizes[0] == k->cout && dn_dtype(b) == k->dt &&
                  (b->strides[0] == 1 || k->cout == 1));
}

bool dn_read_conv(TsCall *c, const DnOpInfo *info, size_t n, DnConv *cv)
{
    if (c->stack->len < n)
        return false;
    memset(cv, 0, sizeof *cv);
    DnKey *k = &cv->key;
    const TsValue *v = ts_stack_arg(c->stack, n, 0);
    if (v[0].tag != TS_TAG_TENSOR || v[1].tag != TS_TAG_TENSOR ||
        (v[2].tag != TS_TAG_TENSOR && v[2].tag != TS_TAG_NONE))
        return false;
    TsTensor *x = (TsTensor *)v[0].u.p, *w = (TsTensor *)v[1].u.p;
    TsTensor *b = v[2].tag == TS_TAG_TENSOR ? (TsTensor *)v[2].u.p : NULL;
    k->dt = (uint8_t)dn_dtype(x);
    if (k->dt == dnnl_data_type_undef || dn_dtype(w) != k->dt || w->dim < 3 || w->dim > 5)
        return false;
    int nd = (int)w->dim - 2;
    if (info->nd && info->nd != nd)
        return false;
    /* conv{n}d takes an unbatched input too (one dim less); the generic forms do not */
    bool batched = x->dim == w->dim;
    if (!batched && (info->nd == 0 || x->dim != w->dim - 1))
        return false;
    k->nd = nd;
    k->transposed = info->transposed;
    if (info->transposed_at >= 0) {
        if (v[info->transposed_at].tag != TS_TAG_BOOL)
            return false;
        k->transposed = v[info->transposed_at].u.b;
    }
    if (v[info->groups].tag != TS_TAG_INT)
        return false;
    k->groups = v[info->groups].u.i;
    int64_t pad[3] = { 0, 0, 0 }, out_pad[3] = { 0, 0, 0 };
    if (!dn_int_list(v[info->stride], nd, k->stride) ||
        !dn_int_list(v[info->dilation], nd, k->dil))
        return false;
    if (info->out_pad >= 0 && v[info->out_pad].tag != TS_TAG_NONE &&
        !dn_int_list(v[info->out_pad], nd, out_pad))
        return false;
    if (!channels(k, x, w, b, batched ? 1 : 0))
        return false;
    int off = batched ? 2 : 1;
    for (int i = 0; i < nd; i++) {
        k->in[i] = x->sizes[off + i];
        k->k[i] = w->sizes[2 + i];
    }
    if (info->str_pad) {
        if (v[info->padding].tag != TS_TAG_STR)
            return false;
        const char *p = ((const TsStr *)v[info->padding].u.p)->data;
        bool same = strcmp(p, "same") == 0;
        if (!same && strcmp(p, "valid") != 0)
            return false;
        for (int i = 0; i < nd; i++) {
            if (same && k->stride[i] != 1)
                return false;
            int64_t total = same ? k->dil[i] * (k->k[i] - 1) : 0;
            k->pad_l[i] = total / 2;
            k->pad_r[i] = total - total / 2;
        }
    } else {
        if (!dn_int_list(v[info->padding], nd, pad))
            return false;
        memcpy(k->pad_l, pad, sizeof pad);
        memcpy(k->pad_r, pad, sizeof pad);
    }
    if (!out_sizes(k, out_pad))
        return false;
    k->bias = b != NULL;
    /* PyTorch's rule: a channels-last input or weight gives a channels-last result */
    k->out_last = (dn_is_channels_last(x) && !(x->flags & DN_FLAG_CHOSEN_LAST)) ||
                  dn_is_channels_last(w);
    dn_src_strides(x, nd + 2, k->src_strides);
    cv->x = x;
    cv->w = w;
    cv->b = b;
    cv->out_dim = batched ? nd + 2 : nd + 1;
    return true;
}
