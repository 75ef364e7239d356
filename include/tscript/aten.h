/* tscript/aten.h — the device-independent half of an aten backend (libtscript_aten).
 *
 * What every backend of PyTorch's tensor operators needs and none should write twice:
 * kernel arguments bound by the operator's schema (TsCall.op names them, so a kernel never
 * restates its operator's name, its arguments' names or their order), PyTorch's type
 * promotion, broadcasting, dim wrapping, the out= rule, and the one way a kernel ends.
 * aten-cpu and aten-cuda link it; a vendor's backend can link the installed static library
 * (libtscript_aten.a) the same way. It uses only the public headers.
 *
 * A kernel in this style:
 *
 *     // aten::lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor
 *     static int k_lerp(TsCall *c) {
 *         TsArgs a;
 *         TsTensor *self, *end, *r = NULL;
 *         int rc = ts_args_pop(c, TS_DEV_CPU, &a);
 *         if (!rc) rc = ts_args_tensor(&a, 0, &self);
 *         if (!rc) rc = ts_args_tensor(&a, 1, &end);
 *         if (!rc) rc = lerp(self, end, a.v[2], &r, c->error);
 *         return ts_args_return_tensor(&a, rc, r);
 *     }
 *
 * Errors name the operator and the argument as the schema does ("aten::lerp: argument
 * 'end' must be a Tensor"). The interpreter only calls a kernel with values of its schema's
 * types, so the checks are the safety net for embedders that call kernels themselves.
 */
#ifndef TSCRIPT_ATEN_H
#define TSCRIPT_ATEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tscript/plugin.h"
#include "tscript/random.h"
#include "tscript/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- dtypes ------------------------------------------------------------------------- */

/* The real dtypes a kernel's per-dtype loops expand over, with their C types:
 * X(TS_INT32, int32_t). Half types and complex ones are not in these lists. */
#define TS_ATEN_INT_DTYPES(X) \
    X(TS_UINT8, uint8_t) X(TS_INT8, int8_t) X(TS_INT16, int16_t) X(TS_INT32, int32_t) \
    X(TS_INT64, int64_t)
#define TS_ATEN_FLOAT_DTYPES(X) X(TS_FLOAT32, float) X(TS_FLOAT64, double)

/* The flag bit of TsTensor.flags marking a wrapped Python number (a Scalar argument made a
 * 0-dim tensor): it ranks below 0-dim tensors in type promotion. */
#define TS_ATEN_WRAPPED 0x1u

/* torch.promote_types for the real dtypes and bool; -1 for dtypes it does not know. */
int ts_aten_promote_types(int a, int b);
/* torch.result_type over n tensors: dimensioned tensors, then 0-dim ones, then wrapped
 * numbers (TS_ATEN_WRAPPED), a lower tier counting only with a higher category. */
int ts_aten_result_type(int n, TsTensor *const *in);
/* torch.can_cast: no cast to a lower category (float to int, int to bool). */
bool ts_aten_can_cast(int from, int to);

/* float16 and bfloat16 (stored as their bits) to and from float32, round-to-nearest-even. */
float ts_aten_half_to_float(uint16_t h);
uint16_t ts_aten_float_to_half(float f);
float ts_aten_bf16_to_float(uint16_t b);
uint16_t ts_aten_float_to_bf16(float f);

/* ---- scalars ------------------------------------------------------------------------- */

/* Converts a Scalar value (int, float, bool or complex) to one element of dtype at out
 * (ts_dtype_size(dtype) bytes), with PyTorch's checks: "value cannot be converted to type
 * int8_t without overflow". */
int ts_aten_scalar_to_elem(TsValue scalar, int dtype, void *out, TsError *err);
/* The dtype a Scalar makes a tensor of (torch.full): int64, float32, bool or complex64. */
int ts_aten_scalar_dtype(TsValue scalar);

/* ---- shapes ------------------------------------------------------------------------- */

/* Broadcasts the shapes of n tensors into sizes (TS_TENSOR_MAX_DIMS entries) and *dim, or
 * PyTorch's "The size of tensor a (3) must match the size of tensor b (4) at non-singleton
 * dimension 1". */
int ts_aten_broadcast_shape(int n, TsTensor *const *in, int *dim, int64_t *sizes,
                            TsError *err);
/* The same for two shapes given by their sizes (a's and b's may be sizes itself). */
int ts_aten_broadcast_sizes(int da, const int64_t *a, int db, const int64_t *b, int *dim,
                            int64_t *sizes, TsError *err);
/* Wraps dim d of a tensor with ndim dims into [0, ndim): negative counts from the end. A
 * 0-dim tensor takes dims -1 and 0 when wrap_scalar is set (reductions, softmax); without,
 * it has none ("Dimension specified as 0 but tensor has no dimensions"). Else PyTorch's
 * "Dimension out of range (expected to be in range of [-2, 1], but got 2)". */
