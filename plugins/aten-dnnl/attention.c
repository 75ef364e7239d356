/* attention.c — the fused fast paths of nn.MultiheadAttention and TransformerEncoderLayer
 * on oneDNN: aten-cpu's kernels of aten::_native_multi_head_attention and
 * aten::_transformer_encoder_layer_fwd (its nn/attention.c says what they compute) replaced
 * (ts_override_kernel) for calls whose tensors are all bfloat16 (which aten-cpu widens to
 * float32 for OpenBLAS) or all float32 (where oneDNN's products, their weights reordered
 * once, took 0.6-0.9 of OpenBLAS's time, and these loops are vectorized for the machine's
 * widest vectors).
 *
 * The products are matmul.c's (the tensors' dtype, float32 accumulation, weights reordered
 * once and cached): the packed in-projection with its bias into rows of q, k and v
 * ([rows, 3E]); per batch entry, the scores q k^T of every head in one batched product read
 * in place from those rows, into float32; the probabilities by v the same way; the
 * out-projection and the feed-forward linears with their biases, the first one's relu a
 * oneDNN post-op. The rest are loops here over contiguous rows in float32, each result
 * rounded once to bfloat16 (in a bfloat16 call) where PyTorch's own kernels round theirs:
 * the softmax of the
 * scaled scores (the mask's entries -inf first; a row with every key masked is NaN, as in
 * PyTorch), the heads gathered back into rows, exact gelu (erfc below, to float32's
 * precision), and the residual adds, each fused with the layer norm that reads it.
 *
 * An encoder layer given a nested input (what nn.TransformerEncoder makes of a padded batch
 * without grad: aten-cpu's stand-in, nested.h) runs its products and row loops over the rows
 * the sequences have, packed one after another (PyTorch's nested kernels do as much work),
 * and only attention's core over the padded layout, each sequence's keys past its length
 * masked; the result is nested too, its padding rows zero.
 *
 * Everything else goes to aten-cpu's kernel with the stack untouched, so that its results
 * and PyTorch's errors stay: other dtypes and mixed ones, need_weights, cross attention
 * (query, key and value not one tensor), a nested input to self-attention alone or with a
 * mask besides, inputs not contiguous or empty, masks other than aten-cpu's kinds in bool,
 * float32 or bfloat16, any shape or argument PyTorch refuses, and a call whose product
 * oneDNN cannot make.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "dn.h"
#include "vmath.h"

/* The encoder layer's parameters, in schema order from its qkv_weight; attention's are the
 * first four. */
enum { P_QKV_W, P_QKV_B, P_PROJ_W, P_PROJ_B, P_N1W, P_N1B, P_N2W, P_N2B, P_F1W, P_F1B, P_F2W,
       P_F2B, P_COUNT };

/* A call this file takes. */
typedef struct Attn {
    const TsTensor *x;                 /* [B, L, E], contiguous */
    dnnl_data_type_t dt;               /* every tensor's: dnnl_bf16 or dnnl_f32 */
    bool f32;                          /* dt is dnnl_f32 */
    const TsTensor *p[P_COUNT];        /* borrowed from the stack */
    const TsTensor *mask;              /* or NULL */
    int64_t mask_st[4];                /* its strides over [b, h, l, s], 0 where broadcast */
    int64_t B, L, E, H, F;
    bool layer, gelu, norm_first;
    float eps;
    /* An encoder layer's nested input (aten-cpu's stand-in, DN_FLAG_CPU_NESTED: the B
     * sequences' lengths as int64 just past the elements in x's storage, rows past them
     * zero): the lengths' bytes, else NULL. The products and loops then run over the R
     * rows the sequences have, packed; only attention's core reads the padded layout. */
    const char *lengths;
    int64_t R;                         /* the rows computed: B * L, or the lengths' sum */
} Attn;

/* Sequence b's length: L, or its nested length. */
static int64_t seq_len(const Attn *a, int64_t b)
{
    if (!a->lengths)
        return a->L;
    int64_t n;
    memcpy(&n, a->lengths + b * (int64_t)sizeof n, sizeof n);
    return n;
}

/* ---- reading a call -------------------------------------------------------------------- */

static const TsTensor *as_tensor(TsValue v)
{
    return v.tag == TS_TAG_TENSOR ? (const TsTensor *)v.u.p : NULL;
}

/* v when it is a cpu tensor of a's dtype, of dim dims, sizes s0 (and s1), else NULL. */
static const TsTensor *param_of(const Attn *a, TsValue v, int dim, int64_t s0, int64_t s1)
{
    const TsTensor *t = as_tensor(v);
    if (!t || dn_dtype(t) != a->dt || t->dim != dim || t->sizes[0] != s0 ||
        (dim == 2 && t->sizes[1] != s1))
        return NULL;
    return t;
}

