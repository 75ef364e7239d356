/* node.c — nodes and blocks: inputs and their uses, outputs, sub-blocks, the block lists,
 * program order, and destruction.
 *
 * A block's nodes form a circular list through its prim::Return node (the sentinel); its
 * prim::Param node is outside the list. Each node in a list carries a position (topo) that
 * grows along the list, so ts_node_is_before is a comparison once both nodes are lifted to
 * a common block; positions are spaced 2^40 apart when appending and halved when inserting
 * between two nodes, and a block is renumbered when there is no room left (as PyTorch does).
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/graph_internal.h"

static const int64_t topo_step = (int64_t)1 << 40;

static int nomem(TsError *err)
{
    return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
}

static int grow(void **items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 4;
    while (ncap < need)
        ncap *= 2;
    void *p = realloc(*items, ncap * size);
    if (!p)
        return -1;
    *items = p;
    *cap = ncap;
    return 0;
}

const char *ts_irvalue_debug_name(const TsIrValue *v, char *buf, size_t size)
{
    if (v->name)
        return v->name;
    snprintf(buf, size, "%zu", v->unique);
    return buf;
}

/* ---- allocation ------------------------------------------------------------ */
static TsNode *node_alloc(TsGraph *g, TsSymbol kind, TsError *err)
{
    if (!kind) {
        nomem(err);
        return NULL;
    }
    if (grow((void **)&g->all, &g->cap_all, g->n_all + 1, sizeof *g->all) != 0) {
        nomem(err);
        return NULL;
    }
    TsNodeImpl *impl = calloc(1, sizeof *impl);
    if (!impl) {
        nomem(err);
        return NULL;
    }
    impl->pub.kind = kind;
    impl->pub.graph = g;
    impl->slot = g->n_all;
    g->all[g->n_all++] = &impl->pub;
    return &impl->pub;
}

/* Frees n's own memory: outputs, attributes, arrays and block structs (not the blocks'
 * nodes, which are freed on their own). */
static void node_release(TsNode *n)
{
    TsGraph *g = n->graph;
    TsNodeImpl *impl = ts_node_impl(n);
    TsNode *last = g->all[--g->n_all];
    g->all[impl->slot] = last;
    ts_node_impl(last)->slot = impl->slot;
    for (size_t i = 0; i < n->n_outputs; i++)
        ts_irvalue_free(g, n->outputs[i]);
    for (size_t i = 0; i < n->n_attrs; i++)
        ts_attr_clear(&n->attrs[i]);
    for (size_t i = 0; i < n->n_blocks; i++)
        free(n->blocks[i]);
    if (n->range.source)
        ts_source_release(n->range.source);
    ts_callsite_release(n->callstack);
    free(n->outputs);
    free(n->inputs);
    free(n->attrs);
    free(n->blocks);
    free(impl);
}

void ts_node_free(TsNode *n)
{
    node_release(n);
}

TsBlock *ts_block_new(TsGraph *g, TsNode *owner, TsError *err)
{
    TsBlock *b = calloc(1, sizeof *b);
    if (!b) {
        nomem(err);
        return NULL;
    }
    b->graph = g;
    b->owning_node = owner;
    b->param = node_alloc(g, ts_symbol("prim::Param"), err);
    b->ret = b->param ? node_alloc(g, ts_symbol("prim::Return"), err) : NULL;
    if (!b->ret) {
        if (b->param)
            node_release(b->param);
        free(b);
        return NULL;
    }
    b->param->owning_block = b;
    b->ret->owning_block = b;
    b->ret->next = b->ret->prev = b->ret;
    ts_node_impl(b->param)->topo = INT64_MIN;
    ts_node_impl(b->ret)->topo = INT64_MAX;
    return b;
}

TsNode *ts_graph_create(TsGraph *g, TsSymbol kind, size_t n_outputs, TsError *err)
{
    if (!kind)    /* callers pass ts_symbol(...), NULL when it could not intern */
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
    TsNode *n = node_alloc(g, kind, err);
    for (size_t i = 0; n && i < n_outputs; i++)
        if (!ts_node_add_output(n, ts_type_tensor(), err)) {
            node_release(n);
            return NULL;
        }
    return n;
}

