/* emit.c — function definitions, statements and control flow.
 *
 * ts_emit_function() builds one function's graph: the parameters (annotated, typed by a
 * `# type:` comment, or Tensor by default) become graph inputs stored into the
 * environment; the body is emitted statement by statement; a missing final return becomes
 * `return None` (or "does not return along all paths" when a type was declared); then SSA
 * conversion, the exit transform and the cleanup passes turn loads, stores and
 * break/continue/return into a proper SSA graph.
 *
 * An if/else joins its branches here, as PyTorch's emitIfElseBlocks: a name set in a branch
 * that always leaves (return, raise) takes the other branch's value; names set on one side
 * only, or to types that do not unify, carry a deferred error reported if they are used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"
#include "frontend/lexer.h"
#include "frontend/parser.h"

static int emit_stmt(TsEmitter *e, const TsTree *s);

static bool block_exits(const TsEmitter *e) { return ts_env_is_exit(e, e->env->block); }

int ts_emit_block(TsEmitter *e, const TsTree *block)
{
    for (size_t i = 0; block && i < block->n_kids; i++) {
        if (block_exits(e))
            break;   /* statements after return/raise/break/continue never run */
        if (emit_stmt(e, block->kids[i]) != 0)
            return -1;
    }
    return 0;
}

/* ---- assignment ---------------------------------------------------------------------- */

static int assign_to(TsEmitter *e, const TsTree *target, TsIrValue *v, TsSourceRange r);

/* One target of a tuple assignment: a name, subscript, attribute or nested tuple (a list
 * display there is PyTorch's error, though [a, b] = ... alone is another one). */
static int assign_element(TsEmitter *e, const TsTree *t, TsIrValue *v, TsSourceRange r)
{
    if (t->kind == TS_TREE_LIST)
        return ts_emit_error(e, t->range, "lhs of assignment must be a variable, subscript, or "
                             "starred expression");
    return assign_to(e, t, v, r);
}

static int unpack(TsEmitter *e, const TsTree *target, TsIrValue *v, TsSourceRange r)
{
    size_t n = target->n_kids, starred = n;
    for (size_t i = 0; i < n; i++)
        if (target->kids[i]->kind == TS_TREE_STARRED) {
            if (starred != n)
                return ts_emit_error(e, target->range, "multiple starred expressions in "
                                     "assignment");
            starred = i;
        }
    TsTypeKind k = ts_type_kind(v->type);
    if (k == TS_TYPE_TUPLE) {
        size_t have = ts_type_num_elems(v->type);
        /* the counts are wrong at the targets, as PyTorch says */
        if (starred == n && have > n)
            return ts_emit_error(e, target->range, "too many values to unpack: need %zu but "
                                 "found %zu", n, have);
        if (have < n - (starred < n))
            return ts_emit_error(e, target->range, "need %s%zu values to unpack but found "
                                 "only %zu",
                                 starred < n ? "at least " : "", n - (starred < n), have);
        TsNode *u = ts_emit_node(e, "prim::TupleUnpack", 1, &v, have, r);
        if (!u)
            return -1;
        for (size_t i = 0; i < have; i++)
            u->outputs[i]->type = ts_type_elem(v->type, i);
        for (size_t i = 0, j = 0; i < n; i++) {
            if (i == starred) {
                size_t m = have - (n - 1);
                TsIrValue *tup = ts_emit_tuple(e, m, u->outputs + j, r);
                if (!tup || assign_to(e, target->kids[i]->kids[0], tup, r) != 0)
                    return -1;
                j += m;
            } else if (assign_element(e, target->kids[i], u->outputs[j++], r) != 0) {
                return -1;
            }
        }
        return 0;
    }
    if (k == TS_TYPE_LIST) {
        if (starred != n)
            return ts_emit_error(e, r, "cannot statically infer the expected size of a list "
                                 "in this context");
        TsNode *u = ts_emit_node(e, "prim::ListUnpack", 1, &v, n, r);
        if (!u)
            return -1;
        for (size_t i = 0; i < n; i++) {
            u->outputs[i]->type = ts_type_elem(v->type, 0);
            if (assign_element(e, target->kids[i], u->outputs[i], r) != 0)
                return -1;
        }
        return 0;
    }
    char b[256];
    return ts_emit_error(e, r, "%s cannot be used as a tuple",
                         ts_type_text(v->type, b, sizeof b));
}

/* A number written into a tensor becomes a tensor of the view's dtype and device first
 * (aten::tensor(v, dtype=prim::dtype(view), device=prim::device(view))), as PyTorch does. */
static TsIrValue *value_as_tensor(TsEmitter *e, TsIrValue *view, TsIrValue *v, TsSourceRange r)
{
    if (ts_type_kind(v->type) == TS_TYPE_TENSOR)
        return v;
    TsIrValue *dt = ts_emit_op2(e, "prim::dtype", view, NULL, r);
    TsIrValue *dev = dt ? ts_emit_op2(e, "prim::device", view, NULL, r) : NULL;
    TsIrValue *no = dev ? ts_emit_const(e, ts_bool(false), r) : NULL;
    if (!no)
        return NULL;
    TsNamedValue a[4] = { { NULL, v, r }, { "dtype", dt, r }, { "device", dev, r },
                          { "requires_grad", no, r } };
    return ts_emit_op(e, "aten::tensor", 4, a, r);
}

/* Writes v into view: aten::index_put_(view, list, v) when there are tensor indices,
 * else aten::copy_(view, v). */
static int tensor_store(TsEmitter *e, TsIrValue *view, TsIrValue *list, TsIrValue *v,
                        TsSourceRange r)
{
    TsIrValue *no = (v = value_as_tensor(e, view, v, r)) ? ts_emit_const(e, ts_bool(false), r)
                                                         : NULL;
    if (!no)
        return -1;
    if (list) {
        TsNamedValue a[4] = { { NULL, view, r }, { NULL, list, r }, { NULL, v, r },
                              { NULL, no, r } };
        return ts_emit_op(e, "aten::index_put_", 4, a, r) ? 0 : -1;
    }
    TsNamedValue c[3] = { { NULL, view, r }, { NULL, v, r }, { NULL, no, r } };
    return ts_emit_op(e, "aten::copy_", 3, c, r) ? 0 : -1;
}

static int set_item(TsEmitter *e, TsIrValue *obj, TsIrValue *idx, TsIrValue *v,
                    TsSourceRange r)
{
    TsTypeKind k = ts_type_kind(obj->type);
    TsNamedValue a[3] = { { NULL, obj, r }, { NULL, idx, r }, { NULL, v, r } };
    if (k == TS_TYPE_CLASS || k == TS_TYPE_MODULE) {
        TsSugared out;
        return ts_sugar_call_method(e, obj, "__setitem__", 2, a + 1, r, &out);
    }
    return ts_emit_op(e, "aten::_set_item", 3, a, r) ? 0 : -1;
}

