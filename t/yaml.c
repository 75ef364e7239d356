/* yaml.t — schema set files: both formats, namespaces, ignored keys; every kind of malformed
 * file with its exact file:line:col; declarations shared or clashing across files; and that
 * nothing registers from a bad file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "registry/plugin.h"
#include "registry/yaml_schemas.h"
#include "tap.h"
#include "tscript/strbuf.h"

static char tmpdir[] = "/tmp/tscript-yaml-XXXXXX";

static int parse(const char *text, TsSchemaSet *set, TsError *err)
{
    return ts_yaml_schemas_parse(text, strlen(text), "s.yaml", set, err);
}

/* Expects text to fail with exactly this message. */
static void bad(const char *text, const char *want, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsSchemaSet set;
    int rc = parse(text, &set, &err);
    ok(rc == TS_ERR_SYNTAX, "%s: fails", what);
    is_str(err.msg, want, "%s: message", what);
    is_int(set.n, 0, "%s: declares nothing", what);
    ts_schema_set_free(&set);
    ts_error_clear(&err);
}

/* Expects text to fail at line:col (the reason is the schema parser's). */
static void bad_at(const char *text, const char *pos, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsSchemaSet set;
    parse(text, &set, &err);
    char want[64];
    snprintf(want, sizeof want, "s.yaml:%s: ", pos);
    ok(err.msg && strncmp(err.msg, want, strlen(want)) == 0, "%s: error at %s", what, pos);
    if (!err.msg || strncmp(err.msg, want, strlen(want)) != 0)
        diag("got '%s'", err.msg ? err.msg : "(null)");
    is_int(set.n, 0, "%s: declares nothing", what);
    ts_schema_set_free(&set);
    ts_error_clear(&err);
}

static void test_sequence_format(void)
{
    TsError err = TS_ERROR_INIT;
    TsSchemaSet set;
    char path[512];
    snprintf(path, sizeof path, "%s/t/data/schemas_seq.yaml", TS_TEST_SRCDIR);
    is_int(ts_yaml_schemas_load(path, &set, &err), 0, "load a native_functions-style file");
    if (err.msg)
        diag("%s", err.msg);
    is_int(set.n, 4, "four declarations");
    if (set.n == 4) {
        is_str(set.decls[0].schema->name, "aten::add", "a plain name is in aten");
        is_str(set.decls[0].schema->overload, "Tensor", "with its overload");
        is_int(set.decls[0].line, 3, "line of the first func");
        is_int(set.decls[0].col, 9, "column of the first func");
        is_str(set.decls[1].schema->name, "aten::add_", "in-place variant");
        is_str(set.decls[2].schema->name, "myns::frob", "an explicit namespace is kept");
        is_str(set.decls[2].schema->overload, "", "the default overload");
        is_str(set.decls[3].schema->name, "aten::quoted", "a quoted func string");
        is_int(set.decls[3].line, 14, "its line");
    }
    is_str(set.path, path, "the set remembers its file");
    ts_schema_set_free(&set);
}

static void test_mapping_format(void)
{
    TsError err = TS_ERROR_INIT;
    TsSchemaSet set;
    char path[512];
    snprintf(path, sizeof path, "%s/t/data/schemas_ns.yaml", TS_TEST_SRCDIR);
    is_int(ts_yaml_schemas_load(path, &set, &err), 0, "load a namespace: + functions: file");
    if (err.msg)
        diag("%s", err.msg);
    is_int(set.n, 3, "three declarations");
    if (set.n == 3) {
        is_str(set.decls[0].schema->name, "myns::frob", "names get the file's namespace");
        is_str(set.decls[1].schema->name, "myns::frob", "an overload of it");
        is_str(set.decls[1].schema->overload, "int", "with its overload name");
        is_str(set.decls[2].schema->name, "aten::frob", "an explicit namespace wins");
    }
    ts_schema_set_free(&set);

    is_int(parse("", &set, &err), 0, "an empty file is an empty set");
    is_int(set.n, 0, "with nothing in it");
    ts_schema_set_free(&set);
    is_int(parse("# only a comment\n", &set, &err), 0, "a file of comments too");
    ts_schema_set_free(&set);
    is_int(parse("[]\n", &set, &err), 0, "an empty sequence too");
    ts_schema_set_free(&set);

    is_int(ts_yaml_schemas_load("/nonexistent/x.yaml", &set, &err), TS_ERR_IO,
           "a missing file is an I/O error");
    like(err.msg, "/nonexistent/x.yaml: cannot open", "naming the file");
    ts_error_clear(&err);
    ts_schema_set_free(&set);
}

