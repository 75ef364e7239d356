/* cli_run.c — `tscript run FILE.py [-f NAME] [ARG ...]`: compile a file, call one function.
 *
 * Each ARG is a TorchScript expression evaluated in the file's scope, so it may use torch,
 * the file's classes and functions: `tscript run lstm.py -f cell 'torch.ones(2, 4)' 3`.
 * An ARG becomes a function of its own appended to the file's text,
 *
 *     def __tscript_arg_0():
 *         return (EXPR)
 *
 * compiled in the same unit as NAME and run before it; its result is the argument. An int
 * passed for a float parameter is converted, as a Python caller's would be; any other type
 * that is not a subtype of the parameter's is a usage error. Parameters left out take their
 * defaults. The result is printed as print() prints it, unless it is None.
 *
 * Exit status: 0, 1 for a compile or run-time error (the message as PyTorch prints it, for
 * run-time errors with the TorchScript traceback), 2 for bad usage: no such function, the
 * wrong number or types of arguments, an ARG that is not an expression.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compile.h"
#include "parser.h"
#include "print.h"
#include "runtime.h"
#include "sched/interp.h"
#include "strbuf.h"

enum { MAX_RUN_ARGS = 64 };

static int usage(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "tscript run: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n");
    return TS_EXIT_USAGE;
}

/* An error's message on stderr, ending in exactly one newline. */
static void print_error(const TsError *err, const char *fallback)
{
    const char *m = err->msg ? err->msg : fallback;
    size_t n = strlen(m);
    fprintf(stderr, "%s%s", m, n && m[n - 1] == '\n' ? "" : "\n");
}

/* The file's text with a wrapper function per ARG appended (see the header), or NULL with
 * a usage message printed when an ARG is not a single expression. */
static TsSource *source_with_args(const TsSource *file, int n, char **args, TsError *err)
{
    TsBuf b = TS_BUF_INIT;
    ts_buf_add(&b, file->text, file->len);
    ts_buf_puts(&b, "\n\n");
    for (int i = 0; i < n; i++) {
        /* an ARG is checked alone first, so that "1) + (2" cannot splice into the file */
        TsBuf one = TS_BUF_INIT;
        ts_buf_printf(&one, "def __tscript_arg():\n    return (%s\n)\n", args[i]);
        TsSource *s = ts_buf_check(&one, err) ? NULL
                      : ts_source_new("<argument>", one.p, one.len, err);
        ts_buf_free(&one);
        TsTree *t = s ? ts_parse_module(s, err) : NULL;
        bool single = t && t->n_kids == 1;
        ts_tree_free(t);
        ts_source_release(s);
        if (!single) {
            char num[16];
            snprintf(num, sizeof num, "%d", i + 1);
            usage("argument %s is not a TorchScript expression: %s", num, args[i]);
            ts_buf_free(&b);
            return NULL;
        }
        ts_buf_printf(&b, "def __tscript_arg_%d():\n    return (%s\n)\n", i, args[i]);
    }
    TsSource *s = ts_buf_check(&b, err) ? NULL
                  : ts_source_new(file->filename, b.p, b.len, err);
    ts_buf_free(&b);
    if (!s)
        print_error(err, "out of memory");
    return s;
}

/* Converts *v to the parameter's type where a Python caller would (int to float) and says
 * whether it then fits. */
static bool fit_arg(TsValue *v, const TsType *from, const TsType *to)
{
    if (ts_type_is_subtype_of(from, to))
        return true;
    if (v->tag == TS_TAG_INT && ts_type_is_subtype_of(ts_type_float(), to)) {
        *v = ts_double((double)v->u.i);
        return true;
    }
    return false;
}

typedef struct RunArgs {
    const char *file, *name;
    char **exprs;
    int n_exprs;
} RunArgs;

static int parse_args(int argc, char **argv, RunArgs *ra)
{
    ra->name = "main";
    bool options = true;
    for (int i = 0; i < argc; i++) {
        if (options && strcmp(argv[i], "--") == 0) {
            options = false;
        } else if (options && strcmp(argv[i], "-f") == 0) {
            if (++i == argc)
                return usage("%s needs a NAME%s", "-f", "");
            ra->name = argv[i];
        } else if (!ra->file) {
            ra->file = argv[i];
        } else {
            if (!ra->exprs)
                ra->exprs = argv + i;
            else if (ra->exprs + ra->n_exprs != argv + i)
                return usage("options go before the arguments: '%s'%s", argv[i - 1], "");
            ra->n_exprs++;
        }
    }
    if (!ra->file)
        return usage("needs a FILE.py%s%s", "", "");
    if (ra->n_exprs > MAX_RUN_ARGS)
        return usage("too many arguments%s%s", "", "");
    size_t len = strlen(ra->file);
    if (len > 3 && strcmp(ra->file + len - 3, ".pt") == 0) {
        fprintf(stderr, "tscript run: %s: loading .pt archives is not supported yet\n",
                ra->file);
        return 1;
    }
    return 0;
}

