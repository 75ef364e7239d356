/* cuda.h — what the aten-cuda plugin's files share: registration tables, the device and
 * its errors, the allocator, the stream work runs on, and the elementwise iteration the
 * GPU kernels walk.
 *
 * Host code is C (the *.c files); GPU code is CUDA C++ (the *.cu files, built by nvcc),
 * which this header also serves: everything here is plain C.
 *
 * Streams: every kernel launch and copy of the plugin runs on the calling thread's own
 * stream, CUDA's per-thread default stream (TS_CUDA_STREAM), so work of one interpreter
 * thread is ordered without synchronizing, threads do not wait on each other, and a fuser
 * plugin that launches on CU_STREAM_PER_THREAD is ordered with it. Memory a thread frees
 * may be reused by another thread only after the work queued on the freeing thread's stream
 * is done: the allocator records an event at free and makes the reusing stream wait on it.
 */
#ifndef TS_ATEN_CUDA_H
#define TS_ATEN_CUDA_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "tscript/aten.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TsCudaOp {
    const char *qualname;      /* "aten::add" */
    const char *overload;      /* "Tensor", or "" for the default */
    TsKernelFn fn;
} TsCudaOp;

typedef struct TsCudaTable {
    const TsCudaOp *ops;
    size_t n;
} TsCudaTable;

extern const TsCudaTable ts_cuda_device_table;   /* device.c: cuda::device_count, synchronize */
extern const TsCudaTable ts_cuda_stream_table;   /* device.c: tscript::handoff */
extern const TsCudaTable ts_cuda_factory_table;  /* factory.c: empty, zeros, full, linspace, *_like */
extern const TsCudaTable ts_cuda_random_table;   /* random.c: rand, randn, randint, randperm */
extern const TsCudaTable ts_cuda_copy_table;     /* copy.c: to, cuda, cpu, contiguous, clone, copy_ */
extern const TsCudaTable ts_cuda_format_table;   /* format.c: tscript::format_tensor */
extern const TsCudaTable ts_cuda_pointwise_table; /* pointwise.c: arithmetic, math, comparisons */
extern const TsCudaTable ts_cuda_blas_table;     /* blas.c: mm, bmm, addmm, matmul, linear, dot */
extern const TsCudaTable ts_cuda_conv_table;     /* conv.c: conv1d, conv2d, convolution */
extern const TsCudaTable ts_cuda_pool_table;     /* pool.c: max_pool2d, avg_pool2d, adaptive */
extern const TsCudaTable ts_cuda_embedding_table; /* embedding.c: aten::embedding */
extern const TsCudaTable ts_cuda_rnn_cell_table; /* rnn_cell.c: lstm_cell, gru_cell */
extern const TsCudaTable ts_cuda_view_table;     /* view.c: the ops that only change metadata */
extern const TsCudaTable ts_cuda_reduce_table;   /* reduce/reduce.c: sum, mean, max, var, norm, ... */
extern const TsCudaTable ts_cuda_softmax_table;  /* nn/softmax.c: softmax, log_softmax */
extern const TsCudaTable ts_cuda_norm_table;     /* nn/norm.c: batch_norm, layer_norm, group_norm */
extern const TsCudaTable ts_cuda_join_table;     /* shape/join.c: cat, stack */
extern const TsCudaTable ts_cuda_index_table;    /* shape/index.c: index_select, gather */

/* ---- the device (device.c) ---------------------------------------------------------- */

/* The stream the calling thread's work runs on. */
#define TS_CUDA_STREAM cudaStreamPerThread

/* 0 when a CUDA device can be used, else TS_ERR_RUNTIME with "no CUDA device" and why (the
 * runtime's reason: no driver, no device). The first call asks the runtime; later ones
 * read the answer. Every kernel calls it (through the helpers below) before any CUDA call. */
int ts_cuda_ready(TsError *err);
/* The number of devices (0 without a driver). */
int ts_cuda_device_count(void);
/* Makes d the calling thread's current device (index -1: leaves the current one), after
 * ts_cuda_ready; "CUDA error: invalid device ordinal" for an index past the devices. */
int ts_cuda_use_device(TsDevice d, TsError *err);
/* The calling thread's current device as a TsDevice ("cuda:N"). */
TsDevice ts_cuda_current_device(void);
/* 0 for cudaSuccess; else sets err to "CUDA error: <the runtime's text> (what)" and returns
 * TS_ERR_RUNTIME (TS_ERR_NOMEM for cudaErrorMemoryAllocation). */
int ts_cuda_check(cudaError_t rc, const char *what, TsError *err);
/* Waits for the calling thread's stream, reporting an error a kernel met. */
int ts_cuda_sync(TsError *err);

