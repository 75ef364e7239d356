# plugins/fuser-cpu/fuser-cpu.mk — the CPU fuser (fuser.h): runs of pointwise float32
# operators become prim::FusionGroup nodes that run in one pass over memory. It links
# libtscript_aten (broadcasting) and shares aten-common's vector math (vmath.h) with aten-cpu,
# so that a fused tanh is aten-cpu's tanh.
pkglib_LTLIBRARIES += plugins/fuser-cpu/fuser-cpu.la
plugins_fuser_cpu_fuser_cpu_la_SOURCES = plugins/fuser-cpu/fuser.c plugins/fuser-cpu/fuser.h \
	plugins/fuser-cpu/group.h plugins/fuser-cpu/group.c \
	plugins/fuser-cpu/ops.c plugins/fuser-cpu/fuse.c plugins/fuser-cpu/program.c \
	plugins/fuser-cpu/run.c
plugins_fuser_cpu_fuser_cpu_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -I$(top_srcdir)/plugins/aten-common
plugins_fuser_cpu_fuser_cpu_la_CFLAGS = $(AM_CFLAGS)
plugins_fuser_cpu_fuser_cpu_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_fuser_cpu_fuser_cpu_la_LIBADD = plugins/aten-common/libtscript_aten.la libtscript.la -lm

# Fusion never changes a result; what is fused and what is not (t/fuser/cases.py).
TESTS += t/fuser_cpu.sh
EXTRA_DIST += t/fuser_cpu.sh t/fuser/cases.py t/fuser/tap.sh
