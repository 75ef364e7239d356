/* block_cache.c — the CPU allocator's cache of large blocks (plugins/aten-cpu/engine/
 * block_cache.c): a freed block of 128 KB or more waits for the next allocation of its size
 * class and is handed out again, blocks of other classes and small blocks are not, the cache
 * never holds more than its cap, drains to nothing, and threads sharing it never get the same
 * block at once. Skipped where the cache is off (AddressSanitizer builds).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "engine/block_cache.h"

#define KB ((size_t)1 << 10)
#define MB ((size_t)1 << 20)

enum { THREADS = 4, ROUNDS = 2000 };

/* Each thread takes blocks of a few classes, stamps every word of the first page with its
 * own number and round, and checks the stamp is still whole before giving the block back:
 * a block handed to two threads at once would show the other's stamp. */
static void *churn(void *arg)
{
    uintptr_t id = (uintptr_t)arg, bad = 0;
    unsigned seed = (unsigned)id * 2654435761u;
    for (int r = 0; r < ROUNDS; r++) {
        seed = seed * 1103515245u + 12345u;
        size_t n = 128 * KB + (size_t)(seed >> 16) % (3 * MB);
        uint64_t *p = ts_cpu_block_alloc(n), stamp = ((uint64_t)id << 32) | (uint64_t)r;
        if (!p)
            return (void *)(uintptr_t)1;
        for (size_t i = 0; i < 512; i++)
            p[i] = stamp;
        for (size_t i = 0; i < 512; i++)
            bad |= p[i] != stamp;
        ts_cpu_block_free(p, n);
    }
    return (void *)bad;
}

int main(void)
{
    void *probe = ts_cpu_block_alloc(256 * KB);
    ts_cpu_block_free(probe, 256 * KB);
    if (ts_cpu_block_cached() == 0) {
        printf("1..0 # SKIP the block cache is off in this build (AddressSanitizer)\n");
        return 0;
    }
    ts_cpu_block_drain();
    ok(ts_cpu_block_cached() == 0, "draining leaves nothing cached");

    char *a = ts_cpu_block_alloc(300 * KB);
    memset(a, 7, 300 * KB);
    ts_cpu_block_free(a, 300 * KB);
    size_t held = ts_cpu_block_cached();
    ok(held >= 300 * KB && held <= 300 * KB * 5 / 4,
       "a freed 300 KB block is kept, rounded up by at most a quarter (%zu bytes)", held);
    char *b = ts_cpu_block_alloc(310 * KB);
    ok(b == a, "the next allocation of its class gets that block back");
    ok(ts_cpu_block_cached() == 0, "and the cache is empty again");
    ts_cpu_block_free(b, 310 * KB);

    char *c = ts_cpu_block_alloc(600 * KB);
    ok(c != a, "an allocation of another class does not take it");
    ok(ts_cpu_block_cached() == held, "which stays cached");
    ts_cpu_block_free(c, 600 * KB);
    ts_cpu_block_drain();

    void *s = ts_cpu_block_alloc(64 * KB);
    ts_cpu_block_free(s, 64 * KB);
    ok(ts_cpu_block_cached() == 0, "small blocks go back to malloc");

    /* the class boundaries: a size just past a power of two fits the same block as the
     * quarter step above it, never one smaller */
    void *d = ts_cpu_block_alloc(1 * MB + 1);
    ts_cpu_block_free(d, 1 * MB + 1);
    void *e = ts_cpu_block_alloc(1 * MB + 256 * KB);
    ok(e == d, "1 MB + 1 byte and 1.25 MB share a class");
    ts_cpu_block_free(e, 1 * MB + 256 * KB);
    void *f = ts_cpu_block_alloc(1 * MB);
    ok(f != d, "1 MB does not take the 1.25 MB block");
    ts_cpu_block_free(f, 1 * MB);
    ts_cpu_block_drain();

    /* the cap: 320 blocks of 1 MB (never touched, so never resident) freed together */
    enum { MANY = 320 };
    void **many = calloc(MANY, sizeof *many);
    int got = 0;
    for (int i = 0; i < MANY; i++)
        got += (many[i] = ts_cpu_block_alloc(1 * MB)) != NULL;
    for (int i = 0; i < MANY; i++)
        ts_cpu_block_free(many[i], 1 * MB);
    free(many);
    ok(got == MANY && ts_cpu_block_cached() <= 256 * MB,
       "the cache holds at most 256 MB (%zu MB after freeing 320 MB)",
       ts_cpu_block_cached() / MB);
    ts_cpu_block_drain();

    pthread_t t[THREADS];
    uintptr_t bad = 0;
    for (uintptr_t i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, churn, (void *)(i + 1));
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(t[i], &r);
        bad |= (uintptr_t)r;
    }
    ok(!bad, "%d threads sharing the cache never hold the same block at once", THREADS);
    ts_cpu_block_drain();
    ok(ts_cpu_block_cached() == 0, "and it drains to nothing after them");
    return done_testing();
}
