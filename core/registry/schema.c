/* schema.c — FunctionSchema: parse the schema language and print it back canonically.
 *
 * A schema is the declaration of an operator: its qualified name, overload, typed arguments
 * with defaults, and returns, each with optional alias annotations ("Tensor(a!)"). The
 * grammar and the canonical spelling are PyTorch 1.13's, as torch._C.parse_schema accepts
 * and str(schema) prints them; t/data/schemas.txt holds every schema torch knows, and each
 * must print back unchanged.
 *
 * The parser is recursive descent over a one-token window (plus one token of lookahead for
 * "[]" versus "[N]"). Types nest only through parse_type, which counts its depth, and the
 * text is bounded, so no input can exhaust the C stack. Types are interned by types.c;
 * everything else (names, alias sets, default values) is owned by the TsSchema.
 *
 * Where torch's own printer loses information or is not a fixed point we pick the reading
 * that is: alias sets print in descending order (torch prints an unordered_set, which for
 * the sets its sources register comes out that way), bytes >= 0x80 in strings print raw.
 */
#include "registry/schema.h"
#include "strbuf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_TEXT = 1 << 16,        /* bytes of schema text */
    MAX_DEPTH = 32,            /* type constructors nested in one type */
    MAX_FIXED_SIZE = 1024      /* N of "int[N]": a scalar default is expanded N times */
};

/* ---- tokens --------------------------------------------------------------- */

typedef enum TokKind {
    TK_EOF,
    TK_IDENT,
    TK_KEYWORD,                /* a reserved word: None, True, False, if, ... */
    TK_NUMBER,
    TK_STRING,
    TK_ARROW,                  /* -> */
    TK_ELLIPSIS,               /* ... */
    TK_PUNCT,                  /* one character: ( ) [ ] , ? ! | * = . : - */
    TK_BAD                     /* a character no token starts with, or an open string */
} TokKind;

typedef struct Tok {
    TokKind kind;
    size_t off, len;
} Tok;

typedef struct Parser {
    const char *text;
    size_t len;
    Tok cur;
    TsError *err;
    size_t err_off;
    bool failed;
} Parser;

/* Words TorchScript's lexer reserves; torch rejects them as names ("from" is not one). */
static const char *const keywords[] = {
    "False", "None", "True", "and", "as", "assert", "break", "class", "continue", "def",
    "del", "elif", "else", "for", "global", "if", "import", "in", "is", "not", "or", "pass",
    "raise", "return", "while", "with",
};

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_ident_char(char c)
{
    return is_ident_start(c) || is_digit(c);
}

static bool is_keyword(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (strlen(keywords[i]) == n && memcmp(keywords[i], s, n) == 0)
            return true;
    return false;
}

/* Length of a number at s (0 if none): digits, a fraction, an exponent, a 'j' suffix. */
static size_t lex_number(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    while (i < n && is_digit(s[i]))
        i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i]))
            i++, digits++;
    }
    if (!digits)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-'))
            j++;
        if (j < n && is_digit(s[j])) {
            while (j < n && is_digit(s[j]))
                j++;
            i = j;
        }
    }
    if (i < n && s[i] == 'j')
        i++;
    return i;
}

/* Length of a string literal at s (quote included), or 0 if it never closes. */
static size_t lex_string(const char *s, size_t n)
{
    char q = s[0];
    bool triple = n >= 3 && s[1] == q && s[2] == q;
    size_t i = triple ? 3 : 1;
    while (i < n) {
        if (s[i] == '\\') {
            i += 2;
            continue;
        }
        if (triple) {
            if (i + 2 < n && s[i] == q && s[i + 1] == q && s[i + 2] == q)
                return i + 3;
        } else if (s[i] == q) {
            return i + 1;
        } else if (s[i] == '\n') {
            return 0;
        }
        i++;
    }
    return 0;
}

/* The token starting at or after pos (whitespace and '#' comments skipped). */
static Tok lex_at(const char *text, size_t len, size_t pos)
{
    for (;;) {
        while (pos < len && strchr(" \t\r\n\f\v", text[pos]))
            pos++;
        if (pos < len && text[pos] == '#') {
            while (pos < len && text[pos] != '\n')
                pos++;
            continue;
        }
        break;
    }
    Tok t = { TK_EOF, pos, 0 };
    if (pos >= len)
        return t;
    const char *s = text + pos;
    size_t n = len - pos;
    if (is_ident_start(s[0])) {
        while (t.len < n && is_ident_char(s[t.len]))
            t.len++;
        t.kind = is_keyword(s, t.len) ? TK_KEYWORD : TK_IDENT;
    } else if ((t.len = lex_number(s, n)) > 0) {
        t.kind = TK_NUMBER;
    } else if (s[0] == '"' || s[0] == '\'') {
        t.len = lex_string(s, n);
        t.kind = t.len ? TK_STRING : TK_BAD;
        if (!t.len)
            t.len = 1;
    } else if (n >= 2 && s[0] == '-' && s[1] == '>') {
        t.kind = TK_ARROW, t.len = 2;
    } else if (n >= 3 && memcmp(s, "...", 3) == 0) {
        t.kind = TK_ELLIPSIS, t.len = 3;
    } else if (strchr("()[],?!|*=.:-", s[0])) {
        t.kind = TK_PUNCT, t.len = 1;
    } else {
        t.kind = TK_BAD, t.len = 1;
    }
    return t;
}

/* ---- parser plumbing ---------------------------------------------------------- */

static void advance(Parser *P)
{
    P->cur = lex_at(P->text, P->len, P->cur.off + P->cur.len);
}

static Tok peek(const Parser *P)
{
    return lex_at(P->text, P->len, P->cur.off + P->cur.len);
}

/* Records the first error only: later ones are consequences of it. */
static int fail_va(Parser *P, TsErrorCode code, size_t off, const char *fmt, va_list ap)
{
    if (P->failed)
        return -1;
    ts_error_setv(P->err, code, fmt, ap);
    P->failed = true;
    P->err_off = off;
    return -1;
}

__attribute__((format(printf, 4, 5)))
static int fail_code(Parser *P, TsErrorCode code, size_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_va(P, code, off, fmt, ap);
    va_end(ap);
    return -1;
}

/* A syntax error at byte off. */
__attribute__((format(printf, 3, 4)))
static int fail(Parser *P, size_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_va(P, TS_ERR_SYNTAX, off, fmt, ap);
    va_end(ap);
    return -1;
}

