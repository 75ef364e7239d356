/* share.c — containers that several threads reach: marking them, and the lock that keeps
 * concurrent writers from corrupting memory.
 *
 * Lists, dicts and objects are not locked by themselves (PyTorch's are not either), and
 * most never leave the thread that made them, so the common case must cost nothing. But
 * two forked tasks appending to one list raced inside realloc and corrupted the heap. So a
 * container that more than one thread may reach is *shared*: TS_HEAP_SHARED in its header,
 * set once and never cleared. The rules:
 *
 *   1. Everything reachable from a shared value is shared. ts_value_share marks a value
 *      and, depth first, everything it reaches (through lists, dicts, objects, tuples and
 *      done futures), stopping at what is already shared, so marking again is cheap.
 *   2. A value becomes reachable by another thread only after it is marked: the arguments
 *      of a fork (interp.c), the value stored into a shared container (the interpreter's
 *      list, dict and attribute ops, and every argument and result of a kernel that ran
 *      with a shared argument: whatever such a kernel stored into a shared container was
 *      one of them), the value of a shared future when it completes (future.c), and a
 *      Code's constants that some instruction other than a read-only kernel argument could
 *      write or let escape (code.c). An embedder that hands one value to several threads
 *      calls ts_value_share first.
 *   3. The contents of a shared container (a list's items and length, a dict's entries, an
 *      object's slots) are read and written only with the shared lock held. The
 *      interpreter holds it around a kernel any of whose arguments is shared, and around
 *      its own container ops on shared containers. Code that reads inside a container it
 *      reached through another (equality, hashing and printing of nested values, sorting
 *      lists of lists, tensors made from nested lists) takes it for each shared container
 *      it enters: an unshared list may hold a shared one (rule 1 goes down, not up).
 *
 * So unshared containers are touched by one thread at a time, and shared ones by one
 * thread at a time too. Concurrent writers interleave in some order, as they would in
 * Python; memory is never corrupted.
 *
 * The lock is one mutex for every shared container, recursive per thread (a depth
 * counter): a kernel holding it may call TorchScript (sort's __lt__), and nested walks
 * take it again; with one lock no two threads can take two in opposite orders. Shared
 * containers are rare and their operations short, so one lock contends little; a kernel
 * that computes long on a shared argument (torch.cat of a shared list) holds it for that
 * long, which serializes such kernels, not the program. A kernel holding the lock must not
 * wait for another thread that may need it (a future's value); none does.
 *
 * Tuples are immutable: marking passes through them without flagging them, and reading
 * one needs no lock (its items are rule 3's business). Tensors are not containers here:
 * their elements may race as PyTorch's do, which corrupts numbers, not memory.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "value/heap.h"

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local unsigned lock_depth;

void ts_shared_lock(void)
{
    if (lock_depth++ == 0)
        pthread_mutex_lock(&shared_lock);
}

void ts_shared_unlock(void)
{
    if (--lock_depth == 0)
        pthread_mutex_unlock(&shared_lock);
}

/* ---- marking ---------------------------------------------------------------------------- */

/* One container being marked, and where in it the walk goes on. */
typedef struct Frame {
    TsHeap *h;
    size_t next;               /* the next item, slot or dict position */
} Frame;

typedef struct Walk {
    Frame *frames;
    size_t n, cap;
    Frame inline_frames[32];
} Walk;

/* Kinds whose contents can be written: they carry the flag. */
static bool is_flagged_kind(uint16_t kind)
{
    return kind == TS_TAG_LIST || kind == TS_TAG_DICT || kind == TS_TAG_OBJECT ||
           kind == TS_TAG_FUTURE;
}

/* Kinds that can reach a container. */
static bool has_children(uint16_t kind)
{
    return is_flagged_kind(kind) || kind == TS_TAG_TUPLE;
}

static int push(Walk *w, TsHeap *h, TsError *err)
{
    if (w->n == w->cap) {
        size_t cap = w->cap * 2;
        Frame *f = w->frames == w->inline_frames ? malloc(cap * sizeof *f)
                                                 : realloc(w->frames, cap * sizeof *f);
        if (!f)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory marking values for another "
                                "thread");
        if (w->frames == w->inline_frames)
            memcpy(f, w->inline_frames, w->n * sizeof *f);
        w->frames = f;
        w->cap = cap;
    }
    w->frames[w->n++] = (Frame){ h, 0 };
    return 0;
}

/* Flags v if it carries the flag (and is not flagged yet) and pushes it if it can reach
 * more: flagged before its children, so a cycle ends at it. */
static int visit(Walk *w, TsValue v, TsError *err)
{
    if (!ts_is_heap(v) || !has_children((uint16_t)v.tag))
        return 0;
    TsHeap *h = v.u.p;
    if (is_flagged_kind(h->kind)) {
        if (atomic_load_explicit(&h->flags, memory_order_relaxed) & TS_HEAP_SHARED)
            return 0;
        atomic_fetch_or_explicit(&h->flags, TS_HEAP_SHARED, memory_order_relaxed);
    }
    return push(w, h, err);
}

/* The values a list, tuple or object holds, in an array. */
static const TsValue *items_of(const TsHeap *h, size_t *n)
{
    switch ((TsTag)h->kind) {
    case TS_TAG_LIST:
        *n = ((const TsList *)h)->len;
        return ((const TsList *)h)->items;
    case TS_TAG_TUPLE:
        *n = ((const TsTuple *)h)->len;
        return ((const TsTuple *)h)->items;
    default:
        *n = ((const TsObject *)h)->nslots;
        return ((const TsObject *)h)->slots;
    }
}

/* The next child of the container on top of the walk, or false when it has no more. */
static bool next_child(Frame *f, TsValue *out)
{
    switch ((TsTag)f->h->kind) {
    case TS_TAG_LIST:
    case TS_TAG_TUPLE:
    case TS_TAG_OBJECT: {
        size_t n;
        const TsValue *items = items_of(f->h, &n);
        if (f->next >= n)
            return false;
        *out = items[f->next++];
        return true;
    }
    case TS_TAG_DICT: {
        /* keys are str, numbers, tensors, devices: only values can reach containers */
        TsValue key;
        return ts_dict_next((const TsDict *)f->h, &f->next, &key, out);
    }
    case TS_TAG_FUTURE:
        /* once: its value when done; from now on completing it marks the value */
        if (f->next++ > 0)
            return false;
        return ts_future_value_for_share((TsFuture *)f->h, out);
    default:
        return false;
    }
}

/* Marking needs memory only for containers nested more than 32 deep. Out of memory there,
 * it fails with some containers flagged whose children are not: the caller then does not
 * share the value (the fork fails), but a later marking stops at those containers. */
int ts_value_share(TsValue v, TsError *err)
{
    if (!ts_is_heap(v) || !has_children((uint16_t)v.tag) || ts_value_is_shared(v))
        return 0;
    Walk w = { NULL, 0, 32, { { NULL, 0 } } };
    w.frames = w.inline_frames;
    int rc = visit(&w, v, err);
    while (!rc && w.n > 0) {
        TsValue child;
        if (next_child(&w.frames[w.n - 1], &child))
            rc = visit(&w, child, err);
        else
            w.n--;
    }
    if (w.frames != w.inline_frames)
        free(w.frames);
    return rc;
}