int ts_aten_wrap_dim(int64_t d, int64_t ndim, bool wrap_scalar, int *out, TsError *err);
/* Whether t has exactly these sizes. */
bool ts_aten_same_shape(const TsTensor *t, int dim, const int64_t *sizes);
/* "[2, 3]" into buf (always NUL-terminated, "..." when it does not fit). */
void ts_aten_format_sizes(char *buf, size_t size, int dim, const int64_t *sizes);

/* A new tensor header over t's storage (retained) with these sizes, strides (in elements)
 * and offset, on t's device: a view, which shares t's elements. */
TsTensor *ts_aten_view(const TsTensor *t, int dim, const int64_t *sizes, const int64_t *strides,
                       int64_t offset, TsError *err);
/* The view of t whose dim d holds len elements from index start, every step-th (the caller
 * checked start + (len - 1) * step < size), its other dims as t's. Where the view holds at
 * most one element along d, the offset and stride are checked: a size-1 dim's stride may be
 * anything (x[::2**63-1]), and an empty view may start past the end. */
TsTensor *ts_aten_narrow(const TsTensor *t, int d, int64_t start, int64_t len, int64_t step,
                         TsError *err);

/* PyTorch's MemoryFormat numbering (torch.contiguous_format, preserve_format,
 * channels_last, channels_last_3d), as memory_format= arguments hold it. */
enum { TS_ATEN_MF_CONTIGUOUS = 0, TS_ATEN_MF_PRESERVE = 1, TS_ATEN_MF_CHANNELS_LAST = 2,
       TS_ATEN_MF_CHANNELS_LAST_3D = 3 };
/* The strides (in elements) of a new dense tensor of these sizes in memory format mf:
 * contiguous, channels_last (rank 4) or channels_last_3d (rank 5); PyTorch's "required rank
 * 4 tensor to use channels_last format" for another rank, "unsupported memory format N" for
 * preserve and unknown ones (memory_format.c). */
int ts_aten_format_strides(int64_t mf, int dim, const int64_t *sizes, int64_t *strides,
                           TsError *err);
/* PyTorch's t.is_contiguous(memory_format=mf): size-1 dims' strides do not count. */
bool ts_aten_is_contiguous_as(const TsTensor *t, int64_t mf);

/* The out= rule: gives out the shape (contiguous) when it has another, with new storage
 * from allocator when its own is too small; nothing changes when it has the shape already.
 * allocator may be NULL when out has storage (its storage's allocator is used). */
int ts_aten_resize_out(TsTensor *out, int dim, const int64_t *sizes, TsAllocator *allocator,
                       TsError *err);

/* ---- matrix products (matmul.c) ------------------------------------------------------- */

/* A strided matrix: element (i, j) at i * rs + j * cs elements from its first. */
typedef struct TsAtenMat {
    int64_t rows, cols, rs, cs;
} TsAtenMat;

/* How a row-major BLAS call reads m in place: as stored (trans false: unit column stride)
 * or transposed (unit row stride), with leading dimension ld; false when neither fits and m
 * must be copied first. A column-major BLAS (cuBLAS) reads the same m as its transpose with
 * the same ld. */
bool ts_aten_blas_layout(const TsAtenMat *m, bool *trans, int64_t *ld);

/* An operand of matmul: a shape and strides (linear passes its weight's transposed). */
typedef struct TsAtenOperand {
    int dim;
    const int64_t *sizes, *strides;
} TsAtenOperand;

/* matmul's plan: a 1-d first operand is a row and a 1-d second one a column, which the
 * result drops; the dims before the last two are a batch, broadcast (nb dims of sizes bsz,
 * each operand's strides along them sa and sb: 0 where it broadcasts); a and b are the
 * matrices of batch entry 0 (offsets from each operand's first element). */
typedef struct TsAtenMatmul {
    int nb;
    int64_t bsz[TS_TENSOR_MAX_DIMS], sa[TS_TENSOR_MAX_DIMS], sb[TS_TENSOR_MAX_DIMS];
    int64_t batch;                     /* the product of bsz */
    TsAtenMat a, b;
    int dim;                           /* the result's shape */
    int64_t sizes[TS_TENSOR_MAX_DIMS];
} TsAtenMatmul;

/* Plans x @ y, or fails with PyTorch's message for the rank case ("both arguments to
 * matmul need to be at least 1D", "mat1 and mat2 shapes cannot be multiplied (2x3 and
 * 4x5)", "size mismatch, got ...", "inconsistent tensor size ...", a batch broadcast). */
int ts_aten_matmul_plan(const TsAtenOperand *x, const TsAtenOperand *y, TsAtenMatmul *p,
                        TsError *err);
