/* einsum.c — aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None).
 *
 * The equation is parsed as PyTorch 1.13 parses it (letters a-z and A-Z, spaces ignored, one
 * "..." per operand standing for its leading broadcast dims, an optional "->" output; without
 * one the output is the ellipsis dims, then the letters used once, uppercase before
 * lowercase), with its messages. Each operand becomes a view with one dim per distinct label
 * (a repeated label takes the diagonal); a label of size 1 broadcasts against the others.
 * The operands are then contracted two at a time, left to right or in the order path gives
 * (pairs of positions in the list of operands, each result appended at its end), and a last
 * contraction against a scalar one sums the labels the output drops.
 *
 * A pair contraction is a batched matrix product: the labels both operands keep that later
 * operands or the output need are the batch, those only one keeps are its rows or columns,
 * the rest are summed; each side is copied into [batch, rows, summed] / [batch, summed,
 * columns] order (a label it lacks read with stride 0) and ts_nn_gemm runs once per batch
 * entry. Results have the inputs' dtype; bool and half are refused as PyTorch's bmm does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "shape/shape_ops.h"

#define NLETTERS 52                    /* A-Z then a-z */
#define MAX_LABELS (NLETTERS + TS_TENSOR_MAX_DIMS)  /* letters, then ellipsis dims */
#define MAX_OPS 64

/* An operand during contraction: t (a new reference) has one dim per label of labels. */
typedef struct Term {
    TsTensor *t;
    int n;
    int labels[TS_TENSOR_MAX_DIMS];
} Term;

/* The parsed equation. */
typedef struct Equation {
    int n_ops;
    int n_labels[MAX_OPS];             /* letters and one entry for "..." */
    int labels[MAX_OPS][TS_TENSOR_MAX_DIMS + 1];   /* letter codes, -1 for "..." */
    bool has_ellipsis[MAX_OPS];
    bool explicit_out, out_ellipsis;
    int n_out;
    int out[MAX_LABELS];               /* letter codes, -1 for "..." */
} Equation;

static int letter_code(char ch)
{
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A';
    if (ch >= 'a' && ch <= 'z')
        return 26 + (ch - 'a');
    return -1;
}

static char code_letter(int c) { return (char)(c < 26 ? 'A' + c : 'a' + (c - 26)); }

static int invalid_at(TsError *err, size_t i)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "einsum(): invalid subscript given at index %zu in "
                        "the equation string, subscripts must be in [a-zA-Z]", i);
}

/* Parses eq for n tensors. */
static int parse(TsError *err, const char *eq, size_t len, int n, Equation *e)
{
    memset(e, 0, sizeof *e);
    const char *arrow = strstr(eq, "->");
    size_t lhs_end = arrow ? (size_t)(arrow - eq) : len;
    int op = 0;
    for (size_t i = 0; i < lhs_end; i++) {
        char ch = eq[i];
        if (ch == ' ')
            continue;
        if (ch == ',') {
            if (++op >= n)
                return ts_error_set(err, TS_ERR_RUNTIME, "einsum(): fewer operands were "
                                    "provided than specified in the equation");
            if (op >= MAX_OPS)
                return ts_error_set(err, TS_ERR_LIMIT, "einsum(): too many operands");
            continue;
        }
        if (e->n_labels[op] > TS_TENSOR_MAX_DIMS)
            return ts_error_set(err, TS_ERR_LIMIT, "einsum(): too many subscripts");
        if (ch == '.') {
            if (i + 2 >= lhs_end || eq[i + 1] != '.' || eq[i + 2] != '.' || e->has_ellipsis[op])
                return ts_error_set(err, TS_ERR_RUNTIME, "einsum(): found '.' for operand %d "
                                    "that is not part of any ellipsis", op);
            e->has_ellipsis[op] = true;
            e->labels[op][e->n_labels[op]++] = -1;
            i += 2;
            continue;
        }
        int code = letter_code(ch);
        if (code < 0)
            return invalid_at(err, i);
        e->labels[op][e->n_labels[op]++] = code;
    }
    if (op + 1 != n)
        return ts_error_set(err, TS_ERR_RUNTIME, "einsum(): more operands were provided than "
                            "specified in the equation");
    e->n_ops = n;
    if (!arrow)
        return 0;
    e->explicit_out = true;
    bool seen[NLETTERS] = { false };
    for (int o = 0; o < n; o++)
        for (int k = 0; k < e->n_labels[o]; k++)
            if (e->labels[o][k] >= 0)
                seen[e->labels[o][k]] = true;
    bool in_out[NLETTERS] = { false };
    for (size_t i = lhs_end + 2; i < len; i++) {
        char ch = eq[i];
        if (ch == ' ')
            continue;
        if (ch == '.') {
            if (i + 2 >= len || eq[i + 1] != '.' || eq[i + 2] != '.' || e->out_ellipsis)
                return ts_error_set(err, TS_ERR_RUNTIME, "einsum(): found '.' for output but "
                                    "it is not part of any ellipsis");
            e->out_ellipsis = true;
            e->out[e->n_out++] = -1;
            i += 2;
            continue;
        }
        int code = letter_code(ch);
        if (code < 0)
            return invalid_at(err, i);
        if (in_out[code])
            return ts_error_set(err, TS_ERR_RUNTIME, "einsum(): output subscript %c appears "
                                "more than once in the output", ch);
        if (!seen[code])
            return ts_error_set(err, TS_ERR_RUNTIME, "einsum(): output subscript %c does not "
                                "appear in the equation for any input operand", ch);
        in_out[code] = true;
        e->out[e->n_out++] = code;
    }
    return 0;
}

