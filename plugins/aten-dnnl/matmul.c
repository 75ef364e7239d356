/* matmul.c — the matrix products on oneDNN's matmul: aten-cpu's kernels of linear, matmul,
 * mm, bmm and addmm replaced (ts_override_kernel) for bfloat16, which has no BLAS: oneDNN
 * reads the bfloat16 operands, accumulates in float32, adds the bias and rounds once; and
 * for float32 products of several rows and columns, where oneDNN was the faster
 * (f32_faster), the others staying on aten-cpu's OpenBLAS.
 *
 * A call becomes one primitive (prim.c's cache, key DnKey.mm): src [batch, m, k] @ weights
 * [wbatch, k, n] -> dst [batch, m, n], each operand read in place through its strides (a
 * linear's weight transposed, a batch of rows folded into the rows where the strides allow,
 * as aten-cpu's matmul folds them), the result a new dense tensor of the call's shape. A
 * linear's weight (a model's parameter) is read in the layout oneDNN picks, reordered once
 * and cached (weight.c); the other products' second operands, which are mostly a program's
 * own values, are read as they are. A bias (linear's; addmm's self when beta and alpha are
 * 1) is oneDNN's, broadcast over the dims where it has one element; addmm with other alpha
 * and beta takes the product in float32 and adds them after, rounding once.
 *
 * attention.c runs its products here too (dn_matmul_key, dn_matmul_exec: a key and
 * pointers, the same caches).
 *
 * Everything else goes to aten-cpu's kernel with the stack untouched: other dtypes, mixed
 * ones and every shape or argument PyTorch refuses (aten-cpu raises its errors), empty
 * products, strides that do not fold, batches that broadcast the first operand, ranks beyond
 * those above (matmul of 1-d by 1-d, of 4-d by 4-d...).
 */
#include <stdatomic.h>
#include <string.h>

#include "dn.h"

/* A call oneDNN takes: its key, its tensors and the result's shape. */
typedef struct Call {
    DnKey key;
    const TsTensor *x, *w;
    const TsTensor *bias;      /* oneDNN's (key.bias), or addmm's self (mm.acc_f32) */
    int64_t self_rs, self_cs;  /* mm.acc_f32: self's strides over [m, n], 0 where broadcast */
    double alpha, beta;
    int out_dim;
    int64_t out[TS_TENSOR_MAX_DIMS];
} Call;

/* ---- reading a call ------------------------------------------------------------------- */

/* Folds dims [0, e) of t into one: its size and stride; false when the strides do not
 * allow it. */
static bool fold(const TsTensor *t, int e, int64_t *size, int64_t *stride)
{
    int64_t n = 1, next = -1;
    *stride = 0;
    for (int d = e - 1; d >= 0; d--) {
        if (t->sizes[d] == 1)
            continue;
        if (next < 0)
            *stride = t->strides[d];
        else if (t->strides[d] != next)
            return false;
        next = t->strides[d] * t->sizes[d];
        n *= t->sizes[d];
    }
    *size = n;
    return true;
}

/* t as a batch of matrices: its last two dims (a 1-d t: a row when left, else a column),
 * the dims before them the batch, or folded into the rows with rows_fold. */
static bool mat_of(const TsTensor *t, bool left, bool rows_fold, DnMat *m)
{
    int d = t->dim;
    if (d == 1) {
        int64_t n = t->sizes[0], s = t->strides[0];
        *m = left ? (DnMat){ 1, 1, n, 0, 0, s } : (DnMat){ 1, n, 1, 0, s, 0 };
        return true;
    }
    m->c = t->sizes[d - 1];
    m->cs = t->strides[d - 1];
    if (rows_fold) {
        m->b = 1;
        m->bs = 0;
        return fold(t, d - 1, &m->r, &m->rs);
    }
    m->r = t->sizes[d - 2];
    m->rs = t->strides[d - 2];
    return fold(t, d - 2, &m->b, &m->bs);
}

/* The first operand x of a product by one matrix (fold_rows) or a batch of them: its batch
 * folded into the rows where the strides allow, else a batch of its own. */