/* "mat1 and mat2 shapes cannot be multiplied (r1xc1 and r2xc2)". */
int ts_aten_mm_shape_error(TsError *err, int64_t r1, int64_t c1, int64_t r2, int64_t c2);
/* That src broadcasts to sizes, with expand's messages (a bias or addmm's self). */
int ts_aten_check_expand(const TsTensor *src, int dim, const int64_t *sizes, TsError *err);

/* The operands' ranks and sizes as each product checks them, with PyTorch's messages: mm
 * ("self must be a matrix", then the shapes), addmm ("mat1 must be a matrix, got 3-D
 * tensor", the shapes), bmm and baddbmm ("batch1 must be a 3D tensor", the batch and inner
 * sizes), dot (1-d, the same dtype) and mv (a matrix and a vector; the sizes are
 * matmul's). */
typedef enum TsAtenProduct {
    TS_ATEN_MM, TS_ATEN_ADDMM, TS_ATEN_BMM, TS_ATEN_DOT, TS_ATEN_MV
} TsAtenProduct;
int ts_aten_check_product(TsAtenProduct kind, const TsTensor *x, const TsTensor *y,
                          TsError *err);

/* ---- convolutions (conv_check.c) ------------------------------------------------------ */

/* PyTorch's checks of a convolution's weight (w) against its batched input (x) and bias
 * (b, NULL for none): the same rank, weight rows a multiple of groups, the input's channels
 * (weight dim 1 times groups; transposed: weight dim 0) and the bias's length (weight dim 0;
 * transposed: weight dim 1 times groups), with PyTorch's messages ("Given groups=1, weight
 * of size [8, 3, 3, 3], expected input[1, 4, 5, 5] to have 3 channels, but got 4 channels
 * instead"). groups > 0. */
int ts_aten_check_conv_weight(const TsTensor *x, const TsTensor *w, const TsTensor *b,
                              int64_t groups, bool transposed, TsError *err);

/* ---- normalizations (norm_check.c) ---------------------------------------------------- */

/* PyTorch's checks of batch_norm's input x (at least 2 dims, floating: "\"batch_norm\" not
 * implemented for 'Long'") and of vecs, its weight, bias, running_mean and running_var
 * (NULL for None): each 1-d with x's channels (dim 1) of elements, the running stats defined
 * unless training and floating when training. */
int ts_aten_check_batch_norm(const TsTensor *x, TsTensor *const *vecs, bool training,
                             TsError *err);
/* PyTorch's checks of layer_norm over the last nd dims, of sizes ns, of x: nd > 0, weight w
 * and bias b (NULL for None) of shape ns, x's trailing sizes ns, x floating. */
int ts_aten_check_layer_norm(const TsTensor *x, int nd, const int64_t *ns, const TsTensor *w,
                             const TsTensor *b, TsError *err);
/* PyTorch's checks of group_norm: x of at least 2 dims, groups > 0 dividing its channels,
 * weight w and bias b (NULL for None) 1-d with its channels, x floating. */
int ts_aten_check_group_norm(const TsTensor *x, int64_t groups, const TsTensor *w,
                             const TsTensor *b, TsError *err);

/* ---- cat and stack (join_check.c) ----------------------------------------------------- */

/* cat of the n tensors ts along dim64 (not yet wrapped): the result's dtype (the inputs'
 * promoted), *ref the first input that is not a 1-d empty one (PyTorch's legacy rule skips
 * those; NULL when all are, and the result is then a 1-d empty tensor of *dtype), and, when
 * *ref is set, the wrapped dim *d and the result's sizes (ref's dim count). PyTorch's errors:
 * "torch.cat(): expected a non-empty list of Tensors", "zero-dimensional tensor (at position
 * 0) cannot be concatenated", "Sizes of tensors must match except in dimension 1. ...". */
int ts_aten_cat_shape(size_t n, TsTensor *const *ts, int64_t dim64, int *dtype,
                      const TsTensor **ref, int *d, int64_t *sizes, TsError *err);
/* stack of the n tensors ts along dim64: the wrapped dim *d (of the result, one dim more),
 * after PyTorch's checks ("stack expects a non-empty TensorList", "stack expects each tensor
 * to be equal size, but got [2] at entry 0 and [3] at entry 1"). */
int ts_aten_stack_check(size_t n, TsTensor *const *ts, int64_t dim64, int *d, TsError *err);

/* ---- gather and index_select (index_check.c) ------------------------------------------ */

/* PyTorch's checks of gather(t, d, ix), d wrapped: an int64 index ("gather(): Expected dtype
 * int64 for index") of t's dim count unless empty, no larger than t but along d. */
