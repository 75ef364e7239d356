/* cse.c — common-subexpression elimination: a node that computes what an earlier one
 * already computed is replaced by it.
 *
 * As PyTorch's EliminateCommonSubexpression: nodes are visited in program order; two nodes
 * are the same when they have the same kind and operator, the same inputs, the same
 * attributes and outputs of the same types. The earlier one must be in the same block or an
 * enclosing one (a block's table is dropped when the walk leaves it). Never merged: nodes
 * with side effects or random numbers (ir/alias.h), nodes with blocks (their blocks are
 * walked instead), new objects, nodes of constant inputs whose outputs are mutable (PyTorch
 * folds each into a constant object of its own first: own_constant), and any node one of
 * whose inputs or outputs some node of the graph writes (AliasDb:
 * ts_alias_node_has_writers) — so nothing is merged across an
 * `add_`, an `append` or an `index_put_` of memory it may alias. prim::Enter and prim::Exit
 * (a `with` statement: torch.no_grad()) start a new context: nodes of different contexts are
 * never merged, as gradient mode may differ.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/alias.h"
#include "ir/log.h"
#include "ir/passes/passes.h"
#include "ir/passes/pure.h"

typedef struct Entry {
    uint64_t hash;
    TsNode *node;
    size_t context;
    size_t next;               /* the next entry of the same bucket, or SIZE_MAX */
} Entry;

typedef struct Table {
    size_t *buckets;           /* entry index or SIZE_MAX */
    size_t n_buckets;          /* a power of two */
    Entry *entries;            /* a stack: leaving a block pops its entries */
    size_t n_entries, cap_entries;
    size_t context;            /* bumped at each prim::Enter / prim::Exit */
} Table;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    return h;
}

static uint64_t node_hash(const TsNode *n)
{
    uint64_t h = mix((uintptr_t)n->kind, n->n_inputs);
    for (size_t i = 0; i < n->n_inputs; i++)
        h = mix(h, (uintptr_t)n->inputs[i]);
    return mix(h, n->n_attrs);
}

static bool attr_equal(const TsAttr *a, const TsAttr *b)
{
    if (a->name != b->name || a->kind != b->kind || a->n != b->n)
        return false;
    switch (a->kind) {
    case TS_ATTR_INT: return a->u.i == b->u.i;
    case TS_ATTR_FLOAT: return memcmp(&a->u.f, &b->u.f, sizeof a->u.f) == 0;
    case TS_ATTR_COMPLEX: return memcmp(a->u.c, b->u.c, sizeof a->u.c) == 0;
    case TS_ATTR_STR: return strcmp(a->u.s, b->u.s) == 0;
    case TS_ATTR_TYPE: return ts_type_equal(a->u.ty, b->u.ty);
    case TS_ATTR_INTS: return a->n == 0 || memcmp(a->u.is, b->u.is, a->n * sizeof *a->u.is) == 0;
    case TS_ATTR_FLOATS: return a->n == 0 || memcmp(a->u.fs, b->u.fs, a->n * sizeof *a->u.fs) == 0;
    case TS_ATTR_STRS:
        for (size_t i = 0; i < a->n; i++)
            if (strcmp(a->u.ss[i], b->u.ss[i]) != 0)
                return false;
        return true;
    case TS_ATTR_TYPES:
        for (size_t i = 0; i < a->n; i++)
            if (!ts_type_equal(a->u.tys[i], b->u.tys[i]))
                return false;
        return true;
    default:                   /* tensors, graphs, values: only the very same one */
        return memcmp(&a->u, &b->u, sizeof a->u) == 0;
    }
}

static bool same_node(const TsNode *a, const TsNode *b)
{
    if (a->kind != b->kind || a->op != b->op || a->n_inputs != b->n_inputs ||
        a->n_outputs != b->n_outputs || a->n_attrs != b->n_attrs)
        return false;
    for (size_t i = 0; i < a->n_inputs; i++)
        if (a->inputs[i] != b->inputs[i])
            return false;
    for (size_t i = 0; i < a->n_outputs; i++)
        if (!ts_type_equal(a->outputs[i]->type, b->outputs[i]->type))
            return false;
    for (size_t i = 0; i < a->n_attrs; i++) {
        const TsAttr *other = ts_node_attr(b, a->attrs[i].name);
        if (!other || !attr_equal(&a->attrs[i], other))
            return false;
    }
    return true;
}

