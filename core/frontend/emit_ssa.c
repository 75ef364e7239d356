/* emit_ssa.c — conversion to SSA, and the cleanup after the exit transform.
 *
 * The emitter leaves variables as prim::Store / prim::Load by name. Following the JIT
 * overview ("SSA"), in this order:
 *   1. control-flow load/stores: a name stored in a branch of a prim::If (and defined on
 *      both sides, types unifying) becomes an output of the If, loaded at the end of each
 *      block and stored after the node; a name stored in a loop body that exists before the
 *      loop becomes loop-carried (an input loaded before, a block input stored at the top,
 *      a block output loaded at the end, an output stored after);
 *   2. loop continuations: `continue` becomes prim::LoopContinuation(condition, carried...)
 *      with the loop condition re-evaluated, `break` the same with false;
 *   3. the loop condition block is inlined before the loop and at the end of the body;
 *   4. loads and stores are erased: each load is replaced by the value last stored.
 * Then exit_transform.c lowers prim::LoopContinuation and prim::ReturnStmt, and the cleanup
 * here removes what died, pools constants at the top, and flattens prim::With.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"
#include "ir/passes/pure.h"

/* ---- name -> type / value frames --------------------------------------------------- */

typedef struct SsaVar {
    const char *name;
    const TsType *type;
    TsIrValue *value;
} SsaVar;

typedef struct SsaFrame {
    SsaVar *vars;
    size_t n, cap;
    struct SsaFrame *next;
} SsaFrame;

static SsaVar *frame_here(SsaFrame *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->vars[i].name == name)
            return &f->vars[i];
    return NULL;
}

static SsaVar *frame_find(SsaFrame *f, const char *name)
{
    for (; f; f = f->next) {
        SsaVar *v = frame_here(f, name);
        if (v)
            return v;
    }
    return NULL;
}

static int frame_set(SsaFrame *f, const char *name, const TsType *t, TsIrValue *v,
                     TsError *err)
{
    SsaVar *x = frame_here(f, name);
    if (!x) {
        if (f->n == f->cap) {
            size_t cap = f->cap ? 2 * f->cap : 8;
            SsaVar *nv = realloc(f->vars, cap * sizeof *nv);
            if (!nv)
                return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
            f->vars = nv;
            f->cap = cap;
        }
        x = &f->vars[f->n++];
        x->name = name;
    }
    x->type = t;
    x->value = v;
    return 0;
}

static const char *node_name(const TsNode *n)
{
    const TsAttr *a = ts_node_attr(n, ts_symbol("attr::name"));
    return a ? ts_symbol(a->u.s) : NULL;
}

static bool is(const TsNode *n, const char *kind) { return n->kind == ts_symbol(kind); }

/* ---- 1. control-flow load/stores ----------------------------------------------------- */

static TsNode *make_named(TsGraph *g, const char *kind, const char *name, TsIrValue *in,
                          const TsType *out_type, TsError *err)
{
    TsNode *n = ts_graph_create(g, ts_symbol(kind), out_type ? 1 : 0, err);
    if (!n)
        return NULL;
    if ((in && ts_node_add_input(n, in, err) != 0) ||
        ts_node_set_str(n, ts_symbol("attr::name"), name, err) != 0) {
        ts_node_destroy(n, NULL);
        return NULL;
    }
    if (out_type)
        n->outputs[0]->type = out_type;
    return n;
}

/* A Load of name placed before pos; its value. */
static TsIrValue *load_before(TsGraph *g, TsNode *pos, const char *name, const TsType *t,
                              TsError *err)
{
    TsNode *n = make_named(g, "prim::Load", name, NULL, t, err);
    if (!n)
        return NULL;
    ts_node_insert_before(n, pos);
    return n->outputs[0];
}

static int store_after(TsGraph *g, TsNode *pos, const char *name, TsIrValue *v, TsError *err)
{
    TsNode *n = make_named(g, "prim::Store", name, v, NULL, err);
    if (!n)
        return -1;
    ts_node_insert_after(n, pos);
    return 0;
}

static bool meaningful(const char *name) { return name[0] != '$'; }

static int name_value(TsIrValue *v, const char *name, TsError *err)
{
    return meaningful(name) ? ts_irvalue_set_name(v, name, false, err) : 0;
}

static int cf_block(TsGraph *g, TsBlock *b, SsaFrame *f, TsError *err);

