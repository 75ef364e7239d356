# core/ir/ir.mk — the IR (graphs, text, verifier, logging, FileCheck) and its tests;
# included by the top Makefile.am.
libtscript_core_la_SOURCES += \
	core/ir/ir.h \
	core/ir/graph_internal.h \
	core/ir/symbol.c \
	core/ir/value.c \
	core/ir/node.c \
	core/ir/attr.c \
	core/ir/graph.c \
	core/ir/callstack.c \
	core/ir/print.c \
	core/ir/parse.c \
	core/ir/match.h \
	core/ir/match.c \
	core/ir/alias.h \
	core/ir/alias.c

check_PROGRAMS += t/ir_graph.t t/ir_text.t t/ir_match.t t/alias.t
t_alias_t_SOURCES = t/alias.c t/tap.h
t_ir_match_t_SOURCES = t/ir_match.c t/tap.h
t_ir_graph_t_SOURCES = t/ir_graph.c t/tap.h
t_ir_text_t_SOURCES = t/ir_text.c t/tap.h


# Logging, the optimization limiter and the verifier; FileCheck is test-only code, in the
# test library (Makefile.am's libtscript_test.la), never in libtscript.
libtscript_core_la_SOURCES += \
	core/ir/log.c \
	core/ir/log.h \
	core/ir/lint.c
libtscript_test_la_SOURCES += \
	core/ir/filecheck.c \
	core/ir/filecheck.h

check_PROGRAMS += t/log.t t/filecheck.t t/ir_lint.t
t_ir_lint_t_SOURCES = t/ir_lint.c t/tap.h
t_log_t_SOURCES = t/log.c t/tap.h
t_filecheck_t_SOURCES = t/filecheck.c t/tap.h
