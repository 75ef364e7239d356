/* pyprint_canon.c — the graph as PyTorch's frontend leaves it for its printer.
 *
 * PyTorch prints graphs its frontend has already tidied; ours leaves three things PyTorch's
 * does not, and the printer tidies a copy of the graph when it holds any of them:
 *
 * 1. Tuples built only to be taken apart: `q, r = divmod(a, 5)` packs the call's outputs
 *    into a TupleConstruct and unpacks it again. The unpacked values (and constant-index
 *    TupleIndex results) become the construct's inputs, unpacked ones taking the names the
 *    user gave where they had none (as PyTorch's emitter names them; not "_0"-like names,
 *    which PyTorch never gives), and a construct nothing reads any more goes. So the printed code
 *    says `q, r = torch.divmod(a, 5)`, as PyTorch's does.
 * 2. Loop-carried values nobody reads (neither after the loop nor in the body), and
 *    prim::If on a constant condition (`a and b` of constants), which PyTorch's constant
 *    propagation replaces by the branch taken.
 * 3. Loops Python cannot write. A prim::Loop(max_trip_count, cond, carried...) prints as
 *    `for i in range(n):` when its condition is always true (a trip count that is the
 *    default INT64_MAX and unused means the user wrote `while True:`), and as `while c:`
 *    when the trip count is the default and unused. A `for` loop with a break has both a
 *    real trip count and a condition; PyTorch rewrites those (CanonicalizeModifiedLoops),
 *    and so does the printer: the trip count moves into a carried counter and the
 *    condition becomes `counter < n and cond`:
 *
 *        _2 = 0                                  (the counter, carried last)
 *        _3 = torch.gt(n, 0)                     (and the entry condition, when not True)
 *        while _3:
 *          ...                                   (uses of i read the counter)
 *          _16 = torch.add(_2, 1)
 *          _3, s, _2 = torch.__and__(torch.lt(_16, n), cond), s0, _16
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "serialize/pyprint_impl.h"

static bool is(const TsNode *n, const char *kind) { return n->kind == ts_symbol(kind); }

static bool const_bool(const TsIrValue *v, bool *b)
{
    TsValue c;
    if (!pp_constant_of(v, &c))
        return false;
    bool ok = c.tag == TS_TAG_BOOL;
    *b = ok && c.u.b;
    ts_value_release(c);
    return ok;
}

PyLoopKind pp_loop_kind(const TsNode *loop)
{
    if (!pp_loop_is_wellformed(loop))
        return PY_LOOP_MODIFIED;   /* printing refuses it */
    const TsBlock *body = loop->blocks[0];
    TsValue trip;
    bool trip_const = pp_constant_of(loop->inputs[0], &trip);
    bool trip_given = !trip_const || trip.tag != TS_TAG_INT || trip.u.i != INT64_MAX ||
                      body->param->outputs[0]->n_uses > 0;
    if (trip_const)
        ts_value_release(trip);
    bool in, next;
    bool always = const_bool(loop->inputs[1], &in) && in &&
                  const_bool(body->ret->inputs[0], &next) && next;
    if (always)
        return trip_given ? PY_LOOP_FOR : PY_LOOP_WHILE;
    return trip_given ? PY_LOOP_MODIFIED : PY_LOOP_WHILE;
}

bool pp_loop_is_wellformed(const TsNode *n)
{
    if (n->n_blocks != 1 || n->n_inputs < 2)
        return false;
    const TsBlock *body = n->blocks[0];
    size_t carried = n->n_inputs - 2;
    return n->n_outputs == carried && body->param->n_outputs == carried + 1 &&
           body->ret->n_inputs == carried + 1;
}

bool pp_meaningful_name(const char *name)
{
    if (!name || !name[0])
        return false;
    if (name[0] != '_')
        return true;
    for (size_t i = 1; name[i] && name[i] != '.'; i++)
        if (name[i] < '0' || name[i] > '9')
            return true;
    return false;
}

/* The TupleConstruct a TupleUnpack or a constant-index TupleIndex takes apart, and for
 * TupleIndex the item (*index). */
static const TsNode *unpacked_construct(const TsNode *n, size_t *index)
{
    if (n->n_inputs == 0 || !is(n->inputs[0]->node, "prim::TupleConstruct"))
        return NULL;
    const TsNode *c = n->inputs[0]->node;
    if (is(n, "prim::TupleUnpack"))
        return n->n_outputs == c->n_inputs ? c : NULL;
    TsValue k;
    if (!is(n, "prim::TupleIndex") || n->n_inputs != 2 || !pp_constant_of(n->inputs[1], &k))
        return NULL;
    int64_t i = k.tag == TS_TAG_INT ? k.u.i : INT64_MIN;
    if (i < 0 && i != INT64_MIN)
        i += (int64_t)c->n_inputs;
    if (i < 0 || (uint64_t)i >= c->n_inputs)
        return NULL;
    *index = (size_t)i;
    return c;
}

