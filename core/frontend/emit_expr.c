/* emit_expr.c — expressions: literals, operators, conditions, displays, subscripts.
 *
 * Every operator goes through the operator table by name (`a + b` is aten::add, `x in xs`
 * is aten::__contains__ with the container first), so the overload chosen is the one whose
 * schema accepts the operands (ir/match.c). Conditions come back as a TsCond: the bool, the
 * Optional/isinstance refinements it proves on each side, and a compile-time answer when
 * there is one (`x is None` for an x that cannot be None, `torch.jit.is_scripting()`), in
 * which case the emitter compiles only the branch that runs, as PyTorch does.
 * Tuples are structural: `t + u`, slices and constant indices build new tuples at compile
 * time; a run-time index needs elements of one type. `"fmt" % x` is aten::percentFormat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"
#include "frontend/lexer.h"

/* ---- small builders ----------------------------------------------------------------- */

TsNode *ts_emit_node(TsEmitter *e, const char *kind, size_t n_in, TsIrValue *const *in,
                     size_t n_out, TsSourceRange range)
{
    TsNode *n = ts_graph_create(e->g, ts_symbol(kind), n_out, e->err);
    if (!n)
        return NULL;
    for (size_t i = 0; i < n_in; i++)
        if (ts_node_add_input(n, in[i], e->err) != 0) {
            ts_node_destroy(n, NULL);
            return NULL;
        }
    ts_node_set_range(n, range);
    return ts_graph_insert(e->g, n);
}

TsIrValue *ts_emit_const(TsEmitter *e, TsValue v, TsSourceRange range)
{
    TsIrValue *r = ts_graph_insert_constant(e->g, v, range, e->err);
    ts_value_release(v);
    return r;
}

TsIrValue *ts_emit_str_const(TsEmitter *e, const char *s, TsSourceRange range)
{
    TsStr *str = ts_str_from_cstr(s, e->err);
    return str ? ts_emit_const(e, ts_str_value(str), range) : NULL;
}

/* Returns an operator may name and still get a named tuple (schemas have at most a few). */
#define MAX_NAMED_RETURNS 16

TsIrValue *ts_emit_op(TsEmitter *e, const char *op, size_t n, const TsNamedValue *args,
                      TsSourceRange range)
{
    TsNode *node = ts_graph_insert_op(e->g, e->c->ops, op, n, args, range, e->err);
    if (!node)
        return NULL;
    if (node->n_outputs == 0)
        return ts_emit_const(e, ts_none(), range);
    if (node->n_outputs == 1)
        return node->outputs[0];
    /* several returns: PyTorch packs them into a tuple, whose elements have the returns'
     * names when all of them have one (torch.max(x, 0).values) */
    TsIrValue *tup = ts_emit_tuple(e, node->n_outputs, node->outputs, range);
    const TsSchema *s = node->op ? ((const TsOperator *)node->op)->schema : NULL;
    if (!tup || !s || s->n_returns != node->n_outputs)
        return tup;
    const char *names[MAX_NAMED_RETURNS];
    const TsType *types[MAX_NAMED_RETURNS];
    for (size_t i = 0; i < s->n_returns; i++) {
        if (i >= MAX_NAMED_RETURNS || !s->returns[i].name)
            return tup;
        names[i] = s->returns[i].name;
        types[i] = node->outputs[i]->type;
    }
    const TsType *t = ts_type_tuple_fields(s->n_returns, names, types);
    if (!t) {
        ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    tup->type = t;
    return tup;
}

TsIrValue *ts_emit_op2(TsEmitter *e, const char *op, TsIrValue *a, TsIrValue *b,
                       TsSourceRange range)
{
    TsNamedValue args[2] = { { NULL, a, range }, { NULL, b, range } };
    return ts_emit_op(e, op, b ? 2 : 1, args, range);
}

TsIrValue *ts_emit_tuple(TsEmitter *e, size_t n, TsIrValue *const *items, TsSourceRange r)
{
    const TsType *stack[16] = { 0 };
    const TsType **types = n <= 16 ? stack : malloc(n * sizeof *types);
    if (!types) {
        ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        types[i] = items[i]->type;
    const TsType *t = ts_type_tuple(n, types);
    if (types != stack)
        free(types);
    if (!t) {   /* the tuple type could not be interned */
        ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    TsNode *node = ts_emit_node(e, "prim::TupleConstruct", n, items, 1, r);
    if (!node)
        return NULL;
    node->outputs[0]->type = t;
    return node->outputs[0];
}

TsIrValue *ts_emit_list(TsEmitter *e, const TsType *elem, size_t n, TsIrValue *const *items,
                        TsSourceRange r)
{
    TsNode *node = ts_emit_node(e, "prim::ListConstruct", n, items, 1, r);
    if (!node)
        return NULL;
    node->outputs[0]->type = ts_type_list(elem);
    return node->outputs[0];
}

TsIrValue *ts_emit_unchecked_cast(TsEmitter *e, TsIrValue *v, const TsType *t)
{
    TsSourceRange none = { 0 };
    TsNode *n = ts_emit_node(e, "prim::unchecked_cast", 1, &v, 1, none);
    if (!n)
        return NULL;
    n->outputs[0]->type = t;
    return n->outputs[0];
}

/* v as a value of type `to` where TorchScript converts implicitly (a subtype as is, a
 * tuple literal element-wise is already typed), else an error PyTorch's way. */
TsIrValue *ts_emit_convert(TsEmitter *e, TsIrValue *v, const TsType *to, TsSourceRange r)
{
    if (!to || ts_type_is_subtype_of(v->type, to))
        return v;
    char a[256], b[256];
    ts_emit_error(e, r, "Expected a value of type '%s' but instead found type '%s'",
                  ts_type_text(to, a, sizeof a), ts_type_text(v->type, b, sizeof b));
    return NULL;
}

int ts_emit_insert_refinements(TsEmitter *e, const TsRefineSet *rs, TsSourceRange r)
{
    for (size_t i = 0; i < rs->n; i++) {
        TsVar *var = ts_env_find(e, rs->items[i].name);
        /* a refinement only narrows: a branch may already have narrowed further */
        if (!var || var->error || !var->type ||
            ts_type_is_subtype_of(var->type, rs->items[i].type))
            continue;
        TsIrValue *v = ts_env_load(e, rs->items[i].name, r);
        TsIrValue *c = v ? ts_emit_unchecked_cast(e, v, rs->items[i].type) : NULL;
        if (!c || ts_env_store(e, rs->items[i].name, c, r) != 0)
            return -1;
    }
    return 0;
}

/* ---- refinement sets ---------------------------------------------------------------- */

static void refine_add(TsRefineSet *s, const char *name, const TsType *t)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->items[i].name == name) {
            s->items[i].type = t;
            return;
        }
    if (s->n < TS_MAX_REFINE)
        s->items[s->n++] = (TsRefinement){ name, t };
}

/* a ∪ b: both hold (the refinements of "a and b" when true). */
static TsRefineSet refine_union(const TsRefineSet *a, const TsRefineSet *b)
{
    TsRefineSet r = *a;
    for (size_t i = 0; i < b->n; i++)
        refine_add(&r, b->items[i].name, b->items[i].type);
    return r;
}

/* a ∩ b: what holds either way. */
static TsRefineSet refine_intersect(const TsRefineSet *a, const TsRefineSet *b)
{
    TsRefineSet r = { .n = 0 };
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++)
            if (a->items[i].name == b->items[j].name && a->items[i].type == b->items[j].type)
                refine_add(&r, a->items[i].name, a->items[i].type);
    return r;
}

/* ---- conditions ------------------------------------------------------------------- */

TsIrValue *ts_emit_to_bool(TsEmitter *e, TsIrValue *v, TsSourceRange range)
{
    TsTypeKind k = ts_type_kind(v->type);
    if (k == TS_TYPE_BOOL)
        return v;
    if (k == TS_TYPE_CLASS || k == TS_TYPE_MODULE) {
        TsSugared out;
        TsClassInfo *ci = ts_compiler_class_of_type(e->c, v->type);
        if (ci && !ts_class_method(ci, "__bool__")) {   /* __len__ does not count */
            char b[256];
            return ts_emit_error(e, range, "Could not cast value of type %s to bool",
                                 ts_type_text(v->type, b, sizeof b)), NULL;
        }
        if (ts_sugar_call_method(e, v, "__bool__", 0, NULL, range, &out) != 0)
            return NULL;
        return ts_sugar_as_value(e, &out, range);
    }
    if (k == TS_TYPE_INT || k == TS_TYPE_FLOAT || k == TS_TYPE_TENSOR)
        return ts_emit_op2(e, "aten::Bool", v, NULL, range);
    if (k == TS_TYPE_NUMBER) {
        /* PyTorch goes through int: a Scalar 0.5 (t.item() of a float tensor) is false */
        TsIrValue *i = ts_emit_op2(e, "aten::Int", v, NULL, range);
        return i ? ts_emit_op2(e, "aten::Bool", i, NULL, range) : NULL;
    }
    if (k == TS_TYPE_STR || k == TS_TYPE_LIST || k == TS_TYPE_DICT) {
        /* a container is true when it is not empty */
        TsIrValue *len = ts_emit_op2(e, "aten::len", v, NULL, range);
        TsIrValue *zero = len ? ts_emit_const(e, ts_int(0), range) : NULL;
        return zero ? ts_emit_op2(e, "aten::ne", len, zero, range) : NULL;
    }
    char b[256];
    ts_emit_error(e, range, "Could not cast value of type %s to bool",
                  ts_type_text(v->type, b, sizeof b));
    return NULL;
}

