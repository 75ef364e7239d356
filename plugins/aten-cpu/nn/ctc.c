/* ctc.c — the connectionist temporal classification loss: _ctc_loss (the negative log
 * likelihood of each target sequence under the per-frame log-probabilities, by the forward
 * (alpha) recursion over the target with blanks between and around its labels, in log space)
 * and ctc_loss, PyTorch's composite over it: zero_infinity, and the mean that first divides
 * each loss by its target length. Lengths come as int[] or as integer tensors; targets are
 * padded (batch x max length) or concatenated (1-D).
 */
#include <math.h>
#include <stdlib.h>

#include "engine/chain.h"
#include "nn/nn.h"

/* The lengths argument i (int[] or an integral 1-D tensor) into a new array; *n its count. */
static int lengths(TsCall *c, TsArgs *a, size_t i, const char *name, int64_t **out, int64_t *n)
{
    TsValue v = a->v[i];
    *out = NULL;
    if (v.tag == TS_TAG_TENSOR) {
        TsTensor *t = (TsTensor *)v.u.p, *l;
        if (!ts_dtype_is_integral(t->dtype, false))
            return ts_error_set(c->error, TS_ERR_RUNTIME, "%s must be integral", name);
        if (!(l = ts_cpu_cast(t, TS_INT64, c->error)))
            return (int)c->error->code;
        *n = ts_tensor_numel(l);
        if ((*out = malloc(sizeof **out * (size_t)(*n ? *n : 1))))
            for (int64_t k = 0; k < *n; k++)
                (*out)[k] = ((const int64_t *)ts_tensor_data(l))[k];
        ts_tensor_release(l);
    } else {
        const TsList *l = (const TsList *)v.u.p;
        *n = (int64_t)l->len;
        if ((*out = malloc(sizeof **out * (size_t)(*n ? *n : 1))))
            for (int64_t k = 0; k < *n; k++)
                (*out)[k] = l->items[k].u.i;
    }
    return *out ? 0 : ts_error_set(c->error, TS_ERR_RUNTIME, "out of memory");
}

static inline double lse3(double a, double b, double c)
{
    double m = a;
    if (b > m) m = b;
    if (c > m) m = c;
    if (m == -INFINITY)
        m = 0;
    return log(exp(a - m) + exp(b - m) + exp(c - m)) + m;
}

/* The losses (N) and log_alpha (N, T, 2 max_target + 1) of log_probs lp (T, N, C floating)
 * and targets tg; the checks of PyTorch's ctc_loss_cpu. */
