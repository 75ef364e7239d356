/* operators.c — the operator table as inspect.h shows it: the runtime's table (optable.h)
 * read entry by entry, without the core's structs. Asking loads the plugins the runtime
 * deferred (a failure to: what loaded is listed, ts_runtime_load_plugins says why); the
 * table then stays fixed, so everything returned is borrowed from it for the runtime's
 * life. */
#include <stdio.h>
#include <stdlib.h>

#include "registry/optable.h"
#include "registry/schema.h"
#include "runtime.h"

static const TsOpTable *whole_table(const TsRuntime *rt)
{
    const TsOpTable *t = ts_runtime_optable(rt);
    TsError ignore = TS_ERROR_INIT;
    ts_optable_complete(t, &ignore);
    ts_error_clear(&ignore);
    return t;
}

size_t ts_runtime_num_operators(const TsRuntime *rt)
{
    return rt ? ts_optable_size(whole_table(rt)) : 0;
}

const TsOperator *ts_runtime_operator(const TsRuntime *rt, size_t i)
{
    const TsOperator *op = NULL;
    size_t pos = i;
    return rt && ts_optable_next(whole_table(rt), &pos, &op) ? op : NULL;
}

const TsOperator *ts_runtime_find_operator(const TsRuntime *rt, const char *name,
                                           const char *overload)
{
    return rt && name ? ts_optable_find(whole_table(rt), name, overload ? overload : "")
                      : NULL;
}

const char *ts_operator_name(const TsOperator *op) { return op->schema->name; }
const char *ts_operator_overload(const TsOperator *op) { return op->schema->overload; }
const char *ts_operator_plugin(const TsOperator *op) { return op->plugin; }
size_t ts_operator_num_args(const TsOperator *op) { return op->schema->n_args; }
size_t ts_operator_num_returns(const TsOperator *op) { return op->schema->n_returns; }

const char *ts_operator_arg_name(const TsOperator *op, size_t i)
{
    return i < op->schema->n_args ? op->schema->args[i].name : NULL;
}

const TsType *ts_operator_arg_type(const TsOperator *op, size_t i)
{
    return i < op->schema->n_args ? op->schema->args[i].type : NULL;
}

size_t ts_operator_num_kernels(const TsOperator *op) { return op->n_kernels; }

const char *ts_operator_kernel_backend(const TsOperator *op, size_t i)
{
    return i < op->n_kernels ? op->kernels[i].backend : NULL;
}

TsKernelFn ts_operator_kernel_fn(const TsOperator *op, const char *backend)
{
    const TsKernelEntry *k = op ? ts_operator_kernel(op, backend) : NULL;
    return k ? k->fn : NULL;
}

const char *ts_operator_kernel_plugin(const TsOperator *op, size_t i)
{
    return i < op->n_kernels ? op->kernels[i].plugin : NULL;
}

size_t ts_operator_schema(const TsOperator *op, char *buf, size_t size)
{
    char *text = ts_schema_to_string(op->schema);
    int n = text ? snprintf(buf, size, "%s", text) : -1;
    free(text);
    if (n < 0 && size)
        buf[0] = '\0';
    return n < 0 ? 0 : (size_t)n;
}
