/* lexer.c — Python tokens for the TorchScript frontend: names, numbers, strings,
 * operators, and the NEWLINE/INDENT/DEDENT layout tokens.
 *
 * The rules follow CPython's tokenizer: blank and comment-only lines produce nothing,
 * indentation counts tabs to the next multiple of 8 and is also measured with tabs as one
 * column so that mixing tabs and spaces ambiguously is an error, brackets switch the layout
 * tokens off, and a backslash at the end of a line joins it with the next. Errors point at
 * the offending bytes with the usual "~~~ <--- HERE" excerpt.
 */
#include "frontend/lexer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Keyword {
    const char *text;
    int kind;
    const char *quoted;        /* for messages: "'def'" */
} Keyword;

#define KW(text, kind) {text, kind, "'" text "'"}

static const Keyword keywords[] = {
    KW("False", TS_TK_FALSE), KW("None", TS_TK_NONE), KW("True", TS_TK_TRUE), KW("and", TS_TK_AND),
    KW("as", TS_TK_AS), KW("assert", TS_TK_ASSERT), KW("async", TS_TK_ASYNC), KW("await", TS_TK_AWAIT),
    KW("break", TS_TK_BREAK), KW("class", TS_TK_CLASS), KW("continue", TS_TK_CONTINUE),
    KW("def", TS_TK_DEF), KW("del", TS_TK_DEL), KW("elif", TS_TK_ELIF), KW("else", TS_TK_ELSE),
    KW("except", TS_TK_EXCEPT), KW("finally", TS_TK_FINALLY), KW("for", TS_TK_FOR),
    KW("from", TS_TK_FROM), KW("global", TS_TK_GLOBAL), KW("if", TS_TK_IF), KW("import", TS_TK_IMPORT),
    KW("in", TS_TK_IN), KW("is", TS_TK_IS), KW("lambda", TS_TK_LAMBDA), KW("nonlocal", TS_TK_NONLOCAL),
    KW("not", TS_TK_NOT), KW("or", TS_TK_OR), KW("pass", TS_TK_PASS), KW("raise", TS_TK_RAISE),
    KW("return", TS_TK_RETURN), KW("try", TS_TK_TRY), KW("while", TS_TK_WHILE), KW("with", TS_TK_WITH),
    KW("yield", TS_TK_YIELD),
};

/* Multi-character operators, longest first so the first match is the longest. */
static const Keyword operators[] = {
    KW("**=", TS_TK_POW_EQ), KW("//=", TS_TK_FLOORDIV_EQ), KW("<<=", TS_TK_LSHIFT_EQ),
    KW(">>=", TS_TK_RSHIFT_EQ), KW("...", TS_TK_ELLIPSIS),
    KW("**", TS_TK_POW), KW("//", TS_TK_FLOORDIV), KW("<<", TS_TK_LSHIFT), KW(">>", TS_TK_RSHIFT),
    KW("<=", TS_TK_LE), KW(">=", TS_TK_GE), KW("==", TS_TK_EQ), KW("!=", TS_TK_NE),
    KW("->", TS_TK_ARROW), KW(":=", TS_TK_WALRUS), KW("+=", TS_TK_PLUS_EQ), KW("-=", TS_TK_MINUS_EQ),
    KW("*=", TS_TK_STAR_EQ), KW("/=", TS_TK_SLASH_EQ), KW("%=", TS_TK_PERCENT_EQ),
    KW("@=", TS_TK_AT_EQ), KW("&=", TS_TK_AMP_EQ), KW("|=", TS_TK_PIPE_EQ), KW("^=", TS_TK_CARET_EQ),
};

static const char single_ops[] = "+-*/%@&|^~<>()[]{},:;.=";
/* The same characters as NUL-terminated strings, bare and quoted, so that names are
 * constant data (no lazily filled buffers shared between threads). */
static const char single_text[] = "+\0-\0*\0/\0%\0@\0&\0|\0^\0~\0<\0>\0(\0)\0[\0]\0{\0}\0,\0:\0;\0.\0=";
static const char single_quoted[] =
    "'+'\0'-'\0'*'\0'/'\0'%'\0'@'\0'&'\0'|'\0'^'\0'~'\0'<'\0'>'\0'('\0')'\0'['\0']'\0"
    "'{'\0'}'\0','\0':'\0';'\0'.'\0'='";

