# plugins/aten-cpu/shapeops.mk — aten-cpu's indexed writes (scatter.c), rearranging views
# (arrange.c), ops composed from other kernels (compose.c), repeats and products
# (interleave.c), explicit strides (strided.c), binning (bucket.c), running extremes
# (cumext.c), unique (unique.c), order statistics (order.c) and their tests; included by the
# top Makefile.am.
plugins_aten_cpu_aten_cpu_la_SOURCES += \
	plugins/aten-cpu/arrange.c \
	plugins/aten-cpu/bucket.c \
	plugins/aten-cpu/call.c \
	plugins/aten-cpu/compose.c \
	plugins/aten-cpu/cumext.c \
	plugins/aten-cpu/interleave.c \
	plugins/aten-cpu/order.c \
	plugins/aten-cpu/scatter.c \
	plugins/aten-cpu/scatter_elem.c \
	plugins/aten-cpu/scatter_elem.h \
	plugins/aten-cpu/strided.c \
	plugins/aten-cpu/unique.c

# The ops under TorchScript, results and errors as PyTorch gives them (t/cases.sh runs a file).
TESTS += t/scatter_cases.sh t/arrange_cases.sh t/compose_cases.sh t/interleave_cases.sh \
	t/bucket_cases.sh t/unique_cases.sh
t/scatter_cases.log t/arrange_cases.log t/compose_cases.log t/interleave_cases.log \
	t/bucket_cases.log t/unique_cases.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES) t/cases.sh
EXTRA_DIST += t/cases.sh t/casedriver.py t/scatter_cases.sh t/scatter_cases.py t/arrange_cases.sh \
	t/arrange_cases.py t/compose_cases.sh t/compose_cases.py t/interleave_cases.sh \
	t/interleave_cases.py t/bucket_cases.sh t/bucket_cases.py t/unique_cases.sh \
	t/unique_cases.py
