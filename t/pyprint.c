/* pyprint.c — tests of the python printer (core/serialize/pyprint.c).
 *
 * 1. Exact text: the programs of t/data/pyprint, whose graphs are the ones PyTorch 1.13
 *    builds, print exactly what PyTorch printed for them (t/pyprint_golden.py made the
 *    .code files).
 * 2. Round trip: every program of the corpus (the conformance suite's function cases,
 *    t/data/lang, examples/, the test_* functions of t/ *_cases.py) is compiled, its entry
 *    run, everything it uses printed, the printed files compiled by the importer (archive
 *    mode, served from memory) and the entry run again: the two runs print the same (floats
 *    within 1e-6) and fail, when they fail, with the same error.
 * 3. Fixed point: printing what the importer compiled gives the same files again.
 * 4. Errors: what cannot be printed is refused with a message.
 *
 * `pyprint.t FILE.py[:ENTRY]...` runs the round trip of those programs alone (for debugging);
 * `pyprint.t --save DIR FILE.py...` saves each FILE's main as DIR/N.pt (ts_save_function);
 * `pyprint.t --dump DIR FILE.py[:ENTRY]...` writes the printed files of each FILE's main into
 * DIR/N/ (and DIR/N/constants, DIR/N/error) for t/pyprint_torch.py, which loads them with
 * PyTorch.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend/compile.h"
#include "registry/schema.h"
#include "frontend/emit.h"
#include "runtime.h"
#include "sched/interp.h"
#include "serialize/pyprint.h"
#include "serialize/save.h"
#include "tscript/strbuf.h"
#include "pyprint_util.h"
#include "tap.h"

#ifndef TS_TEST_SRCDIR
#define TS_TEST_SRCDIR "."
#endif

static TsRuntime *rt;
static const TsOpTable *ops;

/* ---- files ------------------------------------------------------------------------------ */

/* The whole of f, read from the start to its current position. */
static char *read_all(FILE *f)
{
    long n = ftell(f);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s)
        return NULL;
    rewind(f);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    return s;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    char *s = read_all(f);
    fclose(f);
    return s;
}

/* ---- known failures -------------------------------------------------------------------- */

/* ---- printing ------------------------------------------------------------------------- */

/* Prints entry (and everything it uses) of unit; NULL with err. */
static TsPyPrinter *print_entry(TsCompUnit *u, const TsFunction *entry, TsError *err)
{
    TsPyPrinter *p = ts_pyprint_new(u, err);
    if (p && (ts_pyprint_add_function(p, entry, err) || ts_pyprint_finish(p, err))) {
        ts_pyprint_free(p);
        return NULL;
    }
    return p;
}

/* All files, concatenated with their paths, for messages and comparisons. */
static char *all_files(const TsPyPrinter *p)
{
    size_t n = 1;
    for (size_t i = 0; i < ts_pyprint_file_count(p); i++)
        n += ts_pyprint_file(p, i).len + strlen(ts_pyprint_file(p, i).path) + 8;
    char *s = malloc(n), *o = s;
    if (!s)
        return NULL;
    for (size_t i = 0; i < ts_pyprint_file_count(p); i++) {
        TsPyFile f = ts_pyprint_file(p, i);
        o += sprintf(o, "== %s\n", f.path);
        memcpy(o, f.text, f.len);
        o += f.len;
    }
    *o = '\0';
    return s;
}

static TsSource *mem_load(void *ctx, const char *module, TsError *err)
{
    const TsPyPrinter *p = ctx;
    for (size_t i = 0; i < ts_pyprint_file_count(p); i++) {
        TsPyFile f = ts_pyprint_file(p, i);
        if (strcmp(f.module, module) == 0)
            return ts_source_new(f.path, f.text, f.len, err);
    }
    return NULL;
}

