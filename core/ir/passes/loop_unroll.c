/* loop_unroll.c — loop unrolling, as PyTorch's UnrollLoops (loop_unrolling.cpp).
 *
 * A prim::Loop is a for loop when it starts with the constant true and its body always
 * continues (its condition output is the constant true): it runs exactly max(trip count,
 * 0) times. Loops whose body breaks or continues (the frontend turns those into a
 * loop-carried condition) or while loops are left alone: their trip count is not known.
 * A for loop whose body is small (at most MAX_BODY_SIZE nodes executed, nested blocks
 * counted, as PyTorch counts them) is unrolled:
 *
 *  - with a constant trip count below MAX_BODY_REPEATS, fully: the body is copied that
 *    many times in place of the loop (none for a count <= 0), each copy taking the
 *    carried values the previous one produced;
 *  - otherwise by UNROLL_FACTOR: the body repeats that many times inside the loop, which
 *    now runs count / UNROLL_FACTOR times (rounded toward zero, so a negative count still
 *    runs nothing), and a copy of the original loop after it, the epilogue, runs the
 *    remaining count - UNROLL_FACTOR * (count / UNROLL_FACTOR) iterations on its results.
 *
 * A body that reads the iteration counter gets an explicit counter first, carried from 0
 * and incremented by each copy of the body, so the copies (and the epilogue, which goes
 * on from the count the unrolled loop reached) see the numbers they would have seen.
 * Inner loops are unrolled before the loops around them, which then usually are too big.
 * A body with a node that keeps state per node (aten::warn, see copyable.c) is not copied.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ir/log.h"
#include "ir/passes/passes.h"
#include "ptrmap.h"
#include "registry/optable.h"

enum {
    UNROLL_FACTOR = 8,         /* PyTorch's kUnrollFactor */
    MAX_BODY_SIZE = 32,        /* kMaxBodySize */
    MAX_BODY_REPEATS = 64      /* kMaxBodyRepeats */
};

typedef struct Unroller {
    TsGraph *g;
    const TsPassEnv *env;
    TsError *err;
    TsSymbol k_loop, k_constant, a_value;
    const TsOperator *add, *sub, *mul, *div;   /* the int overloads */
} Unroller;

/* ---- what a loop is ------------------------------------------------------------------- */

/* The value of the int or bool constant v in *out; false when v is no such constant. */
static bool int_constant(const Unroller *U, const TsIrValue *v, TsTypeKind kind, int64_t *out)
{
    if (v->node->kind != U->k_constant || ts_type_kind(v->type) != kind)
        return false;
    const TsAttr *a = ts_node_attr(v->node, U->a_value);
    if (!a || a->kind != TS_ATTR_INT)
        return false;
    *out = a->u.i;
    return true;
}

static bool is_true(const Unroller *U, const TsIrValue *v)
{
    int64_t b;
    return int_constant(U, v, TS_TYPE_BOOL, &b) && b;
}

static bool is_for_loop(const Unroller *U, const TsNode *n)
{
    return n->kind == U->k_loop && n->n_blocks == 1 && n->n_inputs >= 2 &&
           n->blocks[0]->ret->n_inputs >= 1 && is_true(U, n->inputs[1]) &&
           is_true(U, n->blocks[0]->ret->inputs[0]);
}

/* The size of b as PyTorch measures it, counting up to limit: each node that runs (not
 * constants), each block's return, the nodes of nested blocks. */
static size_t body_size(const Unroller *U, const TsBlock *b, size_t limit)
{
    size_t n = 1;              /* the return */
    for (const TsNode *m = b->ret->next; m != b->ret && n < limit; m = m->next) {
        for (size_t i = 0; i < m->n_blocks && n < limit; i++)
            n += body_size(U, m->blocks[i], limit - n);
        if (m->kind != U->k_constant)
            n++;
    }
    return n < limit ? n : limit;
}

/* ---- building ------------------------------------------------------------------------- */

static TsIrValue *int_const(Unroller *U, int64_t i, TsSourceRange r)
{
    return ts_graph_insert_constant(U->g, ts_int(i), r, U->err);
}

