/* lint.c — ts_graph_lint, the IR verifier: is this graph well formed?
 *
 * Passes run it after they transform a graph, and tests run it on graphs they build, so a
 * broken invariant is reported where it was made instead of crashing the interpreter
 * later. It checks, in three sweeps over the blocks:
 *
 *   1. structure: each block's prim::Param / prim::Return sentinels, the circular node
 *      lists (prev/next agree, every node once), owning_block / owning_node / graph
 *      pointers, outputs that know their node and offset, each value defined once, and the
 *      block arities of prim::If, prim::Loop and prim::With;
 *   2. scope, in program order: a value is used only after its definition, in its own block
 *      or one nested in it (block inputs inside their block);
 *   3. use lists: each use names an input slot of a node in the graph that holds the value,
 *      no slot twice, and there are as many uses as slots holding it.
 *
 * Messages name the value as printed ("%x.1") and the node kind, and show the node's
 * source when it has one. Only the public IR structures are read; nothing is changed.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ptrmap.h"

enum { TS_LINT_MAX_DEPTH = 1000 };     /* nested blocks and subgraphs */

typedef enum DefState {
    DEF_PENDING,               /* its definition is not reached yet */
    DEF_LIVE,                  /* defined and in scope */
    DEF_DEAD                   /* its block has ended */
} DefState;

typedef struct ValueInfo {
    const TsIrValue *v;
    DefState state;
    size_t refs;               /* input slots that hold it */
} ValueInfo;

typedef struct Lint {
    const TsGraph *g;
    TsError *err;
    TsPtrMap nodes;              /* every node in the blocks, sentinels included */
    TsPtrMap values;             /* value -> index in infos */
    ValueInfo *infos;
    size_t n_infos, cap_infos;
    size_t *scope;             /* infos indexes of the values in scope, in order */
    size_t n_scope, cap_scope;
    int depth;                 /* of subgraph attributes, for the limit */
} Lint;

/* ---- messages ------------------------------------------------------------------ */
typedef struct Name {
    char buf[32];
} Name;

/* "%x.1" or "%5" (without the '%': the format adds it). */
static const char *vname(const TsIrValue *v, Name *n)
{
    return ts_irvalue_debug_name(v, n->buf, sizeof n->buf);
}

static const char *kind(const TsNode *n)
{
    return n && n->kind ? n->kind : "(a node without a kind)";
}

static bool is_kind(const TsNode *n, const char *k)
{
    return n->kind && strcmp(n->kind, k) == 0;
}

/* Sets the error, with the source of `at` when it has one. Returns TS_ERR_RUNTIME. */
__attribute__((format(printf, 3, 4)))
static int fail(Lint *L, const TsNode *at, const char *fmt, ...)
{
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        return ts_error_set(L->err, TS_ERR_NOMEM, "out of memory");
    if (at && at->range.source)
        ts_error_at(L->err, TS_ERR_RUNTIME, at->range, "%s", msg);
    else
        ts_error_set(L->err, TS_ERR_RUNTIME, "%s", msg);
    free(msg);
    return TS_ERR_RUNTIME;
}

static int nomem(Lint *L)
{
    return ts_error_set(L->err, TS_ERR_NOMEM, "out of memory");
}

/* Where a block is, for messages: "the graph" or "a block of prim::If". */
static const char *block_owner(const TsBlock *b)
{
    return b && b->owning_node ? kind(b->owning_node) : "the graph";
}

/* ---- 1. structure ---------------------------------------------------------------- */
static int add_node(Lint *L, const TsNode *n)
{
    int rc = ts_ptrmap_put(&L->nodes, n, 0);
    if (rc < 0)
        return nomem(L);
    if (rc > 0)
        return fail(L, n, "%s appears twice in the graph's node lists", kind(n));
    return 0;
}

