/* kernels.cu — the generic elementwise kernel family: every pointwise operation, conversion
 * and fill of aten-cuda is one of three kernel templates (one, two or three inputs)
 * instantiated with an operation functor and a storage type.
 *
 * A thread computes elements in a grid-stride loop. Operands are addressed through the
 * TsCudaIter the host built (cuda.h) by splitting the linear index over the merged dims,
 * or, when the iteration is flat, by the flat kernels: a pointer per operand, several
 * elements per vector load. float16 and bfloat16 load as float,
 * compute in float and round once on the store, as PyTorch's kernels do; everything else
 * computes in its own type.
 */
#include "engine/types.cuh"

namespace {

using namespace ts_cuda;

/* ---- the kernels -------------------------------------------------------------------- */

template <int NOP> struct Offsets {
    int64_t o[NOP];
};

template <int NOP> __device__ __forceinline__ Offsets<NOP> offsets(const TsCudaIter &it, int64_t i)
{
    Offsets<NOP> r;
    for (int k = 0; k < NOP; k++)
        r.o[k] = 0;
    for (int d = it.dim - 1; d >= 0; d--) {
        int64_t size = it.sizes[d];
        int64_t idx = i % size;
        i /= size;
        for (int k = 0; k < NOP; k++)
            r.o[k] += idx * it.strides[k][d];
    }
    return r;
}

template <typename O, typename A, typename F> __global__ void ew1(TsCudaIter it, F f)
{
    O *out = (O *)it.data[0];
    const A *a = (const A *)it.data[1];
    TS_CUDA_GRID_STRIDE(i, it.numel) {
        Offsets<2> p = offsets<2>(it, i);
        out[p.o[0]] = store<O>(f(load(a[p.o[1]])));
    }
}

template <typename O, typename A, typename B, typename F> __global__ void ew2(TsCudaIter it, F f)
{
    O *out = (O *)it.data[0];
    const A *a = (const A *)it.data[1];
    const B *b = (const B *)it.data[2];
    TS_CUDA_GRID_STRIDE(i, it.numel) {
        Offsets<3> p = offsets<3>(it, i);
        out[p.o[0]] = store<O>(f(load(a[p.o[1]]), load(b[p.o[2]])));
    }
}

template <typename O, typename A, typename B, typename C, typename F>
__global__ void ew3(TsCudaIter it, F f)
{
    O *out = (O *)it.data[0];
    const A *a = (const A *)it.data[1];
    const B *b = (const B *)it.data[2];
    const C *c = (const C *)it.data[3];
    TS_CUDA_GRID_STRIDE(i, it.numel) {
        Offsets<4> p = offsets<4>(it, i);
        out[p.o[0]] = store<O>(f(load(a[p.o[1]]), load(b[p.o[2]]), load(c[p.o[3]])));
    }
}

/* The flat kernels: every operand contiguous in the iteration's order (it.flat), so a
 * thread takes N neighbouring elements at a time with one vector load per operand and one
 * store (N = 4 where every pointer is aligned to 4 elements, else 1), and the launch passes
 * pointers and a count instead of the whole TsCudaIter (a few words of parameters, not
 * hundreds of bytes, which every launch copies). The last numel % N elements go to the
 * first threads of the grid. */
template <typename T, int N> struct alignas(sizeof(T) * N) Pack {
    T v[N];
};

template <int N, typename O, typename A, typename F>
__global__ void ew1_flat(O *out, const A *a, int64_t n, F f)
{
    const int64_t nv = n / N;
    TS_CUDA_GRID_STRIDE(j, nv) {
        Pack<A, N> x = ((const Pack<A, N> *)a)[j];
        Pack<O, N> r;
#pragma unroll
        for (int k = 0; k < N; k++)
            r.v[k] = store<O>(f(load(x.v[k])));
        ((Pack<O, N> *)out)[j] = r;
    }
    const int64_t t = nv * N + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        out[t] = store<O>(f(load(a[t])));
}

template <int N, typename O, typename A, typename B, typename F>
__global__ void ew2_flat(O *out, const A *a, const B *b, int64_t n, F f)
{
    const int64_t nv = n / N;
    TS_CUDA_GRID_STRIDE(j, nv) {
        Pack<A, N> x = ((const Pack<A, N> *)a)[j];
        Pack<B, N> y = ((const Pack<B, N> *)b)[j];
        Pack<O, N> r;
#pragma unroll
        for (int k = 0; k < N; k++)
            r.v[k] = store<O>(f(load(x.v[k]), load(y.v[k])));
        ((Pack<O, N> *)out)[j] = r;
    }
    const int64_t t = nv * N + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        out[t] = store<O>(f(load(a[t]), load(b[t])));
}

template <int N, typename O, typename A, typename B, typename C, typename F>
__global__ void ew3_flat(O *out, const A *a, const B *b, const C *c, int64_t n, F f)
{
    const int64_t nv = n / N;
    TS_CUDA_GRID_STRIDE(j, nv) {
        Pack<A, N> x = ((const Pack<A, N> *)a)[j];
        Pack<B, N> y = ((const Pack<B, N> *)b)[j];
        Pack<C, N> z = ((const Pack<C, N> *)c)[j];
        Pack<O, N> r;
#pragma unroll
        for (int k = 0; k < N; k++)
            r.v[k] = store<O>(f(load(x.v[k]), load(y.v[k]), load(z.v[k])));
        ((Pack<O, N> *)out)[j] = r;
    }
    const int64_t t = nv * N + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        out[t] = store<O>(f(load(a[t]), load(b[t]), load(c[t])));
}

/* Is p aligned for Pack<T, 4>? */
template <typename T> static inline bool packs(const void *p)
{
    return (uintptr_t)p % (sizeof(T) * 4) == 0;
}

/* Blocks for a flat launch of n elements N at a time (at least one, for the tail). */
static inline unsigned flat_grid(int64_t n, int N)
{
    return grid_for(n / N > 0 ? n / N : 1);
}

template <typename O, typename A, typename F> int launch1(const TsCudaIter *it, F f, TsError *err)
{
    if (it->numel == 0)
        return 0;
    O *out = (O *)it->data[0];
    const A *a = (const A *)it->data[1];
    int64_t n = it->numel;
    if (it->flat && packs<O>(out) && packs<A>(a))
        ew1_flat<4, O, A, F><<<flat_grid(n, 4), 256, 0, TS_CUDA_STREAM>>>(out, a, n, f);
    else if (it->flat)
        ew1_flat<1, O, A, F><<<flat_grid(n, 1), 256, 0, TS_CUDA_STREAM>>>(out, a, n, f);
    else
        ew1<O, A, F><<<grid_for(n), 256, 0, TS_CUDA_STREAM>>>(*it, f);
    return launched("elementwise kernel", err);
}

template <typename O, typename A, typename B, typename F>
int launch2(const TsCudaIter *it, F f, TsError *err)
{
    if (it->numel == 0)
        return 0;
    O *out = (O *)it->data[0];
    const A *a = (const A *)it->data[1];
    const B *b = (const B *)it->data[2];
    int64_t n = it->numel;
    if (it->flat && packs<O>(out) && packs<A>(a) && packs<B>(b))
        ew2_flat<4, O, A, B, F><<<flat_grid(n, 4), 256, 0, TS_CUDA_STREAM>>>(out, a, b, n, f);
    else if (it->flat)
        ew2_flat<1, O, A, B, F><<<flat_grid(n, 1), 256, 0, TS_CUDA_STREAM>>>(out, a, b, n, f);
    else
        ew2<O, A, B, F><<<grid_for(n), 256, 0, TS_CUDA_STREAM>>>(*it, f);
    return launched("elementwise kernel", err);
}

template <typename O, typename A, typename B, typename C, typename F>
int launch3(const TsCudaIter *it, F f, TsError *err)
{
    if (it->numel == 0)
        return 0;
    O *out = (O *)it->data[0];
    const A *a = (const A *)it->data[1];
    const B *b = (const B *)it->data[2];
    const C *c = (const C *)it->data[3];
    int64_t n = it->numel;
    if (it->flat && packs<O>(out) && packs<A>(a) && packs<B>(b) && packs<C>(c))
        ew3_flat<4, O, A, B, C, F>
            <<<flat_grid(n, 4), 256, 0, TS_CUDA_STREAM>>>(out, a, b, c, n, f);
    else if (it->flat)
        ew3_flat<1, O, A, B, C, F>
            <<<flat_grid(n, 1), 256, 0, TS_CUDA_STREAM>>>(out, a, b, c, n, f);
    else
        ew3<O, A, B, C, F><<<grid_for(n), 256, 0, TS_CUDA_STREAM>>>(*it, f);
    return launched("elementwise kernel", err);
}

/* ---- operations ------------------------------------------------------------------------ */

template <typename T> __device__ __forceinline__ T floor_div(T a, T b)
{
    if constexpr (std::is_integral<T>::value) {
        T q = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    } else {
        return floor(a / b);
    }
}

template <typename T> __device__ __forceinline__ T py_remainder(T a, T b)
{
    if constexpr (std::is_integral<T>::value) {
        T r = a % b;
        return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    } else {
        T r = fmod(a, b);
        return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    }
}

template <typename T> __device__ __forceinline__ T int_pow(T base, T exp)
{
    if (exp < 0)
        return base == 1 ? 1 : (base == -1 ? ((exp & 1) ? -1 : 1) : 0);
    T r = 1;
    while (exp) {
        if (exp & 1)
            r *= base;
        exp >>= 1;
        base *= base;
    }
    return r;
}

template <typename T> __device__ __forceinline__ T sigmoid_of(T x)
{
    return T(1) / (T(1) + exp(-x));
}

/* The binary operations on computing type T. */
template <typename T> struct Binary {
    int op;
    T alpha;
    __device__ T operator()(T x, T y) const
    {
        switch (op) {
        case TS_CUDA_ADD: return x + alpha * y;
        case TS_CUDA_SUB: return x - alpha * y;
        case TS_CUDA_MUL: return x * y;
        case TS_CUDA_DIV: return x / y;
        case TS_CUDA_DIV_FLOOR: return floor_div(x, y);
        case TS_CUDA_DIV_TRUNC:
            if constexpr (std::is_integral<T>::value)
                return x / y;
            else
                return trunc(x / y);
        case TS_CUDA_REMAINDER: return py_remainder(x, y);
        case TS_CUDA_FMOD:
            if constexpr (std::is_integral<T>::value)
                return x % y;
            else
                return fmod(x, y);
        case TS_CUDA_POW:
            if constexpr (std::is_integral<T>::value)
                return int_pow(x, y);
            else
                return pow(x, y);
        case TS_CUDA_MAXIMUM:
            if constexpr (!std::is_integral<T>::value)
                if (x != x || y != y)
                    return x != x ? x : y;
            return x > y ? x : y;
        case TS_CUDA_MINIMUM:
            if constexpr (!std::is_integral<T>::value)
                if (x != x || y != y)
                    return x != x ? x : y;
            return x < y ? x : y;
        case TS_CUDA_ATAN2:
            if constexpr (!std::is_integral<T>::value)
                return atan2(x, y);
            return T(0);
        default:
            if constexpr (std::is_integral<T>::value) {
                switch (op) {
                case TS_CUDA_BITAND: return x & y;
                case TS_CUDA_BITOR: return x | y;
                case TS_CUDA_BITXOR: return x ^ y;
                case TS_CUDA_LSHIFT: return (y < 0 || y >= (T)(8 * sizeof(T))) ? T(0) : T(x << y);
                case TS_CUDA_RSHIFT:
                    return (y < 0 || y >= (T)(8 * sizeof(T))) ? T(x < 0 ? -1 : 0) : T(x >> y);
                }
            }
            return T(0);
        }
    }
};

template <typename T> struct Compare {
    int op;
    __device__ bool operator()(T x, T y) const
    {
        switch (op) {
        case TS_CUDA_EQ: return x == y;
        case TS_CUDA_NE: return x != y;
        case TS_CUDA_LT: return x < y;
        case TS_CUDA_LE: return x <= y;
        case TS_CUDA_GT: return x > y;
        case TS_CUDA_GE: return x >= y;
        case TS_CUDA_LOGICAL_AND: return (x != T(0)) && (y != T(0));
        case TS_CUDA_LOGICAL_OR: return (x != T(0)) || (y != T(0));
        case TS_CUDA_LOGICAL_XOR: return (x != T(0)) != (y != T(0));
        default: return false;
        }
    }
};

/* The unary operations of floating computing type T. */
template <typename T> struct FloatUnary {
    int op;
    T a, b, c;
    bool has_min, has_max;
    __device__ T operator()(T x) const
    {
        switch (op) {
        case TS_CUDA_NEG: return -x;
        case TS_CUDA_ABS: return fabs(x);
        case TS_CUDA_EXP: return exp(x);
        case TS_CUDA_EXP2: return exp2(x);
        case TS_CUDA_EXPM1: return expm1(x);
        case TS_CUDA_LOG: return log(x);
        case TS_CUDA_LOG2: return log2(x);
        case TS_CUDA_LOG10: return log10(x);
        case TS_CUDA_LOG1P: return log1p(x);
        case TS_CUDA_SQRT: return sqrt(x);
        case TS_CUDA_RSQRT: return T(1) / sqrt(x);
        case TS_CUDA_SIN: return sin(x);
        case TS_CUDA_COS: return cos(x);
        case TS_CUDA_TAN: return tan(x);
        case TS_CUDA_ASIN: return asin(x);
        case TS_CUDA_ACOS: return acos(x);
        case TS_CUDA_ATAN: return atan(x);
        case TS_CUDA_SINH: return sinh(x);
        case TS_CUDA_COSH: return cosh(x);
        case TS_CUDA_TANH: return tanh(x);
        case TS_CUDA_SIGMOID: return sigmoid_of(x);
        case TS_CUDA_RELU: return x > T(0) ? x : (x != x ? x : T(0));
        case TS_CUDA_SILU: return x * sigmoid_of(x);
        case TS_CUDA_GELU: return x * T(0.5) * (T(1) + erf(x * T(0.70710678118654752440)));
        case TS_CUDA_GELU_TANH: {
            T inner = T(0.79788456080286535588) * (x + T(0.044715) * x * x * x);
            return T(0.5) * x * (T(1) + tanh(inner));
        }
        case TS_CUDA_ERF: return erf(x);
        case TS_CUDA_ERFC: return erfc(x);
        case TS_CUDA_FLOOR: return floor(x);
        case TS_CUDA_CEIL: return ceil(x);
        case TS_CUDA_ROUND: return rint(x);       /* half to even, as torch.round */
        case TS_CUDA_TRUNC: return trunc(x);
        case TS_CUDA_FRAC: return x - trunc(x);
        case TS_CUDA_RECIPROCAL: return T(1) / x;
        case TS_CUDA_SIGN: return x > T(0) ? T(1) : (x < T(0) ? T(-1) : x * T(0));
        case TS_CUDA_SQUARE: return x * x;
        case TS_CUDA_HARDTANH: return x < a ? a : (x > b ? b : x);
        case TS_CUDA_LEAKY_RELU: return x > T(0) ? x : x * a;
        case TS_CUDA_ELU: return x > T(0) ? x * b : a * b * expm1(x * c);
        case TS_CUDA_SOFTPLUS: return x * a > b ? x : log1p(exp(x * a)) / a;
        case TS_CUDA_CLAMP:
            if (x != x)
                return x;
            if (has_min && x < a)
                x = a;
            if (has_max && x > b)
                x = b;
            return x;
        case TS_CUDA_POW_SCALAR: return pow(x, a);
        default: return x;
        }
    }
};

/* The unary operations an integer (or bool) computing type has. */
template <typename T> struct IntUnary {
    int op;
    T a, b;
    bool has_min, has_max;
    __device__ T operator()(T x) const
    {
        switch (op) {
        case TS_CUDA_NEG: return T(-x);
        case TS_CUDA_ABS: return x < 0 ? T(-x) : x;
        case TS_CUDA_RELU: return x > 0 ? x : T(0);
        case TS_CUDA_SIGN: return T(x > 0 ? 1 : (x < 0 ? -1 : 0));
        case TS_CUDA_SQUARE: return T(x * x);
        case TS_CUDA_BITNOT:
            if constexpr (std::is_same<T, bool>::value)
                return !x;
            else
                return T(~x);
        case TS_CUDA_CLAMP:
            if (has_min && x < a)
                x = a;
            if (has_max && x > b)
                x = b;
            return x;
        case TS_CUDA_HARDTANH: return x < a ? a : (x > b ? b : x);
        case TS_CUDA_POW_SCALAR: return int_pow(x, a);
        default: return x;      /* floor, ceil, round, trunc of an integer */
        }
    }
};

template <typename T> struct Predicate {
    int op;
    __device__ bool operator()(T x) const
    {
        switch (op) {
        case TS_CUDA_LOGICAL_NOT: return x == T(0);
        case TS_CUDA_ISNAN: return x != x;
        default: return false;
        }
    }
};

template <typename T> struct Where {
    __device__ T operator()(bool c, T x, T y) const { return c ? x : y; }
};

template <typename T> struct Ternary {
    int op;
    T a;
    __device__ T operator()(T x, T y, T z) const
    {
        switch (op) {
        case TS_CUDA_LERP: return x + z * (y - x);
        case TS_CUDA_ADDCMUL: return x + a * y * z;
        case TS_CUDA_ADDCDIV: return x + a * y / z;
        default: return x;
        }
    }
};

/* A binary operation whose second operand is one number, not a tensor. */
template <typename T, typename F> struct BindSecond {
    F f;
    T y;
    __device__ auto operator()(T x) const { return f(x, y); }
};

template <typename T> struct Convert {
    __device__ T operator()(T x) const { return x; }
};

bool is_unary(int op)
{
    return op >= TS_CUDA_NEG && op <= TS_CUDA_POW_SCALAR;
}

/* Integer loops exist for these unary ops. */
bool int_unary(int op)
{
    switch (op) {
    case TS_CUDA_NEG: case TS_CUDA_ABS: case TS_CUDA_RELU: case TS_CUDA_SIGN:
    case TS_CUDA_SQUARE: case TS_CUDA_BITNOT: case TS_CUDA_CLAMP: case TS_CUDA_HARDTANH:
    case TS_CUDA_POW_SCALAR: case TS_CUDA_FLOOR: case TS_CUDA_CEIL: case TS_CUDA_ROUND:
    case TS_CUDA_TRUNC:
        return true;
    default:
        return false;
    }
}

} // namespace

