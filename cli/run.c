/* run.c — `tscript run [-f NAME] [-o OUT] FILE [INPUT ...]`: call one function of a
 * TorchScript file, or one method of a model saved by torch.jit.save.
 *
 * FILE.py is compiled and NAME (default main) called; MODEL.pt is loaded and its method
 * NAME (default forward) called on the root module; FILE "-" is read from standard input
 * (a model when it is a zip archive). Each INPUT is @PATH or a TorchScript expression;
 * inputs.c says how each becomes an argument. Parameters left out take their defaults. The
 * result is printed as print() prints it, unless it is None; --output writes it to OUT
 * instead (.npy for a tensor, else a torch.save archive).
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

#define usage(...) ts_cli_usage(&ts_cli_run_command, __VA_ARGS__)

typedef struct RunArgs {
    TsCliProgram prog;         /* FILE */
    TsCliInputs in;            /* NAME and the INPUTs (inputs.c); in.prog is &prog */
    const char *output;
    const char *backend;       /* --backend, else NULL */
} RunArgs;

/* The result: printed, or written to --output. */
static int finish(TsRuntime *rt, const RunArgs *ra, TsValue out)
{
    TsError err = TS_ERROR_INIT;
    if (ra->output) {          /* the file holds host memory: the result's tensors go there */
        ts_value_retain(out);
        int rc = ts_value_to_backend(rt, &out, "cpu", &err) == 0 &&
                 ts_value_save(ra->output, out, &err) == 0;
        ts_value_release(out);
        return rc ? 0 : ts_cli_error(ra->output, &err, "cannot write the result");
    }
    if (out.tag == TS_TAG_NONE)
        return 0;
    TsBuf b = TS_BUF_INIT;
    int status = 0;
    if (ts_print_line(rt, &out, 1, &b, &err) == 0 && ts_buf_check(&b, &err) == 0)
        fwrite(b.p ? b.p : "", 1, b.len, stdout);  /* ts_cli_flush_stdout checks it */
    else
        status = ts_cli_error(ra->in.prog->name, &err, "cannot print the result");
    ts_buf_free(&b);
    return status;
}

/* Gathers f's arguments, runs it, then prints or writes the result. */
static int call(TsRuntime *rt, const RunArgs *ra, TsScript *inputs, const TsMethod *f)
{
    TsValue vals[TS_CLI_MAX_INPUTS];
    size_t n_vals = 0;
    int status = ts_cli_inputs_gather(rt, inputs, &ra->in, f, vals, &n_vals);
    if (status == 0) {
        TsError err = TS_ERROR_INIT;
        TsValue out;
        if (ts_method_call(f, vals, n_vals, &out, &err) != 0) {
            fflush(stdout);
            status = ts_cli_error(ra->in.prog->name, &err, "the program failed");
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
    TsScript *s = ts_cli_inputs_compile(rt, &ra->in, &status);
    if (!s)
        return status;
    TsError err = TS_ERROR_INIT;
    TsMethod *f = ts_script_find_function(s, ra->in.name, &err);
    if (f)
        status = call(rt, ra, s, f);
    else if (err.code != TS_ERR_KEY)   /* out of memory, not a name the file lacks */
        status = ts_cli_error(ra->in.prog->name, &err, "cannot find the function");
    else
        status = usage("no function '%s' in %s", ra->in.name, ra->in.prog->name);
    ts_error_clear(&err);
    ts_method_free(f);
    ts_script_free(s);
    return status;
}

static int run_archive(TsRuntime *rt, const RunArgs *ra)
{
    TsError err = TS_ERROR_INIT;
    TsModule *m = ts_cli_load_model(rt, ra->in.prog);
    if (!m)
        return TS_EXIT_FAIL;
    int status = 0;
    TsMethod *f = ts_module_find_method(m, ra->in.name, &err);
    TsScript *inputs = NULL;
    if (!f && err.code != TS_ERR_KEY) {
        status = ts_cli_error(ra->in.prog->name, &err, "the method does not compile");
    } else if (!f) {
        ts_error_clear(&err);
        status = usage("the model %s has no method '%s'", ra->in.prog->name, ra->in.name);
    } else {
        inputs = ts_cli_inputs_compile(rt, &ra->in, &status);
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
    RunArgs ra = { .in = { .cmd = &ts_cli_run_command } };
    ra.in.prog = &ra.prog;
    int c;
    while ((c = ts_cli_getopt(&ts_cli_run_command, argc, argv, ":f:o:h", opts)) != -1) {
        if (c == 'f')
            ra.in.name = optarg;
        else if (c == 'o')
            ra.output = optarg;
        else if (c == 'b')
            ra.backend = optarg;
        else
            return c == 'h' ? ts_cli_help(&ts_cli_run_command, stdout) : TS_EXIT_USAGE;
    }
    if (optind == argc)
        return usage("needs a FILE.py or a MODEL.pt");
    ra.in.inputs = argv + optind + 1;
    ra.in.n_inputs = argc - optind - 1;
    if (ra.in.n_inputs > TS_CLI_MAX_INPUTS)
        return usage("too many inputs (%d, at most %d)", ra.in.n_inputs, TS_CLI_MAX_INPUTS);
    if (ts_cli_program_open(&ra.prog, argv[optind], false) != 0)
        return TS_EXIT_FAIL;
    if (!ra.in.name)
        ra.in.name = ra.prog.archive ? "forward" : "main";
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
