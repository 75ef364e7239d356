/* scatter_elem.h — one element of a scatter-style write, per dtype: combine (set, add,
 * multiply, max, min), the identity a reduction starts from, the mean's division, and
 * x += alpha * y (index_add).
 *
 * The scatter kernels (scatter.c) walk index positions and call these through a table
 * chosen once per call, so no loop switches on the dtype per element. Integers wrap as
 * PyTorch's do (arithmetic in uint64_t), float max/min propagate NaN, bool adds as `or` and
 * multiplies as `and`, float16/bfloat16 compute in double and round on store.
 */
#ifndef TS_ATEN_CPU_SCATTER_ELEM_H
#define TS_ATEN_CPU_SCATTER_ELEM_H

#include "engine/cpu.h"

typedef enum TsScatterRed {
    TS_RED_NONE,    /* plain write */
    TS_RED_SUM,     /* also "add" */
    TS_RED_PROD,    /* also "multiply" */
    TS_RED_MEAN,    /* a sum, divided by the count at the end */
    TS_RED_AMAX,
    TS_RED_AMIN,
} TsScatterRed;

typedef struct TsScatterElem {
    /* *d = reduce(*d, *s) */
    void (*combine)(char *d, const char *s, TsScatterRed r);
    /* *d = the value reduce r starts from (include_self=False) */
    void (*identity)(char *d, TsScatterRed r);
    /* *d = *d / n (floor division for integers) */
    void (*divide)(char *d, int64_t n);
    /* *d += *alpha * *s (alpha of the same dtype) */
    void (*axpy)(char *d, const char *s, const char *alpha);
} TsScatterElem;

/* The element operations of dtype, or NULL when it has none (complex). */
const TsScatterElem *ts_scatter_elem(int dtype);

#endif
