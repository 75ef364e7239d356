/* block_cache.h — large CPU blocks kept for reuse (block_cache.c says why and how). */
#ifndef TSCRIPT_CPU_BLOCK_CACHE_H
#define TSCRIPT_CPU_BLOCK_CACHE_H

#include <stddef.h>

/* A block of at least n bytes (a size class's when n is large: from the cache when one
 * waits), or NULL; free it with ts_cpu_block_free and the same n. */
void *ts_cpu_block_alloc(size_t n);
void ts_cpu_block_free(void *p, size_t n);
/* Bytes waiting on the lists, and emptying them (plugin unload, a failed allocation). */
size_t ts_cpu_block_cached(void);
void ts_cpu_block_drain(void);

#endif
