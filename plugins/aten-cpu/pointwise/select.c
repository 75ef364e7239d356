/* select.c — pointwise choices between values: where, masked_fill, clamp (and clamp_min,
 * clamp_max, and clip, its other name), and where(condition), the coordinates of the true
 * elements.
 *
 * where promotes self and other like a binary op and needs a bool condition; masked_fill
 * keeps self's dtype (the value is converted with PyTorch's overflow check) and reads a mask
 * of another dtype as PyTorch's cpu kernel does (mask_as_bool); clamp promotes
 * self with its bounds (an int tensor clamped to 0.5 is float) and keeps nan. All of them
 * run through the elementwise engine, so they broadcast, take any strides and write through
 * views in their in-place forms.
 */
#include <math.h>

#include "engine/elementwise.h"

/* A loop over (out, a, x, y) with a of type AT. */
#define EW_TERNARY(DT, T, OP, AT, EXPR) \
    static void OP##_##DT(char **p, const int64_t *s, int64_t n, TsCpuEwArgs *args) \
    { \
        (void)args; \
        char *po = p[0], *pa = p[1], *px = p[2], *py = p[3]; \
        for (int64_t k = 0; k < n; k++, po += s[0], pa += s[1], px += s[2], py += s[3]) { \
            AT a = *(const AT *)pa; \
            T x = *(const T *)px, y = *(const T *)py; \
            *(T *)po = (T)(EXPR); \
        } \
    }

/* nan stays nan; a nan bound wins over a number */
#define CLAMP_LO(v, lo) ((v) != (v) ? (v) : (lo) != (lo) ? (lo) : (v) < (lo) ? (lo) : (v))
#define CLAMP_HI(v, hi) ((v) != (v) ? (v) : (hi) != (hi) ? (hi) : (v) > (hi) ? (hi) : (v))

#define WHERE_LOOP(DT, T, OP) EW_TERNARY(DT, T, OP, bool, a ? x : y)
#define CLAMP_LOOP(DT, T, OP) EW_TERNARY(DT, T, OP, T, CLAMP_HI(CLAMP_LO(a, x), y))
#define CLAMP_MIN_LOOP(DT, T, OP) EW_BINARY(DT, T, OP, T, CLAMP_LO(x, y))
#define CLAMP_MAX_LOOP(DT, T, OP) EW_BINARY(DT, T, OP, T, CLAMP_HI(x, y))
#define DEF_LOOPS(OP, GEN, BOOLS) \
    EW_INT_TYPES(GEN, OP) EW_FLOAT_TYPES(GEN, OP) BOOLS(GEN, OP) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { \
        EW_INT_TYPES(EW_ENTRY, OP) EW_FLOAT_TYPES(EW_ENTRY, OP) BOOLS(EW_ENTRY, OP) };
#define NO_BOOL(X, OP)
DEF_LOOPS(where, WHERE_LOOP, EW_BOOL_TYPES)
DEF_LOOPS(clamp, CLAMP_LOOP, NO_BOOL)
DEF_LOOPS(clamp_min, CLAMP_MIN_LOOP, NO_BOOL)
DEF_LOOPS(clamp_max, CLAMP_MAX_LOOP, NO_BOOL)

static const TsCpuEwOp ew_where = { "where", TS_EW_SAME, true, where_loops };
static const TsCpuEwOp ew_clamp = { "clamp", TS_EW_SAME, false, clamp_loops };
static const TsCpuEwOp ew_clamp_min = { "clamp_min", TS_EW_SAME, false, clamp_min_loops };
static const TsCpuEwOp ew_clamp_max = { "clamp_max", TS_EW_SAME, false, clamp_max_loops };

/* Pushes the result: a new tensor, or the written argument keep itself. On failure out is
 * the caller's to release. */
static int finish(TsArgs *a, int rc, TsCpuEwMode mode, TsTensor *out, size_t keep)
{
    if (mode == TS_EW_NEW)
        return ts_args_return_tensor(a, rc, rc ? NULL : out);
    return ts_args_return_arg(a, rc, keep);
}

static void release_all(int n, TsTensor **t)
{
    for (int i = 0; i < n; i++)
        if (t[i])
            ts_tensor_release(t[i]);
}

