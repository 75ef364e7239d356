/* device.c — the CUDA device as the plugin sees it: whether there is one, which is current,
 * CUDA's errors in PyTorch's words, and torch.cuda's functions.
 *
 * The runtime is asked once, at first use, not when the plugin loads: a program that never
 * touches the GPU pays nothing, and a machine without a driver or a device loads the plugin
 * and runs everything on the cpu; only a use of the GPU fails, with "no CUDA device" and
 * the runtime's reason.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "engine/cuda.h"

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int num_devices;
static cudaError_t probe_error = cudaSuccess;
static atomic_bool used;       /* a device was used: there may be queued work */

static void probe(void)
{
    int n = 0;
    cudaError_t rc = cudaGetDeviceCount(&n);
    if (rc != cudaSuccess) {
        probe_error = rc;
        (void)cudaGetLastError();     /* the runtime keeps it sticky otherwise */
        n = 0;
    }
    num_devices = n;
}

int ts_cuda_device_count(void)
{
    pthread_once(&probe_once, probe);
    return num_devices;
}

int ts_cuda_ready(TsError *err)
{
    if (ts_cuda_device_count() > 0) {
        if (!atomic_load_explicit(&used, memory_order_relaxed))
            atomic_store(&used, true);
        return 0;
    }
    if (probe_error != cudaSuccess)
        return ts_error_set(err, TS_ERR_RUNTIME, "no CUDA device: %s",
                            cudaGetErrorString(probe_error));
    return ts_error_set(err, TS_ERR_RUNTIME, "no CUDA device: the driver found none");
}

int ts_cuda_check(cudaError_t rc, const char *what, TsError *err)
{
    if (rc == cudaSuccess)
        return 0;
    (void)cudaGetLastError();
    if (rc == cudaErrorMemoryAllocation)
        return ts_error_set(err, TS_ERR_NOMEM, "CUDA out of memory (%s)", what);
    return ts_error_set(err, TS_ERR_RUNTIME, "CUDA error: %s (%s)", cudaGetErrorString(rc),
                        what);
}

int ts_cuda_use_device(TsDevice d, TsError *err)
{
    int rc = ts_cuda_ready(err);
    if (rc || d.index < 0)
        return rc;
    if (d.index >= num_devices)
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA error: invalid device ordinal "
                            "(cuda:%d of %d devices)", d.index, num_devices);
    int cur = 0;
    if (cudaGetDevice(&cur) == cudaSuccess && cur == d.index)
        return 0;
    return ts_cuda_check(cudaSetDevice(d.index), "cudaSetDevice", err);
}

TsDevice ts_cuda_current_device(void)
{
    int cur = 0;
    if (ts_cuda_device_count() > 0 && cudaGetDevice(&cur) != cudaSuccess)
        cur = 0;
    TsDevice d = { TS_DEV_CUDA, (int16_t)cur };
    return d;
}

int ts_cuda_sync(TsError *err)
{
    int rc = ts_cuda_ready(err);
    if (!rc)
        rc = ts_cuda_check(cudaStreamSynchronize(TS_CUDA_STREAM), "synchronize", err);
    return rc;
}

/* ---- torch.cuda -------------------------------------------------------------------- */

/* cuda::device_count() -> int */
static int k_device_count(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    return ts_args_return(&a, rc, ts_int(rc ? 0 : ts_cuda_device_count()));
}

/* cuda::is_available() -> bool */
static int k_is_available(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    return ts_args_return(&a, rc, ts_bool(!rc && ts_cuda_device_count() > 0));
}

/* cuda::_current_device() -> int */
static int k_current_device(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_cuda_ready(c->error);
    return ts_args_return(&a, rc, ts_int(rc ? 0 : ts_cuda_current_device().index));
}

/* cuda::_set_device(int val) -> () */
static int k_set_device(TsCall *c)
{
    TsArgs a;
    int64_t i = 0;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_int(&a, 0, &i);
    if (!rc && (i < 0 || i > INT16_MAX))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "CUDA error: invalid device ordinal "
                          "(%lld)", (long long)i);
    if (!rc) {
        TsDevice d = { TS_DEV_CUDA, (int16_t)i };
        rc = ts_cuda_use_device(d, c->error);
    }
    return ts_args_return(&a, rc, ts_none());
}

