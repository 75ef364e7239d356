/* weight.c — a convolution's weight in the layout its primitive reads, made once and reused.
 *
 * oneDNN's fast kernels read weights blocked (OIhw16i16o and the like); reordering a model's
 * weights on every call would read and write all of them each time (PyTorch's unfrozen
 * models do). The reordered copy is kept instead, keyed by what it was made from: the
 * weight's storage (retained, so its address is not reused while the entry lives), the
 * storage's version (tscript/tensor.h: every write the program makes moves it, so a weight
 * changed in place is reordered again), its offset, sizes and strides, and the layout. A
 * batch norm folded into the convolution adds its four vectors and eps to the key:
 * the weight is then scaled per output channel, w * gamma / sqrt(var + eps), and the bias
 * becomes (b - mean) * gamma / sqrt(var + eps) + beta, as PyTorch's inference batch norm
 * computes its affine map (in double, rounded once to float).
 *
 * Entries are shared and reference-counted like the primitives (prim.c); the table holds at
 * most MAX_BYTES of reordered weights, the least recently used unreferenced ones going
 * first, and an entry whose source changed is replaced (its last user frees it).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dn.h"

#define N_BUCKETS 256
#define MAX_BYTES ((size_t)1 << 30)
#define N_SRC 6                /* weight, bias, gamma, beta, mean, var */

/* Where an entry's data came from: one tensor, as it was read. */
typedef struct Src {
    TsStorage *storage;        /* retained; NULL: no such tensor */
    unsigned version;
    int32_t dim;
    int64_t offset, sizes[5], strides[5];
} Src;