/* ---- uses --------------------------------------------------------------------- */
static size_t find_use(const TsIrValue *v, const TsNode *user, size_t offset)
{
    for (size_t i = 0; i < v->n_uses; i++)
        if (v->uses[i].user == user && v->uses[i].offset == offset)
            return i;
    assert(!"use list out of step with the inputs");
    return v->n_uses;
}

static void drop_use(TsIrValue *v, const TsNode *user, size_t offset)
{
    size_t i = find_use(v, user, offset);
    if (i == v->n_uses)
        return;
    memmove(&v->uses[i], &v->uses[i + 1], (v->n_uses - i - 1) * sizeof *v->uses);
    v->n_uses--;
}

static void set_use_offset(TsIrValue *v, const TsNode *user, size_t from, size_t to)
{
    size_t i = find_use(v, user, from);
    if (i < v->n_uses)
        v->uses[i].offset = to;
}

/* ---- inputs ------------------------------------------------------------------- */
int ts_node_add_input(TsNode *n, TsIrValue *v, TsError *err)
{
    return ts_node_insert_input(n, n->n_inputs, v, err);
}

int ts_node_insert_input(TsNode *n, size_t i, TsIrValue *v, TsError *err)
{
    /* checked: this is the public ts_node_add_input's path too */
    if (!v || v->node->graph != n->graph)
        return ts_error_set(err, TS_ERR_USAGE, "an input of %s must be a value of its graph",
                            n->kind);
    if (i > n->n_inputs)
        return ts_error_set(err, TS_ERR_USAGE, "input position %zu of %s is past its %zu inputs",
                            i, n->kind, n->n_inputs);
    if (grow((void **)&n->inputs, &n->cap_inputs, n->n_inputs + 1, sizeof *n->inputs) != 0 ||
        ts_irvalue_add_use(v, n, SIZE_MAX) != 0)
        return nomem(err);
    /* From the end, so an offset never collides with one not yet moved. */
    for (size_t j = n->n_inputs; j-- > i;)
        set_use_offset(n->inputs[j], n, j, j + 1);
    memmove(&n->inputs[i + 1], &n->inputs[i], (n->n_inputs - i) * sizeof *n->inputs);
    n->inputs[i] = v;
    n->n_inputs++;
    set_use_offset(v, n, SIZE_MAX, i);
    n->op = NULL;
    return 0;
}

int ts_node_replace_input(TsNode *n, size_t i, TsIrValue *v, TsError *err)
{
    assert(i < n->n_inputs);
    if (n->inputs[i] == v)
        return 0;
    if (ts_irvalue_add_use(v, n, SIZE_MAX) != 0)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    drop_use(n->inputs[i], n, i);
    n->inputs[i] = v;
    set_use_offset(v, n, SIZE_MAX, i);
    n->op = NULL;
    return 0;
}

void ts_node_remove_input(TsNode *n, size_t i)
{
    assert(i < n->n_inputs);
    drop_use(n->inputs[i], n, i);
    for (size_t j = i + 1; j < n->n_inputs; j++)
        set_use_offset(n->inputs[j], n, j, j - 1);
    memmove(&n->inputs[i], &n->inputs[i + 1], (n->n_inputs - i - 1) * sizeof *n->inputs);
    n->n_inputs--;
    n->op = NULL;
}

void ts_node_remove_all_inputs(TsNode *n)
{
    for (size_t i = 0; i < n->n_inputs; i++)
        drop_use(n->inputs[i], n, i);
    n->n_inputs = 0;
    n->op = NULL;
}

/* ---- outputs and blocks --------------------------------------------------------- */
TsIrValue *ts_node_add_output(TsNode *n, const TsType *type, TsError *err)
{
    if (!type) {
        ts_error_set(err, TS_ERR_USAGE, "an output of %s needs a type", n->kind);
        return NULL;
    }
    if (grow((void **)&n->outputs, &n->cap_outputs, n->n_outputs + 1, sizeof *n->outputs)) {
        nomem(err);
        return NULL;
    }
    TsIrValue *v = ts_irvalue_new(n, n->n_outputs, type, err);
    if (!v)
        return NULL;
    n->outputs[n->n_outputs++] = v;
    n->op = NULL;
    return v;
}

