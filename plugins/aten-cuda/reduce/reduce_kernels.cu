/* reduce_kernels.cu — the reduction kernel family (reduce.h): one template over the
 * operation, instantiated per input dtype, folds the elements of each output's run into a
 * state (St) and writes the result.
 *
 * Two shapes of work. With inner 1 (each output's run is contiguous) a block of 256 threads
 * takes a row: threads fold strided elements, then merge their states through shared
 * memory. A long row with few rows is split over several blocks (grid y) that write partial
 * states; a second kernel merges them per row. With inner > 1 a thread takes an output and
 * walks its run, neighbouring threads reading neighbouring elements.
 *
 * Merging happens in no fixed order, so max and min order candidates by value and then by
 * position: the result is the first extreme, as PyTorch returns, whatever the merge tree.
 */
#include <math.h>

#include "engine/types.cuh"
#include "reduce/reduce.h"

namespace {

using namespace ts_cuda;

#define THREADS 256
/* Elements a block of a split row takes at least. */
#define SPLIT_CHUNK 16384

/* The state of one output: sum or product or extreme or running mean in v, M2 in m2, the
 * position of the extreme in i, elements folded in n. */
template <typename A> struct St {
    A v, m2;
    int64_t i, n;
};

template <typename A> __device__ __forceinline__ bool nan_of(A x)
{
    if constexpr (std::is_floating_point<A>::value)
        return isnan(x);
    else
        return false;
}

template <typename A> __device__ __forceinline__ A abs_of(A x)
{
    return x < A(0) ? -x : x;
}

template <int OP, typename A> __device__ St<A> init()
{
    St<A> s;
    s.v = OP == TS_CUDA_RED_PROD || OP == TS_CUDA_RED_ALL ? A(1) : A(0);
    s.m2 = A(0);
    s.i = 0;
    s.n = 0;
    return s;
}

/* Whether candidate b replaces a as max (MAX) or min: a nan beats numbers, then the value,
 * then the lower position. */
template <int OP, typename A> __device__ __forceinline__ bool better(const St<A> &b, const St<A> &a)
{
    bool bn = nan_of(b.v), an = nan_of(a.v);
    if (bn || an)
        return bn && (!an || b.i < a.i);
    if (b.v == a.v)
        return b.i < a.i;
    return OP == TS_CUDA_RED_MAX ? b.v > a.v : b.v < a.v;
}

/* The extreme of |x| for the infinite norms, a nan sticking. */
template <typename A> __device__ __forceinline__ A norm_ext(A a, A b, double p)
{
    if (nan_of(a) || nan_of(b))
        return nan_of(a) ? a : b;
    return p > 0 ? (a > b ? a : b) : (a < b ? a : b);
}

template <int OP, typename A> __device__ St<A> merge(St<A> a, const St<A> &b, double p)
{
    if (b.n == 0)
        return a;
    if (a.n == 0)
        return b;
    switch (OP) {
    case TS_CUDA_RED_SUM:
    case TS_CUDA_RED_MEAN:
        a.v += b.v;
        break;
    case TS_CUDA_RED_PROD:
        a.v *= b.v;
        break;
    case TS_CUDA_RED_MAX:
    case TS_CUDA_RED_MIN:
        if (better<OP>(b, a))
            a.v = b.v, a.i = b.i;
        break;
    case TS_CUDA_RED_ALL:
        a.v = a.v != A(0) && b.v != A(0);
        break;
    case TS_CUDA_RED_ANY:
        a.v = a.v != A(0) || b.v != A(0);
        break;
    case TS_CUDA_RED_VAR:
    case TS_CUDA_RED_STD: {     /* Chan et al.'s merge of two (mean, M2, n) */
        A na = A(a.n), nb = A(b.n), n = na + nb, d = b.v - a.v;
        a.v += d * nb / n;
        a.m2 += b.m2 + d * d * na * nb / n;
        break;
    }
    case TS_CUDA_RED_NORM:
        if (isinf(p))
            a.v = norm_ext(a.v, b.v, p);
        else
            a.v += b.v;
        break;
    }
    a.n += b.n;
    return a;
}

/* Folds element x at position i of the run. */
template <int OP, typename A> __device__ __forceinline__ void fold(St<A> &s, A x, int64_t i, double p)
{
    St<A> e;
    e.v = x;
    e.m2 = A(0);
    e.i = i;
    e.n = 1;
    if constexpr (OP == TS_CUDA_RED_NORM) {
        A ax = abs_of(x);
        if (isinf(p))
            e.v = ax;
        else if (p == 0)
            e.v = x != A(0) ? A(1) : A(0);
        else if (p == 1)
            e.v = ax;
        else if (p == 2)
            e.v = ax * ax;
        else
            e.v = pow(ax, A(p));
    } else if constexpr (OP == TS_CUDA_RED_ALL || OP == TS_CUDA_RED_ANY) {
        e.v = x != A(0) ? A(1) : A(0);
    }
    s = merge<OP>(s, e, p);
}

/* The dtype op writes for storage type S. */
template <int OP, typename S> struct Out {
    using type = typename std::conditional<
        OP == TS_CUDA_RED_ALL || OP == TS_CUDA_RED_ANY, bool,
        typename std::conditional<(OP == TS_CUDA_RED_SUM || OP == TS_CUDA_RED_PROD) &&
                                      !is_floating<S>(), int64_t, S>::type>::type;
};

/* The accumulating type of storage type S. */
template <typename S> using red_acc_t =
    typename std::conditional<is_floating<S>(), acc_t<S>, int64_t>::type;

/* Writes output o's result from its final state. */
template <int OP, typename S, typename A>
__device__ void finish(const TsCudaRed &r, int64_t o, const St<A> &s)
{
    using O = typename Out<OP, S>::type;
    A v = s.v;
    if constexpr (OP == TS_CUDA_RED_MEAN) {
        v = s.v / A(r.red);
    } else if constexpr (OP == TS_CUDA_RED_VAR || OP == TS_CUDA_RED_STD) {
        A div = A(s.n) - A(r.p);
        v = s.n ? s.m2 / (div > A(0) ? div : A(0)) : A(NAN);
        if (OP == TS_CUDA_RED_STD)
            v = sqrt(v);
        if (r.mean)
            ((S *)r.mean)[o] = store<S>(s.n ? s.v : A(NAN));
    } else if constexpr (OP == TS_CUDA_RED_NORM) {
        if (isinf(r.p))
            v = s.n ? s.v : A(0);
        else if (r.p == 2)
            v = sqrt(s.v);
        else if (r.p != 1 && r.p != 0)
            v = pow(s.v, A(1.0 / r.p));
    }
    ((O *)r.out)[o] = store<O>(v);
    if (r.idx)
        r.idx[o] = s.i;
}

/* Merges the states of a block's threads; every thread gets the result. */
template <int OP, typename A> __device__ St<A> block_merge(St<A> s, double p)
{
    __shared__ St<A> sh[THREADS];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (unsigned k = THREADS / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            sh[threadIdx.x] = merge<OP>(sh[threadIdx.x], sh[threadIdx.x + k], p);
        __syncthreads();
    }
    St<A> r = sh[0];
    __syncthreads();
    return r;
}

/* inner 1: block (x, y) folds chunk y of rows x, x + gridDim.x, ...; with one chunk it
 * writes the result, else the partial state at partial[row * gridDim.y + y]. */
template <int OP, typename S> __global__ void reduce_rows(TsCudaRed r, int64_t chunk, void *partial)
{
    using A = red_acc_t<S>;
    const S *in = (const S *)r.in;
    int64_t start = (int64_t)blockIdx.y * chunk;
    int64_t end = start + chunk < r.red ? start + chunk : r.red;
    for (int64_t o = blockIdx.x; o < r.outer; o += gridDim.x) {
        const S *row = in + o * r.red;
        St<A> s = init<OP, A>();
        for (int64_t k = start + threadIdx.x; k < end; k += THREADS)
            fold<OP>(s, A(load(row[k])), k, r.p);
        s = block_merge<OP>(s, r.p);
        if (threadIdx.x == 0) {
            if (gridDim.y == 1)
                finish<OP, S>(r, o, s);
            else
                ((St<A> *)partial)[o * gridDim.y + blockIdx.y] = s;
        }
    }
}

/* The second pass of split rows: block x merges the nsplit partial states of its rows. */
template <int OP, typename S> __global__ void reduce_partials(TsCudaRed r, int nsplit, const void *partial)
{
    using A = red_acc_t<S>;
    const St<A> *ps = (const St<A> *)partial;
    for (int64_t o = blockIdx.x; o < r.outer; o += gridDim.x) {
        St<A> s = init<OP, A>();
        for (int k = threadIdx.x; k < nsplit; k += THREADS)
            s = merge<OP>(s, ps[o * nsplit + k], r.p);
        s = block_merge<OP>(s, r.p);
        if (threadIdx.x == 0)
            finish<OP, S>(r, o, s);
    }
}

/* inner > 1: a thread per output, walking its run with stride inner. */
template <int OP, typename S> __global__ void reduce_columns(TsCudaRed r)
{
    using A = red_acc_t<S>;
    const S *in = (const S *)r.in;
    TS_CUDA_GRID_STRIDE(j, r.outer * r.inner) {
        int64_t o = j / r.inner, i = j % r.inner;
        const S *col = in + o * r.red * r.inner + i;
        St<A> s = init<OP, A>();
        for (int64_t k = 0; k < r.red; k++)
            fold<OP>(s, A(load(col[k * r.inner])), k, r.p);
        finish<OP, S>(r, j, s);
    }
}

template <int OP, typename S> int launch(const TsCudaRed *r, TsError *err)
{
    using A = red_acc_t<S>;
    if (r->outer == 0 || r->inner == 0)
        return 0;
    if (r->inner > 1) {
        reduce_columns<OP, S><<<grid_for(r->outer * r->inner), THREADS, 0, TS_CUDA_STREAM>>>(*r);
        return launched("reduction kernel", err);
    }
    unsigned rows = r->outer < 65536 ? (unsigned)r->outer : 65536;
    /* few long rows: split each over blocks so that about 512 blocks run */
    int64_t nsplit = 1;
    if (r->outer < 512 && r->red > 2 * SPLIT_CHUNK) {
        nsplit = (512 + r->outer - 1) / r->outer;
        int64_t most = (r->red + SPLIT_CHUNK - 1) / SPLIT_CHUNK;
        nsplit = nsplit < most ? nsplit : most;
    }
    int64_t chunk = (r->red + nsplit - 1) / nsplit;
    if (nsplit == 1) {
        reduce_rows<OP, S><<<dim3(rows, 1), THREADS, 0, TS_CUDA_STREAM>>>(*r, chunk, nullptr);
        return launched("reduction kernel", err);
    }
    int64_t bytes = r->outer * nsplit * (int64_t)sizeof(St<A>);
    TsTensor *ws = ts_cuda_empty(TS_UINT8, 1, &bytes, err);
    if (!ws)
        return err->code;
    void *partial = ts_tensor_data(ws);
    reduce_rows<OP, S><<<dim3(rows, (unsigned)nsplit), THREADS, 0, TS_CUDA_STREAM>>>(*r, chunk, partial);
    int rc = launched("reduction kernel", err);
    if (!rc) {
        reduce_partials<OP, S><<<rows, THREADS, 0, TS_CUDA_STREAM>>>(*r, (int)nsplit, partial);
        rc = launched("reduction kernel", err);
    }
    ts_tensor_release(ws);
    return rc;
}

template <int OP> int launch_op(const TsCudaRed *r, TsError *err)
{
    constexpr bool floating_only = OP == TS_CUDA_RED_MEAN || OP == TS_CUDA_RED_VAR ||
                                   OP == TS_CUDA_RED_STD || OP == TS_CUDA_RED_NORM;
    auto go = [&](auto zero) -> int { return launch<OP, decltype(zero)>(r, err); };
    if constexpr (floating_only)
        return by_float_dtype(r->dtype, go);
    else
        return by_dtype(r->dtype, go);
}

} // namespace

