/* pyprint_graph.c — one function's graph as Python: `def f(x: T) -> R:` and its body.
 *
 * Every node is a statement or an expression. A value is printed inline, inside the one
 * expression that uses it, when that keeps the program's order: it is the only output of
 * its node, used once, not named by the user (unless it is only returned), not a control
 * flow node, and its node is exactly where a left-to-right evaluation of the using
 * expression would put it. The scan that decides this walks each block backward, matching
 * the inputs of each node, right to left, against the nodes just before it (as PyTorch's
 * printer does, so the importer's emitter, evaluating the expression tree left to right,
 * rebuilds the same order). Constants are always inline; a line that would grow past 40
 * columns un-inlines the arguments before it so that it can be cut without reordering.
 * Other values get names: their debug name without its ".N" suffix, or "_", made unique
 * with a number ("x0", "_3"); parameters keep the schema's names.
 *
 * Control flow: an If prints as `if c:` / `else:`, each branch ending with the assignment
 * of its results to the If's outputs; a Loop's carried values are assigned before it and
 * at the end of each trip, and it prints as `for i in range(n):` or as
 * `c = cond` / `while c:` (see pyprint_canon.c); prim::Enter/Exit print as `with x:`.
 * A prim::fork whose subgraph only calls a function or an operator prints as
 * `fork(__torch__.f, a, b)`, which both PyTorch's importer and tscript's read; any other
 * prints as PyTorch prints every fork, `def __forked_function():` and
 * `fork(__forked_function)`, which tscript's importer does not read yet.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "registry/optable.h"
#include "serialize/pyprint_impl.h"

/* The printer of one function (and its forked subgraphs). */
typedef struct Printer {
    TsPyPrinter *p;
    PyFile *file;
    TsBuf *out;
    int level;
    TsError *err;
    TsPtrMap used;             /* names used in this function: symbol -> 1 */
    TsPtrMap inlined;          /* nodes whose output prints inside its use */
    TsPtrMap idents;           /* value -> its name (a symbol) */
    TsPtrMap exprs;            /* value -> its expression (index + 1 into strs) */
    TsPtrMap split;            /* node -> the last input offset scanned for splitting, + 2 */
    TsPtrMap *callees;         /* the current body's hoisted callees: function -> name */
    char **strs;               /* the expressions, owned */
    size_t n_strs, cap_strs;
    TsSymbol k_constant, k_return, k_loop, k_if, k_fork, k_isinstance, k_enter;
} Printer;

/* Names the printer must not take: what the importer defines, and Python's keywords. */
static const char *const reserved[] = {
    "_", "as", "aten", "attribute", "CONSTANTS", "fork", "getattr", "inf", "nan", "infj",
    "nanj", "ops", "__torch__", "and", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "False", "finally", "for", "from",
    "global", "if", "import", "in", "is", "lambda", "None", "nonlocal", "not", "or", "pass",
    "raise", "return", "True", "try", "while", "with", "yield", "uninitialized",
    "unchecked_cast",
};

static bool is_reserved(const char *s)
{
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(reserved[i], s) == 0)
            return true;
    return false;
}

static bool is_kind(const TsNode *n, TsSymbol k) { return n->kind == k; }

static bool has(const TsPtrMap *m, const void *key) { return ts_ptrmap_get(m, key, NULL); }

static int oom(TsError *err) { return ts_error_set(err, TS_ERR_NOMEM, "out of memory"); }

/* ---- names ------------------------------------------------------------------------------ */

const char *pp_gen_name(PyFile *file, TsPtrMap *used, const char *candidate, TsError *err)
{
    TsSymbol name = ts_symbol(candidate);
    size_t clen = strlen(candidate);
    char *buf = malloc(clen + 24);
    if (!name || !buf) {
        free(buf);
        oom(err);
        return NULL;
    }
    /* PyTorch's rule, counters keyed by the last name tried: "_0" taken gives "_00" */
    while (name && (has(used, name) || is_reserved(name))) {
        uintptr_t next = 0;
        ts_ptrmap_get(&file->next_id, name, &next);
        if (ts_ptrmap_put(&file->next_id, name, next + 1) == 1)
            ts_ptrmap_set(&file->next_id, name, next + 1);
        snprintf(buf, clen + 24, "%s%" PRIuPTR, candidate, next);
        name = ts_symbol(buf);
    }
    free(buf);
    if (!name || ts_ptrmap_put(used, name, 1) < 0) {
        oom(err);
        return NULL;
    }
    return name;
}

/* The candidate name of a value: its debug name without a ".N" suffix, made an
 * identifier, or "_". */
static const char *gen_value_name(Printer *P, const TsIrValue *v)
{
    if (!v->name)
        return pp_gen_name(P->file, &P->used, "_", P->err);
    size_t n = strlen(v->name);
    const char *dot = strrchr(v->name, '.');
    if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1))
        n = (size_t)(dot - v->name);
    char *c = malloc(n + 2);
    if (!c) {
        oom(P->err);
        return NULL;
    }
    size_t k = 0;
    if (n == 0 || (v->name[0] >= '0' && v->name[0] <= '9'))
        c[k++] = '_';
    for (size_t i = 0; i < n; i++) {
        char ch = v->name[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '_';
        c[k++] = ok ? ch : '_';
    }
    c[k] = '\0';
    const char *name = pp_gen_name(P->file, &P->used, c, P->err);
    free(c);
    return name;
}

static int set_ident(Printer *P, const TsIrValue *v, const char *name)
{
    int rc = ts_ptrmap_put(&P->idents, v, (uintptr_t)name);
    if (rc == 1)
        ts_ptrmap_set(&P->idents, v, (uintptr_t)name);
    return rc < 0 ? oom(P->err) : 0;
}

static int name_values(Printer *P, TsIrValue *const *vs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *name = gen_value_name(P, vs[i]);
        if (!name || set_ident(P, vs[i], name))
            return -1;
    }
    return 0;
}

/* How v prints where it is used: its name, else its inline expression. */
static const char *use_of(Printer *P, const TsIrValue *v)
{
    uintptr_t x;
    if (ts_ptrmap_get(&P->idents, v, &x))
        return (const char *)x;
    if (ts_ptrmap_get(&P->exprs, v, &x))
        return P->strs[x - 1];
    char num[32];
    ts_error_set(P->err, TS_ERR_RUNTIME, "python printer: %%%s is used before it is printed",
                 ts_irvalue_debug_name(v, num, sizeof num));
    return NULL;
}