static bool left_of(const TsTensor *x, bool fold_rows, DnMat *a)
{
    return (fold_rows && mat_of(x, true, true, a)) || mat_of(x, true, false, a);
}

/* Gives a dim of one element the stride of an outermost one (so that the cache does not
 * split on strides nobody steps by, and oneDNN sees a plain layout); false when a stride
 * left is not positive (an expanded operand). */
static bool settle(DnMat *m)
{
    if (m->c == 1)
        m->cs = m->r > 1 ? m->rs * m->r : 1;
    if (m->r == 1)
        m->rs = m->c * m->cs;
    if (m->b == 1)
        m->bs = m->r * m->rs > m->c * m->cs ? m->r * m->rs : m->c * m->cs;
    return m->bs > 0 && m->rs > 0 && m->cs > 0;
}

/* Whether oneDNN's float32 matmul beats OpenBLAS's sgemm on a @ w. Measured on a Zen 4
 * (AVX-512) against Debian 12's OpenBLAS, one call of a linear [m, 256] -> 2048, of a
 * transformer's [128, 2048] -> 256 and [128, 256] -> 768 and of an LSTM's gates
 * [64, 256] @ [256, 2048], best of 3 x 100: oneDNN took 0.62 to 0.92 of OpenBLAS's time for
 * m from 4 to 128 on one thread (0.26 to 0.85 on two), but 1.07 (1.36) for a single row
 * (resnet18's fc, [1, 512] -> 1000), where OpenBLAS runs a matrix-vector product: a single
 * row or column stays there, and so do fewer than 4 (not measured). */
static bool f32_faster(const DnMat *a, const DnMat *w)
{
    return a->b * a->r >= 4 && w->c >= 4;
}

bool dn_matmul_key(DnKey *k, dnnl_data_type_t dt, DnMat a, DnMat w, const DnMat *bias,
                   bool wei_any)
{
    memset(k, 0, sizeof *k);
    if (dt != dnnl_bf16 && !(dt == dnnl_f32 && f32_faster(&a, &w)))
        return false;
    if (a.c != w.r || a.b < 1 || a.r < 1 || a.c < 1 || w.c < 1 || (w.b != a.b && w.b != 1) ||
        !settle(&a) || !settle(&w))
        return false;
    k->kind = DN_MATMUL;
    k->dt = (uint8_t)dt;
    DnMatKey *mk = &k->mm;
    *mk = (DnMatKey){ a.b, w.b, a.r, a.c, w.c, { a.bs, a.rs, a.cs }, { w.bs, w.rs, w.cs },
                      { 0 }, { 0 }, wei_any, 0 };
    if (bias) {
        DnMat b = *bias;
        if ((b.b != 1 && b.b != a.b) || (b.r != 1 && b.r != a.r) || (b.c != 1 && b.c != w.c) ||
            !settle(&b))
            return false;
        k->bias = 1;
        memcpy(mk->bias_dims, (int64_t[3]){ b.b, b.r, b.c }, sizeof mk->bias_dims);
        memcpy(mk->bias_st, (int64_t[3]){ b.bs, b.rs, b.cs }, sizeof mk->bias_st);
    }
    return true;
}

static const TsTensor *as_tensor(TsValue v) { return (const TsTensor *)v.u.p; }

/* Whether each of the n tensors v[i] is one oneDNN takes, all of x's data type (into *dt). */
static bool tensors(const TsValue *v, int n, dnnl_data_type_t *dt)
{
    for (int i = 0; i < n; i++)
        if (v[i].tag != TS_TAG_TENSOR)
            return false;
    *dt = dn_dtype(as_tensor(v[0]));
    for (int i = 0; i < n; i++)
        if (dn_dtype(as_tensor(v[i])) != *dt)
            return false;
    return *dt != dnnl_data_type_undef;
}

