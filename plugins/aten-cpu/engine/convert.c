/* convert.c — moving elements between dtypes: casts, copies, wrapped scalars, new tensors.
 *
 * Every dtype has four converters generated from one macro: load a run of elements as
 * doubles or as int64s, and store a run from doubles or int64s. A cast between two
 * integral (or bool) dtypes goes through int64, so no integer loses bits; any other goes
 * through double, which holds every float32, float16, bfloat16 and int32 value exactly.
 * float16 and bfloat16 are stored as their bits and converted with round-to-nearest-even.
 * Float to integer follows what PyTorch does on x86: truncation toward zero; to int64, values
 * out of its range (and nan) become INT64_MIN; to the narrower types the conversion is
 * int32's (x86's 32-bit one: out of int32's range and nan give INT32_MIN), then wraps to the
 * type (300.0 as int8 is 44, 1e10 as int16 is 0), without ever executing an undefined C
 * conversion.
 */
#include <math.h>
#include <string.h>

#include "engine/elementwise.h"
#include "vhalf.h"

/* ---- the converters --------------------------------------------------------------- */

static int64_t double_to_i64(double d)
{
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
        return INT64_MIN;
    return (int64_t)d;
}

static int64_t double_to_i32(double d)
{
    if (!(d >= -2147483648.0 && d < 2147483648.0))
        return INT32_MIN;
    return (int64_t)d;
}

typedef struct Converters {
    void (*load_d)(const char *p, int64_t s, int64_t n, double *out);
    void (*load_i)(const char *p, int64_t s, int64_t n, int64_t *out);
    void (*store_d)(char *p, int64_t s, int64_t n, const double *in);
    void (*store_i)(char *p, int64_t s, int64_t n, const int64_t *in);
} Converters;

/* X(dtype, C type, storage as double, storage as int64, double d as storage, int64 i as
 * storage); v is the stored value. */
#define CONV_TYPES(X) \
    X(TS_BOOL, bool, (double)v, (int64_t)v, d != 0, i != 0) \
    X(TS_UINT8, uint8_t, (double)v, (int64_t)v, (uint8_t)(uint64_t)double_to_i32(d), \
      (uint8_t)(uint64_t)i) \
    X(TS_INT8, int8_t, (double)v, (int64_t)v, (int8_t)(uint64_t)double_to_i32(d), \
      (int8_t)(uint64_t)i) \
    X(TS_INT16, int16_t, (double)v, (int64_t)v, (int16_t)(uint64_t)double_to_i32(d), \
      (int16_t)(uint64_t)i) \
    X(TS_INT32, int32_t, (double)v, (int64_t)v, (int32_t)(uint64_t)double_to_i32(d), \
      (int32_t)(uint64_t)i) \
    X(TS_INT64, int64_t, (double)v, v, double_to_i64(d), i) \
    X(TS_FLOAT32, float, (double)v, double_to_i64(v), (float)d, (float)i) \
    X(TS_FLOAT64, double, v, double_to_i64(v), d, (double)i) \
    X(TS_FLOAT16, uint16_t, (double)ts_aten_half_to_float(v), double_to_i64(ts_aten_half_to_float(v)), \
      ts_aten_float_to_half((float)d), ts_aten_float_to_half((float)i)) \
    X(TS_BFLOAT16, uint16_t, (double)ts_aten_bf16_to_float(v), double_to_i64(ts_aten_bf16_to_float(v)), \
      ts_aten_float_to_bf16((float)d), ts_aten_float_to_bf16((float)i))

#define CONV_FNS(DT, T, AS_D, AS_I, FROM_D, FROM_I) \
    static void load_d_##DT(const char *p, int64_t s, int64_t n, double *out) \
    { \
        for (int64_t k = 0; k < n; k++) { \
            T v; \
            memcpy(&v, p + k * s, sizeof v); \
            out[k] = AS_D; \
        } \
    } \
    static void load_i_##DT(const char *p, int64_t s, int64_t n, int64_t *out) \
    { \
        for (int64_t k = 0; k < n; k++) { \
            T v; \
            memcpy(&v, p + k * s, sizeof v); \
            out[k] = AS_I; \
        } \
    } \
    static void store_d_##DT(char *p, int64_t s, int64_t n, const double *in) \
    { \
        for (int64_t k = 0; k < n; k++) { \
            double d = in[k]; \
            T v = FROM_D; \
            memcpy(p + k * s, &v, sizeof v); \
        } \
    } \
    static void store_i_##DT(char *p, int64_t s, int64_t n, const int64_t *in) \
    { \
        for (int64_t k = 0; k < n; k++) { \
            int64_t i = in[k]; \
            T v = FROM_I; \
            memcpy(p + k * s, &v, sizeof v); \
        } \
    }