/* v prints as expr (taken) from now on. */
static int set_expr(Printer *P, const TsIrValue *v, char *expr)
{
    if (!expr || pp_grow((void **)&P->strs, P->n_strs, &P->cap_strs, sizeof *P->strs, P->err)) {
        free(expr);
        return expr ? -1 : oom(P->err);
    }
    P->strs[P->n_strs++] = expr;
    int rc = ts_ptrmap_put(&P->exprs, v, P->n_strs);
    if (rc == 1)
        ts_ptrmap_set(&P->exprs, v, P->n_strs);
    return rc < 0 ? oom(P->err) : 0;
}

/* w prints as v does (a loop's carried block input as the loop's output). */
static int alias(Printer *P, const TsIrValue *w, const TsIrValue *v)
{
    const char *s = use_of(P, v);
    return s ? set_expr(P, w, strdup(s)) : -1;
}

/* ---- which values print inline ---------------------------------------------------------- */

static bool can_inline(const Printer *P, const TsIrValue *v)
{
    const TsNode *n = v->node;
    if (n->n_outputs != 1 || v->n_uses != 1 || n->n_blocks != 0)
        return false;
    const TsUse *use = &v->uses[0];
    if (v->name && !is_kind(use->user, P->k_return))
        return false;   /* the user named it: keep the name */
    if (is_kind(use->user, P->k_loop) && use->offset >= 2)
        return false;   /* a carried value, assigned before the loop */
    if (is_kind(use->user, P->k_fork))
        return false;   /* a subgraph may read it more than once */
    return !is_kind(n, P->k_isinstance);   /* its refinement was applied already */
}

static TsNode *previous_non_constant(const Printer *P, TsNode *n)
{
    do
        n = n->prev;
    while (is_kind(n, P->k_constant));
    return n;
}

static TsNode *scan_node(Printer *P, TsNode *n);

static TsNode *scan_value(Printer *P, TsNode *point, const TsIrValue *v)
{
    TsNode *n = v->node;
    if (n == point && can_inline(P, v)) {
        point = scan_node(P, point);
        if (ts_ptrmap_put(&P->inlined, n, 1) < 0)
            oom(P->err);
    } else if (is_kind(n, P->k_constant)) {
        if (ts_ptrmap_put(&P->inlined, n, 1) < 0)
            oom(P->err);
    }
    return point;
}

static void scan_block(Printer *P, const TsBlock *b);

static TsNode *scan_node(Printer *P, TsNode *n)
{
    if (has(&P->inlined, n))
        return n;
    for (size_t i = 0; i < n->n_blocks; i++)
        scan_block(P, n->blocks[i]);
    TsNode *point = previous_non_constant(P, n);
    for (size_t i = n->n_inputs; i-- > 0;)
        point = scan_value(P, point, n->inputs[i]);
    return point;
}

static void scan_block(Printer *P, const TsBlock *b)
{
    scan_node(P, b->ret);
    for (TsNode *n = b->ret->prev; n != b->ret; n = n->prev)
        scan_node(P, n);
}

/* The constants a block uses, in the order first used (nested blocks included). The
 * function a prim::CallFunction calls counts as its first constant: PyTorch's call takes
 * the function as a constant input, and hoists it like any long constant
 * (`_0 = __torch__.torch.nn.functional.embedding`, then `_0(input, weight, )`). */
typedef struct ConstItem {
    TsNode *node;              /* a prim::Constant, or NULL */
    const TsFunction *callee;  /* else the function a call names */
} ConstItem;

typedef struct ConstList {
    ConstItem *items;
    size_t n, cap;
    TsPtrMap seen;             /* constant nodes and callees listed */
} ConstList;

static const TsFunction *callee_of(const Printer *P, const TsNode *n);

static int list_const(Printer *P, ConstList *l, TsNode *node, const TsFunction *callee)
{
    const void *key = node ? (const void *)node : (const void *)callee;
    if (has(&l->seen, key))
        return 0;
    if (ts_ptrmap_put(&l->seen, key, 1) < 0 ||
        pp_grow((void **)&l->items, l->n, &l->cap, sizeof *l->items, P->err))
        return oom(P->err);
    l->items[l->n++] = (ConstItem){ node, callee };
    return 0;
}

static int list_block_constants(Printer *P, const TsBlock *b, ConstList *l);

static int list_node_constants(Printer *P, const TsNode *n, ConstList *l)
{
    const TsFunction *callee = callee_of(P, n);
    if (callee && list_const(P, l, NULL, callee))
        return -1;
    for (size_t i = 0; i < n->n_inputs; i++)
        if (is_kind(n->inputs[i]->node, P->k_constant) &&
            list_const(P, l, n->inputs[i]->node, NULL))
            return -1;
    for (size_t i = 0; i < n->n_blocks; i++)
        if (list_block_constants(P, n->blocks[i], l))
            return -1;
    return 0;
}

static int list_block_constants(Printer *P, const TsBlock *b, ConstList *l)
{
    for (const TsNode *n = b->ret->next; n != b->ret; n = n->next)
        if (list_node_constants(P, n, l))
            return -1;
    return list_node_constants(P, b->ret, l);
}

/* ---- statements --------------------------------------------------------------------------- */

static void indent(Printer *P)
{
    for (int i = 0; i < P->level; i++)
        ts_buf_puts(P->out, "  ");
}

static int put_list(Printer *P, TsBuf *b, TsIrValue *const *vs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *s = use_of(P, vs[i]);
        if (!s)
            return -1;
        ts_buf_puts(b, i ? ", " : "");
        ts_buf_puts(b, s);
    }
    return 0;
}

/* lhs = rhs, all on one line: "a, b = x, y". */
static int put_assignment(Printer *P, TsIrValue *const *lhs, TsIrValue *const *rhs, size_t n)
{
    if (n == 0)
        return 0;
    indent(P);
    if (put_list(P, P->out, lhs, n))
        return -1;
    ts_buf_puts(P->out, " = ");
    if (put_list(P, P->out, rhs, n))
        return -1;
    ts_buf_puts(P->out, "\n");
    return 0;
}

/* One assignment a line, annotated where the target's type is not the value's. */
static int put_annotated_assignment(Printer *P, TsIrValue *const *lhs, TsIrValue *const *rhs,
                                    size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *l = use_of(P, lhs[i]), *r = use_of(P, rhs[i]);
        if (!l || !r)
            return -1;
        indent(P);
        ts_buf_puts(P->out, l);
        if (lhs[i]->type != rhs[i]->type) {
            ts_buf_puts(P->out, ": ");
            pp_type(P->out, lhs[i]->type);
        }
        ts_buf_printf(P->out, " = %s\n", r);
    }
    return 0;
}

