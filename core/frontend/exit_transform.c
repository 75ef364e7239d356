/* exit_transform.c — lowering prim::LoopContinuation and prim::ReturnStmt (the JIT
 * overview's "Exit Transform").
 *
 * After SSA conversion, `continue`/`break` are prim::LoopContinuation(cond, carried...) and
 * `return` is prim::ReturnStmt(value): exits out of the middle of a block, which the
 * structured IR cannot express. This pass rewrites them, first loop continuations (whose
 * target is the innermost loop body), then returns (target: the graph's block). Each block
 * reports an ExitPair: whether it has exited (a bool value: the constant true, the constant
 * false, a special "throws" marker, or a run-time value) and the values it exits with.
 *   - a node after a certain exit is dead and deleted;
 *   - nodes after a possible exit are moved into the false branch of a new prim::If on the
 *     has-exited flag (the true branch re-emits the exit, and is transformed recursively);
 *   - a prim::If gets outputs for the flag and the exit values (prim::Uninitialized where a
 *     branch does not exit);
 *   - a loop whose body may return carries the flag and exit values, and stops iterating
 *     once the flag is set;
 *   - at the target block the exit values become the block's outputs.
 */
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"

enum { MAX_EXIT_VALUES = 64 };

typedef enum { WONT, WILL, MIGHT, THROWS } ExitStatus;

typedef struct ExitPair {
    TsIrValue *has_exited;
    TsIrValue *vals[MAX_EXIT_VALUES];
    size_t n;
} ExitPair;

typedef struct Exits {
    TsGraph *g;
    TsError *err;
    TsSymbol kind;             /* prim::LoopContinuation or prim::ReturnStmt */
    TsBlock *target;
    TsIrValue *true_val, *false_val, *throws_val;
    int failed;
} Exits;

static bool is(const TsNode *n, const char *kind) { return n->kind == ts_symbol(kind); }

static ExitStatus status(const Exits *x, const ExitPair *p)
{
    if (p->has_exited == x->true_val)
        return WILL;
    if (p->has_exited == x->false_val)
        return WONT;
    if (p->has_exited == x->throws_val)
        return THROWS;
    return MIGHT;
}

static ExitPair pair(TsIrValue *flag)
{
    ExitPair p;
    p.has_exited = flag;
    p.n = 0;
    return p;
}

static void fail(Exits *x) { x->failed = 1; }

/* An uninitialized value of type t, before pos. */
static TsIrValue *uninit(Exits *x, const TsType *t, TsNode *pos)
{
    TsNode *n = ts_graph_create(x->g, ts_symbol("prim::Uninitialized"), 1, x->err);
    if (!n) {
        fail(x);
        return NULL;
    }
    n->outputs[0]->type = t;
    ts_node_insert_before(n, pos);
    return n->outputs[0];
}

static ExitPair transform_block(Exits *x, TsBlock *b);

/* Adds outputs to an If: block 0 yields a, block 1 yields b; returns the outputs. */
static bool add_if_outputs(Exits *x, TsNode *n, TsIrValue *const *a, TsIrValue *const *b,
                           size_t k, TsIrValue **outs)
{
    for (size_t i = 0; i < k; i++) {
        const TsType *t = ts_type_unify(a[i]->type, b[i]->type, true);
        if (!t)
            t = a[i]->type;
        if (ts_block_add_output(n->blocks[0], a[i], x->err) != 0 ||
            ts_block_add_output(n->blocks[1], b[i], x->err) != 0 ||
            !(outs[i] = ts_node_add_output(n, t, x->err))) {
            fail(x);
            return false;
        }
    }
    return true;
}

