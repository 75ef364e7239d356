/* functional.c — torch.nn.functional (and torch.norm, torch.unique) lowered to aten operators.
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
 * The arguments the rewrites decide on (reduction, size_average/reduce, inplace, mode, p,
 * padding_idx, ...) are usually literals and then decided here; when one is a value known
 * only at run time, the decision goes into the graph as PyTorch's scripted Python puts it
 * there: prim::If on a string comparison (reduction == "mean"), on the bool (inplace), on
 * `is None`, with prim::RaiseException where PyTorch's Python raises. return_indices is
 * PyTorch's boolean dispatch, which needs a constant, as there.
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
    bool by_keyword[MAX_PARAMS];
    TsSourceRange r;
    char op[128];
    TsIrValue *reduction;          /* the reduction string as passed (kl_div's batchmean) */
    TsIrValue *inplace;            /* a run-time inplace flag: prim::If picks op_ or op */
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

static TsIrValue *const_value(TsEmitter *e, Bound *b, const void *data)
{
    return ts_emit_const(e, *(const TsValue *)data, b->r);
}

static TsIrValue *same_value(TsEmitter *e, Bound *b, const void *data)
{
    (void)e, (void)b;
    return (TsIrValue *)data;
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

/* `v is None` for an Optional value, as a bool. */
static TsIrValue *is_none_value(TsEmitter *e, Bound *b, TsIrValue *v)
{
    TsIrValue *in[2] = { v, ts_emit_const(e, ts_none(), b->r) };
    TsNode *n = in[1] ? ts_emit_node(e, "aten::__is__", 2, in, 1, b->r) : NULL;
    if (!n)
        return NULL;
    n->outputs[0]->type = ts_type_bool();
    return n->outputs[0];
}

static bool is_optional(const TsIrValue *v)
{
    return ts_type_kind(v->type) == TS_TYPE_OPTIONAL;
}

/* An Optional[T] with T of kind k. */
static bool is_optional_of(const TsIrValue *v, TsTypeKind k)
{
    return is_optional(v) && ts_type_kind(ts_type_elem(v->type, 0)) == k;
}

/* A string switch: the value of the first case whose literal equals s, else the raise. */
typedef struct StrCase {
    const char *lit;
    TsValue value;
} StrCase;

typedef struct StrSwitch {
    TsIrValue *s;
    const StrCase *cases;
    size_t n;
    Raise otherwise;
} StrSwitch;

static TsIrValue *str_switch(TsEmitter *e, Bound *b, const void *data)
{
    const StrSwitch *sw = data;
    if (sw->n == 0)
        return raise_value(e, b, &sw->otherwise);
    StrSwitch rest = *sw;
    rest.cases++;
    rest.n--;
    return if_value(e, b, str_eq(e, b, sw->s, sw->cases[0].lit), sw->otherwise.type,
                    const_value, &sw->cases[0].value, str_switch, &rest);
}

/* ---- the common rewrites ---------------------------------------------------------------- */

static const StrCase reduction_cases[] = {
    { "none", { { .i = 0 }, TS_TAG_INT, 0 } },
    { "mean", { { .i = 1 }, TS_TAG_INT, 0 } },
    { "elementwise_mean", { { .i = 1 }, TS_TAG_INT, 0 } },   /* deprecated spelling */
    { "sum", { { .i = 2 }, TS_TAG_INT, 0 } },
    { "batchmean", { { .i = 2 }, TS_TAG_INT, 0 } },   /* kl_div only: sums, then divides */
};

/* torch's _Reduction.get_enum: the reduction string as the operators' int. */
static TsIrValue *reduction_enum(TsEmitter *e, Bound *b, TsIrValue *red)
{
    bool kl = strstr(b->fn->name, "kl_div") != NULL;
    size_t n = sizeof reduction_cases / sizeof *reduction_cases - (kl ? 0 : 1);
    const char *s = const_str(red);
    if (!s) {
        StrSwitch sw = { red, reduction_cases, n, { "builtins.ValueError",
                         "{} is not a valid value for reduction", red, NULL,
                         ts_type_int() } };
        return str_switch(e, b, &sw);
    }
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, reduction_cases[i].lit) == 0)
            return ts_emit_const(e, reduction_cases[i].value, b->r);
    return ts_emit_error(e, b->r, "%s is not a valid value for reduction", s), NULL;
}

