/* tensordot.c — contractions over named dims: tensordot (the contracted dims moved last in
 * the first operand and first in the second, both flattened to matrices for mm, as PyTorch
 * composes it through engine/chain.h; a contracted dim of size 1 on one side is summed away
 * first) and bilinear (x1^T W_o x2 for each output feature o, plus the bias).
 */
#include "engine/chain.h"
#include "nn/nn.h"

/* aten::tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor,
 * and its out= form (out). */
static int tensordot(TsCall *c, bool out)
{
    TsArgs a;
    TsTensor *x1, *x2;
    int64_t d1[TS_TENSOR_MAX_DIMS], d2[TS_TENSOR_MAX_DIMS];
    int n1, n2;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x1);
    if (!rc) rc = ts_args_tensor(&a, 1, &x2);
    if (!rc) rc = ts_args_int_list(&a, 2, d1, &n1, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = ts_args_int_list(&a, 3, d2, &n2, TS_TENSOR_MAX_DIMS);
    if (!rc && n1 != n2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "both dimension lists should have same "
                          "length");
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *t1 = x1, *t2 = x2;
    bool in1[TS_TENSOR_MAX_DIMS] = { false }, in2[TS_TENSOR_MAX_DIMS] = { false };
    int64_t csize = 1;
    for (int i = 0; !rc && i < n1; i++) {
        int w1, w2;
        rc = ts_aten_wrap_dim(d1[i], x1->dim, false, &w1, c->error);
        if (!rc) rc = ts_aten_wrap_dim(d2[i], x2->dim, false, &w2, c->error);
        if (rc)
            break;
        in1[w1] = in2[w2] = true;
        int64_t s1 = x1->sizes[w1], s2 = x2->sizes[w2];
        if (s2 == 1)       /* a broadcast dim: summed right away */
            t1 = ts_chain_op(&k, "aten::sum", "dim_IntList", "tlbn", t1, 1, &d1[i], 1);
        else if (s1 == 1)
            t2 = ts_chain_op(&k, "aten::sum", "dim_IntList", "tlbn", t2, 1, &d2[i], 1);
        else if (s1 != s2)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "contracted dimensions need to match, "
                              "but first has size %lld in dim %lld and second has size %lld in "
                              "dim %lld", (long long)s1, (long long)d1[i], (long long)s2,
                              (long long)d2[i]);
        else
            csize *= s1;
    }
    TsTensor *r = NULL;
    if (!rc) {
        /* the free dims of self, then its contracted ones; the contracted dims of other, then
         * its free ones */
        int64_t p1[TS_TENSOR_MAX_DIMS], p2[TS_TENSOR_MAX_DIMS], rs[2 * TS_TENSOR_MAX_DIMS];
        int np1 = 0, np2 = 0, nr = 0;
        int64_t size1 = 1, size2 = 1;
        for (int i = 0; i < x1->dim; i++)
            if (!in1[i]) {
                p1[np1++] = i;
                size1 *= rs[nr++] = x1->sizes[i];
            }
        for (int i = 0; i < n1; i++)
            p1[np1++] = d1[i];
        for (int i = 0; i < n2; i++)
            p2[np2++] = d2[i];
        for (int i = 0; i < x2->dim; i++)
            if (!in2[i]) {
                p2[np2++] = i;
                size2 *= rs[nr++] = x2->sizes[i];
            }
        int64_t m1[2] = { size1, csize }, m2[2] = { csize, size2 };
        TsTensor *a1 = ts_chain_op(&k, "aten::reshape", "", "tl",
                                   ts_chain_op(&k, "aten::permute", "", "tl", t1, np1, p1), 2, m1);
        TsTensor *a2 = ts_chain_op(&k, "aten::reshape", "", "tl",
                                   ts_chain_op(&k, "aten::permute", "", "tl", t2, np2, p2), 2, m2);
        r = ts_chain_op(&k, "aten::reshape", "", "tl",
                        ts_chain_op(&k, "aten::mm", "", "tt", a1, a2), nr, rs);
    }
    r = ts_chain_result(r);
    ts_chain_end(&k);
    return ts_cpu_return_out(&a, r ? 0 : (int)c->error->code, r, out);
}

static int k_tensordot(TsCall *c) { return tensordot(c, false); }
static int k_tensordot_out(TsCall *c) { return tensordot(c, true); }

