/* value.c — what every TsValue shares: reference counting and freeing, equality (==),
 * identity (is), hashing, and the dynamic type.
 *
 * Counts are atomic. A release decrements with acquire-release order, so the thread that
 * takes the count to zero sees every write the other owners made before they let go. Destruction never recurses (see heap.h): children
 * that die wait on a free list. Equality of nested containers walks an explicit stack of
 * frames for the same reason.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "value/heap.h"
#include "value/objcache.h"

/* ---- reference counting ------------------------------------------------- */
void ts_heap_retain(TsHeap *h)
{
    atomic_fetch_add_explicit(&h->refcount, 1u, memory_order_relaxed);
}

unsigned ts_value_refcount(TsValue v)
{
    return ts_is_heap(v) ? atomic_load_explicit(&v.u.p->refcount, memory_order_relaxed) : 0;
}

/* Takes one reference away; true when it was the last. acq_rel rather than a release
 * decrement and an acquire fence on the last: the same ordering, and one ThreadSanitizer
 * understands (it does not model fences, and reported every destruction as a race). */
static bool heap_unref(TsHeap *h)
{
    return atomic_fetch_sub_explicit(&h->refcount, 1u, memory_order_acq_rel) == 1u;
}

static void free_now(TsHeap *h);

static bool freelist_push(TsFreeList *fl, TsHeap *h)
{
    if (fl->len == fl->cap) {
        if (fl->cap > ((size_t)-1) / 2 / sizeof *fl->items)
            return false;
        size_t cap = fl->cap * 2;
        TsHeap **items = fl->items == fl->inline_items ? malloc(cap * sizeof *items)
                                                       : realloc(fl->items, cap * sizeof *items);
        if (!items)
            return false;
        if (fl->items == fl->inline_items)
            memcpy(items, fl->inline_items, fl->len * sizeof *items);
        fl->items = items;
        fl->cap = cap;
    }
    fl->items[fl->len++] = h;
    return true;
}

void ts_heap_drop(TsFreeList *fl, TsHeap *h)
{
    if (!heap_unref(h))
        return;
    /* Leaves die at once; containers wait their turn. Out of memory for the list, we fall
     * back to recursion, which is bounded by how long memory stays short. */
    if (h->kind == TS_TAG_STR || h->kind == TS_TAG_COMPLEX || !freelist_push(fl, h))
        free_now(h);
}

static void destroy_tensor(TsTensor *t, TsFreeList *fl)
{
    if (t->storage)
        ts_heap_drop(fl, &t->storage->h);
    if (t->sizes != t->inline_dims)
        free(t->sizes);
}

/* Whether a list of element type t holds only unboxed numbers: none of its items needs a
 * drop, and a big list of ints is freed without a walk over it. */
static bool holds_plain_scalars(const TsType *t)
{
    TsTypeKind k = ts_type_kind(t);
    return k == TS_TYPE_INT || k == TS_TYPE_FLOAT || k == TS_TYPE_BOOL;
}

