/* schema_scan.t — the fast reader of schema set files agrees with libyaml.
 *
 * ts_yaml_schemas_parse reads a file with the scanner and falls back to libyaml
 * (ts_yaml_schemas_parse_full) when the scanner declines. Every result must be the one
 * libyaml gives: the same declarations at the same positions, the same errors. Checked on
 * the project's own schema files (which the scanner must accept: startup depends on it), on
 * hand-written edge cases either side of the subset, and on a few thousand files assembled
 * at random from lines that probe the subset's edges.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/schema_scan.h"
#include "registry/yaml_schemas.h"
#include "tap.h"

/* Both readers' results; a description of the first difference into why. */
static bool same_result(const char *text, size_t len, char *why, size_t size)
{
    TsError e1 = TS_ERROR_INIT, e2 = TS_ERROR_INIT;
    TsSchemaSet a, b;
    int r1 = ts_yaml_schemas_parse(text, len, "s.yaml", &a, &e1);
    int r2 = ts_yaml_schemas_parse_full(text, len, "s.yaml", &b, &e2);
    bool same = r1 == r2 && a.n == b.n;
    if (!same)
        snprintf(why, size, "rc %d vs %d, %zu vs %zu declarations", r1, r2, a.n, b.n);
    if (same && (e1.msg || e2.msg) && !(e1.msg && e2.msg && strcmp(e1.msg, e2.msg) == 0)) {
        snprintf(why, size, "errors '%s' vs '%s'", e1.msg ? e1.msg : "", e2.msg ? e2.msg : "");
        same = false;
    }
    for (size_t i = 0; same && i < a.n; i++) {
        char *s1 = ts_schema_to_string(a.decls[i].schema);
        char *s2 = ts_schema_to_string(b.decls[i].schema);
        if (!s1 || !s2 || strcmp(s1, s2) != 0 || a.decls[i].line != b.decls[i].line ||
            a.decls[i].col != b.decls[i].col) {
            snprintf(why, size, "declaration %zu: '%s' at %d:%d vs '%s' at %d:%d", i,
                     s1 ? s1 : "", a.decls[i].line, a.decls[i].col, s2 ? s2 : "",
                     b.decls[i].line, b.decls[i].col);
            same = false;
        }
        free(s1);
        free(s2);
    }
    ts_schema_set_free(&a);
    ts_schema_set_free(&b);
    ts_error_clear(&e1);
    ts_error_clear(&e2);
    return same;
}

static bool accepted(const char *text, size_t len)
{
    TsScan sc;
    int rc = ts_schema_scan(text, len, &sc);
    ts_scan_free(&sc);
    return rc == 0;
}

static void check(const char *text, bool want_accepted, const char *what)
{
    char why[1024] = "";
    size_t len = strlen(text);
    ok(accepted(text, len) == want_accepted, "%s: %s", what,
       want_accepted ? "in the subset" : "declined");
    if (!ok(same_result(text, len, why, sizeof why), "%s: the same as libyaml", what))
        diag("%s", why);
}

static char *read_all(const char *path, size_t *len)
{
    TsError err = TS_ERROR_INIT;
    char *text = ts_yaml_read_file(path, len, &err);
    ts_error_clear(&err);
    return text;
}

/* Every .yaml file in dir: the same through both readers; schema files must be accepted. */
static void check_dir(const char *dir, bool all_accepted)
{
    DIR *d = opendir(dir);
    if (!ok(d != NULL, "open %s", dir))
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 5, ".yaml") != 0)
            continue;
        char path[1024], why[1024] = "";
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        char *text = read_all(path, &len);
        if (!ok(text != NULL, "read %s", e->d_name))
            continue;
        if (all_accepted)
            ok(accepted(text, len), "%s is in the fast subset", e->d_name);
        if (!ok(same_result(text, len, why, sizeof why), "%s: the same as libyaml", e->d_name))
            diag("%s", why);
        free(text);
    }
    closedir(d);
}

static void test_files(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/schemas", TS_TEST_SRCDIR);
    check_dir(dir, true);
    snprintf(dir, sizeof dir, "%s/examples/plugins/vendor", TS_TEST_SRCDIR);
    check_dir(dir, false);
    snprintf(dir, sizeof dir, "%s/t/data", TS_TEST_SRCDIR);
    check_dir(dir, false);
}

