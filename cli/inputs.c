/* inputs.c — the INPUTs of `tscript run` and `tscript graph --optimized`: compiling the
 * expression INPUTs and turning every INPUT into the value of its parameter (see cli.h).
 *
 * An INPUT is
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
 * error of the command. Parameters left out take their defaults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
static int source_with_args(TsBuf *b, const char *text, size_t len, const TsCliInputs *ra,
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
            ts_cli_usage(ra->cmd, "argument %d is not a TorchScript expression: %s", i + 1,
                         arg);
            return -1;
        }
        ts_buf_printf(b, "def __tscript_arg_%d():\n    return (%s\n)\n", i, arg);
    }
    return 0;
}

/* Compiles the expression INPUTs (and, for a .py FILE, the file with NAME) into a script:
 * NULL with *status 0 when there is nothing to compile, else NULL with the message printed
 * and *status set on failure. */
TsScript *ts_cli_inputs_compile(TsRuntime *rt, const TsCliInputs *ra, int *status)
{
    TsError err = TS_ERROR_INIT;
    bool file = !ra->prog->archive;
    /* a model's INPUTs see what a TorchScript file usually imports */
    static const char prelude[] = "import math\nimport torch\nimport torch.nn.functional as F\n"
                                  "from typing import Dict, List, Optional, Tuple\n";
    const char *name = file ? ra->prog->name : "<arguments>";
    TsBuf src = TS_BUF_INIT;
    if (source_with_args(&src, file ? ra->prog->data : prelude,
                         file ? ra->prog->size : sizeof prelude - 1, ra, &err) != 0 ||
        ts_buf_check(&src, &err) != 0) {
        /* not an expression (a usage error, printed), or out of memory */
        *status = err.code ? ts_cli_error(name, &err, "out of memory") : TS_EXIT_USAGE;
        ts_buf_free(&src);
        return NULL;
    }
    const char *entries[TS_CLI_MAX_INPUTS + 1];
    char names[TS_CLI_MAX_INPUTS][32];
    int index[TS_CLI_MAX_INPUTS + 1];
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
        *status = ts_cli_usage(ra->cmd, "%s", err.msg ? err.msg : "no such function");
        ts_error_clear(&err);
    } else if (index[failed] >= 0) {
        char what[64];
        snprintf(what, sizeof what, "argument %d", index[failed] + 1);
        *status = ts_cli_error(what, &err, "does not compile");
    } else {
        *status = ts_cli_error(ra->prog->name, &err, "compilation failed");
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
static int input_value(TsRuntime *rt, TsScript *inputs, const TsCliInputs *ra, int i,
                       const TsMethod *f, TsValue *out)
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
            ts_cli_usage(ra->cmd, "%s(): argument %d ('%s') is not a value of type '%s' for "
                         "argument '%s': %s",
                  ra->name, i + 1, arg, want, pname ? pname : "?", err.msg ? err.msg : "");
            ts_error_clear(&err);
            ts_value_release(*out);
            return TS_EXIT_USAGE;
        }
        /* a file's tensors go where the program's are made: the default backend */
        if (ts_value_to_backend(rt, out, NULL, &err) != 0) {
            ts_value_release(*out);
            return ts_cli_error(arg + 1, &err, "cannot move the value to the default backend");
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
        ts_cli_usage(ra->cmd, "%s(): expected a value of type '%s' for argument '%s' but "
                     "argument %d ('%s') "
              "is of type '%s'", ra->name, want, pname ? pname : "?", i + 1, arg, got);
        ts_value_release(*out);
        return TS_EXIT_USAGE;
    }
    return 0;
}

/* The INPUTs for f's parameters, then the defaults of the rest; vals holds n_vals values
 * (references) either way. */
int ts_cli_inputs_gather(TsRuntime *rt, TsScript *inputs, const TsCliInputs *ra,
                         const TsMethod *f, TsValue *vals, size_t *n_vals)
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
        return ts_cli_usage(ra->cmd, "%s() takes %s argument%s but %d %s given", ra->name, want,
                     n_params == 1 ? "" : "s", ra->n_inputs, ra->n_inputs == 1 ? "was" : "were");
    }
    for (size_t i = 0; i < n_params; i++) {
        if (i >= (size_t)ra->n_inputs) {
            ts_method_arg_default(f, i, &dflt);
            ts_value_retain(dflt);
            vals[(*n_vals)++] = dflt;
            continue;
        }
        int status = input_value(rt, inputs, ra, (int)i, f, &vals[*n_vals]);
        if (status != 0)
            return status;
        ++*n_vals;
    }
    return 0;
}

