/* t/parser.c — the parser: S-expression dumps for each construct (t/data/parse/NAME.py
 * against NAME.sexp, one line per top-level statement), source ranges, syntax errors with
 * their excerpts, PyTorch's "not supported" messages, limits, and every conformance case.
 *
 * TS_PARSE_REGEN=1 rewrites the .sexp files from the current output (review the diff!).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend/parser.h"
#include "tap.h"

#ifndef TS_TEST_SRCDIR
#define TS_TEST_SRCDIR "."
#endif
/* The conformance suite lives beside the source tree (../shared), as in CI. */
#define CONFORMANCE_DIR TS_TEST_SRCDIR "/../shared/conformance"

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = '\0';
    fclose(f);
    return b;
}

/* Parses text; returns the module (NULL on error, with *msg set to the message). */
static TsTree *parse(const char *text, char **msg)
{
    TsError err = TS_ERROR_INIT;
    TsSource *src = ts_source_new("t.py", text, strlen(text), &err);
    TsTree *t = ts_parse_module(src, &err);
    if (msg)
        *msg = err.msg ? strdup(err.msg) : NULL;
    ts_error_clear(&err);
    ts_source_release(src);
    return t;
}

/* The dump of a one-statement program's statement. */
static char *dump1(const char *text, int flags)
{
    char *msg = NULL;
    TsTree *t = parse(text, &msg);
    char *d = NULL;
    if (t && t->n_kids)
        d = ts_tree_dump(t->kids[t->n_kids - 1], flags);
    else
        d = msg ? msg : strdup("(nothing)");
    if (msg && d != msg)
        free(msg);
    ts_tree_free(t);
    return d;
}

static void parses_as(const char *text, const char *want, const char *name)
{
    char *d = dump1(text, 0);
    is_str(d, want, "%s", name);
    free(d);
}

static void syntax_error(const char *text, const char *phrase, const char *excerpt, const char *name)
{
    char *msg = NULL;
    TsTree *t = parse(text, &msg);
    ok(t == NULL, "%s: rejected", name);
    like(msg, phrase, "%s: says what", name);
    like(msg, excerpt, "%s: says where", name);
    ts_tree_free(t);
    free(msg);
}

/* The message ts_parse_check_def gives for the first def in text (NULL: accepted). */
static char *check_msg(const char *text)
{
    TsTree *t = parse(text, NULL);
    if (!t)
        return strdup("(parse error)");
    char *msg = NULL;
    for (size_t i = 0; i < t->n_kids; i++)
        if (t->kids[i]->kind == TS_TREE_DEF) {
            TsError err = TS_ERROR_INIT;
            if (ts_parse_check_def(t->kids[i], &err))
                msg = strdup(err.msg);
            ts_error_clear(&err);
            break;
        }
    ts_tree_free(t);
    return msg;
}

static void refused(const char *text, const char *phrase, const char *marker, const char *name)
{
    char *msg = check_msg(text);
    like(msg, phrase, "%s: refused with PyTorch's words", name);
    like(msg, marker, "%s: marked where PyTorch marks it", name);
    free(msg);
}

static void accepted(const char *text, const char *name)
{
    char *msg = check_msg(text);
    ok(msg == NULL, "%s: accepted by the frontend check", name);
    if (msg)
        diag("%s", msg);
    free(msg);
}

/* ---- data files ------------------------------------------------------------------ */