extern "C" int ts_cuda_launch_ew(TsCudaEwOp op, int compute_dtype, const TsCudaIter *it,
                                 const TsCudaEwArgs *args, TsError *err)
{
    static const TsCudaEwArgs none = { 0, 0, 0, 0, 0, false, false };
    if (!args)
        args = &none;
    int rc = by_dtype(compute_dtype, [&](auto zero) -> int {
        using S = decltype(zero);
        using C = acc_t<S>;
        bool scalar = it->nop == 2;     /* a binary op's second operand in args */
        C y = is_floating<S>() ? (C)args->b : (C)args->ib;
        if (op >= TS_CUDA_EQ && op <= TS_CUDA_LOGICAL_XOR) {
            Compare<C> f = { (int)op };
            if (scalar)
                return launch1<bool, S>(it, BindSecond<C, Compare<C>>{ f, y }, err);
            return launch2<bool, S, S>(it, f, err);
        }
        if (op == TS_CUDA_LOGICAL_NOT || op == TS_CUDA_ISNAN)
            return launch1<bool, S>(it, Predicate<C>{ (int)op }, err);
        if (op == TS_CUDA_WHERE)
            return launch3<S, bool, S, S>(it, Where<C>{}, err);
        if (op == TS_CUDA_LERP || op == TS_CUDA_ADDCMUL || op == TS_CUDA_ADDCDIV) {
            if constexpr (std::is_same<S, bool>::value)
                return -1;
            else
                return launch3<S, S, S, S>(it, Ternary<C>{ (int)op, (C)args->a }, err);
        }
        if (is_unary(op)) {
            if constexpr (is_floating<S>()) {
                FloatUnary<C> f = { (int)op, (C)args->a, (C)args->b, (C)args->c,
                                    args->has_min, args->has_max };
                return launch1<S, S>(it, f, err);
            } else {
                if (!int_unary(op))
                    return -1;
                bool integer_args = op == TS_CUDA_CLAMP || op == TS_CUDA_HARDTANH ||
                                    op == TS_CUDA_POW_SCALAR;
                C lo = integer_args ? (C)args->ia : C(0), hi = integer_args ? (C)args->ib : C(0);
                IntUnary<C> f = { (int)op, lo, hi, args->has_min, args->has_max };
                return launch1<S, S>(it, f, err);
            }
        }
        /* the binary arithmetic */
        if constexpr (std::is_same<S, bool>::value) {
            if (op != TS_CUDA_BITAND && op != TS_CUDA_BITOR && op != TS_CUDA_BITXOR &&
                op != TS_CUDA_MAXIMUM && op != TS_CUDA_MINIMUM && op != TS_CUDA_MUL)
                return -1;
            Binary<C> f = { (int)op, C(1) };
            if (scalar)
                return launch1<S, S>(it, BindSecond<C, Binary<C>>{ f, y }, err);
            return launch2<S, S, S>(it, f, err);
        } else {
            if (is_floating<S>() && op >= TS_CUDA_BITAND && op <= TS_CUDA_RSHIFT)
                return -1;
            if (!is_floating<S>() && op == TS_CUDA_ATAN2)
                return -1;
            C alpha = is_floating<S>() ? (C)args->a : (C)args->ia;
            Binary<C> f = { (int)op, alpha };
            if (scalar)
                return launch1<S, S>(it, BindSecond<C, Binary<C>>{ f, y }, err);
            return launch2<S, S, S>(it, f, err);
        }
    });
    if (rc < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "elementwise operation %d not implemented "
                            "for '%s' on cuda", (int)op, ts_dtype_type_name(compute_dtype));
    return rc;
}

