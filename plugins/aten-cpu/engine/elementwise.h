/* elementwise.h — the elementwise engine: one path for every pointwise op.
 *
 * An op is a table of inner loops, one per dtype, and a rule for its result dtype. The engine
 * (elementwise.c) does everything else the same way for every op: it broadcasts the inputs'
 * shapes, finds the result dtype with PyTorch's promotion rules (promote.c), casts inputs
 * whose dtype differs from the loop's (float16 and bfloat16 compute in float32), allocates
 * the output or checks and resizes an out= tensor or an in-place self, copies inputs that
 * partly overlap the output, then walks the operands with byte strides (broadcast dims have
 * stride 0, adjacent dims merge when they can) and calls the inner loop on the longest runs.
 *
 * Inner loops are generated per dtype from one expression by the EW_* macros below; their
 * contiguous case is a plain indexed loop the compiler vectorizes.
 */
#ifndef TS_ATEN_CPU_ELEMENTWISE_H
#define TS_ATEN_CPU_ELEMENTWISE_H

#include "engine/cpu.h"
#include "vmath.h"

/* (TS_ATEN_WRAPPED, tscript/aten.h, is flag bit 0x1: a wrapped Python number.) The flag bit of a nested tensor's padded stand-in (nested.h). */
#define TS_CPU_NESTED 0x2u

/* Extra operands of a loop (alpha, clamp bounds) in both kinds; status is set by a loop that
 * meets an error it cannot compute past (integer division by zero). */
typedef struct TsCpuEwArgs {
    double d[3];
    int64_t i[2];
    int status;                /* TS_CPU_EW_* below; 0 when fine */
} TsCpuEwArgs;

enum { TS_CPU_EW_ZERO_DIV = 1 };

/* data[0] is the output, data[1..] the inputs; strides in bytes; n elements. */
typedef void (*TsCpuLoop)(char **data, const int64_t *strides, int64_t n, TsCpuEwArgs *args);

typedef enum TsCpuEwResult {
    TS_EW_SAME,                /* the promoted dtype of the inputs */
    TS_EW_FLOAT,               /* integral and bool results become float32 (true division) */
    TS_EW_BOOL,                /* computed in the promoted dtype, the result is bool */
} TsCpuEwResult;

typedef struct TsCpuEwOp {
    const char *name;          /* "bitwise_and": '"bitwise_and_cpu" not implemented for ...' */
    TsCpuEwResult result;
    bool mask_first;           /* input 0 is a bool condition, not promoted (where) */
    const TsCpuLoop *loops;    /* TS_DTYPE__COUNT entries by computing dtype; NULL: none */
} TsCpuEwOp;

/* How the result is delivered. */
typedef enum TsCpuEwMode {
    TS_EW_NEW,                 /* a new tensor in *out */
    TS_EW_OUT,                 /* into *out (out=): resized to the broadcast shape if needed */
    TS_EW_INPLACE,             /* into *out, which is in[0] (add_): its shape must not change */
} TsCpuEwMode;

/* Runs op over the nin inputs. args may be NULL. */
int ts_cpu_ew(const TsCpuEwOp *op, int nin, TsTensor *const *in, TsTensor **out,
              TsCpuEwMode mode, TsCpuEwArgs *args, TsError *err);

/* Calls loop over out (data[0]) and the inputs broadcast to out's shape; no dtype logic.
 * The caller guarantees the shapes broadcast to out's. */
void ts_cpu_ew_iterate(int nop, TsTensor *const *t, TsCpuLoop loop, TsCpuEwArgs *args);


/* A new tensor a * b with PyTorch's promotion and broadcasting (binary.c). */
int ts_cpu_mul(TsTensor *a, TsTensor *b, TsTensor **out, TsError *err);
/* self += other in place (add_ with alpha 1): other broadcast to self's shape and cast to
 * its dtype, with PyTorch's errors where it cannot be. */
int ts_cpu_add_(TsTensor *self, TsTensor *other, TsError *err);

/* ---- conversion (convert.c) -------------------------------------------------- */

/* A 0-dim tensor holding a Scalar argument (int64, float64, bool), marked wrapped. */
TsTensor *ts_cpu_wrap_scalar(TsValue v, TsError *err);
/* A 0-dim tensor of dtype holding the Scalar converted with PyTorch's overflow checks. */
TsTensor *ts_cpu_scalar_tensor(TsValue v, int dtype, TsError *err);
/* A new contiguous tensor: src's elements converted to dtype (a copy even when equal). */
TsTensor *ts_cpu_cast(const TsTensor *src, int dtype, TsError *err);
/* Copies src (broadcast to dst's shape, any dtypes) into dst; dst must not partly overlap
 * src (callers copy first). */
void ts_cpu_copy_into(TsTensor *dst, const TsTensor *src);
/* The C++ name of a dtype's element type, as PyTorch's messages print it ("long int",
 * "c10::Half"; float, double and bool as themselves). */
