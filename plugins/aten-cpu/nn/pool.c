/* pool.c — windowed pooling over 1, 2 or 3 spatial dims: max_pool1d/2d/3d (and their
 * _with_indices forms) and avg_pool1d/2d/3d, batched or not.
 *
 * One engine computes all of them in 3 spatial dims (D, H, W), the missing leading ones of
 * size 1, over a contiguous copy of the input in the dtype the loops compute in (pool.h).
 * The windows follow PyTorch's rules exactly: output sizes with ceil_mode (the last window
 * must start inside the input or its left padding), max windows that skip padding and let
 * NaN win (the last NaN's index is the one kept), average divisors that count or skip padding
 * (or divisor_override), integer averages that truncate.
 *
 * What differs between the ops is PyTorch's checking, and it is reproduced as PyTorch 1.13
 * does it, in its order and words, by family: max_pool1d has its own implementation and
 * messages; avg_pool1d and max_pool1d_with_indices check like other 1-d ops and then run as
 * 2-d pools over (N, C, 1, W), so their later messages are the 2-d ones; the 2-d and 3-d
 * pools check argument lengths, dims, output sizes and then the shape, each in their words
 * (the checks aten-cuda's 2-d pools share are aten-common's pool_check.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn/pool.h"
#include "vmath.h"

typedef enum Family { FAM_MAX1D, FAM_1D, FAM_2D, FAM_3D } Family;

/* Which dtypes a kernel has (DT_INT: int64 only; PyTorch 1.13's avg pools lack the others). */
enum { DT_FLOAT = 1, DT_BF16 = 2, DT_INT = 4 };

typedef struct PoolDef {
    const char *name;          /* "max_pool2d", as the argument messages name it */
    Family fam;
    bool avg, indices;
    int dtypes;
    const char *kernel;        /* '"max_pool2d" not implemented for 'Long'' */
    /* argument length messages for kernel_size, stride, padding, dilation (%zu: length) */
    const char *len_msg[4];
} PoolDef;

#define LEN_1D(NAME) { NAME "() argument 'kernel_size' should contain one int (got %zu)", \
                       NAME "() argument 'stride' should contain one int (got %zu)", \
                       NAME "() argument 'padding' should contain one int (got %zu)", \
                       NAME "() argument 'dilation' should contain one int (got %zu)" }
#define LEN_MAX(NAME, N) \
    { NAME ": kernel_size must either be a single int, or a tuple of " N " ints", \
      NAME ": stride must either be omitted, a single int, or a tuple of " N " ints", \
      NAME ": padding must be either be a single int, or a tuple of " N " ints", \
      NAME ": dilation must be either a single int, or a tuple of " N " ints" }

static const PoolDef max1d = {
    "max_pool1d", FAM_MAX1D, false, false, DT_FLOAT | DT_BF16,
    "max_pool1d_impl",
    { "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but "
      "got size %zu",
      "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but "
      "got size %zu",
      "max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got "
      "size %zu",
      "max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got "
      "size %zu" } };
static const PoolDef max1d_ix = { "max_pool1d", FAM_1D, false,
                                  true, DT_FLOAT | DT_BF16, "max_pool2d", LEN_1D("max_pool1d") };
static const PoolDef avg1d = { "avg_pool1d", FAM_1D, true, false,
                               DT_FLOAT | DT_BF16 | DT_INT, "avg_pool2d", LEN_1D("avg_pool1d") };
static const PoolDef max2d = { "max_pool2d", FAM_2D, false, false,
                               DT_FLOAT | DT_BF16, "max_pool2d", LEN_MAX("max_pool2d", "two") };
static const PoolDef max2d_ix = { "max_pool2d", FAM_2D, false,
                                  true, DT_FLOAT | DT_BF16, "max_pool2d",
                                  LEN_MAX("max_pool2d", "two") };
static const PoolDef avg2d = {
    "avg_pool2d", FAM_2D, true, false, DT_FLOAT | DT_BF16 | DT_INT,
    "avg_pool2d",
    { "avg_pool2d: kernel_size must either be a single int, or a tuple of two ints",
      "avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints",
      "avg_pool2d: padding must either be a single int, or a tuple of two ints", "" } };
static const PoolDef max3d = { "max_pool3d", FAM_3D, false, false, DT_FLOAT,
                               "max_pool3d_with_indices_cpu", LEN_MAX("max_pool3d", "three") };
