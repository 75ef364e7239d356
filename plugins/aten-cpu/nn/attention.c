/* attention.c — the fused fast paths of torch.nn.MultiheadAttention and
 * TransformerEncoderLayer: aten::_native_multi_head_attention and
 * aten::_transformer_encoder_layer_fwd. PyTorch takes them when grad is off, the modules are
 * in eval() and batch_first, so a scripted model run under torch.no_grad() calls them.
 *
 * Attention is done per batch and head with GEMMs on strided views: the packed in-projection
 * (q, k and v rows of qkv_weight) makes [batch*len, embed] rows, the queries are scaled by
 * 1/sqrt(head_dim) after their bias, scores = q k^T, a mask sets -inf (mask_type 1: a
 * key padding mask [batch, len], True = ignore; 0: a mask broadcast to [batch, heads, len,
 * len]; float masks count nonzero as True, as PyTorch converts them), softmax over the keys
 * (a row with every key masked is NaN, as in PyTorch), then the values and the
 * out-projection. The weights come back averaged over the heads or per head, or None when
 * not asked for (or when there is nothing to attend, as PyTorch returns). The encoder layer
 * is attention, add, layer norm and the feed-forward block (relu or exact gelu), in
 * norm_first order or not; given a nested tensor (nested.h, what nn.TransformerEncoder makes
 * of a padded batch) each sequence attends within its length and the result is nested too.
 * float32 and float64 compute in their type, bfloat16 in float32.
 *
 * Everything but the GEMMs is a loop over contiguous rows written once per computing dtype
 * (the float32 one vectorizes: vmath.h's exp in the softmax), since these loops ran element
 * by element through doubles and took three quarters of an encoder layer's time. A bias is
 * written into the first output row, copied to the others, and the GEMM adds onto them.
 * Scratch buffers come from the allocator's block cache, as tensors do (block_cache.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nested.h"
#include "nn/nn.h"
#include "reduce/reduce.h"
#include "vmath.h"

/* A row-major matrix block of a contiguous buffer: rows x cols with row stride ld. */
static TsNnMat block(const void *base, int dtype, int64_t off, int64_t rows, int64_t cols,
                     int64_t ld)
{
    TsNnMat m = { (const char *)base + off * (int64_t)ts_dtype_size(dtype), rows, cols, ld, 1 };
    return m;
}

/* w^T of a weight rows [r0, r0 + n) of w (out x in, any strides). */
static TsNnMat rows_t(const TsTensor *w, int64_t r0, int64_t n)
{
    TsNnMat m = { (const char *)ts_tensor_data(w) +
                      r0 * w->strides[0] * (int64_t)ts_dtype_size(w->dtype),
                  w->sizes[1], n, w->strides[1], w->strides[0] };
    return m;
}

static double get(int dt, const void *p, int64_t i) { return ts_nn_get(dt, p, i); }
static void set(int dt, void *p, int64_t i, double v) { ts_nn_set(dt, p, i, v); }

/* ---- row loops, per computing dtype ------------------------------------------------------ */

/* out (rows x n, contiguous) = b[r0:r0+n] in every row (zeros without b). */
static void fill_bias(int dt, void *out, int64_t rows, int64_t n, const TsTensor *b, int64_t r0)
{
    size_t row = (size_t)n * ts_dtype_size(dt);
    if (!b) {
        memset(out, 0, row * (size_t)rows);
        return;
    }
    const char *bd = ts_tensor_data(b);
    for (int64_t j = 0; j < n; j++)
        set(dt, out, j, ts_cpu_load_double(b->dtype, bd + (r0 + j) * b->strides[0] *
                                                          (int64_t)ts_dtype_size(b->dtype)));
    for (int64_t i = 1; i < rows; i++)
        memcpy((char *)out + (size_t)i * row, out, row);
}

TS_VM_VECTORIZE static void scale_all(int dt, void *x, int64_t n, double s)
{
    if (dt == TS_FLOAT32) {
        float *f = x, fs = (float)s;
        for (int64_t i = 0; i < n; i++)
            f[i] *= fs;
    } else {
        double *d = x;
        for (int64_t i = 0; i < n; i++)
            d[i] *= s;
    }
}

