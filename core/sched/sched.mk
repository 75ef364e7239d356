# core/sched/sched.mk — running programs: the value stack kernels use, Code (linearization),
# dispatch to backends, the interpreter, the thread pool for fork/wait;
# included by the top Makefile.am. interp.c's run_loop is built without GCC's cross-jumping
# (an optimize attribute on the function, see interp.c: each op keeps its own dispatch).
libtscript_core_la_SOURCES += \
	core/sched/stack.c \
	core/sched/callback.c \
	core/sched/capture.c \
	core/sched/capture.h \
	core/sched/code.c \
	core/sched/code.h \
	core/sched/dispatch.c \
	core/sched/dispatch.h \
	core/sched/interp.c \
	core/sched/interp.h \
	core/sched/optimize.c \
	core/sched/parallel.c \
	core/sched/parallel.h \
	core/sched/run_node.c \
	core/sched/run_node.h \
	core/sched/spec.c \
	core/sched/spec.h \
	core/sched/threadpool.c \
	core/sched/threadpool.h

check_PROGRAMS += t/interp.t
t_interp_t_SOURCES = t/interp.c t/tap.h
EXTRA_t_interp_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)

check_PROGRAMS += t/callback.t
t_callback_t_SOURCES = t/callback.c t/tap.h
EXTRA_t_callback_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)

check_PROGRAMS += t/parallel.t
t_parallel_t_SOURCES = t/parallel.c t/tap.h
EXTRA_t_parallel_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)

# The plans specialized to the arguments' dtypes and ranks, and their refined types.
check_PROGRAMS += t/spec.t
t_spec_t_SOURCES = t/spec.c t/tap.h
EXTRA_t_spec_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
# `tscript graph --optimized FILE INPUT...`: the plan for those arguments.
TESTS += t/graph_spec.sh
EXTRA_DIST += t/graph_spec.sh t/data/spec/prog.py t/data/spec/matrix.npy

# capture regions (cuda_graphs): where the pass makes them, and that they change no result
TESTS += t/capture.sh t/gpu/capture.sh
EXTRA_DIST += t/capture.sh t/capture/cases.py t/gpu/capture.sh
