# reliability.mk — the regression tests of issue 16's reliability review: TorchScript cases
# (t/reliability_cases.py, also checked under PyTorch; t/reliability_ts_cases.py, where
# PyTorch's own arithmetic overflows) and the command-line ones (t/reliability.sh).
# Included from Makefile.am.
TESTS += t/reliability_cases.sh t/reliability_ts_cases.sh t/reliability.sh
t/reliability_cases.log t/reliability_ts_cases.log t/reliability.log: tscript$(EXEEXT) \
	$(pkglib_LTLIBRARIES)
EXTRA_DIST += t/reliability.mk t/reliability_cases.sh t/reliability_cases.py \
	t/reliability_ts_cases.sh t/reliability_ts_cases.py t/reliability.sh
