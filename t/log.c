/* t/log.c — TSCRIPT_LOG_LEVEL per-file logging levels and prefixes, and TSCRIPT_OPT_LIMIT. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/ir.h"
#include "ir/log.h"
#include "tap.h"

static FILE *out;

/* Everything logged since the last call. */
static char *take_output(void)
{
    static char buf[8192];
    long n = ftell(out);
    rewind(out);
    size_t got = fread(buf, 1, n > 0 && (size_t)n < sizeof buf ? (size_t)n : 0, out);
    buf[got] = '\0';
    rewind(out);
    if (ftruncate(fileno(out), 0) != 0)
        diag("ftruncate failed");
    return buf;
}

static void set_env(const char *log_level, const char *opt_limit)
{
    if (log_level)
        setenv("TSCRIPT_LOG_LEVEL", log_level, 1);
    else
        unsetenv("TSCRIPT_LOG_LEVEL");
    if (opt_limit)
        setenv("TSCRIPT_OPT_LIMIT", opt_limit, 1);
    else
        unsetenv("TSCRIPT_OPT_LIMIT");
    ts_log_reload();
}

static void test_levels(void)
{
    set_env(NULL, NULL);
    ok(!ts_log_enabled("core/passes/dead_code.c", TS_LOG_DUMP), "nothing enabled by default");

    set_env("dead_code:>constant_prop.c:>>alias:>>>fuse", NULL);
    ok(ts_log_enabled("core/passes/dead_code.c", TS_LOG_DUMP), "plain name enables DUMP");
    ok(!ts_log_enabled("core/passes/dead_code.c", TS_LOG_UPDATE), "plain name: no UPDATE");
    ok(ts_log_enabled("../../core/passes/constant_prop.c", TS_LOG_UPDATE),
       "'>' enables UPDATE (name given with .c, path with ../)");
    ok(ts_log_enabled("constant_prop.c", TS_LOG_DUMP), "'>' also enables DUMP");
    ok(!ts_log_enabled("constant_prop.c", TS_LOG_DEBUG), "'>' does not enable DEBUG");
    ok(ts_log_enabled("x/alias.c", TS_LOG_DEBUG), "'>>' enables DEBUG");
    ok(ts_log_enabled("x/fuse.c", TS_LOG_DEBUG), "'>>>' is DEBUG too");
    ok(!ts_log_enabled("x/dead_code_more.c", TS_LOG_DUMP), "names match whole, not prefix");
    ok(!ts_log_enabled("x/dead.c", TS_LOG_DUMP), "names match whole, not part");
    ok(!ts_log_enabled("x/other.c", TS_LOG_DUMP), "unnamed file is off");

    set_env("::a::", NULL);
    ok(ts_log_enabled("p/a.c", TS_LOG_DUMP), "empty items are skipped");
    set_env("a:>>a", NULL);
    ok(!ts_log_enabled("p/a.c", TS_LOG_UPDATE), "the first mention of a file wins");
    set_env(">", NULL);
    ok(!ts_log_enabled(">", TS_LOG_DUMP) && !ts_log_enabled("", TS_LOG_DUMP),
       "a bare '>' enables nothing");
    is_str(ts_log_level_name(TS_LOG_UPDATE), "UPDATE", "level names");
}

static void test_output(void)
{
    set_env(">log", NULL);
    TS_GRAPH_UPDATE("Node %s which outputs %d will be removed", "aten::add", 5);
    int line = __LINE__ - 1;
    char want[256];
    snprintf(want, sizeof want, "[UPDATE log.c:%03d] Node aten::add which outputs 5 will be "
             "removed\n", line);
    is_str(take_output(), want, "UPDATE line with [LEVEL file:line] prefix");

    TS_GRAPH_DEBUG("not shown");
    is_str(take_output(), "", "DEBUG off at '>'");

    ts_log("x/log.c", 7, TS_LOG_UPDATE, "one\ntwo\n\nthree\n");
    is_str(take_output(), "[UPDATE log.c:007] one\n[UPDATE log.c:007] two\n"
           "[UPDATE log.c:007] \n[UPDATE log.c:007] three\n",
           "every line prefixed; line number padded to 3");
    ts_log("x/log.c", 1234, TS_LOG_DUMP, "long");
    is_str(take_output(), "[DUMP log.c:1234] long\n", "wider line numbers are kept");

    TsError err = TS_ERROR_INIT;
    TsGraph *g = ts_graph_parse("graph(%x : Tensor):\n  return (%x)\n", NULL, &err);
    ok(g != NULL, "parse a graph to dump");
    if (g) {
        TS_GRAPH_DUMP("After EliminateDeadCode: ", g);
        line = __LINE__ - 1;
        snprintf(want, sizeof want, "[DUMP log.c:%03d] After EliminateDeadCode: \n"
                 "[DUMP log.c:%03d] graph(%%x : Tensor):\n[DUMP log.c:%03d]   return (%%x)\n",
                 line, line, line);
        is_str(take_output(), want, "DUMP of a message and a graph");
        ts_graph_free(g);
    }
    ts_error_clear(&err);

    set_env("other", NULL);
    TS_GRAPH_UPDATE("hidden %d", 1);
    ts_log_graph(__FILE__, 1, TS_LOG_DUMP, "hidden", NULL);
    is_str(take_output(), "", "nothing written for files not enabled");
}