/* Records the outputs of n as defined by it, once each. */
static int add_outputs(Lint *L, const TsNode *n)
{
    for (size_t i = 0; i < n->n_outputs; i++) {
        const TsIrValue *v = n->outputs[i];
        Name a;
        if (!v)
            return fail(L, n, "output %zu of %s is NULL", i, kind(n));
        if (v->node != n || v->offset != i)
            return fail(L, n, "value %%%s is output %zu of %s but says it is output %zu of %s",
                        vname(v, &a), i, kind(n), v->offset, kind(v->node));
        if (L->n_infos == L->cap_infos) {
            size_t cap = L->cap_infos ? 2 * L->cap_infos : 64;
            ValueInfo *grown = realloc(L->infos, cap * sizeof *grown);
            if (!grown)
                return nomem(L);
            L->infos = grown;
            L->cap_infos = cap;
        }
        int rc = ts_ptrmap_put(&L->values, v, L->n_infos);
        if (rc < 0)
            return nomem(L);
        /* Nodes are visited once and v knows its (node, offset): it cannot recur. */
        assert(rc == 0);
        L->infos[L->n_infos++] = (ValueInfo){ v, DEF_PENDING, 0 };
    }
    return 0;
}

/* The block arities of the structured control-flow nodes (blocks already checked). */
static int check_arity(Lint *L, const TsNode *n)
{
    if (is_kind(n, "prim::If")) {
        if (n->n_blocks != 2)
            return fail(L, n, "prim::If has %zu block(s) (expected 2)", n->n_blocks);
        if (n->n_inputs != 1)
            return fail(L, n, "prim::If has %zu inputs (expected 1: the condition)",
                        n->n_inputs);
        for (size_t i = 0; i < 2; i++) {
            const TsBlock *b = n->blocks[i];
            if (b->param->n_outputs != 0)
                return fail(L, n, "block %zu of prim::If takes %zu input(s) (expected 0)", i,
                            b->param->n_outputs);
            if (b->ret->n_inputs != n->n_outputs)
                return fail(L, n, "block %zu of prim::If returns %zu value(s) but the "
                            "prim::If has %zu output(s)", i, b->ret->n_inputs, n->n_outputs);
        }
    } else if (is_kind(n, "prim::Loop")) {
        if (n->n_blocks != 1)
            return fail(L, n, "prim::Loop has %zu block(s) (expected 1)", n->n_blocks);
        if (n->n_inputs < 2)
            return fail(L, n, "prim::Loop has %zu input(s) (expected 2 + carried: the trip "
                        "count and the start condition)", n->n_inputs);
        size_t carried = n->n_inputs - 2;
        const TsBlock *body = n->blocks[0];
        if (body->param->n_outputs != 1 + carried)
            return fail(L, n, "prim::Loop has %zu inputs but its body block takes %zu "
                        "input(s) (expected %zu: the iteration number + %zu carried)",
                        n->n_inputs, body->param->n_outputs, 1 + carried, carried);
        if (body->ret->n_inputs != 1 + carried)
            return fail(L, n, "prim::Loop carries %zu value(s) but its body block returns "
                        "%zu (expected %zu: the condition + %zu carried)", carried,
                        body->ret->n_inputs, 1 + carried, carried);
        if (n->n_outputs != carried)
            return fail(L, n, "prim::Loop carries %zu value(s) but has %zu output(s)",
                        carried, n->n_outputs);
    } else if (is_kind(n, "prim::With")) {
        if (n->n_blocks != 2)
            return fail(L, n, "prim::With has %zu block(s) (expected 2: the body and the "
                        "exit)", n->n_blocks);
    }
    return 0;
}

static int check_block(Lint *L, const TsBlock *b, const TsNode *owner, int depth);

