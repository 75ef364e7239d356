/* prim.c — the oneDNN primitives of a convolution (or a pooling, or a matrix product:
 * matmul.c describes those), made once per key and cached.
 *
 * Making a primitive descriptor and its JIT code costs from tens of microseconds to
 * milliseconds, more than many convolutions take to run; a model calls the same few shapes
 * over and over. So the primitives of a key (DnKey: shapes, parameters, layouts, post-ops,
 * data type, threads) live in a table under one lock, found by the key's hash, shared by every thread
 * (oneDNN primitives may run concurrently; the scratchpad is the caller's, see engine.c) and
 * reference-counted, so that an entry dropped from a full table is freed by its last user.
 *
 * Algorithms and layouts. A 3x3 convolution at stride 1 runs by Winograd's algorithm where
 * oneDNN has it (dn_winograd_fits), every other by the direct one. The weights take the layout
 * the primitive picks (format "any": blocked, such as OIhw16i16o, or Winograd's transformed
 * weights; reordered once, weight.c). So do the input and output of a call in PyTorch's
 * default layout: they are reordered into oneDNN's blocked layout and back around the
 * convolution, as PyTorch's mkldnn path does. A channels-last call (an input or weight in
 * PyTorch's channels_last, whose result is channels-last too) runs on that layout itself,
 * which oneDNN's direct kernels read and write directly.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dn.h"

#define N_BUCKETS 256
#define MAX_ENTRIES 1024       /* beyond, the least recently used unreferenced one goes */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static DnPrim *buckets[N_BUCKETS];
static size_t n_entries;

static uint64_t key_hash(const DnKey *k)
{
    const unsigned char *p = (const unsigned char *)k;
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < sizeof *k; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return h;
}

static void prim_free(DnPrim *p)
{
    dnnl_primitive_t ps[3] = { p->op, p->src_reorder, p->dst_reorder };
    for (int i = 0; i < 3; i++)
        if (ps[i])
            dn_lib.primitive_destroy(ps[i]);
    free(p);
}

/* ---- making them -------------------------------------------------------------------------- */

/* A plain descriptor of dims dims of sizes and strides (elements), of data type dt. */
static dnnl_status_t plain_md(dnnl_memory_desc_t *md, int dims, const int64_t *sizes,
                              const int64_t *strides, dnnl_data_type_t dt)
{
    dnnl_dims_t d, s;
    for (int i = 0; i < dims; i++) {
        d[i] = sizes[i];
        s[i] = strides[i];
    }
    return dn_lib.memory_desc_init_by_strides(md, dims, d, dt, s);
}

void dn_out_layout(const DnKey *k, int64_t *sizes, int64_t *strides)
{
    int dims = k->nd + 2;
    sizes[0] = k->n;
    sizes[1] = k->cout;
    for (int i = 0; i < k->nd; i++)
        sizes[2 + i] = k->out[i];
    int64_t step = 1;
    if (k->out_last) {
        strides[1] = 1;
        step = k->cout;
        for (int i = dims - 1; i >= 2; i--) {
            strides[i] = step;
            step *= sizes[i];
        }
        strides[0] = step;
        return;
    }
    for (int i = dims - 1; i >= 0; i--) {
        strides[i] = step;
        step *= sizes[i];
    }
}

static dnnl_format_tag_t channels_last_tag(int nd)
{
    return nd == 1 ? dnnl_nwc : nd == 2 ? dnnl_nhwc : dnnl_ndhwc;
}

/* The post-ops of k into attr (which also asks for a scratchpad the caller gives). */
static dnnl_status_t make_attr(const DnKey *k, dnnl_primitive_attr_t *attr)
{
    dnnl_post_ops_t ops = NULL;
    dnnl_status_t st = dn_lib.primitive_attr_create(attr);
    if (st == dnnl_success)
        st = dn_lib.primitive_attr_set_scratchpad_mode(*attr, dnnl_scratchpad_mode_user);
    if (st == dnnl_success && k->post)
        st = dn_lib.post_ops_create(&ops);
    if (st == dnnl_success && (k->post & DN_POST_RELU))
        st = dn_lib.post_ops_append_eltwise(ops, 1.0f, dnnl_eltwise_relu, 0.0f, 0.0f);
    if (st == dnnl_success && (k->post & DN_POST_RELU6))
        st = dn_lib.post_ops_append_eltwise(ops, 1.0f, dnnl_eltwise_clip_v2, 0.0f, 6.0f);
    if (st == dnnl_success && ops)
        st = dn_lib.primitive_attr_set_post_ops(*attr, ops);
    if (ops)
        dn_lib.post_ops_destroy(ops);
    return st;
}

