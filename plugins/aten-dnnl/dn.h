/* dn.h — what the files of the aten-dnnl plugin share (prefix dn_).
 *
 * aten-dnnl runs aten-cpu's convolutions (and max_pool2d, batch_norm in inference, the
 * matrix products and the fused attention) on oneDNN 2.x, in float32 and
 * bfloat16: it replaces aten-cpu's cpu kernels of those operators
 * (ts_override_kernel) and hands back to them every call it does not take (other dtypes,
 * mixed ones, empty inputs, malformed arguments: aten-cpu then answers with PyTorch's
 * results and messages). Listed after aten-cpu in a config it is on; left out, off.
 *
 * bfloat16. oneDNN reads bfloat16 inputs and weights, accumulates in float32 and rounds the
 * result to bfloat16 once (its avx512_core_bf16 kernels where the CPU has AVX512-BF16, an
 * emulation of them on other AVX-512 CPUs, its reference code elsewhere). A call's tensors
 * must all have one dtype, as PyTorch's do (batch_norm's parameters may be float32).
 *
 *   args.c    a call's arguments read off the stack, untouched, into a DnConv
 *   engine.c  the engine, each thread's stream and scratch memory, the thread count, errors
 *   prim.c    the primitives of a DnConv, made once and cached by its key
 *   weight.c  weights reordered into the primitive's layout once, cached by storage version
 *   conv.c    running a convolution; the kernels of the aten operators and of dnnl::conv
 *   matmul.c  linear, matmul, mm, bmm and addmm on oneDNN's matmul (bfloat16, and float32
 *             where it beats OpenBLAS)
 *   attention.c  multi-head attention and transformer encoder layers (a padded batch's
 *             too) on matmul.c's products and loops of its own
 *   pool.c    max_pool2d on oneDNN
 *   norm.c    batch_norm in inference (and dnnl::batch_norm), a pass over memory of its own
 *   fuse.c    the optimizer pass: convolutions and batch norms take the relu after them, and
 *             chains of them stay channels-last
 *
 * A DnConv is both the description of a call and (its key, a DnKey) the key of the primitive
 * cache: everything that changes the primitive is in the key, nothing else is.
 */
#ifndef TS_ATEN_DNNL_DN_H
#define TS_ATEN_DNNL_DN_H

#include <stdbool.h>
#include <stdint.h>

#include <oneapi/dnnl/dnnl.h>

#include "tscript/plugin.h"

/* What a primitive computes. */
enum { DN_CONV, DN_MAX_POOL, DN_MATMUL };

/* What runs after the convolution (or batch norm) on its result (oneDNN post-ops). */
enum {
    DN_POST_RELU = 2,          /* max(x, 0) */
    DN_POST_RELU6 = 4,         /* min(max(x, 0), 6) */
    DN_MAY_LAST = 8,           /* not a post-op: dnnl::conv's result may be channels-last */
};

/* TsTensor.flags bit (the cpu backend's bits: aten-cpu uses 0x1 and 0x2): the tensor is
 * channels-last because aten-dnnl chose that layout where the program would not see it
 * (DN_MAY_LAST), not because the program's tensors are; a convolution of it gives a result
 * in PyTorch's default layout, as the program's would have been, and the layout-keeping
 * kernels (batch_norm, max_pool2d) pass the bit on. */
#define DN_FLAG_CHOSEN_LAST 0x100u

/* TsTensor.flags bit: aten-cpu's nested tensor (its nn/nested.h: the lengths of a padded
 * batch, int64, just past the elements in its storage). Calls with one go to aten-cpu's
 * kernels, but for the encoder layer (attention.c), which reads and makes them. */
#define DN_FLAG_CPU_NESTED 0x2u

