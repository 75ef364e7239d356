/* t/random.c — the process's generator (core/random.c, tscript/random.h): a reserve hands
 * out disjoint blocks that follow each other, a seed repeats the stream, draw k of a block is
 * what k reserves of one draw give one by one (so an op that reserves its draws at once gives
 * the numbers it gave drawing them singly), concurrent reserves never overlap, and the
 * transforms stay in their ranges.
 */
#include <pthread.h>
#include <stdlib.h>

#include "tap.h"
#include "tscript/random.h"

#define THREADS 4
#define PER_THREAD 10000

static void *reserve_many(void *out)
{
    uint64_t *bases = out;
    for (int i = 0; i < PER_THREAD; i++)
        bases[i] = ts_random_reserve(1);
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    ts_random_seed(7);
    uint64_t base = ts_random_reserve(5);
    ok(ts_random_reserve(0) == base + 5 * TS_RANDOM_GAMMA, "a reserve of 5 advances 5 draws");
    ts_random_seed(7);
    ok(ts_random_reserve(5) == base, "the same seed starts the same stream");
    ts_random_seed(8);
    ok(ts_random_reserve(5) != base, "another seed another");

    ts_random_seed(7);
    int same = 1;
    for (uint64_t k = 1; k <= 5; k++)
        same &= ts_random_draw(ts_random_reserve(1), 1) == ts_random_draw(base, k);
    ok(same, "draw k of a block is the k-th single draw");

    static uint64_t bases[THREADS * PER_THREAD];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, reserve_many, bases + t * PER_THREAD);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    qsort(bases, THREADS * PER_THREAD, sizeof bases[0], cmp_u64);
    int disjoint = 1;
    for (int i = 1; i < THREADS * PER_THREAD; i++)
        disjoint &= bases[i] != bases[i - 1];
    ok(disjoint, "concurrent reserves get disjoint draws");

    int in_range = 1;
    double sum = 0;
    base = ts_random_reserve(20000);
    for (uint64_t k = 1; k <= 10000; k++) {
        double u = ts_random_unit(ts_random_draw(base, k));
        int64_t r = ts_random_int(ts_random_draw(base, k), -3, 4);
        double f = ts_random_uniform(ts_random_draw(base, k), 2, 5);
        in_range &= u >= 0 && u < 1 && r >= -3 && r < 4 && f >= 2 && f < 5;
        sum += ts_random_normal(ts_random_draw(base, k), ts_random_draw(base, k + 10000), 1, 2);
    }
    ok(in_range, "unit, int and uniform draws stay in their ranges");
    ok(sum / 10000 > 0.9 && sum / 10000 < 1.1, "normal draws center on the mean (%g)",
       sum / 10000);
    ok(ts_random_bernoulli(ts_random_draw(base, 1), 1.0) &&
       !ts_random_bernoulli(ts_random_draw(base, 1), 0.0), "bernoulli with p 1 and 0");
    return done_testing();
}