TS_VM_VECTORIZE static void add_into(int dt, void *dst, const void *src, int64_t n)
{
    if (dt == TS_FLOAT32) {
        float *d = dst;
        const float *s = src;
        for (int64_t i = 0; i < n; i++)
            d[i] += s[i];
    } else {
        double *d = dst;
        const double *s = src;
        for (int64_t i = 0; i < n; i++)
            d[i] += s[i];
    }
}

static void softmax_f64(double *x, int64_t n)
{
    double mx = -INFINITY, sum = 0;
    for (int64_t i = 0; i < n; i++)
        mx = x[i] > mx ? x[i] : mx;
    for (int64_t i = 0; i < n; i++) {
        x[i] = exp(x[i] - mx);
        sum += x[i];
    }
    for (int64_t i = 0; i < n; i++)
        x[i] /= sum;
}

/* relu, or gelu (exact, through erf), in place. float32's relu reads the sign bit (a
 * branch on random signs mispredicts every other element): x stays when it is not negative
 * or is a NaN, else becomes 0. */
TS_VM_VECTORIZE static void activate(int dt, void *x, int64_t n, bool gelu)
{
    if (dt == TS_FLOAT32) {
        float *f = x;
        if (gelu)
            for (int64_t i = 0; i < n; i++)
                f[i] = 0.5f * f[i] * (1.0f + erff(f[i] * 0.70710678118654752f));
        else
            for (int64_t i = 0; i < n; i++) {
                uint32_t u = ts_vm_bits(f[i]);
                f[i] = ts_vm_pick(-(uint32_t)(u < 0x80000000u || u > 0xff800000u), f[i], 0.0f);
            }
    } else {
        double *d = x;
        for (int64_t i = 0; i < n; i++)
            d[i] = gelu ? 0.5 * d[i] * (1 + erf(d[i] / sqrt(2.0))) : d[i] > 0 || d[i] != d[i] ? d[i] : 0;
    }
}

/* out (rows x n, contiguous) = x (rows x in, contiguous) @ w[r0:r0+n]^T + b[r0:r0+n]. */
static int linear(TsError *err, int dt, const void *x, int64_t rows, int64_t in,
                  const TsTensor *w, const TsTensor *b, int64_t r0, int64_t n, void *out)
{
    if (rows == 0 || n == 0)
        return 0;
    fill_bias(dt, out, rows, n, b, r0);
    TsNnMat xm = block(x, dt, 0, rows, in, in), wm = rows_t(w, r0, n);
    return ts_nn_gemm(dt, 1.0, &xm, &wm, 1.0, out, n, err);
}

/* The attention inputs and options of one call. */
typedef struct Mha {
    int dt;                                   /* computing dtype */
    int64_t B, L, E, H;
    const TsTensor *qkv_w, *qkv_b, *proj_w, *proj_b, *mask;
    int64_t mask_type;                        /* -1: none */
    const int64_t *lengths;                   /* a nested input's: keys past them are out */
    bool need_weights, average;
} Mha;

/* Whether key s of query l in batch b, head h is masked out. */
static bool masked(const Mha *m, int64_t b, int64_t h, int64_t l, int64_t s)
{
    const TsTensor *k = m->mask;
    if (m->lengths && s >= m->lengths[b])
        return true;
    if (!k)
        return false;
    int64_t idx[4] = { b, h, l, s }, off = k->offset;
    if (m->mask_type == 1) {
        off += b * (k->dim == 2 ? k->strides[0] : 0) + s * k->strides[k->dim - 1];
    } else {
        for (int d = 0; d < k->dim; d++) {
            int64_t i = idx[4 - k->dim + d];
            off += k->sizes[d] == 1 ? 0 : i * k->strides[d];
        }
    }
    const char *p = (const char *)k->storage->data + off * (int64_t)ts_dtype_size(k->dtype);
    return ts_cpu_load_double(k->dtype, p) != 0;
}

/* Attention of q (B*L rows of E, ld elements apart, as are k and v) against the keys k and
 * values v into out (B*L x E), the softmax weights into w ([B, H, L, L] entries, or NULL). */
