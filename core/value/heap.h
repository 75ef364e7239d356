/* heap.h — how heap objects die (internal to the core; the public half is value.h).
 *
 * ts_heap_release() frees an object whose count reaches zero without recursion: destroying
 * an object drops its children's references, and a child that dies is put on a TsFreeList
 * instead of being destroyed on the C stack, so a list nested a million deep frees in
 * constant stack space. The files that own a heap kind's layout (dict.c, future.c) provide
 * its destroy function here.
 */
#ifndef TSCRIPT_HEAP_H
#define TSCRIPT_HEAP_H

#include "tscript/value.h"

#define TS_FREELIST_INLINE 32

/* Objects whose count reached zero and that wait to be destroyed. */
typedef struct TsFreeList {
    TsHeap **items;
    size_t len, cap;
    TsHeap *inline_items[TS_FREELIST_INLINE];
} TsFreeList;

/* Drops one reference of a child of a dying object; a child that dies joins fl. */
void ts_heap_drop(TsFreeList *fl, TsHeap *h);
static inline void ts_value_drop(TsFreeList *fl, TsValue v)
{
    if (ts_is_heap(v))
        ts_heap_drop(fl, v.u.p);
}

/* A future's value for marking it shared (share.c): borrowed, false when it has none yet
 * (completing it later marks the value, the future being flagged by then). */
bool ts_future_value_for_share(TsFuture *f, TsValue *out);

/* Destroy functions of the kinds whose layout is private to their file. */
void ts_dict_destroy(TsDict *d, TsFreeList *fl);
/* Gives a dead string's block back (str.c). */
void ts_str_free(TsStr *s);
void ts_future_destroy(TsFuture *f, TsFreeList *fl);

/* Every heap object starts with one reference. */
static inline void ts_heap_init(TsHeap *h, TsTag kind)
{
    atomic_init(&h->refcount, 1u);
    h->kind = (uint16_t)kind;
    atomic_init(&h->flags, 0);
}

#endif