/* `a, b = expr` (names given to the outputs), or the bare expr for a node without any. */
static int put_definition(Printer *P, const TsNode *n, const char *expr)
{
    if (name_values(P, n->outputs, n->n_outputs))
        return -1;
    indent(P);
    if (n->n_outputs) {
        if (put_list(P, P->out, n->outputs, n->n_outputs))
            return -1;
        ts_buf_puts(P->out, " = ");
    }
    ts_buf_printf(P->out, "%s\n", expr);
    return 0;
}

static bool is_long(const Printer *P, const char *s)
{
    return strlen(s) + (size_t)P->level * 2 >= 40;
}

static bool is_non_constant_inline(const Printer *P, const TsIrValue *v)
{
    return !is_kind(v->node, P->k_constant) && has(&P->inlined, v->node);
}

/* An inline expression grew too long: the inline arguments before it in its user (and in
 * its user's users, while those are inline) become statements, in order, so that nothing
 * moves across them (see PyTorch's "reordering of inlines"). */
typedef struct ValueList {
    const TsIrValue **items;
    size_t n, cap;
} ValueList;

static int scan_long_inlines(Printer *P, const TsNode *user, int64_t offset, ValueList *vals)
{
    uintptr_t seen;
    bool present = ts_ptrmap_get(&P->split, user, &seen);
    int64_t stop = present ? (int64_t)seen - 2 + 1 : 0;
    for (int64_t i = offset; i >= stop; i--) {
        TsIrValue *arg = user->inputs[i];
        if (!is_non_constant_inline(P, arg))
            continue;
        if (pp_grow((void **)&vals->items, vals->n, &vals->cap, sizeof *vals->items, P->err))
            return -1;
        vals->items[vals->n++] = arg;
    }
    int rc = ts_ptrmap_put(&P->split, user, (uintptr_t)(offset + 2));
    if (rc == 1)
        ts_ptrmap_set(&P->split, user, (uintptr_t)(offset + 2));
    if (rc < 0)
        return oom(P->err);
    if (!present && has(&P->inlined, user)) {
        const TsUse *u = &user->outputs[0]->uses[0];
        return scan_long_inlines(P, u->user, (int64_t)u->offset - 1, vals);
    }
    return 0;
}

static int split_long_inlines(Printer *P, const TsIrValue *v)
{
    ValueList vals = {0};
    int rc = scan_long_inlines(P, v->uses[0].user, (int64_t)v->uses[0].offset, &vals);
    for (size_t i = vals.n; rc == 0 && i-- > 0;) {
        const TsIrValue *w = vals.items[i];
        const char *e = use_of(P, w);
        char *copy = e ? strdup(e) : NULL;
        rc = !copy ? (e ? oom(P->err) : -1) : put_definition(P, w->node, copy);
        free(copy);
    }
    free(vals.items);
    return rc;
}

static int print_node(Printer *P, TsNode *n, bool print_const);
static char *rhs_of(Printer *P, const TsNode *n);
static bool is_static_method(const TsFunction *f);

/* The nodes of a block. */
static int print_block(Printer *P, const TsBlock *b)
{
    for (TsNode *n = b->ret->next; n != b->ret; n = n->next)
        if (print_node(P, n, false))
            return -1;
    return 0;
}

/* `pass` where a block printed nothing since start: Python wants a statement. */
static void block_end(Printer *P, size_t start)
{
    if (P->out->len == start) {
        indent(P);
        ts_buf_puts(P->out, "pass\n");
    }
}

/* An indented block ending with the assignment lhs = rhs of its n results: an If's branch
 * or a loop's body. */
static int print_branch(Printer *P, const TsBlock *b, TsIrValue *const *lhs,
                        TsIrValue *const *rhs, size_t n)
{
    P->level++;
    size_t start = P->out->len;
    int rc = print_block(P, b);
    if (rc == 0)
        rc = put_assignment(P, lhs, rhs, n);
    block_end(P, start);
    P->level--;
    return rc;
}

static int put_callee_name(Printer *P, TsBuf *b, const TsFunction *f);

/* A callee as a constant: inline where it is used, or hoisted to `_N = name` when long. */
static int print_callee(Printer *P, const TsFunction *f)
{
    TsBuf b = TS_BUF_INIT;
    put_callee_name(P, &b, f);
    char *text = ts_buf_take(&b, P->err);
    if (!text)
        return -1;
    int rc = 0;
    if (is_long(P, text)) {
        const char *name = pp_gen_name(P->file, &P->used, "_", P->err);
        rc = !name || ts_ptrmap_put(P->callees, f, (uintptr_t)name) < 0 ? -1 : 0;
        if (rc == 0) {
            indent(P);
            ts_buf_printf(P->out, "%s = %s\n", name, text);
        }
    }
    free(text);
    return rc;
}

static int print_body(Printer *P, const TsBlock *b)
{
    ConstList consts = {0};
    TsPtrMap callees = {0}, *outer = P->callees;
    P->callees = &callees;
    int rc = list_block_constants(P, b, &consts);
    scan_block(P, b);
    if (rc == 0 && P->err->code)
        rc = -1;
    P->level++;
    for (size_t i = 0; rc == 0 && i < consts.n; i++)
        rc = consts.items[i].node ? print_node(P, consts.items[i].node, true)
                                  : print_callee(P, consts.items[i].callee);
    size_t start = P->out->len;
    if (rc == 0)
        rc = print_block(P, b);
    if (rc == 0 && b->ret->n_inputs == 0)
        block_end(P, start);
    if (rc == 0)
        rc = print_node(P, b->ret, false);
    P->level--;
    P->callees = outer;
    free(consts.items);
    ts_ptrmap_free(&consts.seen);
    ts_ptrmap_free(&callees);
    return rc;
}

static int print_if(Printer *P, const TsNode *n)
{
    if (name_values(P, n->outputs, n->n_outputs))
        return -1;
    const char *c = use_of(P, n->inputs[0]);
    if (!c)
        return -1;
    indent(P);
    ts_buf_printf(P->out, "if %s:\n", c);
    if (print_branch(P, n->blocks[0], n->outputs, n->blocks[0]->ret->inputs, n->n_outputs))
        return -1;
    indent(P);
    ts_buf_puts(P->out, "else:\n");
    return print_branch(P, n->blocks[1], n->outputs, n->blocks[1]->ret->inputs, n->n_outputs);
}