/* Can a value of type t be None at run time? */
static bool can_be_none(const TsType *t)
{
    TsTypeKind k = ts_type_kind(t);
    if (k == TS_TYPE_NONE || k == TS_TYPE_OPTIONAL || k == TS_TYPE_ANY)
        return true;
    if (k == TS_TYPE_UNION)
        for (size_t i = 0; i < ts_type_num_elems(t); i++)
            if (ts_type_kind(ts_type_elem(t, i)) == TS_TYPE_NONE)
                return true;
    return false;
}

/* t without None (Optional[T] -> T, Union[A, B, None] -> Union[A, B]). */
static const TsType *remove_none(const TsType *t)
{
    if (ts_type_kind(t) == TS_TYPE_OPTIONAL)
        return ts_type_elem(t, 0);
    if (ts_type_kind(t) == TS_TYPE_UNION) {
        const TsType *m[32];
        size_t n = 0;
        for (size_t i = 0; i < ts_type_num_elems(t) && n < 32; i++)
            if (ts_type_kind(ts_type_elem(t, i)) != TS_TYPE_NONE)
                m[n++] = ts_type_elem(t, i);
        return ts_type_union(n, m);
    }
    return t;
}

static TsIrValue *bool_const(TsEmitter *e, bool b, TsSourceRange r)
{
    return ts_emit_const(e, ts_bool(b), r);
}

/* `a is b` / `a is not b`, with the static answer when None is involved. */
static int emit_is(TsEmitter *e, const TsTree *t, bool negate, TsCond *out)
{
    TsIrValue *a = ts_emit_expr(e, t->kids[0], NULL);
    TsIrValue *b = a ? ts_emit_expr(e, t->kids[1], NULL) : NULL;
    if (!b)
        return -1;
    memset(out, 0, sizeof *out);
    out->static_if = -1;
    bool a_none = ts_type_kind(a->type) == TS_TYPE_NONE;
    bool b_none = ts_type_kind(b->type) == TS_TYPE_NONE;
    if ((a_none && !can_be_none(b->type)) || (b_none && !can_be_none(a->type)))
        out->static_if = negate;
    else if (a_none && b_none)
        out->static_if = !negate;
    if (out->static_if >= 0) {
        out->value = bool_const(e, out->static_if, t->range);
        return out->value ? 0 : -1;
    }
    /* the interpreter runs identity itself: no schema in the operator table is needed */
    TsIrValue *ab[2] = { a, b };
    TsNode *n = ts_emit_node(e, negate ? "aten::__isnot__" : "aten::__is__", 2, ab, 1,
                             t->range);
    if (!n)
        return -1;
    n->outputs[0]->type = ts_type_bool();
    out->value = n->outputs[0];
    /* x is None / x is not None on a local name refines it */
    const TsTree *var = b_none ? t->kids[0] : a_none ? t->kids[1] : NULL;
    TsIrValue *vv = b_none ? a : b;
    if (var && var->kind == TS_TREE_NAME && ts_env_find(e, ts_symbol(var->str))) {
        const char *name = ts_symbol(var->str);
        TsRefineSet *not_none = negate ? &out->on_true : &out->on_false;
        TsRefineSet *is_none = negate ? &out->on_false : &out->on_true;
        refine_add(not_none, name, remove_none(vv->type));
        if (ts_type_kind(vv->type) == TS_TYPE_OPTIONAL)
            refine_add(is_none, name, ts_type_none());
    }
    return 0;
}

/* isinstance(x, T): static when x's type decides it; refines a local name. */
static int isinstance_types(TsEmitter *e, const TsTree *spec, const TsType **out, size_t *n)
{
    if (spec->kind == TS_TREE_TUPLE) {
        for (size_t i = 0; i < spec->n_kids; i++)
            if (isinstance_types(e, spec->kids[i], out, n) != 0)
                return -1;
        return 0;
    }
    const TsType *t;
    /* PyTorch resolves the bare builtins list and tuple, but not dict, and refuses the
     * typing constructors without their contained types. */
    const char *bare = spec->kind == TS_TREE_NAME ? spec->str : "";
    if (strcmp(bare, "list") == 0)
        t = ts_type_any_list();
    else if (strcmp(bare, "tuple") == 0)
        t = ts_type_any_tuple();
    else if (strcmp(bare, "dict") == 0)
        return ts_emit_error(e, spec->range, "Unknown type name 'dict'");
    else if (strcmp(bare, "List") == 0 || strcmp(bare, "Tuple") == 0)
        return ts_emit_error(e, spec->range, "Attempted to use %s without a contained type. "
                             "Please add a contained type, e.g. %s[int]", bare, bare);
    else if (strcmp(bare, "Dict") == 0)
        return ts_emit_error(e, spec->range, "Attempted to use Dict without contained types. "
                             "Please add contained type, e.g. Dict[int, int]");
    else if (!(t = ts_emit_type(e, spec)))
        return -1;
    if (*n < 16)
        out[(*n)++] = t;
    return 0;
}

static bool is_instance_of(const TsType *v, const TsType *t)
{
    if (ts_type_kind(t) == TS_TYPE_DICT && ts_type_elem(t, 0) == ts_type_any())
        return ts_type_kind(v) == TS_TYPE_DICT;
    return ts_type_is_subtype_of(v, t);
}

/* The members of a Union or Optional t that are (keep) or are not (!keep) instances of one
 * of the n types: what isinstance proves when it holds or fails; NULL when that is not a
 * narrower type. */
static const TsType *union_members(const TsType *t, const TsType *const *types, size_t n,
                                   bool keep)
{
    const TsType *members[64], *rest[64];
    size_t nm = 0, nr = 0;
    if (ts_type_kind(t) == TS_TYPE_OPTIONAL) {
        members[nm++] = ts_type_elem(t, 0);
        members[nm++] = ts_type_none();
    } else if (ts_type_kind(t) == TS_TYPE_UNION) {
        for (size_t i = 0; i < ts_type_num_elems(t) && nm < 64; i++)
            members[nm++] = ts_type_elem(t, i);
    } else {
        return NULL;
    }
    for (size_t i = 0; i < nm; i++) {
        bool instance = false;
        for (size_t k = 0; k < n; k++)
            instance = instance || is_instance_of(members[i], types[k]);
        if (instance == keep)
            rest[nr++] = members[i];
    }
    return nr == 0 || nr == nm ? NULL : nr == 1 ? rest[0] : ts_type_union(nr, rest);
}

int ts_emit_isinstance(TsEmitter *e, const TsTree *call, TsCond *out);
int ts_emit_isinstance(TsEmitter *e, const TsTree *call, TsCond *out)
{
    memset(out, 0, sizeof *out);
    out->static_if = -1;
    if (call->n_kids != 3)
        return ts_emit_error(e, call->range, "isinstance expects 2 arguments");
    TsIrValue *v = ts_emit_expr(e, call->kids[1], NULL);
    const TsType *types[16];
    size_t n = 0;
    if (!v || isinstance_types(e, call->kids[2], types, &n) != 0)
        return -1;
    bool always = false, possible = false;
    for (size_t i = 0; i < n; i++) {
        if (is_instance_of(v->type, types[i]))
            always = true;
        TsTypeKind k = ts_type_kind(v->type);
        if (k == TS_TYPE_UNION || k == TS_TYPE_OPTIONAL) {
            /* a member that may be one: isinstance(p, str) of an Optional[number] is
             * False, as in PyTorch */
            size_t nm = k == TS_TYPE_OPTIONAL ? 2 : ts_type_num_elems(v->type);
            for (size_t j = 0; j < nm; j++) {
                const TsType *m = k == TS_TYPE_OPTIONAL && j == 1 ? ts_type_none()
                                                                  : ts_type_elem(v->type, j);
                possible = possible || ts_type_kind(m) == TS_TYPE_ANY ||
                           is_instance_of(m, types[i]) || ts_type_is_subtype_of(types[i], m);
            }
        } else if (k == TS_TYPE_ANY || ts_type_is_subtype_of(types[i], v->type)) {
            possible = true;
        }
    }
    if (always || !possible) {
        out->static_if = always;
        out->value = bool_const(e, always, call->range);
        return out->value ? 0 : -1;
    }
    const TsType *refined = n == 1 ? types[0] : ts_type_union(n, types);
    TsNode *node = ts_emit_node(e, "prim::isinstance", 1, &v, 1, call->range);
    if (!node || ts_node_set_type(node, ts_symbol("attr::types"), refined, e->err) != 0)
        return -1;
    node->outputs[0]->type = ts_type_bool();
    out->value = node->outputs[0];
    if (call->kids[1]->kind == TS_TREE_NAME) {
        /* isinstance(x, list) of a Union[List[int], int] is List[int] */
        const TsType *members = union_members(v->type, types, n, true);
        const char *name = ts_symbol(call->kids[1]->str);
        refine_add(&out->on_true, name, members ? members : refined);
        const TsType *rest = union_members(v->type, types, n, false);
        if (rest)
            refine_add(&out->on_false, name, rest);
    }
    return 0;
}

/* prim::If(cond) with one output computed by each branch under the refinements. */
typedef TsIrValue *(*BranchFn)(TsEmitter *e, const void *arg);

