/* run.c — `tscript run [-f NAME] [-o OUT] FILE [INPUT ...]`: call one function of a
 * TorchScript file, or one method of a model saved by torch.jit.save.
 *
 * FILE.py is compiled and NAME (default main) called; MODEL.pt is loaded and its method
 * NAME (default forward) called on the root module; FILE "-" is read from standard input
 * (a model when it is a zip archive). Each INPUT is
 *   - @PATH: the value in a file, a torch.save archive (a tensor, or lists, tuples and dicts
 *     of them) or a NumPy .npy array, told apart by content;
 *   - else a TorchScript expression. For FILE.py it is evaluated in the file's scope (it may
 *     use the file's classes and functions), as a function of its own appended to the file,
 *
 *         def __tscript_arg_0():
 *             return (EXPR)
 *
 *     compiled in the same unit as NAME and run before it; for MODEL.pt such functions make
 *     a file of their own.
 * An int passed for a float parameter is converted, as a Python caller's would be; a value
 * read from a file takes the parameter's type when it conforms to it (its lists and dicts
 * are untyped in the file); anything else that is not of the parameter's type is a usage
 * error. Parameters left out take their defaults. The result is printed as print() prints
 * it, unless it is None; --output writes it to OUT instead (.npy for a tensor, else a
 * torch.save archive).
 *
 * Exit status: 0, 1 for a compile, load or run-time error ("tscript: FILE:" and the message
 * as PyTorch prints it, for run-time errors with the TorchScript traceback), 2 for bad
 * usage: no such function, the wrong number or types of arguments, an INPUT that is not an
 * expression. An INPUT that starts with '-' (a negative number) goes after "--".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { MAX_RUN_ARGS = 64 };

#define usage(...) ts_cli_usage(&ts_cli_run_command, __VA_ARGS__)

typedef struct RunArgs {
    TsCliProgram prog;         /* FILE */
    const char *name, *output;
    const char *backend;       /* --backend, else NULL */
    char **inputs;
    int n_inputs;
} RunArgs;

static bool is_file_input(const char *arg) { return arg[0] == '@'; }

/* Whether text is one top-level statement (an INPUT wrapped in a function must stay one):
 * 1 or 0, or -1 with err set when out of memory. */
static int one_statement(const TsBuf *text, TsError *err)
{
    TsOutline *o = ts_buf_check(text, err) ? NULL
                   : ts_outline_parse("<argument>", text->p, text->len, err);
    int one = o && ts_outline_size(o) == 1;
    ts_outline_free(o);
    if (err->code == TS_ERR_NOMEM)
        return -1;
    ts_error_clear(err);
    return one;
}

/* text (a file's, or empty) with a wrapper function per expression INPUT appended (see the
 * header) into b; -1 with a usage message printed when an INPUT is not a single expression,
 * or with err set when out of memory. */
static int source_with_args(TsBuf *b, const char *text, size_t len, const RunArgs *ra,
                            TsError *err)
{
    ts_buf_add(b, text, len);
    ts_buf_puts(b, "\n\n");
    for (int i = 0; i < ra->n_inputs; i++) {
        const char *arg = ra->inputs[i];
        if (is_file_input(arg))
            continue;
        /* an INPUT is checked alone first, so that "1) + (2" cannot splice into the file */
        TsBuf one = TS_BUF_INIT;
        ts_buf_printf(&one, "def __tscript_arg():\n    return (%s\n)\n", arg);
        int single = one_statement(&one, err);
        ts_buf_free(&one);
        if (single < 0)
            return -1;
        if (!single) {
            usage("argument %d is not a TorchScript expression: %s", i + 1, arg);
            return -1;
        }
        ts_buf_printf(b, "def __tscript_arg_%d():\n    return (%s\n)\n", i, arg);
    }
    return 0;
}

/* Compiles the expression INPUTs (and, for a .py FILE, the file with NAME) into a script:
 * NULL with *status 0 when there is nothing to compile, else NULL with the message printed
 * and *status set on failure. */
