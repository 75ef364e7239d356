# plugins/aten-common/aten-common.mk — libtscript_aten: the device-independent half of an aten
# backend (include/tscript/aten.h), a static library every aten backend links: the arguments bound
# by the schema, type promotion, broadcasting, dim wrapping, the out= rule, memory formats, scalars, half floats,
# the tensor printer, matmul's plan, the reductions' arguments, the norms' checks, cat's and stack's
# shapes, the random ops' draws and checks, linspace's values, and the metadata-only kernels every backend
# registers (views and size queries: backend.c and the files views.h lists).
# Installed with its header for vendors' backends; compiled as position-independent code with hidden
# symbols, since it ends up inside plugins (each plugin keeps its own copy to itself, the
# backend hooks too).
lib_LTLIBRARIES += plugins/aten-common/libtscript_aten.la
plugins_aten_common_libtscript_aten_la_SOURCES = plugins/aten-common/args.c \
	plugins/aten-common/format.c plugins/aten-common/half.c plugins/aten-common/promote.c \
	plugins/aten-common/scalar.c plugins/aten-common/shape.c plugins/aten-common/to.c \
	plugins/aten-common/backend.c plugins/aten-common/view.c plugins/aten-common/views.h \
	plugins/aten-common/meta.c plugins/aten-common/reshape.c plugins/aten-common/slice.c \
	plugins/aten-common/dims.c plugins/aten-common/expand.c plugins/aten-common/matrix_views.c \
	plugins/aten-common/matmul.c plugins/aten-common/conv_check.c \
	plugins/aten-common/reduce_args.c plugins/aten-common/norm_check.c \
	plugins/aten-common/join_check.c plugins/aten-common/index_check.c \
	plugins/aten-common/pool_check.c plugins/aten-common/random.c \
	plugins/aten-common/linspace.c plugins/aten-common/memory_format.c
plugins_aten_common_libtscript_aten_la_CPPFLAGS = $(PLUGIN_CPPFLAGS)
plugins_aten_common_libtscript_aten_la_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
plugins_aten_common_libtscript_aten_la_LDFLAGS = -static
# float32 math written to vectorize (tanh), header-only: the CPU backends' kernels and the
# CPU fuser compute with the same code, so that fusing never changes a result
EXTRA_DIST += plugins/aten-common/vmath.h
# float16 and bfloat16 to and from float32 over runs, written to vectorize, header-only as
# vmath.h (t/vhalf.c checks them against half.c's one-element converters)
EXTRA_DIST += plugins/aten-common/vhalf.h
check_PROGRAMS += t/vhalf.t
t_vhalf_t_SOURCES = t/vhalf.c t/tap.h
t_vhalf_t_LDADD = plugins/aten-common/libtscript_aten.la -lm

# The library's API alone: binding, messages, endings, shapes, dtypes (t/aten_common.c).
check_PROGRAMS += t/aten_common.t
t_aten_common_t_SOURCES = t/aten_common.c t/kernel.h t/tap.h
t_aten_common_t_LDADD = plugins/aten-common/libtscript_aten.la $(LDADD)
EXTRA_t_aten_common_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
