/* schema_scan.c — the fast path for reading schema set files: one pass over a strict
 * subset of YAML, declining everything else to libyaml (yaml_schemas.c).
 *
 * The subset is line-based. Every line is blank, a comment (spaces, then '#'), or one of
 *
 *     - KEY: VALUE        an item of the sequence: "- " at the sequence's column
 *       KEY: VALUE        a further key of the item, at the column of its first key
 *     KEY: VALUE          a key of the root mapping (shape 2), at column 0
 *     functions:          the same with an empty value: the sequence follows
 *
 * where KEY is an identifier and VALUE a single-line scalar: plain (not starting with an
 * indicator, no ": " or trailing ':' inside, ending at the line's end or at " #"), or
 * single-quoted. Content is printable ASCII; comments may hold any UTF-8 libyaml accepts
 * except its extra line breaks (U+0085, U+2028, U+2029). The root is a sequence at column 0
 * (shape 1) or a mapping with exactly the keys `namespace` (an identifier) and `functions`
 * (shape 2); each item has exactly one `func` key.
 *
 * Inside the subset libyaml reads the same values at the same positions; outside it —
 * other quoting, block and multi-line scalars, flow collections, tabs, CRs, anchors, tags,
 * several documents, and every error — the scanner declines, and libyaml reads the file
 * and reports what is wrong with file:line:col. t/schema_scan.t checks that both readers
 * agree.
 */
#include "registry/schema_scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "tscript/error.h"

#define DECLINE TS_SCAN_DECLINED
#define MAX_KEY 128            /* libyaml allows simple keys of up to 1024 characters */

typedef struct Scanner {
    const char *text;
    size_t len;
    size_t pos;                /* start of the current line */
    int line;                  /* 1-based number of the current line */
    TsScan *out;
} Scanner;

/* A scalar on a line: its bytes and its column (0-based). */
typedef struct Value {
    size_t off, len;
    size_t col;
    bool single_quoted;
    bool present;
} Value;

/* Decodes the UTF-8 character at s (n bytes left) into *cp; returns its length, or 0 if it
 * is malformed (truncated, overlong, a surrogate, beyond U+10FFFF). */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t k = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
    if (!k || k > n || s[0] >= 0xF8)
        return 0;
    uint32_t v = s[0] & (0x7F >> k);
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (v < min[k] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return k;
}

/* A comment's text from s up to the line's end: printable as libyaml requires, and no
 * character libyaml would count as a line break. */
static bool comment_ok(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        if (u[i] >= 0x20 && u[i] < 0x7F) {
            i++;
            continue;
        }
        uint32_t cp;
        size_t k = u[i] >= 0x80 ? utf8_decode(u + i, n - i, &cp) : 0;
        if (!k || !((cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
                    cp >= 0x10000) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF)
            return false;
        i += k;
    }
    return true;
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

static bool is_printable(char c) { return c >= 0x20 && c < 0x7F; }

/* After a scalar ends at s[i]: spaces, then the line's end or a comment (which needs a
 * space before its '#'). */
static bool rest_of_line_ok(const char *s, size_t n, size_t i)
{
    size_t start = i;
    while (i < n && s[i] == ' ')
        i++;
    if (i == n)
        return true;
    return s[i] == '#' && i > start && comment_ok(s + i, n - i);
}

/* Printable ASCII but ':' and '#': what a plain scalar's inner loop skips, one table load
 * a character. */
#define ORDINARY(c) ((c) >= 0x20 && (c) < 0x7F && (c) != ':' && (c) != '#')
#define ORDINARY_ROW(b)                                                                     \
    ORDINARY(b + 0), ORDINARY(b + 1), ORDINARY(b + 2), ORDINARY(b + 3), ORDINARY(b + 4),     \
    ORDINARY(b + 5), ORDINARY(b + 6), ORDINARY(b + 7), ORDINARY(b + 8), ORDINARY(b + 9),     \
    ORDINARY(b + 10), ORDINARY(b + 11), ORDINARY(b + 12), ORDINARY(b + 13), ORDINARY(b + 14), \
    ORDINARY(b + 15)
static const bool plain_ordinary[256] = {
    ORDINARY_ROW(0x00), ORDINARY_ROW(0x10), ORDINARY_ROW(0x20), ORDINARY_ROW(0x30),
    ORDINARY_ROW(0x40), ORDINARY_ROW(0x50), ORDINARY_ROW(0x60), ORDINARY_ROW(0x70),
    ORDINARY_ROW(0x80), ORDINARY_ROW(0x90), ORDINARY_ROW(0xA0), ORDINARY_ROW(0xB0),
    ORDINARY_ROW(0xC0), ORDINARY_ROW(0xD0), ORDINARY_ROW(0xE0), ORDINARY_ROW(0xF0),
};

static bool is_plain_ordinary(unsigned char c) { return plain_ordinary[c]; }

/* The first byte at or after j (before n) that is not plain_ordinary, or n. A scalar's
 * bytes are most of the scanner's work: with SSE2 (every x86-64) they are checked sixteen
 * at a time. */
static size_t skip_ordinary(const char *s, size_t j, size_t n)
{
#ifdef __SSE2__
    const __m128i space = _mm_set1_epi8(0x1F), del = _mm_set1_epi8(0x7F);
    const __m128i colon = _mm_set1_epi8(':'), hash = _mm_set1_epi8('#');
    for (; n - j >= 16; j += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + j));
        /* signed compares: bytes from 0x80 are negative, so not above 0x1F */
        __m128i printable = _mm_and_si128(_mm_cmpgt_epi8(v, space), _mm_cmplt_epi8(v, del));
        __m128i stop = _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, hash));
        unsigned ordinary = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(stop, printable));
        if (ordinary != 0xFFFF)
            return j + (size_t)__builtin_ctz(~ordinary);
    }