static const PoolDef max3d_ix = { "max_pool3d", FAM_3D, false,
                                  true, DT_FLOAT, "max_pool3d_with_indices_cpu",
                                  LEN_MAX("max_pool3d", "three") };
static const PoolDef avg3d = {
    "avg_pool3d", FAM_3D, true, false, DT_FLOAT | DT_INT,
    "avg_pool3d_out_frame",
    { "avg_pool3d: kernel_size must be a single int, or a tuple of three ints",
      "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints",
      "avg_pool3d: padding must be a single int, or a tuple of three ints", "" } };

/* The parameters, in 3 dims (leading ones of a 1-d or 2-d pool: kernel 1, stride 1, pad 0,
 * dilation 1). */
typedef struct Pool {
    int64_t k[3], s[3], p[3], d[3];
    bool ceil_mode, count_pad;
    int64_t divisor;           /* 0: none */
} Pool;

static int nsp_of(const PoolDef *def)
{
    return def->fam == FAM_3D ? 3 : def->fam == FAM_2D ? 2 : 1;
}

/* Argument `which` (0 kernel_size, 1 stride, 2 padding, 3 dilation: argument which + 1) into
 * the last nsp entries of out: one int or a list of 1 or nsp. *empty (may be NULL) is set for
 * [] (stride [] means the kernel size). */
static int read_list(TsArgs *args, const PoolDef *def, int which, int64_t *out, bool *empty)
{
    TsError *err = args->call->error;
    TsValue v = args->v[which + 1];
    int nsp = nsp_of(def);
    int64_t vals[3];
    size_t len = 1;
    if (v.tag == TS_TAG_INT) {
        vals[0] = v.u.i;
    } else {
        const TsList *l = v.tag == TS_TAG_LIST ? (const TsList *)v.u.p : NULL;
        for (size_t i = 0; l && i < l->len; i++)
            if (l->items[i].tag != TS_TAG_INT)
                l = NULL;
        if (!l)
            return ts_error_set(err, TS_ERR_TYPE, "%s: argument '%s' must be a list of ints",
                                ts_args_op_name(args), ts_args_name(args, (size_t)which + 1));
        len = l->len;
        if (len == 0 && empty) {
            *empty = true;
            return 0;
        }
        if (len != 1 && len != (size_t)nsp)
            return ts_error_set(err, TS_ERR_RUNTIME, def->len_msg[which], len);
        for (size_t i = 0; i < len; i++)
            vals[i] = l->items[i].u.i;
    }
    for (int i = 0; i < nsp; i++)
        out[3 - nsp + i] = vals[len == 1 ? 0 : i];
    return 0;
}

/* Reads the parameters: the arguments are (self, kernel_size, stride, padding, then dilation
 * and ceil_mode for max, ceil_mode, count_include_pad and divisor_override for avg). */
static int read_pool(TsArgs *args, const PoolDef *def, Pool *pl)
{
    const TsValue *a = args->v;
    for (int i = 0; i < 3; i++) {
        pl->k[i] = pl->s[i] = pl->d[i] = 1;
        pl->p[i] = 0;
    }
    bool empty = false;
    int rc = read_list(args, def, 0, pl->k, NULL);
    if (rc || (rc = read_list(args, def, 1, pl->s, &empty)))
        return rc;
    if (empty)
        memcpy(pl->s, pl->k, sizeof pl->s);
    if ((rc = read_list(args, def, 2, pl->p, NULL)))
        return rc;
    if (!def->avg && (rc = read_list(args, def, 3, pl->d, NULL)))
        return rc;
    int ceil_at = def->avg ? 4 : 5;
    pl->ceil_mode = a[ceil_at].tag == TS_TAG_BOOL && a[ceil_at].u.b;
    pl->count_pad = def->avg && !(a[5].tag == TS_TAG_BOOL && !a[5].u.b);
    pl->divisor = 0;
    if (def->avg && def->fam != FAM_1D && a[6].tag == TS_TAG_INT) {
        if (a[6].u.i == 0)
            return ts_error_set(args->call->error, TS_ERR_RUNTIME, "divisor must be not zero");
        pl->divisor = a[6].u.i;
    }
    return 0;
}

/* The spatial sizes of x (its last nsp) padded to 3, and the planes before them. */
static void input_geo(const TsTensor *x, int nsp, TsPoolGeo *g)
{
    g->nsp = nsp;
    g->planes = 1;
    for (int i = 0; i < x->dim - nsp; i++)
        g->planes *= x->sizes[i];
    for (int i = 0; i < 3; i++)
        g->in[i] = i < 3 - nsp ? 1 : x->sizes[x->dim - 3 + i];
}

