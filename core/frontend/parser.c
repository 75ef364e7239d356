/* parser.c — a Pratt parser from tokens to Trees, with Python 3's grammar.
 *
 * Statements are parsed by recursive descent; expressions by precedence climbing
 * (parse_binary), one level per row of Python's operator table. A few things are desugared
 * here exactly as PyTorch's frontend does, so the emitter sees PyTorch's trees:
 * `a < b < c` becomes `(a < b) and (b < c)` (b is copied), `a not in b` becomes
 * `not (a in b)`, and an f-string without conversions or format specs becomes
 * `"a{}b".format(x)`.
 *
 * Memory: every node the parser makes is also recorded in Parser.all, so that on an error
 * everything made so far is freed in one sweep, whatever state the half-built tree is in.
 * On success the list is dropped and the root owns the tree.
 */
#include "frontend/parser.h"
#include "tscript/strbuf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Parser {
    TsSource *source;
    TsLexer lx;
    TsToken tok;               /* the current token */
    TsToken ahead;             /* one token of lookahead, when has_ahead */
    int has_ahead;
    TsError *err;
    int failed;
    int nesting;               /* recursion depth, against TS_PARSE_MAX_NESTING */
    TsTree **all;              /* every node made, for cleanup on error */
    size_t n_all, cap_all;
    TsToken *comments;         /* type comments seen, in order */
    size_t n_comments, cap_comments;
} Parser;

/* ---- errors, nodes, tokens ------------------------------------------------------ */

__attribute__((format(printf, 5, 6)))
static void fail(Parser *p, TsErrorCode code, size_t start, size_t end, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = 1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ts_error_at(p->err, code, (TsSourceRange){p->source, start, end}, "%s", msg);
}

static void oom(Parser *p)
{
    if (!p->failed) {
        p->failed = 1;
        ts_error_set(p->err, TS_ERR_NOMEM, "out of memory while parsing %s", p->source->filename);
    }
}

static TsTree *mk(Parser *p, TsTreeKind kind, size_t start, size_t end)
{
    if (p->failed)
        return NULL;
    if (p->n_all == p->cap_all) {
        size_t cap = p->cap_all ? p->cap_all * 2 : 256;
        TsTree **na = realloc(p->all, cap * sizeof *na);
        if (!na) {
            oom(p);
            return NULL;
        }
        p->all = na;
        p->cap_all = cap;
    }
    TsTree *t = ts_tree_new(kind, (TsSourceRange){p->source, start, end});
    if (!t) {
        oom(p);
        return NULL;
    }
    p->all[p->n_all++] = t;
    return t;
}

/* Appends kid (NULL: an absent optional part) and enforces the depth limit. */
static void add(Parser *p, TsTree *t, TsTree *kid)
{
    if (p->failed || !t)
        return;
    if (ts_tree_add(t, kid)) {
        oom(p);
        return;
    }
    if (t->depth > TS_PARSE_MAX_TREE_DEPTH)
        fail(p, TS_ERR_LIMIT, t->range.start, t->range.end,
             "expression or block nested too deeply (the limit is %d levels)",
             TS_PARSE_MAX_TREE_DEPTH);
}

static void set_str(Parser *p, TsTree *t, const char *s, size_t len)
{
    if (t && ts_tree_set_str(t, s, len))
        oom(p);
}

static TsTree *mk1(Parser *p, TsTreeKind kind, size_t start, size_t end, TsTree *a)
{
    TsTree *t = mk(p, kind, start, end);
    add(p, t, a);
    return t;
}

static TsTree *mk2(Parser *p, TsTreeKind kind, size_t start, size_t end, TsTree *a, TsTree *b)
{
    TsTree *t = mk1(p, kind, start, end, a);
    add(p, t, b);
    return t;
}

static void extend(TsTree *t, size_t end)
{
    if (t && end > t->range.end)
        t->range.end = end;
}

static void read_token(Parser *p, TsToken *out)
{
    for (;;) {
        if (p->failed || ts_lex_next(&p->lx, out, p->err)) {
            p->failed = 1;
            memset(out, 0, sizeof *out);
            out->kind = TS_TK_EOF;
            out->start = out->end = p->lx.pos;
            return;
        }
        if (out->kind != TS_TK_TYPE_COMMENT)
            return;
        if (p->n_comments == p->cap_comments) {
            size_t cap = p->cap_comments ? p->cap_comments * 2 : 16;
            TsToken *nc = realloc(p->comments, cap * sizeof *nc);
            if (!nc) {
                oom(p);
                continue;
            }
            p->comments = nc;
            p->cap_comments = cap;
        }
        p->comments[p->n_comments++] = *out;
    }
}

static void next(Parser *p)
{
    if (p->has_ahead) {
        p->tok = p->ahead;
        p->has_ahead = 0;
    } else {
        read_token(p, &p->tok);
    }
}

static const TsToken *peek(Parser *p)
{
    if (!p->has_ahead) {
        read_token(p, &p->ahead);
        p->has_ahead = 1;
    }
    return &p->ahead;
}

static int at(const Parser *p, int kind)
{
    return p->tok.kind == kind;
}

static int accept(Parser *p, int kind)
{
    if (p->tok.kind != kind)
        return 0;
    next(p);
    return 1;
}

static void unexpected(Parser *p, const char *wanted)
{
    const TsToken *t = &p->tok;
    size_t end = t->end > t->start ? t->end : t->start + 1;
    if (t->kind == TS_TK_INDENT)
        fail(p, TS_ERR_SYNTAX, t->start, end, "unexpected indent");
    else
        fail(p, TS_ERR_SYNTAX, t->start, end, "expected %s but found %s here", wanted,
             ts_token_kind_name(t->kind));
}

/* Consumes a token of the kind, or fails; returns the token's end. */
static size_t expect(Parser *p, int kind)
{
    size_t end = p->tok.end;
    if (p->tok.kind != kind) {
        unexpected(p, ts_token_kind_name(kind));
        return end;
    }
    next(p);
    return end;
}

static int enter(Parser *p)
{
    if (++p->nesting > TS_PARSE_MAX_NESTING) {
        fail(p, TS_ERR_LIMIT, p->tok.start, p->tok.end,
             "too many nested expressions or blocks (the limit is %d)", TS_PARSE_MAX_NESTING);
        return 0;
    }
    return !p->failed;
}

static void leave(Parser *p)
{
    p->nesting--;
}

/* A NAME node for the current token, which must be an identifier. */
static TsTree *name(Parser *p)
{
    if (!at(p, TS_TK_NAME)) {
        unexpected(p, "an identifier");
        return NULL;
    }
    TsTree *t = mk(p, TS_TREE_NAME, p->tok.start, p->tok.end);
    set_str(p, t, p->source->text + p->tok.start, p->tok.end - p->tok.start);
    next(p);
    return t;
}

/* A deep copy made through mk(), for the middle operand of a comparison chain. */
static TsTree *copy(Parser *p, const TsTree *t)
{
    if (!t || p->failed)
        return NULL;
    TsTree *c = mk(p, t->kind, t->range.start, t->range.end);
    if (!c)
        return NULL;
    c->op = t->op;
    c->flag = t->flag;
    c->ival = t->ival;
    c->fval = t->fval;
    if (t->str)
        set_str(p, c, t->str, t->len);
    for (size_t i = 0; i < t->n_kids; i++)
        add(p, c, copy(p, t->kids[i]));
    return c;
}

/* Frees a node the tree will not hold after all (and its children), and forgets it. */
static void discard(Parser *p, TsTree *t)
{
    if (!t)
        return;
    /* the last kid is the newest node, so from the end each search is short */
    for (size_t i = t->n_kids; i-- > 0;)
        discard(p, t->kids[i]);
    for (size_t i = p->n_all; i-- > 0;)
        if (p->all[i] == t) {
            p->all[i] = p->all[--p->n_all];
            break;
        }
    free(t->kids);
    free(t->str);
    ts_source_release(t->range.source);
    free(t);
}

/* ---- expressions ------------------------------------------------------------------ */

static TsTree *parse_test(Parser *p);
static TsTree *parse_binary(Parser *p, int min_prec);
static TsTree *parse_testlist(Parser *p, int allow_star);
static TsTree *parse_star_or_test(Parser *p);
static void parse_comp_fors(Parser *p, TsTree *comp);
static TsTree *parse_params(Parser *p, int close, int annotations);

enum {
    PREC_OR = 1, PREC_AND = 2, PREC_NOT = 3, PREC_CMP = 4, PREC_BITOR = 5, PREC_XOR = 6,
    PREC_BITAND = 7, PREC_SHIFT = 8, PREC_ARITH = 9, PREC_TERM = 10, PREC_UNARY = 11
};

/* The binary precedence of the current token (0 if it is not a binary operator); *op is
 * the operator, with "not in" and "is not" read as one. */
static int binary_prec(Parser *p, int *op)
{
    int k = p->tok.kind;
    *op = k;
    switch (k) {
    case TS_TK_OR: return PREC_OR;
    case TS_TK_AND: return PREC_AND;
    case '<': case '>': case TS_TK_EQ: case TS_TK_NE: case TS_TK_LE: case TS_TK_GE:
    case TS_TK_IN:
        return PREC_CMP;
    case TS_TK_IS:
        if (peek(p)->kind == TS_TK_NOT)
            *op = TS_TK_IS_NOT;
        return PREC_CMP;
    case TS_TK_NOT:
        if (peek(p)->kind == TS_TK_IN) {
            *op = TS_TK_NOT_IN;
            return PREC_CMP;
        }
        return 0;
    case '|': return PREC_BITOR;
    case '^': return PREC_XOR;
    case '&': return PREC_BITAND;
    case TS_TK_LSHIFT: case TS_TK_RSHIFT: return PREC_SHIFT;
    case '+': case '-': return PREC_ARITH;
    case '*': case '/': case '%': case '@': case TS_TK_FLOORDIV: return PREC_TERM;
    default: return 0;
    }
}

