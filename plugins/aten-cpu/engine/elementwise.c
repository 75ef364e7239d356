/* elementwise.c — the elementwise engine (see elementwise.h): broadcasting, promotion,
 * output allocation and checks, and the strided walk that feeds the inner loops.
 *
 * Large calls (at least twice EW_GRAIN elements) are split over the runtime's threads with
 * ts_parallel_for: each chunk walks its own range of output elements, so the results are
 * the same for any thread count.
 *
 * float16 and bfloat16 operands of a float32 loop are staged, not cast: the walk converts a
 * block of each such input into a float32 buffer on the stack (vhalf.h), runs the float32
 * loop on the buffers, and rounds the block of results into the half output once, as
 * PyTorch's CPU kernels compute these dtypes (float32 math, one rounding per op). No
 * float32 copy of a tensor is made.
 */
#include <stdatomic.h>
#include <string.h>

#include "engine/elementwise.h"
#include "vhalf.h"

#define EW_MAX_OPS 4
/* Elements per chunk when a call is split over threads: smaller calls run on the calling
 * thread (waking a worker costs about as much as a few thousand cheap elements). */
#define EW_GRAIN 32768
/* Elements per block of a staged walk (its buffers: EW_MAX_OPS of them, on the stack). */
#define EW_STAGE 512

/* The operands of one call as the loop walks them: per dim (outer first) the size and each
 * operand's byte stride, broadcast dims at 0, size-1 dims dropped and mergeable neighbours
 * merged, so a contiguous call is one dim (one run). */
typedef struct Walk {
    int nop, nd;
    int64_t size[TS_TENSOR_MAX_DIMS], stride[TS_TENSOR_MAX_DIMS][EW_MAX_OPS];
    char *base[EW_MAX_OPS];
    int stage[EW_MAX_OPS];     /* TS_FLOAT16 or TS_BFLOAT16: staged as float32; else -1 */
    bool staged;               /* any operand is */
    TsCpuLoop loop;
    const TsCpuEwArgs *args;
    atomic_int status;         /* a chunk's loop status (any: an op has one kind) */
} Walk;

static void plan_walk(Walk *w, int nop, TsTensor *const *t)
{
    const TsTensor *out = t[0];
    int64_t esize[EW_MAX_OPS];
    int nd = 0;
    w->nop = nop;
    for (int o = 0; o < nop; o++)
        esize[o] = (int64_t)ts_dtype_size(t[o]->dtype);
    for (int d = 0; d < out->dim; d++) {
        if (out->sizes[d] == 1)
            continue;
        int64_t st[EW_MAX_OPS];
        for (int o = 0; o < nop; o++) {
            const TsTensor *x = t[o];
            int xd = d - (out->dim - x->dim);
            st[o] = xd < 0 || x->sizes[xd] == 1 ? 0 : x->strides[xd] * esize[o];
        }
        bool merge = nd > 0;
        for (int o = 0; merge && o < nop; o++)
            merge = w->stride[nd - 1][o] == st[o] * out->sizes[d];
        if (merge) {
            w->size[nd - 1] *= out->sizes[d];
            memcpy(w->stride[nd - 1], st, sizeof st);
        } else {
            w->size[nd] = out->sizes[d];
            memcpy(w->stride[nd], st, sizeof st);
            nd++;
        }
    }
    if (nd == 0) {                              /* one element */
        w->size[0] = 1;
        memset(w->stride[0], 0, sizeof w->stride[0]);
        nd = 1;
    }
    w->nd = nd;
    for (int o = 0; o < nop; o++)
        w->base[o] = ts_tensor_data(t[o]);
}

/* The loop over one run of n elements of a walk with staged operands, a block at a time:
 * staged inputs converted into buffers first (an in-place output may be one of them), the
 * loop writing a staged output into its buffer, which is rounded into place after. */
