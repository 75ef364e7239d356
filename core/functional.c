/* functional.c — torch.nn.functional (and torch.norm) lowered to aten operators.
 *
 * PyTorch writes these functions in Python (torch/nn/functional.py) and scripts them: their
 * bodies turn keyword strings into ints, reorder arguments, pick the in-place variant and so
 * on, then call one aten operator. We do the same work at compile time, from one table: an
 * entry gives the Python signature (names and defaults, so positional and keyword calls bind
 * alike), the operator, the operator's arguments by parameter name ("*name" for a
 * keyword-only one) or as a literal, a few
 * flags for the common rewrites (reduction strings, inplace, return_indices) and, for the
 * handful that need more (interpolate, embedding, ...), a rewrite function. A name the table
 * does not know stays "aten::NAME" with its arguments unchanged, which is right whenever
 * PyTorch itself registers the F.* function as the aten builtin (F.linear, F.conv2d, ...).
 *
 * The arguments the rewrites decide on (reduction, mode, inplace, return_indices) must be
 * compile-time constants here; PyTorch would branch at run time, but every real call passes
 * literals, and a non-constant one is reported rather than guessed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

enum { MAX_PARAMS = 12 };

/* Rewrite flags. */
enum {
    FN_REDUCTION = 1,   /* size_average/reduce/reduction → the int reduction (none 0, mean 1,
                           sum 2), as torch's _Reduction does */
    FN_INPLACE = 2,     /* inplace=True selects "op_" */
    FN_INDICES = 4      /* return_indices=True selects "op_with_indices" */
};

typedef struct Bound Bound;
typedef struct FnEntry FnEntry;

struct FnEntry {
    const char *name;       /* "torch.nn.functional.cross_entropy" */
    const char *params;     /* the Python signature: "input, target, weight=None, ..." */
    const char *op;         /* the operator */
    const char *args;       /* the operator's arguments: parameter names or literals */
    int flags;
    /* a rewrite for what the flags do not cover: emits the result, 0 or -1 */
    int (*rewrite)(TsEmitter *e, Bound *b, TsSugared *out);
};

/* The call bound to the signature. */
struct Bound {
    const FnEntry *fn;
    size_t n;
    char names[MAX_PARAMS][32];
    bool is_list[MAX_PARAMS];      /* "name:[]": a tuple literal passed is a list */
    TsIrValue *vals[MAX_PARAMS];
    TsSourceRange r;
    char op[128];
};

static int value_of(TsSugared *out, TsIrValue *v)
{
    memset(out, 0, sizeof *out);
    out->kind = TS_SV_VALUE;
    out->value = v;
    return v ? 0 : -1;
}

/* ---- constants --------------------------------------------------------------------- */

static const TsAttr *const_attr(const TsIrValue *v)
{
    if (!v || v->node->kind != ts_symbol("prim::Constant"))
        return NULL;
    return ts_node_attr(v->node, ts_symbol("attr::value"));
}

static bool is_none(const TsIrValue *v)
{
    return ts_type_kind(v->type) == TS_TYPE_NONE;
}

/* A constant bool: 1 or 0; -1 when not a constant bool. */
static int const_bool(const TsIrValue *v)
{
    const TsAttr *a = const_attr(v);
    if (!a || ts_type_kind(v->type) != TS_TYPE_BOOL || a->kind != TS_ATTR_INT)
        return -1;
    return a->u.i != 0;
}

static bool const_int(const TsIrValue *v, int64_t *out)
{
    const TsAttr *a = const_attr(v);
    if (!a || ts_type_kind(v->type) != TS_TYPE_INT || a->kind != TS_ATTR_INT)
        return false;
    *out = a->u.i;
    return true;
}

static const char *const_str(const TsIrValue *v)
{
    const TsAttr *a = const_attr(v);
    return a && ts_type_kind(v->type) == TS_TYPE_STR && a->kind == TS_ATTR_STR ? a->u.s : NULL;
}

/* A literal of the table (a default or an operator argument) as a constant. */
static TsIrValue *literal(TsEmitter *e, const char *s, TsSourceRange r)
{
    if (strcmp(s, "None") == 0)
        return ts_emit_const(e, ts_none(), r);
    if (strcmp(s, "True") == 0 || strcmp(s, "False") == 0)
        return ts_emit_const(e, ts_bool(s[0] == 'T'), r);
    if (s[0] == '\'') {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*s", (int)strlen(s) - 2, s + 1);
        return ts_emit_str_const(e, buf, r);
    }
    if (strcmp(s, "[]") == 0)
        return ts_emit_list(e, ts_type_int(), 0, NULL, r);
    char *end;
    if (strpbrk(s, ".e")) {
        double d = strtod(s, &end);
        return ts_emit_const(e, ts_double(d), r);
    }
    long long i = strtoll(s, &end, 10);
    return ts_emit_const(e, ts_int(i), r);
}

