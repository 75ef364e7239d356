/* lexer.h — Python tokens for the TorchScript frontend.
 *
 * The lexer walks a TsSource and hands out one token at a time. Like Python's tokenizer it
 * injects NEWLINE at the end of each logical line and INDENT/DEDENT when the indentation
 * changes, except inside brackets, so the parser can treat them as C's ';', '{' and '}'.
 * Tokens own no memory: they are byte ranges into the source plus decoded numbers. String
 * tokens record their prefix and the range of their body; ts_lex_decode_string() turns a
 * body into bytes on demand (the parser also uses it on the literal parts of f-strings).
 * "# type: ..." comments come out as TS_TK_TYPE_COMMENT tokens for mypy-style signatures;
 * all other comments are skipped.
 */
#ifndef TSCRIPT_LEXER_H
#define TSCRIPT_LEXER_H

#include <stdint.h>

#include "frontend/source.h"

/* Single-character operators and brackets use their character as their kind
 * ('+', '(', ':', ...); everything else is numbered from 256. */
typedef enum TsTokenKind {
    TS_TK_EOF = 256,
    TS_TK_NEWLINE,
    TS_TK_INDENT,
    TS_TK_DEDENT,
    TS_TK_NAME,
    TS_TK_INT,
    TS_TK_FLOAT,
    TS_TK_IMAG,
    TS_TK_STRING,
    TS_TK_TYPE_COMMENT,
    /* multi-character operators */
    TS_TK_POW,          /* ** */
    TS_TK_FLOORDIV,     /* // */
    TS_TK_LSHIFT,       /* << */
    TS_TK_RSHIFT,       /* >> */
    TS_TK_LE,           /* <= */
    TS_TK_GE,           /* >= */
    TS_TK_EQ,           /* == */
    TS_TK_NE,           /* != */
    TS_TK_ARROW,        /* -> */
    TS_TK_ELLIPSIS,     /* ... */
    TS_TK_WALRUS,       /* := */
    TS_TK_PLUS_EQ, TS_TK_MINUS_EQ, TS_TK_STAR_EQ, TS_TK_SLASH_EQ, TS_TK_FLOORDIV_EQ,
    TS_TK_PERCENT_EQ, TS_TK_POW_EQ, TS_TK_AT_EQ, TS_TK_LSHIFT_EQ, TS_TK_RSHIFT_EQ,
    TS_TK_AMP_EQ, TS_TK_PIPE_EQ, TS_TK_CARET_EQ,
    /* keywords */
    TS_TK_FALSE, TS_TK_NONE, TS_TK_TRUE, TS_TK_AND, TS_TK_AS, TS_TK_ASSERT, TS_TK_ASYNC,
    TS_TK_AWAIT, TS_TK_BREAK, TS_TK_CLASS, TS_TK_CONTINUE, TS_TK_DEF, TS_TK_DEL, TS_TK_ELIF,
    TS_TK_ELSE, TS_TK_EXCEPT, TS_TK_FINALLY, TS_TK_FOR, TS_TK_FROM, TS_TK_GLOBAL, TS_TK_IF,
    TS_TK_IMPORT, TS_TK_IN, TS_TK_IS, TS_TK_LAMBDA, TS_TK_NONLOCAL, TS_TK_NOT, TS_TK_OR,
    TS_TK_PASS, TS_TK_RAISE, TS_TK_RETURN, TS_TK_TRY, TS_TK_WHILE, TS_TK_WITH, TS_TK_YIELD,
    /* operators the parser makes, never the lexer */
    TS_TK_NOT_IN,       /* not in */
    TS_TK_IS_NOT,       /* is not */
    TS_TK_NEG,          /* unary - */
    TS_TK_POS,          /* unary + */
    TS_TK__COUNT
} TsTokenKind;

/* Flags of a string token (its prefix). */
enum {
    TS_STR_RAW = 1,
    TS_STR_BYTES = 2,
    TS_STR_FORMAT = 4,     /* f-string */
    TS_STR_TRIPLE = 8
};

typedef struct TsToken {
    int kind;                  /* a TsTokenKind or a character */
    size_t start, end;         /* byte range in the source */
    int64_t ival;              /* TS_TK_INT; 0 when it overflowed (see int_overflow) */
    double fval;               /* TS_TK_FLOAT, TS_TK_IMAG */
    int int_overflow;          /* TS_TK_INT did not fit in 64 bits */
    int str_flags;             /* TS_TK_STRING: TS_STR_* */
    size_t body_start, body_end; /* TS_TK_STRING: between the quotes;
                                    TS_TK_TYPE_COMMENT: the text after "type:" */
} TsToken;

enum { TS_LEX_MAX_INDENT = 100 };   /* indentation levels, as Python's tokenizer */

typedef struct TsLexer {
    TsSource *source;          /* borrowed */
    size_t pos, end;           /* next byte to read; end of the region to lex */
    int paren_depth;           /* open brackets: no NEWLINE/INDENT/DEDENT inside */
    int at_line_start;         /* the next token begins a logical line */
    int line_has_tokens;       /* a token was produced since the last NEWLINE */
    int pending_dedents;
    int pending_indent;
    int n_indent;
    int indent[TS_LEX_MAX_INDENT + 1];     /* columns, tabs to multiples of 8 */
    int indent_alt[TS_LEX_MAX_INDENT + 1]; /* columns, tabs as 1: checks tab consistency */
    int done;                  /* EOF was returned */
    int checked;               /* the region was found free of NUL bytes and bad UTF-8 */
    int bracket_stack[256];    /* open bracket characters, for matching */
    size_t bracket_pos[256];
} TsLexer;

/* Lexes the whole source as a module. */
void ts_lexer_init(TsLexer *lx, TsSource *source);
/* Lexes source[start, end) as if it were inside brackets (one expression, no NEWLINEs):
 * used for the expressions inside f-strings, so their ranges point into the file. */
void ts_lexer_init_expr(TsLexer *lx, TsSource *source, size_t start, size_t end);
/* The next token; on bad input sets err (with an excerpt) and returns its code. */
int ts_lex_next(TsLexer *lx, TsToken *tok, TsError *err);

/* Decodes a string body source[start, end) with the given TS_STR_* flags into a malloc'd
 * buffer (NUL-terminated; *len excludes the NUL). For f-string literal parts pass
 * TS_STR_FORMAT: "{{" and "}}" become single braces. */
int ts_lex_decode_string(TsSource *source, size_t start, size_t end, int flags,
                         char **out, size_t *len, TsError *err);

/* A printable name for a token kind: "'+'", "'**'", "identifier", "newline", "'def'". */
const char *ts_token_kind_name(int kind);
/* The operator spelling ("+", "not in", "**=") or keyword text; NULL for other kinds. */
const char *ts_token_text(int kind);

#endif
