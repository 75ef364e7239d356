/* to.c — what a conversion asks for: the overloads of aten::to (dtype, device, other,
 * dtype_layout, prim_dtype, prim_Device, prim_other), Tensor.cpu(), Tensor.cuda() and
 * Tensor.type_as() all say "this dtype, on this device, copied or not", each in its own
 * arguments. Every backend's conversion kernels read it here, by the arguments' names in
 * the operator's schema, and so need one kernel for all of them.
 */
#include <string.h>

#include "tscript/aten.h"

static const char *backend_name(const TsArgs *a)
{
    const char *name = ts_device_type_name(a->device_type);
    return name ? name : "?";
}

int ts_aten_to_target(TsArgs *a, TsAtenTo *to)
{
    const TsOperator *op = a->call->op;
    const char *name = ts_args_op_name(a);
    TsTensor *self;
    int rc = ts_args_tensor(a, 0, &self);
    if (rc)
        return rc;
    to->dtype = self->dtype;
    to->copy = false;
    to->has_device = false;
    to->device = self->device;
    to->memory_format = TS_ATEN_MF_PRESERVE;
    if (strcmp(name, "aten::cpu") == 0 || strcmp(name, "aten::cuda") == 0) {
        to->has_device = true;
        to->device.type = name[6] == 'c' && name[7] == 'p' ? TS_DEV_CPU : TS_DEV_CUDA;
        to->device.index = -1;
        return 0;
    }
    for (size_t i = 1; i < a->n; i++) {
        const char *arg = op ? ts_operator_arg_name(op, i) : NULL;
        TsValue v = a->v[i];
        if (!arg)
            continue;
        if (strcmp(arg, "dtype") == 0 && v.tag == TS_TAG_INT) {
            to->dtype = (int)v.u.i;
        } else if (strcmp(arg, "copy") == 0 && v.tag == TS_TAG_BOOL) {
            to->copy = v.u.b;
        } else if (strcmp(arg, "memory_format") == 0 && v.tag == TS_TAG_INT) {
            to->memory_format = v.u.i;
        } else if (strcmp(arg, "device") == 0 && v.tag == TS_TAG_DEVICE) {
            to->has_device = true;
            to->device = v.u.dev;
        } else if (strcmp(arg, "other") == 0) {
            if (v.tag != TS_TAG_TENSOR)
                return ts_error_set(a->call->error, TS_ERR_TYPE, "%s: argument 'other' must "
                                    "be a Tensor", name);
            const TsTensor *o = (const TsTensor *)v.u.p;
            to->dtype = o->dtype;          /* other may live on any device: self goes there */
            to->has_device = true;
            to->device = o->device;
        }
    }
    if (to->dtype < 0 || to->dtype >= TS_DTYPE__COUNT ||
        ts_aten_promote_types(to->dtype, to->dtype) < 0)
        return ts_error_set(a->call->error, TS_ERR_RUNTIME, "%s: dtype %d is not supported "
                            "by the %s backend", name, to->dtype, backend_name(a));
    if (to->has_device && to->device.type == self->device.type && to->device.index < 0)
        to->device.index = self->device.index;   /* "cuda" is where self is on cuda */
    return 0;
}
