/* t/fuzz/ir_fuzz.c — libFuzzer target for the IR text parser and printer (core/ir/parse.c,
 * print.c).
 *
 * Any input must give a graph or an error, never a crash, leak or sanitizer report. A graph
 * must print to text that parses again and prints the same: parse -> print -> parse ->
 * print ends where it started, else the target aborts. The verifier (core/ir/lint.c) runs
 * on every graph too; a hand-written graph may fail it (with an error), but it must not
 * crash on one. Built by t/fuzz/build.sh; seeds: the graphs of t/data/ir and those
 * `tscript graph` prints for the TorchScript files of the corpus of emit_fuzz.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *a, const char *b)
{
    fprintf(stderr, "ir_fuzz: %s\n--- first\n%s\n--- second\n%s\n", what, a, b ? b : "");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';         /* the parser reads a C string: a NUL ends it */
    TsError err = TS_ERROR_INIT;
    TsGraph *g = ts_graph_parse(text, "fuzz.ir", &err);
    ts_error_clear(&err);
    if (!g) {
        free(text);
        return 0;
    }
    (void)ts_graph_lint(g, &err);
    ts_error_clear(&err);
    char *printed = ts_graph_to_string(g, false);
    free(ts_graph_to_string(g, true));
    if (!printed)
        abort();
    TsGraph *again = ts_graph_parse(printed, "printed.ir", &err);
    if (!again)
        fail(err.msg ? err.msg : "the printed graph does not parse", text, printed);
    char *reprinted = ts_graph_to_string(again, false);
    if (!reprinted || strcmp(printed, reprinted) != 0)
        fail("the printed graph prints differently once parsed", printed, reprinted);
    free(reprinted);
    free(printed);
    ts_graph_free(again);
    ts_graph_free(g);
    free(text);
    return 0;
}