static void data_file(const char *dir, const char *base)
{
    char path[1024], sexp[1024];
    snprintf(path, sizeof path, "%s/%s.py", dir, base);
    snprintf(sexp, sizeof sexp, "%s/%s.sexp", dir, base);
    TsError err = TS_ERROR_INIT;
    TsSource *src = ts_source_read_file(path, &err);
    TsTree *t = src ? ts_parse_module(src, &err) : NULL;
    if (!ok(t != NULL, "%s parses", base)) {
        diag("%s", err.msg ? err.msg : "?");
        ts_error_clear(&err);
        ts_source_release(src);
        return;
    }
    size_t cap = 1 << 16, n = 0;
    char *got = malloc(cap);
    got[0] = '\0';
    for (size_t i = 0; i < t->n_kids; i++) {
        char *d = ts_tree_dump(t->kids[i], 0);
        size_t dl = strlen(d);
        while (n + dl + 2 > cap)
            got = realloc(got, cap *= 2);
        memcpy(got + n, d, dl);
        n += dl;
        got[n++] = '\n';
        got[n] = '\0';
        free(d);
    }
    if (getenv("TS_PARSE_REGEN")) {
        FILE *f = fopen(sexp, "w");
        if (f) {
            fputs(got, f);
            fclose(f);
        }
    }
    char *want = read_all(sexp);
    /* line by line, so a failure names the statement */
    int same = want && strcmp(want, got) == 0;
    ok(same, "%s dumps as %s.sexp", base, base);
    if (!same && want) {
        char *g = got, *w = want;
        while (*g && *w) {
            size_t gl = strcspn(g, "\n"), wl = strcspn(w, "\n");
            if (gl != wl || memcmp(g, w, gl) != 0) {
                diag("got  %.*s", (int)gl, g);
                diag("want %.*s", (int)wl, w);
                break;
            }
            g += gl + (g[gl] != 0);
            w += wl + (w[wl] != 0);
        }
    }
    free(want);
    free(got);
    ts_tree_free(t);
    ts_source_release(src);
}

static void data_files(void)
{
    const char *dir = TS_TEST_SRCDIR "/t/data/parse";
    DIR *d = opendir(dir);
    if (!ok(d != NULL, "t/data/parse exists"))
        return;
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".py") == 0)
            names[n++] = strndup(e->d_name, l - 3);
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        data_file(dir, names[i]);
        free(names[i]);
    }
}

/* ---- conformance cases --------------------------------------------------------------- */

/* Every function case parses; the ones whose expected error is a frontend message get exactly it
 * from ts_parse_check_def, and no other case trips the check. */
static void conformance(void)
{
    char *errors = read_all(CONFORMANCE_DIR "/compile_errors.txt");
    DIR *top = opendir(CONFORMANCE_DIR "/cases");
    if (!top) {
        ok(1, "# SKIP no conformance cases at " CONFORMANCE_DIR);
        free(errors);
        return;
    }
    int parsed = 0, total = 0, flagged = 0, wrong = 0;
    struct dirent *area;
    while ((area = readdir(top))) {
        if (area->d_name[0] == '.')
            continue;
        char adir[1024];
        snprintf(adir, sizeof adir, CONFORMANCE_DIR "/cases/%s", area->d_name);
        DIR *ad = opendir(adir);
        if (!ad)
            continue;
        struct dirent *e;
        while ((e = readdir(ad))) {
            size_t l = strlen(e->d_name);
            if (l < 4 || strcmp(e->d_name + l - 3, ".py") != 0)
                continue;
            char path[2048], errp[2048], cname[1024];
            snprintf(path, sizeof path, "%s/%s", adir, e->d_name);
            snprintf(errp, sizeof errp, "%s/%.*s.err", adir, (int)(l - 3), e->d_name);
            snprintf(cname, sizeof cname, "%s/%.*s", area->d_name, (int)(l - 3), e->d_name);
            /* a module case's .py is the Python PyTorch scripted (its __init__, ignored and
             * unused methods are never TorchScript); tscript runs its .pt archive */
            char ptp[2048];
            snprintf(ptp, sizeof ptp, "%s/%.*s.pt", adir, (int)(l - 3), e->d_name);
            if (access(ptp, F_OK) == 0)
                continue;
            total++;
            TsError err = TS_ERROR_INIT;
            TsSource *src = ts_source_read_file(path, &err);
            TsTree *t = src ? ts_parse_module(src, &err) : NULL;
            if (!t) {
                ok(0, "conformance %s parses", cname);
                diag("%s", err.msg);
                ts_error_clear(&err);
                ts_source_release(src);
                continue;
            }
            parsed++;
            /* the first frontend refusal among the file's functions and methods */
            char *msg = NULL;
            for (size_t i = 0; i < t->n_kids && !msg; i++) {
                const TsTree *s = t->kids[i];
                if (s->kind == TS_TREE_DEF && ts_parse_check_def(s, &err))
                    msg = strdup(err.msg);
                if (s->kind == TS_TREE_CLASS)
                    for (size_t j = 0; j < s->kids[3]->n_kids && !msg; j++)
                        if (ts_parse_check_def(s->kids[3]->kids[j], &err))
                            msg = strdup(err.msg);
                ts_error_clear(&err);
            }
            char *phrase = read_all(errp);
            if (phrase)
                phrase[strcspn(phrase, "\n")] = '\0';
            int listed = errors && strstr(errors, cname) != NULL;
            if (msg) {
                flagged++;
                if (!listed || !phrase || !strstr(msg, phrase)) {
                    wrong++;
                    ok(0, "conformance %s: frontend refusal matches its .err", cname);
                    diag("%s", msg);
                }
            }
            free(phrase);
            free(msg);
            ts_tree_free(t);
            ts_source_release(src);
        }
        closedir(ad);
    }
    closedir(top);
    free(errors);
    is_int(parsed, total, "all %d conformance cases parse", total);
    ok(flagged >= 8 && wrong == 0, "%d cases refused by the frontend check, all as PyTorch does",
       flagged);
}

