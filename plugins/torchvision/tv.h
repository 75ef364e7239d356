/* tv.h — what the torchvision plugin's files share: argument frames, torchvision's checks
 * and messages, contiguous input data, zeroed outputs, and the per-dtype dispatch.
 *
 * The plugin is written against the public ABI alone (<tscript/plugin.h>), as a vendor's
 * would be. Each operator file (nms.c, roi_align.c, ps_roi_align.c, roi_pool.c,
 * deform_conv2d.c) exports its kernels; torchvision.c registers them. A kernel pops all its
 * arguments into a TvFrame, checks them in the order torchvision 0.14 does (so the first
 * error is the one PyTorch reports), computes with borrowed pointers, releases the frame and
 * pushes its results: one shape for every kernel, and no path that leaks a reference.
 *
 * Messages are torchvision's own where it has one. Where torchvision's CPU kernel has
 * undefined behaviour instead (a batch index outside the input, NaN or out-of-range
 * coordinates, a zero divisor) the kernel raises an error or gives a defined answer, and
 * the README says which.
 */
#ifndef TS_TORCHVISION_TV_H
#define TS_TORCHVISION_TV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tscript/plugin.h>

#define TV_MAX_ARGS 16

/* A kernel's popped arguments (owned until tv_frame_release) and where it reports. */
typedef struct TvFrame {
    TsCall *c;
    const char *op;            /* "torchvision::roi_align", for messages of our own */
    size_t n;
    TsValue argv[TV_MAX_ARGS];
} TvFrame;

/* Pops the kernel's n arguments (first argument deepest) into f. */
void tv_frame_pop(TvFrame *f, TsCall *c, const char *op, size_t n);
void tv_frame_release(TvFrame *f);

/* Argument i as a cpu Tensor (NULL with the error set when it is not one), int, float or
 * bool. The interpreter only passes values of the schema's types; these checks are the
 * safety net for embedders calling kernels directly. */
const TsTensor *tv_tensor_arg(TvFrame *f, size_t i, const char *name);
int tv_int_arg(TvFrame *f, size_t i, const char *name, int64_t *out);
int tv_float_arg(TvFrame *f, size_t i, const char *name, double *out);
int tv_bool_arg(TvFrame *f, size_t i, const char *name, bool *out);

/* t.size(d) as PyTorch checks it: an IndexError for a dimension t does not have. */
int tv_size(TsError *err, const TsTensor *t, int d, int64_t *out);

/* at::checkAllSameType's message for two tensors of a kernel (argument #1 and #2). */
int tv_check_same_type(TsError *err, const char *kernel, const TsTensor *a, const char *aname,
                       const TsTensor *b, const char *bname);

/* AT_DISPATCH_FLOATING_TYPES: float32 and float64, else '"kernel" not implemented for ...'. */
int tv_check_floating(TsError *err, const char *kernel, int dtype);

/* data_ptr<scalar_t>()'s check that t holds the dtype the kernel dispatched on. */
int tv_check_scalar_type(TsError *err, const TsTensor *t, int dtype);

/* A contiguous copy of rois/input data when t is strided, else t's own data. *owned is the
 * copy to free (NULL when none). NULL with err set only when a copy cannot be allocated;
 * a tensor without elements gives a non-NULL pointer that must not be read. */
const void *tv_contiguous(const TsTensor *t, void **owned, TsError *err);

/* A new zero-filled contiguous cpu tensor ("Trying to create tensor with negative
 * dimension" for negative sizes, as PyTorch). */
TsTensor *tv_zeros(TvFrame *f, int dtype, int dim, const int64_t *sizes);

/* Pushes one result, or two (a tuple return is two values on the stack); takes the
 * references, also on failure. */
int tv_push(TvFrame *f, TsTensor *t);
int tv_push_pair(TvFrame *f, TsTensor *a, TsTensor *b);

/* A float coordinate as an int64 the way a C++ (int) cast of it would be where that is
 * defined; NaN gives 0 and values beyond +-2^52 saturate, so that the index arithmetic that
 * follows in int64 (sums and differences of a few of them) can never overflow. */
int64_t tv_to_index(double v);

/* Runs fn over [0, n) on the runtime's threads in chunks of about `work` scalar operations
 * each (work_per_item is one item's share). */
int tv_parallel(int64_t n, int64_t work_per_item, TsParallelFn fn, void *ctx, TsError *err);

/* The kernels, registered by torchvision.c. */
int tv_nms(TsCall *c);
int tv_roi_align(TsCall *c);
int tv_ps_roi_align(TsCall *c);
int tv_roi_pool(TsCall *c);
int tv_ps_roi_pool(TsCall *c);
int tv_deform_conv2d(TsCall *c);

#endif
