/* cuda_costs.cu — what a GPU machine charges before any of tscript's own work: the host time
 * of a bare kernel launch (an empty kernel, on the per-thread default stream aten-cuda uses,
 * a created stream and the legacy one; with a 384-byte parameter; with cudaGetLastError
 * after it; with a synchronize after it), and the time cuBLAS takes for the products of
 * bench/gpu.py's LSTM rows (cublasGemmStridedBatchedEx with one batch, as aten-cuda calls
 * it, beside cublasSgemm and cublasGemmEx: host time per call, and the GPU's by events).
 * A probe for reading bench/gpu.py's figures (README, "GPUs (CUDA)"), not a test:
 *
 *     nvcc -O2 -arch=sm_90 -o cuda_costs bench/cuda_costs.cu -lcublas && ./cuda_costs
 */
#include <chrono>
#include <cstdio>

#include <cublas_v2.h>
#include <cuda_runtime.h>

struct Big {
    long long w[48];
};

__global__ void k_empty(float *p)
{
    if (p && threadIdx.x == 1234567)
        p[0] = 1;
}

__global__ void k_big(Big b)
{
    if (b.w[0] == 1234567)
        ((float *)b.w[1])[0] = 1;
}

static double now_us()
{
    using namespace std::chrono;
    return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

static void launches(float *d)
{
    cudaStream_t created;
    cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking);
    cudaStream_t streams[3] = { cudaStreamPerThread, created, 0 };
    const char *names[3] = { "per-thread", "created", "legacy" };
    const int n = 5000;
    for (int k = 0; k < 3; k++) {
        cudaStream_t s = streams[k];
        for (int i = 0; i < 200; i++)
            k_empty<<<1, 32, 0, s>>>(d);
        cudaDeviceSynchronize();
        double t0 = now_us();
        for (int i = 0; i < n; i++)
            k_empty<<<1, 32, 0, s>>>(d);
        double t1 = now_us();
        cudaDeviceSynchronize();
        Big b = {};
        double t2 = now_us();
        for (int i = 0; i < n; i++)
            k_big<<<1, 32, 0, s>>>(b);
        double t3 = now_us();
        cudaDeviceSynchronize();
        double t4 = now_us();
        for (int i = 0; i < n; i++) {
            k_empty<<<1, 32, 0, s>>>(d);
            (void)cudaGetLastError();
        }
        double t5 = now_us();
        cudaDeviceSynchronize();
        double t6 = now_us();
        for (int i = 0; i < 500; i++) {
            k_empty<<<1, 32, 0, s>>>(d);
            cudaStreamSynchronize(s);
        }
        double t7 = now_us();
        printf("launch, %-10s  %.2f us; 384-byte parameter %.2f us; with cudaGetLastError "
               "%.2f us; with a synchronize %.2f us\n", names[k], (t1 - t0) / n, (t3 - t2) / n,
               (t5 - t4) / n, (t7 - t6) / 500);
    }
    cudaStreamDestroy(created);
}

static void products()
{
    cublasHandle_t h;
    cublasCreate(&h);
    cublasSetStream(h, cudaStreamPerThread);
    void *ws;
    cudaMalloc(&ws, 32 << 20);
    cublasSetWorkspace(h, ws, 32 << 20);
    const int shapes[3][3] = { { 64, 2048, 256 }, { 64, 2048, 512 }, { 1, 128, 32 } };
    float *a, *b, *c, one = 1, zero = 0;
    cudaMalloc(&a, 16 << 20);
    cudaMalloc(&b, 16 << 20);
    cudaMalloc(&c, 16 << 20);
    cudaMemset(a, 0, 16 << 20);
    cudaMemset(b, 0, 16 << 20);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    const char *names[3] = { "GemmStridedBatchedEx", "Sgemm", "GemmEx" };
    for (int si = 0; si < 3; si++) {
        int m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
        for (int v = 0; v < 3; v++) {
            /* x (m x k) @ w.t() (w: n x k), column-major: C^T (n x m) = w^T... as aten-cuda */
            auto call = [&]() {
                if (v == 0)
                    cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, b,
                                               CUDA_R_32F, k, (long long)n * k, a, CUDA_R_32F,
                                               k, (long long)m * k, &zero, c, CUDA_R_32F, n,
                                               (long long)m * n, 1, CUBLAS_COMPUTE_32F,
                                               CUBLAS_GEMM_DEFAULT);
                else if (v == 1)
                    cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, b, k, a, k, &zero,
                                c, n);
                else
                    cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, b, CUDA_R_32F, k,
                                 a, CUDA_R_32F, k, &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                 CUBLAS_GEMM_DEFAULT);
            };
            for (int i = 0; i < 50; i++)
                call();
            cudaDeviceSynchronize();
            const int reps = 2000;
            double t0 = now_us();
            cudaEventRecord(e0, cudaStreamPerThread);
            for (int i = 0; i < reps; i++)
                call();
            cudaEventRecord(e1, cudaStreamPerThread);
            double t1 = now_us();
            cudaEventSynchronize(e1);
            float ms;
            cudaEventElapsedTime(&ms, e0, e1);
            printf("product %dx%dx%d, %-20s  host %.2f us a call, GPU %.2f us a call\n", m, n,
                   k, names[v], (t1 - t0) / reps, ms * 1000 / reps);
        }
    }
    cublasDestroy(h);
}

int main()
{
    float *d;
    if (cudaMalloc(&d, 4) != cudaSuccess) {
        fprintf(stderr, "cuda_costs: no CUDA device\n");
        return 1;
    }
    launches(d);
    products();
    return 0;
}