static int ctc_forward(TsCall *c, TsTensor *lp, TsTensor *tg, const int64_t *il, int64_t nil,
                       const int64_t *tl, int64_t ntl, int64_t blank, TsTensor **loss,
                       TsTensor **alpha)
{
    static const char from[] = "(while checking arguments for ctc_loss_cpu)";
    if (lp->dtype != TS_FLOAT32 && lp->dtype != TS_FLOAT64)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "\"ctc_loss_cpu\" not implemented for '%s'",
                            ts_dtype_type_name(lp->dtype));
    if (lp->dim != 3)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Expected 3-dimensional tensor, but got "
                            "%d-dimensional tensor for argument #1 'log_probs' %s", lp->dim, from);
    if (tg->dim < 1 || tg->dim > 2)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Expected 1 to 2 dimensions, but got "
                            "%d-dimensional tensor for argument #2 'targets' %s", tg->dim, from);
    int64_t T = lp->sizes[0], N = lp->sizes[1], C = lp->sizes[2];
    if (blank < 0 || blank >= C)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "blank must be in label range");
    if (nil != N)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "input_lengths must be of size batch_size");
    if (ntl != N)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "target_lengths must be of size "
                            "batch_size");
    int64_t *off = malloc(sizeof *off * (size_t)(N ? N : 1)), maxl = 0, stride, pos = 0;
    if (!off)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "out of memory");
    int rc = 0;
    for (int64_t b = 0; b < N; b++)
        if (tl[b] > maxl)
            maxl = tl[b];
    if (tg->dim == 1) {     /* concatenated */
        for (int64_t b = 0; b < N; b++) {
            off[b] = pos * tg->strides[0];
            pos += tl[b];
        }
        stride = tg->strides[0];
        if (tg->sizes[0] != pos)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expected tensor to have size %lld at "
                              "dimension 0, but got size %lld for argument #2 'targets' %s",
                              (long long)pos, (long long)tg->sizes[0], from);
    } else {
        for (int64_t b = 0; b < N; b++)
            off[b] = b * tg->strides[0];
        stride = tg->strides[1];
        if (tg->sizes[0] != N)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expected tensor to have size %lld at "
                              "dimension 0, but got size %lld for argument #2 'targets' %s",
                              (long long)N, (long long)tg->sizes[0], from);
        else if (tg->sizes[1] < maxl)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expected tensor to have size at least "
                              "%lld at dimension 1, but got size %lld for argument #2 'targets' %s",
                              (long long)maxl, (long long)tg->sizes[1], from);
    }
    for (int64_t b = 0; !rc && b < N; b++)
        if (il[b] > T)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expected input_lengths to have value at "
                              "most %lld, but got value %lld %s", (long long)T, (long long)il[b],
                              from);
    TsTensor *lpc = NULL, *tgc = NULL;
    int64_t S = 2 * maxl + 1, asz[3] = { N, T, S };
    *loss = *alpha = NULL;
    if (!rc && (!(lpc = ts_nn_contiguous(lp, c->error)) ||
                !(tgc = ts_cpu_cast(tg, TS_INT64, c->error)) ||
                !(*loss = ts_cpu_empty(lp->dtype, 1, &N, c->error)) ||
                !(*alpha = ts_cpu_empty(lp->dtype, 3, asz, c->error))))
        rc = (int)c->error->code;
    if (!rc) {
        int dt = lp->dtype;
        bool f32 = dt == TS_FLOAT32;
        const void *p = ts_tensor_data(lpc);
        /* tgc is a fresh copy: contiguous, so the strides read above are tg's, recomputed */
        const int64_t *tp = ts_tensor_data(tgc);
        if (tg->dim == 1) {
            stride = 1;
            for (int64_t b = 0, q = 0; b < N; q += tl[b], b++)
                off[b] = q;
        } else {
            stride = 1;
            for (int64_t b = 0; b < N; b++)
                off[b] = b * tg->sizes[1];
        }
        void *ap = ts_tensor_data(*alpha);
        for (int64_t k = 0; k < N * T * S; k++)
            ts_nn_set(dt, ap, k, -INFINITY);
#define LP(t, b, ch) ts_nn_get(dt, p, ((t) * N + (b)) * C + (ch))
#define LA(b, t, s) ts_nn_get(dt, ap, ((b) * T + (t)) * S + (s))
#define LABEL(b, s) ((s) % 2 == 0 ? blank : tp[off[b] + ((s) / 2) * stride])
        for (int64_t b = 0; b < N; b++) {
            int64_t Tb = il[b], L = tl[b], Sb = 2 * L + 1;
            double nll;
            if (Tb == 0) {
                nll = L == 0 ? 0 : INFINITY;
            } else {
                ts_nn_set(dt, ap, (b * T) * S, LP(0, b, blank));
                if (L > 0)
                    ts_nn_set(dt, ap, (b * T) * S + 1, LP(0, b, LABEL(b, 1)));
                for (int64_t t = 1; t < Tb; t++)
                    for (int64_t s = 0; s < Sb; s++) {
                        int64_t cur = LABEL(b, s);
                        double l1 = LA(b, t - 1, s);
                        double l2 = s > 0 ? LA(b, t - 1, s - 1) : -INFINITY;
                        double l3 = s > 1 && LABEL(b, s - 2) != cur ? LA(b, t - 1, s - 2)
                                                                     : -INFINITY;
                        double v = lse3(l1, l2, l3);
                        if (f32)
                            v = (float)v;
                        ts_nn_set(dt, ap, (b * T + t) * S + s, v + LP(t, b, cur));
                    }
                double e1 = LA(b, Tb - 1, Sb - 1), e2 = L > 0 ? LA(b, Tb - 1, Sb - 2) : -INFINITY;
                double m = e1 > e2 ? e1 : e2;
                if (m == -INFINITY)
                    m = 0;
                nll = -(log(exp(e1 - m) + exp(e2 - m)) + m);
            }
            ts_nn_set(dt, ts_tensor_data(*loss), b, nll);
        }
#undef LP
#undef LA
#undef LABEL
    }
    if (rc) {
        if (*loss) ts_tensor_release(*loss);
        if (*alpha) ts_tensor_release(*alpha);
        *loss = *alpha = NULL;
    }
    if (lpc) ts_tensor_release(lpc);
    if (tgc) ts_tensor_release(tgc);
    free(off);
    return rc;
}

/* aten::_ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths,
 *     int[] target_lengths, int blank=0, bool zero_infinity=False) -> (Tensor, Tensor),
 * and its .Tensor overload. */
