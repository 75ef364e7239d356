/* weight.c — a convolution's or a linear's weight in the layout its primitive reads, made
 * once and reused.
 *
 * oneDNN's fast kernels read weights blocked (OIhw16i16o and the like, Winograd's
 * transformed tiles, or a matmul's bfloat16 pairs); reordering a model's weights on every
 * call would read and write all of them each time (PyTorch's unfrozen models do). The
 * reordered copy is kept instead, keyed by what it was made from: the weight's storage
 * (retained, so its address is not reused while the entry lives), the storage's version
 * (tscript/tensor.h: every write the program makes moves it, so a weight changed in place
 * is reordered again), its offset, sizes and strides, how oneDNN was told to read it (the
 * user's descriptor: a linear's weight is read transposed, a grouped convolution's split)
 * and the layout it was reordered into (oneDNN memory descriptors: the data type with them).
 *
 * Entries are shared and reference-counted like the primitives (prim.c); the table holds at
 * most MAX_BYTES of reordered weights, the least recently used unreferenced ones going
 * first, and an entry whose weight changed is replaced (its last user frees it).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dn.h"

#define N_BUCKETS 256
#define MAX_BYTES ((size_t)1 << 30)

/* Where an entry's data came from: the weight, as it was read. */
typedef struct Src {
    TsStorage *storage;        /* retained */
    unsigned version;
    int32_t dim;
    int64_t offset, sizes[5], strides[5];
} Src;

struct DnWeight {
    Src src;
    dnnl_memory_desc_t user;   /* the weight as it was read */
    dnnl_memory_desc_t md;     /* the primitive's weight layout */
    void *raw, *data;          /* data: raw aligned to 64 */
    size_t bytes;
    uint64_t hash, used;
    unsigned refs;             /* under the lock; the table's own counts as one */
    struct DnWeight *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static DnWeight *buckets[N_BUCKETS];
static size_t total_bytes;
static uint64_t tick;

const void *dn_weight_data(const DnWeight *w) { return w->data; }

static void src_of(Src *s, const TsTensor *t)
{
    memset(s, 0, sizeof *s);
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
    if (w->src.storage)
        ts_storage_release(w->src.storage);
    ts_big_free(w->raw, w->bytes + 64);
    free(w);
}

/* Drops one reference; the caller holds the lock. */
static void unref(DnWeight *w)
{
    if (--w->refs == 0)
        weight_free(w);
}

/* ---- making one ---------------------------------------------------------------------------- */

dnnl_status_t dn_conv_weight_md(const DnKey *k, const TsTensor *w, dnnl_memory_desc_t *md)
{
    bool g = k->groups > 1;
    int64_t og = k->cout / k->groups, ig = k->cin / k->groups;
    const int64_t *st = w->strides;
    dnnl_dims_t d, s;
    int at = 0;
    if (g) {
        d[at] = k->groups;
        s[at++] = k->transposed ? ig * st[0] : og * st[0];
    }
    d[at] = og;
    s[at++] = k->transposed ? st[1] : st[0];
    d[at] = ig;
    s[at++] = k->transposed ? st[0] : st[1];
    for (int i = 0; i < k->nd; i++) {
        d[at] = w->sizes[2 + i];
        s[at++] = st[2 + i];
    }
    return dn_lib.memory_desc_init_by_strides(md, at, d, (dnnl_data_type_t)k->dt, s);
}

/* Reorders w, read as user says, into a new entry of layout md; NULL with err. */
static DnWeight *weight_make(const dnnl_memory_desc_t *user, const dnnl_memory_desc_t *md,
                             const TsTensor *w, TsError *err)
{
    DnWeight *e = calloc(1, sizeof *e);
    if (e) {
        e->user = *user;
        e->md = *md;
        e->bytes = dn_lib.memory_desc_get_size(md);
        e->raw = e->bytes < SIZE_MAX - 64 ? ts_big_alloc(e->bytes + 64) : NULL;
    }
    if (!e || !e->raw) {
        if (e)
            free(e);
        ts_error_set(err, TS_ERR_NOMEM, "oneDNN: out of memory for a reordered weight");
        return NULL;
    }
    e->data = (void *)(((uintptr_t)e->raw + 63) & ~(uintptr_t)63);
    dnnl_engine_t eng = dn_engine(err);
    dnnl_stream_t stream = eng ? dn_stream(err) : NULL;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t r = NULL;
    dnnl_memory_t m_from = NULL, m_to = NULL;
    dnnl_status_t st = stream ? dnnl_success : dnnl_runtime_error;
    if (st == dnnl_success)
        st = dn_lib.reorder_primitive_desc_create(&pd, user, eng, md, eng, NULL);
    if (st == dnnl_success)
        st = dn_lib.primitive_create(&r, pd);
    if (st == dnnl_success)
        st = dn_lib.memory_create(&m_from, user, eng, ts_tensor_data(w));
    if (st == dnnl_success)
        st = dn_lib.memory_create(&m_to, md, eng, e->data);
    if (st == dnnl_success) {
        dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, m_from }, { DNNL_ARG_TO, m_to } };
        st = dn_lib.primitive_execute(r, stream, 2, args);
        if (st == dnnl_success)
            st = dn_lib.stream_wait(stream);
    }
    if (m_from)
        dn_lib.memory_destroy(m_from);
    if (m_to)
        dn_lib.memory_destroy(m_to);
    if (r)
        dn_lib.primitive_destroy(r);
    if (pd)
        dn_lib.primitive_desc_destroy(pd);
    if (st != dnnl_success) {
        if (stream)
            dn_fail(err, "reordering a weight", st);
        ts_big_free(e->raw, e->bytes + 64);
        free(e);
        return NULL;
    }
    src_of(&e->src, w);
    ts_storage_retain(e->src.storage);
    return e;
}

