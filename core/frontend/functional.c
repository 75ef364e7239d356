/* functional.c — the part of torch.nn.functional (and torch.norm, torch.unique) still
 * lowered to aten operators in C: max pooling and torch.unique (PyTorch's boolean dispatch
 * on return_indices / return_inverse, which needs a constant), interpolate, fold/unfold and
 * torch.norm. The rest of torch.nn.functional is TorchScript source the aten plugins ship
 * (schemas/torch.nn.functional.py, compiled and inlined by library.c and inline.c); a name
 * defined there is never looked up here.
 *
 * PyTorch writes these functions in Python (torch/nn/functional.py) and scripts them. We do
 * the same work at compile time, from one table: an entry gives the Python signature (names
 * and defaults, so positional and keyword calls bind alike), the operator, the operator's
 * arguments by parameter name ("*name" for a keyword-only one) or as a literal, a flag for
 * return_indices and, where that is not all, a rewrite function. A name neither the library
 * nor the table knows stays "aten::NAME" with its arguments unchanged, which is right
 * whenever PyTorch itself registers the F.* function as the aten builtin (F.linear, ...).
 *
 * The arguments the rewrites decide on (mode, p, stride, ...) are usually literals and then
 * decided here; when one is a value known only at run time, the decision goes into the
 * graph as PyTorch's scripted Python puts it there: prim::If on a string comparison, on
 * `is None`, with prim::RaiseException where PyTorch's Python raises.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"

enum { MAX_PARAMS = 12 };

typedef struct Bound Bound;
typedef struct FnEntry FnEntry;

struct FnEntry {
    const char *name;       /* "torch.nn.functional.cross_entropy" */
    const char *params;     /* the Python signature: "input, target, weight=None, ..." */
    const char *op;         /* the operator */
    const char *args;       /* the operator's arguments: parameter names or literals */
    /* a rewrite for what the argument list does not say: emits the result, 0 or -1 */
    int (*rewrite)(TsEmitter *e, Bound *b, TsSugared *out);
};

