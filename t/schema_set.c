/* t/schema_set.c — schema sets as startup reads them: every schema of a set parsed into one
 * arena (core/registry/arena.c), with the set's memo of repeated arguments and cached types
 * (schema.c). A set must hold exactly what parsing each schema alone gives, whichever
 * reader (the fast scanner or libyaml) read it; the memory has one owner however the
 * schemas are handed on (the valgrind and ASan runs of this test check that). (A bad
 * schema in the middle of a big set: t/yaml.c.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/arena.h"
#include "registry/yaml_schemas.h"
#include "tap.h"
#include "tscript/strbuf.h"

#define DATA TS_TEST_SRCDIR "/t/data/"

/* The lines of a file (without their '\n'), malloc'd, in *lines. */
static size_t read_lines(const char *path, char ***lines)
{
    TsError err = TS_ERROR_INIT;
    size_t len;
    char *text = ts_yaml_read_file(path, &len, &err);
    *lines = NULL;
    if (!text) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return 0;
    }
    size_t n = 0, cap = 0;
    for (char *p = text, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl)
            nl = p + strlen(p) - 1;
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            *lines = realloc(*lines, cap * sizeof **lines);
        }
        (*lines)[n++] = strndup(p, (size_t)(nl - p) + (nl[0] != '\n'));
        if (!nl[1])
            break;
    }
    free(text);
    return n;
}

/* "- func: '...'" for each schema ('' for a quote), as a schema set file. */
static char *as_set(char **lines, size_t n)
{
    TsBuf b = TS_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        ts_buf_puts(&b, "- func: '");
        for (const char *p = lines[i]; *p; p++) {
            if (*p == '\'')
                ts_buf_puts(&b, "''");
            else
                ts_buf_add(&b, p, 1);
        }
        ts_buf_puts(&b, "'\n");
    }
    return ts_buf_take(&b, NULL);
}

/* Each schema of the set prints as the same text parsed alone does. */
static void same_as_alone(const TsSchemaSet *set, char **lines, size_t n, const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < n && i < set->n; i++) {
        TsError err = TS_ERROR_INIT;
        TsSchema *alone = ts_schema_parse(lines[i], NULL, NULL, &err);
        char *a = alone ? ts_schema_to_string(alone) : NULL;
        char *b = ts_schema_to_string(set->decls[i].schema);
        if (!a || !b || strcmp(a, b) != 0 ||
            ts_schema_is_mutable(alone) != ts_schema_is_mutable(set->decls[i].schema)) {
            if (bad++ < 5)
                diag("alone: %s\n#   in the set: %s", a ? a : "?", b ? b : "?");
        }
        free(a);
        free(b);
        ts_schema_free(alone);
        ts_error_clear(&err);
    }
    is_int((long long)bad, 0, "%s: every schema is the one parsed alone", what);
}

/* torch's every schema (t/data/schemas.txt) as one set: thousands of repeated arguments
 * go through the memo, with and without defaults, kwarg-only or not, annotated. */