static int print_loop(Printer *P, const TsNode *n)
{
    if (!pp_loop_is_wellformed(n))
        return ts_error_at(P->err, TS_ERR_RUNTIME, n->range, "malformed prim::Loop");
    PyLoopKind kind = pp_loop_kind(n);
    if (kind == PY_LOOP_MODIFIED)
        return ts_error_at(P->err, TS_ERR_RUNTIME, n->range, "loop cannot be printed as "
                           "python: it has both a trip count and a condition");
    bool is_for = kind == PY_LOOP_FOR;
    const TsBlock *body = n->blocks[0];
    TsIrValue *const *body_in = body->param->outputs;
    size_t carried = n->n_outputs;
    if (name_values(P, n->outputs, carried))
        return -1;
    for (size_t i = 0; i < carried; i++)
        if (alias(P, body_in[1 + i], n->outputs[i]))
            return -1;
    if (put_annotated_assignment(P, n->outputs, n->inputs + 2, carried) ||
        name_values(P, body_in, 1))
        return -1;
    const char *trip = use_of(P, body_in[0]);
    const char *limit = use_of(P, n->inputs[is_for ? 0 : 1]);
    if (!trip || !limit)
        return -1;
    if (is_for) {
        indent(P);
        ts_buf_printf(P->out, "for %s in range(%s):\n", trip, limit);
    } else {
        if (put_assignment(P, body_in, n->inputs + 1, 1))
            return -1;
        indent(P);
        ts_buf_printf(P->out, "while %s:\n", trip);
    }
    size_t skip = is_for ? 1 : 0;   /* a for loop's condition is always true */
    return print_branch(P, body, body_in + skip, body->ret->inputs + skip, carried + 1 - skip);
}

static int print_unpack(Printer *P, const TsNode *n)
{
    if (n->n_inputs != 1)
        return ts_error_at(P->err, TS_ERR_RUNTIME, n->range, "malformed %s", n->kind);
    if (name_values(P, n->outputs, n->n_outputs))
        return -1;
    const char *s = use_of(P, n->inputs[0]);
    if (!s)
        return -1;
    indent(P);
    if (n->n_outputs) {   /* a, b, = t: the trailing comma makes it an unpack */
        if (put_list(P, P->out, n->outputs, n->n_outputs))
            return -1;
        ts_buf_puts(P->out, ", = ");
    }
    ts_buf_printf(P->out, "%s\n", s);
    return 0;
}

static const char *attr_name(const TsNode *n)
{
    const TsAttr *a = ts_node_attr(n, ts_symbol("attr::name"));
    return a && a->kind == TS_ATTR_STR ? a->u.s : NULL;
}

static int print_setattr(Printer *P, const TsNode *n)
{
    const char *name = attr_name(n);
    const char *obj = n->n_inputs == 2 ? use_of(P, n->inputs[0]) : NULL;
    const char *val = obj ? use_of(P, n->inputs[1]) : NULL;
    if (!name || !val)
        return P->err->code ? -1 : ts_error_at(P->err, TS_ERR_RUNTIME, n->range,
                                               "malformed prim::SetAttr");
    indent(P);
    ts_buf_printf(P->out, "%s.%s = %s\n", obj, name, val);
    return 0;
}

static int put_callee(Printer *P, TsBuf *b, const TsNode *call);
static void put_op_name(TsBuf *b, TsSymbol kind);
static const TsFunction *callee_of(const Printer *P, const TsNode *n);

/* Is input i of call a constant equal to the default of argument i of schema s? */
static bool is_default(const TsSchema *s, const TsNode *call, size_t i)
{
    TsValue c;
    if (!s || i >= s->n_args || !s->args[i].has_default || !pp_constant_of(call->inputs[i], &c))
        return false;
    bool same = c.tag == s->args[i].default_value.tag &&
                ts_value_equal(c, s->args[i].default_value);
    ts_value_release(c);
    return same;
}

/* The call a forked subgraph is when it does nothing but call one function or operator
 * with its inputs, in order (then defaults), and return the result; else NULL. */
static const TsNode *forwarding_call(const Printer *P, const TsBlock *sub)
{
    const TsNode *call = NULL;
    for (const TsNode *n = sub->ret->next; n != sub->ret; n = n->next) {
        if (is_kind(n, P->k_constant))
            continue;
        if (call)
            return NULL;
        call = n;
    }
    if (!call || call->n_outputs != 1 || call->n_blocks || sub->ret->n_inputs != 1 ||
        sub->ret->inputs[0] != call->outputs[0] || call->n_inputs < sub->param->n_outputs)
        return NULL;
    const TsFunction *f = callee_of(P, call);
    const TsSchema *s = f ? f->schema : call->op ? ((const TsOperator *)call->op)->schema : NULL;
    if (!s)
        return NULL;
    for (size_t i = 0; i < call->n_inputs; i++)
        if (i < sub->param->n_outputs ? call->inputs[i] != sub->param->outputs[i]
                                      : !is_default(s, call, i))
            return NULL;
    return call;
}

/* fork(callee, a, b): what torch.jit.fork(f, a, b) was. PyTorch prints every fork as a
 * nested `def __forked_function():`, which tscript's importer cannot read yet; both read
 * this form. */
static int print_fork_call(Printer *P, const TsNode *n, const TsNode *call)
{
    const TsOperator *op = call->op;
    const TsSchema *s = op ? op->schema : NULL;
    TsBuf b = TS_BUF_INIT;
    ts_buf_puts(&b, "fork(");
    int rc = s ? (put_op_name(&b, call->kind), 0) : put_callee(P, &b, call);
    for (size_t i = 0; rc == 0 && i < n->n_inputs; i++) {
        const char *v = use_of(P, n->inputs[i]);
        if (!v)
            rc = -1;
        else if (s && i < s->n_args && s->args[i].kwarg_only)
            ts_buf_printf(&b, ", %s=%s", s->args[i].name, v);
        else
            ts_buf_printf(&b, ", %s", v);
    }
    ts_buf_puts(&b, ")");
    char *text = rc == 0 ? ts_buf_take(&b, P->err) : NULL;
    ts_buf_free(&b);
    rc = text ? put_definition(P, n, text) : -1;
    free(text);
    return rc;
}

