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
 * everything else (names, alias sets, default values) is owned by the TsSchema: default
 * values are reference-counted, the rest lives in an arena (arena.h): the schema's own, or
 * its schema set's, shared by every schema of a file, since every program's startup parses
 * ~1600 schemas and a malloc per name, argument and annotation was a third of that.
 *
 * Where torch's own printer loses information or is not a fixed point we pick the reading
 * that is: alias sets print in descending order (torch prints an unordered_set, which for
 * the sets its sources register comes out that way), bytes >= 0x80 in strings print raw.
 */
#include "registry/schema.h"
#include "tscript/strbuf.h"

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
    TsArena *arena;            /* where everything but default values goes */
    TsSchemaCtx *ctx;
} Parser;

/* Words TorchScript's lexer reserves; torch rejects them as names ("from" is not one).
 * Grouped by length, so a lookup compares against a handful of words at most. */
static const char *const keywords_by_len[] = {
    [2] = "as" "if" "in" "is" "or",
    [3] = "and" "def" "del" "for" "not",
    [4] = "None" "True" "elif" "else" "pass" "with",
    [5] = "False" "break" "class" "raise" "while",
    [6] = "assert" "global" "import" "return",
    [8] = "continue",
};

/* Character classes for the lexer's inner loops. */
enum { C_SPACE = 1, C_IDENT_START = 2, C_DIGIT = 4, C_PUNCT = 8 };

static const unsigned char char_class[256] = {
    [' '] = C_SPACE, ['\t'] = C_SPACE, ['\r'] = C_SPACE, ['\n'] = C_SPACE, ['\f'] = C_SPACE,
    ['\v'] = C_SPACE,
    ['_'] = C_IDENT_START,
    ['a'] = C_IDENT_START, ['b'] = C_IDENT_START, ['c'] = C_IDENT_START, ['d'] = C_IDENT_START,
    ['e'] = C_IDENT_START, ['f'] = C_IDENT_START, ['g'] = C_IDENT_START, ['h'] = C_IDENT_START,
    ['i'] = C_IDENT_START, ['j'] = C_IDENT_START, ['k'] = C_IDENT_START, ['l'] = C_IDENT_START,
    ['m'] = C_IDENT_START, ['n'] = C_IDENT_START, ['o'] = C_IDENT_START, ['p'] = C_IDENT_START,
    ['q'] = C_IDENT_START, ['r'] = C_IDENT_START, ['s'] = C_IDENT_START, ['t'] = C_IDENT_START,
    ['u'] = C_IDENT_START, ['v'] = C_IDENT_START, ['w'] = C_IDENT_START, ['x'] = C_IDENT_START,
    ['y'] = C_IDENT_START, ['z'] = C_IDENT_START,
    ['A'] = C_IDENT_START, ['B'] = C_IDENT_START, ['C'] = C_IDENT_START, ['D'] = C_IDENT_START,
    ['E'] = C_IDENT_START, ['F'] = C_IDENT_START, ['G'] = C_IDENT_START, ['H'] = C_IDENT_START,
    ['I'] = C_IDENT_START, ['J'] = C_IDENT_START, ['K'] = C_IDENT_START, ['L'] = C_IDENT_START,
    ['M'] = C_IDENT_START, ['N'] = C_IDENT_START, ['O'] = C_IDENT_START, ['P'] = C_IDENT_START,
    ['Q'] = C_IDENT_START, ['R'] = C_IDENT_START, ['S'] = C_IDENT_START, ['T'] = C_IDENT_START,
    ['U'] = C_IDENT_START, ['V'] = C_IDENT_START, ['W'] = C_IDENT_START, ['X'] = C_IDENT_START,
    ['Y'] = C_IDENT_START, ['Z'] = C_IDENT_START,
    ['0'] = C_DIGIT, ['1'] = C_DIGIT, ['2'] = C_DIGIT, ['3'] = C_DIGIT, ['4'] = C_DIGIT,
    ['5'] = C_DIGIT, ['6'] = C_DIGIT, ['7'] = C_DIGIT, ['8'] = C_DIGIT, ['9'] = C_DIGIT,
    ['('] = C_PUNCT, [')'] = C_PUNCT, ['['] = C_PUNCT, [']'] = C_PUNCT, [','] = C_PUNCT,
    ['?'] = C_PUNCT, ['!'] = C_PUNCT, ['|'] = C_PUNCT, ['*'] = C_PUNCT, ['='] = C_PUNCT,
    ['.'] = C_PUNCT, [':'] = C_PUNCT, ['-'] = C_PUNCT, ['+'] = C_PUNCT,
};

static bool in_class(char c, unsigned cls) { return char_class[(unsigned char)c] & cls; }
static bool is_space(char c) { return in_class(c, C_SPACE); }
static bool is_ident_start(char c) { return in_class(c, C_IDENT_START); }
static bool is_digit(char c) { return in_class(c, C_DIGIT); }
static bool is_ident_char(char c) { return in_class(c, C_IDENT_START | C_DIGIT); }

/* For each character, a bit (1 << n) for each length n of a keyword starting with it (from
 * keywords_by_len): most identifiers ("self", "Tensor", "other") are ruled out by one load. */
static const unsigned short keyword_lengths[256] = {
    ['a'] = 1 << 2 | 1 << 3 | 1 << 6, ['i'] = 1 << 2 | 1 << 6, ['o'] = 1 << 2,
    ['d'] = 1 << 3, ['f'] = 1 << 3, ['n'] = 1 << 3,
    ['N'] = 1 << 4, ['T'] = 1 << 4, ['e'] = 1 << 4, ['p'] = 1 << 4, ['w'] = 1 << 4 | 1 << 5,
    ['F'] = 1 << 5, ['b'] = 1 << 5, ['c'] = 1 << 5 | 1 << 8, ['r'] = 1 << 5 | 1 << 6,
    ['g'] = 1 << 6,
};

