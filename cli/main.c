/* main.c — the `tscript` command line: global options, then one command.
 *
 *     tscript [--config FILE] [--no-opt] COMMAND [OPTIONS] [ARGS...]
 *
 * The global options stop at the first operand, the command's name; the command parses
 * the rest with getopt_long itself (one file per command: run.c, test.c, graph.c, ops.c,
 * info.c, save.c). `tscript --help` lists the commands, `tscript help CMD` and
 * `tscript CMD --help` print one command's help. Exit status: 0 success, 1 a failure,
 * 2 bad usage (cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const TsCliCommand *const commands[] = {
    &ts_cli_run_command, &ts_cli_test_command, &ts_cli_graph_command,
    &ts_cli_ops_command, &ts_cli_info_command, &ts_cli_save_command,
};

#define N_COMMANDS (sizeof commands / sizeof *commands)

static const struct option global_options[] = {
    { "config", required_argument, NULL, 'c' },
    { "no-opt", no_argument, NULL, 'N' },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 },
};

static const TsCliCommand *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(name, commands[i]->name) == 0)
            return commands[i];
    return NULL;
}

static int print_version(void)
{
    printf("tscript %s (plugin ABI v%u)\n", TS_VERSION, TS_PLUGIN_ABI_VERSION);
    return ts_cli_flush_stdout(0);
}

static int print_usage(void)
{
    printf("usage: tscript [--config FILE] [--no-opt] COMMAND [OPTIONS] [ARGS...]\n\n"
           "options:\n"
           "  -c, --config FILE  use FILE instead of $TSCRIPT_CONFIG or the default config\n"
           "      --no-opt       run functions unoptimized (as TSCRIPT_JIT_DISABLE=1 does)\n"
           "  -h, --help         print this help\n"
           "  -V, --version      print the version\n\n"
           "commands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        printf("  %-8s %s\n", commands[i]->name, commands[i]->summary);
    printf("  %-8s %s\n  %-8s %s\n\n"
           "A FILE of '-' is read from standard input. `tscript help COMMAND` or\n"
           "`tscript COMMAND --help` prints the options of a command.\n",
           "help", "print this help, or a command's with `help COMMAND`",
           "version", "print the version");
    return ts_cli_flush_stdout(0);
}

/* `tscript help [COMMAND]` and `tscript version`: no options of their own. */
static int builtin(const char *name, int argc, char **argv)
{
    if (strcmp(name, "version") == 0) {
        if (argc > 1)
            return ts_cli_usage(NULL, "version: takes no arguments, got '%s'", argv[1]);
        return print_version();
    }
    if (argc > 2)
        return ts_cli_usage(NULL, "help: takes one COMMAND, got '%s'", argv[2]);
    if (argc == 1)
        return print_usage();
    const TsCliCommand *cmd = find_command(argv[1]);
    if (!cmd && (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "version") == 0))
        return print_usage();
    if (!cmd)
        return ts_cli_usage(NULL, "help: unknown command '%s'", argv[1]);
    return ts_cli_help(cmd, stdout);
}

int main(int argc, char **argv)
{
    TsCliGlobal g = { NULL, false };
    int c;
    ts_cli_heap_setup();
    /* '+': the options end at the command's name */
    while ((c = ts_cli_getopt(NULL, argc, argv, "+:c:hV", global_options)) != -1) {
        switch (c) {
        case 'c': g.config = optarg; break;
        case 'N': g.no_opt = true; break;
        case 'h': return print_usage();
        case 'V': return print_version();
        default: return TS_EXIT_USAGE;
        }
    }
    if (optind == argc)
        return ts_cli_usage(NULL, "COMMAND: missing, one of run test graph ops info save help "
                                  "version");
    const char *name = argv[optind];
    argc -= optind;
    argv += optind;
    optind = 0;                /* glibc: start afresh on the command's argv */
    if (strcmp(name, "help") == 0 || strcmp(name, "version") == 0)
        return builtin(name, argc, argv);
    const TsCliCommand *cmd = find_command(name);
    if (!cmd)
        return ts_cli_usage(NULL, "%s: unknown command", name);
    return ts_cli_flush_stdout(cmd->main(&g, argc, argv));
}
