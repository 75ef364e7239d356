/* nested.c — the nested-tensor ops nn.TransformerEncoder calls on its fast path (eval, no
 * grad, a key padding mask): _nested_tensor_from_mask_left_aligned, _nested_tensor_from_mask
 * and to_padded_tensor, over the padded stand-in nested.h describes. The encoder layer's fast
 * path (attention.c) takes such a tensor and attends within each sequence's length.
 *
 * Checks and messages are PyTorch 1.13's. A mask keeps the positions that are True; its rows
 * must be left-aligned (True then False) unless mask_check is off, and then each sequence
 * takes as many leading rows as its row has True entries, as PyTorch's does.
 */
#include <stdlib.h>
#include <string.h>

#include "nn/nested.h"
#include "nn/nn.h"

TsTensor *ts_cpu_nested_new(TsError *err, int dtype, int64_t batch, int64_t len, int64_t feat,
                            const int64_t *lengths)
{
    size_t es = ts_dtype_size(dtype);
    int64_t n = batch * len * feat;
    if (batch < 0 || len < 0 || feat < 0 || (len && feat && batch > INT64_MAX / len / feat) ||
        (uint64_t)n > (SIZE_MAX - (size_t)batch * sizeof(int64_t)) / es) {
        ts_error_set(err, TS_ERR_LIMIT, "nested tensor too large");
        return NULL;
    }
    size_t data = (size_t)n * es, bytes = data + (size_t)batch * sizeof(int64_t);
    TsDevice cpu = { TS_DEV_CPU, -1 };
    TsStorage *st = ts_storage_new(&ts_cpu_allocator, bytes, cpu, err);
    if (!st)
        return NULL;
    memset(st->data, 0, data);
    memcpy((char *)st->data + data, lengths, (size_t)batch * sizeof(int64_t));
    int64_t sizes[3] = { batch, len, feat };
    TsTensor *t = ts_tensor_new(st, dtype, 3, sizes, NULL, 0, err);
    ts_storage_release(st);
    if (t)
        t->flags |= TS_CPU_NESTED;
    return t;
}

const int64_t *ts_cpu_nested_lengths(const TsTensor *t)
{
    if (!(t->flags & TS_CPU_NESTED) || t->dim != 3 || t->offset != 0 ||
        !ts_tensor_is_contiguous(t) || !t->storage)
        return NULL;
    size_t data = (size_t)ts_tensor_numel(t) * ts_dtype_size(t->dtype);
    if (t->storage->nbytes != data + (size_t)t->sizes[0] * sizeof(int64_t))
        return NULL;
    return (const int64_t *)(const void *)((const char *)t->storage->data + data);
}

/* ---- masks ------------------------------------------------------------------------------- */

static bool mask_at(const TsTensor *m, int64_t b, int64_t i)
{
    return ((const bool *)m->storage->data)[m->offset + b * m->strides[0] + i * m->strides[1]];
}

static int check_mask_dtype(TsError *err, const TsTensor *m)
{
    if (m->dtype == TS_BOOL)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "Expected mask to be of ScalarType Bool, but got %s "
                        "instead.", ts_dtype_type_name(m->dtype));
}

/* Whether every row of the [batch, len] mask is True then False. */
static bool left_aligned(const TsTensor *m)
{
    for (int64_t b = 0; b < m->sizes[0]; b++) {
        bool off = false;
        for (int64_t i = 0; i < m->sizes[1]; i++) {
            bool v = mask_at(m, b, i);
            if (v && off)
                return false;
            off = off || !v;
        }
    }
    return true;
}

