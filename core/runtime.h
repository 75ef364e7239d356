/* runtime.h — what the core sees of a TsRuntime (internal; the public half is tscript.h).
 *
 * A runtime owns its operator table, the plugins it loaded (their dlopen handles, unloaded
 * at close), the allocators backends registered, and the settings of its config.
 */
#ifndef TSCRIPT_RUNTIME_H
#define TSCRIPT_RUNTIME_H

#include "registry/optable.h"
#include "tscript/tscript.h"

struct TsConfig;

/* Opens a runtime from a parsed config, which it frees (ts_runtime_open reads one first). */
TsRuntime *ts_runtime_open_config(struct TsConfig *config, TsError *err);

/* The operator table (read-only once the runtime is open). */
const TsOpTable *ts_runtime_optable(const TsRuntime *rt);

/* The loaded plugins (ts_runtime_num_plugins ...) are public: tscript/inspect.h. */

/* The default backend (tscript.h's ts_runtime_default_backend) as a device type: where
 * operators with no tensor argument and no device= dispatch (tscript/plugin.h). */
int ts_runtime_default_device_type(const TsRuntime *rt);
/* s on device dev (a new reference): s itself when it is there, else a copy
 * (core/api/backend_values.c). */
TsStorage *ts_storage_to_device(TsRuntime *rt, TsStorage *s, TsDevice dev, TsError *err);
/* ts_runtime_set_default_backend, which replaces the config's default_backend (the CLI's
 * --backend), is public: tscript.h. */

#endif