static bool is_static_if(const TsNode *n)
{
    bool b;
    return is(n, "prim::If") && n->n_inputs == 1 && n->n_blocks == 2 &&
           n->blocks[0]->ret->n_inputs == n->n_outputs &&
           n->blocks[1]->ret->n_inputs == n->n_outputs && const_bool(n->inputs[0], &b);
}

static bool has_dead_carried(const TsNode *loop)
{
    const TsBlock *body = loop->blocks[0];
    for (size_t i = 0; i < loop->n_outputs && i + 1 < body->param->n_outputs; i++)
        if (loop->outputs[i]->n_uses == 0 && body->param->outputs[i + 1]->n_uses == 0)
            return true;
    return false;
}

/* ---- finding what to tidy -------------------------------------------------------------- */

static bool block_untidy(const TsBlock *b);

static bool node_untidy(const TsNode *n)
{
    size_t index;
    if (unpacked_construct(n, &index) || is_static_if(n))
        return true;
    if (is(n, "prim::Loop") && pp_loop_is_wellformed(n) &&
        (pp_loop_kind(n) == PY_LOOP_MODIFIED || has_dead_carried(n)))
        return true;
    for (size_t i = 0; i < n->n_blocks; i++)
        if (block_untidy(n->blocks[i]))
            return true;
    for (size_t i = 0; i < n->n_attrs; i++)
        if (n->attrs[i].kind == TS_ATTR_GRAPH && n->attrs[i].u.g &&
            pp_needs_tidying(n->attrs[i].u.g))
            return true;
    return false;
}

static bool block_untidy(const TsBlock *b)
{
    for (const TsNode *n = b->ret->next; n != b->ret; n = n->next)
        if (node_untidy(n))
            return true;
    return false;
}

bool pp_needs_tidying(const TsGraph *g)
{
    return block_untidy(ts_graph_block(g));
}

/* ---- 1. tuples ---------------------------------------------------------------------------- */

/* Uses of v read w instead. An unpacked w takes v's name when it has none and is of the
 * same block (PyTorch's emitter names it so); an indexed one does not. */
static int forward(TsIrValue *v, TsIrValue *w, bool unpack, TsError *err)
{
    if (unpack && !w->name && pp_meaningful_name(v->name) &&
        w->node->owning_block == v->node->owning_block) {
        char *name = strdup(v->name);
        int rc = name ? ts_irvalue_set_name(w, name, false, err)
                      : ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        free(name);
        if (rc)
            return -1;
    }
    return ts_irvalue_replace_all_uses_with(v, w, err) ? -1 : 0;
}

static int lower_tuple(TsNode *n, TsNode **next, TsError *err)
{
    size_t index = 0;
    TsNode *c = (TsNode *)unpacked_construct(n, &index);
    if (!c)
        return 0;
    bool unpack = is(n, "prim::TupleUnpack");
    for (size_t i = 0; i < n->n_outputs; i++)
        if (forward(n->outputs[i], c->inputs[unpack ? i : index], unpack, err))
            return -1;
    if (ts_node_destroy(n, err))
        return -1;
    if (c->outputs[0]->n_uses == 0) {
        if (*next == c)
            *next = c->next;
        return ts_node_destroy(c, err);
    }
    return 0;
}

/* ---- 2. dead carried values ---------------------------------------------------------------- */

static int drop_dead_carried(TsNode *loop, TsError *err)
{
    TsBlock *body = loop->blocks[0];
    for (size_t i = loop->n_outputs; i-- > 0;) {
        if (loop->outputs[i]->n_uses || body->param->outputs[i + 1]->n_uses)
            continue;
        ts_node_remove_input(body->ret, i + 1);
        ts_node_remove_input(loop, i + 2);
        if (ts_node_erase_output(body->param, i + 1, err) ||
            ts_node_erase_output(loop, i, err))
            return -1;
    }
    return 0;
}

/* The branch a constant condition takes, in the If's place. */
static int inline_static_if(TsNode *n, TsError *err)
{
    bool taken;
    const_bool(n->inputs[0], &taken);
    TsBlock *b = n->blocks[taken ? 0 : 1];
    while (b->ret->next != b->ret)
        ts_node_move_before(b->ret->next, n);
    for (size_t i = 0; i < n->n_outputs; i++)
        if (ts_irvalue_replace_all_uses_with(n->outputs[i], b->ret->inputs[i], err))
            return -1;
    return ts_node_destroy(n, err);
}

/* ---- 3. loops with a trip count and a condition ---------------------------------------- */