/* The full test, for the few identifiers keyword_lengths lets through; out of line, so
 * that lex_at stays a leaf function. */
__attribute__((noinline))
static bool is_keyword_slow(const char *s, size_t n)
{
    for (const char *k = keywords_by_len[n]; *k; k += n)
        if (k[0] == s[0] && memcmp(k, s, n) == 0)
            return true;
    return false;
}

static bool is_keyword(const char *s, size_t n)
{
    return n < sizeof keywords_by_len / sizeof keywords_by_len[0] &&
           (keyword_lengths[(unsigned char)s[0]] >> n & 1) && is_keyword_slow(s, n);
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

/* The tokens that are not identifiers or one-character punctuation: numbers, strings, "->",
 * "...", and bad characters; kept out of lex_at so that its hot path stays small. */
__attribute__((noinline))
static Tok lex_rare(const char *text, size_t len, size_t pos)
{
    Tok t = { TK_BAD, pos, 1 };
    const char *s = text + pos;
    size_t n = len - pos;
    if (is_digit(s[0]) || (s[0] == '.' && is_digit(s[1]))) {
        t.kind = TK_NUMBER, t.len = lex_number(s, n);
    } else if (s[0] == '"' || s[0] == '\'') {
        t.len = lex_string(s, n);
        t.kind = t.len ? TK_STRING : TK_BAD;
        if (!t.len)
            t.len = 1;
    } else if (s[0] == '-' && s[1] == '>') {
        t.kind = TK_ARROW, t.len = 2;
    } else if (s[0] == '.' && s[1] == '.' && s[2] == '.') {
        t.kind = TK_ELLIPSIS, t.len = 3;
    } else if (in_class(s[0], C_PUNCT)) {
        t.kind = TK_PUNCT;
    }
    return t;
}

/* The token starting at or after pos (whitespace and '#' comments skipped). text[len] is
 * the string's NUL, which no class below contains, so the loops need no bounds checks.
 * Inlined into advance and peek, so that the token is built where it goes. */
__attribute__((always_inline))
static inline Tok lex_at(const char *text, size_t len, size_t pos)
{
    for (;;) {
        while (is_space(text[pos]))
            pos++;
        if (text[pos] != '#')
            break;
        while (pos < len && text[pos] != '\n')
            pos++;
    }
    if (pos >= len)
        return (Tok){ TK_EOF, pos, 0 };
    const char *s = text + pos;
    if (is_ident_start(s[0])) {
        size_t k = 1;
        while (is_ident_char(s[k]))
            k++;
        return (Tok){ is_keyword(s, k) ? TK_KEYWORD : TK_IDENT, pos, k };
    }
    if (in_class(s[0], C_PUNCT) && s[0] != '-' && s[0] != '.')
        return (Tok){ TK_PUNCT, pos, 1 };
    return lex_rare(text, len, pos);
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

/* ---- the schema's memory ------------------------------------------------------------ */

/* n zeroed bytes in the schema's arena; NULL, with the error set, when out of memory.
 * Inlined, so that the memset of a constant size is a few stores. */
__attribute__((always_inline))
static inline void *palloc(Parser *P, size_t n)
{
    void *p = ts_arena_alloc(P->arena, n);
    if (!p)
        fail_nomem(P);
    return p;
}

/* The same, not zeroed: for what is written whole at once. */
static void *palloc_raw(Parser *P, size_t n)
{
    void *p = ts_arena_alloc_raw(P->arena, n);
    if (!p)
        fail_nomem(P);
    return p;
}

static char *pstrndup(Parser *P, const char *s, size_t n)
{
    char *d = palloc_raw(P, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* The one-character names, which most alias sets are ("a", "b", "*"): shared, not copied. */
#define ONE_CHAR_ROW(b)                                                                      \
    { b + 0, 0 }, { b + 1, 0 }, { b + 2, 0 }, { b + 3, 0 }, { b + 4, 0 }, { b + 5, 0 },     \
    { b + 6, 0 }, { b + 7, 0 }, { b + 8, 0 }, { b + 9, 0 }, { b + 10, 0 }, { b + 11, 0 },   \
    { b + 12, 0 }, { b + 13, 0 }, { b + 14, 0 }, { b + 15, 0 }
static const char one_char[128][2] = {
    ONE_CHAR_ROW(0x00), ONE_CHAR_ROW(0x10), ONE_CHAR_ROW(0x20), ONE_CHAR_ROW(0x30),
    ONE_CHAR_ROW(0x40), ONE_CHAR_ROW(0x50), ONE_CHAR_ROW(0x60), ONE_CHAR_ROW(0x70),
};

/* Grows an array in the schema's arena to cap elements of size bytes (the old copy stays
 * behind: arrays are short and rarely grow). */
static void *pgrow(Parser *P, void *v, size_t n, size_t cap, size_t size)
{
    void *nv = palloc_raw(P, cap * size);
    if (nv && n)
        memcpy(nv, v, n * size);
    return nv;
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

static bool cur_is_n(const Parser *P, const char *word, size_t n)
{
    return P->cur.kind == TK_IDENT && n == P->cur.len && P->text[P->cur.off] == word[0] &&
           memcmp(P->text + P->cur.off, word, n) == 0;
}

/* The current token is the identifier word (a string literal). */
#define cur_is(P, word) cur_is_n(P, word, sizeof word - 1)

static char *cur_dup(Parser *P)
{
    return pstrndup(P, P->text + P->cur.off, P->cur.len);
}

/* Takes an identifier into *out. */
static int take_ident(Parser *P, const char *what, char **out)
{
    if (P->cur.kind != TK_IDENT)
        return fail_expected(P, what);
    if (!(*out = cur_dup(P)))
        return -1;
    advance(P);
    return 0;
}

/* ---- alias annotations -------------------------------------------------------- */

/* Frees the annotations of a schema built piece by piece (parsed ones are in an arena). */
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
        if (P->cur.kind != TK_IDENT && !is_punct(P, '*'))
            return fail_expected(P, "an alias set name");
        const char *name = P->cur.len == 1 ? one_char[(unsigned char)P->text[P->cur.off] & 0x7f]
                                           : cur_dup(P);
        if (!name)
            return -1;
        advance(P);
        if (n == cap) {
            cap = cap ? 2 * cap : 4;
            if (!(set = pgrow(P, set, n, cap, sizeof *set)))
                return -1;
        }
        /* insertion: sets have a name or two */
        size_t i = n;
        while (i > 0 && strcmp(set[i - 1], name) > 0)
            i--;
        if (i > 0 && strcmp(set[i - 1], name) == 0)
            continue;
        memmove(set + i + 1, set + i, (n - i) * sizeof *set);
        set[i] = name;
        n++;
    } while (accept(P, '|'));
    *out = set, *n_out = n;
    return 0;
}

/* "(a)", "(a!)", "(a -> *)", "(a|b)", "(*)"; the current token is the '('. */
static int parse_alias(Parser *P, TsAlias **out)
{
    TsAlias *a = palloc(P, sizeof *a);
    if (!a)
        return -1;
    advance(P);
    if (parse_alias_set(P, &a->before, &a->n_before))
        return -1;
    a->after = a->before, a->n_after = a->n_before;
    if (accept(P, '!'))
        a->is_write = true;
    if (P->cur.kind == TK_ARROW) {
        advance(P);
        if (parse_alias_set(P, &a->after, &a->n_after))
            return -1;
    }
    if (expect(P, ')'))
        return -1;
    *out = a;
    return 0;
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
            if (!(container = palloc(P, sizeof *container)))
                return -1;
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
    size_t len;
    const TsType *(*make)(void);
    unsigned seen;             /* SEEN_INT / SEEN_SYMINT for the spellings of int */
} TypeName;

#define TYPE_NAME(name, make, seen) { name, sizeof name - 1, make, seen }

/* The most frequent names first: the lookup is a linear scan. */
static const TypeName type_names[] = {
    TYPE_NAME("Tensor", ts_type_tensor, 0),
    TYPE_NAME("int", ts_type_int, SEEN_INT),
    TYPE_NAME("SymInt", ts_type_int, SEEN_SYMINT),
    TYPE_NAME("ConstQuantizerPtr", ts_type_int, SEEN_INT),
    TYPE_NAME("float", ts_type_float, 0),
    TYPE_NAME("complex", ts_type_complex, 0),
    TYPE_NAME("bool", ts_type_bool, 0),
    TYPE_NAME("str", ts_type_str, 0),
    TYPE_NAME("Dimname", ts_type_str, 0),
    TYPE_NAME("Scalar", ts_type_number, 0),
    TYPE_NAME("ScalarType", ts_type_scalartype, 0),
    TYPE_NAME("Layout", ts_type_layout, 0),
    TYPE_NAME("MemoryFormat", ts_type_memoryformat, 0),
    TYPE_NAME("Device", ts_type_device, 0),
    TYPE_NAME("Generator", ts_type_generator, 0),
    TYPE_NAME("Storage", ts_type_storage, 0),
    TYPE_NAME("Stream", ts_type_stream, 0),
    TYPE_NAME("QScheme", ts_type_qscheme, 0),
    TYPE_NAME("Capsule", ts_type_capsule, 0),
    TYPE_NAME("NoneType", ts_type_none, 0),
    TYPE_NAME("Any", ts_type_any, 0),
    TYPE_NAME("AnyListType", ts_type_any_list, 0),
    TYPE_NAME("AnyTupleType", ts_type_any_tuple, 0),
    TYPE_NAME("AnyClassType", ts_type_any_class, 0),
    TYPE_NAME("AnyEnumType", ts_type_any_enum, 0),
};

/* ts_type_list(elem) or ts_type_optional(elem), from the set's cache when it made that one
 * before (interned types live until ts_types_shutdown, longer than any parse). */
static const TsType *made_type(Parser *P, TsTypeKind kind, const TsType *elem)
{
    if (!elem)
        return NULL;
    size_t n = sizeof P->ctx->made / sizeof P->ctx->made[0];
    size_t i = (((uintptr_t)elem >> 4) * 2 + (kind == TS_TYPE_LIST)) % n;
    if (P->ctx->made[i].elem == elem && P->ctx->made[i].kind == (int)kind)
        return P->ctx->made[i].type;
    const TsType *t = kind == TS_TYPE_LIST ? ts_type_list(elem) : ts_type_optional(elem);
    if (t) {
        P->ctx->made[i].elem = elem;
        P->ctx->made[i].type = t;
        P->ctx->made[i].kind = (int)kind;
    }
    return t;
}

static int parse_type(Parser *P, int depth, const TsType **out, TsAlias **alias, long *fixed,
                      unsigned *seen);

/* An element type inside Dict(...), Future(...), a tuple: annotations there are dropped,
 * as torch drops them. */
static int parse_inner(Parser *P, int depth, const TsType **out, unsigned *seen)
{
    TsAlias *alias = NULL;
    long fixed;
    return parse_type(P, depth, out, &alias, &fixed, seen);
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
                cap = cap ? 2 * cap : 4;
                if (!(v = pgrow(P, v, n, cap, sizeof *v)))
                    return -1;
            }
            if (parse_inner(P, depth, &v[n], seen))
                return -1;
            n++;
            if (n < n_min) {
                if (expect(P, ','))
                    return -1;
                continue;
            }
            if (n < n_max && accept(P, ','))
                continue;
            if (expect(P, ')'))
                return -1;
            break;
        }
    }
    *elems = v, *n_out = n;
    return 0;
}