struct DnWeight {
    Src src[N_SRC];
    double eps;
    bool norm;
    dnnl_memory_desc_t md;     /* the primitive's weight layout */
    void *raw, *data;          /* data: raw aligned to 64 */
    float *bias;               /* folded bias (cout floats), NULL without a norm */
    size_t bytes;
    uint64_t hash, used;
    unsigned refs;             /* under the lock; the table's own counts as one */
    bool in_table;
    struct DnWeight *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static DnWeight *buckets[N_BUCKETS];
static size_t total_bytes;
static uint64_t tick;

const void *dn_weight_data(const DnWeight *w) { return w->data; }
const float *dn_weight_bias(const DnWeight *w) { return w->bias; }

static void src_of(Src *s, const TsTensor *t)
{
    memset(s, 0, sizeof *s);
    if (!t)
        return;
    s->storage = t->storage;
    s->version = ts_storage_version(t->storage);
    s->dim = t->dim;
    s->offset = t->offset;
    for (int i = 0; i < t->dim && i < 5; i++) {
        s->sizes[i] = t->sizes[i];
        s->strides[i] = t->strides[i];
    }
}

/* Same tensor, ignoring versions. */
static bool same_place(const Src *a, const Src *b)
{
    return a->storage == b->storage && a->dim == b->dim && a->offset == b->offset &&
           memcmp(a->sizes, b->sizes, sizeof a->sizes) == 0 &&
           memcmp(a->strides, b->strides, sizeof a->strides) == 0;
}

static void weight_free(DnWeight *w)
{
    for (int i = 0; i < N_SRC; i++)
        if (w->src[i].storage)
            ts_storage_release(w->src[i].storage);
    free(w->raw);
    free(w->bias);
    free(w);
}

/* Drops one reference; the caller holds the lock. */
static void unref(DnWeight *w)
{
    if (--w->refs == 0)
        weight_free(w);
}

/* ---- making one ---------------------------------------------------------------------------- */

/* The weight's dims and strides as oneDNN numbers them: [g,] out, in, spatial. PyTorch's
 * forward weight is [out, in / g, ...], its transposed one [in, out / g, ...]. */
static void user_weight_md(const DnKey *k, const TsTensor *w, const int64_t *strides,
                           dnnl_memory_desc_t *md, dnnl_status_t *st)
{
    bool g = k->groups > 1;
    int64_t og = k->cout / k->groups, ig = k->cin / k->groups;
    dnnl_dims_t d, s;
    int at = 0;
    int64_t s_out = k->transposed ? strides[1] : strides[0];
    int64_t s_in = k->transposed ? strides[0] : strides[1];
    if (g) {
        d[at] = k->groups;
        s[at++] = k->transposed ? ig * strides[0] : og * strides[0];
    }
    d[at] = og;
    s[at++] = s_out;
    d[at] = ig;
    s[at++] = s_in;
    for (int i = 0; i < k->nd; i++) {
        d[at] = w->sizes[2 + i];
        s[at++] = strides[2 + i];
    }
    *st = dnnl_memory_desc_init_by_strides(md, at, d, dnnl_f32, s);
}

/* The norm's affine map per output channel: scale[o] and shift[o] (the shift with the
 * convolution's bias b, when there is one, folded in). */
static void fold(const DnKey *k, const TsTensor *b, const DnNorm *n, double *scale,
                 float *shift)
{
    const float *g = n->gamma ? ts_tensor_data(n->gamma) : NULL;
    const float *be = n->beta ? ts_tensor_data(n->beta) : NULL;
    const float *m = ts_tensor_data(n->mean), *v = ts_tensor_data(n->var);
    const float *bb = b ? ts_tensor_data(b) : NULL;
    int64_t sg = n->gamma ? n->gamma->strides[0] : 0, sbe = n->beta ? n->beta->strides[0] : 0;
    int64_t sm = n->mean->strides[0], sv = n->var->strides[0], sb = b ? b->strides[0] : 0;
    for (int64_t o = 0; o < k->cout; o++) {
        double invstd = 1.0 / sqrt((double)v[o * sv] + n->eps);
        double a = invstd * (g ? (double)g[o * sg] : 1.0);
        double base = bb ? (double)bb[o * sb] : 0.0;
        scale[o] = a;
        shift[o] = (float)((base - (double)m[o * sm]) * a + (be ? (double)be[o * sbe] : 0.0));
    }
}

/* The weight scaled per output channel (forward weights only: [out, in/g, ...]), dense. */
static float *scaled_copy(const DnKey *k, const TsTensor *w, const double *scale,
                          int64_t *strides, TsError *err)
{
    int64_t per = ts_tensor_numel(w) / k->cout;
    float *out = malloc((size_t)ts_tensor_numel(w) * sizeof *out);
    if (!out) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    ts_contiguous_strides(w->dim, w->sizes, strides);
    const float *src = ts_tensor_data(w);
    int64_t idx[5] = { 0 };
    for (int64_t o = 0; o < k->cout; o++)
        for (int64_t j = 0; j < per; j++) {
            int64_t rest = j, at = o * w->strides[0];
            for (int d = w->dim - 1; d >= 1; d--) {
                idx[d] = rest % w->sizes[d];
                rest /= w->sizes[d];
                at += idx[d] * w->strides[d];
            }
            out[o * per + j] = (float)(src[at] * scale[o]);
        }
    return out;
}

static DnWeight *weight_make(const DnPrim *p, const TsTensor *w, const TsTensor *b,
                             const DnNorm *norm, TsError *err)
{
    const DnKey *k = &p->key;
    DnWeight *e = calloc(1, sizeof *e);
    double *scale = NULL;
    float *scaled = NULL;
    if (!e || (norm && (!(scale = malloc((size_t)k->cout * sizeof *scale)) ||
                        !(e->bias = malloc((size_t)k->cout * sizeof *e->bias))))) {
        free(scale);
        if (e)
            free(e->bias);
        free(e);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    e->md = p->wei_md;
    e->bytes = dnnl_memory_desc_get_size(&p->wei_md);
    e->raw = malloc(e->bytes + 64);
    int64_t strides[5];
    memcpy(strides, w->strides, (size_t)w->dim * sizeof *strides);
    const void *from = ts_tensor_data(w);
    if (e->raw && norm) {
        fold(k, b, norm, scale, e->bias);
        from = scaled = scaled_copy(k, w, scale, strides, err);
    }
    free(scale);
    if (!e->raw || !from) {
        if (!e->raw)
            ts_error_set(err, TS_ERR_NOMEM, "oneDNN: out of memory for a reordered weight");
        free(e->raw);
        free(e->bias);
        free(e);
        return NULL;
    }
    e->data = (void *)(((uintptr_t)e->raw + 63) & ~(uintptr_t)63);
    dnnl_memory_desc_t user;
    dnnl_status_t st;
    user_weight_md(k, w, strides, &user, &st);
    dnnl_engine_t eng = dn_engine(err);
    dnnl_stream_t stream = eng ? dn_stream(err) : NULL;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t r = NULL;
    dnnl_memory_t m_from = NULL, m_to = NULL;
    if (stream && st == dnnl_success)
        st = dnnl_reorder_primitive_desc_create(&pd, &user, eng, &p->wei_md, eng, NULL);
    if (stream && st == dnnl_success)
        st = dnnl_primitive_create(&r, pd);
    if (stream && st == dnnl_success)
        st = dnnl_memory_create(&m_from, &user, eng, (void *)from);
    if (stream && st == dnnl_success)
        st = dnnl_memory_create(&m_to, &p->wei_md, eng, e->data);
    if (stream && st == dnnl_success) {
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, m_from }, { DNNL_ARG_TO, m_to } };
        st = dnnl_primitive_execute(r, stream, 2, args);
        if (st == dnnl_success)
            st = dnnl_stream_wait(stream);
    }
    if (m_from)
        dnnl_memory_destroy(m_from);
    if (m_to)
        dnnl_memory_destroy(m_to);
    if (r)
        dnnl_primitive_destroy(r);
    if (pd)
        dnnl_primitive_desc_destroy(pd);
    free(scaled);
    if (!stream || st != dnnl_success) {
        if (stream)
            dn_fail(err, "reordering a weight", st);
        free(e->raw);
        free(e->bias);
        free(e);
        return NULL;
    }
    const TsTensor *ts[N_SRC] = { w, norm ? b : NULL, norm ? norm->gamma : NULL,
                                  norm ? norm->beta : NULL, norm ? norm->mean : NULL,
                                  norm ? norm->var : NULL };
    for (int i = 0; i < N_SRC; i++) {
        src_of(&e->src[i], ts[i]);
        if (e->src[i].storage)
            ts_storage_retain(e->src[i].storage);
    }
    e->norm = norm != NULL;
    e->eps = norm ? norm->eps : 0;
    return e;
}

