/* tscript/random.h — the process's random numbers: one generator that every backend plugin
 * draws from (core/random.c owns its state), and the draws' transforms to the distributions
 * PyTorch's random ops sample, so that every backend turns the same draws into the same
 * numbers.
 *
 * The generator is splitmix64 over a counter: the state advances by TS_RANDOM_GAMMA per
 * draw, and a draw is the state mixed. Because draw k of a block is a function of the
 * block's base and k alone, an op reserves all its draws at once (one atomic add: concurrent
 * callers get disjoint blocks, without a lock) and then computes them in any order, on any
 * thread, or on a GPU, where each thread computes its own elements' draws. A fresh process,
 * or ts_random_seed(s) (aten::manual_seed), repeats the stream. It is not PyTorch's
 * generator: the GPU backends draw from it (PyTorch's CUDA numbers are its own Philox's).
 *
 * The cpu kernels draw from a second generator, PyTorch's CPU one (MT19937, below), in
 * PyTorch's order and with its transforms: a seeded program prints PyTorch's numbers.
 *
 * The inline functions below compile as C, C++ and, under nvcc, as __host__ __device__ code.
 */
#ifndef TSCRIPT_RANDOM_H
#define TSCRIPT_RANDOM_H

#include <math.h>
#include <stdint.h>

#include "tscript/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__CUDACC__)
#define TS_RANDOM_INLINE static inline __host__ __device__
#else
#define TS_RANDOM_INLINE static inline
#endif

/* What the state advances by per draw: 2^64 over the golden ratio, odd, so the counter
 * visits every state before it repeats. */
#define TS_RANDOM_GAMMA 0x9E3779B97F4A7C15ULL

/* Reserves n draws: advances the state by n draws and returns the state before, base; the
 * caller owns draws 1..n of that base (ts_random_draw(base, k)). Safe from any thread. */
TS_API uint64_t ts_random_reserve(uint64_t n);
/* Restarts the stream at a point the seed picks (aten::manual_seed). */
TS_API void ts_random_seed(int64_t seed);

/* ---- PyTorch's CPU generator -------------------------------------------------------------
 * The cpu kernels draw from an MT19937 seeded as PyTorch seeds its default CPU generator (by
 * aten::manual_seed, else PyTorch's default seed), in PyTorch's order and with its
 * transforms, so that a seeded program prints PyTorch's numbers. An op holds the lock for
 * all its draws: ts_random_mt32 and the others below need it held. */
TS_API void ts_random_lock(void);
TS_API void ts_random_unlock(void);
/* The next 32 bits; the next 64 (two 32-bit words, the first the high half). */
TS_API uint32_t ts_random_mt32(void);
TS_API uint64_t ts_random_mt64(void);
/* A double uniform in [0, 1) from 53 bits of ts_random_mt64 (PyTorch's double uniform). */
TS_API double ts_random_mt_double(void);
/* A standard normal by Box-Muller from two doubles; the pair's second value is kept and
 * returned by the next call (PyTorch's cached double normal sample, dropped by a seed). */
TS_API double ts_random_mt_normal(void);

/* Draw k (from 1) of the block at base: 64 random bits. */
TS_RANDOM_INLINE uint64_t ts_random_draw(uint64_t base, uint64_t k)
{
    uint64_t z = base + k * TS_RANDOM_GAMMA;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ---- the transforms: one or two draws to a value ---------------------------------------- */

/* A double uniform in [0, 1): the draw's top 53 bits. */
TS_RANDOM_INLINE double ts_random_unit(uint64_t bits)
{
    return (double)(bits >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in [from, to) (uniform_, rand). Rounded as written on every device: nvcc would
 * otherwise fuse the multiply and the add, and the GPU's numbers would differ from the
 * CPU's in the last bit. */
TS_RANDOM_INLINE double ts_random_uniform(uint64_t bits, double from, double to)
{
#if defined(__CUDA_ARCH__)
    return __dadd_rn(from, __dmul_rn(to - from, ts_random_unit(bits)));
#else
    return from + (to - from) * ts_random_unit(bits);
#endif
}

/* Normal with mean and standard deviation std from two draws (normal_, randn): the cosine
 * half of the Box-Muller transform; the first draw is the radius, the second the angle. */
TS_RANDOM_INLINE double ts_random_normal(uint64_t bits1, uint64_t bits2, double mean, double std)
{
    double u1 = 1 - ts_random_unit(bits1);   /* in (0, 1]: the log is finite */
    double u2 = ts_random_unit(bits2);
    return mean + std * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

/* An integer in [lo, hi), hi > lo (randint, random_). */
TS_RANDOM_INLINE int64_t ts_random_int(uint64_t bits, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo;   /* hi > lo: no wrap */
    return (int64_t)((uint64_t)lo + bits % span);
}

/* 1 with probability p, else 0 (bernoulli_, dropout's mask). */
TS_RANDOM_INLINE int ts_random_bernoulli(uint64_t bits, double p)
{
    return ts_random_unit(bits) < p;
}

#ifdef __cplusplus
}
#endif
#endif
