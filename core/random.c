/* random.c — the state of the process's random generators (tscript/random.h): a counter
 * that ts_random_reserve advances by whole blocks of draws (the GPU backends' stream), and
 * PyTorch's CPU generator, a Mersenne Twister (MT19937) with its cached normal sample, which
 * the cpu kernels draw from in PyTorch's order; ts_random_seed resets both.
 *
 * It lives in the core, not in a backend plugin, because every backend must draw from
 * streams one aten::manual_seed seeds, whichever plugin's kernel runs it.
 */
#include "tscript/random.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

/* The state of a fresh process: the stream starts here, as it did when aten-cpu owned it. */
#define DEFAULT_STATE 0x2545F4914F6CDD1DULL

/* The seed of a process that never calls manual_seed. PyTorch's own default (67280421310721)
 * is what a bare PyTorch process starts from, but programs are compared with PyTorch run
 * after torch.manual_seed(0) (the conformance reference does so), so a fresh process starts
 * as that one does. */
#define DEFAULT_SEED 0

#define MT_N 624
#define MT_M 397

static atomic_uint_fast64_t state = DEFAULT_STATE;

/* The Mersenne Twister; guarded by lock, as PyTorch guards its generator with a mutex. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t mt[MT_N];
static int mt_next = MT_N + 1;        /* MT_N + 1: never seeded */
static bool normal_cached;
static double normal_cache;

uint64_t ts_random_reserve(uint64_t n)
{
    return atomic_fetch_add(&state, n * TS_RANDOM_GAMMA);
}

/* MT19937's seeding by one 32-bit word (PyTorch keeps the seed's low 32 bits). */
static void mt_seed(uint64_t seed)
{
    mt[0] = (uint32_t)seed;
    for (int i = 1; i < MT_N; i++)
        mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    mt_next = MT_N;
    normal_cached = false;
}

void ts_random_seed(int64_t seed)
{
    atomic_store(&state, DEFAULT_STATE ^ ((uint64_t)seed * TS_RANDOM_GAMMA));
    pthread_mutex_lock(&lock);
    mt_seed((uint64_t)seed);
    pthread_mutex_unlock(&lock);
}

void ts_random_lock(void)
{
    pthread_mutex_lock(&lock);
    if (mt_next > MT_N)
        mt_seed(DEFAULT_SEED);
}

void ts_random_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

uint32_t ts_random_mt32(void)
{
    if (mt_next >= MT_N) {             /* the next MT_N words at once */
        for (int k = 0; k < MT_N; k++) {
            uint32_t y = (mt[k] & 0x80000000u) | (mt[(k + 1) % MT_N] & 0x7fffffffu);
            mt[k] = mt[(k + MT_M) % MT_N] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
        }
        mt_next = 0;
    }
    uint32_t y = mt[mt_next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

uint64_t ts_random_mt64(void)
{
    uint64_t hi = ts_random_mt32();
    return hi << 32 | ts_random_mt32();
}

double ts_random_mt_double(void)
{
    return (double)(ts_random_mt64() & ((1ULL << 53) - 1)) * (1.0 / 9007199254740992.0);
}

double ts_random_mt_normal(void)
{
    if (normal_cached) {
        normal_cached = false;
        return normal_cache;
    }
    double u1 = ts_random_mt_double(), u2 = ts_random_mt_double();
    double r = sqrt(-2 * log(1 - u2)), theta = 2 * 3.14159265358979323846 * u1;
    normal_cache = r * sin(theta);
    normal_cached = true;
    return r * cos(theta);
}