/* aten::bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor */
static int k_bilinear(TsCall *c)
{
    TsArgs a;
    TsTensor *x1, *x2, *w, *b = NULL, *o = NULL, *c1 = NULL, *c2 = NULL, *cw = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x1);
    if (!rc) rc = ts_args_tensor(&a, 1, &x2);
    if (!rc) rc = ts_args_tensor(&a, 2, &w);
    if (!rc) rc = ts_args_opt_tensor(&a, 3, &b);
    if (!rc && x1->dim != x2->dim)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "bilinear(): input dimensions do not match: "
                          "got %d and %d", x1->dim, x2->dim);
    for (int i = 0; !rc && i + 1 < x1->dim; i++)
        if (x1->sizes[i] != x2->sizes[i])
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "bilinear(): input batch dimensions do "
                              "not match: got %lld and %lld", (long long)x1->sizes[i],
                              (long long)x2->sizes[i]);
    if (!rc && w->dim != 3)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "bilinear(): weight must be 3-dimensional, "
                          "got %d dimensions", w->dim);
    if (!rc && (x1->dim == 0 || x1->sizes[x1->dim - 1] != w->sizes[1]))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "bilinear(): input1 size does not match "
                          "weight size: got %lld but expected %lld",
                          (long long)(x1->dim ? x1->sizes[x1->dim - 1] : 1), (long long)w->sizes[1]);
    if (!rc && x2->sizes[x2->dim - 1] != w->sizes[2])
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "bilinear(): input2 size does not match "
                          "weight size: got %lld but expected %lld",
                          (long long)x2->sizes[x2->dim - 1], (long long)w->sizes[2]);
    if (!rc && b && (b->dim == 0 || b->sizes[0] != w->sizes[0]))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "bilinear(): bias size does not match "
                          "weight size: got %lld but expected %lld",
                          (long long)(b->dim ? b->sizes[0] : 1), (long long)w->sizes[0]);
    if (!rc) rc = ts_nn_same_dtype(c, x1, w);
    if (!rc) rc = ts_nn_same_dtype(c, x1, x2);
    if (!rc) rc = ts_nn_check_float(c, "bilinear", x1);
    if (!rc && (!(c1 = ts_nn_contiguous(x1, c->error)) || !(c2 = ts_nn_contiguous(x2, c->error)) ||
                !(cw = ts_nn_contiguous(w, c->error))))
        rc = (int)c->error->code;
    if (!rc) {
        int dt = x1->dtype;
        int64_t I = w->sizes[1], J = w->sizes[2], O = w->sizes[0], rows = 1;
        int64_t sizes[TS_TENSOR_MAX_DIMS];
        for (int i = 0; i + 1 < x1->dim; i++)
            rows *= sizes[i] = x1->sizes[i];
        sizes[x1->dim - 1] = O;
        if (!(o = ts_cpu_empty(dt, x1->dim, sizes, c->error)))
            rc = (int)c->error->code;
        const void *p1 = ts_tensor_data(c1), *p2 = ts_tensor_data(c2), *pw = ts_tensor_data(cw);
        for (int64_t r = 0; !rc && r < rows; r++)
            for (int64_t oo = 0; oo < O; oo++) {
                double s = 0;
                for (int64_t i = 0; i < I; i++) {
                    double t = 0;
                    for (int64_t j = 0; j < J; j++)
                        t += ts_nn_get(dt, pw, (oo * I + i) * J + j) * ts_nn_get(dt, p2, r * J + j);
                    s += ts_nn_get(dt, p1, r * I + i) * t;
                }
                ts_nn_set(dt, ts_tensor_data(o), r * O + oo, s);
            }
    }
    if (!rc && b) {     /* output + bias, broadcasting as PyTorch's add does */
        TsChain k;
        ts_chain_init(&k, c);
        TsTensor *sum = ts_chain_result(ts_chain_op(&k, "aten::add", "Tensor", "tti", o, b, (int64_t)1));
        ts_chain_end(&k);
        ts_tensor_release(o);
        o = sum;
        if (!o)
            rc = (int)c->error->code;
    }
    if (c1) ts_tensor_release(c1);
    if (c2) ts_tensor_release(c2);
    if (cw) ts_tensor_release(cw);
    return ts_args_return_tensor(&a, rc, o);
}

static const TsCpuOp ops[] = {
    { "aten::tensordot", "", k_tensordot },
    { "aten::tensordot", "out", k_tensordot_out },
    { "aten::bilinear", "", k_bilinear },
};

const TsCpuTable ts_cpu_tensordot_table = { ops, sizeof ops / sizeof ops[0] };