#endif
    while (j < n && is_plain_ordinary((unsigned char)s[j]))
        j++;
    return j;
}

/* A plain scalar at s[i] (the first character is known not to be a space). */
static bool plain_value(const char *s, size_t n, size_t i, Value *v)
{
    if (strchr("-?:,[]{}#&*!|>'\"%@`", s[i]))
        return false;
    size_t j = i;
    for (;;) {
        j = skip_ordinary(s, j, n);
        if (j == n)
            break;
        if (s[j] == ':' && (j + 1 == n || s[j + 1] == ' '))
            return false;      /* a mapping value indicator */
        if (s[j] == '#' && s[j - 1] == ' ')
            break;             /* a comment ends the scalar */
        if (s[j] != ':' && s[j] != '#')
            return false;      /* not printable ASCII */
        j++;
    }
    size_t end = j;
    while (s[end - 1] == ' ')
        end--;                 /* s[i] is not a space */
    v->off = i, v->len = end - i;
    return j == n || comment_ok(s + j, n - j);
}

/* A single-quoted scalar at s[i] (the quote), closed on the same line. */
static bool quoted_value(const char *s, size_t n, size_t i, Value *v)
{
    for (size_t j = i + 1; j < n; j++) {
        if (!is_printable(s[j]))
            return false;
        if (s[j] != '\'')
            continue;
        if (j + 1 < n && s[j + 1] == '\'') {
            j++;
            continue;
        }
        v->off = i + 1, v->len = j - i - 1, v->single_quoted = true;
        return rest_of_line_ok(s, n, j + 1);
    }
    return false;
}

/* "KEY: VALUE" or "KEY:" from s[i] to the line's end (n). */
static bool key_value(const char *s, size_t n, size_t i, Value *key, Value *v)
{
    memset(key, 0, sizeof *key);
    memset(v, 0, sizeof *v);
    if (i >= n || !is_ident_start(s[i]))
        return false;
    size_t j = i;
    while (j < n && is_ident_char(s[j]))
        j++;
    if (j - i > MAX_KEY || j >= n || s[j] != ':')
        return false;
    *key = (Value){ i, j - i, i, false, true };
    j++;
    if (j < n && s[j] != ' ')
        return false;
    while (j < n && s[j] == ' ')
        j++;
    if (j == n)
        return true;
    if (s[j] == '#')
        return comment_ok(s + j, n - j);
    v->col = j;
    v->present = true;
    return s[j] == '\'' ? quoted_value(s, n, j, v) : plain_value(s, n, j, v);
}

static bool key_is(const Scanner *S, const Value *k, const char *word)
{
    size_t n = strlen(word);
    return k->len == n && memcmp(S->text + S->pos + k->off, word, n) == 0;
}

/* ---- the structure ------------------------------------------------------------------- */

typedef enum Shape { SHAPE_NONE, SHAPE_SEQ, SHAPE_MAP } Shape;