static int assign_to(TsEmitter *e, const TsTree *target, TsIrValue *v, TsSourceRange r)
{
    switch (target->kind) {
    case TS_TREE_NAME:
        return ts_env_store(e, target->str, v, target->range);
    case TS_TREE_TUPLE:
        return unpack(e, target, v, r);
    case TS_TREE_ATTR: {
        TsIrValue *obj = ts_emit_expr(e, target->kids[0], NULL);
        return obj ? ts_sugar_set_attr(e, obj, target->kids[1]->str, v, target->range) : -1;
    }
    case TS_TREE_SUBSCRIPT: {
        TsIrValue *obj = ts_emit_expr(e, target->kids[0], NULL);
        if (!obj)
            return -1;
        if (ts_type_kind(obj->type) == TS_TYPE_TENSOR) {
            /* t[a:b, i] = v writes through the view the basic indices pick */
            TsIrValue *list, *view = ts_emit_tensor_index_target(e, obj, target, &list);
            return view ? tensor_store(e, view, list, v, r) : -1;
        }
        if (ts_type_kind(obj->type) == TS_TYPE_TUPLE) {
            char buf[256];
            return ts_emit_error(e, target->range, "%s does not support subscripted "
                                 "assignment", ts_type_text(obj->type, buf, sizeof buf));
        }
        if (target->n_kids != 2 || target->kids[1]->kind == TS_TREE_SLICE)
            return ts_emit_error(e, target->range, "Sliced expression not yet supported for "
                                 "subscripted assignment. File a bug if you want this");
        const TsType *key = ts_type_kind(obj->type) == TS_TYPE_DICT
                                ? ts_type_elem(obj->type, 0) : NULL;
        TsIrValue *idx = ts_emit_expr(e, target->kids[1], key);
        return idx ? set_item(e, obj, idx, v, target->range) : -1;
    }
    case TS_TREE_STARRED:
        return ts_emit_error(e, target->range, "Starred assignment needs a tuple to unpack");
    default:
        return ts_emit_error(e, target->range, "unexpected expression on left-hand side of "
                             "assignment");
    }
}

/* The type a target expects when it is a name already annotated... PyTorch only uses the
 * annotation of an annotated assignment, so a plain assignment expects nothing. */
static int emit_assign(TsEmitter *e, const TsTree *s)
{
    const TsTree *value = s->kids[s->n_kids - 1];
    TsIrValue *v;
    if (value->kind == TS_TREE_STARRED)
        return ts_emit_error(e, value->range, "Starred expression are not supported here");
    TsSugared sv;
    if (ts_emit_sugared(e, value, NULL, &sv) != 0)
        return -1;
    /* `f = len`, `h = g`, `m = math`: PyTorch names what is not a value too */
    if (s->n_kids == 2 && s->kids[0]->kind == TS_TREE_NAME &&
        (sv.kind == TS_SV_BUILTIN || sv.kind == TS_SV_FUNCTION || sv.kind == TS_SV_METHOD ||
         sv.kind == TS_SV_MODULE || sv.kind == TS_SV_CLASS || sv.kind == TS_SV_EXCEPTION))
        return ts_env_bind_sugar(e, ts_symbol(s->kids[0]->str), &sv);
    if (!(v = ts_sugar_as_value(e, &sv, value->range)))
        return -1;
    /* PyTorch places an unpacking's errors at the value unpacked */
    for (size_t i = 0; i + 1 < s->n_kids; i++)
        if (assign_to(e, s->kids[i], v, s->kids[i]->kind == TS_TREE_TUPLE ? value->range
                                                                          : s->range) != 0)
            return -1;
    return 0;
}

static int emit_ann_assign(TsEmitter *e, const TsTree *s)
{
    const TsTree *target = s->kids[0], *value = s->kids[2];
    const TsType *t = ts_emit_type(e, s->kids[1]);
    if (!t)
        return -1;
    if (!value)
        return ts_emit_error(e, s->range, "Variable annotations without a value are not "
                             "supported");
    if (target->kind == TS_TREE_NAME && !ts_env_find_here(e->env, ts_symbol(target->str)))
        for (TsFrame *p = e->env->is_comp ? NULL : e->env->next; p; p = p->next)
            if (ts_env_find_here(p, ts_symbol(target->str)))
                return ts_emit_error(e, s->range, "Attempting to declare and annotate the type "
                                     "of variable '%s' but it is already defined in an outer "
                                     "block", target->str);
    TsIrValue *v = ts_emit_expr(e, value, t);
    if (!v)
        return -1;
    bool attr = target->kind == TS_TREE_ATTR;
    if (!attr && !ts_type_is_subtype_of(v->type, t)) {
        char a[256], b[256];
        return ts_emit_error(e, s->range, "Variable '%s' is annotated with type %s but is "
                             "being assigned to a value of type %s",
                             target->kind == TS_TREE_NAME ? target->str : "target",
                             ts_type_text(t, a, sizeof a), ts_type_text(v->type, b, sizeof b));
    }
    if (v->type != t && ts_type_kind(t) != TS_TYPE_TENSOR && !attr) {
        /* the variable takes the declared type (None into Optional[int], ...); an attribute
         * takes the value's type (`self.x: Optional[int] = None` is a NoneType attribute),
         * the annotation only typed the value's expression (PyTorch 1.13; Any too: an Any
         * attribute is declared with torch.jit.annotate(Any, ...)). */
        TsNode *n = ts_emit_node(e, "prim::unchecked_cast", 1, &v, 1, s->range);
        if (!n)
            return -1;
        n->outputs[0]->type = t;
        v = n->outputs[0];
    }
    return assign_to(e, target, v, s->range);
}

/* The operator of `x op= y` for a Tensor or List x, as PyTorch 1.13 picks it: the in-place
 * form where there is one (add_, ..., fmod_, __irshift__), else the plain operator (pow,
 * bitwise_or, ...); NULL for an operator without an augmented form here. */
static const char *aug_op(int op)
{
    switch (op) {
    case '+': return "aten::add_";
    case '-': return "aten::sub_";
    case '*': return "aten::mul_";
    case '/': return "aten::div_";
    case '%': return "aten::fmod_";
    case '|': return "aten::bitwise_or";
    case '&': return "aten::bitwise_and";
    case '^': return "aten::bitwise_xor";
    case TS_TK_LSHIFT: return "aten::__lshift__";
    case TS_TK_RSHIFT: return "aten::__irshift__";
    case TS_TK_POW: return "aten::pow";
    default: return NULL;
    }
}

/* cur op= rhs: aug_op for a Tensor or List, the binary operator (or the class's magic
 * method) for anything else. */
static TsIrValue *aug_value(TsEmitter *e, int op, TsIrValue *cur, TsIrValue *rhs,
                            TsSourceRange r)
{
    TsTypeKind k = ts_type_kind(cur->type);
    const char *name = k == TS_TYPE_TENSOR || k == TS_TYPE_LIST ? aug_op(op) : NULL;
    return name ? ts_emit_op2(e, name, cur, rhs, r) : ts_emit_binop(e, op, cur, rhs, r, true);
}

/* t[i] op= x on a tensor: with int and slice indices only, the operator applies to the view
 * (an operator without an in-place form changes nothing, as in PyTorch); with tensor indices
 * the gathered values are updated and written back by aten::index_put_. */
static int aug_assign_tensor_item(TsEmitter *e, const TsTree *s, TsIrValue *obj)
{
    TsIrValue *list, *view = ts_emit_tensor_index_target(e, obj, s->kids[0], &list);
    TsIrValue *cur = view && list ? ts_emit_op2(e, "aten::index", view, list, s->range) : view;
    TsIrValue *rhs = cur ? ts_emit_expr(e, s->kids[1], NULL) : NULL;
    TsIrValue *r = rhs ? aug_value(e, s->op, cur, rhs, s->range) : NULL;
    if (!r)
        return -1;
    return list ? tensor_store(e, view, list, r, s->range) : 0;
}

