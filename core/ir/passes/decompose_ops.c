/* decompose_ops.c — rewrites operators the optimizing executor runs as simpler ones.
 *
 * As PyTorch's DecomposeOps (passes/decompose_ops.cpp), which its executor runs on every
 * graph it optimizes (and not with optimization off): an aten::addmm whose beta and alpha
 * are constants equal to 1 becomes
 *
 *     %r = aten::addmm(%self, %m1, %m2, %beta, %alpha)   ->   %p = aten::mm(%m1, %m2)
 *                                                              %r = aten::add(%self, %p, %one)
 *
 * which programs see: the sum takes add's type promotion (a float32 self plus a bfloat16
 * product is float32, where addmm refuses the mix), add's broadcasting and errors, and it
 * is bit for bit `self + m1.mm(m2)`. (PyTorch's batch_norm and layer_norm decompositions
 * apply only to GPU tensors, which its fusers take; they are not made here.)
 */
#include <stdlib.h>
#include <string.h>

#include "ir/log.h"
#include "ir/match.h"
#include "ir/passes/passes.h"

typedef struct Decompose {
    TsGraph *g;
    const TsPassEnv *env;
    TsError *err;
    TsSymbol k_constant;
} Decompose;

/* Whether v is a constant number equal to 1 (as PyTorch's Scalar compares: 1, 1.0, True). */
static bool is_one(const Decompose *D, const TsIrValue *v)
{
    TsValue c;
    if (v->node->kind != D->k_constant || ts_constant_value(v->node, &c, NULL))
        return false;
    bool one = (c.tag == TS_TAG_INT && c.u.i == 1) || (c.tag == TS_TAG_DOUBLE && c.u.d == 1.0) ||
               (c.tag == TS_TAG_BOOL && c.u.b);
    ts_value_release(c);
    return one;
}

static bool is_addmm(const Decompose *D, const TsNode *n)
{
    const TsOperator *op = n->op;
    return op && strcmp(op->schema->name, "aten::addmm") == 0 && op->schema->overload[0] == 0 &&
           n->n_inputs == 5 && n->n_outputs == 1 && is_one(D, n->inputs[3]) &&
           is_one(D, n->inputs[4]);
}

/* n (an addmm of betas and alphas of 1) as mm and add, inserted before it; n destroyed. */
static int decompose_addmm(Decompose *D, TsNode *n)
{
    if (!TS_OPT_ALLOWED)
        return 0;
    TsGraph *g = D->g;
    TsNode *saved = ts_graph_insert_point(g);
    ts_graph_set_insert_point(g, n);
    TsNamedValue mm_args[2] = { { NULL, n->inputs[1], n->range }, { NULL, n->inputs[2], n->range } };
    TsNode *mm = ts_graph_insert_op(g, D->env->ops, "aten::mm", 2, mm_args, n->range, D->err);
    TsNode *add = NULL;
    if (mm) {
        TsNamedValue add_args[2] = { { NULL, n->inputs[0], n->range },
                                     { NULL, mm->outputs[0], n->range } };
        add = ts_graph_insert_op(g, D->env->ops, "aten::add", 2, add_args, n->range, D->err);
    }
    ts_graph_set_insert_point(g, saved);
    if (!add)
        return -1;
    add->outputs[0]->type = n->outputs[0]->type;   /* what addmm was typed (PyTorch's too) */
    TS_GRAPH_UPDATE("aten::addmm with beta and alpha of 1 decomposed into aten::mm and aten::add");
    if (ts_irvalue_replace_all_uses_with(n->outputs[0], add->outputs[0], D->err))
        return -1;
    /* the sum keeps the result's debug name ("%a = aten::add(...)"): copied first, since
     * setting it takes it from (and frees it in) the value that holds it */
    char *name = n->outputs[0]->name ? strdup(n->outputs[0]->name) : NULL;
    if (n->outputs[0]->name && !name)
        return ts_error_set(D->err, TS_ERR_NOMEM, "out of memory");
    int rc = ts_node_destroy(n, D->err) ? -1 : 0;
    if (!rc && name)
        rc = ts_irvalue_set_name(add->outputs[0], name, false, D->err) ? -1 : 0;
    free(name);
    return rc;
}

static int decompose_block(Decompose *D, TsBlock *b)
{
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        for (size_t i = 0; i < n->n_blocks; i++)
            if (decompose_block(D, n->blocks[i]))
                return -1;
        if (is_addmm(D, n) && decompose_addmm(D, n))
            return -1;
    }
    return 0;
}

int ts_pass_decompose_ops(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    if (!env->ops)
        return 0;              /* nothing to bind the new nodes to */
    Decompose D = { g, env, err, ts_symbol("prim::Constant") };
    int rc = decompose_block(&D, ts_graph_block(g));
    TS_GRAPH_DUMP("after decompose_ops", g);
    return rc;
}
