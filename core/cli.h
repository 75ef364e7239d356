/* cli.h — the commands of the `tscript` program that run TorchScript (main.c dispatches).
 *
 * Each takes the command's own arguments (after the command name) and the --config path
 * (NULL for the default), and returns the process exit status: 0 success, 1 a compile or
 * run-time error of the program (printed to stderr in PyTorch's form), 2 bad usage.
 */
#ifndef TSCRIPT_CLI_H
#define TSCRIPT_CLI_H

#define TS_EXIT_USAGE 2

struct TsRuntime;

/* Opens the runtime with backend (NULL: the config's) as its default backend, or prints
 * why not and returns NULL. */
struct TsRuntime *ts_cli_runtime(const char *config, const char *backend);
/* "--backend NAME" or "--backend=NAME" at argv[*i]: sets *backend (advancing *i past NAME)
 * and returns 1; 0 when argv[*i] is something else; TS_EXIT_USAGE (printed) without NAME. */
int ts_cli_backend_option(int argc, char **argv, int *i, const char **backend);

/* tscript run FILE.py|MODEL.pt [-f NAME] [-o OUT] [INPUT ...] (cli_run.c) */
int ts_cli_run(const char *config, int argc, char **argv);

/* tscript info MODEL.pt (cli_info.c) */
int ts_cli_info(const char *config, int argc, char **argv);

/* tscript save FILE.py|MODEL.pt -o OUT.pt [-f NAME] (cli_save.c) */
int ts_cli_save(const char *config, int argc, char **argv);

/* tscript test FILE.py ... (cli_test.c) */
int ts_cli_test(const char *config, int argc, char **argv);

#endif