/* Argument i (retained) when it is a tensor, else v (argument i or what stands for it) as
 * a wrapped Scalar. */
static TsTensor *operand(TsArgs *a, size_t i, TsValue v)
{
    if (v.tag != TS_TAG_TENSOR)
        return ts_cpu_wrap_scalar(v, a->call->error);
    TsTensor *t;
    if (ts_args_tensor(a, i, &t))
        return NULL;
    ts_tensor_retain(t);
    return t;
}

/* ---- where ------------------------------------------------------------------------- */

static int where_call(TsCall *c, bool out_form)
{
    TsArgs a;
    TsTensor *in[3] = { NULL, NULL, NULL }, *out = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    for (size_t i = 0; i < 3 && !rc; i++)
        if (!(in[i] = operand(&a, i, a.v[i])))
            rc = c->error->code;
    if (!rc && out_form)
        rc = ts_args_tensor(&a, 3, &out);
    TsCpuEwMode mode = out_form ? TS_EW_OUT : TS_EW_NEW;
    if (!rc)
        rc = ts_cpu_ew(&ew_where, 3, in, &out, mode, NULL, c->error);
    release_all(3, in);
    return finish(&a, rc, mode, out, 3);
}

static int k_where(TsCall *c) { return where_call(c, false); }
static int k_where_out(TsCall *c) { return where_call(c, true); }

/* ---- masked_fill ------------------------------------------------------------------ */

/* The bool mask masked_fill reads from a mask of another dtype: PyTorch 1.13's cpu kernel
 * reads the first byte of each element as a bool, so that 0 is false, 1 true and any other
 * byte an error (a float mask of 1.0, whose first byte is 0, fills nothing). */
static TsTensor *mask_as_bool(TsCall *c, const TsTensor *mask)
{
    TsTensor *src = ts_cpu_cast(mask, mask->dtype, c->error);    /* a contiguous copy */
    TsTensor *b = src ? ts_cpu_empty(TS_BOOL, mask->dim, mask->sizes, c->error) : NULL;
    if (b) {
        size_t es = ts_dtype_size(mask->dtype);
        const unsigned char *in = ts_tensor_data(src);
        bool *out = ts_tensor_data(b);
        for (int64_t i = 0, n = ts_tensor_numel(mask); i < n; i++) {
            unsigned char first = in[(size_t)i * es];
            if (first > 1) {
                ts_error_set(c->error, TS_ERR_RUNTIME, "Mask tensor can take 0 and 1 values "
                             "only");
                ts_tensor_release(b);
                b = NULL;
                break;
            }
            out[i] = first == 1;
        }
    }
    if (src)
        ts_tensor_release(src);
    return b;
}

/* Fills self where mask is true; self must already have the broadcast shape. */
static int masked_fill_into(TsCall *c, TsTensor *self, TsTensor *mask, TsValue value)
{
    TsTensor *v = NULL, *m = NULL;
    if (value.tag == TS_TAG_TENSOR) {
        const TsTensor *vt = (const TsTensor *)value.u.p;
        if (vt->dim != 0)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "masked_fill_ only supports a "
                                "0-dimensional value tensor, but got tensor with %d "
                                "dimension(s).", vt->dim);
        v = ts_cpu_cast(vt, self->dtype, c->error);
    } else {
        v = ts_cpu_scalar_tensor(value, self->dtype, c->error);
    }
    if (v)
        m = mask->dtype == TS_BOOL ? mask : mask_as_bool(c, mask);
    int rc = m ? 0 : (int)c->error->code;
    if (!rc) {
        TsTensor *in[3] = { m, v, self };
        TsTensor *out = self;
        rc = ts_cpu_ew(&ew_where, 3, in, &out, TS_EW_INPLACE, NULL, c->error);
    }
    if (m && m != mask)
        ts_tensor_release(m);
    if (v)
        ts_tensor_release(v);
    return rc;
}

/* masked_fill_(Tensor(a!) self, Tensor mask, Scalar|Tensor value) */
static int k_masked_fill_(TsCall *c)
{
    TsArgs a;
    TsTensor *self, *mask;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &mask);
    if (!rc)
        rc = masked_fill_into(c, self, mask, a.v[2]);
    return finish(&a, rc, TS_EW_INPLACE, NULL, 0);
}

