/* ir.c — the public IR (tscript/ir.h) over the core's graphs: reading them through opaque
 * handles, and rewriting them with every argument checked.
 *
 * The core's own primitives (core/ir/ir.h) trust their callers — the frontend — and assert
 * what they expect. A pass in a plugin is a caller the core does not control, so each
 * function here checks first what the primitive would assert (handles of one graph, a node
 * in no block or in one, an index in range, no move into the node's own blocks), fails with
 * TS_ERR_USAGE, and only then changes the graph, so that a refused call leaves it as it was.
 */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "ir/ir.h"
#include "sched/code.h"
#include "sched/spec.h"

static int usage(TsError *err, const char *fn, const char *why)
{
    return ts_error_set(err, TS_ERR_USAGE, "%s: %s", fn, why);
}

/* ---- graphs and blocks -------------------------------------------------------------- */

size_t ts_graph_num_inputs(const TsGraph *g) { return ts_block_num_inputs(ts_graph_block(g)); }
TsIrValue *ts_graph_input(const TsGraph *g, size_t i)
{
    return ts_block_input(ts_graph_block(g), i);
}
size_t ts_graph_num_outputs(const TsGraph *g) { return ts_block_num_outputs(ts_graph_block(g)); }
TsIrValue *ts_graph_output(const TsGraph *g, size_t i)
{
    return ts_block_output(ts_graph_block(g), i);
}

TsGraph *ts_block_graph(const TsBlock *b) { return b->graph; }
TsNode *ts_block_owning_node(const TsBlock *b) { return b->owning_node; }
TsNode *ts_block_first_node(const TsBlock *b) { return b->ret->next == b->ret ? NULL : b->ret->next; }
TsNode *ts_block_last_node(const TsBlock *b) { return b->ret->prev == b->ret ? NULL : b->ret->prev; }
size_t ts_block_num_inputs(const TsBlock *b) { return b->param->n_outputs; }
TsIrValue *ts_block_input(const TsBlock *b, size_t i)
{
    return ts_node_output(b->param, i);
}
size_t ts_block_num_outputs(const TsBlock *b) { return b->ret->n_inputs; }
TsIrValue *ts_block_output(const TsBlock *b, size_t i)
{
    return ts_node_input(b->ret, i);
}

/* A node's neighbour in its list, or NULL at the block's ends (its sentinels). */
static TsNode *neighbour(const TsNode *n, TsNode *m)
{
    const TsBlock *b = n->owning_block;
    return !b || !m || m == b->ret || n == b->ret || n == b->param ? NULL : m;
}
TsNode *ts_node_next(const TsNode *n) { return neighbour(n, n->next); }
TsNode *ts_node_prev(const TsNode *n) { return neighbour(n, n->prev); }

/* ---- nodes and values ----------------------------------------------------------------- */

const char *ts_node_kind(const TsNode *n) { return n->kind; }
TsGraph *ts_node_graph(const TsNode *n) { return n->graph; }
TsBlock *ts_node_owning_block(const TsNode *n) { return n->owning_block; }
size_t ts_node_num_inputs(const TsNode *n) { return n->n_inputs; }
TsIrValue *ts_node_input(const TsNode *n, size_t i) { return i < n->n_inputs ? n->inputs[i] : NULL; }
size_t ts_node_num_outputs(const TsNode *n) { return n->n_outputs; }
TsIrValue *ts_node_output(const TsNode *n, size_t i)
{
    return i < n->n_outputs ? n->outputs[i] : NULL;
}
size_t ts_node_num_blocks(const TsNode *n) { return n->n_blocks; }
TsBlock *ts_node_block(const TsNode *n, size_t i) { return i < n->n_blocks ? n->blocks[i] : NULL; }

TsNode *ts_irvalue_node(const TsIrValue *v) { return v->node; }
size_t ts_irvalue_offset(const TsIrValue *v) { return v->offset; }
const TsType *ts_irvalue_type(const TsIrValue *v) { return v->type; }
size_t ts_irvalue_num_uses(const TsIrValue *v) { return v->n_uses; }

TsNode *ts_irvalue_use(const TsIrValue *v, size_t i, size_t *input)
{
    if (i >= v->n_uses)
        return NULL;
    if (input)
        *input = v->uses[i].offset;
    return v->uses[i].user;
}

