/* random.c — the state of the process's one random generator (tscript/random.h): a counter
 * that ts_random_reserve advances by whole blocks of draws and ts_random_seed resets.
 *
 * It lives in the core, not in a backend plugin, because every backend must draw from the
 * same stream: aten::manual_seed seeds it whichever plugin's kernel runs, and a program gives
 * the same numbers on the cpu and on a GPU.
 */
#include "tscript/random.h"

#include <stdatomic.h>

/* The state of a fresh process: the stream starts here, as it did when aten-cpu owned it. */
#define DEFAULT_STATE 0x2545F4914F6CDD1DULL

static atomic_uint_fast64_t state = DEFAULT_STATE;

uint64_t ts_random_reserve(uint64_t n)
{
    return atomic_fetch_add(&state, n * TS_RANDOM_GAMMA);
}

void ts_random_seed(int64_t seed)
{
    atomic_store(&state, DEFAULT_STATE ^ ((uint64_t)seed * TS_RANDOM_GAMMA));
}