/* The result's shape: t's dims but the last n (0 or 1), then the m of more. */
static void out_shape(Call *cl, const TsTensor *t, int drop, const int64_t *more, int m)
{
    cl->out_dim = 0;
    for (int d = 0; d < t->dim - drop; d++)
        cl->out[cl->out_dim++] = t->sizes[d];
    for (int i = 0; i < m; i++)
        cl->out[cl->out_dim++] = more[i];
}

/* aten::linear(Tensor input, Tensor weight, Tensor? bias=None) */
static bool read_linear(const TsValue *v, Call *cl)
{
    dnnl_data_type_t dt;
    bool has_bias = v[2].tag == TS_TAG_TENSOR;
    if ((!has_bias && v[2].tag != TS_TAG_NONE) || !tensors(v, has_bias ? 3 : 2, &dt))
        return false;
    const TsTensor *x = as_tensor(v[0]), *w = as_tensor(v[1]), *b = has_bias ? as_tensor(v[2]) : NULL;
    DnMat a, bm;
    if (x->dim < 1 || w->dim != 2 || (b && (b->dim != 1 || b->sizes[0] != w->sizes[0])))
        return false;
    if (!left_of(x, true, &a))
        return false;
    if (b)
        bm = (DnMat){ 1, 1, b->sizes[0], 0, 0, b->strides[0] };
    DnMat wt = { 1, w->sizes[1], w->sizes[0], 0, w->strides[1], w->strides[0] };
    if (!dn_matmul_key(&cl->key, dt, a, wt, b ? &bm : NULL, true))
        return false;
    cl->x = x;
    cl->w = w;
    cl->bias = b;
    out_shape(cl, x, 1, &w->sizes[0], 1);
    return true;
}

/* The product of two tensors of matmul's ranks (1-d to 3-d, or any by 1-d or 2-d). */
static bool read_product(const TsTensor *x, const TsTensor *y, dnnl_data_type_t dt, Call *cl)
{
    DnMat a, b;
    bool fold_rows = y->dim <= 2;
    if (x->dim < 1 || y->dim < 1 || y->dim > 3 || (x->dim == 1 && y->dim != 2) ||
        (y->dim == 3 && x->dim != 3))
        return false;
    if (!left_of(x, fold_rows, &a) || !mat_of(y, false, false, &b) ||
        !dn_matmul_key(&cl->key, dt, a, b, NULL, false))
        return false;
    cl->x = x;
    cl->w = y;
    if (y->dim == 1)
        out_shape(cl, x, 1, NULL, 0);
    else if (x->dim == 1)
        out_shape(cl, y, 2, &y->sizes[1], 1);
    else
        out_shape(cl, x, 1, &y->sizes[y->dim - 1], 1);
    return true;
}

/* aten::matmul(Tensor self, Tensor other) */
static bool read_matmul(const TsValue *v, Call *cl)
{
    dnnl_data_type_t dt;
    return tensors(v, 2, &dt) && read_product(as_tensor(v[0]), as_tensor(v[1]), dt, cl);
}

/* aten::mm(Tensor self, Tensor mat2), aten::bmm(Tensor self, Tensor mat2): the ranks
 * PyTorch asks for, and bmm's batches equal. */
static bool read_mm_of(const TsValue *v, Call *cl, int rank)
{
    dnnl_data_type_t dt;
    if (!tensors(v, 2, &dt))
        return false;
    const TsTensor *x = as_tensor(v[0]), *y = as_tensor(v[1]);
    return x->dim == rank && y->dim == rank && (rank == 2 || x->sizes[0] == y->sizes[0]) &&
           read_product(x, y, dt, cl);
}

static bool read_mm(const TsValue *v, Call *cl) { return read_mm_of(v, cl, 2); }
static bool read_bmm(const TsValue *v, Call *cl) { return read_mm_of(v, cl, 3); }

static bool scalar(TsValue v, double *out)
{
    if (v.tag == TS_TAG_INT)
        *out = (double)v.u.i;
    else if (v.tag == TS_TAG_DOUBLE)
        *out = v.u.d;
    else
        return false;
    return true;
}

/* aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1):
 * self a bias oneDNN adds where beta and alpha are 1, else added after the product. */
static bool read_addmm(const TsValue *v, Call *cl)
{
    dnnl_data_type_t dt;
    if (!tensors(v, 3, &dt) || !scalar(v[3], &cl->beta) || !scalar(v[4], &cl->alpha))
        return false;
    const TsTensor *s = as_tensor(v[0]), *x = as_tensor(v[1]), *y = as_tensor(v[2]);
    if (x->dim != 2 || y->dim != 2 || s->dim > 2)
        return false;
    int64_t sr = s->dim == 2 ? s->sizes[0] : 1, sc = s->dim ? s->sizes[s->dim - 1] : 1;
    int64_t srs = s->dim == 2 ? s->strides[0] : 0, scs = s->dim ? s->strides[s->dim - 1] : 0;
    DnMat sm = { 1, sr, sc, 0, srs, scs };
    bool fused = cl->alpha == 1 && cl->beta == 1 && (sr == 1 || srs > 0) && (sc == 1 || scs > 0);
    DnMat a, b;
    if (!mat_of(x, true, false, &a) || !mat_of(y, false, false, &b) ||
        (sr != 1 && sr != a.r) || (sc != 1 && sc != b.c) ||
        !dn_matmul_key(&cl->key, dt, a, b, fused ? &sm : NULL, false))
        return false;
    cl->key.mm.acc_f32 = !fused && (cl->alpha != 1 || cl->beta != 0);
    cl->x = x;
    cl->w = y;
    cl->bias = fused || cl->key.mm.acc_f32 ? s : NULL;
    cl->self_rs = sr == 1 ? 0 : srs;
    cl->self_cs = sc == 1 ? 0 : scs;
    int64_t out[2] = { a.r, b.c };
    out_shape(cl, x, 2, out, 2);
    return true;
}

/* ---- the primitive ----------------------------------------------------------------------- */

static dnnl_status_t plain(dnnl_memory_desc_t *md, const int64_t *dims, const int64_t *st,
                           dnnl_data_type_t dt)
{
    dnnl_dims_t d = { dims[0], dims[1], dims[2] }, s = { st[0], st[1], st[2] };
    return dn_lib.memory_desc_init_by_strides(md, 3, d, dt, s);
}

/* The weights as the call has them. */
static dnnl_status_t user_weights(const DnKey *k, dnnl_memory_desc_t *md)
{
    const DnMatKey *m = &k->mm;
    return plain(md, (int64_t[3]){ m->wbatch, m->k, m->n }, m->wei_st, (dnnl_data_type_t)k->dt);
}

dnnl_status_t dn_matmul_mds(const DnKey *k, dnnl_memory_desc_t *src, dnnl_memory_desc_t *dst)
{
    const DnMatKey *m = &k->mm;
    dnnl_dims_t d = { m->batch, m->m, m->n };
    dnnl_data_type_t dt = (dnnl_data_type_t)k->dt;
    dnnl_status_t st = plain(src, (int64_t[3]){ m->batch, m->m, m->k }, m->src_st, dt);
    return st == dnnl_success
               ? dn_lib.memory_desc_init_by_tag(dst, 3, d, m->acc_f32 ? dnnl_f32 : dt, dnnl_abc)
               : st;
}

dnnl_status_t dn_matmul_pd(const DnKey *k, dnnl_engine_t eng, const dnnl_memory_desc_t *src,
                           const dnnl_memory_desc_t *dst, const_dnnl_primitive_attr_t attr,
                           dnnl_primitive_desc_t *pd)
{
    const DnMatKey *m = &k->mm;
    dnnl_memory_desc_t wei, bias;
    dnnl_dims_t wd = { m->wbatch, m->k, m->n };
    dnnl_status_t st = m->wei_any ? dn_lib.memory_desc_init_by_tag(&wei, 3, wd,
                                                                  (dnnl_data_type_t)k->dt,
                                                                  dnnl_format_tag_any)
                                  : user_weights(k, &wei);
    if (st == dnnl_success && k->bias)
        st = plain(&bias, m->bias_dims, m->bias_st, (dnnl_data_type_t)k->dt);
    dnnl_matmul_desc_t d;
    if (st == dnnl_success)
        st = dn_lib.matmul_desc_init(&d, src, &wei, k->bias ? &bias : NULL, dst);
    return st == dnnl_success ? dn_lib.primitive_desc_create(pd, &d, attr, eng, NULL) : st;
}