int ts_node_erase_output(TsNode *n, size_t i, TsError *err)
{
    assert(i < n->n_outputs);
    TsIrValue *v = n->outputs[i];
    if (v->n_uses) {
        char buf[32];
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "cannot erase output %%%s of %s: it still has %zu use(s)",
                            ts_irvalue_debug_name(v, buf, sizeof buf), n->kind, v->n_uses);
    }
    ts_irvalue_free(n->graph, v);
    memmove(&n->outputs[i], &n->outputs[i + 1], (n->n_outputs - i - 1) * sizeof *n->outputs);
    n->n_outputs--;
    for (size_t j = i; j < n->n_outputs; j++)
        n->outputs[j]->offset = j;
    n->op = NULL;
    return 0;
}

TsBlock *ts_node_add_block(TsNode *n, TsError *err)
{
    size_t cap = n->n_blocks;   /* blocks are few: grow one at a time */
    TsBlock **nb = realloc(n->blocks, (cap + 1) * sizeof *nb);
    if (!nb) {
        nomem(err);
        return NULL;
    }
    n->blocks = nb;
    TsBlock *b = ts_block_new(n->graph, n, err);
    if (!b)
        return NULL;
    n->blocks[n->n_blocks++] = b;
    n->op = NULL;
    return b;
}

TsIrValue *ts_block_add_input(TsBlock *b, const char *name, const TsType *type, TsError *err)
{
    TsIrValue *v = ts_node_add_output(b->param, type, err);
    if (v && name && ts_irvalue_set_name(v, name, false, err) != 0) {
        ts_node_erase_output(b->param, v->offset, NULL);
        return NULL;
    }
    return v;
}

int ts_block_add_output(TsBlock *b, TsIrValue *v, TsError *err)
{
    return ts_node_add_input(b->ret, v, err);
}

/* ---- the block list ------------------------------------------------------------- */
static void reindex(TsBlock *b)
{
    size_t count = 0;
    for (TsNode *m = b->ret->next; m != b->ret; m = m->next)
        count++;
    uint64_t step = UINT64_MAX / (count + 2), pos = step;
    for (TsNode *m = b->ret->next; m != b->ret; m = m->next, pos += step)
        ts_node_impl(m)->topo = (int64_t)(pos + (uint64_t)INT64_MIN);
}

static void assign_topo(TsNode *n)
{
    TsBlock *b = n->owning_block;
    bool first = n->prev == b->ret, last = n->next == b->ret;
    int64_t lo = first ? INT64_MIN : ts_node_impl(n->prev)->topo;
    int64_t hi = last ? INT64_MAX : ts_node_impl(n->next)->topo;
    int64_t pos;
    if (first && last) {
        pos = 0;
    } else if (last) {
        if (lo >= INT64_MAX - topo_step) {
            reindex(b);
            return;
        }
        pos = lo + topo_step;
    } else if (first) {
        if (hi <= INT64_MIN + topo_step) {
            reindex(b);
            return;
        }
        pos = hi - topo_step;
    } else {
        uint64_t gap = (uint64_t)hi - (uint64_t)lo;
        pos = (int64_t)((uint64_t)lo + gap / 2);
        if (pos == lo) {
            reindex(b);
            return;
        }
    }
    ts_node_impl(n)->topo = pos;
}

static void link_after(TsNode *n, TsNode *prev)
{
    n->owning_block = prev->owning_block;
    n->prev = prev;
    n->next = prev->next;
    prev->next->prev = n;
    prev->next = n;
    assign_topo(n);
}

static void unlink_node(TsNode *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->next = n->prev = NULL;
    n->owning_block = NULL;
}

static bool is_sentinel(const TsNode *n)
{
    return n->owning_block && (n == n->owning_block->param || n == n->owning_block->ret);
}

bool ts_node_is_within(const TsNode *n, const TsNode *outer)
{
    for (; n; n = n->owning_block ? n->owning_block->owning_node : NULL)
        if (n == outer)
            return true;
    return false;
}

void ts_node_insert_before(TsNode *n, TsNode *pos)
{
    assert(!n->owning_block && pos->owning_block && pos != pos->owning_block->param);
    link_after(n, pos->prev);
}

void ts_node_insert_after(TsNode *n, TsNode *pos)
{
    assert(!n->owning_block && pos->owning_block && pos != pos->owning_block->ret);
    link_after(n, pos == pos->owning_block->param ? pos->owning_block->ret : pos);
}

void ts_node_move_before(TsNode *n, TsNode *pos)
{
    assert(n->owning_block && !is_sentinel(n) && !ts_node_is_within(pos, n));
    unlink_node(n);
    ts_node_insert_before(n, pos);
}