/* A legacy flag with None meaning True: 1 or 0 when known here, else -1. */
static int legacy_flag(const TsIrValue *v)
{
    return is_none(v) ? 1 : const_bool(v);
}

/* The flag's value at run time (None is True). */
static TsIrValue *legacy_value(TsEmitter *e, Bound *b, TsIrValue *v)
{
    if (legacy_flag(v) >= 0)
        return ts_emit_const(e, ts_bool(legacy_flag(v) == 1), b->r);
    if (!is_optional(v))
        return v;
    static const TsValue yes = { { .b = true }, TS_TAG_BOOL, 0 };
    TsIrValue *bv = ts_emit_unchecked_cast(e, v, ts_type_bool());
    return bv ? if_value(e, b, is_none_value(e, b, v), ts_type_bool(), const_value, &yes,
                         same_value, bv) : NULL;
}

/* torch's legacy_get_string(size_average, reduce) as the int: reduce ? (size_average ?
 * mean : sum) : none. */
static TsIrValue *legacy_enum(TsEmitter *e, Bound *b, const void *unused)
{
    (void)unused;
    static const TsValue mean = { { .i = 1 }, TS_TAG_INT, 0 };
    static const TsValue sum = { { .i = 2 }, TS_TAG_INT, 0 };
    static const TsValue none = { { .i = 0 }, TS_TAG_INT, 0 };
    TsIrValue *sa = arg(b, "size_average"), *rd = arg(b, "reduce");
    int avg = legacy_flag(sa), keep = legacy_flag(rd);
    if (avg >= 0 && keep >= 0)
        return ts_emit_const(e, ts_int(!keep ? 0 : avg ? 1 : 2), b->r);
    TsIrValue *sav = legacy_value(e, b, sa);
    TsIrValue *kept = sav ? if_value(e, b, sav, ts_type_int(), const_value, &mean, const_value,
                                     &sum) : NULL;
    TsIrValue *rdv = kept ? legacy_value(e, b, rd) : NULL;
    return rdv ? if_value(e, b, rdv, ts_type_int(), same_value, kept, const_value, &none)
               : NULL;
}

static TsIrValue *reduction_branch(TsEmitter *e, Bound *b, const void *unused)
{
    (void)unused;
    return reduction_enum(e, b, b->reduction);
}

/* Whether a legacy flag was given: 0 no (None), 1 yes (a bool), -1 known at run time. */
static int given(const TsIrValue *v)
{
    return is_none(v) ? 0 : is_optional(v) ? -1 : 1;
}

/* reduction, or the deprecated size_average/reduce when either is not None, as the int
 * the operators take. */
static int reduction(TsEmitter *e, Bound *b)
{
    TsIrValue **red = param(b, "reduction");
    TsIrValue *sa = arg(b, "size_average"), *rd = arg(b, "reduce");
    b->reduction = *red;
    for (int i = 0; sa && i < 2; i++) {
        TsIrValue *v = i ? rd : sa;
        TsTypeKind k = ts_type_kind(v->type);
        if (k != TS_TYPE_NONE && k != TS_TYPE_BOOL && !is_optional_of(v, TS_TYPE_BOOL)) {
            char t[64];
            return ts_emit_error(e, b->r, "Expected a value of type 'Optional[bool]' for "
                                 "argument '%s' but instead found type '%s'.",
                                 i ? "reduce" : "size_average",
                                 ts_type_text(v->type, t, sizeof t));
        }
    }
    int gs = sa ? given(sa) : 0, gr = rd ? given(rd) : 0;
    if (gs == 1 || gr == 1) {
        *red = legacy_enum(e, b, NULL);
    } else if (gs == 0 && gr == 0) {
        *red = reduction_enum(e, b, *red);
    } else {
        /* `if size_average is not None or reduce is not None` at run time */
        TsIrValue *none = gs ? is_none_value(e, b, sa) : is_none_value(e, b, rd);
        if (none && gs && gr) {
            TsIrValue *none2 = is_none_value(e, b, rd);
            TsNamedValue a[2] = { { NULL, none, b->r }, { NULL, none2, b->r } };
            none = none2 ? ts_emit_op(e, "aten::__and__", 2, a, b->r) : NULL;
        }
        *red = none ? if_value(e, b, none, ts_type_int(), reduction_branch, NULL, legacy_enum,
                               NULL) : NULL;
    }
    return *red ? 0 : -1;
}

