/* log.h — per-pass logging and the optimization limiter, for debugging the compiler.
 *
 * As PyTorch's jit_log.h / jit_opt_limit.h, with tscript's variable names:
 *
 *   TSCRIPT_LOG_LEVEL=dead_code:>constant_prop:>>alias
 *     Logging is switched on per source file of a pass, named by its base name with or
 *     without the extension ("dead_code" or "dead_code.c"), colon separated. A plain name
 *     enables GRAPH_DUMP; each leading '>' raises the level: '>' adds GRAPH_UPDATE, '>>'
 *     (or more) adds GRAPH_DEBUG. Lines go to stderr, each prefixed "[DUMP dead_code.c:042] ".
 *
 *   TSCRIPT_OPT_LIMIT="constant_prop=3:dead_code=10"
 *     A pass named here may make only that many optimizations: ts_opt_limit_ok() (through
 *     TS_OPT_ALLOWED) returns true for the first N calls from that file and false after.
 *     Passes not named are never limited.
 *
 * Both variables are read once, on first use (thread-safe). Logging that is off costs one
 * atomic load per call site.
 */
#ifndef TSCRIPT_IR_LOG_H
#define TSCRIPT_IR_LOG_H

#include <stdbool.h>
#include <stdio.h>

#include "tscript/error.h"

typedef struct TsGraph TsGraph;

typedef enum TsLogLevel {
    TS_LOG_DUMP = 0,       /* whole graphs after a pass */
    TS_LOG_UPDATE = 1,     /* each transformation (node deleted, constant folded) */
    TS_LOG_DEBUG = 2       /* a pass's internals */
} TsLogLevel;

/* Is logging at level enabled for the source file `file` (a path; only its base name
 * without extension counts)? */
bool ts_log_enabled(const char *file, TsLogLevel level);

/* Formats the message and writes each of its lines with the "[LEVEL file:line] " prefix,
 * if enabled for file at level. */
void ts_log(const char *file, int line, TsLogLevel level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Logs msg, a newline and the graph's text (with source comments), if enabled. */
void ts_log_graph(const char *file, int line, TsLogLevel level, const char *msg,
                  const TsGraph *g);

/* The name used in the prefix: "DUMP", "UPDATE", "DEBUG". */
const char *ts_log_level_name(TsLogLevel level);

/* Does the pass in `file` still have optimizations left? Counts this one if so. */
bool ts_opt_limit_ok(const char *file);

/* Checks the syntax of TSCRIPT_LOG_LEVEL and TSCRIPT_OPT_LIMIT (ts_runtime_open does): a
 * malformed item (TSCRIPT_OPT_LIMIT=dead_code, TSCRIPT_LOG_LEVEL=">") is a TS_ERR_CONFIG
 * naming the variable and the item. Unknown pass names are no error. */
int ts_log_check_env(TsError *err);

/* Where log lines go (NULL: stderr). For embedders and tests. */
void ts_log_set_output(FILE *out);

/* Re-reads TSCRIPT_LOG_LEVEL and TSCRIPT_OPT_LIMIT and restarts the limit counters.
 * For tests: not safe while other threads log. */
void ts_log_reload(void);

/* Frees the parsed configuration (at shutdown; the next use re-reads the variables). */
void ts_log_shutdown(void);

/* The call sites: the one place a macro beats a function, for __FILE__ and __LINE__. */
#define TS_GRAPH_DUMP(msg, g) ts_log_graph(__FILE__, __LINE__, TS_LOG_DUMP, (msg), (g))
#define TS_GRAPH_UPDATE(...) ts_log(__FILE__, __LINE__, TS_LOG_UPDATE, __VA_ARGS__)
#define TS_GRAPH_DEBUG(...) ts_log(__FILE__, __LINE__, TS_LOG_DEBUG, __VA_ARGS__)
#define TS_OPT_ALLOWED ts_opt_limit_ok(__FILE__)

#endif