static bool int_of(TsValue v, int64_t *out)
{
    if (v.tag != TS_TAG_INT)
        return false;
    *out = v.u.i;
    return true;
}

/* The mask and its type (aten-cpu's: 1 a key padding mask [B, L], else one that broadcasts
 * to [B, H, L, L]) in a bool, float32 or bfloat16 cpu tensor. */
static bool read_mask(TsValue m, TsValue type, Attn *a)
{
    a->mask = NULL;
    if (m.tag == TS_TAG_NONE)
        return true;
    const TsTensor *k = as_tensor(m);
    int64_t mt;
    if (!k || k->device.type != TS_DEV_CPU || !int_of(type, &mt) ||
        (k->dtype != TS_BOOL && k->dtype != TS_FLOAT32 && k->dtype != TS_BFLOAT16))
        return false;
    memset(a->mask_st, 0, sizeof a->mask_st);
    if (mt == 1) {
        if (k->dim != 2 || k->sizes[0] != a->B || k->sizes[1] != a->L)
            return false;
        a->mask_st[0] = k->strides[0];
        a->mask_st[3] = k->strides[1];
    } else {
        int64_t full[4] = { a->B, a->H, a->L, a->L };
        if (k->dim > 4)
            return false;
        for (int d = 0; d < k->dim; d++) {
            int at = 4 - k->dim + d;
            if (k->sizes[d] != 1 && k->sizes[d] != full[at])
                return false;
            a->mask_st[at] = k->sizes[d] == 1 ? 0 : k->strides[d];
        }
    }
    a->mask = k;
    return true;
}

/* A nested x's lengths (aten-cpu's layout: nested.h), each within [0, L], not all 0; false
 * for anything else (aten-cpu then takes the call). */
static bool read_nested(const TsTensor *t, Attn *a)
{
    size_t data = (size_t)ts_tensor_numel(t) * ts_dtype_size(t->dtype);
    if (t->offset != 0 || !t->storage ||
        t->storage->nbytes != data + (size_t)a->B * sizeof(int64_t))
        return false;
    a->lengths = (const char *)t->storage->data + data;
    a->R = 0;
    for (int64_t b = 0; b < a->B; b++) {
        int64_t n = seq_len(a, b);
        if (n < 0 || n > a->L)
            return false;
        a->R += n;
    }
    return a->R > 0;
}

/* The input x ([B, L, E], contiguous, or nested), the heads and the attention's parameters
 * v[0..3] (qkv_weight, qkv_bias, proj_weight, proj_bias). */
static bool read_common(TsValue x, TsValue e, TsValue h, const TsValue *v, Attn *a)
{
    const TsTensor *t = as_tensor(x);
    if (!t || t->dim != 3 || !ts_tensor_is_contiguous(t) || !int_of(e, &a->E) ||
        !int_of(h, &a->H) || t->sizes[2] != a->E || a->H <= 0 || a->E % a->H ||
        t->sizes[0] * t->sizes[1] == 0)
        return false;
    a->dt = dn_dtype(t);
    if (a->dt != dnnl_bf16 && a->dt != dnnl_f32)
        return false;
    a->f32 = a->dt == dnnl_f32;
    a->x = t;
    a->B = t->sizes[0];
    a->L = t->sizes[1];
    a->R = a->B * a->L;
    if ((t->flags & DN_FLAG_CPU_NESTED) && !read_nested(t, a))
        return false;
    int64_t E = a->E;
    /* float32 products go to oneDNN from 4 rows and columns (matmul.c's f32_faster): a call
     * with fewer is aten-cpu's whole, not half done here */
    if (a->f32 && (a->R < 4 || a->L < 4 || E / a->H < 4 || E < 4))
        return false;
    a->p[P_QKV_W] = param_of(a, v[0], 2, 3 * E, E);
    a->p[P_QKV_B] = param_of(a, v[1], 1, 3 * E, 0);
    a->p[P_PROJ_W] = param_of(a, v[2], 2, E, E);
    a->p[P_PROJ_B] = param_of(a, v[3], 1, E, 0);
    return a->p[P_QKV_W] && a->p[P_QKV_B] && a->p[P_PROJ_W] && a->p[P_PROJ_B];
}

/* aten::_native_multi_head_attention(Tensor query, Tensor key, Tensor value, int embed_dim,
 *   int num_head, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias,
 *   Tensor? mask=None, bool need_weights=True, bool average_attn_weights=True,
 *   int? mask_type=None) -> (Tensor, Tensor): self-attention without the weights. */