/* Drops h's children (onto fl) and frees h itself. */
static void destroy(TsHeap *h, TsFreeList *fl)
{
    switch ((TsTag)h->kind) {
    case TS_TAG_LIST: {
        TsList *l = (TsList *)h;
        if (!holds_plain_scalars(l->elem_type))
            for (size_t i = 0; i < l->len; i++)
                ts_value_drop(fl, l->items[i]);
        ts_big_free(l->items, l->cap * sizeof *l->items);
        break;
    }
    case TS_TAG_DICT:
        ts_dict_destroy((TsDict *)h, fl);
        return;
    case TS_TAG_TUPLE: {
        TsTuple *t = (TsTuple *)h;
        for (size_t i = 0; i < t->len; i++)
            ts_value_drop(fl, t->items[i]);
        break;
    }
    case TS_TAG_OBJECT: {
        TsObject *o = (TsObject *)h;
        for (size_t i = 0; i < o->nslots; i++)
            ts_value_drop(fl, o->slots[i]);
        break;
    }
    case TS_TAG_TENSOR:
        destroy_tensor((TsTensor *)h, fl);
        break;
    case TS_TAG_FUTURE:
        ts_future_destroy((TsFuture *)h, fl);
        return;
    case TS_TAG_ENUM: {
        TsEnumValue *e = (TsEnumValue *)h;
        if (e->name)
            ts_heap_drop(fl, &e->name->h);
        ts_value_drop(fl, e->value);
        break;
    }
    case TS_TAG_CAPSULE: {
        TsCapsule *c = (TsCapsule *)h;
        if (c->destroy)
            c->destroy(c->ptr);
        break;
    }
    case TS_TAG_STORAGE: {
        TsStorage *s = (TsStorage *)h;
        if (s->allocator && s->data)
            s->allocator->free(s->allocator, s->data, s->nbytes, s->device);
        break;
    }
    default:               /* str, complex: no children */
        break;
    }
    switch ((TsTag)h->kind) {
    case TS_TAG_TENSOR:
        ts_objcache_put(TS_OBJ_TENSOR, h);
        break;
    case TS_TAG_STORAGE:
        ts_objcache_put(TS_OBJ_STORAGE, h);
        break;
    case TS_TAG_STR:
        ts_str_free((TsStr *)h);
        break;
    case TS_TAG_LIST:
        ts_small_free(h, sizeof(TsList));
        break;
    case TS_TAG_TUPLE:
        ts_small_free(h, sizeof(TsTuple) + ((TsTuple *)h)->len * sizeof(TsValue));
        break;
    case TS_TAG_OBJECT:
        ts_small_free(h, sizeof(TsObject) + ((TsObject *)h)->nslots * sizeof(TsValue));
        break;
    case TS_TAG_COMPLEX:
        ts_small_free(h, sizeof(TsComplex));
        break;
    default:
        free(h);
        break;
    }
}

/* Destroys h and everything that dies with it. */
static void free_now(TsHeap *h)
{
    TsFreeList fl;
    fl.items = fl.inline_items;
    fl.len = 0;
    fl.cap = TS_FREELIST_INLINE;
    for (;;) {
        destroy(h, &fl);
        if (fl.len == 0)
            break;
        h = fl.items[--fl.len];
    }
    if (fl.items != fl.inline_items)
        free(fl.items);
}

void ts_heap_release(TsHeap *h)
{
    if (!heap_unref(h))
        return;
    if (h->kind == TS_TAG_STR)
        ts_str_free((TsStr *)h);   /* a leaf, the commonest to die: no free list needed */
    else
        free_now(h);
}

/* ---- equality --------------------------------------------------------------- */
/* EQ_FALSE and EQ_TRUE are 0 and 1 so a comparison can be returned as is. */
typedef enum { EQ_FALSE = 0, EQ_TRUE = 1, EQ_DESCEND } EqResult;

static bool is_number(TsValue v)
{
    return v.tag == TS_TAG_INT || v.tag == TS_TAG_DOUBLE || v.tag == TS_TAG_BOOL;
}

/* d as an exact int64, if it is one. */
static bool double_as_int(double d, int64_t *out)
{
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || d != floor(d))
        return false;
    *out = (int64_t)d;
    return true;
}

/* Python's numeric ==: exact, even between large ints and floats. */
static bool numbers_equal(TsValue a, TsValue b)
{
    if (a.tag == TS_TAG_DOUBLE && b.tag == TS_TAG_DOUBLE)
        return a.u.d == b.u.d;
    if (a.tag == TS_TAG_DOUBLE || b.tag == TS_TAG_DOUBLE) {
        double d = a.tag == TS_TAG_DOUBLE ? a.u.d : b.u.d;
        TsValue o = a.tag == TS_TAG_DOUBLE ? b : a;
        int64_t i;
        return double_as_int(d, &i) && i == (o.tag == TS_TAG_BOOL ? (int64_t)o.u.b : o.u.i);
    }
    int64_t x = a.tag == TS_TAG_BOOL ? a.u.b : a.u.i;
    int64_t y = b.tag == TS_TAG_BOOL ? b.u.b : b.u.i;
    return x == y;
}