static int check_dtype(TsCall *c, const PoolDef *def, int dtype)
{
    bool ok = dtype == TS_FLOAT32 || dtype == TS_FLOAT64 ? (def->dtypes & DT_FLOAT)
            : dtype == TS_BFLOAT16 ? (def->dtypes & DT_BF16)
            : dtype == TS_INT64 ? (def->dtypes & DT_INT) : 0;
    if (ok)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", def->kernel,
                        ts_dtype_type_name(dtype));
}

/* max_pool1d's own checks (its arguments are read already). */
static int check_max1d(TsCall *c, const TsTensor *x, const Pool *pl, TsPoolGeo *g)
{
    TsError *err = c->error;
    int64_t k = pl->k[2], s = pl->s[2], p = pl->p[2], d = pl->d[2];
    if (k <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "max_pool1d() kernel_size must be greater than "
                            "zero, but got %lld", (long long)k);
    if (s <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "max_pool1d() stride must be greater than zero, "
                            "but got %lld", (long long)s);
    if (p < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "max_pool1d() padding must be non-negative, but "
                            "got %lld", (long long)p);
    if (p > k / 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "max_pool1d() padding should be at most half of "
                            "kernel size, but got padding=%lld and kernel_size=%lld",
                            (long long)p, (long long)k);
    if (d <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "max_pool1d() dilation must be greater than "
                            "zero, but got %lld", (long long)d);
    input_geo(x, 1, g);
    g->out[0] = g->out[1] = 1;
    g->out[2] = ts_aten_pool_out_size(g->in[2], k, p, s, d, pl->ceil_mode);
    if (g->out[2] < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "max_pool1d() Invalid computed output size: "
                            "%lld", (long long)g->out[2]);
    return 0;
}

/* pooling_output_shape's checks, then the shape checks of pool2d/pool3d. sizes/dim: the
 * input as the 2-d or 3-d pool sees it (a 1-d pool's input with its H of 1). */
static int check_shape(TsCall *c, const PoolDef *def, int dim, const int64_t *sizes,
                       const Pool *pl, TsPoolGeo *g)
{
    TsError *err = c->error;
    int nsp = def->fam == FAM_3D ? 3 : 2, first = 3 - nsp;
    if (ts_aten_check_pool_pads(nsp, pl->k + first, pl->s + first, pl->p + first, err))
        return err->code;
    g->nsp = nsp_of(def);
    g->planes = 1;
    for (int i = 0; i < dim - nsp; i++)
        g->planes *= sizes[i];
    for (int i = 0; i < 3; i++) {
        g->in[i] = i < first ? 1 : sizes[dim - 3 + i];
        g->out[i] = i < first ? 1 : ts_aten_pool_out_size(g->in[i], pl->k[i], pl->p[i],
                                                          pl->s[i], pl->d[i], pl->ceil_mode);
    }
    const int64_t *k = pl->k, *s = pl->s, *d = pl->d;
    char shape[128];
    ts_aten_format_sizes(shape, sizeof shape, dim, sizes);
    int64_t ch = sizes[dim - nsp - 1];
    if (nsp == 2) {
        if (ts_aten_check_pool2d_window(k + 1, s + 1, d + 1, err) ||
            ts_aten_check_pool2d_input(dim, sizes, err))
            return err->code;
        if (g->out[1] < 1 || g->out[2] < 1)
            return ts_error_set(err, TS_ERR_RUNTIME, "Given input size: (%lldx%lldx%lld). "
                                "Calculated output size: (%lldx%lldx%lld). Output size is too "
                                "small", (long long)ch, (long long)g->in[1], (long long)g->in[2],
                                (long long)ch, (long long)g->out[1], (long long)g->out[2]);
        return 0;
    }
    if (k[0] <= 0 || k[1] <= 0 || k[2] <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "kernel size should be greater than zero, but "
                            "got kT: %lld kH: %lld kW: %lld", (long long)k[0], (long long)k[1],
                            (long long)k[2]);
    if (s[0] <= 0 || s[1] <= 0 || s[2] <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "stride should be greater than zero, but got "
                            "dT: %lld dH: %lld dW: %lld", (long long)s[0], (long long)s[1],
                            (long long)s[2]);
    if (d[0] <= 0 || d[1] <= 0 || d[2] <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "dilation should be greater than zero, but got "
                            "dilationT: %lld dilationH: %lld dilationW: %lld", (long long)d[0],
                            (long long)d[1], (long long)d[2]);
    for (int i = dim == 5 ? 1 : 0; i < dim; i++)
        if (sizes[i] <= 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s: Expected input's non-batch dimensions "
                                "to have positive length, but input has a shape of %s and "
                                "non-batch dimension %d has length zero!",
                                def->avg ? "avg_pool3d()"
                                         : "max_pool3d_with_indices_out_cpu_template()",
                                shape, i - (dim == 5 ? 1 : 0));
    if (def->avg && (g->in[0] < k[0] || g->in[1] < k[1] || g->in[2] < k[2]))
        return ts_error_set(err, TS_ERR_RUNTIME, "input image (T: %lld H: %lld W: %lld) smaller "
                            "than kernel size (kT: %lld kH: %lld kW: %lld)", (long long)g->in[0],
                            (long long)g->in[1], (long long)g->in[2], (long long)k[0],
                            (long long)k[1], (long long)k[2]);
    if (g->out[0] < 1 || g->out[1] < 1 || g->out[2] < 1)
        return ts_error_set(err, TS_ERR_RUNTIME, "Given input size: (%lldx%lldx%lldx%lld). "
                            "Calculated output size: (%lldx%lldx%lldx%lld). Output size is too "
                            "small", (long long)ch, (long long)g->in[0], (long long)g->in[1],
                            (long long)g->in[2], (long long)ch, (long long)g->out[0],
                            (long long)g->out[1], (long long)g->out[2]);
    return 0;
}

