/* main.c — the `tscript` command line.
 *
 *     tscript [--config FILE] COMMAND [ARGS...]
 *
 * Global options come first, then a command from the table below; each command is one
 * function that gets its own arguments. Exit status: 0 success, 1 a failure at run time
 * (the runtime could not open, nothing matched), 2 bad usage.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compile.h"
#include "registry/optable.h"
#include "runtime.h"
#include "tscript/tscript.h"

#define EXIT_USAGE 2

typedef struct Options {
    const char *config;        /* --config FILE, or NULL */
} Options;

typedef struct Command {
    const char *name;
    const char *args;
    const char *summary;
    int (*run)(const Options *opt, int argc, char **argv);
} Command;

static int cmd_ops(const Options *opt, int argc, char **argv);
static int cmd_graph(const Options *opt, int argc, char **argv);
static int cmd_run(const Options *opt, int argc, char **argv);
static int cmd_test(const Options *opt, int argc, char **argv);
static int cmd_info(const Options *opt, int argc, char **argv);
static int cmd_save(const Options *opt, int argc, char **argv);
static int cmd_version(const Options *opt, int argc, char **argv);
static int cmd_help(const Options *opt, int argc, char **argv);

static const Command commands[] = {
    { "ops", "[PATTERN]",
      "list the operator table: schema, declaring plugin, backends with a kernel;\n"
      "                   PATTERN is a substring or glob of the qualified name",
      cmd_ops },
    { "graph", "FILE.py [-f NAME]",
      "compile FILE.py and print the graph of function NAME (default main;\n"
      "                   Cls.method for a method); compile errors exit 1",
      cmd_graph },
    { "run", "FILE [-f NAME] [-o OUT] [--backend NAME] [INPUT...]",
      "FILE.py: compile it and call NAME (default main); MODEL.pt (saved by\n"
      "                   torch.jit.save): load it and call its method NAME (default\n"
      "                   forward). An INPUT is @PATH (a torch.save or .npy file) or a\n"
      "                   TorchScript expression. Print the result unless None, or\n"
      "                   write it to OUT (.npy or a torch.save file). --backend NAME\n"
      "                   overrides the config's default_backend",
      cmd_run },
    { "save", "FILE -o OUT.pt [-f NAME]",
      "write an archive torch.jit.load reads: function NAME (default main) of\n"
      "                   FILE.py, or a MODEL.pt loaded and saved again",
      cmd_save },
    { "info", "MODEL.pt",
      "list a saved model's methods, submodules, parameters and buffers, and the\n"
      "                   operators it calls that the loaded plugins lack",
      cmd_info },
    { "test", "[--backend NAME] FILE.py...",
      "run every test_* function of the files and print TAP\n"
      "                   (prove --exec 'tscript test' DIR)",
      cmd_test },
    { "version", "", "print the version", cmd_version },
    { "help", "", "print this help", cmd_help },
};

#define N_COMMANDS (sizeof commands / sizeof *commands)

static void usage(FILE *f)
{
    fprintf(f, "usage: tscript [--config FILE] COMMAND [ARGS...]\n\n"
               "options:\n"
               "  --config FILE    use FILE instead of $TSCRIPT_CONFIG or the default config\n"
               "  --help           print this help\n"
               "  --version        print the version\n\n"
               "commands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s %s", commands[i].name, commands[i].args);
        fprintf(f, "  %-16s %s\n", head, commands[i].summary);
    }
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "tscript: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(tscript --help lists the commands and options)\n");
    return EXIT_USAGE;
}

static TsRuntime *open_runtime(const Options *opt)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(opt->config, &err);
    if (!rt) {
        fprintf(stderr, "tscript: %s\n", err.msg ? err.msg : "cannot open the runtime");
        ts_error_clear(&err);
    }
    return rt;
}

/* ---- ops ------------------------------------------------------------------------ */

static bool is_glob(const char *p) { return strpbrk(p, "*?[") != NULL; }

static bool op_matches(const TsOperator *op, const char *pattern)
{
    if (!pattern)
        return true;
    char full[512];
    ts_operator_full_name(op, full, sizeof full);
    if (is_glob(pattern))
        return fnmatch(pattern, op->schema->name, 0) == 0 || fnmatch(pattern, full, 0) == 0;
    return strstr(op->schema->name, pattern) != NULL;
}

/* "cpu,cuda", or "-" when nothing implements the operator yet. */
static void backends(const TsOperator *op, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < op->n_kernels && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%s", i ? "," : "", op->kernels[i].backend);
        used += n > 0 ? (size_t)n : 0;
    }
    if (!op->n_kernels)
        snprintf(buf, size, "-");
}