int ts_aten_check_gather(const TsTensor *t, int d, const TsTensor *ix, TsError *err);
/* PyTorch's checks of index_select(t, d, ix), d wrapped (an int32 or int64 index of at most
 * one dim, one value for a 0-dim t), and the result's sizes (t's dim count): t's with dim d
 * the index's length. */
int ts_aten_index_select_shape(const TsTensor *t, int d, const TsTensor *ix, int64_t *sizes,
                               TsError *err);

/* ---- pooling windows (pool_check.c) --------------------------------------------------- */

/* A pool's output size along one dim of in elements: kernel k, padding p, stride s,
 * dilation d, rounding up when ceil_mode (a last window must start inside the input or its
 * left padding), as PyTorch's pooling_output_shape. s > 0. */
int64_t ts_aten_pool_out_size(int64_t in, int64_t k, int64_t p, int64_t s, int64_t d,
                              bool ceil_mode);
/* PyTorch's checks of a pool's n spatial dims (kernel k, stride s, padding p): "stride should
 * not be zero", "pad must be non-negative, but got pad: -1", "pad should be at most half of
 * kernel size, but got pad=2 and kernel_size=3". */
int ts_aten_check_pool_pads(int n, const int64_t *k, const int64_t *s, const int64_t *p,
                            TsError *err);
/* PyTorch's checks of a 2-d pool's kernel k, stride s and dilation d (H and W each): all
 * greater than zero ("kernel size should be greater than zero, but got kH: 0 kW: 2"). */
int ts_aten_check_pool2d_window(const int64_t *k, const int64_t *s, const int64_t *d,
                                TsError *err);
/* PyTorch's check of a 2-d pool's input of dim dims and these sizes: 3-d, or 4-d with only
 * its batch allowed to be empty ("Expected 3D or 4D (batch mode) tensor with optional 0 dim
 * batch size for input, but got:[1, 0, 4]"). */
int ts_aten_check_pool2d_input(int dim, const int64_t *sizes, TsError *err);

/* ---- factories (linspace.c) ----------------------------------------------------------- */

/* linspace's steps values from start to end into out, as PyTorch's CPU kernel computes them
 * for float32 (as_float) or float64: the first half steps up from start, the second down
 * from end. */
void ts_aten_linspace(double start, double end, int64_t steps, bool as_float, void *out);

/* The same values as dtype's own (steps of them, stored as a tensor of dtype stores them),
 * computed as PyTorch's CPU kernel computes that dtype: float32 and float64 as above,
 * float16 and bfloat16 rounded to their type after every operation, the integer types from
 * integer bounds with a double step, each value truncated. Returns 0, 1 (nothing written)
 * for a dtype linspace has no kernel for (bool, complex), or -1 out of memory. */
int ts_aten_linspace_typed(double start, double end, int64_t steps, int dtype, void *out);

/* arange's n values start, start + step, ... of a floating dtype (float32, float64, float16,
 * bfloat16), stored as dtype, as PyTorch's CPU kernel computes them; 1 (nothing written) for
 * any other dtype. */
int ts_aten_arange_typed(double start, double step, int64_t n, int dtype, void *out);

/* ---- random ops (random.c) ------------------------------------------------------------ */

/* What a random op fills a tensor with, element by element, from the process's generator
 * (tscript/random.h). A backend may compute element i from the op's reserved counter-based
 * draws with ts_aten_draw_value (aten-cuda does, in parallel), or draw in order from
 * PyTorch's cpu generator as aten-cpu does: as in PyTorch, a seed reproduces each device's
 * numbers, and the devices' numbers differ. */
typedef enum TsAtenDrawKind {
    TS_ATEN_DRAW_UNIFORM,      /* uniform in [a, b): uniform_, rand */
    TS_ATEN_DRAW_NORMAL,       /* normal with mean a, standard deviation b: normal_, randn */
    TS_ATEN_DRAW_INT,          /* integers in [lo, hi): randint, random_ */
    TS_ATEN_DRAW_BERNOULLI,    /* 1 with probability a, else 0: bernoulli_ */
    TS_ATEN_DRAW_EXPONENTIAL,  /* exponential with rate a: exponential_ */
    TS_ATEN_DRAW_CAUCHY,       /* Cauchy with median a, scale b: cauchy_ */
    TS_ATEN_DRAW_LOG_NORMAL,   /* exp of a normal with mean a, standard deviation b: log_normal_ */
    TS_ATEN_DRAW_GEOMETRIC     /* trials up to the first success of probability a: geometric_ */
} TsAtenDrawKind;
typedef struct TsAtenDraw {
    TsAtenDrawKind kind;
    double a, b;
    int64_t lo, hi;
    int p_dtype;               /* bernoulli from a tensor of probabilities: its dtype (PyTorch's
                                * cpu kernel draws a double for float64 ones, else a float) */
    bool to_max;               /* an int draw up to int64's maximum, included (hi holds it:
                                * the bound past it does not fit) */
    bool strided;              /* the tensor filled is not contiguous: PyTorch's cpu kernel
                                * draws its elements one by one in memory order (a normal
                                * from a double pair each, not normal_fill's batches) */
} TsAtenDraw;

