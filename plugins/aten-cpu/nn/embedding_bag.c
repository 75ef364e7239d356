/* embedding_bag.c — torch.nn.EmbeddingBag's op: aten::embedding_bag (with and without the
 * padding_idx overload), _embedding_bag and _embedding_bag_forward_only, all four the same
 * forward computation.
 *
 * The indices (1-d) are cut into bags by offsets: bag b holds indices [offsets[b],
 * offsets[b+1]), the last bag running to the end, or with include_last_offset to the last
 * offset (which then only closes the bags). Each bag reduces its weight rows by sum
 * (optionally weighted by per_sample_weights), mean or max; rows at padding_idx are skipped
 * (and not counted), and an empty bag gives zeros. Besides the output PyTorch returns three
 * tensors its backward reads, computed here as its CPU forward leaves them: offset2bag (the
 * bag of each index; empty when its fast sum path runs), bag_size (indices counted per
 * bag; zeros in sum mode), and max_indices (the row each max came from in max mode, bag_size
 * in mean mode, zeros in sum mode). Their integer type is the indices' (int32 only when both
 * indices and offsets are). Weights are float, double or half (accumulated in float), as
 * PyTorch's CPU kernel takes them.
 */
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"

enum { BAG_SUM = 0, BAG_MEAN = 1, BAG_MAX = 2 };

typedef struct Bag {
    const TsTensor *w, *idx, *off, *psw;
    int mode;
    bool last_offset;
    int64_t padding, n_idx, n_off, bags, dim;
    bool wrap_padding;                /* padding_idx given to the padding_idx overload */
    int int_dtype;                    /* of the three auxiliary outputs */
} Bag;

/* Entry i of a 1-d int32 or int64 tensor. */
static int64_t int_at(const TsTensor *t, int64_t i)
{
    const char *p = (const char *)ts_tensor_data(t);
    if (t->dtype == TS_INT64)
        return ((const int64_t *)p)[i * t->strides[0]];
    return ((const int32_t *)p)[i * t->strides[0]];
}

static int check_index_dtype(TsError *err, const char *arg, int pos, const TsTensor *t)
{
    if (t->dtype == TS_INT64 || t->dtype == TS_INT32)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "Expected tensor for argument #%d '%s' to have one of "
                        "the following scalar types: Long, Int; but got torch.%sTensor instead "
                        "(while checking arguments for embedding_bag)", pos, arg,
                        ts_dtype_type_name(t->dtype));
}

