/* nvrtc.c — NVRTC, loaded on first use: CUDA C source to PTX, on the CPU.
 *
 * The plugin neither links nor includes NVRTC, so that it loads where the toolkit is
 * missing: the library is dlopen'ed by its soname, then from the toolkit configure found
 * (TS_NVRTC_PATH), and the few functions it calls are declared here as nvrtc.h declares
 * them. NVRTC's programs are independent, so compiles may run on several threads at once.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuser.h"

#ifndef TS_NVRTC_PATH
#define TS_NVRTC_PATH "/usr/local/cuda/lib64/libnvrtc.so.13"
#endif

typedef struct NvrtcProgram_ *NvrtcProgram;

static struct {
    int (*create)(NvrtcProgram *p, const char *src, const char *name, int n_headers,
                  const char *const *headers, const char *const *names);
    int (*compile)(NvrtcProgram p, int n_options, const char *const *options);
    int (*ptx_size)(NvrtcProgram p, size_t *n);
    int (*ptx)(NvrtcProgram p, char *out);
    int (*log_size)(NvrtcProgram p, size_t *n);
    int (*log)(NvrtcProgram p, char *out);
    int (*destroy)(NvrtcProgram *p);
    const char *(*error_string)(int r);
    char why[256];             /* why it did not load */
    bool loaded;
} nv;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
    void *h = dlopen("libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        h = dlopen(TS_NVRTC_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(nv.why, sizeof nv.why, "%s", dlerror());
        return;
    }
    /* the C standard has no cast from void * to a function pointer; POSIX guarantees the
     * representation, and copying the bits is how dlsym's own page says to do it */
#define SYM(field, name)                                                  \
    do {                                                                  \
        void *p = dlsym(h, name);                                         \
        if (!p) {                                                         \
            snprintf(nv.why, sizeof nv.why, "no %s in libnvrtc", name);   \
            return;                                                       \
        }                                                                 \
        memcpy(&nv.field, &p, sizeof p);                                  \
    } while (0)
    SYM(create, "nvrtcCreateProgram");
    SYM(compile, "nvrtcCompileProgram");
    SYM(ptx_size, "nvrtcGetPTXSize");
    SYM(ptx, "nvrtcGetPTX");
    SYM(log_size, "nvrtcGetProgramLogSize");
    SYM(log, "nvrtcGetProgramLog");
    SYM(destroy, "nvrtcDestroyProgram");
    SYM(error_string, "nvrtcGetErrorString");
#undef SYM
    nv.loaded = true;
}

/* err set to what failed, with the compiler's log when there is one. */
static int failed(NvrtcProgram p, int r, const char *what, TsError *err)
{
    size_t n = 0;
    char *log = NULL;
    if (p && nv.log_size(p, &n) == 0 && n > 1 && (log = malloc(n)) && nv.log(p, log) != 0) {
        free(log);
        log = NULL;
    }
    ts_error_set(err, TS_ERR_RUNTIME, "NVRTC: %s: %s%s%s", what, nv.error_string(r),
                 log ? "\n" : "", log ? log : "");
    free(log);
    return err->code;
}

int fc_nvrtc_compile(const char *source, const char *arch, char **ptx, TsError *err)
{
    pthread_once(&once, load);
    if (!nv.loaded)
        return ts_error_set(err, TS_ERR_RUNTIME, "NVRTC not found: %s", nv.why);
    char arch_opt[64];
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s", arch);
    const char *const options[] = { arch_opt, "--std=c++17" };
    NvrtcProgram p = NULL;
    int r = nv.create(&p, source, "fusion.cu", 0, NULL, NULL);
    if (r)
        return failed(NULL, r, "creating the program", err);
    size_t n = 0;
    *ptx = NULL;
    if ((r = nv.compile(p, 2, options)) != 0)
        failed(p, r, "compiling a fusion kernel", err);
    else if ((r = nv.ptx_size(p, &n)) != 0 || !(*ptx = malloc(n ? n : 1)) ||
             (r = nv.ptx(p, *ptx)) != 0) {
        free(*ptx);
        *ptx = NULL;
        if (r)
            failed(p, r, "reading the PTX", err);
        else
            ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    nv.destroy(&p);
    return *ptx ? 0 : err->code;
}