static int emit_aug_assign(TsEmitter *e, const TsTree *s)
{
    const TsTree *target = s->kids[0];
    TsIrValue *rhs;
    if (target->kind == TS_TREE_NAME) {
        TsIrValue *cur = ts_env_load(e, target->str, target->range);
        if (!cur || !(rhs = ts_emit_expr(e, s->kids[1], NULL)))
            return -1;
        TsIrValue *r = aug_value(e, s->op, cur, rhs, s->range);
        return r ? ts_env_store(e, target->str, r, target->range) : -1;
    }
    if (target->kind == TS_TREE_ATTR) {
        TsIrValue *obj = ts_emit_expr(e, target->kids[0], NULL);
        TsSugared cur;
        if (!obj)
            return -1;
        TsSugared base = { .kind = TS_SV_VALUE, .value = obj };
        if (ts_sugar_attr(e, &base, target->kids[1]->str, target->range, &cur) != 0)
            return -1;
        TsIrValue *cv = ts_sugar_as_value(e, &cur, target->range);
        if (!cv || !(rhs = ts_emit_expr(e, s->kids[1], NULL)))
            return -1;
        TsIrValue *r = aug_value(e, s->op, cv, rhs, s->range);
        return r ? ts_sugar_set_attr(e, obj, target->kids[1]->str, r, target->range) : -1;
    }
    if (target->kind == TS_TREE_SUBSCRIPT) {
        TsIrValue *obj = ts_emit_expr(e, target->kids[0], NULL);
        if (obj && ts_type_kind(obj->type) == TS_TYPE_TENSOR)
            return aug_assign_tensor_item(e, s, obj);
        if (!obj)
            return -1;
        TsTypeKind k = ts_type_kind(obj->type);
        if (k != TS_TYPE_LIST && k != TS_TYPE_DICT) {
            char b[256];
            return ts_emit_error(e, target->range, "%s does not support augmented assignment.",
                                 ts_type_text(obj->type, b, sizeof b));
        }
        if (target->n_kids != 2)
            return ts_emit_error(e, target->range, "multiple indices are only supported on "
                                 "tensors");
        TsIrValue *idx = ts_emit_expr(e, target->kids[1], NULL);
        TsIrValue *cur = idx ? ts_emit_subscript_value(e, obj, idx, target->range) : NULL;
        if (!cur || !(rhs = ts_emit_expr(e, s->kids[1], NULL)))
            return -1;
        /* a dict's item takes the plain operator, a list's aug_op (PyTorch 1.13); an
         * object item the operator too, not its class's magic methods (none matches it) */
        TsIrValue *r;
        if (ts_is_object_type(cur->type)) {
            char name[32];
            snprintf(name, sizeof name, "%s", aug_op(s->op) ? aug_op(s->op) : "aten::add");
            if (name[strlen(name) - 1] == '_')
                name[strlen(name) - 1] = '\0';
            r = ts_emit_op2(e, name, cur, rhs, s->range);
        } else {
            r = k == TS_TYPE_DICT ? ts_emit_binop(e, s->op, cur, rhs, s->range, true)
                                  : aug_value(e, s->op, cur, rhs, s->range);
        }
        return r ? set_item(e, obj, idx, r, s->range) : -1;
    }
    return ts_emit_error(e, target->range, "unsupported target of an augmented assignment");
}

/* ---- return, raise, assert, del ---------------------------------------------------- */

static int emit_return_value(TsEmitter *e, TsIrValue *v, TsSourceRange r)
{
    char a[256], b[256];
    if (e->declared_return) {
        if (!ts_type_is_subtype_of(v->type, e->declared_return))
            return ts_emit_error(e, r, "Return value was annotated as having type %s but is "
                                 "actually of type %s",
                                 ts_type_text(e->declared_return, a, sizeof a),
                                 ts_type_text(v->type, b, sizeof b));
        e->merged_return = e->declared_return;
    } else if (!e->merged_return) {
        e->merged_return = v->type;
    } else {
        const TsType *u = ts_type_unify(e->merged_return, v->type, false);
        if (!u)
            return ts_emit_error(e, r, "Previous return statement returned a value of type %s "
                                 "but this return statement returns a value of type %s",
                                 ts_type_text(e->merged_return, a, sizeof a),
                                 ts_type_text(v->type, b, sizeof b));
        e->merged_return = u;
    }
    if (!ts_emit_node(e, "prim::ReturnStmt", 1, &v, 0, r))
        return -1;
    return ts_env_mark_exit(e, e->env->block);
}

static int emit_return(TsEmitter *e, const TsTree *s)
{
    /* a bare `return` has no child */
    TsIrValue *v = s->n_kids ? ts_emit_expr(e, s->kids[0], e->declared_return)
                             : ts_emit_const(e, ts_none(), s->range);
    return v ? emit_return_value(e, v, s->range) : -1;
}

/* prim::RaiseException(msg, cls): cls the qualified class name, or NULL for none (the
 * error is then a RuntimeError carrying msg alone). */
static int emit_raise_node(TsEmitter *e, TsIrValue *msg, const char *cls, TsSourceRange r)
{
    TsIrValue *cv = !msg ? NULL : cls ? ts_emit_str_const(e, cls, r)
                                      : ts_emit_const(e, ts_none(), r);
    TsIrValue *in[2] = { msg, cv };
    if (!cv || !ts_emit_node(e, "prim::RaiseException", 2, in, 0, r))
        return -1;
    return ts_env_mark_exit(e, e->env->block);
}

/* An AssertionError is raised as PyTorch raises it: a RuntimeError whose message is
 * "AssertionError: " and the exception's message. */
static int emit_raise_assertion(TsEmitter *e, TsIrValue *msg, TsSourceRange r)
{
    TsIrValue *prefix = msg ? ts_emit_str_const(e, "AssertionError: ", r) : NULL;
    TsIrValue *full = prefix ? ts_emit_op2(e, "aten::add", prefix, msg, r) : NULL;
    return full ? emit_raise_node(e, full, NULL, r) : -1;
}

/* raise E("msg") -> prim::RaiseException("msg", "builtins.E"); a class raised without a
 * call carries no message and no class, as in PyTorch. */
static int emit_raise(TsEmitter *e, const TsTree *s)
{
    TsSugared sv;
    if (ts_emit_sugared(e, s->kids[0], NULL, &sv) != 0)
        return -1;
    if (sv.kind != TS_SV_EXCEPTION)
        return ts_emit_error(e, s->range, "exceptions must derive from BaseException");
    if (!sv.value)
        return emit_raise_node(e, ts_emit_str_const(e, "", s->range), NULL, s->range);
    if (strcmp(sv.name, "builtins.AssertionError") == 0)
        return emit_raise_assertion(e, sv.value, s->range);
    return emit_raise_node(e, sv.value, sv.name, s->range);
}

/* A failed assert raises AssertionError(msg): msg as str() writes it, "" when none. */
static int emit_assert_failure(TsEmitter *e, const TsTree *msg_tree, TsSourceRange r)
{
    TsIrValue *msg = msg_tree ? ts_emit_expr(e, msg_tree, NULL) : ts_emit_str_const(e, "", r);
    if (msg && ts_type_kind(msg->type) != TS_TYPE_STR)
        msg = ts_emit_op2(e, "aten::str", msg, NULL, r);
    return msg ? emit_raise_assertion(e, msg, r) : -1;
}

static int emit_if_blocks(TsEmitter *e, const TsCond *c, const TsTree *then_b,
                          const TsTree *else_b, const TsTree *assert_msg, TsSourceRange r);

static int emit_assert(TsEmitter *e, const TsTree *s)
{
    TsCond c;
    if (ts_emit_cond(e, s->kids[0], &c) != 0)
        return -1;
    if (c.static_if == 1)
        return ts_emit_insert_refinements(e, &c.on_true, s->range);
    return emit_if_blocks(e, &c, NULL, NULL, s->kids[1] ? s->kids[1] : s, s->range);
}