static void skip_op(Parser *p, int op)
{
    next(p);
    if (op == TS_TK_NOT_IN || op == TS_TK_IS_NOT)
        next(p);   /* the second word */
}

static TsTree *binary(Parser *p, int op, TsTree *l, TsTree *r)
{
    if (!l || !r)
        return NULL;
    TsTree *t = mk2(p, TS_TREE_BINARY, l->range.start, r->range.end, l, r);
    if (t)
        t->op = op;
    return t;
}

/* One comparison; "a not in b" is built as not (a in b). */
static TsTree *comparison(Parser *p, int op, TsTree *l, TsTree *r)
{
    if (op != TS_TK_NOT_IN)
        return binary(p, op, l, r);
    TsTree *in = binary(p, TS_TK_IN, l, r);
    TsTree *t = in ? mk1(p, TS_TREE_UNARY, in->range.start, in->range.end, in) : NULL;
    if (t)
        t->op = TS_TK_NOT;
    return t;
}

/* Number tokens as INT/FLOAT/IMAG nodes; str is the literal's text. */
static TsTree *number(Parser *p)
{
    const TsToken *k = &p->tok;
    TsTreeKind kind = k->kind == TS_TK_INT ? TS_TREE_INT
                    : k->kind == TS_TK_FLOAT ? TS_TREE_FLOAT : TS_TREE_IMAG;
    TsTree *t = mk(p, kind, k->start, k->end);
    if (t) {
        t->ival = k->ival;
        t->fval = k->fval;
        t->flag = k->int_overflow;
        set_str(p, t, p->source->text + k->start, k->end - k->start);
    }
    next(p);
    return t;
}

/* Appends to a string being joined (literals, dotted names); -1 when out of memory. */
static int str_add(TsBuf *s, const char *b, size_t n)
{
    ts_buf_add(s, b, n);
    return s->failed ? -1 : 0;
}

/* Parses source[start, end) as an expression list with a lexer of its own, keeping this
 * parser's node list and limits (f-string fields, type comments). */
static TsTree *parse_region(Parser *p, size_t start, size_t end, TsTree *(*fn)(Parser *))
{
    TsLexer saved_lx = p->lx;
    TsToken saved_tok = p->tok, saved_ahead = p->ahead;
    int saved_has = p->has_ahead;
    ts_lexer_init_expr(&p->lx, p->source, start, end);
    p->has_ahead = 0;
    next(p);
    TsTree *t = fn(p);
    if (!p->failed && !at(p, TS_TK_EOF))
        unexpected(p, "the end of the expression");
    p->lx = saved_lx;
    p->tok = saved_tok;
    p->ahead = saved_ahead;
    p->has_ahead = saved_has;
    return t;
}

static TsTree *parse_testlist_any(Parser *p)
{
    return parse_testlist(p, 1);
}

/* Where an f-string field's expression ends: the first '}', '!' (not "!="), ':' or the '='
 * of a self-documenting {expr=} (not part of "==", "!=", "<=", ">=") outside brackets and
 * strings, or end when there is none. */
static size_t field_end(const char *s, size_t i, size_t end)
{
    int depth = 0;
    while (i < end) {
        char c = s[i];
        if (c == '\'' || c == '"') {
            size_t j = i + 1;
            while (j < end && s[j] != c)
                j++;
            i = j + 1;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0)
            depth--;
        else if (depth == 0 && (c == '}' || c == ':' || (c == '!' && !(i + 1 < end && s[i + 1] == '='))))
            return i;
        else if (depth == 0 && c == '=' && !(i + 1 < end && s[i + 1] == '=') &&
                 !strchr("=!<>", s[i - 1]))
            return i;
        i++;
    }
    return end;
}

/* The fields of one f-string token: literal text goes to tmpl (and to parts as STRING
 * nodes), each {expr} adds "{}" to tmpl and a FORMATTED node to parts. */
static void fstring_fields(Parser *p, const TsToken *k, TsBuf *tmpl, TsTree *parts, int *plain)
{
    const char *s = p->source->text;
    size_t i = k->body_start, end = k->body_end, lit = i;
    int flags = (k->str_flags & TS_STR_RAW) | TS_STR_FORMAT;
    while (!p->failed) {
        int brace_open = i < end && s[i] == '{' && !(i + 1 < end && s[i + 1] == '{');
        if (i < end && !brace_open) {
            if ((s[i] == '{' || s[i] == '}') && i + 1 < end && s[i + 1] == s[i])
                i += 2;
            else if (s[i] == '}')
                return fail(p, TS_ERR_SYNTAX, i, i + 1, "f-string: single '}' is not allowed");
            else
                i += (s[i] == '\\' && i + 1 < end) ? 2 : 1;
            continue;
        }
        if (i > lit) {
            char *d;
            size_t n;
            if (ts_lex_decode_string(p->source, lit, i, flags, &d, &n, p->err)) {
                p->failed = 1;
                return;
            }
            TsTree *piece = mk(p, TS_TREE_STRING, lit, i);
            set_str(p, piece, d, n);
            add(p, parts, piece);
            if (str_add(tmpl, d, n))
                oom(p);
            free(d);
        }
        if (i >= end)
            return;
        size_t open = i, e = field_end(s, i + 1, end);
        if (e >= end)
            return fail(p, TS_ERR_SYNTAX, open, open + 1, "f-string: expecting '}'");
        size_t x = i + 1;
        while (x < e && (s[x] == ' ' || s[x] == '\t'))
            x++;
        if (x == e)
            return fail(p, TS_ERR_SYNTAX, open, e + 1, "f-string: empty expression not allowed");
        TsTree *value = parse_region(p, i + 1, e, parse_testlist_any);
        TsTree *f = mk1(p, TS_TREE_FORMATTED, open, e, value);
        i = e;
        if (s[i] == '=') {
            /* {expr=}: Python writes the text and the value's repr() (its conversion 'r'
             * unless the field has one or a format spec), which TorchScript refuses */
            for (i++; i < end && (s[i] == ' ' || s[i] == '\t'); i++)
                ;
            if (f && i < end && s[i] != '!' && s[i] != ':')
                f->ival = 'r';
            *plain = 0;
        }
        if (s[i] == '!') {
            if (i + 2 >= end || !strchr("rsa", s[i + 1]))
                return fail(p, TS_ERR_SYNTAX, i, i + 2,
                            "f-string: invalid conversion character: expected 's', 'r', or 'a'");
            if (f)
                f->ival = s[i + 1];
            *plain = 0;
            i += 2;
        }
        if (i < end && s[i] == ':') {
            size_t spec = ++i;
            int depth = 0;
            while (i < end && (s[i] != '}' || depth > 0)) {
                depth += s[i] == '{' ? 1 : s[i] == '}' ? -1 : 0;
                i++;
            }
            TsTree *st = mk(p, TS_TREE_STRING, spec, i);
            set_str(p, st, s + spec, i - spec);
            add(p, f, st);
            *plain = 0;
        }
        if (i >= end || s[i] != '}')
            return fail(p, TS_ERR_SYNTAX, open, open + 1, "f-string: expecting '}'");
        i++;
        extend(f, i);
        add(p, parts, f);
        if (str_add(tmpl, "{}", 2))
            oom(p);
        lit = i;
    }
}

/* One or more adjacent string literals, joined. */
static TsTree *strings(Parser *p)
{
    size_t start = p->tok.start, end = p->tok.end;
    int bytes = p->tok.str_flags & TS_STR_BYTES, any_f = 0, plain = 1;
    TsBuf joined = TS_BUF_INIT;
    TsTree *parts = mk(p, TS_TREE_FSTRING, start, end);
    while (at(p, TS_TK_STRING) && !p->failed) {
        TsToken k = p->tok;
        if ((k.str_flags & TS_STR_BYTES) != bytes) {
            fail(p, TS_ERR_SYNTAX, k.start, k.end, "cannot mix bytes and nonbytes literals");
            break;
        }
        if (k.str_flags & TS_STR_FORMAT) {
            any_f = 1;
            fstring_fields(p, &k, &joined, parts, &plain);
        } else {
            char *d;
            size_t n;
            if (ts_lex_decode_string(p->source, k.body_start, k.body_end, k.str_flags, &d, &n,
                                     p->err)) {
                p->failed = 1;
                break;
            }
            TsTree *piece = mk(p, TS_TREE_STRING, k.start, k.end);
            set_str(p, piece, d, n);
            add(p, parts, piece);
            if (str_add(&joined, d, n))
                oom(p);
            free(d);
        }
        end = k.end;
        next(p);
    }
    TsTree *t = NULL;
    if (any_f && !plain) {
        extend(parts, end);
        t = parts;
    } else {
        TsTree *lit = mk(p, bytes ? TS_TREE_BYTES : TS_TREE_STRING, start, end);
        set_str(p, lit, joined.p ? joined.p : "", joined.len);
        t = lit;
        if (any_f) {
            /* "a{}b".format(x, ...), with the fields' values as the arguments */
            TsTree *fmt = mk(p, TS_TREE_NAME, start, start + 1);
            set_str(p, fmt, "format", 6);
            TsTree *attr = mk2(p, TS_TREE_ATTR, start, end, lit, fmt);
            t = mk1(p, TS_TREE_CALL, start, end, attr);
            for (size_t i = 0; parts && i < parts->n_kids; i++)
                if (parts->kids[i]->kind == TS_TREE_FORMATTED) {
                    add(p, t, parts->kids[i]->kids[0]);
                    parts->kids[i]->kids[0] = NULL;
                }
        }
        if (!p->failed)
            discard(p, parts);
    }
    free(joined.p);
    return t;
}