static int check_node(Lint *L, const TsNode *n, const TsBlock *b, int depth)
{
    if (n->owning_block != b)
        return fail(L, n, "%s is in the node list of a block of %s but its owning_block is "
                    "another block", kind(n), block_owner(b));
    if (n->graph != L->g)
        return fail(L, n, "%s is in this graph but says it belongs to another", kind(n));
    if (is_kind(n, "prim::Param") || is_kind(n, "prim::Return"))
        return fail(L, n, "%s inside the node list of a block of %s (it may only be a "
                    "block's sentinel)", kind(n), block_owner(b));
    for (size_t i = 0; i < n->n_inputs; i++)
        if (!n->inputs[i])
            return fail(L, n, "input %zu of %s is NULL", i, kind(n));
    int rc = add_node(L, n);
    if (rc == 0)
        rc = add_outputs(L, n);
    if (rc == 0 && n->n_blocks && !n->blocks)
        rc = fail(L, n, "%s has %zu blocks but no block array", kind(n), n->n_blocks);
    for (size_t i = 0; rc == 0 && i < n->n_blocks; i++)
        rc = check_block(L, n->blocks[i], n, depth + 1);
    return rc ? rc : check_arity(L, n);
}

static int check_block(Lint *L, const TsBlock *b, const TsNode *owner, int depth)
{
    const char *where = owner ? kind(owner) : "the graph";
    if (depth > TS_LINT_MAX_DEPTH)
        return ts_error_set(L->err, TS_ERR_LIMIT, "blocks nested deeper than %d in %s",
                            TS_LINT_MAX_DEPTH, where);
    if (!b)
        return fail(L, owner, "%s has a NULL block", where);
    if (b->graph != L->g)
        return fail(L, owner, "a block of %s belongs to another graph", where);
    if (b->owning_node != owner)
        return fail(L, owner, "a block of %s says it is owned by %s", where,
                    b->owning_node ? kind(b->owning_node) : "the graph");
    const TsNode *param = b->param, *ret = b->ret;
    if (!param || !ret || !is_kind(param, "prim::Param") || !is_kind(ret, "prim::Return"))
        return fail(L, owner, "a block of %s lacks its prim::Param or prim::Return node",
                    where);
    if (param->owning_block != b || ret->owning_block != b)
        return fail(L, owner, "the prim::Param or prim::Return of a block of %s says it is "
                    "in another block", where);
    if (param->graph != L->g || ret->graph != L->g)
        return fail(L, owner, "the sentinels of a block of %s belong to another graph",
                    where);
    if (param->n_inputs || ret->n_outputs || param->n_blocks || ret->n_blocks)
        return fail(L, owner, "the prim::Param or prim::Return of a block of %s has inputs, "
                    "outputs or blocks it must not have", where);
    for (size_t i = 0; i < ret->n_inputs; i++)
        if (!ret->inputs[i])
            return fail(L, owner, "output %zu of a block of %s is NULL", i, where);
    int rc = add_node(L, param);
    if (rc == 0)
        rc = add_node(L, ret);
    if (rc == 0)
        rc = add_outputs(L, param);
    const TsNode *prev = ret;
    for (const TsNode *n = ret->next; rc == 0 && n != ret; prev = n, n = n->next) {
        if (!n)
            return fail(L, prev, "the node list of a block of %s is broken after %s", where,
                        kind(prev));
        if (n->prev != prev)
            return fail(L, n, "the node list of a block of %s is broken: %s does not point "
                        "back to the %s before it", where, kind(n), kind(prev));
        rc = check_node(L, n, b, depth);
    }
    if (rc == 0 && ret->prev != prev)
        return fail(L, owner, "the node list of a block of %s is broken: its prim::Return "
                    "does not point back to the last node", where);
    return rc;
}

/* ---- 2. scope ---------------------------------------------------------------------- */
static int define(Lint *L, const TsNode *n)
{
    for (size_t i = 0; i < n->n_outputs; i++) {
        uintptr_t idx = 0;
        ts_ptrmap_get(&L->values, n->outputs[i], &idx);
        if (L->n_scope == L->cap_scope) {
            size_t cap = L->cap_scope ? 2 * L->cap_scope : 64;
            size_t *grown = realloc(L->scope, cap * sizeof *grown);
            if (!grown)
                return nomem(L);
            L->scope = grown;
            L->cap_scope = cap;
        }
        L->scope[L->n_scope++] = idx;
        L->infos[idx].state = DEF_LIVE;
    }
    return 0;
}