/* "__torch__.torch.classes.ns.Name": a class a plugin or the frontend defines; one that
 * nobody defined yet is created, so the schema can name it before its methods exist. */
static int parse_class_name(Parser *P, const TsType **out)
{
    /* The name is its tokens joined by dots, whatever blanks or comments the text has
     * between them (the printer writes it back without any, and must read the same). */
    size_t n = P->cur.len, cap = n + 64;
    char *name = malloc(cap);
    if (!name)
        return fail_nomem(P);
    memcpy(name, P->text + P->cur.off, n);
    advance(P);
    if (expect(P, '.')) {
        free(name);
        return -1;
    }
    do {
        if (P->cur.kind != TK_IDENT) {
            free(name);
            return fail_expected(P, "a class name component");
        }
        if (cap - n < P->cur.len + 2) {
            char *grown = realloc(name, cap = 2 * (n + P->cur.len + 2));
            if (!grown) {
                free(name);
                return fail_nomem(P);
            }
            name = grown;
        }
        name[n++] = '.';
        memcpy(name + n, P->text + P->cur.off, P->cur.len);
        n += P->cur.len;
        advance(P);
    } while (accept(P, '.'));
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
            if (cur_is_n(P, type_names[i].name, type_names[i].len)) {
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
        if (!name)
            return -1;
        t = ts_type_var(name);
        advance(P);
    }
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
            t = made_type(P, TS_TYPE_OPTIONAL, t);
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
            t = made_type(P, TS_TYPE_LIST, t);
            if (wrap_alias(P, alias))
                return -1;
            if (sized) {
                /* A sized list ends the type but for one '?'. */
                if (accept(P, '?'))
                    t = made_type(P, TS_TYPE_OPTIONAL, t);
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

/* After a complex or Scalar default's real part, "+2.j" or "-2.j": the form the printer
 * writes a complex in (torch prints it too, but its parser does not read it back). */
static int parse_imag_part(Parser *P, TsValue *v)
{
    bool minus = is_punct(P, '-');
    Tok next = peek(P);
    if ((!minus && !is_punct(P, '+')) || next.kind != TK_NUMBER ||
        P->text[next.off + next.len - 1] != 'j' ||
        (v->tag != TS_TAG_INT && v->tag != TS_TAG_DOUBLE &&
         !(v->tag == TS_TAG_COMPLEX && ((TsComplex *)v->u.p)->im == 0.0)))
        return 0;
    size_t start = P->cur.off;
    advance(P);
    TsValue im;
    if (parse_number(P, ts_type_complex(), minus, start, &im))
        return -1;
    TsComplex *c = (TsComplex *)im.u.p;
    c->re = v->tag == TS_TAG_INT ? (double)v->u.i : v->tag == TS_TAG_DOUBLE ? v->u.d
                                                  : ((TsComplex *)v->u.p)->re;
    ts_value_release(*v);
    *v = im;
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
    if (parse_number(P, type, negative, start, out))
        return -1;
    TsTypeKind k = ts_type_kind(unwrap_optional(type));
    return k == TS_TYPE_COMPLEX || k == TS_TYPE_NUMBER ? parse_imag_part(P, out) : 0;
}

/* Does v fit an argument of type t? Converts what TorchScript converts implicitly (an int
 * for a float, a number for a complex). torch stores any default it can parse (an int
 * argument defaulting to "x"), and a kernel would then read a str as an int; so a default
 * of another type is an error here. */
static bool default_fits(const TsType *t, TsValue *v)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_OPTIONAL:
        return v->tag == TS_TAG_NONE || default_fits(ts_type_elem(t, 0), v);
    case TS_TYPE_INT: case TS_TYPE_SCALARTYPE: case TS_TYPE_LAYOUT: case TS_TYPE_MEMORYFORMAT:
    case TS_TYPE_QSCHEME:
        return v->tag == TS_TAG_INT;
    case TS_TYPE_FLOAT:
        if (v->tag == TS_TAG_INT)
            *v = ts_double((double)v->u.i);
        return v->tag == TS_TAG_DOUBLE;
    case TS_TYPE_COMPLEX:
        if (v->tag == TS_TAG_INT || v->tag == TS_TAG_DOUBLE) {
            TsComplex *c = ts_complex_new(v->tag == TS_TAG_INT ? (double)v->u.i : v->u.d, 0.0,
                                          NULL);
            if (!c)
                return false;
            *v = ts_obj_value(c, TS_TAG_COMPLEX);
        }
        return v->tag == TS_TAG_COMPLEX;
    case TS_TYPE_NUMBER:
        return v->tag == TS_TAG_INT || v->tag == TS_TAG_DOUBLE || v->tag == TS_TAG_BOOL ||
               v->tag == TS_TAG_COMPLEX;
    case TS_TYPE_BOOL:
        return v->tag == TS_TAG_BOOL;
    case TS_TYPE_STR:
        return v->tag == TS_TAG_STR;
    default:
        return false;
    }
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

/* "cpu", "cuda:1": a device default is written as a string. */
static int parse_device_default(Parser *P, TsValue *out)
{
    size_t off = P->cur.off;
    TsValue s;
    if (decode_string(P, &s))
        return -1;
    TsError e = TS_ERROR_INIT;
    TsDevice d;
    int rc = ts_device_parse_n(((TsStr *)s.u.p)->data, ((TsStr *)s.u.p)->len, &d, &e);
    ts_value_release(s);
    if (rc) {
        fail(P, off, "invalid device default: %s", e.msg ? e.msg : "bad device");
        ts_error_clear(&e);
        return -1;
    }
    *out = ts_device(d);
    return 0;
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
    case TS_TYPE_LAYOUT: case TS_TYPE_MEMORYFORMAT: case TS_TYPE_QSCHEME: {
        size_t start = P->cur.off;
        if (ts_type_kind(t) == TS_TYPE_OPTIONAL &&
            ts_type_kind(ts_type_elem(t, 0)) == TS_TYPE_DEVICE && P->cur.kind == TK_STRING)
            return parse_device_default(P, &a->default_value);
        if (parse_constant(P, t, &a->default_value))
            return -1;
        if (default_fits(t, &a->default_value))
            return 0;
        char want[64], got[64];
        ts_type_annotation(t, want, sizeof want);
        const TsType *vt = ts_value_type(a->default_value);
        if (vt)
            ts_type_annotation(vt, got, sizeof got);
        return fail(P, start, "Expected a value of type '%s' for argument '%s' but instead "
                    "found type '%s'.", want, a->name, vt ? got : "?");
    }
    case TS_TYPE_LIST:
        return parse_list_default(P, t, a->fixed_size, &a->default_value);
    case TS_TYPE_DEVICE:
        if (P->cur.kind != TK_STRING)
            return fail_expected(P, "a device string");
        return parse_device_default(P, &a->default_value);
    default: {
        char name[64];
        ts_type_repr(t, name, sizeof name);
        return fail(P, P->cur.off, "arguments of type %s cannot have a default value", name);
    }
    }
}