static bool read_mha(const TsValue *v, Attn *a)
{
    memset(a, 0, sizeof *a);
    return v[0].tag == TS_TAG_TENSOR && v[1].u.p == v[0].u.p && v[2].u.p == v[0].u.p &&
           v[1].tag == TS_TAG_TENSOR && v[2].tag == TS_TAG_TENSOR &&
           v[10].tag == TS_TAG_BOOL && !v[10].u.b && read_common(v[0], v[3], v[4], v + 5, a) &&
           !a->lengths && read_mask(v[9], v[12], a);
}

/* aten::_transformer_encoder_layer_fwd(Tensor src, int embed_dim, int num_heads,
 *   Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, bool use_gelu,
 *   bool norm_first, float eps, Tensor norm_weight_1, Tensor norm_bias_1,
 *   Tensor norm_weight_2, Tensor norm_bias_2, Tensor ffn_weight_1, Tensor ffn_bias_1,
 *   Tensor ffn_weight_2, Tensor ffn_bias_2, Tensor? mask=None, int? mask_type=None) */
static bool read_layer(const TsValue *v, Attn *a)
{
    memset(a, 0, sizeof *a);
    if (!read_common(v[0], v[1], v[2], v + 3, a) || v[7].tag != TS_TAG_BOOL ||
        v[8].tag != TS_TAG_BOOL || v[9].tag != TS_TAG_DOUBLE)
        return false;
    int64_t E = a->E;
    const TsTensor *f1 = param_of(a, v[14], 2,
                                  as_tensor(v[14]) ? as_tensor(v[14])->sizes[0] : 0, E);
    a->F = f1 ? f1->sizes[0] : 0;
    const TsTensor *q[] = { param_of(a, v[10], 1, E, 0), param_of(a, v[11], 1, E, 0),
                            param_of(a, v[12], 1, E, 0), param_of(a, v[13], 1, E, 0), f1,
                            param_of(a, v[15], 1, a->F, 0), param_of(a, v[16], 2, E, a->F),
                            param_of(a, v[17], 1, E, 0) };
    for (int i = 0; i < 8; i++)
        if (!(a->p[P_N1W + i] = q[i]))
            return false;
    a->layer = true;
    a->gelu = v[7].u.b;
    a->norm_first = v[8].u.b;
    a->eps = (float)v[9].u.d;
    /* a nested input with a mask besides is aten-cpu's */
    return a->F >= (a->f32 ? 4 : 1) && read_mask(v[18], v[19], a) &&
           !(a->lengths && a->mask);
}

/* ---- loops over rows -------------------------------------------------------------------- */

/* Sums and maxima of float32 runs in 16 lanes, so that they vectorize without reassociating
 * anything the compiler may not. */
#define LANES 16

static inline float sum_of(const float *x, int64_t n)
{
    float acc[LANES] = { 0 }, s = 0;
    int64_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int k = 0; k < LANES; k++)
            acc[k] += x[i + k];
    for (; i < n; i++)
        s += x[i];
    for (int k = 0; k < LANES; k++)
        s += acc[k];
    return s;
}

static inline float max_of(const float *x, int64_t n)
{
    float acc[LANES], m = -INFINITY;
    for (int k = 0; k < LANES; k++)
        acc[k] = -INFINITY;
    int64_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int k = 0; k < LANES; k++)
            acc[k] = ts_vm_pick(-(uint32_t)(x[i + k] > acc[k]), x[i + k], acc[k]);
    for (; i < n; i++)
        m = x[i] > m ? x[i] : m;
    for (int k = 0; k < LANES; k++)
        m = acc[k] > m ? acc[k] : m;
    return m;
}

/* Whether a mask element is set: nonzero (a NaN too), as aten-cpu reads it. */
static bool mask_at(const TsTensor *k, const char *p)
{
    if (k->dtype == TS_BOOL)
        return *p != 0;
    if (k->dtype == TS_BFLOAT16) {
        uint16_t b;
        memcpy(&b, p, sizeof b);
        return (b & 0x7fffu) != 0;
    }
    float f;
    memcpy(&f, p, sizeof f);
    return f != 0;
}

/* Scores row l of head h of batch entry b: -inf where the mask is set. */
static void mask_row(const Attn *a, int64_t b, int64_t h, int64_t l, float *sc)
{
    const TsTensor *k = a->mask;
    size_t es = ts_dtype_size(k->dtype);
    const int64_t *st = a->mask_st;
    const char *p = (const char *)ts_tensor_data(k) + (b * st[0] + h * st[1] + l * st[2]) * (int64_t)es;
    for (int64_t s = 0; s < a->L; s++)
        if (mask_at(k, p + s * st[3] * (int64_t)es))
            sc[s] = -INFINITY;
}