/* The parameter that picks an overload by PyTorch's boolean dispatch must be a constant;
 * True appends suffix to the operator. */
static int boolean_dispatch(TsEmitter *e, Bound *b, const char *pname, const char *suffix)
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
    if (on && suffix)
        strncat(b->op, suffix, sizeof b->op - strlen(b->op) - 1);
    return 0;
}

/* inplace=True is the op_ variant; a run-time flag picks one of the two by prim::If. */
static int inplace_variant(TsEmitter *e, Bound *b)
{
    TsIrValue *v = arg(b, "inplace");
    int on = const_bool(v);
    if (on < 0 && ts_type_kind(v->type) != TS_TYPE_BOOL) {
        char t[64];
        return ts_emit_error(e, b->r, "inplace must be a bool, not %s",
                             ts_type_text(v->type, t, sizeof t));
    }
    if (on < 0)
        b->inplace = v;
    else if (on)
        strncat(b->op, "_", sizeof b->op - strlen(b->op) - 1);
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

static TsIrValue *op_branch(TsEmitter *e, Bound *b, const void *op)
{
    return emit_op(e, b, op);
}

/* The entry's operator call; with a run-time inplace flag, prim::If(inplace) between op_
 * and op, as F.relu's body does. */
static TsIrValue *call_op(TsEmitter *e, Bound *b)
{
    if (!b->inplace)
        return emit_op(e, b, b->op);
    char inplace[sizeof b->op + 1];
    snprintf(inplace, sizeof inplace, "%s_", b->op);
    return if_value(e, b, b->inplace, ts_type_tensor(), op_branch, inplace, op_branch, b->op);
}

/* ---- rewrites of single entries ----------------------------------------------------- */

static TsIrValue *size0(TsEmitter *e, Bound *b, TsIrValue *t)
{
    TsIrValue *zero = ts_emit_const(e, ts_int(0), b->r);
    return zero ? ts_emit_op2(e, "aten::size", t, zero, b->r) : NULL;
}

/* weight.size(0) + padding_idx */
static TsIrValue *pad_from_end(TsEmitter *e, Bound *b, const void *pad)
{
    TsIrValue *rows = size0(e, b, arg(b, "weight"));
    return rows ? ts_emit_op2(e, "aten::add", rows, (TsIrValue *)pad, b->r) : NULL;
}

/* An int padding_idx: negative counts from the end of the table. */
static TsIrValue *int_pad(TsEmitter *e, Bound *b, const void *data)
{
    TsIrValue *pad = (TsIrValue *)data;
    int64_t i;
    if (const_int(pad, &i))
        return i < 0 ? pad_from_end(e, b, pad) : pad;
    TsIrValue *zero = ts_emit_const(e, ts_int(0), b->r);
    TsIrValue *neg = zero ? ts_emit_op2(e, "aten::lt", pad, zero, b->r) : NULL;
    return if_value(e, b, neg, ts_type_int(), pad_from_end, pad, same_value, pad);
}

static TsIrValue *optional_pad(TsEmitter *e, Bound *b, const void *data)
{
    TsIrValue *pad = ts_emit_unchecked_cast(e, (TsIrValue *)data, ts_type_int());
    return pad ? int_pad(e, b, pad) : NULL;
}

/* F.embedding: (input, weight) become (weight, indices); padding_idx None is -1. */
static int rw_embedding(TsEmitter *e, Bound *b, TsSugared *out)
{
    static const TsValue minus1 = { { .i = -1 }, TS_TAG_INT, 0 };
    if (!is_none(arg(b, "max_norm")))
        return ts_emit_error(e, b->r, "F.embedding with max_norm is not supported");
    TsIrValue **pad = param(b, "padding_idx");
    if (is_none(*pad))
        *pad = ts_emit_const(e, minus1, b->r);
    else if (is_optional_of(*pad, TS_TYPE_INT))
        *pad = if_value(e, b, is_none_value(e, b, *pad), ts_type_int(), const_value, &minus1,
                        optional_pad, *pad);
    else if (ts_type_kind((*pad)->type) == TS_TYPE_INT)
        *pad = int_pad(e, b, *pad);
    return *pad ? value_of(out, call_op(e, b)) : -1;
}

static TsIrValue *empty_int_list(TsEmitter *e, Bound *b, const void *unused)
{
    (void)unused;
    return ts_emit_list(e, ts_type_int(), 0, NULL, b->r);
}

static TsIrValue *unwrapped(TsEmitter *e, Bound *b, const void *data)
{
    TsIrValue *v = (TsIrValue *)data;
    (void)b;
    return ts_emit_unchecked_cast(e, v, ts_type_elem(v->type, 0));
}

/* F.max_poolNd: stride None is the empty list (the operator's "same as kernel_size"). */
static int rw_max_pool(TsEmitter *e, Bound *b, TsSugared *out)
{
    TsIrValue **stride = param(b, "stride");
    if (is_none(*stride))
        *stride = empty_int_list(e, b, NULL);
    else if (is_optional_of(*stride, TS_TYPE_LIST))
        *stride = if_value(e, b, is_none_value(e, b, *stride), ts_type_elem((*stride)->type, 0),
                           empty_int_list, NULL, unwrapped, *stride);
    return *stride ? value_of(out, call_op(e, b)) : -1;
}

/* F.adaptive_max_poolNd: the operator returns (values, indices). */
static int rw_adaptive_max(TsEmitter *e, Bound *b, TsSugared *out)
{
    if (boolean_dispatch(e, b, "return_indices", NULL) != 0)
        return -1;
    TsIrValue *t = call_op(e, b);
    if (!t || const_bool(arg(b, "return_indices")))
        return value_of(out, t);
    TsIrValue *zero = ts_emit_const(e, ts_int(0), b->r);
    return value_of(out, zero ? ts_emit_subscript_value(e, t, zero, b->r) : NULL);
}

/* torch's _get_softmax_dim: 0 for 0-, 1- and 3-d input, else 1 (PyTorch warns that the
 * implicit choice is deprecated). */
static TsIrValue *implicit_softmax_dim(TsEmitter *e, Bound *b, const void *unused)
{
    static const TsValue zero = { { .i = 0 }, TS_TAG_INT, 0 }, one = { { .i = 1 }, TS_TAG_INT, 0 };
    (void)unused;
    TsIrValue *nd = ts_emit_op2(e, "aten::dim", arg(b, "input"), NULL, b->r);
    TsIrValue *cond = NULL;
    for (int64_t d = 0; nd && d <= 3; d += d == 1 ? 2 : 1) {
        TsIrValue *k = ts_emit_const(e, ts_int(d), b->r);
        TsIrValue *eq = k ? ts_emit_op2(e, "aten::eq", nd, k, b->r) : NULL;
        if (!eq)
            return NULL;
        if (cond) {
            TsNamedValue a[2] = { { NULL, cond, b->r }, { NULL, eq, b->r } };
            eq = ts_emit_op(e, "aten::__or__", 2, a, b->r);
        }
        if (!(cond = eq))
            return NULL;
    }
    return cond ? if_value(e, b, cond, ts_type_int(), const_value, &zero, const_value, &one)
                : NULL;
}

/* dim None (or an Optional[int] that is None at run time) is the implicit choice. */
static int softmax_dim(TsEmitter *e, Bound *b)
{
    TsIrValue **dim = param(b, "dim");
    if (is_none(*dim))
        *dim = implicit_softmax_dim(e, b, NULL);
    else if (is_optional_of(*dim, TS_TYPE_INT))
        *dim = if_value(e, b, is_none_value(e, b, *dim), ts_type_int(), implicit_softmax_dim,
                        NULL, unwrapped, *dim);
    return *dim ? 0 : -1;
}

static int rw_softmax(TsEmitter *e, Bound *b, TsSugared *out)
{
    return softmax_dim(e, b) ? -1 : value_of(out, call_op(e, b));
}

/* F.softmin(x) is softmax(-x). */
static int rw_softmin(TsEmitter *e, Bound *b, TsSugared *out)
{
    if (softmax_dim(e, b))
        return -1;
    TsIrValue **in = param(b, "input");
    *in = ts_emit_op2(e, "aten::neg", *in, NULL, b->r);
    return *in ? value_of(out, call_op(e, b)) : -1;
}

/* F.tanhshrink(x) is x - tanh(x); F.softsign(x) is x / (|x| + 1). */
/* `if cond: raise ...` at run time, as the checks at the top of F.* bodies are. */
static int raise_if(TsEmitter *e, Bound *b, TsIrValue *cond, const Raise *x)
{
    TsNode *n = cond ? ts_emit_node(e, "prim::If", 1, &cond, 0, b->r) : NULL;
    if (!n)
        return -1;
    for (int i = 0; i < 2; i++) {
        TsBlock *blk = ts_node_add_block(n, e->err);
        if (!blk || ts_env_push(e, blk, false) != 0)
            return -1;
        ts_graph_set_insert_end(e->g, blk);
        TsIrValue *v = i == 0 ? raise_value(e, b, x) : (TsIrValue *)1;
        ts_env_pop(e);
        if (!v)
            return -1;
    }
    ts_graph_set_insert_point(e->g, n->next);
    return 0;
}

/* input.dim() compared with k by op ("aten::eq", "aten::lt", ...) */
static TsIrValue *dim_is(TsEmitter *e, Bound *b, const char *op, int64_t k)
{
    TsIrValue *nd = ts_emit_op2(e, "aten::dim", arg(b, "input"), NULL, b->r);
    TsIrValue *kv = nd ? ts_emit_const(e, ts_int(k), b->r) : NULL;
    return kv ? ts_emit_op2(e, op, nd, kv, b->r) : NULL;
}

/* F.glu refuses a 0-dim input itself, with its own words. */
static int rw_glu(TsEmitter *e, Bound *b, TsSugared *out)
{
    Raise x = { "builtins.RuntimeError", "glu does not support scalars because halving size "
                "must be even", NULL, NULL, ts_type_none() };
    if (raise_if(e, b, dim_is(e, b, "aten::eq", 0), &x) != 0)
        return -1;
    return value_of(out, call_op(e, b));
}

/* F.dropout1d takes 2-d and 3-d inputs only (the unbatched 2-d one is unsqueezed and
 * squeezed back around the op, which changes no value: feature_dropout takes it as is). */
static int rw_dropout1d(TsEmitter *e, Bound *b, TsSugared *out)
{
    TsIrValue *nd = ts_emit_op2(e, "aten::dim", arg(b, "input"), NULL, b->r);
    TsIrValue *two = nd ? ts_emit_const(e, ts_int(2), b->r) : NULL;
    TsIrValue *three = two ? ts_emit_const(e, ts_int(3), b->r) : NULL;
    TsIrValue *ne2 = three ? ts_emit_op2(e, "aten::ne", nd, two, b->r) : NULL;
    TsIrValue *ne3 = ne2 ? ts_emit_op2(e, "aten::ne", nd, three, b->r) : NULL;
    TsIrValue *bad = ne3 ? ts_emit_op2(e, "aten::__and__", ne2, ne3, b->r) : NULL;
    Raise x = { "builtins.RuntimeError", "dropout1d: Expected 2D or 3D input, but received a "
                "{}D input. Note that dropout1d exists to provide channel-wise dropout on "
                "inputs with 1 spatial dimension, a channel dimension, and an optional batch "
                "dimension (i.e. 2D or 3D inputs).", nd, NULL, ts_type_none() };
    if (raise_if(e, b, bad, &x) != 0)
        return -1;
    return value_of(out, call_op(e, b));
}

/* F.instance_norm with batch statistics needs more than one element per channel: the
 * product of the spatial sizes is numel / (N * C) (with no element at all, N * C is 0 and
 * nothing is normalized: no check then). */
static int rw_instance_norm(TsEmitter *e, Bound *b, TsSugared *out)
{
    if (const_bool(arg(b, "use_input_stats")) == 0)
        return value_of(out, call_op(e, b));
    TsIrValue *x = arg(b, "input");
    TsIrValue *size = ts_emit_op2(e, "aten::size", x, NULL, b->r);
    TsIrValue *zero = size ? ts_emit_const(e, ts_int(0), b->r) : NULL;
    TsIrValue *one = zero ? ts_emit_const(e, ts_int(1), b->r) : NULL;
    TsIrValue *n = one ? ts_emit_op2(e, "aten::size", x, zero, b->r) : NULL;
    TsIrValue *c = n ? ts_emit_op2(e, "aten::size", x, one, b->r) : NULL;
    TsIrValue *nc = c ? ts_emit_op2(e, "aten::mul", n, c, b->r) : NULL;
    TsIrValue *numel = nc ? ts_emit_op2(e, "aten::numel", x, NULL, b->r) : NULL;
    TsIrValue *single = numel ? ts_emit_op2(e, "aten::eq", numel, nc, b->r) : NULL;
    TsIrValue *some = single ? ts_emit_op2(e, "aten::ne", nc, zero, b->r) : NULL;
    TsIrValue *both = some ? ts_emit_op2(e, "aten::__and__", single, some, b->r) : NULL;
    TsIrValue *bad = both ? ts_emit_op2(e, "aten::__and__", arg(b, "use_input_stats"), both,
                                        b->r) : NULL;
    Raise r = { "builtins.ValueError", "Expected more than 1 spatial element when training, "
                "got input size {}", size, NULL, ts_type_none() };
    if (raise_if(e, b, bad, &r) != 0)
        return -1;
    return value_of(out, call_op(e, b));
}

/* F.batch_norm in training needs more than one value per channel: numel / C of them (with
 * no channel at all there is nothing to normalize, and no check). */
static int rw_batch_norm(TsEmitter *e, Bound *b, TsSugared *out)
{
    if (const_bool(arg(b, "training")) == 0)      /* eval, the common case: nothing to check */
        return value_of(out, call_op(e, b));
    TsIrValue *x = arg(b, "input");
    TsIrValue *size = ts_emit_op2(e, "aten::size", x, NULL, b->r);
    TsIrValue *zero = size ? ts_emit_const(e, ts_int(0), b->r) : NULL;
    TsIrValue *one = zero ? ts_emit_const(e, ts_int(1), b->r) : NULL;
    TsIrValue *c = one ? ts_emit_op2(e, "aten::size", x, one, b->r) : NULL;
    TsIrValue *numel = c ? ts_emit_op2(e, "aten::numel", x, NULL, b->r) : NULL;
    TsIrValue *single = numel ? ts_emit_op2(e, "aten::eq", numel, c, b->r) : NULL;
    TsIrValue *some = single ? ts_emit_op2(e, "aten::ne", c, zero, b->r) : NULL;
    TsIrValue *both = some ? ts_emit_op2(e, "aten::__and__", single, some, b->r) : NULL;
    TsIrValue *bad = both ? ts_emit_op2(e, "aten::__and__", arg(b, "training"), both, b->r)
                          : NULL;
    Raise r = { "builtins.ValueError", "Expected more than 1 value per channel when training, "
                "got input size {}", size, NULL, ts_type_none() };
    if (raise_if(e, b, bad, &r) != 0)
        return -1;
    return value_of(out, call_op(e, b));
}

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

static TsIrValue *divide_by_batch(TsEmitter *e, Bound *b, const void *reduced)
{
    TsIrValue *n = size0(e, b, arg(b, "input"));
    return n ? ts_emit_op2(e, "aten::div", (TsIrValue *)reduced, n, b->r) : NULL;
}

/* `if input.dim() != 0: reduced = reduced / input.size(0)` */
static TsIrValue *batchmean(TsEmitter *e, Bound *b, const void *reduced)
{
    TsIrValue *nd = ts_emit_op2(e, "aten::dim", arg(b, "input"), NULL, b->r);
    TsIrValue *zero = nd ? ts_emit_const(e, ts_int(0), b->r) : NULL;
    TsIrValue *ne = zero ? ts_emit_op2(e, "aten::ne", nd, zero, b->r) : NULL;
    return if_value(e, b, ne, ts_type_tensor(), divide_by_batch, reduced, same_value, reduced);
}

/* F.kl_div: 'batchmean' sums (reduction_enum maps it), then divides by the batch size. */
static int rw_kl_div(TsEmitter *e, Bound *b, TsSugared *out)
{
    TsIrValue *t = call_op(e, b);
    if (!t)
        return -1;
    const char *s = const_str(b->reduction);
    if (s)
        return value_of(out, strcmp(s, "batchmean") == 0 ? batchmean(e, b, t) : t);
    return value_of(out, if_value(e, b, str_eq(e, b, b->reduction, "batchmean"),
                                  ts_type_tensor(), batchmean, t, same_value, t));
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
#define LOSS_LEGACY "size_average=None, reduce=None, reduction='mean'"

/* torch.unique / torch.unique_consecutive (Python in PyTorch): aten::_unique2, unique_dim
 * or unique_consecutive, whose (output, inverse, counts) the constant return_inverse and
 * return_counts narrow to output alone or a tuple, as PyTorch's boolean dispatch does. */
static int rw_unique(TsEmitter *e, Bound *b, TsSugared *out)
{
    bool consecutive = strcmp(b->fn->name, "torch.unique_consecutive") == 0;
    int inv = const_bool(arg(b, "return_inverse")), cnt = const_bool(arg(b, "return_counts"));
    if (boolean_dispatch(e, b, "return_inverse", NULL) || boolean_dispatch(e, b, "return_counts",
                                                                           NULL))
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
      "input, target, reduction, *log_target", FN_REDUCTION, rw_kl_div },
    /* normalization, dropout, lookup */
    { F_ "batch_norm", "input, running_mean, running_var, weight=None, bias=None, "
      "training=False, momentum=0.1, eps=1e-05", "aten::batch_norm",
      "input, weight, bias, running_mean, running_var, training, momentum, eps, True", 0,
      rw_batch_norm },
    { F_ "layer_norm", "input, normalized_shape, weight=None, bias=None, eps=1e-05",
      "aten::layer_norm", "input, normalized_shape, weight, bias, eps, True", 0, NULL },
    { F_ "group_norm", "input, num_groups, weight=None, bias=None, eps=1e-05",
      "aten::group_norm", "input, num_groups, weight, bias, eps, True", 0, NULL },
    { F_ "instance_norm", "input, running_mean=None, running_var=None, weight=None, "
      "bias=None, use_input_stats=True, momentum=0.1, eps=1e-05", "aten::instance_norm",
      "input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, True",
      0, rw_instance_norm },
    { F_ "normalize", "input, p=2.0, dim=1, eps=1e-12, out=None", "aten::norm", "", 0,
      rw_normalize },
    { F_ "dropout", "input, p=0.5, training=True, inplace=False", "aten::dropout",
      "input, p, training", FN_INPLACE, NULL },
    { F_ "alpha_dropout", "input, p=0.5, training=False, inplace=False",
      "aten::alpha_dropout", "input, p, training", FN_INPLACE, NULL },
    { F_ "feature_alpha_dropout", "input, p=0.5, training=False, inplace=False",
      "aten::feature_alpha_dropout", "input, p, training", FN_INPLACE, NULL },
    { F_ "dropout1d", "input, p=0.5, training=True, inplace=False", "aten::feature_dropout",
      "input, p, training", FN_INPLACE, rw_dropout1d },
    { F_ "dropout2d", "input, p=0.5, training=True, inplace=False", "aten::feature_dropout",
      "input, p, training", FN_INPLACE, NULL },
    { F_ "dropout3d", "input, p=0.5, training=True, inplace=False", "aten::feature_dropout",
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
    { F_ "glu", "input, dim=-1", "aten::glu", "input, dim", 0, rw_glu },
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
    { F_ "adaptive_max_pool3d", "input, output_size, return_indices=False",
      "aten::adaptive_max_pool3d", "input, output_size", 0, rw_adaptive_max },
    { F_ "unfold", "input, kernel_size, dilation=1, padding=0, stride=1", "aten::im2col",
      "input, kernel_size, dilation, padding, stride", 0, NULL },
    { F_ "fold", "input, output_size, kernel_size, dilation=1, padding=0, stride=1",
      "aten::col2im", "input, output_size, kernel_size, dilation, padding, stride", 0, NULL },
    { F_ "interpolate", "input, size:[]=None, scale_factor:[]=None, mode='nearest', "
      "align_corners=None, recompute_scale_factor=None, antialias=False", "", "", 0,
      rw_interpolate },
    { F_ "upsample", "input, size:[]=None, scale_factor:[]=None, mode='nearest', "
      "align_corners=None", "", "", 0, rw_interpolate },
    /* torch.* functions written in Python */
    { "torch.norm", "input, p='fro', dim=None, keepdim=False, out=None, dtype=None",
      "aten::norm", "", 0, rw_norm },
    { "torch.unique", "input, sorted=True, return_inverse=False, return_counts=False, dim=None",
      "aten::_unique2", "", 0, rw_unique },
    { "torch.unique_consecutive", "input, return_inverse=False, return_counts=False, dim=None",
      "aten::unique_consecutive", "", 0, rw_unique },
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
    if ((fn->flags & FN_INPLACE) && inplace_variant(e, &b) != 0)
        return -1;
    if ((fn->flags & FN_INDICES) &&
        boolean_dispatch(e, &b, "return_indices", "_with_indices") != 0)
        return -1;
    if (fn->rewrite)
        return fn->rewrite(e, &b, out);
    return value_of(out, call_op(e, &b));
}