/* After '(' '[' or '{' (consumed): a display or comprehension up to the close bracket. */
static TsTree *paren(Parser *p, size_t start)
{
    if (at(p, ')')) {
        size_t end = p->tok.end;
        next(p);
        return mk(p, TS_TREE_TUPLE, start, end);
    }
    TsTree *first = parse_star_or_test(p);
    if (at(p, TS_TK_FOR) || at(p, TS_TK_ASYNC)) {
        TsTree *g = mk1(p, TS_TREE_GENERATOR, start, start, first);
        parse_comp_fors(p, g);
        extend(g, expect(p, ')'));
        return g;
    }
    if (!at(p, ',')) {
        expect(p, ')');
        return first;
    }
    TsTree *t = mk1(p, TS_TREE_TUPLE, start, start, first);
    while (accept(p, ',') && !at(p, ')'))
        add(p, t, parse_star_or_test(p));
    extend(t, expect(p, ')'));
    return t;
}

static TsTree *list_display(Parser *p, size_t start)
{
    TsTree *t = mk(p, TS_TREE_LIST, start, start);
    if (!at(p, ']')) {
        TsTree *first = parse_star_or_test(p);
        if (at(p, TS_TK_FOR) || at(p, TS_TK_ASYNC)) {
            t->kind = TS_TREE_LIST_COMP;
            add(p, t, first);
            parse_comp_fors(p, t);
        } else {
            add(p, t, first);
            while (accept(p, ',') && !at(p, ']'))
                add(p, t, parse_star_or_test(p));
        }
    }
    extend(t, expect(p, ']'));
    return t;
}

/* One dict entry: key ':' value, or '**' value (a NULL key). */
static void dict_entry(Parser *p, TsTree *t, TsTree *key)
{
    if (!key) {
        add(p, t, NULL);
        add(p, t, parse_binary(p, PREC_BITOR));
        return;
    }
    add(p, t, key);
    expect(p, ':');
    add(p, t, parse_test(p));
}

static TsTree *brace_display(Parser *p, size_t start)
{
    TsTree *t = mk(p, TS_TREE_DICT, start, start);
    if (at(p, '}')) {
        extend(t, expect(p, '}'));
        return t;
    }
    TsTree *first = NULL;
    int dict;
    if (accept(p, TS_TK_POW)) {
        dict = 1;
        dict_entry(p, t, NULL);
    } else {
        first = parse_star_or_test(p);
        dict = at(p, ':');
        if (dict)
            dict_entry(p, t, first);
    }
    if (t && (at(p, TS_TK_FOR) || at(p, TS_TK_ASYNC))) {
        if (dict) {
            t->kind = TS_TREE_DICT_COMP;
        } else {
            t->kind = TS_TREE_SET_COMP;
            add(p, t, first);
        }
        parse_comp_fors(p, t);
        extend(t, expect(p, '}'));
        return t;
    }
    if (t && !dict) {
        t->kind = TS_TREE_SET;
        add(p, t, first);
    }
    while (!p->failed && accept(p, ',') && !at(p, '}')) {
        if (!dict)
            add(p, t, parse_star_or_test(p));
        else if (accept(p, TS_TK_POW))
            dict_entry(p, t, NULL);
        else
            dict_entry(p, t, parse_test(p));
    }
    extend(t, expect(p, '}'));
    return t;
}

static TsTree *parse_atom(Parser *p)
{
    size_t start = p->tok.start, end = p->tok.end;
    TsTree *t = NULL;
    switch (p->tok.kind) {
    case TS_TK_NAME:
        return name(p);
    case TS_TK_INT:
    case TS_TK_FLOAT:
    case TS_TK_IMAG:
        return number(p);
    case TS_TK_STRING:
        return strings(p);
    case TS_TK_TRUE: t = mk(p, TS_TREE_TRUE, start, end); break;
    case TS_TK_FALSE: t = mk(p, TS_TREE_FALSE, start, end); break;
    case TS_TK_NONE: t = mk(p, TS_TREE_NONE, start, end); break;
    case TS_TK_ELLIPSIS: t = mk(p, TS_TREE_ELLIPSIS, start, end); break;
    case '(':
    case '[':
    case '{': {
        int k = p->tok.kind;
        if (!enter(p))
            return NULL;
        next(p);
        t = k == '(' ? paren(p, start) : k == '[' ? list_display(p, start) : brace_display(p, start);
        leave(p);
        return t;
    }
    default:
        unexpected(p, "an expression");
        return NULL;
    }
    next(p);
    return t;
}

/* A subscript item: an expression or a slice [start]:[stop][:[step]]. */
static TsTree *subscript_item(Parser *p)
{
    size_t start = p->tok.start;
    TsTree *lo = NULL;
    if (!at(p, ':'))
        lo = parse_star_or_test(p);
    if (!at(p, ':'))
        return lo;
    TsTree *s = mk(p, TS_TREE_SLICE, start, p->tok.end);
    add(p, s, lo);
    next(p);
    TsTree *hi = NULL, *step = NULL;
    if (!at(p, ':') && !at(p, ']') && !at(p, ','))
        hi = parse_test(p);
    if (accept(p, ':') && !at(p, ']') && !at(p, ','))
        step = parse_test(p);
    add(p, s, hi);
    add(p, s, step);
    extend(s, step ? step->range.end : hi ? hi->range.end : s ? s->range.end : 0);
    return s;
}

static void call_args(Parser *p, TsTree *call, int close)
{
    while (!p->failed && !at(p, close)) {
        size_t start = p->tok.start;
        if (accept(p, '*')) {
            TsTree *v = parse_test(p);
            add(p, call, mk1(p, TS_TREE_STARRED, start, v ? v->range.end : start, v));
        } else if (accept(p, TS_TK_POW)) {
            TsTree *v = parse_test(p);
            add(p, call, mk1(p, TS_TREE_KWARG, start, v ? v->range.end : start, v));
        } else if (at(p, TS_TK_NAME) && peek(p)->kind == '=') {
            TsTree *kw = mk(p, TS_TREE_KWARG, start, p->tok.end);
            set_str(p, kw, p->source->text + start, p->tok.end - start);
            next(p);
            next(p);
            TsTree *v = parse_test(p);
            add(p, kw, v);
            extend(kw, v ? v->range.end : 0);
            add(p, call, kw);
        } else {
            TsTree *v = parse_test(p);
            if (at(p, TS_TK_FOR) || at(p, TS_TK_ASYNC)) {
                TsTree *g = mk1(p, TS_TREE_GENERATOR, v ? v->range.start : start,
                                v ? v->range.end : start, v);
                parse_comp_fors(p, g);
                v = g;
            }
            add(p, call, v);
        }
        if (!accept(p, ','))
            break;
    }
}

/* atom followed by calls, subscripts and attributes. */
static TsTree *parse_primary(Parser *p)
{
    size_t start = p->tok.start;
    if (at(p, TS_TK_AWAIT)) {
        if (!enter(p))
            return NULL;
        next(p);
        TsTree *v = parse_primary(p);
        leave(p);
        return mk1(p, TS_TREE_AWAIT, start, v ? v->range.end : start, v);
    }
    TsTree *t = parse_atom(p);
    while (!p->failed) {
        if (at(p, '(')) {
            if (!enter(p))
                return NULL;
            next(p);
            TsTree *c = mk1(p, TS_TREE_CALL, start, start, t);
            call_args(p, c, ')');
            extend(c, expect(p, ')'));
            leave(p);
            t = c;
        } else if (at(p, '[')) {
            if (!enter(p))
                return NULL;
            next(p);
            TsTree *s = mk1(p, TS_TREE_SUBSCRIPT, start, start, t);
            if (at(p, ']')) {
                unexpected(p, "a subscript");
                leave(p);
                return NULL;
            }
            TsTree *first = subscript_item(p);
            if (at(p, ',') || !first || first->kind != TS_TREE_TUPLE || first->n_kids == 0) {
                add(p, s, first);
            } else {
                /* x[(a, b)] indexes like x[a, b] */
                for (size_t i = 0; i < first->n_kids; i++)
                    add(p, s, first->kids[i]);
                first->n_kids = 0;
                if (!p->failed)
                    discard(p, first);
            }
            while (!p->failed && accept(p, ',') && !at(p, ']'))
                add(p, s, subscript_item(p));
            extend(s, expect(p, ']'));
            leave(p);
            t = s;
        } else if (at(p, '.')) {
            next(p);
            TsTree *attr = name(p);
            t = mk2(p, TS_TREE_ATTR, start, attr ? attr->range.end : start, t, attr);
        } else {
            break;
        }
    }
    return t;
}

/* primary ['**' factor]: ** binds tighter than unary minus on its left only. */
static TsTree *parse_power(Parser *p)
{
    TsTree *base = parse_primary(p);
    if (!at(p, TS_TK_POW) || p->failed)
        return base;
    next(p);
    if (!enter(p))
        return NULL;
    TsTree *exp = parse_binary(p, PREC_UNARY);
    leave(p);
    return binary(p, TS_TK_POW, base, exp);
}