static void frame_clear(SsaFrame *f) { free(f->vars); }

static int cf_if(TsGraph *g, TsNode *n, SsaFrame *f, TsError *err)
{
    SsaFrame tf = { .next = f }, ff = { .next = f };
    int rc = cf_block(g, n->blocks[0], &tf, err);
    if (rc == 0)
        rc = cf_block(g, n->blocks[1], &ff, err);
    for (size_t k = 0; rc == 0 && k < tf.n + ff.n; k++) {
        const char *x = k < tf.n ? tf.vars[k].name : ff.vars[k - tf.n].name;
        if (k >= tf.n && frame_here(&tf, x))
            continue;   /* already handled */
        SsaVar *tv = frame_find(&tf, x), *fv = frame_find(&ff, x);
        if (!tv || !fv || !tv->type || !fv->type)
            continue;
        const TsType *u = ts_type_unify(tv->type, fv->type, true);
        if (!u)
            continue;
        TsIrValue *a = load_before(g, n->blocks[0]->ret, x, tv->type, err);
        TsIrValue *b = a ? load_before(g, n->blocks[1]->ret, x, fv->type, err) : NULL;
        if (!b || ts_block_add_output(n->blocks[0], a, err) != 0 ||
            ts_block_add_output(n->blocks[1], b, err) != 0) {
            rc = -1;
            break;
        }
        TsIrValue *o = ts_node_add_output(n, u, err);
        if (!o || name_value(o, x, err) != 0 || store_after(g, n, x, o, err) != 0 ||
            frame_set(f, x, u, NULL, err) != 0)
            rc = -1;
    }
    frame_clear(&tf);
    frame_clear(&ff);
    return rc;
}

static int cf_loop(TsGraph *g, TsNode *n, SsaFrame *f, TsError *err)
{
    TsBlock *body = n->blocks[0];
    SsaFrame bf = { .next = f }, cf = { .next = f };
    int rc = cf_block(g, body, &bf, err);
    if (rc == 0 && n->n_blocks > 1)
        rc = cf_block(g, n->blocks[1], &cf, err);
    for (size_t k = 0; rc == 0 && k < bf.n; k++) {
        const char *x = bf.vars[k].name;
        SsaVar *pv = frame_find(f, x);
        if (!pv || !pv->type || !bf.vars[k].type)
            continue;
        const TsType *bt = bf.vars[k].type;
        const TsType *u = ts_type_unify(pv->type, bt, false);
        if (!u)
            u = pv->type;
        TsIrValue *in = load_before(g, n, x, pv->type, err);
        TsIrValue *bin = in ? ts_block_add_input(body, x, u, err) : NULL;
        TsNode *st = bin ? make_named(g, "prim::Store", x, bin, NULL, err) : NULL;
        if (!st || ts_node_add_input(n, in, err) != 0) {
            rc = -1;
            break;
        }
        if (body->ret->next != body->ret)
            ts_node_insert_before(st, body->ret->next);
        else
            ts_node_insert_before(st, body->ret);
        TsIrValue *bout = load_before(g, body->ret, x, bt, err);
        TsIrValue *o = bout && ts_block_add_output(body, bout, err) == 0
                           ? ts_node_add_output(n, u, err) : NULL;
        if (!o || name_value(o, x, err) != 0 || store_after(g, n, x, o, err) != 0 ||
            frame_set(f, x, u, NULL, err) != 0)
            rc = -1;
    }
    frame_clear(&bf);
    frame_clear(&cf);
    return rc;
}

static int cf_block(TsGraph *g, TsBlock *b, SsaFrame *f, TsError *err)
{
    for (TsNode *n = b->ret->next; n != b->ret; n = n->next) {
        int rc = 0;
        if (is(n, "prim::If"))
            rc = cf_if(g, n, f, err);
        else if (is(n, "prim::Loop"))
            rc = cf_loop(g, n, f, err);
        else if (is(n, "prim::With"))
            rc = cf_block(g, n->blocks[0], f, err);
        else if (is(n, "prim::Store"))
            rc = frame_set(f, node_name(n), n->inputs[0]->type, NULL, err);
        if (rc != 0)
            return -1;
        /* nodes inserted after n (stores) are visited next and only record types */
    }
    return 0;
}

/* ---- cloning (loop conditions) ---------------------------------------------------------- */

