/* nn.h — what aten-cuda's layer files share: the host entry points of their GPU kernels
 * (im2col.cu, pool_kernels.cu, embedding_kernels.cu, cell_kernels.cu). Each launches on
 * TS_CUDA_STREAM and returns 0, or the launch's error (ts_cuda_check), or "OP not
 * implemented for 'DTYPE'" for a dtype it has no loop for.
 */
#ifndef TS_ATEN_CUDA_NN_H
#define TS_ATEN_CUDA_NN_H

#include "engine/cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A 2-d convolution's or pool's window geometry over one plane: input h x w, kernel
 * kh x kw, stride, padding (top and left), dilation, output oh x ow. */
typedef struct TsCudaWindow {
    int64_t h, w, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow;
} TsCudaWindow;

/* The patches of n images of c channels (x: element (i, ch, y, x) at strides xs) as
 * columns: col holds, per image, c * kh * kw rows of oh * ow entries (row
 * (ch * kh + ki) * kw + kj), zeros where a patch reaches into the padding. Pure data
 * movement: any dtype of 2, 4 or 8 bytes. */
int ts_cuda_launch_im2col(int dtype, const void *x, const int64_t *xs, int64_t n, int64_t c,
                          const TsCudaWindow *g, void *col, TsError *err);

/* Pools of planes contiguous planes of h x w into planes of oh x ow (float dtypes).
 * max: PyTorch's max (NaN wins, ties keep the first). avg: the window's sum over divisor,
 * or over its size clipped to the padded input (count_include_pad) or to the input. */
int ts_cuda_launch_max_pool2d(int dtype, const void *x, void *y, int64_t planes,
                              const TsCudaWindow *g, TsError *err);
int ts_cuda_launch_avg_pool2d(int dtype, const void *x, void *y, int64_t planes,
                              const TsCudaWindow *g, bool count_include_pad, int64_t divisor,
                              TsError *err);
/* Output cell (i, j) averages rows [floor(i*h/oh), ceil((i+1)*h/oh)) and likewise columns. */
int ts_cuda_launch_adaptive_avg_pool2d(int dtype, const void *x, void *y, int64_t planes,
                                       int64_t h, int64_t w, int64_t oh, int64_t ow,
                                       TsError *err);

/* out (n rows of dim, contiguous) = the rows of weight (rows x dim at strides ws0, ws1)
 * that the n indices (contiguous int64 or int32) name; an index outside [0, rows) gives a
 * row of zeros (a GPU kernel cannot raise PyTorch's "index out of range in self"). Any
 * dtype of 1, 2, 4 or 8 bytes. */
int ts_cuda_launch_embedding(int dtype, const void *weight, int64_t rows, int64_t dim,
                             int64_t ws0, int64_t ws1, const void *idx, int idx_dtype,
                             int64_t n, void *out, TsError *err);

/* The LSTM cell's gate math: gates (batch x 4*hidden, contiguous: i, f, g, o; b_hh not yet
 * added, bias NULL for none), cx (batch x hidden, contiguous) into hy and cy. */
int ts_cuda_launch_lstm_gates(int dtype, const void *gates, const void *bias, const void *cx,
                              void *hy, void *cy, int64_t batch, int64_t hidden, TsError *err);
/* The GRU cell's: gi and gh (batch x 3*hidden each, biases added: r, z, n), hx into hy. */
int ts_cuda_launch_gru_gates(int dtype, const void *gi, const void *gh, const void *hx,
                             void *hy, int64_t batch, int64_t hidden, TsError *err);

#ifdef __cplusplus
}
#endif
#endif