static TsTree *parse_binary(Parser *p, int min_prec)
{
    size_t start = p->tok.start;
    TsTree *lhs;
    int k = p->tok.kind;
    if (k == TS_TK_NOT && min_prec <= PREC_NOT) {
        if (!enter(p))
            return NULL;
        next(p);
        TsTree *v = parse_binary(p, PREC_NOT);
        leave(p);
        lhs = mk1(p, TS_TREE_UNARY, start, v ? v->range.end : start, v);
        if (lhs)
            lhs->op = TS_TK_NOT;
    } else if (k == '-' || k == '+' || k == '~') {
        if (!enter(p))
            return NULL;
        next(p);
        TsTree *v = parse_binary(p, PREC_UNARY);
        leave(p);
        lhs = mk1(p, TS_TREE_UNARY, start, v ? v->range.end : start, v);
        if (lhs)
            lhs->op = k == '-' ? TS_TK_NEG : k == '+' ? TS_TK_POS : '~';
    } else {
        lhs = parse_power(p);
    }
    for (;;) {
        if (p->failed)
            return NULL;
        int op, prec = binary_prec(p, &op);
        if (prec == 0 || prec < min_prec)
            return lhs;
        if (prec == PREC_CMP) {
            /* a < b < c: (a < b) and (b < c), b copied, as PyTorch's frontend does */
            TsTree *result = NULL, *left = lhs;
            while (!p->failed && binary_prec(p, &op) == PREC_CMP) {
                skip_op(p, op);
                TsTree *right = parse_binary(p, PREC_CMP + 1);
                TsTree *cmp = comparison(p, op, result ? copy(p, left) : left, right);
                result = result ? binary(p, TS_TK_AND, result, cmp) : cmp;
                left = right;
            }
            lhs = result;
            continue;
        }
        next(p);
        TsTree *rhs = parse_binary(p, prec + 1);
        lhs = binary(p, op, lhs, rhs);
    }
}

static TsTree *parse_lambda(Parser *p)
{
    size_t start = p->tok.start;
    next(p);
    TsTree *params = parse_params(p, ':', 0);
    expect(p, ':');
    TsTree *body = parse_test(p);
    return mk2(p, TS_TREE_LAMBDA, start, body ? body->range.end : start, params, body);
}

static TsTree *parse_yield(Parser *p)
{
    size_t start = p->tok.start, end = p->tok.end;
    next(p);
    TsTree *y = mk(p, TS_TREE_YIELD, start, end);
    if (accept(p, TS_TK_FROM)) {
        if (y)
            y->flag = 1;
        add(p, y, parse_test(p));
    } else if (!at(p, TS_TK_NEWLINE) && !at(p, ')') && !at(p, ';') && !at(p, '=') &&
               !at(p, TS_TK_EOF)) {
        add(p, y, parse_testlist(p, 1));
    }
    if (y && y->n_kids && y->kids[0])
        extend(y, y->kids[0]->range.end);
    return y;
}

/* test: or_test ['if' or_test 'else' test] | lambda, and the walrus NAME := test. */
static TsTree *parse_test(Parser *p)
{
    if (!enter(p))
        return NULL;
    TsTree *t;
    if (at(p, TS_TK_LAMBDA)) {
        t = parse_lambda(p);
    } else if (at(p, TS_TK_YIELD)) {
        t = parse_yield(p);
    } else {
        t = parse_binary(p, PREC_OR);
        if (t && at(p, TS_TK_IF)) {
            next(p);
            TsTree *cond = parse_binary(p, PREC_OR);
            expect(p, TS_TK_ELSE);
            TsTree *other = parse_test(p);
            TsTree *e = mk(p, TS_TREE_IF_EXPR, t->range.start, other ? other->range.end : 0);
            add(p, e, cond);
            add(p, e, t);
            add(p, e, other);
            t = e;
        } else if (t && at(p, TS_TK_WALRUS) && t->kind == TS_TREE_NAME) {
            next(p);
            TsTree *v = parse_test(p);
            t = mk2(p, TS_TREE_NAMED_EXPR, t->range.start, v ? v->range.end : 0, t, v);
        }
    }
    leave(p);
    return p->failed ? NULL : t;
}

static TsTree *parse_star_or_test(Parser *p)
{
    if (!at(p, '*'))
        return parse_test(p);
    size_t start = p->tok.start;
    next(p);
    TsTree *v = parse_binary(p, PREC_BITOR);
    return mk1(p, TS_TREE_STARRED, start, v ? v->range.end : start, v);
}

static int ends_list(const Parser *p)
{
    switch (p->tok.kind) {
    case TS_TK_NEWLINE: case TS_TK_EOF: case ')': case ']': case '}': case '=': case ':':
    case ';': case TS_TK_IN:
        return 1;
    default:
        return p->tok.kind >= TS_TK_PLUS_EQ && p->tok.kind <= TS_TK_CARET_EQ;
    }
}

/* test (',' test)* [','], a TUPLE when there is a comma; starred items when allowed. */
static TsTree *parse_testlist(Parser *p, int allow_star)
{
    TsTree *first = allow_star ? parse_star_or_test(p) : parse_test(p);
    if (!at(p, ',') || p->failed)
        return first;
    TsTree *t = mk1(p, TS_TREE_TUPLE, first->range.start, first->range.end, first);
    while (accept(p, ',') && !ends_list(p)) {
        TsTree *e = allow_star ? parse_star_or_test(p) : parse_test(p);
        add(p, t, e);
        extend(t, e ? e->range.end : 0);
    }
    return t;
}

/* Targets of for and comprehensions: expr (',' expr)* [','], stopping before "in". */
static TsTree *parse_exprlist(Parser *p)
{
    TsTree *first = at(p, '*') ? parse_star_or_test(p) : parse_binary(p, PREC_BITOR);
    if (!at(p, ',') || p->failed)
        return first;
    TsTree *t = mk1(p, TS_TREE_TUPLE, first->range.start, first->range.end, first);
    while (accept(p, ',') && !ends_list(p)) {
        TsTree *e = at(p, '*') ? parse_star_or_test(p) : parse_binary(p, PREC_BITOR);
        add(p, t, e);
        extend(t, e ? e->range.end : 0);
    }
    return t;
}

static void parse_comp_fors(Parser *p, TsTree *comp)
{
    while (!p->failed && (at(p, TS_TK_FOR) || at(p, TS_TK_ASYNC))) {
        size_t start = p->tok.start;
        accept(p, TS_TK_ASYNC);
        expect(p, TS_TK_FOR);
        TsTree *f = mk(p, TS_TREE_COMP_FOR, start, start);
        add(p, f, parse_exprlist(p));
        expect(p, TS_TK_IN);
        TsTree *iter = parse_binary(p, PREC_OR);
        add(p, f, iter);
        extend(f, iter ? iter->range.end : 0);
        while (!p->failed && at(p, TS_TK_IF)) {
            next(p);
            TsTree *cond = parse_binary(p, PREC_OR);
            add(p, f, cond);
            extend(f, cond ? cond->range.end : 0);
        }
        add(p, comp, f);
    }
}

/* ---- targets ------------------------------------------------------------------------ */

static const char *target_problem(const TsTree *t)
{
    switch (t->kind) {
    case TS_TREE_NAME: case TS_TREE_ATTR: case TS_TREE_SUBSCRIPT:
        return NULL;
    case TS_TREE_TUPLE: case TS_TREE_LIST:
        for (size_t i = 0; i < t->n_kids; i++) {
            const char *why = target_problem(t->kids[i]);
            if (why)
                return why;
        }
        return NULL;
    case TS_TREE_STARRED:
        return target_problem(t->kids[0]);
    case TS_TREE_CALL: return "function call";
    case TS_TREE_INT: case TS_TREE_FLOAT: case TS_TREE_IMAG: case TS_TREE_STRING:
    case TS_TREE_BYTES: case TS_TREE_TRUE: case TS_TREE_FALSE: case TS_TREE_NONE:
    case TS_TREE_ELLIPSIS: case TS_TREE_FSTRING:
        return "literal";
    default:
        return "expression";
    }
}

static const TsTree *bad_target(const TsTree *t)
{
    if (t->kind == TS_TREE_TUPLE || t->kind == TS_TREE_LIST) {
        for (size_t i = 0; i < t->n_kids; i++) {
            const TsTree *b = bad_target(t->kids[i]);
            if (b)
                return b;
        }
        return NULL;
    }
    if (t->kind == TS_TREE_STARRED)
        return bad_target(t->kids[0]);
    return target_problem(t) ? t : NULL;
}

static void check_target(Parser *p, const TsTree *t, const char *context)
{
    if (!t || p->failed)
        return;
    const TsTree *b = bad_target(t);
    if (b)
        fail(p, TS_ERR_SYNTAX, b->range.start, b->range.end, "cannot %s %s", context,
             target_problem(b));
}

/* ---- statements ------------------------------------------------------------------- */

static void parse_statement(Parser *p, TsTree *block);
static TsTree *parse_suite(Parser *p);

static int aug_op(int kind)
{
    switch (kind) {
    case TS_TK_PLUS_EQ: return '+';
    case TS_TK_MINUS_EQ: return '-';
    case TS_TK_STAR_EQ: return '*';
    case TS_TK_SLASH_EQ: return '/';
    case TS_TK_FLOORDIV_EQ: return TS_TK_FLOORDIV;
    case TS_TK_PERCENT_EQ: return '%';
    case TS_TK_POW_EQ: return TS_TK_POW;
    case TS_TK_AT_EQ: return '@';
    case TS_TK_LSHIFT_EQ: return TS_TK_LSHIFT;
    case TS_TK_RSHIFT_EQ: return TS_TK_RSHIFT;
    case TS_TK_AMP_EQ: return '&';
    case TS_TK_PIPE_EQ: return '|';
    case TS_TK_CARET_EQ: return '^';
    default: return 0;
    }
}

static TsTree *rhs_value(Parser *p)
{
    return at(p, TS_TK_YIELD) ? parse_test(p) : parse_testlist(p, 1);
}

