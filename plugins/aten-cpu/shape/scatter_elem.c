/* scatter_elem.c — the per-dtype element operations of scatter_elem.h, generated from one
 * macro per kind of dtype (integers, floats) plus bool and the half types.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "engine/elementwise.h"
#include "shape/scatter_elem.h"

/* Integers: arithmetic through uint64_t wraps like PyTorch's (no signed overflow). */
#define INT_ELEM(DT, T, LO, HI) \
    static void comb_##DT(char *d, const char *s, TsScatterRed r) \
    { \
        T x, y; \
        memcpy(&x, d, sizeof x); \
        memcpy(&y, s, sizeof y); \
        switch (r) { \
        case TS_RED_NONE: x = y; break; \
        case TS_RED_SUM: case TS_RED_MEAN: x = (T)((uint64_t)x + (uint64_t)y); break; \
        case TS_RED_PROD: x = (T)((uint64_t)x * (uint64_t)y); break; \
        case TS_RED_AMAX: x = y > x ? y : x; break; \
        case TS_RED_AMIN: x = y < x ? y : x; break; \
        } \
        memcpy(d, &x, sizeof x); \
    } \
    static void ident_##DT(char *d, TsScatterRed r) \
    { \
        T x = r == TS_RED_PROD ? 1 : r == TS_RED_AMAX ? LO : r == TS_RED_AMIN ? HI : 0; \
        memcpy(d, &x, sizeof x); \
    } \
    static void div_##DT(char *d, int64_t n) \
    { \
        T x; \
        memcpy(&x, d, sizeof x); \
        int64_t v = (int64_t)x, q = v / n; \
        if (v % n != 0 && (v < 0) != (n < 0)) \
            q--; \
        x = (T)q; \
        memcpy(d, &x, sizeof x); \
    } \
    static void axpy_##DT(char *d, const char *s, const char *a) \
    { \
        T x, y, al; \
        memcpy(&x, d, sizeof x); \
        memcpy(&y, s, sizeof y); \
        memcpy(&al, a, sizeof al); \
        x = (T)((uint64_t)x + (uint64_t)al * (uint64_t)y); \
        memcpy(d, &x, sizeof x); \
    }

INT_ELEM(TS_UINT8, uint8_t, 0, UINT8_MAX)
INT_ELEM(TS_INT8, int8_t, INT8_MIN, INT8_MAX)
INT_ELEM(TS_INT16, int16_t, INT16_MIN, INT16_MAX)
INT_ELEM(TS_INT32, int32_t, INT32_MIN, INT32_MAX)
INT_ELEM(TS_INT64, int64_t, INT64_MIN, INT64_MAX)

/* Floats in their own type; the half types load and store through double. */
#define FLOAT_COMBINE(T, x, y, r) \
    switch (r) { \
    case TS_RED_NONE: x = y; break; \
    case TS_RED_SUM: case TS_RED_MEAN: x = (T)(x + y); break; \
    case TS_RED_PROD: x = (T)(x * y); break; \
    case TS_RED_AMAX: x = isnan(x) ? x : (isnan(y) || y > x) ? y : x; break; \
    case TS_RED_AMIN: x = isnan(x) ? x : (isnan(y) || y < x) ? y : x; break; \
    }

#define FLOAT_IDENT(r) \
    ((r) == TS_RED_PROD ? 1.0 : (r) == TS_RED_AMAX ? -INFINITY \
     : (r) == TS_RED_AMIN ? INFINITY : 0.0)

#define FLOAT_ELEM(DT, T) \
    static void comb_##DT(char *d, const char *s, TsScatterRed r) \
    { \
        T x, y; \
        memcpy(&x, d, sizeof x); \
        memcpy(&y, s, sizeof y); \
        FLOAT_COMBINE(T, x, y, r) \
        memcpy(d, &x, sizeof x); \
    } \
    static void ident_##DT(char *d, TsScatterRed r) \
    { \
        T x = (T)FLOAT_IDENT(r); \
        memcpy(d, &x, sizeof x); \
    } \
    static void div_##DT(char *d, int64_t n) \
    { \
        T x; \
        memcpy(&x, d, sizeof x); \
        x = (T)(x / (T)n); \
        memcpy(d, &x, sizeof x); \
    } \
    static void axpy_##DT(char *d, const char *s, const char *a) \
    { \
        T x, y, al; \
        memcpy(&x, d, sizeof x); \
        memcpy(&y, s, sizeof y); \
        memcpy(&al, a, sizeof al); \
        x = (T)(x + al * y); \
        memcpy(d, &x, sizeof x); \
    }

FLOAT_ELEM(TS_FLOAT32, float)
FLOAT_ELEM(TS_FLOAT64, double)

#define HALF_ELEM(DT) \
    static void comb_##DT(char *d, const char *s, TsScatterRed r) \
    { \
        double x = ts_cpu_load_double(DT, d), y = ts_cpu_load_double(DT, s); \
        FLOAT_COMBINE(double, x, y, r) \
        ts_cpu_store_double(DT, d, x); \
    } \
    static void ident_##DT(char *d, TsScatterRed r) \
    { \
        ts_cpu_store_double(DT, d, FLOAT_IDENT(r)); \
    } \
    static void div_##DT(char *d, int64_t n) \
    { \
        ts_cpu_store_double(DT, d, ts_cpu_load_double(DT, d) / (double)n); \
    } \
    static void axpy_##DT(char *d, const char *s, const char *a) \
    { \
        double x = ts_cpu_load_double(DT, d), y = ts_cpu_load_double(DT, s); \
        ts_cpu_store_double(DT, d, x + ts_cpu_load_double(DT, a) * y); \
    }

HALF_ELEM(TS_FLOAT16)
HALF_ELEM(TS_BFLOAT16)

/* bool: add is `or`, multiply `and`, max `or`, min `and`. */
static void comb_TS_BOOL(char *d, const char *s, TsScatterRed r)
{
    switch (r) {
    case TS_RED_NONE:
        *d = *s;
        break;
    case TS_RED_SUM: case TS_RED_MEAN: case TS_RED_AMAX:
        *d = *d || *s;
        break;
    case TS_RED_PROD: case TS_RED_AMIN:
        *d = *d && *s;
        break;
    }
}

static void ident_TS_BOOL(char *d, TsScatterRed r)
{
    *d = r == TS_RED_PROD || r == TS_RED_AMIN;
}

static void div_TS_BOOL(char *d, int64_t n)
{
    (void)d;
    (void)n;     /* mean of bools is refused before any element is touched */
}

static void axpy_TS_BOOL(char *d, const char *s, const char *a)
{
    *d = *d || (*a && *s);
}

#define ELEM_ENTRY(DT) [DT] = { comb_##DT, ident_##DT, div_##DT, axpy_##DT },

static const TsScatterElem elems[TS_DTYPE__COUNT] = {
    ELEM_ENTRY(TS_UINT8) ELEM_ENTRY(TS_INT8) ELEM_ENTRY(TS_INT16) ELEM_ENTRY(TS_INT32)
    ELEM_ENTRY(TS_INT64) ELEM_ENTRY(TS_FLOAT16) ELEM_ENTRY(TS_FLOAT32) ELEM_ENTRY(TS_FLOAT64)
    ELEM_ENTRY(TS_BOOL) ELEM_ENTRY(TS_BFLOAT16)
};

const TsScatterElem *ts_scatter_elem(int dtype)
{
    if (dtype < 0 || dtype >= TS_DTYPE__COUNT || !elems[dtype].combine)
        return NULL;
    return &elems[dtype];
}