static TsIrValue *emit_if_expr(TsEmitter *e, const TsCond *cond, BranchFn then_fn,
                               const void *then_arg, BranchFn else_fn, const void *else_arg,
                               TsSourceRange r, bool ternary)
{
    TsNode *n = ts_emit_node(e, "prim::If", 1, (TsIrValue *const *)&cond->value, 0, r);
    if (!n)
        return NULL;
    TsBlock *blocks[2];
    TsIrValue *outs[2];
    for (int i = 0; i < 2; i++) {
        if (!(blocks[i] = ts_node_add_block(n, e->err)))
            return NULL;
        if (ts_env_push(e, blocks[i], false) != 0)
            return NULL;
        ts_graph_set_insert_end(e->g, blocks[i]);
        int rc = ts_emit_insert_refinements(e, i ? &cond->on_false : &cond->on_true, r);
        outs[i] = rc ? NULL : i ? else_fn(e, else_arg) : then_fn(e, then_arg);
        ts_env_pop(e);
        if (!outs[i] || ts_block_add_output(blocks[i], outs[i], e->err) != 0)
            return NULL;
    }
    ts_graph_set_insert_point(e->g, n->next);
    const TsType *u = ts_type_unify(outs[0]->type, outs[1]->type, false);
    if (!u) {
        char a[256], b[256];
        ts_emit_error(e, r, "%s true branch has type %s but false branch has type %s",
                      ternary ? "if-expression's" : "Short-circuit",
                      ts_type_text(outs[0]->type, a, sizeof a),
                      ts_type_text(outs[1]->type, b, sizeof b));
        return NULL;
    }
    return ts_node_add_output(n, u, e->err);
}

static TsIrValue *branch_expr(TsEmitter *e, const void *arg)
{
    return ts_emit_expr(e, arg, NULL);
}

/* The right operand of and/or: a condition emitted inside a branch, kept for its
 * refinements. */
typedef struct CondArg {
    const TsTree *tree;
    TsCond cond;
} CondArg;

static TsIrValue *branch_cond(TsEmitter *e, const void *arg)
{
    CondArg *c = (CondArg *)arg;
    if (ts_emit_cond(e, c->tree, &c->cond) != 0)
        return NULL;
    return c->cond.value;
}

static TsIrValue *branch_const(TsEmitter *e, const void *arg)
{
    return bool_const(e, arg != NULL, (TsSourceRange){ 0 });
}

static int emit_short_circuit(TsEmitter *e, const TsTree *t, bool is_or, TsCond *out)
{
    TsCond lhs;
    if (ts_emit_cond(e, t->kids[0], &lhs) != 0)
        return -1;
    CondArg rhs_arg = { t->kids[1], { .static_if = -1 } };
    const TsCond *rhs_c = &rhs_arg.cond, *rhs = rhs_c;
    const void *konst = is_or ? (const void *)1 : NULL;
    memset(out, 0, sizeof *out);
    out->static_if = -1;
    if (is_or)
        out->value = emit_if_expr(e, &lhs, branch_const, konst, branch_cond, &rhs_arg, t->range,
                                  false);
    else
        out->value = emit_if_expr(e, &lhs, branch_cond, &rhs_arg, branch_const, konst, t->range,
                                  false);
    if (!out->value)
        return -1;
    if (is_or) {
        out->on_true = refine_intersect(&lhs.on_true, &rhs->on_true);
        out->on_false = refine_union(&lhs.on_false, &rhs->on_false);
        if (lhs.static_if >= 0 && rhs->static_if >= 0)
            out->static_if = lhs.static_if || rhs->static_if;
    } else {
        out->on_true = refine_union(&lhs.on_true, &rhs->on_true);
        out->on_false = refine_intersect(&lhs.on_false, &rhs->on_false);
        if (lhs.static_if == 0 || rhs->static_if == 0)
            out->static_if = 0;
        else if (lhs.static_if >= 0 && rhs->static_if >= 0)
            out->static_if = lhs.static_if && rhs->static_if;
    }
    return 0;
}

static bool is_call_to(const TsTree *t, const char *a, const char *b)
{
    if (t->kind != TS_TREE_CALL)
        return false;
    const TsTree *f = t->kids[0];
    if (!b)
        return f->kind == TS_TREE_NAME && strcmp(f->str, a) == 0;
    return f->kind == TS_TREE_ATTR && strcmp(f->kids[1]->str, b) == 0 &&
           ((f->kids[0]->kind == TS_TREE_ATTR && strcmp(f->kids[0]->kids[1]->str, a) == 0) ||
            (f->kids[0]->kind == TS_TREE_NAME && strcmp(f->kids[0]->str, a) == 0));
}

int ts_emit_cond(TsEmitter *e, const TsTree *t, TsCond *out)
{
    memset(out, 0, sizeof *out);
    out->static_if = -1;
    if (t->kind == TS_TREE_UNARY && t->op == TS_TK_NOT) {
        TsCond in;
        if (ts_emit_cond(e, t->kids[0], &in) != 0)
            return -1;
        out->on_true = in.on_false;
        out->on_false = in.on_true;
        out->static_if = in.static_if >= 0 ? !in.static_if : -1;
        if (out->static_if >= 0)
            out->value = bool_const(e, out->static_if, t->range);
        else
            out->value = ts_emit_op2(e, "aten::__not__", in.value, NULL, t->range);
        return out->value ? 0 : -1;
    }
    if (t->kind == TS_TREE_BINARY && (t->op == TS_TK_AND || t->op == TS_TK_OR))
        return emit_short_circuit(e, t, t->op == TS_TK_OR, out);
    if (t->kind == TS_TREE_BINARY && (t->op == TS_TK_IS || t->op == TS_TK_IS_NOT))
        return emit_is(e, t, t->op == TS_TK_IS_NOT, out);
    if (is_call_to(t, "isinstance", NULL) || is_call_to(t, "jit", "isinstance"))
        return ts_emit_isinstance(e, t, out);
    if (is_call_to(t, "jit", "is_scripting") || is_call_to(t, "torch", "is_scripting")) {
        out->static_if = 1;
        out->value = bool_const(e, true, t->range);
        return out->value ? 0 : -1;
    }
    if (t->kind == TS_TREE_TRUE || t->kind == TS_TREE_FALSE) {
        out->static_if = t->kind == TS_TREE_TRUE;
        out->value = bool_const(e, out->static_if, t->range);
        return out->value ? 0 : -1;
    }
    TsIrValue *v = ts_emit_expr(e, t, NULL);
    out->value = v ? ts_emit_to_bool(e, v, t->range) : NULL;
    return out->value ? 0 : -1;
}

/* ---- operators ---------------------------------------------------------------------- */

static const char *binop_name(int op)
{
    switch (op) {
    case '+': return "add";
    case '-': return "sub";
    case '*': return "mul";
    case '/': return "div";
    case TS_TK_FLOORDIV: return "floordiv";
    case '%': return "remainder";
    case TS_TK_POW: return "pow";
    case '@': return "matmul";
    case '&': return "__and__";
    case '|': return "__or__";
    case '^': return "__xor__";
    case TS_TK_LSHIFT: return "__lshift__";
    case TS_TK_RSHIFT: return "__rshift__";
    case TS_TK_EQ: return "eq";
    case TS_TK_NE: return "ne";
    case '<': return "lt";
    case TS_TK_LE: return "le";
    case '>': return "gt";
    case TS_TK_GE: return "ge";
    default: return NULL;
    }
}

/* The magic method a class may define for an operator. */
static const char *magic_name(int op)
{
    switch (op) {
    case '+': return "__add__";
    case '-': return "__sub__";
    case '*': return "__mul__";
    case '/': return "__truediv__";
    case '%': return "__mod__";
    case TS_TK_POW: return "__pow__";
    case '&': return "__and__";
    case '|': return "__or__";
    case '^': return "__xor__";
    case TS_TK_LSHIFT: return "__lshift__";
    case TS_TK_RSHIFT: return "__rshift__";
    case TS_TK_EQ: return "__eq__";
    case TS_TK_NE: return "__ne__";
    case '<': return "__lt__";
    case TS_TK_LE: return "__le__";
    case '>': return "__gt__";
    case TS_TK_GE: return "__ge__";
    default: return NULL;
    }
}

/* The in-place method an augmented assignment to an object calls (x += y: x.__iadd__(y),
 * or x.__add__(y) when its class has no __iadd__); PyTorch has one for these five only. */
static const char *aug_magic_name(int op)
{
    switch (op) {
    case '+': return "__iadd__";
    case '-': return "__isub__";
    case '*': return "__imul__";
    case '/': return "__itruediv__";
    case '%': return "__imod__";
    default: return NULL;
    }
}

/* a + b of two tuples is a new tuple of their elements, known at compile time. */
static TsIrValue *tuple_concat(TsEmitter *e, TsIrValue *a, TsIrValue *b, TsSourceRange r)
{
    size_t na = ts_type_num_elems(a->type), nb = ts_type_num_elems(b->type);
    TsIrValue *items[128];
    if (na + nb > 128)
        return ts_emit_error(e, r, "tuple too long"), NULL;
    for (size_t i = 0; i < na + nb; i++) {
        TsIrValue *src = i < na ? a : b;
        TsIrValue *ic = ts_emit_const(e, ts_int((int64_t)(i < na ? i : i - na)), r);
        if (!ic || !(items[i] = ts_emit_subscript_value(e, src, ic, r)))
            return NULL;
    }
    return ts_emit_tuple(e, na + nb, items, r);
}

/* "fmt" % x is aten::percentFormat(fmt, x), and "fmt" % (x, y) passes the tuple's
 * elements: aten::percentFormat(fmt, x, y). */