/* ---- binding ----------------------------------------------------------------------- */

static TsIrValue **param(Bound *b, const char *name)
{
    for (size_t i = 0; i < b->n; i++)
        if (strcmp(b->names[i], name) == 0)
            return &b->vals[i];
    return NULL;
}

static TsIrValue *arg(Bound *b, const char *name)
{
    TsIrValue **p = param(b, name);
    return p ? *p : NULL;
}

/* (4, 5) where the Python signature says List[int]: the list [4, 5], as PyTorch converts
 * a tuple literal to the expected list type. */
static TsIrValue *tuple_as_list(TsEmitter *e, const TsTree *t)
{
    TsIrValue *items[8];
    if (t->n_kids == 0 || t->n_kids > 8)
        return ts_emit_error(e, t->range, "expected a list of 1 to 8 items"), NULL;
    for (size_t i = 0; i < t->n_kids; i++) {
        if (!(items[i] = ts_emit_expr(e, t->kids[i], NULL)))
            return NULL;
        if (items[i]->type != items[0]->type)
            return ts_emit_error(e, t->range, "a list's items must have one type"), NULL;
    }
    return ts_emit_list(e, items[0]->type, t->n_kids, items, t->range);
}

/* Binds the call's arguments to the signature as Python does, then fills the defaults. */
static int bind(TsEmitter *e, const FnEntry *fn, const TsTree *call, Bound *b)
{
    const char *short_name = strrchr(fn->name, '.') + 1;
    char defaults[MAX_PARAMS][32];
    memset(b, 0, sizeof *b);
    b->fn = fn;
    b->r = call->range;
    for (const char *p = fn->params; *p;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, ",");
        char item[64];
        snprintf(item, sizeof item, "%.*s", (int)len, p);
        char *eq = strchr(item, '=');
        defaults[b->n][0] = '\0';
        if (eq) {
            *eq = '\0';
            snprintf(defaults[b->n], sizeof defaults[b->n], "%s", eq + 1);
        }
        char *colon = strchr(item, ':');
        b->is_list[b->n] = colon != NULL;
        if (colon)
            *colon = '\0';
        snprintf(b->names[b->n++], sizeof b->names[0], "%.31s", item);
        p += len;
    }
    size_t pos = 0;
    for (size_t i = 1; i < call->n_kids; i++) {
        const TsTree *k = call->kids[i];
        TsIrValue **slot;
        if (k->kind == TS_TREE_KWARG) {
            if (!k->str)
                return ts_emit_error(e, k->range, "**kwargs are not supported");
            slot = param(b, k->str);
            if (!slot)
                return ts_emit_error(e, k->range, "%s() got an unexpected keyword argument "
                                     "'%s'", short_name, k->str);
            if (*slot)
                return ts_emit_error(e, k->range, "%s() got multiple values for argument "
                                     "'%s'", short_name, k->str);
            k = k->kids[0];
        } else {
            if (pos >= b->n)
                return ts_emit_error(e, k->range, "%s() takes at most %zu arguments",
                                     short_name, b->n);
            slot = &b->vals[pos++];
        }
        if (k->kind == TS_TREE_TUPLE && b->is_list[slot - b->vals]) {
            if (!(*slot = tuple_as_list(e, k)))
                return -1;
        } else if (!(*slot = ts_emit_expr(e, k, NULL))) {
            return -1;
        }
    }
    for (size_t i = 0; i < b->n; i++) {
        if (b->vals[i])
            continue;
        if (!defaults[i][0])
            return ts_emit_error(e, b->r, "%s() missing required argument '%s'", short_name,
                                 b->names[i]);
        if (!(b->vals[i] = literal(e, defaults[i], b->r)))
            return -1;
    }
    snprintf(b->op, sizeof b->op, "%s", fn->op);
    return 0;
}

/* ---- the common rewrites ---------------------------------------------------------------- */

