/* objcache.h — per-thread caches of freed heap blocks: tensor and storage headers, and
 * small blocks by size class (strings, list and dict headers, tuples; see objcache.c). */
#ifndef TSCRIPT_OBJCACHE_H
#define TSCRIPT_OBJCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "tscript/tensor.h"

typedef enum TsObjKind { TS_OBJ_TENSOR, TS_OBJ_STORAGE, TS_OBJ_KINDS } TsObjKind;

/* An uninitialized block the size of kind's struct, or NULL when out of memory. */
void *ts_objcache_get(TsObjKind kind);
/* Gives back a block from ts_objcache_get (or malloc of the same size). */
void ts_objcache_put(TsObjKind kind, void *p);

/* Small blocks: sizes up to TS_SMALL_MAX bytes come in classes of TS_SMALL_STEP bytes.
 * ts_small_alloc(n) gives a block of at least n bytes (NULL when out of memory); the block
 * goes back through ts_small_free with the same n (a block of any size may: larger ones
 * are plain malloc/free). */
#define TS_SMALL_STEP 16
#define TS_SMALL_MAX 128
void *ts_small_alloc(size_t n);
void ts_small_free(void *p, size_t n);

/* Frees the calling thread's cached blocks (threads' caches are flushed when they exit;
 * the main thread's at ts_runtime_close, so leak checkers see nothing). */
void ts_objcache_flush(void);

#endif
