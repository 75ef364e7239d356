/* inline.c — calls of script functions replaced by a copy of the callee's graph.
 *
 * PyTorch's Inline pass, run first so that the later passes see whole programs: a
 * prim::CallFunction naming a function of the unit, or a prim::CallMethod on a class or
 * module whose method is known from the receiver's static type, becomes the callee's
 * nodes, its inputs the call's arguments and its outputs the call's. Calls inside the
 * copy are inlined in turn (the walk goes on through the copied nodes), so a call tree
 * is flattened top down.
 *
 * What must not change is a run-time error's traceback: each copied node carries the call
 * it came from (ir.h's TsCallSite, chained outward through the calls the caller was
 * itself inlined from), and the interpreter prints those calls as the frames they were.
 *
 * Not inlined, as the call then stays a call and behaves as before:
 *  - calls whose callee cannot be known here: an interface's method, a name the unit lacks,
 *    arguments left to the callee's defaults (the code builder passes those);
 *  - a callee with a subgraph (a fork: its code would take the caller's name in a
 *    traceback), forked calls themselves (they live in the fork's subgraph, not walked);
 *  - a callee with a node that keeps state of its own (aten::warn warns once per node:
 *    one copy per call site would warn once per call site; see copyable.c);
 *  - recursion, impossible in TorchScript but guarded: a callee already on the call
 *    stack, or a stack deeper than MAX_DEPTH;
 *  - once MAX_GROWTH nodes have been inlined into one function, so that a wide call tree
 *    (f calls g twice, g calls h twice, ...) cannot grow the graph exponentially.
 */
#include <string.h>

#include "function.h"
#include "ptrmap.h"
#include "ir/log.h"
#include "ir/passes/passes.h"

enum {
    MAX_DEPTH = 64,            /* calls inlined within calls */
    MAX_GROWTH = 20000         /* nodes one function may grow by */
};

typedef struct Inliner {
    TsGraph *g;
    const TsPassEnv *env;
    TsError *err;
    size_t budget;             /* nodes that may still be inlined */
    TsSymbol k_call_function, k_call_method, a_name;
} Inliner;

/* The nodes of b, those of nested blocks included; sets *bad when one of them holds a
 * subgraph or already came from an inlined call. */
static size_t count_nodes(const TsBlock *b, bool *bad)
{
    size_t n = 0;
    for (const TsNode *m = b->ret->next; m != b->ret; m = m->next) {
        n++;
        if (m->callstack)
            *bad = true;
        for (size_t i = 0; i < m->n_attrs; i++)
            if (m->attrs[i].kind == TS_ATTR_GRAPH || m->attrs[i].kind == TS_ATTR_GRAPHS)
                *bad = true;
        for (size_t i = 0; i < m->n_blocks; i++)
            n += count_nodes(m->blocks[i], bad);
    }
    return n;
}

/* The function call n enters when that is known statically, else NULL. Errors finding it
 * are left for the code builder, which reports them as it does without the optimizer. */
static TsFunction *callee_of(const Inliner *in, const TsNode *n)
{
    const TsAttr *a = ts_node_attr(n, in->a_name);
    if (!a || a->kind != TS_ATTR_STR || !in->env->unit)
        return NULL;
    if (n->kind == in->k_call_function)
        return ts_unit_find_called(in->env->unit, a->u.s);
    if (n->n_inputs == 0)
        return NULL;
    TsTypeKind k = ts_type_kind(n->inputs[0]->type);
    if (k != TS_TYPE_CLASS && k != TS_TYPE_MODULE)
        return NULL;
    TsFunction *f = NULL;
    TsError e = TS_ERROR_INIT;
    if (ts_unit_method(in->env->unit, n->inputs[0]->type, a->u.s, &f, &e) != 0)
        f = NULL;
    ts_error_clear(&e);
    return f;
}

/* Whether f is already on the call stack of n (or is the function being optimized). */
static bool recursive(const Inliner *in, const TsNode *n, const TsFunction *f, size_t *depth)
{
    *depth = 0;
    if (in->env->fn_name && strcmp(in->env->fn_name, f->qualname) == 0)
        return true;
    for (const TsCallSite *c = n->callstack; c; c = c->outer, ++*depth)
        if (strcmp(c->callee, f->qualname) == 0)
            return true;
    return false;
}