/* aten::_nested_tensor_from_mask_left_aligned(Tensor t, Tensor mask) -> bool */
static int k_from_mask_left_aligned(TsCall *c)
{
    TsArgs args;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *t = ts_nn_tensor(&args, 0);
    TsTensor *m = t ? ts_nn_tensor(&args, 1) : NULL;
    int rc = m ? check_mask_dtype(c->error, m) : (int)c->error->code;
    if (!rc && m->dim != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Mask size should match input size");
    bool r = !rc && left_aligned(m);
    return ts_args_return(&args, rc, ts_bool(r));
}

/* aten::_nested_tensor_from_mask(Tensor t, Tensor mask, bool mask_check=True) -> Tensor */
static int k_from_mask(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *t = ts_nn_tensor(&args, 0);
    TsTensor *m = t ? ts_nn_tensor(&args, 1) : NULL;
    bool check = a[2].tag != TS_TAG_BOOL || a[2].u.b;
    int rc = m ? check_mask_dtype(c->error, m) : (int)c->error->code;
    if (!rc && t->dim != 3)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Input should be a 3D tensor, N * L * D");
    if (!rc && (m->dim != 2 || m->sizes[0] != t->sizes[0] || m->sizes[1] != t->sizes[1]))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Mask size should match input size");
    if (!rc && check && !left_aligned(m))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Mask must be left-aligned without gaps");
    int64_t B = rc ? 0 : t->sizes[0], L = rc ? 0 : t->sizes[1];
    int64_t *lengths = rc ? NULL : calloc((size_t)B + 1, sizeof *lengths), max = 0;
    if (!rc && !lengths)
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "%s: out of memory", ts_args_op_name(&args));
    for (int64_t b = 0; !rc && b < B; b++) {
        for (int64_t i = 0; i < L; i++)
            lengths[b] += mask_at(m, b, i);
        max = lengths[b] > max ? lengths[b] : max;
    }
    if (!rc && (o = ts_cpu_nested_new(c->error, t->dtype, B, max, t->sizes[2], lengths))) {
        for (int64_t b = 0; b < B; b++) {
            int64_t rows[3] = { 1, lengths[b], t->sizes[2] };
            int64_t st[3] = { 0, t->strides[1], t->strides[2] };
            TsTensor *src = ts_aten_view(t, 3, rows, st, t->offset + b * t->strides[0], c->error);
            TsTensor *dst = src ? ts_aten_view(o, 3, rows, NULL, b * max * t->sizes[2], c->error)
                                : NULL;
            if (dst)
                ts_cpu_copy_into(dst, src);
            if (src)
                ts_tensor_release(src);
            if (!dst) {
                rc = c->error->code;
                break;
            }
            ts_tensor_release(dst);
        }
    }
    free(lengths);
    if (rc && o) {
        ts_tensor_release(o);
        o = NULL;
    }
    return ts_args_return_tensor(&args, 0, o);
}

/* aten::to_padded_tensor(Tensor self, float padding, int[]? output_size=None) -> Tensor */
static int k_to_padded_tensor(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *t = ts_nn_tensor(&args, 0);
    const int64_t *lengths = t ? ts_cpu_nested_lengths(t) : NULL;
    int rc = t ? 0 : (int)c->error->code;
    if (!rc && !lengths)
        rc = ts_error_set(c->error, TS_ERR_NOT_IMPL, "Could not run 'aten::to_padded_tensor' with "
                          "arguments from the 'CPU' backend. This could be because the operator "
                          "doesn't exist for this backend, or was omitted during the "
                          "selective/custom build process (if using custom build).");
    int64_t size[3] = { 0, 0, 0 };
    int n = 3;
    if (!rc) {
        memcpy(size, t->sizes, sizeof size);
        if (a[2].tag != TS_TAG_NONE &&
            ts_nn_int_vec(&args, 2, 3, size, &n) == 0 &&
            (n != 3 || size[0] < t->sizes[0] || size[1] < t->sizes[1] || size[2] < t->sizes[2]))
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, n != 3 ? "Length of output_size does "
                              "not match NestedTensor dims. Broadcasting is not supported."
                              : "Value in output_size is less than NestedTensor padded size. "
                                "Truncation is not supported.");
        rc = rc ? rc : (int)c->error->code;
    }
    if (!rc && (o = ts_cpu_empty(t->dtype, 3, size, c->error))) {
        double pad = ts_nn_double(a[1]);
        size_t es = ts_dtype_size(t->dtype);
        char *od = ts_tensor_data(o);
        const char *td = ts_tensor_data(t);
        for (int64_t b = 0; b < size[0]; b++)
            for (int64_t i = 0; i < size[1]; i++)
                for (int64_t j = 0; j < size[2]; j++) {
                    char *dst = od + ((b * size[1] + i) * size[2] + j) * (int64_t)es;
                    bool in = b < t->sizes[0] && i < lengths[b] && j < t->sizes[2];
                    if (in)
                        memcpy(dst, td + ((b * t->sizes[1] + i) * t->sizes[2] + j) * (int64_t)es,
                               es);
                    else
                        ts_cpu_store_double(t->dtype, dst, pad);
                }
    }
    return ts_args_return_tensor(&args, rc, o);
}

static const TsCpuOp ops[] = {
    { "aten::_nested_tensor_from_mask_left_aligned", "", k_from_mask_left_aligned },
    { "aten::_nested_tensor_from_mask", "", k_from_mask },
    { "aten::to_padded_tensor", "", k_to_padded_tensor },
};

const TsCpuTable ts_cpu_nested_table = { ops, sizeof ops / sizeof ops[0] };
