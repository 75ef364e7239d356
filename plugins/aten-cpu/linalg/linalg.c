/* linalg.c — aten::mm and mm.out: the checks and messages of mm; the product itself is
 * ts_nn_gemm's (blas.c: OpenBLAS for float32 and float64, reading transposed views in
 * place, plain loops for bfloat16 and the integer dtypes; an empty inner dimension gives
 * zeros).
 */
#include "nn/nn.h"

static int check(TsError *err, const TsTensor *a, const TsTensor *b)
{
    int rc = ts_aten_check_product(TS_ATEN_MM, a, b, err);
    if (rc)
        return rc;
    if (a->dtype != b->dtype)
        return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                            ts_dtype_type_name(a->dtype), ts_dtype_type_name(b->dtype));
    if (!ts_dtype_is_integral(a->dtype, false) && a->dtype != TS_FLOAT32 &&
        a->dtype != TS_FLOAT64 && a->dtype != TS_BFLOAT16)
        return ts_error_set(err, TS_ERR_RUNTIME, "\"addmm_impl_cpu_\" not implemented for '%s'",
                            ts_dtype_type_name(a->dtype));
    if (a->sizes[0] > INT32_MAX || a->sizes[1] > INT32_MAX || b->sizes[1] > INT32_MAX)
        return ts_error_set(err, TS_ERR_LIMIT, "mm: matrices larger than 2^31 rows or columns");
    return 0;
}

/* a @ b into a new contiguous tensor. */
static TsTensor *mm(TsTensor *a, TsTensor *b, TsError *err)
{
    if (check(err, a, b))
        return NULL;
    int64_t sizes[2] = { a->sizes[0], b->sizes[1] };
    TsTensor *o = ts_cpu_empty(a->dtype, 2, sizes, err);
    if (!o)
        return NULL;
    TsNnMat ma = { ts_tensor_data(a), a->sizes[0], a->sizes[1], a->strides[0], a->strides[1] };
    TsNnMat mb = { ts_tensor_data(b), b->sizes[0], b->sizes[1], b->strides[0], b->strides[1] };
    if (ts_nn_gemm(a->dtype, 1.0, &ma, &mb, 0.0, ts_tensor_data(o), sizes[1], err)) {
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* aten::mm(Tensor self, Tensor mat2) -> Tensor */
static int k_mm(TsCall *c)
{
    TsArgs args;
    TsTensor *x, *y, *o = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &x);
    if (!rc) rc = ts_args_tensor(&args, 1, &y);
    if (!rc && !(o = mm(x, y, c->error)))
        rc = c->error->code;
    return ts_args_return_tensor(&args, rc, o);
}

/* aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!) */
static int k_mm_out(TsCall *c)
{
    TsArgs args;
    TsTensor *x, *y, *out, *o = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &x);
    if (!rc) rc = ts_args_tensor(&args, 1, &y);
    if (!rc) rc = ts_args_tensor(&args, 2, &out);
    if (!rc && !(o = mm(x, y, c->error)))
        rc = c->error->code;
    if (o && out->dtype != o->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                          ts_dtype_type_name(o->dtype), ts_dtype_type_name(out->dtype));
    if (!rc) {
        rc = ts_aten_resize_out(out, 2, o->sizes, &ts_cpu_allocator, c->error);
        if (!rc)
            ts_cpu_copy_into(out, o);
    }
    if (o)
        ts_tensor_release(o);
    return ts_args_return_arg(&args, rc, 2);
}

static const TsCpuOp ops[] = {
    { "aten::mm", "", k_mm },
    { "aten::mm", "out", k_mm_out },
};

const TsCpuTable ts_cpu_linalg_table = { ops, sizeof ops / sizeof ops[0] };
