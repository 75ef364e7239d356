/* pure.c — the optimizer's purity predicate (see pure.h): from the node's schema, AliasDb's
 * list of nondeterministic operators (ir/alias.h), and a list of nodes with side effects.
 *
 * Written against schemas alone, so that it can later be answered by AliasDb instead: every
 * use of it asks "does this node do anything but compute its outputs from its inputs".
 */
#include <string.h>

#include "ir/alias.h"
#include "ir/passes/pure.h"
#include "registry/optable.h"

/* Nodes that act on the world or on state the graph does not show. */
static const char *const side_effects[] = {
    "prim::Print", "prim::RaiseException", "prim::SetAttr", "prim::Uninitialized",
    "prim::CallFunction", "prim::CallMethod", "prim::fork", "aten::wait", "prim::Enter",
    "prim::Exit", "aten::warn", "aten::manual_seed", "aten::set_grad_enabled",
    "aten::is_grad_enabled", "aten::is_autocast_enabled", "aten::is_autocast_cpu_enabled",
    "prim::Loop", "prim::If", "prim::With", "prim::Param", "prim::Return", NULL
};

/* prim nodes without an operator (the interpreter's own opcodes) that only compute. */
static const char *const pure_prims[] = {
    "prim::Constant", "prim::TupleConstruct", "prim::TupleIndex", "prim::TupleUnpack",
    "prim::ListConstruct", "prim::ListUnpack", "prim::DictConstruct", "prim::unchecked_cast",
    "prim::isinstance", "aten::__is__", "aten::__isnot__", NULL
};

static bool in_list(const char *const *list, const char *s)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return true;
    return false;
}

static bool writes_any(const TsAlias *a)
{
    for (; a; a = a->contained)
        if (a->is_write)
            return true;
    return false;
}

static bool schema_is_pure(const TsSchema *s, const char *kind)
{
    if (s->n_returns == 0 && !s->is_varret)
        return false;
    bool annotated = false;
    for (size_t i = 0; i < s->n_args; i++) {
        if (writes_any(s->args[i].alias))
            return false;
        annotated |= s->args[i].alias != NULL;
    }
    for (size_t i = 0; i < s->n_returns; i++) {
        if (writes_any(s->returns[i].alias))
            return false;
        annotated |= s->returns[i].alias != NULL;
    }
    /* Unannotated operators of other namespaces may write anything (PyTorch's rule). */
    return annotated || strncmp(kind, "aten::", 6) == 0 || strncmp(kind, "prim::", 6) == 0;
}

bool ts_node_is_pure(const TsNode *n)
{
    if (n->n_blocks || in_list(side_effects, n->kind) || ts_alias_node_is_nondeterministic(n))
        return false;
    const TsOperator *op = n->op;
    if (!op)
        return in_list(pure_prims, n->kind);
    return schema_is_pure(op->schema, n->kind);
}

bool ts_type_is_immutable(const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_NONE:
    case TS_TYPE_INT:
    case TS_TYPE_FLOAT:
    case TS_TYPE_COMPLEX:
    case TS_TYPE_BOOL:
    case TS_TYPE_STR:
    case TS_TYPE_NUMBER:
    case TS_TYPE_DEVICE:
    case TS_TYPE_SCALARTYPE:
    case TS_TYPE_LAYOUT:
    case TS_TYPE_MEMORYFORMAT:
    case TS_TYPE_QSCHEME:
        return true;
    case TS_TYPE_TUPLE:
    case TS_TYPE_OPTIONAL:
    case TS_TYPE_UNION:
        for (size_t i = 0; i < ts_type_num_elems(t); i++)
            if (!ts_type_is_immutable(ts_type_elem(t, i)))
                return false;
        return true;
    default:
        return false;
    }
}

/* Does the use of a value as input `offset` of `user` only read it, leaving nothing that
 * aliases it? */
static bool read_only_use(const TsNode *user, size_t offset)
{
    const TsOperator *op = user->op;
    if (!op || !ts_node_is_pure(user) || offset >= op->schema->n_args)
        return false;
    if (!op->schema->args[offset].alias)
        return true;           /* unannotated: outputs are fresh */
    for (size_t i = 0; i < user->n_outputs; i++)
        if (!ts_type_is_immutable(user->outputs[i]->type))
            return false;
    return true;
}

bool ts_value_only_read(const TsIrValue *v)
{
    for (size_t i = 0; i < v->n_uses; i++)
        if (!read_only_use(v->uses[i].user, v->uses[i].offset))
            return false;
    return true;
}

static bool holds_tensors(const TsType *t, int depth)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_TENSOR:
        return true;
    case TS_TYPE_OPTIONAL:
    case TS_TYPE_LIST:
    case TS_TYPE_TUPLE:
        for (size_t i = 0; i < ts_type_num_elems(t) && depth < 4; i++)
            if (holds_tensors(ts_type_elem(t, i), depth + 1))
                return true;
        return false;
    default:
        return false;
    }
}

bool ts_type_holds_tensors(const TsType *t)
{
    return holds_tensors(t, 0);
}