/* PyTorch's argument checks, in its order. */
static int check(TsError *err, Bag *g)
{
    const TsTensor *w = g->w;
    if (w->dim < 2)
        return ts_error_set(err, TS_ERR_INDEX, "Dimension out of range (expected to be in range "
                            "of [-1, 0], but got 1)");
    if (check_index_dtype(err, "indices", 1, g->idx) ||
        check_index_dtype(err, "offsets", 2, g->off))
        return err->code;
    if (w->dtype != TS_FLOAT32 && w->dtype != TS_FLOAT64 && w->dtype != TS_FLOAT16) {
        if (w->dtype == TS_BFLOAT16)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected tensor for argument #1 'weight' "
                                "to have one of the following scalar types: Half, Float, "
                                "Double; but got CPUBFloat16Type instead (while checking "
                                "arguments for embedding_bag)");
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected tensor for argument #1 'weight' to have "
                            "one of the following scalar types: Half, Float, Double; but got "
                            "torch.%sTensor instead (while checking arguments for "
                            "embedding_bag)", ts_dtype_type_name(w->dtype));
    }
    if (g->mode < BAG_SUM || g->mode > BAG_MAX)
        return ts_error_set(err, TS_ERR_RUNTIME, "embedding_bag: mode must be 0 (sum), 1 (mean) "
                            "or 2 (max), but got %lld", (long long)g->mode);
    if (g->psw) {
        if (g->mode != BAG_SUM)
            return ts_error_set(err, TS_ERR_RUNTIME, "embedding_bag: per_sample_weights only "
                                "supported with mode='sum'");
        if (ts_tensor_numel(g->psw) != ts_tensor_numel(g->idx))
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected per_sample_weights.value().numel()"
                                " == indices.numel() to be true, but got false.  (Could this "
                                "error message be improved?  If so, please report an "
                                "enhancement request to PyTorch.)");
        if (g->psw->dtype != w->dtype)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected tensor for argument #1 'weight' to "
                                "have the same type as tensor for argument #1 "
                                "'per_sample_weights'; but type torch.%sTensor does not equal "
                                "torch.%sTensor (while checking arguments for embedding_bag)",
                                ts_dtype_type_name(w->dtype), ts_dtype_type_name(g->psw->dtype));
    }
    int64_t rows = w->sizes[0];
    if (g->wrap_padding && (g->padding < -rows || g->padding >= rows))
        return ts_error_set(err, TS_ERR_RUNTIME, "padding_idx must be within the number of "
                            "embeddings, %lld through %lld, but got %lld", (long long)-rows,
                            (long long)(rows - 1), (long long)g->padding);
    if (g->wrap_padding && g->padding < 0)
        g->padding += rows;
    g->n_idx = g->idx->dim ? g->idx->sizes[0] : 1;
    g->n_off = ts_tensor_numel(g->off);
    if (g->n_off > 0 && int_at(g->off, 0) != 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "offsets[0] has to be 0, i.e., the first "
                            "sequence in the mini-batch has to start from position 0. However, "
                            "got %lld", (long long)int_at(g->off, 0));
    if (g->n_off > 0 && int_at(g->off, g->n_off - 1) > g->n_idx)
        return ts_error_set(err, TS_ERR_RUNTIME, "offsets[-1] can not be greater than input's "
                            "length %lld but got offsets[-1] of %lld", (long long)g->n_idx,
                            (long long)int_at(g->off, g->n_off - 1));
    if (g->idx->dim != 1 || g->off->dim != 1)
        return ts_error_set(err, TS_ERR_RUNTIME, "embedding_bag: indices and offsets must be "
                            "1-D, but got %d-D indices and %d-D offsets", (int)g->idx->dim,
                            (int)g->off->dim);
    for (int64_t b = 1; b < g->n_off; b++)
        if (int_at(g->off, b) < int_at(g->off, b - 1))
            return ts_error_set(err, TS_ERR_RUNTIME, "embedding_bag: offsets must be "
                                "non-decreasing, but got offsets[%lld] = %lld after %lld",
                                (long long)b, (long long)int_at(g->off, b),
                                (long long)int_at(g->off, b - 1));
    for (int64_t k = 0; k < g->n_idx; k++) {
        int64_t v = int_at(g->idx, k);
        if (v < 0 || v >= rows)
            return ts_error_set(err, TS_ERR_INDEX, "embedding_bag: Expected idx >= 0 && idx < "
                                "num_embeddings but found idx to be %lld", (long long)v);
    }
    g->bags = g->last_offset ? (g->n_off > 0 ? g->n_off - 1 : 0) : g->n_off;
    g->dim = w->sizes[1];
    return 0;
}

static void set_int(int dtype, void *p, int64_t i, int64_t v)
{
    if (dtype == TS_INT64)
        ((int64_t *)p)[i] = v;
    else
        ((int32_t *)p)[i] = (int32_t)v;
}

/* The four outputs into out[] (new tensors), reductions done in double per row entry. */
static int compute(TsError *err, const Bag *g, TsTensor **out)
{
    int idt = g->int_dtype, wdt = g->w->dtype;
    int64_t B = g->bags, D = g->dim;
    /* PyTorch's fast sum path (float or half rows read in place, no padding) leaves it empty */
    bool fast = (wdt == TS_FLOAT32 || wdt == TS_FLOAT16) && g->w->strides[1] == 1 &&
                (!g->psw || g->psw->strides[0] == 1);
    bool fill_o2b = g->mode != BAG_SUM || g->padding >= 0 || !fast;
    int64_t osz[2] = { B, D }, o2b = fill_o2b ? g->n_idx : 0;
    int64_t aux = g->mode == BAG_SUM ? g->n_off : B, msz[2] = { B, D };
    out[0] = ts_cpu_empty(wdt, 2, osz, err);
    out[1] = out[0] ? ts_cpu_empty(idt, 1, &o2b, err) : NULL;
    out[2] = out[1] ? ts_cpu_empty(idt, 1, &aux, err) : NULL;
    out[3] = out[2] ? ts_cpu_empty(idt, g->mode == BAG_MAX ? 2 : 1,
                                   g->mode == BAG_MAX ? msz : &aux, err) : NULL;
    double *acc = out[3] ? calloc((size_t)D + 1, sizeof *acc) : NULL;
    int64_t *arg = acc ? calloc((size_t)D + 1, sizeof *arg) : NULL;
    if (!arg) {
        free(acc);
        return err->code ? (int)err->code : ts_error_set(err, TS_ERR_NOMEM, "embedding_bag: "
                                                          "out of memory");
    }
    void *od = ts_tensor_data(out[0]), *o2 = ts_tensor_data(out[1]);
    void *bs = ts_tensor_data(out[2]), *mi = ts_tensor_data(out[3]);
    memset(bs, 0, (size_t)aux * ts_dtype_size(idt));
    if (g->mode != BAG_MAX)
        memset(mi, 0, (size_t)aux * ts_dtype_size(idt));
    const char *wd = (const char *)ts_tensor_data(g->w);
    size_t es = ts_dtype_size(wdt);
    int64_t rs = g->w->strides[0], cs = g->w->strides[1];
    for (int64_t b = 0; b < B; b++) {
        int64_t lo = int_at(g->off, b);
        int64_t hi = b + 1 < g->n_off ? int_at(g->off, b + 1) : g->n_idx;
        int64_t count = 0;
        memset(acc, 0, (size_t)D * sizeof *acc);
        memset(arg, 0, (size_t)D * sizeof *arg);
        for (int64_t k = lo; k < hi; k++) {
            int64_t row = int_at(g->idx, k);
            if (fill_o2b)
                set_int(idt, o2, k, b);
            if (row == g->padding)
                continue;
            double scale = g->psw ? ts_cpu_load_double(
                                        wdt, (const char *)ts_tensor_data(g->psw) +
                                                 k * g->psw->strides[0] * (int64_t)es)
                                  : 1.0;
            for (int64_t j = 0; j < D; j++) {
                double v = ts_cpu_load_double(wdt, wd + (row * rs + j * cs) * (int64_t)es);
                if (g->mode != BAG_MAX)
                    acc[j] += scale * v;
                else if (count == 0 || v > acc[j]) {
                    acc[j] = v;
                    arg[j] = row;
                }
            }
            count++;
        }
        for (int64_t j = 0; j < D; j++) {
            double v = g->mode == BAG_MEAN ? (count ? acc[j] / (double)count : 0) : acc[j];
            ts_cpu_store_double(wdt, (char *)od + (b * D + j) * (int64_t)es, v);
            if (g->mode == BAG_MAX)
                set_int(idt, mi, b * D + j, arg[j]);
        }
        if (g->mode != BAG_SUM) {
            set_int(idt, bs, b, count);
            if (g->mode == BAG_MEAN)
                set_int(idt, mi, b, count);
        }
    }
    free(acc);
    free(arg);
    return 0;
}

