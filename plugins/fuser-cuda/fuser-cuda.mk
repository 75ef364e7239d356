# plugins/fuser-cuda/fuser-cuda.mk — the CUDA fuser (fuser.h): chains of pointwise
# operators on cuda tensors become prim::FusionGroup nodes, each one CUDA kernel generated as
# CUDA C and compiled with NVRTC. Plain C: it dlopens NVRTC and the driver on first use
# (neither is linked), and shares fuser-cpu's operator table and group making (group.h).
NVRTC_DEFS = -DTS_NVRTC_PATH='"$(CUDA_DIR)/lib64/libnvrtc.so.13"'
FUSER_CUDA_SOURCES = plugins/fuser-cuda/fuser.h plugins/fuser-cuda/fuse.c \
	plugins/fuser-cuda/codegen.c plugins/fuser-cuda/nvrtc.c plugins/fuser-cuda/cache.c \
	plugins/fuser-cuda/driver.c plugins/fuser-cpu/group.h plugins/fuser-cpu/group.c \
	plugins/fuser-cpu/ops.c
FUSER_CUDA_CPPFLAGS = -I$(top_srcdir)/plugins/fuser-cpu $(NVRTC_DEFS)

pkglib_LTLIBRARIES += plugins/fuser-cuda/fuser-cuda.la
plugins_fuser_cuda_fuser_cuda_la_SOURCES = plugins/fuser-cuda/fuser.c \
	plugins/fuser-cuda/launch.c $(FUSER_CUDA_SOURCES)
plugins_fuser_cuda_fuser_cuda_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) $(FUSER_CUDA_CPPFLAGS)
plugins_fuser_cuda_fuser_cuda_la_CFLAGS = $(AM_CFLAGS)
plugins_fuser_cuda_fuser_cuda_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_fuser_cuda_fuser_cuda_la_LIBADD = plugins/aten-common/libtscript_aten.la libtscript.la \
	-ldl -lpthread

# The pass and the code it generates, compiled to PTX, on any machine with the toolkit
# (t/fuser_cuda_codegen.c); the plugin in a config, on a machine without a device
# (t/fuser_cuda.sh); fused against unfused on a device (t/gpu/fuser_cuda.sh, skips here).
check_PROGRAMS += t/fuser_cuda_codegen.t
t_fuser_cuda_codegen_t_SOURCES = t/fuser_cuda_codegen.c t/tap.h $(FUSER_CUDA_SOURCES)
t_fuser_cuda_codegen_t_CPPFLAGS = $(AM_CPPFLAGS) $(PLUGIN_CPPFLAGS) $(FUSER_CUDA_CPPFLAGS)
t_fuser_cuda_codegen_t_LDADD = $(LDADD) -ldl -lpthread
TESTS += t/fuser_cuda.sh t/gpu/fuser_cuda.sh
EXTRA_DIST += t/fuser_cuda.sh t/gpu/fuser_cuda.sh