static int fail_nomem(Parser *P)
{
    return fail_code(P, TS_ERR_NOMEM, P->cur.off, "out of memory while parsing a schema");
}

/* How an error names the token it found: its text, or what kind of thing it is. */
static void describe(const Parser *P, Tok t, char *buf, size_t size)
{
    switch (t.kind) {
    case TK_EOF:
        snprintf(buf, size, "end of input");
        return;
    case TK_STRING:
        snprintf(buf, size, "a string literal");
        return;
    case TK_BAD:
        if ((unsigned char)P->text[t.off] < 0x20 || (unsigned char)P->text[t.off] >= 0x7f)
            snprintf(buf, size, "byte 0x%02x", (unsigned char)P->text[t.off]);
        else
            snprintf(buf, size, "'%c'", P->text[t.off]);
        return;
    default:
        if (t.len > 32)
            snprintf(buf, size, "'%.32s...'", P->text + t.off);
        else
            snprintf(buf, size, "'%.*s'", (int)t.len, P->text + t.off);
    }
}

static int fail_expected(Parser *P, const char *what)
{
    if (P->cur.kind == TK_BAD && (P->text[P->cur.off] == '"' || P->text[P->cur.off] == '\''))
        return fail(P, P->cur.off, "unterminated string literal");
    char found[48];
    describe(P, P->cur, found, sizeof found);
    return fail(P, P->cur.off, "expected %s but found %s", what, found);
}

static bool is_punct(const Parser *P, char c)
{
    return P->cur.kind == TK_PUNCT && P->text[P->cur.off] == c;
}

static bool accept(Parser *P, char c)
{
    if (!is_punct(P, c))
        return false;
    advance(P);
    return true;
}

static int expect(Parser *P, char c)
{
    if (accept(P, c))
        return 0;
    char what[8];
    snprintf(what, sizeof what, "'%c'", c);
    return fail_expected(P, what);
}

static bool cur_is(const Parser *P, const char *word)
{
    return P->cur.kind == TK_IDENT && strlen(word) == P->cur.len &&
           memcmp(P->text + P->cur.off, word, P->cur.len) == 0;
}

static char *cur_dup(const Parser *P)
{
    return strndup(P->text + P->cur.off, P->cur.len);
}

/* Takes an identifier into *out (malloc'd). */
static int take_ident(Parser *P, const char *what, char **out)
{
    if (P->cur.kind != TK_IDENT)
        return fail_expected(P, what);
    if (!(*out = cur_dup(P)))
        return fail_nomem(P);
    advance(P);
    return 0;
}

/* ---- alias annotations -------------------------------------------------------- */

static void alias_free(TsAlias *a)
{
    while (a) {
        TsAlias *inner = a->contained;
        for (size_t i = 0; i < a->n_before; i++)
            free((char *)a->before[i]);
        if (a->after != a->before) {
            for (size_t i = 0; i < a->n_after; i++)
                free((char *)a->after[i]);
            free(a->after);
        }
        free(a->before);
        free(a);
        a = inner;
    }
}

static int cmp_names(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool same_set(const char **a, size_t na, const char **b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return false;
    return true;
}

/* "a|b|*": a set of alias names, kept sorted and without duplicates. */
static int parse_alias_set(Parser *P, const char ***out, size_t *n_out)
{
    const char **set = NULL;
    size_t n = 0, cap = 0;
    do {
        char *name;
        if (P->cur.kind == TK_IDENT || is_punct(P, '*')) {
            name = cur_dup(P);
            if (!name)
                goto nomem;
            advance(P);
        } else {
            fail_expected(P, "an alias set name");
            goto fail;
        }
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 4;
            const char **ns = realloc(set, ncap * sizeof *ns);
            if (!ns) {
                free(name);
                goto nomem;
            }
            set = ns, cap = ncap;
        }
        set[n++] = name;
    } while (accept(P, '|'));
    qsort(set, n, sizeof *set, cmp_names);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept && strcmp(set[kept - 1], set[i]) == 0)
            free((char *)set[i]);
        else
            set[kept++] = set[i];
    }
    *out = set, *n_out = kept;
    return 0;
nomem:
    fail_nomem(P);
fail:
    for (size_t i = 0; i < n; i++)
        free((char *)set[i]);
    free(set);
    return -1;
}

/* "(a)", "(a!)", "(a -> *)", "(a|b)", "(*)"; the current token is the '('. */
static int parse_alias(Parser *P, TsAlias **out)
{
    TsAlias *a = calloc(1, sizeof *a);
    if (!a)
        return fail_nomem(P);
    advance(P);
    if (parse_alias_set(P, &a->before, &a->n_before))
        goto fail;
    a->after = a->before, a->n_after = a->n_before;
    if (accept(P, '!'))
        a->is_write = true;
    if (P->cur.kind == TK_ARROW) {
        advance(P);
        const char **after;
        size_t n_after;
        if (parse_alias_set(P, &after, &n_after))
            goto fail;
        a->after = after, a->n_after = n_after;
    }
    if (expect(P, ')'))
        goto fail;
    *out = a;
    return 0;
fail:
    alias_free(a);
    return -1;
}

/* After "[]" or "[N]": the list's own annotation, holding the element's as contained.
 * Without one of its own, the list takes the element's write flag, as torch does, so
 * "Tensor(a!)[]" is a written argument. */
static int wrap_alias(Parser *P, TsAlias **alias)
{
    TsAlias *container = NULL;
    if (is_punct(P, '(') && parse_alias(P, &container))
        return -1;
    if (*alias) {
        if (!container) {
            if (!(container = calloc(1, sizeof *container)))
                return fail_nomem(P);
            container->is_write = (*alias)->is_write;
        }
        container->contained = *alias;
    }
    *alias = container;
    return 0;
}

/* ---- types ---------------------------------------------------------------------- */

enum { SEEN_INT = 1, SEEN_SYMINT = 2 };

typedef struct TypeName {
    const char *name;
    const TsType *(*make)(void);
    unsigned seen;             /* SEEN_INT / SEEN_SYMINT for the spellings of int */
} TypeName;