static int attend(TsError *err, const Mha *m, const void *q, const void *k, const void *v,
                  int64_t ld, void *out, void *w)
{
    int dt = m->dt;
    int64_t L = m->L, E = m->E, d = E / m->H;
    size_t sc_bytes = (size_t)(L * L) * ts_dtype_size(dt) + 1;
    void *sc = ts_cpu_block_alloc(sc_bytes);
    if (!sc)
        return ts_error_set(err, TS_ERR_NOMEM, "_native_multi_head_attention: out of memory");
    int rc = 0;
    for (int64_t b = 0; b < m->B && !rc; b++)
        for (int64_t h = 0; h < m->H && !rc; h++) {
            int64_t base = b * L * ld + h * d;
            TsNnMat qm = block(q, dt, base, L, d, ld);
            TsNnMat kt = { (const char *)k + base * (int64_t)ts_dtype_size(dt), d, L, 1, ld };
            if ((rc = ts_nn_gemm(dt, 1.0, &qm, &kt, 0.0, sc, L, err)))
                break;
            for (int64_t l = 0; l < L; l++) {
                if (m->mask || m->lengths)
                    for (int64_t s = 0; s < L; s++)
                        if (masked(m, b, h, l, s))
                            set(dt, sc, l * L + s, -INFINITY);
                if (dt == TS_FLOAT32)
                    ts_cpu_softmax_f32((float *)sc + l * L, L, false);
                else
                    softmax_f64((double *)sc + l * L, L);
            }
            if (w)
                memcpy((char *)w + ((b * m->H + h) * L * L) * (int64_t)ts_dtype_size(dt), sc,
                       (size_t)(L * L) * ts_dtype_size(dt));
            TsNnMat pm = block(sc, dt, 0, L, L, L), vm = block(v, dt, base, L, d, ld);
            rc = ts_nn_gemm(dt, 1.0, &pm, &vm, 0.0,
                            (char *)out + (b * L * E + h * d) * (int64_t)ts_dtype_size(dt), E,
                            err);
        }
    ts_cpu_block_free(sc, sc_bytes);
    return rc;
}

/* Multi-head attention of x against itself (q, k and v the same buffer) or of q against k
 * and v (all B x L x E contiguous in the computing dtype) into out (B*L x E, after the
 * out-projection); weights into *weights when asked for. Self-attention projects q, k and v
 * in one GEMM against the whole packed weight, into rows of 3E that attend reads in place. */
static int mha(TsError *err, const Mha *m, const void *q, const void *k, const void *v,
               void *out, TsTensor **weights)
{
    int dt = m->dt;
    int64_t rows = m->B * m->L, E = m->E;
    bool self = q == k && k == v;
    size_t bytes = (size_t)(rows * E) * ts_dtype_size(dt) + 1;
    size_t q_bytes = self ? 3 * bytes : bytes;
    char *qp = ts_cpu_block_alloc(q_bytes), *kp = self ? NULL : ts_cpu_block_alloc(bytes);
    char *vp = self ? NULL : ts_cpu_block_alloc(bytes), *ap = ts_cpu_block_alloc(bytes);
    void *wbuf = NULL;
    int rc = qp && (self || (kp && vp)) && ap ? 0 : ts_error_set(err, TS_ERR_NOMEM,
                                                      "_native_multi_head_attention: out of "
                                                      "memory");
    if (!rc && m->need_weights) {
        int64_t ws[4] = { m->B, m->H, m->L, m->L };
        TsTensor *wt = ts_cpu_empty(dt, 4, ws, err);
        if (!wt)
            rc = err->code;
        else {
            *weights = wt;
            wbuf = ts_tensor_data(wt);
        }
    }
    int64_t ld = self ? 3 * E : E;
    if (!rc && self) {
        rc = linear(err, dt, q, rows, E, m->qkv_w, m->qkv_b, 0, 3 * E, qp);
    } else if (!rc) {
        rc = linear(err, dt, q, rows, E, m->qkv_w, m->qkv_b, 0, E, qp) ||
             linear(err, dt, k, rows, E, m->qkv_w, m->qkv_b, E, E, kp) ||
             linear(err, dt, v, rows, E, m->qkv_w, m->qkv_b, 2 * E, E, vp) ? (int)err->code : 0;
    }
    if (!rc) {
        size_t es = ts_dtype_size(dt);
        double scale = 1 / sqrt((double)(E / m->H));
        for (int64_t r = 0; r < rows; r++)
            scale_all(dt, qp + (size_t)(r * ld) * es, E, scale);
        rc = attend(err, m, qp, self ? qp + (size_t)E * es : kp,
                    self ? qp + (size_t)(2 * E) * es : vp, ld, ap, wbuf);
    }
    if (!rc)
        rc = linear(err, dt, ap, rows, E, m->proj_w, m->proj_b, 0, E, out);
    ts_cpu_block_free(qp, q_bytes);
    ts_cpu_block_free(kp, bytes);
    ts_cpu_block_free(vp, bytes);
    ts_cpu_block_free(ap, bytes);
    return rc;
}

