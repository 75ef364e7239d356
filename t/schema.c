/* t/schema.c — FunctionSchema parsing and printing (core/registry/schema.c).
 *
 * Ground truth is PyTorch 1.13: t/data/schemas.txt is every schema torch knows
 * (torch._C._jit_get_all_schemas()), each of which must parse and print back unchanged;
 * t/data/schemas_normalized.txt holds unusual spellings and what str(parse_schema(...))
 * prints for them; t/data/bad_schemas.txt holds malformed schemas with the offset and
 * phrase of the expected error. Then hand-written checks of the parsed structure, and
 * hostile input (deep nesting, huge sizes, truncations, mutations) that must fail cleanly.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/schema.h"
#include "tap.h"

#define DATA TS_TEST_SRCDIR "/t/data/"

/* ---- helpers ------------------------------------------------------------------ */

static TsSchema *parse(const char *text)
{
    TsError err = TS_ERROR_INIT;
    size_t off;
    TsSchema *s = ts_schema_parse(text, NULL, &off, &err);
    if (!s)
        diag("parse failed at %zu: %s\n#   %s", off, err.msg ? err.msg : "?", text);
    ts_error_clear(&err);
    return s;
}

/* Parses and prints; NULL (with a diagnostic) if it does not parse. malloc'd. */
static char *roundtrip(const char *text)
{
    TsSchema *s = parse(text);
    if (!s)
        return NULL;
    char *out = ts_schema_to_string(s);
    ts_schema_free(s);
    return out;
}

static const TsArg *arg_named(const TsSchema *s, const char *name)
{
    for (size_t i = 0; i < s->n_args; i++)
        if (strcmp(s->args[i].name, name) == 0)
            return &s->args[i];
    return NULL;
}

static bool set_is(const char **set, size_t n, const char *a, const char *b)
{
    size_t want = b ? 2 : 1;
    return n == want && strcmp(set[0], a) == 0 && (!b || strcmp(set[1], b) == 0);
}

/* Reads a line without its newline; false at EOF. */
static bool read_line(FILE *f, char *buf, size_t size)
{
    if (!fgets(buf, (int)size, f))
        return false;
    buf[strcspn(buf, "\n")] = '\0';
    return true;
}

/* ---- the corpus ----------------------------------------------------------------- */

static void test_corpus(void)
{
    FILE *f = fopen(DATA "schemas.txt", "r");
    if (!ok(f != NULL, "open t/data/schemas.txt"))
        return;
    char line[4096];
    int n = 0, parsed = 0, same = 0, stable = 0, shown = 0;
    while (read_line(f, line, sizeof line)) {
        n++;
        char *once = roundtrip(line);
        if (!once)
            continue;
        parsed++;
        if (strcmp(once, line) == 0)
            same++;
        else if (shown++ < 5)
            diag("prints differently:\n#   %s\n#   %s", line, once);
        char *twice = roundtrip(once);
        if (twice && strcmp(twice, once) == 0)
            stable++;
        free(once);
        free(twice);
    }
    fclose(f);
    ok(n > 4000, "the corpus has all of torch's schemas (%d)", n);
    is_int(parsed, n, "every corpus schema parses");
    is_int(same, n, "every corpus schema prints back identically");
    is_int(stable, n, "printing is a fixed point on the corpus");
}

static void test_normalized(void)
{
    FILE *f = fopen(DATA "schemas_normalized.txt", "r");
    if (!ok(f != NULL, "open t/data/schemas_normalized.txt"))
        return;
    char line[4096];
    while (read_line(f, line, sizeof line)) {
        if (line[0] == '#' || !line[0])
            continue;
        char *want = strchr(line, '\t');
        if (!want) {
            ok(0, "well-formed line: %s", line);
            continue;
        }
        *want++ = '\0';
        char *flag = strchr(want, '\t');     /* "torch: ..." where torch prints otherwise */
        if (flag)
            *flag++ = '\0';
        char *got = roundtrip(line);
        is_str(got, want, "normalizes %s: %s", flag ? "where torch is no fixed point" : "like torch",
               line);
        if (got) {
            char *again = roundtrip(got);
            is_str(again, got, "  and reads back to itself");
            free(again);
        }
        free(got);
    }
    fclose(f);
}

