/* elementwise.c — the elementwise engine (see elementwise.h): broadcasting, promotion,
 * output allocation and checks, and the strided walk that feeds the inner loops.
 */
#include <string.h>

#include "elementwise.h"

#define EW_MAX_OPS 4

int ts_cpu_broadcast_shape(int n, TsTensor *const *in, int *dim, int64_t *sizes, TsError *err)
{
    int nd = 0;
    for (int i = 0; i < n; i++)
        if (in[i]->dim > nd)
            nd = in[i]->dim;
    for (int d = 0; d < nd; d++)
        sizes[d] = 1;
    /* fold the operands in one at a time, as PyTorch does: "a" is the shape so far */
    int have = 0;
    for (int i = 0; i < n; i++) {
        const TsTensor *t = in[i];
        int m = have > t->dim ? have : t->dim;
        for (int k = 1; k <= m; k++) {
            int64_t sa = k <= have ? sizes[nd - k] : 1;
            int64_t sb = k <= t->dim ? t->sizes[t->dim - k] : 1;
            if (sa != sb && sa != 1 && sb != 1)
                return ts_error_set(err, TS_ERR_RUNTIME,
                                    "The size of tensor a (%lld) must match the size of tensor "
                                    "b (%lld) at non-singleton dimension %d",
                                    (long long)sa, (long long)sb, m - k);
            sizes[nd - k] = sa == 1 ? sb : sa;
        }
        have = m;
    }
    *dim = nd;
    return 0;
}

void ts_cpu_ew_iterate(int nop, TsTensor *const *t, TsCpuLoop loop, TsCpuEwArgs *args)
{
    const TsTensor *out = t[0];
    int64_t numel = ts_tensor_numel(out);
    if (numel == 0)
        return;
    /* per dim (outer first): size and each operand's byte stride, broadcast dims at 0,
     * size-1 dims dropped and mergeable neighbours merged */
    int64_t size[TS_TENSOR_MAX_DIMS], stride[TS_TENSOR_MAX_DIMS][EW_MAX_OPS];
    int nd = 0;
    for (int d = 0; d < out->dim; d++) {
        if (out->sizes[d] == 1)
            continue;
        int64_t st[EW_MAX_OPS];
        for (int o = 0; o < nop; o++) {
            const TsTensor *x = t[o];
            int xd = d - (out->dim - x->dim);
            st[o] = xd < 0 || x->sizes[xd] == 1
                ? 0 : x->strides[xd] * (int64_t)ts_dtype_size(x->dtype);
        }
        bool merge = nd > 0;
        for (int o = 0; merge && o < nop; o++)
            merge = stride[nd - 1][o] == st[o] * out->sizes[d];
        if (merge) {
            size[nd - 1] *= out->sizes[d];
            for (int o = 0; o < nop; o++)
                stride[nd - 1][o] = st[o];
        } else {
            size[nd] = out->sizes[d];
            memcpy(stride[nd], st, sizeof st);
            nd++;
        }
    }
    char *base[EW_MAX_OPS], *ptr[EW_MAX_OPS];
    for (int o = 0; o < nop; o++)
        base[o] = ts_tensor_data(t[o]);
    if (nd == 0) {                              /* one element */
        int64_t zero[EW_MAX_OPS] = { 0 };
        loop(base, zero, 1, args);
        return;
    }
    int last = nd - 1;
    int64_t idx[TS_TENSOR_MAX_DIMS] = { 0 };
    for (;;) {
        for (int o = 0; o < nop; o++) {
            ptr[o] = base[o];
            for (int d = 0; d < last; d++)
                ptr[o] += idx[d] * stride[d][o];
        }
        loop(ptr, stride[last], size[last], args);
        int d = last - 1;
        while (d >= 0 && ++idx[d] == size[d])
            idx[d--] = 0;
        if (d < 0)
            return;
    }
}

/* The dtype the loops compute in for a result dtype: the half types compute in float32. */
static int loop_dtype(int dtype)
{
    return dtype == TS_FLOAT16 || dtype == TS_BFLOAT16 ? TS_FLOAT32 : dtype;
}

static bool same_shape(const TsTensor *t, int dim, const int64_t *sizes)
{
    if (t->dim != dim)
        return false;
    for (int d = 0; d < dim; d++)
        if (t->sizes[d] != sizes[d])
            return false;
    return true;
}

int ts_cpu_resize_out(TsTensor *out, int dim, const int64_t *sizes, TsError *err)
{
    if (same_shape(out, dim, sizes))
        return 0;
    int64_t strides[TS_TENSOR_MAX_DIMS], numel = 1;
    if (!ts_contiguous_strides(dim, sizes, strides))
        return ts_error_set(err, TS_ERR_RUNTIME, "the output shape is too large");
    for (int d = 0; d < dim; d++)
        numel *= sizes[d];
    size_t need = (size_t)numel * ts_dtype_size(out->dtype);
    if (!out->storage || out->storage->nbytes < need ||
        (size_t)out->offset * ts_dtype_size(out->dtype) > out->storage->nbytes - need) {
        TsStorage *s = ts_storage_new(&ts_cpu_allocator, need, out->device, err);
        if (!s)
            return err->code;
        if (out->storage)
            ts_storage_release(out->storage);
        out->storage = s;
        out->offset = 0;
    }
    return ts_tensor_set_shape(out, dim, sizes, NULL, out->offset, err);
}

static int not_implemented(const TsCpuEwOp *op, int dtype, TsError *err)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'", op->name,
                        ts_dtype_type_name(dtype));
}