/* ---- the cache ---------------------------------------------------------------------------- */

/* Takes e out of the table (the table's reference goes); the caller holds the lock. */
static void unlink_entry(DnWeight *e)
{
    for (DnWeight **q = &buckets[e->hash % N_BUCKETS]; *q; q = &(*q)->next)
        if (*q == e) {
            *q = e->next;
            break;
        }
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

/* The entry for src read as user in layout md, taken (refs + 1); an entry of the same weight
 * whose version moved is dropped from the table. The caller holds the lock. */
static DnWeight *lookup(size_t bucket, const Src *src, const dnnl_memory_desc_t *user,
                        const dnnl_memory_desc_t *md)
{
    for (DnWeight *e = buckets[bucket]; e; e = e->next) {
        if (!same_place(&e->src, src) || !dn_lib.memory_desc_equal(&e->md, md) ||
            !dn_lib.memory_desc_equal(&e->user, user))
            continue;
        if (e->src.version != src->version) {  /* written since: its users keep it alive */
            unlink_entry(e);
            return NULL;
        }
        e->refs++;
        e->used = ++tick;
        return e;
    }
    return NULL;
}

DnWeight *dn_weight_get(const dnnl_memory_desc_t *user, const dnnl_memory_desc_t *md,
                        const TsTensor *w, TsError *err)
{
    Src src;
    src_of(&src, w);
    uint64_t h = (uint64_t)(uintptr_t)w->storage * 0x9e3779b97f4a7c15u ^ (uint64_t)w->offset;
    size_t bucket = h % N_BUCKETS;
    pthread_mutex_lock(&lock);
    DnWeight *e = lookup(bucket, &src, user, md);
    pthread_mutex_unlock(&lock);
    if (e)
        return e;
    DnWeight *made = weight_make(user, md, w, err);   /* outside the lock: it takes a while */
    if (!made)
        return NULL;
    made->hash = h;
    pthread_mutex_lock(&lock);
    if ((e = lookup(bucket, &src, user, md))) {   /* another thread made it meanwhile */
        pthread_mutex_unlock(&lock);
        weight_free(made);
        return e;
    }
    make_room(made->bytes);
    made->refs = 2;                /* the table's and the caller's */
    made->used = ++tick;
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