/* An importer over the printed files; the entry "__torch__.NAME" compiled in *fn. */
static int import_printed(TsCompiler *c, TsCodeLoader *loader, const TsPyPrinter *p,
                          const char *qualname, TsFunction **fn, TsError *err)
{
    loader->ctx = (void *)p;
    loader->load = mem_load;
    loader->constants = ts_pyprint_constants(p);
    loader->n_constants = ts_pyprint_constant_count(p);
    if (ts_import_init(c, ops, loader, err))
        return -1;
    c->unit->resolve = import_resolve;
    c->unit->resolve_ctx = c;
    TsDefInfo *d = ts_import_function(c, qualname, err);
    if (!d)
        return err->code ? -1 : ts_error_set(err, TS_ERR_RUNTIME, "no %s in the printed code",
                                              qualname);
    TsSourceRange none = {0};
    *fn = ts_compiler_function(c, d, none, err);
    return *fn ? 0 : -1;
}

static void release_import(TsCompiler *c)
{
    TsCompUnit *u = c->unit;
    ts_compiler_free(c);
    ts_unit_free(u);
}

/* ---- running ----------------------------------------------------------------------------- */

typedef struct Outcome {
    char *out;                 /* what it printed */
    int code;                  /* its error's code, or 0 */
    char *last;                /* the last line of its error message */
} Outcome;

static char *last_line(const char *msg)
{
    if (!msg)
        return strdup("");
    size_t n = strlen(msg);
    while (n > 0 && msg[n - 1] == '\n')
        n--;
    size_t start = n;
    while (start > 0 && msg[start - 1] != '\n')
        start--;
    char *s = malloc(n - start + 1);
    if (s) {
        memcpy(s, msg + start, n - start);
        s[n - start] = '\0';
    }
    return s;
}

/* Runs f with stdout captured. */
static Outcome run_captured(TsCompUnit *u, TsFunction *f)
{
    Outcome o = {0};
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(STDOUT_FILENO);
    if (!tmp || saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
        o.code = -1;
        o.out = strdup("");
        o.last = strdup("cannot capture stdout");
        if (tmp)
            fclose(tmp);
        if (saved >= 0)
            close(saved);
        return o;
    }
    TsValue r;
    TsError err = TS_ERROR_INIT;
    if (ts_run(rt, u, f, NULL, 0, &r, &err) == 0)
        ts_value_release(r);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    o.out = read_all(tmp);
    fclose(tmp);
    o.code = err.code;
    o.last = err.code ? last_line(err.msg) : strdup("");
    ts_error_clear(&err);
    return o;
}

static void outcome_free(Outcome *o)
{
    free(o->out);
    free(o->last);
}

/* Same words, numbers equal within a relative 1e-6. */
static bool same_text(const char *a, const char *b)
{
    while (*a || *b) {
        if (*a == *b && (*a == ' ' || *a == '\n' || *a == '\t')) {
            a++, b++;
            continue;
        }
        size_t na = strcspn(a, " \n\t"), nb = strcspn(b, " \n\t");
        if (na != nb || memcmp(a, b, na) != 0) {
            char *ea, *eb;
            double x = strtod(a, &ea), y = strtod(b, &eb);
            if (ea != a + na || eb != b + nb || na == 0 || nb == 0)
                return false;
            double scale = fmax(1.0, fmax(fabs(x), fabs(y)));
            if (!(fabs(x - y) <= 1e-6 * scale) && !(isnan(x) && isnan(y)) && x != y)
                return false;
        }
        a += na;
        b += nb;
    }
    return true;
}

/* s without the ___torch_mangle_N parts a second compile of a class in one process adds to
 * its name ("__torch__.m.___torch_mangle_1.Cls", "code/__torch__/m/___torch_mangle_1.py"). */
static char *unmangled(const char *s)
{
    static const char tag[] = "___torch_mangle_";
    char *o = s ? malloc(strlen(s) + 1) : NULL;
    size_t n = 0;
    while (o && *s) {
        size_t d = strncmp(s, tag, sizeof tag - 1) == 0 ? strspn(s + sizeof tag - 1, "0123456789")
                                                         : 0;
        const char *end = s + sizeof tag - 1 + d;
        if (d && (strncmp(end, ".py", 3) == 0 || *end == '/') && n && o[n - 1] == '/') {
            n--;
            s = end;
        } else if (d && *end == '.') {
            s = end + 1;
        } else {
            o[n++] = *s++;
        }
    }
    if (o)
        o[n] = '\0';
    return o;
}

/* ---- the round trip ------------------------------------------------------------------------ */

