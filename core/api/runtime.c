/* runtime.c (api) — opening a runtime from settings held in memory and changing its thread
 * count: the embedding API's additions to core/runtime.c, which owns TsRuntime. */
#include <string.h>

#include "registry/config.h"
#include "runtime.h"

TsRuntime *ts_runtime_open_settings(const char *yaml, size_t len, TsError *err)
{
    if (!yaml && len)
        return ts_error_set(err, TS_ERR_USAGE, "ts_runtime_open_settings: no settings"), NULL;
    TsConfig c;
    memset(&c, 0, sizeof c);
    if (ts_config_parse(yaml ? yaml : "", len, "(settings)", &c, err)) {
        ts_config_free(&c);
        return NULL;
    }
    return ts_runtime_open_config(&c, err);   /* frees c */
}
