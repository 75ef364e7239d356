/* run_node.c — one node's operator run on values, outside the interpreter (run_node.h).
 *
 * The kernel is bound as ts_code_build binds it (sched/dispatch.h: the default backend's
 * kernel, a factory instantiated for the node) and dispatched as the interpreter's KERNEL
 * instruction dispatches it; the values go through a stack of their own.
 */
#include <stdlib.h>
#include <string.h>

#include "registry/optable.h"
#include "sched/dispatch.h"
#include "sched/run_node.h"

static int call_kernel(TsRuntime *rt, const TsBoundKernel *k, const TsNode *n,
                       TsStack *stack, TsError *err)
{
    TsKernelFn fn = k->dispatch ? ts_dispatch(k, stack->data, rt, err) : k->fn;
    if (!fn)
        return -1;
    TsCall call = {stack, err, k->data, rt, k->op};
    if (fn(&call)) {
        if (err->code == TS_OK)
            ts_error_set(err, TS_ERR_RUNTIME, "operator failed without a message");
        return -1;
    }
    if (stack->len != n->n_outputs)
        return ts_error_set(err, TS_ERR_RUNTIME, "the kernel of %s left %zu values for %zu "
                            "outputs", n->kind, stack->len, n->n_outputs);
    return 0;
}

int ts_run_node(TsRuntime *rt, const TsNode *n, const TsValue *inputs, TsValue *outputs,
                TsError *err)
{
    TsBoundKernel k;
    memset(&k, 0, sizeof k);
    k.op = n->op;
    if (!k.op)
        return ts_error_set(err, TS_ERR_USAGE, "%s has no operator to run", n->kind);
    const TsKernelEntry *e = ts_dispatch_bind(&k, n, rt);
    if (!e)
        return ts_error_set(err, TS_ERR_RUNTIME, "operator %s has no kernel", n->kind);
    if (e->factory && ts_dispatch_instantiate(&k, e, n, err))
        return -1;
    TsStack stack = {0};
    int rc = ts_stack_reserve(&stack, n->n_inputs + n->n_outputs + 1, err) ? -1 : 0;
    for (size_t i = 0; !rc && i < n->n_inputs; i++) {
        ts_value_retain(inputs[i]);
        stack.data[stack.len++] = inputs[i];
    }
    if (!rc)
        rc = call_kernel(rt, &k, n, &stack, err);
    if (!rc) {
        memcpy(outputs, stack.data, n->n_outputs * sizeof *outputs);
        stack.len = 0;
    }
    ts_stack_free(&stack);
    if (k.free_data)
        k.free_data(k.data);
    return rc;
}