/* The draws one element takes: two for a normal or log-normal (Box-Muller), else one. */
#define TS_ATEN_DRAWS_PER_ELEM(kind) \
    ((kind) == TS_ATEN_DRAW_NORMAL || (kind) == TS_ATEN_DRAW_LOG_NORMAL ? 2 : 1)

/* The draw of kind with its defaults (uniform in [0, 1), standard normal, p = 0.5), the
 * integer bounds from n_bounds int arguments at bounds (1: high, low 0; 2: low, high). */
TsAtenDraw ts_aten_draw(TsAtenDrawKind kind, const TsValue *bounds, size_t n_bounds);
/* Fills t (any strides, on a device whose backend set the random hooks of TsAtenBackend)
 * with d's values after PyTorch's checks of d against t's dtype ("normal expects std >= 0.0,
 * but found std -1", "\"normal_kernel_cpu\" not implemented for 'Long'", ...): what the
 * rand, randn and randint factories and their _like forms do with the tensor they make. */
int ts_aten_random_fill(TsTensor *t, const TsAtenDraw *d, TsError *err);
/* PyTorch's checks of randperm(n, dtype=dtype). */
int ts_aten_check_randperm(int64_t n, int dtype, TsError *err);
/* A random permutation of 0..n-1 into perm (n elements): PyTorch's cpu Fisher-Yates
 * shuffle, drawing from its generator (ts_random_mt32). Every backend shuffles on the host. */
void ts_aten_randperm(int64_t n, int64_t *perm);

/* Element i of a fill with d from the block of draws reserved at base (element i takes draws
 * i * TS_ATEN_DRAWS_PER_ELEM + 1 and on), as a double the backend stores in the tensor's
 * dtype. p, when not NULL, holds a bernoulli draw's probabilities, one per element (else
 * each element's is d->a). */
TS_RANDOM_INLINE double ts_aten_draw_value(const TsAtenDraw *d, uint64_t base, int64_t i,
                                           const double *p)
{
    uint64_t k = (uint64_t)i * TS_ATEN_DRAWS_PER_ELEM(d->kind) + 1;
    switch (d->kind) {
    case TS_ATEN_DRAW_NORMAL:
        return ts_random_normal(ts_random_draw(base, k), ts_random_draw(base, k + 1), d->a, d->b);
    case TS_ATEN_DRAW_INT:
        return (double)ts_random_int(ts_random_draw(base, k), d->lo, d->hi);
    case TS_ATEN_DRAW_BERNOULLI:
        return ts_random_bernoulli(ts_random_draw(base, k), p ? p[i] : d->a);
    case TS_ATEN_DRAW_LOG_NORMAL:
        return exp(ts_random_normal(ts_random_draw(base, k), ts_random_draw(base, k + 1), d->a,
                                    d->b));
    case TS_ATEN_DRAW_EXPONENTIAL:     /* 1 - unit lies in (0, 1]: the log is finite */
        return -log(1 - ts_random_unit(ts_random_draw(base, k))) / d->a;
    case TS_ATEN_DRAW_CAUCHY:
        return d->a + d->b * tan(3.141592653589793 * (ts_random_unit(ts_random_draw(base, k)) -
                                                      0.5));
    case TS_ATEN_DRAW_GEOMETRIC: {     /* at least 1, even for a draw of exactly 0 */
        double n = ceil(log(1 - ts_random_unit(ts_random_draw(base, k))) / log1p(-d->a));
        return n < 1 ? 1 : n;
    }
    default:
        return ts_random_uniform(ts_random_draw(base, k), d->a, d->b);
    }
}

/* ---- printing ------------------------------------------------------------------------ */

/* Appends the text print() shows for a tensor of dtype and these sizes (no trailing
 * newline) to out, its elements given as doubles in contiguous order (NULL when it has
 * none), the footer naming backend ("[ CPUFloatType{2,3} ]" for "CPU", "CUDA..." for
 * "CUDA"). A backend's tscript::format_tensor kernel brings its elements to the host and
 * calls this. "cannot print a tensor of dtype ..." for the dtypes it does not know. */
int ts_aten_format_values(const double *v, int dim, const int64_t *sizes, int dtype,
                          const char *backend, TsBuf *out, TsError *err);

/* ---- arguments bound by the schema --------------------------------------------------- */

#define TS_ARGS_MAX 32