typedef struct ValueMap {
    TsIrValue **from, **to;
    size_t n, cap;
} ValueMap;

static TsIrValue *map_get(const ValueMap *m, TsIrValue *v)
{
    for (size_t i = m->n; i-- > 0;)
        if (m->from[i] == v)
            return m->to[i];
    return v;
}

static int map_put(ValueMap *m, TsIrValue *from, TsIrValue *to, TsError *err)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        TsIrValue **a = realloc(m->from, cap * sizeof *a);
        if (!a)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        m->from = a;
        TsIrValue **b = realloc(m->to, cap * sizeof *b);
        if (!b)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        m->to = b;
        m->cap = cap;
    }
    m->from[m->n] = from;
    m->to[m->n++] = to;
    return 0;
}

static int clone_block_into(TsGraph *g, TsBlock *src, TsBlock *dst_owner_block, TsNode *before,
                            ValueMap *m, TsError *err);

static TsNode *clone_node(TsGraph *g, TsNode *n, ValueMap *m, TsError *err)
{
    TsNode *c = ts_graph_create(g, n->kind, n->n_outputs, err);
    if (!c)
        return NULL;
    ts_node_set_range(c, n->range);
    for (size_t i = 0; i < n->n_attrs; i++)
        if (ts_node_set_attr(c, &n->attrs[i], err) != 0)
            goto fail;
    for (size_t i = 0; i < n->n_inputs; i++)
        if (ts_node_add_input(c, map_get(m, n->inputs[i]), err) != 0)
            goto fail;
    for (size_t i = 0; i < n->n_outputs; i++) {
        c->outputs[i]->type = n->outputs[i]->type;
        if (map_put(m, n->outputs[i], c->outputs[i], err) != 0)
            goto fail;
    }
    c->op = n->op;
    return c;
fail:
    ts_node_destroy(c, NULL);
    return NULL;
}

/* Clones src's nodes before `before`; sub-blocks are cloned recursively. */
static int clone_block_into(TsGraph *g, TsBlock *src, TsBlock *dst, TsNode *before,
                            ValueMap *m, TsError *err)
{
    (void)dst;
    for (TsNode *n = src->ret->next; n != src->ret; n = n->next) {
        TsNode *c = clone_node(g, n, m, err);
        if (!c)
            return -1;
        ts_node_insert_before(c, before);
        for (size_t i = 0; i < n->n_blocks; i++) {
            TsBlock *nb = ts_node_add_block(c, err);
            TsBlock *ob = n->blocks[i];
            if (!nb)
                return -1;
            for (size_t k = 0; k < ob->param->n_outputs; k++) {
                TsIrValue *in = ts_block_add_input(nb, NULL, ob->param->outputs[k]->type, err);
                if (!in || map_put(m, ob->param->outputs[k], in, err) != 0)
                    return -1;
            }
            if (clone_block_into(g, ob, nb, nb->ret, m, err) != 0)
                return -1;
            for (size_t k = 0; k < ob->ret->n_inputs; k++)
                if (ts_block_add_output(nb, map_get(m, ob->ret->inputs[k]), err) != 0)
                    return -1;
        }
    }
    return 0;
}

/* The condition block's nodes cloned before `before`; returns the cloned output. */
static TsIrValue *clone_cond(TsGraph *g, TsBlock *cond, TsNode *before, TsError *err)
{
    ValueMap m = { 0 };
    TsIrValue *r = NULL;
    if (clone_block_into(g, cond, NULL, before, &m, err) == 0)
        r = map_get(&m, cond->ret->inputs[0]);
    free(m.from);
    free(m.to);
    return r;
}

/* ---- 2. loop continuations --------------------------------------------------------------- */

