/* compose_more.c — more ops PyTorch builds from others, built the same way from aten-cpu's
 * kernels (chain.h): dist (sub, norm), renorm and renorm_ (linalg_vector_norm over every dim
 * but one, then a factor per slice), addbmm (bmm summed over the batch, added to self
 * expanded), addbmm_, baddbmm_ (written back), ldexp_, zero and fill (the functional forms of
 * zero_ and fill_), is_inference and is_pinned (no tensor here is either).
 *
 * Each keeps the callee's dtype rules and messages (norm's "input dtype should be either
 * floating point or complex", expand's "The expanded size of the tensor ..."), and makes
 * the checks PyTorch makes before it calls them, in its order and words.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/chain.h"
#include "engine/elementwise.h"

/* A Scalar argument as a number: *is_int says whether it was an int (or bool). */
static int scalar_arg(TsArgs *a, size_t i, double *d, bool *is_int)
{
    TsValue v = a->v[i];
    *is_int = v.tag == TS_TAG_INT || v.tag == TS_TAG_BOOL;
    if (v.tag == TS_TAG_INT)
        *d = (double)v.u.i;
    else if (v.tag == TS_TAG_BOOL)
        *d = v.u.b;
    else if (v.tag == TS_TAG_DOUBLE)
        *d = v.u.d;
    else
        return ts_error_set(a->call->error, TS_ERR_RUNTIME, "%s: argument '%s' must be a real "
                            "number", ts_args_op_name(a), ts_args_name(a, i));
    return 0;
}

/* t * s for a Scalar s, an int Scalar kept integral as PyTorch's is. */
static TsTensor *mul_scalar(TsChain *k, TsTensor *t, double s, bool is_int)
{
    return is_int ? ts_chain_op(k, "aten::mul", "Scalar", "ti", t, (int64_t)s)
                  : ts_chain_op(k, "aten::mul", "Scalar", "td", t, s);
}

/* ---- dist --------------------------------------------------------------------------------- */

/* aten::dist(Tensor self, Tensor other, Scalar p=2): norm(self - other, p), a 0-dim tensor. */
static int k_dist(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y;
    double p;
    bool p_int;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc) rc = scalar_arg(&a, 2, &p, &p_int);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *d = ts_chain_op(&k, "aten::sub", "Tensor", "tti", x, y, (int64_t)1);
    TsTensor *r = p_int ? ts_chain_op(&k, "aten::norm", "Scalar", "ti", d, (int64_t)p)
                        : ts_chain_op(&k, "aten::norm", "Scalar", "td", d, p);
    return ts_chain_return(&a, &k, r);
}

/* ---- renorm -------------------------------------------------------------------------------- */

/* PyTorch prints a double as C++'s stream does: -1 as "-1", -1.5 as "-1.5". */
static void fmt_double(char *buf, size_t n, double v)
{
    snprintf(buf, n, "%.6g", v);
}

/* self scaled so that each slice along dim has a p-norm of at most maxnorm: the slices whose
 * norm exceeds it by maxnorm / (norm + 1e-7), computed in the norm's dtype (float32 for the
 * half types) and rounded to self's. NULL with the error set on failure. */
static TsTensor *renorm(TsChain *k, TsTensor *x, TsArgs *a)
{
    TsError *err = k->c->error;
    double p, maxnorm;
    bool p_int, m_int;
    int64_t dim;
    if (scalar_arg(a, 1, &p, &p_int) || ts_args_int(a, 2, &dim) ||
        scalar_arg(a, 3, &maxnorm, &m_int))
        return NULL;
    if (!(p > 0)) {
        ts_error_set(err, TS_ERR_RUNTIME, "renorm: non-positive-norm not supported");
        return NULL;
    }
    if (!(maxnorm >= 0)) {
        char b[32];
        fmt_double(b, sizeof b, maxnorm);
        ts_error_set(err, TS_ERR_RUNTIME, "renorm: expected maxnorm to be >= 0 but got %s", b);
        return NULL;
    }
    if (x->dim <= 1) {
        ts_error_set(err, TS_ERR_RUNTIME, "renorm: input needs at least 2 dimensions, got %d "
                     "dimensions", x->dim);
        return NULL;
    }
    int d;
    if (ts_aten_wrap_dim(dim, x->dim, false, &d, err))
        return NULL;
    int64_t dims[TS_TENSOR_MAX_DIMS];
    int nd = 0;
    for (int i = 0; i < x->dim; i++)
        if (i != d)
            dims[nd++] = i;
    bool half = x->dtype == TS_FLOAT16 || x->dtype == TS_BFLOAT16;
    TsTensor *norm = p_int
        ? ts_chain_op(k, "aten::linalg_vector_norm", "", half ? "tilbi" : "tilbn", x,
                      (int64_t)p, nd, dims, 1, (int64_t)TS_FLOAT32)
        : ts_chain_op(k, "aten::linalg_vector_norm", "", half ? "tdlbi" : "tdlbn", x, p, nd,
                      dims, 1, (int64_t)TS_FLOAT32);
    if (!norm)
        return NULL;
    /* the factor per slice, in the norm's dtype (float32 or float64), contiguous */
    TsTensor *f = ts_chain_keep(k, ts_cpu_cast(norm, norm->dtype, err));
    if (!f)
        return NULL;
    int64_t n = ts_tensor_numel(f);
    if (f->dtype == TS_FLOAT64) {
        double *v = (double *)ts_tensor_data(f);
        for (int64_t i = 0; i < n; i++)
            v[i] = v[i] > maxnorm ? maxnorm / (v[i] + 1e-7) : 1.0;
    } else {
        float *v = (float *)ts_tensor_data(f);
        float m = (float)maxnorm;
        for (int64_t i = 0; i < n; i++)
            v[i] = v[i] > m ? m / (v[i] + 1e-7f) : 1.0f;
    }
    if (f->dtype != x->dtype && !(f = ts_chain_keep(k, ts_cpu_cast(f, x->dtype, err))))
        return NULL;
    return ts_chain_op(k, "aten::mul", "Tensor", "tt", x, f);
}