/* ---- main --------------------------------------------------------------------------- */

int main(void)
{
    data_files();

    /* precedence and desugaring, spelled out */
    parses_as("-x ** 2\n", "(expr (unary - (binary ** x 2)))", "** binds tighter than unary minus");
    parses_as("2 ** 3 ** 2\n", "(expr (binary ** 2 (binary ** 3 2)))", "** is right-associative");
    parses_as("a - b - c\n", "(expr (binary - (binary - a b) c))", "- is left-associative");
    parses_as("a < b < c\n", "(expr (binary and (binary < a b) (binary < b c)))",
              "comparison chains become and");
    parses_as("a not in b\n", "(expr (unary not (binary in a b)))", "not in is not (in)");
    parses_as("not a or b\n", "(expr (binary or (unary not a) b))", "not binds tighter than or");
    parses_as("f'{a}-{b}'\n", "(expr (call (attr \"{}-{}\" format) a b))", "f-strings become format calls");

    /* ranges */
    {
        char *d = dump1("x = foo(1,\n        2) + y\n", TS_DUMP_RANGES);
        like(d, "(call foo@1:5-1:8 1@1:9-1:10 2@2:9-2:10)@1:5-2:11", "call range spans its lines");
        like(d, "(assign x@1:1-1:2", "assignment starts at its target");
        free(d);
        d = dump1("def f(a):\n    return a\n", TS_DUMP_RANGES);
        like(d, "(def f@1:5-1:6", "def range starts at 'def'");
        like(d, "(return a@2:12-2:13)@2:5-2:13", "return range");
        free(d);
        d = dump1("s = f'ab{xy}'\n", TS_DUMP_RANGES);
        like(d, "xy@1:10-1:12", "f-string fields point into the file");
        free(d);
    }

    /* syntax errors */
    syntax_error("def f(x)\n    return x\n", "expected ':' but found newline", "        ~ <--- HERE",
                 "def without colon");
    syntax_error("def f(x):\nreturn x\n", "expected an indented block", "line 2", "missing indent");
    syntax_error("x = (1 + 2\n", "'(' was never closed", "    ~ <--- HERE", "unclosed paren");
    syntax_error("x = 'abc\n", "unterminated string literal", "    ~~~~ <--- HERE", "unterminated string");
    syntax_error("if a:\n    b\n  c\n", "unindent does not match", "line 3", "bad dedent");
    syntax_error("x = 1\n    y = 2\n", "unexpected indent", "line 2", "unexpected indent");
    syntax_error("x = 1 +\n", "expected an expression but found newline", "       ~ <--- HERE",
                 "dangling operator");
    syntax_error("f(x) = 1\n", "cannot assign to function call", "~~~~ <--- HERE", "assign to call");
    syntax_error("1 = x\n", "cannot assign to literal", "~ <--- HERE", "assign to literal");
    syntax_error("a, b += 1\n", "illegal expression for augmented assignment", "line 1", "aug tuple");
    syntax_error("a, b: int = 1\n", "only single target", "line 1", "annotated tuple");
    syntax_error("x = f'{}'\n", "f-string: empty expression", "line 1", "empty f-string field");
    syntax_error("x = f'{a!x}'\n", "invalid conversion character", "line 1", "bad conversion");
    syntax_error("x = f'a}'\n", "single '}' is not allowed", "line 1", "single brace");
    syntax_error("x = f'{a'\n", "expecting '}'", "line 1", "unclosed field");
    syntax_error("x = f'{a b}'\n", "expected the end of the expression", "line 1", "junk in a field");
    syntax_error("x = b'a' 'b'\n", "cannot mix bytes and nonbytes", "line 1", "bytes and str");
    syntax_error("try:\n    pass\nx = 1\n", "expected 'except' or 'finally'", "line 3", "bare try");
    syntax_error("@dec\nx = 1\n", "'def' or 'class' after decorators", "line 2", "decorator on nothing");
    syntax_error("x = [1, 2\ny = 3\n", "expected ']'", "line 2", "unclosed list");
    syntax_error("x[] = 1\n", "expected a subscript", "line 1", "empty subscript");
    syntax_error("def f(x):\n    # type: (int -> int\n    return x\n", "expected ')'", "line 2",
                 "malformed type comment");
    syntax_error("x = 1 $\n", "invalid character '$'", "line 1", "bad character");

    /* what PyTorch's frontend refuses, in its words and places */
    refused("def f():\n    try:\n        pass\n    except E:\n        pass\n",
            "try blocks aren't supported", "    ~~~ <--- HERE", "try");
    refused("def f():\n    g = lambda x: x\n", "Lambda aren't supported", "        ~ <--- HERE", "lambda");
    refused("def f():\n    yield 1\n", "Yield aren't supported", "line 2", "yield");
    refused("def f():\n    global g\n", "global variables aren't supported", "    ~~~~~~ <--- HERE", "global");
    refused("def f():\n    return {1, 2}\n", "Set aren't supported", "line 2", "set");
    refused("def f():\n    return {i for i in x}\n", "SetComp aren't supported", "line 2", "set comprehension");
    refused("def f():\n    if (y := 1):\n        pass\n", "NamedExpr aren't supported", "line 2", "walrus");
    refused("def f():\n    def g():\n        pass\n", "function definitions aren't supported",
            "    ~~~ <--- HERE", "nested def");
    refused("def f():\n    class C:\n        pass\n", "class definitions aren't supported", "~~~~~ <--- HERE",
            "nested class");
    refused("def f():\n    import math\n", "import statements aren't supported", "~~~~~~ <--- HERE", "import");
    refused("def f():\n    for i in x:\n        pass\n    else:\n        pass\n",
            "else branches of for loops aren't supported", "    ~~~ <--- HERE", "for else");
    refused("def f():\n    while x:\n        pass\n    else:\n        pass\n",
            "else branches of while loops aren't supported", "line 2", "while else");
    refused("def f(*xs: int):\n    pass\n",
            "Compiled functions can't take variable number of arguments", "      ~~~ <--- HERE", "*args");
    refused("def f(x, **kw):\n    pass\n", "can't take variable number of arguments", "         ~~~ <--- HERE",
            "**kwargs");
    refused("def f(x, *, y=3):\n    pass\n", "keyword-only arguments with defaults", "              ~ <--- HERE",
            "keyword-only default");
    refused("def f(x):\n    x @= x\n", "unsupported kind of augumented assignment: MatMult", "      ~~ <--- HERE",
            "@=");
    refused("def f(x):\n    x //= 2\n", "unsupported kind of augumented assignment: FloorDiv", "line 2", "//=");
    refused("def f(x):\n    return f'{x!r}'\n", "Don't support conversion in JoinedStr", "line 2", "f-string !r");
    refused("def f(x):\n    return f'{x:>3}'\n", "Don't support formatting in JoinedStr", "line 2", "f-string spec");
    refused("def f(x):\n    return [i for i in x if i]\n", "Comprehension ifs are not supported yet", "line 2",
            "comprehension if");
    refused("def f(x):\n    return [i for i in x for j in x]\n", "Only a single generator", "line 2",
            "two generators");
    refused("def f(x):\n    return {**x}\n", "Dict expansion", "line 2", "dict expansion");
    refused("def f(x):\n    return g(**x)\n", "keyword-arg expansion is not supported", "line 2", "**call");
    refused("def f(x):\n    return b'x'\n", "Unknown Constant expression type", "line 2", "bytes");
    refused("def f(x):\n    y: int\n", "annotated assignments without assigned value", "line 2", "bare annotation");
    refused("def g(self):\n    self.x: int = 1\n", "must be declared in __init__, not 'g'", "line 2",
            "instance annotation outside __init__");
    refused("def f(x):\n    return +x\n", "unsupported unary operator: UAdd ('UnaryOp' object has "
            "no attribute 'range')", "line 2", "unary plus");
    accepted("def f(x: int, y: int = 2) -> int:\n    \"\"\"doc\"\"\"\n    with a() as b:\n        pass\n"
             "    raise E('m') from None\n    return [i for i in x]\n", "supported constructs");
    accepted("def __init__(self):\n    self.x: int = 1\n", "instance annotation in __init__");
    accepted("def f(x, *, y):\n    return f'{x}'\n", "keyword-only without default, plain f-string");

    /* limits: errors, not stack overflows */
    {
        size_t n = 100000;
        char *s = malloc(n * 2 + 16);
        size_t k = 0;
        memcpy(s, "x = ", 4);
        k = 4;
        for (size_t i = 0; i < n; i++)
            s[k++] = '(';
        s[k++] = '1';
        for (size_t i = 0; i < n; i++)
            s[k++] = ')';
        s[k++] = '\n';
        s[k] = '\0';
        char *msg = NULL;
        TsTree *t = parse(s, &msg);
        ok(t == NULL && msg && (strstr(msg, "too many nested") != NULL), "deep parentheses are a clear error");
        free(msg);
        ts_tree_free(t);
        k = 4;
        for (size_t i = 0; i < n; i++)
            s[k++] = '-';
        s[k++] = '1';
        s[k++] = '\n';
        s[k] = '\0';
        t = parse(s, &msg);
        ok(t == NULL && msg && strstr(msg, "too many nested") != NULL, "deep unary chains are a clear error");
        free(msg);
        ts_tree_free(t);
        k = 4;
        for (size_t i = 0; i < n / 2; i++) {
            s[k++] = '1';
            s[k++] = '+';
        }
        s[k++] = '1';
        s[k++] = '\n';
        s[k] = '\0';
        t = parse(s, &msg);
        ok(t == NULL && msg && strstr(msg, "nested too deeply") != NULL, "long operator chains hit the tree depth limit");
        free(msg);
        ts_tree_free(t);
        k = 0;
        memcpy(s, "x = ", 4);
        k = 4;
        for (size_t i = 0; i < 500; i++) {
            s[k++] = '1';
            s[k++] = '+';
        }
        s[k++] = '1';
        s[k++] = '\n';
        s[k] = '\0';
        t = parse(s, &msg);
        ok(t != NULL, "a 500-term sum is fine");
        free(msg);
        ts_tree_free(t);
        free(s);
    }
    {
        /* a long file: many functions */
        size_t cap = 4 << 20, k = 0;
        char *s = malloc(cap);
        for (int i = 0; i < 20000; i++)
            k += (size_t)snprintf(s + k, cap - k, "def f%d(x: int) -> int:\n    return x + %d\n", i, i);
        TsTree *t = parse(s, NULL);
        ok(t && t->n_kids == 20000, "20000 functions parse");
        ts_tree_free(t);
        free(s);
    }
    {
        TsError err = TS_ERROR_INIT;
        const char *text = "List[Tuple[int, str]]";
        TsSource *src = ts_source_new(NULL, text, strlen(text), &err);
        TsTree *t = ts_parse_expression(src, 0, src->len, &err);
        char *d = t ? ts_tree_dump(t, 0) : NULL;
        is_str(d, "(subscript List (subscript Tuple int str))", "ts_parse_expression reads a type");
        free(d);
        ts_tree_free(t);
        t = ts_parse_expression(src, 0, 10, &err);
        ok(t == NULL && err.msg && strstr(err.msg, "'[' was never closed") != NULL,
           "a cut expression fails");
        ts_error_clear(&err);
        ts_tree_free(t);
        ts_source_release(src);
    }

    conformance();
    return done_testing();
}