static void test_corpus_as_set(void)
{
    char **lines;
    size_t n = read_lines(DATA "schemas.txt", &lines);
    ok(n > 4000, "read the corpus (%zu schemas)", n);
    char *text = as_set(lines, n);
    for (int full = 0; full < 2; full++) {
        const char *what = full ? "libyaml" : "the scanner";
        TsError err = TS_ERROR_INIT;
        TsSchemaSet set;
        int rc = full ? ts_yaml_schemas_parse_full(text, strlen(text), "c.yaml", &set, &err)
                      : ts_yaml_schemas_parse(text, strlen(text), "c.yaml", &set, &err);
        is_int(rc, 0, "%s reads the corpus as one set%s%s", what, err.msg ? ": " : "",
               err.msg ? err.msg : "");
        is_int((long long)set.n, (long long)n, "%s: all of it", what);
        same_as_alone(&set, lines, n, what);
        /* A schema taken out of its set keeps its memory alive on its own. */
        TsSchema *last = set.n ? set.decls[set.n - 1].schema : NULL;
        if (last)
            set.decls[set.n - 1].schema = NULL;
        ts_schema_set_free(&set);
        char *s = last ? ts_schema_to_string(last) : NULL;
        is_str(s, lines[n - 1], "%s: a schema outlives its set", what);
        free(s);
        ts_schema_free(last);
        ts_error_clear(&err);
    }
    free(text);
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* Whole argument and return lists with the same text share one array within a set (most
 * of a set's memory before); a list with a default that holds a reference (a list, a
 * string) is never shared, and neither is one whose text differs in any way. */
static void test_shared_lists(void)
{
    static const char *const lines[] = {
        "a::f(Tensor self, int dim=0) -> Tensor",
        "a::g(Tensor self, int dim=0) -> Tensor",
        "a::k(Tensor self, int dim=0) -> (Tensor, Tensor)",
        "a::v(Tensor self, int dim=0, ...) -> ...",
        "a::w(Tensor(a!) self, int dim=0) -> Tensor(a!)",
        "a::m(Tensor self, int[2] s=[0, 1]) -> Tensor",
        "a::m2(Tensor self, int[2] s=[0, 1]) -> Tensor",
        "a::s(Tensor self, str mode=\"mean\") -> Tensor",
        "a::s2(Tensor self, str mode=\"mean\") -> Tensor",
        "a::x(Tensor self, *, int dim=0) -> Tensor",
    };
    size_t n = sizeof lines / sizeof *lines;
    char *text = as_set((char **)lines, n);
    TsError err = TS_ERROR_INIT;
    TsSchemaSet set;
    int rc = ts_yaml_schemas_parse(text, strlen(text), "l.yaml", &set, &err);
    is_int(rc, 0, "a set of lists read");
    if (rc == 0 && set.n == n) {
        TsSchema *const *d = (TsSchema *const[]){
            set.decls[0].schema, set.decls[1].schema, set.decls[2].schema,
            set.decls[3].schema, set.decls[4].schema, set.decls[5].schema,
            set.decls[6].schema, set.decls[7].schema, set.decls[8].schema,
            set.decls[9].schema };
        ok(d[0]->args == d[1]->args, "the same argument list is one array");
        ok(d[0]->returns == d[1]->returns && d[0]->returns == d[5]->returns,
           "the same return list is one array");
        ok(d[2]->args == d[0]->args && d[2]->returns != d[0]->returns,
           "other returns share nothing of the returns");
        ok(d[3]->args != d[0]->args && d[3]->is_vararg && !d[0]->is_vararg && d[3]->is_varret,
           "a list with '...' is its own, and says so");
        ok(d[4]->args != d[0]->args && d[4]->returns != d[0]->returns,
           "an annotation makes another list");
        ok(d[5]->args != d[6]->args && d[6]->args[1].has_default,
           "a list default is never shared");
        ok(d[7]->args != d[8]->args, "a string default is never shared");
        ok(d[9]->args != d[0]->args && d[9]->args[1].kwarg_only && !d[0]->args[1].kwarg_only,
           "kwarg-only is part of the text");
        same_as_alone(&set, (char **)lines, n, "shared lists");
        /* g outlives the set whose first schema parsed the array it points at */
        TsSchema *g = set.decls[1].schema;
        set.decls[1].schema = NULL;
        ts_schema_set_free(&set);
        char *s = ts_schema_to_string(g);
        is_str(s, lines[1], "a schema sharing a list outlives its set");
        free(s);
        ts_schema_free(g);
    } else {
        is_int((long long)(rc == 0 ? set.n : 0), (long long)n, "all of it");
        if (rc == 0)
            ts_schema_set_free(&set);
    }
    ts_error_clear(&err);
    free(text);
}

/* The arena itself: zeroed and aligned memory, big requests, references. */
static void test_arena(void)
{
    TsArena *a = ts_arena_new(64);
    ok(a != NULL, "an arena");
    int zero = 1, aligned = 1;
    for (size_t n = 1; n < 3000; n += 37) {
        unsigned char *p = ts_arena_alloc(a, n);
        for (size_t i = 0; i < n; i++)
            zero &= p[i] == 0;
        aligned &= ((uintptr_t)p % TS_ARENA_ALIGN) == 0;
        memset(p, 0xab, n);
    }
    ok(zero, "allocations are zeroed");
    ok(aligned, "and aligned");
    ok(ts_arena_alloc(a, 1u << 22) != NULL, "a request bigger than any chunk");
    ok(ts_arena_alloc(a, SIZE_MAX - 8) == NULL, "an absurd request fails");
    ts_arena_retain(a);
    ts_arena_release(a);
    unsigned char *p = ts_arena_alloc(a, 16);
    ok(p != NULL, "a released reference leaves the other");
    ts_arena_release(a);
    ts_arena_release(NULL);
    ok(1, "releasing NULL is nothing");
}

int main(void)
{
    test_arena();
    test_corpus_as_set();
    test_shared_lists();
    ts_types_shutdown();
    return done_testing();
}
