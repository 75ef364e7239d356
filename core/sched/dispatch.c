/* dispatch.c — choosing a backend's kernel for an operator call (the rule: dispatch.h).
 *
 * Binding records, per node, where the call's device comes from (which input is the first
 * tensor, the first optional tensor or tensor list, the device argument) and binds the
 * kernel the default backend gets; a call then finds its device type and, when it is not
 * the bound one, looks the kernel up by the device type's name.
 */
#include "sched/dispatch.h"

#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static bool is_tensor(const TsType *t) { return ts_type_kind(t) == TS_TYPE_TENSOR; }

/* Tensor?, Tensor[] (and Tensor?[]): may carry the call's device. */
static bool may_be_tensors(const TsType *t)
{
    TsTypeKind k = ts_type_kind(t);
    if (k != TS_TYPE_OPTIONAL && k != TS_TYPE_LIST)
        return false;
    const TsType *e = ts_type_elem(t, 0);
    return is_tensor(e) || (ts_type_kind(e) == TS_TYPE_OPTIONAL &&
                            is_tensor(ts_type_elem(e, 0)));
}

static bool is_device(const TsType *t)
{
    if (ts_type_kind(t) == TS_TYPE_OPTIONAL)
        t = ts_type_elem(t, 0);
    return ts_type_kind(t) == TS_TYPE_DEVICE;
}

static bool holds_tensors(const TsType *t)
{
    return is_tensor(t) || may_be_tensors(t);
}

/* The device type an entry is the kernel of: -1 for TS_BACKEND_ANY or an unknown name. */
static int entry_type(const TsKernelEntry *e)
{
    return strcmp(e->backend, TS_BACKEND_ANY) == 0 ? -1 : ts_device_type_lookup(e->backend);
}

const TsKernelEntry *ts_dispatch_bind(TsBoundKernel *k, const TsNode *n, TsRuntime *rt)
{
    const TsOperator *op = k->op;
    k->tensor_input = k->tensors_input = k->device_input = -1;
    for (size_t i = 0; i < n->n_inputs; i++) {
        const TsType *t = n->inputs[i]->type;
        if (k->tensor_input < 0 && is_tensor(t))
            k->tensor_input = (int)i;
        else if (k->tensors_input < 0 && may_be_tensors(t))
            k->tensors_input = (int)i;
        else if (k->device_input < 0 && is_device(t))
            k->device_input = (int)i;
    }
    /* the arguments whose storages the kernel writes ("Tensor(a!) self"): their versions
     * move at each call (tscript/tensor.h, ts_storage_version) */
    k->writes = 0;
    for (size_t i = 0; i < op->schema->n_args && i < 64; i++) {
        const TsArg *a = &op->schema->args[i];
        if (a->alias && a->alias->is_write && holds_tensors(a->type))
            k->writes |= (uint64_t)1 << i;
    }
    k->makes_tensors = false;
    for (size_t i = 0; i < op->schema->n_returns && !k->makes_tensors; i++)
        k->makes_tensors = holds_tensors(op->schema->returns[i].type);
    for (size_t i = 0; i < n->n_outputs && !k->makes_tensors; i++)
        k->makes_tensors = holds_tensors(n->outputs[i]->type);

    /* The default backend's kernel (its own or the TS_BACKEND_ANY one), else the host's,
     * else whatever there is: a call on another device finds its own at run time. */
    int dflt = ts_runtime_default_device_type(rt);
    const TsKernelEntry *e = ts_operator_kernel(op, ts_device_type_name(dflt));
    k->bound_type = dflt;
    if (!e) {
        e = ts_operator_kernel_exact(op, "cpu");
        k->bound_type = TS_DEV_CPU;
    }
    if (!e && op->n_kernels) {
        e = &op->kernels[0];
        k->bound_type = entry_type(e);
    }
    k->entry = e;
    k->fn = e ? e->fn : NULL;
    k->dispatch = !(op->n_kernels == 1 && e && strcmp(e->backend, TS_BACKEND_ANY) == 0);
    return e;
}

int ts_dispatch_instantiate(TsBoundKernel *k, const TsKernelEntry *e, const TsNode *n,
                            TsError *err)
{
    char full[256];
    ts_operator_full_name(k->op, full, sizeof full);
    const TsType **types = malloc((n->n_inputs + n->n_outputs + 1) * sizeof *types);
    if (!types)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n->n_inputs; i++)
        types[i] = n->inputs[i]->type;
    for (size_t i = 0; i < n->n_outputs; i++)
        types[n->n_inputs + i] = n->outputs[i]->type;
    TsNodeInfo ni = {n->kind, n->n_inputs, n->n_outputs, types, types + n->n_inputs, n};
    int rc = e->factory(&ni, &k->fn, &k->data, &k->free_data, err);
    free(types);
    if (rc) {
        ts_error_prefix(err, "binding %s: ", full);
        return -1;
    }
    return 0;
}

/* The device type of a tensor value, or -1 for anything else. */
static int tensor_device(TsValue v)
{
    return v.tag == TS_TAG_TENSOR ? ((const TsTensor *)v.u.p)->device.type : -1;
}