/* ---- operands to terms ------------------------------------------------------------------- */

/* Label sizes across operands: size[l] (-1: unseen), with PyTorch's broadcast checks. */
typedef struct Sizes {
    int64_t size[MAX_LABELS];
} Sizes;

/* Operand o as a term: ellipsis dims become labels NLETTERS + k (aligned right over n_ell),
 * repeated letters take the diagonal. */
static int make_term(TsError *err, const Equation *e, int o, TsTensor *x, int n_ell, Term *t)
{
    int nl = e->n_labels[o] - (e->has_ellipsis[o] ? 1 : 0);
    int ell = e->has_ellipsis[o] ? (int)x->dim - nl : 0;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int pos[MAX_LABELS];
    for (int l = 0; l < MAX_LABELS; l++)
        pos[l] = -1;
    t->n = 0;
    int d = 0;
    for (int k = 0; k < e->n_labels[o]; k++) {
        int code = e->labels[o][k];
        int count = code < 0 ? ell : 1;
        for (int j = 0; j < count; j++, d++) {
            int label = code < 0 ? NLETTERS + (n_ell - ell + j) : code;
            if (pos[label] >= 0) {
                int p = pos[label];
                if (sizes[p] != x->sizes[d])
                    return ts_error_set(err, TS_ERR_RUNTIME, "einsum(): subscript %c is repeated "
                                        "for operand %d but the sizes don't match, %lld != %lld",
                                        code_letter(label), o, (long long)x->sizes[d],
                                        (long long)sizes[p]);
                strides[p] += x->strides[d];
                continue;
            }
            pos[label] = t->n;
            t->labels[t->n] = label;
            sizes[t->n] = x->sizes[d];
            strides[t->n++] = x->strides[d];
        }
    }
    t->t = ts_aten_view(x, t->n, sizes, strides, x->offset, err);
    return t->t ? 0 : (int)err->code;
}

/* Checks every operand's rank against its subscripts, and finds the ellipsis width. */
static int check_ranks(TsError *err, const Equation *e, TsTensor *const *x, int *n_ell)
{
    *n_ell = 0;
    for (int o = 0; o < e->n_ops; o++) {
        int nl = e->n_labels[o] - (e->has_ellipsis[o] ? 1 : 0);
        if (!e->has_ellipsis[o] && nl != x[o]->dim)
            return ts_error_set(err, TS_ERR_RUNTIME, "einsum(): the number of subscripts in the "
                                "equation (%d) does not match the number of dimensions (%d) for "
                                "operand %d and no ellipsis was given", nl, (int)x[o]->dim, o);
        if (e->has_ellipsis[o] && nl > x[o]->dim)
            return ts_error_set(err, TS_ERR_RUNTIME, "einsum(): the number of subscripts in the "
                                "equation (%d) is more than the number of dimensions (%d) for "
                                "operand %d", nl, (int)x[o]->dim, o);
        int ell = e->has_ellipsis[o] ? (int)x[o]->dim - nl : 0;
        *n_ell = ell > *n_ell ? ell : *n_ell;
    }
    return 0;
}

