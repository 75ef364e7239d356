/* graph.c — `tscript graph [-f NAME] FILE.py`: the IR graph the frontend makes of a function.
 *
 * Compiles FILE.py ("-": standard input) with NAME (default main; Cls.method for a method)
 * as the entry and prints its graph as PyTorch's `fn.graph` prints it. A compile error
 * exits 1 with PyTorch's message and excerpt.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frontend/compile.h"
#include "runtime.h"

/* Prints the graph of name in p's program. */
static int print_graph(TsRuntime *rt, const TsCliProgram *p, const char *name)
{
    TsError err = TS_ERROR_INIT;
    TsCompUnit *u = ts_compile_source(ts_runtime_optable(rt), p->source, name, &err);
    if (!u)
        return ts_cli_error(p->name, &err, "compilation failed");
    char qual[512];
    snprintf(qual, sizeof qual, "__torch__.%s", name);
    TsFunction *f = ts_unit_find(u, qual);
    char *text = f ? ts_graph_to_string(f->graph, false) : NULL;
    int status = 0;
    if (text)
        fputs(text, stdout);
    else
        status = ts_cli_fail(p->name, f ? "out of memory" : "no function '%s'", name);
    free(text);
    ts_unit_free(u);
    return status;
}

static int graph_main(const TsCliGlobal *g, int argc, char **argv)
{
    static const struct option opts[] = {
        { "function", required_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *name = "main";
    int c;
    while ((c = ts_cli_getopt(&ts_cli_graph_command, argc, argv, ":f:h", opts)) != -1) {
        if (c == 'f')
            name = optarg;
        else
            return c == 'h' ? ts_cli_help(&ts_cli_graph_command, stdout) : TS_EXIT_USAGE;
    }
    if (optind == argc)
        return ts_cli_usage(&ts_cli_graph_command, "needs a FILE.py");
    if (argc - optind > 1)
        return ts_cli_usage(&ts_cli_graph_command, "takes one FILE, got '%s'",
                            argv[optind + 1]);
    TsCliProgram p;
    if (ts_cli_program_open(&p, argv[optind], false) != 0)
        return TS_EXIT_FAIL;
    int status = TS_EXIT_FAIL;
    TsRuntime *rt = NULL;
    if (p.archive)
        status = ts_cli_usage(&ts_cli_graph_command, "%s is a model; graph compiles a FILE.py",
                              p.name);
    else if ((rt = ts_cli_runtime(g, NULL)))
        status = print_graph(rt, &p, name);
    ts_runtime_close(rt);
    ts_cli_program_close(&p);
    return status;
}

const TsCliCommand ts_cli_graph_command = {
    "graph", "[-f NAME] FILE.py",
    "compile FILE.py and print the graph of a function",
    "Compile FILE.py ('-': standard input) and print the graph of function NAME as PyTorch\n"
    "prints fn.graph. A compile error exits 1 with PyTorch's message.\n\n"
    "options:\n"
    "  -f, --function NAME   the function (default main; Cls.method for a method)\n"
    "  -h, --help            print this help",
    graph_main,
};