static int emit_delete(TsEmitter *e, const TsTree *s)
{
    for (size_t i = 0; i < s->n_kids; i++) {
        const TsTree *t = s->kids[i];
        if (t->kind == TS_TREE_NAME) {
            if (!ts_env_find(e, ts_symbol(t->str)))
                return ts_emit_error(e, t->range, "undefined value %s", t->str);
            if (ts_env_set(e, ts_symbol(t->str), NULL, NULL) != 0)
                return -1;
            TsVar *v = ts_env_find_here(e->env, ts_symbol(t->str));
            char msg[300];
            snprintf(msg, sizeof msg, "undefined value %s", t->str);
            free(v->error);
            if (!(v->error = strdup(msg)))
                return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
            continue;
        }
        if (t->kind == TS_TREE_SUBSCRIPT && t->n_kids == 2 && t->kids[1]->kind == TS_TREE_SLICE)
            return ts_emit_error(e, t->range, "del statements only support deletion at a single "
                                 "index, slicing is not supported (see "
                                 "https://github.com/pytorch/pytorch/issues/31430)");
        if (t->kind != TS_TREE_SUBSCRIPT || t->n_kids != 2)
            return ts_emit_error(e, t->range, "del statements are only supported for deleting "
                                 "list and dict items and variables");
        TsIrValue *obj = ts_emit_expr(e, t->kids[0], NULL);
        TsIrValue *idx = obj ? ts_emit_expr(e, t->kids[1], NULL) : NULL;
        if (!idx)
            return -1;
        TsNamedValue a[2] = { { NULL, obj, t->range }, { NULL, idx, t->range } };
        if (ts_is_object_type(obj->type)) {   /* del x[k] of an object: x.__delitem__(k) */
            TsSugared out;
            if (ts_sugar_call_method(e, obj, "__delitem__", 1, a + 1, t->range, &out) != 0)
                return -1;
            continue;
        }
        if (!ts_emit_op(e, "aten::Delete", 2, a, t->range))
            return -1;
    }
    return 0;
}

/* ---- if ------------------------------------------------------------------------------ */

/* A branch's frame, detached from the stack after its block was emitted. */
static TsFrame *emit_branch(TsEmitter *e, TsBlock *b, const TsRefineSet *refine,
                            const TsTree *stmts, const TsTree *assert_msg, TsSourceRange r)
{
    if (ts_env_push(e, b, false) != 0)
        return NULL;
    ts_graph_set_insert_end(e->g, b);
    int rc = ts_emit_insert_refinements(e, refine, r);
    if (rc == 0 && stmts)
        rc = ts_emit_block(e, stmts);
    if (rc == 0 && assert_msg)
        rc = emit_assert_failure(e, assert_msg->kind == TS_TREE_ASSERT ? NULL : assert_msg, r);
    TsFrame *f = e->env;
    e->env = f->next;
    f->next = NULL;
    if (rc != 0) {
        ts_env_free(f);
        return NULL;
    }
    return f;
}

/* The type of name as seen at the end of a branch frame (or outside it). */
static TsVar *branch_var(TsEmitter *e, TsFrame *f, const char *name)
{
    TsVar *v = ts_env_find_here(f, name);
    return v ? v : ts_env_find(e, name);
}

static int add_name(const char ***names, size_t *n, size_t *cap, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if ((*names)[i] == name)
            return 0;
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        const char **nn = realloc(*names, nc * sizeof *nn);
        if (!nn)
            return -1;
        *names = nn;
        *cap = nc;
    }
    (*names)[(*n)++] = name;
    return 0;
}

/* Makes name defined (as an uninitialized value) at the end of an exiting branch so SSA
 * conversion sees it on both sides. */
static int store_uninit(TsEmitter *e, TsBlock *b, const char *name, const TsType *t,
                        TsSourceRange r)
{
    ts_graph_set_insert_point(e->g, b->ret);
    TsNode *u = ts_emit_node(e, "prim::Uninitialized", 0, NULL, 1, r);
    if (!u)
        return -1;
    u->outputs[0]->type = t;
    TsNode *st = ts_emit_node(e, "prim::Store", 1, u->outputs, 0, r);
    return st ? ts_node_set_str(st, ts_symbol("attr::name"), name, e->err) : -1;
}

static int join_branches(TsEmitter *e, TsNode *n, TsFrame *tf, TsFrame *ff, TsSourceRange r)
{
    bool t_exit = ts_env_is_exit(e, tf->block), f_exit = ts_env_is_exit(e, ff->block);
    const char **names = NULL;
    size_t nn = 0, cap = 0;
    int rc = 0;
    /* names bound to functions and the like stay in their branch */
    for (size_t i = 0; i < tf->n_vars && rc == 0; i++)
        if (!tf->vars[i].sugar)
            rc = add_name(&names, &nn, &cap, tf->vars[i].name);
    for (size_t i = 0; i < ff->n_vars && rc == 0; i++)
        if (!ff->vars[i].sugar)
            rc = add_name(&names, &nn, &cap, ff->vars[i].name);
    if (rc != 0) {
        free(names);
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < nn && rc == 0; i++) {
        const char *x = names[i];
        TsVar *tv = t_exit ? NULL : branch_var(e, tf, x);
        TsVar *fv = f_exit ? NULL : branch_var(e, ff, x);
        if (t_exit && f_exit)
            continue;
        const TsType *tt = tv ? tv->type : NULL, *ft = fv ? fv->type : NULL;
        if (tv && tv->error)
            tt = NULL;
        if (fv && fv->error)
            ft = NULL;
        if (t_exit && ft)
            rc = store_uninit(e, n->blocks[0], x, tt = ft, r);
        else if (f_exit && tt)
            rc = store_uninit(e, n->blocks[1], x, ft = tt, r);
        if (rc != 0)
            break;
        char msg[1024];
        TsError tmp = TS_ERROR_INIT;
        if (!tt || !ft) {
            TsVar *bad = tv && tv->error ? tv : fv && fv->error ? fv : NULL;
            if (bad) {
                rc = ts_env_set(e, x, NULL, bad->error);
                continue;
            }
            snprintf(msg, sizeof msg, "%s is not defined in the %s branch", x,
                     !tt ? "true" : "false");
            ts_error_at(&tmp, TS_ERR_RUNTIME, r, "%s", msg);
            rc = ts_env_set(e, x, NULL, tmp.msg ? tmp.msg : msg);
            ts_error_clear(&tmp);
            continue;
        }
        const TsType *u = ts_type_unify(tt, ft, false);
        if (!u) {
            char a[256], b[256];
            ts_type_annotation(tt, a, sizeof a);
            ts_type_annotation(ft, b, sizeof b);
            snprintf(msg, sizeof msg, "Type mismatch: %s is set to type %s in the true branch "
                     "and type %s in the false branch", x, a, b);
            ts_error_at(&tmp, TS_ERR_RUNTIME, r, "%s", msg);
            rc = ts_env_set(e, x, NULL, tmp.msg ? tmp.msg : msg);
            ts_error_clear(&tmp);
            continue;
        }
        TsVar *outer = ts_env_find(e, x);
        if (e->env->is_loop && !ts_env_find_here(e->env, x) && outer && outer->type &&
            !ts_type_is_subtype_of(u, outer->type)) {
            char a[256], b[256];
            ts_type_annotation(outer->type, a, sizeof a);
            ts_type_annotation(u, b, sizeof b);
            rc = ts_emit_error(e, r, "Variable '%s' previously had type %s but is now being "
                               "assigned to a value of type %s", x, a, b);
            break;
        }
        rc = ts_env_set(e, x, u, NULL);
    }
    free(names);
    return rc;
}