static int continuations(TsGraph *g, TsBlock *b, TsNode *loop, TsError *err)
{
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        if (is(n, "prim::Loop")) {
            if (continuations(g, n->blocks[0], n, err) != 0)
                return -1;
            continue;
        }
        if (is(n, "prim::If") || is(n, "prim::With")) {
            for (size_t i = 0; i < n->n_blocks; i++)
                if (continuations(g, n->blocks[i], loop, err) != 0)
                    return -1;
            continue;
        }
        bool brk = is(n, "prim::BreakStmt");
        if (!brk && !is(n, "prim::ContinueStmt"))
            continue;
        TsNode *lc = ts_graph_create(g, ts_symbol("prim::LoopContinuation"), 0, err);
        if (!lc)
            return -1;
        ts_node_set_range(lc, n->range);
        ts_node_insert_before(lc, n);
        TsIrValue *cond;
        if (brk) {
            ts_graph_set_insert_point(g, lc);
            cond = ts_graph_insert_constant(g, ts_bool(false), n->range, err);
        } else {
            cond = clone_cond(g, loop->blocks[1], lc, err);
        }
        if (!cond || ts_node_add_input(lc, cond, err) != 0)
            return -1;
        TsBlock *body = loop->blocks[0];
        for (size_t i = 0; i < body->ret->n_inputs; i++) {
            TsNode *ld = body->ret->inputs[i]->node;
            TsIrValue *v = load_before(g, lc, node_name(ld), ld->outputs[0]->type, err);
            if (!v || ts_node_add_input(lc, v, err) != 0)
                return -1;
        }
        if (ts_node_destroy(n, err) != 0)
            return -1;
    }
    return 0;
}

/* ---- 3. inline loop conditions -------------------------------------------------------------- */

static int inline_conditions(TsGraph *g, TsBlock *b, TsError *err)
{
    for (TsNode *n = b->ret->next; n != b->ret; n = n->next) {
        for (size_t i = 0; i < n->n_blocks; i++)
            if (inline_conditions(g, n->blocks[i], err) != 0)
                return -1;
        if (!is(n, "prim::Loop") || n->n_blocks != 2)
            continue;
        TsBlock *body = n->blocks[0], *cond = n->blocks[1];
        TsIrValue *first = clone_cond(g, cond, n, err);
        if (!first || ts_node_insert_input(n, 1, first, err) != 0)
            return -1;
        while (cond->ret->next != cond->ret)
            ts_node_move_before(cond->ret->next, body->ret);
        TsIrValue *c = cond->ret->inputs[0];
        if (ts_node_insert_input(body->ret, 0, c, err) != 0)
            return -1;
        ts_node_remove_all_inputs(cond->ret);
        ts_node_erase_block(n, 1);
    }
    return 0;
}

/* ---- 4. erase loads and stores ---------------------------------------------------------- */

static int erase_block(TsGraph *g, TsBlock *b, SsaFrame *f, TsError *err)
{
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        if (is(n, "prim::Store")) {
            if (frame_set(f, node_name(n), NULL, n->inputs[0], err) != 0 ||
                ts_node_destroy(n, err) != 0)
                return -1;
        } else if (is(n, "prim::Load")) {
            SsaVar *v = frame_find(f, node_name(n));
            if (!v)
                return ts_error_set(err, TS_ERR_RUNTIME, "internal error: %s loaded before it "
                                    "was stored", node_name(n));
            if (ts_irvalue_replace_all_uses_with(n->outputs[0], v->value, err) != 0 ||
                ts_node_destroy(n, err) != 0)
                return -1;
        } else if (is(n, "prim::With")) {
            if (erase_block(g, n->blocks[0], f, err) != 0 ||
                erase_block(g, n->blocks[1], f, err) != 0)
                return -1;
        } else {
            for (size_t i = 0; i < n->n_blocks; i++) {
                SsaFrame inner = { .next = f };
                int rc = erase_block(g, n->blocks[i], &inner, err);
                frame_clear(&inner);
                if (rc != 0)
                    return -1;
            }
        }
    }
    return 0;
}

int ts_convert_to_ssa(TsGraph *g, TsError *err)
{
    SsaFrame top = { 0 };
    int rc = cf_block(g, ts_graph_block(g), &top, err);
    frame_clear(&top);
    if (rc == 0)
        rc = continuations(g, ts_graph_block(g), NULL, err);
    if (rc == 0)
        rc = inline_conditions(g, ts_graph_block(g), err);
    SsaFrame env = { 0 };
    if (rc == 0)
        rc = erase_block(g, ts_graph_block(g), &env, err);
    frame_clear(&env);
    TsNode *end = ts_graph_block(g)->ret;
    ts_graph_set_insert_point(g, end);
    return rc;
}

/* ---- cleanup ------------------------------------------------------------------------------ */

static bool has_uses(const TsNode *n)
{
    for (size_t i = 0; i < n->n_outputs; i++)
        if (n->outputs[i]->n_uses)
            return true;
    return false;
}

