# core/ir/passes/passes.mk — the optimizer's passes (one file each) and the pipeline that
# orders them; their FileCheck tests are t/passes/*.py, run by t/passes.t. Included by the
# top Makefile.am.
libtscript_core_la_SOURCES += \
	core/ir/passes/passes.h \
	core/ir/passes/pipeline.c \
	core/ir/passes/capture_regions.c \
	core/ir/passes/pure.c \
	core/ir/passes/pure.h \
	core/ir/passes/constant_prop.c \
	core/ir/passes/constant_pooling.c \
	core/ir/passes/peephole.c \
	core/ir/passes/peephole.h \
	core/ir/passes/peephole_shape.c \
	core/ir/passes/canonicalize.c \
	core/ir/passes/copyable.c \
	core/ir/passes/inline.c \
	core/ir/passes/loop_unroll.c \
	core/ir/passes/dead_code.c \
	core/ir/passes/cse.c \
	core/ir/passes/decompose_ops.c \
	core/ir/passes/shape.h \
	core/ir/passes/shape_prop.c \
	core/ir/passes/shape_rules.c \
	core/ir/passes/shape_views.c \
	core/ir/passes/shape_factory.c

check_PROGRAMS += t/passes.t
t_passes_t_SOURCES = t/passes.c t/tap.h

TESTS += t/constant_prop_run.sh
EXTRA_DIST += t/constant_prop_run.sh
# The inliner's tracebacks and the passes' limiter and logging, through the tscript program.
TESTS += t/opt_passes.sh
EXTRA_DIST += t/opt_passes.sh
