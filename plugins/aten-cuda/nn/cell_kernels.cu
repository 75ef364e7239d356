/* cell_kernels.cu — the gate math of aten::lstm_cell and aten::gru_cell (nn/rnn_cell.c),
 * each one fused kernel after the cell's GEMMs: one thread per (batch, hidden) entry reads
 * its gates, applies the nonlinearities and writes the new state. float16 and bfloat16
 * compute in float.
 */
#include "nn/kernels.cuh"

using namespace tsnn;

namespace {

template <typename C> __device__ __forceinline__ C sigmoid(C x) { return C(1) / (C(1) + exp(-x)); }

/* gates: i, f, g, o blocks of hidden entries per row. */
template <typename T>
__global__ void lstm_gates(const T *gates, const T *bias, const T *cx, T *hy, T *cy,
                           int64_t batch, int64_t hidden)
{
    using C = acc_t<T>;
    TSNN_LOOP(e, batch * hidden) {
        int64_t b = e / hidden, j = e % hidden;
        const T *g = gates + b * 4 * hidden;
        C v[4];
        for (int q = 0; q < 4; q++) {
            v[q] = load(g[q * hidden + j]);
            if (bias)
                v[q] += load(bias[q * hidden + j]);
        }
        C i = sigmoid(v[0]), f = sigmoid(v[1]), c = tanh(v[2]), o = sigmoid(v[3]);
        C cn = f * load(cx[e]) + i * c;
        cy[e] = store<T>(cn);
        hy[e] = store<T>(o * tanh(cn));
    }
}

/* gi, gh: r, z, n blocks of hidden entries per row, biases included. */
template <typename T>
__global__ void gru_gates(const T *gi, const T *gh, const T *hx, T *hy, int64_t batch,
                          int64_t hidden)
{
    using C = acc_t<T>;
    TSNN_LOOP(e, batch * hidden) {
        int64_t b = e / hidden, j = e % hidden, row = b * 3 * hidden;
        C r = sigmoid(load(gi[row + j]) + load(gh[row + j]));
        C z = sigmoid(load(gi[row + hidden + j]) + load(gh[row + hidden + j]));
        C n = tanh(load(gi[row + 2 * hidden + j]) + r * load(gh[row + 2 * hidden + j]));
        hy[e] = store<T>((C(1) - z) * n + z * load(hx[e]));
    }
}

} // namespace

extern "C" int ts_cuda_launch_lstm_gates(int dtype, const void *gates, const void *bias,
                                         const void *cx, void *hy, void *cy, int64_t batch,
                                         int64_t hidden, TsError *err)
{
    if (batch * hidden == 0)
        return 0;
    return by_float_dtype(dtype, "lstm_cell", err, [&](auto zero) -> int {
        using T = decltype(zero);
        lstm_gates<T><<<grid_for(batch * hidden), threads, 0, TS_CUDA_STREAM>>>(
            (const T *)gates, (const T *)bias, (const T *)cx, (T *)hy, (T *)cy, batch, hidden);
        return launched("lstm_cell kernel", err);
    });
}

extern "C" int ts_cuda_launch_gru_gates(int dtype, const void *gi, const void *gh,
                                        const void *hx, void *hy, int64_t batch,
                                        int64_t hidden, TsError *err)
{
    if (batch * hidden == 0)
        return 0;
    return by_float_dtype(dtype, "gru_cell", err, [&](auto zero) -> int {
        using T = decltype(zero);
        gru_gates<T><<<grid_for(batch * hidden), threads, 0, TS_CUDA_STREAM>>>(
            (const T *)gi, (const T *)gh, (const T *)hx, (T *)hy, batch, hidden);
        return launched("gru_cell kernel", err);
    });
}