static int reduction(TsEmitter *e, Bound *b)
{
    TsIrValue **red = param(b, "reduction");
    TsIrValue *sa = arg(b, "size_average"), *rd = arg(b, "reduce");
    const char *s = const_str(*red);
    if (sa && rd && (!is_none(sa) || !is_none(rd))) {
        /* the deprecated pair wins over reduction, as in torch's legacy_get_string */
        int avg = is_none(sa) ? 1 : const_bool(sa), keep = is_none(rd) ? 1 : const_bool(rd);
        if (avg < 0 || keep < 0)
            return ts_emit_error(e, b->r, "size_average and reduce must be constants");
        s = !keep ? "none" : avg ? "mean" : "sum";
    }
    if (!s)
        return ts_emit_error(e, (*red)->node->range, "reduction must be a string constant");
    int64_t v = strcmp(s, "none") == 0 ? 0 : strcmp(s, "mean") == 0 ? 1
                : strcmp(s, "sum") == 0 ? 2 : strcmp(s, "batchmean") == 0 ? 3 : -1;
    if (v < 0 || (v == 3 && !strstr(b->fn->name, "kl_div")))
        return ts_emit_error(e, b->r, "%s is not a valid value for reduction", s);
    return (*red = ts_emit_const(e, ts_int(v), b->r)) ? 0 : -1;
}

/* Appends suffix to the operator when the bool parameter is a constant True. */
static int select_variant(TsEmitter *e, Bound *b, const char *pname, const char *suffix)
{
    int on = const_bool(arg(b, pname));
    if (on < 0)
        return ts_emit_error(e, b->r, "%s must be a bool constant", pname);
    if (on)
        strncat(b->op, suffix, sizeof b->op - strlen(b->op) - 1);
    return 0;
}

/* Emits b->op with the entry's argument list. */
static TsIrValue *call_op(TsEmitter *e, Bound *b)
{
    TsNamedValue a[MAX_PARAMS];
    size_t n = 0;
    for (const char *p = b->fn->args; *p && n < MAX_PARAMS;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, ",");
        char item[64];
        snprintf(item, sizeof item, "%.*s", (int)len, p);
        /* "*name": the parameter passed as the operator's keyword-only argument name */
        const char *kw = item[0] == '*' ? ts_symbol(item + 1) : NULL;
        TsIrValue *v = arg(b, kw ? kw : item);
        if (!v && !(v = literal(e, item, b->r)))
            return NULL;
        a[n++] = (TsNamedValue){ kw, v, b->r };
        p += len;
    }
    return ts_emit_op(e, b->op, n, a, b->r);
}

/* ---- rewrites of single entries ----------------------------------------------------- */

/* F.embedding: (input, weight) become (weight, indices); a negative padding_idx counts from
 * the end of the table, None is -1. */
static int rw_embedding(TsEmitter *e, Bound *b, TsSugared *out)
{
    if (!is_none(arg(b, "max_norm")))
        return ts_emit_error(e, b->r, "F.embedding with max_norm is not supported");
    TsIrValue **pad = param(b, "padding_idx");
    int64_t i;
    if (is_none(*pad)) {
        *pad = ts_emit_const(e, ts_int(-1), b->r);
    } else if (const_int(*pad, &i) && i < 0) {
        TsIrValue *zero = ts_emit_const(e, ts_int(0), b->r);
        TsIrValue *rows = zero ? ts_emit_op2(e, "aten::size", arg(b, "weight"), zero, b->r)
                               : NULL;
        *pad = rows ? ts_emit_op2(e, "aten::add", rows, *pad, b->r) : NULL;
    }
    return *pad ? value_of(out, call_op(e, b)) : -1;
}

/* F.max_poolNd: stride None is the empty list (the operator's "same as kernel_size"). */
static int rw_max_pool(TsEmitter *e, Bound *b, TsSugared *out)
{
    TsIrValue **stride = param(b, "stride");
    if (is_none(*stride) && !(*stride = ts_emit_list(e, ts_type_int(), 0, NULL, b->r)))
        return -1;
    return value_of(out, call_op(e, b));
}

/* F.adaptive_max_poolNd: the operator returns (values, indices). */
static int rw_adaptive_max(TsEmitter *e, Bound *b, TsSugared *out)
{
    int ri = const_bool(arg(b, "return_indices"));
    if (ri < 0)
        return ts_emit_error(e, b->r, "return_indices must be a bool constant");
    TsIrValue *t = call_op(e, b);
    if (!t || ri)
        return value_of(out, t);
    TsIrValue *zero = ts_emit_const(e, ts_int(0), b->r);
    return value_of(out, zero ? ts_emit_subscript_value(e, t, zero, b->r) : NULL);
}

static int need_dim(TsEmitter *e, Bound *b)
{
    if (is_none(arg(b, "dim")))
        return ts_emit_error(e, b->r, "%s: the implicit dim choice is deprecated and not "
                             "supported; pass dim", strrchr(b->fn->name, '.') + 1);
    return 0;
}

