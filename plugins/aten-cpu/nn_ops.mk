# plugins/aten-cpu/nn_ops.mk — the TorchScript cases of aten-cpu's nn operators (activation.c,
# pool.c, pool_adaptive.c, norm.c, nn_extra.c, fold.c); included by the top Makefile.am.
TESTS += t/nn_ops_cases.sh
t/nn_ops_cases.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES) t/cases.sh
EXTRA_DIST += t/nn_ops_cases.sh t/nn_ops_cases.py