int ts_irvalue_set_type(TsIrValue *v, const TsType *type, TsError *err)
{
    if (!v || !type)
        return usage(err, "ts_irvalue_set_type", v ? "no type" : "no value");
    v->type = type;
    for (size_t i = 0; i < v->n_uses; i++)
        v->uses[i].user->op = NULL;   /* bound again by its new input types */
    return 0;
}

/* ---- rewriting ------------------------------------------------------------------------- */

/* "ns::name": a namespace and a name of identifier characters (PyTorch's kinds may carry
 * dots, "aten::add.Tensor" is not a kind but "prim::TupleUnpack" and "foo::bar_1" are). */
static bool valid_kind(const char *kind)
{
    const char *sep = strstr(kind, "::");
    if (!sep || sep == kind || !sep[2])
        return false;
    for (const char *p = kind; *p; p++) {
        if (p == sep) {
            p++;
            continue;
        }
        char c = *p;
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9')))
            return false;
    }
    return true;
}

TsNode *ts_node_create(TsGraph *g, const char *kind, TsIrValue *const *inputs, size_t n,
                       TsError *err)
{
    if (!g || !kind || (n && !inputs))
        return usage(err, "ts_node_create", !g ? "no graph" : !kind ? "no kind" : "no inputs"),
               NULL;
    if (!valid_kind(kind))
        return ts_error_set(err, TS_ERR_USAGE,
                            "ts_node_create: '%s' is not a node kind (\"namespace::name\")",
                            kind), NULL;
    for (size_t i = 0; i < n; i++)
        if (!inputs[i] || inputs[i]->node->graph != g)
            return ts_error_set(err, TS_ERR_USAGE,
                                "ts_node_create: input %zu of %s is not a value of the graph",
                                i, kind), NULL;
    TsNode *node = ts_graph_create(g, ts_symbol(kind), 0, err);
    for (size_t i = 0; node && i < n; i++)
        if (ts_node_add_input(node, inputs[i], err) != 0) {
            ts_node_destroy(node, NULL);
            return NULL;
        }
    return node;
}

int ts_node_set_input(TsNode *n, size_t i, TsIrValue *v, TsError *err)
{
    if (!n || !v || v->node->graph != n->graph)
        return usage(err, "ts_node_set_input", !n ? "no node" : "the value is not of the "
                                                                "node's graph");
    if (i >= n->n_inputs)
        return ts_error_set(err, TS_ERR_USAGE, "ts_node_set_input: %s has %zu inputs, not %zu",
                            n->kind, n->n_inputs, i + 1);
    return ts_node_replace_input(n, i, v, err);
}

static bool is_param(const TsNode *n) { return n->owning_block && n == n->owning_block->param; }
static bool is_return(const TsNode *n) { return n->owning_block && n == n->owning_block->ret; }

/* Where n may go relative to pos: 0, or a usage error. A block's prim::Param (a block
 * input's node) can anchor "after" (the block's start), its prim::Return (a block
 * output's user) "before" (the block's end). */
static int check_place(const char *fn, const TsNode *n, const TsNode *pos, bool after,
                       TsError *err)
{
    if (!n || !pos)
        return usage(err, fn, n ? "no position" : "no node");
    if (n == pos)
        return usage(err, fn, "a node cannot be placed next to itself");
    if (n->graph != pos->graph)
        return usage(err, fn, "the nodes are of different graphs");
    if (!pos->owning_block)
        return usage(err, fn, "the position is in no block");
    if (after ? is_return(pos) : is_param(pos))
        return usage(err, fn, after ? "nothing goes after a block's return"
                                    : "nothing goes before a block's inputs");
    if (is_param(n) || is_return(n))
        return usage(err, fn, "a block's prim::Param and prim::Return nodes cannot move");
    if (n->owning_block && ts_node_is_within(pos, n))
        return usage(err, fn, "a node cannot move into its own blocks");
    return 0;
}

/* Inserts n (in no block) or moves it (in one) next to pos, once check_place agrees. */
static int place(const char *fn, TsNode *n, TsNode *pos, bool after, TsError *err)
{
    int rc = check_place(fn, n, pos, after, err);
    if (rc)
        return rc;
    if (n->owning_block)
        (after ? ts_node_move_after : ts_node_move_before)(n, pos);
    else
        (after ? ts_node_insert_after : ts_node_insert_before)(n, pos);
    return 0;
}

int ts_node_place_before(TsNode *n, TsNode *pos, TsError *err)
{
    return place("ts_node_place_before", n, pos, false, err);
}

int ts_node_place_after(TsNode *n, TsNode *pos, TsError *err)
{
    return place("ts_node_place_after", n, pos, true, err);
}