/* The weights [B, H, L, L] as PyTorch returns them: averaged over the heads, or as they are. */
static TsTensor *finish_weights(TsError *err, const Mha *m, TsTensor *w, int dtype)
{
    TsTensor *r = w;
    if (m->average) {
        int64_t s[3] = { m->B, m->L, m->L }, n = m->L * m->L;
        r = ts_cpu_empty(m->dt, 3, s, err);
        for (int64_t b = 0; r && b < m->B; b++)
            for (int64_t i = 0; i < n; i++) {
                double acc = 0;
                for (int64_t h = 0; h < m->H; h++)
                    acc += get(m->dt, ts_tensor_data(w), (b * m->H + h) * n + i);
                set(m->dt, ts_tensor_data(r), b * n + i, acc / (double)m->H);
            }
        ts_tensor_release(w);
    }
    if (r && r->dtype != dtype) {
        TsTensor *c = ts_cpu_cast(r, dtype, err);
        ts_tensor_release(r);
        r = c;
    }
    return r;
}

/* ---- checks ----------------------------------------------------------------------------- */

static int check_mha(TsError *err, const TsTensor *q, const TsTensor *k, const TsTensor *v,
                     int64_t E, int64_t H, const TsTensor *const *params, int n_params)
{
    if (q->dim != 3)
        return ts_error_set(err, TS_ERR_RUNTIME, "expected 3-D `query`, got %d-D tensor",
                            (int)q->dim);
    if (k->dim != 3 || v->dim != 3 || memcmp(q->sizes, k->sizes, 3 * sizeof *q->sizes) ||
        memcmp(q->sizes, v->sizes, 3 * sizeof *q->sizes))
        return ts_error_set(err, TS_ERR_RUNTIME, "expected `query`/`key`/`value` shapes to "
                            "match");
    if (q->sizes[2] != E)
        return ts_error_set(err, TS_ERR_RUNTIME, "passed-in embed_dim %lld didn't match last "
                            "dim of query %lld", (long long)E, (long long)q->sizes[2]);
    if (H <= 0 || E % H)
        return ts_error_set(err, TS_ERR_RUNTIME, "`embed_dim` must divide evenly by `num_heads`");
    for (int i = 0; i < n_params; i++)
        if (params[i] && params[i]->dtype != q->dtype)
            return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                                ts_dtype_type_name(q->dtype),
                                ts_dtype_type_name(params[i]->dtype));
    if (q->dtype != TS_FLOAT32 && q->dtype != TS_FLOAT64 && q->dtype != TS_BFLOAT16)
        return ts_error_set(err, TS_ERR_RUNTIME, "\"addmm_impl_cpu_\" not implemented for '%s'",
                            ts_dtype_type_name(q->dtype));
    const TsTensor *w[2] = { params[0], params[2] };
    int64_t want[2] = { 3 * E, E };
    for (int i = 0; i < 2; i++)
        if (w[i]->dim != 2 || w[i]->sizes[0] != want[i] || w[i]->sizes[1] != E)
            return ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied "
                                "(%lldx%lld and %lldx%lld)",
                                (long long)(q->sizes[0] * q->sizes[1]), (long long)E,
                                (long long)(w[i]->dim == 2 ? w[i]->sizes[1] : 0),
                                (long long)w[i]->sizes[0]);
    const TsTensor *b[2] = { params[1], params[3] };
    for (int i = 0; i < 2; i++)
        if (b[i] && (b[i]->dim != 1 || b[i]->sizes[0] != want[i]))
            return ts_error_set(err, TS_ERR_RUNTIME, "The size of tensor a (%lld) must match the "
                                "size of tensor b (%lld) at non-singleton dimension 1",
                                (long long)want[i], (long long)(b[i]->dim ? b[i]->sizes[0] : 1));
    return 0;
}

