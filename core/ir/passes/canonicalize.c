/* canonicalize.c — renumbers a graph's values in program order, so that the graph prints
 * the same however the passes before it created and destroyed values.
 *
 * As PyTorch's Canonicalize(graph, keep_unique_names=true) (passes/canonicalize.cpp), which
 * copies the graph into a fresh one: values get consecutive numbers from 0 in the order
 * they are defined — the graph's inputs, then each node's outputs followed by its blocks'
 * inputs and nodes, depth first — and keep their debug names ("x", "c.1"); a value named
 * by a number (a graph parsed from text keeps "%25") prints by its new number instead.
 * Nothing else changes: the nodes, their order and the values they use stay as they are.
 */
#include "ir/graph_internal.h"
#include "ir/log.h"
#include "ir/passes/passes.h"

typedef struct Renumber {
    size_t next;
    bool changed;
    TsError *err;
} Renumber;

static int number(Renumber *R, TsIrValue *v)
{
    if (v->name && ts_ir_name_is_number(v->name) && ts_irvalue_set_name(v, NULL, false, R->err))
        return -1;
    R->changed |= v->unique != R->next;
    v->unique = R->next++;
    return 0;
}

static int number_outputs(Renumber *R, TsNode *n)
{
    for (size_t i = 0; i < n->n_outputs; i++)
        if (number(R, n->outputs[i]))
            return -1;
    return 0;
}

static int number_block(Renumber *R, TsBlock *b)
{
    if (number_outputs(R, b->param))
        return -1;
    for (TsNode *n = b->ret->next; n != b->ret; n = n->next) {
        if (number_outputs(R, n))
            return -1;
        for (size_t i = 0; i < n->n_blocks; i++)
            if (number_block(R, n->blocks[i]))
                return -1;
    }
    return 0;
}

int ts_pass_canonicalize(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    (void)env;
    Renumber R = {0, false, err};
    /* Renumbering is one change for TSCRIPT_OPT_LIMIT: all of it or none. */
    if (!TS_OPT_ALLOWED)
        return 0;
    int rc = number_block(&R, g->block);
    g->next_unique = R.next;
    if (R.changed)
        TS_GRAPH_UPDATE("values renumbered 0..%zu in program order", R.next);
    TS_GRAPH_DUMP("after canonicalize", g);
    return rc;
}
