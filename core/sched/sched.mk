# core/sched/sched.mk — running programs: Code (linearization), the interpreter, the thread
# pool for fork/wait, and compiled functions; included by the top Makefile.am.
libtscript_core_la_SOURCES += \
	core/function.c \
	core/function.h \
	core/sched/callback.c \
	core/sched/code.c \
	core/sched/code.h \
	core/sched/dispatch.c \
	core/sched/dispatch.h \
	core/sched/interp.c \
	core/sched/interp.h \
	core/sched/optimize.c \
	core/sched/parallel.c \
	core/sched/parallel.h \
	core/sched/threadpool.c \
	core/sched/threadpool.h

check_PROGRAMS += t/interp.t
t_interp_t_SOURCES = t/interp.c t/tap.h
t_interp_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_interp_t_LDADD = $(TEST_LDADD)
t_interp_t_LDFLAGS = -no-install
EXTRA_t_interp_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)

check_PROGRAMS += t/callback.t
t_callback_t_SOURCES = t/callback.c t/tap.h
t_callback_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_callback_t_LDADD = $(TEST_LDADD)
t_callback_t_LDFLAGS = -no-install
EXTRA_t_callback_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)

check_PROGRAMS += t/parallel.t
t_parallel_t_SOURCES = t/parallel.c t/tap.h
t_parallel_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_parallel_t_LDADD = $(TEST_LDADD)
t_parallel_t_LDFLAGS = -no-install
EXTRA_t_parallel_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)

# Not a test: the interpreter loop benchmark (make bench/interp_loop).
EXTRA_PROGRAMS = bench/interp_loop
bench_interp_loop_SOURCES = bench/interp_loop.c
bench_interp_loop_CPPFLAGS = $(TEST_CPPFLAGS)
bench_interp_loop_LDADD = $(TEST_LDADD)
bench_interp_loop_LDFLAGS = -no-install
