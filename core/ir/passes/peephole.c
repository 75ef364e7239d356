/* peephole.c — small local rewrites that hold whatever the values are at run time.
 *
 * PyTorch's PeepholeOptimize (peephole.cpp, peephole_non_tensor.cpp, peephole_list_idioms.cpp)
 * as far as it holds for scripted code, each rule replacing a node's output by a value the
 * graph already has or by a constant:
 *   - x + 0, 0 + x, x - 0, x * 1, 1 * x, x // 1 on ints are x. Of the float identities
 *     only x - 0.0 and x * 1.0 / 1.0 * x are exact (x + 0.0 turns -0.0 into 0.0); tensors
 *     are left alone (the result is a new tensor, of a dtype the scalar may change);
 *   - len(l) of a prim::ListConstruct l that nothing writes (every use of l only reads it,
 *     pure.h) is the number of its elements, and l[i] for a constant i in range is its
 *     i-th element;
 *   - `a is b` / `a is not b` where both are None-typed, or one is None-typed and the
 *     other's type cannot hold None, is a constant bool;
 *   - prim::unchecked_cast of a value that already has the cast's type is that value;
 *   - not (not b) is b;
 *   - chains of int additions and subtractions of constants merge, as PyTorch's
 *     peephole_non_tensor does: (x + 3) - 1 is x + 2, (x - 2) + 2 is x. Int arithmetic wraps
 *     at 64 bits, so the merged constant (computed wrapping) gives the same result;
 *   - int(x) and math.ceil(x) of an int x are x;
 *   - a bool output of a prim::If that is True when the branch taken is the then-block and
 *     False otherwise is the condition (`c and True`, `c or False`);
 *   - x == x and x != x of one value of type int, float-free immutable scalars (bool, int,
 *     None) or lists/dicts of them are constants. (Not float: nan != nan.)
 *   - x.size(), x.dim(), x.dtype, ... where shape_prop's types state them
 *     (peephole_shape.c).
 * A replaced node is removed, and with it what only it used.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/log.h"
#include "ir/passes/passes.h"
#include "ir/passes/peephole.h"
#include "ir/passes/pure.h"
#include "registry/optable.h"

typedef struct Peep {
    TsGraph *g;
    TsError *err;
    TsSymbol k_constant;
} Peep;

/* The constant value of v (borrowed scalar), or false. */
static bool const_of(const Peep *P, const TsIrValue *v, TsValue *out)
{
    if (v->node->kind != P->k_constant || ts_constant_value(v->node, out, NULL))
        return false;
    if (ts_is_heap(*out)) {
        ts_value_release(*out);
        return false;
    }
    return true;
}

static bool is_int_const(const Peep *P, const TsIrValue *v, int64_t want)
{
    TsValue c;
    return const_of(P, v, &c) && c.tag == TS_TAG_INT && c.u.i == want;
}

/* Exactly +0.0 or 1.0 (by value and sign). */
static bool is_float_const(const Peep *P, const TsIrValue *v, double want)
{
    TsValue c;
    return const_of(P, v, &c) && c.tag == TS_TAG_DOUBLE &&
           memcmp(&c.u.d, &want, sizeof want) == 0;
}

static bool is_op(const TsNode *n, const char *name, const char *overload)
{
    const TsOperator *op = n->op;
    return op && strcmp(op->schema->name, name) == 0 && strcmp(op->schema->overload, overload) == 0;
}

/* The input that an arithmetic identity makes n's result, or NULL. */
static TsIrValue *arith_identity(const Peep *P, const TsNode *n)
{
    if (n->n_inputs != 2 || n->n_outputs != 1)
        return NULL;
    TsIrValue *a = n->inputs[0], *b = n->inputs[1];
    if (is_op(n, "aten::add", "int"))
        return is_int_const(P, b, 0) ? a : is_int_const(P, a, 0) ? b : NULL;
    if (is_op(n, "aten::sub", "int"))
        return is_int_const(P, b, 0) ? a : NULL;
    if (is_op(n, "aten::mul", "int"))
        return is_int_const(P, b, 1) ? a : is_int_const(P, a, 1) ? b : NULL;
    if (is_op(n, "aten::floordiv", "int"))
        return is_int_const(P, b, 1) ? a : NULL;
    if (is_op(n, "aten::sub", "float"))
        return is_float_const(P, b, 0.0) ? a : NULL;
    if (is_op(n, "aten::mul", "float"))
        return is_float_const(P, b, 1.0) ? a : is_float_const(P, a, 1.0) ? b : NULL;
    return NULL;
}