typedef struct TsArgs {
    TsCall *call;
    int device_type;           /* the backend's device type: tensor arguments must be on it */
    size_t n;                  /* the operator's argument count */
    TsValue v[TS_ARGS_MAX];    /* the popped arguments, first deepest; owned until the end */
} TsArgs;

/* Pops the operator's arguments (its schema's count) off the stack into a->v. Fails when
 * the call has no operator, or the stack holds fewer values; a->n is then 0. */
int ts_args_pop(TsCall *c, int device_type, TsArgs *a);
/* The same for a vararg schema ("prim::tolist(...) -> ..."), which declares no count: pops
 * the n values the kernel takes. Names of its arguments read as '?'. */
int ts_args_pop_n(TsCall *c, int device_type, size_t n, TsArgs *a);
/* The same for a kernel that serves every device (the metadata-only kernels below): the
 * device type is the first tensor argument's (a Tensor[] argument's first item counts), so
 * the kernel works on whatever backend dispatch chose; the other tensor arguments are still
 * checked to be on that device type ("aten::expand_as: the cuda kernel got argument 'other'
 * on device cpu"). With no tensor among the arguments a->device_type is -1. */
int ts_args_pop_same_device(TsCall *c, TsArgs *a);
/* The operator's name ("aten::add") and argument i's name ("other"), for messages. */
const char *ts_args_op_name(const TsArgs *a);
const char *ts_args_name(const TsArgs *a, size_t i);

/* Argument i as a tensor on the backend's device (borrowed from a->v). */
int ts_args_tensor(TsArgs *a, size_t i, TsTensor **out);
/* A Tensor? argument: *out NULL for None. */
int ts_args_opt_tensor(TsArgs *a, size_t i, TsTensor **out);
/* int (a bool reads as 0/1), float (an int converts), bool. */
int ts_args_int(TsArgs *a, size_t i, int64_t *out);
int ts_args_float(TsArgs *a, size_t i, double *out);
int ts_args_bool(TsArgs *a, size_t i, bool *out);
/* An int? argument: *has false for None. */
int ts_args_opt_int(TsArgs *a, size_t i, int64_t *out, bool *has);
/* An int[] argument (a single int counts as a list of one, as int[1] arguments take) of at
 * most max entries. */
int ts_args_int_list(TsArgs *a, size_t i, int64_t *out, int *n, int max);
/* A ScalarType? argument: -1 for None. */
int ts_args_opt_dtype(TsArgs *a, size_t i, int *dtype);
/* A dim argument wrapped for a tensor of ndim dims (ts_aten_wrap_dim). */
int ts_args_dim(TsArgs *a, size_t i, int64_t ndim, bool wrap_scalar, int *out);
/* A Tensor[] argument: the list (borrowed), every item checked to be a tensor on the
 * backend's device. A Tensor?[] argument (indexing): the same, None items allowed. */
int ts_args_tensor_list(TsArgs *a, size_t i, const TsList **out);
int ts_args_opt_tensor_list(TsArgs *a, size_t i, const TsList **out);
/* A Tensor[] argument's tensors (checked as ts_args_tensor_list, borrowed) as a new array
 * the caller frees, and their count. */
int ts_args_tensor_array(TsArgs *a, size_t i, TsTensor ***out, size_t *n);
/* A str argument (borrowed). */
int ts_args_str(TsArgs *a, size_t i, const TsStr **out);

/* What a conversion kernel is asked for (aten::to in all its overloads, aten::cpu,
 * aten::cuda, aten::type_as), read from the call's arguments by their schema names: the
 * dtype (self's when none is named), whether a copy is asked for even when nothing changes,
 * and the device when one is named (device index -1: the backend's current device, except
 * that a device of self's own type without an index means self's device). Errors: self is
 * no tensor on the backend's device, a dtype the backends do not compute in. */
typedef struct TsAtenTo {
    int dtype;
    bool copy;
    bool has_device;
    TsDevice device;
    int64_t memory_format;     /* TS_ATEN_MF_PRESERVE when none is given */
} TsAtenTo;
int ts_aten_to_target(TsArgs *a, TsAtenTo *to);

/* ---- reductions (reduce_args.c) ------------------------------------------------------- */

/* How a reduction's result dtype follows its input and its dtype= argument. */
typedef enum TsAtenRedKind {
    TS_ATEN_RED_SUM,           /* sum, prod: integral and bool become int64; dtype= casts */
    TS_ATEN_RED_MEAN,          /* mean: floating only (the input, or dtype=) */
    TS_ATEN_RED_SAME,          /* max, min, amax, amin: the input's */
    TS_ATEN_RED_INDEX,         /* argmax, argmin: int64 */
    TS_ATEN_RED_BOOL,          /* all, any: bool (uint8 stays uint8) */
    TS_ATEN_RED_VAR,           /* std, var and their _mean: floating only */
    TS_ATEN_RED_NORM,          /* norm: floating only; dtype= must be floating */
    TS_ATEN_RED_VNORM,         /* linalg_vector_norm: the same with its own message */
    TS_ATEN_RED_LSE,           /* logsumexp: integral and bool become float32 */
    TS_ATEN_RED_COUNT,         /* count_nonzero: int64 */
} TsAtenRedKind;