static void test_malformed(void)
{
    bad("- func: f(int x) -> int\n  bad: [1, 2\n",
        "s.yaml:3:1: did not find expected ',' or ']' while parsing a flow sequence",
        "unclosed flow sequence");
    bad("- func: f(int x) -> int\n - func: g() -> int\n",
        "s.yaml:2:2: did not find expected '-' indicator while parsing a block collection",
        "bad indentation");
    bad("- func: \"f(int x) -> int\n",
        "s.yaml:2:1: found unexpected end of stream while scanning a quoted scalar",
        "unterminated quoted scalar");
    bad("hello\n",
        "s.yaml:1:1: expected a sequence of '- func: ...' entries or a mapping with "
        "'namespace' and 'functions'",
        "a scalar root");
    bad("func: f(int x) -> int\n",
        "s.yaml:1:1: unknown key 'func' (expected 'namespace' or 'functions')",
        "a mapping that is not a schema set");
    bad("namespace: myns\n",
        "s.yaml:1:1: a schema set mapping needs a 'functions' key",
        "namespace without functions");
    bad("functions: []\n",
        "s.yaml:1:1: a schema set mapping needs a 'namespace' key",
        "functions without namespace");
    bad("namespace: my-ns\nfunctions: []\n",
        "s.yaml:1:12: 'namespace' must be an identifier",
        "a namespace that is not an identifier");
    bad("namespace: myns\nfunctions:\n  func: f() -> int\n",
        "s.yaml:3:3: 'functions' must be a sequence",
        "functions that is not a sequence");
    bad("- func: f(int x) -> int\n- just a string\n",
        "s.yaml:2:3: expected a mapping with a 'func' key",
        "an entry that is not a mapping");
    bad("- func: f(int x) -> int\n- variants: function\n  dispatch: {CPU: f}\n",
        "s.yaml:2:3: entry has no 'func' key",
        "an entry without func");
    bad("- func: [f, g]\n",
        "s.yaml:1:9: 'func' must be a schema string",
        "func that is a sequence");
    bad("- func:\n    name: f\n",
        "s.yaml:2:5: 'func' must be a schema string",
        "func that is a mapping");
    bad("- func: f() -> int\n  func: g() -> int\n",
        "s.yaml:2:3: duplicate 'func' key",
        "two funcs in one entry");
    bad("- func: f(int x) -> int\n---\n- func: g(int x) -> int\n",
        "s.yaml:3:1: expected a single YAML document, found a second one",
        "two documents");
    bad("- func: add.Tensor(Tensor self, Tensor other) -> Tensor\n"
        "- func: sub(Tensor self) -> Tensor\n"
        "- func: add.Tensor(Tensor self, Tensor other) -> Tensor\n",
        "s.yaml:3:9: aten::add.Tensor is declared twice (first at line 1)",
        "the same declaration twice in one file");
    bad("namespace: m\nfunctions:\n  - func: f(int x) -> int\n  - func: m::f(float x) -> int\n",
        "s.yaml:4:11: m::f is declared twice (first at line 3)",
        "a namespaced duplicate");
}