/* masked_fill(Tensor self, Tensor mask, Scalar|Tensor value) -> Tensor: a broadcast copy of
 * self, filled. */
static int k_masked_fill(TsCall *c)
{
    TsArgs a;
    TsTensor *out = NULL, *in[2] = { NULL, NULL };
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &in[0]);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &in[1]);
    if (!rc) {                 /* mask first, as PyTorch expands them (its error's order) */
        TsTensor *order[2] = { in[1], in[0] };
        rc = ts_aten_broadcast_shape(2, order, &dim, sizes, c->error);
    }
    if (!rc && !(out = ts_cpu_empty(in[0]->dtype, dim, sizes, c->error)))
        rc = c->error->code;
    if (!rc) {
        ts_cpu_copy_into(out, in[0]);
        rc = masked_fill_into(c, out, in[1], a.v[2]);
    }
    if (rc && out)
        ts_tensor_release(out);
    return finish(&a, rc, TS_EW_NEW, out, 0);
}

/* ---- clamp ---------------------------------------------------------------------- */

typedef enum ClampForm { C_NEW, C_OUT, C_INPLACE } ClampForm;

/* Clamps self (argument 0) to the optional bounds after it (Scalar or Tensor): min and max,
 * or the one of them the op takes. */
static int clamp_call(TsCall *c, ClampForm form, bool has_min, bool has_max)
{
    TsArgs a;
    size_t k = 1, lo_i = 0, hi_i = 0;
    TsValue lo = ts_none(), hi = ts_none();
    TsTensor *in[3] = { NULL, NULL, NULL }, *out = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a), nin = 1;
    if (rc)
        return ts_args_fail(&a, rc);
    if (has_min)
        lo = a.v[lo_i = k++];
    if (has_max)
        hi = a.v[hi_i = k++];
    if (!(in[0] = operand(&a, 0, a.v[0])))
        rc = c->error->code;
    if (!rc && lo.tag == TS_TAG_NONE && hi.tag == TS_TAG_NONE)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "torch.clamp: At least one of 'min' or 'max' must not be None");
    /* PyTorch's clamp with one scalar bound keeps the value when the bound is nan (a nan
     * tensor bound, a nan with two bounds, or clamp_min/clamp_max give nan): an infinite
     * bound does the same */
    bool clamp = has_min && has_max;     /* clamp itself, not clamp_min/clamp_max */
    if (clamp && lo.tag == TS_TAG_DOUBLE && isnan(lo.u.d) && hi.tag == TS_TAG_NONE)
        lo = ts_double(-INFINITY);
    if (clamp && hi.tag == TS_TAG_DOUBLE && isnan(hi.u.d) && lo.tag == TS_TAG_NONE)
        hi = ts_double(INFINITY);
    if (!rc && lo.tag != TS_TAG_NONE && !(in[nin++] = operand(&a, lo_i, lo)))
        rc = c->error->code;
    if (!rc && hi.tag != TS_TAG_NONE && !(in[nin++] = operand(&a, hi_i, hi)))
        rc = c->error->code;
    if (!rc && form == C_OUT)
        rc = ts_args_tensor(&a, a.n - 1, &out);
    if (!rc && form == C_INPLACE)
        out = in[0];
    const TsCpuEwOp *op = nin == 3 ? &ew_clamp
                        : lo.tag != TS_TAG_NONE ? &ew_clamp_min : &ew_clamp_max;
    TsCpuEwMode mode = form == C_OUT ? TS_EW_OUT : form == C_INPLACE ? TS_EW_INPLACE : TS_EW_NEW;
    if (!rc)
        rc = ts_cpu_ew(op, nin, in, &out, mode, NULL, c->error);
    release_all(3, in);
    return finish(&a, rc, mode, out, form == C_OUT ? a.n - 1 : 0);
}