static double number_as_double(TsValue v)
{
    return v.tag == TS_TAG_DOUBLE ? v.u.d : v.tag == TS_TAG_BOOL ? v.u.b : (double)v.u.i;
}

static bool str_equal(const TsStr *a, const TsStr *b)
{
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

/* Compares what can be compared without looking inside containers. */
static EqResult eq_shallow(TsValue a, TsValue b)
{
    if (is_number(a) && is_number(b))
        return numbers_equal(a, b) ? EQ_TRUE : EQ_FALSE;
    if (a.tag == TS_TAG_COMPLEX && is_number(b))
        return ((TsComplex *)a.u.p)->im == 0 && ((TsComplex *)a.u.p)->re == number_as_double(b);
    if (b.tag == TS_TAG_COMPLEX && is_number(a))
        return eq_shallow(b, a);
    if (a.tag != b.tag)
        return EQ_FALSE;
    if (ts_is_heap(a) && a.u.p == b.u.p)
        return EQ_TRUE;
    switch ((TsTag)a.tag) {
    case TS_TAG_NONE:
        return EQ_TRUE;
    case TS_TAG_DEVICE:
        return a.u.dev.type == b.u.dev.type && a.u.dev.index == b.u.dev.index;
    case TS_TAG_STR:
        return str_equal((TsStr *)a.u.p, (TsStr *)b.u.p);
    case TS_TAG_COMPLEX: {
        TsComplex *x = (TsComplex *)a.u.p, *y = (TsComplex *)b.u.p;
        return x->re == y->re && x->im == y->im;
    }
    case TS_TAG_LIST:
        return ((TsList *)a.u.p)->len == ((TsList *)b.u.p)->len ? EQ_DESCEND : EQ_FALSE;
    case TS_TAG_TUPLE:
        return ((TsTuple *)a.u.p)->len == ((TsTuple *)b.u.p)->len ? EQ_DESCEND : EQ_FALSE;
    case TS_TAG_DICT:
        return ts_dict_len((TsDict *)a.u.p) == ts_dict_len((TsDict *)b.u.p) ? EQ_DESCEND
                                                                            : EQ_FALSE;
    case TS_TAG_ENUM: {
        TsEnumValue *x = (TsEnumValue *)a.u.p, *y = (TsEnumValue *)b.u.p;
        return x->type == y->type && str_equal(x->name, y->name);
    }
    default:               /* tensors, objects, futures, capsules, storages: identity */
        return EQ_FALSE;
    }
}

/* A pair of containers being compared, and how far. */
typedef struct EqFrame {
    TsValue a, b;
    size_t pos;
} EqFrame;

/* The next pair of children to compare in f; false when f is finished. *missing is set when
 * a dict key of a is absent from b. */
static bool eq_next(EqFrame *f, TsValue *ca, TsValue *cb, bool *missing)
{
    switch ((TsTag)f->a.tag) {
    case TS_TAG_LIST: {
        TsList *x = (TsList *)f->a.u.p, *y = (TsList *)f->b.u.p;
        /* Lists are mutable: a lengths check at entry is not enough. */
        if (f->pos >= x->len || f->pos >= y->len) {
            *missing = x->len != y->len;
            return false;
        }
        *ca = x->items[f->pos];
        *cb = y->items[f->pos];
        f->pos++;
        return true;
    }
    case TS_TAG_TUPLE: {
        TsTuple *x = (TsTuple *)f->a.u.p, *y = (TsTuple *)f->b.u.p;
        if (f->pos >= x->len)
            return false;
        *ca = x->items[f->pos];
        *cb = y->items[f->pos];
        f->pos++;
        return true;
    }
    default: {             /* dict */
        TsValue k;
        if (!ts_dict_next((TsDict *)f->a.u.p, &f->pos, &k, ca))
            return false;
        if (!ts_dict_get((TsDict *)f->b.u.p, k, cb)) {
            *missing = true;
            return false;
        }
        return true;
    }
    }
}

/* Whether the pair needs the shared lock to be looked into (share.c's rule 3). */
static bool eq_shared(TsValue a, TsValue b)
{
    return ts_value_is_shared(a) || ts_value_is_shared(b);
}

static bool eq_walk(TsValue a, TsValue b, bool *locked)
{
    EqResult r = eq_shallow(a, b);
    if (r != EQ_DESCEND)
        return r == EQ_TRUE;
    EqFrame inline_frames[32];
    EqFrame *frames = inline_frames;
    size_t n = 0, cap = 32;
    bool result = true;
    frames[n++] = (EqFrame){a, b, 0};
    while (n > 0) {
        TsValue ca, cb;
        bool missing = false;
        if (!eq_next(&frames[n - 1], &ca, &cb, &missing)) {
            if (missing) {
                result = false;
                break;
            }
            n--;
            continue;
        }
        if (!*locked && eq_shared(ca, cb)) {
            ts_shared_lock();
            *locked = true;
        }
        r = eq_shallow(ca, cb);
        if (r == EQ_FALSE) {
            result = false;
            break;
        }
        if (r == EQ_TRUE)
            continue;
        if (n == cap) {
            EqFrame *bigger = cap <= ((size_t)-1) / 2 / sizeof *frames
                                  ? malloc(cap * 2 * sizeof *frames) : NULL;
            if (!bigger) {     /* out of memory: we cannot say they are equal */
                result = false;
                break;
            }
            memcpy(bigger, frames, n * sizeof *frames);
            if (frames != inline_frames)
                free(frames);
            frames = bigger;
            cap *= 2;
        }
        frames[n++] = (EqFrame){ca, cb, 0};
    }
    if (frames != inline_frames)
        free(frames);
    return result;
}

/* Once a shared container is met, the rest of the walk holds the shared lock. */
bool ts_value_equal(TsValue a, TsValue b)
{
    bool locked = eq_shared(a, b);
    if (locked)
        ts_shared_lock();
    bool result = eq_walk(a, b, &locked);
    if (locked)
        ts_shared_unlock();
    return result;
}

bool ts_value_is(TsValue a, TsValue b)
{
    if (a.tag != b.tag)
        return false;
    if (ts_is_heap(a))
        return a.u.p == b.u.p;
    switch ((TsTag)a.tag) {
    case TS_TAG_INT:
        return a.u.i == b.u.i;
    case TS_TAG_DOUBLE:
        return memcmp(&a.u.d, &b.u.d, sizeof a.u.d) == 0;
    case TS_TAG_BOOL:
        return a.u.b == b.u.b;
    case TS_TAG_DEVICE:
        return a.u.dev.type == b.u.dev.type && a.u.dev.index == b.u.dev.index;
    default:               /* None, uninitialized */
        return true;
    }
}

/* ---- hashing ------------------------------------------------------------------ */
/* A 64-bit finalizer (splitmix64's): every input bit affects every output bit. */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* Tuples nested deeper than this hash as their first levels only: still consistent with
 * equality, and bounded in stack. */
#define HASH_MAX_DEPTH 32

static uint64_t hash_double(double d)
{
    int64_t i;
    if (double_as_int(d, &i))          /* 1.0 hashes as 1, -0.0 as 0: equal values agree */
        return mix64((uint64_t)i);
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return mix64(bits ^ 0x5bd1e9955bd1e995ULL);
}

static uint64_t hash_at(TsValue v, int depth)
{
    switch ((TsTag)v.tag) {
    case TS_TAG_NONE:
        return 0x9e3779b97f4a7c15ULL;
    case TS_TAG_INT:
        return mix64((uint64_t)v.u.i);
    case TS_TAG_BOOL:
        return mix64((uint64_t)v.u.b);
    case TS_TAG_DOUBLE:
        return hash_double(v.u.d);
    case TS_TAG_DEVICE:
        return mix64(((uint64_t)(uint16_t)v.u.dev.type << 16 | (uint16_t)v.u.dev.index) ^
                     0xd6e8feb86659fd93ULL);
    case TS_TAG_STR:
        return ts_str_hash((TsStr *)v.u.p);
    case TS_TAG_COMPLEX: {
        TsComplex *c = (TsComplex *)v.u.p;
        uint64_t h = hash_double(c->re);
        return c->im == 0 ? h : mix64(h ^ (hash_double(c->im) * 31));
    }
    case TS_TAG_TUPLE: {
        TsTuple *t = (TsTuple *)v.u.p;
        uint64_t h = 0x27d4eb2f165667c5ULL ^ t->len;
        if (depth >= HASH_MAX_DEPTH)
            return h;
        for (size_t i = 0; i < t->len; i++)
            h = mix64(h ^ hash_at(t->items[i], depth + 1)) * 0x100000001b3ULL;
        return h;
    }
    case TS_TAG_ENUM: {
        TsEnumValue *e = (TsEnumValue *)v.u.p;
        return mix64((uint64_t)(uintptr_t)e->type ^ ts_str_hash(e->name));
    }
    default:               /* by identity */
        return mix64((uint64_t)(uintptr_t)v.u.p);
    }
}

uint64_t ts_value_hash(TsValue v)
{
    return hash_at(v, 0);
}

/* ---- dynamic types --------------------------------------------------------------- */
static const TsType *tuple_type(const TsTuple *t)
{
    if (t->type)
        return t->type;
    const TsType *inline_elems[8];
    const TsType **elems = t->len <= 8 ? inline_elems : malloc(t->len * sizeof *elems);
    if (!elems)
        return NULL;
    const TsType *r = NULL;
    size_t i;
    for (i = 0; i < t->len; i++) {
        elems[i] = ts_value_type(t->items[i]);
        if (!elems[i])
            break;
    }
    if (i == t->len)
        r = ts_type_tuple(t->len, elems);
    if (elems != inline_elems)
        free(elems);
    return r;
}

static const TsType *tensor_type(const TsTensor *t)
{
    TsTensorTypeInfo info = {t->dtype, t->device.type, t->device.index, -1, NULL, NULL, -1};
    return ts_type_tensor_refined(&info);
}

const TsType *ts_value_type(TsValue v)
{
    switch ((TsTag)v.tag) {
    case TS_TAG_NONE: return ts_type_none();
    case TS_TAG_INT: return ts_type_int();
    case TS_TAG_DOUBLE: return ts_type_float();
    case TS_TAG_BOOL: return ts_type_bool();
    case TS_TAG_DEVICE: return ts_type_device();
    case TS_TAG_STR: return ts_type_str();
    case TS_TAG_COMPLEX: return ts_type_complex();
    case TS_TAG_LIST: return ts_type_list(((TsList *)v.u.p)->elem_type);
    case TS_TAG_DICT: {
        TsDict *d = (TsDict *)v.u.p;
        return ts_type_dict(ts_dict_key_type(d), ts_dict_value_type(d));
    }
    case TS_TAG_TUPLE: return tuple_type((TsTuple *)v.u.p);
    case TS_TAG_OBJECT: return ((TsObject *)v.u.p)->cls;
    case TS_TAG_TENSOR: return tensor_type((TsTensor *)v.u.p);
    case TS_TAG_FUTURE: return ts_type_future(ts_future_elem_type((TsFuture *)v.u.p));
    case TS_TAG_ENUM: return ((TsEnumValue *)v.u.p)->type;
    case TS_TAG_CAPSULE: return ts_type_capsule();
    case TS_TAG_STORAGE: return ts_type_storage();
    default: return ts_type_any();     /* uninitialized */
    }
}