/* ---- running it -------------------------------------------------------------------------- */

/* One more argument of the primitive: a memory object of md over data (none when *st says
 * a step before failed). */
static void arg(dnnl_exec_arg_t *args, int *n, int kind, const dnnl_memory_desc_t *md,
                const void *data, dnnl_status_t *st)
{
    if (*st != dnnl_success)
        return;
    *st = dn_lib.memory_create(&args[*n].memory, md, dn_engine(NULL), (void *)data);
    if (*st == dnnl_success)
        args[(*n)++].arg = kind;
}

/* o = alpha * acc + beta * self (broadcast), in float32, rounded once into o's dtype. */
static void finish(const Call *cl, const float *acc, TsTensor *o)
{
    const DnMatKey *k = &cl->key.mm;
    bool bf = o->dtype == TS_BFLOAT16;
    float alpha = (float)cl->alpha, beta = (float)cl->beta;
    const void *s = ts_tensor_data(cl->bias);
    for (int64_t i = 0; i < k->m; i++)
        for (int64_t j = 0; j < k->n; j++) {
            int64_t at = i * cl->self_rs + j * cl->self_cs, to = i * k->n + j;
            float v = alpha * acc[to];
            if (beta != 0)
                v += beta * (bf ? dn_bf16_to_float(((const uint16_t *)s)[at])
                                : ((const float *)s)[at]);
            if (bf)
                ((uint16_t *)ts_tensor_data(o))[to] = dn_float_to_bf16(v);
            else
                ((float *)ts_tensor_data(o))[to] = v;
        }
}

/* Runs p on a's operands, the weights at wei. */
static int execute(const DnPrim *p, const DnMatArgs *a, const void *wei, TsError *err)
{
    dnnl_stream_t s = dn_stream(err);
    void *buf = s ? dn_scratch(p->scratch_bytes + 64, err) : NULL;
    if (!buf)
        return err->code ? (int)err->code : TS_ERR_NOMEM;
    dnnl_exec_arg_t args[5];
    int n = 0;
    dnnl_status_t st = dnnl_success;
    arg(args, &n, DNNL_ARG_SRC, &p->src_md, a->src, &st);
    arg(args, &n, DNNL_ARG_WEIGHTS, &p->wei_md, wei, &st);
    if (p->key.bias)
        arg(args, &n, DNNL_ARG_BIAS, &p->bias_md, a->bias, &st);
    arg(args, &n, DNNL_ARG_DST, &p->dst_md, a->dst, &st);
    arg(args, &n, DNNL_ARG_SCRATCHPAD, &p->scratch_md, buf, &st);
    if (st == dnnl_success)
        st = dn_lib.primitive_execute(p->op, s, n, args);
    if (st == dnnl_success)
        st = dn_lib.stream_wait(s);
    for (int i = 0; i < n; i++)
        dn_lib.memory_destroy(args[i].memory);
    return st == dnnl_success ? 0 : dn_fail(err, "running a matrix product", st);
}

int dn_matmul_exec(const DnKey *key, const DnMatArgs *a, TsError *err)
{
    TsError quiet = TS_ERROR_INIT;
    DnPrim *p = dn_prim_get(key, &quiet);
    DnWeight *wt = NULL;
    dnnl_memory_desc_t user;
    if (p && key->mm.wei_any && user_weights(key, &user) == dnnl_success)
        wt = dn_weight_get(&user, &p->wei_md, a->w, &quiet);
    ts_error_clear(&quiet);
    int rc = 1;
    if (p && (wt || !key->mm.wei_any))
        rc = execute(p, a, wt ? dn_weight_data(wt) : a->wei, err);
    if (wt)
        dn_weight_release(wt);
    if (p)
        dn_prim_release(p);
    return rc;
}