/* The device a synchronize names: -1 for the current one. */
static int sync_device(int64_t index, TsError *err)
{
    int rc = ts_cuda_ready(err);
    if (rc)
        return rc;
    int cur = 0;
    if ((rc = ts_cuda_check(cudaGetDevice(&cur), "cudaGetDevice", err)))
        return rc;
    if (index >= 0 && index != cur) {
        TsDevice d = { TS_DEV_CUDA, (int16_t)(index > INT16_MAX ? INT16_MAX : index) };
        if ((rc = ts_cuda_use_device(d, err)))
            return rc;
    }
    /* torch.cuda.synchronize waits for the whole device, every thread's streams */
    rc = ts_cuda_check(cudaDeviceSynchronize(), "synchronize", err);
    if (index >= 0 && index != cur)
        (void)cudaSetDevice(cur);
    return rc;
}

/* cuda::synchronize() -> () */
static int k_synchronize(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = sync_device(-1, c->error);
    return ts_args_return(&a, rc, ts_none());
}

/* cuda::synchronize.int(int? val) -> () */
static int k_synchronize_int(TsCall *c)
{
    TsArgs a;
    int64_t i = -1;
    bool has = false;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_opt_int(&a, 0, &i, &has);
    if (!rc)
        rc = sync_device(has ? i : -1, c->error);
    return ts_args_return(&a, rc, ts_none());
}

/* cuda::synchronize.device(Device? device) -> () */
static int k_synchronize_device(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    int64_t index = -1;
    if (!rc && a.v[0].tag == TS_TAG_DEVICE) {
        TsDevice d = a.v[0].u.dev;
        if (d.type != TS_DEV_CUDA)
            rc = ts_error_set(c->error, TS_ERR_VALUE, "Expected a cuda device, but got: %s",
                              ts_device_type_name(d.type) ? ts_device_type_name(d.type) : "?");
        index = d.index;
    }
    if (!rc)
        rc = sync_device(index, c->error);
    return ts_args_return(&a, rc, ts_none());
}

/* cuda::device_index(Device device) -> int */
static int k_device_index(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    int64_t index = !rc && a.v[0].tag == TS_TAG_DEVICE ? a.v[0].u.dev.index : -1;
    return ts_args_return(&a, rc, ts_int(index));
}

/* cuda::empty_cache() -> () */
static int k_empty_cache(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc && ts_cuda_device_count() > 0)
        ts_cuda_empty_cache();
    return ts_args_return(&a, rc, ts_none());
}

/* tscript::handoff() -> (): another thread is about to read what this one computed
 * (plugin.h): its stream's queued work is finished first. Nothing when no GPU was used. */
static int k_handoff(TsCall *c)
{
    (void)c;
    if (atomic_load_explicit(&used, memory_order_relaxed)) {
        (void)cudaStreamSynchronize(TS_CUDA_STREAM);
        (void)cudaGetLastError();
    }
    return 0;
}

static const TsCudaOp stream_ops[] = {
    { TS_HANDOFF_OP, "", k_handoff },
};

const TsCudaTable ts_cuda_stream_table = { stream_ops, sizeof stream_ops / sizeof stream_ops[0] };

static const TsCudaOp ops[] = {
    { "cuda::device_count", "", k_device_count },
    { "cuda::is_available", "", k_is_available },
    { "cuda::_current_device", "", k_current_device },
    { "cuda::_set_device", "", k_set_device },
    { "cuda::device_index", "", k_device_index },
    { "cuda::synchronize", "", k_synchronize },
    { "cuda::synchronize", "int", k_synchronize_int },
    { "cuda::synchronize", "device", k_synchronize_device },
    { "cuda::empty_cache", "", k_empty_cache },
};

const TsCudaTable ts_cuda_device_table = { ops, sizeof ops / sizeof ops[0] };