static TsTree *parse_expr_statement(Parser *p)
{
    size_t start = p->tok.start;
    TsTree *first = parse_testlist(p, 1);
    if (p->failed)
        return NULL;
    if (at(p, ':')) {
        check_target(p, first, "annotate");
        if (first->kind == TS_TREE_TUPLE || first->kind == TS_TREE_LIST)
            fail(p, TS_ERR_SYNTAX, first->range.start, first->range.end,
                 "only single target (not tuple) can be annotated");
        next(p);
        TsTree *t = mk1(p, TS_TREE_ANN_ASSIGN, start, start, first);
        TsTree *ann = parse_test(p);
        add(p, t, ann);
        extend(t, ann ? ann->range.end : 0);
        TsTree *v = NULL;
        if (accept(p, '=')) {
            v = rhs_value(p);
            extend(t, v ? v->range.end : 0);
        }
        add(p, t, v);
        return t;
    }
    int op = aug_op(p->tok.kind);
    if (op) {
        if (first->kind != TS_TREE_NAME && first->kind != TS_TREE_ATTR &&
            first->kind != TS_TREE_SUBSCRIPT)
            fail(p, TS_ERR_SYNTAX, first->range.start, first->range.end,
                 "'%s' is an illegal expression for augmented assignment",
                 ts_tree_kind_name(first->kind));
        next(p);
        TsTree *v = rhs_value(p);
        TsTree *t = mk2(p, TS_TREE_AUG_ASSIGN, start, v ? v->range.end : start, first, v);
        if (t)
            t->op = op;
        return t;
    }
    if (!at(p, '='))
        return mk1(p, TS_TREE_EXPR_STMT, start, first->range.end, first);
    TsTree *t = mk(p, TS_TREE_ASSIGN, start, start);
    TsTree *last = first;
    while (accept(p, '=')) {
        check_target(p, last, "assign to");
        add(p, t, last);
        last = rhs_value(p);
    }
    add(p, t, last);
    extend(t, last ? last->range.end : 0);
    return t;
}

/* A dotted name as text (a.b.c); its range end in *end. */
static int dotted_name(Parser *p, TsBuf *out, size_t *end)
{
    for (;;) {
        if (!at(p, TS_TK_NAME)) {
            unexpected(p, "a module name");
            return -1;
        }
        if (str_add(out, p->source->text + p->tok.start, p->tok.end - p->tok.start)) {
            oom(p);
            return -1;
        }
        *end = p->tok.end;
        next(p);
        if (!at(p, '.'))
            return 0;
        next(p);
        if (str_add(out, ".", 1)) {
            oom(p);
            return -1;
        }
    }
}

/* name ['as' NAME] as an ALIAS node; dotted names allowed when dotted. */
static TsTree *alias(Parser *p, int dotted)
{
    size_t start = p->tok.start, end = p->tok.end;
    TsBuf s = TS_BUF_INIT;
    if (dotted) {
        if (dotted_name(p, &s, &end)) {
            free(s.p);
            return NULL;
        }
    } else {
        if (!at(p, TS_TK_NAME)) {
            unexpected(p, "a name to import");
            return NULL;
        }
        if (str_add(&s, p->source->text + start, end - start))
            oom(p);
        next(p);
    }
    TsTree *a = mk(p, TS_TREE_ALIAS, start, end);
    set_str(p, a, s.p ? s.p : "", s.len);
    free(s.p);
    if (accept(p, TS_TK_AS)) {
        TsTree *as = name(p);
        add(p, a, as);
        extend(a, as ? as->range.end : 0);
    }
    return a;
}

static TsTree *parse_import(Parser *p)
{
    size_t start = p->tok.start;
    next(p);
    TsTree *t = mk(p, TS_TREE_IMPORT, start, start);
    do {
        TsTree *a = alias(p, 1);
        add(p, t, a);
        extend(t, a ? a->range.end : 0);
    } while (!p->failed && accept(p, ','));
    return t;
}

static TsTree *parse_from(Parser *p)
{
    size_t start = p->tok.start;
    next(p);
    int64_t dots = 0;
    for (;;) {
        if (accept(p, '.'))
            dots++;
        else if (accept(p, TS_TK_ELLIPSIS))
            dots += 3;
        else
            break;
    }
    TsBuf mod = TS_BUF_INIT;
    size_t end = start;
    if (!at(p, TS_TK_IMPORT) || dots == 0)
        dotted_name(p, &mod, &end);
    TsTree *t = mk(p, TS_TREE_IMPORT_FROM, start, start);
    set_str(p, t, mod.p ? mod.p : "", mod.len);
    free(mod.p);
    if (t)
        t->ival = dots;
    expect(p, TS_TK_IMPORT);
    if (at(p, '*')) {
        TsTree *a = mk(p, TS_TREE_ALIAS, p->tok.start, p->tok.end);
        set_str(p, a, "*", 1);
        add(p, t, a);
        extend(t, p->tok.end);
        next(p);
        return t;
    }
    int paren_ = accept(p, '(');
    do {
        if (paren_ && at(p, ')'))
            break;
        TsTree *a = alias(p, 0);
        add(p, t, a);
        extend(t, a ? a->range.end : 0);
    } while (!p->failed && accept(p, ','));
    if (paren_)
        extend(t, expect(p, ')'));
    return t;
}

static TsTree *parse_names(Parser *p, TsTreeKind kind)
{
    size_t start = p->tok.start;
    next(p);
    TsTree *t = mk(p, kind, start, start);
    do {
        TsTree *n = name(p);
        add(p, t, n);
        extend(t, n ? n->range.end : 0);
    } while (!p->failed && accept(p, ','));
    return t;
}

static int ends_simple(const Parser *p)
{
    return at(p, TS_TK_NEWLINE) || at(p, ';') || at(p, TS_TK_EOF);
}

static TsTree *parse_small_statement(Parser *p)
{
    size_t start = p->tok.start, end = p->tok.end;
    TsTree *t;
    switch (p->tok.kind) {
    case TS_TK_PASS: t = mk(p, TS_TREE_PASS, start, end); next(p); return t;
    case TS_TK_BREAK: t = mk(p, TS_TREE_BREAK, start, end); next(p); return t;
    case TS_TK_CONTINUE: t = mk(p, TS_TREE_CONTINUE, start, end); next(p); return t;
    case TS_TK_RETURN:
        next(p);
        t = mk(p, TS_TREE_RETURN, start, end);
        if (!ends_simple(p)) {
            TsTree *v = parse_testlist(p, 1);
            add(p, t, v);
            extend(t, v ? v->range.end : 0);
        }
        return t;
    case TS_TK_RAISE: {
        next(p);
        t = mk(p, TS_TREE_RAISE, start, end);
        TsTree *exc = NULL, *cause = NULL;
        if (!ends_simple(p)) {
            exc = parse_test(p);
            extend(t, exc ? exc->range.end : 0);
            if (accept(p, TS_TK_FROM)) {
                cause = parse_test(p);
                extend(t, cause ? cause->range.end : 0);
            }
        }
        add(p, t, exc);
        add(p, t, cause);
        return t;
    }
    case TS_TK_ASSERT: {
        next(p);
        TsTree *test = parse_test(p);
        t = mk1(p, TS_TREE_ASSERT, start, test ? test->range.end : end, test);
        TsTree *msg = NULL;
        if (accept(p, ',')) {
            msg = parse_test(p);
            extend(t, msg ? msg->range.end : 0);
        }
        add(p, t, msg);
        return t;
    }
    case TS_TK_DEL: {
        next(p);
        t = mk(p, TS_TREE_DELETE, start, end);
        do {
            TsTree *target = parse_binary(p, PREC_BITOR);
            check_target(p, target, "delete");
            add(p, t, target);
            extend(t, target ? target->range.end : 0);
        } while (!p->failed && accept(p, ',') && !ends_simple(p));
        return t;
    }
    case TS_TK_GLOBAL: return parse_names(p, TS_TREE_GLOBAL);
    case TS_TK_NONLOCAL: return parse_names(p, TS_TREE_NONLOCAL);
    case TS_TK_IMPORT: return parse_import(p);
    case TS_TK_FROM: return parse_from(p);
    default: return parse_expr_statement(p);
    }
}

/* small_stmt (';' small_stmt)* [';'] NEWLINE, appended to block. */
static void parse_simple_statements(Parser *p, TsTree *block)
{
    do {
        if (ends_simple(p))
            break;
        TsTree *t = parse_small_statement(p);
        add(p, block, t);
        extend(block, t ? t->range.end : 0);
    } while (!p->failed && accept(p, ';'));
    if (!p->failed && !accept(p, TS_TK_NEWLINE) && !at(p, TS_TK_EOF))
        unexpected(p, "a newline or ';'");
}

/* ':' then a block; else-less parts return the block. */
static TsTree *colon_suite(Parser *p)
{
    expect(p, ':');
    return parse_suite(p);
}

static TsTree *parse_if(Parser *p)
{
    size_t start = p->tok.start;
    next(p);
    TsTree *cond = parse_test(p);
    TsTree *body = colon_suite(p);
    TsTree *t = mk2(p, TS_TREE_IF, start, body ? body->range.end : start, cond, body);
    TsTree *orelse = NULL;
    if (at(p, TS_TK_ELIF)) {
        size_t es = p->tok.start;
        if (!enter(p))
            return NULL;
        TsTree *elif = parse_if(p);   /* "elif" reads like "if" from here */
        leave(p);
        orelse = mk1(p, TS_TREE_BLOCK, es, elif ? elif->range.end : es, elif);
    } else if (accept(p, TS_TK_ELSE)) {
        orelse = colon_suite(p);
    }
    add(p, t, orelse);
    extend(t, orelse ? orelse->range.end : 0);
    return t;
}

static TsTree *else_part(Parser *p, TsTree *t)
{
    TsTree *orelse = NULL;
    if (accept(p, TS_TK_ELSE))
        orelse = colon_suite(p);
    add(p, t, orelse);
    extend(t, orelse ? orelse->range.end : 0);
    return t;
}