static TsScript *compile_inputs(TsRuntime *rt, const RunArgs *ra, int *status)
{
    TsError err = TS_ERROR_INIT;
    bool file = !ra->prog.archive;
    /* a model's INPUTs see what a TorchScript file usually imports */
    static const char prelude[] = "import math\nimport torch\nimport torch.nn.functional as F\n"
                                  "from typing import Dict, List, Optional, Tuple\n";
    const char *name = file ? ra->prog.name : "<arguments>";
    TsBuf src = TS_BUF_INIT;
    if (source_with_args(&src, file ? ra->prog.data : prelude,
                         file ? ra->prog.size : sizeof prelude - 1, ra, &err) != 0 ||
        ts_buf_check(&src, &err) != 0) {
        /* not an expression (a usage error, printed), or out of memory */
        *status = err.code ? ts_cli_error(name, &err, "out of memory") : TS_EXIT_USAGE;
        ts_buf_free(&src);
        return NULL;
    }
    const char *entries[MAX_RUN_ARGS + 1];
    char names[MAX_RUN_ARGS][32];
    int index[MAX_RUN_ARGS + 1];
    size_t n = 0;
    if (file) {
        index[n] = -1;
        entries[n++] = ra->name;
    }
    for (int i = 0; i < ra->n_inputs; i++) {
        if (is_file_input(ra->inputs[i]))
            continue;
        snprintf(names[i], sizeof names[i], "__tscript_arg_%d", i);
        index[n] = i;
        entries[n++] = names[i];
    }
    size_t failed = 0;
    TsScript *s = n ? ts_script_compile_entries(rt, name, src.p, src.len, entries, n, &failed,
                                                &err)
                    : NULL;
    ts_buf_free(&src);
    *status = 0;
    if (s || !n)
        return s;
    if (err.code == TS_ERR_KEY) {
        *status = usage("%s", err.msg ? err.msg : "no such function");
        ts_error_clear(&err);
    } else if (index[failed] >= 0) {
        char what[64];
        snprintf(what, sizeof what, "argument %d", index[failed] + 1);
        *status = ts_cli_error(what, &err, "does not compile");
    } else {
        *status = ts_cli_error(ra->prog.name, &err, "compilation failed");
    }
    return NULL;
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

/* The value of INPUT i for parameter i of f: read from its file, or its expression (a
 * function of inputs) evaluated. */
static int input_value(TsScript *inputs, const RunArgs *ra, int i, const TsMethod *f,
                       TsValue *out)
{
    TsError err = TS_ERROR_INIT;
    const char *arg = ra->inputs[i];
    const TsType *type = ts_method_arg_type(f, (size_t)i);
    const char *pname = ts_method_arg_name(f, (size_t)i);
    char want[256], got[256];
    ts_type_annotation(type, want, sizeof want);
    if (is_file_input(arg)) {
        if (ts_value_load(arg + 1, out, &err) != 0)
            return ts_cli_error(arg + 1, &err, "cannot read the file");
        int rc = fit_arg(out, ts_value_type(*out), type) ? 0
                 : ts_value_conform(*out, type, &err);
        if (rc != 0) {
            usage("%s(): argument %d ('%s') is not a value of type '%s' for argument '%s': %s",
                  ra->name, i + 1, arg, want, pname ? pname : "?", err.msg ? err.msg : "");
            ts_error_clear(&err);
            ts_value_release(*out);
            return TS_EXIT_USAGE;
        }
        return 0;
    }
    char q[64];
    snprintf(q, sizeof q, "__tscript_arg_%d", i);
    TsMethod *af = inputs ? ts_script_find_function(inputs, q, &err) : NULL;
    if (!af || ts_method_call(af, NULL, 0, out, &err) != 0) {
        char what[64];
        snprintf(what, sizeof what, "argument %d", i + 1);
        ts_method_free(af);
        return ts_cli_error(what, &err, "cannot evaluate the argument");
    }
    const TsType *from = ts_method_return_type(af);
    ts_method_free(af);
    if (!fit_arg(out, from, type)) {
        ts_type_annotation(from, got, sizeof got);
        usage("%s(): expected a value of type '%s' for argument '%s' but argument %d ('%s') "
              "is of type '%s'", ra->name, want, pname ? pname : "?", i + 1, arg, got);
        ts_value_release(*out);
        return TS_EXIT_USAGE;
    }
    return 0;
}

/* The INPUTs for f's parameters, then the defaults of the rest; vals holds n_vals values
 * (references) either way. */
static int gather_args(TsScript *inputs, const RunArgs *ra, const TsMethod *f, TsValue *vals,
                       size_t *n_vals)
{
    size_t n_params = ts_method_num_args(f);
    size_t need = 0;           /* the parameters up to the last one without a default */
    TsValue dflt;
    for (size_t i = 0; i < n_params; i++)
        if (!ts_method_arg_default(f, i, &dflt))
            need = i + 1;
    if ((size_t)ra->n_inputs < need || (size_t)ra->n_inputs > n_params) {
        char want[64];
        if (need == n_params)
            snprintf(want, sizeof want, "%zu", need);
        else
            snprintf(want, sizeof want, "%zu to %zu", need, n_params);
        return usage("%s() takes %s argument%s but %d %s given", ra->name, want,
                     n_params == 1 ? "" : "s", ra->n_inputs, ra->n_inputs == 1 ? "was" : "were");
    }
    for (size_t i = 0; i < n_params; i++) {
        if (i >= (size_t)ra->n_inputs) {
            ts_method_arg_default(f, i, &dflt);
            ts_value_retain(dflt);
            vals[(*n_vals)++] = dflt;
            continue;
        }
        int status = input_value(inputs, ra, (int)i, f, &vals[*n_vals]);
        if (status != 0)
            return status;
        ++*n_vals;
    }
    return 0;
}

/* The result: printed, or written to --output. */
static int finish(TsRuntime *rt, const RunArgs *ra, TsValue out)
{
    TsError err = TS_ERROR_INIT;
    if (ra->output)
        return ts_value_save(ra->output, out, &err) == 0 ? 0
               : ts_cli_error(ra->output, &err, "cannot write the result");
    if (out.tag == TS_TAG_NONE)
        return 0;
    TsBuf b = TS_BUF_INIT;
    int status = 0;
    if (ts_print_line(rt, &out, 1, &b, &err) == 0 && ts_buf_check(&b, &err) == 0)
        fwrite(b.p ? b.p : "", 1, b.len, stdout);  /* ts_cli_flush_stdout checks it */
    else
        status = ts_cli_error(ra->prog.name, &err, "cannot print the result");
    ts_buf_free(&b);
    return status;
}

/* Gathers f's arguments, runs it, then prints or writes the result. */
static int call(TsRuntime *rt, const RunArgs *ra, TsScript *inputs, const TsMethod *f)
{
    TsValue vals[MAX_RUN_ARGS];
    size_t n_vals = 0;
    int status = gather_args(inputs, ra, f, vals, &n_vals);
    if (status == 0) {
        TsError err = TS_ERROR_INIT;
        TsValue out;
        if (ts_method_call(f, vals, n_vals, &out, &err) != 0) {
            fflush(stdout);
            status = ts_cli_error(ra->prog.name, &err, "the program failed");
        } else {
            status = finish(rt, ra, out);
        }
        ts_value_release(out);
    }
    for (size_t i = 0; i < n_vals; i++)
        ts_value_release(vals[i]);
    return status;
}

static int run_file(TsRuntime *rt, const RunArgs *ra)
{
    int status = 0;
    TsScript *s = compile_inputs(rt, ra, &status);
    if (!s)
        return status;
    TsError err = TS_ERROR_INIT;
    TsMethod *f = ts_script_find_function(s, ra->name, &err);
    if (f)
        status = call(rt, ra, s, f);
    else if (err.code != TS_ERR_KEY)   /* out of memory, not a name the file lacks */
        status = ts_cli_error(ra->prog.name, &err, "cannot find the function");
    else
        status = usage("no function '%s' in %s", ra->name, ra->prog.name);
    ts_error_clear(&err);
    ts_method_free(f);
    ts_script_free(s);
    return status;
}

static int run_archive(TsRuntime *rt, const RunArgs *ra)
{
    TsError err = TS_ERROR_INIT;
    TsModule *m = ts_cli_load_model(rt, &ra->prog);
    if (!m)
        return TS_EXIT_FAIL;
    int status = 0;
    TsMethod *f = ts_module_find_method(m, ra->name, &err);
    TsScript *inputs = NULL;
    if (!f && err.code != TS_ERR_KEY) {
        status = ts_cli_error(ra->prog.name, &err, "the method does not compile");
    } else if (!f) {
        ts_error_clear(&err);
        status = usage("the model %s has no method '%s'", ra->prog.name, ra->name);
    } else {
        inputs = compile_inputs(rt, ra, &status);
        if (status == 0)
            status = call(rt, ra, inputs, f);
    }
    ts_script_free(inputs);
    ts_method_free(f);
    ts_module_free(m);
    return status;
}

static int run_main(const TsCliGlobal *g, int argc, char **argv)
{
    static const struct option opts[] = {
        { "function", required_argument, NULL, 'f' },
        { "output", required_argument, NULL, 'o' },
        { "backend", required_argument, NULL, 'b' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    RunArgs ra = { .name = NULL };
    int c;
    while ((c = ts_cli_getopt(&ts_cli_run_command, argc, argv, ":f:o:h", opts)) != -1) {
        if (c == 'f')
            ra.name = optarg;
        else if (c == 'o')
            ra.output = optarg;
        else if (c == 'b')
            ra.backend = optarg;
        else
            return c == 'h' ? ts_cli_help(&ts_cli_run_command, stdout) : TS_EXIT_USAGE;
    }
    if (optind == argc)
        return usage("needs a FILE.py or a MODEL.pt");
    ra.inputs = argv + optind + 1;
    ra.n_inputs = argc - optind - 1;
    if (ra.n_inputs > MAX_RUN_ARGS)
        return usage("too many inputs (%d, at most %d)", ra.n_inputs, MAX_RUN_ARGS);
    if (ts_cli_program_open(&ra.prog, argv[optind], false) != 0)
        return TS_EXIT_FAIL;
    if (!ra.name)
        ra.name = ra.prog.archive ? "forward" : "main";
    TsRuntime *rt = ts_cli_runtime(g, ra.backend);
    int status = TS_EXIT_FAIL;
    if (rt)
        status = ra.prog.archive ? run_archive(rt, &ra) : run_file(rt, &ra);
    ts_runtime_close(rt);
    ts_cli_program_close(&ra.prog);
    return status;
}

const TsCliCommand ts_cli_run_command = {
    "run", "[-f NAME] [-o OUT] [--backend NAME] FILE [INPUT...]",
    "call a function of FILE.py or a method of a saved MODEL.pt",
    "FILE.py: compile it and call function NAME (default main). MODEL.pt (saved by\n"
    "torch.jit.save): load it and call its method NAME (default forward). FILE '-' is read\n"
    "from standard input (a model when it is a zip archive). An INPUT is @PATH (a\n"
    "torch.save or .npy file) or a TorchScript expression, evaluated in FILE.py's scope;\n"
    "one that starts with '-' goes after '--' (tscript run f.py -- -1). Parameters left\n"
    "out take their defaults. The result is printed as print() prints it, unless it is\n"
    "None, or written to OUT. Exits 1 when the program does not compile or raises (with\n"
    "PyTorch's message and traceback), 2 for bad arguments.\n\n"
    "options:\n"
    "  -f, --function NAME   the function or method to call\n"
    "  -o, --output OUT      write the result to OUT: .npy for a tensor (numpy.load reads\n"
    "                        it), else a torch.save file (torch.load reads it)\n"
    "      --backend NAME    create tensors without a device= on backend NAME (overrides\n"
    "                        the config's default_backend)\n"
    "  -h, --help            print this help",
    run_main,
};