/* The arguments: weight, indices, offsets, scale_grad_by_freq, mode, sparse,
 * per_sample_weights, include_last_offset[, padding_idx]; pushes four tensors. A padding_idx
 * given to the padding_idx overload counts from the end when negative; the int of
 * _embedding_bag is taken as it is (negative: none). */
static int bag_call(TsCall *c, bool wrap)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *psw = NULL, *out[4] = { NULL, NULL, NULL, NULL };
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    Bag g = { 0 };
    g.w = ts_nn_tensor(&args, 0);
    g.idx = g.w ? ts_nn_tensor(&args, 1) : NULL;
    g.off = g.idx ? ts_nn_tensor(&args, 2) : NULL;
    int rc = g.off ? ts_args_opt_tensor(&args, 6, &psw) : (int)c->error->code;
    if (!rc) {
        g.psw = psw;
        g.mode = (int)ts_nn_int(a[4]);
        g.last_offset = a[7].tag == TS_TAG_BOOL && a[7].u.b;
        bool has_padding = args.n == 9 && a[8].tag == TS_TAG_INT;
        g.padding = has_padding ? a[8].u.i : -1;
        g.wrap_padding = wrap && has_padding;
        g.int_dtype = g.idx->dtype == TS_INT32 && g.off->dtype == TS_INT32 ? TS_INT32 : TS_INT64;
        if (!(rc = check(c->error, &g)))
            rc = compute(c->error, &g, out);
    }
    return ts_args_return_tensors(&args, rc, 4, out);
}

/* aten::embedding_bag(Tensor weight, Tensor indices, Tensor offsets,
 *     bool scale_grad_by_freq=False, int mode=0, bool sparse=False,
 *     Tensor? per_sample_weights=None, bool include_last_offset=False)
 *     -> (Tensor, Tensor, Tensor, Tensor) */
static int k_embedding_bag(TsCall *c) { return bag_call(c, false); }
/* aten::embedding_bag.padding_idx(..., bool include_last_offset, int? padding_idx) */
static int k_embedding_bag_padding(TsCall *c) { return bag_call(c, true); }
/* aten::_embedding_bag / _embedding_bag_forward_only(..., int padding_idx=-1) */
static int k__embedding_bag(TsCall *c) { return bag_call(c, false); }

static const TsCpuOp ops[] = {
    { "aten::embedding_bag", "", k_embedding_bag },
    { "aten::embedding_bag", "padding_idx", k_embedding_bag_padding },
    { "aten::_embedding_bag", "", k__embedding_bag },
    { "aten::_embedding_bag_forward_only", "", k__embedding_bag },
};

const TsCpuTable ts_cpu_embedding_bag_table = { ops, sizeof ops / sizeof ops[0] };
