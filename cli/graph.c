/* graph.c — `tscript graph [--optimized] [-f NAME] FILE.py [INPUT ...]`: the IR graph of a
 * function.
 *
 * Compiles FILE.py ("-": standard input) with NAME (default main; Cls.method for a method)
 * as the entry and prints its graph as PyTorch's `fn.graph` prints it, or with --optimized
 * the graph the executor runs (after the optimizer, unless --no-opt or TSCRIPT_JIT_DISABLE
 * turned it off). With INPUTs (as `tscript run` takes them, inputs.c), --optimized prints
 * the plan specialized to their tensors' dtypes, ranks, devices and requires_grad, the one
 * a call with them runs (core/sched/spec.c). A compile error exits 1 with PyTorch's message
 * and excerpt.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tscript/ir.h"

/* The index of function name ("f", "Cls.method") in s, or -1. */
static long find_function(const TsScript *s, const char *name)
{
    static const char prefix[] = "__torch__.";
    for (size_t i = 0; i < ts_script_num_functions(s); i++) {
        const char *q = ts_script_function_name(s, i);
        if (strncmp(q, prefix, sizeof prefix - 1) == 0 && strcmp(q + sizeof prefix - 1, name) == 0)
            return (long)i;
    }
    return -1;
}

static int print_text(const char *what, const TsGraph *g)
{
    TsError err = TS_ERROR_INIT;
    TsBuf text = TS_BUF_INIT;
    int status = 0;
    ts_graph_print(g, false, &text);
    if (ts_buf_check(&text, &err))
        status = ts_cli_error(what, &err, "out of memory");
    else
        fwrite(text.p, 1, text.len, stdout);
    ts_buf_free(&text);
    return status;
}

/* Prints the graph of name in p's program (the one the executor runs when optimized). */
static int print_graph(TsRuntime *rt, const TsCliProgram *p, const char *name, bool optimized)
{
    TsError err = TS_ERROR_INIT;
    /* only name and what it calls: another function's error is not this graph's */
    TsScript *s = ts_script_compile_entries(rt, p->name, p->data, p->size, &name, 1, NULL, &err);
    if (!s)
        return ts_cli_error(p->name, &err, "compilation failed");
    long i = find_function(s, name);
    const TsGraph *g = NULL;
    int status = 0;
    if (i < 0)
        status = ts_cli_fail(p->name, "no function '%s'", name);
    else if (!(g = optimized ? ts_script_function_optimized_graph(s, (size_t)i, &err)
                             : ts_script_function_graph(s, (size_t)i)))
        status = ts_cli_error(p->name, &err, "cannot build the function");
    else
        status = print_text(p->name, g);
    ts_script_free(s);
    return status;
}

/* The plan of function name specialized to the INPUTs in. */
static int print_specialized(TsRuntime *rt, const TsCliInputs *in)
{
    int status = 0;
    TsScript *s = ts_cli_inputs_compile(rt, in, &status);
    if (!s)
        return status;
    TsError err = TS_ERROR_INIT;
    TsMethod *f = ts_script_find_function(s, in->name, &err);
    TsValue vals[TS_CLI_MAX_INPUTS];
    size_t n_vals = 0;
    const TsGraph *g;
    if (!f && err.code != TS_ERR_KEY)
        status = ts_cli_error(in->prog->name, &err, "cannot find the function");
    else if (!f)
        status = ts_cli_usage(in->cmd, "no function '%s' in %s", in->name, in->prog->name);
    else if ((status = ts_cli_inputs_gather(rt, s, in, f, vals, &n_vals)) != 0)
        ;
    else if (!(g = ts_method_specialized_graph(f, vals, n_vals, &err)))
        status = ts_cli_error(in->prog->name, &err, "cannot build the function");
    else
        status = print_text(in->prog->name, g);
    ts_error_clear(&err);
    for (size_t i = 0; i < n_vals; i++)
        ts_value_release(vals[i]);
    ts_method_free(f);
    ts_script_free(s);
    return status;
}

static int graph_main(const TsCliGlobal *g, int argc, char **argv)
{
    static const struct option opts[] = {
        { "function", required_argument, NULL, 'f' },
        { "optimized", no_argument, NULL, 'O' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *name = "main";
    bool optimized = false;
    int c;
    while ((c = ts_cli_getopt(&ts_cli_graph_command, argc, argv, ":f:Oh", opts)) != -1) {
        if (c == 'f')
            name = optarg;
        else if (c == 'O')
            optimized = true;
        else
            return c == 'h' ? ts_cli_help(&ts_cli_graph_command, stdout) : TS_EXIT_USAGE;
    }
    if (optind == argc)
        return ts_cli_usage(&ts_cli_graph_command, "needs a FILE.py");
    int n_inputs = argc - optind - 1;
    if (n_inputs && !optimized)
        return ts_cli_usage(&ts_cli_graph_command,
                            "INPUTs choose a specialized plan: they need --optimized");
    if (n_inputs > TS_CLI_MAX_INPUTS)
        return ts_cli_usage(&ts_cli_graph_command, "too many inputs (%d, at most %d)",
                            n_inputs, TS_CLI_MAX_INPUTS);
    TsCliProgram p;
    if (ts_cli_program_open(&p, argv[optind], false) != 0)
        return TS_EXIT_FAIL;
    int status = TS_EXIT_FAIL;
    TsRuntime *rt = NULL;
    if (p.archive)
        status = ts_cli_usage(&ts_cli_graph_command, "%s is a model; graph compiles a FILE.py",
                              p.name);
    else if ((rt = ts_cli_runtime(g, NULL)) && n_inputs) {
        TsCliInputs in = { &ts_cli_graph_command, &p, name, argv + optind + 1, n_inputs };
        status = print_specialized(rt, &in);
    } else if (rt) {
        status = print_graph(rt, &p, name, optimized);
    }
    ts_runtime_close(rt);
    ts_cli_program_close(&p);
    return status;
}

const TsCliCommand ts_cli_graph_command = {
    "graph", "[--optimized] [-f NAME] FILE.py [INPUT...]",
    "compile FILE.py and print the graph of a function",
    "Compile FILE.py ('-': standard input) and print the graph of function NAME as PyTorch\n"
    "prints fn.graph. A compile error exits 1 with PyTorch's message. With --optimized\n"
    "and INPUTs (as 'tscript run' takes them: @PATH or a TorchScript expression), print the\n"
    "plan the executor runs for a call with them: the graph specialized to their tensors'\n"
    "dtypes, ranks, devices and requires_grad, its tensor types propagated from those.\n\n"
    "options:\n"
    "  -f, --function NAME   the function (default main; Cls.method for a method)\n"
    "  -O, --optimized       the graph the executor runs: after the optimizer's passes\n"
    "                        (unchanged under --no-opt or TSCRIPT_JIT_DISABLE=1)\n"
    "  -h, --help            print this help",
    graph_main,
};