static const TypeName type_names[] = {
    { "Tensor", ts_type_tensor, 0 },
    { "int", ts_type_int, SEEN_INT },
    { "SymInt", ts_type_int, SEEN_SYMINT },
    { "ConstQuantizerPtr", ts_type_int, SEEN_INT },
    { "float", ts_type_float, 0 },
    { "complex", ts_type_complex, 0 },
    { "bool", ts_type_bool, 0 },
    { "str", ts_type_str, 0 },
    { "Dimname", ts_type_str, 0 },
    { "Scalar", ts_type_number, 0 },
    { "ScalarType", ts_type_scalartype, 0 },
    { "Layout", ts_type_layout, 0 },
    { "MemoryFormat", ts_type_memoryformat, 0 },
    { "Device", ts_type_device, 0 },
    { "Generator", ts_type_generator, 0 },
    { "Storage", ts_type_storage, 0 },
    { "Stream", ts_type_stream, 0 },
    { "QScheme", ts_type_qscheme, 0 },
    { "Capsule", ts_type_capsule, 0 },
    { "NoneType", ts_type_none, 0 },
    { "Any", ts_type_any, 0 },
    { "AnyListType", ts_type_any_list, 0 },
    { "AnyTupleType", ts_type_any_tuple, 0 },
    { "AnyClassType", ts_type_any_class, 0 },
    { "AnyEnumType", ts_type_any_enum, 0 },
};

static int parse_type(Parser *P, int depth, const TsType **out, TsAlias **alias, long *fixed,
                      unsigned *seen);

/* An element type inside Dict(...), Future(...), a tuple: annotations there are dropped,
 * as torch drops them. */
static int parse_inner(Parser *P, int depth, const TsType **out, unsigned *seen)
{
    TsAlias *alias = NULL;
    long fixed;
    int rc = parse_type(P, depth, out, &alias, &fixed, seen);
    alias_free(alias);
    return rc;
}

/* "(T, ...)" after Dict/Future/RRef/Union, or a tuple; n_min..n_max elements. */
static int parse_type_list(Parser *P, int depth, size_t n_min, size_t n_max,
                           const TsType ***elems, size_t *n_out, unsigned *seen)
{
    const TsType **v = NULL;
    size_t n = 0, cap = 0;
    if (expect(P, '('))
        return -1;
    if (!(n_min == 0 && accept(P, ')'))) {
        for (;;) {
            if (n == cap) {
                size_t ncap = cap ? 2 * cap : 4;
                const TsType **nv = realloc(v, ncap * sizeof *nv);
                if (!nv)
                    goto nomem;
                v = nv, cap = ncap;
            }
            if (parse_inner(P, depth, &v[n], seen))
                goto fail;
            n++;
            if (n < n_min) {
                if (expect(P, ','))
                    goto fail;
                continue;
            }
            if (n < n_max && accept(P, ','))
                continue;
            if (expect(P, ')'))
                goto fail;
            break;
        }
    }
    *elems = v, *n_out = n;
    return 0;
nomem:
    fail_nomem(P);
fail:
    free(v);
    return -1;
}

/* "__torch__.torch.classes.ns.Name": a class a plugin or the frontend defines; one that
 * nobody defined yet is created, so the schema can name it before its methods exist. */
static int parse_class_name(Parser *P, const TsType **out)
{
    size_t start = P->cur.off, end = P->cur.off + P->cur.len;
    advance(P);
    if (expect(P, '.'))
        return -1;
    do {
        if (P->cur.kind != TK_IDENT)
            return fail_expected(P, "a class name component");
        end = P->cur.off + P->cur.len;
        advance(P);
    } while (accept(P, '.'));
    char *name = malloc(end - start + 1);
    if (!name)
        return fail_nomem(P);
    /* Copy without any blanks the tokens were written with. */
    size_t n = 0;
    for (size_t i = start; i < end; i++)
        if (!strchr(" \t\r\n\f\v", P->text[i]))
            name[n++] = P->text[i];
    name[n] = '\0';
    const TsType *t = ts_type_lookup(name);
    if (!t) {
        TsError e = TS_ERROR_INIT;
        t = ts_type_class_new(name, false, &e);
        if (!t)
            t = ts_type_lookup(name);   /* another thread created it first */
        ts_error_clear(&e);
    }
    free(name);
    if (!t)
        return fail_nomem(P);
    *out = t;
    return 0;
}

static int parse_base_type(Parser *P, int depth, const TsType **out, unsigned *seen)
{
    const TsType **elems = NULL;
    size_t n = 0;
    const TsType *t = NULL;
    if (is_punct(P, '(')) {
        if (parse_type_list(P, depth, 0, SIZE_MAX, &elems, &n, seen))
            return -1;
        t = ts_type_tuple(n, elems);
    } else if (P->cur.kind != TK_IDENT) {
        return fail_expected(P, "a type");
    } else if (cur_is(P, "Future") || cur_is(P, "RRef")) {
        bool future = cur_is(P, "Future");
        advance(P);
        if (parse_type_list(P, depth, 1, 1, &elems, &n, seen))
            return -1;
        t = future ? ts_type_future(elems[0]) : ts_type_rref(elems[0]);
    } else if (cur_is(P, "Dict")) {
        advance(P);
        if (parse_type_list(P, depth, 2, 2, &elems, &n, seen))
            return -1;
        t = ts_type_dict(elems[0], elems[1]);
    } else if (cur_is(P, "Union")) {
        advance(P);
        if (parse_type_list(P, depth, 1, SIZE_MAX, &elems, &n, seen))
            return -1;
        t = ts_type_union(n, elems);
    } else if (cur_is(P, "__torch__")) {
        return parse_class_name(P, out);
    } else {
        for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++) {
            if (cur_is(P, type_names[i].name)) {
                *seen |= type_names[i].seen;
                *out = type_names[i].make();
                advance(P);
                return 0;
            }
        }
        /* Lower-case names that are no type are type variables: t, t1, key, ... */
        if (!(P->text[P->cur.off] >= 'a' && P->text[P->cur.off] <= 'z')) {
            char found[48];
            describe(P, P->cur, found, sizeof found);
            return fail(P, P->cur.off, "unknown type %s", found);
        }
        char *name = cur_dup(P);
        t = name ? ts_type_var(name) : NULL;
        free(name);
        advance(P);
    }
    free(elems);
    if (!t)
        return fail_nomem(P);
    *out = t;
    return 0;
}

/* type := base ["(" alias ")"] { "[]" ["(" alias ")"] | "?" } ["[N]" ["(" alias ")"] ["?"]]
 * *fixed gets N, or -1. */