/* The dtypes of a call: what the inputs promote to, what the result is, what the loop
 * computes in and writes. */
typedef struct Dtypes {
    int common, result, compute, loop_out;
} Dtypes;

static int pick_dtypes(const TsCpuEwOp *op, int nin, TsTensor *const *in, Dtypes *dt,
                       TsError *err)
{
    int first = op->mask_first ? 1 : 0;
    for (int i = 0; i < nin; i++) {
        int t = in[i]->dtype;
        if (ts_cpu_promote_types(t, t) < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'",
                                op->name, ts_dtype_type_name(t) ? ts_dtype_type_name(t) : "?");
    }
    if (op->mask_first && in[0]->dtype != TS_BOOL)
        return ts_error_set(err, TS_ERR_RUNTIME, "where expected condition to be a boolean "
                            "tensor, but got a tensor with dtype %s",
                            ts_dtype_type_name(in[0]->dtype));
    dt->common = ts_cpu_result_type(nin - first, in + first);
    dt->result = dt->common;
    if (op->result == TS_EW_FLOAT && !ts_dtype_is_floating(dt->common))
        dt->result = TS_FLOAT32;
    if (op->result == TS_EW_BOOL)
        dt->result = TS_BOOL;
    dt->compute = loop_dtype(op->result == TS_EW_FLOAT ? dt->result : dt->common);
    dt->loop_out = loop_dtype(dt->result);
    if (!op->loops[dt->compute])
        return not_implemented(op, op->result == TS_EW_FLOAT ? dt->result : dt->common, err);
    return 0;
}

/* Checks (or allocates) the output; *target is where the loop writes: the output itself, or
 * a temporary of the loop's dtype copied into it afterwards. */
static int prepare_out(TsTensor **out, TsCpuEwMode mode, const Dtypes *dt, int dim,
                       const int64_t *sizes, TsTensor **target, TsError *err)
{
    if (mode == TS_EW_NEW) {
        *out = ts_cpu_empty(dt->result, dim, sizes, err);
        if (!*out)
            return err->code;
    } else {
        TsTensor *o = *out;
        if (!ts_cpu_can_cast(dt->result, o->dtype))
            return ts_error_set(err, TS_ERR_RUNTIME,
                                "result type %s can't be cast to the desired output type %s",
                                ts_dtype_type_name(dt->result), ts_dtype_type_name(o->dtype));
        if (mode == TS_EW_INPLACE && !same_shape(o, dim, sizes)) {
            char have[256], want[256];
            ts_cpu_format_sizes(have, sizeof have, o->dim, o->sizes);
            ts_cpu_format_sizes(want, sizeof want, dim, sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "output with shape %s doesn't match the "
                                "broadcast shape %s", have, want);
        }
        if (mode == TS_EW_OUT && ts_cpu_resize_out(o, dim, sizes, err))
            return err->code;
    }
    if ((*out)->dtype == dt->loop_out) {
        ts_tensor_retain(*out);
        *target = *out;
        return 0;
    }
    *target = ts_cpu_empty(dt->loop_out, dim, sizes, err);
    return *target ? 0 : (int)err->code;
}

int ts_cpu_ew(const TsCpuEwOp *op, int nin, TsTensor *const *in, TsTensor **out,
              TsCpuEwMode mode, TsCpuEwArgs *args, TsError *err)
{
    TsCpuEwArgs none = { { 0, 0 }, { 0, 0 }, 0 };
    TsTensor *ops[EW_MAX_OPS] = { NULL }, *target = NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int dim, rc;
    Dtypes dt = {0};  /* set by pick_dtypes; zeroed so -O2 sees it initialized */
    if (!args)
        args = &none;
    if (nin < 1 || nin >= EW_MAX_OPS)
        return ts_error_set(err, TS_ERR_USAGE, "ts_cpu_ew: %d inputs", nin);
    if ((rc = ts_cpu_broadcast_shape(nin, in, &dim, sizes, err)) ||
        (rc = pick_dtypes(op, nin, in, &dt, err)) ||
        (rc = prepare_out(out, mode, &dt, dim, sizes, &target, err)))
        return rc;
    ops[0] = target;
    for (int i = 0; i < nin && !rc; i++) {
        int want = op->mask_first && i == 0 ? TS_BOOL : dt.compute;
        if (in[i]->dtype != want || ts_cpu_partial_overlap(in[i], target)) {
            ops[i + 1] = ts_cpu_cast(in[i], want, err);
            rc = ops[i + 1] ? 0 : (int)err->code;
        } else {
            ts_tensor_retain(in[i]);
            ops[i + 1] = in[i];
        }
    }
    if (!rc) {
        args->status = 0;
        ts_cpu_ew_iterate(nin + 1, ops, op->loops[dt.compute], args);
        if (args->status == TS_CPU_EW_ZERO_DIV)
            rc = ts_error_set(err, TS_ERR_RUNTIME, "ZeroDivisionError");
        else if (args->status == TS_CPU_EW_NEG_POW)
            rc = ts_error_set(err, TS_ERR_RUNTIME,
                              "Integers to negative integer powers are not allowed.");
    }
    if (!rc && target != *out)
        ts_cpu_copy_into(*out, target);
    for (int i = 0; i < EW_MAX_OPS; i++)
        if (ops[i])
            ts_tensor_release(ops[i]);
    if (rc && mode == TS_EW_NEW) {
        ts_tensor_release(*out);
        *out = NULL;
    }
    return rc;
}
