# plugins/aten-cuda/aten-cuda.mk — the aten-cuda plugin (PyTorch's tensor operators on NVIDIA
# GPUs), built where configure found the CUDA Toolkit (HAVE_CUDA): host code in C, the GPU
# kernels in CUDA C++ built by nvcc, the CUDA runtime linked in statically (configure.ac
# says why). Included by the top Makefile.am.
#
# nvcc is not a compiler libtool knows: the .cu files become libtool objects through
# nvcc-lt.sh (which passes the C compiler's options on with -Xcompiler) and join the plugin
# through LIBADD, outside automake's per-target object renaming.
ATEN_CUDA_CU = plugins/aten-cuda/pointwise/kernels.cu \
	plugins/aten-cuda/reduce/reduce_kernels.cu plugins/aten-cuda/nn/softmax_kernels.cu \
	plugins/aten-cuda/nn/norm_kernels.cu plugins/aten-cuda/shape/take_kernels.cu \
	plugins/aten-cuda/nn/im2col.cu plugins/aten-cuda/nn/pool_kernels.cu \
	plugins/aten-cuda/nn/embedding_kernels.cu plugins/aten-cuda/nn/cell_kernels.cu \
	plugins/aten-cuda/create/random_kernels.cu plugins/aten-cuda/engine/graph_kernels.cu
ATEN_CUDA_CU_OBJS = $(ATEN_CUDA_CU:.cu=.lo)
ATEN_CUDA_HDRS = plugins/aten-cuda/engine/cuda.h plugins/aten-cuda/engine/types.cuh \
	plugins/aten-cuda/engine/block.cuh plugins/aten-cuda/reduce/reduce.h plugins/aten-cuda/nn/norm.h \
	plugins/aten-cuda/shape/take.h plugins/aten-cuda/nn/nn.h plugins/aten-cuda/create/factory.h \
	plugins/aten-cuda/create/random.h plugins/aten-cuda/engine/graph.h
EXTRA_DIST += $(ATEN_CUDA_CU) plugins/aten-cuda/nvcc-lt.sh schemas/cuda.yaml \
	plugins/aten-cuda/nn/kernels.cuh
NVCCFLAGS = -std=c++17 -O3 --default-stream per-thread $(NVCC_ARCH) -diag-suppress 186,514 \
	-I$(top_srcdir)/include -I$(top_builddir) -I$(top_srcdir)/plugins/aten-cuda \
	-Xcompiler -fvisibility=hidden
SUFFIXES = .cu

.cu.lo:
	$(AM_V_CC)$(LIBTOOL) $(AM_V_lt) --tag=CC --mode=compile $(SHELL) \
	    $(top_srcdir)/plugins/aten-cuda/nvcc-lt.sh $(NVCC) $(NVCCFLAGS) -shared -c -o $@ $<

if HAVE_CUDA
pkglib_LTLIBRARIES += plugins/aten-cuda/aten-cuda.la
dist_pkgschema_DATA += schemas/cuda.yaml
plugins_aten_cuda_aten_cuda_la_SOURCES = $(ATEN_CUDA_HDRS) \
	plugins/aten-cuda/engine/plugin.c plugins/aten-cuda/engine/device.c \
	plugins/aten-cuda/engine/alloc.c plugins/aten-cuda/engine/iter.c \
	plugins/aten-cuda/engine/copy.c plugins/aten-cuda/engine/format.c \
	plugins/aten-cuda/engine/graph.c \
	plugins/aten-cuda/create/factory.c plugins/aten-cuda/create/random.c \
	plugins/aten-cuda/pointwise/pointwise.c \
	plugins/aten-cuda/reduce/reduce.c plugins/aten-cuda/nn/softmax.c plugins/aten-cuda/nn/norm.c \
	plugins/aten-cuda/shape/join.c plugins/aten-cuda/shape/index.c \
	plugins/aten-cuda/linalg/gemm.h plugins/aten-cuda/linalg/cublas.c \
	plugins/aten-cuda/linalg/blas.c plugins/aten-cuda/nn/conv.c plugins/aten-cuda/nn/pool.c \
	plugins/aten-cuda/nn/embedding.c plugins/aten-cuda/nn/rnn_cell.c
plugins_aten_cuda_aten_cuda_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -I$(top_srcdir)/plugins/aten-cuda \
	$(CUDA_CFLAGS)
plugins_aten_cuda_aten_cuda_la_CFLAGS = $(AM_CFLAGS)
# Never unloaded (-z nodelete): the CUDA runtime inside registers its kernels and exit
# handlers with the process, which must not outlive the code (ThreadSanitizer's exit handlers
# did, and ran after the unload).
plugins_aten_cuda_aten_cuda_la_LDFLAGS = $(PLUGIN_LDFLAGS) -Wl,-z,nodelete
plugins_aten_cuda_aten_cuda_la_LIBADD = $(ATEN_CUDA_CU_OBJS) \
	plugins/aten-common/libtscript_aten.la libtscript.la $(CUDA_LIBS) -lstdc++ -lm
EXTRA_plugins_aten_cuda_aten_cuda_la_DEPENDENCIES = $(ATEN_CUDA_CU_OBJS)
# CUDA graphs (engine/graph.c) driven as the executor drives them; skipped without a device.
check_PROGRAMS += t/cuda_graph.t
t_cuda_graph_t_SOURCES = t/cuda_graph.c t/tap.h
t_cuda_graph_t_CPPFLAGS = -I$(top_srcdir)/include $(TEST_DEFS)
t_cuda_graph_t_LDADD = libtscript.la -lm
t_cuda_graph_t_LDFLAGS = -no-install
EXTRA_t_cuda_graph_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
$(ATEN_CUDA_CU_OBJS): $(ATEN_CUDA_HDRS) $(top_srcdir)/include/tscript/aten.h \
	$(top_srcdir)/include/tscript/random.h \
	$(top_srcdir)/plugins/aten-cuda/nn/kernels.cuh
endif

# The plugin on any machine (no device: "no CUDA device"), and on a GPU against the cpu;
# real models saved by PyTorch on a GPU against the cpu (skipped without one).
TESTS += t/aten_cuda.sh t/gpu/models.sh
EXTRA_DIST += t/aten_cuda.sh t/gpu/cuda_ops.py t/gpu/cuda_reduce.py t/gpu/cuda_linalg.py \
	t/gpu/check.sh t/gpu/bundle.sh t/gpu/models.sh t/gpu/make_models.py