/* aten::renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) */
static int k_renorm(TsCall *c)
{
    TsArgs a;
    TsTensor *x;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    return ts_chain_return(&a, &k, renorm(&k, x, &a));
}

/* aten::renorm_(Tensor(a!) self, Scalar p, int dim, Scalar maxnorm) */
static int k_renorm_(TsCall *c)
{
    TsArgs a;
    TsTensor *x;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *r = renorm(&k, x, &a);
    if (r)
        ts_cpu_copy_into(x, r);
    rc = r ? 0 : (int)c->error->code;
    ts_chain_end(&k);
    return ts_args_return_arg(&a, rc, 0);
}

/* ---- addbmm, baddbmm_ ----------------------------------------------------------------------- */

/* aten::addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1):
 * beta * self + alpha * (the sum over the batch of batch1[b] @ batch2[b]), self expanded to
 * the product's shape; with beta 0 self is not read (its NaNs do not show). */
static int k_addbmm(TsCall *c)
{
    TsArgs a;
    TsTensor *self, *b1, *b2;
    double beta, alpha;
    bool beta_int, alpha_int;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_tensor(&a, 1, &b1);
    if (!rc) rc = ts_args_tensor(&a, 2, &b2);
    if (!rc) rc = scalar_arg(&a, 3, &beta, &beta_int);
    if (!rc) rc = scalar_arg(&a, 4, &alpha, &alpha_int);
    /* PyTorch reads batch1's size(1) and batch2's size(2) first: a tensor of fewer dims
     * fails there, with the dim's range */
    int w;
    if (!rc) rc = ts_aten_wrap_dim(1, b1->dim, false, &w, c->error);
    if (!rc) rc = ts_aten_wrap_dim(2, b2->dim, false, &w, c->error);
    if (!rc && (b1->dim != 3 || b2->dim != 3))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "batch%d must be a 3D tensor",
                          b1->dim != 3 ? 1 : 2);
    if (!rc && b1->sizes[0] != b2->sizes[0])
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "batch1 and batch2 must have same number "
                          "of batches, got %lld and %lld", (long long)b1->sizes[0],
                          (long long)b2->sizes[0]);
    if (!rc && b1->sizes[2] != b2->sizes[1])
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Incompatible matrix sizes for bmm "
                          "(%lldx%lld and %lldx%lld)", (long long)b1->sizes[1],
                          (long long)b1->sizes[2], (long long)b2->sizes[1],
                          (long long)b2->sizes[2]);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    int64_t shape[2] = { b1->sizes[1], b2->sizes[2] }, batch = 0;
    TsTensor *e = ts_chain_op(&k, "aten::expand", "", "tlb", self, 2, shape, 0);
    TsTensor *s = ts_chain_op(&k, "aten::sum", "dim_IntList", "tlbn",
                              ts_chain_op(&k, "aten::bmm", "", "tt", b1, b2), 1, &batch, 0);
    TsTensor *r;
    if (!e || !s)
        r = NULL;
    else if (beta == 0)
        r = mul_scalar(&k, s, alpha, alpha_int);
    else if (alpha_int)
        r = ts_chain_op(&k, "aten::add", "Tensor", "tti", mul_scalar(&k, e, beta, beta_int), s,
                        (int64_t)alpha);
    else
        r = ts_chain_op(&k, "aten::add", "Tensor", "ttd", mul_scalar(&k, e, beta, beta_int), s,
                        alpha);
    return ts_chain_return(&a, &k, r);
}

/* aten::addbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1,
 * Scalar alpha=1): addbmm into self as addbmm.out writes its out, which is self: resized to
 * the product's shape; a dtype other than the product's is addmm's "self and mat2" error. */
