/* arena.c — TsArena: reference-counted bump allocation (see arena.h for why).
 *
 * An allocation is a bounds check, a pointer bump and a memset of what it hands out
 * (arena.h inlines that); memory is never reused. The newest chunk is first in the chain;
 * an allocation too big for the rest of it gets a fresh chunk (at least twice the last one,
 * capped, so a big set takes a few chunks and a lone schema one small one).
 */
#include "registry/arena.h"

#include <stdlib.h>

enum { MAX_CHUNK = 1 << 20 };

typedef struct TsArenaChunk {
    struct TsArenaChunk *next;
    size_t cap;                /* bytes of data */
    _Alignas(TS_ARENA_ALIGN) char data[];
} Chunk;

TsArena *ts_arena_new(size_t first_chunk)
{
    TsArena *a = calloc(1, sizeof *a);
    if (a) {
        a->refs = 1;
        a->next_cap = first_chunk < 64 ? 64 : first_chunk > MAX_CHUNK ? MAX_CHUNK : first_chunk;
    }
    return a;
}

TsArena *ts_arena_retain(TsArena *a)
{
    a->refs++;
    return a;
}

void ts_arena_release(TsArena *a)
{
    if (!a || --a->refs)
        return;
    for (Chunk *c = a->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

void *ts_arena_alloc_chunk(TsArena *a, size_t n)
{
    size_t cap = a->next_cap;
    if (cap < n)
        cap = n;
    if (cap > SIZE_MAX - sizeof(Chunk))
        return NULL;
    Chunk *c = malloc(sizeof *c + cap);
    if (!c)
        return NULL;
    c->next = a->chunks, c->cap = cap;
    a->chunks = c;
    a->cur = c->data + n, a->end = c->data + cap;
    if (a->next_cap < MAX_CHUNK)
        a->next_cap *= 2;
    return c->data;
}
