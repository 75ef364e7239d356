/* tscript/tscript.h — the embedding API.
 *
 * A TsRuntime is one loaded configuration: the plugins it names, their operators in the
 * operator table, and the default backend. Open one, use it, close it:
 *
 *     TsError err = TS_ERROR_INIT;
 *     TsRuntime *rt = ts_runtime_open(NULL, &err);    // TSCRIPT_CONFIG, installed, embedded
 *     if (!rt) { fprintf(stderr, "%s\n", err.msg); ts_error_clear(&err); return 1; }
 *     ...
 *     ts_runtime_close(rt);
 */
#ifndef TSCRIPT_TSCRIPT_H
#define TSCRIPT_TSCRIPT_H

#include "tscript/error.h"
#include "tscript/plugin.h"
#include "tscript/tensor.h"
#include "tscript/types.h"
#include "tscript/value.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TS_VERSION "0.1.0"

typedef struct TsRuntime TsRuntime;

/* Opens a runtime from a YAML config file. config_path NULL: $TSCRIPT_CONFIG if set, else the
 * installed default config if present, else the embedded default (plugins prim and aten-cpu).
 * Fails with a message naming the file and the reason (bad YAML, missing plugin, failed
 * dlopen, ABI mismatch, missing entry point, failed registration). */
TsRuntime *ts_runtime_open(const char *config_path, TsError *err);
void ts_runtime_close(TsRuntime *rt);

/* The backend factory functions use when no device is given ("cpu" unless configured). */
const char *ts_runtime_default_backend(const TsRuntime *rt);
/* Threads for fork/wait and intra-op work ($TSCRIPT_NUM_THREADS, else the config, else cores). */
int ts_runtime_num_threads(const TsRuntime *rt);

#ifdef __cplusplus
}
#endif
#endif