/* The call bound to the signature. */
struct Bound {
    const FnEntry *fn;
    size_t n;
    char names[MAX_PARAMS][32];
    bool is_list[MAX_PARAMS];      /* "name:[]": a tuple literal passed is a list */
    TsIrValue *vals[MAX_PARAMS];
    bool by_keyword[MAX_PARAMS];
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
            b->by_keyword[slot - b->vals] = true;
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

/* ---- decisions at run time ---------------------------------------------------------- */

typedef TsIrValue *(*BranchFn)(TsEmitter *e, Bound *b, const void *data);

/* prim::If(cond) with one output of type t, its blocks yielding then_fn's and else_fn's
 * values. */
static TsIrValue *if_value(TsEmitter *e, Bound *b, TsIrValue *cond, const TsType *t,
                           BranchFn then_fn, const void *then_arg, BranchFn else_fn,
                           const void *else_arg)
{
    TsNode *n = cond ? ts_emit_node(e, "prim::If", 1, &cond, 0, b->r) : NULL;
    if (!n)
        return NULL;
    for (int i = 0; i < 2; i++) {
        TsBlock *blk = ts_node_add_block(n, e->err);
        if (!blk || ts_env_push(e, blk, false) != 0)
            return NULL;
        ts_graph_set_insert_end(e->g, blk);
        TsIrValue *v = i == 0 ? then_fn(e, b, then_arg) : else_fn(e, b, else_arg);
        ts_env_pop(e);
        if (!v || ts_block_add_output(blk, v, e->err) != 0)
            return NULL;
    }
    ts_graph_set_insert_point(e->g, n->next);
    return ts_node_add_output(n, t, e->err);
}

/* What a branch that raises yields: `raise cls(fmt.format(arg))`, then prim::Uninitialized
 * of the type the other branches yield. */
typedef struct Raise {
    const char *cls;           /* "builtins.ValueError" */
    const char *fmt;           /* with a "{}" for each of arg and arg2 that is not NULL */
    TsIrValue *arg, *arg2;
    const TsType *type;
} Raise;

static TsIrValue *raise_value(TsEmitter *e, Bound *b, const void *data)
{
    const Raise *x = data;
    TsIrValue *msg = ts_emit_str_const(e, x->fmt, b->r);
    if (msg && x->arg) {
        TsNamedValue a[3] = { { NULL, msg, b->r }, { NULL, x->arg, b->r },
                              { NULL, x->arg2, b->r } };
        msg = ts_emit_op(e, "aten::format", x->arg2 ? 3 : 2, a, b->r);
    }
    TsIrValue *in[2] = { msg, msg ? ts_emit_str_const(e, x->cls, b->r) : NULL };
    TsNode *u = in[1] && ts_emit_node(e, "prim::RaiseException", 2, in, 0, b->r)
                    ? ts_emit_node(e, "prim::Uninitialized", 0, NULL, 1, b->r) : NULL;
    if (!u)
        return NULL;
    u->outputs[0]->type = x->type;
    return u->outputs[0];
}

static TsIrValue *str_eq(TsEmitter *e, Bound *b, TsIrValue *v, const char *lit)
{
    TsIrValue *c = ts_emit_str_const(e, lit, b->r);
    return c ? ts_emit_op2(e, "aten::eq", v, c, b->r) : NULL;
}

/* The parameter that picks an overload by PyTorch's boolean dispatch must be a constant. */
static int boolean_dispatch(TsEmitter *e, Bound *b, const char *pname)
{
    TsIrValue **v = param(b, pname);
    int on = const_bool(*v);
    if (on < 0) {
        size_t pos = (size_t)(v - b->vals);
        if (b->by_keyword[pos])
            return ts_emit_error(e, b->r, "Keyword argument '%s' for boolean dispatch at "
                                 "position was not constant", pname);
        return ts_emit_error(e, b->r, "Argument for boolean dispatch at position %zu was not "
                             "constant", pos);
    }
    return 0;
}

/* Emits b->op with the entry's argument list. */
static TsIrValue *emit_op(TsEmitter *e, Bound *b, const char *op)
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
    return ts_emit_op(e, op, n, a, b->r);
}

/* The entry's operator call. */
static TsIrValue *call_op(TsEmitter *e, Bound *b)
{
    return emit_op(e, b, b->op);
}

/* ---- rewrites of single entries ----------------------------------------------------- */

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
    { "linear", "aten::upsample_linear1d", 1, true },
    { "bilinear", "aten::upsample_bilinear2d", 2, true },
    { "bicubic", "aten::upsample_bicubic2d", 2, true },
    { "trilinear", "aten::upsample_trilinear3d", 3, true },
    { "area", "aten::adaptive_avg_pool%ldd", 0, false },
    { "nearest-exact", "aten::_upsample_nearest_exact%ldd", 0, false },
};
enum { N_INTERP_MODES = sizeof interp_modes / sizeof *interp_modes };

static const char corners_msg[] = "align_corners option can only be set with the "
                                  "interpolating modes: linear | bilinear | bicubic | trilinear";
static const char area_msg[] = "interpolate: mode 'area' needs size";

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
    if (strcmp(m->mode, "area") == 0)
        return ts_emit_op2(e, op, x, osize, b->r);
    TsNamedValue a[4] = { { NULL, x, b->r }, { NULL, osize, b->r }, { NULL, ac, b->r },
                          { NULL, scales, b->r } };
    if (!m->corners)
        a[2] = a[3];
    return ts_emit_op(e, op, m->corners ? 4 : 3, a, b->r);
}

/* The ranks from..3 of one mode: the rank of a literal size/scale list, else prim::If on
 * input.dim() == rank + 2, as PyTorch's interpolate branches (the last rank is the else
 * branch). */