/* op(a, b) on ints, inserted at the insertion point; NULL with U->err. */
static TsIrValue *int_op(Unroller *U, const TsOperator *op, TsIrValue *a, TsIrValue *b,
                         TsSourceRange r)
{
    TsNode *n = a && b ? ts_graph_create(U->g, ts_symbol(op->schema->name), 1, U->err) : NULL;
    if (!n)
        return NULL;
    if (ts_node_add_input(n, a, U->err) || ts_node_add_input(n, b, U->err)) {
        ts_node_destroy(n, NULL);
        return NULL;
    }
    n->op = op;
    n->outputs[0]->type = ts_type_int();
    ts_node_set_range(n, r);
    ts_graph_insert(U->g, n);
    return n->outputs[0];
}

/* Makes the iteration counter of loop an explicit carried value (the last one): 0 on
 * entry, plus one at the end of each iteration, read where the body read the counter. */
static int carry_counter(Unroller *U, TsNode *loop)
{
    TsBlock *body = loop->blocks[0];
    ts_graph_set_insert_point(U->g, loop);
    TsIrValue *zero = int_const(U, 0, loop->range);
    TsIrValue *one = zero ? int_const(U, 1, loop->range) : NULL;
    TsIrValue *ctr = one ? ts_block_add_input(body, NULL, ts_type_int(), U->err) : NULL;
    if (!ctr || ts_node_add_input(loop, zero, U->err) ||
        !ts_node_add_output(loop, ts_type_int(), U->err) ||
        ts_irvalue_replace_all_uses_with(body->param->outputs[0], ctr, U->err))
        return -1;
    ts_graph_set_insert_point(U->g, body->ret);
    TsIrValue *next = int_op(U, U->add, ctr, one, loop->range);
    return next ? ts_block_add_output(body, next, U->err) : -1;
}

/* Copies the nodes of body from first to last (inclusive) at the insertion point, its
 * carried inputs taken from carried[0..n), which then holds the copy's carried outputs. */
static int copy_body(Unroller *U, const TsBlock *body, const TsNode *first, const TsNode *last,
                     TsIrValue **carried, size_t n)
{
    TsPtrMap map = { 0 };
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        if (ts_ptrmap_put(&map, body->param->outputs[1 + i], (uintptr_t)carried[i]) < 0)
            rc = ts_error_set(U->err, TS_ERR_NOMEM, "out of memory");
    if (first != body->ret)
        for (const TsNode *m = first; rc == 0; m = m->next) {
            if (!ts_node_clone(U->g, m, &map, U->err))
                rc = -1;
            if (m == last)
                break;
        }
    for (size_t i = 0; i < n && rc == 0; i++) {
        uintptr_t v;
        TsIrValue *out = body->ret->inputs[1 + i];
        carried[i] = ts_ptrmap_get(&map, out, &v) ? (TsIrValue *)v : out;
    }
    ts_ptrmap_free(&map);
    return rc;
}

/* The loop's carried values as a new array: its inputs, or its body's outputs. */
static TsIrValue **carried_of(Unroller *U, TsIrValue *const *from, size_t n)
{
    TsIrValue **c = malloc((n + 1) * sizeof *c);
    if (!c)
        ts_error_set(U->err, TS_ERR_NOMEM, "out of memory");
    else if (n)
        memcpy(c, from, n * sizeof *c);
    return c;
}

/* Replaces loop by `times` copies of its body (none when times <= 0). With counted (the
 * body's counter made explicit, the last carried value), the last copy's increment is
 * dead: it goes (PyTorch's dead-code pass removes it there). */
static int unroll_fully(Unroller *U, TsNode *loop, int64_t times, bool counted)
{
    TsBlock *body = loop->blocks[0];
    size_t n = loop->n_outputs;
    TsIrValue **carried = carried_of(U, loop->inputs + 2, n);
    if (!carried)
        return -1;
    const TsNode *first = body->ret->next, *last = body->ret->prev;
    ts_graph_set_insert_point(U->g, loop);
    int rc = 0;
    for (int64_t k = 0; k < times && rc == 0; k++)
        rc = copy_body(U, body, first, last, carried, n);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = ts_irvalue_replace_all_uses_with(loop->outputs[i], carried[i], U->err);
    TsNode *increment = counted && times > 0 ? carried[n - 1]->node : NULL;
    free(carried);
    if (rc || ts_node_destroy(loop, U->err))
        return -1;
    return increment && increment->outputs[0]->n_uses == 0 ? ts_node_destroy(increment, U->err)
                                                          : 0;
}