static int rw_softmax(TsEmitter *e, Bound *b, TsSugared *out)
{
    return need_dim(e, b) ? -1 : value_of(out, call_op(e, b));
}

/* F.softmin(x) is softmax(-x). */
static int rw_softmin(TsEmitter *e, Bound *b, TsSugared *out)
{
    if (need_dim(e, b))
        return -1;
    TsIrValue **in = param(b, "input");
    *in = ts_emit_op2(e, "aten::neg", *in, NULL, b->r);
    return *in ? value_of(out, call_op(e, b)) : -1;
}

/* F.tanhshrink(x) is x - tanh(x); F.softsign(x) is x / (|x| + 1). */
static int rw_tanhshrink(TsEmitter *e, Bound *b, TsSugared *out)
{
    TsIrValue *x = arg(b, "input");
    TsIrValue *t = ts_emit_op2(e, "aten::tanh", x, NULL, b->r);
    return value_of(out, t ? ts_emit_op2(e, "aten::sub", x, t, b->r) : NULL);
}

static int rw_softsign(TsEmitter *e, Bound *b, TsSugared *out)
{
    TsIrValue *x = arg(b, "input");
    TsIrValue *a = ts_emit_op2(e, "aten::abs", x, NULL, b->r);
    TsIrValue *one = a ? ts_emit_const(e, ts_int(1), b->r) : NULL;
    TsIrValue *d = one ? ts_emit_op2(e, "aten::add", a, one, b->r) : NULL;
    return value_of(out, d ? ts_emit_op2(e, "aten::div", x, d, b->r) : NULL);
}

/* F.normalize: x / norm(x, p, [dim], keepdim=True).clamp_min(eps).expand_as(x). */
static int rw_normalize(TsEmitter *e, Bound *b, TsSugared *out)
{
    if (!is_none(arg(b, "out")))
        return ts_emit_error(e, b->r, "F.normalize with out= is not supported");
    TsIrValue *x = arg(b, "input"), *dim = arg(b, "dim");
    TsIrValue *dims = ts_emit_list(e, ts_type_int(), 1, &dim, b->r);
    TsIrValue *keep = dims ? ts_emit_const(e, ts_bool(true), b->r) : NULL;
    if (!keep)
        return -1;
    TsNamedValue a[4] = { { NULL, x, b->r }, { NULL, arg(b, "p"), b->r },
                          { NULL, dims, b->r }, { NULL, keep, b->r } };
    TsIrValue *n = ts_emit_op(e, "aten::norm", 4, a, b->r);
    TsIrValue *c = n ? ts_emit_op2(e, "aten::clamp_min", n, arg(b, "eps"), b->r) : NULL;
    TsIrValue *d = c ? ts_emit_op2(e, "aten::expand_as", c, x, b->r) : NULL;
    return value_of(out, d ? ts_emit_op2(e, "aten::div", x, d, b->r) : NULL);
}

/* F.kl_div: 'batchmean' sums, then divides by the batch size. */
static int rw_kl_div(TsEmitter *e, Bound *b, TsSugared *out)
{
    TsIrValue **red = param(b, "reduction");
    int64_t v = -1;
    const_int(*red, &v);
    if (v == 3 && !(*red = ts_emit_const(e, ts_int(2), b->r)))
        return -1;
    TsIrValue *t = call_op(e, b);
    if (!t || v != 3)
        return value_of(out, t);
    TsIrValue *zero = ts_emit_const(e, ts_int(0), b->r);
    TsIrValue *n = zero ? ts_emit_op2(e, "aten::size", arg(b, "input"), zero, b->r) : NULL;
    return value_of(out, n ? ts_emit_op2(e, "aten::div", t, n, b->r) : NULL);
}

/* The length of a list value when the graph knows it (a literal), else -1. */
static long list_len(const TsIrValue *v)
{
    if (v->node->kind == ts_symbol("prim::ListConstruct"))
        return (long)v->node->n_inputs;
    const TsAttr *a = const_attr(v);
    return a && (a->kind == TS_ATTR_INTS || a->kind == TS_ATTR_FLOATS) ? (long)a->n : -1;
}

/* [x] * n for the per-dimension size or scale, or the list itself. */
static TsIrValue *per_dim(TsEmitter *e, TsIrValue *v, long dims, TsSourceRange r)
{
    if (is_none(v) || ts_type_kind(v->type) == TS_TYPE_LIST)
        return v;
    TsIrValue *items[3] = { v, v, v };
    return ts_emit_list(e, v->type, (size_t)dims, items, r);
}