/* Every check of def's family, in PyTorch's order; fills the geometry. */
static int check(TsCall *c, const PoolDef *def, TsArgs *args, const TsTensor *x, Pool *pl,
                 TsPoolGeo *g)
{
    TsError *err = c->error;
    char shape[128];
    ts_aten_format_sizes(shape, sizeof shape, x->dim, x->sizes);
    int64_t sizes[5];
    int dim = x->dim;
    switch (def->fam) {
    case FAM_MAX1D: {
        bool ok = x->dim == 2 || x->dim == 3;
        for (int i = x->dim == 3 ? 1 : 0; ok && i < x->dim; i++)
            ok = x->sizes[i] != 0;
        if (!ok)
            return ts_error_set(err, TS_ERR_RUNTIME, "max_pool1d: Expected 2D or 3D (batch mode) "
                                "tensor with optional 0 dim batch size for input, but got:%s",
                                shape);
        if (read_pool(args, def, pl) || check_max1d(c, x, pl, g))
            return err->code;
        return check_dtype(c, def, x->dtype);
    }
    case FAM_1D:
        if (x->dim < 2 || x->dim > 3)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected 2 to 3 dimensions, but got "
                                "%d-dimensional tensor for argument #1 'self' (while checking "
                                "arguments for %s)", (int)x->dim, def->name);
        if (read_pool(args, def, pl))
            return err->code;
        /* from here on a 2-d pool over the input with an H of 1 */
        memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)(x->dim - 1));
        sizes[x->dim - 1] = 1;
        sizes[x->dim] = x->sizes[x->dim - 1];
        dim = x->dim + 1;
        break;
    case FAM_2D:
        if (read_pool(args, def, pl))
            return err->code;
        if (!def->avg && x->dim != 3 && x->dim != 4)
            return ts_error_set(err, TS_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor "
                                "expected for input");
        if (def->avg && x->dim < 3)
            return ts_error_set(err, TS_ERR_INDEX, "Dimension out of range (expected to be in "
                                "range of [%d, %d], but got -3)", -(int)x->dim, (int)x->dim - 1);
        if (x->dim > 5)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected 3D or 4D (batch mode) tensor with "
                                "optional 0 dim batch size for input, but got:%s", shape);
        memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->dim);
        break;
    case FAM_3D:
        if (read_pool(args, def, pl))
            return err->code;
        if (x->dim != 4 && x->dim != 5)
            return ts_error_set(err, TS_ERR_RUNTIME, "non-empty 4D or 5D (batch mode) tensor "
                                "expected for input");
        memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->dim);
        break;
    }
    if (check_shape(c, def, dim, sizes, pl, g))
        return err->code;
    return check_dtype(c, def, x->dtype);
}