static void run_staged(const Walk *w, char **ptr, const int64_t *stride, int64_t n,
                       TsCpuEwArgs *args)
{
    float buf[EW_MAX_OPS][EW_STAGE];
    char *p[EW_MAX_OPS];
    int64_t s[EW_MAX_OPS];
    for (int64_t b = 0; b < n; b += EW_STAGE) {
        int64_t m = n - b < EW_STAGE ? n - b : EW_STAGE;
        for (int o = 0; o < w->nop; o++) {
            char *at = ptr[o] + b * stride[o];
            if (w->stage[o] < 0) {
                p[o] = at;
                s[o] = stride[o];
                continue;
            }
            p[o] = (char *)buf[o];
            s[o] = stride[o] ? (int64_t)sizeof(float) : 0;
            if (o > 0)      /* a broadcast (stride 0) is one element */
                ts_vh_widen(w->stage[o] == TS_BFLOAT16, buf[o], 1, (const uint16_t *)at,
                            stride[o] / 2, stride[o] ? m : 1);
        }
        w->loop(p, s, m, args);
        if (w->stage[0] >= 0)
            ts_vh_narrow(w->stage[0] == TS_BFLOAT16, (uint16_t *)(ptr[0] + b * stride[0]),
                         stride[0] / 2, buf[0], 1, m);
    }
}

/* Runs the loop over output elements [b, e) (row-major order of the walk's dims). */
static void walk_range(const Walk *w, int64_t b, int64_t e, TsCpuEwArgs *args)
{
    int last = w->nd - 1;
    int64_t idx[TS_TENSOR_MAX_DIMS], rem = b;
    for (int d = last; d >= 0; d--) {
        idx[d] = rem ? rem % w->size[d] : 0;
        rem = rem ? rem / w->size[d] : 0;
    }
    char *ptr[EW_MAX_OPS];
    while (b < e) {
        for (int o = 0; o < w->nop; o++) {
            ptr[o] = w->base[o];
            for (int d = 0; d <= last; d++)
                ptr[o] += idx[d] * w->stride[d][o];
        }
        int64_t n = w->size[last] - idx[last];
        if (n > e - b)
            n = e - b;
        if (w->staged)
            run_staged(w, ptr, w->stride[last], n, args);
        else
            w->loop(ptr, w->stride[last], n, args);
        b += n;
        idx[last] = 0;
        for (int d = last - 1; d >= 0 && ++idx[d] == w->size[d]; d--)
            idx[d] = 0;
    }
}

static int walk_chunk(void *ctx, int64_t b, int64_t e, TsError *err)
{
    (void)err;
    Walk *w = ctx;
    TsCpuEwArgs args = *w->args;     /* each chunk its own status */
    args.status = 0;
    walk_range(w, b, e, &args);
    if (args.status)
        atomic_store(&w->status, args.status);
    return 0;
}

/* ts_cpu_ew_iterate with operands staged where stage (NULL: none) says. */
static void iterate(int nop, TsTensor *const *t, TsCpuLoop loop, TsCpuEwArgs *args,
                    const bool *stage)
{
    int64_t numel = 1;
    for (int d = 0; d < t[0]->dim; d++)
        numel *= t[0]->sizes[d];
    if (numel == 0)
        return;
    Walk w;
    plan_walk(&w, nop, t);
    w.staged = false;
    for (int o = 0; o < nop; o++) {
        w.stage[o] = stage && stage[o] ? t[o]->dtype : -1;
        w.staged = w.staged || w.stage[o] >= 0;
    }
    w.loop = loop;
    w.args = args;
    if (numel < 2 * EW_GRAIN) {                 /* the common small case: no copies */
        walk_range(&w, 0, numel, args);
        return;
    }
    atomic_init(&w.status, 0);
    ts_parallel_for(0, numel, EW_GRAIN, walk_chunk, &w, NULL);
    if (atomic_load(&w.status))
        args->status = atomic_load(&w.status);
}

void ts_cpu_ew_iterate(int nop, TsTensor *const *t, TsCpuLoop loop, TsCpuEwArgs *args)
{
    iterate(nop, t, loop, args, NULL);
}

/* Whether an operand of dtype is staged for a loop computing in compute. */
static bool stages(int dtype, int compute)
{
    return compute == TS_FLOAT32 && (dtype == TS_FLOAT16 || dtype == TS_BFLOAT16);
}