static int check_mask(TsError *err, const Mha *m)
{
    const TsTensor *k = m->mask;
    if (!k)
        return 0;
    if (m->mask_type < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "Mask Type should be defined");
    if (m->mask_type == 1) {
        if (k->dim != 2 || k->sizes[0] != m->B)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected attn_mask->sizes()[0] == "
                                "batch_size to be true, but got false.  (Could this error message "
                                "be improved?  If so, please report an enhancement request to "
                                "PyTorch.)");
        if (k->sizes[1] != m->L)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected attn_mask->sizes()[1] == seq_len "
                                "to be true, but got false.  (Could this error message be "
                                "improved?  If so, please report an enhancement request to "
                                "PyTorch.)");
        return 0;
    }
    int64_t full[4] = { m->B, m->H, m->L, m->L };
    bool ok = k->dim <= 4;
    for (int d = 0; ok && d < k->dim; d++)
        ok = k->sizes[d] == 1 || k->sizes[d] == full[4 - k->dim + d];
    if (!ok)
        return ts_error_set(err, TS_ERR_RUNTIME, "Mask shape should match input shape");
    return 0;
}

/* Contiguous copies (or the tensors themselves) in the computing dtype. */
static int inputs(TsError *err, int dt, int n, TsTensor *const *in, TsTensor **out)
{
    for (int i = 0; i < n; i++) {
        out[i] = in[i]->dtype == dt ? ts_nn_contiguous(in[i], err) : ts_cpu_cast(in[i], dt, err);
        if (!out[i]) {
            while (i-- > 0)
                ts_tensor_release(out[i]);
            return err->code;
        }
    }
    return 0;
}

/* The parameters in the computing dtype: cast copies when it differs (owned[] holds them). */
static int params_as(TsError *err, int dt, int n, const TsTensor **p, TsTensor **owned)
{
    for (int i = 0; i < n; i++) {
        owned[i] = NULL;
        if (p[i] && p[i]->dtype != dt) {
            if (!(owned[i] = ts_cpu_cast(p[i], dt, err)))
                return err->code;
            p[i] = owned[i];
        }
    }
    return 0;
}

static void release_all(int n, TsTensor **t)
{
    for (int i = 0; i < n; i++)
        if (t[i])
            ts_tensor_release(t[i]);
}

/* ---- aten::_native_multi_head_attention ----------------------------------------------- */

/* (Tensor query, Tensor key, Tensor value, int embed_dim, int num_head, Tensor qkv_weight,
 *  Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, Tensor? mask=None,
 *  bool need_weights=True, bool average_attn_weights=True, int? mask_type=None)
 *  -> (Tensor, Tensor) */
static int k_native_mha(TsCall *c)
{
    TsError *err = c->error;
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *t[9] = { NULL }, *mask = NULL, *out = NULL, *w = NULL, *in[3] = { NULL };
    TsTensor *owned[4] = { NULL };
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    int rc = 0;
    for (int i = 0; i < 9 && !rc; i++)
        if (i != 3 && i != 4)          /* embed_dim and num_head are ints */
            rc = ts_args_tensor(&args, (size_t)i, &t[i]);
    if (!rc)
        rc = ts_args_opt_tensor(&args, 9, &mask);
    const TsTensor *p[4] = { t[5], t[6], t[7], t[8] };
    Mha m = { 0 };
    if (!rc)
        rc = check_mha(err, t[0], t[1], t[2], ts_nn_int(a[3]), ts_nn_int(a[4]), p, 4);
    if (!rc) {
        m.dt = t[0]->dtype == TS_BFLOAT16 ? TS_FLOAT32 : t[0]->dtype;
        m.B = t[0]->sizes[0];
        m.L = t[0]->sizes[1];
        m.E = ts_nn_int(a[3]);
        m.H = ts_nn_int(a[4]);
        m.mask = mask;
        m.mask_type = a[12].tag == TS_TAG_INT ? a[12].u.i : -1;
        m.need_weights = a[10].tag == TS_TAG_BOOL && a[10].u.b;
        m.average = a[11].tag == TS_TAG_BOOL && a[11].u.b;
        rc = check_mask(err, &m);
    }
    if (!rc && !(rc = params_as(err, m.dt, 4, p, owned)) &&
        !(rc = inputs(err, m.dt, 3, t, in))) {
        m.qkv_w = p[0];
        m.qkv_b = p[1];
        m.proj_w = p[2];
        m.proj_b = p[3];
        if (m.B * m.L == 0)
            m.need_weights = false;     /* PyTorch returns no weights for an empty input */
        int64_t s[3] = { m.B, m.L, m.E };
        out = ts_cpu_empty(m.dt, 3, s, err);
        rc = out ? mha(err, &m, ts_tensor_data(in[0]), ts_tensor_data(in[1]),
                       ts_tensor_data(in[2]), ts_tensor_data(out), &w) : (int)err->code;
        if (!rc && w && !(w = finish_weights(err, &m, w, t[0]->dtype)))
            rc = err->code;
        if (!rc && out->dtype != t[0]->dtype) {
            TsTensor *r = ts_cpu_cast(out, t[0]->dtype, err);
            ts_tensor_release(out);
            out = r;
            rc = r ? 0 : (int)err->code;
        }
    }
    release_all(3, in);
    release_all(4, owned);
    ts_args_release(&args);            /* the results follow */
    if (!rc) {
        rc = ts_stack_push(c->stack, ts_obj_value(out, TS_TAG_TENSOR), err);
        out = NULL;
        if (!rc)
            rc = ts_stack_push(c->stack, w ? ts_obj_value(w, TS_TAG_TENSOR) : ts_none(), err);
        w = NULL;
    }
    if (out)
        ts_tensor_release(out);
    if (w)
        ts_tensor_release(w);
    return rc;
}

