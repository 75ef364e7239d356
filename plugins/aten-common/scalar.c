/* scalar.c — Scalars into tensor elements: conversion with PyTorch's overflow checks, the
 * same on every device (the backend then writes the element where it belongs).
 *
 * A Scalar (int, float, bool or complex at run time) becomes an element of a dtype the way
 * torch.full and Tensor.fill_ do it: floats truncate toward zero into integer dtypes; a value
 * outside the dtype's range is RuntimeError "value cannot be converted to type int8_t without
 * overflow" (uint8 alone accepts negative ints, wrapping them, as PyTorch does); nan and inf
 * fit float dtypes but no integer one; a complex with a nonzero imaginary part fits only
 * complex dtypes. float16 and bfloat16 take values up to their own largest finite value
 * (65504, about 3.39e38), rounded through float32 as PyTorch does.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "tscript/aten.h"

/* The scalar as the widest real and imaginary parts we need, remembering its kind. */
typedef struct Scalar {
    bool is_float;             /* d holds the value (else i) */
    int64_t i;
    double d, im;
} Scalar;

static int read_scalar(TsValue v, Scalar *s, TsError *err)
{
    memset(s, 0, sizeof *s);
    switch (v.tag) {
    case TS_TAG_INT: s->i = v.u.i; return 0;
    case TS_TAG_BOOL: s->i = v.u.b; return 0;
    case TS_TAG_DOUBLE: s->is_float = true; s->d = v.u.d; return 0;
    case TS_TAG_COMPLEX: {
        const TsComplex *c = (const TsComplex *)v.u.p;
        s->is_float = true;
        s->d = c->re;
        s->im = c->im;
        return 0;
    }
    default:
        return ts_error_set(err, TS_ERR_TYPE, "expected a Scalar (int, float, bool or complex)");
    }
}

int ts_aten_scalar_dtype(TsValue scalar)
{
    switch (scalar.tag) {
    case TS_TAG_BOOL: return TS_BOOL;
    case TS_TAG_DOUBLE: return TS_FLOAT32;
    case TS_TAG_COMPLEX: return TS_COMPLEX64;
    default: return TS_INT64;
    }
}

static int overflow(TsError *err, const char *type)
{
    return ts_error_set(err, TS_ERR_RUNTIME,
                        "value cannot be converted to type %s without overflow", type);
}

/* An integer element in [lo, hi]; the C name of the type is for the message. */
static int to_integer(const Scalar *s, int64_t lo, int64_t hi, const char *type, int64_t *out,
                      TsError *err)
{
    if (s->im != 0)
        return overflow(err, type);
    if (!s->is_float) {
        if (s->i < lo || s->i > hi)
            return overflow(err, type);
        *out = s->i;
        return 0;
    }
    /* truncation keeps (lo - 1, hi + 1) in range; the bounds are compared as doubles, where
     * INT64_MIN is exact and INT64_MAX + 1 rounds to 2^63, the first value out of range */
    if (!(s->d > (double)lo - 1.0 || s->d == (double)lo) || !(s->d < (double)hi + 1.0))
        return overflow(err, type);
    *out = (int64_t)s->d;
    return 0;
}

static int to_float(const Scalar *s, double max, const char *type, double *out, TsError *err)
{
    double d = s->is_float ? s->d : (double)s->i;
    if (s->im != 0 || (isfinite(d) && fabs(d) > max))
        return overflow(err, type);
    *out = d;
    return 0;
}

int ts_aten_scalar_to_elem(TsValue scalar, int dtype, void *out, TsError *err)
{
    Scalar s;
    int64_t i = 0;
    double d = 0;
    int rc = read_scalar(scalar, &s, err);
    if (rc)
        return rc;
    switch (dtype) {
    case TS_BOOL: {
        bool b = s.is_float ? (s.d != 0 || s.im != 0) : s.i != 0;
        memcpy(out, &b, sizeof b);
        return 0;
    }
    case TS_UINT8: {
        rc = to_integer(&s, INT64_MIN, UINT8_MAX, "uint8_t", &i, err);
        uint8_t v = (uint8_t)(uint64_t)i;
        memcpy(out, &v, sizeof v);
        return rc;
    }
#define INTEGER(DT, T, LO, HI, NAME) \
    case DT: { \
        rc = to_integer(&s, LO, HI, NAME, &i, err); \
        T v = (T)i; \
        memcpy(out, &v, sizeof v); \
        return rc; \
    }
    INTEGER(TS_INT8, int8_t, INT8_MIN, INT8_MAX, "int8_t")
    INTEGER(TS_INT16, int16_t, INT16_MIN, INT16_MAX, "int16_t")
    INTEGER(TS_INT32, int32_t, INT32_MIN, INT32_MAX, "int")
    INTEGER(TS_INT64, int64_t, INT64_MIN, INT64_MAX, "int64_t")
#undef INTEGER
    case TS_FLOAT32: {
        rc = to_float(&s, FLT_MAX, "float", &d, err);
        float v = (float)d;
        memcpy(out, &v, sizeof v);
        return rc;
    }
    case TS_FLOAT64:
        rc = to_float(&s, DBL_MAX, "double", &d, err);
        memcpy(out, &d, sizeof d);
        return rc;
    case TS_FLOAT16: {
        rc = to_float(&s, 65504.0, "at::Half", &d, err);
        uint16_t h = ts_aten_float_to_half((float)d);
        memcpy(out, &h, sizeof h);
        return rc;
    }
    case TS_BFLOAT16: {
        rc = to_float(&s, 0x1.fep127, "at::BFloat16", &d, err);
        uint16_t b = ts_aten_float_to_bf16((float)d);
        memcpy(out, &b, sizeof b);
        return rc;
    }
    case TS_COMPLEX64: {
        float v[2] = { (float)(s.is_float ? s.d : (double)s.i), (float)s.im };
        memcpy(out, v, sizeof v);
        return 0;
    }
    case TS_COMPLEX128: {
        double v[2] = { s.is_float ? s.d : (double)s.i, s.im };
        memcpy(out, v, sizeof v);
        return 0;
    }
    default:
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "the cpu backend does not support dtype %s here yet",
                            ts_dtype_name(dtype) ? ts_dtype_name(dtype) : "?");
    }
}
