/* conv.h — what the convolution files share: the geometry of a convolution, the checks PyTorch's
 * _convolution makes, the unrolling of input patches into columns (im2col in 1 to 3 spatial
 * dims) and its adjoint, and the entry both directions go through.
 *
 * conv.c holds the forward convolutions (conv1d/2d/3d, their "same"/"valid" forms, and the
 * generic convolution/_convolution that traced models call); conv_transpose.c the transposed
 * ones. Every spatial array has three entries, the op's own dims right-aligned (a 2-d
 * convolution is a 3-d one of depth 1), so one loop nest serves every rank.
 */
#ifndef TS_ATEN_CPU_CONV_H
#define TS_ATEN_CPU_CONV_H

#include "nn/nn.h"

/* The longest int list a convolution argument may be (PyTorch's are as long as the op has
 * spatial dims; longer ones are an error that prints them). */
#define TS_CONV_MAX_LIST 8

/* A convolution's int-list arguments as the caller gave them, before expansion. */
typedef struct TsConvArgs {
    int64_t stride[TS_CONV_MAX_LIST], padding[TS_CONV_MAX_LIST], dilation[TS_CONV_MAX_LIST],
        out_pad[TS_CONV_MAX_LIST];
    int n_stride, n_padding, n_dilation, n_out_pad;
    int64_t groups;
    bool transposed;
    int op_nd;                 /* spatial dims of the named op (conv2d: 2), 0 for convolution */
    const char *op;            /* "conv2d", "conv_transpose3d", "convolution": for messages */
} TsConvArgs;

/* The expanded geometry: spatial entries right-aligned in [3 - nd, 3), the others neutral
 * (stride 1, padding 0, dilation 1, kernel and sizes 1). */
typedef struct TsConvGeom {
    int nd;
    int64_t stride[3], pad_lo[3], pad_hi[3], dil[3], out_pad[3], groups;
    bool transposed;
} TsConvGeom;

/* Reads the four list arguments of a convolution (arguments stride, padding, dilation and
 * out_pad of args, each an int list or an int; out_pad may be None) into a. An index of -1:
 * the op has no such argument (padding: [0]; out_pad: [0]). */
int ts_conv_read_lists(TsArgs *args, TsConvArgs *a, int stride, int padding, int dilation,
                       int out_pad);

/* PyTorch's _convolution on a batched input (dim = weight dim): dtype, parameter and shape
 * checks with its messages, then the forward or transposed convolution. same_pad, when not
 * NULL, gives per-side paddings (3 entries right-aligned each: lo then hi) that replace
 * a->padding ("same" padding may be uneven). Returns a new tensor or NULL with the error set. */
TsTensor *ts_conv_run(TsCall *c, const TsConvArgs *a, TsTensor *x, TsTensor *w, TsTensor *b,
                      const int64_t *same_pad);

/* ts_conv_run on an input of op_nd + 1 (unbatched) or op_nd + 2 dims, as PyTorch's conv{n}d
 * and conv_transpose{n}d take it: an unbatched input gets a batch of one and loses it after. */
TsTensor *ts_conv_batchify(TsCall *c, const TsConvArgs *a, TsTensor *x, TsTensor *w,
                           TsTensor *b, const int64_t *same_pad);

/* The unrolled patches are made a tile of output rows at a time (a row: one output depth
 * and height), so that a tile's columns hold at most about this many elements. */
#define TS_CONV_COL_ELEMS (4 * 1024 * 1024)

/* The patches of one image's channels (isz spatial sizes, contiguous) for output rows
 * [r0, r1) (of o0*o1) as rows of col: ch * k0*k1*k2 rows of (r1 - r0) * o2 entries, zeros
 * where a patch reaches into the padding. Pure data movement, by element size (1, 2, 4 or 8
 * bytes). */
void ts_conv_im2col(size_t esize, const void *in, int64_t ch, const int64_t *isz,
                    const int64_t *k, const int64_t *osz, const TsConvGeom *g, int64_t r0,
                    int64_t r1, void *col);
/* The adjoint for rows [r0, r1): adds each entry of col back into the image it came from
 * (padding dropped). dtype float32, float64 or int64. */
void ts_conv_col2im(int dtype, const void *col, int64_t ch, const int64_t *isz,
                    const int64_t *k, const int64_t *osz, const TsConvGeom *g, int64_t r0,
                    int64_t r1, void *out);
/* The rows of a tile: as many of n_rows rows of row_len entries, each unrolled into `rows`
 * column rows, as fit TS_CONV_COL_ELEMS (at least one). */
int64_t ts_conv_tile_rows(int64_t rows, int64_t row_len, int64_t n_rows);
/* A buffer of rows x (tile * row_len) elements of es bytes, or NULL with err set (sizes
 * checked). */
void *ts_conv_col_alloc(TsError *err, int64_t rows, int64_t tile, int64_t row_len, size_t es);

/* Fills out (n images of cout channels of plane elements, contiguous) with the bias per
 * channel, or zeros without one. */
int ts_conv_init_bias(TsTensor *out, int64_t n, int64_t cout, int64_t plane, const TsTensor *b,
                      TsError *err);

/* The transposed convolution of conv_transpose.c, after ts_conv_run's checks. */
TsTensor *ts_conv_transposed(TsCall *c, const TsConvGeom *g, TsTensor *x, TsTensor *w,
                             TsTensor *b);

#endif
