# sweep.mk — aten-cpu's ops of three operands (ternary.c) and the TorchScript cases of its
# pointwise ops (t/aten_sweep_cases.py) and of the second sweep's finds (t/aten_sweep2_cases.py),
# run by `tscript test` through t/aten_sweep_cases.sh and t/aten_sweep2_cases.sh.
# Included from Makefile.am.
plugins_aten_cpu_aten_cpu_la_SOURCES += plugins/aten-cpu/ternary.c

TESTS += t/aten_sweep_cases.sh
t/aten_sweep_cases.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/aten_sweep_cases.sh t/aten_sweep_cases.py plugins/aten-cpu/sweep.mk

TESTS += t/aten_sweep2_cases.sh
t/aten_sweep2_cases.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/aten_sweep2_cases.sh t/aten_sweep2_cases.py