typedef struct Stats {
    int programs, compiled, same, fixed, first_fixed;
} Stats;

/* The printed files of entry in unit, unmangled (see above), for comparing prints. */
static char *print_text(TsCompUnit *u, const TsFunction *entry, TsError *err)
{
    TsPyPrinter *p = print_entry(u, entry, err);
    char *all = p ? all_files(p) : NULL;
    char *text = unmangled(all);
    free(all);
    ts_pyprint_free(p);
    return text;
}

/* The printed code of imported code (p2, t2) imported and printed again: the two prints of
 * imported code must agree. (The first print, of the program as compiled from its source,
 * may differ from them where the importer builds a graph the frontend did not: `if True:`
 * decided while compiling, `with x as y` not naming its value, a class mangled because the
 * original one still exists in this process; the count of those that agree is reported.) */
static bool fixed_point(const TsPyPrinter *p2, const char *t2, const char *qual, TsError *err)
{
    TsCompiler c;
    TsCodeLoader loader;
    TsFunction *g = NULL;
    bool imported = import_printed(&c, &loader, p2, qual, &g, err) == 0;
    char *t3 = imported ? print_text(c.unit, g, err) : NULL;
    bool same = t3 && strcmp(t2, t3) == 0;
    if (!same) {
        diag("%s", err->msg ? err->msg : "");
        diag("printed from imported code:\n%s", t2);
        diag("the same imported and printed again:\n%s", t3 ? t3 : "");
    }
    release_import(&c);
    free(t3);
    return same;
}

static void round_trip(const char *label, TsSource *src, const char *entry, Stats *st)
{
    TsError err = TS_ERROR_INIT;
    char qual[256];
    snprintf(qual, sizeof qual, "__torch__.%s", entry);
    st->programs++;
    TsCompUnit *u = ts_compile_source(ops, src, entry, &err);
    TsFunction *f = u ? ts_unit_find(u, qual) : NULL;
    if (!f) {   /* not a program tscript compiles: nothing to print */
        ts_error_clear(&err);
        ts_unit_free(u);
        return;
    }
    st->compiled++;
    Outcome a = run_captured(u, f);
    TsPyPrinter *p = print_entry(u, f, &err);
    TsCompiler c;
    TsCodeLoader loader;
    TsFunction *g = NULL;
    bool imported = p && import_printed(&c, &loader, p, qual, &g, &err) == 0;
    /* printing compiles every method of the imported classes, as a loader that compiles
     * a whole archive would; kernels calling methods (sort's __lt__) find them */
    char *a1 = p ? all_files(p) : NULL, *t1 = unmangled(a1);
    TsPyPrinter *p2 = imported ? print_entry(c.unit, g, &err) : NULL;
    char *a2 = p2 ? all_files(p2) : NULL, *t2 = unmangled(a2);
    free(a1);
    free(a2);
    if (!check(imported && t2, "%s: printed and imported", label)) {
        diag("%s", err.msg ? err.msg : "?");
        diag("%s", t1 ? t1 : "");
    } else {
        Outcome b = run_captured(c.unit, g);
        bool same = a.code == b.code && same_text(a.out, b.out) && strcmp(a.last, b.last) == 0;
        if (check(same, "%s: runs the same after printing and importing", label)) {
            st->same++;
        } else {
            diag("before: %s%s", a.out, a.last);
            diag("after:  %s%s", b.out, b.last);
            diag("%s", t1 ? t1 : "");
        }
        outcome_free(&b);
        st->first_fixed += strcmp(t1, t2) == 0;
        ts_error_clear(&err);
        if (check(fixed_point(p2, t2, qual, &err),
                  "%s: the printed code of imported code imports and prints the same", label))
            st->fixed++;
    }
    free(t1);
    free(t2);
    ts_pyprint_free(p2);
    if (p)
        release_import(&c);
    ts_pyprint_free(p);
    ts_unit_free(u);
    outcome_free(&a);
    ts_error_clear(&err);
}