int ts_node_copy_source(TsNode *n, const TsNode *from, TsError *err)
{
    if (!n || !from || n->graph != from->graph)
        return ts_error_set(err, TS_ERR_USAGE, "ts_node_copy_source: %s",
                            n && from ? "nodes of different graphs" : "no node");
    ts_node_set_range(n, from->range);
    ts_node_set_callstack(n, from->callstack);
    return 0;
}

int ts_irvalue_replace_uses(TsIrValue *v, TsIrValue *with, TsError *err)
{
    if (!v || !with || v->node->graph != with->node->graph)
        return usage(err, "ts_irvalue_replace_uses",
                     !v || !with ? "no value" : "the values are of different graphs");
    if (v == with)
        return 0;
    if (ts_irvalue_reserve_uses(with, v->n_uses) != 0)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (v->type != with->type)
        for (size_t i = 0; i < v->n_uses; i++)
            v->uses[i].user->op = NULL;   /* bound again by the new input's type */
    return ts_irvalue_replace_all_uses_with(v, with, err);
}

int ts_block_append(TsBlock *b, TsNode *n, TsError *err)
{
    if (!b)
        return usage(err, "ts_block_append", "no block");
    return place("ts_block_append", n, b->ret, false, err);
}

TsIrValue *ts_constant_insert(TsBlock *b, TsNode *before, TsValue v, TsError *err)
{
    if (!b || (before && (before->owning_block != b || is_param(before))))
        return usage(err, "ts_constant_insert",
                     !b ? "no block" : "the position is not a node of the block"), NULL;
    TsGraph *g = b->graph;
    TsNode *saved = ts_graph_insert_point(g);
    ts_graph_set_insert_point(g, before ? before : b->ret);
    TsIrValue *c = ts_graph_insert_constant(g, v, (TsSourceRange){ 0 }, err);
    ts_graph_set_insert_point(g, saved);
    return c;
}

/* ---- the graphs of compiled functions --------------------------------------------------- */

const TsGraph *ts_method_graph(const TsMethod *m) { return m ? m->f->graph : NULL; }

const TsGraph *ts_script_function_graph(const TsScript *s, size_t i)
{
    return s && i < ts_unit_count(s->unit) ? ts_unit_function(s->unit, i)->graph : NULL;
}

/* f's Code, built if it is not yet, and the graph it runs. */
static const TsGraph *running_graph(TsRuntime *rt, const TsCompUnit *u, TsFunction *f,
                                    TsError *err)
{
    if (ts_code_prepare(rt, u, f, err))
        return NULL;
    const TsCode *c = __atomic_load_n(&f->code, __ATOMIC_ACQUIRE);
    return c->graph ? c->graph : f->graph;
}

const TsGraph *ts_method_optimized_graph(const TsMethod *m, TsError *err)
{
    if (!m)
        return usage(err, "ts_method_optimized_graph", "no method"), NULL;
    return running_graph(m->rt, m->unit, m->f, err);
}

const TsGraph *ts_script_function_optimized_graph(const TsScript *s, size_t i, TsError *err)
{
    if (!s || i >= ts_unit_count(s->unit))
        return usage(err, "ts_script_function_optimized_graph",
                     !s ? "no script" : "no function of that index"), NULL;
    return running_graph(s->rt, s->unit, ts_unit_function(s->unit, i), err);
}

const TsGraph *ts_method_specialized_graph(const TsMethod *m, const TsValue *args, size_t n,
                                           TsError *err)
{
    if (!m || (!args && n))
        return usage(err, "ts_method_specialized_graph", m ? "no arguments" : "no method"),
               NULL;
    bool bound = m->self.tag != TS_TAG_NONE;
    if (n + bound != ts_graph_num_inputs(m->f->graph))
        return usage(err, "ts_method_specialized_graph", "the arguments do not fit"), NULL;
    if (ts_code_prepare(m->rt, m->unit, m->f, err))
        return NULL;
    TsValue small[16];
    TsValue *all = n + 1 <= 16 ? small : calloc(n + 1, sizeof *all);
    if (!all)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
    size_t k = 0;
    if (bound)
        all[k++] = m->self;
    for (size_t i = 0; i < n; i++)
        all[k++] = args[i];
    const TsCode *c = ts_spec_select(m->rt, m->unit, m->f, all, k, err);
    if (all != small)
        free(all);
    return !c ? NULL : c->graph ? c->graph : m->f->graph;
}