static int parse_type(Parser *P, int depth, const TsType **out, TsAlias **alias, long *fixed,
                      unsigned *seen)
{
    if (depth >= MAX_DEPTH)
        return fail_code(P, TS_ERR_LIMIT, P->cur.off, "type nested too deeply (limit %d)",
                         MAX_DEPTH);
    const TsType *t = NULL;
    *alias = NULL;
    *fixed = -1;
    if (parse_base_type(P, depth + 1, &t, seen))
        return -1;
    if (is_punct(P, '(') && parse_alias(P, alias))
        return -1;
    for (;;) {
        if (!is_punct(P, '?') && !is_punct(P, '['))
            break;
        if (++depth >= MAX_DEPTH)
            return fail_code(P, TS_ERR_LIMIT, P->cur.off, "type nested too deeply (limit %d)",
                             MAX_DEPTH);
        if (is_punct(P, '?')) {
            advance(P);
            t = ts_type_optional(t);
        } else if (is_punct(P, '[')) {
            Tok next = peek(P);
            bool sized = next.kind == TK_NUMBER;
            if (sized) {
                advance(P);
                const char *s = P->text + P->cur.off;
                long n = 0;
                for (size_t i = 0; i < P->cur.len; i++) {
                    if (!is_digit(s[i]))
                        return fail(P, P->cur.off, "a list size must be an integer");
                    if ((n = n * 10 + (s[i] - '0')) > MAX_FIXED_SIZE)
                        return fail_code(P, TS_ERR_LIMIT, P->cur.off,
                                         "list size too large (limit %d)", MAX_FIXED_SIZE);
                }
                *fixed = n;
            } else if (!(next.kind == TK_PUNCT && P->text[next.off] == ']')) {
                advance(P);
                return fail_expected(P, "']' or a list size");
            }
            advance(P);
            if (expect(P, ']'))
                return -1;
            t = ts_type_list(t);
            if (wrap_alias(P, alias))
                return -1;
            if (sized) {
                /* A sized list ends the type but for one '?'. */
                if (accept(P, '?'))
                    t = ts_type_optional(t);
                break;
            }
        }
        if (!t)
            return fail_nomem(P);
    }
    if (!t)
        return fail_nomem(P);
    *out = t;
    return 0;
}

/* ---- default values ------------------------------------------------------------- */

typedef struct EnumName {
    const char *name;
    int value;
} EnumName;

static const EnumName layouts[] = {
    { "strided", 0 }, { "sparse_coo", 1 }, { "sparse_csr", 2 }, { "_mkldnn", 3 },
    { "sparse_csc", 4 }, { "sparse_bsr", 5 }, { "sparse_bsc", 6 }, { NULL, 0 },
};
static const EnumName memory_formats[] = {
    { "contiguous_format", 0 }, { "preserve_format", 1 }, { "channels_last", 2 },
    { "channels_last_3d", 3 }, { NULL, 0 },
};
static const EnumName qschemes[] = {
    { "per_tensor_affine", 0 }, { "per_channel_affine", 1 }, { "per_tensor_symmetric", 2 },
    { "per_channel_symmetric", 3 }, { "per_channel_affine_float_qparams", 4 }, { NULL, 0 },
};
/* The names torch's parser knows for any int default (dtype, layout, reduction, format). */
static const EnumName legacy_names[] = {
    { "float", 6 }, { "long", 4 }, { "strided", 0 }, { "Mean", 1 },
    { "contiguous_format", 0 }, { NULL, 0 },
};

static const TsType *unwrap_optional(const TsType *t)
{
    return ts_type_kind(t) == TS_TYPE_OPTIONAL ? ts_type_elem(t, 0) : t;
}

static bool lookup_enum(const EnumName *names, const char *s, size_t n, int *out)
{
    for (; names->name; names++) {
        if (strlen(names->name) == n && memcmp(names->name, s, n) == 0) {
            *out = names->value;
            return true;
        }
    }
    return false;
}

/* An identifier default: an enum name meaning an int ("long", "strided"), or inf/nan. */
static int parse_named_constant(Parser *P, const TsType *type, bool negative, TsValue *out)
{
    const char *s = P->text + P->cur.off;
    size_t n = P->cur.len;
    TsTypeKind k = ts_type_kind(unwrap_optional(type));
    int v = -1;
    bool found = false;
    if ((k == TS_TYPE_FLOAT || k == TS_TYPE_NUMBER) &&
        ((n == 3 && memcmp(s, "inf", 3) == 0) || (n == 3 && memcmp(s, "nan", 3) == 0))) {
        double d = s[0] == 'i' ? INFINITY : NAN;
        *out = ts_double(negative ? -d : d);
        advance(P);
        return 0;
    }
    if (!negative) {
        switch (k) {
        case TS_TYPE_SCALARTYPE:
            for (int i = 0; i < TS_DTYPE__COUNT && !found; i++) {
                const char *name = ts_dtype_name(i);
                if (name && strlen(name) == n && memcmp(name, s, n) == 0)
                    v = i, found = true;
            }
            break;
        case TS_TYPE_LAYOUT:
            found = lookup_enum(layouts, s, n, &v);
            break;
        case TS_TYPE_MEMORYFORMAT:
            found = lookup_enum(memory_formats, s, n, &v);
            break;
        case TS_TYPE_QSCHEME:
            found = lookup_enum(qschemes, s, n, &v);
            break;
        default:
            found = lookup_enum(legacy_names, s, n, &v);
            break;
        }
    }
    if (!found) {
        char what[48];
        describe(P, P->cur, what, sizeof what);
        return fail(P, P->cur.off, "invalid default value %s", what);
    }
    *out = ts_int(v);
    advance(P);
    return 0;
}

/* A number token (negated if a '-' came before it). The type decides only when it is
 * float or complex; otherwise the spelling does: "1" is an int, "1.", "1e3" floats. */
static int parse_number(Parser *P, const TsType *type, bool negative, size_t start, TsValue *out)
{
    size_t n = P->cur.len;
    char *s = malloc(n + 2);
    if (!s)
        return fail_nomem(P);
    s[0] = '-';
    memcpy(s + 1, P->text + P->cur.off, n);
    s[n + 1] = '\0';
    char *num = negative ? s : s + 1;
    bool imag = s[n] == 'j';
    if (imag)
        s[n] = '\0';
    TsTypeKind k = ts_type_kind(type);
    bool is_float = strpbrk(num, ".eE") != NULL;
    errno = 0;
    char *end;
    int rc = 0;
    if (k == TS_TYPE_COMPLEX || imag) {
        double d = strtod(num, &end);
        TsError e = TS_ERROR_INIT;
        TsComplex *c = errno == ERANGE ? NULL : ts_complex_new(imag ? 0.0 : d, imag ? d : 0.0, &e);
        if (c)
            *out = ts_obj_value(c, TS_TAG_COMPLEX);
        else if (e.code)
            rc = fail_nomem(P);
        else
            rc = fail(P, start, "number out of range");
        ts_error_clear(&e);
    } else if (k == TS_TYPE_FLOAT || is_float) {
        double d = strtod(num, &end);
        if (errno == ERANGE)
            rc = fail(P, start, "number out of range");
        *out = ts_double(d);
    } else {
        long long i = strtoll(num, &end, 10);
        if (errno == ERANGE)
            rc = fail(P, start, "integer out of range");
        *out = ts_int(i);
    }
    free(s);
    if (rc == 0)
        advance(P);
    return rc;
}