/* One line per operator, plugin and backends in aligned columns before the schema:
 *     aten-cpu  cpu   aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor */
static int cmd_ops(const Options *opt, int argc, char **argv)
{
    if (argc > 1)
        return usage_error("ops takes at most one PATTERN, got '%s'", argv[1]);
    const char *pattern = argc == 1 ? argv[0] : NULL;
    TsRuntime *rt = open_runtime(opt);
    if (!rt)
        return 1;
    const TsOpTable *t = ts_runtime_optable(rt);
    int wplugin = 6, wback = 7, matched = 0;
    const TsOperator *op;
    char buf[256];
    for (size_t pos = 0; ts_optable_next(t, &pos, &op);) {
        if (!op_matches(op, pattern))
            continue;
        backends(op, buf, sizeof buf);
        int lp = (int)strlen(op->plugin), lb = (int)strlen(buf);
        wplugin = lp > wplugin ? lp : wplugin;
        wback = lb > wback ? lb : wback;
    }
    for (size_t pos = 0; ts_optable_next(t, &pos, &op);) {
        if (!op_matches(op, pattern))
            continue;
        char *schema = ts_schema_to_string(op->schema);
        backends(op, buf, sizeof buf);
        printf("%-*s  %-*s  %s\n", wplugin, op->plugin, wback, buf,
               schema ? schema : op->schema->name);
        free(schema);
        matched++;
    }
    ts_runtime_close(rt);
    if (!matched && pattern) {
        fprintf(stderr, "tscript: no operator matches '%s'\n", pattern);
        return 1;
    }
    return 0;
}

/* ---- graph ---------------------------------------------------------------------- */

static int cmd_graph(const Options *opt, int argc, char **argv)
{
    const char *file = NULL, *name = "main";
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-f") == 0) {
            if (++i == argc)
                return usage_error("%s needs a NAME", "-f");
            name = argv[i];
        } else if (!file) {
            file = argv[i];
        } else {
            return usage_error("graph takes one FILE, got '%s'", argv[i]);
        }
    }
    if (!file)
        return usage_error("%s needs a FILE.py", "graph");
    TsRuntime *rt = open_runtime(opt);
    if (!rt)
        return 1;
    TsError err = TS_ERROR_INIT;
    TsCompUnit *u = ts_compile_file(ts_runtime_optable(rt), file, name, &err);
    int status = 0;
    if (!u) {
        fprintf(stderr, "%s\n", err.msg ? err.msg : "compilation failed");
        ts_error_clear(&err);
        status = 1;
    } else {
        char qual[512];
        snprintf(qual, sizeof qual, "__torch__.%s", name);
        TsFunction *f = ts_unit_find(u, qual);
        char *text = f ? ts_graph_to_string(f->graph, false) : NULL;
        if (text)
            fputs(text, stdout);
        else
            status = 1;
        free(text);
        ts_unit_free(u);
    }
    ts_runtime_close(rt);
    return status;
}

/* ---- run, test (cli_run.c, cli_test.c) --------------------------------------------- */

static int cmd_save(const Options *opt, int argc, char **argv)
{
    return ts_cli_save(opt->config, argc, argv);
}

static int cmd_info(const Options *opt, int argc, char **argv)
{
    return ts_cli_info(opt->config, argc, argv);
}

static int cmd_run(const Options *opt, int argc, char **argv)
{
    return ts_cli_run(opt->config, argc, argv);
}

static int cmd_test(const Options *opt, int argc, char **argv)
{
    return ts_cli_test(opt->config, argc, argv);
}

/* ---- version, help ------------------------------------------------------------------ */

static int cmd_version(const Options *opt, int argc, char **argv)
{
    if (argc > 0)
        return usage_error("version takes no arguments, got '%s'", argv[0]);
    printf("tscript %s (plugin ABI v%u)\n", TS_VERSION, TS_PLUGIN_ABI_VERSION);
    return 0;
}

static int cmd_help(const Options *opt, int argc, char **argv)
{
    usage(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    Options opt = { NULL };
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--config") == 0) {
            if (++i == argc)
                return usage_error("%s needs a FILE", a);
            opt.config = argv[i];
        } else if (strncmp(a, "--config=", 9) == 0) {
            opt.config = a + 9;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            return cmd_help(&opt, 0, NULL);
        } else if (strcmp(a, "--version") == 0) {
            return cmd_version(&opt, 0, NULL);
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    if (i == argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    for (size_t c = 0; c < N_COMMANDS; c++)
        if (strcmp(argv[i], commands[c].name) == 0)
            return commands[c].run(&opt, argc - i - 1, argv + i + 1);
    return usage_error("unknown command '%s'", argv[i]);
}
