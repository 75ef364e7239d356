/* cli_save.c — `tscript save FILE -o OUT.pt [-f NAME]`: an archive torch.jit.load reads.
 *
 * FILE.py: its function NAME (default main) is compiled and saved as torch.jit.save saves a
 * scripted function (a module whose forward calls it). MODEL.pt: the model is loaded and
 * saved again as tscript holds it, its code printed from tscript's own IR. Exit status: 0,
 * 1 when the file does not compile or load or the archive cannot be written (nothing is
 * left behind then), 2 for bad usage.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "compile.h"
#include "module.h"
#include "runtime.h"
#include "serialize/save.h"

static int usage(const char *what)
{
    fprintf(stderr, "tscript save: %s\nusage: tscript save FILE.py|MODEL.pt -o OUT.pt "
            "[-f NAME]\n", what);
    return TS_EXIT_USAGE;
}

static int report(TsError *err, const char *fallback)
{
    fprintf(stderr, "tscript save: %s\n", err->msg ? err->msg : fallback);
    ts_error_clear(err);
    return 1;
}

static int save_function(TsRuntime *rt, const char *file, const char *name, const char *out)
{
    TsError err = TS_ERROR_INIT;
    TsCompUnit *u = ts_compile_file(ts_runtime_optable(rt), file, name, &err);
    if (!u)
        return err.code == TS_ERR_USAGE ? (ts_error_clear(&err), usage("no such function"))
                                        : report(&err, "compilation failed");
    char q[512];
    snprintf(q, sizeof q, "__torch__.%s", name);
    TsFunction *f = ts_unit_find(u, q);
    int status = 0;
    if (!f)
        status = usage("no such function");
    else if (ts_save_function(rt, u, f, out, &err) != 0)
        status = report(&err, "cannot write the archive");
    ts_unit_free(u);
    return status;
}

static int save_model(TsRuntime *rt, const char *file, const char *out)
{
    TsError err = TS_ERROR_INIT;
    TsModule *m = ts_module_load(rt, file, &err);
    if (!m)
        return report(&err, "cannot load the model");
    int status = ts_save_module(rt, m, out, &err) == 0 ? 0 : report(&err, "cannot write");
    ts_module_free(m);
    return status;
}

int ts_cli_save(const char *config, int argc, char **argv)
{
    const char *file = NULL, *out = NULL, *name = NULL;
    for (int i = 0; i < argc; i++) {
        bool opt = strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0 ||
                   strcmp(argv[i], "-f") == 0;
        if (opt && i + 1 == argc)
            return usage("an option needs a value");
        if (opt && argv[i][1] == 'f')
            name = argv[++i];
        else if (opt)
            out = argv[++i];
        else if (!file)
            file = argv[i];
        else
            return usage("one FILE only");
    }
    if (!file || !out)
        return usage(!file ? "needs a FILE" : "needs -o OUT.pt");
    size_t n = strlen(file);
    bool model = n > 3 && strcmp(file + n - 3, ".pt") == 0;
    if (model && name)
        return usage("-f names a function of a FILE.py");
    TsRuntime *rt = ts_cli_runtime(config, NULL);
    if (!rt)
        return 1;
    int status = model ? save_model(rt, file, out)
                       : save_function(rt, file, name ? name : "main", out);
    ts_runtime_close(rt);
    return status;
}