/* Describes a user node: "aten::mul", or "prim::Return of a block of prim::If". */
static const char *user_name(const TsNode *n, char *buf, size_t size)
{
    if (!is_kind(n, "prim::Return"))
        return kind(n);
    if (n->owning_block && n->owning_block->owning_node)
        snprintf(buf, size, "prim::Return of a block of %s", kind(n->owning_block->owning_node));
    else
        snprintf(buf, size, "prim::Return of the graph");
    return buf;
}

/* Is node n inside block b (directly or in blocks nested in it)? */
static bool block_encloses(const TsBlock *b, const TsNode *n)
{
    for (const TsBlock *in = n->owning_block; in; in = in->owning_node
                                                     ? in->owning_node->owning_block : NULL)
        if (in == b)
            return true;
    return false;
}

static int check_input(Lint *L, const TsNode *n, size_t i)
{
    const TsIrValue *v = n->inputs[i];
    char ubuf[96];             /* the user's name, made only for a message */
    Name a;
    uintptr_t idx;
    if (!ts_ptrmap_get(&L->values, v, &idx))
        return fail(L, n, "value %%%s used by %s is not defined in this graph (its node "
                    "was removed or never inserted)", vname(v, &a),
                    user_name(n, ubuf, sizeof ubuf));
    ValueInfo *info = &L->infos[idx];
    const TsBlock *home = v->node->owning_block;
    if (info->state == DEF_DEAD || (info->state == DEF_PENDING && !block_encloses(home, n)))
        return fail(L, n, "value %%%s defined in a block of %s is used outside it by %s",
                    vname(v, &a), block_owner(home), user_name(n, ubuf, sizeof ubuf));
    if (info->state == DEF_PENDING)
        return fail(L, n, "value %%%s used by %s before its definition", vname(v, &a),
                    user_name(n, ubuf, sizeof ubuf));
    info->refs++;
    return 0;
}

static int walk_block(Lint *L, const TsBlock *b)
{
    size_t mark = L->n_scope;
    int rc = define(L, b->param);
    for (const TsNode *n = b->ret->next; rc == 0 && n != b->ret; n = n->next) {
        for (size_t i = 0; rc == 0 && i < n->n_inputs; i++)
            rc = check_input(L, n, i);
        for (size_t i = 0; rc == 0 && i < n->n_blocks; i++)
            rc = walk_block(L, n->blocks[i]);
        if (rc == 0)
            rc = define(L, n);
    }
    for (size_t i = 0; rc == 0 && i < b->ret->n_inputs; i++)
        rc = check_input(L, b->ret, i);
    while (L->n_scope > mark)
        L->infos[L->scope[--L->n_scope]].state = DEF_DEAD;
    return rc;
}

/* ---- 3. use lists ------------------------------------------------------------------- */
/* Finds an input slot holding v that no use names (there is one when v is an input more
 * often than it has uses) and reports it. Only on the failure path: it scans every node. */
static int report_missing_use(Lint *L, const ValueInfo *info, const TsPtrMap *used)
{
    const TsIrValue *v = info->v;
    Name a;
    char ubuf[96];
    for (size_t k = 0; k < L->nodes.cap; k++) {
        const TsNode *n = L->nodes.keys[k];
        for (size_t i = 0; n && i < n->n_inputs; i++)
            if (n->inputs[i] == v && !ts_ptrmap_get(used, &n->inputs[i], NULL))
                return fail(L, n, "value %%%s is input %zu of %s but its use list does not "
                            "say so", vname(v, &a), i, user_name(n, ubuf, sizeof ubuf));
    }
    return fail(L, v->node, "value %%%s has %zu use(s) listed but is an input %zu time(s)",
                vname(v, &a), v->n_uses, info->refs);
}