/* A matrix product's shapes (DN_MATMUL; zero in the other keys): src [batch, m, k] @
 * weights [wbatch, k, n] (wbatch 1 or batch) + bias (each of its dims 1 or the result's) ->
 * dst [batch, m, n], dense; each operand's strides in elements as the call's tensors have
 * them, a dim of one element given the stride of an outermost one (matmul.c). */
typedef struct DnMatKey {
    int64_t batch, wbatch, m, k, n;
    int64_t src_st[3], wei_st[3], bias_dims[3], bias_st[3];
    uint8_t wei_any;           /* the weights in the layout oneDNN picks: reordered once */
    uint8_t acc_f32;           /* the result in float32 (addmm: alpha and beta after) */
} DnMatKey;

/* A batch of matrices: b of r rows and c columns, strides in elements. */
typedef struct DnMat {
    int64_t b, r, c, bs, rs, cs;
} DnMat;

/* The primitive cache's key: zeroed first, so that padding compares equal. Spatial arrays
 * hold the nd dims of the convolution from index 0. */
typedef struct DnKey {
    int16_t kind;              /* DN_CONV, DN_MAX_POOL (k, stride, dil, pads: the window's) */
    int16_t nd;                /* spatial dims: 1, 2 or 3 */
    int32_t nthr;              /* the threads it was made for (oneDNN plans by them) */
    int64_t n, cin, cout, groups;
    int64_t in[3], k[3], out[3];
    int64_t stride[3], dil[3], pad_l[3], pad_r[3];
    int64_t src_strides[5];    /* the input as given ([n, c, spatial...], elements) */
    uint8_t transposed, bias, out_last, post;  /* out_last: the output is channels-last */
    uint8_t dt;                /* the tensors' dnnl_data_type_t: dnnl_f32 or dnnl_bf16 */
    DnMatKey mm;
} DnKey;

/* A convolution call: the key and the tensors (borrowed from the stack). */
typedef struct DnConv {
    DnKey key;
    TsTensor *x, *w, *b;
    int out_dim;               /* the result's dims: nd + 2, or nd + 1 unbatched */
    bool chosen_last;          /* the result is channels-last by DN_MAY_LAST alone */
} DnConv;

/* ---- args.c ------------------------------------------------------------------------ */

/* Where an operator's arguments are (-1: it has none), and what it is. */
typedef struct DnOpInfo {
    const char *qualname, *overload;
    int8_t nd;                 /* conv{nd}d, conv_transpose{nd}d; 0: the generic forms */
    bool transposed;           /* conv_transpose{nd}d */
    bool str_pad;              /* padding is "same" or "valid" */
    int8_t stride, padding, dilation, out_pad, groups, transposed_at;
} DnOpInfo;

/* Reads the call's n arguments (on top of the stack, left there) into *cv for an operator of
 * info; false when oneDNN is not for this call (then nothing is set that needs undoing). */
bool dn_read_conv(TsCall *c, const DnOpInfo *info, size_t n, DnConv *cv);
/* The oneDNN data type of t when it is a cpu tensor of a dtype aten-dnnl computes in
 * (dnnl_f32, dnnl_bf16), else dnnl_data_type_undef; the tscript dtype of such a type. */
dnnl_data_type_t dn_dtype(const TsTensor *t);
int dn_ts_dtype(dnnl_data_type_t dt);
/* Whether t's strides are channels-last, when dense that way and not contiguous (PyTorch's
 * suggest_memory_format). */
bool dn_is_channels_last(const TsTensor *t);
/* An int or int[] argument of length 1 or nd into out[0..nd); false for anything else. */
bool dn_int_list(TsValue v, int nd, int64_t *out);
/* The strides oneDNN is told for x as a tensor of dims dims (a batch of one in front of an
 * unbatched x): a dense tensor's as the canonical ones of its layout (size-1 dims then do
 * not split the cache), others as they are. */
void dn_src_strides(const TsTensor *x, int dims, int64_t *st);

