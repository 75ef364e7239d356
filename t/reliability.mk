# reliability.mk — the regression tests of issue 16's reliability review: TorchScript cases
# (t/reliability_cases.py, also checked under PyTorch; t/reliability_ts_cases.py, where
# PyTorch's own arithmetic overflows), the command-line ones (t/reliability.sh), and the
# thread-safety test (t/threads.t: clean under --enable-tsan). Included from Makefile.am.
TESTS += t/reliability_cases.sh t/reliability_ts_cases.sh t/reliability.sh
t/reliability_cases.log t/reliability_ts_cases.log t/reliability.log: tscript$(EXEEXT) \
	$(pkglib_LTLIBRARIES)
EXTRA_DIST += t/reliability.mk t/reliability_cases.sh t/reliability_cases.py \
	t/reliability_ts_cases.sh t/reliability_ts_cases.py t/reliability.sh

check_PROGRAMS += t/threads.t
t_threads_t_SOURCES = t/threads.c t/tap.h
t_threads_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_threads_t_LDADD = $(TEST_LDADD)
t_threads_t_LDFLAGS = -no-install
EXTRA_t_threads_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/data/threads/threads.py