static ExitPair transform_if(Exits *x, TsNode *n)
{
    ExitPair tp = transform_block(x, n->blocks[0]);
    ExitPair fp = transform_block(x, n->blocks[1]);
    ExitStatus ts = status(x, &tp), fs = status(x, &fp);
    if (x->failed || (ts == WONT && fs == WONT))
        return pair(x->false_val);
    if (ts == THROWS && fs == THROWS)
        return pair(x->throws_val);
    if ((ts == THROWS && fs == WONT) || (fs == THROWS && ts == WONT))
        return pair(x->false_val);
    /* a branch that throws or never exits yields uninitialized exit values */
    ExitPair *ex = ts == WONT || ts == THROWS ? &fp : &tp;
    if (ts == WONT || ts == THROWS) {
        tp.n = ex->n;
        tp.has_exited = ts == THROWS ? x->true_val : x->false_val;
        for (size_t i = 0; i < ex->n; i++)
            tp.vals[i] = uninit(x, ex->vals[i]->type, n->blocks[0]->ret);
        ts = ts == THROWS ? WILL : WONT;
    }
    if (fs == WONT || fs == THROWS) {
        fp.n = tp.n;
        fp.has_exited = fs == THROWS ? x->true_val : x->false_val;
        for (size_t i = 0; i < tp.n; i++)
            fp.vals[i] = uninit(x, tp.vals[i]->type, n->blocks[1]->ret);
        fs = fs == THROWS ? WILL : WONT;
    }
    if (x->failed || tp.n != fp.n) {
        fail(x);
        return pair(x->false_val);
    }
    ExitPair r = pair(x->true_val);
    if (!(ts == WILL && fs == WILL)) {
        TsIrValue *flag;
        if (!add_if_outputs(x, n, &tp.has_exited, &fp.has_exited, 1, &flag))
            return pair(x->false_val);
        r.has_exited = flag;
    }
    r.n = tp.n;
    if (!add_if_outputs(x, n, tp.vals, fp.vals, tp.n, r.vals))
        return pair(x->false_val);
    return r;
}

/* Moves the nodes from `from` to the end of b into a new If guarded by the exit flag. */
static ExitPair guard_rest(Exits *x, TsBlock *b, const ExitPair *ep, TsNode *from)
{
    TsNode *n = ts_graph_create(x->g, ts_symbol("prim::If"), 0, x->err);
    if (!n || ts_node_add_input(n, ep->has_exited, x->err) != 0) {
        fail(x);
        return pair(x->false_val);
    }
    ts_node_insert_before(n, from);
    TsBlock *exit_b = ts_node_add_block(n, x->err);
    TsBlock *guard_b = exit_b ? ts_node_add_block(n, x->err) : NULL;
    if (!guard_b) {
        fail(x);
        return pair(x->false_val);
    }
    while (n->next != b->ret)
        ts_node_move_before(n->next, guard_b->ret);
    /* the block's outputs now come out of the new If */
    size_t k = b->ret->n_inputs;
    for (size_t i = 0; i < k; i++) {
        TsIrValue *o = b->ret->inputs[i];
        TsIrValue *u = uninit(x, o->type, exit_b->ret);
        TsIrValue *no;
        if (!u || ts_block_add_output(exit_b, u, x->err) != 0 ||
            ts_block_add_output(guard_b, o, x->err) != 0 ||
            !(no = ts_node_add_output(n, o->type, x->err))) {
            fail(x);
            return pair(x->false_val);
        }
        if (ts_node_replace_input(b->ret, i, no, x->err) != 0) {
            fail(x);
            return pair(x->false_val);
        }
    }
    TsNode *re = ts_graph_create(x->g, x->kind, 0, x->err);
    if (!re) {
        fail(x);
        return pair(x->false_val);
    }
    for (size_t i = 0; i < ep->n; i++)
        if (ts_node_add_input(re, ep->vals[i], x->err) != 0) {
            fail(x);
            return pair(x->false_val);
        }
    ts_node_insert_before(re, exit_b->ret);
    return transform_if(x, n);
}