typedef struct InterpAt {
    const struct InterpMode *m;
    long from;
    TsIrValue *ac;
} InterpAt;

static TsIrValue *interp_rank_branch(TsEmitter *e, Bound *b, const void *data)
{
    const InterpAt *at = data;
    return interp_rank(e, b, at->m, at->from, at->ac);
}

static TsIrValue *interp_ranks(TsEmitter *e, Bound *b, const void *data)
{
    const InterpAt *at = data;
    if (at->from == 3)
        return interp_rank(e, b, at->m, 3, at->ac);
    TsIrValue *d = ts_emit_op2(e, "aten::dim", arg(b, "input"), NULL, b->r);
    TsIrValue *want = d ? ts_emit_const(e, ts_int(at->from + 2), b->r) : NULL;
    TsIrValue *cond = want ? ts_emit_op2(e, "aten::eq", d, want, b->r) : NULL;
    InterpAt next = { at->m, at->from + 1, at->ac };
    return if_value(e, b, cond, ts_type_tensor(), interp_rank_branch, at, interp_ranks, &next);
}

/* PyTorch's error for an input of the wrong rank for mode m (one of the fixed-rank modes):
 * "Got 3D input, but bilinear mode needs 4D input" among 3-d to 5-d inputs (bicubic has no
 * such message), else the general one. */
static TsIrValue *wrong_rank(TsEmitter *e, Bound *b, const void *data)
{
    const struct InterpMode *m = data;
    TsIrValue *d = ts_emit_op2(e, "aten::dim", arg(b, "input"), NULL, b->r);
    TsIrValue *mode = d ? ts_emit_str_const(e, m->mode, b->r) : NULL;
    if (!mode)
        return NULL;
    char fmt[96];
    snprintf(fmt, sizeof fmt, "Got {}D input, but %s mode needs %ldD input", m->mode,
             m->rank + 2);
    Raise got = { "builtins.NotImplementedError", fmt, d, NULL, ts_type_tensor() };
    Raise general = { "builtins.NotImplementedError", "Input Error: Only 3D, 4D and 5D input "
                      "Tensors supported (got {}D) for the modes: nearest | linear | bilinear | "
                      "bicubic | trilinear | area | nearest-exact (got {})", d, mode,
                      ts_type_tensor() };
    if (strcmp(m->mode, "bicubic") == 0)
        return raise_value(e, b, &general);
    TsIrValue *three = ts_emit_const(e, ts_int(3), b->r);
    TsIrValue *five = three ? ts_emit_const(e, ts_int(5), b->r) : NULL;
    TsIrValue *ge = five ? ts_emit_op2(e, "aten::ge", d, three, b->r) : NULL;
    TsIrValue *le = ge ? ts_emit_op2(e, "aten::le", d, five, b->r) : NULL;
    TsIrValue *in = le ? ts_emit_op2(e, "aten::__and__", ge, le, b->r) : NULL;
    return if_value(e, b, in, ts_type_tensor(), raise_value, &got, raise_value, &general);
}

/* One mode. A combination the mode refuses raises (a mode decided at run time has a branch
 * for each mode; a constant mode reports these when compiling). */
static TsIrValue *interp_mode(TsEmitter *e, Bound *b, const void *data)
{
    const struct InterpMode *m = data;
    TsIrValue *ac = arg(b, "align_corners"), *size = arg(b, "size");
    const char *refused = !m->corners && !is_none(ac) ? corners_msg
                          : strcmp(m->mode, "area") == 0 && is_none(size) ? area_msg : NULL;
    if (refused) {
        Raise x = { "builtins.ValueError", refused, NULL, NULL, ts_type_tensor() };
        return raise_value(e, b, &x);
    }
    if (is_none(ac) && !(ac = ts_emit_const(e, ts_bool(false), b->r)))
        return NULL;
    if (m->rank) {           /* linear is 1-d only, ...: other inputs raise as PyTorch's do */
        TsIrValue *d = ts_emit_op2(e, "aten::dim", arg(b, "input"), NULL, b->r);
        TsIrValue *want = d ? ts_emit_const(e, ts_int(m->rank + 2), b->r) : NULL;
        TsIrValue *cond = want ? ts_emit_op2(e, "aten::eq", d, want, b->r) : NULL;
        InterpAt at = { m, m->rank, ac };
        return if_value(e, b, cond, ts_type_tensor(), interp_rank_branch, &at, wrong_rank, m);
    }
    long rank = list_len(is_none(size) ? arg(b, "scale_factor") : size);
    if (rank >= 1 && rank <= 3)
        return interp_rank(e, b, m, rank, ac);
    InterpAt at = { m, 1, ac };
    return interp_ranks(e, b, &at);
}