/* ---- aten::_transformer_encoder_layer_fwd ------------------------------------------------ */

/* Layer norm of each row of x (rows x n) in place: mean and variance summed in double. */
static void layer_norm(int dt, void *x, int64_t rows, int64_t n, const TsTensor *w,
                       const TsTensor *b, double eps)
{
    const char *wd = ts_tensor_data(w), *bd = ts_tensor_data(b);
    int64_t ws = w->strides[0], bs = b->strides[0];
    for (int64_t i = 0; i < rows; i++) {
        double mean = 0, var = 0;
        if (dt == TS_FLOAT32) {
            float *r = (float *)x + i * n;
            for (int64_t j = 0; j < n; j++)
                mean += r[j];
            mean /= (double)n;
            for (int64_t j = 0; j < n; j++)
                var += ((double)r[j] - mean) * ((double)r[j] - mean);
            float fm = (float)mean, inv = (float)(1 / sqrt(var / (double)n + eps));
            if (ws == 1 && bs == 1)
                for (int64_t j = 0; j < n; j++)
                    r[j] = (r[j] - fm) * inv * ((const float *)wd)[j] + ((const float *)bd)[j];
            else
                for (int64_t j = 0; j < n; j++)
                    r[j] = (r[j] - fm) * inv * ((const float *)wd)[j * ws] +
                           ((const float *)bd)[j * bs];
            continue;
        }
        double *r = (double *)x + i * n;
        for (int64_t j = 0; j < n; j++)
            mean += r[j];
        mean /= (double)n;
        for (int64_t j = 0; j < n; j++)
            var += (r[j] - mean) * (r[j] - mean);
        double inv = 1 / sqrt(var / (double)n + eps);
        for (int64_t j = 0; j < n; j++)
            r[j] = (r[j] - mean) * inv * ((const double *)wd)[j * ws] + ((const double *)bd)[j * bs];
    }
}

/* The encoder layer's tensors, in schema order from src's position. */
enum { L_QKV_W, L_QKV_B, L_PROJ_W, L_PROJ_B, L_N1W, L_N1B, L_N2W, L_N2B, L_F1W, L_F1B, L_F2W,
       L_F2B, L_COUNT };

/* x (rows x E) += the feed-forward block of y (rows x E); hid: rows x F scratch. */
static int feed_forward(TsError *err, int dt, void *x, const void *y, int64_t rows, int64_t E,
                        const TsTensor *const *p, bool gelu, void *hid, void *tmp)
{
    int64_t F = p[L_F1W]->sizes[0];
    if (linear(err, dt, y, rows, E, p[L_F1W], p[L_F1B], 0, F, hid))
        return err->code;
    activate(dt, hid, rows * F, gelu);
    if (linear(err, dt, hid, rows, F, p[L_F2W], p[L_F2B], 0, E, tmp))
        return err->code;
    add_into(dt, x, tmp, rows * E);
    return 0;
}

/* A nested batch's rows (m->lengths) between its padded layout in x ([B, L] rows of E) and
 * the sequences' rows one after another at its front, in place: packing moves each
 * sequence to an offset no later than its own, and never past the next one's start, so
 * going forward overwrites nothing unread; unpacking goes backward for the same reason. */
