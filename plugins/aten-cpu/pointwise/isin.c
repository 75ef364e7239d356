/* isin.c — torch.isin: for each element, whether it equals some test element (invert: none
 * does), a bool tensor of the elements' shape.
 *
 * Both sides are compared in their promoted dtype (torch.result_type), as PyTorch compares
 * them: integer dtypes as int64, the others as double, which holds every value of the
 * smaller floating dtypes exactly, each turned into a 64-bit key that orders as the values
 * do. The test elements' keys are sorted once and each element is a binary search,
 * O((n + m) log m); NaN equals nothing, -0.0 equals 0.0. assume_unique is a promise PyTorch
 * may use for speed; the result does not depend on it.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/elementwise.h"

/* Keys that order as the values do: an int64 with its sign bit flipped, a double's bits
 * with the sign bit flipped for positives and every bit for negatives (-0.0 is 0.0 first). */
static uint64_t int_key(int64_t v)
{
    return (uint64_t)v ^ ((uint64_t)1 << 63);
}

static uint64_t double_key(double v)
{
    uint64_t b;
    v = v == 0 ? 0.0 : v;
    memcpy(&b, &v, sizeof b);
    return b >> 63 ? ~b : b ^ ((uint64_t)1 << 63);
}

/* Element i of a contiguous int64 or float64 run at data as its key (NaN: false). */
static bool key_at(const void *data, int64_t i, bool integral, uint64_t *key)
{
    unsigned char b[8];
    memcpy(b, (const unsigned char *)data + i * 8, 8);
    if (integral) {
        int64_t v;
        memcpy(&v, b, 8);
        *key = int_key(v);
        return true;
    }
    double v;
    memcpy(&v, b, 8);
    *key = double_key(v);
    return v == v;
}

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether key v is among the n sorted keys of s. */
static bool found(const uint64_t *s, int64_t n, uint64_t v)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (s[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && s[lo] == v;
}

/* The result for elements e against test elements t (both tensors). */
static TsTensor *isin(const TsTensor *e, const TsTensor *t, bool invert, TsError *err)
{
    TsTensor *in[2] = { (TsTensor *)e, (TsTensor *)t };
    int common = ts_aten_result_type(2, in);
    bool integral = !ts_dtype_is_floating(common);
    int work = integral ? TS_INT64 : TS_FLOAT64;
    TsTensor *ec = ts_cpu_cast(e, work, err), *tc = ec ? ts_cpu_cast(t, work, err) : NULL;
    TsTensor *r = tc ? ts_cpu_empty(TS_BOOL, e->dim, e->sizes, err) : NULL;
    if (r) {
        int64_t n = ts_tensor_numel(ec), m = ts_tensor_numel(tc), k = 0;
        bool *out = ts_tensor_data(r);
        /* the keys in place of the test values (both 8 bytes); NaN equals nothing: left out */
        uint64_t *keys = ts_tensor_data(tc), key;
        for (int64_t j = 0; j < m; j++)
            if (key_at(keys, j, integral, &key))
                keys[k++] = key;
        qsort(keys, (size_t)k, sizeof *keys, cmp_key);
        for (int64_t i = 0; i < n; i++)
            out[i] = (key_at(ts_tensor_data(ec), i, integral, &key) && found(keys, k, key)) !=
                     invert;
    }
    if (ec)
        ts_tensor_release(ec);
    if (tc)
        ts_tensor_release(tc);
    return r;
}

/* isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False,
 * bool invert=False), Tensor_Scalar and Scalar_Tensor (a Scalar side is a wrapped 0-d
 * tensor, as PyTorch makes it), each with an out= form. */
static int isin_kernel(TsCall *c, bool out)
{
    TsArgs a;
    TsTensor *side[2] = { NULL, NULL }, *r = NULL;
    bool made[2] = { false, false }, invert = false;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    for (size_t i = 0; !rc && i < 2; i++) {
        if (a.v[i].tag == TS_TAG_TENSOR) {
            side[i] = (TsTensor *)a.v[i].u.p;
        } else {
            side[i] = ts_cpu_wrap_scalar(a.v[i], c->error);
            made[i] = side[i] != NULL;
            if (!side[i])
                rc = c->error->code;
        }
    }
    if (!rc) rc = ts_args_bool(&a, 3, &invert);
    if (!rc && !(r = isin(side[0], side[1], invert, c->error)))
        rc = c->error->code;
    for (size_t i = 0; i < 2; i++)
        if (made[i])
            ts_tensor_release(side[i]);
    return ts_cpu_return_out(&a, rc, r, out);
}

static int k_isin(TsCall *c) { return isin_kernel(c, false); }
static int k_isin_out(TsCall *c) { return isin_kernel(c, true); }

static const TsCpuOp ops[] = {
    { "aten::isin", "Tensor_Tensor", k_isin }, { "aten::isin", "Tensor_Tensor_out", k_isin_out },
    { "aten::isin", "Tensor_Scalar", k_isin }, { "aten::isin", "Tensor_Scalar_out", k_isin_out },
    { "aten::isin", "Scalar_Tensor", k_isin }, { "aten::isin", "Scalar_Tensor_out", k_isin_out },
};

const TsCpuTable ts_cpu_isin_table = { ops, sizeof ops / sizeof ops[0] };