static void round_trip_file(const char *path, const char *label, const char *prefix, Stats *st)
{
    TsError err = TS_ERROR_INIT;
    TsSource *src = ts_source_read_file(path, &err);
    if (!src) {
        ok(0, "%s reads", label);
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    size_t n = 0;
    char **names = ts_compile_list_functions(src, prefix, &n, &err);
    bool several = strcmp(prefix, "main") != 0;
    for (size_t i = 0; i < n; i++) {
        if (!several && strcmp(names[i], "main") != 0)
            continue;
        char lab[1024];
        snprintf(lab, sizeof lab, "%.500s%s%.400s", label, several ? "::" : "",
                 several ? names[i] : "");
        round_trip(lab, src, names[i], st);
    }
    ts_free_names(names, n);
    ts_error_clear(&err);
    ts_source_release(src);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of dir ending in suffix, sorted. */
static char **list_dir(const char *dir, const char *suffix, size_t *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    size_t sl = strlen(suffix);
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l <= sl || strcmp(e->d_name + l - sl, suffix) != 0 || e->d_name[0] == '.')
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                break;
            names = nn;
        }
        names[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (names)
        qsort(names, *n, sizeof *names, compare_names);
    return names;
}

static void round_trip_dir(const char *dir, const char *label, const char *suffix,
                           const char *prefix, Stats *st)
{
    size_t n;
    char **names = list_dir(dir, suffix, &n);
    for (size_t i = 0; i < n; i++) {
        char path[1024], lab[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(lab, sizeof lab, "%s/%s", label, names[i]);
        round_trip_file(path, lab, prefix, st);
        free(names[i]);
    }
    free(names);
}

static void corpus(void)
{
    Stats st = {0};
    char dir[1024];
    const char *areas[] = { "alias", "builtins", "classes", "errors", "expr", "nn", "stmt",
                            "tensor", "types" };
    snprintf(dir, sizeof dir, "%s/../shared/conformance/cases", TS_TEST_SRCDIR);
    bool suite = access(dir, R_OK) == 0;
    if (suite) {
        for (size_t i = 0; i < sizeof areas / sizeof areas[0]; i++) {
            char sub[1100];
            snprintf(sub, sizeof sub, "%s/%s", dir, areas[i]);
            round_trip_dir(sub, areas[i], ".py", "main", &st);
        }
    } else {
        ok(1, "conformance function cases # SKIP no conformance suite at %s", dir);
    }
    snprintf(dir, sizeof dir, "%s/t/data/lang", TS_TEST_SRCDIR);
    round_trip_dir(dir, "t/data/lang", ".py", "main", &st);
    snprintf(dir, sizeof dir, "%s/examples", TS_TEST_SRCDIR);
    round_trip_dir(dir, "examples", ".py", "main", &st);
    snprintf(dir, sizeof dir, "%s/t", TS_TEST_SRCDIR);
    round_trip_dir(dir, "t", "_cases.py", "test_", &st);
    diag("round trip: %d programs, %d compile, %d run the same after printing and importing; "
         "printing the imported code gives the first print for %d, and is a fixed point for %d",
         st.programs, st.compiled, st.same, st.first_fixed, st.fixed);
    /* without the conformance suite (a build from the tarball) the tree's own ~200 remain */
    ok(st.compiled > (suite ? 300 : 150), "the corpus has programs to print (%d)", st.compiled);
}

/* ---- exact text ------------------------------------------------------------------------- */

static int compare_files(const void *a, const void *b)
{
    return strcmp(((const TsPyFile *)a)->path, ((const TsPyFile *)b)->path);
}

/* The files sorted by path ("code/__torch__.py" first), in t/pyprint_golden.py's layout. */
static char *sorted_files(const TsPyPrinter *p)
{
    size_t n = ts_pyprint_file_count(p);
    TsPyFile *f = calloc(n + 1, sizeof *f);
    if (!f)
        return NULL;
    for (size_t i = 0; i < n; i++)
        f[i] = ts_pyprint_file(p, i);
    qsort(f, n, sizeof *f, compare_files);
    TsBuf b = TS_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        ts_buf_printf(&b, "== %s\n", f[i].path);
        ts_buf_add(&b, f[i].text, f[i].len);
    }
    free(f);
    return ts_buf_take(&b, NULL);
}

/* The printed files of main in the file at path, or NULL with err. */
static char *printed_file(const char *path, TsError *err)
{
    TsSource *s = ts_source_read_file(path, err);
    TsCompUnit *u = s ? ts_compile_source(ops, s, "main", err) : NULL;
    ts_source_release(s);
    TsFunction *f = u ? ts_unit_find(u, "__torch__.main") : NULL;
    TsPyPrinter *p = f ? print_entry(u, f, err) : NULL;
    char *text = p ? sorted_files(p) : NULL;
    ts_pyprint_free(p);
    ts_unit_free(u);
    return text;
}

/* t/data/pyprint/NAME.py prints exactly NAME.code, what PyTorch 1.13 printed for it (made by
 * t/pyprint_golden.py): programs whose graphs are the ones PyTorch builds. */
static void golden(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/t/data/pyprint", TS_TEST_SRCDIR);
    size_t n;
    char **names = list_dir(dir, ".py", &n);
    for (size_t i = 0; i < n; i++) {
        char path[1100], code[1100];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(code, sizeof code, "%.*s.code", (int)(strlen(path) - 3), path);
        TsError err = TS_ERROR_INIT;
        char *got = printed_file(path, &err), *want = read_text(code);
        if (!is_str(got, want, "%s prints what PyTorch printed", names[i]) && err.msg)
            diag("%s", err.msg);
        free(got);
        free(want);
        free(names[i]);
        ts_error_clear(&err);
    }
    free(names);
    ok(n >= 6, "golden programs found (%zu)", n);
}

/* A `for` with a break has a trip count and a condition: it prints as a while loop whose
 * counter is carried (PyTorch's frontend rewrites such loops before printing). */
static void modified_loop(void)
{
    TsError err = TS_ERROR_INIT;
    const char *src =
        "def main(n: int) -> int:\n"
        "    s = 0\n"
        "    for i in range(n):\n"
        "        if i == 3:\n"
        "            break\n"
        "        s += i\n"
        "    return s\n";
    TsSource *s = ts_source_new("m.py", src, strlen(src), &err);
    TsCompUnit *u = s ? ts_compile_source(ops, s, "main", &err) : NULL;
    TsFunction *f = u ? ts_unit_find(u, "__torch__.main") : NULL;
    TsPyPrinter *p = f ? print_entry(u, f, &err) : NULL;
    char *got = p ? all_files(p) : NULL;
    like(got, "  s = 0\n  _0 = 0\n  _1 = torch.gt(n, 0)\n  while _1:\n",
         "the counter and the entry condition before the loop");
    like(got, "    _12 = torch.add(_0, 1)\n    _13 = torch.__and__(torch.lt(_12, n), _10)\n"
         "    _1, s, _0 = _13, _11, _12\n", "the counter and the condition at the end of a trip");
    like(got, "if torch.eq(_0, 3):", "uses of the trip count read the counter");
    ts_error_clear(&err);
    free(got);
    ts_pyprint_free(p);
    ts_unit_free(u);
    ts_source_release(s);
}

/* The archive version follows the operators printed, as PyTorch's does. */
static void versions(void)
{
    static const struct {
        const char *body;
        unsigned want;
    } cases[] = {
        { "    return a + 1\n", 3 },
        { "    return 7 / 2\n", 3 },                       /* aten::div.int never changed */
        { "    return torch.div(a, 2)\n", 4 },
        { "    return a / a\n", 4 },
        { "    return torch.div(a, 2, rounding_mode='floor')\n", 4 },
        { "    return torch.full([2], 3.) + torch.div(a, 2)\n", 5 },
        { "    return torch.linspace(0, 1, 5) + torch.full([2], 3.)\n", 8 },
        { "    return torch.logspace(0, 1, 5)\n", 9 },
        { "    return torch.nn.functional.gelu(a)\n", 10 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[512];
        snprintf(src, sizeof src, "import torch\ndef main(a: torch.Tensor):\n%s", cases[i].body);
        TsError err = TS_ERROR_INIT;
        TsSource *s = ts_source_new("m.py", src, strlen(src), &err);
        TsCompUnit *u = s ? ts_compile_source(ops, s, "main", &err) : NULL;
        TsFunction *f = u ? ts_unit_find(u, "__torch__.main") : NULL;
        TsPyPrinter *p = f ? print_entry(u, f, &err) : NULL;
        if (!is_int(p ? (long long)ts_pyprint_version(p) : -1, cases[i].want,
                    "archive version %u for: %.*s", cases[i].want,
                    (int)strcspn(cases[i].body + 4, "\n"), cases[i].body + 4) && err.msg)
            diag("%s", err.msg);
        ts_pyprint_free(p);
        ts_unit_free(u);
        ts_source_release(s);
        ts_error_clear(&err);
    }
}

/* A one-function unit from graph text; the schema takes no arguments and returns int. */
static TsCompUnit *unit_of_graph(const char *text, TsError *err)
{
    TsCompUnit *u = ts_unit_new(err);
    TsGraph *g = u ? ts_graph_parse(text, "test", err) : NULL;
    size_t off;
    TsSchema *s = g ? ts_schema_parse("f() -> int", "__torch__", &off, err) : NULL;
    if (!s || !ts_unit_add_function(u, "__torch__.f", g, s, NULL, err)) {
        if (!s)
            ts_graph_free(g);
        ts_unit_free(u);
        return NULL;
    }
    return u;
}

/* Graphs the frontend never makes are refused with a message, never a crash. */
static void malformed(void)
{
    static const struct {
        const char *what, *graph, *phrase;
    } cases[] = {
        { "a loop without its condition",
          "graph():\n  %0 : int = prim::Constant[value=1]()\n"
          "  %1 : int = prim::Loop(%0)\n    block0(%i : int):\n      -> (%0)\n  return (%1)\n",
          "malformed prim::Loop" },
        { "an If with one block",
          "graph():\n  %0 : bool = prim::Constant[value=1]()\n"
          "  %1 : int = prim::If(%0)\n    block0():\n      -> (%0)\n  return (%1)\n",
          "malformed prim::If" },
        { "a call of a function the unit lacks",
          "graph():\n  %0 : int = prim::CallFunction[name=\"__torch__.nowhere\"]()\n"
          "  return (%0)\n",
          "no function __torch__.nowhere to call" },
        { "an object of no class",
          "graph():\n  %0 : int = prim::CreateObject()\n  return (%0)\n",
          "prim::CreateObject of no class" },
        { "an unpack of nothing",
          "graph():\n  %0 : int, %1 : int = prim::TupleUnpack()\n  return (%0)\n",
          "malformed prim::TupleUnpack" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsCompUnit *u = unit_of_graph(cases[i].graph, &err);
        TsFunction *f = u ? ts_unit_find(u, "__torch__.f") : NULL;
        TsPyPrinter *p = f ? print_entry(u, f, &err) : NULL;
        if (!ok(f && !p && err.msg && strstr(err.msg, cases[i].phrase), "%s is refused: %s",
                cases[i].what, cases[i].phrase))
            diag("%s", err.msg ? err.msg : "printed");
        ts_pyprint_free(p);
        ts_unit_free(u);
        ts_error_clear(&err);
    }
}

/* ---- errors ------------------------------------------------------------------------------ */

static void errors(void)
{
    TsError err = TS_ERROR_INIT;
    TsCompUnit *u = ts_unit_new(&err);
    TsPyPrinter *p = u ? ts_pyprint_new(u, &err) : NULL;
    ok(p && ts_pyprint_add_type(p, ts_type_int(), &err) != 0 &&
       strstr(err.msg, "not a class"), "an int is not a type the printer prints");
    ts_error_clear(&err);
    static const char *const members[] = { "A", "B" };
    const TsType *e = ts_type_enum_new("__torch__.pp_test.Letters", ts_type_int(), 2, members,
                                       &err);
    ok(p && e && ts_pyprint_add_type(p, e, &err) != 0 &&
       strstr(err.msg, "the value of its member A is not known"),
       "an enum whose values nobody gave is refused");
    ts_error_clear(&err);
    TsValue vals[2] = { ts_int(1), ts_int(-2) };
    TsPyClassInfo info = { .type = e, .enum_values = vals, .n_enum_values = 2 };
    TsPyPrinter *q = u ? ts_pyprint_new(u, &err) : NULL;
    bool done = q && ts_pyprint_describe(q, &info, &err) == 0 &&
                ts_pyprint_add_type(q, e, &err) == 0 && ts_pyprint_file_count(q) == 1;
    is_str(done ? ts_pyprint_file(q, 0).text : NULL,
           "class Letters(Enum):\n  A = 1\n  B = -2\n", "an enum with its values given");
    ok(done && strcmp(ts_pyprint_file(q, 0).path, "code/__torch__/pp_test.py") == 0,
       "the enum goes into code/__torch__/pp_test.py");
    static const char *const methods[] = { "area" };
    const TsType *itf = ts_type_interface_new("__torch__.pp_test.Shape", false, 1, methods,
                                              &err);
    ok(q && itf && ts_pyprint_add_type(q, itf, &err) != 0 &&
       strstr(err.msg, "the signatures of its methods were not given"),
       "an interface without its methods' schemas is refused");
    ts_error_clear(&err);
    ts_pyprint_free(q);
    ts_pyprint_free(p);
    ts_unit_free(u);
}

/* Saving fails cleanly: a message, and no file left behind. */
static void save_errors(void)
{
    const char *src =
        "from enum import Enum\n"
        "class Shape(Enum):\n"
        "    SQ = 1\n"
        "    CI = 2\n"
        "def main():\n"
        "    print(Shape.SQ.value)\n";
    TsError err = TS_ERROR_INIT;
    TsSource *s = ts_source_new("m.py", src, strlen(src), &err);
    TsCompUnit *u = s ? ts_compile_source(ops, s, "main", &err) : NULL;
    TsFunction *f = u ? ts_unit_find(u, "__torch__.main") : NULL;
    char path[] = "/tmp/pyprint_save_XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0)
        close(fd);
    ok(f && fd >= 0 && ts_save_function(rt, u, f, path, &err) != 0 && err.msg &&
       strstr(err.msg, "cannot save") && strstr(err.msg, "member CI is not known"),
       "a function whose code cannot be printed is not saved");
    ok(access(path, F_OK) != 0, "and no unfinished file is left");
    ts_error_clear(&err);
    ok(f && ts_save_function(rt, u, f, "/nonexistent-dir/x.pt", &err) != 0 && err.msg &&
       strstr(err.msg, "/nonexistent-dir/x.pt"), "a file that cannot be created is an error");
    diag("%s", err.msg ? err.msg : "");
    ts_error_clear(&err);
    unlink(path);
    ts_unit_free(u);
    ts_source_release(s);
}

/* ---- --dump for t/pyprint_torch.py -------------------------------------------------------- */

static int write_file(const char *path, const char *text, size_t len)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(dir, 0777) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = fwrite(text, 1, len, f);
    return fclose(f) == 0 && put == len ? 0 : -1;
}

/* FILE.py or FILE.py:ENTRY (default main). */
static int dump_one(const char *dir, const char *arg)
{
    TsError err = TS_ERROR_INIT;
    char path[1024], qual[256];
    snprintf(path, sizeof path, "%s", arg);
    char *colon = strrchr(path, ':');
    if (colon)
        *colon = '\0';
    snprintf(qual, sizeof qual, "__torch__.%s", colon ? colon + 1 : "main");
    TsSource *src = ts_source_read_file(path, &err);
    TsCompUnit *u = src ? ts_compile_source(ops, src, qual + 10, &err) : NULL;
    TsFunction *f = u ? ts_unit_find(u, qual) : NULL;
    TsPyPrinter *p = f ? print_entry(u, f, &err) : NULL;
    char out[2048];
    int rc = 0;
    for (size_t i = 0; p && i < ts_pyprint_file_count(p); i++) {
        TsPyFile pf = ts_pyprint_file(p, i);
        snprintf(out, sizeof out, "%s/%s", dir, pf.path);
        rc |= write_file(out, pf.text, pf.len);
    }
    /* the constants as the script can pickle them: strings, in hex */
    TsBuf consts = TS_BUF_INIT;
    for (size_t i = 0; p && i < ts_pyprint_constant_count(p); i++) {
        TsValue v = ts_pyprint_constants(p)[i];
        if (v.tag != TS_TAG_STR) {
            ts_buf_puts(&consts, "unsupported\n");
            continue;
        }
        const TsStr *s = (const TsStr *)v.u.p;
        ts_buf_puts(&consts, "str ");
        for (size_t k = 0; k < s->len; k++)
            ts_buf_printf(&consts, "%02x", (unsigned char)s->data[k]);
        ts_buf_puts(&consts, "\n");
    }
    if (p) {
        char v[16];
        snprintf(out, sizeof out, "%s/version", dir);
        snprintf(v, sizeof v, "%u\n", ts_pyprint_version(p));
        rc |= write_file(out, v, strlen(v));
    }
    snprintf(out, sizeof out, "%s/constants", dir);
    rc |= write_file(out, consts.p ? consts.p : "", consts.len);
    ts_buf_free(&consts);
    if (!p) {   /* "uncompiled": a program tscript refuses (as PyTorch may); "error": not printed */
        snprintf(out, sizeof out, "%s/%s", dir, f ? "error" : "uncompiled");
        const char *m = err.msg ? err.msg : "no main";
        rc |= write_file(out, m, strlen(m));
    }
    ts_pyprint_free(p);
    ts_unit_free(u);
    ts_source_release(src);
    ts_error_clear(&err);
    return rc;
}

/* --save DIR FILE.py...: main of each FILE saved as DIR/N.pt (ts_save_function), or
 * DIR/N.uncompiled / DIR/N.error with the message. */
static int save_all(int argc, char **argv)
{
    int rc = 0;
    for (int i = 3; i < argc; i++) {
        char out[1024];
        TsError err = TS_ERROR_INIT;
        TsSource *src = ts_source_read_file(argv[i], &err);
        TsCompUnit *u = src ? ts_compile_source(ops, src, "main", &err) : NULL;
        TsFunction *f = u ? ts_unit_find(u, "__torch__.main") : NULL;
        snprintf(out, sizeof out, "%s/%d.pt", argv[2], i - 3);
        if (!f || ts_save_function(rt, u, f, out, &err)) {
            snprintf(out, sizeof out, "%s/%d.%s", argv[2], i - 3, f ? "error" : "uncompiled");
            const char *m = err.msg ? err.msg : "no main";
            rc |= write_file(out, m, strlen(m));
        }
        ts_unit_free(u);
        ts_source_release(src);
        ts_error_clear(&err);
    }
    return rc;
}

static int dump(int argc, char **argv)
{
    int rc = 0;
    for (int i = 3; i < argc; i++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%d", argv[2], i - 3);
        if (dump_one(dir, argv[i])) {
            fprintf(stderr, "pyprint.t: cannot write %s\n", dir);
            rc = 1;
        }
    }
    return rc;
}

int main(int argc, char **argv)
{
    TsError err = TS_ERROR_INIT;
    rt = ts_runtime_open(NULL, &err);
    if (!rt) {
        printf("1..0 # SKIP no runtime: %s\n", err.msg);
        ts_error_clear(&err);
        return 0;
    }
    ops = ts_runtime_optable(rt);
    if (argc >= 3 && (strcmp(argv[1], "--dump") == 0 || strcmp(argv[1], "--save") == 0)) {
        int rc = argv[1][2] == 'd' ? dump(argc, argv) : save_all(argc, argv);
        ts_runtime_close(rt);
        return rc;
    }
    if (argc > 1) {   /* pyprint.t FILE.py[:ENTRY]...: the round trip of those alone */
        Stats st = {0};
        for (int i = 1; i < argc; i++) {
            char path[1024];
            snprintf(path, sizeof path, "%s", argv[i]);
            char *colon = strrchr(path, ':');
            if (colon)
                *colon = '\0';
            TsSource *src = ts_source_read_file(path, &err);
            if (src)
                round_trip(argv[i], src, colon ? colon + 1 : "main", &st);
            ts_source_release(src);
            ts_error_clear(&err);
        }
        ts_runtime_close(rt);
        return done_testing();
    }
    load_todo(TS_TEST_SRCDIR);
    golden();
    modified_loop();
    versions();
    malformed();
    errors();
    save_errors();
    corpus();
    free(todo_text);
    ts_runtime_close(rt);
    return done_testing();
}
