/* cache.c — compiled fusion kernels, one per kernel source for the process's target
 * architecture.
 *
 * The pass compiles each group it makes (a group that does not compile is not made), and
 * the kernel factory needs the same PTX when it binds the group's node: both ask here. The
 * source says everything the PTX depends on but the architecture (its operators and dtype;
 * shapes are parameters), and the architecture is fixed for the process, so the source is
 * the key. Entries live until the plugin unloads.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuser.h"

/* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR */
#define ATTR_CC_MAJOR 75
#define ATTR_CC_MINOR 76

typedef struct Entry {
    struct Entry *next;
    char *source, *ptx;
} Entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Entry *entries;
static char arch[32] = "compute_90";
static pthread_once_t arch_once = PTHREAD_ONCE_INIT;

static void find_arch(void)
{
    TsError err = TS_ERROR_INIT;
    const FcDriver *d = fc_driver(&err);
    int dev, major, minor;
    if (d && d->device_get(&dev, 0) == 0 &&
        d->device_get_attribute(&major, ATTR_CC_MAJOR, dev) == 0 &&
        d->device_get_attribute(&minor, ATTR_CC_MINOR, dev) == 0)
        snprintf(arch, sizeof arch, "compute_%d%d", major, minor);
    ts_error_clear(&err);
}

const char *fc_target_arch(void)
{
    pthread_once(&arch_once, find_arch);
    return arch;
}

const char *fc_program_ptx(const char *source, TsError *err)
{
    const char *target = fc_target_arch();
    pthread_mutex_lock(&lock);
    Entry *e = entries;
    while (e && strcmp(e->source, source) != 0)
        e = e->next;
    if (!e) {
        char *ptx = NULL;
        if (!fc_nvrtc_compile(source, target, &ptx, err)) {
            e = malloc(sizeof *e);
            char *copy = strdup(source);
            if (!e || !copy) {
                free(e);
                free(copy);
                free(ptx);
                e = NULL;
                ts_error_set(err, TS_ERR_NOMEM, "out of memory");
            } else {
                *e = (Entry){ entries, copy, ptx };
                entries = e;
            }
        }
    }
    pthread_mutex_unlock(&lock);
    return e ? e->ptx : NULL;
}

void fc_program_cache_clear(void)
{
    pthread_mutex_lock(&lock);
    while (entries) {
        Entry *e = entries;
        entries = e->next;
        free(e->source);
        free(e->ptx);
        free(e);
    }
    pthread_mutex_unlock(&lock);
}
