/* objcache.h — per-thread caches of freed tensor and storage headers (see objcache.c). */
#ifndef TSCRIPT_OBJCACHE_H
#define TSCRIPT_OBJCACHE_H

#include <stdbool.h>

#include "tscript/tensor.h"

typedef enum TsObjKind { TS_OBJ_TENSOR, TS_OBJ_STORAGE, TS_OBJ_KINDS } TsObjKind;

/* An uninitialized block the size of kind's struct, or NULL when out of memory. */
void *ts_objcache_get(TsObjKind kind);
/* Gives back a block from ts_objcache_get (or malloc of the same size). */
void ts_objcache_put(TsObjKind kind, void *p);
/* Frees the calling thread's cached blocks (threads' caches are flushed when they exit;
 * the main thread's at ts_runtime_close, so leak checkers see nothing). */
void ts_objcache_flush(void);

#endif