static TsTree *parse_while(Parser *p)
{
    size_t start = p->tok.start;
    next(p);
    TsTree *cond = parse_test(p);
    TsTree *body = colon_suite(p);
    return else_part(p, mk2(p, TS_TREE_WHILE, start, body ? body->range.end : start, cond, body));
}

static TsTree *parse_for(Parser *p, size_t start, int async)
{
    expect(p, TS_TK_FOR);
    TsTree *target = parse_exprlist(p);
    check_target(p, target, "assign to");
    expect(p, TS_TK_IN);
    TsTree *iter = parse_testlist(p, 1);
    TsTree *body = colon_suite(p);
    TsTree *t = mk2(p, TS_TREE_FOR, start, body ? body->range.end : start, target, iter);
    add(p, t, body);
    if (t)
        t->flag = async;
    return else_part(p, t);
}

static TsTree *parse_with(Parser *p, size_t start, int async)
{
    expect(p, TS_TK_WITH);
    TsTree *t = mk(p, TS_TREE_WITH, start, start);
    do {
        TsTree *ctx = parse_test(p);
        TsTree *item = mk1(p, TS_TREE_WITH_ITEM, ctx ? ctx->range.start : start,
                           ctx ? ctx->range.end : start, ctx);
        TsTree *target = NULL;
        if (accept(p, TS_TK_AS)) {
            target = parse_binary(p, PREC_BITOR);
            check_target(p, target, "assign to");
            extend(item, target ? target->range.end : 0);
        }
        add(p, item, target);
        add(p, t, item);
    } while (!p->failed && accept(p, ','));
    TsTree *body = colon_suite(p);
    add(p, t, body);
    extend(t, body ? body->range.end : 0);
    if (t)
        t->flag = async;
    return t;
}

static TsTree *parse_try(Parser *p)
{
    size_t start = p->tok.start;
    next(p);
    TsTree *t = mk1(p, TS_TREE_TRY, start, start, colon_suite(p));
    int64_t handlers = 0;
    while (!p->failed && at(p, TS_TK_EXCEPT)) {
        size_t es = p->tok.start;
        next(p);
        int star = accept(p, '*');   /* except*, an exception group's handler */
        TsTree *type = NULL, *as = NULL;
        if (!at(p, ':')) {
            type = parse_test(p);
            if (accept(p, TS_TK_AS))
                as = name(p);
        }
        TsTree *body = colon_suite(p);
        TsTree *h = mk2(p, TS_TREE_EXCEPT, es, body ? body->range.end : es, type, as);
        if (h)
            h->flag = star;
        add(p, h, body);
        add(p, t, h);
        handlers++;
    }
    TsTree *orelse = NULL, *final = NULL;
    if (handlers && accept(p, TS_TK_ELSE))
        orelse = colon_suite(p);
    if (accept(p, TS_TK_FINALLY))
        final = colon_suite(p);
    else if (!handlers && !p->failed)
        unexpected(p, "'except' or 'finally'");
    add(p, t, orelse);
    add(p, t, final);
    if (t && !p->failed) {
        t->ival = handlers;
        TsTree *last = final ? final : orelse ? orelse : t->kids[t->n_kids - 3];
        extend(t, last ? last->range.end : 0);
    }
    return t;
}

/* Whether the statement at the current token, NAME "match", is a match statement: `match`
 * is a soft keyword, so the logical line must end with ':' (outside brackets, strings and
 * comments), which no simple statement does. */
static int at_match(const Parser *p)
{
    const char *s = p->source->text;
    size_t n = p->source->len, i = p->tok.end;
    if (!at(p, TS_TK_NAME) || p->tok.end - p->tok.start != 5 ||
        memcmp(s + p->tok.start, "match", 5) != 0)
        return 0;
    int depth = 0;
    char last = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '\'' || c == '"') {
            while (++i < n && s[i] != c && s[i] != '\n')
                i += s[i] == '\\';
            last = c;
        } else if (c == '#') {
            while (i < n && s[i] != '\n')
                i++;
            if (depth == 0)
                break;
        } else if (c == '\\' && i + 1 < n && s[i + 1] == '\n') {
            i++;
        } else if (c == '\n' && depth == 0) {
            break;
        } else if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            depth += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
            last = c;
        }
    }
    return last == ':';
}

/* match subject: NEWLINE INDENT (case pattern [if guard]: block)... DEDENT. The patterns
 * and guards are skipped token by token (TorchScript refuses the statement, which the
 * parse only has to get past); the bodies are parsed as blocks. */
static TsTree *parse_match(Parser *p)
{
    size_t start = p->tok.start;
    next(p);
    TsTree *t = mk1(p, TS_TREE_MATCH, start, start, parse_testlist_any(p));
    expect(p, ':');
    expect(p, TS_TK_NEWLINE);
    expect(p, TS_TK_INDENT);
    while (!p->failed && at(p, TS_TK_NAME) && p->tok.end - p->tok.start == 4 &&
           memcmp(p->source->text + p->tok.start, "case", 4) == 0) {
        int depth = 0;
        next(p);
        while (!p->failed && !at(p, TS_TK_EOF) && !at(p, TS_TK_NEWLINE) &&
               (depth > 0 || !at(p, ':'))) {
            depth += (at(p, '(') || at(p, '[') || at(p, '{')) -
                     (at(p, ')') || at(p, ']') || at(p, '}'));
            next(p);
        }
        TsTree *body = colon_suite(p);
        add(p, t, body);
        extend(t, body ? body->range.end : 0);
    }
    if (!p->failed && !at(p, TS_TK_DEDENT))
        unexpected(p, "'case'");
    expect(p, TS_TK_DEDENT);
    return p->failed ? NULL : t;
}

/* One parameter: [*|**]NAME [':' test] ['=' test], or a bare '*' or '/'. */
static TsTree *parse_param(Parser *p, int annotations, int *kind_state)
{
    size_t start = p->tok.start;
    int kind = *kind_state;
    if (accept(p, '/')) {
        TsTree *t = mk(p, TS_TREE_PARAM, start, start + 1);
        if (t)
            t->ival = TS_PARAM_POSONLY;
        return t;
    }
    if (accept(p, '*')) {
        *kind_state = TS_PARAM_KWONLY;
        if (at(p, ',') || at(p, ')') || at(p, ':')) {
            TsTree *t = mk(p, TS_TREE_PARAM, start, start + 1);
            add(p, t, NULL);
            add(p, t, NULL);
            add(p, t, NULL);
            if (t)
                t->ival = TS_PARAM_VARARGS;   /* a bare '*': no name */
            return t;
        }
        kind = TS_PARAM_VARARGS;
    } else if (accept(p, TS_TK_POW)) {
        kind = TS_PARAM_KWARGS;
    }
    TsTree *n = name(p);
    TsTree *t = mk1(p, TS_TREE_PARAM, start, n ? n->range.end : start, n);
    TsTree *ann = NULL, *def = NULL;
    if (annotations && accept(p, ':')) {
        ann = parse_test(p);
        extend(t, ann ? ann->range.end : 0);
    }
    if (accept(p, '=')) {
        def = parse_test(p);
        extend(t, def ? def->range.end : 0);
    }
    add(p, t, ann);
    add(p, t, def);
    if (t)
        t->ival = kind;
    return t;
}

/* Parameters up to (not including) close: ')' for def, ':' for lambda. A '/' turns the
 * parameters before it into positional-only ones. */
static TsTree *parse_params(Parser *p, int close, int annotations)
{
    TsTree *t = mk(p, TS_TREE_PARAMS, p->tok.start, p->tok.start);
    int kind_state = TS_PARAM_NORMAL;
    while (!p->failed && !at(p, close)) {
        TsTree *param = parse_param(p, annotations, &kind_state);
        if (param && param->ival == TS_PARAM_POSONLY && !param->n_kids) {
            /* the '/' marker itself is not a parameter */
            for (size_t i = 0; t && i < t->n_kids; i++)
                t->kids[i]->ival = TS_PARAM_POSONLY;
            extend(t, param->range.end);
            discard(p, param);
            param = NULL;
        } else {
            add(p, t, param);
        }
        extend(t, param ? param->range.end : 0);
        if (!accept(p, ','))
            break;
    }
    return t;
}

static TsTree *parse_type_comment_body(Parser *p)
{
    size_t start = p->tok.start;
    expect(p, '(');
    TsTree *args = mk(p, TS_TREE_TUPLE, start, start);
    while (!p->failed && !at(p, ')')) {
        add(p, args, parse_test(p));
        if (!accept(p, ','))
            break;
    }
    extend(args, expect(p, ')'));
    expect(p, TS_TK_ARROW);
    TsTree *ret = parse_test(p);
    return mk2(p, TS_TREE_TYPE_COMMENT, start, ret ? ret->range.end : start, args, ret);
}

/* The signature type comment "(int, str) -> bool" as a TYPE_COMMENT node; NULL for
 * "# type: ignore". */
static TsTree *parse_signature_comment(Parser *p, const TsToken *c)
{
    size_t n = c->body_end - c->body_start;
    const char *text = p->source->text + c->body_start;
    if (n >= 6 && memcmp(text, "ignore", 6) == 0)
        return NULL;
    TsTree *t = parse_region(p, c->body_start, c->body_end, parse_type_comment_body);
    set_str(p, t, text, n);
    return t;
}

/* Whether type comment c is "# type: ignore" or "# type: ignore[code]", which PyTorch skips
 * when it looks for a function's signature comment. */
static bool ignore_comment(const Parser *p, const TsToken *c)
{
    const char *text = p->source->text + c->body_start;
    size_t n = c->body_end - c->body_start;
    return n >= 6 && memcmp(text, "ignore", 6) == 0 && (n == 6 || text[6] == '[');
}

