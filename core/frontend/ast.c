/* ast.c — Tree nodes: construction, freeing, and the S-expression dump used by tests.
 *
 * Depth is kept on every node so that code walking a tree recursively (this file, the
 * emitter) can rely on the parser's limit instead of the C stack's.
 */
#include "frontend/ast.h"
#include "tscript/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lexer.h"

static const char *const kind_names[] = {
#define TS_TREE_NAME(k, name) name,
    TS_TREE_KINDS(TS_TREE_NAME)
#undef TS_TREE_NAME
};

const char *ts_tree_kind_name(TsTreeKind kind)
{
    return kind < TS_TREE__COUNT ? kind_names[kind] : "?";
}

TsTree *ts_tree_new(TsTreeKind kind, TsSourceRange range)
{
    TsTree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->kind = kind;
    t->range = range;
    t->depth = 1;
    ts_source_retain(range.source);
    return t;
}

int ts_tree_set_str(TsTree *t, const char *s, size_t len)
{
    char *p = malloc(len + 1);
    if (!p)
        return -1;
    memcpy(p, s, len);
    p[len] = '\0';
    free(t->str);
    t->str = p;
    t->len = len;
    return 0;
}

int ts_tree_add(TsTree *t, TsTree *kid)
{
    /* Grow by doubling: capacity is the next power of two at or above n_kids. */
    size_t n = t->n_kids;
    if ((n & (n - 1)) == 0) {
        size_t cap = n ? n * 2 : 2;
        TsTree **nk = realloc(t->kids, cap * sizeof *nk);
        if (!nk)
            return -1;
        t->kids = nk;
    }
    t->kids[t->n_kids++] = kid;
    if (kid && kid->depth + 1 > t->depth)
        t->depth = kid->depth + 1;
    return 0;
}

void ts_tree_free(TsTree *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_kids; i++)
        ts_tree_free(t->kids[i]);
    free(t->kids);
    free(t->str);
    ts_source_release(t->range.source);
    free(t);
}

/* ---- dump ------------------------------------------------------------------ */

/* A string literal in double quotes, with C escapes for quotes, backslashes and
 * non-printable bytes. */
static void put_quoted(TsBuf *o, const char *s, size_t n)
{
    ts_buf_add(o, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char b[8];
        if (c == '"' || c == '\\') {
            b[0] = '\\';
            b[1] = (char)c;
            ts_buf_add(o, b, 2);
        } else if (c == '\n') {
            ts_buf_add(o, "\\n", 2);
        } else if (c == '\t') {
            ts_buf_add(o, "\\t", 2);
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(b, sizeof b, "\\x%02x", c);
            ts_buf_add(o, b, 4);
        } else {
            ts_buf_add(o, (const char *)&s[i], 1);
        }
    }
    ts_buf_add(o, "\"", 1);
}

static void put_range(TsBuf *o, TsSourceRange r)
{
    if (!r.source)
        return;
    size_t l1, c1, l2, c2;
    ts_source_line_col(r.source, r.start, &l1, &c1);
    ts_source_line_col(r.source, r.end, &l2, &c2);
    char b[96];
    snprintf(b, sizeof b, "@%zu:%zu-%zu:%zu", l1, c1, l2, c2);
    ts_buf_puts(o, b);
}

static void dump(TsBuf *o, const TsTree *t, int flags)
{
    if (!t) {
        ts_buf_add(o, "_", 1);
        return;
    }
    int leaf = 0;
    switch (t->kind) {
    case TS_TREE_NAME:
    case TS_TREE_INT:
    case TS_TREE_FLOAT:
    case TS_TREE_IMAG:
        ts_buf_puts(o, t->str ? t->str : "?");
        leaf = 1;
        break;
    case TS_TREE_STRING:
        put_quoted(o, t->str ? t->str : "", t->len);
        leaf = 1;
        break;
    case TS_TREE_TRUE:
    case TS_TREE_FALSE:
    case TS_TREE_NONE:
    case TS_TREE_ELLIPSIS:
    case TS_TREE_PASS:
    case TS_TREE_BREAK:
    case TS_TREE_CONTINUE:
        ts_buf_puts(o, kind_names[t->kind]);
        leaf = 1;
        break;
    default:
        break;
    }
    if (leaf) {
        if (flags & TS_DUMP_RANGES)
            put_range(o, t->range);
        return;
    }
    ts_buf_add(o, "(", 1);
    ts_buf_puts(o, kind_names[t->kind]);
    if (t->op) {
        ts_buf_add(o, " ", 1);
        const char *opt = ts_token_text(t->op);
        ts_buf_puts(o, opt ? opt : "?");
    }
    switch (t->kind) {
    case TS_TREE_BYTES:
    case TS_TREE_TYPE_COMMENT:
        ts_buf_add(o, " ", 1);
        put_quoted(o, t->str ? t->str : "", t->len);
        break;
    case TS_TREE_KWARG:
    case TS_TREE_ALIAS:
        ts_buf_add(o, " ", 1);
        ts_buf_puts(o, t->str ? t->str : "**");
        break;
    case TS_TREE_IMPORT_FROM: {
        ts_buf_add(o, " ", 1);
        for (int64_t i = 0; i < t->ival; i++)
            ts_buf_add(o, ".", 1);
        ts_buf_puts(o, t->str ? t->str : "");
        break;
    }
    case TS_TREE_PARAM: {
        static const char *const pk[] = {"", "/", "*", "kw", "**"};
        if (t->ival > 0 && t->ival < 5) {
            ts_buf_add(o, " ", 1);
            ts_buf_puts(o, pk[t->ival]);
        }
        break;
    }
    case TS_TREE_FORMATTED:
        if (t->ival) {
            char b[4] = {' ', '!', (char)t->ival, 0};
            ts_buf_puts(o, b);
        }
        break;
    default:
        if (t->flag) {
            char b[16];
            snprintf(b, sizeof b, " #%d", t->flag);
            ts_buf_puts(o, b);
        }
        break;
    }
    for (size_t i = 0; i < t->n_kids; i++) {
        ts_buf_add(o, " ", 1);
        dump(o, t->kids[i], flags);
    }
    ts_buf_add(o, ")", 1);
    if (flags & TS_DUMP_RANGES)
        put_range(o, t->range);
}

char *ts_tree_dump(const TsTree *t, int flags)
{
    TsBuf o = TS_BUF_INIT;
    dump(&o, t, flags);
    return ts_buf_take(&o, NULL);
}