CONV_TYPES(CONV_FNS)
#undef CONV_FNS

#define CONV_ENTRY(DT, T, AS_D, AS_I, FROM_D, FROM_I) \
    [DT] = { load_d_##DT, load_i_##DT, store_d_##DT, store_i_##DT },
static const Converters conv[TS_DTYPE__COUNT] = { CONV_TYPES(CONV_ENTRY) };
#undef CONV_ENTRY

double ts_cpu_load_double(int dtype, const void *p)
{
    double d = 0;
    if (dtype >= 0 && dtype < TS_DTYPE__COUNT && conv[dtype].load_d)
        conv[dtype].load_d(p, 0, 1, &d);
    return d;
}

void ts_cpu_store_double(int dtype, void *p, double d)
{
    if (dtype >= 0 && dtype < TS_DTYPE__COUNT && conv[dtype].store_d)
        conv[dtype].store_d(p, 0, 1, &d);
}

/* n elements of T from src (s1 bytes apart: 0 for a broadcast) to dst (s0 apart), bit for
 * bit. */
#define STRIDED_COPY(T) \
    static void copy_##T(char *dst, int64_t s0, const char *src, int64_t s1, int64_t n) \
    { \
        if (s1 == 0 && s0 == (int64_t)sizeof(T)) {    /* a fill: the compiler's vector stores */ \
            T v; \
            memcpy(&v, src, sizeof v); \
            for (int64_t i = 0; i < n; i++) \
                memcpy(dst + i * (int64_t)sizeof(T), &v, sizeof v); \
            return; \
        } \
        for (int64_t i = 0; i < n; i++) \
            memcpy(dst + i * s0, src + i * s1, sizeof(T)); \
    }
STRIDED_COPY(uint8_t)
STRIDED_COPY(uint16_t)
STRIDED_COPY(uint32_t)
STRIDED_COPY(uint64_t)
#undef STRIDED_COPY

/* Whether the n elements of es bytes at p[0] (s[0] apart) and at p[1] (s[1] apart) share a
 * byte: copied one by one they could read what was just written (the loop below reads a
 * run into a buffer first). */
static bool spans_overlap(char **p, const int64_t *s, int64_t n, int64_t es)
{
    uintptr_t lo[2], hi[2];
    for (int k = 0; k < 2; k++) {
        uintptr_t a = (uintptr_t)p[k], b = (uintptr_t)(p[k] + (n - 1) * s[k]);
        lo[k] = a < b ? a : b;
        hi[k] = (a < b ? b : a) + (uintptr_t)es;
    }
    return lo[0] < hi[1] && lo[1] < hi[0];
}

/* A cast between float32, float16 and bfloat16 by vhalf.h's vectorized converters (the
 * half types to each other through float32, which holds both exactly); false for any other
 * pair. */
static bool half_cast(int to, int from, char **p, const int64_t *s, int64_t n)
{
    bool to_half = to == TS_FLOAT16 || to == TS_BFLOAT16,
         from_half = from == TS_FLOAT16 || from == TS_BFLOAT16;
    if (!(to_half || to == TS_FLOAT32) || !(from_half || from == TS_FLOAT32) ||
        !(to_half || from_half))
        return false;
    float buf[256];
    for (int64_t k = 0; k < n; k += 256) {
        int64_t m = n - k < 256 ? n - k : 256;
        const char *src = p[1] + k * s[1];
        char *dst = p[0] + k * s[0];
        /* the float32 side: the destination, the source, or buf between two half types */
        float *f = to == TS_FLOAT32 ? (float *)dst : buf;
        int64_t fs = to == TS_FLOAT32 ? s[0] / 4 : 1;
        const float *in = from == TS_FLOAT32 ? (const float *)src : f;
        int64_t ins = from == TS_FLOAT32 ? s[1] / 4 : fs;
        if (from_half)
            ts_vh_widen(from == TS_BFLOAT16, f, fs, (const uint16_t *)src, s[1] / 2, m);
        if (to_half)
            ts_vh_narrow(to == TS_BFLOAT16, (uint16_t *)dst, s[0] / 2, in, ins, m);
    }
    return true;
}

/* The cast loop: args->i[0] is the destination dtype, args->i[1] the source's. A copy within
 * one dtype moves the bits (a broadcast source, a conv's bias filling its output planes, is
 * a fill), not values through a double. */
static void cast_loop(char **p, const int64_t *s, int64_t n, TsCpuEwArgs *args)
{
    int to = (int)args->i[0], from = (int)args->i[1];
    int64_t es = (int64_t)ts_dtype_size(to);
    if (to == from && s[0] == es && s[1] == es) {
        memmove(p[0], p[1], (size_t)(n * es));
        return;
    }
    if (to == from && !spans_overlap(p, s, n, es)) {
        switch (es) {
        case 1: copy_uint8_t(p[0], s[0], p[1], s[1], n); return;
        case 2: copy_uint16_t(p[0], s[0], p[1], s[1], n); return;
        case 4: copy_uint32_t(p[0], s[0], p[1], s[1], n); return;
        case 8: copy_uint64_t(p[0], s[0], p[1], s[1], n); return;
        case 16:
            copy_uint64_t(p[0], s[0], p[1], s[1], n);
            copy_uint64_t(p[0] + 8, s[0], p[1] + 8, s[1], n);
            return;
        default: break;
        }
    }
    if (to != from && half_cast(to, from, p, s, n))
        return;
    bool via_int = !ts_dtype_is_floating(to) && !ts_dtype_is_floating(from);
    union { double d[256]; int64_t i[256]; } buf;
    for (int64_t k = 0; k < n; k += 256) {
        int64_t m = n - k < 256 ? n - k : 256;
        const char *src = p[1] + k * s[1];
        char *dst = p[0] + k * s[0];
        if (via_int) {
            conv[from].load_i(src, s[1], m, buf.i);
            conv[to].store_i(dst, s[0], m, buf.i);
        } else {
            conv[from].load_d(src, s[1], m, buf.d);
            conv[to].store_d(dst, s[0], m, buf.d);
        }
    }
}

void ts_cpu_copy_into(TsTensor *dst, const TsTensor *src)
{
    TsCpuEwArgs args = { { 0, 0 }, { dst->dtype, src->dtype }, 0 };
    TsTensor *ops[2] = { dst, (TsTensor *)src };
    ts_cpu_ew_iterate(2, ops, cast_loop, &args);
}

TsTensor *ts_cpu_empty(int dtype, int dim, const int64_t *sizes, TsError *err)
{
    TsDevice cpu = { TS_DEV_CPU, -1 };
    return ts_tensor_empty(&ts_cpu_allocator, cpu, dtype, dim, sizes, err);
}

TsTensor *ts_cpu_cast(const TsTensor *src, int dtype, TsError *err)
{
    TsTensor *t = ts_cpu_empty(dtype, src->dim, src->sizes, err);
    if (t)
        ts_cpu_copy_into(t, src);
    return t;
}

TsTensor *ts_cpu_wrap_scalar(TsValue v, TsError *err)
{
    int dtype;
    switch (v.tag) {
    case TS_TAG_INT: dtype = TS_INT64; break;
    case TS_TAG_DOUBLE: dtype = TS_FLOAT64; break;
    case TS_TAG_BOOL: dtype = TS_BOOL; break;
    case TS_TAG_COMPLEX:
        ts_error_set(err, TS_ERR_RUNTIME, "complex numbers are not supported by the cpu backend");
        return NULL;
    default:
        ts_error_set(err, TS_ERR_TYPE, "expected a Scalar (int, float or bool)");
        return NULL;
    }
    TsTensor *t = ts_cpu_scalar_tensor(v, dtype, err);
    if (t)
        t->flags |= TS_ATEN_WRAPPED;
    return t;
}

TsTensor *ts_cpu_scalar_tensor(TsValue v, int dtype, TsError *err)
{
    unsigned char elem[16];
    if (dtype == TS_FLOAT16 || dtype == TS_BFLOAT16) {
        /* range-checked as float32, then rounded to the half type */
        float f;
        if (ts_aten_scalar_to_elem(v, TS_FLOAT32, &f, err))
            return NULL;
        double d = f;
        conv[dtype].store_d((char *)elem, 0, 1, &d);
    } else if (ts_aten_scalar_to_elem(v, dtype, elem, err)) {
        return NULL;
    }
    TsTensor *t = ts_cpu_empty(dtype, 0, NULL, err);
    if (t)
        memcpy(ts_tensor_data(t), elem, ts_dtype_size(dtype));
    return t;
}

/* The byte range [lo, hi) that t's elements span. */
static void span(const TsTensor *t, uintptr_t *lo, uintptr_t *hi)
{
    int64_t es = (int64_t)ts_dtype_size(t->dtype), first = 0, last = 0;
    for (int d = 0; d < t->dim; d++) {
        int64_t reach = (t->sizes[d] - 1) * t->strides[d];
        if (reach < 0)
            first += reach;
        else
            last += reach;
    }
    uintptr_t base = (uintptr_t)ts_tensor_data(t);
    *lo = base + (uintptr_t)(first * es);
    *hi = base + (uintptr_t)((last + 1) * es);
}

bool ts_cpu_may_overlap(const TsTensor *a, const TsTensor *b)
{
    if (!a->storage || a->storage != b->storage || ts_tensor_numel(a) == 0 ||
        ts_tensor_numel(b) == 0)
        return false;
    uintptr_t alo, ahi, blo, bhi;
    span(a, &alo, &ahi);
    span(b, &blo, &bhi);
    return alo < bhi && blo < ahi;
}

bool ts_cpu_internal_overlap(const TsTensor *t)
{
    for (int d = 0; d < t->dim; d++)
        if (t->sizes[d] > 1 && t->strides[d] == 0)
            return true;
    return false;
}

int ts_cpu_input_overlap_error(TsError *err)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "unsupported operation: some elements of the "
                        "input tensor and the written-to tensor refer to a single memory "
                        "location. Please clone() the tensor before performing the "
                        "operation.");
}

