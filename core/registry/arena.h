/* arena.h — TsArena: reference-counted bump allocation for parsed schemas (internal).
 *
 * Startup parses ~1600 schemas; a malloc per name, argument and annotation (and a free per
 * piece at exit) was a third of that. A schema set's schemas are parsed into one arena
 * instead: memory comes from a chain of chunks by bumping a pointer, and is given back all
 * at once. Each schema in an arena holds a reference to it, and so does the schema set
 * while it lives; the last release frees every chunk. So a schema taken out of its set (the
 * operator table takes them one by one) keeps its memory alive on its own, and nobody has
 * to hand arenas around. The count is not atomic: an arena's schemas belong to one owner at
 * a time (a set, then one operator table), as a schema always did.
 */
#ifndef TSCRIPT_ARENA_H
#define TSCRIPT_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The arena's free space is public so that an allocation inlines to a bump; the rest is
 * arena.c's. */
typedef struct TsArena {
    char *cur, *end;           /* the free part of the newest chunk (NULL before one) */
    size_t refs;
    struct TsArenaChunk *chunks;   /* newest first */
    size_t next_cap;
    /* The plugin and source strings of the operators whose slots live here (optable.c):
     * a set's operators share one copy of each, in this arena. NULL until the first. */
    const char *op_plugin, *op_source;
} TsArena;

/* Allocations are multiples of this, and aligned to it. */
#define TS_ARENA_ALIGN 16

/* An arena with one reference; first_chunk is the first chunk's size in bytes (a guess at
 * what it will hold; later chunks double). NULL when out of memory. */
TsArena *ts_arena_new(size_t first_chunk);
TsArena *ts_arena_retain(TsArena *a);
/* Drops a reference; the last frees all the memory. NULL is ignored. */
void ts_arena_release(TsArena *a);

/* The slow path of ts_arena_alloc: a new chunk. */
void *ts_arena_alloc_chunk(TsArena *a, size_t n);

/* n bytes, aligned for any type, that live as long as the arena; NULL when out of memory
 * (or n is absurd). Not zeroed: for what the caller writes whole (strings, copies). */
static inline void *ts_arena_alloc_raw(TsArena *a, size_t n)
{
    if (n > SIZE_MAX / 2)
        return NULL;
    n = (n + TS_ARENA_ALIGN - 1) & ~(size_t)(TS_ARENA_ALIGN - 1);
    if (a->cur && (size_t)(a->end - a->cur) >= n) {
        void *p = a->cur;
        a->cur += n;
        return p;
    }
    return ts_arena_alloc_chunk(a, n);
}

/* The same, zeroed. Chunks are not zeroed in advance: zeroing only what is handed out
 * touches a fraction of the memory (and memset of a whole chunk showed in profiles). */
static inline void *ts_arena_alloc(TsArena *a, size_t n)
{
    void *p = ts_arena_alloc_raw(a, n);
    return p ? memset(p, 0, n) : NULL;
}

#endif