/* ---- memory (alloc.c) ------------------------------------------------------------- */

/* The "cuda" allocator: blocks from cudaMalloc, kept in per-device, size-bucketed free
 * lists when freed (cudaFree synchronizes the whole device); copy moves bytes between the
 * host and a device. */
extern TsAllocator ts_cuda_allocator;
/* Returns every cached block to the driver (torch.cuda.empty_cache()). */
void ts_cuda_empty_cache(void);
/* Private pools of CUDA graphs' captures (graph.c). While a thread's capturing pool is
 * set, its allocations come from the pool and every block it frees goes to the pool; a
 * block of the pool stays the pool's, whoever frees it, until ts_cuda_pool_free. */
typedef struct TsCudaPool TsCudaPool;
/* A new empty pool (NULL when out of memory); counts the calling thread as a user of the
 * allocator, which a capture must not be the first to do (see ts_cuda_alloc_shared). */
TsCudaPool *ts_cuda_pool_new(void);
/* Sets (NULL: clears) the calling thread's capturing pool; the getter reads it. */
void ts_cuda_pool_capture(TsCudaPool *p);
TsCudaPool *ts_cuda_pool_capturing(void);
/* Whether ptr is a block of p that a tensor holds. */
bool ts_cuda_pool_owns(TsCudaPool *p, const void *ptr);
/* Gives p's free blocks to the cache as if thread user freed them (user's stream may still
 * have work on them queued: another thread waits before reusing one), makes its blocks
 * tensors still hold ordinary ones, and frees p. Only once nothing will queue work on them
 * for p's graph any more. */
void ts_cuda_pool_free(TsCudaPool *p, pthread_t user);
/* Counts the calling thread as a user of the allocator (the second one waits for every
 * device, see alloc.c) and says whether events now order the threads' streams. */
bool ts_cuda_alloc_shared(void);
/* TsAllocator.capture of ts_cuda_allocator: CUDA graphs (graph.c). */
extern const TsCaptureOps ts_cuda_capture_ops;
/* A new contiguous tensor on the current device (uninitialized). */
TsTensor *ts_cuda_empty(int dtype, int dim, const int64_t *sizes, TsError *err);
/* The same on device d (for factories with device=). */
TsTensor *ts_cuda_empty_on(TsDevice d, int dtype, int dim, const int64_t *sizes, TsError *err);

/* ---- elementwise iteration (engine.c builds it; kernels.cu walks it) ----------------- */

#define TS_CUDA_MAX_DIMS 8     /* after merging dims; more fails "too many dimensions" */
#define TS_CUDA_MAX_OPERANDS 4 /* the output and up to three inputs */

/* Operands walked in step over the output's shape: operand 0 is the output. Dims that are
 * contiguous in every operand are merged; strides are in elements of each operand's own
 * dtype, 0 along a broadcast dim; sizes[dim - 1] is the innermost dim. When every operand
 * is contiguous and none broadcasts, dim is 1 and flat is set (the kernels index directly). */
typedef struct TsCudaIter {
    int nop;
    int dim;
    bool flat;
    int64_t numel;
    int64_t sizes[TS_CUDA_MAX_DIMS];
    int64_t strides[TS_CUDA_MAX_OPERANDS][TS_CUDA_MAX_DIMS];
    void *data[TS_CUDA_MAX_OPERANDS];
    int8_t dtype[TS_CUDA_MAX_OPERANDS];
} TsCudaIter;

/* Builds the iteration of t[0] (the output) and the nop - 1 inputs broadcast to its shape
 * (the caller checked they broadcast). */
int ts_cuda_iter_init(TsCudaIter *it, int nop, TsTensor *const *t, TsError *err);

/* ---- conversions (copy.c, copy_kernels.cu) -------------------------------------------- */

/* Copies src, broadcast to dst's shape, into dst converting the dtype (both on the device;
 * they must not partly overlap). */
int ts_cuda_copy_into(TsTensor *dst, const TsTensor *src, TsError *err);
/* A new contiguous tensor: src's elements converted to dtype (a copy even when equal). */
TsTensor *ts_cuda_cast(const TsTensor *src, int dtype, TsError *err);
/* src itself (a new reference) when already contiguous in dtype, else ts_cuda_cast. */
TsTensor *ts_cuda_contiguous_as(TsTensor *src, int dtype, TsError *err);
/* The launcher under both: dst = src over it (2 operands), any pair of the supported dtypes
 * (bool, the integers, float16, bfloat16, float32, float64). */
int ts_cuda_launch_copy(const TsCudaIter *it, TsError *err);
/* Fills t (any strides) with the value of a Scalar converted to its dtype. */
int ts_cuda_fill(TsTensor *t, TsValue scalar, TsError *err);
int ts_cuda_launch_fill(const TsCudaIter *it, const void *elem, TsError *err);