/* Where a reduction overload's arguments sit on the stack (0: absent; self is argument 0):
 * dim (None, int or int[]), keepdim, dtype, out= tensors (values; indices or means), the norm
 * order p, unbiased, and correction. */
typedef struct TsAtenRedPos {
    int8_t dim, keep, dtype, out, out2, p, unbiased, correction;
} TsAtenRedPos;

/* What a reduction is asked for. */
typedef struct TsAtenRedArgs {
    uint64_t mask;             /* the reduced dims (bit d: dim d) */
    bool keepdim;
    bool dim_given;            /* a dim argument that is not None */
    double p;                  /* the norm order (default 2) or var correction (default 1) */
    int dtype;                 /* dtype=, -1 for none */
} TsAtenRedArgs;

/* A dim argument (None, int or int[]) as a mask of the dims of a tensor of ndim dims; None
 * and [] mean every dim. Errors: "dim must be an int or a list of ints", a dim out of range,
 * "dim 0 appears multiple times in the list of dims". */
int ts_aten_red_dims(TsValue v, int ndim, uint64_t *mask, TsError *err);
/* Reads the arguments at pos (all but self and the outs) of a reduction over a tensor of
 * ndim dims into r, dtype= through the backend's dtype_arg (which dtypes it computes in is
 * its own affair). norm: the default p is a norm's order 2, else a correction of 1.
 * "expected a number" for a p or correction of another type. */
int ts_aten_red_args(TsArgs *a, const TsAtenRedPos *pos, int ndim, bool norm,
                     int (*dtype_arg)(TsArgs *, size_t, int *), TsAtenRedArgs *r);
/* The result dtype of a reduction of kind, named name in PyTorch's messages ("mean(): could
 * not infer output dtype. ..."), over an input of dtype in with dtype= dtype (-1: none);
 * stat_pair: std_mean or var_mean, which name themselves where std and var say "std and
 * var". *cast: the dtype to cast the input to before computing, -1 for none. */
int ts_aten_red_dtype(TsAtenRedKind kind, const char *name, bool stat_pair, int in, int dtype,
                      int *result, int *cast, TsError *err);
/* PyTorch's checks for the reductions that have no identity (max, min, argmax, amax, ...)
 * over x: a dim must be given for an empty x, and no reduced dim may be empty. index_form:
 * argmax and argmin, whose first message is shorter and an IndexError. */
int ts_aten_red_check_nonempty(const char *name, bool index_form, const TsTensor *x,
                               const TsAtenRedArgs *r, TsError *err);
/* The shape of a reduction's result: t's sizes with the dims in mask removed, or kept as
 * 1 (keepdim). */
void ts_aten_red_shape(const TsTensor *t, uint64_t mask, bool keepdim, int *dim,
                       int64_t *sizes);

/* ---- a kernel's end ------------------------------------------------------------------ */

/* Each releases the arguments. With rc 0 it pushes the result (taking its reference), with
 * rc set it releases the result (NULL is fine) and returns rc, the error already set. */
int ts_args_return(TsArgs *a, int rc, TsValue v);
int ts_args_return_tensor(TsArgs *a, int rc, TsTensor *t);
/* The end of a kernel's out= form: pushes argument out_index (the out tensor, which the
 * kernel has filled) as the result. */
int ts_args_return_arg(TsArgs *a, int rc, size_t out_index);
/* n results in order (several outputs, as max.dim's values and indices): pushed, taking
 * their references; a NULL tensor with rc 0 is a failure whose error is set. */
int ts_args_return_values(TsArgs *a, int rc, size_t n, TsValue *v);
int ts_args_return_tensors(TsArgs *a, int rc, size_t n, TsTensor **t);
/* A list result (split, unbind): pushed, taking its reference. */
int ts_args_return_list(TsArgs *a, int rc, TsList *l);
/* Releases the arguments and returns rc (the error already set): a kernel that failed
 * before it had a result. */
int ts_args_fail(TsArgs *a, int rc);
/* Releases the arguments, for a kernel that then pushes its results itself. */
void ts_args_release(TsArgs *a);

/* ---- kernels every backend shares ----------------------------------------------------- */

/* A kernel of an operator: "aten::size" overload "int" (the empty string for the default). */
typedef struct TsAtenKernel {
    const char *qualname;
    const char *overload;
    TsKernelFn fn;
} TsAtenKernel;

