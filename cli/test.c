/* test.c — `tscript test FILE.py|DIR ...`: the test_* functions of TorchScript files as TAP.
 *
 * Every top-level function whose name starts with "test_" runs, in file order, with no
 * arguments (defaults apply); it passes when it returns without raising and does not return
 * False. Each test is compiled on its own, so one that does not compile fails alone. A DIR
 * stands for the *.py files under it (recursively, sorted by path); "-" is a file read from
 * standard input. The output is TAP, so prove runs a directory of such files, one file at a
 * time (`prove --ext .py --exec 'tscript test' DIR`):
 *
 *     ok 1 - test_add
 *     not ok 2 - test_div
 *     # The following operation failed in the TorchScript interpreter.
 *     # ...
 *     ok 3 - test_index_error # expected failure
 *     ok 4 - test_cuda # SKIP needs CUDA
 *     1..4
 *
 * A test is declared as PyTorch's test suites declare it, with the decorators of Python's
 * unittest (valid Python, and torch.jit.script ignores them):
 *
 *     @unittest.expectedFailure       the test must raise (or not compile, or return False):
 *                                     "ok ... # expected failure" when it does, "not ok ...
 *                                     # unexpected success" when it does not
 *     @unittest.skip("reason")        the test does not run: "ok ... # SKIP reason"
 *
 * (also as bare expectedFailure and skip("reason"), from unittest import ...). With several
 * files a test is named "FILE::test_name". TAP owns stdout, so what the tests print goes to
 * stderr. Exit status: 0 when every test passed, 1 otherwise, 2 bad usage.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum { MAX_DIR_DEPTH = 64 };

typedef enum TestKind { TEST_RUN, TEST_EXPECT_FAIL, TEST_SKIP } TestKind;

/* One test_* function of a file, as declared. */
typedef struct TestDecl {
    const char *name;          /* points into the file's outline */
    TestKind kind;
    const char *reason;        /* TEST_SKIP: the reason given, or "" */
} TestDecl;

/* The files to test, in order. */
typedef struct FileList {
    char **paths;
    size_t n, cap;
} FileList;

typedef struct Tap {
    FILE *out;
    size_t n, failed;
    bool several;              /* name tests FILE::test */
} Tap;

/* ---- TAP ------------------------------------------------------------------------------ */

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

/* One test line: directive is NULL or the text after " # "; why is printed as diagnostics
 * under a failure. */
static void report(Tap *tap, bool passed, const char *file, const char *name,
                   const char *directive, const char *why)
{
    tap->n++;
    tap->failed += !passed;
    bool named = tap->several || !name;
    fprintf(tap->out, "%s %zu - %s%s%s%s%s\n", passed ? "ok" : "not ok", tap->n,
            named ? file : "", named && name ? "::" : "", name ? name : "",
            directive ? " # " : "", directive ? directive : "");
    if (!passed)
        diag_lines(tap, why);
    fflush(tap->out);
}

/* ---- finding the files ------------------------------------------------------------------ */

static int add_path(FileList *l, const char *dir, const char *name)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **p = cap > l->cap && cap < SIZE_MAX / sizeof *p ? realloc(l->paths, cap * sizeof *p)
                                                              : NULL;
        if (!p)
            return -1;
        l->paths = p;
        l->cap = cap;
    }
    size_t dl = dir ? strlen(dir) : 0, nl = strlen(name);
    char *s = malloc(dl + nl + 2);
    if (!s)
        return -1;
    if (dir)
        snprintf(s, dl + nl + 2, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", name);
    else
        memcpy(s, name, nl + 1);
    l->paths[l->n++] = s;
    return 0;
}

static void free_files(FileList *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->paths[i]);
    free(l->paths);
}

static bool is_py(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && strcmp(name + n - 3, ".py") == 0;
}

/* Adds the *.py files under dir (not following links to directories); -1 with errno set
 * when a directory cannot be read. */
static int add_dir(FileList *l, const char *dir, int depth)
{
    if (depth > MAX_DIR_DEPTH) {
        errno = ELOOP;
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (errno = 0, e = readdir(d))) {
        if (e->d_name[0] == '.')       /* ., .., and hidden files and directories */
            continue;
        size_t before = l->n;
        if (add_path(l, dir, e->d_name) != 0) {
            rc = -1;
            break;
        }
        struct stat st;
        char *path = l->paths[before];
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            l->n--;
            rc = add_dir(l, path, depth + 1);
            free(path);
        } else if (!is_py(e->d_name) || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            l->n--;
            free(path);
        }
    }
    if (rc == 0 && errno != 0)
        rc = -1;
    int e2 = errno;
    closedir(d);
    errno = e2;
    return rc;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files the operands name: FILE, "-", or the sorted *.py files under DIR. */
