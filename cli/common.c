/* common.c — what every command of the CLI does the same way: report errors in one format
 * ("tscript: WHAT: WHY"), parse options with getopt_long, print --help, notice a failed write
 * to standard output, open the runtime, and read a program from a file or standard input.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- messages ----------------------------------------------------------------------- */

int ts_cli_fail(const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tscript: %s: ", what);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return TS_EXIT_FAIL;
}

int ts_cli_error(const char *what, TsError *err, const char *fallback)
{
    const char *m = err->msg ? err->msg : fallback;
    size_t n = strlen(m), w = strlen(what);
    /* the core names files in its messages ("prog.py: No such file or directory") */
    bool named = strncmp(m, what, w) == 0 && m[w] == ':';
    fprintf(stderr, "tscript: %s%s%s%s", named ? "" : what, named ? "" : ": ", m,
            n && m[n - 1] == '\n' ? "" : "\n");
    ts_error_clear(err);
    return TS_EXIT_FAIL;
}

int ts_cli_usage(const TsCliCommand *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tscript: %s%s", cmd ? cmd->name : "", cmd ? ": " : "");
    vfprintf(stderr, fmt, ap);
    if (cmd)
        fprintf(stderr, "\nusage: tscript %s %s (tscript help %s says more)\n", cmd->name,
                cmd->synopsis, cmd->name);
    else
        fprintf(stderr, "\nusage: tscript [--config FILE] COMMAND [OPTIONS] [ARGS...] "
                        "(tscript --help lists the commands)\n");
    va_end(ap);
    return TS_EXIT_USAGE;
}

/* ---- options -------------------------------------------------------------------------- */

int ts_cli_help(const TsCliCommand *cmd, FILE *f)
{
    fprintf(f, "usage: tscript [--config FILE] %s %s\n\n%s\n", cmd->name, cmd->synopsis,
            cmd->help);
    return f == stdout ? ts_cli_flush_stdout(0) : 0;
}

int ts_cli_getopt(const TsCliCommand *cmd, int argc, char **argv, const char *shortopts,
                  const struct option *longopts)
{
    opterr = 0;
    int c = getopt_long(argc, argv, shortopts, longopts, NULL);
    if (c != '?' && c != ':')
        return c;
    /* the option as written: "-x", or "--name" without its "=value" */
    const char *arg = argv[optind - 1];
    char shortopt[3] = { '-', (char)optopt, '\0' };
    const char *opt = optopt && strncmp(arg, "--", 2) != 0 ? shortopt : arg;
    int len = (int)strcspn(opt, "=");
    const char *why = c == ':' ? "needs a value" : "unknown option";
    if (cmd)
        ts_cli_usage(cmd, "option '%.*s': %s", len, opt, why);
    else
        ts_cli_usage(NULL, "%.*s: %s", len, opt, why);
    return '?';
}

int ts_cli_help_only(const TsCliCommand *cmd, int argc, char **argv)
{
    static const struct option opts[] = {
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c = ts_cli_getopt(cmd, argc, argv, ":h", opts);
    if (c == -1)
        return -1;
    return c == 'h' ? ts_cli_help(cmd, stdout) : TS_EXIT_USAGE;
}

int ts_cli_flush_stdout(int status)
{
    /* ferror too: a write that failed earlier may have left nothing to flush */
    int e = fflush(stdout) != 0 ? errno : 0;
    if (!e && !ferror(stdout))
        return status;
    clearerr(stdout);
    if (e)
        return ts_cli_fail("standard output", "cannot write: %s", strerror(e));
    return ts_cli_fail("standard output", "cannot write");
}

/* ---- the runtime and programs ------------------------------------------------------------ */

TsRuntime *ts_cli_runtime(const TsCliGlobal *g, const char *backend)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(g->config, &err);
    if (!rt) {
        ts_cli_error(g->config ? g->config : "config", &err, "cannot open the runtime");
    } else if (backend && ts_runtime_set_default_backend(rt, backend, &err)) {
        ts_cli_error("--backend", &err, "cannot use that backend");
        ts_runtime_close(rt);
        rt = NULL;
    }
    if (rt && g->no_opt)
        ts_runtime_set_optimize(rt, false);
    return rt;
}

TsRuntime *ts_cli_runtime_full(const TsCliGlobal *g, const char *backend)
{
    TsRuntime *rt = ts_cli_runtime(g, backend);
    TsError err = TS_ERROR_INIT;
    if (rt && ts_runtime_load_plugins(rt, &err)) {
        ts_cli_error(g->config ? g->config : "config", &err, "cannot open the runtime");
        ts_runtime_close(rt);
        rt = NULL;
    }
    return rt;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A program from standard input: a model when it starts as a zip archive does. */
static int read_stdin(TsCliProgram *p, bool archive_only)
{
    TsError err = TS_ERROR_INIT;
    /* models are larger than programs; the source limit applies once it is one */
    static const char dev[] = "/dev/stdin";
    p->data = ts_read_file(dev, SIZE_MAX / 2, &p->size, &err);
    if (!p->data) {
        /* the message names the device: "/dev/stdin: Bad file descriptor" */
        const char *m = err.msg ? err.msg : "";
        if (strncmp(m, dev, sizeof dev - 1) == 0 && m[sizeof dev - 1] == ':')
            m += sizeof dev + 1;
        ts_cli_fail(p->name, "cannot read standard input: %s", m);
        ts_error_clear(&err);
        return TS_EXIT_FAIL;
    }
    p->archive = archive_only || (p->size >= 4 && memcmp(p->data, "PK\3\4", 4) == 0);
    if (!p->archive && p->size > TS_SOURCE_MAX)
        return ts_cli_fail(p->name, "larger than %zu bytes, the most read here",
                           (size_t)TS_SOURCE_MAX);
    return 0;
}

int ts_cli_program_open(TsCliProgram *p, const char *path, bool archive_only)
{
    *p = (TsCliProgram){ .path = path, .name = path };
    if (strcmp(path, "-") == 0) {
        p->name = "<stdin>";
        return read_stdin(p, archive_only);
    }
    p->archive = archive_only || has_suffix(path, ".pt") || has_suffix(path, ".pth") ||
                 has_suffix(path, ".zip");
    if (p->archive)
        return 0;
    TsError err = TS_ERROR_INIT;
    p->data = ts_read_file(path, TS_SOURCE_MAX, &p->size, &err);
    return p->data ? 0 : ts_cli_error(path, &err, "cannot read the file");
}

void ts_cli_program_close(TsCliProgram *p)
{
    free(p->data);
    *p = (TsCliProgram){ 0 };
}

TsModule *ts_cli_load_model(TsRuntime *rt, const TsCliProgram *p)
{
    TsError err = TS_ERROR_INIT;
    TsModule *m = p->data ? ts_module_load_memory(rt, p->name, p->data, p->size, &err)
                          : ts_module_load(rt, p->path, &err);
    if (!m)
        ts_cli_error(p->name, &err, "cannot load the model");
    return m;
}