/* Sizes of every label, each operand's size 1 broadcasting. */
static int label_sizes(TsError *err, const Term *terms, int n, Sizes *s)
{
    for (int o = 0; o < n; o++)
        for (int k = 0; k < terms[o].n; k++) {
            int l = terms[o].labels[k];
            int64_t v = terms[o].t->sizes[k];
            if (s->size[l] < 0 || s->size[l] == 1)
                s->size[l] = v;
            else if (v != 1 && v != s->size[l])
                return l < NLETTERS
                           ? ts_error_set(err, TS_ERR_RUNTIME, "einsum(): subscript %c has size "
                                          "%lld for operand %d which does not broadcast with "
                                          "previously seen size %lld", code_letter(l),
                                          (long long)v, o, (long long)s->size[l])
                           : ts_error_set(err, TS_ERR_RUNTIME, "einsum(): operands do not "
                                          "broadcast: an ellipsis dim has size %lld for operand "
                                          "%d and %lld elsewhere", (long long)v, o,
                                          (long long)s->size[l]);
        }
    return 0;
}

/* ---- contraction ----------------------------------------------------------------------- */

/* The position of label l in t, or -1. */
static int find(const Term *t, int l)
{
    for (int k = 0; k < t->n; k++)
        if (t->labels[k] == l)
            return k;
    return -1;
}

/* A contiguous copy of t laid out as labels order[0..n) of sizes from s (a missing label or a
 * size-1 dim broadcast with stride 0). */
static TsTensor *layout(TsError *err, const Term *t, const int *order, int n, const Sizes *s)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < n; k++) {
        int p = find(t, order[k]);
        sizes[k] = s->size[order[k]];
        strides[k] = p >= 0 && t->t->sizes[p] == sizes[k] ? t->t->strides[p] : 0;
    }
    TsTensor *v = ts_aten_view(t->t, n, sizes, strides, t->t->offset, err);
    TsTensor *c = v ? ts_cpu_cast(v, t->t->dtype, err) : NULL;
    if (v)
        ts_tensor_release(v);
    return c;
}

static int64_t product(const Sizes *s, const int *labels, int n)
{
    int64_t p = 1;
    for (int k = 0; k < n; k++)
        p *= s->size[labels[k]];
    return p;
}

/* a and b contracted into r, keeping the labels marked in keep. */
static int contract(TsError *err, const Term *a, const Term *b, const bool *keep,
                    const Sizes *s, Term *r)
{
    int batch[TS_TENSOR_MAX_DIMS], left[TS_TENSOR_MAX_DIMS], right[TS_TENSOR_MAX_DIMS];
    int sum[2 * TS_TENSOR_MAX_DIMS];
    int nb = 0, nl = 0, nr = 0, ns = 0;
    for (int k = 0; k < a->n; k++) {
        int l = a->labels[k];
        bool in_b = find(b, l) >= 0;
        if (!keep[l])
            sum[ns++] = l;
        else if (in_b)
            batch[nb++] = l;
        else
            left[nl++] = l;
    }
    for (int k = 0; k < b->n; k++) {
        int l = b->labels[k];
        if (find(a, l) >= 0)
            continue;
        if (keep[l])
            right[nr++] = l;
        else
            sum[ns++] = l;
    }
    if (nb + nl + nr > TS_TENSOR_MAX_DIMS || nb + nl + ns > TS_TENSOR_MAX_DIMS ||
        nb + ns + nr > TS_TENSOR_MAX_DIMS)
        return ts_error_set(err, TS_ERR_LIMIT, "einsum(): too many dimensions");
    int ao[TS_TENSOR_MAX_DIMS], bo[TS_TENSOR_MAX_DIMS];
    memcpy(ao, batch, (size_t)nb * sizeof *ao);
    memcpy(ao + nb, left, (size_t)nl * sizeof *ao);
    memcpy(ao + nb + nl, sum, (size_t)ns * sizeof *ao);
    memcpy(bo, batch, (size_t)nb * sizeof *bo);
    memcpy(bo + nb, sum, (size_t)ns * sizeof *bo);
    memcpy(bo + nb + ns, right, (size_t)nr * sizeof *bo);
    int64_t B = product(s, batch, nb), M = product(s, left, nl), K = product(s, sum, ns);
    int64_t N = product(s, right, nr);
    r->n = nb + nl + nr;
    int64_t rs[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < r->n; k++) {
        r->labels[k] = k < nb ? batch[k] : k < nb + nl ? left[k - nb] : right[k - nb - nl];
        rs[k] = s->size[r->labels[k]];
    }
    TsTensor *ca = layout(err, a, ao, nb + nl + ns, s);
    TsTensor *cb = ca ? layout(err, b, bo, nb + ns + nr, s) : NULL;
    r->t = cb ? ts_cpu_empty(a->t->dtype, r->n, rs, err) : NULL;
    int rc = r->t ? 0 : (int)err->code;
    size_t es = ts_dtype_size(a->t->dtype);
    if (!rc && K == 0)
        memset(ts_tensor_data(r->t), 0, (size_t)(B * M * N) * es);
    for (int64_t i = 0; !rc && K > 0 && i < B; i++) {
        TsNnMat am = { (const char *)ts_tensor_data(ca) + i * M * K * (int64_t)es, M, K, K, 1 };
        TsNnMat bm = { (const char *)ts_tensor_data(cb) + i * K * N * (int64_t)es, K, N, N, 1 };
        rc = ts_nn_gemm(a->t->dtype, 1.0, &am, &bm, 0.0,
                        (char *)ts_tensor_data(r->t) + i * M * N * (int64_t)es, N, err);
    }
    if (ca)
        ts_tensor_release(ca);
    if (cb)
        ts_tensor_release(cb);
    if (rc && r->t) {
        ts_tensor_release(r->t);
        r->t = NULL;
    }
    return rc;
}