extern "C" int ts_cuda_red_out_dtype(TsCudaRedOp op, int dtype)
{
    switch (op) {
    case TS_CUDA_RED_SUM:
    case TS_CUDA_RED_PROD:
        return ts_dtype_is_floating(dtype) ? dtype : TS_INT64;
    case TS_CUDA_RED_ALL:
    case TS_CUDA_RED_ANY:
        return TS_BOOL;
    default:
        return dtype;
    }
}

extern "C" int ts_cuda_launch_reduce(TsCudaRedOp op, const TsCudaRed *r, TsError *err)
{
    static const char *const names[] = { "sum", "prod", "mean", "max", "min", "all", "any",
                                         "var", "std", "norm" };
    int rc;
    switch (op) {
    case TS_CUDA_RED_SUM: rc = launch_op<TS_CUDA_RED_SUM>(r, err); break;
    case TS_CUDA_RED_PROD: rc = launch_op<TS_CUDA_RED_PROD>(r, err); break;
    case TS_CUDA_RED_MEAN: rc = launch_op<TS_CUDA_RED_MEAN>(r, err); break;
    case TS_CUDA_RED_MAX: rc = launch_op<TS_CUDA_RED_MAX>(r, err); break;
    case TS_CUDA_RED_MIN: rc = launch_op<TS_CUDA_RED_MIN>(r, err); break;
    case TS_CUDA_RED_ALL: rc = launch_op<TS_CUDA_RED_ALL>(r, err); break;
    case TS_CUDA_RED_ANY: rc = launch_op<TS_CUDA_RED_ANY>(r, err); break;
    case TS_CUDA_RED_VAR: rc = launch_op<TS_CUDA_RED_VAR>(r, err); break;
    case TS_CUDA_RED_STD: rc = launch_op<TS_CUDA_RED_STD>(r, err); break;
    case TS_CUDA_RED_NORM: rc = launch_op<TS_CUDA_RED_NORM>(r, err); break;
    default: rc = -1; break;
    }
    if (rc < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "\"%s_cuda\" not implemented for '%s'",
                            (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "reduce",
                            ts_dtype_type_name(r->dtype));
    return rc;
}