/* The taps [*lo, *hi) of a window's dim that fall inside [0, n): taps at start + t * step for
 * t in [0, k), step >= 1. */
static void taps_inside(int64_t start, int64_t step, int64_t k, int64_t n, int64_t *lo,
                        int64_t *hi)
{
    *lo = start >= 0 ? 0 : (-start + step - 1) / step;
    *hi = start > n - 1 ? 0 : (n - 1 - start) / step + 1;
    if (*hi > k)
        *hi = k;
    if (*lo > *hi)
        *lo = *hi;
}

/* The max of one window (its inside taps [alo, ahi) x [ilo, ihi) x [jlo, jhi) from base, the
 * element of tap (0, 0, 0)); a NaN anywhere makes it NaN, as the general loop's "NaN wins". */
static float window_max(const float *base, int64_t alo, int64_t ahi, int64_t ilo, int64_t ihi,
                        int64_t jlo, int64_t jhi, int64_t ta, int64_t ti, int64_t tj)
{
    float m = -INFINITY;
    int nan = 0;
    for (int64_t a = alo; a < ahi; a++)
        for (int64_t i = ilo; i < ihi; i++)
            for (int64_t j = jlo; j < jhi; j++) {
                float v = base[a * ta + i * ti + j * tj];
                m = v > m ? v : m;
                nan |= v != v;
            }
    return nan ? NAN : m;
}

enum { CHUNK = 32 };

/* The maxima of n (<= CHUNK) windows wholly inside their rows, sw apart, the first's tap
 * (0, 0, 0) at base, into out. A NaN sticks: once m is NaN neither test replaces it. The
 * choice is a bitwise select, which vectorizes where ?: on floats stays a branch. */
TS_VM_VECTORIZE static inline void chunk_max(const float *base, int64_t sw, int64_t n,
                                             int64_t alo, int64_t ahi, int64_t ilo,
                                             int64_t ihi, int64_t kw, int64_t ta, int64_t ti,
                                             int64_t dw, float *out)
{
    float m[CHUNK];
    for (int64_t c = 0; c < n; c++)
        m[c] = -INFINITY;
    for (int64_t a = alo; a < ahi; a++)
        for (int64_t i = ilo; i < ihi; i++)
            for (int64_t j = 0; j < kw; j++) {
                const float *r = base + a * ta + i * ti + j * dw;
                for (int64_t c = 0; c < n; c++) {
                    float v = r[c * sw];
                    m[c] = ts_vm_pick(-(uint32_t)(v > m[c]) | -(uint32_t)(v != v), v, m[c]);
                }
            }
    memcpy(out, m, (size_t)n * sizeof *m);
}

/* Max pooling of float32 without indices, the case a network's forward runs. Each window's
 * inside taps are found once per row and column. A window's max is a chain of dependent
 * compares, so the windows wholly inside the row are done CHUNK at a time, tap by tap, each
 * tap's compare across the chunk's windows independent of the others; the windows at the
 * edges one by one. */
TS_VM_VECTORIZE static void max_pool_f32(const Pool *pl, const TsPoolGeo *g, const float *in,
                                         float *out)
{
    const int64_t id = g->in[0], ih = g->in[1], iw = g->in[2];
    const int64_t od = g->out[0], oh = g->out[1], ow = g->out[2];
    const int64_t sw = pl->s[2], pw = pl->p[2], kw = pl->k[2];
    const int64_t dd = pl->d[0], dh = pl->d[1], dw = pl->d[2];
    const int64_t isz = id * ih * iw, ta = dd * ih * iw, ti = dh * iw;
    /* the columns x whose window lies inside [0, iw): x * sw - pw >= 0 and
     * x * sw - pw + (kw - 1) * dw <= iw - 1 */
    int64_t xlo = (pw + sw - 1) / sw, last = iw - 1 - (kw - 1) * dw + pw;
    int64_t xhi = last < 0 ? 0 : last / sw + 1;
    xhi = xhi > ow ? ow : xhi;
    xlo = xlo > xhi ? xhi : xlo;
    for (int64_t q = 0; q < g->planes; q++)
        for (int64_t z = 0; z < od; z++) {
            int64_t t0 = z * pl->s[0] - pl->p[0], alo, ahi;
            taps_inside(t0, dd, pl->k[0], id, &alo, &ahi);
            for (int64_t y = 0; y < oh; y++, out += ow) {
                int64_t h0 = y * pl->s[1] - pl->p[1], ilo, ihi;
                taps_inside(h0, dh, pl->k[1], ih, &ilo, &ihi);
                const float *plane = in + q * isz + t0 * ih * iw + h0 * iw;
                for (int64_t x = 0; x < ow; x++) {
                    if (x == xlo && xhi > xlo)
                        x = xhi;                     /* the inside ones come after */
                    if (x >= ow)
                        break;
                    int64_t w0 = x * sw - pw, jlo, jhi;
                    taps_inside(w0, dw, kw, iw, &jlo, &jhi);
                    out[x] = window_max(plane + w0, alo, ahi, ilo, ihi, jlo, jhi, ta, ti, dw);
                }
                for (int64_t x0 = xlo; x0 < xhi; x0 += CHUNK) {
                    int64_t n = xhi - x0 < CHUNK ? xhi - x0 : CHUNK;
                    const float *base = plane + x0 * sw - pw;
                    /* strides 1 and 2 (nearly every network's) as constants, for the
                     * compiler to vectorize */
                    if (sw == 2)
                        chunk_max(base, 2, n, alo, ahi, ilo, ihi, kw, ta, ti, dw, out + x0);
                    else if (sw == 1)
                        chunk_max(base, 1, n, alo, ahi, ilo, ihi, kw, ta, ti, dw, out + x0);
                    else
                        chunk_max(base, sw, n, alo, ahi, ilo, ihi, kw, ta, ti, dw, out + x0);
                }
            }
        }
}