static void test_bad(void)
{
    FILE *f = fopen(DATA "bad_schemas.txt", "r");
    if (!ok(f != NULL, "open t/data/bad_schemas.txt"))
        return;
    char line[4096];
    int n = 0;
    while (read_line(f, line, sizeof line)) {
        if (line[0] == '#' || !line[0])
            continue;
        char *phrase = strchr(line, '\t');
        char *text = phrase ? strchr(phrase + 1, '\t') : NULL;
        if (!text) {
            ok(0, "well-formed line: %s", line);
            continue;
        }
        *phrase++ = '\0';
        *text++ = '\0';
        long want_off = strtol(line, NULL, 10);
        TsError err = TS_ERROR_INIT;
        size_t off = 99999;
        TsSchema *s = ts_schema_parse(text, NULL, &off, &err);
        n++;
        ok(s == NULL && err.code != TS_OK, "rejected: %s", text);
        is_int((long long)off, want_off, "  at offset %ld", want_off);
        like(err.msg, phrase, "  saying '%s'", phrase);
        ts_schema_free(s);
        ts_error_clear(&err);
    }
    fclose(f);
    ok(n >= 40, "at least 40 malformed schemas (%d)", n);
}

/* ---- structure ---------------------------------------------------------------------- */

static void test_add(void)
{
    TsSchema *s = parse("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    if (!ok(s != NULL, "aten::add.Tensor parses"))
        return;
    is_str(s->name, "aten::add", "qualified name");
    is_str(s->overload, "Tensor", "overload name");
    char *full = ts_schema_full_name(s);
    is_str(full, "aten::add.Tensor", "full name");
    free(full);
    is_int((long long)s->n_args, 3, "three arguments");
    is_int((long long)s->n_returns, 1, "one return");
    ok(ts_type_kind(s->args[0].type) == TS_TYPE_TENSOR, "self is a Tensor");
    ok(!s->args[0].kwarg_only && !s->args[1].kwarg_only, "self and other are positional");
    const TsArg *alpha = &s->args[2];
    ok(alpha->kwarg_only, "alpha is keyword-only");
    ok(ts_type_kind(alpha->type) == TS_TYPE_NUMBER, "alpha is a Scalar");
    ok(alpha->has_default && alpha->default_value.tag == TS_TAG_INT &&
       alpha->default_value.u.i == 1, "alpha defaults to int 1");
    ok(!s->args[0].has_default && s->args[0].alias == NULL, "self: no default, no alias");
    is_int(s->args[0].fixed_size, -1, "self has no fixed size");
    ok(s->returns[0].name == NULL, "the return is unnamed");
    ok(!s->is_vararg && !s->is_varret, "not vararg, not varret");
    ok(!ts_schema_is_mutable(s), "add is not mutable");
    ts_schema_free(s);

    s = parse("aten::relu(Tensor self) -> Tensor");
    full = s ? ts_schema_full_name(s) : NULL;
    is_str(full, "aten::relu", "full name of the default overload");
    ok(s && strcmp(s->overload, "") == 0, "default overload is \"\"");
    free(full);
    ts_schema_free(s);
}

static void test_aliases(void)
{
    TsSchema *s = parse("aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) "
                        "-> Tensor(a!)");
    if (!ok(s != NULL, "aten::add_.Tensor parses"))
        return;
    const TsAlias *a = s->args[0].alias;
    ok(a && set_is(a->before, a->n_before, "a", NULL), "self aliases set a");
    ok(a && a->is_write, "self is written");
    ok(a && a->after == a->before && a->n_after == 1, "no '->': after is before");
    ok(a && a->contained == NULL, "no contained annotation");
    a = s->returns[0].alias;
    ok(a && set_is(a->before, a->n_before, "a", NULL) && a->is_write, "the return is (a!)");
    ok(ts_schema_is_mutable(s), "add_ is mutable");
    ts_schema_free(s);

    s = parse("aten::f(Tensor(a -> *) x, Tensor(*) y, Tensor(b|a) z, Tensor(a)[] w, "
              "Tensor(b!)[] v, Tensor(a! -> *) u) -> Tensor(b|a)");
    if (!ok(s != NULL, "alias forms parse"))
        return;
    a = arg_named(s, "x")->alias;
    ok(set_is(a->before, a->n_before, "a", NULL) && set_is(a->after, a->n_after, "*", NULL) &&
       !a->is_write, "(a -> *): before {a}, after {*}");
    a = arg_named(s, "y")->alias;
    ok(set_is(a->before, a->n_before, "*", NULL), "(*): the wildcard set");
    a = arg_named(s, "z")->alias;
    ok(set_is(a->before, a->n_before, "a", "b"), "(b|a): a set of two, kept sorted");
    a = arg_named(s, "w")->alias;
    ok(a && a->n_before == 0 && !a->is_write && a->contained &&
       set_is(a->contained->before, a->contained->n_before, "a", NULL),
       "Tensor(a)[]: the element's annotation is contained");
    a = arg_named(s, "v")->alias;
    ok(a && a->is_write && a->contained && a->contained->is_write,
       "Tensor(b!)[]: the list counts as written");
    a = arg_named(s, "u")->alias;
    ok(a->is_write && set_is(a->after, a->n_after, "*", NULL), "(a! -> *)");
    ok(ts_schema_is_mutable(s), "a schema with (b!)[] is mutable");
    char *str = ts_schema_to_string(s);
    is_str(str, "aten::f(Tensor(a -> *) x, Tensor(*) y, Tensor(b|a) z, Tensor(a)[] w, "
                "Tensor(b!)[] v, Tensor(a! -> *) u) -> Tensor(b|a)", "alias forms print back");
    free(str);
    ts_schema_free(s);

    /* Sets print in descending order whatever order they were written in: torch prints an
     * unordered_set, and this makes printing a fixed point. */
    char *p = roundtrip("aten::f(Tensor(a|*) x, Tensor(x|z|y) y) -> ()");
    is_str(p, "aten::f(Tensor(a|*) x, Tensor(z|y|x) y) -> ()", "alias sets print sorted");
    free(p);
    p = roundtrip("aten::f(Tensor(a -> a) x, Tensor(a|a) y) -> ()");
    is_str(p, "aten::f(Tensor(a) x, Tensor(a) y) -> ()", "(a -> a) and (a|a) are (a)");
    free(p);
}

static void test_fixed_size(void)
{
    TsSchema *s = parse("aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, "
                        "int[2] stride=1, int[2] padding=[0, 1], int[1]? d=None) -> Tensor");
    if (!ok(s != NULL, "conv2d parses"))
        return;
    const TsArg *stride = arg_named(s, "stride");
    is_int(stride->fixed_size, 2, "int[2]: fixed size 2");
    ok(ts_type_kind(stride->type) == TS_TYPE_LIST &&
       ts_type_kind(ts_type_elem(stride->type, 0)) == TS_TYPE_INT, "int[2] is a List[int]");
    const TsList *l = stride->default_value.tag == TS_TAG_LIST
                          ? (const TsList *)stride->default_value.u.p : NULL;
    ok(l && l->len == 2 && l->items[0].u.i == 1 && l->items[1].u.i == 1,
       "stride=1 means [1, 1]");
    l = (const TsList *)arg_named(s, "padding")->default_value.u.p;
    ok(l->len == 2 && l->items[0].u.i == 0 && l->items[1].u.i == 1, "padding=[0, 1]");
    const TsArg *bias = arg_named(s, "bias");
    ok(ts_type_kind(bias->type) == TS_TYPE_OPTIONAL && bias->has_default &&
       bias->default_value.tag == TS_TAG_NONE, "Tensor? bias=None");
    const TsArg *d = arg_named(s, "d");
    ok(d->fixed_size == 1 && ts_type_kind(d->type) == TS_TYPE_OPTIONAL, "int[1]? is sized");
    ts_schema_free(s);
}

static void test_defaults(void)
{
    TsSchema *s = parse("aten::f(float eps=1e-05, str reduction=\"mean\", bool b=False, "
                        "int i=-100, float[] fl=[1., 2.5], ScalarType dtype=long, "
                        "ScalarType? h=half, Layout l=sparse_coo, MemoryFormat m=channels_last, "
                        "QScheme q=per_tensor_affine, float pinf=inf, float ninf=-inf, "
                        "float nan=nan, Device dev=\"cuda:1\", str? none=None, "
                        "complex c=-2j, str esc='a\\\"b\\n') -> ()");
    if (!ok(s != NULL, "a schema with every kind of default parses"))
        return;
    TsValue v = arg_named(s, "eps")->default_value;
    ok(v.tag == TS_TAG_DOUBLE && v.u.d == 1e-05, "float eps=1e-05");
    v = arg_named(s, "reduction")->default_value;
    ok(v.tag == TS_TAG_STR && strcmp(((TsStr *)v.u.p)->data, "mean") == 0, "str \"mean\"");
    v = arg_named(s, "b")->default_value;
    ok(v.tag == TS_TAG_BOOL && !v.u.b, "bool False");
    v = arg_named(s, "i")->default_value;
    ok(v.tag == TS_TAG_INT && v.u.i == -100, "int -100");
    v = arg_named(s, "fl")->default_value;
    const TsList *l = (const TsList *)v.u.p;
    ok(v.tag == TS_TAG_LIST && l->len == 2 && l->items[0].tag == TS_TAG_DOUBLE &&
       l->items[1].u.d == 2.5, "float[] [1., 2.5]");
    v = arg_named(s, "dtype")->default_value;
    ok(v.tag == TS_TAG_INT && v.u.i == TS_INT64, "ScalarType long is int 4");
    v = arg_named(s, "h")->default_value;
    ok(v.tag == TS_TAG_INT && v.u.i == TS_FLOAT16, "ScalarType? half is int 5");
    ok(arg_named(s, "l")->default_value.u.i == 1, "Layout sparse_coo is 1");
    ok(arg_named(s, "m")->default_value.u.i == 2, "MemoryFormat channels_last is 2");
    ok(arg_named(s, "q")->default_value.u.i == 0, "QScheme per_tensor_affine is 0");
    v = arg_named(s, "pinf")->default_value;
    ok(v.tag == TS_TAG_DOUBLE && isinf(v.u.d) && v.u.d > 0, "float inf");
    ok(isinf(arg_named(s, "ninf")->default_value.u.d) &&
       arg_named(s, "ninf")->default_value.u.d < 0, "float -inf");
    ok(isnan(arg_named(s, "nan")->default_value.u.d), "float nan");
    v = arg_named(s, "dev")->default_value;
    ok(v.tag == TS_TAG_DEVICE && v.u.dev.type == TS_DEV_CUDA && v.u.dev.index == 1,
       "Device \"cuda:1\"");
    ok(arg_named(s, "none")->default_value.tag == TS_TAG_NONE, "str? None");
    v = arg_named(s, "c")->default_value;
    ok(v.tag == TS_TAG_COMPLEX && ((TsComplex *)v.u.p)->im == -2.0, "complex -2j");
    v = arg_named(s, "esc")->default_value;
    ok(v.tag == TS_TAG_STR && strcmp(((TsStr *)v.u.p)->data, "a\"b\n") == 0,
       "escapes in single quotes");
    char *str = ts_schema_to_string(s);
    /* torch prints enum defaults as their numbers, and floats with 17 digits (a device
     * bare, which no parser reads back: tscript quotes it). */
    is_str(str, "aten::f(float eps=1.0000000000000001e-05, str reduction=\"mean\", "
                "bool b=False, int i=-100, float[] fl=[1., 2.5], ScalarType dtype=4, "
                "ScalarType? h=5, Layout l=1, MemoryFormat m=2, QScheme q=0, float pinf=inf, "
                "float ninf=-inf, float nan=nan, Device dev=\"cuda:1\", str? none=None, "
                "complex c=0.-2.j, str esc=\"a\\\"b\\n\") -> ()", "defaults print like torch");
    free(str);
    ts_schema_free(s);

    char *p = roundtrip("aten::f(float a=inf, float b=-inf, float c=nan) -> ()");
    is_str(p, "aten::f(float a=inf, float b=-inf, float c=nan) -> ()", "inf/nan read back");
    free(p);
}

static void test_vararg_returns_types(void)
{
    TsSchema *s = parse("prim::TupleConstruct(...) -> ...");
    ok(s && s->is_vararg && s->is_varret && s->n_args == 0 && s->n_returns == 0,
       "prim::TupleConstruct(...) -> ...");
    ts_schema_free(s);

    s = parse("aten::max.dim(Tensor self, int dim, bool keepdim=False) "
              "-> (Tensor values, Tensor indices)");
    ok(s && s->n_returns == 2 && strcmp(s->returns[0].name, "values") == 0 &&
       strcmp(s->returns[1].name, "indices") == 0, "named returns");
    ts_schema_free(s);

    s = parse("aten::f(Tensor x) -> ()");
    ok(s && s->n_returns == 0 && !s->is_varret, "-> () has no returns");
    ts_schema_free(s);

    s = parse("aten::f(Dict(str, t) d, (int, Tensor) tup, Future(t) fut, t[] l, Tensor?[] o, "
              "SymInt[] sz, SymInt n, Any a) -> t");
    if (ok(s != NULL, "container types parse")) {
        const TsType *d = arg_named(s, "d")->type;
        ok(ts_type_kind(d) == TS_TYPE_DICT && ts_type_elem(d, 0) == ts_type_str() &&
           ts_type_elem(d, 1) == ts_type_var("t"), "Dict(str, t)");
        const TsType *t = arg_named(s, "tup")->type;
        ok(ts_type_kind(t) == TS_TYPE_TUPLE && ts_type_num_elems(t) == 2, "(int, Tensor)");
        ok(ts_type_kind(arg_named(s, "fut")->type) == TS_TYPE_FUTURE, "Future(t)");
        ok(arg_named(s, "l")->type == ts_type_list(ts_type_var("t")), "t[]");
        ok(arg_named(s, "o")->type == ts_type_list(ts_type_optional(ts_type_tensor())),
           "Tensor?[]");
        const TsArg *sz = arg_named(s, "sz");
        ok(sz->symint && sz->type == ts_type_list(ts_type_int()), "SymInt[] is an int list");
        ok(arg_named(s, "n")->symint && !arg_named(s, "a")->symint, "only SymInt is symint");
        ok(arg_named(s, "a")->type == ts_type_any(), "Any");
    }
    ts_schema_free(s);

    s = parse("aten::f(__torch__.torch.classes.quantized.LinearPackedParamsBase p) -> ()");
    ok(s && ts_type_kind(s->args[0].type) == TS_TYPE_CLASS &&
       strcmp(ts_type_name(s->args[0].type),
              "__torch__.torch.classes.quantized.LinearPackedParamsBase") == 0,
       "a custom class type by qualified name");
    ts_schema_free(s);

    /* blanks and a comment between a class name's tokens are not part of the name (the
     * fuzzer's find: the printed schema did not parse back) */
    s = parse("c10d::f(__torch__.a . # note \xff\n b[] x) -> ()");
    char *printed = s ? ts_schema_to_string(s) : NULL;
    ok(s && strcmp(ts_type_name(ts_type_elem(s->args[0].type, 0)), "__torch__.a.b") == 0 &&
       printed && strcmp(printed, "c10d::f(__torch__.a.b[] x) -> ()") == 0,
       "a class name is its tokens joined by dots: %s", printed ? printed : "(none)");
    free(printed);
    ts_schema_free(s);
}

static void test_namespace(void)
{
    TsError err = TS_ERROR_INIT;
    size_t off = 99;
    TsSchema *s = ts_schema_parse("f(Tensor x) -> Tensor", "myns", &off, &err);
    ok(s && strcmp(s->name, "myns::f") == 0, "a bare name takes default_ns");
    ts_schema_free(s);
    s = ts_schema_parse("other::f(Tensor x) -> Tensor", "myns", &off, &err);
    ok(s && strcmp(s->name, "other::f") == 0, "an explicit namespace wins");
    ts_schema_free(s);
    s = ts_schema_parse("f(Tensor x) -> Tensor", NULL, &off, &err);
    ok(!s && err.code == TS_ERR_SYNTAX && off == 0, "no namespace and no default: an error");
    like(err.msg, "no namespace", "  saying so");
    ts_error_clear(&err);
    s = ts_schema_parse(NULL, NULL, &off, &err);
    ok(!s && err.code == TS_ERR_USAGE, "NULL text is a usage error");
    ts_error_clear(&err);
    ts_schema_free(NULL);
    ok(1, "ts_schema_free(NULL) is a no-op");
}

/* ---- hostile input ------------------------------------------------------------------ */

static void expect_limit(const char *what, const char *text, TsErrorCode code)
{
    TsError err = TS_ERROR_INIT;
    size_t off = 0;
    TsSchema *s = ts_schema_parse(text, NULL, &off, &err);
    ok(!s && err.code == code && off <= strlen(text), "%s is rejected (%s)", what,
       err.msg ? err.msg : "no message");
    ts_schema_free(s);
    ts_error_clear(&err);
}

static void test_hostile(void)
{
    enum { N = 100000 };
    char *buf = malloc(N + 64);
    if (!buf)
        return;

    strcpy(buf, "aten::f(Tensor");
    for (int i = 0; i < 1000; i++)
        strcat(buf, "[]");
    strcat(buf, " x) -> ()");
    expect_limit("Tensor[][]...[] x 1000 deep", buf, TS_ERR_LIMIT);

    strcpy(buf, "aten::f(");
    memset(buf + 8, '(', 5000);
    buf[5008] = '\0';
    expect_limit("5000 nested tuple parentheses", buf, TS_ERR_LIMIT);

    strcpy(buf, "aten::f(Tensor x) -> ");
    size_t n = strlen(buf);
    for (int i = 0; i < 3000; i++)
        memcpy(buf + n + 5 * (size_t)i, "Dict(", 5);
    buf[n + 15000] = '\0';
    expect_limit("3000 nested Dict(", buf, TS_ERR_LIMIT);

    memset(buf, ' ', N);
    memcpy(buf, "aten::f(", 8);
    strcpy(buf + N - 20, "Tensor x) -> ()");
    expect_limit("a 100 kB schema", buf, TS_ERR_LIMIT);

    expect_limit("int[100000000] x=1", "aten::f(int[100000000] x=1) -> ()", TS_ERR_LIMIT);
    expect_limit("int[99999999999999999999999] x",
                 "aten::f(int[99999999999999999999999] x) -> ()", TS_ERR_LIMIT);
    expect_limit("an unterminated triple-quoted string", "aten::f(str s='''abc) -> ()",
                 TS_ERR_SYNTAX);
    expect_limit("a control byte", "aten::f(Tensor\x01 x) -> ()", TS_ERR_SYNTAX);
    expect_limit("an empty string", "", TS_ERR_SYNTAX);

    /* A wide alias set and many arguments are fine: only nesting is bounded. */
    strcpy(buf, "aten::f(Tensor(a0");
    for (int i = 1; i < 500; i++)
        sprintf(buf + strlen(buf), "|a%d", i);
    strcat(buf, ") x) -> ()");
    TsSchema *s = parse(buf);
    ok(s && s->args[0].alias->n_before == 500, "a 500-name alias set");
    ts_schema_free(s);

    /* Every prefix of real schemas fails cleanly or parses. */
    static const char *const samples[] = {
        "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
        "int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor",
        "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
        "aten::f(Dict(str, t) d, (int, int) t, float e=1e-05, str s=\"a\\\"b\", "
        "Tensor(a -> *)[] l, complex c=-1.5j) -> ((str, t)[], ...)",
    };
    int clean = 0, total = 0;
    for (size_t k = 0; k < sizeof samples / sizeof samples[0]; k++) {
        size_t len = strlen(samples[k]);
        for (size_t cut = 0; cut < len; cut++) {
            memcpy(buf, samples[k], cut);
            buf[cut] = '\0';
            TsError err = TS_ERROR_INIT;
            size_t off = 0;
            s = ts_schema_parse(buf, NULL, &off, &err);
            total++;
            if (s || (err.code != TS_OK && err.msg && off <= cut))
                clean++;
            ts_schema_free(s);
            ts_error_clear(&err);
        }
    }
    is_int(clean, total, "every truncation parses or fails with an offset inside the text");

    /* Random byte mutations (a fixed LCG so failures reproduce). */
    unsigned long long seed = 12345;
    clean = total = 0;
    for (int round = 0; round < 3000; round++) {
        const char *src = samples[round % 3];
        size_t len = strlen(src);
        memcpy(buf, src, len + 1);
        for (int m = 0; m < 3; m++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t at = (size_t)(seed >> 33) % len;
            static const char alphabet[] = "()[]<>,.?!|*=:-+'\"\\ #0123456789aeEjxTN\t";
            buf[at] = alphabet[(seed >> 17) % (sizeof alphabet - 1)];
        }
        TsError err = TS_ERROR_INIT;
        size_t off = 0;
        s = ts_schema_parse(buf, NULL, &off, &err);
        total++;
        if (s) {
            char *str = ts_schema_to_string(s);
            if (str)
                clean++;
            free(str);
        } else if (err.code != TS_OK && err.msg && off <= len) {
            clean++;
        }
        ts_schema_free(s);
        ts_error_clear(&err);
    }
    is_int(clean, total, "mutated schemas parse and print, or fail with an offset");
    free(buf);
}

int main(void)
{
    test_corpus();
    test_normalized();
    test_bad();
    test_add();
    test_aliases();
    test_fixed_size();
    test_defaults();
    test_vararg_returns_types();
    test_namespace();
    test_hostile();
    ts_types_shutdown();
    return done_testing();
}