static int64_t pack_nested(const Mha *m, char *x, size_t row)
{
    int64_t at = 0;
    for (int64_t b = 0; b < m->B; b++) {
        memmove(x + (size_t)at * row, x + (size_t)(b * m->L) * row, (size_t)m->lengths[b] * row);
        at += m->lengths[b];
    }
    return at;
}

static void unpack_nested(const Mha *m, char *x, size_t row, int64_t packed)
{
    for (int64_t b = m->B, at = packed; b-- > 0;) {
        at -= m->lengths[b];
        memmove(x + (size_t)(b * m->L) * row, x + (size_t)at * row, (size_t)m->lengths[b] * row);
    }
}

static int encoder_layer(TsError *err, Mha *m, const TsTensor *const *p, bool gelu,
                         bool norm_first, double eps, void *x)
{
    int dt = m->dt;
    int64_t rows = m->B * m->L, E = m->E, F = p[L_F1W]->sizes[0];
    size_t es = ts_dtype_size(dt), bytes = (size_t)(rows * E) * es + 1;
    size_t hid_bytes = (size_t)(rows * F) * es + 1;
    char *y = ts_cpu_block_alloc(bytes), *att = ts_cpu_block_alloc(bytes);
    char *hid = ts_cpu_block_alloc(hid_bytes);
    int rc = y && att && hid ? 0 : ts_error_set(err, TS_ERR_NOMEM, "_transformer_encoder_layer_"
                                                "fwd: out of memory");
    if (!rc) {
        memcpy(y, x, bytes - 1);
        if (norm_first)
            layer_norm(dt, y, rows, E, p[L_N1W], p[L_N1B], eps);
        rc = mha(err, m, y, y, y, att, NULL);
    }
    if (!rc) {
        add_into(dt, x, att, rows * E);
        if (!norm_first)
            layer_norm(dt, x, rows, E, p[L_N1W], p[L_N1B], eps);
        /* row by row from here: a nested batch's padding rows need not be computed (the
         * caller zeroes them), so its sequences' rows go first, packed */
        if (m->lengths)
            rows = pack_nested(m, x, (size_t)E * es);
        memcpy(y, x, (size_t)(rows * E) * es);
        if (norm_first)
            layer_norm(dt, y, rows, E, p[L_N2W], p[L_N2B], eps);
        rc = feed_forward(err, dt, x, y, rows, E, p, gelu, hid, att);
    }
    if (!rc && !norm_first)
        layer_norm(dt, x, rows, E, p[L_N2W], p[L_N2B], eps);
    if (!rc && m->lengths)
        unpack_nested(m, x, (size_t)E * es, rows);
    ts_cpu_block_free(y, bytes);
    ts_cpu_block_free(att, bytes);
    ts_cpu_block_free(hid, hid_bytes);
    return rc;
}

/* The feed-forward weights against each other, and every vector against its width. */
static int check_layer(TsError *err, const TsTensor *const *p, int64_t rows, int64_t E)
{
    const TsTensor *f1 = p[L_F1W], *f2 = p[L_F2W];
    int64_t F = f1->dim == 2 ? f1->sizes[0] : 0;
    if (f1->dim != 2 || f1->sizes[1] != E)
        return ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied "
                            "(%lldx%lld and %lldx%lld)", (long long)rows, (long long)E,
                            (long long)(f1->dim == 2 ? f1->sizes[1] : 0), (long long)F);
    if (f2->dim != 2 || f2->sizes[1] != F || f2->sizes[0] != E)
        return ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied "
                            "(%lldx%lld and %lldx%lld)", (long long)rows, (long long)F,
                            (long long)(f2->dim == 2 ? f2->sizes[1] : 0),
                            (long long)f2->sizes[0]);
    static const int vec[] = { L_N1W, L_N1B, L_N2W, L_N2B, L_F1B, L_F2B };
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++) {
        const TsTensor *v = p[vec[i]];
        int64_t want = vec[i] == L_F1B ? F : E;
        if (v->dim != 1 || v->sizes[0] != want)
            return ts_error_set(err, TS_ERR_RUNTIME, "The size of tensor a (%lld) must match the "
                                "size of tensor b (%lld) at non-singleton dimension 1",
                                (long long)want, (long long)(v->dim ? v->sizes[v->dim - 1] : 1));
    }
    return 0;
}