/* ---- arguments and the schema ------------------------------------------------------- */

/* Frees an argument of a schema built piece by piece. */
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
    long fixed;
    if (parse_type(P, 0, &a->type, &a->alias, &fixed, &seen))
        return -1;
    a->fixed_size = (int32_t)fixed;   /* -1 or N <= 1024: parse_type bounds it */
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

/* ---- the set's memo of arguments ------------------------------------------------------ */

/* The schemas of a set repeat their arguments ("Tensor self", "int dim", "bool
 * keepdim=False", "-> Tensor"): an argument whose text was parsed before in the same set is
 * taken from the memo instead of parsed again. The key is the argument's exact text, from
 * its first token to the ',' or ')' that ends it at depth 0 (or the end of the schema, for
 * a bare return), and whether it is a return. An argument goes in only when its parse
 * consumed exactly that text, and its default (if any) is a plain value (None, a bool, an
 * int, a float), so that nothing mutable is shared; its other pieces (name, alias
 * annotation) are in the set's arena, which both schemas reference. A hit is thus the
 * same as parsing the text again, errors included: only text that parsed is memoized. */
enum { MEMO_SLOTS = 1024, MEMO_MAX = 65535 };
_Static_assert(MEMO_SLOTS == sizeof ((TsSchemaCtx *)0)->memo_slot / sizeof(uint16_t) &&
               MEMO_SLOTS == sizeof ((TsSchemaCtx *)0)->list_slot / sizeof(uint16_t),
               "a slot for each index entry");

