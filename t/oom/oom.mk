# oom.mk — the allocation-failure sweep: the interposer that fails the Nth allocation
# (t/oom/failalloc.c, a check-only shared object, preloaded), the make check sample of the
# sweep (t/oom.sh) and the full one run by hand (t/oom/sweep.sh, t/oom/README). Included
# from Makefile.am.
check_LTLIBRARIES += t/oom/failalloc.la
t_oom_failalloc_la_SOURCES = t/oom/failalloc.c
t_oom_failalloc_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_oom_failalloc_la_LIBADD = -ldl

TESTS += t/oom.sh
EXTRA_DIST += t/oom/oom.mk t/oom.sh t/oom/oom_lib.sh t/oom/cases.sh t/oom/sweep.sh \
	t/oom/where.sh t/oom/README t/oom/data/prog.py t/oom/data/acme.py
