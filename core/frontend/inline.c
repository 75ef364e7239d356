/* inline.c — a library function's graph copied into its caller's, decided where it can be.
 *
 * PyTorch inlines the scripted torch.nn.functional functions into the caller's graph, and
 * its constant propagation then removes what the caller's constants decide: F.relu(x) is
 * aten::relu(%x), not a branch on inplace=False. The copy here does both at once. Values
 * are mapped from the library graph to the caller's (its inputs to the call's arguments);
 * a prim::If whose condition maps to a constant is replaced by the nodes of the branch it
 * takes, and the few scalar tests those conditions are made of (`is None` decided by
 * type, == and != on constants, not, and/or, int comparisons) are evaluated when their
 * operands are constants. Calls to other functions of the library's unit are inlined the
 * same way. Everything else is copied as is, with its source range in the library file.
 */
#include <string.h>

#include "frontend/emit.h"
#include "ptrmap.h"

enum { MAX_INLINE_DEPTH = 32 };

typedef struct Inliner {
    TsGraph *g;
    const TsCompUnit *lib;
    TsPtrMap map;              /* library value -> caller value */
    TsError *err;
    int depth;
} Inliner;

static bool is(const TsNode *n, const char *kind)
{
    return n->kind == ts_symbol(kind);
}

static TsIrValue *mapped(const Inliner *in, const TsIrValue *v)
{
    uintptr_t m;
    return ts_ptrmap_get(&in->map, v, &m) ? (TsIrValue *)m : NULL;
}

static int map(Inliner *in, const TsIrValue *from, TsIrValue *to)
{
    if (!to)
        return -1;
    if (ts_ptrmap_put(&in->map, from, (uintptr_t)to) < 0)
        return ts_error_set(in->err, TS_ERR_NOMEM, "out of memory");
    return 0;
}

/* ---- evaluating scalar tests ---------------------------------------------------------- */

typedef enum { K_NONE, K_INT, K_BOOL, K_STR } ConstKind;

/* A constant int, bool or str value: its kind and value; K_NONE otherwise. */
static ConstKind constant(const TsIrValue *v, int64_t *i, const char **s)
{
    if (!is(v->node, "prim::Constant"))
        return K_NONE;
    const TsAttr *a = ts_node_attr(v->node, ts_symbol("attr::value"));
    TsTypeKind k = ts_type_kind(v->type);
    if (a && a->kind == TS_ATTR_INT && (k == TS_TYPE_INT || k == TS_TYPE_BOOL)) {
        *i = a->u.i;
        return k == TS_TYPE_INT ? K_INT : K_BOOL;
    }
    if (a && a->kind == TS_ATTR_STR && k == TS_TYPE_STR) {
        *s = a->u.s;
        return K_STR;
    }
    return K_NONE;
}

/* `a is b` when the types decide it: 1 or 0, else -1. */
static int is_by_type(const TsIrValue *a, const TsIrValue *b)
{
    TsTypeKind ka = ts_type_kind(a->type), kb = ts_type_kind(b->type);
    if (ka == TS_TYPE_NONE && kb == TS_TYPE_NONE)
        return 1;
    if (kb == TS_TYPE_NONE)
        kb = ka, ka = TS_TYPE_NONE;
    if (ka != TS_TYPE_NONE)
        return -1;
    return kb == TS_TYPE_OPTIONAL || kb == TS_TYPE_ANY ? -1 : 0;
}

/* The value of a scalar test whose operands decide it: 1 or 0, else -1. */
static int evaluate(const Inliner *in, const TsNode *n)
{
    if (n->n_outputs != 1 || ts_type_kind(n->outputs[0]->type) != TS_TYPE_BOOL)
        return -1;
    if (is(n, "aten::__is__") || is(n, "aten::__isnot__")) {
        int r = n->n_inputs == 2 ? is_by_type(mapped(in, n->inputs[0]),
                                              mapped(in, n->inputs[1])) : -1;
        return r < 0 ? -1 : is(n, "aten::__is__") ? r : !r;
    }
    int64_t x = 0, y = 0;
    const char *s = NULL, *t = NULL;
    ConstKind a = n->n_inputs >= 1 ? constant(mapped(in, n->inputs[0]), &x, &s) : K_NONE;
    if (is(n, "aten::__not__"))
        return a == K_BOOL && n->n_inputs == 1 ? !x : -1;
    ConstKind b = n->n_inputs == 2 ? constant(mapped(in, n->inputs[1]), &y, &t) : K_NONE;
    if (a == K_NONE || a != b)
        return -1;
    if (a == K_STR) {
        int c = strcmp(s, t);
        return is(n, "aten::eq") ? c == 0 : is(n, "aten::ne") ? c != 0 : -1;
    }
    if (is(n, "aten::eq"))
        return x == y;
    if (is(n, "aten::ne"))
        return x != y;
    if (a == K_BOOL)
        return is(n, "aten::__and__") ? x && y : is(n, "aten::__or__") ? x || y : -1;
    return is(n, "aten::lt") ? x < y : is(n, "aten::le") ? x <= y : is(n, "aten::gt") ? x > y
           : is(n, "aten::ge") ? x >= y : -1;
}

/* ---- copying -------------------------------------------------------------------------- */

static int copy_block(Inliner *in, const TsBlock *b);
static TsIrValue *inline_graph(Inliner *in, const TsFunction *fn, TsIrValue *const *args);