/* PyTorch takes a function's one "# type:" comment, wherever it is, for its signature and
 * parses the whole line it is on: after code (a variable's `x = []  # type: List[int]`)
 * the line's first token is not the comment, "expected type comment but found 'ident'
 * here". Several are a multi-line signature, which needs a "(...) -> " line. Either error
 * is raised only if the function is compiled (ts_parse_check_code_def), so here it becomes
 * a TYPE_COMMENT node with flag 1 whose str is the message, at the offending line. */
static TsTree *misplaced_type_comment(Parser *p, size_t from)
{
    const TsToken *one = NULL;
    size_t n = 0;
    bool ret_line = false;
    for (size_t i = from; i < p->n_comments; i++) {
        const TsToken *c = &p->comments[i];
        if (ignore_comment(p, c))
            continue;
        n++;
        one = c;
        ret_line = ret_line || (c->body_end - c->body_start >= 9 &&
                                memcmp(p->source->text + c->body_start, "(...) -> ", 9) == 0);
    }
    const char *t = p->source->text;
    char msg[128];
    size_t ls, le;
    if (n == 1) {
        ls = one->start;
        while (ls > 0 && t[ls - 1] != '\n' && t[ls - 1] != '\r')
            ls--;
        while (t[ls] == ' ' || t[ls] == '\t')
            ls++;
        if (ls == one->start)
            return NULL;       /* a comment line: the signature comment */
        le = ls;
        while (le < one->start && (isalnum((unsigned char)t[le]) || t[le] == '_'))
            le++;
        static const char *const keywords[] = { "def", "return", "if", "for", "while",
            "assert", "del", "pass", "break", "continue", "raise", "with", "not", "None",
            "True", "False", "lambda", "global", "yield", "await" };
        const char *kind = le > ls ? "ident" : NULL;
        for (size_t k = 0; kind && k < sizeof keywords / sizeof *keywords; k++)
            if (strlen(keywords[k]) == le - ls && memcmp(keywords[k], t + ls, le - ls) == 0)
                kind = keywords[k];
        if (!kind)
            le = ls + 1;
        snprintf(msg, sizeof msg, "expected type comment but found '%.*s' here",
                 kind ? (int)strlen(kind) : 1, kind ? kind : t + ls);
    } else if (n > 1 && !ret_line) {
        ls = one->start;
        le = one->end;
        snprintf(msg, sizeof msg, "Return type line '# type: (...) -> ...' not found on "
                 "multiline type annotation");
    } else {
        return NULL;
    }
    TsTree *bad = mk(p, TS_TREE_TYPE_COMMENT, ls, le);
    set_str(p, bad, msg, strlen(msg));
    if (bad)
        bad->flag = 1;
    return bad;
}

static TsTree *parse_def(Parser *p, size_t start, int async, TsTree *decorators)
{
    expect(p, TS_TK_DEF);
    TsTree *n = name(p);
    expect(p, '(');
    if (!enter(p))
        return NULL;
    TsTree *params = parse_params(p, ')', 1);
    leave(p);
    expect(p, ')');
    TsTree *ret = NULL;
    if (accept(p, TS_TK_ARROW))
        ret = parse_test(p);
    size_t before = p->n_comments;
    if (!at(p, ':') && !p->failed) {
        unexpected(p, "':'");
        return NULL;
    }
    TsTree *body = colon_suite(p);
    /* The signature comment sits between the ':' and the body's first statement. */
    TsTree *sig = NULL;
    size_t first_stmt = body && body->n_kids && body->kids[0] ? body->kids[0]->range.start
                                                                : (size_t)-1;
    if (!p->failed)
        sig = misplaced_type_comment(p, before);
    for (size_t i = before; i < p->n_comments && !p->failed && !sig; i++) {
        const TsToken *c = &p->comments[i];
        if (c->start < first_stmt)
            sig = parse_signature_comment(p, c);
    }
    TsTree *t = mk2(p, TS_TREE_DEF, start, body ? body->range.end : start, n, decorators);
    add(p, t, params);
    add(p, t, ret);
    add(p, t, body);
    add(p, t, sig);
    if (t)
        t->flag = async;
    return t;
}

static TsTree *parse_class(Parser *p, size_t start, TsTree *decorators)
{
    expect(p, TS_TK_CLASS);
    TsTree *n = name(p);
    TsTree *bases = mk(p, TS_TREE_BASES, p->tok.start, p->tok.start);
    if (at(p, '(')) {
        if (!enter(p))
            return NULL;
        next(p);
        call_args(p, bases, ')');
        extend(bases, expect(p, ')'));
        leave(p);
    }
    TsTree *body = colon_suite(p);
    TsTree *t = mk2(p, TS_TREE_CLASS, start, body ? body->range.end : start, n, decorators);
    add(p, t, bases);
    add(p, t, body);
    return t;
}

static TsTree *parse_decorated(Parser *p)
{
    TsTree *decs = mk(p, TS_TREE_DECORATORS, p->tok.start, p->tok.start);
    while (!p->failed && accept(p, '@')) {
        TsTree *d = parse_test(p);
        add(p, decs, d);
        extend(decs, d ? d->range.end : 0);
        expect(p, TS_TK_NEWLINE);
    }
    size_t start = p->tok.start;
    if (at(p, TS_TK_DEF))
        return parse_def(p, start, 0, decs);
    if (at(p, TS_TK_CLASS))
        return parse_class(p, start, decs);
    if (accept(p, TS_TK_ASYNC) && at(p, TS_TK_DEF))
        return parse_def(p, start, 1, decs);
    unexpected(p, "'def' or 'class' after decorators");
    return NULL;
}

/* One statement line (compound, or simple ones joined by ';'), appended to block. */
static void parse_statement(Parser *p, TsTree *block)
{
    if (!enter(p))
        return;
    size_t start = p->tok.start;
    TsTree *t = NULL;
    switch (p->tok.kind) {
    case TS_TK_IF: t = parse_if(p); break;
    case TS_TK_WHILE: t = parse_while(p); break;
    case TS_TK_FOR: t = parse_for(p, start, 0); break;
    case TS_TK_WITH: t = parse_with(p, start, 0); break;
    case TS_TK_TRY: t = parse_try(p); break;
    case TS_TK_DEF: t = parse_def(p, start, 0, mk(p, TS_TREE_DECORATORS, start, start)); break;
    case TS_TK_CLASS: t = parse_class(p, start, mk(p, TS_TREE_DECORATORS, start, start)); break;
    case '@': t = parse_decorated(p); break;
    case TS_TK_ASYNC:
        next(p);
        if (at(p, TS_TK_DEF))
            t = parse_def(p, start, 1, mk(p, TS_TREE_DECORATORS, start, start));
        else if (at(p, TS_TK_FOR))
            t = parse_for(p, start, 1);
        else if (at(p, TS_TK_WITH))
            t = parse_with(p, start, 1);
        else
            unexpected(p, "'def', 'for' or 'with' after 'async'");
        break;
    default:
        if (at_match(p)) {
            t = parse_match(p);
            break;
        }
        parse_simple_statements(p, block);
        leave(p);
        return;
    }
    leave(p);
    if (!p->failed) {
        add(p, block, t);
        extend(block, t ? t->range.end : 0);
    }
}

/* After ':': simple statements on the same line, or NEWLINE INDENT statements DEDENT. */
static TsTree *parse_suite(Parser *p)
{
    size_t start = p->tok.start;
    TsTree *block = mk(p, TS_TREE_BLOCK, start, start);
    if (p->failed)
        return NULL;
    if (!accept(p, TS_TK_NEWLINE)) {
        if (at(p, TS_TK_EOF) || at(p, TS_TK_INDENT)) {
            unexpected(p, "a statement");
            return NULL;
        }
        parse_simple_statements(p, block);
        return p->failed ? NULL : block;
    }
    if (!at(p, TS_TK_INDENT)) {
        size_t end = p->tok.end > p->tok.start ? p->tok.end : p->tok.start + 1;
        fail(p, TS_ERR_SYNTAX, p->tok.start, end, "expected an indented block");
        return NULL;
    }
    next(p);
    if (!enter(p))
        return NULL;
    if (block)
        block->range.start = p->tok.start;
    while (!p->failed && !at(p, TS_TK_DEDENT) && !at(p, TS_TK_EOF))
        parse_statement(p, block);
    leave(p);
    expect(p, TS_TK_DEDENT);
    return p->failed ? NULL : block;
}

/* ---- entry points --------------------------------------------------------------- */

static void parser_init(Parser *p, TsSource *source, TsError *err)
{
    memset(p, 0, sizeof *p);
    p->source = source;
    p->err = err;
}

/* On success drops the node list (root owns everything); on failure frees every node. */
static TsTree *parser_finish(Parser *p, TsTree *root)
{
    if (p->failed) {
        for (size_t i = 0; i < p->n_all; i++) {
            TsTree *t = p->all[i];
            free(t->kids);
            free(t->str);
            ts_source_release(t->range.source);
            free(t);
        }
        root = NULL;
    }
    free(p->all);
    free(p->comments);
    return root;
}

TsTree *ts_parse_module(TsSource *source, TsError *err)
{
    Parser p;
    parser_init(&p, source, err);
    ts_lexer_init(&p.lx, source);
    next(&p);
    TsTree *mod = mk(&p, TS_TREE_MODULE, 0, source->len);
    while (!p.failed && !at(&p, TS_TK_EOF)) {
        if (at(&p, TS_TK_INDENT)) {
            unexpected(&p, "a statement");
            break;
        }
        parse_statement(&p, mod);
    }
    return parser_finish(&p, mod);
}

