/* cli.h — what the commands of the `tscript` program share (main.c dispatches to them).
 *
 * Each command is a TsCliCommand: its name, the synopsis and help that `tscript help CMD`
 * and `tscript CMD --help` print, and an entry point that gets the command's own argv
 * (argv[0] is the command name, so getopt_long parses it as it would a program's) and the
 * global options. Every command reports errors the same way, one line
 *
 *     tscript: WHAT: WHY
 *
 * where WHAT is the command (bad usage), a file, or "standard output", optionally followed
 * by lines of detail: the file:line:col excerpt of a compile error or the TorchScript
 * traceback of a run-time error, as PyTorch prints them. Exit status: 0 success, 1 a
 * failure (a file that cannot be read or written, a program that does not compile or
 * raises), 2 bad usage.
 *
 * The commands use the public embedding API alone (include/tscript/, as lua.c uses lua.h
 * only): common.c opens the runtime and reads programs, each command file compiles, loads
 * and runs through tscript.h and inspect.h. (graph.c still reaches into the core until
 * the public IR, tscript/ir.h, lands; t/cli_public.sh checks the rest.)
 */
#ifndef TSCRIPT_CLI_H
#define TSCRIPT_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tscript/tscript.h"

#define TS_EXIT_FAIL 1
#define TS_EXIT_USAGE 2

/* The options given before the command. */
typedef struct TsCliGlobal {
    const char *config;        /* --config FILE, or NULL for the default */
    bool no_opt;               /* --no-opt: the runtime's optimizer off */
} TsCliGlobal;

typedef struct TsCliCommand {
    const char *name;
    const char *synopsis;      /* "[-f NAME] FILE.py", after "tscript NAME " */
    const char *summary;       /* one line for `tscript --help` */
    const char *help;          /* the description and options for `tscript help NAME` */
    int (*main)(const TsCliGlobal *g, int argc, char **argv);
} TsCliCommand;

extern const TsCliCommand ts_cli_run_command, ts_cli_test_command, ts_cli_graph_command,
    ts_cli_ops_command, ts_cli_info_command, ts_cli_save_command;

/* ---- messages (common.c) ---------------------------------------------------------- */

/* "tscript: WHAT: WHY" on stderr; returns TS_EXIT_FAIL. */
int ts_cli_fail(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error of the core as "tscript: WHAT: MESSAGE" (MESSAGE's further lines below it;
 * WHAT is left out where MESSAGE starts with it already), fallback when it has none.
 * Clears err and returns TS_EXIT_FAIL. */
int ts_cli_error(const char *what, TsError *err, const char *fallback);
/* "tscript: CMD: WHY" and where to find the command's options; returns TS_EXIT_USAGE.
 * cmd NULL: an error before the command, fmt then makes "WHAT: WHY" itself. */
int ts_cli_usage(const TsCliCommand *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- options ---------------------------------------------------------------------- */

/* getopt_long over a command's argv (optind reset by the caller), reporting a bad option
 * itself: returns the option, -1 at the end of the options (optind then indexes the
 * operands, which getopt_long moves after the options; "--" ends the options), or '?'
 * after printing the usage error for an unknown option or a missing value (cmd NULL:
 * the global options). shortopts starts with ':'. */
int ts_cli_getopt(const TsCliCommand *cmd, int argc, char **argv, const char *shortopts,
                  const struct option *longopts);
/* The options of a command whose only one is --help: -1 once they are parsed (optind then
 * indexes the operands), else the status to exit with (help printed, or bad usage). */
int ts_cli_help_only(const TsCliCommand *cmd, int argc, char **argv);
/* Prints the command's help to f; returns 0, or TS_EXIT_FAIL when it cannot be written. */
int ts_cli_help(const TsCliCommand *cmd, FILE *f);
/* The status a command returns after printing: status, or TS_EXIT_FAIL with a message
 * when standard output could not be written (a full disk). */
int ts_cli_flush_stdout(int status);

/* Grows the process's malloc heap in transparent huge pages where it can (heap.c); called
 * first thing in main. */
void ts_cli_heap_setup(void);

/* ---- the runtime and programs (common.c) --------------------------------------------- */

/* Opens the runtime of the --config with backend (NULL: the config's default_backend) as its
 * default backend, or prints why not and returns NULL. */
TsRuntime *ts_cli_runtime(const TsCliGlobal *g, const char *backend);
/* The same with every plugin loaded (those the config defers too), for commands that list
 * or test what the plugins provide. */
TsRuntime *ts_cli_runtime_full(const TsCliGlobal *g, const char *backend);

/* A program file as given on the command line: "-" is standard input. */
typedef struct TsCliProgram {
    const char *path;          /* as given */
    const char *name;          /* for messages: path, or "<stdin>" */
    bool archive;              /* a saved model (.pt, .pth, .zip; from stdin: a zip) */
    char *data;                /* a .py program's text (NUL-terminated), or a model read
                                * from stdin: its bytes; NULL for a model file */
    size_t size;
} TsCliProgram;

/* Reads path ("-": standard input) as TorchScript source (at most TS_SOURCE_MAX bytes), or,
 * for a model, only decides that it is one (a model file is mapped by ts_cli_load_model);
 * archive_only: the file must be a model. On failure prints why and returns TS_EXIT_FAIL. */
int ts_cli_program_open(TsCliProgram *p, const char *path, bool archive_only);
void ts_cli_program_close(TsCliProgram *p);
/* Loads the model p names; prints why not and returns NULL on failure. */
TsModule *ts_cli_load_model(TsRuntime *rt, const TsCliProgram *p);

/* ---- INPUTs (inputs.c): the arguments `tscript run` and `tscript graph` call with ------ */

#define TS_CLI_MAX_INPUTS 64

typedef struct TsCliInputs {
    const TsCliCommand *cmd;   /* whose usage errors they are */
    const TsCliProgram *prog;  /* FILE */
    const char *name;          /* the function or method */
    char **inputs;             /* the INPUT words (@PATH or an expression) */
    int n_inputs;              /* at most TS_CLI_MAX_INPUTS */
} TsCliInputs;

/* Compiles the expression INPUTs (and, for a .py FILE, the file with NAME) into a script:
 * NULL with *status 0 when there is nothing to compile, else NULL with the message printed
 * and *status set on failure. */
TsScript *ts_cli_inputs_compile(TsRuntime *rt, const TsCliInputs *in, int *status);
/* The INPUTs' values for f's parameters (inputs: the script above), then the defaults of
 * the rest: vals (TS_CLI_MAX_INPUTS of room) holds *n_vals references either way; 0, or the
 * exit status after printing why not. A file's tensors are moved to rt's default backend. */
int ts_cli_inputs_gather(TsRuntime *rt, TsScript *inputs, const TsCliInputs *in,
                         const TsMethod *f, TsValue *vals, size_t *n_vals);

#endif