static int k__ctc_loss(TsCall *c)
{
    TsArgs a;
    TsTensor *lp, *tg, *r[2] = { NULL, NULL };
    int64_t blank, *il = NULL, *tl = NULL, nil = 0, ntl = 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &lp);
    if (!rc) rc = ts_args_tensor(&a, 1, &tg);
    if (!rc) rc = ts_args_int(&a, 4, &blank);
    if (!rc) rc = lengths(c, &a, 2, "input_lengths", &il, &nil);
    if (!rc) rc = lengths(c, &a, 3, "target_lengths", &tl, &ntl);
    if (!rc) rc = ctc_forward(c, lp, tg, il, nil, tl, ntl, blank, &r[0], &r[1]);
    free(il);
    free(tl);
    return ts_args_return_tensors(&a, rc, 2, r);
}

/* aten::ctc_loss.IntList(Tensor log_probs, Tensor targets, int[] input_lengths,
 *     int[] target_lengths, int blank=0, int reduction=1, bool zero_infinity=False), and
 * ctc_loss.Tensor: a (T, C) log_probs is one unbatched sequence. */
static int k_ctc_loss(TsCall *c)
{
    TsArgs a;
    TsTensor *lp, *tg, *loss = NULL, *alpha = NULL, *r = NULL;
    int64_t blank, red, *il = NULL, *tl = NULL, nil = 0, ntl = 0;
    bool zinf;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &lp);
    if (!rc) rc = ts_args_tensor(&a, 1, &tg);
    if (!rc) rc = ts_args_int(&a, 4, &blank);
    if (!rc) rc = ts_args_int(&a, 5, &red);
    if (!rc) rc = ts_args_bool(&a, 6, &zinf);
    if (!rc) rc = lengths(c, &a, 2, "input_lengths", &il, &nil);
    if (!rc) rc = lengths(c, &a, 3, "target_lengths", &tl, &ntl);
    bool batched = !rc && lp->dim == 3;
    TsTensor *lp3 = NULL;
    if (!rc && !batched) {
        int64_t sizes[3] = { lp->dim > 0 ? lp->sizes[0] : 1, 1, lp->dim > 1 ? lp->sizes[1] : 1 };
        int64_t strides[3] = { lp->dim > 0 ? lp->strides[0] : 1, 1,
                               lp->dim > 1 ? lp->strides[1] : 1 };
        if (lp->dim == 2)
            lp3 = ts_aten_view(lp, 3, sizes, strides, lp->offset, c->error);
        else
            (lp3 = lp), ts_tensor_retain(lp);
        if (!lp3)
            rc = (int)c->error->code;
    }
    if (!rc) rc = ctc_forward(c, batched ? lp : lp3, tg, il, nil, tl, ntl, blank, &loss, &alpha);
    if (lp3)
        ts_tensor_release(lp3);
    if (!rc) {
        int dt = loss->dtype;
        int64_t n = ts_tensor_numel(loss);
        void *p = ts_tensor_data(loss);
        if (zinf)
            for (int64_t k = 0; k < n; k++)
                if (ts_nn_get(dt, p, k) == INFINITY)
                    ts_nn_set(dt, p, k, 0);
        if (!batched) {   /* the batch of one squeezed away */
            TsTensor *s = ts_aten_view(loss, 0, NULL, NULL, 0, c->error);
            ts_tensor_release(loss);
            loss = s;
        }
        TsChain k;
        ts_chain_init(&k, c);
        ts_chain_keep(&k, loss);
        TsTensor *out = loss;
        if (loss && red == TS_NN_MEAN) {
            /* each loss over its target length (at least 1), then the mean */
            TsTensor *lens = ts_chain_keep(&k, ts_cpu_empty(dt, 1, &ntl, c->error));
            for (int64_t i = 0; lens && i < ntl; i++)
                ts_nn_set(dt, ts_tensor_data(lens), i, (double)(tl[i] < 1 ? 1 : tl[i]));
            out = ts_chain_op(&k, "aten::mean", "", "tn",
                              ts_chain_op(&k, "aten::div", "Tensor", "tt", loss, lens));
        } else if (loss && red == TS_NN_SUM) {
            out = ts_chain_op(&k, "aten::sum", "", "tn", loss);
        }
        r = ts_chain_result(out);
        ts_chain_end(&k);
        if (!r)
            rc = (int)c->error->code;
    }
    if (alpha)
        ts_tensor_release(alpha);
    free(il);
    free(tl);
    return ts_args_return_tensor(&a, rc, r);
}

static const TsCpuOp ops[] = {
    { "aten::_ctc_loss", "", k__ctc_loss },
    { "aten::_ctc_loss", "Tensor", k__ctc_loss },
    { "aten::ctc_loss", "IntList", k_ctc_loss },
    { "aten::ctc_loss", "Tensor", k_ctc_loss },
};

const TsCpuTable ts_cpu_ctc_table = { ops, sizeof ops / sizeof ops[0] };
