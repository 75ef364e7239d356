/* linspace.c — linspace's values, which every backend computes on the host the same way
 * (aten-cpu's create.c, aten-cuda's factory.c, which copies them over): as PyTorch's kernel
 * does, the first half steps up from start and the second half down from end, so both ends
 * are exact, in float32 for the dtypes PyTorch computes so (float32, float16, bfloat16) and
 * in float64 otherwise.
 */
#include "tscript/aten.h"

void ts_aten_linspace(double start, double end, int64_t steps, bool as_float, void *out)
{
    int64_t half = steps / 2;
    if (as_float) {
        float fs = (float)start, fe = (float)end;
        float step = steps > 1 ? (fe - fs) / (float)(steps - 1) : 0;
        float *o = out;
        for (int64_t k = 0; k < steps; k++)
            o[k] = k < half || steps == 1 ? fs + step * (float)k
                                          : fe - step * (float)(steps - k - 1);
    } else {
        double step = steps > 1 ? (end - start) / (double)(steps - 1) : 0;
        double *o = out;
        for (int64_t k = 0; k < steps; k++)
            o[k] = k < half || steps == 1 ? start + step * (double)k
                                          : end - step * (double)(steps - k - 1);
    }
}