static int print_fork(Printer *P, const TsNode *n)
{
    const TsAttr *a = ts_node_attr(n, ts_symbol("attr::Subgraph"));
    const TsGraph *g = a && a->kind == TS_ATTR_GRAPH ? a->u.g : NULL;
    const TsBlock *sub = g ? ts_graph_block(g) : NULL;
    if (!sub || sub->param->n_outputs != n->n_inputs)
        return ts_error_at(P->err, TS_ERR_RUNTIME, n->range, "malformed prim::fork");
    const TsNode *call = forwarding_call(P, sub);
    if (call)
        return print_fork_call(P, n, call);
    const char *name = pp_gen_name(P->file, &P->used, "__forked_function", P->err);
    if (!name)
        return -1;
    indent(P);
    ts_buf_printf(P->out, "def %s():\n", name);
    for (size_t i = 0; i < n->n_inputs; i++)
        if (alias(P, sub->param->outputs[i], n->inputs[i]))
            return -1;
    if (print_body(P, sub))
        return -1;
    TsBuf text = TS_BUF_INIT;
    ts_buf_printf(&text, "fork(%s)", name);
    char *s = ts_buf_take(&text, P->err);
    int rc = s ? put_definition(P, n, s) : -1;
    free(s);
    return rc;
}

static int print_enter(Printer *P, const TsNode *n)
{
    const char *ctx = n->n_inputs == 1 ? use_of(P, n->inputs[0]) : NULL;
    if (!ctx)
        return P->err->code ? -1 : ts_error_at(P->err, TS_ERR_RUNTIME, n->range,
                                               "malformed prim::Enter");
    indent(P);
    ts_buf_printf(P->out, "with %s", ctx);
    if (n->n_outputs == 1 && n->outputs[0]->n_uses > 0) {
        if (name_values(P, n->outputs, 1))
            return -1;
        ts_buf_printf(P->out, " as %s", use_of(P, n->outputs[0]));
    }
    ts_buf_puts(P->out, ":\n");
    P->level++;
    return 0;
}

static int print_exit(Printer *P, const TsNode *n)
{
    if (is_kind(n->prev, P->k_enter)) {
        indent(P);
        ts_buf_puts(P->out, "pass\n");
    }
    P->level--;
    return 0;
}

/* The nominal types a node's values and attributes name are printed too. */
static int use_node_types(Printer *P, const TsNode *n)
{
    TsError *err = P->err;
    for (size_t i = 0; i < n->n_inputs; i++)
        if (pp_use_type(P->p, n->inputs[i]->type, err))
            return -1;
    for (size_t i = 0; i < n->n_outputs; i++)
        if (pp_use_type(P->p, n->outputs[i]->type, err))
            return -1;
    for (size_t i = 0; i < n->n_attrs; i++) {
        const TsAttr *a = &n->attrs[i];
        if (a->kind == TS_ATTR_TYPE && pp_use_type(P->p, a->u.ty, err))
            return -1;
        for (size_t k = 0; a->kind == TS_ATTR_TYPES && k < a->n; k++)
            if (pp_use_type(P->p, a->u.tys[k], err))
                return -1;
    }
    return 0;
}

/* The operators whose meaning changed, and the archive version from which files use the
 * new one (PyTorch 1.13's operator version map). */
static const struct {
    const char *name;
    unsigned version;
} changed_ops[] = {
    { "aten::div.Tensor", 4 }, { "aten::div.Scalar", 4 }, { "aten::div.out", 4 },
    { "aten::div_.Tensor", 4 }, { "aten::div_.Scalar", 4 }, { "aten::div.Tensor_mode", 4 },
    { "aten::div.Scalar_mode", 4 }, { "aten::div_.Tensor_mode", 4 },
    { "aten::div_.Scalar_mode", 4 }, { "aten::div.out_mode", 4 }, { "aten::full", 5 },
    { "aten::full.out", 5 }, { "aten::linspace", 8 }, { "aten::linspace.out", 8 },
    { "aten::logspace", 9 }, { "aten::logspace.out", 9 }, { "aten::gelu", 10 },
    { "aten::gelu.out", 10 },
};

static void note_version(Printer *P, const TsNode *n)
{
    const TsSchema *s = n->op ? ((const TsOperator *)n->op)->schema : NULL;
    if (!s || strncmp(s->name, "aten::", 6) != 0)
        return;
    char full[256];
    snprintf(full, sizeof full, "%s%s%s", s->name, s->overload[0] ? "." : "", s->overload);
    for (size_t i = 0; i < sizeof changed_ops / sizeof changed_ops[0]; i++)
        if (strcmp(full, changed_ops[i].name) == 0 && changed_ops[i].version > P->p->version)
            P->p->version = changed_ops[i].version;
}

static int print_node(Printer *P, TsNode *n, bool print_const)
{
    if (use_node_types(P, n))
        return -1;
    note_version(P, n);
    if (!print_const && is_kind(n, P->k_constant))
        return 0;
    const char *k = n->kind;
    if (is_kind(n, P->k_return)) {
        if (n->n_inputs == 0)
            return 0;
        indent(P);
        ts_buf_puts(P->out, "return ");
        if (put_list(P, P->out, n->inputs, n->n_inputs))
            return -1;
        ts_buf_puts(P->out, "\n");
        return 0;
    }
    if (is_kind(n, P->k_loop))
        return print_loop(P, n);
    if (is_kind(n, P->k_if)) {
        if (n->n_inputs != 1 || n->n_blocks != 2 || n->blocks[0]->ret->n_inputs != n->n_outputs ||
            n->blocks[1]->ret->n_inputs != n->n_outputs)
            return ts_error_at(P->err, TS_ERR_RUNTIME, n->range, "malformed prim::If");
        return print_if(P, n);
    }
    if (strcmp(k, "prim::TupleUnpack") == 0 || strcmp(k, "prim::ListUnpack") == 0)
        return print_unpack(P, n);
    if (strcmp(k, "prim::SetAttr") == 0)
        return print_setattr(P, n);
    if (is_kind(n, P->k_fork))
        return print_fork(P, n);
    if (is_kind(n, P->k_enter))
        return print_enter(P, n);
    if (strcmp(k, "prim::Exit") == 0)
        return print_exit(P, n);
    char *rhs = rhs_of(P, n);
    if (!rhs)
        return -1;
    bool inl = has(&P->inlined, n);
    if (!inl || (is_kind(n, P->k_constant) && is_long(P, rhs))) {
        int rc = put_definition(P, n, rhs);
        free(rhs);
        return rc;
    }
    bool split = is_long(P, rhs);
    if (set_expr(P, n->outputs[0], rhs))
        return -1;
    return split ? split_long_inlines(P, n->outputs[0]) : 0;
}