static ExitPair transform_loop(Exits *x, TsNode *n)
{
    TsBlock *body = n->blocks[0];
    ExitPair ep = transform_block(x, body);
    ExitStatus s = status(x, &ep);
    if (x->failed || s == WONT || s == THROWS || x->kind == ts_symbol("prim::LoopContinuation"))
        return pair(x->false_val);
    /* the loop stops when the body exited: cond = exited ? false : cond */
    TsNode *c = ts_graph_create(x->g, ts_symbol("prim::If"), 0, x->err);
    if (!c || ts_node_add_input(c, ep.has_exited, x->err) != 0) {
        fail(x);
        return pair(x->false_val);
    }
    ts_node_insert_before(c, body->ret);
    TsBlock *b0 = ts_node_add_block(c, x->err), *b1 = b0 ? ts_node_add_block(c, x->err) : NULL;
    TsIrValue *nc = b1 ? ts_node_add_output(c, ts_type_bool(), x->err) : NULL;
    if (!nc || ts_block_add_output(b0, x->false_val, x->err) != 0 ||
        ts_block_add_output(b1, body->ret->inputs[0], x->err) != 0) {
        fail(x);
        return pair(x->false_val);
    }
    if (ts_node_replace_input(body->ret, 0, nc, x->err) != 0) {
        fail(x);
        return pair(x->false_val);
    }
    ExitPair r = pair(NULL);
    TsNode *first = ts_graph_block(x->g)->ret->next;
    TsIrValue *flag_in = ep.has_exited;
    if (ts_node_add_input(n, x->false_val, x->err) != 0 ||
        !ts_block_add_input(body, NULL, ts_type_bool(), x->err) ||
        ts_block_add_output(body, flag_in, x->err) != 0 ||
        !(r.has_exited = ts_node_add_output(n, ts_type_bool(), x->err))) {
        fail(x);
        return pair(x->false_val);
    }
    r.n = ep.n;
    for (size_t i = 0; i < ep.n; i++) {
        const TsType *t = ep.vals[i]->type;
        TsIrValue *u = uninit(x, t, first);
        if (!u || ts_node_add_input(n, u, x->err) != 0 ||
            !ts_block_add_input(body, NULL, t, x->err) ||
            ts_block_add_output(body, ep.vals[i], x->err) != 0 ||
            !(r.vals[i] = ts_node_add_output(n, t, x->err))) {
            fail(x);
            return pair(x->false_val);
        }
    }
    return r;
}

/* Deletes the nodes from `from` to the end of b (dead after a certain exit), back to
 * front; block outputs that used them get uninitialized values instead. */
static void delete_from(Exits *x, TsBlock *b, TsNode *from)
{
    if (from == b->ret)
        return;
    TsNode *keep = from->prev;
    while (b->ret->prev != keep && !x->failed) {
        TsNode *last = b->ret->prev;
        for (size_t i = 0; i < last->n_outputs; i++)
            while (last->outputs[i]->n_uses && !x->failed) {
                TsUse u = last->outputs[i]->uses[0];
                TsIrValue *rep = uninit(x, last->outputs[i]->type, keep->next);
                if (rep && ts_node_replace_input(u.user, u.offset, rep, x->err) != 0)
                    fail(x);
                if (rep && rep->node->prev == keep)
                    keep = rep->node;
            }
        if (x->failed)    /* last is still in use: keep the error that stopped us */
            break;
        if (ts_node_destroy(last, x->err) != 0)
            fail(x);
    }
}