/* Max over each window; idx (may be NULL) gets the flat in-plane index of the max. */
static void max_pool(const Pool *pl, const TsPoolGeo *g, int dt, const void *in, void *out,
                     int64_t *idx)
{
    if (dt == TS_FLOAT32 && !idx) {
        max_pool_f32(pl, g, in, out);
        return;
    }
    int64_t id = g->in[0], ih = g->in[1], iw = g->in[2];
    int64_t od = g->out[0], oh = g->out[1], ow = g->out[2];
    int64_t isz = id * ih * iw, osz = od * oh * ow;
    for (int64_t q = 0; q < g->planes; q++)
        for (int64_t z = 0; z < od; z++)
            for (int64_t y = 0; y < oh; y++)
                for (int64_t x = 0; x < ow; x++) {
                    int64_t t0 = z * pl->s[0] - pl->p[0], h0 = y * pl->s[1] - pl->p[1];
                    int64_t w0 = x * pl->s[2] - pl->p[2];
                    double m = -INFINITY;
                    int64_t at = -1;
                    for (int64_t a = 0; a < pl->k[0]; a++) {
                        int64_t it = t0 + a * pl->d[0];
                        for (int64_t i = 0; it >= 0 && it < id && i < pl->k[1]; i++) {
                            int64_t iy = h0 + i * pl->d[1];
                            for (int64_t j = 0; iy >= 0 && iy < ih && j < pl->k[2]; j++) {
                                int64_t ix = w0 + j * pl->d[2];
                                if (ix < 0 || ix >= iw)
                                    continue;
                                int64_t k = (it * ih + iy) * iw + ix;
                                double v = ts_pool_get(dt, in, q * isz + k);
                                if (at < 0)
                                    at = k;
                                if (v > m || isnan(v)) {
                                    m = v;
                                    at = k;
                                }
                            }
                        }
                    }
                    int64_t o = q * osz + (z * oh + y) * ow + x;
                    ts_pool_set(dt, out, o, m);
                    if (idx)
                        idx[o] = at;
                }
}

/* Clips a window [*lo, *hi) to [0, n); returns its size counting the padding (up to n + pad). */
static int64_t clip(int64_t *lo, int64_t *hi, int64_t n, int64_t pad)
{
    if (*hi > n + pad)
        *hi = n + pad;
    int64_t with_pad = *hi - *lo;
    if (*lo < 0)
        *lo = 0;
    if (*hi > n)
        *hi = n;
    return with_pad;
}