/* An int add or sub with a constant operand (either one for add, which commutes): the other
 * operand, with the constant and whether n adds. NULL otherwise. */
static TsIrValue *add_sub_const(const Peep *P, const TsNode *n, bool *adds, int64_t *c)
{
    if (n->n_inputs != 2 || n->n_outputs != 1)
        return NULL;
    *adds = is_op(n, "aten::add", "int");
    if (!*adds && !is_op(n, "aten::sub", "int"))
        return NULL;
    TsValue k;
    if (const_of(P, n->inputs[1], &k) && k.tag == TS_TAG_INT) {
        *c = k.u.i;
        return n->inputs[0];
    }
    if (*adds && const_of(P, n->inputs[0], &k) && k.tag == TS_TAG_INT) {
        *c = k.u.i;
        return n->inputs[1];
    }
    return NULL;
}

static bool is_list_construct(const TsIrValue *v)
{
    return strcmp(v->node->kind, "prim::ListConstruct") == 0 && ts_value_only_read(v);
}

static bool may_be_none(const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_NONE:
    case TS_TYPE_OPTIONAL:
    case TS_TYPE_ANY:
    case TS_TYPE_VAR:
        return true;
    case TS_TYPE_UNION:
        for (size_t i = 0; i < ts_type_num_elems(t); i++)
            if (may_be_none(ts_type_elem(t, i)))
                return true;
        return false;
    default:
        return false;
    }
}

/* `a is b` when the types decide it: 1 true, 0 false, -1 unknown. */
static int is_by_type(const TsNode *n)
{
    const TsType *a = n->inputs[0]->type, *b = n->inputs[1]->type;
    bool a_none = ts_type_kind(a) == TS_TYPE_NONE, b_none = ts_type_kind(b) == TS_TYPE_NONE;
    if (a_none && b_none)
        return 1;
    if ((a_none && !may_be_none(b)) || (b_none && !may_be_none(a)))
        return 0;
    return -1;
}

/* ---- rewriting -------------------------------------------------------------------- */

static bool is_dead(const TsNode *n)
{
    for (size_t i = 0; i < n->n_outputs; i++)
        if (n->outputs[i]->n_uses)
            return false;
    return n->n_outputs && !n->n_blocks && ts_node_is_pure(n);
}

/* Whether the work list holds m: a node with several outputs (a ListUnpack) used by one
 * dead node is queued once, not destroyed again through a second entry. */
static bool queued(TsNode *const *work, size_t len, const TsNode *m)
{
    for (size_t i = 0; i < len; i++)
        if (work[i] == m)
            return true;
    return false;
}

/* Destroys n, whose outputs nothing uses any more, and then what only n used (the operand
 * of a double negation, a list whose length was taken, their constants): PyTorch's peephole
 * ends with dead-code elimination; this one removes only what its own rewrites killed. */
static int destroy_dead(Peep *P, TsNode *n)
{
    TsNode **work = NULL;
    size_t len = 0, cap = 0;
    int rc = 0;
    for (TsNode *m = n; m && !rc; m = len ? work[--len] : NULL) {
        if (m != n && !is_dead(m))
            continue;
        if (len + m->n_inputs > cap) {
            size_t c = 2 * (len + m->n_inputs) + 8;
            TsNode **w = realloc(work, c * sizeof *w);
            if (!w) {
                rc = ts_error_set(P->err, TS_ERR_NOMEM, "out of memory");
                break;
            }
            work = w;
            cap = c;
        }
        for (size_t i = 0; i < m->n_inputs; i++)
            if (m->inputs[i]->node != n && m->inputs[i]->n_uses == 1 &&
                !queued(work, len, m->inputs[i]->node))
                work[len++] = m->inputs[i]->node;
        rc = ts_node_destroy(m, P->err) ? -1 : 0;
    }
    free(work);
    return rc;
}