/* (Tensor src, int embed_dim, int num_heads, Tensor qkv_weight, Tensor qkv_bias,
 *  Tensor proj_weight, Tensor proj_bias, bool use_gelu, bool norm_first, float eps,
 *  Tensor norm_weight_1, Tensor norm_bias_1, Tensor norm_weight_2, Tensor norm_bias_2,
 *  Tensor ffn_weight_1, Tensor ffn_bias_1, Tensor ffn_weight_2, Tensor ffn_bias_2,
 *  Tensor? mask=None, int? mask_type=None) -> Tensor */
static int k_encoder_layer(TsCall *c)
{
    static const int pos[L_COUNT] = { 3, 4, 5, 6, 10, 11, 12, 13, 14, 15, 16, 17 };
    TsError *err = c->error;
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *t[L_COUNT] = { NULL }, *src = NULL, *mask = NULL, *x = NULL;
    TsTensor *owned[L_COUNT] = { NULL };
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    int rc = ts_args_tensor(&args, 0, &src);
    for (int i = 0; i < L_COUNT && !rc; i++)
        rc = ts_args_tensor(&args, (size_t)pos[i], &t[i]);
    if (!rc)
        rc = ts_args_opt_tensor(&args, 18, &mask);
    const TsTensor *p[L_COUNT];
    for (int i = 0; i < L_COUNT; i++)
        p[i] = t[i];
    Mha m = { 0 };
    int64_t E = ts_nn_int(a[1]);
    if (!rc)
        rc = check_mha(err, src, src, src, E, ts_nn_int(a[2]), p, L_COUNT);
    if (!rc) {
        m.dt = src->dtype == TS_BFLOAT16 ? TS_FLOAT32 : src->dtype;
        m.B = src->sizes[0];
        m.L = src->sizes[1];
        m.E = E;
        m.H = ts_nn_int(a[2]);
        m.mask = mask;
        m.mask_type = a[19].tag == TS_TAG_INT ? a[19].u.i : -1;
        rc = check_mask(err, &m);
    }
    if (!rc)
        rc = check_layer(err, p, m.B * m.L, E);
    m.lengths = rc ? NULL : ts_cpu_nested_lengths(src);
    if (!rc && !(rc = params_as(err, m.dt, L_COUNT, p, owned))) {
        x = m.lengths ? ts_cpu_nested_new(err, m.dt, m.B, m.L, E, m.lengths) : NULL;
        if (x)
            ts_cpu_copy_into(x, src);
        else if (!m.lengths)
            x = ts_cpu_cast(src, m.dt, err);
        if (!x)
            rc = err->code;
        m.qkv_w = p[L_QKV_W];
        m.qkv_b = p[L_QKV_B];
        m.proj_w = p[L_PROJ_W];
        m.proj_b = p[L_PROJ_B];
    }
    if (!rc && m.B * m.L > 0)
        rc = encoder_layer(err, &m, p, a[7].tag == TS_TAG_BOOL && a[7].u.b,
                           a[8].tag == TS_TAG_BOOL && a[8].u.b, ts_nn_double(a[9]),
                           ts_tensor_data(x));
    if (!rc && m.lengths)           /* a nested result: the padding rows stay zero */
        for (int64_t b = 0; b < m.B; b++)
            memset((char *)ts_tensor_data(x) + b * m.L * E * (int64_t)ts_dtype_size(m.dt) +
                       m.lengths[b] * E * (int64_t)ts_dtype_size(m.dt), 0,
                   (size_t)((m.L - m.lengths[b]) * E) * ts_dtype_size(m.dt));
    if (!rc && x->dtype != src->dtype) {
        TsTensor *r = m.lengths ? ts_cpu_nested_new(err, src->dtype, m.B, m.L, E, m.lengths)
                                : ts_cpu_cast(x, src->dtype, err);
        if (r && m.lengths)
            ts_cpu_copy_into(r, x);
        ts_tensor_release(x);
        x = r;
        rc = r ? 0 : (int)err->code;
    }
    release_all(L_COUNT, owned);
    if (rc && x) {
        ts_tensor_release(x);
        x = NULL;
    }
    return ts_args_return_tensor(&args, 0, x);
}

static const TsCpuOp ops[] = {
    { "aten::_native_multi_head_attention", "", k_native_mha },
    { "aten::_transformer_encoder_layer_fwd", "", k_encoder_layer },
};

const TsCpuTable ts_cpu_attention_table = { ops, sizeof ops / sizeof ops[0] };