static int decode_string(Parser *P, TsValue *out)
{
    const char *s = P->text + P->cur.off;
    size_t q = (P->cur.len >= 6 && s[1] == s[0] && s[2] == s[0]) ? 3 : 1;
    size_t end = P->cur.len - q;
    char *buf = malloc(end + 1);
    if (!buf)
        return fail_nomem(P);
    size_t n = 0;
    for (size_t i = q; i < end; i++) {
        if (s[i] != '\\') {
            buf[n++] = s[i];
            continue;
        }
        static const char from[] = "\\'\"abfnrtv", to[] = "\\'\"\a\b\f\n\r\t\v";
        const char *e = i + 1 < end ? strchr(from, s[i + 1]) : NULL;
        if (e) {
            buf[n++] = to[e - from];
            i++;
        } else if (i + 3 < end && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
                   s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
            /* Exactly three octal digits, at most \377. */
            buf[n++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
            i += 3;
        } else {
            free(buf);
            return fail(P, P->cur.off + i, "invalid escape sequence in string literal");
        }
    }
    TsError e = TS_ERROR_INIT;
    TsStr *str = ts_str_new(buf, n, &e);
    free(buf);
    ts_error_clear(&e);
    if (!str)
        return fail_nomem(P);
    *out = ts_str_value(str);
    advance(P);
    return 0;
}

/* One constant: None, True, False, a string, a number, or a name ("long", "inf"). */
static int parse_constant(Parser *P, const TsType *type, TsValue *out)
{
    size_t start = P->cur.off;
    if (P->cur.kind == TK_KEYWORD) {
        const char *s = P->text + P->cur.off;
        if (P->cur.len == 4 && memcmp(s, "None", 4) == 0)
            *out = ts_none();
        else if (P->cur.len == 4 && memcmp(s, "True", 4) == 0)
            *out = ts_bool(true);
        else if (P->cur.len == 5 && memcmp(s, "False", 5) == 0)
            *out = ts_bool(false);
        else
            return fail_expected(P, "a default value");
        advance(P);
        return 0;
    }
    if (P->cur.kind == TK_STRING)
        return decode_string(P, out);
    if (P->cur.kind == TK_IDENT)
        return parse_named_constant(P, type, false, out);
    bool negative = accept(P, '-');
    if (negative && P->cur.kind == TK_IDENT)
        return parse_named_constant(P, type, true, out);
    if (P->cur.kind != TK_NUMBER)
        return fail_expected(P, "a number");
    return parse_number(P, type, negative, start, out);
}

/* Checks (and converts) one element of a list default against the element type. */
static int list_elem(Parser *P, const TsType *elem, size_t off, TsValue *v)
{
    switch (ts_type_kind(elem)) {
    case TS_TYPE_FLOAT:
        if (v->tag == TS_TAG_INT)
            *v = ts_double((double)v->u.i);
        if (v->tag == TS_TAG_DOUBLE)
            return 0;
        break;
    case TS_TYPE_BOOL:
        if (v->tag == TS_TAG_BOOL)
            return 0;
        break;
    case TS_TYPE_COMPLEX:
        if (v->tag == TS_TAG_COMPLEX)
            return 0;
        break;
    default:                   /* int and the enums that are ints */
        if (v->tag == TS_TAG_INT)
            return 0;
        break;
    }
    char name[64];
    ts_type_repr(elem, name, sizeof name);
    ts_value_release(*v);
    *v = ts_none();
    return fail(P, off, "elements of a %s[] default must be %s values", name, name);
}

static bool list_default_ok(const TsType *elem)
{
    switch (ts_type_kind(elem)) {
    case TS_TYPE_INT: case TS_TYPE_FLOAT: case TS_TYPE_BOOL: case TS_TYPE_COMPLEX:
    case TS_TYPE_SCALARTYPE: case TS_TYPE_LAYOUT: case TS_TYPE_MEMORYFORMAT:
    case TS_TYPE_QSCHEME:
        return true;
    default:
        return false;
    }
}

static int list_push(Parser *P, TsList *l, TsValue v)
{
    TsError e = TS_ERROR_INIT;
    int rc = ts_list_append(l, v, &e);
    ts_error_clear(&e);
    if (rc) {
        ts_value_release(v);
        return fail_nomem(P);
    }
    return 0;
}

/* A list default: "[1, 2]", "[]", or for "T[N]" one value meaning N copies of it. */
static int parse_list_default(Parser *P, const TsType *type, long fixed, TsValue *out)
{
    const TsType *elem = ts_type_elem(type, 0);
    size_t start = P->cur.off;
    if (P->cur.kind == TK_IDENT)
        return fail_expected(P, "None");
    if (!list_default_ok(elem))
        return fail(P, start, "list defaults are only supported for int, float, bool and "
                              "complex lists");
    TsError e = TS_ERROR_INIT;
    TsList *l = ts_list_new(elem, 0, &e);
    ts_error_clear(&e);
    if (!l)
        return fail_nomem(P);
    TsValue v;
    if (fixed >= 0 && !is_punct(P, '[')) {
        if (parse_constant(P, elem, &v) || list_elem(P, elem, start, &v))
            goto fail;
        for (long i = 0; i < fixed; i++) {
            ts_value_retain(v);
            if (list_push(P, l, v))
                break;
        }
        ts_value_release(v);
        if (P->failed)
            goto fail;
    } else {
        if (expect(P, '['))
            goto fail;
        if (!accept(P, ']')) {
            do {
                size_t off = P->cur.off;
                if (parse_constant(P, elem, &v) || list_elem(P, elem, off, &v) ||
                    list_push(P, l, v))
                    goto fail;
            } while (accept(P, ','));
            if (expect(P, ']'))
                goto fail;
        }
    }
    *out = ts_obj_value(l, TS_TAG_LIST);
    return 0;
fail:
    ts_heap_release(&l->h);
    return -1;
}

static int parse_default(Parser *P, TsArg *a)
{
    const TsType *t = a->type;
    switch (ts_type_kind(t)) {
    case TS_TYPE_TENSOR:
    case TS_TYPE_GENERATOR:
        if (!(P->cur.kind == TK_KEYWORD && P->cur.len == 4 &&
              memcmp(P->text + P->cur.off, "None", 4) == 0))
            return fail_expected(P, "None");
        advance(P);
        a->default_value = ts_none();
        return 0;
    case TS_TYPE_OPTIONAL: case TS_TYPE_STR: case TS_TYPE_NUMBER: case TS_TYPE_INT:
    case TS_TYPE_BOOL: case TS_TYPE_FLOAT: case TS_TYPE_COMPLEX: case TS_TYPE_SCALARTYPE:
    case TS_TYPE_LAYOUT: case TS_TYPE_MEMORYFORMAT: case TS_TYPE_QSCHEME:
        return parse_constant(P, t, &a->default_value);
    case TS_TYPE_LIST:
        return parse_list_default(P, t, a->fixed_size, &a->default_value);
    case TS_TYPE_DEVICE: {
        if (P->cur.kind != TK_STRING)
            return fail_expected(P, "a device string");
        size_t off = P->cur.off;
        TsValue s;
        if (decode_string(P, &s))
            return -1;
        TsError e = TS_ERROR_INIT;
        TsDevice d;
        int rc = ts_device_parse(((TsStr *)s.u.p)->data, &d, &e);
        ts_value_release(s);
        if (rc) {
            fail(P, off, "invalid device default: %s", e.msg ? e.msg : "bad device");
            ts_error_clear(&e);
            return -1;
        }
        a->default_value = ts_device(d);
        return 0;
    }
    default: {
        char name[64];
        ts_type_repr(t, name, sizeof name);
        return fail(P, P->cur.off, "arguments of type %s cannot have a default value", name);
    }
    }
}

/* ---- arguments and the schema ------------------------------------------------------- */

static void arg_clear(TsArg *a)
{
    free(a->name);
    if (a->has_default)
        ts_value_release(a->default_value);
    alias_free(a->alias);
}

/* type [name] ["=" default]; a return's name is optional and it has no default. */
static int parse_arg(Parser *P, bool is_return, TsArg *a)
{
    unsigned seen = 0;
    size_t start = P->cur.off;
    if (parse_type(P, 0, &a->type, &a->alias, &a->fixed_size, &seen))
        return -1;
    if (seen == (SEEN_INT | SEEN_SYMINT))
        return fail(P, start, "a type cannot mix int and SymInt");
    a->symint = seen & SEEN_SYMINT;
    if (is_return) {
        if (P->cur.kind == TK_IDENT)
            return take_ident(P, "a name", &a->name);
        return 0;
    }
    if (take_ident(P, "an argument name", &a->name))
        return -1;
    if (accept(P, '=')) {
        a->has_default = true;
        a->default_value = ts_none();
        if (parse_default(P, a))
            return -1;
    }
    return 0;
}

/* Appends a zeroed TsArg that the schema owns from now on (so a failure frees it). */
static TsArg *new_arg(Parser *P, TsArg **v, size_t *n, size_t *cap)
{
    if (*n == *cap) {
        size_t ncap = *cap ? 2 * *cap : 4;
        TsArg *nv = realloc(*v, ncap * sizeof *nv);
        if (!nv) {
            fail_nomem(P);
            return NULL;
        }
        *v = nv, *cap = ncap;
    }
    TsArg *a = &(*v)[(*n)++];
    memset(a, 0, sizeof *a);
    a->fixed_size = -1;
    return a;
}

static int parse_args(Parser *P, TsSchema *s)
{
    size_t cap = 0;
    bool kwarg_only = false;
    if (expect(P, '('))
        return -1;
    if (accept(P, ')'))
        return 0;
    for (;;) {
        if (accept(P, '*')) {
            kwarg_only = true;
        } else if (P->cur.kind == TK_ELLIPSIS) {
            advance(P);
            s->is_vararg = true;
            if (!is_punct(P, ')'))
                return fail(P, P->cur.off,
                            "'...' must be the last element of the argument list");
        } else {
            TsArg *a = new_arg(P, &s->args, &s->n_args, &cap);
            if (!a || parse_arg(P, false, a))
                return -1;
            a->kwarg_only = kwarg_only;
        }
        if (!accept(P, ','))
            return expect(P, ')');
    }
}

static int parse_returns(Parser *P, TsSchema *s)
{
    size_t cap = 0;
    if (P->cur.kind == TK_ELLIPSIS) {
        advance(P);
        s->is_varret = true;
        return 0;
    }
    if (!is_punct(P, '(')) {
        TsArg *a = new_arg(P, &s->returns, &s->n_returns, &cap);
        return a ? parse_arg(P, true, a) : -1;
    }
    advance(P);
    if (accept(P, ')'))
        return 0;
    for (;;) {
        if (P->cur.kind == TK_ELLIPSIS) {
            advance(P);
            s->is_varret = true;
            if (!is_punct(P, ')'))
                return fail(P, P->cur.off, "'...' must be the last element of the return list");
        } else {
            TsArg *a = new_arg(P, &s->returns, &s->n_returns, &cap);
            if (!a || parse_arg(P, true, a))
                return -1;
        }
        if (!accept(P, ','))
            return expect(P, ')');
    }
}

/* "ns::name.overload"; a bare "name" takes default_ns. */
static int parse_name(Parser *P, TsSchema *s, const char *default_ns)
{
    size_t start = P->cur.off;
    char *first;
    if (take_ident(P, "an operator name", &first))
        return -1;
    if (accept(P, ':')) {
        char *second;
        if (expect(P, ':') || take_ident(P, "an operator name", &second)) {
            free(first);
            return -1;
        }
        s->name = malloc(strlen(first) + strlen(second) + 3);
        if (s->name)
            sprintf(s->name, "%s::%s", first, second);
        free(second);
    } else if (default_ns) {
        s->name = malloc(strlen(default_ns) + strlen(first) + 3);
        if (s->name)
            sprintf(s->name, "%s::%s", default_ns, first);
    } else {
        fail(P, start, "operator name '%s' has no namespace (expected 'ns::%s')", first, first);
        free(first);
        return -1;
    }
    free(first);
    if (!s->name)
        return fail_nomem(P);
    if (!accept(P, '.')) {
        if (!(s->overload = strdup("")))
            return fail_nomem(P);
        return 0;
    }
    size_t off = P->cur.off;
    if (take_ident(P, "an overload name", &s->overload))
        return -1;
    if (strcmp(s->overload, "default") == 0 || strcmp(s->overload, "__all__") == 0)
        return fail(P, off, "'%s' is not a legal overload name", s->overload);
    return 0;
}

TsSchema *ts_schema_parse(const char *text, const char *default_ns, size_t *err_offset,
                          TsError *err)
{
    size_t dummy;
    if (!err_offset)
        err_offset = &dummy;
    *err_offset = 0;
    if (!text) {
        ts_error_set(err, TS_ERR_USAGE, "ts_schema_parse: NULL text");
        return NULL;
    }
    size_t len = strnlen(text, (size_t)MAX_TEXT + 1);
    if (len > MAX_TEXT) {
        ts_error_set(err, TS_ERR_LIMIT, "schema text too long (limit %d bytes)", MAX_TEXT);
        return NULL;
    }
    Parser P = { text, len, { TK_EOF, 0, 0 }, err, 0, false };
    P.cur = lex_at(text, len, 0);
    TsSchema *s = calloc(1, sizeof *s);
    if (!s) {
        fail_nomem(&P);
        *err_offset = 0;
        return NULL;
    }
    if (parse_name(&P, s, default_ns) || parse_args(&P, s))
        goto fail;
    if (P.cur.kind != TK_ARROW) {
        fail_expected(&P, "'->'");
        goto fail;
    }
    advance(&P);
    if (parse_returns(&P, s))
        goto fail;
    if (P.cur.kind != TK_EOF) {
        fail_expected(&P, "end of input");
        goto fail;
    }
    return s;
fail:
    *err_offset = P.err_off;
    ts_schema_free(s);
    return NULL;
}

void ts_schema_free(TsSchema *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_args; i++)
        arg_clear(&s->args[i]);
    for (size_t i = 0; i < s->n_returns; i++)
        arg_clear(&s->returns[i]);
    free(s->args);
    free(s->returns);
    free(s->name);
    free(s->overload);
    free(s);
}