static TsIrValue *percent_format(TsEmitter *e, TsIrValue *fmt, TsIrValue *b, TsSourceRange r)
{
    TsNamedValue args[65];
    size_t n = 0;
    args[n++] = (TsNamedValue){ NULL, fmt, r };
    if (ts_type_kind(b->type) == TS_TYPE_TUPLE) {
        size_t nb = ts_type_num_elems(b->type);
        if (nb > 64)
            return ts_emit_error(e, r, "too many values to format"), NULL;
        for (size_t i = 0; i < nb; i++) {
            TsIrValue *ic = ts_emit_const(e, ts_int((int64_t)i), r);
            TsIrValue *x = ic ? ts_emit_subscript_value(e, b, ic, r) : NULL;
            if (!x)
                return NULL;
            args[n++] = (TsNamedValue){ NULL, x, r };
        }
    } else {
        args[n++] = (TsNamedValue){ NULL, b, r };
    }
    return ts_emit_op(e, "aten::percentFormat", n, args, r);
}

/* number OP tensor, for the operators TorchScript's builtin functions define on
 * (Scalar, Tensor): the tensor goes first, so it is never converted to a number —
 * a + t is t + a, a - t is -t + a, a * t is t * a, a / t is reciprocal(t) * a, and a
 * comparison flips (a < t is t > a). NULL with no error when op is not one of them. */
static TsIrValue *number_op_tensor(TsEmitter *e, int op, TsIrValue *a, TsIrValue *b,
                                   TsSourceRange r, bool *done)
{
    static const struct { int op; const char *name; } flip[] = {
        { '+', "aten::add" }, { '*', "aten::mul" }, { '<', "aten::gt" },
        { TS_TK_LE, "aten::ge" }, { '>', "aten::lt" }, { TS_TK_GE, "aten::le" },
        { TS_TK_EQ, "aten::eq" }, { TS_TK_NE, "aten::ne" },
    };
    TsTypeKind k = ts_type_kind(a->type);
    *done = false;
    if ((k != TS_TYPE_INT && k != TS_TYPE_FLOAT && k != TS_TYPE_COMPLEX) ||
        ts_type_kind(b->type) != TS_TYPE_TENSOR)
        return NULL;
    for (size_t i = 0; i < sizeof flip / sizeof *flip; i++)
        if (flip[i].op == op) {
            *done = true;
            return ts_emit_op2(e, flip[i].name, b, a, r);
        }
    if (op != '-' && op != '/')
        return NULL;
    *done = true;
    TsIrValue *u = ts_emit_op2(e, op == '-' ? "aten::neg" : "aten::reciprocal", b, NULL, r);
    return u ? ts_emit_op2(e, op == '-' ? "aten::add" : "aten::mul", u, a, r) : NULL;
}

TsIrValue *ts_emit_binop(TsEmitter *e, int op, TsIrValue *a, TsIrValue *b, TsSourceRange r,
                         bool inplace)
{
    bool done;
    TsIrValue *flipped = number_op_tensor(e, op, a, b, r, &done);
    if (done)
        return flipped;
    if (op == '+' && ts_type_kind(a->type) == TS_TYPE_TUPLE &&
        ts_type_kind(b->type) == TS_TYPE_TUPLE)
        return tuple_concat(e, a, b, r);
    if (op == '%' && !inplace && ts_type_kind(a->type) == TS_TYPE_STR)
        return percent_format(e, a, b, r);
    if (ts_is_object_type(a->type)) {
        const char *m = inplace ? aug_magic_name(op) : magic_name(op);
        if (inplace && !m) {
            ts_emit_error(e, r, "Unknown augmented assignment: %s", op == TS_TK_POW
                          ? "pow operator" : op == TS_TK_LSHIFT ? "<<" : op == TS_TK_RSHIFT
                          ? ">>" : op == '&' ? "&" : op == '|' ? "|" : op == '^' ? "^" : "?");
            return NULL;
        }
        TsClassInfo *ci = ts_compiler_class_of_type(e->c, a->type);
        const char *aug = m;
        if (inplace && ci && !ts_class_method(ci, m))
            m = magic_name(op);   /* without the in-place method, the plain one */
        if (inplace && ci && m && !ts_class_method(ci, m)) {
            ts_emit_error(e, r, "Cannot emit inplace op on %s since it does not define an %s "
                          "or %s method", ts_type_name(a->type), aug, m);
            return NULL;
        }
        if (m && ci) {   /* PyTorch looks the method up: a missing one is its error */
            TsNamedValue arg = { NULL, b, r };
            TsSugared out;
            if (ts_sugar_call_method(e, a, m, 1, &arg, r, &out) != 0)
                return NULL;
            return ts_sugar_as_value(e, &out, r);
        }
    }
    const char *name = binop_name(op);
    if (!name) {
        ts_emit_error(e, r, "unsupported binary operator");
        return NULL;
    }
    char full[64];
    if (inplace && op == '%') /* %= is aten::fmod in PyTorch 1.13 (see NOTES.md) */
        snprintf(full, sizeof full, "aten::fmod");
    else if (op == TS_TK_FLOORDIV && ts_type_kind(a->type) == TS_TYPE_TENSOR &&
             ts_type_kind(b->type) != TS_TYPE_BOOL)
        /* tensor // x is TorchScript's builtin floordiv(Tensor, x): torch.floor_divide */
        snprintf(full, sizeof full, "aten::floor_divide");
    else
        snprintf(full, sizeof full, "aten::%s", name);
    return ts_emit_op2(e, full, a, b, r);
}

/* An operand of a binary operator. A bare [] is PyTorch's empty list literal, a List[Tensor]
 * that schema matching gives the list type the overload wants (`xs == []` for a List[str]),
 * as sugared.c's emit_args does for a call's arguments. */
static TsIrValue *operand(TsEmitter *e, const TsTree *x)
{
    if (x->kind != TS_TREE_LIST || x->n_kids != 0)
        return ts_emit_expr(e, x, NULL);
    TsNode *n = ts_emit_node(e, "prim::EmptyListLiteral", 0, NULL, 1, x->range);
    if (!n)
        return NULL;
    n->outputs[0]->type = ts_type_list(ts_type_tensor());
    return n->outputs[0];
}

/* A real number literal (3, 1.5, -2.0) as a double. */
static bool real_literal(const TsTree *t, double *out)
{
    if (t->kind == TS_TREE_UNARY && t->op == TS_TK_NEG && t->n_kids == 1 &&
        real_literal(t->kids[0], out)) {
        *out = -*out;
        return true;
    }
    if (t->kind == TS_TREE_INT && !t->flag)
        *out = (double)t->ival;
    else if (t->kind == TS_TREE_FLOAT)
        *out = t->fval;
    else
        return false;
    return true;
}

/* `1.5+2.j` (how the printer writes a complex constant, as PyTorch's does) is one complex
 * constant, as PyTorch's constant propagation makes it: printed code reads back the same. */
static TsIrValue *complex_literal(TsEmitter *e, const TsTree *t)
{
    double re;
    if ((t->op != '+' && t->op != '-') || t->kids[1]->kind != TS_TREE_IMAG ||
        !real_literal(t->kids[0], &re))
        return NULL;
    double im = t->op == '-' ? -t->kids[1]->fval : t->kids[1]->fval;
    TsComplex *z = ts_complex_new(re, im, e->err);
    return z ? ts_emit_const(e, ts_obj_value(z, TS_TAG_COMPLEX), t->range) : NULL;
}

static TsIrValue *emit_binary(TsEmitter *e, const TsTree *t)
{
    if (t->op == TS_TK_AND || t->op == TS_TK_OR || t->op == TS_TK_IS ||
        t->op == TS_TK_IS_NOT) {
        TsCond c;
        return ts_emit_cond(e, t, &c) == 0 ? c.value : NULL;
    }
    TsIrValue *lit = complex_literal(e, t);
    if (lit || e->err->code)
        return lit;
    if (ts_sugar_reject_iterable(e, t->kids[0]) || ts_sugar_reject_iterable(e, t->kids[1]))
        return NULL;
    TsIrValue *a = operand(e, t->kids[0]);
    TsIrValue *b = a ? operand(e, t->kids[1]) : NULL;
    if (!b)
        return NULL;
    if (t->op == TS_TK_IN || t->op == TS_TK_NOT_IN) {
        TsIrValue *r;
        if (ts_is_object_type(b->type)) {
            TsNamedValue arg = { NULL, a, t->range };
            TsSugared out;
            if (ts_sugar_call_method(e, b, "__contains__", 1, &arg, t->range, &out) != 0)
                return NULL;
            r = ts_sugar_as_value(e, &out, t->range);
        } else if (ts_type_kind(b->type) == TS_TYPE_STR &&
                   ts_type_kind(a->type) == TS_TYPE_STR) {
            /* a substring test is b.find(a) != -1, as PyTorch defines str.__contains__ */
            TsIrValue *at = ts_emit_op2(e, "aten::find", b, a, t->range);
            TsIrValue *m1 = at ? ts_emit_const(e, ts_int(-1), t->range) : NULL;
            r = m1 ? ts_emit_op2(e, "aten::ne", at, m1, t->range) : NULL;
        } else {
            r = ts_emit_op2(e, "aten::__contains__", b, a, t->range);
        }
        if (r && t->op == TS_TK_NOT_IN)
            r = ts_emit_op2(e, "aten::__not__", r, NULL, t->range);
        return r;
    }
    return ts_emit_binop(e, t->op, a, b, t->range, false);
}