/* n floats of x into out, a row of float32 (f32) or bfloat16 (each rounded once). */
static inline void store_row(const float *x, int64_t n, bool f32, void *out)
{
    if (f32) {
        memcpy(out, x, (size_t)n * sizeof *x);
        return;
    }
    uint16_t *o = out;
    for (int64_t i = 0; i < n; i++)
        o[i] = dn_float_to_bf16(x[i]);
}

/* The softmax of a row of n scores sc times scale (sc overwritten) into p (float32 when
 * f32, else bfloat16). */
static DN_VECTORIZE void softmax_row(float *sc, int64_t n, float scale, bool f32, void *p)
{
    for (int64_t i = 0; i < n; i++)
        sc[i] *= scale;
    float mx = max_of(sc, n);
    for (int64_t i = 0; i < n; i++)
        sc[i] = ts_expf(sc[i] - mx);
    float inv = 1.0f / sum_of(sc, n);
    for (int64_t i = 0; i < n; i++)
        sc[i] *= inv;
    store_row(sc, n, f32, p);
}

/* erfc(z) for z >= 0 to a relative 1.2e-7 (the Chebyshev fit of Numerical Recipes' erfcc),
 * and x * Phi(x), gelu, through it: the tail of a negative x keeps its relative precision. */
static inline float erfc_pos(float z)
{
    float t = 1.0f / (1.0f + 0.5f * z);
    float r = t * 0.17087277f - 0.82215223f;
    r = r * t + 1.48851587f;
    r = r * t - 1.13520398f;
    r = r * t + 0.27886807f;
    r = r * t - 0.18628806f;
    r = r * t + 0.09678418f;
    r = r * t + 0.37409196f;
    r = r * t + 1.00002368f;
    r = r * t - 1.26551223f;
    return t * ts_expf(r - z * z);
}

static inline float gelu_of(float x)
{
    float q = 0.5f * erfc_pos(ts_vm_float(ts_vm_bits(x) & 0x7fffffffu) * 0.70710678118654752f);
    return x * ts_vm_pick(-(uint32_t)(x >= 0), 1.0f - q, q);
}

/* gelu of n values at h in place, float32 (f32) or bfloat16 */
static DN_VECTORIZE void gelu_rows(void *h, int64_t n, bool f32)
{
    if (f32) {
        float *x = h;
        for (int64_t i = 0; i < n; i++)
            x[i] = gelu_of(x[i]);
        return;
    }
    uint16_t *x = h;
    for (int64_t i = 0; i < n; i++)
        x[i] = dn_float_to_bf16(gelu_of(dn_bf16_to_float(x[i])));
}

/* A layer norm's weight and bias as float32, and its eps. */
typedef struct Norm {
    const float *w, *b;
    float eps;
} Norm;

/* s (n), rounded to the call's dtype as a sum PyTorch keeps is; its layer norm into out
 * (float32 when f32, else bfloat16); s is overwritten. */
static DN_VECTORIZE void norm_row(float *s, int64_t n, const Norm *nm, bool f32, void *out)
{
    float mean = sum_of(s, n) / (float)n;
    float d[LANES] = { 0 }, var = 0;
    int64_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int k = 0; k < LANES; k++)
            d[k] += (s[i + k] - mean) * (s[i + k] - mean);
    for (; i < n; i++)
        var += (s[i] - mean) * (s[i] - mean);
    var += sum_of(d, LANES);
    float inv = 1.0f / sqrtf(var / (float)n + nm->eps);
    for (i = 0; i < n; i++)
        s[i] = (s[i] - mean) * inv * nm->w[i] + nm->b[i];
    store_row(s, n, f32, out);
}

/* Row r of n of x (+ y, y NULL: x alone) into tmp, the sum rounded once to bfloat16 in a
 * bfloat16 call. */
static inline void add_row(const void *x, const void *y, int64_t r, int64_t n, bool f32,
                           float *tmp)
{
    if (f32) {
        const float *a = (const float *)x + r * n, *b = y ? (const float *)y + r * n : NULL;
        if (b)
            for (int64_t i = 0; i < n; i++)
                tmp[i] = a[i] + b[i];
        else
            memcpy(tmp, a, (size_t)n * sizeof *tmp);
        return;
    }
    const uint16_t *a = (const uint16_t *)x + r * n, *b = y ? (const uint16_t *)y + r * n : NULL;
    if (b)
        for (int64_t i = 0; i < n; i++)
            tmp[i] = dn_bf16_to_float(dn_float_to_bf16(dn_bf16_to_float(a[i]) +
                                                       dn_bf16_to_float(b[i])));
    else
        for (int64_t i = 0; i < n; i++)
            tmp[i] = dn_bf16_to_float(a[i]);
}

