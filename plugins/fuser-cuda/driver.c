/* driver.c — the CUDA driver API, loaded on first use ("libcuda.so.1").
 *
 * The plugin does not link the driver, so that it loads on machines without one; the
 * functions it calls are declared in fuser.h (FcDriver) with cuda.h's signatures, and found
 * through the driver's cuGetProcAddress by base name and API version, or by dlsym where
 * the driver predates it.
 * Kernels run on the device's primary context, the one CUDA's runtime (aten-cuda) uses.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuser.h"

static FcDriver drv;
static char why[256];          /* why there is no driver or device */
static bool ready;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* cuGetProcAddress_v2 (drivers of CUDA 12 on): the driver's own table of entry points, by
 * base name and the API version the caller was written for, so each function comes in the
 * version whose signature fuser.h declares; dlsym by the exported name where it is absent. */
typedef FcResult (*GetProcAddress)(const char *name, void **fn, int version, uint64_t flags,
                                   int *status);
static GetProcAddress get_proc;

#define FC_API_VERSION 12000   /* the signatures fuser.h declares are those of CUDA 12 */

/* Finds name (the versioned one, as dlsym sees it, in exported). */
static bool sym(void *h, void *field, const char *name, const char *exported)
{
    void *p = NULL;
    int status = 0;
    if (get_proc && get_proc(name, &p, FC_API_VERSION, 0, &status) != 0)
        p = NULL;
    if (!p)
        p = dlsym(h, exported ? exported : name);
    if (!p) {
        Dl_info info;
        void *any = dlsym(h, "cuInit");
        const char *path = any && dladdr(any, &info) && info.dli_fname ? info.dli_fname
                                                                        : "libcuda.so.1";
        snprintf(why, sizeof why, "no %s in %s", name, path);
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
    void *gp = dlsym(h, "cuGetProcAddress_v2");
    if (gp)
        memcpy(&get_proc, &gp, sizeof gp);
    if (!sym(h, &drv.init, "cuInit", NULL) ||
        !sym(h, &drv.device_get_count, "cuDeviceGetCount", NULL) ||
        !sym(h, &drv.device_get, "cuDeviceGet", NULL) ||
        !sym(h, &drv.device_get_attribute, "cuDeviceGetAttribute", NULL) ||
        !sym(h, &drv.primary_ctx_retain, "cuDevicePrimaryCtxRetain", NULL) ||
        !sym(h, &drv.primary_ctx_release, "cuDevicePrimaryCtxRelease",
             "cuDevicePrimaryCtxRelease_v2") ||
        !sym(h, &drv.ctx_get_current, "cuCtxGetCurrent", NULL) ||
        !sym(h, &drv.ctx_set_current, "cuCtxSetCurrent", NULL) ||
        !sym(h, &drv.module_load_data, "cuModuleLoadData", NULL) ||
        !sym(h, &drv.module_unload, "cuModuleUnload", NULL) ||
        !sym(h, &drv.module_get_function, "cuModuleGetFunction", NULL) ||
        !sym(h, &drv.launch_kernel, "cuLaunchKernel", NULL) ||
        !sym(h, &drv.get_error_string, "cuGetErrorString", NULL))
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