static TsIrValue *emit_unary(TsEmitter *e, const TsTree *t)
{
    const TsTree *x = t->kids[0];
    if (t->op == TS_TK_NOT) {
        TsCond c;
        return ts_emit_cond(e, t, &c) == 0 ? c.value : NULL;
    }
    if (t->op == TS_TK_NEG && x->kind == TS_TREE_INT && !x->flag)
        return ts_emit_const(e, ts_int((int64_t)(0 - (uint64_t)x->ival)), t->range);
    if (t->op == TS_TK_NEG && x->kind == TS_TREE_FLOAT)
        return ts_emit_const(e, ts_double(-x->fval), t->range);
    /* an archive's printer writes INT64_MIN as -9223372036854775808, which PyTorch's parser
     * reads as one literal (a program's source may not: it is out of range there) */
    if (t->op == TS_TK_NEG && x->kind == TS_TREE_INT && x->flag && e->c->archive &&
        ts_literal_is_2_63(x))
        return ts_emit_const(e, ts_int(INT64_MIN), t->range);
    TsIrValue *v = ts_emit_expr(e, x, NULL);
    if (!v || t->op == TS_TK_POS)
        return v;
    if (ts_is_object_type(v->type)) {   /* -x and ~x of an object: __neg__, __invert__ */
        TsSugared out;
        if (ts_sugar_call_method(e, v, t->op == TS_TK_NEG ? "__neg__" : "__invert__", 0, NULL,
                                 t->range, &out) != 0)
            return NULL;
        return ts_sugar_as_value(e, &out, t->range);
    }
    return ts_emit_op2(e, t->op == TS_TK_NEG ? "aten::neg" : "aten::bitwise_not", v, NULL,
                       t->range);
}

static TsIrValue *emit_ternary(TsEmitter *e, const TsTree *t, const TsType *expected)
{
    TsCond c;
    if (ts_emit_cond(e, t->kids[0], &c) != 0)
        return NULL;
    (void)expected;
    if (c.static_if >= 0)
        return ts_emit_expr(e, t->kids[c.static_if ? 1 : 2], NULL);
    return emit_if_expr(e, &c, branch_expr, t->kids[1], branch_expr, t->kids[2], t->range,
                        true);
}

/* ---- displays ----------------------------------------------------------------------- */

enum { MAX_ITEMS = 4096 };

TsIrValue **ts_emit_starred(TsEmitter *e, const TsTree *starred, size_t *n)
{
    TsIrValue *v = ts_emit_expr(e, starred->kids[0], NULL);
    if (!v)
        return NULL;
    TsTypeKind k = ts_type_kind(v->type);
    if (k != TS_TYPE_TUPLE) {
        char b[256];
        if (k == TS_TYPE_LIST)
            ts_emit_error(e, starred->range, "cannot statically infer the expected size of a "
                          "list in this context");
        else
            ts_emit_error(e, starred->range, "%s cannot be used as a tuple",
                          ts_type_text(v->type, b, sizeof b));
        return NULL;
    }
    *n = ts_type_num_elems(v->type);
    TsIrValue **items = malloc((*n ? *n : 1) * sizeof *items);
    TsNode *u = items ? ts_emit_node(e, "prim::TupleUnpack", 1, &v, *n, starred->range) : NULL;
    if (!u) {
        if (!items)
            ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        free(items);
        return NULL;
    }
    for (size_t i = 0; i < *n; i++) {
        u->outputs[i]->type = ts_type_elem(v->type, i);
        items[i] = u->outputs[i];
    }
    return items;
}

/* The items of a list or tuple display, a starred item *x giving the items of the tuple x. */
static TsIrValue **emit_items(TsEmitter *e, const TsTree *t, const TsType *expected, size_t *n)
{
    size_t cap = t->n_kids ? t->n_kids : 1;
    TsIrValue **vals = malloc(cap * sizeof *vals);
    *n = 0;
    if (!vals) {
        ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < t->n_kids; i++) {
        const TsTree *k = t->kids[i];
        size_t m = 1;
        TsIrValue *one = NULL, **items = &one;
        if (k->kind == TS_TREE_STARRED)
            items = ts_emit_starred(e, k, &m);
        else
            one = ts_emit_expr(e, k, expected);
        bool ok = items && (items != &one || one);
        if (ok && *n + m > MAX_ITEMS) {
            ts_emit_error(e, t->range, "too many elements in a literal");
            ok = false;
        } else if (ok && *n + m > cap) {
            TsIrValue **nv = realloc(vals, (*n + m + cap) * sizeof *vals);
            if (nv) {
                vals = nv;
                cap += *n + m;
            } else {
                ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
                ok = false;
            }
        }
        if (ok) {
            memcpy(vals + *n, items, m * sizeof *items);
            *n += m;
        }
        if (items != &one)
            free(items);
        if (!ok) {
            free(vals);
            return NULL;
        }
    }
    return vals;
}

/* The items are emitted without the annotation's element type (PyTorch 1.13 emits them
 * alone too: `x: List[List[int]] = [[]]` is refused), which then types the list. */
static TsIrValue *emit_list_literal(TsEmitter *e, const TsTree *t, const TsType *expected)
{
    const TsType *elem = NULL;
    if (expected && ts_type_kind(expected) == TS_TYPE_OPTIONAL)
        expected = ts_type_elem(expected, 0);
    if (expected && ts_type_kind(expected) == TS_TYPE_LIST)
        elem = ts_type_elem(expected, 0);
    size_t n;
    TsIrValue **vals = emit_items(e, t, NULL, &n);
    if (!vals)
        return NULL;
    TsIrValue *r = NULL;
    const TsType *unified = n ? vals[0]->type : NULL;
    for (size_t i = 1; i < n && unified; i++)
        unified = ts_type_unify(unified, vals[i]->type, true);
    if (elem) {
        for (size_t i = 0; i < n; i++)
            if (!ts_type_is_subtype_of(vals[i]->type, elem)) {
                char a[256], b[256];
                ts_emit_error(e, t->range, "List type annotation `%s` did not match the "
                              "types of the given list elements, which were unified to %s",
                              ts_type_text(expected, a, sizeof a),
                              ts_type_text(unified ? unified : vals[i]->type, b, sizeof b));
                goto out;
            }
    } else if (n == 0) {
        elem = ts_type_tensor();
    } else {
        /* heterogeneous items make a List[Union[...]] (PyTorch warns, we need not) */
        elem = vals[0]->type;
        for (size_t i = 1; i < n && elem; i++)
            elem = ts_type_unify(elem, vals[i]->type, true);
        if (!elem) {
            ts_emit_error(e, t->range, "List elements must have a single type");
            goto out;
        }
    }
    r = ts_emit_list(e, elem, n, vals, t->range);
out:
    free(vals);
    return r;
}

static TsIrValue *emit_tuple_literal(TsEmitter *e, const TsTree *t, const TsType *expected)
{
    size_t n;
    bool typed = expected && ts_type_kind(expected) == TS_TYPE_TUPLE &&
                 ts_type_num_elems(expected) == t->n_kids;
    TsIrValue **vals = emit_items(e, t, NULL, &n);
    (void)typed;
    if (!vals)
        return NULL;
    TsIrValue *r = ts_emit_tuple(e, n, vals, t->range);
    free(vals);
    return r;
}

