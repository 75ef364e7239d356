/* filecheck.h — FileCheck for tests: assert that text (usually a printed graph) contains
 * strings in order, as torch.testing.FileCheck does.
 *
 * Directives, matched as plain substrings against the input:
 *   CHECK: s          s occurs after the previous match
 *   CHECK-NEXT: s     s occurs on the line after the previous match
 *   CHECK-SAME: s     s occurs on the same line as the previous match, after it
 *   CHECK-NOT: s      s does not occur between the previous and the next match (or the end)
 *   CHECK-COUNT-N: s  s occurs N times after the previous match
 *   CHECK-COUNT-EXACTLY-N: s  ... and not once more after those
 *   CHECK-DAG: s      consecutive DAG checks match in any order after the previous match
 *
 * Checks are added with the builder functions, or written as comment lines
 * ("# CHECK: aten::add", "# CHECK-NEXT: return") in a checks string. A failure says which
 * directive failed and shows the input around where matching stopped, marked
 * "~~~ <--- HERE".
 */
#ifndef TSCRIPT_IR_FILECHECK_H
#define TSCRIPT_IR_FILECHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "tscript/error.h"

typedef struct TsGraph TsGraph;

typedef enum TsCheckKind {
    TS_CHECK,
    TS_CHECK_NEXT,
    TS_CHECK_SAME,
    TS_CHECK_NOT,
    TS_CHECK_COUNT,            /* only through ts_filecheck_check_count */
    TS_CHECK_DAG
} TsCheckKind;

typedef struct TsFileCheck TsFileCheck;

/* NULL on out-of-memory. */
TsFileCheck *ts_filecheck_new(void);
void ts_filecheck_free(TsFileCheck *fc);

/* Add a check. A bad call (TS_CHECK_COUNT here, an empty string, a zero count that is not
 * exact) or out-of-memory returns non-zero and is also remembered: the next run reports it,
 * so a test may add checks without testing each result. */
int ts_filecheck_check(TsFileCheck *fc, TsCheckKind kind, const char *str);
int ts_filecheck_check_count(TsFileCheck *fc, const char *str, size_t n, bool exactly);

/* Adds the directives found in the comment lines of checks; TS_ERR_SYNTAX with the line
 * for a malformed one. */
int ts_filecheck_parse(TsFileCheck *fc, const char *checks, TsError *err);

/* Runs the checks against input: 0, or TS_ERR_RUNTIME with the failure report. */
int ts_filecheck_run(TsFileCheck *fc, const char *input, TsError *err);
/* Runs against the graph's text with source comments, as PyTorch checks str(graph). */
int ts_filecheck_run_graph(TsFileCheck *fc, const TsGraph *g, TsError *err);

/* One-shot: parse the directives in checks and run them against input / a graph. */
int ts_filecheck_run_text(const char *checks, const char *input, TsError *err);
int ts_filecheck_run_text_graph(const char *checks, const TsGraph *g, TsError *err);

#endif