/* ---- printing ---------------------------------------------------------------------- */

/* A type as a schema spells it; symint spells int as "SymInt". */
static void put_type(TsBuf *b, const TsType *t, bool symint)
{
    static const char *const simple[TS_TYPE__COUNT] = {
        [TS_TYPE_ANY] = "Any", [TS_TYPE_NONE] = "NoneType", [TS_TYPE_INT] = "int",
        [TS_TYPE_FLOAT] = "float", [TS_TYPE_COMPLEX] = "complex", [TS_TYPE_BOOL] = "bool",
        [TS_TYPE_STR] = "str", [TS_TYPE_NUMBER] = "Scalar", [TS_TYPE_TENSOR] = "Tensor",
        [TS_TYPE_DEVICE] = "Device", [TS_TYPE_SCALARTYPE] = "ScalarType",
        [TS_TYPE_LAYOUT] = "Layout", [TS_TYPE_MEMORYFORMAT] = "MemoryFormat",
        [TS_TYPE_STREAM] = "Stream", [TS_TYPE_GENERATOR] = "Generator",
        [TS_TYPE_STORAGE] = "Storage", [TS_TYPE_QSCHEME] = "QScheme",
        [TS_TYPE_CAPSULE] = "Capsule", [TS_TYPE_ANY_LIST] = "AnyListType",
        [TS_TYPE_ANY_TUPLE] = "AnyTupleType", [TS_TYPE_ANY_CLASS] = "AnyClassType",
        [TS_TYPE_ANY_ENUM] = "AnyEnumType",
    };
    TsTypeKind k = ts_type_kind(t);
    size_t n = ts_type_num_elems(t);
    switch (k) {
    case TS_TYPE_INT:
        ts_buf_puts(b, symint ? "SymInt" : "int");
        return;
    case TS_TYPE_LIST:
        put_type(b, ts_type_elem(t, 0), symint);
        ts_buf_puts(b, "[]");
        return;
    case TS_TYPE_OPTIONAL:
        put_type(b, ts_type_elem(t, 0), symint);
        ts_buf_puts(b, "?");
        return;
    case TS_TYPE_DICT: case TS_TYPE_FUTURE: case TS_TYPE_RREF: case TS_TYPE_UNION:
    case TS_TYPE_TUPLE:
        ts_buf_puts(b, k == TS_TYPE_DICT ? "Dict(" : k == TS_TYPE_FUTURE ? "Future("
               : k == TS_TYPE_RREF ? "RRef(" : k == TS_TYPE_UNION ? "Union(" : "(");
        for (size_t i = 0; i < n; i++) {
            if (i)
                ts_buf_puts(b, ", ");
            put_type(b, ts_type_elem(t, i), symint);
        }
        ts_buf_puts(b, ")");
        return;
    case TS_TYPE_VAR:
        ts_buf_puts(b, ts_type_var_name(t));
        return;
    default:
        if (k < TS_TYPE__COUNT && simple[k])
            ts_buf_puts(b, simple[k]);
        else
            ts_buf_puts(b, ts_type_name(t) ? ts_type_name(t) : "?");
        return;
    }
}

