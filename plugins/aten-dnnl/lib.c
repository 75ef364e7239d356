/* lib.c — oneDNN's library, opened by the first call that runs oneDNN rather than linked.
 *
 * libdnnl is 40 MB with libgomp behind it: linked to the plugin, every tscript process mapped
 * and relocated it at startup (1.2 ms and 210 page faults more for a hello world, a third
 * more than the whole startup), though most programs never convolve. So the plugin links
 * nothing of oneDNN and calls it through dn_lib, filled here once per process: the library
 * $TSCRIPT_DNNL names (a name or a path: another build), else the one configure found
 * (TS_DNNL_SONAME, looked up as a DT_NEEDED entry would be, then TS_DNNL_PATH), each
 * function by its name. Where that fails (the library was removed, or is
 * another version without one of the functions) nothing is half-filled: dn_lib_open says no,
 * and the kernels hand every call to aten-cpu's, as they do any call oneDNN does not take.
 * The handle stays open: oneDNN's threads and JIT code live in it (the plugin is never
 * unloaded either, see aten-dnnl.mk).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "dn.h"

DnLib dn_lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool ready;
static char why[512];

static const struct {
    const char *name;
    size_t offset;
} functions[] = {
    { "dnnl_dilated_convolution_forward_desc_init", offsetof(DnLib, dilated_convolution_forward_desc_init) },
    { "dnnl_dilated_deconvolution_forward_desc_init", offsetof(DnLib, dilated_deconvolution_forward_desc_init) },
    { "dnnl_engine_create", offsetof(DnLib, engine_create) },
    { "dnnl_matmul_desc_init", offsetof(DnLib, matmul_desc_init) },
    { "dnnl_memory_create", offsetof(DnLib, memory_create) },
    { "dnnl_memory_desc_equal", offsetof(DnLib, memory_desc_equal) },
    { "dnnl_memory_desc_get_size", offsetof(DnLib, memory_desc_get_size) },
    { "dnnl_memory_desc_init_by_strides", offsetof(DnLib, memory_desc_init_by_strides) },
    { "dnnl_memory_desc_init_by_tag", offsetof(DnLib, memory_desc_init_by_tag) },
    { "dnnl_memory_destroy", offsetof(DnLib, memory_destroy) },
    { "dnnl_pooling_v2_forward_desc_init", offsetof(DnLib, pooling_v2_forward_desc_init) },
    { "dnnl_post_ops_append_eltwise", offsetof(DnLib, post_ops_append_eltwise) },
    { "dnnl_post_ops_create", offsetof(DnLib, post_ops_create) },
    { "dnnl_post_ops_destroy", offsetof(DnLib, post_ops_destroy) },
    { "dnnl_primitive_attr_create", offsetof(DnLib, primitive_attr_create) },
    { "dnnl_primitive_attr_destroy", offsetof(DnLib, primitive_attr_destroy) },
    { "dnnl_primitive_attr_set_post_ops", offsetof(DnLib, primitive_attr_set_post_ops) },
    { "dnnl_primitive_attr_set_scratchpad_mode", offsetof(DnLib, primitive_attr_set_scratchpad_mode) },
    { "dnnl_primitive_create", offsetof(DnLib, primitive_create) },
    { "dnnl_primitive_desc_create", offsetof(DnLib, primitive_desc_create) },
    { "dnnl_primitive_desc_destroy", offsetof(DnLib, primitive_desc_destroy) },
    { "dnnl_primitive_desc_query_md", offsetof(DnLib, primitive_desc_query_md) },
    { "dnnl_primitive_destroy", offsetof(DnLib, primitive_destroy) },
    { "dnnl_primitive_execute", offsetof(DnLib, primitive_execute) },
    { "dnnl_reorder_primitive_desc_create", offsetof(DnLib, reorder_primitive_desc_create) },
    { "dnnl_stream_create", offsetof(DnLib, stream_create) },
    { "dnnl_stream_destroy", offsetof(DnLib, stream_destroy) },
    { "dnnl_stream_wait", offsetof(DnLib, stream_wait) },
};

static void *open_library(void)
{
    const char *forced = getenv("TSCRIPT_DNNL");
    if (forced && *forced)
        return dlopen(forced, RTLD_NOW | RTLD_LOCAL);
    void *h = dlopen(TS_DNNL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (h || strcmp(TS_DNNL_PATH, TS_DNNL_SONAME) == 0)
        return h;
    char first[256];
    snprintf(first, sizeof first, "%s", dlerror());
    h = dlopen(TS_DNNL_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        snprintf(why, sizeof why, "oneDNN: %s", first);
    return h;
}

static void open_once(void)
{
    void *h = open_library();
    if (!h) {
        if (!why[0])
            snprintf(why, sizeof why, "oneDNN: %s", dlerror());
        return;
    }
    DnLib lib;
    memset(&lib, 0, sizeof lib);
    for (size_t i = 0; i < sizeof functions / sizeof *functions; i++) {
        void *f = dlsym(h, functions[i].name);
        if (!f) {
            snprintf(why, sizeof why, "oneDNN: %s has no %s", TS_DNNL_SONAME,
                     functions[i].name);
            return;                    /* the handle stays: dlclose of oneDNN is not safe */
        }
        memcpy((char *)&lib + functions[i].offset, &f, sizeof f);
    }
#ifdef TS_DNNL_OPENMP
    void *f = dlsym(h, "omp_set_num_threads");     /* from libgomp, oneDNN's own dependency */
    if (!f) {
        snprintf(why, sizeof why, "oneDNN: no omp_set_num_threads beside %s", TS_DNNL_SONAME);
        return;
    }
    memcpy(&lib.omp_set_num_threads, &f, sizeof f);
#endif
    dn_lib = lib;
    ready = true;
}

bool dn_lib_open(void)
{
    pthread_once(&once, open_once);
    return ready;
}

const char *dn_lib_why(void)
{
    return why;
}
