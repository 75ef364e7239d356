/* t/lexer.c — token streams for tricky inputs, layout tokens, literals, and lexer errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/lexer.h"
#include "tap.h"

/* The token stream of text as one line: "NAME:x '=' INT:1 NL EOF"; an error returns
 * "ERROR: <first line of message>" and stores the whole message in *msg if asked. */
static char *tokens(const char *text, char **msg)
{
    TsError err = TS_ERROR_INIT;
    TsSource *src = ts_source_new("t.py", text, strlen(text), &err);
    TsLexer lx;
    ts_lexer_init(&lx, src);
    static char out[4096];
    size_t n = 0;
    out[0] = '\0';
    for (;;) {
        TsToken tok;
        if (ts_lex_next(&lx, &tok, &err)) {
            char *nl = strchr(err.msg, '\n');
            snprintf(out, sizeof out, "ERROR: %.*s", nl ? (int)(nl - err.msg) : (int)strlen(err.msg),
                     err.msg);
            if (msg)
                *msg = strdup(err.msg);
            break;
        }
        char item[256];
        const char *tx = src->text + tok.start;
        int len = (int)(tok.end - tok.start);
        switch (tok.kind) {
        case TS_TK_NEWLINE: snprintf(item, sizeof item, "NL"); break;
        case TS_TK_INDENT: snprintf(item, sizeof item, "IN"); break;
        case TS_TK_DEDENT: snprintf(item, sizeof item, "DE"); break;
        case TS_TK_EOF: snprintf(item, sizeof item, "EOF"); break;
        case TS_TK_NAME: snprintf(item, sizeof item, "NAME:%.*s", len, tx); break;
        case TS_TK_INT:
            snprintf(item, sizeof item, tok.int_overflow ? "INT:big" : "INT:%lld", (long long)tok.ival);
            break;
        case TS_TK_FLOAT: snprintf(item, sizeof item, "FLOAT:%g", tok.fval); break;
        case TS_TK_IMAG: snprintf(item, sizeof item, "IMAG:%g", tok.fval); break;
        case TS_TK_TYPE_COMMENT:
            snprintf(item, sizeof item, "TYPE:%.*s", (int)(tok.body_end - tok.body_start),
                     src->text + tok.body_start);
            break;
        case TS_TK_STRING: {
            char *d;
            size_t dl;
            int fl = tok.str_flags & ~TS_STR_FORMAT;
            if (ts_lex_decode_string(src, tok.body_start, tok.body_end, fl, &d, &dl, &err)) {
                snprintf(item, sizeof item, "STRERR");
            } else {
                snprintf(item, sizeof item, "STR%s%s%s:%s", tok.str_flags & TS_STR_BYTES ? "b" : "",
                         tok.str_flags & TS_STR_FORMAT ? "f" : "",
                         tok.str_flags & TS_STR_RAW ? "r" : "", d);
                free(d);
            }
            break;
        }
        default: snprintf(item, sizeof item, "%s", ts_token_kind_name(tok.kind)); break;
        }
        size_t il = strlen(item);
        if (n + il + 2 < sizeof out) {
            if (n)
                out[n++] = ' ';
            memcpy(out + n, item, il + 1);
            n += il;
        }
        if (tok.kind == TS_TK_EOF)
            break;
    }
    ts_error_clear(&err);
    ts_source_release(src);
    return out;
}

static void lexes(const char *text, const char *want, const char *name)
{
    is_str(tokens(text, NULL), want, "%s", name);
}

static void lex_error(const char *text, const char *phrase, const char *marker, const char *name)
{
    char *msg = NULL;
    const char *got = tokens(text, &msg);
    like(got, phrase, "%s: error says what", name);
    like(msg, marker, "%s: error says where", name);
    free(msg);
}