/* For the plugin's own loops over elements (norm.c, attention.c): GCC vectorizes them only
 * with its dynamic cost model (-O2's is "very cheap"), and for the machine's widest vectors
 * where a copy is made for them (picked at load, as oneDNN picks its kernels by the CPU). */
#define DN_VECTORIZE __attribute__((optimize("vect-cost-model=dynamic"), \
                                    target_clones("avx512f", "avx2", "default")))

/* bfloat16, stored as its bits, to float32 and back (round to nearest even, nan kept quiet):
 * inline, for the loops that convert it to vectorize. */
static inline float dn_bf16_to_float(uint16_t b)
{
    union { uint32_t u; float f; } v = { (uint32_t)b << 16 };
    return v.f;
}

static inline uint16_t dn_float_to_bf16(float f)
{
    union { float f; uint32_t u; } v = { f };
    uint32_t r = (v.u + 0x7fffu + ((v.u >> 16) & 1u)) >> 16;
    return (uint16_t)(f != f ? (v.u >> 16) | 0x40u : r);
}

/* ---- lib.c --------------------------------------------------------------------------- */

/* oneDNN's functions as the plugin calls them (dn_lib.memory_create(...)): taken from the
 * library when the first call that runs oneDNN opens it (the plugin links none of it). */
typedef struct DnLib {
    __typeof__(dnnl_dilated_convolution_forward_desc_init) *dilated_convolution_forward_desc_init;
    __typeof__(dnnl_dilated_deconvolution_forward_desc_init) *dilated_deconvolution_forward_desc_init;
    __typeof__(dnnl_engine_create) *engine_create;
    __typeof__(dnnl_matmul_desc_init) *matmul_desc_init;
    __typeof__(dnnl_memory_create) *memory_create;
    __typeof__(dnnl_memory_desc_equal) *memory_desc_equal;
    __typeof__(dnnl_memory_desc_get_size) *memory_desc_get_size;
    __typeof__(dnnl_memory_desc_init_by_strides) *memory_desc_init_by_strides;
    __typeof__(dnnl_memory_desc_init_by_tag) *memory_desc_init_by_tag;
    __typeof__(dnnl_memory_destroy) *memory_destroy;
    __typeof__(dnnl_pooling_v2_forward_desc_init) *pooling_v2_forward_desc_init;
    __typeof__(dnnl_post_ops_append_eltwise) *post_ops_append_eltwise;
    __typeof__(dnnl_post_ops_create) *post_ops_create;
    __typeof__(dnnl_post_ops_destroy) *post_ops_destroy;
    __typeof__(dnnl_primitive_attr_create) *primitive_attr_create;
    __typeof__(dnnl_primitive_attr_destroy) *primitive_attr_destroy;
    __typeof__(dnnl_primitive_attr_set_post_ops) *primitive_attr_set_post_ops;
    __typeof__(dnnl_primitive_attr_set_scratchpad_mode) *primitive_attr_set_scratchpad_mode;
    __typeof__(dnnl_primitive_create) *primitive_create;
    __typeof__(dnnl_primitive_desc_create) *primitive_desc_create;
    __typeof__(dnnl_primitive_desc_destroy) *primitive_desc_destroy;
    __typeof__(dnnl_primitive_desc_query_md) *primitive_desc_query_md;
    __typeof__(dnnl_primitive_destroy) *primitive_destroy;
    __typeof__(dnnl_primitive_execute) *primitive_execute;
    __typeof__(dnnl_reorder_primitive_desc_create) *reorder_primitive_desc_create;
    __typeof__(dnnl_stream_create) *stream_create;
    __typeof__(dnnl_stream_destroy) *stream_destroy;
    __typeof__(dnnl_stream_wait) *stream_wait;
    void (*omp_set_num_threads)(int);      /* OpenMP's, where oneDNN runs on it; else NULL */
} DnLib;

extern DnLib dn_lib;