static int emit_if_blocks(TsEmitter *e, const TsCond *c, const TsTree *then_b,
                          const TsTree *else_b, const TsTree *assert_msg, TsSourceRange r)
{
    TsNode *n = ts_emit_node(e, "prim::If", 1, (TsIrValue *const *)&c->value, 0, r);
    TsBlock *tb = n ? ts_node_add_block(n, e->err) : NULL;
    TsBlock *fb = tb ? ts_node_add_block(n, e->err) : NULL;
    if (!fb)
        return -1;
    TsFrame *tf = emit_branch(e, tb, &c->on_true, then_b, NULL, r);
    TsFrame *ff = tf ? emit_branch(e, fb, &c->on_false, else_b, assert_msg, r) : NULL;
    int rc = ff ? join_branches(e, n, tf, ff, r) : -1;
    ts_graph_set_insert_point(e->g, n->next);
    bool t_exit = ts_env_is_exit(e, tb), f_exit = ts_env_is_exit(e, fb);
    ts_env_free(tf);
    ts_env_free(ff);
    if (rc != 0)
        return -1;
    if (t_exit && f_exit)
        return ts_env_mark_exit(e, e->env->block);
    if (t_exit)
        return ts_emit_insert_refinements(e, &c->on_false, r);
    if (f_exit)
        return ts_emit_insert_refinements(e, &c->on_true, r);
    return 0;
}

static int emit_if(TsEmitter *e, const TsTree *s)
{
    TsCond c;
    if (ts_emit_cond(e, s->kids[0], &c) != 0)
        return -1;
    if (c.static_if >= 0) {
        const TsTree *b = c.static_if ? s->kids[1] : s->kids[2];
        if (ts_emit_insert_refinements(e, c.static_if ? &c.on_true : &c.on_false, s->range))
            return -1;
        return b ? ts_emit_block(e, b) : 0;
    }
    return emit_if_blocks(e, &c, s->kids[1], s->kids[2], NULL, s->range);
}

/* ---- loops --------------------------------------------------------------------------- */

typedef struct LoopBody {
    const TsTree *target;      /* for: the target, assigned from the iterable */
    TsIterable *it;
    const TsTree *body;        /* statements, or NULL for a comprehension */
    const TsTree *elt, *val;   /* comprehension element (and dict value) */
    TsIrValue *out;            /* comprehension result */
} LoopBody;

static int emit_comp_elt(TsEmitter *e, const LoopBody *lb, TsSourceRange r)
{
    bool is_dict = lb->val != NULL;
    const TsType *want = lb->out->type;
    const TsType *ke = want ? ts_type_elem(want, 0) : NULL;
    const TsType *ve = want ? ts_type_elem(want, is_dict ? 1 : 0) : NULL;
    TsIrValue *k = ts_emit_expr(e, lb->elt, is_dict ? ke : ve);
    TsIrValue *v = k && is_dict ? ts_emit_expr(e, lb->val, ve) : k;
    if (!v)
        return -1;
    char kbuf[512];
    if (is_dict && ts_dict_key_error(k->type, kbuf, sizeof kbuf))
        return ts_emit_error(e, r, "%s", kbuf);
    if (!lb->out->type)
        lb->out->type = is_dict ? ts_type_dict(k->type, v->type) : ts_type_list(v->type);
    if (is_dict) {
        TsNamedValue a[3] = { { NULL, lb->out, r }, { NULL, k, r }, { NULL, v, r } };
        return ts_emit_op(e, "aten::_set_item", 3, a, r) ? 0 : -1;
    }
    return ts_emit_op2(e, "aten::append", lb->out, v, r) ? 0 : -1;
}

static int emit_loop_body(TsEmitter *e, const LoopBody *lb, TsIrValue *elem, TsSourceRange r)
{
    if (lb->target && assign_to(e, lb->target, elem, r) != 0)
        return -1;
    if (lb->elt)
        return emit_comp_elt(e, lb, r);
    return ts_emit_block(e, lb->body);
}

/* prim::Loop(max_trip_count) with the body as block 0 and the condition as block 1 (SSA
 * conversion moves the condition into place, as PyTorch's InlineLoopCondition). */
static int emit_loop(TsEmitter *e, TsIrValue *trip, const TsTree *cond, const LoopBody *lb,
                     TsSourceRange r)
{
    if (!trip && !(trip = ts_emit_const(e, ts_int(INT64_MAX), r)))
        return -1;
    TsNode *n = ts_emit_node(e, "prim::Loop", 1, &trip, 0, r);
    TsBlock *body = n ? ts_node_add_block(n, e->err) : NULL;
    TsBlock *cb = body ? ts_node_add_block(n, e->err) : NULL;
    if (!cb)
        return -1;
    TsIrValue *out;
    if (cond) {
        if (ts_env_push(e, cb, false) != 0)
            return -1;
        ts_graph_set_insert_end(e->g, cb);
        TsCond c;
        int rc = ts_emit_cond(e, cond, &c);
        ts_env_pop(e);
        if (rc != 0)
            return -1;
        out = c.value;
    } else {
        ts_graph_set_insert_point(e->g, n);
        out = ts_emit_const(e, ts_bool(true), r);
    }
    if (!out || ts_block_add_output(cb, out, e->err) != 0)
        return -1;
    TsIrValue *i = ts_block_add_input(body, NULL, ts_type_int(), e->err);
    if (!i || ts_env_push(e, body, true) != 0)
        return -1;
    e->env->is_comp = lb->elt != NULL;
    ts_graph_set_insert_end(e->g, body);
    e->loop_depth++;
    TsIrValue *elem = lb->it ? ts_iter_get(e, lb->it, i, r) : NULL;
    int rc = (lb->it && !elem) ? -1 : emit_loop_body(e, lb, elem, r);
    e->loop_depth--;
    ts_env_pop(e);
    ts_graph_set_insert_point(e->g, n->next);
    return rc;
}

static int emit_while(TsEmitter *e, const TsTree *s)
{
    if (s->kids[2])
        return ts_emit_error(e, s->range, "else branches of while loops aren't supported");
    LoopBody lb = { .body = s->kids[1] };
    return emit_loop(e, NULL, s->kids[0], &lb, s->range);
}

int ts_emit_for_common(TsEmitter *e, const TsTree *target, const TsTree *iter,
                       const TsTree *body, const TsTree *comp_elt, const TsTree *comp_val,
                       TsIrValue *comp_out, TsSourceRange r);

int ts_emit_for_common(TsEmitter *e, const TsTree *target, const TsTree *iter,
                       const TsTree *body, const TsTree *comp_elt, const TsTree *comp_val,
                       TsIrValue *comp_out, TsSourceRange r)
{
    TsIterable it;
    if (ts_sugar_iter(e, iter, &it) != 0)
        return -1;
    LoopBody lb = { target, &it, body, comp_elt, comp_val, comp_out };
    long n = ts_iter_unrolled_len(e, &it);
    if (n >= 0) {
        /* tuples and enum classes: the body is emitted once per element, in place */
        /* break and continue there cannot leave an enclosing real loop either */
        int loop_depth = e->loop_depth;
        e->loop_depth = 0;
        e->unrolled_depth++;
        int rc = 0;
        for (long k = 0; k < n && rc == 0; k++) {
            TsIrValue *elem = ts_iter_unrolled_get(e, &it, k, r);
            if (!elem)
                rc = -1;
            else if (!comp_elt)
                rc = emit_loop_body(e, &lb, elem, r);
            else if ((rc = ts_env_push(e, e->env->block, false)) == 0) {
                e->env->is_comp = true;   /* the comprehension's own scope, per element */
                rc = emit_loop_body(e, &lb, elem, r);
                ts_env_pop(e);
            }
        }
        e->unrolled_depth--;
        e->loop_depth = loop_depth;
        return rc;
    }
    TsIrValue *trip = ts_iter_len(e, &it, r);
    return trip ? emit_loop(e, trip, NULL, &lb, r) : -1;
}