static void put_set(TsBuf *b, const char **set, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        ts_buf_puts(b, set[i]);
        if (i)
            ts_buf_puts(b, "|");
    }
}

static void put_alias(TsBuf *b, const TsAlias *a)
{
    ts_buf_puts(b, "(");
    put_set(b, a->before, a->n_before);
    if (a->is_write)
        ts_buf_puts(b, "!");
    if (!same_set(a->before, a->n_before, a->after, a->n_after)) {
        ts_buf_puts(b, " -> ");
        put_set(b, a->after, a->n_after);
    }
    ts_buf_puts(b, ")");
}

/* A double the way torch prints one: integral values as "1.", others with 17 digits. */
static void put_double(TsBuf *b, double d)
{
    if (isnan(d))
        ts_buf_puts(b, "nan");
    else if (isinf(d))
        ts_buf_puts(b, d < 0 ? "-inf" : "inf");
    else if (d == trunc(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
        ts_buf_printf(b, "%lld.", (long long)d);
    else
        ts_buf_printf(b, "%.17g", d);
}

static void put_quoted(TsBuf *b, const TsStr *s)
{
    ts_buf_puts(b, "\"");
    for (size_t i = 0; i < s->len; i++) {
        unsigned char c = (unsigned char)s->data[i];
        static const char plain[] = "\"'\\\a\b\f\n\r\t\v", named[] = "\"'\\abfnrtv";
        const char *esc = c ? strchr(plain, c) : NULL;
        if (esc) {
            char e[3] = { '\\', named[esc - plain], 0 };
            ts_buf_puts(b, e);
        } else if (c < 0x20 || c == 0x7f) {
            ts_buf_printf(b, "\\%03o", c);
        } else {
            ts_buf_add(b, (const char *)&c, 1);
        }
    }
    ts_buf_puts(b, "\"");
}

static void put_value(TsBuf *b, TsValue v, bool quote_strings)
{
    switch (v.tag) {
    case TS_TAG_NONE:
        ts_buf_puts(b, "None");
        break;
    case TS_TAG_BOOL:
        ts_buf_puts(b, v.u.b ? "True" : "False");
        break;
    case TS_TAG_INT:
        ts_buf_printf(b, "%lld", (long long)v.u.i);
        break;
    case TS_TAG_DOUBLE:
        put_double(b, v.u.d);
        break;
    case TS_TAG_COMPLEX: {
        const TsComplex *c = (const TsComplex *)v.u.p;
        put_double(b, c->re);
        if (c->im >= 0)
            ts_buf_puts(b, "+");
        put_double(b, c->im);
        ts_buf_puts(b, "j");
        break;
    }
    case TS_TAG_STR:
        if (quote_strings)
            put_quoted(b, (const TsStr *)v.u.p);
        else
            ts_buf_add(b, ((const TsStr *)v.u.p)->data, ((const TsStr *)v.u.p)->len);
        break;
    case TS_TAG_DEVICE: {
        char dev[64];
        ts_device_str(v.u.dev, dev, sizeof dev);
        ts_buf_puts(b, dev);
        break;
    }
    case TS_TAG_LIST: {
        const TsList *l = (const TsList *)v.u.p;
        ts_buf_puts(b, "[");
        for (size_t i = 0; i < l->len; i++) {
            if (i)
                ts_buf_puts(b, ", ");
            put_value(b, l->items[i], quote_strings);
        }
        ts_buf_puts(b, "]");
        break;
    }
    default:
        ts_buf_puts(b, "<value>");
        break;
    }
}

/* torch writes an int list default whose items are all equal as the one item
 * ("int[2] stride=1"), as native_functions.yaml does. */
static bool is_repeated_int_list(const TsArg *a)
{
    if (ts_type_kind(a->type) != TS_TYPE_LIST || a->symint ||
        ts_type_kind(ts_type_elem(a->type, 0)) != TS_TYPE_INT ||
        a->default_value.tag != TS_TAG_LIST)
        return false;
    const TsList *l = (const TsList *)a->default_value.u.p;
    if (l->len < 2)
        return false;
    for (size_t i = 1; i < l->len; i++)
        if (l->items[i].tag != TS_TAG_INT || l->items[i].u.i != l->items[0].u.i)
            return false;
    return true;
}

static void put_arg(TsBuf *b, const TsArg *a)
{
    const TsType *t = a->type;
    bool optional = ts_type_kind(t) == TS_TYPE_OPTIONAL;
    const TsType *inner = optional ? ts_type_elem(t, 0) : t;
    if (ts_type_kind(inner) == TS_TYPE_LIST) {
        put_type(b, ts_type_elem(inner, 0), a->symint);
        if (a->alias && a->alias->contained)
            put_alias(b, a->alias->contained);
        if (a->fixed_size >= 0)
            ts_buf_printf(b, "[%ld]", a->fixed_size);
        else
            ts_buf_puts(b, "[]");
    } else {
        put_type(b, inner, a->symint);
    }
    if (a->alias && a->alias->n_before)
        put_alias(b, a->alias);
    if (optional)
        ts_buf_puts(b, "?");
    if (a->name) {
        ts_buf_puts(b, " ");
        ts_buf_puts(b, a->name);
    }
    if (!a->has_default)
        return;
    ts_buf_puts(b, "=");
    if (is_repeated_int_list(a))
        put_value(b, ((const TsList *)a->default_value.u.p)->items[0], false);
    else
        put_value(b, a->default_value, ts_type_kind(inner) == TS_TYPE_STR);
}

char *ts_schema_to_string(const TsSchema *s)
{
    TsBuf b = TS_BUF_INIT;
    ts_buf_puts(&b, s->name);
    if (*s->overload) {
        ts_buf_puts(&b, ".");
        ts_buf_puts(&b, s->overload);
    }
    ts_buf_puts(&b, "(");
    bool kwarg_only = false;
    for (size_t i = 0; i < s->n_args; i++) {
        if (i)
            ts_buf_puts(&b, ", ");
        if (s->args[i].kwarg_only && !kwarg_only) {
            ts_buf_puts(&b, "*, ");
            kwarg_only = true;
        }
        put_arg(&b, &s->args[i]);
    }
    if (s->is_vararg)
        ts_buf_puts(&b, s->n_args ? ", ..." : "...");
    ts_buf_puts(&b, ") -> ");

    /* One return goes bare unless it starts with '(' (a tuple type), which would read as
     * a list of returns; "..." alone goes bare too. */
    size_t mark = b.len;
    if (s->n_returns == 1 && !s->is_varret) {
        put_arg(&b, &s->returns[0]);
        if (b.failed || b.p[mark] != '(')
            return ts_buf_take(&b, NULL);
        b.len = mark;
    }
    bool paren = !(s->n_returns == 0 && s->is_varret);
    if (paren)
        ts_buf_puts(&b, "(");
    for (size_t i = 0; i < s->n_returns; i++) {
        if (i)
            ts_buf_puts(&b, ", ");
        put_arg(&b, &s->returns[i]);
    }
    if (s->is_varret)
        ts_buf_puts(&b, s->n_returns ? ", ..." : "...");
    if (paren)
        ts_buf_puts(&b, ")");
    return ts_buf_take(&b, NULL);
}

char *ts_schema_full_name(const TsSchema *s)
{
    TsBuf b = TS_BUF_INIT;
    ts_buf_puts(&b, s->name);
    if (*s->overload) {
        ts_buf_puts(&b, ".");
        ts_buf_puts(&b, s->overload);
    }
    return ts_buf_take(&b, NULL);
}

static bool alias_writes(const TsAlias *a)
{
    for (; a; a = a->contained)
        if (a->is_write)
            return true;
    return false;
}

bool ts_schema_is_mutable(const TsSchema *s)
{
    for (size_t i = 0; i < s->n_args; i++)
        if (alias_writes(s->args[i].alias))
            return true;
    return false;
}
