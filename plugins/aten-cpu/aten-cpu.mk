# plugins/aten-cpu/aten-cpu.mk — the aten-cpu plugin (PyTorch's tensor operators on the CPU,
# OpenBLAS for the matrix products), the schema sets it ships (and torch.nn.functional as
# TorchScript source), and its tests; included by the top Makefile.am. The plugin sees only
# the public headers.
pkglib_LTLIBRARIES += plugins/aten-cpu/aten-cpu.la
plugins_aten_cpu_aten_cpu_la_SOURCES = plugins/aten-cpu/cpu.c plugins/aten-cpu/cpu.h \
	plugins/aten-cpu/args.c plugins/aten-cpu/scalar.c plugins/aten-cpu/factory.c \
	plugins/aten-cpu/shape.c plugins/aten-cpu/binary.c plugins/aten-cpu/elementwise.c \
	plugins/aten-cpu/elementwise.h plugins/aten-cpu/promote.c plugins/aten-cpu/convert.c \
	plugins/aten-cpu/unary.c plugins/aten-cpu/vmath.h plugins/aten-cpu/select.c plugins/aten-cpu/view.c \
	plugins/aten-cpu/linalg.c plugins/aten-cpu/format.c plugins/aten-cpu/format.h \
	plugins/aten-cpu/nn.h plugins/aten-cpu/nn.c plugins/aten-cpu/blas.c \
	plugins/aten-cpu/openblas.c plugins/aten-cpu/openblas.h plugins/aten-cpu/conv.c \
	plugins/aten-cpu/pool.c plugins/aten-cpu/norm.c plugins/aten-cpu/activation.c \
	plugins/aten-cpu/resample.c plugins/aten-cpu/loss.c plugins/aten-cpu/loss_pointwise.c \
	plugins/aten-cpu/rnn.c plugins/aten-cpu/pool.h plugins/aten-cpu/pool_adaptive.c \
	plugins/aten-cpu/nn_extra.c plugins/aten-cpu/fold.c plugins/aten-cpu/nn_out.h \
	plugins/aten-cpu/nn_out.c \
	plugins/aten-cpu/shape_ops.c plugins/aten-cpu/shape_ops.h plugins/aten-cpu/copy.c \
	plugins/aten-cpu/join.c plugins/aten-cpu/index.c plugins/aten-cpu/create.c \
	plugins/aten-cpu/reduce.h plugins/aten-cpu/reduce_iter.c plugins/aten-cpu/reduce.c \
	plugins/aten-cpu/scan.c plugins/aten-cpu/sort.c plugins/aten-cpu/query.c \
	plugins/aten-cpu/close.c plugins/aten-cpu/ternary.c
plugins_aten_cpu_aten_cpu_la_CPPFLAGS = $(PLUGIN_CPPFLAGS)
plugins_aten_cpu_aten_cpu_la_CFLAGS = $(AM_CFLAGS) $(OPENBLAS_CFLAGS)
plugins_aten_cpu_aten_cpu_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_aten_cpu_aten_cpu_la_LIBADD = libtscript.la -lm

dist_pkgschema_DATA += schemas/aten.yaml schemas/aten_nn.yaml schemas/aten_shape.yaml \
	schemas/aten_reduce.yaml schemas/aten_tensor.yaml schemas/aten_layers.yaml \
	schemas/torch.nn.functional.py

# The kernels called directly (t/kernel.h): elementwise, queries, reductions, printing, nn,
# shapes, the thread pool under them, OpenBLAS, and the vector math (vmath.h) alone.
check_PROGRAMS += t/cpu.t t/cpu_ew.t t/cpu_query.t t/cpu_reduce.t t/cpu_print.t t/cpu_nn.t \
	t/cpu_shape.t t/cpu_parallel.t t/openblas.t t/vmath.t