static ExitPair transform_block(Exits *x, TsBlock *b)
{
    TsBlock *prev_target = x->target;
    TsNode *owner = b->owning_node;
    if ((x->kind == ts_symbol("prim::LoopContinuation") && owner && is(owner, "prim::Loop")) ||
        (x->kind == ts_symbol("prim::ReturnStmt") && b == ts_graph_block(x->g)))
        x->target = b;
    ExitPair ep = pair(x->false_val);
    for (TsNode *n = b->ret->next, *next; n != b->ret && !x->failed; n = next) {
        next = n->next;
        if (is(n, "prim::RaiseException")) {
            ep = pair(x->throws_val);
        } else if (n->kind == x->kind) {
            ep = pair(x->true_val);
            ep.n = n->n_inputs < MAX_EXIT_VALUES ? n->n_inputs : MAX_EXIT_VALUES;
            for (size_t i = 0; i < ep.n; i++)
                ep.vals[i] = n->inputs[i];
            ts_node_remove_all_inputs(n);
            ts_node_destroy(n, NULL);
        } else if (is(n, "prim::If")) {
            ep = transform_if(x, n);
        } else if (is(n, "prim::With")) {
            ep = transform_block(x, n->blocks[0]);
        } else if (is(n, "prim::Loop")) {
            ep = transform_loop(x, n);
        }
        ExitStatus s = status(x, &ep);
        if (s == WILL || s == THROWS) {
            delete_from(x, b, next);
            break;
        }
        if (s == MIGHT) {
            if (next != b->ret)
                ep = guard_rest(x, b, &ep, next);
            break;
        }
    }
    if (x->target == b && !x->failed) {
        ExitStatus s = status(x, &ep);
        if (s == MIGHT) {
            TsNode *n = ts_graph_create(x->g, ts_symbol("prim::If"), 0, x->err);
            TsBlock *b0 = n ? ts_node_add_block(n, x->err) : NULL;
            TsBlock *b1 = b0 ? ts_node_add_block(n, x->err) : NULL;
            if (!b1 || ts_node_add_input(n, ep.has_exited, x->err) != 0) {
                fail(x);
            } else {
                ts_node_insert_before(n, b->ret);
                size_t k = b->ret->n_inputs;
                TsIrValue *outs[MAX_EXIT_VALUES], *cur[MAX_EXIT_VALUES];
                for (size_t i = 0; i < k && i < MAX_EXIT_VALUES; i++)
                    cur[i] = b->ret->inputs[i];
                if (k == ep.n && k <= MAX_EXIT_VALUES &&
                    add_if_outputs(x, n, ep.vals, cur, k, outs)) {
                    for (size_t i = 0; i < k && !x->failed; i++)
                        if (ts_node_replace_input(b->ret, i, outs[i], x->err) != 0)
                            fail(x);
                } else {
                    fail(x);
                }
            }
        } else if (s == WILL) {
            if (ep.n != b->ret->n_inputs)
                fail(x);
            for (size_t i = 0; i < ep.n && !x->failed; i++)
                if (ts_node_replace_input(b->ret, i, ep.vals[i], x->err) != 0)
                    fail(x);
        }
        ep = pair(x->false_val);
    }
    x->target = prev_target;
    return ep;
}

static int run(TsGraph *g, const char *kind, TsError *err)
{
    Exits x = { .g = g, .err = err, .kind = ts_symbol(kind) };
    TsBlock *top = ts_graph_block(g);
    ts_graph_set_insert_point(g, top->ret->next);
    x.true_val = ts_graph_insert_constant(g, ts_bool(true), (TsSourceRange){ 0 }, err);
    x.false_val = ts_graph_insert_constant(g, ts_bool(false), (TsSourceRange){ 0 }, err);
    x.throws_val = ts_graph_insert_constant(g, ts_bool(true), (TsSourceRange){ 0 }, err);
    if (!x.true_val || !x.false_val || !x.throws_val)
        return -1;
    transform_block(&x, top);
    if (x.failed)
        return err->code ? -1 : ts_error_set(err, TS_ERR_RUNTIME, "internal error in the exit "
                                             "transform");
    /* the throws marker must not stay in use: it stands for "true" */
    int rc = ts_irvalue_replace_all_uses_with(x.throws_val, x.true_val, err);
    ts_graph_set_insert_point(g, top->ret);
    return rc ? -1 : 0;
}

int ts_transform_exits(TsGraph *g, TsError *err)
{
    if (run(g, "prim::LoopContinuation", err) != 0)
        return -1;
    return run(g, "prim::ReturnStmt", err);
}
