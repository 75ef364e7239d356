/* nn_out.c — delivering a computed nn result into an out= tensor (see nn_out.h). PyTorch's
 * kernels word the dtype mismatch three ways; two of them name the C++ type ("long int"). */
#include <string.h>

#include "nn/nn_out.h"

/* The C++ name PyTorch's TypeMeta gives a dtype. */
static const char *cpp_name(int dtype)
{
    switch (dtype) {
    case TS_FLOAT32: return "float";
    case TS_FLOAT64: return "double";
    case TS_FLOAT16: return "c10::Half";
    case TS_BFLOAT16: return "c10::BFloat16";
    case TS_INT64: return "long int";
    case TS_INT32: return "int";
    case TS_INT16: return "short int";
    case TS_INT8: return "signed char";
    case TS_UINT8: return "unsigned char";
    case TS_BOOL: return "bool";
    default: return ts_dtype_type_name(dtype);
    }
}

int ts_nn_deliver(TsCall *c, const TsTensor *res, TsTensor *out, TsNnOutRule rule)
{
    TsError *err = c->error;
    if (res->dtype != out->dtype) {
        switch (rule) {
        case TS_NN_OUT_EXPECTED:
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected out tensor to have dtype %s, but "
                                "got %s instead", cpp_name(res->dtype), cpp_name(out->dtype));
        case TS_NN_OUT_SCALAR:
            return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                                ts_dtype_type_name(res->dtype), ts_dtype_type_name(out->dtype));
        case TS_NN_OUT_OUTPUT:
            return ts_error_set(err, TS_ERR_RUNTIME, "expected dtype %s for `output` but got "
                                "dtype %s", cpp_name(res->dtype), cpp_name(out->dtype));
        case TS_NN_OUT_CAST:
            if (!ts_aten_can_cast(res->dtype, out->dtype))
                return ts_error_set(err, TS_ERR_RUNTIME, "result type %s can't be cast to the "
                                    "desired output type %s", ts_dtype_type_name(res->dtype),
                                    ts_dtype_type_name(out->dtype));
            break;
        }
    }
    if (ts_aten_resize_out(out, res->dim, res->sizes, &ts_cpu_allocator, err))
        return err->code;
    ts_cpu_copy_into(out, res);
    return 0;
}

int ts_nn_return_outs(TsArgs *a, size_t nout, int rc)
{
    if (rc || nout > a->n || nout > 2)
        return ts_args_fail(a, rc ? rc : ts_error_set(a->call->error, TS_ERR_RUNTIME,
                                                      "%s: no out arguments",
                                                      ts_args_op_name(a)));
    TsValue outs[2];
    size_t n = a->n;
    for (size_t i = 0; i < nout; i++) {
        outs[i] = a->v[n - nout + i];
        a->v[n - nout + i] = ts_none();
    }
    ts_args_fail(a, 0);
    for (size_t i = 0; i < nout; i++)
        if ((rc = ts_stack_push(a->call->stack, outs[i], a->call->error))) {
            for (size_t j = i + 1; j < nout; j++)
                ts_value_release(outs[j]);
            return rc;
        }
    return 0;
}