/* A node PyTorch's constant propagation, which runs before its CSE, would have made a
 * constant of its own: all its inputs constants (or none) and an output of a mutable type
 * (a tensor, list, dict). Each such node gives a distinct object there — two
 * torch.tensor(1) are two keys of a dict, [1, 2] is not [1, 2] — so it is never merged. */
static bool own_constant(const TsNode *n)
{
    bool mutable_out = false;
    for (size_t i = 0; i < n->n_outputs; i++)
        mutable_out = mutable_out || !ts_type_is_immutable(n->outputs[i]->type);
    if (!mutable_out)
        return false;
    for (size_t i = 0; i < n->n_inputs; i++)
        if (n->inputs[i]->node->kind != ts_symbol("prim::Constant"))
            return false;
    return true;
}

static bool mergeable(const TsAliasDb *db, const TsNode *n)
{
    return n->n_outputs > 0 && n->n_blocks == 0 && n->kind != ts_symbol("prim::CreateObject") &&
           n->kind != ts_symbol("prim::Uninitialized") && !ts_alias_node_has_side_effects(n) &&
           !own_constant(n) && !ts_alias_node_has_writers(db, n);
}

static TsNode *lookup(const Table *t, const TsNode *n, uint64_t h)
{
    for (size_t e = t->buckets[h & (t->n_buckets - 1)]; e != SIZE_MAX; e = t->entries[e].next)
        if (t->entries[e].hash == h && t->entries[e].context == t->context &&
            same_node(t->entries[e].node, n))
            return t->entries[e].node;
    return NULL;
}

static int push(Table *t, TsNode *n, uint64_t h)
{
    if (t->n_entries == t->cap_entries) {
        size_t cap = t->cap_entries ? t->cap_entries * 2 : 64;
        Entry *e = realloc(t->entries, cap * sizeof *e);
        if (!e)
            return -1;
        t->entries = e;
        t->cap_entries = cap;
    }
    size_t *b = &t->buckets[h & (t->n_buckets - 1)];
    t->entries[t->n_entries] = (Entry){ h, n, t->context, *b };
    *b = t->n_entries++;
    return 0;
}

/* Pops the entries pushed since mark (newest first, so each bucket's head is restored). */
static void pop_to(Table *t, size_t mark)
{
    while (t->n_entries > mark) {
        const Entry *e = &t->entries[--t->n_entries];
        t->buckets[e->hash & (t->n_buckets - 1)] = e->next;
    }
}

static int cse_block(Table *t, const TsAliasDb *db, TsBlock *b, TsError *err)
{
    size_t mark = t->n_entries;
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        if (n->kind == ts_symbol("prim::Enter") || n->kind == ts_symbol("prim::Exit"))
            t->context++;
        for (size_t i = 0; i < n->n_blocks; i++)
            if (cse_block(t, db, n->blocks[i], err))
                return -1;
        if (!mergeable(db, n))
            continue;
        uint64_t h = node_hash(n);
        TsNode *same = lookup(t, n, h);
        if (!same) {
            if (push(t, n, h))
                return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
            continue;
        }
        if (!TS_OPT_ALLOWED)
            continue;
        for (size_t i = 0; i < n->n_outputs; i++)
            if (ts_irvalue_replace_all_uses_with(n->outputs[i], same->outputs[i], err))
                return -1;
        TS_GRAPH_UPDATE("replaced %s by an earlier identical node", n->kind);
        if (ts_node_destroy(n, err))
            return -1;
    }
    pop_to(t, mark);
    return 0;
}

static size_t count_nodes(const TsBlock *b)
{
    size_t n = 0;
    for (const TsNode *m = b->ret->next; m != b->ret; m = m->next) {
        n++;
        for (size_t i = 0; i < m->n_blocks; i++)
            n += count_nodes(m->blocks[i]);
    }
    return n;
}

int ts_pass_cse(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    (void)env;
    TsAliasDb *db = ts_alias_db_new(g, err);
    if (!db)
        return -1;
    Table t = { 0 };
    size_t want = count_nodes(ts_graph_block(g)) * 2;
    for (t.n_buckets = 16; t.n_buckets < want && t.n_buckets < ((size_t)1 << 30);)
        t.n_buckets *= 2;
    t.buckets = malloc(t.n_buckets * sizeof *t.buckets);
    int rc = -1;
    if (!t.buckets) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    } else {
        memset(t.buckets, 0xff, t.n_buckets * sizeof *t.buckets);
        rc = cse_block(&t, db, ts_graph_block(g), err);
    }
    free(t.buckets);
    free(t.entries);
    ts_alias_db_free(db);
    if (rc == 0)
        TS_GRAPH_DUMP("after cse", g);
    return rc;
}