static const struct InterpMode {
    const char *mode, *op;
    long rank;               /* 0: the input's spatial rank (1 to 3) */
    bool corners;            /* takes align_corners */
} interp_modes[] = {
    { "nearest", "aten::upsample_nearest%ldd", 0, false },
    { "nearest-exact", "aten::_upsample_nearest_exact%ldd", 0, false },
    { "area", "aten::adaptive_avg_pool%ldd", 0, false },
    { "linear", "aten::upsample_linear1d", 1, true },
    { "bilinear", "aten::upsample_bilinear2d", 2, true },
    { "bicubic", "aten::upsample_bicubic2d", 2, true },
    { "trilinear", "aten::upsample_trilinear3d", 3, true },
};

/* The resampling operator for one spatial rank. */
static TsIrValue *interp_rank(TsEmitter *e, Bound *b, const struct InterpMode *m, long rank,
                              TsIrValue *ac)
{
    TsIrValue *x = arg(b, "input"), *size = arg(b, "size"), *scale = arg(b, "scale_factor");
    char op[64];
    snprintf(op, sizeof op, m->op, rank);
    TsIrValue *osize = per_dim(e, size, rank, b->r), *scales = per_dim(e, scale, rank, b->r);
    if (!osize || !scales)
        return NULL;
    if (strcmp(m->mode, "area") == 0) {
        if (is_none(size))
            return ts_emit_error(e, b->r, "interpolate: mode 'area' needs size"), NULL;
        return ts_emit_op2(e, op, x, osize, b->r);
    }
    TsNamedValue a[4] = { { NULL, x, b->r }, { NULL, osize, b->r }, { NULL, ac, b->r },
                          { NULL, scales, b->r } };
    if (!m->corners)
        a[2] = a[3];
    return ts_emit_op(e, op, m->corners ? 4 : 3, a, b->r);
}

/* When only the input knows the rank: prim::If on input.dim() == rank + 2, as PyTorch's
 * interpolate branches, for ranks from..3 (the last one is the else branch). */
static TsIrValue *interp_dispatch(TsEmitter *e, Bound *b, const struct InterpMode *m,
                                  long from, TsIrValue *ac)
{
    if (from == 3)
        return interp_rank(e, b, m, 3, ac);
    TsIrValue *d = ts_emit_op2(e, "aten::dim", arg(b, "input"), NULL, b->r);
    TsIrValue *want = d ? ts_emit_const(e, ts_int(from + 2), b->r) : NULL;
    TsIrValue *cond = want ? ts_emit_op2(e, "aten::eq", d, want, b->r) : NULL;
    TsNode *n = cond ? ts_emit_node(e, "prim::If", 1, &cond, 0, b->r) : NULL;
    if (!n)
        return NULL;
    for (int i = 0; i < 2; i++) {
        TsBlock *blk = ts_node_add_block(n, e->err);
        if (!blk || ts_env_push(e, blk, false) != 0)
            return NULL;
        ts_graph_set_insert_end(e->g, blk);
        TsIrValue *v = i == 0 ? interp_rank(e, b, m, from, ac)
                              : interp_dispatch(e, b, m, from + 1, ac);
        ts_env_pop(e);
        if (!v || ts_block_add_output(blk, v, e->err) != 0)
            return NULL;
    }
    ts_graph_set_insert_point(e->g, n->next);
    return ts_node_add_output(n, ts_type_tensor(), e->err);
}

/* F.interpolate: the mode picks the operator, the spatial rank its 1d/2d/3d form, and size or
 * scale_factor become the per-dimension lists of the .vec overloads. The rank is the mode's
 * (bilinear is 2-d), else the length of a literal size/scale list, else the input's, decided
 * at run time. */