/* A bad schema's error is at the offending character, whatever the scalar's style. */
static void test_schema_positions(void)
{
    bad_at("- func: f(int x) -> int\n- func: g(int x, $ y) -> int\n", "2:18", "plain scalar");
    bad_at("namespace: m\nfunctions:\n    -   func:   g(int x, $ y) -> int\n", "3:26",
           "plain scalar, indented");
    bad_at("- func: g(int x,\n    $ y) -> int\n", "2:5", "folded plain scalar");
    bad_at("- func: g(int x,   \n\n      $ y) -> int\n", "3:7",
           "plain scalar folded over a blank line");
    bad_at("- func: 'g(str s=''a'', $ y) -> int'\n", "1:25", "single-quoted scalar");
    bad_at("- func: \"g(str s=\\\"a\\\", $ y) -> int\"\n", "1:25", "double-quoted scalar");
    bad_at("- func: \"g(str s=\\\"\\u00e9\\x41\\\", $ y) -> int\"\n", "1:34",
           "double-quoted scalar with unicode escapes");
    bad_at("- func: \"g(int x, \\\n    $ y) -> int\"\n", "2:5",
           "double-quoted scalar with an escaped line break");
    bad_at("- func: |\n    g(int x,\n      $ y) -> int\n", "3:7", "literal block scalar");
    bad_at("- func: >-\n    g(int x,\n    $ y) -> int\n", "3:5", "folded block scalar");
    bad_at("- func: g(str s=\"\xc3\xa9\xc3\xa9\", $ y) -> int\n", "1:23",
           "columns count characters, not bytes");
}