/* A mode known at run time: prim::If on each mode's name in turn, then PyTorch's error. */
typedef struct ModeSwitch {
    TsIrValue *mode;
    size_t i;
} ModeSwitch;

static TsIrValue *interp_mode_switch(TsEmitter *e, Bound *b, const void *data)
{
    const ModeSwitch *sw = data;
    if (sw->i == N_INTERP_MODES) {
        TsIrValue *nd = ts_emit_op2(e, "aten::dim", arg(b, "input"), NULL, b->r);
        Raise x = { "builtins.NotImplementedError", "Input Error: Only 3D, 4D and 5D input "
                    "Tensors supported (got {}D) for the modes: nearest | linear | bilinear | "
                    "bicubic | trilinear | area | nearest-exact (got {})", nd, sw->mode,
                    ts_type_tensor() };
        return nd ? raise_value(e, b, &x) : NULL;
    }
    ModeSwitch next = { sw->mode, sw->i + 1 };
    return if_value(e, b, str_eq(e, b, sw->mode, interp_modes[sw->i].mode), ts_type_tensor(),
                    interp_mode, &interp_modes[sw->i], interp_mode_switch, &next);
}

/* F.interpolate: the mode picks the operator, the spatial rank its 1d/2d/3d form, and size or
 * scale_factor become the per-dimension lists of the .vec overloads. The rank is the mode's
 * (bilinear is 2-d), else the length of a literal size/scale list, else the input's, decided
 * at run time. */
static int rw_interpolate(TsEmitter *e, Bound *b, TsSugared *out)
{
    TsIrValue *size = arg(b, "size"), *scale = arg(b, "scale_factor"), *mv = arg(b, "mode");
    if (is_none(size) == is_none(scale))
        return ts_emit_error(e, b->r, is_none(size)
                             ? "either size or scale_factor should be defined"
                             : "only one of size or scale_factor should be defined");
    int rc = const_bool(arg(b, "recompute_scale_factor"));
    if ((rc != -1 && rc != 0) || const_bool(arg(b, "antialias")) != 0)
        return ts_emit_error(e, b->r, "interpolate: recompute_scale_factor and antialias "
                             "are not supported");
    if (ts_type_kind(mv->type) != TS_TYPE_STR)
        return ts_emit_error(e, b->r, "interpolate: mode must be a str");
    const char *mode = const_str(mv);
    if (!mode) {
        ModeSwitch sw = { mv, 0 };
        return value_of(out, interp_mode_switch(e, b, &sw));
    }
    size_t i = 0;
    while (i < N_INTERP_MODES && strcmp(interp_modes[i].mode, mode) != 0)
        i++;
    if (i == N_INTERP_MODES)
        return ts_emit_error(e, b->r, "interpolate: unknown mode '%s'", mode);
    const struct InterpMode *m = &interp_modes[i];
    if (!m->corners && !is_none(arg(b, "align_corners")))
        return ts_emit_error(e, b->r, corners_msg);
    if (strcmp(m->mode, "area") == 0 && is_none(size))
        return ts_emit_error(e, b->r, area_msg);
    return value_of(out, interp_mode(e, b, m));
}