static int emit_for(TsEmitter *e, const TsTree *s)
{
    if (s->kids[3])
        return ts_emit_error(e, s->range, "else branches of for loops aren't supported");
    return ts_emit_for_common(e, s->kids[0], s->kids[1], s->kids[2], NULL, NULL, NULL,
                              s->range);
}

static int emit_break_continue(TsEmitter *e, const TsTree *s)
{
    bool brk = s->kind == TS_TREE_BREAK;
    if (e->loop_depth == 0) {
        if (e->unrolled_depth)
            return ts_emit_error(e, s->range, "Because we emit iteration over modulelists or "
                                 "tuples as unrolled loops, we do not support break or "
                                 "continue inside the body of these loops");
        return ts_emit_error(e, s->range, brk ? "SyntaxError: 'break' outside loop"
                                              : "SyntaxError: 'continue' not properly in loop");
    }
    if (!ts_emit_node(e, brk ? "prim::BreakStmt" : "prim::ContinueStmt", 0, NULL, 0, s->range))
        return -1;
    return ts_env_mark_exit(e, e->env->block);
}

/* ---- with ---------------------------------------------------------------------------- */

/* with a as x, b: prim::Enter(ctx) before a prim::With node whose body block holds the
 * statements and whose second block the prim::Exit(ctx) calls; the exit transform sees the
 * structure, and cleanup flattens it back into Enter ... Exit as PyTorch prints it. */
static int emit_with(TsEmitter *e, const TsTree *s)
{
    size_t n_items = s->n_kids - 1;
    TsIrValue *ctx[16];
    if (n_items > 16)
        return ts_emit_error(e, s->range, "too many with items");
    size_t n_ctx = 0;
    for (size_t i = 0; i < n_items; i++) {
        const TsTree *item = s->kids[i];
        TsSourceRange ir = item->kids[0]->range;
        TsSugared sv;
        if (ts_emit_sugared(e, item->kids[0], NULL, &sv) != 0)
            return -1;
        TsIrValue *v = ts_sugar_as_value(e, &sv, ir);
        if (!v)
            return -1;
        TsClassInfo *ci = ts_is_object_type(v->type)
                              ? ts_compiler_class_of_type(e->c, v->type) : NULL;
        if (!ci)
            return ts_emit_error(e, ir, "With item expression must return an object");
        TsDefInfo *enter = ts_class_method(ci, "__enter__");
        TsDefInfo *exit = ts_class_method(ci, "__exit__");
        if (!enter || !exit)
            return ts_emit_error(e, ir, "Object returned by with item expression does not "
                                 "define __enter__ and __exit__ methods");
        TsFunction *fn = ts_compiler_function(e->c, enter, ir, e->err);
        if (!fn)
            return -1;
        if (fn->schema->n_args != 1)
            return ts_emit_error(e, ir, "__enter__ must have only one argument and one return "
                                 "value");
        TsFunction *xf = ts_compiler_function(e->c, exit, ir, e->err);
        if (!xf)
            return -1;
        if (xf->schema->n_args != 4)
            return ts_emit_error(e, ir, "__exit__ must have four arguments");
        for (size_t k = 1; k < 4; k++)
            if (ts_type_kind(xf->schema->args[k].type) != TS_TYPE_ANY)
                return ts_emit_error(e, ir, "argument %zu of __exit__ must have Any type; "
                                     "TorchScript does not currently support passing "
                                     "exception type, value, or traceback to the __exit__ "
                                     "function.", k);
        TsNode *en = ts_emit_node(e, "prim::Enter", 1, &v, 1, item->range);
        if (!en)
            return -1;
        en->outputs[0]->type = fn->schema->n_returns ? fn->schema->returns[0].type
                                                     : ts_type_none();
        if (item->kids[1] && assign_to(e, item->kids[1], en->outputs[0], item->range) != 0)
            return -1;
        ctx[n_ctx++] = v;
    }
    if (!n_ctx)
        return ts_emit_block(e, s->kids[n_items]);
    TsNode *w = ts_emit_node(e, "prim::With", 0, NULL, 0, s->range);
    TsBlock *body = w ? ts_node_add_block(w, e->err) : NULL;
    TsBlock *exit = body ? ts_node_add_block(w, e->err) : NULL;
    if (!exit)
        return -1;
    ts_graph_set_insert_end(e->g, exit);
    for (size_t i = n_ctx; i-- > 0;) {
        TsNode *x = ts_emit_node(e, "prim::Exit", 1, &ctx[i], 1, s->range);
        if (!x)
            return -1;
        x->outputs[0]->type = ts_type_any();
    }
    ts_graph_set_insert_end(e->g, body);
    int rc = ts_emit_block(e, s->kids[n_items]);
    ts_graph_set_insert_point(e->g, w->next);
    return rc;
}

/* ---- dispatch -------------------------------------------------------------------------- */

static int emit_stmt(TsEmitter *e, const TsTree *s)
{
    TsSugared sv;
    switch (s->kind) {
    case TS_TREE_EXPR_STMT:
        return ts_emit_sugared(e, s->kids[0], NULL, &sv);
    case TS_TREE_ASSIGN:
        return emit_assign(e, s);
    case TS_TREE_ANN_ASSIGN:
        return emit_ann_assign(e, s);
    case TS_TREE_AUG_ASSIGN:
        return emit_aug_assign(e, s);
    case TS_TREE_RETURN:
        return emit_return(e, s);
    case TS_TREE_RAISE:
        if (!s->kids[0])   /* PyTorch's frontend fails on it too */
            return ts_emit_error(e, s->range, "a bare raise (re-raising the current "
                                 "exception) is not supported: there is no exception to "
                                 "re-raise in TorchScript");
        return emit_raise(e, s);
    case TS_TREE_ASSERT:
        return emit_assert(e, s);
    case TS_TREE_DELETE:
        return emit_delete(e, s);
    case TS_TREE_PASS:
        return 0;
    case TS_TREE_BREAK:
    case TS_TREE_CONTINUE:
        return emit_break_continue(e, s);
    case TS_TREE_IF:
        return emit_if(e, s);
    case TS_TREE_WHILE:
        return emit_while(e, s);
    case TS_TREE_FOR:
        return emit_for(e, s);
    case TS_TREE_WITH:
        return emit_with(e, s);
    case TS_TREE_DEF:
        /* an archive's printer writes what fork runs as a closure: def f(): ... fork(f) */
        if (e->c->archive && s->kids[2] && s->kids[2]->n_kids == 0) {
            TsSugared closure = { .kind = TS_SV_CLOSURE, .tree = s };
            return ts_env_bind_sugar(e, ts_symbol(s->kids[0]->str), &closure);
        }
        return ts_emit_error(e, s->range, "function definitions aren't supported");
    case TS_TREE_CLASS:
        return ts_emit_error(e, s->range, "class definitions aren't supported");
    case TS_TREE_GLOBAL:
        return ts_emit_error(e, s->range, "global variables aren't supported");
    case TS_TREE_IMPORT:
    case TS_TREE_IMPORT_FROM:
        return ts_emit_error(e, s->range, "import statements aren't supported");
    default:
        return ts_emit_error(e, s->range, "%s aren't supported", ts_tree_kind_name(s->kind));
    }
}

/* ---- functions ----------------------------------------------------------------------- */

typedef struct ParamInfo {
    const char *name;
    const TsType *type;
    bool kwarg_only;           /* after a bare `*` */
    bool has_default;
    bool inferred;             /* no annotation: a Tensor by default */
    TsValue def;
    long fixed_size;           /* N of BroadcastingListN[T], else -1 */
} ParamInfo;

static void free_params(ParamInfo *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i].has_default)
            ts_value_release(p[i].def);
    free(p);
}

