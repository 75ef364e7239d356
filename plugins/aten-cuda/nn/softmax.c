/* softmax.c — softmax and log_softmax along any dim on the GPU (softmax.int,
 * log_softmax.int and their out= forms).
 *
 * The input is made contiguous in the result dtype (dtype= when given, else its own, which
 * must be floating) and split around the dim as outer × n × inner for one launch of the
 * softmax kernel (softmax_kernels.cu).
 */
#include "nn/norm.h"

/* (Tensor self, int dim, ScalarType? dtype=None), with Tensor(a!) out after them in the
 * out= form. */
static int run(TsCall *c, bool log, bool out_form)
{
    TsArgs a;
    TsTensor *x = NULL, *in = NULL, *o = NULL;
    int d = 0, dtype = -1;
    int st = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!st)
        st = ts_args_tensor(&a, 0, &x);
    if (!st)
        st = ts_args_dim(&a, 1, x->dim, true, &d);
    if (!st)
        st = ts_args_opt_dtype(&a, 2, &dtype);
    int result = dtype >= 0 ? dtype : x ? x->dtype : 0;
    if (!st && !ts_dtype_is_floating(result))
        st = ts_error_set(c->error, TS_ERR_RUNTIME, "\"host_softmax\" not implemented for '%s'",
                          ts_dtype_type_name(result));
    if (!st && ts_cuda_use_device(x->device, c->error))
        st = c->error->code;
    if (!st && !(in = ts_cuda_contiguous_as(x, result, c->error)))
        st = c->error->code;
    if (!st && !(o = ts_cuda_empty_on(x->device, result, x->dim, x->sizes, c->error)))
        st = c->error->code;
    if (!st) {
        int64_t outer = 1, inner = 1, n = x->dim ? x->sizes[d] : 1;
        for (int k = 0; k < x->dim; k++) {
            if (k < d)
                outer *= x->sizes[k];
            else if (k > d)
                inner *= x->sizes[k];
        }
        st = ts_cuda_launch_softmax(ts_tensor_data(in), ts_tensor_data(o), result, outer, n,
                                    inner, log, c->error);
    }
    if (in)
        ts_tensor_release(in);
    if (!out_form)
        return ts_args_return_tensor(&a, st, o);
    TsTensor *out = NULL;
    if (!st)
        st = ts_args_tensor(&a, 3, &out);
    if (!st)
        st = ts_aten_resize_out(out, o->dim, o->sizes, &ts_cuda_allocator, c->error);
    if (!st)
        st = ts_cuda_copy_into(out, o, c->error);
    if (o)
        ts_tensor_release(o);
    return ts_args_return_arg(&a, st, 3);
}

static int k_softmax(TsCall *c) { return run(c, false, false); }
static int k_softmax_out(TsCall *c) { return run(c, false, true); }
static int k_log_softmax(TsCall *c) { return run(c, true, false); }
static int k_log_softmax_out(TsCall *c) { return run(c, true, true); }

static const TsCudaOp ops[] = {
    { "aten::softmax", "int", k_softmax }, { "aten::softmax", "int_out", k_softmax_out },
    { "aten::log_softmax", "int", k_log_softmax },
    { "aten::log_softmax", "int_out", k_log_softmax_out },
};

const TsCudaTable ts_cuda_softmax_table = { ops, sizeof ops / sizeof ops[0] };