typedef struct TsArgMemo {
    uint64_t hash;
    size_t key_off, len;       /* the text, in ctx->keys */
    bool is_return;
    TsArg arg;
} TsArgMemo;

/* Appends n bytes of text to ctx->keys; its offset into *off. -1 when out of memory (the
 * memo then goes without). */
static int keep_key(TsSchemaCtx *ctx, const char *text, size_t n, size_t *off)
{
    if (n > ctx->keys_cap - ctx->keys_len) {
        size_t cap = ctx->keys_cap ? ctx->keys_cap : 4096;
        while (cap - ctx->keys_len < n) {
            if (cap > SIZE_MAX / 2)
                return -1;
            cap *= 2;
        }
        char *k = realloc(ctx->keys, cap);
        if (!k)
            return -1;
        ctx->keys = k, ctx->keys_cap = cap;
    }
    memcpy(ctx->keys + ctx->keys_len, text, n);
    *off = ctx->keys_len;
    ctx->keys_len += n;
    return 0;
}

/* Room for one more entry in a dense array of entries of size bytes; NULL when full or
 * out of memory. */
static void *memo_room(void **v, size_t len, size_t *cap, size_t size)
{
    if (len >= MEMO_MAX)
        return NULL;
    if (len == *cap) {
        size_t ncap = *cap ? 2 * *cap : 64;
        void *nv = realloc(*v, ncap * size);
        if (!nv)
            return NULL;
        *v = nv, *cap = ncap;
    }
    return (char *)*v + len * size;
}

/* A hash of n bytes, eight at a time. */
static uint64_t hash_bytes(const char *t, size_t n, uint64_t h)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, t + i, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15u;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, t + i, n - i);
    h = (h ^ w ^ n) * 0x9e3779b97f4a7c15u;
    return h ^ h >> 32;
}

/* The length of the argument's text at P->cur and its hash into *h; 0 when the text holds
 * what the memo leaves alone (quotes, comments, escapes) or its brackets do not match. */
static size_t arg_span(const Parser *P, bool is_return, uint64_t *h)
{
    const char *t = P->text + P->cur.off;
    int depth = 0;
    size_t n;
    for (size_t i = 0;; i++) {
        switch (t[i]) {
        case '(': case '[':
            depth++;
            continue;
        case ']':
            if (--depth < 0)
                return 0;
            continue;
        case ')': case ',':
            if (depth == 0)
                break;
            if (t[i] == ')')
                depth--;
            continue;
        case '\0':            /* the end of the text */
            if (depth != 0)
                return 0;
            break;
        case '\'': case '"': case '#': case '\\':
            return 0;
        default:
            continue;
        }
        n = i;
        break;
    }
    *h = hash_bytes(t, n, is_return ? 0x9e3779b97f4a7c15u : 0xcbf29ce484222325u);
    return n;
}

static bool plain_default(const TsArg *a)
{
    if (!a->has_default)
        return true;
    switch (a->default_value.tag) {
    case TS_TAG_NONE: case TS_TAG_BOOL: case TS_TAG_INT: case TS_TAG_DOUBLE:
        return true;
    default:
        return false;
    }
}