static int find_files(FileList *l, int argc, char **argv)
{
    bool stdin_used = false;
    for (int i = 0; i < argc; i++) {
        struct stat st;
        if (strcmp(argv[i], "-") == 0) {
            if (stdin_used)
                return ts_cli_usage(&ts_cli_test_command, "'-' (standard input) given twice");
            stdin_used = true;
        } else if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            size_t first = l->n;
            if (add_dir(l, argv[i], 0) != 0)
                return ts_cli_fail(argv[i], "cannot read the directory: %s", strerror(errno));
            if (l->n > first)   /* an empty directory: paths may still be NULL */
                qsort(l->paths + first, l->n - first, sizeof *l->paths, by_path);
            continue;
        }
        if (add_path(l, NULL, argv[i]) != 0)
            return ts_cli_fail("test", "out of memory");
    }
    return 0;
}

/* ---- declarations ------------------------------------------------------------------------- */

/* "unittest.NAME" or a bare NAME. */
static bool is_unittest(const char *dotted, const char *name)
{
    return dotted && (strcmp(dotted, name) == 0 ||
                      (strncmp(dotted, "unittest.", 9) == 0 && strcmp(dotted + 9, name) == 0));
}

/* The kind a def's decorators declare. */
static void declare(TestDecl *t, const TsOutlineItem *def)
{
    t->kind = TEST_RUN;
    for (size_t i = 0; i < def->n_decorators; i++) {
        const TsDecorator *d = &def->decorators[i];
        if (!d->is_call && is_unittest(d->name, "expectedFailure")) {
            t->kind = TEST_EXPECT_FAIL;
        } else if (d->is_call && is_unittest(d->name, "skip")) {
            t->kind = TEST_SKIP;
            t->reason = d->n_args && d->args[0] ? d->args[0] : "";
            return;
        }
    }
}

/* The test_* functions of the file, in file order; NULL (err set) when out of memory. */
static TestDecl *list_tests(const TsOutline *o, size_t *n, TsError *err)
{
    TestDecl *tests = calloc(ts_outline_size(o) + 1, sizeof *tests);
    if (!tests)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
    *n = 0;
    for (size_t i = 0; i < ts_outline_size(o); i++) {
        const TsOutlineItem *it = ts_outline_item(o, i);
        if (it->kind != TS_OUTLINE_FUNCTION || strncmp(it->name, "test_", 5) != 0)
            continue;
        tests[*n].name = it->name;
        declare(&tests[*n], it);
        ++*n;
    }
    return tests;
}

/* ---- running ------------------------------------------------------------------------------- */

/* The arguments a test is called with: every parameter's default (the caller's
 * references in args), or err set when one has none. */
static size_t test_args(const TsMethod *f, const char *name, TsValue *args, size_t max,
                        TsError *err)
{
    size_t n = 0;
    for (size_t i = 0; i < ts_method_num_args(f); i++) {
        if (n == max || !ts_method_arg_default(f, i, &args[n])) {
            const char *arg = ts_method_arg_name(f, i);
            ts_error_set(err, TS_ERR_USAGE, "a test function takes no arguments, but %s's "
                         "'%s' has no default", name, arg ? arg : "?");
            break;
        }
        ts_value_retain(args[n++]);
    }
    return n;
}

/* Compiles and runs one test of p; err is set when it failed. */
static void run_test(TsRuntime *rt, const TsCliProgram *p, const char *name, TsError *e)
{
    TsError err = TS_ERROR_INIT;
    TsScript *s = ts_script_compile_entries(rt, p->name, p->data, p->size, &name, 1, NULL, &err);
    TsMethod *f = s ? ts_script_find_function(s, name, &err) : NULL;
    if (s && !f)
        ts_error_set(&err, TS_ERR_USAGE, "%s was not compiled", name);
    TsValue args[64];
    size_t n = f ? test_args(f, name, args, sizeof args / sizeof *args, &err) : 0;
    if (f && !err.code) {
        TsValue out;
        if (ts_method_call(f, args, n, &out, &err) == 0) {
            if (out.tag == TS_TAG_BOOL && !out.u.b)
                ts_error_set(&err, TS_ERR_ASSERT, "%s returned False", name);
            ts_value_release(out);
        }
    }
    for (size_t i = 0; i < n; i++)
        ts_value_release(args[i]);
    fflush(stdout);
    ts_method_free(f);
    ts_script_free(s);
    ts_error_move(e, &err);
}

static void run_decl(TsRuntime *rt, Tap *tap, const TsCliProgram *p, const TestDecl *t)
{
    if (t->kind == TEST_SKIP) {
        char directive[512];
        snprintf(directive, sizeof directive, "SKIP %s", t->reason);
        report(tap, true, p->name, t->name, directive, NULL);
        return;
    }
    TsError err = TS_ERROR_INIT;
    run_test(rt, p, t->name, &err);
    if (t->kind == TEST_EXPECT_FAIL)
        report(tap, err.code != 0, p->name, t->name,
               err.code ? "expected failure" : "unexpected success",
               "declared @unittest.expectedFailure, and it passed");
    else
        report(tap, err.code == 0, p->name, t->name, NULL, err.msg ? err.msg : "failed");
    ts_error_clear(&err);
}

