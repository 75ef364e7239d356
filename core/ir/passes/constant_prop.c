/* constant_prop.c — constant propagation: a pure node whose inputs are all constants runs
 * once, now, and a constant holding its result takes its place; a prim::If on a constant
 * condition becomes the branch it takes; a prim::Loop that cannot run becomes its inputs.
 *
 * As PyTorch's ConstantPropagation (passes/constant_propagation.cpp), without its AliasDb:
 *   - a node folds when it is pure (pure.h), has inputs, all of them prim::Constant, is not
 *     variadic, and each output is of an immutable type (ints, floats, bools, strs, None,
 *     devices, tuples of those), or a list of immutable elements or a tensor that nothing
 *     can write: every use of it is a non-writing read by a pure operator whose outputs
 *     cannot alias it (a constant is shared by every run of the function, so a constant
 *     that a later operation could mutate or return would change between calls);
 *   - the operator runs through its own kernel (sched/run_node.h), so the constant is what
 *     the interpreter would have computed; the prims the interpreter runs by opcode
 *     (TupleConstruct, TupleIndex, TupleUnpack, ListConstruct, ListUnpack) are built here;
 *   - a fold that fails (1 // 0, [1][5]) is left alone, so the error happens at run time,
 *     where and as it did;
 *   - a tensor result that requires grad or holds more than FOLD_MAX_NUMEL elements is not
 *     made a constant (the constant would be kept for the life of the function);
 *   - an If output both branches yield from outside the If is replaced by that value.
 * Constants the folds leave unused are removed at the end, as PyTorch's pass ends with
 * dead-code elimination (here only of prim::Constant nodes: the rest is dead_code's).
 */
#include <stdlib.h>
#include <string.h>

#include "ir/log.h"
#include "ir/passes/passes.h"
#include "ir/passes/pure.h"
#include "registry/optable.h"
#include "sched/run_node.h"

/* The largest tensor result made a constant, in elements. */
#define FOLD_MAX_NUMEL 1024

typedef struct Prop {
    TsGraph *g;
    const TsPassEnv *env;
    TsError *err;
    TsSymbol k_constant, k_if, k_loop;
} Prop;

static int prop_block(Prop *P, TsBlock *b);

static bool is_constant(const Prop *P, const TsIrValue *v)
{
    return v->node->kind == P->k_constant;
}

/* ---- which nodes fold -------------------------------------------------------------- */

/* May this output become a constant shared by every run? */
static bool foldable_output(const TsIrValue *v)
{
    const TsType *t = v->type;
    if (ts_type_is_immutable(t))
        return true;
    switch (ts_type_kind(t)) {
    case TS_TYPE_LIST:
        return ts_type_is_immutable(ts_type_elem(t, 0)) && ts_value_only_read(v);
    case TS_TYPE_TENSOR:
        return ts_value_only_read(v);
    default:
        return false;
    }
}

static const char *const built_prims[] = {
    "prim::TupleConstruct", "prim::TupleIndex", "prim::TupleUnpack", "prim::ListConstruct",
    "prim::ListUnpack", NULL
};

static bool is_built_prim(const TsNode *n)
{
    for (size_t i = 0; built_prims[i]; i++)
        if (strcmp(n->kind, built_prims[i]) == 0)
            return true;
    return false;
}

static bool foldable(const Prop *P, const TsNode *n)
{
    if (n->kind == P->k_constant || n->n_inputs == 0 || n->n_outputs == 0 ||
        !ts_node_is_pure(n))
        return false;
    const TsOperator *op = n->op;
    if (op ? op->schema->is_vararg || !P->env->rt : !is_built_prim(n))
        return false;
    for (size_t i = 0; i < n->n_inputs; i++)
        if (!is_constant(P, n->inputs[i]))
            return false;
    for (size_t i = 0; i < n->n_outputs; i++)
        if (!foldable_output(n->outputs[i]))
            return false;
    return true;
}

/* ---- running a node ---------------------------------------------------------------- */

static int unpack(const TsNode *n, TsValue in, TsValue *out, TsError *err)
{
    size_t len = in.tag == TS_TAG_TUPLE ? ((TsTuple *)in.u.p)->len
                 : in.tag == TS_TAG_LIST ? ((TsList *)in.u.p)->len : 0;
    const TsValue *items = in.tag == TS_TAG_TUPLE ? ((TsTuple *)in.u.p)->items
                           : in.tag == TS_TAG_LIST ? ((TsList *)in.u.p)->items : NULL;
    if (!items || len != n->n_outputs)
        return ts_error_set(err, TS_ERR_VALUE, "cannot unpack %zu values into %zu", len,
                            n->n_outputs);
    for (size_t i = 0; i < len; i++) {
        ts_value_retain(items[i]);
        out[i] = items[i];
    }
    return 0;
}

