# core/frontend/frontend.mk — the frontend (source text, lexer, Trees, parser, emitter,
# resolver, the file level, archive import, the TorchScript library plugins ship) and its
# tests; included by the top Makefile.am.
libtscript_core_la_SOURCES += \
	core/frontend/source.c \
	core/frontend/source.h \
	core/frontend/lexer.c \
	core/frontend/lexer.h \
	core/frontend/ast.c \
	core/frontend/ast.h \
	core/frontend/parser.c \
	core/frontend/parser.h \
	core/frontend/emit.h \
	core/frontend/emit.c \
	core/frontend/emit_env.c \
	core/frontend/emit_expr.c \
	core/frontend/emit_types.c \
	core/frontend/emit_default.c \
	core/frontend/emit_ssa.c \
	core/frontend/exit_transform.c \
	core/frontend/sugared.c \
	core/frontend/library.c \
	core/frontend/inline.c \
	core/frontend/compile.c \
	core/frontend/import.c \
	core/frontend/compile.h

check_PROGRAMS += t/lexer.t t/parser.t t/emit.t t/library.t

t_lexer_t_SOURCES = t/lexer.c t/tap.h
t_parser_t_SOURCES = t/parser.c t/tap.h

t_emit_t_SOURCES = t/emit.c t/tap.h
t_library_t_SOURCES = t/library.c t/tap.h

# Every compile-error case of the conformance suite fails with its phrase; the rest compile.
TESTS += t/compile_cases.sh
EXTRA_DIST += t/compile_cases.sh t/compile.pass

# Language corners once different from PyTorch, run as TorchScript by `tscript test`.
TESTS += t/frontend_cases.sh
EXTRA_DIST += t/frontend_cases.sh t/frontend_cases.py

# Functions overloaded with @torch.jit._overload (compile.c, emit.c), run as TorchScript.
TESTS += t/overload_cases.sh
EXTRA_DIST += t/overload_cases.sh t/overload_cases.py

# More of them, from a sweep of variations on the conformance cases.
TESTS += t/lang_cases.sh t/lang_print.sh t/gradmode_cases.sh t/lang_sweep4_cases.sh
EXTRA_DIST += t/lang_cases.sh t/lang_cases.py t/lang_print.sh t/gradmode_cases.sh t/gradmode_cases.py \
	t/lang_sweep4_cases.sh t/lang_sweep4_cases.py

# A fifth sweep: builtins, expressions, types and aliasing against PyTorch 1.13.
TESTS += t/sweep5_cases.sh
EXTRA_DIST += t/sweep5_cases.sh t/sweep5_cases.py

# Wrong programs that must fail as PyTorch fails them (a sweep of variations on the
# conformance suite's errors/ cases).
TESTS += t/errors_sweep_cases.sh
EXTRA_DIST += t/errors_sweep_cases.sh t/errors_sweep_cases.py

# Script classes and modules, from a sweep of variations on the class and module cases: the
# modules are saved by PyTorch at test time (skipped without torch).
TESTS += t/modules_sweep_cases.sh t/modules_sweep.sh
EXTRA_DIST += t/modules_sweep_cases.sh t/modules_sweep_cases.py t/modules_sweep.sh t/modules_sweep
TESTS += t/class_sweep5_cases.sh t/modules_sweep5.sh
# class interfaces' method signatures (core/value/types.c checks them, compile.c records them)
TESTS += t/interface_cases.sh
EXTRA_DIST += t/interface_cases.sh t/interface_cases.py
EXTRA_DIST += t/class_sweep5_cases.sh t/class_sweep5_cases.py t/modules_sweep5.sh t/modules_sweep5

# The libFuzzer targets are not built by default: t/fuzz/build.sh builds them and
# t/fuzz/ci.sh runs them briefly (t/fuzz/README); what they found is in t/data/fuzz/,
# compiled by t/emit.t. The directory ships whole: targets, seeds, dictionary, record.
EXTRA_DIST += t/fuzz
