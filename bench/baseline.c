/* baseline.c — the floors bench/compare.py holds tscript's tensor workloads against, timed
 * directly in C: memcpy of one 16M-element float32 tensor's bytes (the elementwise add's
 * floor) and OpenBLAS's own cblas_sgemm of two 1024x1024 float32 matrices (matmul's floor).
 *
 *     bench/baseline THREADS [RUNS]     prints "memcpy SECONDS", "sgemm SECONDS" (best of
 *                                       RUNS) and "core NAME", OpenBLAS's core type
 *
 * THREADS is given to OpenBLAS (openblas_set_num_threads), as tscript gives it num_threads.
 * The core type is OpenBLAS's own pick, or OPENBLAS_CORETYPE's: bench/sgemm.py runs this
 * on each core type worth trying, as the floor is the best one's.
 * Buffers are touched before timing, as the workloads' inputs and outputs are.
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ADD_N (16 * 1024 * 1024)
#define MM_N 1024

void openblas_set_num_threads(int n);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static float *floats(size_t n, float scale)
{
    float *p = malloc(n * sizeof *p);
    if (!p) {
        fprintf(stderr, "baseline: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = (float)(i % 1000) * scale;
    return p;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: baseline THREADS [RUNS]\n");
        return 2;
    }
    int threads = atoi(argv[1]), runs = argc > 2 ? atoi(argv[2]) : 10;
    openblas_set_num_threads(threads);

    float *src = floats(ADD_N, 1.0f), *dst = floats(ADD_N, 0.0f);
    double best = 1e30;
    for (int r = 0; r <= runs; r++) {
        double t0 = now();
        memcpy(dst, src, (size_t)ADD_N * sizeof *src);
        double t = now() - t0;
        if (r > 0 && t < best)
            best = t;
    }
    if (memcmp(dst, src, (size_t)ADD_N * sizeof *src) != 0) {   /* and the copy is kept */
        fprintf(stderr, "baseline: memcpy copied wrong\n");
        return 1;
    }
    printf("memcpy %.9f\n", best);
    free(src);
    free(dst);

    float *a = floats(MM_N * MM_N, 1e-3f), *b = floats(MM_N * MM_N, 2e-3f);
    float *c = floats(MM_N * MM_N, 0.0f);
    best = 1e30;
    for (int r = 0; r <= runs; r++) {
        double t0 = now();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, MM_N, MM_N, MM_N, 1.0f, a, MM_N,
                    b, MM_N, 0.0f, c, MM_N);
        double t = now() - t0;
        if (r > 0 && t < best)
            best = t;
    }
    printf("sgemm %.9f\ncore %s\n", best, openblas_get_corename());
    free(a);
    free(b);
    free(c);
    return 0;
}