/* The source of path ("-": standard input), or NULL with err set. */
static void read_file(TsCliProgram *p, const char *path, TsError *err)
{
    if (strcmp(path, "-") != 0) {
        *p = (TsCliProgram){ .path = path, .name = path };
        p->data = ts_read_file(path, TS_SOURCE_MAX, &p->size, err);
    } else if (ts_cli_program_open(p, path, false) != 0) {
        ts_error_set(err, TS_ERR_IO, "%s: cannot be read", p->name);
    } else if (p->archive) {
        ts_error_set(err, TS_ERR_USAGE, "%s: a model, not TorchScript source", p->name);
    }
}

static void test_file(TsRuntime *rt, Tap *tap, const char *path)
{
    TsError err = TS_ERROR_INIT;
    TsCliProgram p;
    TsOutline *o = NULL;
    TestDecl *tests = NULL;
    size_t n = 0;
    read_file(&p, path, &err);
    if (!err.code && (o = ts_outline_parse(p.name, p.data, p.size, &err)))
        tests = list_tests(o, &n, &err);
    /* a file that fails as a whole is one failed test */
    if (!tests)
        report(tap, false, p.name ? p.name : path, NULL, NULL, err.msg ? err.msg : "failed");
    else if (n == 0)
        fprintf(tap->out, "# %s defines no test_* function\n", p.name);
    ts_error_clear(&err);
    for (size_t i = 0; tests && i < n; i++)
        run_decl(rt, tap, &p, &tests[i]);
    free(tests);
    ts_outline_free(o);
    ts_cli_program_close(&p);
}

/* TAP keeps the real stdout; the tests' print() output goes to stderr. */
static FILE *tap_stream(void)
{
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (out && dup2(STDERR_FILENO, STDOUT_FILENO) >= 0)
        return out;
    ts_cli_fail("standard output", "cannot set it aside for TAP: %s", strerror(errno));
    if (out)
        fclose(out);
    else if (fd >= 0)
        close(fd);
    return NULL;
}

static int run_files(const TsCliGlobal *g, const char *backend, const FileList *files)
{
    FILE *out = tap_stream();
    if (!out)
        return TS_EXIT_FAIL;
    Tap tap = { out, 0, 0, files->n > 1 };
    TsRuntime *rt = ts_cli_runtime_full(g, backend);
    if (rt) {
        for (size_t i = 0; i < files->n; i++)
            test_file(rt, &tap, files->paths[i]);
        ts_runtime_close(rt);
    } else {
        report(&tap, false, "the runtime", NULL, NULL, "cannot open the runtime");
    }
    fprintf(out, "1..%zu\n", tap.n);
    int e = fflush(out) != 0 || ferror(out) ? errno : 0;
    if (fclose(out) != 0 && !e)
        e = errno;
    if (e)
        return ts_cli_fail("standard output", "cannot write: %s", strerror(e));
    return tap.failed ? TS_EXIT_FAIL : 0;
}

static int test_main(const TsCliGlobal *g, int argc, char **argv)
{
    static const struct option opts[] = {
        { "backend", required_argument, NULL, 'b' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *backend = NULL;
    int c, status;
    while ((c = ts_cli_getopt(&ts_cli_test_command, argc, argv, ":h", opts)) != -1) {
        if (c == 'b')
            backend = optarg;
        else
            return c == 'h' ? ts_cli_help(&ts_cli_test_command, stdout) : TS_EXIT_USAGE;
    }
    if (optind == argc)
        return ts_cli_usage(&ts_cli_test_command, "needs FILE.py or DIR");
    FileList files = { 0 };
    status = find_files(&files, argc - optind, argv + optind);
    if (status == 0)
        status = run_files(g, backend, &files);
    free_files(&files);
    return status;
}

const TsCliCommand ts_cli_test_command = {
    "test", "[--backend NAME] FILE.py|DIR...",
    "run the test_* functions of files and print TAP",
    "Run every test_* function of the files, and of the *.py files under each DIR\n"
    "(recursively, sorted), and print TAP: prove runs a directory of such files with\n"
    "prove --ext .py --exec 'tscript test' DIR. A test passes when it returns without\n"
    "raising and does not return False. Declared as in PyTorch's test suites:\n"
    "  @unittest.expectedFailure     the test must raise: 'ok # expected failure' when it\n"
    "                                does, 'not ok # unexpected success' when it does not\n"
    "  @unittest.skip(\"reason\")      the test does not run: 'ok # SKIP reason'\n"
    "FILE '-' is read from standard input. What tests print goes to stderr. Exits 1 when a\n"
    "test failed.\n\n"
    "options:\n"
    "  --backend NAME  create tensors without a device= on backend NAME (overrides the\n"
    "                  config's default_backend)\n"
    "  -h, --help      print this help",
    test_main,
};
