# core/frontend.mk — the frontend's first half (lexer, Trees, parser) and its tests;
# included by the top Makefile.am.
libtscript_la_SOURCES += \
	core/lexer.c \
	core/lexer.h \
	core/ast.c \
	core/ast.h \
	core/parser.c \
	core/parser.h

check_PROGRAMS += t/lexer.t t/parser.t

t_lexer_t_SOURCES = t/lexer.c t/tap.h
t_lexer_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_lexer_t_LDADD = $(TEST_LDADD)
t_lexer_t_LDFLAGS = -no-install
t_parser_t_SOURCES = t/parser.c t/tap.h
t_parser_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_parser_t_LDADD = $(TEST_LDADD)
t_parser_t_LDFLAGS = -no-install

# The libFuzzer target is not built by default; see the comment in t/fuzz/parse_fuzz.c.
EXTRA_DIST += t/fuzz/parse_fuzz.c