/* Nodes without side effects: removed when nothing uses them. */
static bool is_pure(const TsNode *n)
{
    static const char *const pure[] = {
        "prim::Constant", "prim::Uninitialized", "prim::TupleConstruct", "prim::TupleIndex",
        "prim::TupleUnpack", "prim::ListConstruct", "prim::DictConstruct",
        "prim::unchecked_cast", "prim::GetAttr", "prim::EnumName", "prim::EnumValue",
        "prim::dtype", "prim::device", "aten::__is__", "aten::__isnot__", "aten::__not__",
        "prim::EmptyListLiteral", NULL
    };
    for (size_t i = 0; pure[i]; i++)
        if (n->kind == ts_symbol(pure[i]))
            return true;
    return false;
}

/* Removes unused If outputs and dead pure nodes until nothing changes. */
static bool dce_block(TsBlock *b)
{
    bool changed = false;
    for (TsNode *n = b->ret->prev, *prev; n != b->ret; n = prev) {
        prev = n->prev;
        for (size_t i = 0; i < n->n_blocks; i++)
            changed |= dce_block(n->blocks[i]);
        if (is(n, "prim::If")) {
            for (size_t i = n->n_outputs; i-- > 0;) {
                if (n->outputs[i]->n_uses)
                    continue;
                ts_node_remove_input(n->blocks[0]->ret, i);
                ts_node_remove_input(n->blocks[1]->ret, i);
                ts_node_erase_output(n, i, NULL);
                changed = true;
            }
            if (n->n_outputs == 0 && n->blocks[0]->ret->next == n->blocks[0]->ret &&
                n->blocks[1]->ret->next == n->blocks[1]->ret) {
                ts_node_destroy(n, NULL);
                changed = true;
            }
            continue;
        }
        if (is_pure(n) && !has_uses(n) && n->n_blocks == 0) {
            ts_node_destroy(n, NULL);
            changed = true;
        }
    }
    return changed;
}

/* prim::With back into prim::Enter ... body ... prim::Exit, as PyTorch prints it. */
static void flatten_with(TsBlock *b)
{
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        for (size_t i = 0; i < n->n_blocks; i++)
            flatten_with(n->blocks[i]);
        if (!is(n, "prim::With"))
            continue;
        for (size_t i = 0; i < 2; i++)
            while (n->blocks[i]->ret->next != n->blocks[i]->ret)
                ts_node_move_before(n->blocks[i]->ret->next, n);
        ts_node_destroy(n, NULL);
    }
}

static bool same_constant(const TsNode *a, const TsNode *b)
{
    if (a->outputs[0]->type != b->outputs[0]->type || a->n_attrs != b->n_attrs)
        return false;
    if (a->n_attrs == 0)
        return true;
    const TsAttr *x = &a->attrs[0], *y = &b->attrs[0];
    if (x->kind != y->kind || x->name != y->name)
        return false;
    switch (x->kind) {
    case TS_ATTR_INT: return x->u.i == y->u.i;
    case TS_ATTR_FLOAT:        /* NaN is no NaN; 0.0 and -0.0 are settled apart (below) */
        return x->u.f == y->u.f && signbit(x->u.f) == signbit(y->u.f);
    case TS_ATTR_STR: return strcmp(x->u.s, y->u.s) == 0;
    default: return false;
    }
}

/* Hoists constants to the top of the graph and merges equal ones. */
static void pool_constants(TsGraph *g, TsBlock *b, TsNode **pool, size_t *n_pool, size_t cap)
{
    TsBlock *top = ts_graph_block(g);
    for (TsNode *n = b->ret->next, *next; n != b->ret; n = next) {
        next = n->next;
        for (size_t i = 0; i < n->n_blocks; i++)
            pool_constants(g, n->blocks[i], pool, n_pool, cap);
        if (!is(n, "prim::Constant") || n->n_outputs != 1)
            continue;
        TsTypeKind k = ts_type_kind(n->outputs[0]->type);
        if (k == TS_TYPE_TENSOR || k == TS_TYPE_LIST || k == TS_TYPE_DICT)
            continue;
        TsNode *same = NULL;
        for (size_t i = 0; i < *n_pool && !same; i++)
            if (same_constant(pool[i], n))
                same = pool[i];
        /* (out of memory moving the uses keeps the duplicate: still a correct graph) */
        if (same && ts_irvalue_replace_all_uses_with(n->outputs[0], same->outputs[0], NULL) == 0) {
            ts_node_destroy(n, NULL);
            continue;
        }
        if (*n_pool < cap)
            pool[(*n_pool)++] = n;
        if (b != top || n->prev != top->ret) {
            TsNode *after = *n_pool > 1 ? pool[*n_pool - 2] : NULL;
            if (after && after != n)
                ts_node_move_after(n, after);
            else if (!after)
                ts_node_move_before(n, top->ret->next);
        }
    }
}