/* ---- GPU-side kernels' host entry points (kernels.cu) ----------------------------------- */

/* The pointwise operations of the generic kernel family, by number. Binary ones take two
 * inputs, or one when the second is a number (an iteration of two operands: the number is
 * args.b, or args.ib for an integral computing dtype); unary ones one; ternary ones three. */
typedef enum TsCudaEwOp {
    /* binary: out = f(x, y); add/sub use alpha (args.a) */
    TS_CUDA_ADD, TS_CUDA_SUB, TS_CUDA_MUL, TS_CUDA_DIV, TS_CUDA_DIV_FLOOR, TS_CUDA_DIV_TRUNC,
    TS_CUDA_REMAINDER, TS_CUDA_FMOD, TS_CUDA_POW, TS_CUDA_MAXIMUM, TS_CUDA_MINIMUM,
    TS_CUDA_ATAN2, TS_CUDA_BITAND, TS_CUDA_BITOR, TS_CUDA_BITXOR, TS_CUDA_LSHIFT,
    TS_CUDA_RSHIFT,
    /* comparisons and logic: a bool output */
    TS_CUDA_EQ, TS_CUDA_NE, TS_CUDA_LT, TS_CUDA_LE, TS_CUDA_GT, TS_CUDA_GE,
    TS_CUDA_LOGICAL_AND, TS_CUDA_LOGICAL_OR, TS_CUDA_LOGICAL_XOR,
    /* unary: out = f(x) */
    TS_CUDA_NEG, TS_CUDA_ABS, TS_CUDA_EXP, TS_CUDA_EXP2, TS_CUDA_EXPM1, TS_CUDA_LOG,
    TS_CUDA_LOG2, TS_CUDA_LOG10, TS_CUDA_LOG1P, TS_CUDA_SQRT, TS_CUDA_RSQRT, TS_CUDA_SIN,
    TS_CUDA_COS, TS_CUDA_TAN, TS_CUDA_ASIN, TS_CUDA_ACOS, TS_CUDA_ATAN, TS_CUDA_SINH,
    TS_CUDA_COSH, TS_CUDA_TANH, TS_CUDA_SIGMOID, TS_CUDA_RELU, TS_CUDA_SILU, TS_CUDA_GELU,
    TS_CUDA_GELU_TANH, TS_CUDA_ERF, TS_CUDA_ERFC, TS_CUDA_FLOOR, TS_CUDA_CEIL,
    TS_CUDA_ROUND, TS_CUDA_TRUNC, TS_CUDA_FRAC, TS_CUDA_RECIPROCAL, TS_CUDA_SIGN,
    TS_CUDA_SQUARE, TS_CUDA_LOGICAL_NOT, TS_CUDA_BITNOT, TS_CUDA_ISNAN,
    TS_CUDA_HARDTANH,          /* clamp to [args.a, args.b] for floats */
    TS_CUDA_LEAKY_RELU,        /* slope args.a */
    TS_CUDA_ELU,               /* alpha args.a, scale args.b, input scale args.c */
    TS_CUDA_SOFTPLUS,          /* beta args.a, threshold args.b */
    TS_CUDA_CLAMP,             /* [args.a, args.b], each only where has_min/has_max */
    TS_CUDA_POW_SCALAR,        /* x ** args.a */
    /* ternary */
    TS_CUDA_WHERE,             /* cond (bool, operand 1) ? x : y */
    TS_CUDA_LERP,              /* x + w * (y - x) */
    TS_CUDA_ADDCMUL,           /* x + args.a * y * z */
    TS_CUDA_ADDCDIV,           /* x + args.a * y / z */
    TS_CUDA_EW__COUNT
} TsCudaEwOp;

/* Extra operands of an operation, in both kinds (the computing dtype picks). */
typedef struct TsCudaEwArgs {
    double a, b, c;
    int64_t ia, ib;
    bool has_min, has_max;
} TsCudaEwArgs;

/* Runs op over it: operand 0 the output (of out dtype: the computing dtype, or bool for the
 * comparisons, logic and isnan), the inputs of the computing dtype (where's condition:
 * bool). Integer division by zero cannot be reported from the GPU: the caller checks
 * divisors first where PyTorch raises. "OP not implemented for 'DTYPE'" for a dtype the
 * op has no loop for. */
int ts_cuda_launch_ew(TsCudaEwOp op, int compute_dtype, const TsCudaIter *it,
                      const TsCudaEwArgs *args, TsError *err);

#ifdef __cplusplus
}
#endif
#endif