static int replace(Peep *P, TsNode *n, TsIrValue *with, const char *why)
{
    if (!TS_OPT_ALLOWED)
        return 0;
    TS_GRAPH_UPDATE("%s: %s replaced", why, n->kind);
    if (ts_irvalue_replace_all_uses_with(n->outputs[0], with, P->err))
        return -1;
    return destroy_dead(P, n);
}

static int replace_by_constant(Peep *P, TsNode *n, TsValue v, const char *why)
{
    if (!TS_OPT_ALLOWED) {
        ts_value_release(v);
        return 0;
    }
    ts_graph_set_insert_point(P->g, n);
    TsIrValue *c = ts_graph_insert_constant(P->g, v, n->range, P->err);
    ts_value_release(v);
    ts_graph_set_insert_end(P->g, ts_graph_block(P->g));
    if (!c)
        return -1;
    TS_GRAPH_UPDATE("%s: %s replaced by a constant", why, n->kind);
    if (ts_irvalue_replace_all_uses_with(n->outputs[0], c, P->err))
        return -1;
    return destroy_dead(P, n);
}

/* l[i] of a list nothing writes, i a constant in range. */
static TsIrValue *list_item(const Peep *P, const TsNode *n)
{
    TsValue c;
    if (!is_op(n, "aten::__getitem__", "t") || n->n_inputs != 2 ||
        !is_list_construct(n->inputs[0]) || !const_of(P, n->inputs[1], &c) || c.tag != TS_TAG_INT)
        return NULL;
    const TsNode *l = n->inputs[0]->node;
    int64_t i = c.u.i < 0 ? c.u.i + (int64_t)l->n_inputs : c.u.i;
    return i >= 0 && (uint64_t)i < l->n_inputs ? l->inputs[i] : NULL;
}

/* n = (y op1 d) op2 c  ->  y op2 merged, or y when the constants cancel. */
static int merge_add_sub(Peep *P, TsNode *n)
{
    bool n_adds, x_adds;
    int64_t c, d;
    TsIrValue *x = add_sub_const(P, n, &n_adds, &c), *y;
    if (!x || !(y = add_sub_const(P, x->node, &x_adds, &d)) || !TS_OPT_ALLOWED)
        return 0;
    /* y + d + c = y + (c + d); y - d - c = y - (c + d); y - d + c = y + (c - d);
     * y + d - c = y - (c - d): the wrapped sums are exact modulo 2**64, as the ints are. */
    uint64_t merged = n_adds == x_adds ? (uint64_t)c + (uint64_t)d : (uint64_t)c - (uint64_t)d;
    if (merged == 0)
        return replace(P, n, y, "constants of an add/sub chain cancel");
    ts_graph_set_insert_point(P->g, n);
    TsIrValue *k = ts_graph_insert_constant(P->g, ts_int((int64_t)merged), n->range, P->err);
    ts_graph_set_insert_end(P->g, ts_graph_block(P->g));
    if (!k)
        return -1;
    TS_GRAPH_UPDATE("constants of an add/sub chain merged into %s", n->kind);
    TsNode *dep = x->node;
    const TsOperator *op = n->op;   /* replacing inputs unbinds it; the types stay int */
    if (ts_node_replace_input(n, 0, y, P->err) || ts_node_replace_input(n, 1, k, P->err))
        return -1;
    n->op = op;
    return is_dead(dep) ? destroy_dead(P, dep) : 0;
}

/* Can `x == x` on values of type t only be true (no nan, no raising comparison)? */
static bool eq_is_reflexive(const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_BOOL:
    case TS_TYPE_INT:
    case TS_TYPE_NONE:
        return true;
    case TS_TYPE_LIST:
        return eq_is_reflexive(ts_type_elem(t, 0));
    case TS_TYPE_DICT:
        return eq_is_reflexive(ts_type_elem(t, 0)) && eq_is_reflexive(ts_type_elem(t, 1));
    default:
        return false;
    }
}

