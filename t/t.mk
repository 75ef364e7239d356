# t/t.mk — the tests that belong to no one directory: the conformance suite against the
# built program (t/conformance.pass lists the cases that pass), output comparison with a
# tolerance (t/outcmp.py), and the regression tests of issue 16's reliability review —
# TorchScript cases (t/reliability_cases.py, also checked under PyTorch;
# t/reliability_ts_cases.py, where PyTorch's own arithmetic overflows), the command-line ones
# (t/reliability.sh), and the thread-safety test (t/threads.t: clean under --enable-tsan).
# Included by the top Makefile.am; the flags every test uses are set there.
TESTS += t/conformance.sh t/outcmp.sh t/opt_diff.sh t/mutation.sh
EXTRA_DIST += t/data t/conformance.pass t/conformance.sh t/outcmp.sh t/outcmp.py t/opt_diff.sh t/passes t/mutation.sh t/mutation

TESTS += t/reliability_cases.sh t/reliability_ts_cases.sh t/reliability.sh
EXTRA_DIST += t/reliability_cases.sh t/reliability_cases.py \
	t/reliability_ts_cases.sh t/reliability_ts_cases.py t/reliability.sh

check_PROGRAMS += t/threads.t
t_threads_t_SOURCES = t/threads.c t/tap.h
EXTRA_t_threads_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/data/threads/threads.py