/* As lists: the items are emitted alone, then checked against the annotation. */
static TsIrValue *emit_dict_literal(TsEmitter *e, const TsTree *t, const TsType *expected)
{
    const TsType *kt = NULL, *vt = NULL;
    if (expected && ts_type_kind(expected) == TS_TYPE_OPTIONAL)
        expected = ts_type_elem(expected, 0);
    if (expected && ts_type_kind(expected) == TS_TYPE_DICT) {
        kt = ts_type_elem(expected, 0);
        vt = ts_type_elem(expected, 1);
    } else {
        expected = NULL;
    }
    size_t n = t->n_kids, nk = n / 2;
    for (size_t i = 0; i < n; i += 2)
        if (!t->kids[i])
            return ts_emit_error(e, t->range, "Dict expansion (**) is not supported"), NULL;
    TsIrValue **vals = malloc((n ? n : 1) * sizeof *vals);
    if (!vals) {
        ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    TsIrValue *r = NULL;
    for (size_t i = 0; i < n; i++)
        if (!(vals[i] = ts_emit_expr(e, t->kids[i], NULL)))
            goto out;
    const TsType *ku = nk ? vals[0]->type : NULL, *vu = nk ? vals[1]->type : NULL;
    const TsType *bad_key = NULL;
    for (size_t i = 1; i < nk && ku; i++)
        if (vals[2 * i]->type != ku) {
            bad_key = vals[2 * i]->type;
            ku = expected ? ts_type_unify(ku, bad_key, true) : NULL;
        }
    for (size_t i = 1; i < nk && vu; i++)
        vu = ts_type_unify(vu, vals[2 * i + 1]->type, true);
    if (nk && !ku) {
        char a[256], b[256];
        ts_type_annotation(vals[0]->type, a, sizeof a);
        ts_type_annotation(bad_key, b, sizeof b);
        ts_emit_error(e, t->range, "Dict keys must contain only a single type. Expected: %s "
                      "but found %s instead", a, b);
        goto out;
    }
    if (nk && !vu) {
        ts_emit_error(e, t->range, "Dict values must contain only a single type");
        goto out;
    }
    if (expected && nk) {
        bool keys_ok = ts_type_is_subtype_of(ku, kt);
        if (!keys_ok || !ts_type_is_subtype_of(vu, vt)) {
            char a[256], b[256];
            ts_emit_error(e, t->range, "Type annotation was inferred to be `%s`, but the type "
                          "of %s given by the dict literal is %s",
                          ts_type_text(expected, a, sizeof a), keys_ok ? "values" : "keys",
                          ts_type_text(keys_ok ? vu : ku, b, sizeof b));
            goto out;
        }
    } else if (!expected) {
        kt = nk ? ku : ts_type_str();
        vt = nk ? vu : ts_type_tensor();
    }
    char kbuf[512];
    if (ts_dict_key_error(kt, kbuf, sizeof kbuf)) {
        ts_emit_error(e, t->range, "%s", kbuf);
        goto out;
    }
    TsNode *node = ts_emit_node(e, "prim::DictConstruct", n, vals, 1, t->range);
    if (node) {
        node->outputs[0]->type = ts_type_dict(kt, vt);
        r = node->outputs[0];
    }
out:
    free(vals);
    return r;
}

/* [elt for target in iter]: a loop appending to a fresh list (its own scope). */
int ts_emit_for_common(TsEmitter *e, const TsTree *target, const TsTree *iter,
                       const TsTree *body, const TsTree *comp_elt, const TsTree *comp_val,
                       TsIrValue *comp_out, TsSourceRange r);

static TsIrValue *emit_comprehension(TsEmitter *e, const TsTree *t, const TsType *expected)
{
    bool is_dict = t->kind == TS_TREE_DICT_COMP;
    size_t nfor = is_dict ? 2 : 1;
    if (t->n_kids != nfor + 1)
        return ts_emit_error(e, t->range, "Only one for is supported in comprehensions"),
               NULL;
    const TsTree *cf = t->kids[nfor];
    if (cf->n_kids > 2)
        return ts_emit_error(e, cf->kids[2]->range, "Comprehension ifs are not supported yet"),
               NULL;
    TsNode *node = ts_emit_node(e, is_dict ? "prim::DictConstruct" : "prim::ListConstruct",
                                0, NULL, 1, t->range);
    if (!node)
        return NULL;
    TsIrValue *out = node->outputs[0];
    out->type = NULL;  /* typed by the first element emitted (or expected) */
    if (expected && ts_type_kind(expected) == (is_dict ? TS_TYPE_DICT : TS_TYPE_LIST))
        out->type = expected;
    if (ts_emit_for_common(e, cf->kids[0], cf->kids[1], NULL, t->kids[0],
                           is_dict ? t->kids[1] : NULL, out, t->range) != 0)
        return NULL;
    if (!out->type)
        out->type = is_dict ? ts_type_dict(ts_type_str(), ts_type_tensor())
                            : ts_type_list(ts_type_tensor());
    return out;
}

/* ---- subscripts ------------------------------------------------------------------- */

static bool const_int(const TsIrValue *v, int64_t *out)
{
    if (v->node->kind != ts_symbol("prim::Constant") || ts_type_kind(v->type) != TS_TYPE_INT)
        return false;
    const TsAttr *a = ts_node_attr(v->node, ts_symbol("attr::value"));
    if (!a || a->kind != TS_ATTR_INT)
        return false;
    *out = a->u.i;
    return true;
}

/* t[i] with i known only at run time: the elements' types must unify, that is the type. */
static TsIrValue *tuple_index_dynamic(TsEmitter *e, TsIrValue *v, TsIrValue *idx,
                                      TsSourceRange r)
{
    size_t n = ts_type_num_elems(v->type);
    const TsType *t = n ? ts_type_elem(v->type, 0) : NULL;
    for (size_t i = 1; t && i < n; i++)
        t = ts_type_unify(t, ts_type_elem(v->type, i), false);
    if (ts_type_kind(idx->type) != TS_TYPE_INT)
        return ts_emit_error(e, r, "tuple index must be an integer"), NULL;
    if (!t) {
        char buf[256];
        return ts_emit_error(e, r, "Cannot index into a %s with a non-integer literal because "
                             "we cannot resolve the output type",
                             ts_type_text(v->type, buf, sizeof buf)), NULL;
    }
    TsIrValue *in[2] = { v, idx };
    TsNode *node = ts_emit_node(e, "prim::TupleIndex", 2, in, 1, r);
    if (!node)
        return NULL;
    node->outputs[0]->type = t;
    return node->outputs[0];
}

TsIrValue *ts_emit_subscript_value(TsEmitter *e, TsIrValue *v, TsIrValue *idx, TsSourceRange r)
{
    TsTypeKind k = ts_type_kind(v->type);
    if (k == TS_TYPE_TUPLE) {
        int64_t i;
        if (!const_int(idx, &i))
            return tuple_index_dynamic(e, v, idx, r);
        int64_t n = (int64_t)ts_type_num_elems(v->type), given = i;
        if (i < 0)
            i += n;
        if (i < 0 || i >= n)
            return ts_emit_error(e, r, "Tuple index out of range. Tuple is length %lld and "
                                 "index is %lld", (long long)n, (long long)given), NULL;
        TsIrValue *ic = ts_emit_const(e, ts_int(i), r);
        TsIrValue *in[2] = { v, ic };
        TsNode *n2 = ic ? ts_emit_node(e, "prim::TupleIndex", 2, in, 1, r) : NULL;
        if (!n2)
            return NULL;
        n2->outputs[0]->type = ts_type_elem(v->type, (size_t)i);
        return n2->outputs[0];
    }
    if (k == TS_TYPE_CLASS || k == TS_TYPE_MODULE) {
        TsNamedValue arg = { NULL, idx, r };
        TsSugared out;
        if (ts_sugar_call_method(e, v, "__getitem__", 1, &arg, r, &out) != 0)
            return NULL;
        return ts_sugar_as_value(e, &out, r);
    }
    if (k == TS_TYPE_TENSOR) {
        TsTypeKind ik = ts_type_kind(idx->type);
        if (ik == TS_TYPE_INT) {
            TsIrValue *zero = ts_emit_const(e, ts_int(0), r);
            TsNamedValue a[3] = { { NULL, v, r }, { NULL, zero, r }, { NULL, idx, r } };
            return zero ? ts_emit_op(e, "aten::select", 3, a, r) : NULL;
        }
        TsIrValue *opt = ts_emit_index_tensor(e, idx, r);
        TsIrValue *list = opt ? ts_emit_list(e, ts_type_optional(ts_type_tensor()), 1, &opt, r)
                              : NULL;
        return list ? ts_emit_op2(e, "aten::index", v, list, r) : NULL;
    }
    if (k != TS_TYPE_LIST && k != TS_TYPE_STR && k != TS_TYPE_DICT) {
        char buf[256];
        return ts_emit_error(e, r, "'%s' object is not subscriptable",
                             ts_type_text(v->type, buf, sizeof buf)), NULL;
    }
    return ts_emit_op2(e, "aten::__getitem__", v, idx, r);
}

static TsIrValue *slice_part(TsEmitter *e, const TsTree *t, TsSourceRange r)
{
    return t ? ts_emit_expr(e, t, NULL) : ts_emit_const(e, ts_none(), r);
}

/* A tuple slice is a new tuple of the elements picked at compile time (the element types
 * must be known), so its bounds and step must be constants; Python's slice rules apply. */
static TsIrValue *slice_tuple(TsEmitter *e, TsIrValue *v, const TsTree *s, TsIrValue *start,
                              TsIrValue *stop, TsIrValue *step, TsSourceRange r)
{
    int64_t n = (int64_t)ts_type_num_elems(v->type), b = 0, en = 0, st = 1;
    if ((s->kids[0] && !const_int(start, &b)) || (s->kids[1] && !const_int(stop, &en)) ||
        !const_int(step, &st))
        return ts_emit_error(e, r, "tuple slice indices must be integer constants"), NULL;
    if (st == 0)
        return ts_emit_error(e, r, "slice step cannot be zero"), NULL;
    int64_t lower = st > 0 ? 0 : -1, upper = st > 0 ? n : n - 1;
    int64_t *ends[2] = { &b, &en };
    for (int k = 0; k < 2; k++) {
        int64_t *x = ends[k];
        if (!s->kids[k]) {
            *x = (k == 0) == (st > 0) ? lower : upper;
            continue;
        }
        if (*x < 0) {
            *x += n;
            if (*x < lower)
                *x = lower;
        } else if (*x > upper) {
            *x = upper;
        }
    }
    TsIrValue *items[64];
    size_t m = 0;
    for (int64_t i = b; st > 0 ? i < en : i > en; i += st) {
        if (m == 64)
            return ts_emit_error(e, r, "tuple slice too long"), NULL;
        TsIrValue *ic = ts_emit_const(e, ts_int(i), r);
        if (!ic || !(items[m++] = ts_emit_subscript_value(e, v, ic, r)))
            return NULL;
    }
    return ts_emit_tuple(e, m, items, r);
}

static TsIrValue *emit_slice(TsEmitter *e, TsIrValue *v, const TsTree *s, TsIrValue *dim,
                             TsSourceRange r)
{
    TsIrValue *start = slice_part(e, s->kids[0], r);
    TsIrValue *stop = start ? slice_part(e, s->kids[1], r) : NULL;
    TsIrValue *step = stop ? (s->kids[2] ? ts_emit_expr(e, s->kids[2], NULL)
                                         : ts_emit_const(e, ts_int(1), r)) : NULL;
    if (!step)
        return NULL;
    if (ts_type_kind(v->type) == TS_TYPE_TUPLE)
        return slice_tuple(e, v, s, start, stop, step, r);
    if (dim) {
        TsNamedValue a[5] = { { NULL, v, r }, { NULL, dim, r }, { NULL, start, r },
                              { NULL, stop, r }, { NULL, step, r } };
        return ts_emit_op(e, "aten::slice", 5, a, r);
    }
    TsNamedValue a[4] = { { NULL, v, r }, { NULL, start, r }, { NULL, stop, r },
                          { NULL, step, r } };
    return ts_emit_op(e, "aten::slice", 4, a, r);
}

/* Advanced indexing: the tensor indices of one subscript are gathered into a single
 * `Tensor?[]` whose slot k holds the index for dimension k of the sliced/selected value
 * (None where that dimension is taken whole), and applied by one aten::index after the
 * basic (int/slice/None) indexing, as PyTorch does. */
#define TS_MAX_TENSOR_INDICES 64

typedef struct {
    TsIrValue *at[TS_MAX_TENSOR_INDICES];
    size_t n; /* slots used: last tensor index's dimension + 1 */
} TsTensorIndices;

/* A list of numbers used as an index is a long tensor (aten::tensor(l, int64, None,
 * False)): PyTorch converts a list of bools or floats so too (x[[True, False]] is rows 1
 * and 0, not a mask). */
TsIrValue *ts_emit_index_tensor(TsEmitter *e, TsIrValue *iv, TsSourceRange r)
{
    if (ts_type_kind(iv->type) == TS_TYPE_TENSOR)
        return iv;
    TsTypeKind elem = ts_type_kind(iv->type) == TS_TYPE_LIST
                      ? ts_type_kind(ts_type_elem(iv->type, 0)) : TS_TYPE_TENSOR;
    if (elem == TS_TYPE_INT || elem == TS_TYPE_BOOL || elem == TS_TYPE_FLOAT) {
        TsIrValue *dt = ts_emit_const(e, ts_int(4), r); /* torch.long */
        TsIrValue *none = dt ? ts_emit_const(e, ts_none(), r) : NULL;
        TsIrValue *no = none ? ts_emit_const(e, ts_bool(false), r) : NULL;
        if (!no)
            return NULL;
        TsNamedValue a[4] = { { NULL, iv, r }, { "dtype", dt, r }, { "device", none, r },
                              { "requires_grad", no, r } };
        return ts_emit_op(e, "aten::tensor", 4, a, r);
    }
    char b[256];
    return ts_emit_error(e, r, "Unsupported operation: indexing tensor with unsupported "
                         "index type '%s'. Only ints, slices, lists and tensors are "
                         "supported", ts_type_text(iv->type, b, sizeof b)), NULL;
}

static int record_tensor_index(TsEmitter *e, TsTensorIndices *ti, int64_t dim, TsIrValue *iv,
                               TsSourceRange r)
{
    if (dim < 0 || dim >= TS_MAX_TENSOR_INDICES)
        return ts_emit_error(e, r, "too many dimensions in a tensor index");
    while (ti->n <= (size_t)dim)
        ti->at[ti->n++] = NULL;
    ti->at[dim] = iv;
    return 0;
}

/* Builds the `Tensor?[]` of ti (None in the empty slots) and applies aten::index. */
TsIrValue *ts_emit_tensor_indices_list(TsEmitter *e, TsIrValue *const *at, size_t n,
                                       TsSourceRange r)
{
    TsIrValue *items[TS_MAX_TENSOR_INDICES];
    TsIrValue *none = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!at[i] && !none && !(none = ts_emit_const(e, ts_none(), r)))
            return NULL;
        items[i] = at[i] ? at[i] : none;
    }
    return ts_emit_list(e, ts_type_optional(ts_type_tensor()), n, items, r);
}

