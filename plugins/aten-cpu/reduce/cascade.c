/* cascade.c — a float32 sum in PyTorch 1.13's order, to the bit.
 *
 * reduce.c folds floats in double, more exactly than PyTorch, which sums float32 in float32
 * by its cascade (aten's SumKernel): a result that cancels to nearly nothing, such as
 * (x - x.mean()).sum() or the sum of 0.1 .. 0.7, then prints other digits than PyTorch's,
 * and near zero even another notation. For a run of floats contiguous in memory (a whole
 * contiguous tensor, or the last dims of one), the order is:
 *
 *   - fewer than 8 values: four partial sums over the groups of four values (value i into
 *     partial i % 4, the groups summed by the cascade below), the values past the last whole
 *     group into partial 0, then partial 0 + 1 + 2 + 3;
 *   - 8 or more: the same over vectors of 8 lanes (AVX2's width, what Debian's build runs),
 *     lane by lane; then a float from 0 plus the values past the last whole vector, in order,
 *     plus the 8 lanes of the vector sum, in order.
 *
 * A reduction over a dim that is not the innermost (x.sum(0)) sums each output's column of
 * values a stride apart: PyTorch takes the columns in groups (reduce.c says which) and sums
 * a grouped column by the cascade alone, the columns left over by four partial sums as
 * above.
 *
 * The cascade sums n rows in levels of 2**p rows (p = max(4, ceil(log2 n) / 4)): a level's
 * running sum moves into the next after each 2**p rows it has taken, so only sums of
 * similar size meet; what is left at the end joins level 0, levels 1, 2, 3 in turn.
 */
#include <stdbool.h>
#include <stdint.h>

#include "reduce/reduce.h"

enum { LANES = 8, ILP = 4, LEVELS = 4 };

/* ceil(log2(n)), 1 for n <= 2, as PyTorch's CeilLog2. */
static int64_t ceil_log2(int64_t n)
{
    if (n <= 2)
        return 1;
    return 64 - __builtin_clzll((unsigned long long)(n - 1));
}

/* The cascade over rows 0 .. nrows-1 of width values each: acc[k] gets the sum of column
 * k, where row i column k is x[i * row + k * col]. */
static void cascade(const float *x, int64_t nrows, int64_t row, int64_t col, int width,
                    float *out)
{
    int64_t p = ceil_log2(nrows) / LEVELS;
    if (p < 4)
        p = 4;
    int64_t step = (int64_t)1 << p, mask = step - 1;
    float acc[LEVELS][ILP * LANES] = { { 0 } };
    int64_t i = 0;
    while (i + step <= nrows) {
        for (int64_t j = 0; j < step; j++, i++)
            for (int k = 0; k < width; k++)
                acc[0][k] += x[i * row + k * col];
        for (int j = 1; j < LEVELS; j++) {
            for (int k = 0; k < width; k++) {
                acc[j][k] += acc[j - 1][k];
                acc[j - 1][k] = 0;
            }
            if ((i & (mask << (j * p))) != 0)
                break;
        }
    }
    for (; i < nrows; i++)
        for (int k = 0; k < width; k++)
            acc[0][k] += x[i * row + k * col];
    for (int j = 1; j < LEVELS; j++)
        for (int k = 0; k < width; k++)
            acc[0][k] += acc[j][k];
    for (int k = 0; k < width; k++)
        out[k] = acc[0][k];
}

/* The sum of n units at x, unit u at x + u * step (unit floats, LANES: vectors, 1: values):
 * four partial sums (ILP) of units, the cascade over their groups of four, the leftover
 * units into partial 0, then partial 0 + 1 + 2 + 3. */
static void ilp_sum(const float *x, int64_t n, int unit, int64_t step, float *out)
{
    int64_t groups = n / ILP;
    float part[ILP * LANES];
    /* group g is units 4g .. 4g+3: a row of four units; column k * unit + l is lane l of
     * unit k (a value when unit is 1: then step apart) */
    if (unit == 1)
        cascade(x, groups, ILP * step, step, ILP, part);
    else
        cascade(x, groups, (int64_t)ILP * unit, 1, ILP * unit, part);
    for (int64_t u = groups * ILP; u < n; u++)
        for (int l = 0; l < unit; l++)
            part[l] += x[u * step + l];
    for (int k = 1; k < ILP; k++)
        for (int l = 0; l < unit; l++)
            part[l] += part[k * unit + l];
    for (int l = 0; l < unit; l++)
        out[l] = part[l];
}

float ts_cpu_cascade_sum_f32(const float *x, int64_t n)
{
    if (n < LANES) {
        float s;
        ilp_sum(x, n, 1, 1, &s);
        return s;
    }
    int64_t vecs = n / LANES;
    float lanes[LANES];
    ilp_sum(x, vecs, LANES, LANES, lanes);
    float s = 0;
    for (int64_t i = vecs * LANES; i < n; i++)
        s += x[i];
    for (int l = 0; l < LANES; l++)
        s += lanes[l];
    return s;
}

float ts_cpu_cascade_column_f32(const float *x, int64_t n, int64_t stride, bool grouped)
{
    float s;
    if (grouped)
        cascade(x, n, stride, 0, 1, &s);
    else
        ilp_sum(x, n, 1, stride, &s);
    return s;
}