/* ---- the loops on the runtime's threads ------------------------------------------------- */

/* The rows between the products go to ts_parallel_for in chunks of about this many elements
 * (some tens of microseconds each: a thread's wake-up is worth it); one thread runs them all
 * in place. */
enum { CHUNK_ELEMS = 16384 };

static int64_t grain_of(int64_t per_row) { return CHUNK_ELEMS / (per_row > 0 ? per_row : 1) + 1; }

/* What add_norm's chunks share: rows of n of the call's dtype, s = x + y (y NULL: x), into
 * sum when not NULL, its layer norm into out when nm is not NULL. */
typedef struct AddNorm {
    const void *x, *y;
    int64_t n;
    bool f32;
    void *sum, *out;
    const Norm *nm;
} AddNorm;

static DN_VECTORIZE void add_norm_rows(const AddNorm *j, int64_t r0, int64_t r1, float *tmp)
{
    size_t es = j->f32 ? 4 : 2;
    int64_t n = j->n;
    for (int64_t r = r0; r < r1; r++) {
        add_row(j->x, j->y, r, n, j->f32, tmp);
        if (j->sum)
            store_row(tmp, n, j->f32, (char *)j->sum + (size_t)(r * n) * es);
        if (j->nm)
            norm_row(tmp, n, j->nm, j->f32, (char *)j->out + (size_t)(r * n) * es);
    }
}

static int add_norm_chunk(void *ctx, int64_t r0, int64_t r1, TsError *err)
{
    const AddNorm *j = ctx;
    float *tmp = malloc((size_t)j->n * sizeof *tmp);
    if (!tmp)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    add_norm_rows(j, r0, r1, tmp);
    free(tmp);
    return 0;
}

static int add_norm(const void *x, const void *y, int64_t rows, int64_t n, bool f32, void *sum,
                    const Norm *nm, void *out, TsError *err)
{
    AddNorm j = { x, y, n, f32, sum, out, nm };
    return ts_parallel_for(0, rows, grain_of(n), add_norm_chunk, &j, err);
}

/* gelu of n values of the call's dtype at h, in place. */
typedef struct Gelu {
    char *h;
    bool f32;
} Gelu;

static int gelu_chunk(void *ctx, int64_t i0, int64_t i1, TsError *err)
{
    (void)err;
    const Gelu *j = ctx;
    gelu_rows(j->h + (size_t)i0 * (j->f32 ? 4 : 2), i1 - i0, j->f32);
    return 0;
}

/* The softmax of batch entry b's scores, row r of [H, L] at scores + r L, into probs. */
typedef struct Softmax {
    const Attn *a;
    float *scores;
    char *probs;
    int64_t b;
    float scale;
} Softmax;

static int softmax_chunk(void *ctx, int64_t r0, int64_t r1, TsError *err)
{
    (void)err;
    const Softmax *j = ctx;
    const Attn *a = j->a;
    int64_t L = a->L;
    size_t es = a->f32 ? 4 : 2;
    int64_t keys = seq_len(a, j->b);
    for (int64_t r = r0; r < r1; r++) {
        float *sc = j->scores + r * L;
        if (a->mask)
            mask_row(a, j->b, r / L, r % L, sc);
        for (int64_t s = keys; s < L; s++)   /* a nested sequence's padding */
            sc[s] = -INFINITY;
        softmax_row(sc, L, j->scale, a->f32, j->probs + (size_t)(r * L) * es);
    }
    return 0;
}

/* ---- the products --------------------------------------------------------------------------- */

/* A call's buffers, carved from one block: of the call's dtype but where said. */
typedef struct Work {
    char *qkv;                 /* [R, 3E] */
    float *scores;             /* [H, L, L], float32 */
    char *probs;               /* [H, L, L] */
    char *heads;               /* [H, L, d] */
    char *ctx;                 /* [R, E], the heads side by side */
    char *att;                 /* [R, E], attention's result */
    char *y, *x1, *f;          /* [R, E]: a norm's output, the first residual, the ffn's */
    char *hid;                 /* [R, F] */
    float *norms;              /* 4 x E: the layer norms' weights and biases */
    /* a nested call's: q, k, v and the heads in the padded layout attention's core reads
     * ([B L, 3E], [B L, E]; else the packed ones themselves), its input and result packed */
    char *qkv_pad, *ctx_pad, *xp, *outp;
    void *block;
    size_t bytes;
} Work;