/* parse_arg through the set's memo. */
static int parse_arg_memo(Parser *P, bool is_return, TsArg *a)
{
    TsSchemaCtx *ctx = P->ctx;
    uint64_t h = 0;
    size_t start = P->cur.off, n = arg_span(P, is_return, &h);
    if (!n)
        return parse_arg(P, is_return, a);
    uint16_t *slot = &ctx->memo_slot[h % MEMO_SLOTS];
    if (*slot) {
        const TsArgMemo *m = &ctx->memo[*slot - 1];
        if (m->hash == h && m->len == n && m->is_return == is_return &&
            memcmp(ctx->keys + m->key_off, P->text + start, n) == 0) {
            *a = m->arg;
            P->cur = lex_at(P->text, P->len, start + n);
            return 0;
        }
    }
    if (parse_arg(P, is_return, a))
        return -1;
    size_t off;
    TsArgMemo *m;
    if (P->cur.off != start + n || !plain_default(a) ||
        !(m = memo_room((void **)&ctx->memo, ctx->memo_len, &ctx->memo_cap, sizeof *m)) ||
        keep_key(ctx, P->text + start, n, &off))
        return 0;
    *m = (TsArgMemo){ h, off, n, is_return, *a };
    *slot = (uint16_t)++ctx->memo_len;
    return 0;
}

/* ---- whole lists, shared ------------------------------------------------------------- */

/* Hundreds of a set's schemas have the same argument list ("(Tensor self, Tensor other)")
 * and nearly all have one of a few return lists ("-> Tensor"): a list whose text was
 * parsed before in the same set is not parsed or stored again, the schema points at the
 * earlier schema's array. The key is the list's exact text (from its '(' to the matching
 * ')' for arguments; the rest of the schema for returns). A list goes in only when its
 * parse consumed exactly that text and every default in it is plain (as for the memo of
 * arguments above), so that what is shared never changes and holds no reference: a
 * schema's arrays are read-only once parsed, and the arena that holds them is referenced
 * by every schema of the set. A hit is thus the same as parsing the text again. */
typedef struct TsListMemo {
    uint64_t hash;
    size_t key_off, len;       /* the text, in ctx->keys */
    TsArg *items;
    size_t n;
    bool is_return;
    bool dots;                 /* is_vararg or is_varret */
} TsListMemo;

/* What list_span stops at: brackets, and what the memo leaves alone (quotes, comments,
 * escapes, the end of the text). Everything else is skipped one table load a byte. */
enum { SPAN_OPEN = 1, SPAN_CLOSE = 2, SPAN_SQUARE_CLOSE = 3, SPAN_STOP = 4 };
static const unsigned char span_class[256] = {
    ['('] = SPAN_OPEN, ['['] = SPAN_OPEN, [')'] = SPAN_CLOSE, [']'] = SPAN_SQUARE_CLOSE,
    ['\0'] = SPAN_STOP, ['\''] = SPAN_STOP, ['"'] = SPAN_STOP, ['#'] = SPAN_STOP,
    ['\\'] = SPAN_STOP,
};

/* The length of the list's text at P->cur (a '(' for arguments; anything for returns,
 * whose text runs to the end) and its hash into *h; 0 when the text holds what the memo
 * leaves alone (quotes, comments, escapes) or its brackets do not match. */
static size_t list_span(const Parser *P, bool is_return, uint64_t *h)
{
    const unsigned char *t = (const unsigned char *)P->text + P->cur.off;
    size_t avail = P->len - P->cur.off, n = 0;
    int depth = 0;
    if (!is_return && t[0] != '(')
        return 0;
    /* text[len] is the string's NUL (a SPAN_STOP), so the scan needs no bounds check */
    for (size_t i = 0;; i++) {
        unsigned c = span_class[t[i]];
        if (!c)
            continue;
        if (c == SPAN_OPEN) {
            depth++;
        } else if (c == SPAN_STOP) {
            if (i < avail || !is_return || depth != 0)
                return 0;
            n = avail;
            break;
        } else if (--depth < 0) {
            return 0;
        } else if (c == SPAN_CLOSE && depth == 0 && !is_return) {
            n = i + 1;
            break;
        }
    }
    if (n == 0)
        return 0;
    *h = hash_bytes((const char *)t, n, is_return ? 0x27d4eb2f165667c5u : 0xcbf29ce484222325u);
    return n;
}

/* The list parsed before whose text is the n bytes at P->cur, or NULL. */
static const TsListMemo *list_lookup(const Parser *P, bool is_return, uint64_t h, size_t n)
{
    const TsSchemaCtx *ctx = P->ctx;
    uint16_t slot = ctx->list_slot[h % MEMO_SLOTS];
    if (!slot)
        return NULL;
    const TsListMemo *m = &ctx->lists[slot - 1];
    if (m->hash == h && m->len == n && m->is_return == is_return &&
        memcmp(ctx->keys + m->key_off, P->text + P->cur.off, n) == 0)
        return m;
    return NULL;
}

/* Remembers the list just parsed from start (n bytes) when it may be shared. Failing to
 * remember (out of memory) only loses the sharing. */
static void list_remember(Parser *P, bool is_return, uint64_t h, size_t start, size_t n,
                          TsArg *items, size_t count, bool dots)
{
    TsSchemaCtx *ctx = P->ctx;
    for (size_t i = 0; i < count; i++)
        if (!plain_default(&items[i]))
            return;
    size_t off;
    TsListMemo *m = memo_room((void **)&ctx->lists, ctx->lists_len, &ctx->lists_cap, sizeof *m);
    if (!m || keep_key(ctx, P->text + start, n, &off))
        return;
    *m = (TsListMemo){ h, off, n, items, count, is_return, dots };
    ctx->list_slot[h % MEMO_SLOTS] = (uint16_t)++ctx->lists_len;
}

