/* save.c — `tscript save [-f NAME] -o OUT.pt FILE`: an archive torch.jit.load reads.
 *
 * FILE.py: its function NAME (default main) is compiled and saved as torch.jit.save saves a
 * scripted function (a module whose forward calls it). MODEL.pt: the model is loaded and
 * saved again as tscript holds it, its code printed from tscript's own IR. FILE "-" is read
 * from standard input (a model when it is a zip archive). Exit status: 0, 1 when the file
 * does not compile or load or the archive cannot be written (nothing is left behind then),
 * 2 for bad usage.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "frontend/compile.h"
#include "module.h"
#include "runtime.h"
#include "serialize/save.h"

static int save_function(TsRuntime *rt, const TsCliProgram *p, const char *name,
                         const char *out)
{
    TsError err = TS_ERROR_INIT;
    TsCompUnit *u = ts_compile_source(ts_runtime_optable(rt), p->source, name, &err);
    if (!u && err.code == TS_ERR_USAGE) {
        ts_error_clear(&err);
        return ts_cli_usage(&ts_cli_save_command, "no function '%s' in %s", name, p->name);
    }
    if (!u)
        return ts_cli_error(p->name, &err, "compilation failed");
    char q[512];
    snprintf(q, sizeof q, "__torch__.%s", name);
    TsFunction *f = ts_unit_find(u, q);
    int status = 0;
    if (!f)
        status = ts_cli_usage(&ts_cli_save_command, "no function '%s' in %s", name, p->name);
    else if (ts_save_function(rt, u, f, out, &err) != 0)
        status = ts_cli_error(out, &err, "cannot write the archive");
    ts_unit_free(u);
    return status;
}

static int save_model(TsRuntime *rt, const TsCliProgram *p, const char *out)
{
    TsModule *m = ts_cli_load_model(rt, p);
    if (!m)
        return TS_EXIT_FAIL;
    TsError err = TS_ERROR_INIT;
    int status = ts_save_module(rt, m, out, &err) == 0 ? 0
                 : ts_cli_error(out, &err, "cannot write the archive");
    ts_module_free(m);
    return status;
}

static int save_main(const TsCliGlobal *g, int argc, char **argv)
{
    static const struct option opts[] = {
        { "function", required_argument, NULL, 'f' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const TsCliCommand *cmd = &ts_cli_save_command;
    const char *out = NULL, *name = NULL;
    int c;
    while ((c = ts_cli_getopt(cmd, argc, argv, ":f:o:h", opts)) != -1) {
        if (c == 'f')
            name = optarg;
        else if (c == 'o')
            out = optarg;
        else
            return c == 'h' ? ts_cli_help(cmd, stdout) : TS_EXIT_USAGE;
    }
    if (optind == argc)
        return ts_cli_usage(cmd, "needs a FILE.py or a MODEL.pt");
    if (argc - optind > 1)
        return ts_cli_usage(cmd, "takes one FILE, got '%s'", argv[optind + 1]);
    if (!out)
        return ts_cli_usage(cmd, "needs -o OUT.pt");
    TsCliProgram p;
    if (ts_cli_program_open(&p, argv[optind], false) != 0)
        return TS_EXIT_FAIL;
    int status = TS_EXIT_FAIL;
    TsRuntime *rt = NULL;
    if (p.archive && name)
        status = ts_cli_usage(cmd, "-f names a function of a FILE.py, and %s is a model",
                              p.name);
    else if ((rt = ts_cli_runtime(g, NULL)))
        status = p.archive ? save_model(rt, &p, out)
                           : save_function(rt, &p, name ? name : "main", out);
    ts_runtime_close(rt);
    ts_cli_program_close(&p);
    return status;
}

const TsCliCommand ts_cli_save_command = {
    "save", "[-f NAME] -o OUT.pt FILE",
    "write an archive torch.jit.load reads",
    "Write an archive torch.jit.load reads: function NAME of FILE.py, saved as torch.jit.save\n"
    "saves a scripted function, or a MODEL.pt loaded and saved again. FILE '-' is read from\n"
    "standard input (a model when it is a zip archive). A failed save leaves no file.\n\n"
    "options:\n"
    "  -o, --output OUT.pt   the archive to write (required)\n"
    "  -f, --function NAME   the function of FILE.py (default main)\n"
    "  -h, --help            print this help",
    save_main,
};