/* ---- expressions ------------------------------------------------------------------------- */

/* ops.NS.NAME, or torch.NAME for aten. */
static void put_op_name(TsBuf *b, TsSymbol kind)
{
    char ns[64];
    ts_symbol_ns(kind, ns, sizeof ns);
    if (strcmp(ns, "aten") == 0)
        ts_buf_printf(b, "torch.%s", ts_symbol_unqual(kind));
    else
        ts_buf_printf(b, "ops.%s.%s", ns, ts_symbol_unqual(kind));
}

static bool is_out_arg(const TsArg *a)
{
    return a->kwarg_only && a->alias && a->alias->is_write;
}

/* How many leading arguments must be written: trailing ones that are constants equal to
 * their defaults are left out (PyTorch's CalculateNecessaryArgs), as are out= arguments,
 * which *n_out counts (they are written by name after the others). */
static size_t necessary_args(const TsSchema *s, const TsNode *n, size_t *n_out)
{
    *n_out = 0;
    if (s->n_args == 0 || n->n_inputs > s->n_args)
        return n->n_inputs;
    size_t i = s->n_args;
    while (i > 0 && is_out_arg(&s->args[i - 1]))
        i--;
    *n_out = s->n_args - i;
    if (i > n->n_inputs)
        return n->n_inputs;
    for (; i > 0; i--)
        if (!is_default(s, n, i - 1))
            return i;
    return 0;
}

/* "fmt" % (a, b): PyTorch's percentFormat takes the values as one tuple, ours either way. */
static int put_percent_format(Printer *P, TsBuf *b, const TsNode *n)
{
    const char *fmt = use_of(P, n->inputs[0]);
    if (!fmt)
        return -1;
    ts_buf_printf(b, "torch.percentFormat(%s, (", fmt);
    if (put_list(P, b, n->inputs + 1, n->n_inputs - 1))
        return -1;
    ts_buf_puts(b, "))");
    return 0;
}

static int put_op_call(Printer *P, TsBuf *b, const TsNode *n)
{
    const TsOperator *op = n->op;
    const TsSchema *s = op ? op->schema : NULL;
    put_op_name(b, n->kind);
    ts_buf_puts(b, "(");
    size_t n_out = 0;
    size_t keep = s ? necessary_args(s, n, &n_out) : n->n_inputs;
    for (size_t i = 0; i < keep; i++) {
        const char *v = use_of(P, n->inputs[i]);
        if (!v)
            return -1;
        ts_buf_puts(b, i ? ", " : "");
        if (s && i < s->n_args && s->args[i].kwarg_only)
            ts_buf_printf(b, "%s=", s->args[i].name);
        ts_buf_puts(b, v);
    }
    for (size_t i = s ? s->n_args - n_out : 0; s && i < s->n_args && i < n->n_inputs; i++) {
        const char *v = use_of(P, n->inputs[i]);
        if (!v)
            return -1;
        ts_buf_printf(b, "%s%s=%s", keep || i > s->n_args - n_out ? ", " : "",
                      s->args[i].name, v);
    }
    ts_buf_puts(b, ")");
    return 0;
}

/* name(a, b, ): the form PyTorch writes calls of functions and methods in. */
static int put_call_args(Printer *P, TsBuf *b, const TsNode *n, size_t first)
{
    ts_buf_puts(b, "(");
    for (size_t i = first; i < n->n_inputs; i++) {
        const char *v = use_of(P, n->inputs[i]);
        if (!v)
            return -1;
        ts_buf_printf(b, "%s, ", v);
    }
    ts_buf_puts(b, ")");
    return 0;
}

/* A static method is printed as a function of its class's module, as PyTorch does. */
static bool is_static_method(const TsFunction *f)
{
    return f->owner && !ts_type_has_method(f->owner, f->name);
}

/* The function a prim::CallFunction calls, or NULL (any other node, or no such function). */
static const TsFunction *callee_of(const Printer *P, const TsNode *n)
{
    if (strcmp(n->kind, "prim::CallFunction") != 0)
        return NULL;
    const char *name = attr_name(n);
    return name ? ts_unit_find(P->p->unit, name) : NULL;
}

/* A function's qualified name as calls write it. */
int pp_callee_name(TsPyPrinter *p, TsBuf *b, const TsFunction *f, TsError *err)
{
    if (pp_use_function(p, f, err))
        return -1;
    if (is_static_method(f)) {
        const char *owner = ts_type_name(f->owner), *dot = owner ? strrchr(owner, '.') : NULL;
        ts_buf_printf(b, "%.*s.%s", dot ? (int)(dot - owner) : 0, owner ? owner : "", f->name);
    } else {
        ts_buf_puts(b, f->qualname);
    }
    return 0;
}

static int put_callee_name(Printer *P, TsBuf *b, const TsFunction *f)
{
    return pp_callee_name(P->p, b, f, P->err);
}

/* What a prim::CallFunction calls, as code: its hoisted name, or the function's name. */
static int put_callee(Printer *P, TsBuf *b, const TsNode *n)
{
    const TsFunction *f = callee_of(P, n);
    if (!f) {
        const char *name = attr_name(n);
        return ts_error_at(P->err, TS_ERR_RUNTIME, n->range, "python printer: no function "
                           "%s to call", name ? name : "(unnamed)");
    }
    uintptr_t hoisted;
    if (P->callees && ts_ptrmap_get(P->callees, f, &hoisted)) {
        ts_buf_puts(b, (const char *)hoisted);
        return 0;
    }
    return put_callee_name(P, b, f);
}

static int put_call_function(Printer *P, TsBuf *b, const TsNode *n)
{
    return put_callee(P, b, n) ? -1 : put_call_args(P, b, n, 0);
}

static int put_index(Printer *P, TsBuf *b, const TsNode *n)
{
    const char *x = use_of(P, n->inputs[0]);
    const char *i = x ? use_of(P, n->inputs[1]) : NULL;
    if (!i)
        return -1;
    ts_buf_printf(b, pp_is_identifier(x) ? "%s[%s]" : "(%s)[%s]", x, i);
    return 0;
}

/* f(a, b) for builtins printed by their Python name. */
static int put_builtin(Printer *P, TsBuf *b, const char *name, const TsNode *n)
{
    ts_buf_printf(b, "%s(", name);
    if (put_list(P, b, n->inputs, n->n_inputs))
        return -1;
    ts_buf_puts(b, ")");
    return 0;
}