t_cpu_t_SOURCES = t/cpu.c t/kernel.h t/tap.h
EXTRA_t_cpu_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_cpu_ew_t_SOURCES = t/cpu_ew.c t/kernel.h t/tensor_util.h t/tap.h
EXTRA_t_cpu_ew_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_cpu_query_t_SOURCES = t/cpu_query.c t/kernel.h t/tensor_util.h t/tap.h
EXTRA_t_cpu_query_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_cpu_reduce_t_SOURCES = t/cpu_reduce.c t/kernel.h t/tap.h
EXTRA_t_cpu_reduce_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_cpu_print_t_SOURCES = t/cpu_print.c t/kernel.h t/tap.h
EXTRA_t_cpu_print_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_cpu_nn_t_SOURCES = t/cpu_nn.c t/kernel.h t/tap.h
EXTRA_t_cpu_nn_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_cpu_shape_t_SOURCES = t/cpu_shape.c t/kernel.h t/tensor_util.h t/tap.h
EXTRA_t_cpu_shape_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_cpu_parallel_t_SOURCES = t/cpu_parallel.c t/tap.h
EXTRA_t_cpu_parallel_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_openblas_t_SOURCES = t/openblas.c t/kernel.h t/tensor_util.h t/tap.h
EXTRA_t_openblas_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_vmath_t_SOURCES = t/vmath.c t/tap.h
t_vmath_t_LDADD = -lm

# Indexed writes (scatter.c), rearranging views (arrange.c), ops composed from other kernels
# (compose.c), repeats and products (interleave.c), explicit strides (strided.c), binning
# (bucket.c), running extremes (cumext.c), unique (unique.c), order statistics (order.c).
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
EXTRA_DIST += t/cases.sh t/casedriver.py t/scatter_cases.sh t/scatter_cases.py t/arrange_cases.sh \
	t/arrange_cases.py t/compose_cases.sh t/compose_cases.py t/interleave_cases.sh \
	t/interleave_cases.py t/bucket_cases.sh t/bucket_cases.py t/unique_cases.sh \
	t/unique_cases.py

# The TorchScript cases of the pointwise ops (t/aten_sweep_cases.py) and of the second
# sweep's finds (t/aten_sweep2_cases.py), run by `tscript test`.
TESTS += t/aten_sweep_cases.sh t/aten_sweep2_cases.sh
EXTRA_DIST += t/aten_sweep_cases.sh t/aten_sweep_cases.py
EXTRA_DIST += t/aten_sweep2_cases.sh t/aten_sweep2_cases.py

# The TorchScript cases of the nn operators (activation.c, pool.c, pool_adaptive.c, norm.c,
# nn_extra.c, fold.c).
TESTS += t/nn_ops_cases.sh
EXTRA_DIST += t/nn_ops_cases.sh t/nn_ops_cases.py

# The layers and ops real models call beyond aten_nn.yaml (schemas/aten_layers.yaml) and
# their TorchScript cases; t/models/opcheck.py lists the operators the models need
# (t/models/check_models.py runs them against PyTorch); both need python3-torch.
#   conv.h, conv_transpose.c   convolutions of every rank, transposed and generic (conv.c)
#   rnn_layers.c               multi-layer lstm/gru/rnn_tanh/rnn_relu, padded and packed
#   embedding_bag.c            nn.EmbeddingBag
#   attention.c, nested.[ch]   the MultiheadAttention/TransformerEncoder fast paths
#   einsum.c, grid_sample.c    einsum; grid_sampler and affine grids
#   stl_order.h                libstdc++'s sort/partial_sort/nth_element, for sort.c's ties
#   random.[ch]                the generator dropout, bernoulli_, uniform_ and randperm share
plugins_aten_cpu_aten_cpu_la_SOURCES += \
	plugins/aten-cpu/attention.c \
	plugins/aten-cpu/conv.h \
	plugins/aten-cpu/conv_transpose.c \
	plugins/aten-cpu/einsum.c \
	plugins/aten-cpu/embedding_bag.c \
	plugins/aten-cpu/grid_sample.c \
	plugins/aten-cpu/nested.c \
	plugins/aten-cpu/nested.h \
	plugins/aten-cpu/random.c \
	plugins/aten-cpu/random.h \
	plugins/aten-cpu/rnn_layers.c \
	plugins/aten-cpu/stl_order.h

# The ops under TorchScript, checked against the same results computed another way, and
# their errors in PyTorch's words (t/cases.sh runs a file).
LAYERS_CASES = t/conv_cases.sh t/env_cases.sh t/rnn_layers_cases.sh t/embedding_bag_cases.sh \
	t/attention_cases.sh t/random_cases.sh t/antialias_cases.sh t/einsum_cases.sh \
	t/grid_sample_cases.sh t/nested_cases.sh t/to_tensor_cases.sh t/ties_cases.sh \
	t/overlap_cases.sh
TESTS += $(LAYERS_CASES)
EXTRA_DIST += $(LAYERS_CASES) $(LAYERS_CASES:.sh=.py) \
	t/models/opcheck.py
