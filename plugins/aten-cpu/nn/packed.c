/* packed.c — torch.nn.utils.rnn's sequences: a padded batch packed into the rows of its
 * sequences by time step with the batch size of each step (_pack_padded_sequence), and back
 * (_pad_packed_sequence), and a list of sequences padded into one batch (pad_sequence, which
 * pack_sequence calls first). The recurrent layers' .data overloads (rnn_layers.c) run on
 * what _pack_padded_sequence makes.
 *
 * A packed batch keeps, at time step t, the first batch_sizes[t] sequences: the lengths are
 * sorted in decreasing order (pack_padded_sequence sorts them and keeps the permutation).
 */
#include <string.h>

#include "nn/nn.h"
#include "shape/shape_ops.h"

/* 'lengths' (or batch_sizes, which PyTorch checks with the same words) as a 1-d int64
 * tensor. The kernels read a contiguous copy of it. */
static int check_lengths(TsCall *c, const TsTensor *t)
{
    if (t->dim == 1 && t->dtype == TS_INT64)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "'lengths' argument should be a 1D CPU int64 "
                        "tensor, but got %dD cpu %s tensor", t->dim,
                        ts_dtype_type_name(t->dtype));
}

/* The one-row size in bytes of a tensor whose dim `from` onwards make a row. */
static size_t row_bytes(const TsTensor *t, int from)
{
    int64_t n = 1;
    for (int d = from; d < t->dim; d++)
        n *= t->sizes[d];
    return (size_t)n * ts_dtype_size(t->dtype);
}

/* Packs x (T x B x *, or B x T x * when batch_first) of sorted lengths into its data rows
 * and the batch sizes of its steps. */
static int pack(TsCall *c, TsTensor *x, const TsTensor *lengths, bool batch_first,
                TsTensor **data, TsTensor **batch_sizes)
{
    if (x->dim == 0)
        return ts_error_set(c->error, TS_ERR_INDEX, "Dimension specified as 1 but tensor has no "
                            "dimensions");
    if (x->dim == 1)
        return ts_error_set(c->error, TS_ERR_INDEX, "Dimension out of range (expected to be in "
                            "range of [-1, 0], but got 1)");
    int tdim = batch_first ? 1 : 0, bdim = 1 - tdim;
    int64_t steps = x->sizes[tdim], batch = x->sizes[bdim];
    const int64_t *len = ts_tensor_data(lengths);
    if (lengths->sizes[0] != batch)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Expected `len(lengths)` to be equal to "
                            "batch_size, but got %lld (batch_size=%lld)",
                            (long long)lengths->sizes[0], (long long)batch);
    int64_t total = 0;
    for (int64_t b = 0; b < batch; b++) {
        if (len[b] <= 0)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "Length of all samples has to be "
                                "greater than 0, but found an element in 'lengths' that is "
                                "<= 0");
        if (b > 0 && len[b] > len[b - 1])
            return ts_error_set(c->error, TS_ERR_RUNTIME, "`lengths` array must be sorted in "
                                "decreasing order when `enforce_sorted` is True. You can pass "
                                "`enforce_sorted=False` to pack_padded_sequence and/or "
                                "pack_sequence to sidestep this requirement if you do not need "
                                "ONNX exportability.");
        total += len[b];
    }
    if (batch == 0 || len[0] > steps)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "pack_padded_sequence: a length of %lld "
                            "is longer than the input's %lld time steps",
                            (long long)(batch ? len[0] : 0), (long long)steps);
    int64_t sizes[TS_TENSOR_MAX_DIMS], nsteps = len[0];
    sizes[0] = total;
    for (int d = 2; d < x->dim; d++)
        sizes[d - 1] = x->sizes[d];
    TsTensor *xc = ts_nn_contiguous(x, c->error);
    *data = xc ? ts_cpu_empty(x->dtype, x->dim - 1, sizes, c->error) : NULL;
    *batch_sizes = *data ? ts_cpu_empty(TS_INT64, 1, &nsteps, c->error) : NULL;
    if (*batch_sizes) {
        size_t row = row_bytes(x, 2);
        const char *src = ts_tensor_data(xc);
        char *dst = ts_tensor_data(*data);
        int64_t *bs = ts_tensor_data(*batch_sizes), running = batch;
        for (int64_t t = 0; t < nsteps; t++) {
            while (running > 0 && len[running - 1] <= t)
                running--;
            bs[t] = running;
            for (int64_t b = 0; b < running; b++, dst += row) {
                int64_t at = batch_first ? b * steps + t : t * batch + b;
                memcpy(dst, src + (size_t)at * row, row);
            }
        }
    }
    if (xc)
        ts_tensor_release(xc);
    return *batch_sizes ? 0 : (int)c->error->code;
}