typedef struct TsAtenTable {
    const TsAtenKernel *ops;
    size_t n;
} TsAtenTable;

/* The metadata-only kernels: they read and write sizes, strides, offsets and flags, never
 * elements, and share storage, so one kernel serves every device. The size and stride
 * queries (size, dim, numel, stride, storage_offset, is_contiguous, len, element_size,
 * is_floating_point, is_signed, is_complex, requires_grad_, prim::dtype, device, layout,
 * data and flags), views (view, view_as, reshape, reshape_as, flatten, unflatten, slice,
 * select, narrow, diagonal, transpose, permute, t, numpy_T, movedim, moveaxis, swapaxes,
 * swapdims and their in-place forms, squeeze, unsqueeze, expand, expand_as, broadcast_to,
 * broadcast_tensors, meshgrid, atleast_1d/2d/3d, detach, alias, as_strided, as_strided_)
 * and splits into views (unbind, split, split_with_sizes, chunk, tensor_split, hsplit,
 * vsplit, dsplit). They bind with ts_args_pop_same_device. tensor_split's
 * tensor_indices_or_sections reads its (cpu) index tensor, as PyTorch requires it on the
 * cpu; narrow.Tensor, whose start is a tensor on self's device, is left to each backend. */
extern const TsAtenTable ts_aten_view_table;

/* Registers every kernel of ts_aten_view_table for backend ("cpu", "cuda", ...). A backend
 * whose tensors may need the copy below sets its hook too (ts_aten_set_backend). */
int ts_aten_register_views(TsRegistry *r, const char *backend, TsError *err);

/* The random ops that take a tensor: bernoulli_ (float and Tensor), bernoulli (and .p),
 * uniform_, normal_, and manual_seed, which seeds the process's generator whichever
 * backend's kernel runs. They fill through the random hooks of the tensor's backend
 * (TsAtenBackend): checks, the scratch copy of a tensor that is not contiguous and the
 * reservation of the draws are here, the elements' computation is the backend's. */
extern const TsAtenTable ts_aten_random_table;

/* Registers every kernel of ts_aten_random_table for backend ("cpu", "cuda", ...), whose
 * random hooks must be set (ts_aten_set_backend). */
int ts_aten_register_random(TsRegistry *r, const char *backend, TsError *err);

/* What the shared kernels need of a backend: reshape, reshape_as and flatten copy a tensor
 * that no view can express (PyTorch's reshape), and only the backend can copy its memory;
 * the random ops (ts_aten_random_table, ts_aten_random_fill) make, copy and fill tensors
 * through the random hooks, which a backend that registers no random op leaves NULL. */
typedef struct TsAtenBackend {
    int device_type;           /* TS_DEV_CPU, TS_DEV_CUDA, or ts_device_type_lookup(name) */
    /* A new contiguous tensor on src's device with src's dtype, sizes and elements (a copy
     * even when src is contiguous), or NULL with err set. */
    TsTensor *(*contiguous_copy)(const TsTensor *src, TsError *err);

    /* ---- the random hooks ---- */
    /* The backend in PyTorch's kernel names ("\"normal_kernel_cuda\" not implemented"). */
    const char *name;
    /* A new contiguous tensor on device (uninitialized), or NULL with err set. */
    TsTensor *(*empty)(TsDevice device, int dtype, int dim, const int64_t *sizes,
                       TsError *err);
    /* dst = src broadcast to dst's shape, converting the dtype. */
    int (*copy_into)(TsTensor *dst, const TsTensor *src, TsError *err);
    /* Sets every element i of the contiguous t to ts_aten_draw_value(d, base, i, p) in t's
     * dtype; p is NULL or t's element count of doubles on t's device. */
    int (*draw)(TsTensor *t, const TsAtenDraw *d, uint64_t base, const double *p, TsError *err);
    /* Sets *bad when an element of the contiguous float64 tensor q lies outside [0, 1]. */
    int (*outside_unit)(const TsTensor *q, bool *bad, TsError *err);
} TsAtenBackend;

/* Gives the shared kernels backend b's hooks for tensors of b->device_type (b is kept, not
 * copied: it must outlive the plugin's use of the kernels). Call it from the plugin's init.
 * libtscript_aten is a static library linked into each plugin with hidden symbols, so each
 * plugin has its own copy of these hooks: a plugin sets those of the devices it serves, and
 * another plugin's hooks are not seen. A shared kernel that needs a copy on a device with no
 * hook fails ("aten::reshape: the backend of device cuda:0 gave no copy hook"). */
int ts_aten_set_backend(const TsAtenBackend *b, TsError *err);

#ifdef __cplusplus
}
#endif
#endif