/* Each use names an input slot, in the graph, that holds the value, and no slot twice;
 * with the counts equal, uses and input slots correspond one to one. */
static int check_value_uses(Lint *L, const ValueInfo *info, TsPtrMap *used)
{
    const TsIrValue *v = info->v;
    Name a;
    char ubuf[96];
    for (size_t i = 0; i < v->n_uses; i++) {
        const TsUse *u = &v->uses[i];
        if (!u->user || !ts_ptrmap_get(&L->nodes, u->user, NULL))
            return fail(L, v->node, "value %%%s has a dangling use by %s, a node that is not "
                        "in the graph", vname(v, &a), u->user ? kind(u->user) : "NULL");
        if (u->offset >= u->user->n_inputs || u->user->inputs[u->offset] != v)
            return fail(L, u->user, "value %%%s's use list names input %zu of %s, which is "
                        "not that value", vname(v, &a), u->offset,
                        user_name(u->user, ubuf, sizeof ubuf));
        int rc = ts_ptrmap_put(used, &u->user->inputs[u->offset], 0);
        if (rc < 0)
            return nomem(L);
        if (rc > 0)
            return fail(L, u->user, "value %%%s's use list names input %zu of %s twice",
                        vname(v, &a), u->offset, user_name(u->user, ubuf, sizeof ubuf));
    }
    if (v->n_uses != info->refs)
        return report_missing_use(L, info, used);
    return 0;
}

static int check_uses(Lint *L)
{
    TsPtrMap used = { 0 };       /* input slots (&node->inputs[i]) named by some use */
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < L->n_infos; k++)
        rc = check_value_uses(L, &L->infos[k], &used);
    ts_ptrmap_free(&used);
    return rc;
}

/* ---- subgraph attributes -------------------------------------------------------------- */
static int lint_graph(const TsGraph *g, TsError *err, int depth);

static int check_subgraph(Lint *L, const TsNode *n, const TsAttr *a, const TsGraph *sub)
{
    if (!sub)
        return fail(L, n, "the graph attribute %s of %s is NULL", a->name, kind(n));
    int rc = lint_graph(sub, L->err, L->depth + 1);
    if (rc)
        ts_error_prefix(L->err, "in the subgraph %s of %s: ", a->name, kind(n));
    return rc;
}

static int check_subgraphs(Lint *L)
{
    for (size_t k = 0; k < L->nodes.cap; k++) {
        const TsNode *n = L->nodes.keys[k];
        for (size_t i = 0; n && i < n->n_attrs; i++) {
            const TsAttr *a = &n->attrs[i];
            int rc = 0;
            if (a->kind == TS_ATTR_GRAPH)
                rc = check_subgraph(L, n, a, a->u.g);
            for (size_t j = 0; rc == 0 && a->kind == TS_ATTR_GRAPHS && j < a->n; j++)
                rc = check_subgraph(L, n, a, a->u.gs[j]);
            if (rc)
                return rc;
        }
    }
    return 0;
}

static int lint_graph(const TsGraph *g, TsError *err, int depth)
{
    if (!g)
        return ts_error_set(err, TS_ERR_USAGE, "ts_graph_lint: no graph");
    if (depth > TS_LINT_MAX_DEPTH)
        return ts_error_set(err, TS_ERR_LIMIT, "subgraphs nested deeper than %d",
                            TS_LINT_MAX_DEPTH);
    Lint L = { .g = g, .err = err, .depth = depth };
    const TsBlock *top = ts_graph_block(g);
    int rc = check_block(&L, top, NULL, 0);
    if (rc == 0)
        rc = walk_block(&L, top);
    if (rc == 0)
        rc = check_uses(&L);
    if (rc == 0)
        rc = check_subgraphs(&L);
    ts_ptrmap_free(&L.nodes);
    ts_ptrmap_free(&L.values);
    free(L.infos);
    free(L.scope);
    return rc;
}

int ts_graph_lint(const TsGraph *g, TsError *err)
{
    return lint_graph(g, err, 0);
}