/* Rows of width elements between a's padded layout ([B, L]) and its packed one (the
 * sequences' rows one after another); padding rows become zero. */
static void pack_rows(const Attn *a, const char *pad, char *packed, int64_t width)
{
    size_t row = (size_t)width * (a->f32 ? 4 : 2);
    for (int64_t b = 0, at = 0; b < a->B; at += seq_len(a, b), b++)
        memcpy(packed + (size_t)at * row, pad + (size_t)(b * a->L) * row,
               (size_t)seq_len(a, b) * row);
}

static void unpack_rows(const Attn *a, const char *packed, char *pad, int64_t width)
{
    size_t row = (size_t)width * (a->f32 ? 4 : 2);
    for (int64_t b = 0, at = 0; b < a->B; at += seq_len(a, b), b++) {
        int64_t n = seq_len(a, b);
        memcpy(pad + (size_t)(b * a->L) * row, packed + (size_t)at * row, (size_t)n * row);
        memset(pad + (size_t)(b * a->L + n) * row, 0, (size_t)(a->L - n) * row);
    }
}

/* x (rows of in) @ w^T + b into out (rows of w's rows), post after. */
static int linear(const Attn *a, int nthr, const void *x, int64_t rows, const TsTensor *w,
                  const TsTensor *b, int post, void *out, TsError *err)
{
    DnMat xm = { 1, rows, w->sizes[1], 0, w->sizes[1], 1 };
    DnMat wm = { 1, w->sizes[1], w->sizes[0], 0, w->strides[1], w->strides[0] };
    DnMat bm = { 1, 1, b->sizes[0], 0, 0, b->strides[0] };
    DnKey k;
    if (!dn_matmul_key(&k, a->dt, xm, wm, &bm, true))
        return 1;
    k.nthr = nthr;
    k.post = (uint8_t)post;
    DnMatArgs args = { x, NULL, ts_tensor_data(b), w, out };
    return dn_matmul_exec(&k, &args, err);
}

/* The product of H batches: s (H of m x k, strides ss) @ w (H of k x n, strides ws) into
 * dst, dense, float32 when f32 (as it is in a float32 call). */
static int heads_product(const Attn *a, int nthr, const void *s, DnMat sm, const void *w,
                         DnMat wm, bool f32, void *dst, TsError *err)
{
    DnKey k;
    if (!dn_matmul_key(&k, a->dt, sm, wm, NULL, false))
        return 1;
    k.nthr = nthr;
    k.mm.acc_f32 = f32 && !a->f32;
    DnMatArgs args = { s, w, NULL, NULL, dst };
    return dn_matmul_exec(&k, &args, err);
}

/* Self-attention of x (rows of E) into w->att. */
static int attention(const Attn *a, int nthr, const void *x, Work *w, TsError *err)
{
    int64_t B = a->B, L = a->L, E = a->E, H = a->H, d = E / H;
    size_t es = a->f32 ? 4 : 2;
    int rc = linear(a, nthr, x, a->R, a->p[P_QKV_W], a->p[P_QKV_B], 0, w->qkv, err);
    if (!rc && a->lengths)
        unpack_rows(a, w->qkv, w->qkv_pad, 3 * E);
    float scale = (float)(1 / sqrt((double)d));
    for (int64_t b = 0; b < B && !rc; b++) {
        const char *q = w->qkv_pad + (size_t)(b * L * 3 * E) * es;
        DnMat qm = { H, L, d, d, 3 * E, 1 }, kt = { H, d, L, d, 1, 3 * E };
        rc = heads_product(a, nthr, q, qm, q + (size_t)E * es, kt, true, w->scores, err);
        Softmax sm = { a, w->scores, w->probs, b, scale };
        if (!rc)
            rc = ts_parallel_for(0, H * L, grain_of(L), softmax_chunk, &sm, err);
        DnMat pm = { H, L, L, L * L, L, 1 }, vm = { H, L, d, d, 3 * E, 1 };
        if (!rc)
            rc = heads_product(a, nthr, w->probs, pm, q + (size_t)(2 * E) * es, vm, false,
                               w->heads, err);
        for (int64_t h = 0; h < H && !rc; h++)
            for (int64_t l = 0; l < L; l++)
                memcpy(w->ctx_pad + (size_t)((b * L + l) * E + h * d) * es,
                       w->heads + (size_t)((h * L + l) * d) * es, (size_t)d * es);
    }
    if (!rc && a->lengths)
        pack_rows(a, w->ctx_pad, w->ctx, E);
    return rc ? rc : linear(a, nthr, w->ctx, a->R, a->p[P_PROJ_W], a->p[P_PROJ_B], 0, w->att,
                            err);
}