static int copy_outputs(Inliner *in, TsNode *to, const TsNode *from)
{
    for (size_t i = 0; i < from->n_outputs; i++) {
        const TsIrValue *o = from->outputs[i];
        TsIrValue *v = ts_node_add_output(to, o->type, in->err);
        if (!v || (o->name && ts_irvalue_set_name(v, o->name, false, in->err) != 0) ||
            map(in, o, v) != 0)
            return -1;
    }
    return 0;
}

/* A node of a block not decided here: copied, its blocks copied into its copy's. */
static int copy_node(Inliner *in, const TsNode *n)
{
    TsNode *m = ts_graph_create(in->g, n->kind, 0, in->err);
    if (!m)
        return -1;
    ts_graph_insert(in->g, m);
    ts_node_set_range(m, n->range);
    if (copy_outputs(in, m, n) != 0)
        return -1;
    for (size_t i = 0; i < n->n_inputs; i++)
        if (ts_node_add_input(m, mapped(in, n->inputs[i]), in->err) != 0)
            return -1;
    m->op = n->op;             /* after the inputs: changing them forgets the operator */
    for (size_t i = 0; i < n->n_attrs; i++)
        if (ts_node_set_attr(m, &n->attrs[i], in->err) != 0)
            return -1;
    TsNode *after = ts_graph_insert_point(in->g);
    for (size_t i = 0; i < n->n_blocks; i++) {
        const TsBlock *from = n->blocks[i];
        TsBlock *to = ts_node_add_block(m, in->err);
        if (!to)
            return -1;
        for (size_t k = 0; k < from->param->n_outputs; k++) {
            const TsIrValue *p = from->param->outputs[k];
            if (map(in, p, ts_block_add_input(to, p->name, p->type, in->err)) != 0)
                return -1;
        }
        ts_graph_set_insert_end(in->g, to);
        int rc = copy_block(in, from);
        for (size_t k = 0; rc == 0 && k < from->ret->n_inputs; k++)
            rc = ts_block_add_output(to, mapped(in, from->ret->inputs[k]), in->err);
        ts_graph_set_insert_point(in->g, after);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static int place(Inliner *in, const TsNode *n)
{
    if (is(n, "prim::If")) {
        int64_t c;
        const char *unused;
        if (constant(mapped(in, n->inputs[0]), &c, &unused) == K_BOOL) {
            const TsBlock *taken = n->blocks[c ? 0 : 1];
            if (copy_block(in, taken) != 0)
                return -1;
            for (size_t i = 0; i < n->n_outputs; i++)
                if (map(in, n->outputs[i], mapped(in, taken->ret->inputs[i])) != 0)
                    return -1;
            return 0;
        }
    }
    if (is(n, "prim::CallFunction")) {
        const TsAttr *a = ts_node_attr(n, ts_symbol("attr::name"));
        const TsFunction *fn = a && a->kind == TS_ATTR_STR ? ts_unit_find(in->lib, a->u.s) : NULL;
        if (fn) {
            TsIrValue *args[64];
            if (n->n_inputs > 64)
                return ts_error_set(in->err, TS_ERR_LIMIT, "too many arguments to inline");
            for (size_t i = 0; i < n->n_inputs; i++)
                args[i] = mapped(in, n->inputs[i]);
            /* a map of its own: the callee's values are copied afresh at each call (two
             * calls of one function in a body must not share the first one's copies) */
            Inliner sub = { in->g, in->lib, { 0 }, in->err, in->depth };
            TsIrValue *out = inline_graph(&sub, fn, args);
            ts_ptrmap_free(&sub.map);
            return map(in, n->outputs[0], out);
        }
    }
    if (is(n, "prim::unchecked_cast")) {
        TsIrValue *x = mapped(in, n->inputs[0]);
        if (ts_type_is_subtype_of(x->type, n->outputs[0]->type))
            return map(in, n->outputs[0], x);
    }
    int r = evaluate(in, n);
    if (r >= 0)
        return map(in, n->outputs[0], ts_graph_insert_constant(in->g, ts_bool(r), n->range,
                                                               in->err));
    return copy_node(in, n);
}

static int copy_block(Inliner *in, const TsBlock *b)
{
    for (const TsNode *n = b->ret->next; n != b->ret; n = n->next)
        if (place(in, n) != 0)
            return -1;
    return 0;
}

static TsIrValue *inline_graph(Inliner *in, const TsFunction *fn, TsIrValue *const *args)
{
    if (in->depth >= MAX_INLINE_DEPTH)
        return ts_error_set(in->err, TS_ERR_LIMIT, "library functions call each other too "
                            "deeply to inline"), NULL;
    in->depth++;
    const TsBlock *top = ts_graph_block(fn->graph);
    for (size_t i = 0; i < top->param->n_outputs; i++)
        if (map(in, top->param->outputs[i], args[i]) != 0)
            return NULL;
    TsIrValue *out = copy_block(in, top) == 0 ? mapped(in, top->ret->inputs[0]) : NULL;
    in->depth--;
    return out;
}

TsIrValue *ts_inline_function(TsGraph *g, const TsCompUnit *lib, const TsFunction *fn,
                              TsIrValue *const *args, TsError *err)
{
    Inliner in = { g, lib, { 0 }, err, 0 };
    TsIrValue *out = inline_graph(&in, fn, args);
    ts_ptrmap_free(&in.map);
    return out;
}