static int rw_interpolate(TsEmitter *e, Bound *b, TsSugared *out)
{
    TsIrValue *size = arg(b, "size"), *scale = arg(b, "scale_factor");
    const char *mode = const_str(arg(b, "mode"));
    TsIrValue *ac = arg(b, "align_corners");
    if (!mode)
        return ts_emit_error(e, b->r, "interpolate: mode must be a string constant");
    if (is_none(size) == is_none(scale))
        return ts_emit_error(e, b->r, is_none(size)
                             ? "either size or scale_factor should be defined"
                             : "only one of size or scale_factor should be defined");
    int rc = const_bool(arg(b, "recompute_scale_factor"));
    if ((rc != -1 && rc != 0) || const_bool(arg(b, "antialias")) != 0)
        return ts_emit_error(e, b->r, "interpolate: recompute_scale_factor and antialias "
                             "are not supported");
    size_t nm = sizeof interp_modes / sizeof *interp_modes, i = 0;
    while (i < nm && strcmp(interp_modes[i].mode, mode) != 0)
        i++;
    if (i == nm)
        return ts_emit_error(e, b->r, "interpolate: unknown mode '%s'", mode);
    const struct InterpMode *m = &interp_modes[i];
    if (!m->corners && !is_none(ac))
        return ts_emit_error(e, b->r, "align_corners option can only be set with the "
                             "interpolating modes: linear | bilinear | bicubic | trilinear");
    if (is_none(ac) && !(ac = ts_emit_const(e, ts_bool(false), b->r)))
        return -1;
    long rank = m->rank ? m->rank : list_len(is_none(size) ? scale : size);
    if (rank >= 1 && rank <= 3)
        return value_of(out, interp_rank(e, b, m, rank, ac));
    return value_of(out, interp_dispatch(e, b, m, 1, ac));
}

/* torch.norm: p 'fro' is aten::frobenius_norm, 'nuc' aten::nuclear_norm, a number
 * aten::norm over dim (all of them when dim is None). */
static int rw_norm(TsEmitter *e, Bound *b, TsSugared *out)
{
    if (!is_none(arg(b, "out")))
        return ts_emit_error(e, b->r, "torch.norm with out= is not supported");
    TsIrValue *x = arg(b, "input"), *p = arg(b, "p"), *dim = arg(b, "dim");
    TsIrValue *keep = arg(b, "keepdim"), *dtype = arg(b, "dtype");
    if (ts_type_kind(dim->type) == TS_TYPE_INT &&
        !(dim = ts_emit_list(e, ts_type_int(), 1, &dim, b->r)))
        return -1;
    if (ts_type_kind(p->type) == TS_TYPE_STR) {
        const char *s = const_str(p);
        if (!s || (strcmp(s, "fro") != 0 && strcmp(s, "nuc") != 0))
            return ts_emit_error(e, b->r, "torch.norm: p must be 'fro', 'nuc' or a number");
        if (is_none(dim) && !(dim = ts_emit_list(e, ts_type_int(), 0, NULL, b->r)))
            return -1;
        if (s[0] == 'n')
            return value_of(out, is_none(arg(b, "dim"))
                                 ? ts_emit_op2(e, "aten::nuclear_norm", x, keep, b->r)
                                 : ts_emit_op(e, "aten::nuclear_norm", 3, (TsNamedValue[]){
                                       { NULL, x, b->r }, { NULL, dim, b->r },
                                       { NULL, keep, b->r } }, b->r));
        TsNamedValue a[3] = { { NULL, x, b->r }, { NULL, dim, b->r }, { NULL, keep, b->r } };
        return value_of(out, ts_emit_op(e, "aten::frobenius_norm", 3, a, b->r));
    }
    if (is_none(dim)) {
        if (const_bool(keep) != 0 || !is_none(dtype))
            return ts_emit_error(e, b->r, "torch.norm: keepdim and dtype need dim");
        return value_of(out, ts_emit_op2(e, "aten::norm", x, p, b->r));
    }
    TsNamedValue a[5] = { { NULL, x, b->r }, { NULL, p, b->r }, { NULL, dim, b->r },
                          { NULL, keep, b->r }, { "dtype", dtype, b->r } };
    return value_of(out, ts_emit_op(e, "aten::norm", is_none(dtype) ? 4 : 5, a, b->r));
}

/* ---- the table ------------------------------------------------------------------------- */

#define F_ "torch.nn.functional."
#define LOSS_LEGACY "size_average=None, reduce=None, reduction='mean'"