/* ---- argument and return lists ------------------------------------------------------- */

/* A list is parsed into a small array on the stack and then stored exactly (an array grown
 * by doubling in the arena would leave its old copies there). */
enum { SCRATCH_ARGS = 16 };

typedef struct {
    TsArg *v;                  /* scratch, or the arena once it outgrew scratch */
    size_t n, cap;
    TsArg scratch[SCRATCH_ARGS];
} ArgVec;

/* Appends an empty argument (no default, no fixed size); NULL when out of memory. */
static TsArg *new_arg(Parser *P, ArgVec *av)
{
    if (av->n == av->cap) {
        size_t ncap = 2 * av->cap;
        TsArg *nv = pgrow(P, av->v, av->n, ncap, sizeof *nv);
        if (!nv)
            return NULL;
        av->v = nv, av->cap = ncap;
    }
    TsArg *a = &av->v[av->n++];
    *a = (TsArg){ .fixed_size = -1 };
    return a;
}

/* Hands the arguments to the schema (*out, *n_out), which owns them from now on (so a
 * failure frees them); moves them out of scratch. */
static int settle(Parser *P, ArgVec *av, TsArg **out, size_t *n_out)
{
    if (av->v == av->scratch && av->n) {
        TsArg *v = palloc_raw(P, av->n * sizeof *v);
        if (!v) {
            for (size_t i = 0; i < av->n; i++)
                if (av->scratch[i].has_default)
                    ts_value_release(av->scratch[i].default_value);
            return -1;
        }
        memcpy(v, av->scratch, av->n * sizeof *v);
        av->v = v;
    }
    *out = av->n ? av->v : NULL;
    *n_out = av->n;
    return 0;
}

static int parse_arg_list(Parser *P, TsSchema *s, ArgVec *av)
{
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
            TsArg *a = new_arg(P, av);
            if (!a || parse_arg_memo(P, false, a))
                return -1;
            a->kwarg_only = kwarg_only;
        }
        if (!accept(P, ','))
            return expect(P, ')');
    }
}

static int parse_return_list(Parser *P, TsSchema *s, ArgVec *av)
{
    if (P->cur.kind == TK_ELLIPSIS) {
        advance(P);
        s->is_varret = true;
        return 0;
    }
    if (!is_punct(P, '(')) {
        /* one bare return: an array of one */
        TsArg *a = new_arg(P, av);
        return a ? parse_arg_memo(P, true, a) : -1;
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
            TsArg *a = new_arg(P, av);
            if (!a || parse_arg_memo(P, true, a))
                return -1;
        }
        if (!accept(P, ','))
            return expect(P, ')');
    }
}

/* The argument list (or, is_return, the returns) through the set's memo of lists. */
static int parse_list(Parser *P, TsSchema *s, bool is_return)
{
    TsArg **items = is_return ? &s->returns : &s->args;
    size_t *count = is_return ? &s->n_returns : &s->n_args;
    bool *dots = is_return ? &s->is_varret : &s->is_vararg;
    uint64_t h = 0;
    size_t start = P->cur.off, n = list_span(P, is_return, &h);
    const TsListMemo *m = n ? list_lookup(P, is_return, h, n) : NULL;
    if (m) {
        *items = m->items, *count = m->n, *dots = m->dots;
        P->cur = lex_at(P->text, P->len, start + n);
        return 0;
    }
    ArgVec av;
    av.v = av.scratch, av.n = 0, av.cap = SCRATCH_ARGS;
    int rc = is_return ? parse_return_list(P, s, &av) : parse_arg_list(P, s, &av);
    if (settle(P, &av, items, count))
        return -1;
    /* remembered only when the parse took exactly the text the key holds */
    if (!rc && n && P->cur.off == lex_at(P->text, P->len, start + n).off)
        list_remember(P, is_return, h, start, n, *items, *count, *dots);
    return rc;
}

/* "ns" "::" "name" as one string. */
static char *qualify(Parser *P, const char *ns, size_t ns_len, const char *name,
                     size_t name_len)
{
    char *q = palloc_raw(P, ns_len + name_len + 3);
    if (q) {
        memcpy(q, ns, ns_len);
        memcpy(q + ns_len, "::", 2);
        memcpy(q + ns_len + 2, name, name_len);
        q[ns_len + 2 + name_len] = '\0';
    }
    return q;
}

/* "ns::name.overload"; a bare "name" takes default_ns. */
static int parse_name(Parser *P, TsSchema *s, const char *default_ns)
{
    if (P->cur.kind != TK_IDENT)
        return fail_expected(P, "an operator name");
    Tok first = P->cur;
    advance(P);
    if (accept(P, ':')) {
        if (expect(P, ':'))
            return -1;
        if (P->cur.kind != TK_IDENT)
            return fail_expected(P, "an operator name");
        s->name = qualify(P, P->text + first.off, first.len, P->text + P->cur.off, P->cur.len);
        advance(P);
    } else if (default_ns) {
        s->name = qualify(P, default_ns, strlen(default_ns), P->text + first.off, first.len);
    } else {
        return fail(P, first.off, "operator name '%.*s' has no namespace (expected 'ns::%.*s')",
                    (int)first.len, P->text + first.off, (int)first.len, P->text + first.off);
    }
    if (!s->name)
        return -1;
    if (!accept(P, '.'))
        return (s->overload = pstrndup(P, "", 0)) ? 0 : -1;
    size_t off = P->cur.off;
    if (take_ident(P, "an overload name", &s->overload))
        return -1;
    if (strcmp(s->overload, "default") == 0 || strcmp(s->overload, "__all__") == 0)
        return fail(P, off, "'%s' is not a legal overload name", s->overload);
    return 0;
}