/* Element j of t, a float32 or bfloat16 vector, as float32. */
static float param_at(const TsTensor *t, int64_t j)
{
    const char *p = (const char *)ts_tensor_data(t);
    if (t->dtype == TS_FLOAT32) {
        float f;
        memcpy(&f, p + j * t->strides[0] * 4, sizeof f);
        return f;
    }
    uint16_t b;
    memcpy(&b, p + j * t->strides[0] * 2, sizeof b);
    return dn_bf16_to_float(b);
}

/* A layer norm's parameters p[i], p[i + 1] as float32 at f. */
static Norm norm_of(const Attn *a, int i, float *f)
{
    const TsTensor *nw = a->p[i], *nb = a->p[i + 1];
    for (int64_t j = 0; j < a->E; j++) {
        f[j] = param_at(nw, j);
        f[a->E + j] = param_at(nb, j);
    }
    return (Norm){ f, f + a->E, a->eps };
}

/* The encoder layer of x into out, as aten-cpu's: attention, residual, norm and the
 * feed-forward block, in norm_first order or not. */
static int encoder_layer(const Attn *a, int nthr, const void *x, Work *w, void *out,
                         TsError *err)
{
    int64_t rows = a->R, E = a->E;
    void *padded_out = out;
    if (a->lengths) {          /* the layer runs over the packed rows */
        pack_rows(a, x, w->xp, E);
        x = w->xp;
        out = w->outp;
    }
    bool f32 = a->f32;
    Norm n1 = norm_of(a, P_N1W, w->norms), n2 = norm_of(a, P_N2W, w->norms + 2 * E);
    int rc = 0;
    if (a->norm_first) {
        rc = add_norm(x, NULL, rows, E, f32, NULL, &n1, w->y, err);
        if (!rc)
            rc = attention(a, nthr, w->y, w, err);
        if (!rc)
            rc = add_norm(x, w->att, rows, E, f32, w->x1, &n2, w->y, err);
    } else {
        rc = attention(a, nthr, x, w, err);
        if (!rc)
            rc = add_norm(x, w->att, rows, E, f32, NULL, &n1, w->x1, err);
    }
    const void *in = a->norm_first ? w->y : w->x1;
    if (!rc)
        rc = linear(a, nthr, in, rows, a->p[P_F1W], a->p[P_F1B], a->gelu ? 0 : DN_POST_RELU,
                    w->hid, err);
    Gelu g = { w->hid, f32 };
    if (!rc && a->gelu)
        rc = ts_parallel_for(0, rows * a->F, CHUNK_ELEMS, gelu_chunk, &g, err);
    if (!rc)
        rc = linear(a, nthr, w->hid, rows, a->p[P_F2W], a->p[P_F2B], 0, w->f, err);
    if (!rc && a->norm_first)
        rc = add_norm(w->x1, w->f, rows, E, f32, out, NULL, NULL, err);
    else if (!rc)
        rc = add_norm(w->x1, w->f, rows, E, f32, NULL, &n2, out, err);
    if (!rc && a->lengths)
        unpack_rows(a, w->outp, padded_out, E);
    return rc;
}

/* ---- running a call --------------------------------------------------------------------- */

/* The buffers of a, from the cpu allocator; false when out of memory. */
static bool work_get(TsAllocator *alloc, const Attn *a, Work *w)
{
    int64_t rows = a->R, E = a->E, LL = a->H * a->L * a->L, es = a->f32 ? 4 : 2;
    int64_t pad = a->lengths ? a->B * a->L : 0;   /* the nested call's padded buffers */
    int64_t sizes[] = { rows * 3 * E * es, LL * 4, LL * es, a->L * E * es, rows * E * es,
                        rows * E * es, rows * E * es, rows * E * es, rows * E * es,
                        rows * a->F * es, 4 * E * 4, pad * 3 * E * es, pad * E * es,
                        (pad ? rows : 0) * E * es, (pad ? rows : 0) * E * es };
    void **at[] = { (void **)&w->qkv, (void **)&w->scores, (void **)&w->probs,
                    (void **)&w->heads, (void **)&w->ctx, (void **)&w->att, (void **)&w->y,
                    (void **)&w->x1, (void **)&w->f, (void **)&w->hid, (void **)&w->norms,
                    (void **)&w->qkv_pad, (void **)&w->ctx_pad, (void **)&w->xp,
                    (void **)&w->outp };
    size_t n = sizeof sizes / sizeof *sizes, bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += ((size_t)sizes[i] + 63) & ~(size_t)63;
    TsDevice cpu = { TS_DEV_CPU, -1 };
    w->block = alloc->alloc(alloc, bytes + 64, cpu);
    w->bytes = bytes + 64;
    if (!w->block)
        return false;
    char *p = (char *)(((uintptr_t)w->block + 63) & ~(uintptr_t)63);
    for (size_t i = 0; i < n; i++) {
        *at[i] = p;
        p += ((size_t)sizes[i] + 63) & ~(size_t)63;
    }
    if (!pad) {                /* one layout: the core reads the packed rows as they are */
        w->qkv_pad = w->qkv;
        w->ctx_pad = w->ctx;
    }
    return true;
}