/* The output labels, explicit or implicit. */
static void output_labels(const Equation *e, int n_ell, int *out, int *n_out)
{
    *n_out = 0;
    if (e->explicit_out) {
        for (int k = 0; k < e->n_out; k++) {
            if (e->out[k] >= 0) {
                out[(*n_out)++] = e->out[k];
                continue;
            }
            for (int j = 0; j < n_ell; j++)
                out[(*n_out)++] = NLETTERS + j;
        }
        return;
    }
    int count[NLETTERS] = { 0 };
    for (int o = 0; o < e->n_ops; o++)
        for (int k = 0; k < e->n_labels[o]; k++)
            if (e->labels[o][k] >= 0)
                count[e->labels[o][k]]++;
    for (int j = 0; j < n_ell; j++)
        out[(*n_out)++] = NLETTERS + j;
    for (int l = 0; l < NLETTERS; l++)
        if (count[l] == 1)
            out[(*n_out)++] = l;
}

/* Marks the labels of the output and of every term still waiting (live[i]). */
static void mark_keep(const int *out, int n_out, const Term *terms, const bool *live, int n,
                      bool *keep)
{
    memset(keep, 0, MAX_LABELS * sizeof *keep);
    for (int k = 0; k < n_out; k++)
        keep[out[k]] = true;
    for (int i = 0; i < n; i++)
        if (live[i])
            for (int k = 0; k < terms[i].n; k++)
                keep[terms[i].labels[k]] = true;
}

