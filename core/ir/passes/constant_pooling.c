/* constant_pooling.c — one prim::Constant per distinct constant, at the top of the graph.
 *
 * As PyTorch's ConstantPooling: every constant, in any block, moves to the top block (a
 * constant depends on nothing, so it may be defined anywhere before its uses), and a
 * constant equal to one already there gives it its uses and goes. The frontend pools the
 * constants it emits (core/frontend/emit_ssa.c); this pass pools the ones other passes make
 * (constant_prop's folds, an If's inlined branch). Constants keep the order they first
 * appear in.
 *
 * Equal means of the same type with the same attribute, floats compared by value as
 * PyTorch's pooling compares them: -0.0 merges into an earlier 0.0 (and 0.0 into -0.0), so
 * torch.tensor([-0.0]) after a 0.0 elsewhere in the graph holds 0.0, as in PyTorch; a NaN
 * merges with nothing. Constants of mutable types (lists,
 * dicts, tensors, objects) are hoisted but never merged: without AliasDb nothing proves
 * that no one tells two of them apart, which PyTorch asks AliasDb before it merges them.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/log.h"
#include "ir/passes/passes.h"
#include "ir/passes/pure.h"

typedef struct Pool {
    TsGraph *g;
    TsSymbol k_constant;
    TsNode **nodes;            /* the pooled constants, in the order they appear */
    size_t n, cap;
    TsNode *last;              /* the last pooled constant in the top block, or NULL */
    TsError *err;
} Pool;

/* Equal immutable values, floats by value. */
static bool same_value(TsValue a, TsValue b)
{
    if (a.tag != b.tag)
        return false;
    switch (a.tag) {
    case TS_TAG_NONE:
        return true;
    case TS_TAG_INT:
        return a.u.i == b.u.i;
    case TS_TAG_BOOL:
        return a.u.b == b.u.b;
    case TS_TAG_DOUBLE:
        return a.u.d == b.u.d;
    case TS_TAG_DEVICE:
        return ts_value_equal(a, b);
    case TS_TAG_STR: {
        const TsStr *x = (const TsStr *)a.u.p, *y = (const TsStr *)b.u.p;
        return x->len == y->len && memcmp(x->data, y->data, x->len) == 0;
    }
    case TS_TAG_COMPLEX: {
        const TsComplex *x = (const TsComplex *)a.u.p, *y = (const TsComplex *)b.u.p;
        return x->re == y->re && x->im == y->im;
    }
    case TS_TAG_TUPLE: {
        const TsTuple *x = (const TsTuple *)a.u.p, *y = (const TsTuple *)b.u.p;
        if (x->len != y->len || x->type != y->type)
            return false;
        for (size_t i = 0; i < x->len; i++)
            if (!same_value(x->items[i], y->items[i]))
                return false;
        return true;
    }
    default:
        return false;
    }
}

static bool same_attr(const TsAttr *x, const TsAttr *y)
{
    if (x->kind != y->kind || x->name != y->name)
        return false;
    switch (x->kind) {
    case TS_ATTR_INT:
        return x->u.i == y->u.i;
    case TS_ATTR_FLOAT:
        return x->u.f == y->u.f;
    case TS_ATTR_COMPLEX:
        return x->u.c[0] == y->u.c[0] && x->u.c[1] == y->u.c[1];
    case TS_ATTR_STR:
        return strcmp(x->u.s, y->u.s) == 0;
    case TS_ATTR_TYPE:
        return ts_type_equal(x->u.ty, y->u.ty);
    case TS_ATTR_IVALUE:
        return same_value(x->u.iv, y->u.iv);
    default:
        return false;
    }
}

static bool same_constant(const TsNode *a, const TsNode *b)
{
    if (!ts_type_equal(a->outputs[0]->type, b->outputs[0]->type) || a->n_attrs != b->n_attrs)
        return false;
    for (size_t i = 0; i < a->n_attrs; i++)
        if (!same_attr(&a->attrs[i], &b->attrs[i]))
            return false;
    return true;
}

static TsNode *find_equal(const Pool *P, const TsNode *n)
{
    if (!ts_type_is_immutable(n->outputs[0]->type))
        return NULL;
    for (size_t i = 0; i < P->n; i++)
        if (same_constant(P->nodes[i], n))
            return P->nodes[i];
    return NULL;
}

/* Moves n to the top block, after the constants pooled before it. */
static void hoist(Pool *P, TsNode *n)
{
    TsBlock *top = ts_graph_block(P->g);
    bool in_place = P->last ? n->prev == P->last : n == top->ret->next;
    if (!in_place && TS_OPT_ALLOWED) {
        TS_GRAPH_UPDATE("moving a constant to the top of the graph");
        if (P->last)
            ts_node_move_after(n, P->last);
        else
            ts_node_move_before(n, top->ret->next);
    }
    if (n->owning_block == top)
        P->last = n;
}

static int pool_constant(Pool *P, TsNode *n)
{
    TsNode *same = find_equal(P, n);
    if (same && TS_OPT_ALLOWED) {
        TS_GRAPH_UPDATE("merging a constant into an equal one");
        if (ts_irvalue_replace_all_uses_with(n->outputs[0], same->outputs[0], P->err))
            return -1;
        return ts_node_destroy(n, P->err) ? -1 : 0;
    }
    if (P->n == P->cap) {
        size_t cap = P->cap ? 2 * P->cap : 64;
        TsNode **nodes = realloc(P->nodes, cap * sizeof *nodes);
        if (!nodes)
            return ts_error_set(P->err, TS_ERR_NOMEM, "out of memory");
        P->nodes = nodes;
        P->cap = cap;
    }
    P->nodes[P->n++] = n;
    hoist(P, n);
    return 0;
}

static int pool_block(Pool *P, TsBlock *b)
{
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        for (size_t i = 0; i < n->n_blocks; i++)
            if (pool_block(P, n->blocks[i]))
                return -1;
        if (n->kind == P->k_constant && n->n_outputs == 1 && pool_constant(P, n))
            return -1;
    }
    return 0;
}

int ts_pass_constant_pooling(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    (void)env;
    Pool P = {g, ts_symbol("prim::Constant"), NULL, 0, 0, NULL, err};
    int rc = pool_block(&P, ts_graph_block(g));
    free(P.nodes);
    TS_GRAPH_DUMP("after constant_pooling", g);
    return rc;
}