/* Whether the call n to f may be replaced by f's graph: the nodes that costs in *size. */
static bool inlinable(const Inliner *in, const TsNode *n, const TsFunction *f, size_t *size)
{
    const TsBlock *top = ts_graph_block(f->graph);
    size_t depth;
    if (n->n_inputs != top->param->n_outputs || n->n_outputs != top->ret->n_inputs ||
        recursive(in, n, f, &depth) || depth >= MAX_DEPTH)
        return false;
    bool bad = false;
    *size = count_nodes(top, &bad);
    return !bad && *size <= in->budget && ts_block_copyable(top);
}

/* Sets the call stack of n and of every node in its blocks to cs. */
static void mark(TsNode *n, const TsCallSite *cs)
{
    ts_node_set_callstack(n, cs);
    for (size_t i = 0; i < n->n_blocks; i++)
        for (TsNode *m = n->blocks[i]->ret->next; m != n->blocks[i]->ret; m = m->next)
            mark(m, cs);
}

/* Copies f's graph before the call n and gives the call's uses its results; n is left
 * without uses, for the caller to destroy. */
static int inline_call(Inliner *in, TsNode *n, const TsFunction *f)
{
    const TsBlock *top = ts_graph_block(f->graph);
    TsCallSite *cs = ts_callsite_new(n->callstack, f->qualname, n->range, in->err);
    if (!cs)
        return -1;
    TsPtrMap map = { 0 };
    int rc = 0;
    for (size_t i = 0; i < n->n_inputs && rc == 0; i++)
        if (ts_ptrmap_put(&map, top->param->outputs[i], (uintptr_t)n->inputs[i]) < 0)
            rc = ts_error_set(in->err, TS_ERR_NOMEM, "out of memory");
    TsNode *saved = ts_graph_insert_point(in->g);
    ts_graph_set_insert_point(in->g, n);
    for (const TsNode *m = top->ret->next; m != top->ret && rc == 0; m = m->next) {
        TsNode *c = ts_node_clone(in->g, m, &map, in->err);
        if (!c)
            rc = -1;
        else
            mark(c, cs);
    }
    ts_graph_set_insert_point(in->g, saved);
    for (size_t i = 0; i < n->n_outputs && rc == 0; i++) {
        uintptr_t v;
        TsIrValue *r = top->ret->inputs[i];
        TsIrValue *out = ts_ptrmap_get(&map, r, &v) ? (TsIrValue *)v : r;
        rc = ts_irvalue_replace_all_uses_with(n->outputs[i], out, in->err);
    }
    ts_ptrmap_free(&map);
    ts_callsite_release(cs);
    return rc;
}

static int inline_block(Inliner *in, TsBlock *b);

/* Inlines the call n if it can be; *next is where the walk goes on: the first copied node
 * (its calls are inlined in turn), or the node after n. */
static int visit(Inliner *in, TsNode *n, TsNode **next)
{
    *next = n->next;
    if (n->kind != in->k_call_function && n->kind != in->k_call_method) {
        for (size_t i = 0; i < n->n_blocks; i++)
            if (inline_block(in, n->blocks[i]))
                return -1;
        return 0;
    }
    TsFunction *f = callee_of(in, n);
    size_t size;
    if (!f || !inlinable(in, n, f, &size) || !TS_OPT_ALLOWED)
        return 0;
    in->budget -= size;
    TsNode *before = n->prev;
    if (inline_call(in, n, f))
        return -1;
    TS_GRAPH_UPDATE("inlined %s into %s", f->qualname,
                    in->env->fn_name ? in->env->fn_name : "the graph");
    if (ts_node_destroy(n, in->err))
        return -1;
    *next = before->next;
    return 0;
}

static int inline_block(Inliner *in, TsBlock *b)
{
    TsNode *next;
    for (TsNode *n = b->ret->next; n != b->ret; n = next)
        if (visit(in, n, &next))
            return -1;
    return 0;
}

int ts_pass_inline(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    Inliner in = { g, env, err, MAX_GROWTH, ts_symbol("prim::CallFunction"),
                   ts_symbol("prim::CallMethod"), ts_symbol("attr::name") };
    if (!in.k_call_function || !in.k_call_method || !in.a_name)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (inline_block(&in, ts_graph_block(g)))
        return -1;
    TS_GRAPH_DUMP("after inlining", g);
    return 0;
}