const char *ts_cpu_cxx_type(int dtype);
/* Element i of a contiguous run of dtype as a double (printing, item). */
double ts_cpu_load_double(int dtype, const void *p);
/* Stores d as one element of dtype at p (rounded, or wrapped as a cast would). */
void ts_cpu_store_double(int dtype, void *p, double d);
/* A new cpu tensor with sizes (contiguous, uninitialized). */
TsTensor *ts_cpu_empty(int dtype, int dim, const int64_t *sizes, TsError *err);
/* True when writing t would write one memory location through several elements: a dim of
 * more than one element with stride 0 (an expanded view). PyTorch refuses such outputs of
 * pointwise ops and copy_ (it cannot always tell, and then allows them; neither do we). */
bool ts_cpu_internal_overlap(const TsTensor *t);
/* PyTorch's error for an output that shares memory with an input ("some elements of the
 * input tensor and the written-to tensor refer to a single memory location ..."). */
int ts_cpu_input_overlap_error(TsError *err);
/* 0, or PyTorch's "more than one element of the written-to tensor ..." error for such a t. */
int ts_cpu_check_internal_overlap(const TsTensor *t, TsError *err);
/* True when a and b may share memory (the same view included). */
bool ts_cpu_may_overlap(const TsTensor *a, const TsTensor *b);
/* True when a and b may share memory but are not the same view. */
bool ts_cpu_partial_overlap(const TsTensor *a, const TsTensor *b);

/* ---- loop generators ------------------------------------------------------------ */

/* The dtypes loops are generated for, with their C types; extra arguments pass through. */
#define EW_BOOL_TYPES(X, ...) X(TS_BOOL, bool, __VA_ARGS__)
#define EW_INT_TYPES(X, ...) \
    X(TS_UINT8, uint8_t, __VA_ARGS__) X(TS_INT8, int8_t, __VA_ARGS__) \
    X(TS_INT16, int16_t, __VA_ARGS__) X(TS_INT32, int32_t, __VA_ARGS__) \
    X(TS_INT64, int64_t, __VA_ARGS__)
#define EW_FLOAT_TYPES(X, ...) X(TS_FLOAT32, float, __VA_ARGS__) X(TS_FLOAT64, double, __VA_ARGS__)

/* A loop table entry: [TS_FLOAT32] = add_TS_FLOAT32, */
#define EW_ENTRY(DT, T, OP) [DT] = OP##_##DT,


/* A binary loop OP_DT: o = EXPR of x and y (of type T, also named scalar_t for EXPR),
 * written as OUT_T; args is in scope as `args`. Contiguous runs, a broadcast y, and a broadcast x get their own plain loops. */
#define EW_BINARY(DT, T, OP, OUT_T, EXPR) \
    TS_VM_VECTORIZE static void OP##_##DT(char **p, const int64_t *s, int64_t n, \
                                       TsCpuEwArgs *args) \
    { \
        typedef T scalar_t; \
        (void)sizeof(scalar_t); \
        (void)args; \
        const int64_t so = (int64_t)sizeof(OUT_T), st = (int64_t)sizeof(T); \
        if (s[0] == so && s[1] == st && s[2] == st) { \
            OUT_T *o = (OUT_T *)p[0]; \
            const T *xs = (const T *)p[1], *ys = (const T *)p[2]; \
            for (int64_t k = 0; k < n; k++) { \
                T x = xs[k], y = ys[k]; \
                o[k] = (OUT_T)(EXPR); \
            } \
        } else if (s[0] == so && s[1] == st && s[2] == 0) { \
            OUT_T *o = (OUT_T *)p[0]; \
            const T *xs = (const T *)p[1]; \
            const T y = *(const T *)p[2]; \
            for (int64_t k = 0; k < n; k++) { \
                T x = xs[k]; \
                o[k] = (OUT_T)(EXPR); \
            } \
        } else if (s[0] == so && s[1] == 0 && s[2] == st) { \
            OUT_T *o = (OUT_T *)p[0]; \
            const T x = *(const T *)p[1]; \
            const T *ys = (const T *)p[2]; \
            for (int64_t k = 0; k < n; k++) { \
                T y = ys[k]; \
                o[k] = (OUT_T)(EXPR); \
            } \
        } else { \
            char *po = p[0], *px = p[1], *py = p[2]; \
            for (int64_t k = 0; k < n; k++, po += s[0], px += s[1], py += s[2]) { \
                T x = *(const T *)px, y = *(const T *)py; \
                *(OUT_T *)po = (OUT_T)(EXPR); \
            } \
        } \
    }

/* A unary loop OP_DT: o = EXPR of x. */
#define EW_UNARY(DT, T, OP, OUT_T, EXPR) \
    TS_VM_VECTORIZE static void OP##_##DT(char **p, const int64_t *s, int64_t n, \
                                       TsCpuEwArgs *args) \
    { \
        typedef T scalar_t; \
        (void)sizeof(scalar_t); \
        (void)args; \
        if (s[0] == (int64_t)sizeof(OUT_T) && s[1] == (int64_t)sizeof(T)) { \
            OUT_T *o = (OUT_T *)p[0]; \
            const T *xs = (const T *)p[1]; \
            for (int64_t k = 0; k < n; k++) { \
                T x = xs[k]; \
                o[k] = (OUT_T)(EXPR); \
            } \
        } else { \
            char *po = p[0], *px = p[1]; \
            for (int64_t k = 0; k < n; k++, po += s[0], px += s[1]) { \
                T x = *(const T *)px; \
                *(OUT_T *)po = (OUT_T)(EXPR); \
            } \
        } \
    }

#endif