static int single_index(int kind)
{
    const char *at = kind > 0 && kind < 128 ? strchr(single_ops, kind) : NULL;
    return at ? (int)(at - single_ops) : -1;
}

const char *ts_token_text(int kind)
{
    int si = single_index(kind);
    if (si >= 0)
        return single_text + 2 * si;
    for (size_t i = 0; i < sizeof operators / sizeof *operators; i++)
        if (operators[i].kind == kind)
            return operators[i].text;
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if (keywords[i].kind == kind)
            return keywords[i].text;
    switch (kind) {
    case TS_TK_NOT_IN: return "not in";
    case TS_TK_IS_NOT: return "is not";
    case TS_TK_NEG: return "-";
    case TS_TK_POS: return "+";
    default: return NULL;
    }
}

const char *ts_token_kind_name(int kind)
{
    switch (kind) {
    case TS_TK_EOF: return "end of file";
    case TS_TK_NEWLINE: return "newline";
    case TS_TK_INDENT: return "indent";
    case TS_TK_DEDENT: return "dedent";
    case TS_TK_NAME: return "identifier";
    case TS_TK_INT: return "integer literal";
    case TS_TK_FLOAT: return "float literal";
    case TS_TK_IMAG: return "imaginary literal";
    case TS_TK_STRING: return "string literal";
    case TS_TK_TYPE_COMMENT: return "type comment";
    default: break;
    }
    int si = single_index(kind);
    if (si >= 0)
        return single_quoted + 4 * si;
    for (size_t i = 0; i < sizeof operators / sizeof *operators; i++)
        if (operators[i].kind == kind)
            return operators[i].quoted;
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if (keywords[i].kind == kind)
            return keywords[i].quoted;
    return "token";
}

/* ---- setup and helpers ---------------------------------------------------- */

/* The length of the well-formed UTF-8 sequence at p (of at most n bytes), or 0: no overlong
 * forms, no surrogates, nothing past U+10FFFF, as Python's decoder. */
static size_t utf8_seq_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) ||
        (c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))
        return 0;
    return len;
}

/* Python refuses a whole file with a NUL byte or bytes that are not UTF-8 anywhere, in
 * strings and comments too, before reading any of it; so does the lexer, with CPython's
 * messages. */
static int check_text(TsLexer *lx, TsError *err)
{
    const unsigned char *t = (const unsigned char *)lx->source->text;
    for (size_t i = lx->pos; i < lx->end;) {
        if (t[i] == 0) {
            TsSourceRange r = {lx->source, i, i + 1};
            return ts_error_at(err, TS_ERR_SYNTAX, r, "source code cannot contain null bytes");
        }
        size_t n = t[i] < 0x80 ? 1 : utf8_seq_len(t + i, lx->end - i);
        if (n == 0) {
            size_t line, col;
            ts_source_line_col(lx->source, i, &line, &col);
            return ts_error_set(err, TS_ERR_SYNTAX, "Non-UTF-8 code starting with '\\x%02x' in "
                                "file %s on line %zu, but no encoding declared; see "
                                "https://peps.python.org/pep-0263/ for details", t[i],
                                lx->source->filename, line);
        }
        i += n;
    }
    lx->checked = 1;
    return 0;
}

void ts_lexer_init(TsLexer *lx, TsSource *source)
{
    memset(lx, 0, sizeof *lx);
    lx->source = source;
    lx->end = source->len;
    lx->at_line_start = 1;
}

void ts_lexer_init_expr(TsLexer *lx, TsSource *source, size_t start, size_t end)
{
    memset(lx, 0, sizeof *lx);
    lx->source = source;
    lx->pos = start;
    lx->end = end;
    lx->paren_depth = 1;       /* never 0: no layout tokens, and no bracket to close */
}

static int peekc(const TsLexer *lx, size_t ahead)
{
    size_t p = lx->pos + ahead;
    return p < lx->end ? (unsigned char)lx->source->text[p] : -1;
}

static int lex_error(TsLexer *lx, TsError *err, size_t start, size_t end, const char *msg)
{
    TsSourceRange r = {lx->source, start, end};
    return ts_error_at(err, TS_ERR_SYNTAX, r, "%s", msg);
}