/* The indices after `...` count from the last dimension, left to right as PyTorch does:
 * the first is at -(number of them that are not None); a select or slice moves on to the
 * next dimension (dim + 1), None inserts before the current one (at dim - 1). */
static TsIrValue *emit_tensor_index_tail(TsEmitter *e, TsIrValue *v, const TsTree *const *idx,
                                         size_t n, TsSourceRange r)
{
    int64_t dim = 0;
    for (size_t i = 0; i < n; i++)
        dim -= idx[i]->kind != TS_TREE_NONE;
    for (size_t i = 0; i < n && v; i++) {
        const TsTree *x = idx[i];
        if (x->kind == TS_TREE_ELLIPSIS)
            return ts_emit_error(e, x->range, "an index can only have a single ellipsis "
                                 "('...')"), NULL;
        TsIrValue *d = ts_emit_const(e, ts_int(x->kind == TS_TREE_NONE ? dim - 1 : dim), r);
        if (!d)
            return NULL;
        if (x->kind == TS_TREE_SLICE) {
            v = emit_slice(e, v, x, d, r);
        } else if (x->kind == TS_TREE_NONE) {
            v = ts_emit_op2(e, "aten::unsqueeze", v, d, r);
            continue;
        } else {
            TsIrValue *iv = ts_emit_expr(e, x, NULL);
            if (!iv)
                return NULL;
            if (ts_type_kind(iv->type) != TS_TYPE_INT)
                return ts_emit_error(e, r, "Ellipses followed by tensor indexing is "
                                     "currently not supported"), NULL;
            TsNamedValue a[3] = { { NULL, v, r }, { NULL, d, r }, { NULL, iv, r } };
            v = ts_emit_op(e, "aten::select", 3, a, r);
        }
        dim++;
    }
    return v;
}

/* The basic part of a tensor index: each int selects (removing a dimension), each slice
 * slices, None inserts a dimension, `...` skips to the dimensions the indices after it
 * name from the end; tensor (and int list) indices are gathered into ti. */
static TsIrValue *emit_basic_index(TsEmitter *e, TsIrValue *v, const TsTree *const *idx,
                                   size_t n, TsTensorIndices *ti, TsSourceRange r)
{
    int64_t dim = 0;
    for (size_t i = 0; i < n && v; i++) {
        const TsTree *x = idx[i];
        if (x->kind == TS_TREE_ELLIPSIS)
            return emit_tensor_index_tail(e, v, idx + i + 1, n - i - 1, r);
        if (x->kind == TS_TREE_SLICE || x->kind == TS_TREE_NONE) {
            TsIrValue *d = ts_emit_const(e, ts_int(dim), r);
            if (!d)
                return NULL;
            v = x->kind == TS_TREE_SLICE ? emit_slice(e, v, x, d, r)
                                         : ts_emit_op2(e, "aten::unsqueeze", v, d, r);
            dim++;
            continue;
        }
        TsIrValue *iv = ts_emit_expr(e, x, NULL);
        if (!iv)
            return NULL;
        if (ts_type_kind(iv->type) == TS_TYPE_INT) {
            TsIrValue *d = ts_emit_const(e, ts_int(dim), r);
            TsNamedValue a[3] = { { NULL, v, r }, { NULL, d, r }, { NULL, iv, r } };
            v = d ? ts_emit_op(e, "aten::select", 3, a, r) : NULL;
            continue;
        }
        if (!(iv = ts_emit_index_tensor(e, iv, x->range)) ||
            record_tensor_index(e, ti, dim, iv, r) != 0)
            return NULL;
        dim++;
    }
    return v;
}

/* Splits a subscript's index list: a single tuple index on a tensor is its elements. */
static void index_list(const TsTree *t, bool tensor, const TsTree *const **idx, size_t *n)
{
    *idx = (const TsTree *const *)t->kids + 1;
    *n = t->n_kids - 1;
    if (*n == 1 && (*idx)[0]->kind == TS_TREE_TUPLE && tensor) {
        *n = (*idx)[0]->n_kids;
        *idx = (const TsTree *const *)(*idx)[0]->kids;
    }
}

static TsIrValue *emit_tensor_index(TsEmitter *e, TsIrValue *v, const TsTree *const *idx,
                                    size_t n, TsSourceRange r)
{
    TsTensorIndices ti = { { NULL }, 0 };
    v = emit_basic_index(e, v, idx, n, &ti, r);
    if (!v || ti.n == 0)
        return v;
    TsIrValue *l = ts_emit_tensor_indices_list(e, ti.at, ti.n, r);
    return l ? ts_emit_op2(e, "aten::index", v, l, r) : NULL;
}

/* For `x[idx] = value` on a tensor: applies the basic part of the index and returns the
 * view to write into, with the tensor indices (if any) in *list, else *list = NULL. */
TsIrValue *ts_emit_tensor_index_target(TsEmitter *e, TsIrValue *v, const TsTree *t,
                                       TsIrValue **list)
{
    const TsTree *const *idx;
    size_t n;
    index_list(t, true, &idx, &n);
    TsTensorIndices ti = { { NULL }, 0 };
    *list = NULL;
    v = emit_basic_index(e, v, idx, n, &ti, t->range);
    if (v && ti.n > 0 && !(*list = ts_emit_tensor_indices_list(e, ti.at, ti.n, t->range)))
        return NULL;
    return v;
}

/* m : Iface = container[key]: a ModuleList's (int key) or ModuleDict's (str key) submodule
 * picked at run time, which only a module interface can type (prim::ModuleContainerIndex). */
static TsIrValue *emit_container_index(TsEmitter *e, TsIrValue *v, const TsTree *t,
                                       const TsType *iface)
{
    if (t->n_kids != 2 || t->kids[1]->kind == TS_TREE_SLICE)
        return ts_emit_error(e, t->range, "a module container takes one index"), NULL;
    TsIrValue *i = ts_emit_expr(e, t->kids[1], NULL);
    if (!i)
        return NULL;
    TsNamedValue a[2] = { { NULL, v, t->range }, { NULL, i, t->range } };
    TsIrValue *m = ts_emit_op(e, "prim::ModuleContainerIndex", 2, a, t->range);
    if (m)
        m->type = iface;
    return m;
}