/* A nested result of a's shape, dtype and lengths (aten-cpu's layout, its flag set). */
static TsTensor *nested_new(TsAllocator *alloc, const Attn *a, TsError *err)
{
    TsDevice cpu = { TS_DEV_CPU, -1 };
    size_t data = (size_t)(a->B * a->L * a->E) * (a->f32 ? 4 : 2);
    size_t lens = (size_t)a->B * sizeof(int64_t);
    TsStorage *st = ts_storage_new(alloc, data + lens, cpu, err);
    if (!st)
        return NULL;
    memcpy((char *)st->data + data, a->lengths, lens);
    TsTensor *t = ts_tensor_new(st, a->f32 ? TS_FLOAT32 : TS_BFLOAT16, 3, a->x->sizes, NULL, 0,
                                err);
    ts_storage_release(st);
    if (t)
        t->flags |= DN_FLAG_CPU_NESTED;
    return t;
}

/* The result of a into a new tensor *o: 0, 1 when oneDNN cannot make a product (nothing
 * touched), or an error code. */
static int run(TsCall *c, const Attn *a, TsTensor **o)
{
    TsError *err = c->error;
    TsAllocator *alloc = ts_runtime_allocator(c->runtime, TS_DEV_CPU);
    TsDevice cpu = { TS_DEV_CPU, -1 };
    Work w;
    *o = NULL;
    if (!work_get(alloc, a, &w))
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    *o = a->lengths ? nested_new(alloc, a, err)
                    : ts_tensor_empty(alloc, cpu, a->f32 ? TS_FLOAT32 : TS_BFLOAT16, 3,
                                      a->x->sizes, err);
    int rc = *o ? 0 : (int)err->code;
    if (!rc) {
        int nthr = dn_threads_begin();
        const void *x = ts_tensor_data(a->x);
        if (a->layer) {
            rc = encoder_layer(a, nthr, x, &w, ts_tensor_data(*o), err);
        } else {
            rc = attention(a, nthr, x, &w, err);
            if (!rc)
                memcpy(ts_tensor_data(*o), w.att,
                       (size_t)(a->B * a->L * a->E) * (a->f32 ? 4 : 2));
        }
        dn_threads_end(nthr);
    }
    alloc->free(alloc, w.block, w.bytes, cpu);
    if (rc && *o) {
        ts_tensor_release(*o);
        *o = NULL;
    }
    return rc;
}

/* ---- the kernels ------------------------------------------------------------------------ */

enum { MHA, LAYER };

/* aten-cpu's kernels, which take the calls this file does not. */
static _Atomic(TsKernelFn) replaced[2];

/* The kernel of op (MHA or LAYER) with n arguments that read reads. */
static int call(TsCall *c, int op, size_t n, bool (*read)(const TsValue *v, Attn *a))
{
    TsKernelFn prev = atomic_load_explicit(&replaced[op], memory_order_relaxed);
    Attn a;
    if (c->stack->len < n || !read(ts_stack_arg(c->stack, n, 0), &a) || !dn_lib_open())
        return prev(c);
    TsTensor *o = NULL;
    int rc = run(c, &a, &o);
    if (rc == 1)
        return prev(c);
    ts_stack_drop(c->stack, n);
    if (rc)
        return rc;
    rc = ts_stack_push(c->stack, ts_obj_value(o, TS_TAG_TENSOR), c->error);
    if (!rc && op == MHA)              /* no weights asked for: None, as aten-cpu's */
        rc = ts_stack_push(c->stack, ts_none(), c->error);
    return rc;
}

static int k_mha(TsCall *c) { return call(c, MHA, 13, read_mha); }
static int k_layer(TsCall *c) { return call(c, LAYER, 20, read_layer); }

int dn_register_attention(TsRegistry *r, TsError *err)
{
    int rc = dn_override(r, "aten::_native_multi_head_attention", k_mha, &replaced[MHA], err);
    return rc ? rc : dn_override(r, "aten::_transformer_encoder_layer_fwd", k_layer,
                                 &replaced[LAYER], err);
}