/* The dtype the loops compute in for a result dtype: the half types compute in float32. */
static int loop_dtype(int dtype)
{
    return dtype == TS_FLOAT16 || dtype == TS_BFLOAT16 ? TS_FLOAT32 : dtype;
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
        if (ts_aten_promote_types(t, t) < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'",
                                op->name, ts_dtype_type_name(t) ? ts_dtype_type_name(t) : "?");
    }
    if (op->mask_first && in[0]->dtype != TS_BOOL)
        return ts_error_set(err, TS_ERR_RUNTIME, "where expected condition to be a boolean "
                            "tensor, but got a tensor with dtype %s",
                            ts_dtype_type_name(in[0]->dtype));
    dt->common = ts_aten_result_type(nin - first, in + first);
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

/* ---- the layout of a new output ------------------------------------------------------ */

/* Input x's stride along output dim d of a dim-dim broadcast shape: 0 where x broadcasts. */
static int64_t bcast_stride(const TsTensor *x, int d, int dim, const int64_t *sizes)
{
    int xd = d - (dim - x->dim);
    return xd < 0 || (x->sizes[xd] == 1 && sizes[d] != 1) ? 0 : x->strides[xd];
}

/* PyTorch's order of two output dims (TensorIterator's reorder_dimensions): 1 when d0 should
 * move slower than d1, -1 when faster, 0 when the inputs do not say. The first input with
 * two different (non-broadcast) strides decides; equal strides put the smaller size faster. */
static int dim_order(int d0, int d1, int nin, TsTensor *const *in, int dim, const int64_t *sizes)
{
    for (int i = 0; i < nin; i++) {
        int64_t s0 = bcast_stride(in[i], d0, dim, sizes), s1 = bcast_stride(in[i], d1, dim, sizes);
        if (s0 == 0 || s1 == 0)
            continue;
        if (s0 != s1)
            return s0 < s1 ? -1 : 1;
        if (sizes[d0] > sizes[d1])
            return 1;
    }
    return 0;
}

/* A new output laid out as PyTorch lays it out: its dims in the inputs' memory order
 * (x.t() + 1 is transposed too), contiguous when the inputs are. */
