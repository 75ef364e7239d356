/* settings.c — the settings of a config that plugins read rather than the core
 * (ts_config_setting, tscript/plugin.h): blas_core, aten-cpu's.
 *
 * Process-wide, "of the runtime opened last", as the thread count is (sched/parallel.c):
 * what such a setting governs — a library loaded once per process — is process-wide too,
 * and a plugin reads it where no runtime is at hand (in init, or deep in a GEMM). Opening a
 * runtime publishes its config's values (settings.h) before loading the plugins, so their
 * init sees them; readers copy under the lock, so a runtime opening on another thread
 * never frees a value being read.
 */
#include "registry/settings.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char blas_core[32];         /* config.c allows 31 characters */
static char blas_core_where[4096];

void ts_settings_publish(const TsConfig *c)
{
    pthread_mutex_lock(&lock);
    snprintf(blas_core, sizeof blas_core, "%s", c->blas_core ? c->blas_core : "");
    snprintf(blas_core_where, sizeof blas_core_where, "%s",
             c->blas_core_where ? c->blas_core_where : "");
    pthread_mutex_unlock(&lock);
}

bool ts_config_setting(const char *key, char *value, size_t size, char *where, size_t wsize)
{
    bool known = key && strcmp(key, "blas_core") == 0;
    pthread_mutex_lock(&lock);
    bool set = known && blas_core[0];
    if (size)
        snprintf(value, size, "%s", set ? blas_core : "");
    if (where && wsize)
        snprintf(where, wsize, "%s", set ? blas_core_where : "");
    pthread_mutex_unlock(&lock);
    return set;
}