static void avg_pool(const Pool *pl, const TsPoolGeo *g, int dt, const void *in, void *out)
{
    int64_t id = g->in[0], ih = g->in[1], iw = g->in[2];
    int64_t od = g->out[0], oh = g->out[1], ow = g->out[2];
    int64_t isz = id * ih * iw, osz = od * oh * ow;
    for (int64_t q = 0; q < g->planes; q++)
        for (int64_t z = 0; z < od; z++)
            for (int64_t y = 0; y < oh; y++)
                for (int64_t x = 0; x < ow; x++) {
                    int64_t t0 = z * pl->s[0] - pl->p[0], t1 = t0 + pl->k[0];
                    int64_t h0 = y * pl->s[1] - pl->p[1], h1 = h0 + pl->k[1];
                    int64_t w0 = x * pl->s[2] - pl->p[2], w1 = w0 + pl->k[2];
                    int64_t pool = clip(&t0, &t1, id, pl->p[0]) * clip(&h0, &h1, ih, pl->p[1]) *
                                   clip(&w0, &w1, iw, pl->p[2]);
                    int64_t o = q * osz + (z * oh + y) * ow + x;
                    if (t0 >= t1 || h0 >= h1 || w0 >= w1) {
                        ts_pool_set(dt, out, o, 0);
                        continue;
                    }
                    double sum = 0;
                    int64_t isum = 0;
                    for (int64_t it = t0; it < t1; it++)
                        for (int64_t iy = h0; iy < h1; iy++)
                            for (int64_t ix = w0; ix < w1; ix++) {
                                int64_t k = q * isz + (it * ih + iy) * iw + ix;
                                if (dt == TS_INT64)
                                    isum += ((const int64_t *)in)[k];
                                else
                                    sum += ts_pool_get(dt, in, k);
                            }
                    int64_t div = pl->divisor ? pl->divisor
                                : pl->count_pad ? pool : (t1 - t0) * (h1 - h0) * (w1 - w0);
                    if (dt == TS_INT64)
                        ((int64_t *)out)[o] = isum / div;
                    else
                        ts_pool_set(dt, out, o, sum / (double)div);
                }
}

/* One pool call: values, and indices when def has them; with nout out= tensors after the
 * arguments (checked by rule), the results go into those. */
static int pool_call(TsCall *c, const PoolDef *def, size_t nout, TsNnOutRule rule)
{
    TsArgs args;
    Pool pl;
    TsPoolGeo g;
    TsTensor *o = NULL, *ix = NULL, *cx = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    if (x && !check(c, def, &args, x, &pl, &g) && (cx = ts_pool_input(x, c->error)) &&
        (o = ts_pool_alloc(x, &g, c->error))) {
        if (def->indices && !(ix = ts_cpu_empty(TS_INT64, o->dim, o->sizes, c->error))) {
            ts_tensor_release(o);
            o = NULL;
        } else if (def->avg) {
            avg_pool(&pl, &g, cx->dtype, ts_tensor_data(cx), ts_tensor_data(o));
        } else {
            max_pool(&pl, &g, cx->dtype, ts_tensor_data(cx), ts_tensor_data(o),
                     ix ? ts_tensor_data(ix) : NULL);
        }
    }
    if (cx)
        ts_tensor_release(cx);
    if (!x)
        return ts_args_fail(&args, c->error->code);
    return ts_pool_finish(&args, x->dtype, o, ix, def->indices, nout, rule);
}

/* aten::max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0],
 *   int[1] dilation=[1], bool ceil_mode=False) -> Tensor; max_pool2d and max_pool3d alike
 *   (int[2]/int[3], padding=0, dilation=1), and the _with_indices forms -> (Tensor, Tensor) */
static int k_max_pool1d(TsCall *c) { return pool_call(c, &max1d, 0, 0); }
static int k_max_pool1d_ix(TsCall *c) { return pool_call(c, &max1d_ix, 0, 0); }
static int k_max_pool2d(TsCall *c) { return pool_call(c, &max2d, 0, 0); }
static int k_max_pool2d_ix(TsCall *c) { return pool_call(c, &max2d_ix, 0, 0); }
static int k_max_pool3d(TsCall *c) { return pool_call(c, &max3d, 0, 0); }
static int k_max_pool3d_ix(TsCall *c) { return pool_call(c, &max3d_ix, 0, 0); }
/* ... and the .out forms (*, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!)) */
static int k_max_pool2d_ix_out(TsCall *c)
{
    return pool_call(c, &max2d_ix, 2, TS_NN_OUT_EXPECTED);
}
static int k_max_pool3d_ix_out(TsCall *c) { return pool_call(c, &max3d_ix, 2, TS_NN_OUT_SCALAR); }
/* aten::avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0],
 *   bool ceil_mode=False, bool count_include_pad=True) -> Tensor; avg_pool2d and avg_pool3d
 *   add int? divisor_override=None */
