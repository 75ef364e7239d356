/* cublas.c — cuBLAS, opened on first use, and ts_cuda_gemm (gemm.h) on it.
 *
 * The plugin has no link-time dependency on cuBLAS: a program that never multiplies a
 * matrix on the GPU does not need the library. It is dlopen'ed once per process
 * ("libcublas.so.13" as the loader finds it, then the copy in the toolkit configure found),
 * and only the few entry points used here are looked up; cublas_api.h gives their types.
 *
 * A cuBLAS handle belongs to one device and should not be shared between threads: each
 * thread keeps one handle per device (a pthread key), bound to the thread's stream
 * (TS_CUDA_STREAM) and to CUBLAS_DEFAULT_MATH, so float32 products never use TF32 and match
 * the cpu's. cuBLAS is column-major: the row-major C = A @ B is computed as the column-major
 * C^T = B^T @ A^T, and a row-major matrix with unit column stride is, read column-major,
 * its transpose, so transposed views are read in place.
 */
#include <assert.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_api.h>

#include "config.h"
#include "linalg/gemm.h"

#define MAX_DEVICES 64

typedef struct Cublas {
    cublasStatus_t (*create)(cublasHandle_t *);
    cublasStatus_t (*destroy)(cublasHandle_t);
    cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t);
    cublasStatus_t (*set_math_mode)(cublasHandle_t, cublasMath_t);
    const char *(*status_string)(cublasStatus_t);
    cublasStatus_t (*gemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                           const void *, const void *, cudaDataType, int, long long,
                           const void *, cudaDataType, int, long long, const void *, void *,
                           cudaDataType, int, long long, int, cublasComputeType_t,
                           cublasGemmAlgo_t);
    cublasStatus_t (*set_workspace)(cublasHandle_t, void *, size_t);   /* NULL if absent */
} Cublas;

/* Each handle's own workspace, given to it at creation: cuBLAS then never allocates one
 * itself while it runs, which a thread capturing a CUDA graph may not do (cuBLAS's own
 * advice for capture). 32 MiB: what it recommends for Hopper's kernels. */
#define WORKSPACE_BYTES ((size_t)32 << 20)

typedef struct Handle {
    cublasHandle_t h;
    void *workspace;           /* cudaMalloc'ed, or NULL */
} Handle;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static Cublas api;
static bool loaded;
static char why[512];               /* the load failure, for every caller */
static pthread_key_t handles_key;   /* the thread's handles: Handle[MAX_DEVICES] */

static void *symbol(void *h, const char *name)
{
    void *p = dlsym(h, name);
    if (!p && !why[0])
        snprintf(why, sizeof why, "the library has no %s", name);
    return p;
}

static void destroy_handles(void *p)
{
    Handle *hs = p;
    int cur = -1;
    (void)cudaGetDevice(&cur);
    for (int i = 0; i < MAX_DEVICES; i++) {
        if (hs[i].h)
            api.destroy(hs[i].h);
        if (hs[i].workspace && cudaSetDevice(i) == cudaSuccess)
            (void)cudaFree(hs[i].workspace);
    }
    if (cur >= 0)
        (void)cudaSetDevice(cur);
    (void)cudaGetLastError();
    free(hs);
}

static void load(void)
{
    void *h = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        char first[256];
        snprintf(first, sizeof first, "%s", dlerror());
        h = dlopen(TS_CUDA_LIBDIR "/libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            snprintf(why, sizeof why, "%s", first);
            return;
        }
    }
    void *p[6] = { symbol(h, "cublasCreate_v2"), symbol(h, "cublasDestroy_v2"),
                   symbol(h, "cublasSetStream_v2"), symbol(h, "cublasSetMathMode"),
                   symbol(h, "cublasGetStatusString"), symbol(h, "cublasGemmStridedBatchedEx") };
    for (int i = 0; i < 6; i++)
        if (!p[i]) {
            dlclose(h);
            return;
        }
    if (pthread_key_create(&handles_key, destroy_handles)) {
        snprintf(why, sizeof why, "no thread-specific key left");
        dlclose(h);
        return;
    }
    /* POSIX's way from void * to a function pointer: copy the representation */
    memcpy(&api.create, &p[0], sizeof p[0]);
    memcpy(&api.destroy, &p[1], sizeof p[1]);
    memcpy(&api.set_stream, &p[2], sizeof p[2]);
    memcpy(&api.set_math_mode, &p[3], sizeof p[3]);
    memcpy(&api.status_string, &p[4], sizeof p[4]);
    memcpy(&api.gemm, &p[5], sizeof p[5]);
    void *ws = dlsym(h, "cublasSetWorkspace_v2");
    if (ws)
        memcpy(&api.set_workspace, &ws, sizeof ws);
    loaded = true;
}