static TsSchema *make_schema(TsEmitter *e, ParamInfo *p, size_t n, const TsType *ret)
{
    TsSchema *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->name = strdup(e->d->impl ? e->d->impl->qualname : e->d->qualname);
    s->overload = strdup("");
    s->args = calloc(n ? n : 1, sizeof *s->args);
    s->returns = calloc(1, sizeof *s->returns);
    if (!s->name || !s->overload || !s->args || !s->returns) {
        ts_schema_free(s);
        return NULL;
    }
    s->n_args = n;
    for (size_t i = 0; i < n; i++) {
        TsArg *a = &s->args[i];
        a->name = strdup(p[i].name);
        a->type = p[i].type;
        a->fixed_size = p[i].fixed_size;
        a->has_default = p[i].has_default;
        a->kwarg_only = p[i].kwarg_only;
        a->inferred = p[i].inferred;
        if (p[i].has_default) {
            a->default_value = p[i].def;
            p[i].has_default = false;
        }
        if (!a->name) {
            ts_schema_free(s);
            return NULL;
        }
    }
    s->n_returns = 1;
    s->returns[0].type = ret;
    s->returns[0].fixed_size = -1;
    return s;
}

/* `padding: BroadcastingList2[int] = 0`: a single default stands for the list of N. */
static int broadcast_default(TsEmitter *e, const TsTree *t, ParamInfo *p)
{
    const TsType *list = ts_type_kind(p->type) == TS_TYPE_OPTIONAL ? ts_type_elem(p->type, 0)
                                                                   : p->type;
    const TsType *et = ts_type_elem(list, 0);
    TsValue one;
    ts_error_clear(e->err);
    if (ts_emit_default(e, t, p->name, et, false, &one) != 0)
        return -1;
    TsList *l = ts_list_new(et, (size_t)p->fixed_size, e->err);
    for (long i = 0; l && i < p->fixed_size; i++) {
        ts_value_retain(one);
        if (ts_list_append(l, one, e->err) != 0) {
            ts_heap_release(&l->h);
            l = NULL;
        }
    }
    ts_value_release(one);
    if (!l)
        return -1;
    p->def = ts_obj_value(l, TS_TAG_LIST);
    return 0;
}

/* The parameters: a bare `*` makes the ones after it keyword-only, which PyTorch takes
 * without defaults only; *args and **kwargs it refuses. */
/* An overload's declaration against its implementation, as PyTorch checks them: no more
 * parameters, the same names, annotations, and defaults that equal the implementation's
 * (which are the ones the overload takes). */
static int check_overload(TsEmitter *e, const TsTree *def, const TsTree *impl)
{
    const TsTree *params = def->kids[2], *ip = impl->kids[2];
    if (params->n_kids > ip->n_kids)
        return ts_emit_error(e, impl->range, "Overload should not have more parameters than "
                             "implementation function");
    bool annotated = def->kids[3] || (def->n_kids > 5 && def->kids[5]);
    for (size_t k = 0; k < params->n_kids; k++) {
        const TsTree *a = params->kids[k]->kids[0], *b = ip->kids[k]->kids[0];
        annotated = annotated || params->kids[k]->kids[1];
        if (!a || !b || strcmp(a->str, b->str) != 0)
            return ts_emit_error(e, params->kids[k]->range, "Overload parameters must have the "
                                 "same names. Found %s and %s on argument %zu",
                                 a ? a->str : "*", b ? b->str : "*", k);
    }
    if (!annotated)
        return ts_emit_error(e, def->range, "Must explicitly add type annotations to "
                             "overloaded functions");
    for (size_t k = 0; k < params->n_kids; k++) {
        /* the two defaults compared as Python values, before any conversion */
        const TsTree *par = params->kids[k], *mine = par->kids[2], *theirs = ip->kids[k]->kids[2];
        const TsType *any = ts_type_any();
        TsValue a, b;
        bool same = false;
        if (!mine)
            continue;
        if (theirs && ts_emit_default(e, mine, par->kids[0]->str, any, false, &a) == 0) {
            if (ts_emit_default(e, theirs, par->kids[0]->str, any, false, &b) == 0) {
                same = ts_value_equal(a, b);
                ts_value_release(b);
            }
            ts_value_release(a);
        }
        ts_error_clear(e->err);
        if (!same)
            return ts_emit_error(e, def->range, "Default parameters on overloads do not affect "
                                 "the runtime so they must equal to the default parameter on "
                                 "the implementation function. Found on parameter %s",
                                 par->kids[0]->str);
    }
    return 0;
}

/* The k-th parameter of d: an overload's own, then those its implementation has beyond
 * them; *dflt is its default, an overload's the implementation's. */
static const TsTree *param_tree(const TsDefInfo *d, const TsTree *def, size_t k,
                                const TsTree **dflt)
{
    const TsTree *params = def->kids[2];
    const TsTree *ip = d->impl ? d->impl->def->kids[2] : NULL;
    const TsTree *par = k < params->n_kids ? params->kids[k] : ip->kids[k];
    *dflt = ip ? ip->kids[k]->kids[2] : par->kids[2];
    return par;
}

/* The def's signature type comment, or NULL (none, or a misplaced one: parser.c). */
static const TsTree *sig_comment(const TsTree *def)
{
    const TsTree *tc = def->n_kids > 5 ? def->kids[5] : NULL;
    return tc && !tc->flag ? tc : NULL;
}

/* A script class's method that PyTorch drops (@torch.jit.unused, @ignore(drop=True)): its
 * body is a raise of RuntimeError("Cannot call @unused methods"), its parameters Any. */
static bool dropped(const TsDefInfo *d)
{
    return d->is_unused && d->cls && d->cls->kind == TS_CLASS_SCRIPT && !d->cls->is_module &&
           !d->cls->qualname;
}

static int collect_params(TsEmitter *e, const TsTree *def, ParamInfo **out, size_t *n_out)
{
    static const char refused[] = "Compiled functions can't take variable number of "
                                  "arguments or use keyword-only arguments with defaults";
    const TsTree *params = def->kids[2];
    const TsTree *tc = sig_comment(def);
    size_t n = 0, n_trees = e->d->impl ? e->d->impl->def->kids[2]->n_kids : params->n_kids;
    const TsTree *dflt;
    for (size_t i = 0; i < n_trees; i++)
        n += param_tree(e->d, def, i, &dflt)->kids[0] != NULL;   /* all but a bare `*` */
    ParamInfo *p = calloc(n ? n : 1, sizeof *p);
    if (!p)
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    bool method = e->d->cls && !e->d->is_static;
    size_t tc_args = tc ? tc->kids[0]->n_kids : 0;
    if (tc && tc_args != n - (method ? 1 : 0) && !(method && tc_args == n)) {
        free(p);
        return ts_emit_error(e, tc->range, "Number of type annotations (%zu) did not match "
                             "the number of function parameters (%zu)", tc_args,
                             n - (method ? 1 : 0));
    }
    bool kwonly = false;
    for (size_t k = 0, i = 0; k < n_trees; k++) {
        const TsTree *par = param_tree(e->d, def, k, &dflt);
        if (par->ival == TS_PARAM_VARARGS && !par->kids[0]) {
            kwonly = true;
            continue;
        }
        if (par->ival == TS_PARAM_VARARGS || par->ival == TS_PARAM_KWARGS ||
            (kwonly && dflt)) {
            free_params(p, i);
            return ts_emit_error(e, kwonly && dflt ? dflt->range : par->range, refused);
        }
        if (!(p[i].name = ts_symbol(par->kids[0]->str))) {
            free_params(p, i);
            return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        }
        p[i].kwarg_only = kwonly;
        const TsTree *ann = par->kids[1];
        if (method && i == 0)
            p[i].type = e->d->cls->type;
        else if (dropped(e->d))   /* the stub's parameters are all Any */
            p[i].type = ts_type_any();
        else if (ann)
            p[i].type = ts_emit_type(e, ann);
        else if (tc && k < params->n_kids)
            p[i].type = ts_emit_type(e, tc->kids[0]->kids[i - (method && tc_args < n)]);
        else
            p[i].type = ts_type_tensor(), p[i].inferred = true;
        if (!p[i].type) {
            free_params(p, i);
            return -1;
        }
        p[i].fixed_size = ts_broadcast_size(ann);
        /* an interface's method declares no defaults: a call gives every argument */
        if (dflt && e->d->cls && e->d->cls->kind == TS_CLASS_INTERFACE)
            dflt = NULL;
        if (dflt) {
            bool inferred = !ann && !tc && !(method && i == 0);
            if (ts_emit_default(e, dflt, p[i].name, p[i].type, inferred, &p[i].def) != 0 &&
                (p[i].fixed_size < 0 || broadcast_default(e, dflt, &p[i]) != 0)) {
                if (!e->d->impl || e->err->code == TS_ERR_NOMEM) {
                    free_params(p, i);
                    return -1;
                }
                /* an overload leaves out an implementation's default its type does not
                 * take (torch.norm's p="fro" where p is a number), as PyTorch does */
                ts_error_clear(e->err);
            } else {
                p[i].has_default = true;
            }
        }
        i++;
    }
    *out = p;
    *n_out = n;
    return 0;
}

