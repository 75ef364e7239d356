/* driver.c — the CUDA driver API, loaded on first use ("libcuda.so.1").
 *
 * The plugin does not link the driver, so that it loads on machines without one; the
 * functions it calls are declared in fuser.h (FcDriver) with cuda.h's signatures, and found
 * by their unversioned names (those whose cuda.h macros point at a _v2 symbol by theirs).
 * Kernels run on the device's primary context, the one CUDA's runtime (aten-cuda) uses.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "fuser.h"

static FcDriver drv;
static char why[256];          /* why there is no driver or device */
static bool ready;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static bool sym(void *h, void *field, const char *name)
{
    void *p = dlsym(h, name);
    if (!p) {
        snprintf(why, sizeof why, "no %s in libcuda.so.1", name);
        return false;
    }
    /* POSIX guarantees a function pointer fits a void * (dlsym's page) */
    memcpy(field, &p, sizeof p);
    return true;
}

static void load(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, sizeof why, "%s", dlerror());
        return;
    }
    if (!sym(h, &drv.init, "cuInit") || !sym(h, &drv.device_get_count, "cuDeviceGetCount") ||
        !sym(h, &drv.device_get, "cuDeviceGet") ||
        !sym(h, &drv.device_get_attribute, "cuDeviceGetAttribute") ||
        !sym(h, &drv.primary_ctx_retain, "cuDevicePrimaryContextRetain") ||
        !sym(h, &drv.primary_ctx_release, "cuDevicePrimaryContextRelease_v2") ||
        !sym(h, &drv.ctx_get_current, "cuCtxGetCurrent") ||
        !sym(h, &drv.ctx_set_current, "cuCtxSetCurrent") ||
        !sym(h, &drv.module_load_data, "cuModuleLoadData") ||
        !sym(h, &drv.module_unload, "cuModuleUnload") ||
        !sym(h, &drv.module_get_function, "cuModuleGetFunction") ||
        !sym(h, &drv.launch_kernel, "cuLaunchKernel") ||
        !sym(h, &drv.get_error_string, "cuGetErrorString"))
        return;
    FcResult r = drv.init(0);
    if (r == 0)
        r = drv.device_get_count(&drv.n_devices);
    if (r != 0) {
        const char *s = NULL;
        drv.get_error_string(r, &s);
        snprintf(why, sizeof why, "cuInit: %s", s ? s : "unknown error");
        return;
    }
    if (drv.n_devices < 1) {
        snprintf(why, sizeof why, "the driver finds none");
        return;
    }
    ready = true;
}

const FcDriver *fc_driver(TsError *err)
{
    pthread_once(&once, load);
    if (!ready) {
        ts_error_set(err, TS_ERR_RUNTIME, "no CUDA device: %s", why);
        return NULL;
    }
    return &drv;
}

int fc_driver_error(const FcDriver *d, FcResult r, const char *what, TsError *err)
{
    const char *s = NULL;
    d->get_error_string(r, &s);
    return ts_error_set(err, TS_ERR_RUNTIME, "prim::FusionGroup (cuda): %s: %s", what,
                        s ? s : "unknown CUDA error");
}
