/* random.c — aten-cpu's generator and the ops that only draw from it.
 *
 * The generator is splitmix64 over a process-wide atomic counter: each draw adds the golden
 * gamma to the counter and mixes the result, so concurrent callers get disjoint draws without
 * a lock, and a fresh process (or aten::manual_seed(s)) repeats its stream. It is not
 * PyTorch's generator (mt19937 plus MKL's streams): distributions match PyTorch's, individual
 * draws do not.
 */
#include <stdatomic.h>

#include "nn.h"
#include "random.h"

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ULL
#define DEFAULT_STATE 0x2545F4914F6CDD1DULL

static atomic_uint_fast64_t state = DEFAULT_STATE;

uint64_t ts_cpu_random_u64(void)
{
    uint64_t z = atomic_fetch_add(&state, GOLDEN_GAMMA) + GOLDEN_GAMMA;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double ts_cpu_random_unit(void)
{
    return (double)(ts_cpu_random_u64() >> 11) * 0x1.0p-53;
}

void ts_cpu_dropout_data(int dtype, void *data, int64_t n, double p)
{
    double scale = p < 1 ? 1 / (1 - p) : 0;
    for (int64_t i = 0; i < n; i++) {
        double u = ts_cpu_random_unit();
        ts_nn_set(dtype, data, i, u < p ? 0 : ts_nn_get(dtype, data, i) * scale);
    }
}