static int k_clamp(TsCall *c) { return clamp_call(c, C_NEW, true, true); }
static int k_clamp_out(TsCall *c) { return clamp_call(c, C_OUT, true, true); }
static int k_clamp_(TsCall *c) { return clamp_call(c, C_INPLACE, true, true); }
static int k_clamp_min(TsCall *c) { return clamp_call(c, C_NEW, true, false); }
static int k_clamp_min_(TsCall *c) { return clamp_call(c, C_INPLACE, true, false); }
static int k_clamp_max(TsCall *c) { return clamp_call(c, C_NEW, false, true); }
static int k_clamp_max_(TsCall *c) { return clamp_call(c, C_INPLACE, false, true); }

/* where(Tensor condition) -> Tensor[]: the coordinates of condition's nonzero elements, one
 * int64 tensor per dim (one for a 0-dim condition), in row-major order. */
static int k_where_cond(TsCall *c)
{
    TsArgs a;
    TsTensor *cond = NULL, *mask = NULL;
    TsList *l = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &cond);
    if (!rc && !(mask = ts_cpu_cast(cond, TS_BOOL, c->error)))
        rc = c->error->code;
    if (mask) {
        const bool *m = ts_tensor_data(mask);
        int64_t numel = 1, count = 0;
        for (int d = 0; d < mask->dim; d++)
            numel *= mask->sizes[d];
        for (int64_t i = 0; i < numel; i++)
            count += m[i];
        int nd = mask->dim > 0 ? mask->dim : 1;
        l = ts_list_new(ts_type_tensor(), (size_t)nd, c->error);
        for (int d = 0; l && d < nd; d++) {
            TsTensor *t = ts_cpu_empty(TS_INT64, 1, &count, c->error);
            if (t) {
                /* the coordinate along d of each selected element */
                int64_t *o = ts_tensor_data(t), inner = 1, k = 0;
                for (int e = d + 1; e < mask->dim; e++)
                    inner *= mask->sizes[e];
                int64_t size = mask->dim > 0 ? mask->sizes[d] : 1;
                for (int64_t i = 0; i < numel; i++)
                    if (m[i])
                        o[k++] = i / inner % size;
            }
            if (!t || ts_list_append(l, ts_obj_value(t, TS_TAG_TENSOR), c->error)) {
                ts_heap_release(&l->h);
                l = NULL;
            }
        }
        ts_tensor_release(mask);
        if (!l)
            rc = c->error->code;
    }
    return ts_args_return(&a, rc, l ? ts_obj_value(l, TS_TAG_LIST) : ts_none());
}

static const TsCpuOp ops[] = {
    { "aten::where", "", k_where_cond },
    { "aten::where", "self", k_where },
    { "aten::where", "ScalarSelf", k_where },
    { "aten::where", "ScalarOther", k_where },
    { "aten::where", "Scalar", k_where },
    { "aten::where", "self_out", k_where_out },
    { "aten::masked_fill", "Scalar", k_masked_fill },
    { "aten::masked_fill", "Tensor", k_masked_fill },
    { "aten::masked_fill_", "Scalar", k_masked_fill_ },
    { "aten::masked_fill_", "Tensor", k_masked_fill_ },
    { "aten::clamp", "", k_clamp },
    { "aten::clamp", "Tensor", k_clamp },
    { "aten::clamp", "out", k_clamp_out },
    { "aten::clamp", "Tensor_out", k_clamp_out },
    { "aten::clamp_", "", k_clamp_ },
    { "aten::clamp_", "Tensor", k_clamp_ },
    { "aten::clip", "", k_clamp },
    { "aten::clip", "Tensor", k_clamp },
    { "aten::clip", "out", k_clamp_out },
    { "aten::clip", "Tensor_out", k_clamp_out },
    { "aten::clip_", "", k_clamp_ },
    { "aten::clip_", "Tensor", k_clamp_ },
    { "aten::clamp_min", "", k_clamp_min },
    { "aten::clamp_min", "Tensor", k_clamp_min },
    { "aten::clamp_min_", "", k_clamp_min_ },
    { "aten::clamp_min_", "Tensor", k_clamp_min_ },
    { "aten::clamp_max", "", k_clamp_max },
    { "aten::clamp_max", "Tensor", k_clamp_max },
    { "aten::clamp_max_", "", k_clamp_max_ },
    { "aten::clamp_max_", "Tensor", k_clamp_max_ },
};

const TsCpuTable ts_cpu_select_table = { ops, sizeof ops / sizeof ops[0] };