static int peep_node(Peep *P, TsNode *n)
{
    TsIrValue *with = arith_identity(P, n);
    if (with && ts_type_equal(with->type, n->outputs[0]->type))
        return replace(P, n, with, "arithmetic identity");
    if ((with = list_item(P, n)))
        return replace(P, n, with, "item of a known list");
    if (is_op(n, "aten::len", "t") && n->n_inputs == 1 && is_list_construct(n->inputs[0]))
        return replace_by_constant(P, n, ts_int((int64_t)n->inputs[0]->node->n_inputs),
                                   "length of a known list");
    bool is = strcmp(n->kind, "aten::__is__") == 0, isnot = strcmp(n->kind, "aten::__isnot__") == 0;
    if ((is || isnot) && n->n_inputs == 2 && n->n_outputs == 1) {
        int r = is_by_type(n);
        return r < 0 ? 0 : replace_by_constant(P, n, ts_bool(is ? r == 1 : r == 0), "None check");
    }
    if (strcmp(n->kind, "prim::unchecked_cast") == 0 && n->n_inputs == 1 && n->n_outputs == 1 &&
        ts_type_equal(n->inputs[0]->type, n->outputs[0]->type))
        return replace(P, n, n->inputs[0], "cast to its own type");
    if (is_op(n, "aten::__not__", "") && n->n_inputs == 1 &&
        is_op(n->inputs[0]->node, "aten::__not__", ""))
        return replace(P, n, n->inputs[0]->node->inputs[0], "double negation");
    if ((strcmp(n->kind, "aten::Int") == 0 || strcmp(n->kind, "aten::ceil") == 0) && n->op &&
        n->n_inputs == 1 && n->n_outputs == 1 && ts_type_kind(n->inputs[0]->type) == TS_TYPE_INT &&
        ts_type_kind(n->outputs[0]->type) == TS_TYPE_INT)
        return replace(P, n, n->inputs[0], "int of an int");
    bool eq = strcmp(n->kind, "aten::eq") == 0, ne = strcmp(n->kind, "aten::ne") == 0;
    if ((eq || ne) && n->op && n->n_inputs == 2 && n->n_outputs == 1 &&
        n->inputs[0] == n->inputs[1] && ts_type_kind(n->outputs[0]->type) == TS_TYPE_BOOL &&
        eq_is_reflexive(n->inputs[0]->type))
        return replace_by_constant(P, n, ts_bool(eq), "a value compared with itself");
    TsValue v;
    int known = ts_peephole_shape(n, &v, P->err);
    if (known)
        return known < 0 ? known : replace_by_constant(P, n, v, "known from the tensor's type");
    return merge_add_sub(P, n);
}

/* Is v the constant bool want? */
static bool is_bool_const(const Peep *P, const TsIrValue *v, bool want)
{
    TsValue c;
    return const_of(P, v, &c) && c.tag == TS_TAG_BOOL && c.u.b == want;
}

/* Outputs of prim::If n that equal its condition. */
static int peep_if(Peep *P, TsNode *n)
{
    if (strcmp(n->kind, "prim::If") != 0 || n->n_blocks != 2 || n->n_inputs != 1)
        return 0;
    const TsNode *then_ret = n->blocks[0]->ret, *else_ret = n->blocks[1]->ret;
    for (size_t i = 0; i < n->n_outputs; i++) {
        TsIrValue *out = n->outputs[i];
        if (ts_type_kind(out->type) != TS_TYPE_BOOL || !out->n_uses ||
            i >= then_ret->n_inputs || i >= else_ret->n_inputs ||
            !is_bool_const(P, then_ret->inputs[i], true) ||
            !is_bool_const(P, else_ret->inputs[i], false) || !TS_OPT_ALLOWED)
            continue;
        TS_GRAPH_UPDATE("output %zu of prim::If is its condition", i);
        if (ts_irvalue_replace_all_uses_with(out, n->inputs[0], P->err))
            return -1;
    }
    return 0;
}

static int peep_block(Peep *P, TsBlock *b)
{
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        for (size_t i = 0; i < n->n_blocks; i++)
            if (peep_block(P, n->blocks[i]))
                return -1;
        if (n->n_blocks ? peep_if(P, n) : peep_node(P, n))
            return -1;
    }
    return 0;
}

int ts_pass_peephole(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    (void)env;
    Peep P = {g, err, ts_symbol("prim::Constant")};
    int rc = peep_block(&P, ts_graph_block(g));
    TS_GRAPH_DUMP("after peephole", g);
    return rc;
}
