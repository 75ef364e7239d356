/* ptrmap.h — a map from pointers to pointer-sized values (open addressing).
 *
 * The IR and the code builder key side tables by node and value pointers: the verifier's
 * scope sets, graph copies' old-to-new value maps, the linearizer's per-node analysis. One
 * small map serves them all. Keys are never NULL; a zeroed TsPtrMap is an empty map.
 */
#ifndef TSCRIPT_PTRMAP_H
#define TSCRIPT_PTRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct TsPtrMap {
    const void **keys;
    uintptr_t *vals;
    size_t cap, n;             /* cap is 0 or a power of two */
} TsPtrMap;

/* Adds key -> val. Returns 0 when added, 1 when key was there already (its value is kept),
 * -1 when out of memory. */
int ts_ptrmap_put(TsPtrMap *m, const void *key, uintptr_t val);
/* True when key is present; its value goes to *val unless val is NULL. */
bool ts_ptrmap_get(const TsPtrMap *m, const void *key, uintptr_t *val);
/* Replaces the value of a key that is present; false when it is absent. */
bool ts_ptrmap_set(TsPtrMap *m, const void *key, uintptr_t val);
/* Iteration in no particular order: pos starts at 0; false past the end. */
bool ts_ptrmap_next(const TsPtrMap *m, size_t *pos, const void **key, uintptr_t *val);
/* Frees the tables and leaves an empty map. */
void ts_ptrmap_free(TsPtrMap *m);

#endif
