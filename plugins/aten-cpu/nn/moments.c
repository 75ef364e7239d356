/* moments.c — the mean and biased variance of a row of floats or doubles, taken in the
 * order and precision of PyTorch's CPU layer_norm and group_norm kernels, so that their
 * results agree with PyTorch's to the last bit (on badly conditioned rows, where the
 * final scale-and-shift amplifies any difference in the mean, that matters).
 *
 * PyTorch's rows go through Welford's update in lanes of one AVX2 register (8 floats, 4
 * doubles): chunks of 16 register loads give per-lane moments, which are merged into a
 * binary counter of partial moments (a cascade, so a long row's error grows with the log of
 * its length), the lanes then folded into a Welford pass over the row's leftover tail.
 * Every operation rounds to the row's type, unfused. A bfloat16 row (held widened in floats)
 * goes through 16 lanes, every operation rounded to bfloat16 as PyTorch 1.13's bfloat16 vector
 * type does it (the counts too).
 */
#include "nn/nn.h"
#include "vhalf.h"

#define EXACT(v) (v)
#define BF16(v) ts_vh_bf16_to_float(ts_vh_float_to_bf16((float)(v)))

enum { CHUNK = 16, MAX_DEPTH = 64 };


/* Merges the moments (n_add, m1_add, m2_add) into (*m0, m1, m2), lane by lane over `lanes`:
 * Chan's parallel update. */
#define MOMENTS_IMPL(NAME, T, LANES, R) \
static void NAME##_merge(int64_t n_add, const T *m1_add, const T *m2_add, int64_t *m0, T *m1, \
                         T *m2, int lanes) \
{ \
    int64_t n = *m0 + n_add; \
    T c = n == 0 ? (T)0 : R(R((T)n_add) / R((T)n)); \
    for (int l = 0; l < lanes; l++) { \
        T delta = R(m1_add[l] - m1[l]); \
        T t = R(delta * delta); \
        t = R(t * c); \
        t = R(t * R((T)*m0)); \
        t = R(m2_add[l] + t); \
        m1[l] = R(m1[l] + R(c * delta)); \
        m2[l] = R(m2[l] + t); \
    } \
    *m0 = n; \
} \
void NAME(const T *x, int64_t len, T *mean, T *var) \
{ \
    int64_t n = len / LANES, chunks = (n + CHUNK - 1) / CHUNK, depth = 0; \
    while (((int64_t)1 << depth) < chunks) \
        depth++; \
    int64_t m0s[MAX_DEPTH] = { 0 }; \
    T m1s[MAX_DEPTH][LANES] = { { 0 } }, m2s[MAX_DEPTH][LANES] = { { 0 } }; \
    for (int64_t i = 0; i < chunks; i++) { \
        const T *p = x + i * CHUNK * LANES; \
        int64_t cnt = n - i * CHUNK < CHUNK ? n - i * CHUNK : CHUNK; \
        T m1[LANES] = { 0 }, m2[LANES] = { 0 }; \
        for (int64_t j = 0; j < cnt; j++) { \
            T c = R((T)1 / (T)(j + 1)); \
            for (int l = 0; l < LANES; l++) { \
                T v = p[j * LANES + l], delta = R(v - m1[l]); \
                m1[l] = R(m1[l] + R(delta * c)); \
                m2[l] = R(m2[l] + R(delta * R(v - m1[l]))); \
            } \
        } \
        NAME##_merge(cnt, m1, m2, &m0s[0], m1s[0], m2s[0], LANES); \
        int64_t mask = i + 1; \
        for (int64_t j = 1; j < depth && (mask & 1) == 0; j++, mask >>= 1) { \
            NAME##_merge(m0s[j - 1], m1s[j - 1], m2s[j - 1], &m0s[j], m1s[j], m2s[j], LANES); \
            m0s[j - 1] = 0; \
            for (int l = 0; l < LANES; l++) \
                m1s[j - 1][l] = m2s[j - 1][l] = 0; \
        } \
    } \
    for (int64_t i = 1; i < depth; i++) \
        NAME##_merge(m0s[i], m1s[i], m2s[i], &m0s[0], m1s[0], m2s[0], LANES); \
    int64_t m0 = 0; \
    T m1 = 0, m2 = 0; \
    for (int64_t i = n * LANES; i < len; i++) { \
        T delta = R(x[i] - m1); \
        m0++; \
        m1 = R(m1 + R(delta / R((T)m0))); \
        m2 = R(m2 + R(delta * R(x[i] - m1))); \
    } \
    for (int l = 0; l < LANES; l++) \
        NAME##_merge(n, &m1s[0][l], &m2s[0][l], &m0, &m1, &m2, 1); \
    *mean = m1; \
    *var = R(m2 / R((T)len)); \
}

MOMENTS_IMPL(ts_nn_moments_f32, float, 8, EXACT)
MOMENTS_IMPL(ts_nn_moments_f64, double, 4, EXACT)
MOMENTS_IMPL(ts_nn_moments_bf16, float, 16, BF16)