/* torch.norm: p 'fro' is aten::frobenius_norm, 'nuc' aten::nuclear_norm (p decided at run
 * time when it is a str value), a number aten::norm over dim (all of them when dim is
 * None). */
static TsIrValue *norm_dims(TsEmitter *e, Bound *b)
{
    TsIrValue *dim = arg(b, "dim");
    if (ts_type_kind(dim->type) == TS_TYPE_INT)
        return ts_emit_list(e, ts_type_int(), 1, &dim, b->r);
    return is_none(dim) ? ts_emit_list(e, ts_type_int(), 0, NULL, b->r) : dim;
}

static TsIrValue *frobenius(TsEmitter *e, Bound *b, const void *unused)
{
    (void)unused;
    TsIrValue *dim = norm_dims(e, b);
    TsNamedValue a[3] = { { NULL, arg(b, "input"), b->r }, { NULL, dim, b->r },
                          { NULL, arg(b, "keepdim"), b->r } };
    return dim ? ts_emit_op(e, "aten::frobenius_norm", 3, a, b->r) : NULL;
}

static TsIrValue *nuclear(TsEmitter *e, Bound *b, const void *unused)
{
    (void)unused;
    TsIrValue *x = arg(b, "input"), *keep = arg(b, "keepdim");
    if (is_none(arg(b, "dim")))
        return ts_emit_op2(e, "aten::nuclear_norm", x, keep, b->r);
    TsIrValue *dim = norm_dims(e, b);
    TsNamedValue a[3] = { { NULL, x, b->r }, { NULL, dim, b->r }, { NULL, keep, b->r } };
    return dim ? ts_emit_op(e, "aten::nuclear_norm", 3, a, b->r) : NULL;
}

static TsIrValue *norm_str_switch(TsEmitter *e, Bound *b, const void *data)
{
    TsIrValue *p = (TsIrValue *)data;
    Raise x = { "builtins.RuntimeError", "only valid string values are 'fro' and 'nuc', found {}",
                p, NULL, ts_type_tensor() };
    return if_value(e, b, str_eq(e, b, p, "nuc"), ts_type_tensor(), nuclear, NULL,
                    raise_value, &x);
}

static int rw_norm(TsEmitter *e, Bound *b, TsSugared *out)
{
    if (!is_none(arg(b, "out")))
        return ts_emit_error(e, b->r, "torch.norm with out= is not supported");
    TsIrValue *x = arg(b, "input"), *p = arg(b, "p"), *keep = arg(b, "keepdim");
    TsIrValue *dtype = arg(b, "dtype");
    if (ts_type_kind(p->type) == TS_TYPE_STR) {
        if (!is_none(dtype))
            return ts_emit_error(e, b->r, "dtype argument is not supported in frobenius norm");
        const char *s = const_str(p);
        if (!s)
            return value_of(out, if_value(e, b, str_eq(e, b, p, "fro"), ts_type_tensor(),
                                          frobenius, NULL, norm_str_switch, p));
        if (strcmp(s, "fro") != 0 && strcmp(s, "nuc") != 0)
            return ts_emit_error(e, b->r, "only valid string values are 'fro' and 'nuc', "
                                 "found %s", s);
        return value_of(out, s[0] == 'n' ? nuclear(e, b, NULL) : frobenius(e, b, NULL));
    }
    if (is_none(arg(b, "dim"))) {
        if (const_bool(keep) != 0 || !is_none(dtype))
            return ts_emit_error(e, b->r, "torch.norm: keepdim and dtype need dim");
        return value_of(out, ts_emit_op2(e, "aten::norm", x, p, b->r));
    }
    TsIrValue *dim = norm_dims(e, b);
    TsNamedValue a[5] = { { NULL, x, b->r }, { NULL, p, b->r }, { NULL, dim, b->r },
                          { NULL, keep, b->r }, { "dtype", dtype, b->r } };
    return value_of(out, dim ? ts_emit_op(e, "aten::norm", is_none(dtype) ? 4 : 5, a, b->r)
                             : NULL);
}