/* Repeats the body of loop UNROLL_FACTOR times within it, runs it count / UNROLL_FACTOR
 * times and lets a copy of the original loop after it run the rest. */
static int unroll_by_factor(Unroller *U, TsNode *loop)
{
    TsBlock *body = loop->blocks[0];
    size_t n = loop->n_outputs;
    TsPtrMap none = { 0 };
    ts_graph_set_insert_point(U->g, loop->next);
    TsNode *epilogue = ts_node_clone(U->g, loop, &none, U->err);
    ts_ptrmap_free(&none);
    if (!epilogue)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (ts_irvalue_replace_all_uses_with(loop->outputs[i], epilogue->outputs[i], U->err) ||
            ts_node_replace_input(epilogue, 2 + i, loop->outputs[i], U->err))
            return -1;

    TsIrValue **carried = carried_of(U, body->ret->inputs + 1, n);
    if (!carried)
        return -1;
    const TsNode *first = body->ret->next, *last = body->ret->prev;
    ts_graph_set_insert_point(U->g, body->ret);
    int rc = 0;
    for (int k = 1; k < UNROLL_FACTOR && rc == 0; k++)
        rc = copy_body(U, body, first, last, carried, n);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = ts_node_replace_input(body->ret, 1 + i, carried[i], U->err);
    free(carried);
    if (rc)
        return -1;

    ts_graph_set_insert_point(U->g, loop);
    TsIrValue *count = loop->inputs[0];
    TsIrValue *factor = int_const(U, UNROLL_FACTOR, loop->range);
    TsIrValue *q = int_op(U, U->div, count, factor, loop->range);
    TsIrValue *rest = int_op(U, U->sub, count, int_op(U, U->mul, q, factor, loop->range),
                             loop->range);
    if (!rest || ts_node_replace_input(loop, 0, q, U->err) ||
        ts_node_replace_input(epilogue, 0, rest, U->err))
        return -1;
    return 0;
}

static int unroll(Unroller *U, TsNode *loop)
{
    bool counted = loop->blocks[0]->param->outputs[0]->n_uses > 0;
    if (counted && carry_counter(U, loop))
        return -1;
    int64_t count;
    if (int_constant(U, loop->inputs[0], TS_TYPE_INT, &count) && count < MAX_BODY_REPEATS) {
        TS_GRAPH_UPDATE("unrolled a loop of %lld iterations fully", (long long)count);
        return unroll_fully(U, loop, count, counted);
    }
    TS_GRAPH_UPDATE("unrolled a loop by %d", UNROLL_FACTOR);
    return unroll_by_factor(U, loop);
}

/* ---- the walk ------------------------------------------------------------------------- */

static int unroll_block(Unroller *U, TsBlock *b)
{
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;        /* unrolling removes n, or puts its epilogue before next */
        for (size_t i = 0; i < n->n_blocks; i++)
            if (unroll_block(U, n->blocks[i]))
                return -1;
        if (!is_for_loop(U, n) ||
            body_size(U, n->blocks[0], MAX_BODY_SIZE + 1) > MAX_BODY_SIZE ||
            !ts_block_copyable(n->blocks[0]) || !TS_OPT_ALLOWED)
            continue;
        if (unroll(U, n))
            return -1;
    }
    return 0;
}

int ts_pass_loop_unroll(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    Unroller U = { g, env, err, ts_symbol("prim::Loop"), ts_symbol("prim::Constant"),
                   ts_symbol("attr::value"), NULL, NULL, NULL, NULL };
    if (!U.k_loop || !U.k_constant || !U.a_value)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (env->ops) {
        U.add = ts_optable_find(env->ops, "aten::add", "int");
        U.sub = ts_optable_find(env->ops, "aten::sub", "int");
        U.mul = ts_optable_find(env->ops, "aten::mul", "int");
        U.div = ts_optable_find(env->ops, "aten::__round_to_zero_floordiv", "int");
    }
    if (!U.add || !U.sub || !U.mul || !U.div)
        return 0;              /* a runtime without the int operators: nothing to build with */
    int rc = unroll_block(&U, ts_graph_block(g));
    ts_graph_set_insert_end(g, ts_graph_block(g));
    if (rc == 0)
        TS_GRAPH_DUMP("after loop unrolling", g);
    return rc;
}
