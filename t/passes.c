/* passes.c — the optimizer's FileCheck tests: every t/passes/NAME.py is compiled, optimized
 * and its graph checked against the FileCheck directives in its comments.
 *
 * A file's header comments choose what runs:
 *   # PASS: constant_prop      only that pass, on a copy of the graph the frontend built
 *                              (without it: the whole pipeline, as the executor runs it)
 *   # FUNCTION: f              the function whose graph is checked (default main)
 *   # INPUTS: Float(*, *), Long(3)   the types the function's inputs take first, as the
 *                              executor's specialization (core/sched/spec.c) gives them
 * The rest are ir/filecheck.h directives ("# CHECK: aten::add", "# CHECK-NOT: prim::Loop").
 * A file whose program also has an expected output (NAME.out beside it) is run with the
 * optimizer on and off by t/passes_run.sh; this test only looks at graphs.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "function.h"
#include "ir/filecheck.h"
#include "ir/passes/passes.h"
#include "runtime.h"
#include "sched/spec.h"
#include "tap.h"

#ifndef TS_TEST_SRCDIR
#define TS_TEST_SRCDIR "."
#endif

static TsRuntime *rt;

/* The value of header directive key ("# PASS:") in src, copied into buf; false if none. */
static bool directive(const char *src, const char *key, char *buf, size_t size)
{
    const char *p = strstr(src, key);
    if (!p || size == 0)
        return false;
    p += strlen(key);
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, " \n");
    if (n >= size)
        n = size - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return n > 0;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    int c;
    while (m && (c = getc(f)) != EOF)
        putc(c, m);
    if (m)
        fclose(m);
    fclose(f);
    return buf;
}

/* The types of the "# INPUTS:" header (comma separated IR types) into types (at most max),
 * parsed as a graph's input types are; how many, or -1 with err. 0 without the header. */
static long input_types(const char *src, const TsType **types, size_t max, TsError *err)
{
    const char *p = strstr(src, "# INPUTS:");
    if (!p)
        return 0;
    p += strlen("# INPUTS:");
    size_t len = strcspn(p, "\n");
    TsBuf text = TS_BUF_INIT;
    ts_buf_puts(&text, "graph(%i0 : ");
    int depth = 0;
    size_t n = 1;
    for (size_t i = 0; i < len; i++) {
        depth += p[i] == '(' || p[i] == '[';
        depth -= p[i] == ')' || p[i] == ']';
        if (p[i] == ',' && depth == 0)
            ts_buf_printf(&text, ", %%i%zu : ", n++);
        else
            ts_buf_add(&text, &p[i], 1);
    }
    ts_buf_puts(&text, "):\n  return ()\n");
    TsGraph *g = ts_buf_check(&text, err) ? NULL : ts_graph_parse(text.p, "INPUTS", err);
    ts_buf_free(&text);
    if (!g)
        return -1;
    for (size_t i = 0; i < n && i < max; i++)
        types[i] = ts_graph_input(g, i)->type;     /* interned: outlive the graph */
    ts_graph_free(g);
    return (long)(n < max ? n : max);
}

/* The graph text of fn in src after the pass (or the whole pipeline), its inputs typed by
 * the file's INPUTS; malloc'd, or NULL with err. */
static char *optimized_text(const char *path, const char *src, const char *fn,
                            const char *pass, TsError *err)
{
    const TsType *types[16];
    long n_types = input_types(src, types, 16, err);
    if (n_types < 0)
        return NULL;
    TsScript *s = ts_script_compile_entries(rt, path, src, strlen(src), &fn, 1, NULL, err);
    if (!s)
        return NULL;
    char qual[256];
    snprintf(qual, sizeof qual, "__torch__.%s", fn);
    TsFunction *f = ts_unit_find(s->unit, qual);
    char *text = NULL;
    if (!f) {
        ts_error_set(err, TS_ERR_KEY, "no function '%s'", fn);
    } else if (pass) {
        TsGraph *g = ts_graph_copy(f->graph, err);
        TsPassEnv env = { ts_runtime_optable(rt), f->qualname, rt, s->unit };
        for (long i = 0; g && i < n_types && (size_t)i < ts_graph_num_inputs(g); i++)
            ts_graph_input(g, (size_t)i)->type = types[i];
        if (g && ts_run_pass(pass, g, &env, err) == 0)
            text = ts_graph_to_string(g, false);
        ts_graph_free(g);
    } else if (n_types) {
        TsGraph *g = ts_spec_graph(rt, s->unit, f, types, (size_t)n_types, err);
        if (g)
            text = ts_graph_to_string(g, false);
        ts_graph_free(g);
    } else {
        for (size_t i = 0; i < ts_script_num_functions(s); i++)
            if (strcmp(ts_script_function_name(s, i), qual) == 0) {
                const TsGraph *g = ts_script_function_optimized_graph(s, i, err);
                if (g)
                    text = ts_graph_to_string(g, false);
            }
    }
    ts_script_free(s);
    return text;
}

static void check_file(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/t/passes/%s", TS_TEST_SRCDIR, name);
    char *src = slurp(path);
    if (!ok(src != NULL, "%s: read", name)) {
        free(src);
        return;
    }
    char fn[128] = "main", pass[64];
    directive(src, "# FUNCTION:", fn, sizeof fn);
    bool one = directive(src, "# PASS:", pass, sizeof pass);
    TsError err = TS_ERROR_INIT;
    char *text = optimized_text(name, src, fn, one ? pass : NULL, &err);
    if (!text) {
        ok(0, "%s: %s optimizes", name, one ? pass : "the pipeline");
        diag("%s", err.msg ? err.msg : "out of memory");
    } else {
        int rc = ts_filecheck_run_text(src, text, &err);
        if (!ok(rc == 0, "%s: %s", name, one ? pass : "the pipeline")) {
            diag("%s", err.msg ? err.msg : "?");
            diag("%s", text);
        }
    }
    ts_error_clear(&err);
    free(text);
    free(src);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    TsError err = TS_ERROR_INIT;
    rt = ts_runtime_open(NULL, &err);
    if (!rt) {
        printf("1..0 # SKIP no runtime: %s\n", err.msg);
        ts_error_clear(&err);
        return 0;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/t/passes", TS_TEST_SRCDIR);
    DIR *d = opendir(dir);
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 3 && strcmp(e->d_name + len - 3, ".py") == 0) {
            char **grown = realloc(names, (n + 1) * sizeof *names);
            if (!grown)
                break;
            names = grown;
            names[n++] = strdup(e->d_name);
        }
    }
    if (d)
        closedir(d);
    qsort(names, n, sizeof *names, by_name);

    /* the pipeline's passes are known by name; a name nobody has is refused */
    for (size_t i = 0; ts_pass_name(i); i++)
        ok(ts_pass_name(i)[0] != '\0', "pass %zu is named %s", i, ts_pass_name(i));
    TsGraph *g = ts_graph_new(&err);
    TsPassEnv env = { ts_runtime_optable(rt), "test", rt, NULL };
    ok(g && ts_run_pass("no_such_pass", g, &env, &err) != 0 && err.code == TS_ERR_KEY &&
           strstr(err.msg, "no pass named 'no_such_pass'"),
       "an unknown pass name is refused, naming it");
    ts_error_clear(&err);
    ts_graph_free(g);

    for (size_t i = 0; i < n; i++) {
        check_file(names[i]);
        free(names[i]);
    }
    free(names);
    ts_runtime_close(rt);
    return done_testing();
}
