# core/frontend.mk — the frontend's first half (lexer, Trees, parser) and its tests;
# included by the top Makefile.am.
libtscript_core_la_SOURCES += \
	core/lexer.c \
	core/lexer.h \
	core/ast.c \
	core/ast.h \
	core/parser.c \
	core/parser.h \
	core/emit.h \
	core/emit.c \
	core/emit_env.c \
	core/emit_expr.c \
	core/emit_types.c \
	core/emit_default.c \
	core/emit_ssa.c \
	core/exit_transform.c \
	core/sugared.c \
	core/library.c \
	core/inline.c \
	core/compile.c \
	core/import.c \
	core/compile.h

check_PROGRAMS += t/lexer.t t/parser.t t/emit.t t/library.t

t_lexer_t_SOURCES = t/lexer.c t/tap.h
t_lexer_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_lexer_t_LDADD = $(TEST_LDADD)
t_lexer_t_LDFLAGS = -no-install
t_parser_t_SOURCES = t/parser.c t/tap.h
t_parser_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_parser_t_LDADD = $(TEST_LDADD)
t_parser_t_LDFLAGS = -no-install

t_emit_t_SOURCES = t/emit.c t/tap.h
t_emit_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_emit_t_LDADD = $(TEST_LDADD)
t_emit_t_LDFLAGS = -no-install
t_library_t_SOURCES = t/library.c t/tap.h
t_library_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_library_t_LDADD = $(TEST_LDADD)
t_library_t_LDFLAGS = -no-install

# Every compile-error case of the conformance suite fails with its phrase; the rest compile.
TESTS += t/compile_cases.sh
t/compile_cases.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/compile_cases.sh t/compile.pass

# Language corners once different from PyTorch, run as TorchScript by `tscript test`.
TESTS += t/frontend_cases.sh
t/frontend_cases.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/frontend_cases.sh t/frontend_cases.py

# Functions overloaded with @torch.jit._overload (compile.c, emit.c), run as TorchScript.
TESTS += t/overload_cases.sh
t/overload_cases.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/overload_cases.sh t/overload_cases.py

# More of them, from a sweep of variations on the conformance cases.
TESTS += t/lang_cases.sh t/lang_print.sh t/gradmode_cases.sh
t/lang_cases.log t/lang_print.log t/gradmode_cases.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/lang_cases.sh t/lang_cases.py t/lang_print.sh t/gradmode_cases.sh t/gradmode_cases.py

# The libFuzzer targets are not built by default: t/fuzz/build.sh builds them (see the
# comments in t/fuzz/*.c); what they found is in t/data/fuzz/, compiled by t/emit.t.
EXTRA_DIST += t/fuzz/parse_fuzz.c t/fuzz/emit_fuzz.c t/fuzz/build.sh t/fuzz/zip_fuzz.c \
	t/fuzz/unpickle_fuzz.c t/fuzz/npy_fuzz.c t/fuzz/pt_fuzz.c t/fuzz/pickle.dict