static char *write_file(const char *name, const char *text)
{
    char *path = malloc(strlen(tmpdir) + strlen(name) + 2);
    sprintf(path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* The registry side: sets staged and committed, shared and clashing declarations. */
static void test_registration(void)
{
    TsError err = TS_ERROR_INIT;
    TsOpTable *t = ts_optable_new(&err);
    TsAllocatorSlot allocs[TS_DEV__MAX] = { { NULL, NULL } };
    char *a = write_file("a.yaml", "- func: test::f(int x) -> int\n- func: test::g(int x) -> int\n");
    char *b = write_file("b.yaml", "# same as a.yaml\n- func: test::f(int x) -> int\n");
    char *c = write_file("c.yaml", "- func: test::h(int x) -> int\n- func: test::f(float x) -> int\n");
    char *d = write_file("d.yaml", "- func: test::i(int x) -> int\n- func: test::j(int x, $) -> int\n");

    TsRegistry *r = ts_registry_begin(t, allocs, "p1", &err);
    is_int(ts_registry_load_schema_file(r, a, &err), 0, "stage a.yaml");
    is_int(ts_optable_size(t), 0, "nothing is in the table before the commit");
    is_int(ts_registry_commit(r, &err), 0, "commit");
    ts_registry_free(r);
    is_int(ts_optable_size(t), 2, "two operators after the commit");
    const TsOperator *f = ts_optable_find(t, "test::f", "");
    is_str(f ? f->plugin : NULL, "p1", "declared by p1");
    char want[600];
    snprintf(want, sizeof want, "%s:1:9", a);
    char where[600] = "";
    if (f)
        ts_operator_source(f, where, sizeof where);
    is_str(where, want, "at a.yaml:1:9");

    r = ts_registry_begin(t, allocs, "p2", &err);
    is_int(ts_registry_load_schema_file(r, b, &err), 0,
           "an identical re-declaration by another plugin is allowed");
    is_int(ts_registry_commit(r, &err), 0, "and commits");
    ts_registry_free(r);
    is_int(ts_optable_size(t), 2, "and is shared: still two operators");
    f = ts_optable_find(t, "test::f", "");
    is_str(f ? f->plugin : NULL, "p1", "the first declarer stays");

    r = ts_registry_begin(t, allocs, "p3", &err);
    is_int(ts_registry_load_schema_file(r, c, &err), TS_ERR_PLUGIN,
           "a different schema for a declared name is an error");
    snprintf(want, sizeof want,
             "%s:2:9: plugin 'p3' declares 'test::f(float x) -> int', but plugin 'p1' declared "
             "it as 'test::f(int x) -> int' (%s:1:9)", c, a);
    is_str(err.msg, want, "naming both files and plugins");
    ts_error_clear(&err);
    ts_registry_free(r);
    ok(ts_optable_find(t, "test::h", "") == NULL, "nothing of the failed file registers");
    is_int(ts_optable_size(t), 2, "the table is unchanged");

    r = ts_registry_begin(t, allocs, "p4", &err);
    is_int(ts_registry_load_schema_file(r, d, &err), TS_ERR_SYNTAX, "a bad schema file fails");
    snprintf(want, sizeof want, "%s:2:24: ", d);
    like(err.msg, want, "at the bad schema's position");
    ts_error_clear(&err);
    ts_registry_free(r);
    ok(ts_optable_find(t, "test::i", "") == NULL,
       "the good declaration before it does not register");
    is_int(ts_optable_size(t), 2, "the table is unchanged");

    r = ts_registry_begin(t, allocs, "p5", &err);
    is_int(ts_registry_load_schema_file(r, "/nonexistent/e.yaml", &err), TS_ERR_IO,
           "a missing schema file fails");
    ts_error_clear(&err);
    ts_registry_free(r);

    ts_optable_free(t);
    unlink(a);
    unlink(b);
    unlink(c);
    unlink(d);
    free(a);
    free(b);
    free(c);
    free(d);
}

/* Many schemas (parsed into one arena) with one bad in the middle: the file fails at the
 * bad one's position and nothing of it stays, in the set or in the table. */
static void test_bad_in_the_middle(void)
{
    TsBuf b = TS_BUF_INIT;
    for (int i = 0; i < 400; i++)
        ts_buf_printf(&b, i == 250 ? "- func: test::f%d(Tensor self, int dim=) -> Tensor\n"
                                   : "- func: test::f%d(Tensor self, int dim=0) -> Tensor\n", i);
    char *text = ts_buf_take(&b, NULL);
    char *path = write_file("m.yaml", text);

    TsError err = TS_ERROR_INIT;
    TsSchemaSet set;
    is_int(ts_yaml_schemas_parse(text, strlen(text), "m.yaml", &set, &err), TS_ERR_SYNTAX,
           "a set with a bad schema in the middle fails");
    like(err.msg, "m.yaml:251:41: ", "at the bad schema's file:line:col");
    is_int((long long)set.n, 0, "and declares nothing");
    ts_schema_set_free(&set);
    ts_error_clear(&err);

    TsOpTable *t = ts_optable_new(&err);
    TsAllocatorSlot allocs[TS_DEV__MAX] = { { NULL, NULL } };
    TsRegistry *r = ts_registry_begin(t, allocs, "p", &err);
    is_int(ts_registry_load_schema_file(r, path, &err), TS_ERR_SYNTAX,
           "loading it into a registry fails");
    ts_error_clear(&err);
    ts_registry_free(r);
    is_int((long long)ts_optable_size(t), 0, "the table is unchanged");
    ok(ts_optable_find(t, "test::f0", "") == NULL, "not even the schemas before the bad one");

    /* Fixed, it loads whole; the operators' memory is the set's arena, now the table's. */
    char *good = malloc(strlen(text) + 2);     /* room for the default put in */
    strcpy(good, text);
    char *hole = strstr(good, "dim=)");
    memmove(hole + 5, hole + 4, strlen(hole + 4) + 1);
    hole[4] = '1';
    char *path2 = write_file("g.yaml", good);
    r = ts_registry_begin(t, allocs, "p", &err);
    is_int(ts_registry_load_schema_file(r, path2, &err), 0, "the fixed file loads");
    is_int(ts_registry_commit(r, &err), 0, "and commits");
    ts_registry_free(r);
    is_int((long long)ts_optable_size(t), 400, "all 400 operators");
    const TsOperator *op = ts_optable_find(t, "test::f399", "");
    char *s = op ? ts_schema_to_string(op->schema) : NULL;
    is_str(s, "test::f399(Tensor self, int dim=0) -> Tensor", "the last one is whole");
    free(s);
    op = ts_optable_find(t, "test::f250", "");
    s = op ? ts_schema_to_string(op->schema) : NULL;
    is_str(s, "test::f250(Tensor self, int dim=1) -> Tensor", "the fixed one has its default");
    free(s);
    char where[600] = "", want[600];
    if (op)
        ts_operator_source(op, where, sizeof where);
    snprintf(want, sizeof want, "%s:251:9", path2);
    is_str(where, want, "and its source");
    ts_optable_free(t);

    unlink(path);
    unlink(path2);
    free(path);
    free(path2);
    free(good);
    free(text);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_sequence_format();
    test_mapping_format();
    test_malformed();
    test_schema_positions();
    test_registration();
    test_bad_in_the_middle();
    rmdir(tmpdir);
    ts_types_shutdown();
    return done_testing();
}