/* aten::_pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first)
 *     -> (Tensor, Tensor) */
static int k_pack_padded_sequence(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *lengths, *out[2] = { NULL, NULL };
    bool batch_first = false;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &lengths);
    if (!rc) rc = ts_args_bool(&a, 2, &batch_first);
    if (!rc) rc = check_lengths(c, lengths);
    TsTensor *lc = rc ? NULL : ts_nn_contiguous(lengths, c->error);
    if (!rc && !lc)
        rc = (int)c->error->code;
    if (!rc) rc = pack(c, x, lc, batch_first, &out[0], &out[1]);
    if (lc)
        ts_tensor_release(lc);
    return ts_args_return_tensors(&a, rc, 2, out);
}

/* The padded T x B x * batch of packed data (a T x B x * tensor, B x T x * view when
 * batch_first) filled with pad where sequences have ended, and the sequences' lengths. */
static int unpack(TsCall *c, TsTensor *data, const TsTensor *batch_sizes, bool batch_first,
                  TsValue pad, int64_t total_length, TsTensor **out, TsTensor **lengths)
{
    int64_t steps = batch_sizes->sizes[0];
    const int64_t *bs = ts_tensor_data(batch_sizes);
    int64_t batch = steps ? bs[0] : 0, rows = 0;
    for (int64_t t = 0; t < steps; t++) {
        if (bs[t] < 0 || bs[t] > batch)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "batch_sizes must be non-increasing, "
                                "but got %lld after %lld", (long long)bs[t], (long long)batch);
        rows += bs[t];
    }
    if (total_length != -1) {
        if (total_length < steps)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "Expected total_length to be at least "
                                "the length of the longest sequence in input, but got "
                                "total_length=%lld and max sequence length being %lld",
                                (long long)total_length, (long long)steps);
        steps = total_length;
    }
    if (data->dim < 1 || data->sizes[0] != rows)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "_pad_packed_sequence: the data has %lld "
                            "rows but the batch sizes add up to %lld",
                            (long long)(data->dim ? data->sizes[0] : 0), (long long)rows);
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (data->dim + 1 > TS_TENSOR_MAX_DIMS)
        return ts_error_set(c->error, TS_ERR_LIMIT, "_pad_packed_sequence: too many dimensions");
    sizes[0] = steps;
    sizes[1] = batch;
    for (int d = 1; d < data->dim; d++)
        sizes[d + 1] = data->sizes[d];
    size_t es = ts_dtype_size(data->dtype), row = row_bytes(data, 1);
    char elem[16];
    if (ts_aten_scalar_to_elem(pad, data->dtype, elem, c->error))
        return (int)c->error->code;
    TsTensor *dc = ts_nn_contiguous(data, c->error), *o = NULL, *len = NULL;
    if (dc && (o = ts_cpu_empty(data->dtype, data->dim + 1, sizes, c->error)) &&
        (len = ts_cpu_empty(TS_INT64, 1, &batch, c->error))) {
        char *op = ts_tensor_data(o);
        const char *src = ts_tensor_data(dc);
        for (size_t i = 0, n = row / (es ? es : 1) * (size_t)(steps * batch); i < n; i++)
            memcpy(op + i * es, elem, es);
        int64_t *lp = ts_tensor_data(len);
        for (int64_t b = 0; b < batch; b++)
            lp[b] = 0;
        for (int64_t t = 0; t < batch_sizes->sizes[0]; t++)
            for (int64_t b = 0; b < bs[t]; b++, src += row) {
                memcpy(op + (size_t)(t * batch + b) * row, src, row);
                lp[b] = t + 1;
            }
    }
    if (dc)
        ts_tensor_release(dc);
    if (o && len && batch_first) {
        /* PyTorch returns the transpose of the T x B x * tensor: a view */
        int64_t tsizes[TS_TENSOR_MAX_DIMS], tstrides[TS_TENSOR_MAX_DIMS];
        for (int d = 0; d < o->dim; d++) {
            tsizes[d] = o->sizes[d];
            tstrides[d] = o->strides[d];
        }
        tsizes[0] = o->sizes[1], tsizes[1] = o->sizes[0];
        tstrides[0] = o->strides[1], tstrides[1] = o->strides[0];
        TsTensor *v = ts_aten_view(o, o->dim, tsizes, tstrides, o->offset, c->error);
        ts_tensor_release(o);
        o = v;
    }
    if (!o || !len) {
        if (o) ts_tensor_release(o);
        if (len) ts_tensor_release(len);
        return (int)c->error->code;
    }
    *out = o;
    *lengths = len;
    return 0;
}