static int is_name_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static int is_name_char(int c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

static int is_newline_at(const TsLexer *lx)
{
    int c = peekc(lx, 0);
    return c == '\n' || (c == '\r' && peekc(lx, 1) == '\n');
}

static void skip_newline(TsLexer *lx)
{
    lx->pos += peekc(lx, 0) == '\r' ? 2 : 1;
}

static void make(TsToken *tok, int kind, size_t start, size_t end)
{
    memset(tok, 0, sizeof *tok);
    tok->kind = kind;
    tok->start = start;
    tok->end = end;
}

/* ---- indentation ---------------------------------------------------------- */

/* Measures the indentation at the start of a line. Returns 1 when the line is blank or a
 * comment (the caller skips it), 0 otherwise; *col and *alt are the two measures. */
static int measure_indent(TsLexer *lx, int *col, int *alt)
{
    *col = *alt = 0;
    for (;;) {
        int c = peekc(lx, 0);
        if (c == ' ') {
            ++*col;
            ++*alt;
        } else if (c == '\t') {
            *col = (*col / 8 + 1) * 8;
            ++*alt;
        } else if (c == '\f') {
            *col = *alt = 0;
        } else {
            break;
        }
        lx->pos++;
    }
    int c = peekc(lx, 0);
    return c == '#' || c == -1 || is_newline_at(lx);
}

/* At the start of a logical line: queue INDENT or DEDENTs. */
static int handle_indent(TsLexer *lx, int col, int alt, size_t line_pos, TsError *err)
{
    int top = lx->indent[lx->n_indent], alt_top = lx->indent_alt[lx->n_indent];
    if (col == top) {
        if (alt != alt_top)
            return lex_error(lx, err, line_pos, lx->pos,
                             "inconsistent use of tabs and spaces in indentation");
        return 0;
    }
    if (col > top) {
        if (alt <= alt_top)
            return lex_error(lx, err, line_pos, lx->pos,
                             "inconsistent use of tabs and spaces in indentation");
        if (lx->n_indent >= TS_LEX_MAX_INDENT)
            return ts_error_at(err, TS_ERR_LIMIT, (TsSourceRange){lx->source, line_pos, lx->pos},
                               "too many levels of indentation (the limit is %d)",
                               TS_LEX_MAX_INDENT);
        lx->n_indent++;
        lx->indent[lx->n_indent] = col;
        lx->indent_alt[lx->n_indent] = alt;
        lx->pending_indent = 1;
        return 0;
    }
    while (lx->n_indent > 0 && col < lx->indent[lx->n_indent]) {
        lx->n_indent--;
        lx->pending_dedents++;
    }
    if (col != lx->indent[lx->n_indent])
        return lex_error(lx, err, line_pos, lx->pos,
                         "unindent does not match any outer indentation level");
    if (alt != lx->indent_alt[lx->n_indent])
        return lex_error(lx, err, line_pos, lx->pos,
                         "inconsistent use of tabs and spaces in indentation");
    return 0;
}

/* ---- numbers -------------------------------------------------------------- */

static int digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* Digits of a base with single '_' between them; returns how many digits. */
static int scan_digits(TsLexer *lx, int base, uint64_t *value, int *overflow, TsError *err,
                       int *failed)
{
    int n = 0;
    for (;;) {
        int c = peekc(lx, 0);
        if (c == '_') {
            if (n == 0 || digit_value(peekc(lx, 1)) >= base) {
                *failed = lex_error(lx, err, lx->pos, lx->pos + 1, "invalid digit separator '_'");
                return n;
            }
            lx->pos++;
            continue;
        }
        int d = digit_value(c);
        if (d >= base)
            return n;
        if (value) {
            if (*value > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
                *overflow = 1;
            *value = *value * (uint64_t)base + (uint64_t)d;
        }
        lx->pos++;
        n++;
    }
}

static int lex_float_value(TsLexer *lx, TsToken *tok, size_t start, size_t end, TsError *err)
{
    char small[64];
    size_t n = end - start;
    char *buf = n < sizeof small ? small : malloc(n + 1);
    if (!buf)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    size_t k = 0;
    for (size_t i = start; i < end; i++) {
        char c = lx->source->text[i];
        if (c != '_' && c != 'j' && c != 'J')
            buf[k++] = c;
    }
    buf[k] = '\0';
    tok->fval = strtod(buf, NULL);
    if (buf != small)
        free(buf);
    return 0;
}

static int lex_number(TsLexer *lx, TsToken *tok, TsError *err)
{
    size_t start = lx->pos;
    uint64_t v = 0;
    int overflow = 0, failed = 0;
    int c0 = peekc(lx, 0), c1 = peekc(lx, 1) | 0x20;
    if (c0 == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b')) {
        int base = c1 == 'x' ? 16 : c1 == 'o' ? 8 : 2;
        lx->pos += 2;
        if (peekc(lx, 0) == '_')
            lx->pos++;
        int n = scan_digits(lx, base, &v, &overflow, err, &failed);
        if (failed)
            return failed;
        if (n == 0 || is_name_char(peekc(lx, 0))) {
            const char *what = base == 16 ? "invalid hexadecimal literal"
                             : base == 8 ? "invalid octal literal" : "invalid binary literal";
            return lex_error(lx, err, start, lx->pos + 1, what);
        }
        make(tok, TS_TK_INT, start, lx->pos);
    } else {
        int nint = scan_digits(lx, 10, &v, &overflow, err, &failed);
        if (failed)
            return failed;
        int is_float = 0;
        if (peekc(lx, 0) == '.' && !(nint == 0 && digit_value(peekc(lx, 1)) > 9)) {
            is_float = 1;
            lx->pos++;
            scan_digits(lx, 10, NULL, NULL, err, &failed);
            if (failed)
                return failed;
        }
        int e = peekc(lx, 0);
        if (e == 'e' || e == 'E') {
            lx->pos++;
            if (peekc(lx, 0) == '+' || peekc(lx, 0) == '-')
                lx->pos++;
            if (digit_value(peekc(lx, 0)) > 9)
                return lex_error(lx, err, start, lx->pos, "invalid decimal literal");
            scan_digits(lx, 10, NULL, NULL, err, &failed);
            if (failed)
                return failed;
            is_float = 1;
        }
        int j = peekc(lx, 0);
        if (j == 'j' || j == 'J') {
            lx->pos++;
            make(tok, TS_TK_IMAG, start, lx->pos);
            return lex_float_value(lx, tok, start, lx->pos, err);
        }
        if (is_float) {
            make(tok, TS_TK_FLOAT, start, lx->pos);
            return lex_float_value(lx, tok, start, lx->pos, err);
        }
        if (lx->source->text[start] == '0' && v != 0)
            return lex_error(lx, err, start, lx->pos,
                             "leading zeros in decimal integer literals are not permitted");
        make(tok, TS_TK_INT, start, lx->pos);
    }
    if (overflow || v > (uint64_t)INT64_MAX) {
        tok->int_overflow = 1;
        v = 0;
    }
    tok->ival = (int64_t)v;
    return 0;
}

/* ---- strings -------------------------------------------------------------- */

/* The prefix flags of name[0, n) if it is a string prefix, else -1. */
static int string_prefix(const char *p, size_t n)
{
    if (n > 2)
        return -1;
    int flags = 0, u = 0;
    for (size_t i = 0; i < n; i++) {
        int f;
        switch (p[i] | 0x20) {
        case 'r': f = TS_STR_RAW; break;
        case 'b': f = TS_STR_BYTES; break;
        case 'f': f = TS_STR_FORMAT; break;
        case 'u': f = 0; u++; break;
        default: return -1;
        }
        if (flags & f)
            return -1;
        flags |= f;
    }
    if (u && n > 1)
        return -1;
    if ((flags & TS_STR_BYTES) && (flags & TS_STR_FORMAT))
        return -1;
    return flags;
}

/* lx->pos is at the opening quote. */
static int lex_string(TsLexer *lx, TsToken *tok, size_t start, int flags, TsError *err)
{
    int q = peekc(lx, 0);
    int triple = peekc(lx, 1) == q && peekc(lx, 2) == q;
    size_t quote_len = triple ? 3 : 1;
    lx->pos += quote_len;
    size_t body = lx->pos;
    for (;;) {
        int c = peekc(lx, 0);
        if (c == -1)
            return lex_error(lx, err, start, start + quote_len,
                             triple ? "unterminated triple-quoted string literal"
                                    : "unterminated string literal");
        if (c == '\\') {
            lx->pos++;
            if (peekc(lx, 0) == -1)
                continue;
            if (is_newline_at(lx))
                skip_newline(lx);
            else
                lx->pos++;
            continue;
        }
        if (!triple && is_newline_at(lx))
            return lex_error(lx, err, start, lx->pos, "unterminated string literal");
        if (c == q && (!triple || (peekc(lx, 1) == q && peekc(lx, 2) == q))) {
            make(tok, TS_TK_STRING, start, lx->pos + quote_len);
            tok->str_flags = flags | (triple ? TS_STR_TRIPLE : 0);
            tok->body_start = body;
            tok->body_end = lx->pos;
            lx->pos += quote_len;
            return 0;
        }
        lx->pos++;
    }
}

/* Appends code point cp as UTF-8. */
static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

int ts_lex_decode_string(TsSource *source, size_t start, size_t end, int flags,
                         char **out, size_t *len, TsError *err)
{
    const char *s = source->text;
    /* A decoded escape is never longer than its spelling (\x80 is 2 UTF-8 bytes for 4). */
    char *o = malloc(end - start + 1);
    if (!o)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    size_t n = 0, i = start;
    while (i < end) {
        char c = s[i];
        if ((flags & TS_STR_FORMAT) && (c == '{' || c == '}') && i + 1 < end && s[i + 1] == c) {
            o[n++] = c;
            i += 2;
            continue;
        }
        if (c == '\r' && i + 1 < end && s[i + 1] == '\n') {
            i++;   /* newlines inside triple-quoted strings read as "\n" */
            continue;
        }
        if (c != '\\' || (flags & TS_STR_RAW) || i + 1 >= end) {
            o[n++] = c;
            i++;
            continue;
        }
        size_t esc = i;
        char e = s[i + 1];
        i += 2;
        switch (e) {
        case '\n': break;
        case '\r': if (i < end && s[i] == '\n') i++; break;
        case '\\': o[n++] = '\\'; break;
        case '\'': o[n++] = '\''; break;
        case '"': o[n++] = '"'; break;
        case 'a': o[n++] = '\a'; break;
        case 'b': o[n++] = '\b'; break;
        case 'f': o[n++] = '\f'; break;
        case 'n': o[n++] = '\n'; break;
        case 'r': o[n++] = '\r'; break;
        case 't': o[n++] = '\t'; break;
        case 'v': o[n++] = '\v'; break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
            uint32_t v = (uint32_t)(e - '0');
            for (int k = 0; k < 2 && i < end && s[i] >= '0' && s[i] <= '7'; k++)
                v = v * 8 + (uint32_t)(s[i++] - '0');
            if (flags & TS_STR_BYTES)
                o[n++] = (char)(v & 0xFF);
            else
                n += put_utf8(o + n, v);
            break;
        }
        case 'x': case 'u': case 'U': {
            int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            if (e != 'x' && (flags & TS_STR_BYTES)) {
                o[n++] = '\\';
                o[n++] = e;
                break;
            }
            uint32_t v = 0;
            for (int k = 0; k < digits; k++) {
                int d = i < end ? digit_value((unsigned char)s[i]) : 99;
                if (d > 15) {
                    free(o);
                    TsSourceRange r = {source, esc, i};
                    return ts_error_at(err, TS_ERR_SYNTAX, r,
                                       "truncated \\%c escape in string literal", e);
                }
                v = v * 16 + (uint32_t)d;
                i++;
            }
            if (v > 0x10FFFF) {
                free(o);
                TsSourceRange r = {source, esc, i};
                return ts_error_at(err, TS_ERR_SYNTAX, r, "illegal Unicode character in string literal");
            }
            if (e == 'x' && (flags & TS_STR_BYTES))
                o[n++] = (char)v;
            else
                n += put_utf8(o + n, v);
            break;
        }
        case 'N':
            if (!(flags & TS_STR_BYTES)) {
                free(o);
                TsSourceRange r = {source, esc, i};
                return ts_error_at(err, TS_ERR_SYNTAX, r,
                                   "\\N{...} escapes are not supported in string literals");
            }
            o[n++] = '\\';   /* in bytes, \N is not an escape */
            o[n++] = e;
            break;
        default:
            o[n++] = '\\';
            o[n++] = e;
            break;
        }
    }
    o[n] = '\0';
    *out = o;
    *len = n;
    return 0;
}

/* ---- the main loop -------------------------------------------------------- */

static int is_type_comment(TsLexer *lx, size_t *body_start, size_t *body_end)
{
    size_t p = lx->pos + 1;
    const char *t = lx->source->text;
    while (p < lx->end && (t[p] == ' ' || t[p] == '\t'))
        p++;
    if (lx->end - p < 5 || memcmp(t + p, "type:", 5) != 0)
        return 0;
    p += 5;
    while (p < lx->end && (t[p] == ' ' || t[p] == '\t'))
        p++;
    size_t e = p;
    while (e < lx->end && t[e] != '\n' && t[e] != '\r')
        e++;
    while (e > p && (t[e - 1] == ' ' || t[e - 1] == '\t'))
        e--;
    *body_start = p;
    *body_end = e;
    return 1;
}

/* A comment: a type comment becomes a token (returns 1), others are skipped (returns 0). */
static int lex_comment(TsLexer *lx, TsToken *tok)
{
    size_t bs, be, start = lx->pos;
    int typed = is_type_comment(lx, &bs, &be);
    while (peekc(lx, 0) != -1 && !is_newline_at(lx))
        lx->pos++;
    if (!typed)
        return 0;
    make(tok, TS_TK_TYPE_COMMENT, start, lx->pos);
    tok->body_start = bs;
    tok->body_end = be;
    return 1;
}

static int lex_bracket(TsLexer *lx, int c, TsError *err)
{
    if (c == '(' || c == '[' || c == '{') {
        int depth = lx->paren_depth;
        if (depth >= (int)(sizeof lx->bracket_stack / sizeof *lx->bracket_stack))
            return ts_error_at(err, TS_ERR_LIMIT, (TsSourceRange){lx->source, lx->pos, lx->pos + 1},
                               "too many nested parentheses");
        lx->bracket_stack[depth] = c;
        lx->bracket_pos[depth] = lx->pos;
        lx->paren_depth++;
        return 0;
    }
    int open = c == ')' ? '(' : c == ']' ? '[' : '{';
    if (lx->paren_depth == 0 || (lx->bracket_stack[lx->paren_depth - 1] == 0)) {
        char msg[32];
        snprintf(msg, sizeof msg, "unmatched '%c'", c);
        return lex_error(lx, err, lx->pos, lx->pos + 1, msg);
    }
    if (lx->bracket_stack[lx->paren_depth - 1] != open) {
        char msg[96];
        snprintf(msg, sizeof msg, "closing parenthesis '%c' does not match opening parenthesis '%c'",
                 c, lx->bracket_stack[lx->paren_depth - 1]);
        return lex_error(lx, err, lx->pos, lx->pos + 1, msg);
    }
    lx->paren_depth--;
    return 0;
}

static int lex_operator(TsLexer *lx, TsToken *tok, TsError *err)
{
    const char *p = lx->source->text + lx->pos;
    size_t avail = lx->end - lx->pos;
    for (size_t i = 0; i < sizeof operators / sizeof *operators; i++) {
        size_t n = strlen(operators[i].text);
        if (n <= avail && memcmp(p, operators[i].text, n) == 0) {
            make(tok, operators[i].kind, lx->pos, lx->pos + n);
            lx->pos += n;
            return 0;
        }
    }
    int c = (unsigned char)*p;
    if (c && strchr(single_ops, c)) {
        if (strchr("()[]{}", c)) {
            int rc = lex_bracket(lx, c, err);
            if (rc)
                return rc;
        }
        make(tok, c, lx->pos, lx->pos + 1);
        lx->pos++;
        return 0;
    }
    char msg[64];
    if (c == 0)
        snprintf(msg, sizeof msg, "source code cannot contain null bytes");
    else if (c == '\\')
        snprintf(msg, sizeof msg, "unexpected character after line continuation character");
    else if (c >= 0x20 && c < 0x7f)
        snprintf(msg, sizeof msg, "invalid character '%c'", c);
    else
        snprintf(msg, sizeof msg, "invalid character (byte 0x%02x)", c);
    return lex_error(lx, err, lx->pos, lx->pos + 1, msg);
}

static int lex_name(TsLexer *lx, TsToken *tok, TsError *err)
{
    size_t start = lx->pos;
    while (is_name_char(peekc(lx, 0)))
        lx->pos++;
    int q = peekc(lx, 0);
    if (q == '\'' || q == '"') {
        int flags = string_prefix(lx->source->text + start, lx->pos - start);
        if (flags >= 0)
            return lex_string(lx, tok, start, flags, err);
    }
    make(tok, TS_TK_NAME, start, lx->pos);
    size_t n = lx->pos - start;
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if (strlen(keywords[i].text) == n && memcmp(keywords[i].text, lx->source->text + start, n) == 0) {
            tok->kind = keywords[i].kind;
            break;
        }
    return 0;
}

int ts_lex_next(TsLexer *lx, TsToken *tok, TsError *err)
{
    if (!lx->checked && check_text(lx, err))
        return err->code;
    for (;;) {
        if (lx->pending_dedents > 0) {
            lx->pending_dedents--;
            make(tok, TS_TK_DEDENT, lx->pos, lx->pos);
            return 0;
        }
        if (lx->pending_indent) {
            lx->pending_indent = 0;
            make(tok, TS_TK_INDENT, lx->pos, lx->pos);
            return 0;
        }
        if (lx->at_line_start && lx->paren_depth == 0) {
            size_t line_pos = lx->pos;
            int col, alt;
            if (measure_indent(lx, &col, &alt)) {
                if (peekc(lx, 0) == '#') {
                    if (lex_comment(lx, tok))
                        return 0;
                    continue;
                }
                if (peekc(lx, 0) == -1) {
                    lx->at_line_start = 0;
                    continue;
                }
                skip_newline(lx);
                continue;
            }
            lx->at_line_start = 0;
            int rc = handle_indent(lx, col, alt, line_pos, err);
            if (rc)
                return rc;
            continue;
        }
        int c = peekc(lx, 0);
        if (c == ' ' || c == '\t' || c == '\f' || (c == '\r' && peekc(lx, 1) != '\n')) {
            lx->pos++;
            continue;
        }
        if (c == '\\' && lx->pos + 1 < lx->end && (peekc(lx, 1) == '\n' ||
                                                   (peekc(lx, 1) == '\r' && peekc(lx, 2) == '\n'))) {
            lx->pos++;
            skip_newline(lx);
            continue;
        }
        if (c == '#') {
            if (lex_comment(lx, tok))
                return 0;
            continue;
        }
        if (c == -1) {
            if (lx->paren_depth > 0 && lx->bracket_stack[lx->paren_depth - 1]) {
                char msg[40];
                size_t at = lx->bracket_pos[lx->paren_depth - 1];
                snprintf(msg, sizeof msg, "'%c' was never closed", lx->bracket_stack[lx->paren_depth - 1]);
                return lex_error(lx, err, at, at + 1, msg);
            }
            if (lx->line_has_tokens && lx->paren_depth == 0) {
                lx->line_has_tokens = 0;
                make(tok, TS_TK_NEWLINE, lx->pos, lx->pos);
                return 0;
            }
            if (lx->n_indent > 0) {
                lx->n_indent--;
                make(tok, TS_TK_DEDENT, lx->pos, lx->pos);
                return 0;
            }
            lx->done = 1;
            make(tok, TS_TK_EOF, lx->pos, lx->pos);
            return 0;
        }
        if (is_newline_at(lx)) {
            size_t at = lx->pos;
            skip_newline(lx);
            if (lx->paren_depth > 0)
                continue;
            lx->at_line_start = 1;
            if (!lx->line_has_tokens)
                continue;
            lx->line_has_tokens = 0;
            make(tok, TS_TK_NEWLINE, at, at + 1);
            return 0;
        }
        int rc;
        if (is_name_start(c))
            rc = lex_name(lx, tok, err);
        else if ((c >= '0' && c <= '9') || (c == '.' && digit_value(peekc(lx, 1)) <= 9))
            rc = lex_number(lx, tok, err);
        else if (c == '\'' || c == '"')
            rc = lex_string(lx, tok, lx->pos, 0, err);
        else
            rc = lex_operator(lx, tok, err);
        if (rc)
            return rc;
        lx->line_has_tokens = 1;
        return 0;
    }
}
