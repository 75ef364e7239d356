# plugins/aten-dnnl/aten-dnnl.mk — the aten-dnnl plugin: aten-cpu's convolutions on oneDNN
# (dn.h), built where configure finds oneDNN 2.x (--with-dnnl; off with --without-dnnl), and
# its tests, which skip without it. Included by the top Makefile.am; the plugin sees only the
# public headers. It does not link oneDNN: lib.c opens it on the first convolution (linked,
# it cost every process's startup a third more); of aten-common it takes the header-only
# vector math (vmath.h) alone. It is linked with -z nodelete: oneDNN's OpenMP threads, its
# JIT code and the plugin's per-thread streams live in the libraries until the process
# ends, so they stay loaded once loaded (as aten-cpu keeps OpenBLAS).
if HAVE_DNNL
pkglib_LTLIBRARIES += plugins/aten-dnnl/aten-dnnl.la
plugins_aten_dnnl_aten_dnnl_la_SOURCES = plugins/aten-dnnl/dn.h plugins/aten-dnnl/dnnl.c \
	plugins/aten-dnnl/args.c plugins/aten-dnnl/engine.c plugins/aten-dnnl/prim.c \
	plugins/aten-dnnl/weight.c plugins/aten-dnnl/conv.c plugins/aten-dnnl/matmul.c \
	plugins/aten-dnnl/attention.c \
	plugins/aten-dnnl/pool.c plugins/aten-dnnl/norm.c plugins/aten-dnnl/fuse.c \
	plugins/aten-dnnl/lib.c
plugins_aten_dnnl_aten_dnnl_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) $(DNNL_CPPFLAGS) \
	-I$(top_srcdir)/plugins/aten-common
plugins_aten_dnnl_aten_dnnl_la_CFLAGS = $(AM_CFLAGS)
plugins_aten_dnnl_aten_dnnl_la_LDFLAGS = $(PLUGIN_LDFLAGS) -Wl,-z,nodelete
plugins_aten_dnnl_aten_dnnl_la_LIBADD = libtscript.la -lm
dist_pkgschema_DATA += schemas/dnnl.yaml
endif

# Its results against aten-cpu's and PyTorch's, the config switch (t/dnnl.sh says what), and
# in bfloat16 (t/dnnl_bf16.sh).
TESTS += t/dnnl.sh t/dnnl_bf16.sh
EXTRA_DIST += t/dnnl.sh t/dnnl/setup.sh t/dnnl/cases.py t/dnnl_bf16.sh t/dnnl/bf16_cases.py t/dnnl/attention_f32.py \
	t/dnnl/bf16cmp.py t/dnnl/bf16_model.py