/* The prims the interpreter runs by opcode, as its opcodes run them. */
static int run_prim(const TsNode *n, const TsValue *in, TsValue *out, TsError *err)
{
    const TsType *t = n->outputs[0]->type;
    if (strcmp(n->kind, "prim::TupleConstruct") == 0) {
        TsTuple *tup = ts_tuple_new(ts_type_name(t) ? t : NULL, n->n_inputs, err);
        if (!tup)
            return -1;
        for (size_t i = 0; i < n->n_inputs; i++) {
            ts_value_retain(in[i]);
            tup->items[i] = in[i];
        }
        out[0] = ts_obj_value(tup, TS_TAG_TUPLE);
        return 0;
    }
    if (strcmp(n->kind, "prim::ListConstruct") == 0) {
        TsList *l = ts_list_new(ts_type_elem(t, 0), n->n_inputs, err);
        if (!l)
            return -1;
        out[0] = ts_obj_value(l, TS_TAG_LIST);
        for (size_t i = 0; i < n->n_inputs; i++) {
            ts_value_retain(in[i]);
            if (ts_list_append(l, in[i], err)) {
                ts_value_release(out[0]);
                return -1;
            }
        }
        return 0;
    }
    if (strcmp(n->kind, "prim::TupleIndex") == 0) {
        if (in[0].tag != TS_TAG_TUPLE || in[1].tag != TS_TAG_INT)
            return ts_error_set(err, TS_ERR_TYPE, "TupleIndex of a non-tuple");
        const TsTuple *tup = (const TsTuple *)in[0].u.p;
        int64_t i = in[1].u.i < 0 ? in[1].u.i + (int64_t)tup->len : in[1].u.i;
        if (i < 0 || (uint64_t)i >= tup->len)
            return ts_error_set(err, TS_ERR_INDEX, "Tuple list index out of range");
        ts_value_retain(tup->items[i]);
        out[0] = tup->items[i];
        return 0;
    }
    return unpack(n, in[0], out, err);   /* TupleUnpack, ListUnpack */
}

/* Is value v (an output of n) one the graph may hold as a constant? */
static bool insertable(TsValue v)
{
    if (v.tag != TS_TAG_TENSOR)
        return v.tag != TS_TAG_UNINIT;
    const TsTensor *t = (const TsTensor *)v.u.p;
    return !t->requires_grad && t->storage && ts_tensor_numel(t) <= FOLD_MAX_NUMEL;
}

static void release_all(TsValue *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ts_value_release(v[i]);
}

/* Runs n on its constant inputs into out. 1: it failed or made something that cannot be a
 * constant (left for run time); -1: out of memory. */
static int evaluate(Prop *P, const TsNode *n, TsValue *in, TsValue *out)
{
    TsError run_err = {0};
    int rc = 0;
    size_t got = 0;
    for (; got < n->n_inputs && !rc; got++)
        rc = ts_constant_value(n->inputs[got]->node, &in[got], P->err) ? -1 : 0;
    if (!rc) {
        int run = n->op ? ts_run_node(P->env->rt, n, in, out, &run_err)
                        : run_prim(n, in, out, &run_err);
        rc = run ? 1 : 0;
        if (run)
            TS_GRAPH_DEBUG("not folding %s: %s", n->kind, run_err.msg ? run_err.msg : "");
        for (size_t i = 0; !rc && i < n->n_outputs; i++)
            if (!insertable(out[i])) {
                release_all(out, n->n_outputs);
                rc = 1;
            }
    }
    release_all(in, rc < 0 ? got - 1 : got);
    ts_error_clear(&run_err);
    return rc;
}

/* ---- rewriting --------------------------------------------------------------------- */

/* Replaces n by constants holding out (whose references it takes). */
static int replace_by_constants(Prop *P, TsNode *n, TsValue *out)
{
    int rc = 0;
    ts_graph_set_insert_point(P->g, n);
    for (size_t i = 0; i < n->n_outputs; i++) {
        TsIrValue *c = rc ? NULL : ts_graph_insert_constant(P->g, out[i], n->range, P->err);
        if (c && out[i].tag == TS_TAG_NONE)
            c->type = n->outputs[i]->type;     /* None keeps the type it had (PyTorch) */
        if (!c || ts_irvalue_replace_all_uses_with(n->outputs[i], c, P->err))
            rc = -1;
    }
    release_all(out, n->n_outputs);
    ts_graph_set_insert_end(P->g, ts_graph_block(P->g));
    return rc || ts_node_destroy(n, P->err) ? -1 : 0;
}

static int fold(Prop *P, TsNode *n)
{
    TsValue *in = malloc((n->n_inputs + n->n_outputs) * sizeof *in), *out = in + n->n_inputs;
    if (!in)
        return ts_error_set(P->err, TS_ERR_NOMEM, "out of memory");
    int rc = evaluate(P, n, in, out);
    if (rc == 0 && !TS_OPT_ALLOWED) {
        release_all(out, n->n_outputs);
        rc = 1;
    }
    if (rc == 0) {
        TS_GRAPH_UPDATE("folding %s into a constant", n->kind);
        rc = replace_by_constants(P, n, out);
    }
    free(in);
    return rc < 0 ? -1 : 0;
}

