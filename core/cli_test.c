/* cli_test.c — `tscript test [--backend NAME] FILE.py ...`: the test_* functions of
 * TorchScript files as TAP (--backend NAME replaces the config's default_backend).
 *
 * Every top-level function whose name starts with "test_" runs, in file order, with no
 * arguments (defaults apply); it passes when it returns without raising and does not return
 * False. Each test is compiled on its own, so one that does not compile fails alone. The
 * output is TAP, so `prove --exec 'tscript test' t/ops/` runs a directory of such files:
 *
 *     ok 1 - test_add
 *     not ok 2 - test_div
 *     # The following operation failed in the TorchScript interpreter.
 *     # ...
 *     1..2
 *
 * With several files a test is named "FILE::test_name". TAP owns stdout, so what the tests
 * print goes to stderr. Exit status: 0 when every test passed, 1 otherwise, 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compile.h"
#include "runtime.h"
#include "sched/interp.h"

typedef struct Tap {
    FILE *out;
    size_t n, failed;
} Tap;

/* Each line of text as a "# " diagnostic. */
static void diag_lines(Tap *tap, const char *text)
{
    while (text && *text) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        fprintf(tap->out, "#%s%.*s\n", len ? " " : "", (int)len, text);
        text += len + (nl ? 1 : 0);
    }
}

static void report(Tap *tap, bool passed, const char *file, const char *name, bool several,
                   const char *why)
{
    tap->n++;
    tap->failed += !passed;
    fprintf(tap->out, "%s %zu - %s%s%s\n", passed ? "ok" : "not ok", tap->n,
            several ? file : "", several && name ? "::" : "", name ? name : "");
    if (!passed)
        diag_lines(tap, why);
    fflush(tap->out);
}

/* Compiles and runs one test; err is set when it failed. */
static void run_test(TsRuntime *rt, TsSource *src, const char *name, TsError *e)
{
    TsError err = TS_ERROR_INIT;
    TsCompUnit *u = ts_compile_source(ts_runtime_optable(rt), src, name, &err);
    TsFunction *f = NULL;
    char q[512];
    snprintf(q, sizeof q, "__torch__.%s", name);
    if (u && !(f = ts_unit_find(u, q)))
        ts_error_set(&err, TS_ERR_USAGE, "%s was not compiled", name);
    TsValue args[64];
    size_t n = 0;
    const TsSchema *sc = f ? f->schema : NULL;
    for (size_t i = 0; sc && i < sc->n_args && !err.code; i++) {
        if (!sc->args[i].has_default || n == sizeof args / sizeof *args)
            ts_error_set(&err, TS_ERR_USAGE, "a test function takes no arguments, but %s's "
                         "'%s' has no default", name, sc->args[i].name);
        else {
            ts_value_retain(sc->args[i].default_value);
            args[n++] = sc->args[i].default_value;
        }
    }
    if (err.code) {
        for (size_t i = 0; i < n; i++)
            ts_value_release(args[i]);
    } else if (f) {
        TsValue out;
        if (ts_run(rt, u, f, args, n, &out, &err) == 0) {
            if (out.tag == TS_TAG_BOOL && !out.u.b)
                ts_error_set(&err, TS_ERR_ASSERT, "%s returned False", name);
            ts_value_release(out);
        }
    }
    fflush(stdout);
    ts_unit_free(u);
    ts_error_move(e, &err);
}

static void test_file(TsRuntime *rt, Tap *tap, const char *path, bool several)
{
    TsError err = TS_ERROR_INIT;
    TsSource *src = ts_source_read_file(path, &err);
    size_t n = 0;
    char **names = src ? ts_compile_list_functions(src, "test_", &n, &err) : NULL;
    if (!names) {
        report(tap, false, path, NULL, true, err.msg ? err.msg : "cannot read the file");
        ts_error_clear(&err);
        ts_source_release(src);
        return;
    }
    if (n == 0)
        fprintf(tap->out, "# %s defines no test_* function\n", path);
    for (size_t i = 0; i < n; i++) {
        run_test(rt, src, names[i], &err);
        report(tap, err.code == 0, path, names[i], several, err.msg ? err.msg : "failed");
        ts_error_clear(&err);
    }
    ts_free_names(names, n);
    ts_source_release(src);
}

int ts_cli_test(const char *config, int argc, char **argv)
{
    const char *backend = NULL;
    int first = 0;
    for (int b; first < argc && (b = ts_cli_backend_option(argc, argv, &first, &backend));
         first++)
        if (b == TS_EXIT_USAGE)
            return b;
    argc -= first;
    argv += first;
    if (argc == 0) {
        fprintf(stderr, "tscript test: needs FILE.py ...\n");
        return TS_EXIT_USAGE;
    }
    for (int i = 0; i < argc; i++)
        if (argv[i][0] == '-') {
            fprintf(stderr, "tscript test: unknown option '%s'\n", argv[i]);
            return TS_EXIT_USAGE;
        }
    /* TAP keeps the real stdout; the tests' print() output goes to stderr */
    fflush(stdout);
    int tap_fd = dup(STDOUT_FILENO);
    FILE *out = tap_fd >= 0 ? fdopen(tap_fd, "w") : NULL;
    if (!out || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        perror("tscript test");
        if (out)
            fclose(out);
        else if (tap_fd >= 0)
            close(tap_fd);
        return 1;
    }
    Tap tap = { out, 0, 0 };
    TsRuntime *rt = ts_cli_runtime(config, backend);
    if (rt) {
        for (int i = 0; i < argc; i++)
            test_file(rt, &tap, argv[i], argc > 1);
        ts_runtime_close(rt);
    } else {
        report(&tap, false, "the runtime", NULL, true, "cannot open the runtime");
    }
    fprintf(out, "1..%zu\n", tap.n);
    fclose(out);
    return tap.failed ? 1 : 0;
}