/* The text's length, or an error for NULL or too long text. */
static int text_length(const char *text, size_t *len, TsError *err)
{
    if (!text)
        return ts_error_set(err, TS_ERR_USAGE, "ts_schema_parse: NULL text");
    *len = strnlen(text, (size_t)MAX_TEXT + 1);
    if (*len > MAX_TEXT)
        return ts_error_set(err, TS_ERR_LIMIT, "schema text too long (limit %d bytes)",
                            MAX_TEXT);
    return 0;
}

void ts_schema_ctx_init(TsSchemaCtx *ctx, TsArena *arena)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->arena = arena;
}

void ts_schema_ctx_free(TsSchemaCtx *ctx)
{
    free(ctx->memo);
    free(ctx->lists);
    free(ctx->keys);
    ts_schema_ctx_init(ctx, ctx->arena);
}

TsSchema *ts_schema_parse_in(TsSchemaCtx *ctx, const char *text, const char *default_ns,
                             size_t *err_offset, TsError *err)
{
    size_t dummy, len;
    if (!err_offset)
        err_offset = &dummy;
    *err_offset = 0;
    if (text_length(text, &len, err))
        return NULL;
    Parser P = { text, len, { TK_EOF, 0, 0 }, err, 0, false, ctx->arena, ctx };
    P.cur = lex_at(text, len, 0);
    TsSchema *s = palloc(&P, sizeof *s);
    if (!s)
        return NULL;
    s->arena = ts_arena_retain(ctx->arena);
    if (parse_name(&P, s, default_ns) || parse_list(&P, s, false))
        goto fail;
    if (P.cur.kind != TK_ARROW) {
        fail_expected(&P, "'->'");
        goto fail;
    }
    advance(&P);
    if (parse_list(&P, s, true))
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

TsSchema *ts_schema_parse(const char *text, const char *default_ns, size_t *err_offset,
                          TsError *err)
{
    size_t len;
    if (err_offset)
        *err_offset = 0;
    if (text_length(text, &len, err))
        return NULL;
    /* A first chunk that holds most schemas whole: ~3 bytes per byte of text. */
    TsArena *arena = ts_arena_new(256 + 4 * len);
    if (!arena) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory while parsing a schema");
        return NULL;
    }
    TsSchemaCtx ctx;
    ts_schema_ctx_init(&ctx, arena);
    TsSchema *s = ts_schema_parse_in(&ctx, text, default_ns, err_offset, err);
    ts_schema_ctx_free(&ctx);
    ts_arena_release(arena);   /* s holds its own reference */
    return s;
}

void ts_schema_free(TsSchema *s)
{
    if (!s)
        return;
    if (s->arena) {
        /* parsed: everything but the default values is in the arena, s included */
        for (size_t i = 0; i < s->n_args; i++)
            if (s->args[i].has_default)
                ts_value_release(s->args[i].default_value);
        for (size_t i = 0; i < s->n_returns; i++)
            if (s->returns[i].has_default)
                ts_value_release(s->returns[i].default_value);
        ts_arena_release(s->arena);
        return;
    }
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
    case TS_TYPE_INTERFACE: {  /* PyTorch's InterfaceType::str(): the unqualified name */
        const char *name = ts_type_name(t), *dot = strrchr(name, '.');
        ts_buf_printf(b, "InterfaceType<%s>", dot ? dot + 1 : name);
        return;
    }
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
    case TS_TAG_DEVICE: {       /* quoted, as the parser reads it (torch prints it bare) */
        char dev[64];
        ts_device_str(v.u.dev, dev, sizeof dev);
        ts_buf_printf(b, "\"%s\"", dev);
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
 * ("int[2] stride=1"), as native_functions.yaml does; only where the list's size is fixed
 * and is the default's, the one spelling that reads back the same (torch also writes
 * "int[] a=[1, 1]" as "int[] a=1", which no parser reads). */
static bool is_repeated_int_list(const TsArg *a)
{
    if (ts_type_kind(a->type) != TS_TYPE_LIST || a->symint ||
        ts_type_kind(ts_type_elem(a->type, 0)) != TS_TYPE_INT ||
        a->default_value.tag != TS_TAG_LIST)
        return false;
    const TsList *l = (const TsList *)a->default_value.u.p;
    if (l->len < 2 || a->fixed_size != (long)l->len)
        return false;
    for (size_t i = 1; i < l->len; i++)
        if (l->items[i].tag != TS_TAG_INT || l->items[i].u.i != l->items[0].u.i)
            return false;
    return true;
}

/* A type with its annotations where the parser reads them back: a level's own set right
 * after its base type or its "[]" and before any '?' ("Tensor(a!)?[]", "Tensor(a)[][](b)");
 * a level without a set of its own (a list holding annotated elements) prints none. The
 * outermost list is "[N]" when fixed >= 0. (torch prints "Tensor?(a!)[]" and
 * "Tensor[]()[](b)", which no parser reads.) */
static void put_annotated(TsBuf *b, const TsType *t, const TsAlias *a, bool symint, long fixed)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_OPTIONAL:
        put_annotated(b, ts_type_elem(t, 0), a, symint, fixed);
        ts_buf_puts(b, "?");
        return;
    case TS_TYPE_LIST:
        put_annotated(b, ts_type_elem(t, 0), a ? a->contained : NULL, symint, -1);
        if (fixed >= 0)
            ts_buf_printf(b, "[%ld]", fixed);
        else
            ts_buf_puts(b, "[]");
        break;
    default:
        put_type(b, t, symint);
        break;
    }
    if (a && a->n_before)
        put_alias(b, a);
}

static void put_arg(TsBuf *b, const TsArg *a)
{
    const TsType *t = a->type;
    const TsType *inner = ts_type_kind(t) == TS_TYPE_OPTIONAL ? ts_type_elem(t, 0) : t;
    put_annotated(b, t, a->alias, a->symint, a->fixed_size);
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