/* The float constant 0.0 (negative or not) among the pooled ones at the top, or NULL. */
static TsNode *zero_constant(TsBlock *top, bool negative)
{
    for (TsNode *n = top->ret->next; n != top->ret && is(n, "prim::Constant"); n = n->next)
        if (n->n_attrs == 1 && n->attrs[0].kind == TS_ATTR_FLOAT && n->attrs[0].u.f == 0.0 &&
            (bool)signbit(n->attrs[0].u.f) == negative)
            return n;
    return NULL;
}

/* Would PyTorch's scripting fold n: a pure node of constants giving immutable values? */
static bool folds(const TsNode *n)
{
    if (n->n_outputs == 0 || !ts_node_is_pure(n))
        return false;
    for (size_t i = 0; i < n->n_inputs; i++)
        if (!is(n->inputs[i]->node, "prim::Constant"))
            return false;
    for (size_t i = 0; i < n->n_outputs; i++)
        if (!ts_type_is_immutable(n->outputs[i]->type))
            return false;
    return true;
}

/* PyTorch writes -0.0 as neg(0.0) and, while scripting, folds the pure nodes of constants
 * and then pools constants, where -0.0 equals 0.0 and the 0.0 came first. So a -0.0 that a
 * folded node reads stays -0.0 there (math.atan2(0.0, -0.0) is pi), while every other use
 * of it, where a 0.0 is also used, reads 0.0 (torch.tensor([-0.0, 0.0]) holds two zeros,
 * print(-0.0, 0.0) prints 0. 0.); -0.0 with no 0.0 beside it stays -0.0, and so does one
 * whose 0.0 is only read by folded nodes (it is gone by then). */
static void settle_zeros(TsBlock *top)
{
    TsNode *pos = zero_constant(top, false), *neg = zero_constant(top, true);
    if (!pos || !neg)
        return;
    bool lives = false;        /* a 0.0 whose every use folds away is gone before pooling */
    for (size_t u = 0; u < pos->outputs[0]->n_uses && !lives; u++)
        lives = !folds(pos->outputs[0]->uses[u].user);
    if (!lives)
        return;
    TsIrValue *nv = neg->outputs[0];
    if (ts_irvalue_reserve_uses(pos->outputs[0], nv->n_uses))
        return;                /* (no memory: the graph stays as it is, still correct) */
    for (size_t u = nv->n_uses; u-- > 0;) {
        TsUse use = nv->uses[u];
        if (!folds(use.user))
            (void)ts_node_replace_input(use.user, use.offset, pos->outputs[0], NULL);
    }
    if (nv->n_uses == 0)
        ts_node_destroy(neg, NULL);
}

/* An empty list literal that no argument converted (see sugared.c's emit_args) is the
 * List[Tensor] a bare [] is. */
static void lower_empty_lists(TsBlock *b)
{
    for (TsNode *n = b->ret->next; n != b->ret; n = n->next) {
        for (size_t i = 0; i < n->n_blocks; i++)
            lower_empty_lists(n->blocks[i]);
        if (is(n, "prim::EmptyListLiteral"))
            n->kind = ts_symbol("prim::ListConstruct");
    }
}

int ts_emit_cleanup(TsGraph *g, TsError *err)
{
    (void)err;
    TsBlock *top = ts_graph_block(g);
    flatten_with(top);
    while (dce_block(top))
        ;
    lower_empty_lists(top);
    enum { POOL_MAX = 4096 };
    TsNode **pool = malloc(POOL_MAX * sizeof *pool);
    if (!pool)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    size_t n_pool = 0;
    pool_constants(g, top, pool, &n_pool, POOL_MAX);
    settle_zeros(top);
    free(pool);
    ts_graph_set_insert_point(g, top->ret);
    return 0;
}