static void test_subset(void)
{
    check("", true, "an empty file");
    check("# only a comment\n\n   \n", true, "comments and blank lines");
    check("- func: f(int x) -> int\n", true, "one entry");
    check("- func: f(int x) -> int", true, "no final newline");
    check("- func: f(int x) -> int   \n", true, "trailing spaces");
    check("- func: f(int x) -> int  # why\n", true, "a trailing comment");
    check("- func:    f(int x) -> int\n", true, "spaces before the value");
    check("- func: f(int x) -> int\n  variants: function, method\n", true, "another key");
    check("- variants: function\n  func: f(int x) -> int\n", true, "func second");
    check("- func: 'f(str s=''a'') -> int'\n", true, "single-quoted");
    check("- func: 'f(str s=\" #\") -> int'  # c\n", true, "single-quoted with ' #' inside");
    check("- func: f(str s=\"a#b\") -> int\n", true, "'#' without a space before it");
    check("- func: f(str s=\"a:b\") -> int\n", true, "':' without a space after it");
    check("- func: f(int x) -> int\n    # an indented comment\n- func: g() -> int\n", true,
          "an indented comment between entries");
    check("# caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x99\x82\n- func: f() -> int\n", true,
          "UTF-8 in a comment");
    check("namespace: m\nfunctions:\n  - func: f(int x) -> int\n  - func: aten::g() -> int\n",
          true, "the mapping shape");
    check("functions:\n- func: f() -> int\nnamespace: m\n", true,
          "the mapping shape: keys in any order, items at column 0");
    check("- func: f(int x, $ y) -> int\n", true, "a bad schema (the error is libyaml's path)");
    check("- func: f() -> int\n- func: f() -> int\n", true, "a duplicate");
}

static void test_declined(void)
{
    check("- func: f() -> int\r\n", false, "CRLF");
    check("- func: f() -> int\t\n", false, "a tab");
    check("\t- func: f() -> int\n", false, "a tab in the indentation");
    check("- func: \"f() -> int\"\n", false, "double-quoted");
    check("- func: |\n    f() -> int\n", false, "a block scalar");
    check("- func: f(int x,\n    int y) -> int\n", false, "a multi-line plain scalar");
    check("- func: f(int x,\n\n    int y) -> int\n", false, "folded over a blank line");
    check("- func: 'f(int x,\n    int y) -> int'\n", false, "a multi-line quoted scalar");
    check("- {func: f() -> int}\n", false, "a flow mapping");
    check("- func: [f, g]\n", false, "a flow sequence value");
    check("- func: &a f() -> int\n", false, "an anchor");
    check("- func: !!str f() -> int\n", false, "a tag");
    check("---\n- func: f() -> int\n", false, "a document marker");
    check("- func: f() -> int\n...\n", false, "a document end marker");
    check("%YAML 1.1\n---\n- func: f() -> int\n", false, "a directive");
    check("-  func: f() -> int\n", false, "two spaces after '-'");
    check("  - func: f() -> int\n", false, "an indented root sequence");
    check("- func: f() -> int\n   variants: x\n", false, "a key at another column");
    check("- func: a: b\n", false, "': ' inside a plain scalar");
    check("- func: f() -> int:\n", false, "':' ending a plain scalar");
    check("- func:f() -> int\n", false, "no space after the key's ':'");
    check("- func:\n    f() -> int\n", false, "the value on the next line");
    check("- func: f() -> int\n- variants: x\n", false, "an entry without func");
    check("- func: f() -> int\n  func: g() -> int\n", false, "two funcs in one entry");
    check("- func: 'f() -> int'x\n", false, "text after a quoted scalar");
    check("- func: 'f() -> int'#c\n", false, "a comment right after a quoted scalar");
    check("# \xff\n- func: f() -> int\n", false, "invalid UTF-8 in a comment");
    check("# \xc0\xaf\n- func: f() -> int\n", false, "an overlong UTF-8 sequence");
    check("# \xed\xa0\x80\n- func: f() -> int\n", false, "a surrogate");
    check("# a\xe2\x80\xa8 - b\n- func: f() -> int\n", false, "U+2028 (a YAML line break)");
    check("# a\xc2\x85 b\n- func: f() -> int\n", false, "U+0085 (a YAML line break)");
    check("\xef\xbb\xbf- func: f() -> int\n", false, "a byte order mark");
    check("- func: f(str s=\"\xc3\xa9\") -> int\n", false, "UTF-8 in a value");
    check("- func: f() -> int\x7f\n", false, "DEL");
    check("namespace: m\n", false, "namespace without functions");
    check("namespace: m\nfunctions:\n", false, "functions without entries");
    check("namespace: m\nnamespace: n\nfunctions:\n- func: f() -> int\n", false,
          "namespace twice");
    check("namespace: 'm'\nfunctions:\n- func: f() -> int\n", false, "a quoted namespace");
    check("namespace: my-ns\nfunctions:\n- func: f() -> int\n", false, "a bad namespace");
    check("namespace: m\nfunctions:\n  - func: f() -> int\n - func: g() -> int\n", false,
          "items at two columns");
    check("key: value\n", false, "an unknown root key");
    check("- func: f() -> int\nkey: value\n", false, "a mapping key after a sequence");
}