/* aten::_pad_packed_sequence(Tensor data, Tensor batch_sizes, bool batch_first,
 *     Scalar padding_value, int total_length) -> (Tensor, Tensor) */
static int k_pad_packed_sequence(TsCall *c)
{
    TsArgs a;
    TsTensor *data, *bs, *out[2] = { NULL, NULL };
    bool batch_first = false;
    int64_t total_length = -1;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &data);
    if (!rc) rc = ts_args_tensor(&a, 1, &bs);
    if (!rc) rc = ts_args_bool(&a, 2, &batch_first);
    if (!rc) rc = ts_args_int(&a, 4, &total_length);
    if (!rc) rc = check_lengths(c, bs);
    TsTensor *bc = rc ? NULL : ts_nn_contiguous(bs, c->error);
    if (!rc && !bc)
        rc = (int)c->error->code;
    if (!rc) rc = unpack(c, data, bc, batch_first, a.v[3], total_length, &out[0], &out[1]);
    if (bc)
        ts_tensor_release(bc);
    return ts_args_return_tensors(&a, rc, 2, out);
}

/* aten::pad_sequence(Tensor[] sequences, bool batch_first=False, float padding_value=0.)
 *     -> Tensor: the sequences (L_i x *) as one max(L_i) x B x * tensor (B x max(L_i) x *
 * when batch_first) of the first one's dtype, padding_value past each one's end. Each is
 * copied in as copy_ copies: broadcast to the first one's trailing sizes, converted. */
static int k_pad_sequence(TsCall *c)
{
    TsArgs a;
    const TsList *seqs;
    bool batch_first = false;
    double pad = 0;
    TsTensor *o = NULL, *fill = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor_list(&a, 0, &seqs);
    if (!rc) rc = ts_args_bool(&a, 1, &batch_first);
    if (!rc) rc = ts_args_float(&a, 2, &pad);
    if (!rc && seqs->len == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "received an empty list of sequences");
    int64_t steps = 0, batch = rc ? 0 : (int64_t)seqs->len;
    for (int64_t i = 0; !rc && i < batch; i++) {
        const TsTensor *t = (const TsTensor *)seqs->items[i].u.p;
        if (t->dim == 0)
            rc = ts_error_set(c->error, TS_ERR_INDEX, "Dimension specified as 0 but tensor has "
                              "no dimensions");
        else if (t->sizes[0] > steps)
            steps = t->sizes[0];
    }
    const TsTensor *first = rc ? NULL : (const TsTensor *)seqs->items[0].u.p;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (!rc && first->dim + 1 > TS_TENSOR_MAX_DIMS)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "pad_sequence: too many dimensions");
    if (!rc) {
        sizes[batch_first ? 0 : 1] = batch;
        sizes[batch_first ? 1 : 0] = steps;
        for (int d = 1; d < first->dim; d++)
            sizes[d + 1] = first->sizes[d];
        if (!(o = ts_cpu_empty(first->dtype, first->dim + 1, sizes, c->error)) ||
            !(fill = ts_cpu_scalar_tensor(ts_double(pad), first->dtype, c->error)))
            rc = (int)c->error->code;
    }
    if (!rc)
        ts_cpu_copy_into(o, fill);
    /* each sequence into its slot: a view of o of the sequence's length */
    for (int64_t i = 0; !rc && i < batch; i++) {
        TsTensor *t = (TsTensor *)seqs->items[i].u.p, *slot;
        int64_t ss[TS_TENSOR_MAX_DIMS], st[TS_TENSOR_MAX_DIMS];
        for (int d = 1; d < o->dim; d++) {
            ss[d - 1] = o->sizes[d > 1 ? d : 0];
            st[d - 1] = o->strides[d > 1 ? d : 0];
        }
        int tdim = batch_first ? 1 : 0;
        ss[0] = t->sizes[0];
        st[0] = o->strides[tdim];
        slot = ts_aten_view(o, o->dim - 1, ss, st, o->offset + i * o->strides[1 - tdim],
                            c->error);
        if (!slot) {
            rc = (int)c->error->code;
            break;
        }
        rc = ts_cpu_copy_checked(c->error, slot, t);
        ts_tensor_release(slot);
    }
    if (fill)
        ts_tensor_release(fill);
    return ts_args_return_tensor(&a, rc, o);
}

static const TsCpuOp ops[] = {
    { "aten::pad_sequence", "", k_pad_sequence },
    { "aten::_pack_padded_sequence", "", k_pack_padded_sequence },
    { "aten::_pad_packed_sequence", "", k_pad_packed_sequence },
};

const TsCpuTable ts_cpu_packed_table = { ops, sizeof ops / sizeof ops[0] };
