/* t/fuzz/parse_fuzz.c — libFuzzer target for the lexer and parser (not built by default).
 *
 * Any input must give a tree or an error, never a crash, leak or sanitizer report; for a
 * tree, the dump and the frontend check of every def must run cleanly too. t/fuzz/build.sh
 * builds it with emit_fuzz (see there); on its own, from the top of the source tree:
 *
 *   clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
 *       -Iinclude -Icore t/fuzz/parse_fuzz.c core/frontend/lexer.c core/frontend/ast.c core/frontend/parser.c \
 *       core/frontend/source.c core/strbuf.c core/error.c -o parse_fuzz
 *   mkdir -p corpus && cp t/data/parse/[a-z]*.py corpus
 *   ./parse_fuzz -max_total_time=300 corpus
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "frontend/parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    TsError err = TS_ERROR_INIT;
    TsSource *src = ts_source_new("fuzz.py", (const char *)data, size, &err);
    if (!src) {
        ts_error_clear(&err);
        return 0;
    }
    TsTree *t = ts_parse_module(src, &err);
    if (t) {
        free(ts_tree_dump(t, TS_DUMP_RANGES));
        for (size_t i = 0; i < t->n_kids; i++) {
            ts_parse_check_def(t->kids[i], &err);
            ts_error_clear(&err);
        }
        ts_tree_free(t);
    }
    ts_error_clear(&err);
    TsTree *e = ts_parse_expression(src, 0, src->len, &err);
    ts_tree_free(e);
    ts_error_clear(&err);
    ts_source_release(src);
    return 0;
}