/* ---- the cache ---------------------------------------------------------------------------- */

/* Does e stand for these sources (all[i] as read now) in this layout? *stale: the same
 * tensors, some of which changed since. */
static bool matches(const DnWeight *e, const Src *all, const dnnl_memory_desc_t *md,
                    bool norm, double eps, bool *stale)
{
    if (e->norm != norm || e->eps != eps || !dnnl_memory_desc_equal(&e->md, md))
        return false;
    bool moved = false;
    for (int i = 0; i < N_SRC; i++) {
        if (!same_place(&e->src[i], &all[i]))
            return false;
        moved = moved || e->src[i].version != all[i].version;
    }
    *stale = moved;
    return !moved;
}

/* Takes e out of the table (the table's reference goes); the caller holds the lock. */
static void unlink_entry(DnWeight *e)
{
    for (DnWeight **q = &buckets[e->hash % N_BUCKETS]; *q; q = &(*q)->next)
        if (*q == e) {
            *q = e->next;
            break;
        }
    e->in_table = false;
    total_bytes -= e->bytes;
    unref(e);
}

/* Frees room for need more bytes, least recently used first, skipping entries in use. */
static void make_room(size_t need)
{
    while (total_bytes + need > MAX_BYTES) {
        DnWeight *victim = NULL;
        for (size_t b = 0; b < N_BUCKETS; b++)
            for (DnWeight *e = buckets[b]; e; e = e->next)
                if (e->refs == 1 && (!victim || e->used < victim->used))
                    victim = e;
        if (!victim)
            return;
        unlink_entry(victim);
    }
}

DnWeight *dn_weight_get(const DnPrim *p, const TsTensor *w, const TsTensor *b,
                        const DnNorm *norm, TsError *err)
{
    Src all[N_SRC];
    const TsTensor *ts[N_SRC] = { w, norm ? b : NULL, norm ? norm->gamma : NULL,
                                  norm ? norm->beta : NULL, norm ? norm->mean : NULL,
                                  norm ? norm->var : NULL };
    for (int i = 0; i < N_SRC; i++)
        src_of(&all[i], ts[i]);
    double eps = norm ? norm->eps : 0;
    uint64_t h = (uint64_t)(uintptr_t)w->storage * 0x9e3779b97f4a7c15u ^ (uint64_t)w->offset;
    size_t bucket = h % N_BUCKETS;
    pthread_mutex_lock(&lock);
    for (DnWeight *e = buckets[bucket]; e; e = e->next) {
        bool stale = false;
        if (matches(e, all, &p->wei_md, norm != NULL, eps, &stale)) {
            e->refs++;
            e->used = ++tick;
            pthread_mutex_unlock(&lock);
            return e;
        }
        if (stale) {               /* written since: its users keep it until they are done */
            unlink_entry(e);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    DnWeight *made = weight_make(p, w, b, norm, err);
    if (!made)
        return NULL;
    made->hash = h;
    pthread_mutex_lock(&lock);
    for (DnWeight *e = buckets[bucket]; e; e = e->next) {
        bool stale = false;
        if (matches(e, all, &p->wei_md, norm != NULL, eps, &stale)) {
            e->refs++;             /* another thread made it meanwhile */
            e->used = ++tick;
            pthread_mutex_unlock(&lock);
            weight_free(made);
            return e;
        }
    }
    make_room(made->bytes);
    made->refs = 2;                /* the table's and the caller's */
    made->used = ++tick;
    made->in_table = true;
    made->next = buckets[bucket];
    buckets[bucket] = made;
    total_bytes += made->bytes;
    pthread_mutex_unlock(&lock);
    return made;
}

void dn_weight_release(DnWeight *w)
{
    pthread_mutex_lock(&lock);
    unref(w);
    pthread_mutex_unlock(&lock);
}

void dn_weight_clear(void)
{
    pthread_mutex_lock(&lock);
    for (size_t b = 0; b < N_BUCKETS; b++)
        while (buckets[b])
            unlink_entry(buckets[b]);
    pthread_mutex_unlock(&lock);
}