/* dst = src with the dtype converted: one instantiation per pair. */
extern "C" int ts_cuda_launch_copy(const TsCudaIter *it, TsError *err)
{
    int rc = by_dtype(it->dtype[0], [&](auto d) -> int {
        using D = decltype(d);
        return by_dtype(it->dtype[1], [&](auto s) -> int {
            using S = decltype(s);
            using C = acc_t<S>;
            return launch1<D, S>(it, Convert<C>{}, err);
        });
    });
    if (rc < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "copying '%s' to '%s' is not implemented on "
                            "cuda", ts_dtype_type_name(it->dtype[1]),
                            ts_dtype_type_name(it->dtype[0]));
    return rc;
}

namespace {
template <typename T> __global__ void fill_kernel(TsCudaIter it, T v)
{
    T *out = (T *)it.data[0];
    if (it.flat) {
        TS_CUDA_GRID_STRIDE(i, it.numel) out[i] = v;
    } else {
        TS_CUDA_GRID_STRIDE(i, it.numel) out[offsets<1>(it, i).o[0]] = v;
    }
}

template <typename T> int launch_fill(const TsCudaIter *it, const void *elem, TsError *err)
{
    T v;
    memcpy(&v, elem, sizeof v);
    if (it->numel == 0)
        return 0;
    fill_kernel<T><<<grid_for(it->numel), 256, 0, TS_CUDA_STREAM>>>(*it, v);
    return launched("fill kernel", err);
}
} // namespace

/* Fills operand 0 with one element's bytes: only the element size matters. */
extern "C" int ts_cuda_launch_fill(const TsCudaIter *it, const void *elem, TsError *err)
{
    switch (ts_dtype_size(it->dtype[0])) {
    case 1: return launch_fill<uint8_t>(it, elem, err);
    case 2: return launch_fill<uint16_t>(it, elem, err);
    case 4: return launch_fill<uint32_t>(it, elem, err);
    case 8: return launch_fill<uint64_t>(it, elem, err);
    default:
        return ts_error_set(err, TS_ERR_RUNTIME, "fill of '%s' is not implemented on cuda",
                            ts_dtype_type_name(it->dtype[0]));
    }
}