/* Opens oneDNN the first time (any thread), then says whether dn_lib is filled: false when
 * the library or one of its functions is missing, and every call goes to aten-cpu's kernel.
 * dn_lib_why: why not, for a report ("" when it is open or not tried yet). */
bool dn_lib_open(void);
const char *dn_lib_why(void);

/* ---- engine.c ---------------------------------------------------------------------- */

/* The CPU engine (made once), or NULL when oneDNN has none (err says why). */
dnnl_engine_t dn_engine(TsError *err);
/* The calling thread's stream, made on first use and freed when the thread ends. */
dnnl_stream_t dn_stream(TsError *err);
/* The calling thread's scratch memory, at least nbytes (64-byte aligned), kept for the
 * thread's next call; NULL with err when out of memory. */
void *dn_scratch(size_t nbytes, TsError *err);
/* The threads a convolution may use now: the runtime's count for the one call that holds the
 * team, 1 for calls made meanwhile on other threads (no oversubscription). Pair with
 * dn_threads_end. OpenMP's count is set to it on the calling thread. */
int dn_threads_begin(void);
void dn_threads_end(int nthr);
/* "oneDNN: WHAT failed (status)" into err; returns TS_ERR_RUNTIME. */
int dn_fail(TsError *err, const char *what, dnnl_status_t st);
/* Frees everything the plugin made (its last runtime closes). */
void dn_engine_shutdown(void);
/* Applies post (DN_POST_RELU or DN_POST_RELU6) in place to the float32 or bfloat16 tensor
 * t, as aten-cpu's relu and hardtanh(0, 6) compute it (nan stays nan). */
int dn_post_apply(TsTensor *t, int post, TsError *err);
/* Whether the kernel may write its result over t, an argument it was handed: t's last
 * reference (the interpreter moves a value at its last use), over a storage nobody else
 * holds that the cpu allocator made (not memory a caller lent, or a mapped file). */
bool dn_may_reuse(TsCall *c, const TsTensor *t);
/* Replaces aten-cpu's cpu kernel of qualname (its overload "") by fn, the replaced one
 * into *replaced, which takes the calls fn hands back. */
int dn_override(TsRegistry *r, const char *qualname, TsKernelFn fn,
                _Atomic(TsKernelFn) *replaced, TsError *err);
/* Calls fn, the kernel of qualname.overload that aten-dnnl replaced, with the call's stack
 * (that operator's arguments on top) as that operator's call. */
int dn_call_replaced(TsCall *c, const char *qualname, const char *overload, TsKernelFn fn);

/* ---- prim.c ------------------------------------------------------------------------ */

/* The primitives of one key, shared and reference-counted (dn_prim_release). */
typedef struct DnPrim {
    DnKey key;
    dnnl_primitive_t op;       /* the convolution or the pooling */
    dnnl_primitive_t src_reorder;  /* the input into conv's layout; NULL when it is one */
    dnnl_primitive_t dst_reorder;  /* conv's result into the output's; NULL when the same */
    dnnl_memory_desc_t src_md, wei_md, dst_md, user_src_md, user_dst_md, bias_md, scratch_md;
    size_t src_bytes, dst_bytes, scratch_bytes;  /* the buffers a call needs */
    uint64_t used;             /* the cache's clock at its last use (under its lock) */
    unsigned refs;             /* the calls running it (under the cache's lock) */
    struct DnPrim *next;       /* the cache's chain */
} DnPrim;

/* The output's dims [n, c, spatial...] and their strides in the call's layout
 * (channels-last or contiguous). */
void dn_out_layout(const DnKey *k, int64_t *sizes, int64_t *strides);
/* Whether Winograd's algorithm fits k (a 3x3 convolution at stride 1): its primitives then
 * run on oneDNN's blocked layout whatever the call's. */
bool dn_winograd_fits(const DnKey *k);
/* The primitives of key (made now when not cached), or NULL with err set when oneDNN cannot
 * make them (the call then goes to aten-cpu). */