/* Evaluates the ARGs and fills the rest of the parameters with their defaults. */
static int gather_args(TsRuntime *rt, TsCompUnit *u, const RunArgs *ra, const TsFunction *f,
                       TsValue *vals, size_t *n_vals)
{
    const TsSchema *sc = f->schema;
    size_t n_params = sc ? sc->n_args : 0;
    size_t need = 0;           /* the parameters up to the last one without a default */
    for (size_t i = 0; i < n_params; i++)
        if (!sc->args[i].has_default)
            need = i + 1;
    if ((size_t)ra->n_exprs < need || (size_t)ra->n_exprs > n_params) {
        char want[64];
        if (need == n_params)
            snprintf(want, sizeof want, "%zu", need);
        else
            snprintf(want, sizeof want, "%zu to %zu", need, n_params);
        fprintf(stderr, "tscript run: %s() takes %s argument%s but %d %s given\n", ra->name,
                want, n_params == 1 ? "" : "s", ra->n_exprs, ra->n_exprs == 1 ? "was" : "were");
        return TS_EXIT_USAGE;
    }
    *n_vals = 0;
    for (size_t i = 0; i < n_params; i++) {
        const TsArg *p = &sc->args[i];
        if (i >= (size_t)ra->n_exprs) {
            ts_value_retain(p->default_value);
            vals[(*n_vals)++] = p->default_value;
            continue;
        }
        char q[64];
        snprintf(q, sizeof q, "__torch__.__tscript_arg_%zu", i);
        TsFunction *af = ts_unit_find(u, q);
        TsError err = TS_ERROR_INIT;
        TsValue v;
        if (!af || ts_run(rt, u, af, NULL, 0, &v, &err) != 0) {
            print_error(&err, "cannot evaluate an argument");
            ts_error_clear(&err);
            return 1;
        }
        const TsType *from = af->schema && af->schema->n_returns ? af->schema->returns[0].type
                                                                 : ts_value_type(v);
        if (!fit_arg(&v, from, p->type)) {
            char want[256], got[256];
            ts_type_annotation(p->type, want, sizeof want);
            ts_type_annotation(from, got, sizeof got);
            fprintf(stderr, "tscript run: %s(): expected a value of type '%s' for argument "
                    "'%s' but argument %zu ('%s') is of type '%s'\n", ra->name, want,
                    p->name ? p->name : "?", i + 1, ra->exprs[i], got);
            ts_value_release(v);
            return TS_EXIT_USAGE;
        }
        vals[(*n_vals)++] = v;
    }
    return 0;
}

/* Compiles, evaluates the arguments, runs, prints. */
static int run_file(TsRuntime *rt, const RunArgs *ra)
{
    TsError err = TS_ERROR_INIT;
    TsSource *file = ts_source_read_file(ra->file, &err);
    if (!file) {
        print_error(&err, "cannot read the file");
        ts_error_clear(&err);
        return 1;
    }
    TsSource *src = ra->n_exprs ? source_with_args(file, ra->n_exprs, ra->exprs, &err) : file;
    if (src != file)
        ts_source_release(file);
    if (!src) {
        ts_error_clear(&err);
        return TS_EXIT_USAGE;
    }
    const char *entries[MAX_RUN_ARGS + 1];
    char names[MAX_RUN_ARGS][32];
    entries[0] = ra->name;
    for (int i = 0; i < ra->n_exprs; i++) {
        snprintf(names[i], sizeof names[i], "__tscript_arg_%d", i);
        entries[i + 1] = names[i];
    }
    size_t failed = 0;
    TsCompUnit *u = ts_compile_entries(ts_runtime_optable(rt), src, entries,
                                       (size_t)ra->n_exprs + 1, &failed, &err);
    ts_source_release(src);
    if (!u) {
        int status = err.code == TS_ERR_USAGE ? TS_EXIT_USAGE : 1;
        if (status == TS_EXIT_USAGE)
            fprintf(stderr, "tscript run: ");
        else if (failed > 0)
            fprintf(stderr, "tscript run: argument %zu ('%s') does not compile:\n", failed,
                    ra->exprs[failed - 1]);
        print_error(&err, "compilation failed");
        ts_error_clear(&err);
        return status;
    }
    char qual[512];
    snprintf(qual, sizeof qual, "__torch__.%s", ra->name);
    TsFunction *f = ts_unit_find(u, qual);
    TsValue vals[MAX_RUN_ARGS];
    size_t n_vals = 0;
    int status = f ? gather_args(rt, u, ra, f, vals, &n_vals)
                   : usage("no function '%s' in %s", ra->name, ra->file);
    if (status != 0) {
        for (size_t i = 0; i < n_vals; i++)
            ts_value_release(vals[i]);
        ts_unit_free(u);
        return status;
    }
    TsValue out;
    if (ts_run(rt, u, f, vals, n_vals, &out, &err) != 0) {
        fflush(stdout);
        print_error(&err, "the program failed");
        ts_error_clear(&err);
        ts_unit_free(u);
        return 1;
    }
    if (out.tag != TS_TAG_NONE) {
        TsBuf b = TS_BUF_INIT;
        if (ts_print_line(rt, &out, 1, &b, &err) == 0) {
            fwrite(b.p ? b.p : "", 1, b.len, stdout);
        } else {
            print_error(&err, "cannot print the result");
            ts_error_clear(&err);
            status = 1;
        }
        ts_buf_free(&b);
    }
    ts_value_release(out);
    ts_unit_free(u);
    return status;
}

TsRuntime *ts_cli_runtime(const char *config)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(config, &err);
    if (!rt) {
        fprintf(stderr, "tscript: %s\n", err.msg ? err.msg : "cannot open the runtime");
        ts_error_clear(&err);
    }
    return rt;
}

int ts_cli_run(const char *config, int argc, char **argv)
{
    RunArgs ra = {0};
    int status = parse_args(argc, argv, &ra);
    if (status != 0)
        return status;
    TsRuntime *rt = ts_cli_runtime(config);
    if (!rt)
        return 1;
    status = run_file(rt, &ra);
    fflush(stdout);
    ts_runtime_close(rt);
    return status;
}