static int einsum(TsError *err, const Equation *e, const int64_t *path, int n_path,
                  TsTensor *const *x, TsTensor **result)
{
    int n = e->n_ops, n_ell, n_out, out[MAX_LABELS];
    Term terms[2 * MAX_OPS];
    bool live[2 * MAX_OPS] = { false }, keep[MAX_LABELS];
    Sizes s;
    for (int l = 0; l < MAX_LABELS; l++)
        s.size[l] = -1;
    memset(terms, 0, sizeof terms);
    int rc = check_ranks(err, e, x, &n_ell);
    for (int o = 0; !rc && o < n; o++) {
        rc = make_term(err, e, o, x[o], n_ell, &terms[o]);
        live[o] = !rc;
    }
    if (!rc)
        rc = label_sizes(err, terms, n, &s);
    for (int o = 1; !rc && o < n; o++)
        if (x[o]->dtype != x[0]->dtype)
            rc = ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                              ts_dtype_type_name(x[0]->dtype), ts_dtype_type_name(x[o]->dtype));
    int dt = n ? x[0]->dtype : TS_FLOAT32;
    if (!rc && (dt == TS_BOOL || dt == TS_FLOAT16 || ts_dtype_is_complex(dt)))
        rc = ts_error_set(err, TS_ERR_RUNTIME, "\"bmm\" not implemented for '%s'",
                          ts_dtype_type_name(dt));
    if (!rc)
        output_labels(e, n_ell, out, &n_out);
    /* contract pairs: path's, then left to right; a one-term list against a scalar one */
    int count = n, step = 0;
    while (!rc) {
        int i = -1, j = -1;
        if (step < n_path / 2) {
            int64_t pi = path[2 * step], pj = path[2 * step + 1];
            int k = 0;
            for (int t = 0; t < count; t++)
                if (live[t]) {
                    if (k == pi)
                        i = t;
                    if (k == pj)
                        j = t;
                    k++;
                }
            if (i < 0 || j < 0 || i == j) {
                rc = ts_error_set(err, TS_ERR_RUNTIME, "einsum(): path entry %d names operands "
                                  "%lld and %lld, which are not two of the %d left", step,
                                  (long long)pi, (long long)pj, k);
                break;
            }
            step++;
        } else {
            for (int t = 0; t < count && j < 0; t++)
                if (live[t]) {
                    if (i < 0)
                        i = t;
                    else
                        j = t;
                }
        }
        Term one = { 0 };
        bool last = j < 0;
        if (last) {
            int64_t none = 1;
            one.t = ts_cpu_empty(dt, 0, &none, err);
            if (!one.t) {
                rc = err->code;
                break;
            }
            ts_cpu_store_double(dt, ts_tensor_data(one.t), 1);
        }
        live[i] = false;
        if (!last)
            live[j] = false;
        mark_keep(out, n_out, terms, live, count, keep);
        if (count >= 2 * MAX_OPS) {
            rc = ts_error_set(err, TS_ERR_LIMIT, "einsum(): too many contractions");
            break;
        }
        rc = contract(err, &terms[i], last ? &one : &terms[j], keep, &s, &terms[count]);
        if (one.t)
            ts_tensor_release(one.t);
        if (rc)
            break;
        live[count++] = true;
        if (last)
            break;
    }
    if (!rc) {
        /* the last term holds exactly the output labels: put them in order */
        const Term *f = &terms[count - 1];
        int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
        for (int k = 0; k < n_out; k++) {
            int p = find(f, out[k]);
            sizes[k] = f->t->sizes[p];
            strides[k] = f->t->strides[p];
        }
        TsTensor *v = ts_aten_view(f->t, n_out, sizes, strides, f->t->offset, err);
        *result = v ? ts_cpu_cast(v, dt, err) : NULL;
        if (v)
            ts_tensor_release(v);
        rc = *result ? 0 : (int)err->code;
    }
    for (int t = 0; t < 2 * MAX_OPS; t++)
        if (terms[t].t)
            ts_tensor_release(terms[t].t);
    return rc;
}

/* aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor */
static int k_einsum(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *r = NULL;
    const TsList *l = NULL;
    int64_t path[2 * MAX_OPS];
    int n_path = 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc)
        rc = ts_args_tensor_list(&args, 1, &l);
    Equation *e = rc ? NULL : malloc(sizeof *e);
    if (!rc && !e)
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "einsum: out of memory");
    if (!rc && a[0].tag != TS_TAG_STR)
        rc = ts_error_set(c->error, TS_ERR_TYPE, "%s: argument '%s' must be a str",
                          ts_args_op_name(&args), ts_args_name(&args, 0));
    if (!rc && l->len == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "einsum(): must provide at least one "
                          "operand");
    if (!rc && l->len > MAX_OPS)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "einsum(): at most %d operands are supported",
                          MAX_OPS);
    if (!rc && a[2].tag != TS_TAG_NONE)
        rc = ts_args_int_list(&args, 2, path, &n_path, 2 * MAX_OPS);
    if (!rc) {
        const TsStr *eq = (const TsStr *)a[0].u.p;
        TsTensor *x[MAX_OPS];
        for (size_t i = 0; i < l->len; i++)
            x[i] = (TsTensor *)l->items[i].u.p;
        rc = parse(c->error, eq->data, eq->len, (int)l->len, e);
        if (!rc)
            rc = einsum(c->error, e, path, n_path, x, &r);
    }
    free(e);
    return ts_args_return_tensor(&args, rc, r);
}

static const TsCpuOp ops[] = {
    { "aten::einsum", "", k_einsum },
};

const TsCpuTable ts_cpu_einsum_table = { ops, sizeof ops / sizeof ops[0] };