TsTree *ts_parse_expression(TsSource *source, size_t start, size_t end, TsError *err)
{
    Parser p;
    parser_init(&p, source, err);
    if (end > source->len)
        end = source->len;
    if (start > end)
        start = end;
    ts_lexer_init_expr(&p.lx, source, start, end);
    next(&p);
    TsTree *t = parse_testlist(&p, 1);
    if (!p.failed && !at(&p, TS_TK_EOF))
        unexpected(&p, "the end of the expression");
    return parser_finish(&p, t);
}

/* ---- what PyTorch's frontend refuses ------------------------------------------------ */

typedef struct Checker {
    TsError *err;
    const char *def_name;
    bool closures;             /* an archive's code: a def without parameters inside a def */
} Checker;

static int refuse(Checker *c, const TsTree *t, size_t width, const char *msg)
{
    TsSourceRange r = t->range;
    if (width)
        r.end = r.start + width;
    return ts_error_at(c->err, TS_ERR_NOT_IMPL, r, "%s", msg);
}

static const char vararg_msg[] = "Compiled functions can't take variable number of arguments "
                                 "or use keyword-only arguments with defaults";

static int check_params(Checker *c, const TsTree *params)
{
    /* PyTorch looks at **kwargs, then *args, then keyword-only defaults. */
    static const int order[] = {TS_PARAM_KWARGS, TS_PARAM_VARARGS, TS_PARAM_KWONLY};
    for (size_t o = 0; o < 3; o++)
        for (size_t i = 0; i < params->n_kids; i++) {
            const TsTree *prm = params->kids[i];
            if (prm->ival != order[o] || !prm->kids[0])
                continue;
            if (order[o] == TS_PARAM_KWONLY) {
                if (prm->kids[2])
                    return ts_error_at(c->err, TS_ERR_NOT_IMPL, prm->kids[2]->range, "%s",
                                       vararg_msg);
                continue;
            }
            TsSourceRange r = prm->kids[0]->range;
            r.start--;
            return ts_error_at(c->err, TS_ERR_NOT_IMPL, r, "%s", vararg_msg);
        }
    return 0;
}

static const char *aug_name(int op)
{
    return op == '@' ? "MatMult" : op == TS_TK_FLOORDIV ? "FloorDiv" : NULL;
}

static int check(Checker *c, const TsTree *t)
{
    if (!t)
        return 0;
    switch (t->kind) {
    case TS_TREE_DEF:
        if (c->closures && !t->flag && t->kids[2]->n_kids == 0)
            break;   /* its body is checked below */
        return refuse(c, t, t->flag ? 9 : 3, t->flag ? "async function definitions aren't supported"
                                                     : "function definitions aren't supported");
    case TS_TREE_CLASS: return refuse(c, t, 5, "class definitions aren't supported");
    case TS_TREE_IMPORT: return refuse(c, t, 6, "import statements aren't supported");
    case TS_TREE_IMPORT_FROM: return refuse(c, t, 4, "import statements aren't supported");
    case TS_TREE_GLOBAL: return refuse(c, t, 6, "global variables aren't supported");
    case TS_TREE_NONLOCAL: return refuse(c, t, 8, "nonlocal variables aren't supported");
    case TS_TREE_TRY:
        for (size_t i = 1; i <= (size_t)t->ival && i < t->n_kids; i++)
            if (t->kids[i] && t->kids[i]->flag)
                return refuse(c, t, 1, "TryStar aren't supported");
        return refuse(c, t, 3, "try blocks aren't supported");
    case TS_TREE_MATCH: return refuse(c, t, 1, "Match aren't supported");
    case TS_TREE_LAMBDA: return refuse(c, t, 1, "Lambda aren't supported");
    case TS_TREE_SET: return refuse(c, t, 1, "Set aren't supported");
    case TS_TREE_SET_COMP: return refuse(c, t, 1, "SetComp aren't supported");
    case TS_TREE_NAMED_EXPR: return refuse(c, t, 1, "NamedExpr aren't supported");
    case TS_TREE_AWAIT: return refuse(c, t, 1, "Await aren't supported");
    case TS_TREE_YIELD:
        return refuse(c, t, 1, t->flag ? "YieldFrom aren't supported" : "Yield aren't supported");
    case TS_TREE_BYTES: return refuse(c, t, 0, "Unknown Constant expression type");
    case TS_TREE_FOR:
        if (t->flag)
            return refuse(c, t, 9, "async for loops aren't supported");
        if (t->kids[3])
            return refuse(c, t, 3, "else branches of for loops aren't supported");
        break;
    case TS_TREE_WHILE:
        if (t->kids[2])
            return refuse(c, t, 5, "else branches of while loops aren't supported");
        break;
    case TS_TREE_WITH:
        if (t->flag)
            return refuse(c, t, 10, "async with statements aren't supported");
        break;
    case TS_TREE_ANN_ASSIGN: {
        if (!t->kids[2])
            return refuse(c, t, 1, "annotated assignments without assigned value aren't supported");
        const TsTree *tg = t->kids[0];
        if (tg->kind == TS_TREE_ATTR && tg->kids[0]->kind == TS_TREE_NAME &&
            strcmp(tg->kids[0]->str, "self") == 0 && strcmp(c->def_name, "__init__") != 0)
            return ts_error_at(c->err, TS_ERR_VALUE, t->range,
                               "Type annotations on instance attributes must be declared in "
                               "__init__, not '%s'", c->def_name);
        break;
    }
    case TS_TREE_AUG_ASSIGN: {
        const char *bad = aug_name(t->op);
        if (bad) {
            /* the operator: the two bytes before the value's '=' */
            const TsTree *v = t->kids[1];
            TsSourceRange r = v->range;
            const char *s = r.source->text;
            size_t e = r.start;
            while (e > t->range.start && s[e - 1] != '=')
                e--;
            r.start = e >= t->range.start + 2 ? e - 2 : t->range.start;
            r.end = e;
            return ts_error_at(c->err, TS_ERR_NOT_IMPL, r,
                               "unsupported kind of augumented assignment: %s", bad);
        }
        break;
    }
    case TS_TREE_UNARY:
        if (t->op == TS_TK_POS)   /* PyTorch 1.13 fails making this error: its text too */
            return refuse(c, t, 0, "unsupported unary operator: UAdd ('UnaryOp' object has "
                          "no attribute 'range')");
        break;
    case TS_TREE_FSTRING:
        for (size_t i = 0; i < t->n_kids; i++) {
            const TsTree *f = t->kids[i];
            if (f->kind != TS_TREE_FORMATTED)
                continue;
            if (f->ival)
                return refuse(c, t, 1, "Don't support conversion in JoinedStr");
            if (f->n_kids > 1 && f->kids[1])
                return refuse(c, t, 1, "Don't support formatting in JoinedStr");
        }
        break;
    case TS_TREE_LIST_COMP:
    case TS_TREE_GENERATOR:
    case TS_TREE_DICT_COMP: {
        size_t first_for = t->kind == TS_TREE_DICT_COMP ? 2 : 1;
        if (t->n_kids - first_for != 1)
            return refuse(c, t, 0, "Only a single generator is currently supported");
        if (t->kids[first_for]->n_kids > 2)
            return refuse(c, t, 0, "Comprehension ifs are not supported yet");
        break;
    }
    case TS_TREE_DICT:
        for (size_t i = 0; i < t->n_kids; i += 2)
            if (!t->kids[i])
                return refuse(c, t, 1, "Dict expansion (e.g. `{**dict}`) is not supported");
        break;
    case TS_TREE_CALL:
        for (size_t i = 1; i < t->n_kids; i++)
            if (t->kids[i]->kind == TS_TREE_KWARG && !t->kids[i]->str)
                return ts_error_at(c->err, TS_ERR_NOT_IMPL, t->kids[i]->kids[0]->range,
                                   "keyword-arg expansion is not supported");
        break;
    case TS_TREE_NAME:
        if (strncmp(t->str, "__jit", 5) == 0)
            return refuse(c, t, 0, "names of variables used in JIT-ed functions can't start "
                                   "with __jit");
        break;
    default:
        break;
    }
    for (size_t i = 0; i < t->n_kids; i++) {
        int rc = check(c, t->kids[i]);
        if (rc)
            return rc;
    }
    return 0;
}

int ts_parse_check_def(const TsTree *def, TsError *err)
{
    return ts_parse_check_code_def(def, false, err);
}

int ts_parse_check_code_def(const TsTree *def, bool archive, TsError *err)
{
    if (!def || def->kind != TS_TREE_DEF)
        return 0;
    Checker c = {err, def->kids[0]->str, archive};
    if (def->flag)
        return refuse(&c, def, 9, "async function definitions aren't supported");
    int rc = check_params(&c, def->kids[2]);
    if (rc)
        return rc;
    for (size_t i = 0; i < def->kids[2]->n_kids; i++) {
        const TsTree *prm = def->kids[2]->kids[i];
        if ((rc = check(&c, prm->kids[1])) || (rc = check(&c, prm->kids[2])))
            return rc;
    }
    const TsTree *tc = def->n_kids > 5 ? def->kids[5] : NULL;
    if (tc && tc->flag)        /* a misplaced "# type:" comment (misplaced_type_comment) */
        return ts_error_at(err, TS_ERR_SYNTAX, tc->range, "%s", tc->str);
    const TsTree *body = def->kids[4];
    for (size_t i = 0; i < body->n_kids; i++) {
        const TsTree *st = body->kids[i];
        /* docstrings are dropped, as PyTorch does */
        if (st->kind == TS_TREE_EXPR_STMT && st->kids[0]->kind == TS_TREE_STRING)
            continue;
        if ((rc = check(&c, st)))
            return rc;
    }
    return 0;
}
