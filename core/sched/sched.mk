# core/sched/sched.mk — running programs: Code (linearization), the interpreter, the thread
# pool for fork/wait, and compiled functions; included by the top Makefile.am.
libtscript_la_SOURCES += \
	core/function.c \
	core/function.h \
	core/sched/code.c \
	core/sched/code.h \
	core/sched/interp.c \
	core/sched/interp.h \
	core/sched/optimize.c \
	core/sched/threadpool.c \
	core/sched/threadpool.h

check_PROGRAMS += t/interp.t
t_interp_t_SOURCES = t/interp.c t/tap.h
t_interp_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_interp_t_LDADD = $(TEST_LDADD)
t_interp_t_LDFLAGS = -no-install
EXTRA_t_interp_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)

# Not a test: the interpreter loop benchmark (make bench/interp_loop).
EXTRA_PROGRAMS = bench/interp_loop
bench_interp_loop_SOURCES = bench/interp_loop.c
bench_interp_loop_CPPFLAGS = $(TEST_CPPFLAGS)
bench_interp_loop_LDADD = $(TEST_LDADD)
bench_interp_loop_LDFLAGS = -no-install