/* annotate(T, [..]) / annotate(T, {..}) around a literal whose type its items do not tell. */
static int put_container(Printer *P, TsBuf *b, const TsNode *n, bool dict)
{
    const TsType *t = n->outputs[0]->type;
    bool annotate = n->n_inputs == 0 || !pp_inferable(ts_type_elem(t, 0)) ||
                    (dict && !pp_inferable(ts_type_elem(t, 1)));
    if (annotate) {
        ts_buf_puts(b, "annotate(");
        pp_type(b, t);
        ts_buf_puts(b, ", ");
    }
    ts_buf_puts(b, dict ? "{" : "[");
    for (size_t i = 0; i < n->n_inputs; i++) {
        const char *v = use_of(P, n->inputs[i]);
        if (!v)
            return -1;
        ts_buf_printf(b, "%s%s", i == 0 ? "" : dict && i % 2 ? ": " : ", ", v);
    }
    ts_buf_puts(b, dict ? "}" : "]");
    if (annotate)
        ts_buf_puts(b, ")");
    return 0;
}

static int put_isinstance(Printer *P, TsBuf *b, const TsNode *n)
{
    const TsAttr *a = ts_node_attr(n, ts_symbol("attr::types"));
    const char *x = use_of(P, n->inputs[0]);
    if (!x)
        return -1;
    if (!a || (a->kind != TS_ATTR_TYPE && a->kind != TS_ATTR_TYPES))
        return ts_error_at(P->err, TS_ERR_RUNTIME, n->range, "isinstance without types");
    ts_buf_printf(b, "isinstance(%s, ", x);
    if (a->kind == TS_ATTR_TYPE || a->n == 1) {
        pp_type(b, a->kind == TS_ATTR_TYPE ? a->u.ty : a->u.tys[0]);
    } else {
        ts_buf_puts(b, "(");
        for (size_t i = 0; i < a->n; i++) {
            ts_buf_puts(b, i ? ", " : "");
            pp_type(b, a->u.tys[i]);
        }
        ts_buf_puts(b, ")");
    }
    ts_buf_puts(b, ")");
    return 0;
}

/* "annotate(T, x)" for the implicit conversions; "unchecked_cast(T, x)". */
static int put_typed_form(Printer *P, TsBuf *b, const char *form, const TsNode *n,
                          const char *suffix)
{
    const char *x = use_of(P, n->inputs[0]);
    if (!x)
        return -1;
    ts_buf_printf(b, "%s(", form);
    pp_type(b, n->outputs[0]->type);
    ts_buf_printf(b, ", %s%s)", x, suffix);
    return 0;
}

static int put_constant(Printer *P, TsBuf *b, const TsNode *n)
{
    TsValue v;
    if (ts_constant_value(n, &v, P->err))
        return -1;
    int rc = pp_value(P->p, b, v, P->err);
    ts_value_release(v);
    return rc;
}

static int put_tuple(Printer *P, TsBuf *b, const TsNode *n)
{
    const TsType *t = n->outputs[0]->type;
    if (ts_type_name(t))
        ts_buf_puts(b, ts_type_name(t));
    ts_buf_puts(b, "(");
    if (put_list(P, b, n->inputs, n->n_inputs))
        return -1;
    ts_buf_puts(b, n->n_inputs == 1 ? ",)" : ")");
    return 0;
}

static int put_getattr(Printer *P, TsBuf *b, const TsNode *n)
{
    const char *name = attr_name(n);
    const char *obj = name ? use_of(P, n->inputs[0]) : NULL;
    if (!obj)
        return P->err->code ? -1 : ts_error_at(P->err, TS_ERR_RUNTIME, n->range,
                                               "prim::GetAttr without a name");
    if (pp_is_identifier(name)) {
        ts_buf_printf(b, "%s.%s", obj, name);
    } else {
        ts_buf_printf(b, "getattr(%s, ", obj);
        ts_ir_put_quoted(b, name, strlen(name), true);
        ts_buf_puts(b, ")");
    }
    return 0;
}

static int put_rhs(Printer *P, TsBuf *b, const TsNode *n)
{
    const char *k = n->kind;
    size_t nin = n->n_inputs;
    if (is_kind(n, P->k_constant))
        return put_constant(P, b, n);
    if (strcmp(k, "prim::Uninitialized") == 0) {
        ts_buf_puts(b, "uninitialized(");
        pp_type(b, n->outputs[0]->type);
        ts_buf_puts(b, ")");
        return 0;
    }
    if (nin == 1 && (strcmp(k, "aten::ScalarImplicit") == 0 ||
                     strcmp(k, "aten::FloatImplicit") == 0 ||
                     strcmp(k, "aten::IntImplicit") == 0))
        return put_typed_form(P, b, "annotate", n, "");
    if (nin == 1 && strcmp(k, "prim::unchecked_cast") == 0)
        return put_typed_form(P, b, "unchecked_cast", n, "");
    if (nin >= 1 && strcmp(k, "prim::tolist") == 0)
        return put_typed_form(P, b, "annotate", n, ".tolist()");
    static const char *const builtins[][2] = {
        { "aten::Int", "int" }, { "aten::Float", "float" }, { "aten::Bool", "bool" },
        { "aten::str", "str" }, { "prim::Print", "print" }, { "aten::sorted", "sorted" },
    };
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strcmp(k, builtins[i][0]) == 0)
            return put_builtin(P, b, builtins[i][1], n);
    if (nin == 2 && strcmp(k, "aten::__getitem__") == 0)
        return put_index(P, b, n);
    if (strcmp(k, "prim::TupleConstruct") == 0)
        return put_tuple(P, b, n);
    if (nin == 2 && strcmp(k, "prim::TupleIndex") == 0) {
        const char *t = use_of(P, n->inputs[0]), *i = t ? use_of(P, n->inputs[1]) : NULL;
        if (!i)
            return -1;
        ts_buf_printf(b, "(%s)[%s]", t, i);
        return 0;
    }
    if (nin == 1 && strcmp(k, "prim::TupleSlice") == 0) {
        const TsAttr *beg = ts_node_attr(n, ts_symbol("attr::beg"));
        const TsAttr *end = ts_node_attr(n, ts_symbol("attr::end"));
        const char *t = use_of(P, n->inputs[0]);
        if (!t || !beg || !end)
            return t ? ts_error_at(P->err, TS_ERR_RUNTIME, n->range, "malformed TupleSlice")
                     : -1;
        ts_buf_printf(b, "(%s)[%" PRId64 ":%" PRId64 "]", t, beg->u.i, end->u.i);
        return 0;
    }
    if (strcmp(k, "prim::ListConstruct") == 0)
        return put_container(P, b, n, false);
    if (strcmp(k, "prim::DictConstruct") == 0)
        return put_container(P, b, n, true);
    if (strcmp(k, "prim::CreateObject") == 0) {
        const char *cls = n->n_outputs == 1 ? ts_type_name(n->outputs[0]->type) : NULL;
        if (!cls)
            return ts_error_at(P->err, TS_ERR_RUNTIME, n->range, "prim::CreateObject of no class");
        ts_buf_printf(b, "%s.__new__(%s)", cls, cls);
        return 0;
    }
    if (nin == 1 && strcmp(k, "prim::GetAttr") == 0)
        return put_getattr(P, b, n);
    if (strcmp(k, "prim::CallFunction") == 0)
        return put_call_function(P, b, n);
    if (nin >= 1 && strcmp(k, "prim::CallMethod") == 0) {
        const char *self = use_of(P, n->inputs[0]), *name = attr_name(n);
        if (!self || !name)
            return self ? ts_error_at(P->err, TS_ERR_RUNTIME, n->range, "malformed "
                                      "prim::CallMethod") : -1;
        ts_buf_printf(b, "(%s).%s", self, name);
        return put_call_args(P, b, n, 1);
    }
    if (nin == 1 && strcmp(k, "aten::_unwrap_optional") == 0 &&
        ts_type_kind(n->inputs[0]->type) == TS_TYPE_NONE) {
        /* unwrap_optional(None) could not be typed again: annotate its argument */
        ts_buf_puts(b, "torch._unwrap_optional(annotate(Optional[");
        pp_type(b, n->outputs[0]->type);
        ts_buf_printf(b, "], %s))", use_of(P, n->inputs[0]));
        return 0;
    }
    if (nin == 1 && is_kind(n, P->k_isinstance))
        return put_isinstance(P, b, n);
    if (nin == 1 && (strcmp(k, "prim::EnumValue") == 0 || strcmp(k, "prim::EnumName") == 0)) {
        const char *e = use_of(P, n->inputs[0]);
        if (!e)
            return -1;
        ts_buf_printf(b, "(%s).%s", e, strcmp(k, "prim::EnumValue") == 0 ? "value" : "name");
        return 0;
    }
    if (nin > 2 && strcmp(k, "aten::percentFormat") == 0)
        return put_percent_format(P, b, n);
    return put_op_call(P, b, n);
}