static void test_opt_limit(void)
{
    set_env(NULL, "constant_prop=3:dead_code.c=0:x=:=4:y=-1:z=1a");
    int n = 0;
    while (n < 10 && ts_opt_limit_ok("core/passes/constant_prop.c"))
        n++;
    is_int(n, 3, "constant_prop=3 allows 3 optimizations");
    ok(!ts_opt_limit_ok("constant_prop.c"), "and stays exhausted");
    ok(!ts_opt_limit_ok("p/dead_code.c"), "a limit of 0 allows none");
    ok(ts_opt_limit_ok("p/other.c"), "unnamed passes are not limited");
    ok(ts_opt_limit_ok("p/x.c") && ts_opt_limit_ok("p/y.c") && ts_opt_limit_ok("p/z.c"),
       "malformed items are ignored");
    is_str(take_output(), "", "malformed items are not printed from inside the library");

    ts_log_reload();
    ok(ts_opt_limit_ok("constant_prop.c"), "reload restarts the counters");
    ok(TS_OPT_ALLOWED, "TS_OPT_ALLOWED for an unnamed file");
    set_env(NULL, "log=1");
    ok(TS_OPT_ALLOWED, "TS_OPT_ALLOWED: first");
    ok(!TS_OPT_ALLOWED, "TS_OPT_ALLOWED: limit reached");
    set_env(NULL, NULL);
    ok(TS_OPT_ALLOWED, "no variable: no limit");
}

/* ts_log_check_env: what ts_runtime_open reports (and the CLI exits 1 on). */
static void check_env(const char *log_level, const char *opt_limit, const char *want,
                      const char *name)
{
    set_env(log_level, opt_limit);
    TsError err = TS_ERROR_INIT;
    int rc = ts_log_check_env(&err);
    if (want) {
        is_int(rc, TS_ERR_CONFIG, "%s: a config error", name);
        like(err.msg ? err.msg : "", want, "%s: the message", name);
    } else {
        is_int(rc, 0, "%s: accepted", name);
    }
    ts_error_clear(&err);
}

static void test_check_env(void)
{
    check_env(NULL, NULL, NULL, "no variables");
    check_env("dead_code:>constant_prop.c:>>alias::x/y-z.c", "a=0:b.c=12:", NULL,
              "well-formed values, empty items and unknown passes");
    check_env(">", NULL, "TSCRIPT_LOG_LEVEL: '>' is malformed (expected a pass's file name",
              "log level: '>' without a name");
    check_env("a:dead code", NULL, "TSCRIPT_LOG_LEVEL: 'dead code' is malformed",
              "log level: a space");
    check_env("dead_code=3", NULL, "TSCRIPT_LOG_LEVEL: 'dead_code=3' is malformed",
              "log level: a limit given instead");
    check_env(NULL, "x=", "TSCRIPT_OPT_LIMIT: 'x=' is malformed (expected pass=count",
              "opt limit: no count");
    check_env(NULL, "a=1:y=-1", "TSCRIPT_OPT_LIMIT: 'y=-1' is malformed", "opt limit: negative");
    check_env(NULL, "=4", "TSCRIPT_OPT_LIMIT: '=4' is malformed", "opt limit: no name");
    check_env(NULL, "z=1a", "TSCRIPT_OPT_LIMIT: 'z=1a' is malformed", "opt limit: not a number");
    check_env(NULL, "dead_code", "TSCRIPT_OPT_LIMIT: 'dead_code' is malformed",
              "opt limit: no '='");
    check_env(NULL, "p=9223372036854775807", NULL, "opt limit: INT64_MAX");
    check_env(NULL, "p=9223372036854775808", "'p=9223372036854775808' is malformed",
              "opt limit: past INT64_MAX");
    set_env(NULL, NULL);
}

static atomic_int granted;

static void *spend(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++)
        if (ts_opt_limit_ok("p/fold.c"))
            atomic_fetch_add(&granted, 1);
    return NULL;
}

/* Threads share one budget: exactly the limit is granted, however they interleave. */
static void test_threads(void)
{
    set_env(NULL, "fold=100");
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, spend, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    is_int(atomic_load(&granted), 100, "4 threads share a limit of 100");
    set_env(NULL, NULL);
}

int main(void)
{
    out = tmpfile();
    if (!out)
        return 1;
    ts_log_set_output(out);
    test_levels();
    test_output();
    test_opt_limit();
    test_check_env();
    test_threads();
    ts_log_set_output(NULL);
    ts_log_shutdown();
    ts_symbols_shutdown();
    fclose(out);
    return done_testing();
}