static int finish_body(TsEmitter *e, const TsTree *def);

static int emit_body(TsEmitter *e, const TsTree *def, ParamInfo *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        TsIrValue *v = ts_graph_add_input(e->g, p[i].name, p[i].type, e->err);
        if (!v || ts_env_store(e, p[i].name, v, def->range) != 0)
            return -1;
    }
    const TsTree *ret = def->kids[3];
    const TsTree *tc = sig_comment(def);
    /* an __init__ without an annotation returns what it returns, as any function: PyTorch
     * takes `return 5` there, and a construction drops the value */
    if ((ret || tc) && !(e->declared_return = ts_emit_type(e, ret ? ret : tc->kids[1])))
        return -1;
    if (dropped(e->d)) {   /* the stub PyTorch parses in place of a class's method */
        if (emit_raise_node(e, ts_emit_str_const(e, "Cannot call @unused methods", def->range),
                            "builtins.RuntimeError", def->range) != 0)
            return -1;
    } else if (e->d->is_unused) {   /* PyTorch's stub for a @torch.jit.unused function */
        if (emit_raise_node(e, ts_emit_str_const(e, "This Python function is annotated to be "
                                                 "ignored and cannot be run", def->range),
                            NULL, def->range) != 0)
            return -1;
    } else if (ts_emit_block(e, e->d->impl ? e->d->impl->def->kids[4] : def->kids[4]) != 0) {
        return -1;
    }
    return finish_body(e, def);
}

/* After the body: the return of None where it may end without one, and the graph's
 * output, of the type the returns agree on. */
static int finish_body(TsEmitter *e, const TsTree *def)
{
    TsBlock *top = ts_graph_block(e->g);
    if (!ts_env_is_exit(e, top)) {
        if (e->declared_return && ts_type_kind(e->declared_return) != TS_TYPE_NONE)
            return ts_emit_error(e, def->range, "Function was not annotated as having type "
                                 "None, but does not return along all paths");
        TsIrValue *none = ts_emit_const(e, ts_none(), def->range);
        if (!none || emit_return_value(e, none, def->range) != 0)
            return -1;
    } else if (!e->merged_return) {
        e->merged_return = e->declared_return ? e->declared_return : ts_type_none();
    }
    ts_graph_set_insert_end(e->g, top);
    TsNode *ph = ts_emit_node(e, "prim::Uninitialized", 0, NULL, 1, def->range);
    if (!ph)
        return -1;
    ph->outputs[0]->type = e->merged_return;
    return ts_graph_add_output(e->g, ph->outputs[0], e->err);
}

/* Frees the emitter's scopes and, when the body was emitted (rc 0), turns its graph into
 * SSA form without early exits. */
static int finish_graph(TsEmitter *e, int rc)
{
    ts_env_free(e->env);
    free(e->exit_blocks);
    free(e->bound);
    if (rc == 0)
        rc = ts_convert_to_ssa(e->g, e->err);
    if (rc == 0)
        rc = ts_transform_exits(e->g, e->err);
    if (rc == 0)
        rc = ts_emit_cleanup(e->g, e->err);
    return rc;
}

/* The names a tree reads (at most max, deduplicated). */
static void names_read(const TsTree *t, const char **names, size_t max, size_t *n)
{
    if (!t)
        return;
    if (t->kind == TS_TREE_NAME) {
        const char *s = ts_symbol(t->str);
        for (size_t i = 0; i < *n; i++)
            if (names[i] == s)
                return;
        if (s && *n < max)
            names[(*n)++] = s;
        return;
    }
    for (size_t i = 0; i < t->n_kids; i++)
        names_read(t->kids[i], names, max, n);
}

TsGraph *ts_emit_closure(TsEmitter *e, const TsTree *def, TsIrValue **captured, size_t max,
                         size_t *n, const TsType **ret)
{
    const char *names[256];
    size_t n_names = 0;
    names_read(def->kids[4], names, 256, &n_names);
    TsEmitter in = { .c = e->c, .d = e->d, .err = e->err };
    if (!(in.g = ts_graph_new(e->err)))
        return NULL;
    int rc = ts_env_push(&in, ts_graph_block(in.g), false);
    *n = 0;
    for (size_t i = 0; i < n_names && rc == 0; i++) {
        const TsVar *v = ts_env_find(e, names[i]);
        if (!v || !v->type || v->sugar)   /* not a value of the enclosing scope */
            continue;
        if (*n >= max)
            rc = ts_emit_error(e, def->range, "a closure reads too many values");
        else if (!(captured[*n] = ts_env_load(e, names[i], def->range)))
            rc = -1;
        TsIrValue *p = rc == 0 ? ts_graph_add_input(in.g, names[i], captured[*n]->type,
                                                    e->err) : NULL;
        if (rc == 0 && (!p || ts_env_store(&in, names[i], p, def->range) != 0))
            rc = -1;
        (*n)++;
    }
    if (rc == 0)
        rc = ts_emit_block(&in, def->kids[4]);
    if (rc == 0)
        rc = finish_body(&in, def);
    *ret = in.merged_return;
    if (finish_graph(&in, rc) != 0) {
        ts_graph_free(in.g);
        return NULL;
    }
    return in.g;
}

TsGraph *ts_emit_function(TsCompiler *c, TsDefInfo *d, TsSchema **schema, TsError *err)
{
    if (ts_parse_check_code_def(d->def, c->archive, err) != 0 ||
        (d->impl && ts_parse_check_def(d->impl->def, err) != 0))
        return NULL;
    TsEmitter e = { .c = c, .d = d, .err = err };
    ParamInfo *p = NULL;
    size_t n = 0;
    if (!(e.g = ts_graph_new(err)))
        return NULL;
    int rc = ts_env_push(&e, ts_graph_block(e.g), false);
    if (rc == 0 && d->impl)
        rc = check_overload(&e, d->def, d->impl->def);
    if (rc == 0)
        rc = collect_params(&e, d->def, &p, &n);
    if (rc == 0)
        rc = emit_body(&e, d->def, p, n);
    if (finish_graph(&e, rc) != 0)
        rc = -1;
    if (rc == 0 && !(*schema = make_schema(&e, p, n, e.merged_return)))
        rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    free_params(p, n);
    if (rc != 0) {
        ts_graph_free(e.g);
        return NULL;
    }
    return e.g;
}
