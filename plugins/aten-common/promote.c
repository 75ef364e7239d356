/* promote.c — PyTorch's type promotion: promote_types, result_type and can_cast.
 *
 * Categories rank bool < integral < floating. promote_types picks the smallest dtype that
 * holds both (uint8 with int8 is int16; float16 with bfloat16 is float32). result_type keeps
 * three tiers — dimensioned tensors, 0-dim tensors, wrapped Python numbers — and a lower
 * tier only matters when it is of a higher category than every tier above it: int32 tensor
 * + float64 0-dim tensor is float64, but float32 tensor + float64 0-dim tensor is float32,
 * and int8 tensor + 1000 stays int8. Wrapped floats count as the default dtype (float32).
 */
#include "tscript/aten.h"

static int category(int t)
{
    if (t == TS_BOOL)
        return 0;
    return ts_dtype_is_floating(t) ? 2 : 1;
}

static bool known(int t)
{
    switch (t) {
    case TS_BOOL: case TS_UINT8: case TS_INT8: case TS_INT16: case TS_INT32: case TS_INT64:
    case TS_FLOAT16: case TS_BFLOAT16: case TS_FLOAT32: case TS_FLOAT64:
        return true;
    default:
        return false;
    }
}

int ts_aten_promote_types(int a, int b)
{
    if (!known(a) || !known(b))
        return -1;
    if (a == b)
        return a;
    int ca = category(a), cb = category(b);
    if (ca != cb)
        return ca > cb ? a : b;
    if (ca == 2) {
        if ((a == TS_FLOAT16 && b == TS_BFLOAT16) || (a == TS_BFLOAT16 && b == TS_FLOAT16))
            return TS_FLOAT32;
        return ts_dtype_size(a) >= ts_dtype_size(b) ? a : b;
    }
    /* integers: uint8 with a signed type needs the next signed size for int8 */
    if (a == TS_UINT8 || b == TS_UINT8) {
        int other = a == TS_UINT8 ? b : a;
        return other == TS_INT8 ? TS_INT16 : other;
    }
    return ts_dtype_size(a) >= ts_dtype_size(b) ? a : b;
}

/* -1 is "no dtype yet" in each tier. */
static int promote_tier(int have, int t)
{
    return have < 0 ? t : ts_aten_promote_types(have, t);
}

/* The lower tier wins only with a higher category (and then promotes with the higher). */
static int combine(int higher, int lower)
{
    if (higher < 0)
        return lower;
    if (lower < 0)
        return higher;
    if (category(higher) == 2)
        return higher;
    if (higher == TS_BOOL || category(lower) == 2)
        return ts_aten_promote_types(higher, lower);
    return higher;
}

int ts_aten_result_type(int n, TsTensor *const *in)
{
    int dim = -1, zero = -1, wrapped = -1;
    for (int i = 0; i < n; i++) {
        const TsTensor *t = in[i];
        if (t->flags & TS_ATEN_WRAPPED)
            wrapped = promote_tier(wrapped, ts_dtype_is_floating(t->dtype) ? TS_FLOAT32
                                                                            : t->dtype);
        else if (t->dim == 0)
            zero = promote_tier(zero, t->dtype);
        else
            dim = promote_tier(dim, t->dtype);
    }
    return combine(dim, combine(zero, wrapped));
}

bool ts_aten_can_cast(int from, int to)
{
    return category(from) <= category(to);
}
