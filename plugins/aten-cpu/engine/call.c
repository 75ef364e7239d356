/* call.c — one aten-cpu kernel calling another through its table, for ops PyTorch composes
 * from others (broadcast_to is expand, gather.out stores gather's result): the composed op
 * keeps the callee's checks and messages without a second copy of its code. Also the common
 * ending of kernels with an out= form.
 */
#include <string.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

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
        ts_cpu_release_args(n, args);
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

int ts_cpu_end_out(TsCall *c, size_t n, TsValue *argv, TsTensor *result, bool out)
{
    if (!result || !out)
        return ts_cpu_kernel_end(c, n, argv, result);
    int rc = ts_cpu_store_out((TsTensor *)argv[n - 1].u.p, result, c->error);
    ts_tensor_release(result);
    if (rc) {
        ts_cpu_release_args(n, argv);
        return rc;
    }
    TsValue ret = argv[n - 1];
    argv[n - 1] = ts_none();
    ts_cpu_release_args(n, argv);
    return ts_stack_push(c->stack, ret, c->error);
}