/* The convolution's descriptor by algorithm alg with src and dst in layout tag
 * (dnnl_format_tag_any: oneDNN picks) into pd. */
static dnnl_status_t conv_pd(const DnKey *k, dnnl_engine_t eng, dnnl_alg_kind_t alg,
                             dnnl_format_tag_t tag, const_dnnl_primitive_attr_t attr,
                             dnnl_primitive_desc_t *pd)
{
    int nd = k->nd;
    bool g = k->groups > 1;
    dnnl_dims_t src, wei, dst, bias = { k->cout }, stride, dil, pl, pr;
    src[0] = dst[0] = k->n;
    src[1] = k->cin;
    dst[1] = k->cout;
    wei[0] = k->groups;
    wei[g ? 1 : 0] = k->cout / k->groups;
    wei[g ? 2 : 1] = k->cin / k->groups;
    for (int i = 0; i < nd; i++) {
        src[2 + i] = k->in[i];
        dst[2 + i] = k->out[i];
        wei[(g ? 3 : 2) + i] = k->k[i];
        stride[i] = k->stride[i];
        dil[i] = k->dil[i] - 1;        /* oneDNN counts the gaps */
        pl[i] = k->pad_l[i];
        pr[i] = k->pad_r[i];
    }
    dnnl_memory_desc_t src_md, wei_md, dst_md, bias_md;
    dnnl_data_type_t dt = (dnnl_data_type_t)k->dt;
    dnnl_status_t st = dn_lib.memory_desc_init_by_tag(&src_md, nd + 2, src, dt, tag);
    if (st == dnnl_success)
        st = dn_lib.memory_desc_init_by_tag(&dst_md, nd + 2, dst, dt, tag);
    if (st == dnnl_success)
        st = dn_lib.memory_desc_init_by_tag(&wei_md, nd + (g ? 3 : 2), wei, dt,
                                          dnnl_format_tag_any);
    if (st == dnnl_success && k->bias)
        st = dn_lib.memory_desc_init_by_tag(&bias_md, 1, bias, dt, dnnl_a);
    if (st != dnnl_success)
        return st;
    const dnnl_memory_desc_t *b = k->bias ? &bias_md : NULL;
    if (k->transposed) {
        dnnl_deconvolution_desc_t d;
        st = dn_lib.dilated_deconvolution_forward_desc_init(
            &d, dnnl_forward_inference, dnnl_deconvolution_direct, &src_md, &wei_md, b, &dst_md,
            stride, dil, pl, pr);
        return st == dnnl_success ? dn_lib.primitive_desc_create(pd, &d, attr, eng, NULL) : st;
    }
    dnnl_convolution_desc_t d;
    st = dn_lib.dilated_convolution_forward_desc_init(&d, dnnl_forward_inference, alg, &src_md,
                                                    &wei_md, b, &dst_md, stride, dil, pl, pr);
    return st == dnnl_success ? dn_lib.primitive_desc_create(pd, &d, attr, eng, NULL) : st;
}

/* A reorder from one layout to the other, or NULL (and success) when they are the same. */
static dnnl_status_t reorder(dnnl_engine_t eng, const dnnl_memory_desc_t *from,
                             const dnnl_memory_desc_t *to, bool always, dnnl_primitive_t *out)
{
    *out = NULL;
    if (!always && dn_lib.memory_desc_equal(from, to))
        return dnnl_success;
    dnnl_primitive_desc_t pd;
    dnnl_status_t st = dn_lib.reorder_primitive_desc_create(&pd, from, eng, to, eng, NULL);
    if (st != dnnl_success)
        return st;
    st = dn_lib.primitive_create(out, pd);
    dn_lib.primitive_desc_destroy(pd);
    if (st != dnnl_success)
        *out = NULL;
    return st;
}

