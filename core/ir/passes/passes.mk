# core/ir/passes/passes.mk — the optimizer's passes (one file each) and the pipeline that
# orders them; their FileCheck tests are t/passes/*.py, run by t/passes.t. Included by the
# top Makefile.am.
libtscript_core_la_SOURCES += \
	core/ir/passes/passes.h \
	core/ir/passes/pipeline.c \
	core/ir/passes/dead_code.c \
	core/ir/passes/cse.c

check_PROGRAMS += t/passes.t
t_passes_t_SOURCES = t/passes.c t/tap.h