/* ---- the table ------------------------------------------------------------------------- */

#define F_ "torch.nn.functional."

/* torch.unique / torch.unique_consecutive (Python in PyTorch): aten::_unique2, unique_dim
 * or unique_consecutive, whose (output, inverse, counts) the constant return_inverse and
 * return_counts narrow to output alone or a tuple, as PyTorch's boolean dispatch does. */
static int rw_unique(TsEmitter *e, Bound *b, TsSugared *out)
{
    bool consecutive = strcmp(b->fn->name, "torch.unique_consecutive") == 0;
    int inv = const_bool(arg(b, "return_inverse")), cnt = const_bool(arg(b, "return_counts"));
    if (boolean_dispatch(e, b, "return_inverse") || boolean_dispatch(e, b, "return_counts"))
        return -1;
    TsIrValue *dim = arg(b, "dim"), *t;
    if (!is_none(dim) && ts_type_kind(dim->type) != TS_TYPE_INT && !consecutive)
        return ts_emit_error(e, b->r, "torch.unique: dim must be None or an int");
    if (consecutive) {
        TsNamedValue a[4] = { { NULL, arg(b, "input"), b->r }, { NULL, arg(b, "return_inverse"), b->r },
                              { NULL, arg(b, "return_counts"), b->r }, { NULL, dim, b->r } };
        t = ts_emit_op(e, "aten::unique_consecutive", 4, a, b->r);
    } else if (is_none(dim)) {
        TsNamedValue a[4] = { { NULL, arg(b, "input"), b->r }, { NULL, arg(b, "sorted"), b->r },
                              { NULL, arg(b, "return_inverse"), b->r },
                              { NULL, arg(b, "return_counts"), b->r } };
        t = ts_emit_op(e, "aten::_unique2", 4, a, b->r);
    } else {
        TsNamedValue a[5] = { { NULL, arg(b, "input"), b->r }, { NULL, dim, b->r },
                              { NULL, arg(b, "sorted"), b->r },
                              { NULL, arg(b, "return_inverse"), b->r },
                              { NULL, arg(b, "return_counts"), b->r } };
        t = ts_emit_op(e, "aten::unique_dim", 5, a, b->r);
    }
    TsIrValue *items[3];
    size_t n = 0;
    for (int64_t i = 0; t && i < 3; i++) {
        if ((i == 1 && !inv) || (i == 2 && !cnt))
            continue;
        TsIrValue *k = ts_emit_const(e, ts_int(i), b->r);
        if (!(items[n++] = k ? ts_emit_subscript_value(e, t, k, b->r) : NULL))
            return -1;
    }
    if (!t)
        return -1;
    return value_of(out, n == 1 ? items[0] : ts_emit_tuple(e, n, items, b->r));
}

static const FnEntry table[] = {
    /* resampling */
    { F_ "interpolate", "input, size:[]=None, scale_factor:[]=None, mode='nearest', "
      "align_corners=None, recompute_scale_factor=None, antialias=False", "", "",
      rw_interpolate },
    { F_ "upsample", "input, size:[]=None, scale_factor:[]=None, mode='nearest', "
      "align_corners=None", "", "", rw_interpolate },
    /* torch.* functions written in Python */
    { "torch.norm", "input, p='fro', dim=None, keepdim=False, out=None, dtype=None",
      "aten::norm", "", rw_norm },
    { "torch.unique", "input, sorted=True, return_inverse=False, return_counts=False, dim=None",
      "aten::_unique2", "", rw_unique },
    { "torch.unique_consecutive", "input, return_inverse=False, return_counts=False, dim=None",
      "aten::unique_consecutive", "", rw_unique },
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
    if (fn->rewrite)
        return fn->rewrite(e, &b, out);
    return value_of(out, call_op(e, &b));
}