static int check(cublasStatus_t st, const char *what, TsError *err)
{
    if (st == CUBLAS_STATUS_SUCCESS)
        return 0;
    if (st == CUBLAS_STATUS_ALLOC_FAILED)
        return ts_error_set(err, TS_ERR_NOMEM, "CUDA out of memory (%s)", what);
    return ts_error_set(err, TS_ERR_RUNTIME, "CUDA error: %s when calling `%s`",
                        api.status_string(st), what);
}

/* The calling thread's handle for the current device, made on first use. */
static int handle(cublasHandle_t *out, TsError *err)
{
    pthread_once(&once, load);
    if (!loaded)
        return ts_error_set(err, TS_ERR_RUNTIME, "matrix products on the GPU need cuBLAS "
                            "(libcublas.so.13), which could not be loaded: %s", why);
    int dev = 0;
    int rc = ts_cuda_check(cudaGetDevice(&dev), "cudaGetDevice", err);
    if (rc)
        return rc;
    if (dev < 0 || dev >= MAX_DEVICES)
        return ts_error_set(err, TS_ERR_LIMIT, "aten-cuda: cuBLAS on device %d (at most %d "
                            "devices)", dev, MAX_DEVICES);
    Handle *hs = pthread_getspecific(handles_key);
    if (!hs) {
        if (!(hs = calloc(MAX_DEVICES, sizeof *hs)))
            return ts_error_set(err, TS_ERR_NOMEM, "aten-cuda: out of memory");
        if (pthread_setspecific(handles_key, hs)) {
            free(hs);
            return ts_error_set(err, TS_ERR_NOMEM, "aten-cuda: out of memory");
        }
    }
    if (!hs[dev].h) {
        cublasHandle_t h;
        if ((rc = check(api.create(&h), "cublasCreate(handle)", err)))
            return rc;
        /* the handle is this thread's, and so is the per-thread stream it is given: set
         * once, since cublasSetStream also resets the handle's workspace */
        if ((rc = check(api.set_math_mode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode", err)) ||
            (rc = check(api.set_stream(h, TS_CUDA_STREAM), "cublasSetStream", err))) {
            api.destroy(h);
            return rc;
        }
        void *ws = NULL;
        if (api.set_workspace && cudaMalloc(&ws, WORKSPACE_BYTES) == cudaSuccess &&
            api.set_workspace(h, ws, WORKSPACE_BYTES) != CUBLAS_STATUS_SUCCESS) {
            (void)cudaFree(ws);    /* cuBLAS keeps its own: products still work */
            ws = NULL;
        }
        (void)cudaGetLastError();
        hs[dev].h = h;
        hs[dev].workspace = ws;
    }
    *out = hs[dev].h;
    return 0;
}

int ts_cuda_gemm_check_dtype(int dtype, TsError *err)
{
    if (dtype == TS_FLOAT32 || dtype == TS_FLOAT64 || dtype == TS_FLOAT16 ||
        dtype == TS_BFLOAT16)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "\"addmm_cuda\" not implemented for '%s'",
                        ts_dtype_type_name(dtype));
}

/* How cuBLAS can read m in place (gemm.h: the row-major matrix read column-major is its
 * transpose, so op N for an unit column stride, op T for an unit row stride). */
static bool layout(const TsCudaMat *m, bool *trans, int64_t *ld)
{
    TsAtenMat am = { m->rows, m->cols, m->rs, m->cs };
    return ts_aten_blas_layout(&am, trans, ld);
}

/* Copies batch matrices m (batch stride *stride) to a new contiguous scratch tensor and points
 * m and *stride at it; *scratch is released by the caller once the product is queued (the
 * allocator orders its reuse after the stream's work). */
static int pack(int dtype, TsCudaMat *m, int64_t *stride, int64_t batch, TsTensor **scratch,
                TsError *err)
{
    if (*stride == 0)
        batch = 1;             /* one matrix serves every product */
    int64_t sizes[3] = { batch, m->rows, m->cols };
    TsTensor *t = ts_cuda_empty(dtype, 3, sizes, err);
    if (!t)
        return err->code;
    TsCudaIter it;
    memset(&it, 0, sizeof it);
    it.nop = 2;
    it.dim = 3;
    it.numel = batch * m->rows * m->cols;
    int64_t dst[3] = { m->rows * m->cols, m->cols, 1 }, src[3] = { *stride, m->rs, m->cs };
    for (int d = 0; d < 3; d++) {
        it.sizes[d] = sizes[d];
        it.strides[0][d] = dst[d];
        it.strides[1][d] = src[d];
    }
    it.data[0] = ts_tensor_data(t);
    it.data[1] = (void *)m->p;
    it.dtype[0] = it.dtype[1] = (int8_t)dtype;
    int rc = ts_cuda_launch_copy(&it, err);
    if (rc) {
        ts_tensor_release(t);
        return rc;
    }
    *scratch = t;
    m->p = it.data[0];
    m->rs = m->cols;
    m->cs = 1;
    *stride = batch > 1 ? m->rows * m->cols : 0;
    return 0;
}

/* C = beta * C over n contiguous elements (an empty inner dim). */
static int scale(int dtype, double beta, void *c, int64_t n, TsError *err)
{
    if (beta == 0)
        return ts_cuda_check(cudaMemsetAsync(c, 0, (size_t)n * ts_dtype_size(dtype),
                                             TS_CUDA_STREAM), "cudaMemsetAsync", err);
    if (beta == 1)
        return 0;
    TsCudaIter it;
    memset(&it, 0, sizeof it);
    it.nop = 2;
    it.dim = 1;
    it.flat = true;
    it.numel = n;
    it.sizes[0] = n;
    it.strides[0][0] = it.strides[1][0] = 1;
    it.data[0] = it.data[1] = c;
    it.dtype[0] = it.dtype[1] = (int8_t)dtype;
    TsCudaEwArgs args = { 0, beta, 0, 0, 0, false, false };
    return ts_cuda_launch_ew(TS_CUDA_MUL, dtype, &it, &args, err);
}

static cudaDataType cuda_type(int dtype)
{
    switch (dtype) {
    case TS_FLOAT64: return CUDA_R_64F;
    case TS_FLOAT16: return CUDA_R_16F;
    case TS_BFLOAT16: return CUDA_R_16BF;
    default: return CUDA_R_32F;
    }
}

int ts_cuda_gemm(int dtype, double alpha, const TsCudaMat *a, int64_t sa, const TsCudaMat *b,
                 int64_t sb, double beta, void *c, int64_t batch, TsError *err)
{
    int64_t m = a->rows, n = b->cols, k = a->cols;
    assert(a->cols == b->rows);
    int rc = ts_cuda_gemm_check_dtype(dtype, err);
    if (rc || batch == 0 || m == 0 || n == 0)
        return rc;
    if (k == 0)
        return scale(dtype, beta, c, batch * m * n, err);
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX || batch > INT_MAX)
        return ts_error_set(err, TS_ERR_LIMIT, "matmul: matrices larger than 2^31 rows or "
                            "columns, or more than 2^31 of them, are not supported");
    cublasHandle_t h = NULL;
    if ((rc = handle(&h, err)))
        return rc;
    TsCudaMat ma = *a, mb = *b;
    TsTensor *sa_buf = NULL, *sb_buf = NULL;
    bool ta, tb;
    int64_t lda, ldb;
    if (!layout(&ma, &ta, &lda))
        rc = pack(dtype, &ma, &sa, batch, &sa_buf, err);
    if (!rc && !layout(&mb, &tb, &ldb))
        rc = pack(dtype, &mb, &sb, batch, &sb_buf, err);
    if (!rc) {
        layout(&ma, &ta, &lda);
        layout(&mb, &tb, &ldb);
        bool dbl = dtype == TS_FLOAT64;
        float falpha = (float)alpha, fbeta = (float)beta;
        const void *pa = dbl ? (const void *)&alpha : &falpha;
        const void *pb = dbl ? (const void *)&beta : &fbeta;
        cudaDataType t = cuda_type(dtype);
        /* column-major C^T (n x m) = B^T (n x k) @ A^T (k x m) */
        rc = check(api.gemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                            (int)n, (int)m, (int)k, pa, mb.p, t, (int)ldb, sb, ma.p, t,
                            (int)lda, sa, pb, c, t, (int)n, m * n, (int)batch,
                            dbl ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmStridedBatchedEx", err);
    }
    if (sa_buf)
        ts_tensor_release(sa_buf);
    if (sb_buf)
        ts_tensor_release(sb_buf);
    return rc;
}