/* A new node kind(a, b) -> type before pos. */
static TsIrValue *insert_op(TsGraph *g, const char *kind, TsIrValue *a, TsIrValue *b,
                            const TsType *type, TsNode *pos, TsError *err)
{
    TsNode *n = ts_graph_create(g, ts_symbol(kind), 1, err);
    if (!n)
        return NULL;
    ts_node_insert_before(n, pos);
    if (ts_node_add_input(n, a, err) || ts_node_add_input(n, b, err))
        return NULL;
    ts_node_set_range(n, pos->range);
    n->outputs[0]->type = type;
    return n->outputs[0];
}

typedef struct Consts {
    TsIrValue *zero, *one, *max;
} Consts;

static int count_trips(TsGraph *g, TsNode *loop, const Consts *k, TsError *err)
{
    TsBlock *body = loop->blocks[0];
    const TsType *tb = ts_type_bool(), *ti = ts_type_int();
    TsIrValue *max_trip = loop->inputs[0];
    TsIrValue *cond = insert_op(g, "aten::gt", max_trip, k->zero, tb, loop, err);
    if (!cond)
        return -1;
    bool in;
    if (!const_bool(loop->inputs[1], &in) || !in)
        if (!(cond = insert_op(g, "aten::__and__", cond, loop->inputs[1], tb, loop, err)))
            return -1;
    if (ts_node_replace_input(loop, 0, k->max, err) != 0 ||
        ts_node_replace_input(loop, 1, cond, err) != 0 || !ts_node_add_output(loop, ti, err) || ts_node_add_input(loop, k->zero, err))
        return -1;
    TsIrValue *iter = ts_block_add_input(body, NULL, ti, err);
    if (!iter)
        return -1;
    TsIrValue *old = body->param->outputs[0];
    if (ts_irvalue_set_name(old, NULL, false, err))
        return -1;
    if (ts_irvalue_replace_all_uses_with(old, iter, err))
        return -1;
    TsIrValue *inc = insert_op(g, "aten::add", iter, k->one, ti, body->ret, err);
    TsIrValue *lt = inc ? insert_op(g, "aten::lt", inc, max_trip, tb, body->ret, err) : NULL;
    TsIrValue *next = lt ? insert_op(g, "aten::__and__", lt, body->ret->inputs[0], tb,
                                     body->ret, err) : NULL;
    if (!next || ts_block_add_output(body, inc, err))
        return -1;
    return ts_node_replace_input(body->ret, 0, next, err) != 0 ? -1 : 0;
}

/* ---- the copy -------------------------------------------------------------------------------- */

static int tidy_block(TsGraph *g, TsBlock *b, const Consts *k, TsError *err);

static int tidy_node(TsGraph *g, TsNode *n, TsNode **next, const Consts *k, TsError *err)
{
    for (size_t i = 0; i < n->n_blocks; i++)
        if (tidy_block(g, n->blocks[i], k, err))
            return -1;
    for (size_t i = 0; i < n->n_attrs; i++) {
        TsAttr *a = &n->attrs[i];
        if (a->kind != TS_ATTR_GRAPH || !a->u.g || !pp_needs_tidying(a->u.g))
            continue;
        TsGraph *sub = pp_tidy_copy(a->u.g, err);
        if (!sub)
            return -1;
        ts_graph_free(a->u.g);
        a->u.g = sub;
    }
    if (is_static_if(n))
        return inline_static_if(n, err);
    if (!is(n, "prim::Loop"))
        return lower_tuple(n, next, err);
    if (!pp_loop_is_wellformed(n))
        return 0;   /* printing reports it */
    if (drop_dead_carried(n, err))
        return -1;
    return pp_loop_kind(n) == PY_LOOP_MODIFIED ? count_trips(g, n, k, err) : 0;
}

static int tidy_block(TsGraph *g, TsBlock *b, const Consts *k, TsError *err)
{
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        if (tidy_node(g, n, &next, k, err))
            return -1;
    }
    return 0;
}

TsGraph *pp_tidy_copy(const TsGraph *g, TsError *err)
{
    TsGraph *c = ts_graph_copy(g, err);
    if (!c)
        return NULL;
    TsBlock *top = ts_graph_block(c);
    ts_graph_set_insert_point(c, top->ret->next);
    TsSourceRange none = {0};
    Consts k = {
        ts_graph_insert_constant(c, ts_int(0), none, err),
        ts_graph_insert_constant(c, ts_int(1), none, err),
        ts_graph_insert_constant(c, ts_int(INT64_MAX), none, err),
    };
    if (!k.zero || !k.one || !k.max || tidy_block(c, top, &k, err)) {
        ts_graph_free(c);
        return NULL;
    }
    return c;
}
