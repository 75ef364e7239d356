/* call.c — one aten-cpu kernel calling another through its table, for ops PyTorch composes
 * from others (broadcast_to is expand, gather.out stores gather's result): the composed op
 * keeps the callee's checks and messages without a second copy of its code. Also the one
 * ending of kernels with an out= form.
 */
#include <string.h>

#include "engine/elementwise.h"

int ts_cpu_call_kernel(TsCall *c, const TsCpuTable *table, const char *qualname,
                       const char *overload, size_t n, TsValue *args, TsValue *out)
{
    TsKernelFn fn = NULL;
    *out = ts_none();
    for (size_t i = 0; !fn && i < table->n; i++)
        if (!strcmp(table->ops[i].qualname, qualname) && !strcmp(table->ops[i].overload, overload))
            fn = table->ops[i].fn;
    int rc = fn ? ts_stack_reserve(c->stack, n, c->error)
                : ts_error_set(c->error, TS_ERR_RUNTIME, "%s.%s: no cpu kernel", qualname,
                               overload);
    if (rc) {
        for (size_t i = 0; i < n; i++)
            ts_value_release(args[i]);
        return rc;
    }
    for (size_t i = 0; i < n; i++)
        c->stack->data[c->stack->len++] = args[i];     /* room reserved: cannot fail */
    /* the callee binds its arguments by its own operator's schema, not the caller's */
    const TsOperator *caller = c->op;
    c->op = ts_runtime_find_operator(c->runtime, qualname, overload);
    rc = fn(c);
    c->op = caller;
    if (rc)
        return rc;
    *out = ts_stack_pop(c->stack);
    return 0;
}

TsValue ts_cpu_int_list(TsError *err, int n, const int64_t *v)
{
    TsList *l = ts_list_new(ts_type_int(), (size_t)n, err);
    for (int i = 0; l && i < n; i++)
        if (ts_list_append(l, ts_int(v[i]), err)) {
            ts_heap_release(&l->h);
            l = NULL;
        }
    return l ? ts_obj_value(l, TS_TAG_LIST) : ts_none();
}

TsTensor *ts_cpu_call_tensor(TsCall *c, const TsCpuTable *table, const char *qualname,
                             const char *overload, size_t n, TsValue *args)
{
    TsValue r;
    if (ts_cpu_call_kernel(c, table, qualname, overload, n, args, &r))
        return NULL;
    return (TsTensor *)r.u.p;
}

int ts_cpu_store_out(TsTensor *out, const TsTensor *result, TsError *err)
{
    if (ts_aten_resize_out(out, result->dim, result->sizes, &ts_cpu_allocator, err))
        return err->code;
    ts_cpu_copy_into(out, result);
    return 0;
}

int ts_cpu_return_out(TsArgs *a, int rc, TsTensor *result, bool out)
{
    if (!out || rc || !result)
        return ts_args_return_tensor(a, rc, result);
    rc = ts_cpu_store_out((TsTensor *)a->v[a->n - 1].u.p, result, a->call->error);
    ts_tensor_release(result);
    return ts_args_return_arg(a, rc, a->n - 1);
}