TsKernelFn ts_dispatch(const TsBoundKernel *k, const TsValue *args, TsRuntime *rt,
                       TsError *err)
{
    int type = k->tensor_input >= 0 ? tensor_device(args[k->tensor_input]) : -1;
    if (type < 0 && k->tensors_input >= 0) {
        TsValue v = args[k->tensors_input];
        if (v.tag == TS_TAG_LIST) {
            const TsList *l = (const TsList *)v.u.p;
            for (size_t i = 0; i < l->len && type < 0; i++)
                type = tensor_device(l->items[i]);
        } else {
            type = tensor_device(v);
        }
    }
    if (type < 0 && k->device_input >= 0 && args[k->device_input].tag == TS_TAG_DEVICE)
        type = args[k->device_input].u.dev.type;
    bool by_default = type < 0;
    if (by_default)
        type = ts_runtime_default_device_type(rt);
    if (type == k->bound_type)
        return k->fn;
    const char *name = ts_device_type_name(type);
    const TsKernelEntry *e = name ? ts_operator_kernel(k->op, name) : NULL;
    if (e && e == k->entry)
        return k->fn;
    if (e && e->fn)
        return e->fn;
    if (!e && by_default && !k->makes_tensors && k->fn)
        return k->fn;
    char full[256];
    ts_operator_full_name(k->op, full, sizeof full);
    ts_error_set(err, TS_ERR_RUNTIME, "%s has no kernel for device type '%s'", full,
                 name ? name : "?");
    return NULL;
}

/* ---- resolving a node's operator -------------------------------------------------------- */
/* Does a value of type actual fit formal, with type variables matching anything? */
static bool type_fits(const TsType *actual, const TsType *formal)
{
    TsTypeKind fk = ts_type_kind(formal), ak = ts_type_kind(actual);
    if (fk == TS_TYPE_VAR || fk == TS_TYPE_ANY)
        return true;
    if (fk == TS_TYPE_OPTIONAL) {
        if (ak == TS_TYPE_NONE)
            return true;
        if (ak == TS_TYPE_OPTIONAL)
            return type_fits(ts_type_elem(actual, 0), ts_type_elem(formal, 0));
        return type_fits(actual, ts_type_elem(formal, 0));
    }
    if (fk == ak && (fk == TS_TYPE_LIST || fk == TS_TYPE_DICT || fk == TS_TYPE_FUTURE ||
                     fk == TS_TYPE_TUPLE) &&
        ts_type_num_elems(formal) == ts_type_num_elems(actual)) {
        for (size_t i = 0; i < ts_type_num_elems(formal); i++)
            if (!type_fits(ts_type_elem(actual, i), ts_type_elem(formal, i)))
                return false;
        return true;
    }
    return ts_type_is_subtype_of(actual, formal);
}

/* The first overload n fits in the first npass passes (pass 0: inputs and outputs, pass 1:
 * inputs alone). */
static const TsOperator *resolve_in(const TsOpTable *table, const TsNode *n, int npass)
{
    const TsOperator *ops[64];
    size_t k = ts_optable_overloads(table, n->kind, ops, 64);
    for (int pass = 0; pass < npass; pass++) {
        for (size_t j = 0; j < k; j++) {
            const TsSchema *s = ops[j]->schema;
            if (s->is_vararg ? n->n_inputs < s->n_args : n->n_inputs != s->n_args)
                continue;
            if (!s->is_varret && s->n_returns != n->n_outputs)
                continue;
            bool fits = true;
            for (size_t i = 0; i < s->n_args && fits; i++)
                fits = type_fits(n->inputs[i]->type, s->args[i].type);
            for (size_t i = 0; pass == 0 && !s->is_varret && i < s->n_returns && fits; i++)
                fits = type_fits(n->outputs[i]->type, s->returns[i].type);
            if (fits)
                return ops[j];
        }
    }
    return NULL;
}

/* While the table may grow (deferred plugins), only a first-pass fit among the loaded
 * overloads is final (they come first in declaration order); a kind with loaded overloads
 * none of which fits so loads the rest first, as ts_graph_insert_op does. A kind with none
 * loaded stays unresolved without loading anything: the interpreter's own nodes
 * (prim::Constant) are asked about here too, and a node of a deferred plugin's operator
 * comes from a call that loaded it, or from IR text, which the executor resolves
 * (code.c) by loading the rest. */
const TsOperator *ts_resolve_operator(const TsOpTable *table, const TsNode *n)
{
    if (n->op)
        return n->op;
    if (!ts_optable_settled(table)) {
        const TsOperator *op = resolve_in(table, n, 1), *any[1];
        if (op || ts_optable_overloads(table, n->kind, any, 1) == 0)
            return op;
        TsError ignore = TS_ERROR_INIT;
        int rc = ts_optable_complete(table, &ignore);
        ts_error_clear(&ignore);
        if (rc)
            return NULL;
    }
    return resolve_in(table, n, 2);
}