/* Output i of the If n is v (defined outside it): drop the output. */
static int drop_if_output(Prop *P, TsNode *n, size_t i, TsIrValue *v)
{
    if (ts_irvalue_replace_all_uses_with(n->outputs[i], v, P->err))
        return -1;
    ts_node_remove_input(n->blocks[0]->ret, i);
    ts_node_remove_input(n->blocks[1]->ret, i);
    return ts_node_erase_output(n, i, P->err);
}

static int remove_extra_if_outputs(Prop *P, TsNode *n)
{
    for (size_t i = n->n_outputs; i-- > 0;) {
        TsIrValue *t = n->blocks[0]->ret->inputs[i], *f = n->blocks[1]->ret->inputs[i];
        if (t != f || ts_node_is_within(t->node, n) || !TS_OPT_ALLOWED)
            continue;
        TS_GRAPH_UPDATE("both branches of an If yield the same value: output %zu removed", i);
        if (drop_if_output(P, n, i, t))
            return -1;
    }
    return 0;
}

/* The If n on a constant condition: its taken branch (already propagated) in its place. */
static int inline_if(Prop *P, TsNode *n, bool cond)
{
    TsBlock *b = n->blocks[cond ? 0 : 1];
    if (prop_block(P, b))
        return -1;
    if (!TS_OPT_ALLOWED)
        return 0;
    TS_GRAPH_UPDATE("inlining the %s branch of an If on a constant", cond ? "true" : "false");
    while (b->ret->next != b->ret)
        ts_node_move_before(b->ret->next, n);
    for (size_t i = 0; i < n->n_outputs; i++)
        if (ts_irvalue_replace_all_uses_with(n->outputs[i], b->ret->inputs[i], P->err))
            return -1;
    return ts_node_destroy(n, P->err);
}

static int prop_if(Prop *P, TsNode *n)
{
    TsValue c;
    if (n->n_blocks != 2 || n->n_inputs != 1)
        return 0;
    if (is_constant(P, n->inputs[0]) && ts_constant_value(n->inputs[0]->node, &c, NULL) == 0 &&
        c.tag == TS_TAG_BOOL)
        return inline_if(P, n, c.u.b);
    if (prop_block(P, n->blocks[0]) || prop_block(P, n->blocks[1]))
        return -1;
    return remove_extra_if_outputs(P, n);
}

/* A loop whose trip count is a constant <= 0, or whose first condition is a constant
 * false: its outputs are its initial values. */
static bool loop_will_not_run(const Prop *P, const TsNode *n)
{
    TsValue v;
    if (n->n_inputs < 2)
        return false;
    if (is_constant(P, n->inputs[0]) && ts_constant_value(n->inputs[0]->node, &v, NULL) == 0 &&
        v.tag == TS_TAG_INT && v.u.i <= 0)
        return true;
    return is_constant(P, n->inputs[1]) && ts_constant_value(n->inputs[1]->node, &v, NULL) == 0 &&
           v.tag == TS_TAG_BOOL && !v.u.b;
}

static int prop_loop(Prop *P, TsNode *n)
{
    if (n->n_blocks != 1 || n->n_inputs != n->n_outputs + 2)
        return 0;
    if (!loop_will_not_run(P, n))
        return prop_block(P, n->blocks[0]);
    if (!TS_OPT_ALLOWED)
        return 0;
    TS_GRAPH_UPDATE("removing a loop that never runs");
    for (size_t i = 0; i < n->n_outputs; i++)
        if (ts_irvalue_replace_all_uses_with(n->outputs[i], n->inputs[i + 2], P->err))
            return -1;
    return ts_node_destroy(n, P->err);
}

static int prop_node(Prop *P, TsNode *n)
{
    if (n->kind == P->k_if)
        return prop_if(P, n);
    if (n->kind == P->k_loop)
        return prop_loop(P, n);
    if (foldable(P, n))
        return fold(P, n);
    for (size_t i = 0; i < n->n_blocks; i++)
        if (prop_block(P, n->blocks[i]))
            return -1;
    return 0;
}

static int prop_block(Prop *P, TsBlock *b)
{
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        if (prop_node(P, n))
            return -1;
    }
    return 0;
}

/* Removes the constants nothing uses any more. */
static void sweep_constants(Prop *P, TsBlock *b)
{
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        for (size_t i = 0; i < n->n_blocks; i++)
            sweep_constants(P, n->blocks[i]);
        if (n->kind == P->k_constant && n->outputs[0]->n_uses == 0)
            ts_node_destroy(n, NULL);
    }
}

int ts_pass_constant_prop(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    Prop P = {g, env, err, ts_symbol("prim::Constant"), ts_symbol("prim::If"),
              ts_symbol("prim::Loop")};
    int rc = prop_block(&P, ts_graph_block(g));
    sweep_constants(&P, ts_graph_block(g));
    TS_GRAPH_DUMP("after constant_prop", g);
    return rc;
}