static TsTensor *new_output(int dtype, int dim, const int64_t *sizes, int nin,
                            TsTensor *const *in, TsError *err)
{
    int perm[TS_TENSOR_MAX_DIMS];      /* perm[0]: the dim that moves fastest */
    bool inverted = true;
    for (int i = 0; i < dim; i++)
        perm[i] = dim - 1 - i;
    for (int i = 1; i < dim; i++) {    /* insertion sort that tolerates "do not know" */
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int c = dim_order(perm[d0], perm[d1], nin, in, dim, sizes);
            if (c > 0) {
                int t = perm[d0];
                perm[d0] = perm[d1];
                perm[d1] = t;
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
    for (int i = 0; i < dim; i++)
        inverted = inverted && perm[i] == dim - 1 - i;
    TsTensor *t = ts_cpu_empty(dtype, dim, sizes, err);
    if (!t || inverted)
        return t;
    int64_t strides[TS_TENSOR_MAX_DIMS], next = 1;
    for (int i = 0; i < dim; i++) {    /* sizes cannot overflow: the tensor exists */
        strides[perm[i]] = next;
        next *= sizes[perm[i]];
    }
    if (ts_tensor_set_shape(t, dim, sizes, strides, 0, err)) {
        ts_tensor_release(t);
        return NULL;
    }
    return t;
}

/* Checks (or allocates) the output; *target is where the loop writes: the output itself, or
 * a temporary of the loop's dtype copied into it afterwards. */
static int prepare_out(TsTensor **out, TsCpuEwMode mode, const Dtypes *dt, int dim,
                       const int64_t *sizes, int nin, TsTensor *const *in, TsTensor **target,
                       TsError *err)
{
    if (mode == TS_EW_NEW) {
        *out = new_output(dt->result, dim, sizes, nin, in, err);
        if (!*out)
            return err->code;
    } else {
        TsTensor *o = *out;
        if (ts_cpu_check_internal_overlap(o, err))
            return err->code;
        if (!ts_aten_can_cast(dt->result, o->dtype))
            return ts_error_set(err, TS_ERR_RUNTIME,
                                "result type %s can't be cast to the desired output type %s",
                                ts_dtype_type_name(dt->result), ts_dtype_type_name(o->dtype));
        if (mode == TS_EW_INPLACE && !ts_aten_same_shape(o, dim, sizes)) {
            char have[256], want[256];
            ts_aten_format_sizes(have, sizeof have, o->dim, o->sizes);
            ts_aten_format_sizes(want, sizeof want, dim, sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "output with shape %s doesn't match the "
                                "broadcast shape %s", have, want);
        }
        if (mode == TS_EW_OUT && ts_aten_resize_out(o, dim, sizes, &ts_cpu_allocator, err))
            return err->code;
    }
    if ((*out)->dtype == dt->loop_out || stages((*out)->dtype, dt->loop_out)) {
        ts_tensor_retain(*out);
        *target = *out;
        return 0;
    }
    *target = new_output(dt->loop_out, dim, sizes, nin, in, err);
    return *target ? 0 : (int)err->code;
}

/* The error of a loop's status, if any. */
static int loop_status(const TsCpuEwArgs *args, TsError *err)
{
    if (args->status == TS_CPU_EW_ZERO_DIV)
        return ts_error_set(err, TS_ERR_RUNTIME, "ZeroDivisionError");
    return 0;
}

/* The dtype of the common call into a new tensor — every input of one dtype the op has a loop
 * for, none a wrapped number — or -1 for any other call. Such a call needs no promotion, casts
 * or overlap checks: at batch 1 (an LSTM step of 32-element tensors) those cost as much as
 * the arithmetic. */
static int uniform_dtype(const TsCpuEwOp *op, int nin, TsTensor *const *in, TsCpuEwMode mode)
{
    int dtype = in[0]->dtype;
    if (mode != TS_EW_NEW || op->mask_first || dtype < 0 || dtype >= TS_DTYPE__COUNT ||
        loop_dtype(dtype) != dtype || !op->loops[dtype] ||
        (op->result == TS_EW_FLOAT && !ts_dtype_is_floating(dtype)))
        return -1;
    for (int i = 0; i < nin; i++)
        if (in[i]->dtype != dtype || (in[i]->flags & TS_ATEN_WRAPPED))
            return -1;
    return dtype;
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
    if ((rc = ts_aten_broadcast_shape(nin, in, &dim, sizes, err)))
        return rc;
    int uniform = uniform_dtype(op, nin, in, mode);
    if (uniform >= 0) {
        *out = new_output(op->result == TS_EW_BOOL ? TS_BOOL : uniform, dim, sizes, nin, in,
                          err);
        if (!*out)
            return err->code;
        ops[0] = *out;
        memcpy(ops + 1, in, (size_t)nin * sizeof *in);
        args->status = 0;
        ts_cpu_ew_iterate(nin + 1, ops, op->loops[uniform], args);
        if ((rc = loop_status(args, err)) != 0) {
            ts_tensor_release(*out);
            *out = NULL;
        }
        return rc;
    }
    if ((rc = pick_dtypes(op, nin, in, &dt, err)) ||
        (rc = prepare_out(out, mode, &dt, dim, sizes, nin, in, &target, err)))
        return rc;
    bool stage[EW_MAX_OPS] = { stages(target->dtype, dt.loop_out) };
    ops[0] = target;
    for (int i = 0; i < nin && !rc; i++) {
        int want = op->mask_first && i == 0 ? TS_BOOL : dt.compute;
        bool overlap = ts_cpu_partial_overlap(in[i], target);
        stage[i + 1] = !overlap && stages(in[i]->dtype, want);
        if ((in[i]->dtype != want && !stage[i + 1]) || overlap) {
            ops[i + 1] = ts_cpu_cast(in[i], want, err);
            rc = ops[i + 1] ? 0 : (int)err->code;
        } else {
            ts_tensor_retain(in[i]);
            ops[i + 1] = in[i];
        }
    }
    if (!rc) {
        args->status = 0;
        iterate(nin + 1, ops, op->loops[dt.compute], args, stage);
        rc = loop_status(args, err);
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
