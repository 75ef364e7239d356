/* args.c — argument plumbing shared by the cpu kernels: popping, checking, pushing.
 *
 * The interpreter only calls a kernel with arguments that match its schema, so these checks
 * are a safety net for embedders who call kernels directly: a wrong value is an error, never
 * a crash.
 */
#include <stdio.h>

#include "engine/cpu.h"

void ts_cpu_pop_args(TsCall *c, size_t n, TsValue *argv)
{
    for (size_t i = n; i-- > 0;)
        argv[i] = ts_stack_pop(c->stack);
}

void ts_cpu_release_args(size_t n, TsValue *argv)
{
    for (size_t i = 0; i < n; i++)
        ts_value_release(argv[i]);
}

TsTensor *ts_cpu_tensor_arg(TsCall *c, const char *op, const char *arg, TsValue v)
{
    if (v.tag != TS_TAG_TENSOR) {
        ts_error_set(c->error, TS_ERR_TYPE, "%s: argument '%s' must be a Tensor", op, arg);
        return NULL;
    }
    TsTensor *t = (TsTensor *)v.u.p;
    if (t->device.type != TS_DEV_CPU) {
        char dev[32];
        ts_device_str(t->device, dev, sizeof dev);
        ts_error_set(c->error, TS_ERR_RUNTIME,
                     "%s: the cpu kernel got argument '%s' on device %s", op, arg, dev);
        return NULL;
    }
    return t;
}

int ts_cpu_push_tensor(TsCall *c, TsTensor *t)
{
    return ts_stack_push(c->stack, ts_obj_value(t, TS_TAG_TENSOR), c->error);
}