/* Winograd's algorithm for 3x3 kernels at stride 1 (F(2,3) and F(4,3) in oneDNN) does a half
 * to a quarter of the multiplications of the direct one, at an error that stays within
 * float32's for these tiles (measured on resnet18 against PyTorch: the same as the direct
 * kernels'): tried first for every convolution it applies to (dn.h) but small images, where
 * it gains little (resnet18's 7x7 layers: 1.6 ms against 2.0) for transformed weights 1.8 to
 * 4 times the size of the direct kernels' (there, 50 MB against 28). oneDNN has it for float32
 * only. */
#define WINOGRAD_MIN_PIXELS (14 * 14)

bool dn_winograd_fits(const DnKey *k)
{
    if (k->nd != 2 || k->transposed || k->groups != 1 || k->dt != dnnl_f32 ||
        k->out[0] * k->out[1] < WINOGRAD_MIN_PIXELS)
        return false;
    for (int i = 0; i < 2; i++)
        if (k->k[i] != 3 || k->stride[i] != 1 || k->dil[i] != 1)
            return false;
    return true;
}

/* The descriptor of the fastest way oneDNN has: Winograd's algorithm where it fits, then
 * the direct one in the call's channels-last layout, then in the layout oneDNN picks. */
static dnnl_status_t best_pd(const DnKey *k, dnnl_engine_t eng,
                             const_dnnl_primitive_attr_t attr, dnnl_primitive_desc_t *pd)
{
    dnnl_status_t st = dnnl_unimplemented;
    if (dn_winograd_fits(k))
        st = conv_pd(k, eng, dnnl_convolution_winograd, dnnl_format_tag_any, attr, pd);
    if (st != dnnl_success && k->out_last)
        st = conv_pd(k, eng, dnnl_convolution_direct, channels_last_tag(k->nd), attr, pd);
    if (st != dnnl_success)
        st = conv_pd(k, eng, dnnl_convolution_direct, dnnl_format_tag_any, attr, pd);
    return st;
}

/* A max pooling's descriptor, on the call's own layouts (src and dst given). */
static dnnl_status_t pool_pd(const DnKey *k, dnnl_engine_t eng, const dnnl_memory_desc_t *src,
                             const dnnl_memory_desc_t *dst, const_dnnl_primitive_attr_t attr,
                             dnnl_primitive_desc_t *pd)
{
    dnnl_dims_t stride, kernel, dil, pl, pr;
    for (int i = 0; i < k->nd; i++) {
        stride[i] = k->stride[i];
        kernel[i] = k->k[i];
        dil[i] = k->dil[i] - 1;
        pl[i] = k->pad_l[i];
        pr[i] = k->pad_r[i];
    }
    dnnl_pooling_v2_desc_t d;
    dnnl_status_t st = dn_lib.pooling_v2_forward_desc_init(&d, dnnl_forward_inference,
                                                         dnnl_pooling_max, src, dst, stride,
                                                         kernel, dil, pl, pr);
    return st == dnnl_success ? dn_lib.primitive_desc_create(pd, &d, attr, eng, NULL) : st;
}

/* The input and output of a convolution or pooling as the call has them. */
static dnnl_status_t user_mds(const DnKey *k, dnnl_memory_desc_t *src, dnnl_memory_desc_t *dst)
{
    int64_t in[5] = { k->n, k->cin, k->in[0], k->in[1], k->in[2] }, sizes[5], strides[5];
    dn_out_layout(k, sizes, strides);
    dnnl_data_type_t dt = (dnnl_data_type_t)k->dt;
    dnnl_status_t st = plain_md(src, k->nd + 2, in, k->src_strides, dt);
    return st == dnnl_success ? plain_md(dst, k->nd + 2, sizes, strides, dt) : st;
}