static TsIrValue *emit_subscript(TsEmitter *e, const TsTree *t, const TsType *expected)
{
    TsSugared base;
    if (ts_sugar_reject_iterable(e, t->kids[0]) != 0)   /* range(5)[1] */
        return NULL;
    if (ts_emit_sugared(e, t->kids[0], NULL, &base) != 0)
        return NULL;
    if (base.kind == TS_SV_TYPE || base.kind == TS_SV_MODULE)
        return ts_emit_error(e, t->range, "types cannot be used as values here"), NULL;
    TsIrValue *v = ts_sugar_as_value(e, &base, t->kids[0]->range);
    if (v && ts_type_kind(v->type) == TS_TYPE_MODULE &&
        ts_type_kind(expected) == TS_TYPE_INTERFACE)
        return emit_container_index(e, v, t, expected);
    return v ? ts_emit_index_of(e, v, t) : NULL;
}

TsIrValue *ts_emit_index_of(TsEmitter *e, TsIrValue *v, const TsTree *t)
{
    const TsTree *const *idx;
    size_t n;
    bool tensor = ts_type_kind(v->type) == TS_TYPE_TENSOR;
    index_list(t, tensor, &idx, &n);
    if (tensor)
        return emit_tensor_index(e, v, idx, n, t->range);
    if (n != 1)
        return ts_emit_error(e, t->range, "Unsupported operation: attempted to use "
                             "multidimensional indexing on a non-tensor type"), NULL;
    if (idx[0]->kind == TS_TREE_SLICE)
        return emit_slice(e, v, idx[0], NULL, t->range);
    const TsType *key = ts_type_kind(v->type) == TS_TYPE_DICT ? ts_type_elem(v->type, 0) : NULL;
    TsIrValue *i = ts_emit_expr(e, idx[0], key);
    return i ? ts_emit_subscript_value(e, v, i, t->range) : NULL;
}

/* ---- entry points -------------------------------------------------------------------- */

static TsIrValue *emit_simple(TsEmitter *e, const TsTree *t, const TsType *expected)
{
    switch (t->kind) {
    case TS_TREE_INT:
        if (t->flag)
            return ts_emit_error(e, t->range, "Integral constant out of range (must fit in a "
                                 "signed 64 bit integer)"), NULL;
        return ts_emit_const(e, ts_int(t->ival), t->range);
    case TS_TREE_FLOAT:
        return ts_emit_const(e, ts_double(t->fval), t->range);
    case TS_TREE_IMAG: {
        TsComplex *c = ts_complex_new(0.0, t->fval, e->err);
        return c ? ts_emit_const(e, ts_obj_value(c, TS_TAG_COMPLEX), t->range) : NULL;
    }
    case TS_TREE_STRING: {
        TsStr *s = ts_str_new(t->str, t->len, e->err);
        return s ? ts_emit_const(e, ts_str_value(s), t->range) : NULL;
    }
    case TS_TREE_TRUE:
    case TS_TREE_FALSE:
        return ts_emit_const(e, ts_bool(t->kind == TS_TREE_TRUE), t->range);
    case TS_TREE_NONE:
        return ts_emit_const(e, ts_none(), t->range);
    case TS_TREE_UNARY:
        return emit_unary(e, t);
    case TS_TREE_BINARY:
        return emit_binary(e, t);
    case TS_TREE_IF_EXPR:
        return emit_ternary(e, t, expected);
    case TS_TREE_SUBSCRIPT:
        return emit_subscript(e, t, expected);
    case TS_TREE_LIST:
        return emit_list_literal(e, t, expected);
    case TS_TREE_TUPLE:
        return emit_tuple_literal(e, t, expected);
    case TS_TREE_DICT:
        return emit_dict_literal(e, t, expected);
    case TS_TREE_LIST_COMP:
    case TS_TREE_GENERATOR:     /* PyTorch's frontend reads (x for ...) as [x for ...] */
    case TS_TREE_DICT_COMP:
        return emit_comprehension(e, t, expected);
    case TS_TREE_SET:
    case TS_TREE_SET_COMP:
        return ts_emit_error(e, t->range, "Set aren't supported"), NULL;
    case TS_TREE_FSTRING:
        return ts_emit_error(e, t->range, "f-string format specifiers and conversions "
                             "aren't supported"), NULL;
    case TS_TREE_STARRED:
        return ts_emit_error(e, t->range, "Starred expression are not supported here"), NULL;
    case TS_TREE_ELLIPSIS:
        return ts_emit_error(e, t->range, "Ellipsis is not supported here"), NULL;
    default:
        return ts_emit_error(e, t->range, "%s aren't supported", ts_tree_kind_name(t->kind)),
               NULL;
    }
}

/* ---- calls with starred arguments ------------------------------------------------------ */

static int bind_tree(TsEmitter *e, const TsTree *tree, TsIrValue *v)
{
    if (e->n_bound == e->cap_bound) {
        size_t nc = e->cap_bound ? 2 * e->cap_bound : 16;
        struct TsBoundTree *p = realloc(e->bound, nc * sizeof *p);
        if (!p)
            return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        e->bound = p;
        e->cap_bound = nc;
    }
    e->bound[e->n_bound++] = (struct TsBoundTree){ tree, v };
    return 0;
}

static bool bound_since(const TsEmitter *e, size_t mark, const TsTree *t)
{
    for (size_t i = mark; i < e->n_bound; i++)
        if (e->bound[i].tree == t)
            return true;
    return false;
}

/* Adds a placeholder for v to call. */
static int add_placeholder(TsEmitter *e, TsTree *call, TsIrValue *v, TsSourceRange r)
{
    TsTree *ph = ts_tree_new(TS_TREE_NAME, r);
    if (!ph || bind_tree(e, ph, v) != 0) {
        ts_tree_free(ph);
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    }
    if (ts_tree_add(call, ph) != 0) {
        e->n_bound--;
        ts_tree_free(ph);
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    }
    return 0;
}

/* f(a, *t, b=c): the arguments up to the last starred one are emitted first, in order, each
 * starred tuple unpacked into its items; the callee then sees a call whose arguments are
 * placeholders for those values (e->bound) followed by the rest of the arguments as written,
 * so every kind of callee takes starred arguments alike. */
static int call_starred(TsEmitter *e, const TsSugared *fn, const TsTree *t,
                        const TsType *expected, TsSugared *out)
{
    size_t last = 0, mark = e->n_bound;
    for (size_t i = 1; i < t->n_kids; i++)
        if (t->kids[i]->kind == TS_TREE_STARRED)
            last = i;
    TsTree *call = ts_tree_new(TS_TREE_CALL, t->range);
    int rc = call ? 0 : ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < t->n_kids; i++) {
        const TsTree *k = t->kids[i];
        if (i == 0 || i > last || k->kind == TS_TREE_KWARG) {
            if (ts_tree_add(call, (TsTree *)k) != 0)   /* borrowed: detached below */
                rc = ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
            continue;
        }
        size_t m = 1;
        TsIrValue *one = NULL, **items = &one;
        if (k->kind == TS_TREE_STARRED)
            items = ts_emit_starred(e, k, &m);
        else
            one = ts_emit_expr(e, k, NULL);
        if (!items || (items == &one && !one))
            rc = -1;
        for (size_t j = 0; rc == 0 && j < m; j++)
            rc = add_placeholder(e, call, items[j], k->range);
        if (items != &one)
            free(items);
    }
    if (rc == 0)
        rc = ts_sugar_call(e, fn, call, expected, out);
    for (size_t i = 0; call && i < call->n_kids; i++)
        if (!bound_since(e, mark, call->kids[i]))
            call->kids[i] = NULL;
    e->n_bound = mark;
    ts_tree_free(call);
    return rc;
}

static bool has_starred(const TsTree *call)
{
    for (size_t i = 1; i < call->n_kids; i++)
        if (call->kids[i]->kind == TS_TREE_STARRED)
            return true;
    return false;
}

int ts_emit_sugared(TsEmitter *e, const TsTree *t, const TsType *expected, TsSugared *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = e->n_bound; i-- > 0;)
        if (e->bound[i].tree == t) {
            out->kind = TS_SV_VALUE;
            out->value = e->bound[i].value;
            return 0;
        }
    if (++e->depth > TS_EMIT_MAX_DEPTH) {
        e->depth--;
        ts_error_clear(e->err);
        return ts_error_at(e->err, TS_ERR_LIMIT, t->range, "expression nested too deeply");
    }
    int rc = 0;
    switch (t->kind) {
    case TS_TREE_NAME:
        rc = ts_sugar_name(e, t, out);
        break;
    case TS_TREE_ATTR: {
        TsSugared base;
        rc = ts_emit_sugared(e, t->kids[0], NULL, &base);
        if (rc == 0)
            rc = ts_sugar_attr(e, &base, t->kids[1]->str, t->range, out);
        break;
    }
    case TS_TREE_CALL: {
        TsSugared fn;
        rc = ts_emit_sugared(e, t->kids[0], NULL, &fn);
        if (rc == 0)
            rc = has_starred(t) ? call_starred(e, &fn, t, expected, out)
                                : ts_sugar_call(e, &fn, t, expected, out);
        break;
    }
    default:
        out->kind = TS_SV_VALUE;
        out->value = emit_simple(e, t, expected);
        rc = out->value ? 0 : -1;
        break;
    }
    e->depth--;
    return rc;
}

TsIrValue *ts_emit_expr(TsEmitter *e, const TsTree *t, const TsType *expected)
{
    TsSugared sv;
    if (ts_emit_sugared(e, t, expected, &sv) != 0)
        return NULL;
    return ts_sugar_as_value(e, &sv, t->range);
}