static char *rhs_of(Printer *P, const TsNode *n)
{
    TsBuf b = TS_BUF_INIT;
    if (put_rhs(P, &b, n)) {
        ts_buf_free(&b);
        return NULL;
    }
    return ts_buf_take(&b, P->err);
}

/* ---- functions --------------------------------------------------------------------------- */

/* A default value: a broadcasting list's scalar default (int[2] x=1) is the list it means. */
static int put_default(Printer *P, const TsArg *a)
{
    TsValue v = a->default_value;
    bool scalar = v.tag == TS_TAG_INT || v.tag == TS_TAG_DOUBLE || v.tag == TS_TAG_BOOL;
    ts_buf_puts(P->out, "=");
    if (!(ts_type_kind(a->type) == TS_TYPE_LIST && scalar && a->fixed_size > 0))
        return pp_value(P->p, P->out, v, P->err);
    ts_buf_puts(P->out, "[");
    for (long i = 0; i < a->fixed_size; i++) {
        ts_buf_puts(P->out, i ? ", " : "");
        if (pp_value(P->p, P->out, v, P->err))
            return -1;
    }
    ts_buf_puts(P->out, "]");
    return 0;
}

static int print_signature(Printer *P, const TsFunction *f)
{
    const TsSchema *s = f->schema;
    const TsBlock *top = ts_graph_block(f->graph);
    if (s->n_args != top->param->n_outputs)
        return ts_error_set(P->err, TS_ERR_RUNTIME, "python printer: %s has %zu arguments "
                            "but its graph %zu inputs", f->qualname, s->n_args,
                            top->param->n_outputs);
    indent(P);
    ts_buf_printf(P->out, "def %s(", f->name);
    for (size_t i = 0; i < s->n_args; i++) {
        const TsArg *a = &s->args[i];
        if (pp_use_type(P->p, a->type, P->err))
            return -1;
        const char *name = pp_gen_name(P->file, &P->used, a->name ? a->name : "_", P->err);
        if (!name || set_ident(P, top->param->outputs[i], name))
            return -1;
        ts_buf_printf(P->out, "%s%s: ", i ? ",\n    " : "", name);
        pp_type(P->out, a->type);
        if (a->has_default && put_default(P, a))
            return -1;
    }
    const TsType *ret = s->n_returns ? s->returns[0].type : ts_type_none();
    if (pp_use_type(P->p, ret, P->err))
        return -1;
    ts_buf_puts(P->out, ") -> ");
    pp_type(P->out, ret);
    ts_buf_puts(P->out, ":\n");
    return 0;
}

int pp_function(TsPyPrinter *p, PyFile *file, const TsFunction *f, int level, TsError *err)
{
    const TsGraph *g = f->graph;
    TsGraph *copy = NULL;
    if (pp_needs_tidying(g) && !(g = copy = pp_tidy_copy(g, err)))
        return -1;
    Printer P = {
        .p = p, .file = file, .out = &file->text, .level = level, .err = err,
        .k_constant = ts_symbol("prim::Constant"), .k_return = ts_symbol("prim::Return"),
        .k_loop = ts_symbol("prim::Loop"), .k_if = ts_symbol("prim::If"),
        .k_fork = ts_symbol("prim::fork"), .k_isinstance = ts_symbol("prim::isinstance"),
        .k_enter = ts_symbol("prim::Enter"),
    };
    const TsFunction view = { .qualname = f->qualname, .name = f->name, .graph = (TsGraph *)g,
                              .schema = f->schema, .owner = f->owner };
    int rc = print_signature(&P, &view);
    if (rc == 0)
        rc = print_body(&P, ts_graph_block(g));
    if (rc == 0)
        rc = ts_buf_check(P.out, err);
    for (size_t i = 0; i < P.n_strs; i++)
        free(P.strs[i]);
    free(P.strs);
    ts_ptrmap_free(&P.used);
    ts_ptrmap_free(&P.inlined);
    ts_ptrmap_free(&P.idents);
    ts_ptrmap_free(&P.exprs);
    ts_ptrmap_free(&P.split);
    ts_graph_free(copy);
    return rc;
}