DnPrim *dn_prim_get(const DnKey *key, TsError *err);
void dn_prim_release(DnPrim *p);
void dn_prim_clear(void);

/* ---- weight.c ---------------------------------------------------------------------- */

/* The weight of a convolution or a linear in its primitive's layout, shared and
 * reference-counted. */
typedef struct DnWeight DnWeight;
const void *dn_weight_data(const DnWeight *w);

/* The weight w, read as user describes it, reordered into layout md, from the cache when w's
 * storage has not changed since; NULL with err. */
DnWeight *dn_weight_get(const dnnl_memory_desc_t *user, const dnnl_memory_desc_t *md,
                        const TsTensor *w, TsError *err);
/* How a convolution of key k reads its weight w: oneDNN's dims [g,] out, in, spatial, and
 * w's strides for them (PyTorch's forward weight is [out, in / g, ...], its transposed one
 * [in, out / g, ...]). */
dnnl_status_t dn_conv_weight_md(const DnKey *k, const TsTensor *w, dnnl_memory_desc_t *md);
void dn_weight_release(DnWeight *w);
void dn_weight_clear(void);

/* ---- conv.c ------------------------------------------------------------------------ */

/* Runs cv (its primitive p, its weight wt) into a new tensor; NULL with err set. */
TsTensor *dn_conv_run(TsCall *c, const DnConv *cv, DnPrim *p, DnWeight *wt);
/* Registers the kernels: the replacements of aten-cpu's and dnnl::conv's. */
int dn_register_conv(TsRegistry *r, TsError *err);

/* ---- matmul.c ---------------------------------------------------------------------- */

/* The descriptors of a DN_MATMUL key: its src and dst as the call has them, and the
 * primitive's (attr: the scratchpad) into pd. */
dnnl_status_t dn_matmul_mds(const DnKey *k, dnnl_memory_desc_t *src, dnnl_memory_desc_t *dst);
dnnl_status_t dn_matmul_pd(const DnKey *k, dnnl_engine_t eng, const dnnl_memory_desc_t *src,
                           const dnnl_memory_desc_t *dst, const_dnnl_primitive_attr_t attr,
                           dnnl_primitive_desc_t *pd);
/* The key of a @ w (+ bias, broadcast over its dims of one element) in data type dt, w
 * read in the layout oneDNN picks (wei_any: reordered once and cached) or as it is; false
 * when oneDNN is not for it (float32 products where OpenBLAS is the faster, shapes that do
 * not fit, strides not positive). */
bool dn_matmul_key(DnKey *k, dnnl_data_type_t dt, DnMat a, DnMat w, const DnMat *bias,
                   bool wei_any);

/* The operands of a product, as its key describes them: w the weight tensor when the key
 * is wei_any (its reordered copy is read), else wei its data as is. */
typedef struct DnMatArgs {
    const void *src, *wei, *bias;
    const TsTensor *w;
    void *dst;
} DnMatArgs;

/* Runs the product of key (its nthr set: inside dn_threads_begin and dn_threads_end) on a's
 * operands: 0; 1 when oneDNN cannot make its primitive or weights (nothing written); else an
 * error code with err. */
int dn_matmul_exec(const DnKey *key, const DnMatArgs *a, TsError *err);
int dn_register_matmul(TsRegistry *r, TsError *err);

/* ---- attention.c --------------------------------------------------------------------- */

int dn_register_attention(TsRegistry *r, TsError *err);

/* ---- pool.c, norm.c ------------------------------------------------------------------ */

int dn_register_pool(TsRegistry *r, TsError *err);
int dn_register_norm(TsRegistry *r, TsError *err);

/* ---- fuse.c ------------------------------------------------------------------------ */

/* The optimizer pass (ts_register_optimizer_pass). */
int dn_fuse_pass(TsGraph *g, void *ctx, TsError *err);

#endif