int main(void)
{
    /* layout */
    lexes("x = 1\n", "NAME:x '=' INT:1 NL EOF", "simple assignment");
    lexes("x = 1", "NAME:x '=' INT:1 NL EOF", "NEWLINE at EOF without a final newline");
    lexes("if x:\n    y\n\n    # c\n  \n    z\nw\n",
          "'if' NAME:x ':' NL IN NAME:y NL NAME:z NL DE NAME:w NL EOF",
          "blank and comment lines make no tokens");
    lexes("def f():\n  if a:\n    b\nc", "'def' NAME:f '(' ')' ':' NL IN 'if' NAME:a ':' NL IN NAME:b NL DE DE NAME:c NL EOF",
          "two dedents at once");
    lexes("if a:\n  b", "'if' NAME:a ':' NL IN NAME:b NL DE EOF", "dedents at EOF");
    lexes("f(1,\n  2\n)\n", "NAME:f '(' INT:1 ',' INT:2 ')' NL EOF", "no layout tokens inside brackets");
    lexes("x = [\n# c\n 1]\n", "NAME:x '=' '[' INT:1 ']' NL EOF", "comments inside brackets");
    lexes("x = 1 + \\\n    2\n", "NAME:x '=' INT:1 '+' INT:2 NL EOF", "backslash continuation");
    lexes("if a:\n\tb\n\tc\n", "'if' NAME:a ':' NL IN NAME:b NL NAME:c NL DE EOF", "tab indentation");
    lexes("x\r\ny\r\n", "NAME:x NL NAME:y NL EOF", "CRLF line ends");
    lexes("", "EOF", "empty input");
    lexes("\n\n   \n", "EOF", "only blank lines");
    /* numbers */
    lexes("0 10 1_000 0x_FF 0o17 0b1010 0XdeadBEEF 00",
          "INT:0 INT:10 INT:1000 INT:255 INT:15 INT:10 INT:3735928559 INT:0 NL EOF", "integers in every base");
    lexes("9223372036854775807 9223372036854775808", "INT:9223372036854775807 INT:big NL EOF",
          "int64 limit and overflow");
    lexes("1.5 1. .5 1e3 1E-2 1_0.2_5 2.5e+1_0", "FLOAT:1.5 FLOAT:1 FLOAT:0.5 FLOAT:1000 FLOAT:0.01 FLOAT:10.25 FLOAT:2.5e+10 NL EOF",
          "floats");
    lexes("1j 2.5J", "IMAG:1 IMAG:2.5 NL EOF", "imaginary literals");
    lexes("x.y 1 .real", "NAME:x '.' NAME:y INT:1 '.' NAME:real NL EOF", "dots and numbers");
    lexes("x[1:]", "NAME:x '[' INT:1 ':' ']' NL EOF", "slice colon after a number");
    /* strings */
    lexes("'a' \"b\" '''c\nd''' \"\"\"e\"\"\"", "STR:a STR:b STR:c\nd STR:e NL EOF", "quote forms");
    lexes("'\\n\\t\\\\\\'\\x41\\101\\u00e9'", "STR:\n\t\\'AAé NL EOF", "escapes");
    lexes("r'\\n' R\"\\d\"", "STRr:\\n STRr:\\d NL EOF", "raw strings");
    lexes("b'ab' rb'\\x' u'x'", "STRb:ab STRbr:\\x STR:x NL EOF", "bytes and u prefixes");
    lexes("f'a{x}' F\"{y!r:>3}\"", "STRf:a{x} STRf:{y!r:>3} NL EOF", "f-strings stay whole tokens");
    lexes("'a\\\nb'", "STR:ab NL EOF", "backslash-newline inside a string");
    lexes("'\\q'", "STR:\\q NL EOF", "unknown escapes are kept");
    /* operators */
    lexes("a**=b//=c>>=d<<=e...",
          "NAME:a '**=' NAME:b '//=' NAME:c '>>=' NAME:d '<<=' NAME:e '...' NL EOF", "three-char operators");
    lexes("a->b:=c!=d<=e>=f==g@h",
          "NAME:a '->' NAME:b ':=' NAME:c '!=' NAME:d '<=' NAME:e '>=' NAME:f '==' NAME:g '@' NAME:h NL EOF",
          "two-char operators");
    lexes("not in is lambda None True", "'not' 'in' 'is' 'lambda' 'None' 'True' NL EOF", "keywords");
    lexes("élan _x x1", "NAME:élan NAME:_x NAME:x1 NL EOF", "identifiers");
    /* comments */
    lexes("def f(x):  # type: (int) -> int\n    pass\n",
          "'def' NAME:f '(' NAME:x ')' ':' TYPE:(int) -> int NL IN 'pass' NL DE EOF", "type comment on the def line");
    lexes("def f(x):\n    # type: (int) -> int\n    pass\n",
          "'def' NAME:f '(' NAME:x ')' ':' NL TYPE:(int) -> int IN 'pass' NL DE EOF", "type comment on its own line");
    lexes("x = 1  # just a comment\n", "NAME:x '=' INT:1 NL EOF", "plain comments vanish");
    /* errors */
    lex_error("x = 'abc\n", "unterminated string literal", "    ~~~~ <--- HERE", "unterminated string");
    lex_error("x = \"\"\"abc\n", "unterminated triple-quoted string literal", "~~~ <--- HERE", "unterminated triple");
    lex_error("x = 1 ? 2\n", "invalid character '?'", "      ~ <--- HERE", "bad character");
    lex_error("if a:\n    b\n  c\n", "unindent does not match any outer indentation level", "line 3", "bad dedent");
    lex_error("if a:\n        b\n\tc\n", "inconsistent use of tabs and spaces", "line 3", "tabs and spaces");
    lex_error("f(1, 2\n", "'(' was never closed", " ~ <--- HERE", "unclosed paren");
    lex_error("x = (1]\n", "closing parenthesis ']' does not match", "line 1", "mismatched bracket");
    lex_error("x = ]\n", "unmatched ']'", "    ~ <--- HERE", "unmatched close");
    lex_error("x = 012\n", "leading zeros", "line 1", "leading zeros");
    lex_error("x = 0b102\n", "invalid binary literal", "line 1", "bad binary digit");
    lex_error("x = 1__0\n", "invalid digit separator", "line 1", "double underscore");
    lex_error("x = 1e+\n", "invalid decimal literal", "line 1", "bad exponent");
    lex_error("x = 1 \\ 2\n", "unexpected character after line continuation", "line 1", "stray backslash");
    lex_error("x = \"a\0\"\n", "unterminated", "line 1", "NUL ends the C string (source has a NUL)");
    {
        /* a real NUL byte in the source */
        TsError err = TS_ERROR_INIT;
        TsSource *src = ts_source_new("t.py", "x \0 y", 5, &err);
        TsLexer lx;
        TsToken tok;
        ts_lexer_init(&lx, src);
        int rc = 0;
        for (int i = 0; i < 5 && !rc; i++)
            rc = ts_lex_next(&lx, &tok, &err);
        is_int(rc, TS_ERR_SYNTAX, "NUL byte is an error");
        like(err.msg, "null bytes", "NUL byte message");
        ts_error_clear(&err);
        ts_source_release(src);
    }
    {
        /* indentation deeper than the limit */
        char buf[20000];
        size_t n = 0;
        for (int d = 0; d < TS_LEX_MAX_INDENT + 5; d++) {
            for (int s = 0; s < d; s++)
                buf[n++] = ' ';
            memcpy(buf + n, "if x:\n", 6);
            n += 6;
        }
        buf[n] = '\0';
        lex_error(buf, "too many levels of indentation", "HERE", "indent limit");
        n = 0;
        for (int d = 0; d < 300; d++)
            buf[n++] = '(';
        buf[n] = '\0';
        lex_error(buf, "too many nested parentheses", "HERE", "bracket limit");
    }
    {
        TsError err = TS_ERROR_INIT;
        TsSource *src = ts_source_new("t.py", "'\\xZZ'", 6, &err);
        char *d = NULL;
        size_t dl;
        is_int(ts_lex_decode_string(src, 1, 5, 0, &d, &dl, &err), TS_ERR_SYNTAX, "truncated \\x escape");
        like(err.msg, "truncated \\x escape", "truncated escape message");
        ts_error_clear(&err);
        ts_source_release(src);
    }
    /* expression mode, as used for f-string fields */
    {
        TsError err = TS_ERROR_INIT;
        const char *text = "f'{a +\nb}'";
        TsSource *src = ts_source_new("t.py", text, strlen(text), &err);
        TsLexer lx;
        TsToken tok;
        ts_lexer_init_expr(&lx, src, 3, 8);
        int kinds[8], n = 0;
        while (n < 8 && !ts_lex_next(&lx, &tok, &err) && (kinds[n++] = tok.kind) != TS_TK_EOF)
            ;
        ok(n == 4 && kinds[0] == TS_TK_NAME && kinds[1] == '+' && kinds[2] == TS_TK_NAME &&
           kinds[3] == TS_TK_EOF, "expression mode ignores newlines and ends with EOF");
        ts_source_release(src);
    }
    is_str(ts_token_kind_name(TS_TK_POW_EQ), "'**='", "kind names quote operators");
    is_str(ts_token_kind_name(TS_TK_NAME), "identifier", "kind names describe classes");
    is_str(ts_token_text(TS_TK_NOT_IN), "not in", "token text of a parser-made operator");
    return done_testing();
}