typedef struct State {
    Shape shape;
    long seq_col;              /* column of the items' '-', or -1 before the first item */
    bool in_seq;               /* shape 2: between "functions:" and the next root key */
    bool in_item, item_has_func;
    bool seen_namespace, seen_functions;
    size_t n_items;
} State;

static int add_func(Scanner *S, const Value *v)
{
    TsScan *o = S->out;
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 256;
        TsScanFunc *f = realloc(o->funcs, cap * sizeof *f);
        if (!f)
            return TS_ERR_NOMEM;
        o->funcs = f, o->cap = cap;
    }
    o->funcs[o->n++] = (TsScanFunc){ S->pos + v->off, v->len, S->line,
                                     (int)v->col + 1, v->single_quoted };
    return 0;
}

/* A key of the current item (the first one comes with its "- "). */
static int item_key(Scanner *S, State *st, const Value *key, const Value *v)
{
    if (!v->present)
        return DECLINE;        /* a nested block, or null */
    if (!key_is(S, key, "func"))
        return 0;
    if (st->item_has_func)
        return DECLINE;
    st->item_has_func = true;
    return add_func(S, v);
}

static int end_item(State *st)
{
    if (st->in_item && !st->item_has_func)
        return DECLINE;
    st->in_item = st->item_has_func = false;
    return 0;
}

static int root_key(Scanner *S, State *st, const Value *key, const Value *v)
{
    if (end_item(st))
        return DECLINE;
    st->in_seq = false;
    if (key_is(S, key, "namespace")) {
        if (st->seen_namespace || !v->present || v->single_quoted)
            return DECLINE;
        const char *ns = S->text + S->pos + v->off;
        for (size_t i = 0; i < v->len; i++)
            if (!(i ? is_ident_char(ns[i]) : is_ident_start(ns[i])))
                return DECLINE;
        st->seen_namespace = true;
        S->out->has_namespace = true;
        S->out->ns_off = S->pos + v->off;
        S->out->ns_len = v->len;
        return 0;
    }
    if (key_is(S, key, "functions")) {
        if (st->seen_functions || v->present)
            return DECLINE;
        st->seen_functions = st->in_seq = true;
        return 0;
    }
    return DECLINE;
}

static int content_line(Scanner *S, State *st, const char *s, size_t n, size_t indent)
{
    Value key, v;
    bool item = s[indent] == '-' && indent + 1 < n && s[indent + 1] == ' ';
    if (st->shape == SHAPE_NONE) {
        if (indent != 0)
            return DECLINE;
        st->shape = item ? SHAPE_SEQ : SHAPE_MAP;
        st->in_seq = item;
    }
    if (item) {
        if (!st->in_seq || (st->seq_col >= 0 && (size_t)st->seq_col != indent))
            return DECLINE;
        if (end_item(st) || !key_value(s, n, indent + 2, &key, &v))
            return DECLINE;
        st->seq_col = (long)indent;
        st->in_item = true;
        st->n_items++;
        return item_key(S, st, &key, &v);
    }
    if (!key_value(s, n, indent, &key, &v))
        return DECLINE;
    if (st->in_item && indent == (size_t)st->seq_col + 2)
        return item_key(S, st, &key, &v);
    if (st->shape == SHAPE_MAP && indent == 0)
        return root_key(S, st, &key, &v);
    return DECLINE;
}

int ts_schema_scan(const char *text, size_t len, TsScan *out)
{
    memset(out, 0, sizeof *out);
    Scanner S = { text, len, 0, 1, out };
    State st = { SHAPE_NONE, -1, false, false, false, false, false, 0 };
    while (S.pos < len) {
        const char *s = text + S.pos;
        const char *nl = memchr(s, '\n', len - S.pos);
        size_t n = nl ? (size_t)(nl - s) : len - S.pos;
        size_t indent = 0;
        while (indent < n && s[indent] == ' ')
            indent++;
        int rc = 0;
        if (indent == n)
            rc = 0;
        else if (s[indent] == '#')
            rc = comment_ok(s + indent, n - indent) ? 0 : DECLINE;
        else
            rc = content_line(&S, &st, s, n, indent);
        if (rc)
            return rc;
        S.pos += n + (nl != NULL);
        S.line++;
    }
    if (end_item(&st))
        return DECLINE;
    if (st.shape == SHAPE_MAP && (!st.seen_namespace || !st.seen_functions || !st.n_items))
        return DECLINE;
    return 0;
}

void ts_scan_free(TsScan *s)
{
    free(s->funcs);
    memset(s, 0, sizeof *s);
}