static int k_avg_pool1d(TsCall *c) { return pool_call(c, &avg1d, 0, 0); }
static int k_avg_pool2d(TsCall *c) { return pool_call(c, &avg2d, 0, 0); }
static int k_avg_pool3d(TsCall *c) { return pool_call(c, &avg3d, 0, 0); }
/* ... and avg_pool2d.out / avg_pool3d.out (*, Tensor(a!) out) -> Tensor(a!) */
static int k_avg_pool2d_out(TsCall *c) { return pool_call(c, &avg2d, 1, TS_NN_OUT_EXPECTED); }
static int k_avg_pool3d_out(TsCall *c) { return pool_call(c, &avg3d, 1, TS_NN_OUT_EXPECTED); }

/* ---- shared with pool_adaptive.c (pool.h) ------------------------------------------ */

int ts_pool_compute_dtype(int dtype)
{
    return dtype == TS_FLOAT64 ? TS_FLOAT64
         : dtype >= TS_UINT8 && dtype <= TS_INT64 ? TS_INT64 : TS_FLOAT32;
}

TsTensor *ts_pool_input(TsTensor *x, TsError *err)
{
    int dt = ts_pool_compute_dtype(x->dtype);
    return dt == x->dtype ? ts_nn_contiguous(x, err) : ts_cpu_cast(x, dt, err);
}

TsTensor *ts_pool_alloc(const TsTensor *x, const TsPoolGeo *g, TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->dim);
    for (int i = 0; i < g->nsp; i++)
        sizes[x->dim - g->nsp + i] = g->out[3 - g->nsp + i];
    return ts_cpu_empty(ts_pool_compute_dtype(x->dtype), x->dim, sizes, err);
}

static TsTensor *pool_result(TsTensor *o, int dtype, TsError *err)
{
    if (o->dtype == dtype)
        return o;
    TsTensor *r = ts_cpu_cast(o, dtype, err);
    ts_tensor_release(o);
    return r;
}

static int finish_out(TsArgs *args, size_t nout, TsNnOutRule rule, TsTensor *values,
                      TsTensor *indices)
{
    TsCall *c = args->call;
    size_t n = args->n;
    int rc = values ? 0 : (int)c->error->code;
    if (!rc && nout == 2 && !indices)
        rc = c->error->code;
    TsTensor *out = NULL, *ixout = NULL;
    if (!rc)
        rc = ts_args_tensor(args, n - nout, &out);
    if (!rc && nout == 2)
        rc = ts_args_tensor(args, n - 1, &ixout);
    if (!rc)
        rc = ts_nn_deliver(c, values, out, rule);
    if (!rc && nout == 2)
        rc = ts_nn_deliver(c, indices, ixout, rule);
    if (values)
        ts_tensor_release(values);
    if (indices)
        ts_tensor_release(indices);
    return ts_nn_return_outs(args, nout, rc);
}

int ts_pool_finish(TsArgs *args, int dtype, TsTensor *values, TsTensor *indices, bool two,
                   size_t nout, TsNnOutRule rule)
{
    if (values)
        values = pool_result(values, dtype, args->call->error);
    if (nout)
        return finish_out(args, nout, rule, values, indices);
    if (two) {
        TsTensor *res[2] = { values, indices };
        return ts_args_return_tensors(args, 0, 2, res);
    }
    return ts_args_return_tensor(args, 0, values);
}

static const TsCpuOp ops[] = {
    { "aten::max_pool2d_with_indices", "out", k_max_pool2d_ix_out },
    { "aten::max_pool3d_with_indices", "out", k_max_pool3d_ix_out },
    { "aten::avg_pool2d", "out", k_avg_pool2d_out },
    { "aten::avg_pool3d", "out", k_avg_pool3d_out },
    { "aten::max_pool1d", "", k_max_pool1d },
    { "aten::max_pool1d_with_indices", "", k_max_pool1d_ix },
    { "aten::max_pool2d", "", k_max_pool2d },
    { "aten::max_pool2d_with_indices", "", k_max_pool2d_ix },
    { "aten::max_pool3d", "", k_max_pool3d },
    { "aten::max_pool3d_with_indices", "", k_max_pool3d_ix },
    { "aten::avg_pool1d", "", k_avg_pool1d },
    { "aten::avg_pool2d", "", k_avg_pool2d },
    { "aten::avg_pool3d", "", k_avg_pool3d },
};

const TsCpuTable ts_cpu_pool_table = { ops, sizeof ops / sizeof ops[0] };