static int k_addbmm_(TsCall *c)
{
    TsArgs a;
    TsTensor *self;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue args[5], res;
    for (int i = 0; i < 5; i++) {
        args[i] = a.v[i];
        ts_value_retain(args[i]);
    }
    rc = ts_cpu_call_by_name(c, "aten::addbmm", "", 5, args, &res);
    TsTensor *r = rc ? NULL : (TsTensor *)res.u.p;
    if (r && r->dtype != self->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "self and mat2 must have the same dtype");
    else if (r)
        rc = ts_cpu_store_out(self, r, c->error);
    ts_value_release(res);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::ldexp_(Tensor(a!) self, Tensor other): self *= 2 ** other (mul_'s casting rule). */
static int k_ldexp_(TsCall *c)
{
    TsArgs a;
    TsTensor *self, *other;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_tensor(&a, 1, &other);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *r = ts_chain_op(&k, "aten::mul_", "Tensor", "tt", self,
                              ts_chain_op(&k, "aten::pow", "Scalar", "dt", 2.0, other));
    rc = r ? 0 : (int)c->error->code;
    ts_chain_end(&k);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1,
 * Scalar alpha=1): baddbmm's result written into self, which must have its shape. */
static int k_baddbmm_(TsCall *c)
{
    TsArgs a;
    TsTensor *self;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue args[5];
    for (int i = 0; i < 5; i++) {
        args[i] = a.v[i];
        ts_value_retain(args[i]);
    }
    TsTensor *r = ts_cpu_call_tensor(c, &ts_cpu_blas_table, "aten::baddbmm", "", 5, args);
    rc = r ? 0 : (int)c->error->code;
    if (r && !ts_aten_same_shape(self, r->dim, r->sizes)) {
        char want[256], got[256];
        ts_aten_format_sizes(want, sizeof want, self->dim, self->sizes);
        ts_aten_format_sizes(got, sizeof got, r->dim, r->sizes);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Bad in-place call: input tensor size %s "
                          "and output tensor size %s should match", want, got);
    } else if (r) {
        ts_cpu_copy_into(self, r);
    }
    if (r)
        ts_tensor_release(r);
    return ts_args_return_arg(&a, rc, 0);
}

/* ---- zero, fill, is_inference ------------------------------------------------------------- */

/* aten::zero(Tensor self), aten::fill.Scalar(Tensor self, Scalar value) and
 * aten::fill.Tensor(Tensor self, Tensor value): a copy of self (its dtype, sizes and
 * layout), filled as zero_ and fill_ fill; a tensor value must be 0-dim (fill_'s rule). */
static int fill_copy(TsCall *c, int what)      /* 0 zero, 1 Scalar, 2 Tensor */
{
    TsArgs a;
    TsTensor *self, *value = NULL;
    unsigned char elem[16] = { 0 };
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc && what == 2) rc = ts_args_tensor(&a, 1, &value);
    if (!rc && value && value->dim != 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "fill_ only supports 0-dimension value "
                          "tensor but got tensor with %d dimensions.", value->dim);
    if (!rc && what == 1)
        rc = ts_aten_scalar_to_elem(a.v[1], self->dtype, elem, c->error);
    if (!rc && value) {        /* the value in self's dtype, as fill_ casts it */
        TsTensor *v = ts_cpu_cast(value, self->dtype, c->error);
        if (!v)
            rc = c->error->code;
        else
            memcpy(elem, ts_tensor_data(v), ts_dtype_size(self->dtype));
        if (v)
            ts_tensor_release(v);
    }
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *r = ts_chain_op(&k, "aten::clone", "", "tn", self);
    if (r)
        ts_cpu_fill(r, elem);
    return ts_chain_return(&a, &k, r);
}

static int k_zero(TsCall *c) { return fill_copy(c, 0); }
static int k_fill_scalar(TsCall *c) { return fill_copy(c, 1); }
static int k_fill_tensor(TsCall *c) { return fill_copy(c, 2); }

/* aten::is_pinned(Tensor self, Device? device=None) -> bool: no memory here is pinned. */
static int k_is_pinned(TsCall *c)
{
    TsArgs a;
    TsTensor *self;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    return ts_args_return(&a, rc, ts_bool(false));
}

/* aten::is_inference(Tensor self) -> bool: tscript has no inference mode. */
static int k_is_inference(TsCall *c)
{
    TsArgs a;
    TsTensor *self;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    return ts_args_return(&a, rc, ts_bool(false));
}

static const TsCpuOp ops[] = {
    { "aten::dist", "", k_dist },
    { "aten::renorm", "", k_renorm },
    { "aten::renorm_", "", k_renorm_ },
    { "aten::addbmm", "", k_addbmm },
    { "aten::addbmm_", "", k_addbmm_ },
    { "aten::baddbmm_", "", k_baddbmm_ },
    { "aten::ldexp_", "", k_ldexp_ },
    { "aten::is_pinned", "", k_is_pinned },
    { "aten::zero", "", k_zero },
    { "aten::fill", "Scalar", k_fill_scalar },
    { "aten::fill", "Tensor", k_fill_tensor },
    { "aten::is_inference", "", k_is_inference },
};

const TsCpuTable ts_cpu_compose_more_table = { ops, sizeof ops / sizeof ops[0] };