static DnPrim *prim_make(const DnKey *k, TsError *err)
{
    dnnl_engine_t eng = dn_engine(err);
    if (!eng)
        return NULL;
    DnPrim *p = calloc(1, sizeof *p);
    if (!p) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    p->key = *k;
    const char *what = "describing the input and output";
    dnnl_status_t st = k->kind == DN_MATMUL
                           ? dn_matmul_mds(k, &p->user_src_md, &p->user_dst_md)
                           : user_mds(k, &p->user_src_md, &p->user_dst_md);
    dnnl_primitive_attr_t attr = NULL;
    dnnl_primitive_desc_t pd = NULL;
    if (st == dnnl_success) {
        what = "making the primitive's attributes";
        st = make_attr(k, &attr);
    }
    if (st == dnnl_success) {
        what = "planning the primitive";
        st = k->kind == DN_MAX_POOL ? pool_pd(k, eng, &p->user_src_md, &p->user_dst_md, attr, &pd)
             : k->kind == DN_MATMUL ? dn_matmul_pd(k, eng, &p->user_src_md, &p->user_dst_md,
                                                   attr, &pd)
                                    : best_pd(k, eng, attr, &pd);
    }
    if (attr)
        dn_lib.primitive_attr_destroy(attr);
    if (st == dnnl_success) {
        p->src_md = *dn_lib.primitive_desc_query_md(pd, dnnl_query_src_md, 0);
        p->dst_md = *dn_lib.primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
        p->scratch_md = *dn_lib.primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
        if (k->kind != DN_MAX_POOL)
            p->wei_md = *dn_lib.primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
        if (k->bias)
            p->bias_md = *dn_lib.primitive_desc_query_md(pd, dnnl_query_weights_md, 1);
        what = "making the primitive";
        st = dn_lib.primitive_create(&p->op, pd);
        dn_lib.primitive_desc_destroy(pd);
        if (st != dnnl_success)
            p->op = NULL;
    }
    if (st == dnnl_success) {
        what = "reordering the input";
        st = reorder(eng, &p->user_src_md, &p->src_md, false, &p->src_reorder);
    }
    if (st == dnnl_success) {
        what = "reordering the output";
        st = reorder(eng, &p->dst_md, &p->user_dst_md, false, &p->dst_reorder);
    }
    if (st != dnnl_success) {
        dn_fail(err, what, st);
        prim_free(p);
        return NULL;
    }
    p->src_bytes = p->src_reorder ? dn_lib.memory_desc_get_size(&p->src_md) : 0;
    p->dst_bytes = p->dst_reorder ? dn_lib.memory_desc_get_size(&p->dst_md) : 0;
    p->scratch_bytes = dn_lib.memory_desc_get_size(&p->scratch_md);
    return p;
}

/* ---- the cache ---------------------------------------------------------------------------- */

static uint64_t tick;                  /* under lock: a use's time, for the LRU */

/* Drops the least recently used entry nobody holds; the caller holds the lock. */
static void evict_one(void)
{
    DnPrim **victim = NULL;
    uint64_t oldest = UINT64_MAX;
    for (size_t b = 0; b < N_BUCKETS; b++)
        for (DnPrim **q = &buckets[b]; *q; q = &(*q)->next)
            if ((*q)->refs == 0 && (*q)->used < oldest) {
                oldest = (*q)->used;
                victim = q;
            }
    if (!victim)
        return;
    DnPrim *p = *victim;
    *victim = p->next;
    n_entries--;
    prim_free(p);
}

DnPrim *dn_prim_get(const DnKey *key, TsError *err)
{
    uint64_t h = key_hash(key);
    size_t b = h % N_BUCKETS;
    pthread_mutex_lock(&lock);
    for (DnPrim *p = buckets[b]; p; p = p->next)
        if (memcmp(&p->key, key, sizeof *key) == 0) {
            p->refs++;
            p->used = ++tick;
            pthread_mutex_unlock(&lock);
            return p;
        }
    pthread_mutex_unlock(&lock);
    DnPrim *made = prim_make(key, err);   /* outside the lock: it takes a while */
    if (!made)
        return NULL;
    pthread_mutex_lock(&lock);
    for (DnPrim *p = buckets[b]; p; p = p->next)
        if (memcmp(&p->key, key, sizeof *key) == 0) {    /* another thread was first */
            p->refs++;
            pthread_mutex_unlock(&lock);
            prim_free(made);
            return p;
        }
    if (n_entries >= MAX_ENTRIES)
        evict_one();
    made->refs = 1;
    made->used = ++tick;
    made->next = buckets[b];
    buckets[b] = made;
    n_entries++;
    pthread_mutex_unlock(&lock);
    return made;
}

void dn_prim_release(DnPrim *p)
{
    pthread_mutex_lock(&lock);
    p->refs--;
    pthread_mutex_unlock(&lock);
}

void dn_prim_clear(void)
{
    pthread_mutex_lock(&lock);
    for (size_t b = 0; b < N_BUCKETS; b++)
        while (buckets[b]) {
            DnPrim *p = buckets[b];
            buckets[b] = p->next;
            prim_free(p);
        }
    n_entries = 0;
    pthread_mutex_unlock(&lock);
}