/* ---- random files ------------------------------------------------------------------ */

/* Lines that probe the subset's edges; %d makes names unique, so most files are valid. */
static const char *const fragments[] = {
    "- func: f%d(int x) -> int",
    "- func: g%d(Tensor(a!) self, *, Scalar alpha=1) -> Tensor(a!)",
    "- func: 'q%d(str s=''a'', str t=\" #\") -> str'",
    "- func: c%d() -> int  # comment",
    "- func: h%d(str s=\"a#b\") -> str   ",
    "- func: dup() -> int",
    "- func: bad%d(int x, $ y) -> int",
    "- func: \"dq%d() -> int\"",
    "- func: |",
    "    blk%d() -> int",
    "    cont%d",
    "      deeper%d",
    "  variants: function, method",
    "  variants: a: b",
    "  func: second%d() -> int",
    "  dispatch:",
    "    CPU: k%d",
    "- variants: x",
    "-  func: two%d() -> int",
    "- func:",
    "- func: a%d:",
    "- func: &x an%d() -> int",
    "- func: [a, b]",
    "# comment %d",
    "   # indented comment",
    "# caf\xc3\xa9",
    "# bad \xff",
    "# ls \xe2\x80\xa8 x",
    "",
    "   ",
    "---",
    "...",
    "namespace: ns%d",
    "namespace: 'ns'",
    "functions:",
    "functions: []",
    "  - func: m%d(int x) -> int",
    "- func: t%d() -> int\t",
    "- func: r%d() -> int\r",
    "\t- func: tab%d() -> int",
    "key: value",
};

static unsigned long long rng = 0x9E3779B97F4A7C15u;

static unsigned next_rand(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static void test_random(void)
{
    enum { FILES = 3000 };
    size_t n_frag = sizeof fragments / sizeof fragments[0];
    int differ = 0, n_accepted = 0;
    for (int f = 0; f < FILES; f++) {
        char text[4096];
        size_t len = 0;
        /* a bias towards the common lines, so that many files are in the subset */
        unsigned lines = 1 + next_rand(10);
        for (unsigned l = 0; l < lines && len < sizeof text - 200; l++) {
            unsigned k = next_rand(4) ? next_rand(6) : next_rand((unsigned)n_frag);
            len += (size_t)snprintf(text + len, sizeof text - len, fragments[k], f * 16 + l);
            if (next_rand(8) || l + 1 < lines)
                text[len++] = '\n';
        }
        text[len] = '\0';
        char why[1024] = "";
        if (accepted(text, len))
            n_accepted++;
        if (!same_result(text, len, why, sizeof why)) {
            if (differ++ < 5)
                diag("differs on:\n%s\n# %s", text, why);
        }
    }
    is_int(differ, 0, "%d random files: the same as libyaml", FILES);
    ok(n_accepted > FILES / 10 && n_accepted < FILES - FILES / 10,
       "the random files are on both sides of the subset (%d accepted)", n_accepted);
}

int main(void)
{
    test_files();
    test_subset();
    test_declined();
    test_random();
    ts_types_shutdown();
    return done_testing();
}