void ts_node_move_after(TsNode *n, TsNode *pos)
{
    assert(n->owning_block && !is_sentinel(n) && !ts_node_is_within(pos, n));
    unlink_node(n);
    ts_node_insert_after(n, pos);
}

bool ts_node_is_before(const TsNode *n, const TsNode *m)
{
    for (const TsNode *l = n; l && l->owning_block; l = l->owning_block->owning_node)
        for (const TsNode *r = m; r && r->owning_block; r = r->owning_block->owning_node)
            if (l->owning_block == r->owning_block)
                return l != r && ts_node_impl(l)->topo < ts_node_impl(r)->topo;
    return false;
}

/* ---- destruction ------------------------------------------------------------------ */
/* The first value defined inside `outer` (its nested blocks' inputs and nodes) or by
 * outer itself that is used by a node outside it; NULL if there is none. */
static const TsIrValue *escaping_value(const TsNode *n, const TsNode *outer)
{
    for (size_t i = 0; i < n->n_outputs; i++)
        for (size_t u = 0; u < n->outputs[i]->n_uses; u++)
            if (n == outer || !ts_node_is_within(n->outputs[i]->uses[u].user, outer))
                return n->outputs[i];
    for (size_t i = 0; i < n->n_blocks; i++) {
        TsBlock *b = n->blocks[i];
        const TsIrValue *v = escaping_value(b->param, outer);
        for (TsNode *m = b->ret->next; !v && m != b->ret; m = m->next)
            v = escaping_value(m, outer);
        if (v)
            return v;
    }
    return NULL;
}

static void drop_inputs_tree(TsNode *n)
{
    ts_node_remove_all_inputs(n);
    for (size_t i = 0; i < n->n_blocks; i++) {
        TsBlock *b = n->blocks[i];
        for (TsNode *m = b->ret->next; m != b->ret; m = m->next)
            drop_inputs_tree(m);
        ts_node_remove_all_inputs(b->ret);
    }
}

static void free_block_nodes(TsBlock *b);

static void free_tree(TsNode *n)
{
    for (size_t i = 0; i < n->n_blocks; i++)
        free_block_nodes(n->blocks[i]);
    node_release(n);
}

static void free_block_nodes(TsBlock *b)
{
    TsNode *m = b->ret->next;
    while (m != b->ret) {
        TsNode *next = m->next;
        free_tree(m);
        m = next;
    }
    node_release(b->param);
    node_release(b->ret);
}

/* Moves the graph's insertion point out of a subtree about to be freed. */
static void rescue_insert_point(TsGraph *g, const TsNode *doomed)
{
    if (g->insert_before && ts_node_is_within(g->insert_before, doomed))
        g->insert_before = g->block->ret;
}

int ts_node_destroy(TsNode *n, TsError *err)
{
    if (is_sentinel(n))
        return ts_error_set(err, TS_ERR_USAGE, "cannot destroy the %s node of a block", n->kind);
    const TsIrValue *v = escaping_value(n, n);
    if (v) {
        char buf[32];
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "cannot destroy node %s: its value %%%s is still used",
                            n->kind, ts_irvalue_debug_name(v, buf, sizeof buf));
    }
    rescue_insert_point(n->graph, n);
    drop_inputs_tree(n);
    if (n->owning_block)
        unlink_node(n);
    free_tree(n);
    return 0;
}

void ts_node_erase_block(TsNode *n, size_t i)
{
    assert(i < n->n_blocks);
    TsBlock *b = n->blocks[i];
    if (n->graph->insert_before && n->graph->insert_before->owning_block == b)
        n->graph->insert_before = n->graph->block->ret;
    for (TsNode *m = b->ret->next; m != b->ret; m = m->next) {
        rescue_insert_point(n->graph, m);
        drop_inputs_tree(m);
    }
    ts_node_remove_all_inputs(b->ret);
    free_block_nodes(b);
    free(b);
    memmove(&n->blocks[i], &n->blocks[i + 1], (n->n_blocks - i - 1) * sizeof *n->blocks);
    n->n_blocks--;
    n->op = NULL;
}

void ts_node_set_range(TsNode *n, TsSourceRange r)
{
    if (r.source)
        ts_source_retain(r.source);
    if (n->range.source)
        ts_source_release(n->range.source);
    n->range = r;
}