static const FnEntry table[] = {
    /* losses */
    { F_ "cross_entropy", "input, target, weight=None, size_average=None, ignore_index=-100, "
      "reduce=None, reduction='mean', label_smoothing=0.0", "aten::cross_entropy_loss",
      "input, target, weight, reduction, ignore_index, label_smoothing", FN_REDUCTION, NULL },
    { F_ "nll_loss", "input, target, weight=None, size_average=None, ignore_index=-100, "
      "reduce=None, reduction='mean'", "aten::nll_loss_nd",
      "input, target, weight, reduction, ignore_index", FN_REDUCTION, NULL },
    { F_ "mse_loss", "input, target, " LOSS_LEGACY, "aten::mse_loss",
      "input, target, reduction", FN_REDUCTION, NULL },
    { F_ "l1_loss", "input, target, " LOSS_LEGACY, "aten::l1_loss",
      "input, target, reduction", FN_REDUCTION, NULL },
    { F_ "smooth_l1_loss", "input, target, " LOSS_LEGACY ", beta=1.0", "aten::smooth_l1_loss",
      "input, target, reduction, beta", FN_REDUCTION, NULL },
    { F_ "huber_loss", "input, target, reduction='mean', delta=1.0", "aten::huber_loss",
      "input, target, reduction, delta", FN_REDUCTION, NULL },
    { F_ "binary_cross_entropy", "input, target, weight=None, " LOSS_LEGACY,
      "aten::binary_cross_entropy", "input, target, weight, reduction", FN_REDUCTION, NULL },
    { F_ "binary_cross_entropy_with_logits", "input, target, weight=None, " LOSS_LEGACY
      ", pos_weight=None", "aten::binary_cross_entropy_with_logits",
      "input, target, weight, pos_weight, reduction", FN_REDUCTION, NULL },
    { F_ "kl_div", "input, target, " LOSS_LEGACY ", log_target=False", "aten::kl_div",
      "input, target, reduction, log_target", FN_REDUCTION, rw_kl_div },
    /* normalization, dropout, lookup */
    { F_ "batch_norm", "input, running_mean, running_var, weight=None, bias=None, "
      "training=False, momentum=0.1, eps=1e-05", "aten::batch_norm",
      "input, weight, bias, running_mean, running_var, training, momentum, eps, True", 0,
      NULL },
    { F_ "layer_norm", "input, normalized_shape, weight=None, bias=None, eps=1e-05",
      "aten::layer_norm", "input, normalized_shape, weight, bias, eps, True", 0, NULL },
    { F_ "group_norm", "input, num_groups, weight=None, bias=None, eps=1e-05",
      "aten::group_norm", "input, num_groups, weight, bias, eps, True", 0, NULL },
    { F_ "instance_norm", "input, running_mean=None, running_var=None, weight=None, "
      "bias=None, use_input_stats=True, momentum=0.1, eps=1e-05", "aten::instance_norm",
      "input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, True",
      0, NULL },
    { F_ "normalize", "input, p=2.0, dim=1, eps=1e-12, out=None", "aten::norm", "", 0,
      rw_normalize },
    { F_ "dropout", "input, p=0.5, training=True, inplace=False", "aten::dropout",
      "input, p, training", FN_INPLACE, NULL },
    { F_ "alpha_dropout", "input, p=0.5, training=False, inplace=False",
      "aten::alpha_dropout", "input, p, training", FN_INPLACE, NULL },
    { F_ "feature_alpha_dropout", "input, p=0.5, training=False, inplace=False",
      "aten::feature_alpha_dropout", "input, p, training", FN_INPLACE, NULL },
    { F_ "dropout2d", "input, p=0.5, training=True, inplace=False", "aten::feature_dropout",
      "input, p, training", FN_INPLACE, NULL },
    { F_ "embedding", "input, weight, padding_idx=None, max_norm=None, norm_type=2.0, "
      "scale_grad_by_freq=False, sparse=False", "aten::embedding",
      "weight, input, padding_idx, scale_grad_by_freq, sparse", 0, rw_embedding },
    /* activations: inplace=True is the op_ variant */
    { F_ "relu", "input, inplace=False", "aten::relu", "input", FN_INPLACE, NULL },
    { F_ "relu6", "input, inplace=False", "aten::relu6", "input", FN_INPLACE, NULL },
    { F_ "selu", "input, inplace=False", "aten::selu", "input", FN_INPLACE, NULL },
    { F_ "silu", "input, inplace=False", "aten::silu", "input", FN_INPLACE, NULL },
    { F_ "mish", "input, inplace=False", "aten::mish", "input", FN_INPLACE, NULL },
    { F_ "hardswish", "input, inplace=False", "aten::hardswish", "input", FN_INPLACE, NULL },
    { F_ "hardsigmoid", "input, inplace=False", "aten::hardsigmoid", "input", FN_INPLACE,
      NULL },
    { F_ "celu", "input, alpha=1.0, inplace=False", "aten::celu", "input, alpha", FN_INPLACE,
      NULL },
    { F_ "elu", "input, alpha=1.0, inplace=False", "aten::elu", "input, alpha", FN_INPLACE,
      NULL },
    { F_ "leaky_relu", "input, negative_slope=0.01, inplace=False", "aten::leaky_relu",
      "input, negative_slope", FN_INPLACE, NULL },
    { F_ "hardtanh", "input, min_val=-1.0, max_val=1.0, inplace=False", "aten::hardtanh",
      "input, min_val, max_val", FN_INPLACE, NULL },
    { F_ "threshold", "input, threshold, value, inplace=False", "aten::threshold",
      "input, threshold, value", FN_INPLACE, NULL },
    { F_ "rrelu", "input, lower=0.125, upper=0.3333333333333333, training=False, "
      "inplace=False", "aten::rrelu", "input, lower, upper, training, None", FN_INPLACE,
      NULL },
    { F_ "gelu", "input, approximate='none'", "aten::gelu", "input, *approximate", 0, NULL },
    { F_ "glu", "input, dim=-1", "aten::glu", "input, dim", 0, NULL },
    { F_ "logsigmoid", "input", "aten::log_sigmoid", "input", 0, NULL },
    { F_ "sigmoid", "input", "aten::sigmoid", "input", 0, NULL },
    { F_ "tanh", "input", "aten::tanh", "input", 0, NULL },
    { F_ "tanhshrink", "input", "aten::tanh", "", 0, rw_tanhshrink },
    { F_ "softsign", "input", "aten::abs", "", 0, rw_softsign },
    { F_ "softmax", "input, dim=None, _stacklevel=3, dtype=None", "aten::softmax",
      "input, dim, dtype", 0, rw_softmax },
    { F_ "log_softmax", "input, dim=None, _stacklevel=3, dtype=None", "aten::log_softmax",
      "input, dim, dtype", 0, rw_softmax },
    { F_ "softmin", "input, dim=None, _stacklevel=3, dtype=None", "aten::softmax",
      "input, dim, dtype", 0, rw_softmin },
    /* pooling and resampling */
    { F_ "max_pool1d", "input, kernel_size, stride=None, padding=0, dilation=1, "
      "ceil_mode=False, return_indices=False", "aten::max_pool1d",
      "input, kernel_size, stride, padding, dilation, ceil_mode", FN_INDICES, rw_max_pool },
    { F_ "max_pool2d", "input, kernel_size, stride=None, padding=0, dilation=1, "
      "ceil_mode=False, return_indices=False", "aten::max_pool2d",
      "input, kernel_size, stride, padding, dilation, ceil_mode", FN_INDICES, rw_max_pool },
    { F_ "max_pool3d", "input, kernel_size, stride=None, padding=0, dilation=1, "
      "ceil_mode=False, return_indices=False", "aten::max_pool3d",
      "input, kernel_size, stride, padding, dilation, ceil_mode", FN_INDICES, rw_max_pool },
    { F_ "adaptive_max_pool1d", "input, output_size, return_indices=False",
      "aten::adaptive_max_pool1d", "input, output_size", 0, rw_adaptive_max },
    { F_ "adaptive_max_pool2d", "input, output_size, return_indices=False",
      "aten::adaptive_max_pool2d", "input, output_size", 0, rw_adaptive_max },
    { F_ "interpolate", "input, size:[]=None, scale_factor:[]=None, mode='nearest', "
      "align_corners=None, recompute_scale_factor=None, antialias=False", "", "", 0,
      rw_interpolate },
    { F_ "upsample", "input, size:[]=None, scale_factor:[]=None, mode='nearest', "
      "align_corners=None", "", "", 0, rw_interpolate },
    /* torch.* functions written in Python */
    { "torch.norm", "input, p='fro', dim=None, keepdim=False, out=None, dtype=None",
      "aten::norm", "", 0, rw_norm },
};

static const FnEntry *find(const char *name)
{
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

bool ts_functional_known(const char *qualname)
{
    return find(qualname) != NULL;
}

int ts_functional_call(TsEmitter *e, const char *qualname, const TsTree *call, TsSugared *out)
{
    const FnEntry *fn = find(qualname);
    if (!fn)
        return ts_emit_error(e, call->range, "%s is not supported in TorchScript", qualname);
    Bound b;
    if (bind(e, fn, call, &b) != 0)
        return -1;
    if ((fn->flags & FN_REDUCTION) && reduction(e, &b) != 0)
        return -1;
    if ((fn->flags & FN_INPLACE) && select_variant(e, &b, "inplace", "_") != 0)
        return -1;
    if ((fn->flags & FN_INDICES) && select_variant(e, &b, "return_indices", "_with_indices"))
        return -1;
    if (fn->rewrite)
        return fn->rewrite(e, &b, out);
    return value_of(out, call_op(e, &b));
}