/* Runs cl's product into a new tensor *o (addmm's alpha and beta through a float32 one):
 * 0, 1 when oneDNN cannot make it, or an error code. */
static int run(TsCall *c, const Call *cl, TsTensor **o)
{
    TsError *err = c->error;
    TsAllocator *alloc = ts_runtime_allocator(c->runtime, TS_DEV_CPU);
    TsDevice cpu = { TS_DEV_CPU, -1 };
    bool acc_f32 = cl->key.mm.acc_f32;
    *o = ts_tensor_empty(alloc, cpu, cl->x->dtype, cl->out_dim, cl->out, err);
    TsTensor *acc = *o && acc_f32 ? ts_tensor_empty(alloc, cpu, TS_FLOAT32, cl->out_dim,
                                                    cl->out, err) : NULL;
    int rc = !*o || (acc_f32 && !acc) ? (int)err->code : 0;
    if (!rc) {
        DnMatArgs a = { ts_tensor_data(cl->x), ts_tensor_data(cl->w),
                        cl->key.bias ? ts_tensor_data(cl->bias) : NULL, cl->w,
                        ts_tensor_data(acc_f32 ? acc : *o) };
        rc = dn_matmul_exec(&cl->key, &a, err);
    }
    if (!rc && acc_f32)
        finish(cl, ts_tensor_data(acc), *o);
    if (acc)
        ts_tensor_release(acc);
    if (rc && *o) {
        ts_tensor_release(*o);
        *o = NULL;
    }
    return rc;
}

/* ---- the kernels ---------------------------------------------------------------------------- */

typedef bool (*Reader)(const TsValue *v, Call *cl);

static const struct {
    const char *qualname;
    size_t args;
    Reader read;
} ops[] = {
    { "aten::linear", 3, read_linear },
    { "aten::matmul", 2, read_matmul },
    { "aten::mm", 2, read_mm },
    { "aten::bmm", 2, read_bmm },
    { "aten::addmm", 5, read_addmm },
};
#define N_OPS (sizeof ops / sizeof *ops)

/* aten-cpu's kernels, which take the calls oneDNN does not. */
static _Atomic(TsKernelFn) replaced[N_OPS];

/* The product of cl on oneDNN: 0 and *o, or an error code; 1 when oneDNN cannot make what
 * it needs (nothing touched). */
static int product(TsCall *c, Call *cl, TsTensor **o)
{
    int nthr = dn_threads_begin();
    cl->key.nthr = nthr;
    int rc = run(c, cl, o);
    dn_threads_end(nthr);
    return rc;
}

static int aten_product(TsCall *c, size_t i)
{
    TsKernelFn prev = atomic_load_explicit(&replaced[i], memory_order_relaxed);
    size_t n = ops[i].args;
    Call cl;
    if (c->stack->len < n || !ops[i].read(ts_stack_arg(c->stack, n, 0), &cl) || !dn_lib_open())
        return prev(c);
    TsTensor *o = NULL;
    int rc = product(c, &cl, &o);
    if (rc == 1)
        return prev(c);
    ts_stack_drop(c->stack, n);
    return rc ? rc : ts_stack_push(c->stack, ts_obj_value(o, TS_TAG_TENSOR), c->error);
}

#define KERNEL(i) static int k_##i(TsCall *c) { return aten_product(c, i); }
KERNEL(0) KERNEL(1) KERNEL(2) KERNEL(3) KERNEL(4)
#undef KERNEL
static const TsKernelFn kernels[N_OPS] = { k_0, k_1, k_2, k_3, k_4 };

int dn_register_matmul(TsRegistry *r, TsError *err)
{
    int rc = 0;
    for (size_t i = 0; i < N_OPS && !rc; i++)
        rc = dn_override(r, ops[i].qualname, kernels[i], &replaced[i], err);
    return rc;
}
