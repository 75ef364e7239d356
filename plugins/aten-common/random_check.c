/* random_check.c — what every backend's random ops share besides the generator: reading a
 * draw's bounds, PyTorch's checks of a draw against the tensor it fills (dtype, bounds,
 * probabilities) with PyTorch's messages, and randperm's shuffle, which runs on the host. aten-cpu's create/random.c fills on the host,
 * aten-cuda's create/random.c on the device; both compute the elements with
 * ts_aten_draw_value (aten.h).
 */
#include <math.h>

#include "tscript/aten.h"

static int64_t int_arg(TsValue v)
{
    return v.tag == TS_TAG_INT ? v.u.i : v.tag == TS_TAG_BOOL ? v.u.b : 0;
}

TsAtenDraw ts_aten_draw(TsAtenDrawKind kind, const TsValue *bounds, size_t n_bounds)
{
    TsAtenDraw d = { kind, kind == TS_ATEN_DRAW_BERNOULLI ? 0.5 : 0, 1, 0, 0 };
    if (n_bounds) {
        d.lo = n_bounds == 2 ? int_arg(bounds[0]) : 0;
        d.hi = int_arg(bounds[n_bounds - 1]);
    }
    return d;
}

/* Is v representable in the integer dtype (bool: 0 or 1)? Floating dtypes take any. */
static bool int_fits(int dtype, int64_t v)
{
    switch (dtype) {
    case TS_BOOL: return v >= 0 && v <= 1;
    case TS_UINT8: return v >= 0 && v <= 255;
    case TS_INT8: return v >= -128 && v <= 127;
    case TS_INT16: return v >= -32768 && v <= 32767;
    case TS_INT32: return v >= INT32_MIN && v <= INT32_MAX;
    default: return true;
    }
}

/* PyTorch's refusal of dtype by its kernel, named head, the backend, then tail. */
static int not_implemented(TsError *err, const char *head, const char *backend,
                           const char *tail, int dtype)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "\"%s%s%s\" not implemented for '%s'", head,
                        backend, tail, ts_dtype_type_name(dtype));
}

static int check_uniform(const TsAtenDraw *d, int dtype, TsError *err)
{
    if (!ts_dtype_is_floating(dtype))
        return not_implemented(err, "check_uniform_bounds", "", "", dtype);
    if (!(d->a <= d->b))
        return ts_error_set(err, TS_ERR_RUNTIME, "uniform_ expects to return a [from, to) "
                            "range, but found from=%g > to=%g", d->a, d->b);
    if (!isfinite(d->a))
        return ts_error_set(err, TS_ERR_RUNTIME, "from is out of bounds for %s",
                            ts_dtype_name(dtype));
    if (!isfinite(d->b))
        return ts_error_set(err, TS_ERR_RUNTIME, "to is out of bounds for %s",
                            ts_dtype_name(dtype));
    return 0;
}

static int check_int(const TsAtenDraw *d, int dtype, TsError *err)
{
    if (ts_dtype_is_complex(dtype))
        return ts_error_set(err, TS_ERR_RUNTIME, "check_random_bounds handles only integral, "
                            "floating-point and boolean types");
    if (d->lo >= d->hi)
        return ts_error_set(err, TS_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', "
                            "but got from=%lld >= to=%lld", (long long)d->lo, (long long)d->hi);
    if (!int_fits(dtype, d->lo))
        return ts_error_set(err, TS_ERR_RUNTIME, "from is out of bounds for %s",
                            ts_dtype_name(dtype));
    if (!int_fits(dtype, d->hi - 1))
        return ts_error_set(err, TS_ERR_RUNTIME, "to - 1 is out of bounds for %s",
                            ts_dtype_name(dtype));
    return 0;
}

int ts_aten_check_draw(const TsAtenDraw *d, int dtype, const char *backend, TsError *err)
{
    switch (d->kind) {
    case TS_ATEN_DRAW_UNIFORM:
        return check_uniform(d, dtype, err);
    case TS_ATEN_DRAW_NORMAL:
        if (!ts_dtype_is_floating(dtype))
            return not_implemented(err, "normal_kernel_", backend, "", dtype);
        if (!(d->b >= 0))
            return ts_error_set(err, TS_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g",
                                d->b);
        return 0;
    case TS_ATEN_DRAW_INT:
        return check_int(d, dtype, err);
    case TS_ATEN_DRAW_BERNOULLI:
        if (d->a >= 0 && d->a <= 1)
            return 0;
        return ts_error_set(err, TS_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got "
                            "p=%g", d->a);
    }
    return ts_error_set(err, TS_ERR_RUNTIME, "unknown random draw");
}

int ts_aten_check_probabilities(int p_dtype, const char *backend, TsError *err)
{
    if (ts_dtype_is_floating(p_dtype))
        return 0;
    return not_implemented(err, "bernoulli_tensor_", backend, "_p_", p_dtype);
}

int ts_aten_probability_error(TsError *err)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "Expected p_in >= 0 && p_in <= 1 to be true, but "
                        "got false.  (Could this error message be improved?  If so, please "
                        "report an enhancement request to PyTorch.)");
}

int ts_aten_check_randperm(int64_t n, int dtype, TsError *err)
{
    if (n < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "Trying to create tensor with negative "
                            "dimension %lld: [%lld]", (long long)n, (long long)n);
    if (dtype == TS_BOOL || ts_dtype_is_complex(dtype))
        return ts_error_set(err, TS_ERR_RUNTIME, "\"randperm\" not implemented for '%s'",
                            ts_dtype_type_name(dtype));
    if (n > 1) {
        char elem[16];
        return ts_aten_scalar_to_elem(ts_int(n - 1), dtype, elem, err);
    }
    return 0;
}

void ts_aten_randperm(int64_t n, int64_t *perm)
{
    for (int64_t i = 0; i < n; i++)
        perm[i] = i;
    uint64_t base = ts_random_reserve(n > 1 ? (uint64_t)(n - 1) : 0);
    for (int64_t i = 0; i + 1 < n; i++) {
        int64_t j = i + ts_random_int(ts_random_draw(base, (uint64_t)i + 1), 0, n - i);
        int64_t tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
}