int ts_cpu_check_internal_overlap(const TsTensor *t, TsError *err)
{
    if (!ts_cpu_internal_overlap(t))
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "unsupported operation: more than one element of "
                        "the written-to tensor refers to a single memory location. Please "
                        "clone() the tensor before performing the operation.");
}

bool ts_cpu_partial_overlap(const TsTensor *a, const TsTensor *b)
{
    if (!a->storage || a->storage != b->storage || ts_tensor_numel(a) == 0 ||
        ts_tensor_numel(b) == 0)
        return false;
    bool same = a->offset == b->offset && a->dim == b->dim && a->dtype == b->dtype;
    for (int d = 0; same && d < a->dim; d++)
        same = a->sizes[d] == b->sizes[d] && a->strides[d] == b->strides[d];
    if (same)
        return false;
    uintptr_t alo, ahi, blo, bhi;
    span(a, &alo, &ahi);
    span(b, &blo, &bhi);
    return alo < bhi && blo < ahi;
}

int ts_cpu_check_dtype(int dtype, TsError *err)
{
    if (ts_dtype_is_complex(dtype) || dtype == TS_QINT8 || dtype == TS_QUINT8 ||
        dtype == TS_QINT32)
        return ts_error_set(err, TS_ERR_RUNTIME, "dtype %s is not supported by the cpu backend",
                            ts_dtype_type_name(dtype));
    return 0;
}

const char *ts_cpu_cxx_type(int dtype)
{
    switch (dtype) {
    case TS_UINT8: return "unsigned char";
    case TS_INT8: return "signed char";
    case TS_INT16: return "short int";
    case TS_INT32: return "int";
    case TS_INT64: return "long int";
    case TS_FLOAT16: return "c10::Half";
    case TS_BFLOAT16: return "c10::BFloat16";
    default: return ts_dtype_name(dtype);
    }
}
