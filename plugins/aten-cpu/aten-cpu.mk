# plugins/aten-cpu/aten-cpu.mk — the aten-cpu plugin (PyTorch's tensor operators on the CPU,
# OpenBLAS for the matrix products), the schema sets it ships (and torch.nn.functional as
# TorchScript source), and its tests; included by the top Makefile.am. The plugin sees only
# the public headers.
pkglib_LTLIBRARIES += plugins/aten-cpu/aten-cpu.la
plugins_aten_cpu_aten_cpu_la_SOURCES = plugins/aten-cpu/engine/cpu.c plugins/aten-cpu/engine/cpu.h \
	plugins/aten-cpu/engine/block_cache.c plugins/aten-cpu/engine/block_cache.h \
	plugins/aten-cpu/engine/fill.c plugins/aten-cpu/create/factory.c \
	plugins/aten-cpu/pointwise/binary.c plugins/aten-cpu/engine/elementwise.c \
	plugins/aten-cpu/engine/elementwise.h plugins/aten-cpu/engine/convert.c \
	plugins/aten-cpu/pointwise/unary.c plugins/aten-cpu/pointwise/select.c \
	plugins/aten-cpu/linalg/linalg.c plugins/aten-cpu/engine/format.c plugins/aten-cpu/engine/format.h \
	plugins/aten-cpu/nn/nn.h plugins/aten-cpu/nn/nn.c plugins/aten-cpu/linalg/blas.c \
	plugins/aten-cpu/linalg/openblas.c plugins/aten-cpu/linalg/openblas.h \
	plugins/aten-cpu/linalg/blas_core.c plugins/aten-cpu/linalg/blas_core.h plugins/aten-cpu/nn/conv.c \
	plugins/aten-cpu/nn/pool.c plugins/aten-cpu/nn/norm.c plugins/aten-cpu/nn/moments.c plugins/aten-cpu/nn/activation.c \
	plugins/aten-cpu/nn/resample.c plugins/aten-cpu/nn/loss.c plugins/aten-cpu/nn/loss_pointwise.c \
	plugins/aten-cpu/nn/rnn.c plugins/aten-cpu/nn/pool.h plugins/aten-cpu/nn/pool_adaptive.c \
	plugins/aten-cpu/nn/nn_extra.c plugins/aten-cpu/nn/fold.c plugins/aten-cpu/nn/nn_out.h \
	plugins/aten-cpu/nn/nn_out.c \
	plugins/aten-cpu/shape/shape_ops.c plugins/aten-cpu/shape/shape_ops.h plugins/aten-cpu/shape/copy.c \
	\
	plugins/aten-cpu/shape/join.c plugins/aten-cpu/shape/index.c plugins/aten-cpu/create/create.c \
	plugins/aten-cpu/reduce/reduce.h plugins/aten-cpu/reduce/reduce_iter.c plugins/aten-cpu/reduce/reduce.c \
	plugins/aten-cpu/reduce/cascade.c \
	plugins/aten-cpu/reduce/scan.c plugins/aten-cpu/reduce/sort.c plugins/aten-cpu/shape/query.c \
	plugins/aten-cpu/shape/tensor_lists.c \
	plugins/aten-cpu/pointwise/close.c plugins/aten-cpu/pointwise/ternary.c
plugins_aten_cpu_aten_cpu_la_CPPFLAGS = $(PLUGIN_CPPFLAGS) -I$(top_srcdir)/plugins/aten-cpu \
	-I$(top_srcdir)/plugins/aten-common
plugins_aten_cpu_aten_cpu_la_CFLAGS = $(AM_CFLAGS) $(OPENBLAS_CFLAGS)
plugins_aten_cpu_aten_cpu_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_aten_cpu_aten_cpu_la_LIBADD = plugins/aten-common/libtscript_aten.la libtscript.la -lm

dist_pkgschema_DATA += schemas/aten.yaml schemas/aten_nn.yaml schemas/aten_shape.yaml \
	schemas/aten_reduce.yaml schemas/aten_tensor.yaml schemas/aten_layers.yaml \
	schemas/torch.nn.functional.py schemas/torch.functional.py schemas/torch.nn.init.py

# The kernels called directly (t/kernel.h): elementwise, queries, reductions, printing, nn,
# shapes, the thread pool under them, OpenBLAS, and the vector math (vmath.h) alone.
check_PROGRAMS += t/cpu.t t/cpu_ew.t t/cpu_query.t t/cpu_reduce.t t/cpu_print.t t/cpu_nn.t \
	t/cpu_shape.t t/cpu_parallel.t t/openblas.t t/vmath.t t/block_cache.t
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
# The allocator's cache of large blocks (block_cache.c), compiled into the test alone.
t_block_cache_t_SOURCES = t/block_cache.c t/tap.h plugins/aten-cpu/engine/block_cache.c \
	plugins/aten-cpu/engine/block_cache.h
t_block_cache_t_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/plugins/aten-cpu

# Indexed writes (scatter.c), ops composed from other kernels
# (compose.c), repeats and products (interleave.c), strided copies (strided.c), binning
# (bucket.c), running extremes (cumext.c), unique (unique.c), order statistics (order.c).
plugins_aten_cpu_aten_cpu_la_SOURCES += \
	plugins/aten-cpu/reduce/bucket.c \
	plugins/aten-cpu/engine/call.c \
	plugins/aten-cpu/shape/compose.c \
	plugins/aten-cpu/shape/compose_more.c \
	plugins/aten-cpu/shape/compose_stats.c \
	plugins/aten-cpu/reduce/quantile.c \
	plugins/aten-cpu/create/arrangements.c \
	plugins/aten-cpu/shape/view_copies.c \
	plugins/aten-cpu/reduce/histogram.c \
	plugins/aten-cpu/reduce/cumext.c \
	plugins/aten-cpu/shape/interleave.c \
	plugins/aten-cpu/reduce/order.c \
	plugins/aten-cpu/shape/scatter.c \
	plugins/aten-cpu/shape/scatter_elem.c \
	plugins/aten-cpu/shape/scatter_elem.h \
	plugins/aten-cpu/shape/strided.c \
	plugins/aten-cpu/reduce/unique.c

# The ops under TorchScript, results and errors as PyTorch gives them (t/cases.sh runs a file).
TESTS += t/scatter_cases.sh t/arrange_cases.sh t/memory_format_cases.sh t/compose_cases.sh t/compose_more_cases.sh t/compose_stats_cases.sh t/view_copies_cases.sh t/interleave_cases.sh \
	t/bucket_cases.sh t/unique_cases.sh t/mixed_dtype_cases.sh
EXTRA_DIST += t/cases.sh t/casedriver.py t/scatter_cases.sh t/scatter_cases.py t/arrange_cases.sh \
	t/memory_format_cases.sh t/memory_format_cases.py \
	t/arrange_cases.py t/compose_cases.sh t/compose_cases.py t/compose_more_cases.sh t/compose_more_cases.py \
	t/compose_stats_cases.sh t/compose_stats_cases.py t/view_copies_cases.sh t/view_copies_cases.py \
	t/interleave_cases.sh \
	t/interleave_cases.py t/bucket_cases.sh t/bucket_cases.py t/unique_cases.sh \
	t/unique_cases.py t/mixed_dtype_cases.sh t/mixed_dtype_cases.py

# Ops derived from others: in-place forms, other names, composites (derived.c); isin
# (isin.c), the signal windows (window.c), writes through views and put (scatter_views.c),
# resize_ (resize.c); the third
# sweep's ops under TorchScript (t/aten_sweep3_cases.py).
plugins_aten_cpu_aten_cpu_la_SOURCES += plugins/aten-cpu/shape/derived.c \
	plugins/aten-cpu/pointwise/isin.c plugins/aten-cpu/create/window.c \
	plugins/aten-cpu/shape/scatter_views.c plugins/aten-cpu/shape/resize.c
TESTS += t/aten_sweep3_cases.sh
EXTRA_DIST += t/aten_sweep3_cases.sh t/aten_sweep3_cases.py

# torch.nn.functional's and the tensor ops' errors in PyTorch's words (t/nn_errors_cases.py).
TESTS += t/nn_errors_cases.sh
EXTRA_DIST += t/nn_errors_cases.sh t/nn_errors_cases.py

# Factories' values to the bit (linspace, logspace) and -0.0 literals (t/factory_bits_cases.py).
TESTS += t/factory_bits_cases.sh
EXTRA_DIST += t/factory_bits_cases.sh t/factory_bits_cases.py

# The TorchScript cases of the pointwise ops (t/aten_sweep_cases.py) and of the second
# sweep's finds (t/aten_sweep2_cases.py), run by `tscript test`.
TESTS += t/aten_sweep_cases.sh t/aten_sweep2_cases.sh
EXTRA_DIST += t/aten_sweep_cases.sh t/aten_sweep_cases.py
EXTRA_DIST += t/aten_sweep2_cases.sh t/aten_sweep2_cases.py

# The fourth tensor sweep (t/tensor_sweep4_cases.py): printing, the random ops against
# PyTorch's seeded numbers, indexing and dtype promotion.
TESTS += t/tensor_sweep4_cases.sh
EXTRA_DIST += t/tensor_sweep4_cases.sh t/tensor_sweep4_cases.py

# The TorchScript cases of the nn operators (activation.c, pool.c, pool_adaptive.c, norm.c,
# nn_extra.c, fold.c).
TESTS += t/nn_ops_cases.sh
EXTRA_DIST += t/nn_ops_cases.sh t/nn_ops_cases.py

# The normalization kernels against PyTorch 1.13's results on badly conditioned data
# (norm.c, moments.c; aten-dnnl's norm.c in inference).
TESTS += t/norm_numerics_cases.sh
EXTRA_DIST += t/norm_numerics_cases.sh t/norm_numerics_cases.py

# What real models (t/models.sh) needed, checked without them: in-place dim views, float's
# resize weights, torch.tensor of a number, a shape's unpacked dims under the optimizer.
TESTS += t/models_ops_cases.sh
EXTRA_DIST += t/models_ops_cases.sh t/models_ops_cases.py

# bfloat16 and float16 (the engine's staging, the casts, the widened GEMMs and convolutions)
# against PyTorch 1.13 itself, op by op and on whole bfloat16 models without aten-dnnl.
TESTS += t/half_ops.sh
EXTRA_DIST += t/half_ops.sh t/half_ops.py

# The layers and ops real models call beyond aten_nn.yaml (schemas/aten_layers.yaml) and
# their TorchScript cases; t/models/opcheck.py lists the operators the models need
# (t/models/check_models.py runs them against PyTorch); both need python3-torch.
#   conv.h, conv_transpose.c   convolutions of every rank, transposed and generic (conv.c)
#   rnn_layers.c               multi-layer lstm/gru/rnn_tanh/rnn_relu, padded and packed
#   packed.c                   packed sequences (_pack_padded_sequence, _pad_packed_sequence),
#                              pad_sequence
#   embedding_bag.c            nn.EmbeddingBag
#   attention.c, nested.[ch]   the MultiheadAttention/TransformerEncoder fast paths
#   einsum.c, grid_sample.c    einsum; grid_sampler and affine grids
#   stl_order.h                libstdc++'s sort/partial_sort/nth_element, for sort.c's ties
#   random.[ch]                the generator dropout, bernoulli_, uniform_ and randperm share
plugins_aten_cpu_aten_cpu_la_SOURCES += \
	plugins/aten-cpu/nn/attention.c \
	plugins/aten-cpu/nn/conv.h \
	plugins/aten-cpu/nn/conv_transpose.c \
	plugins/aten-cpu/linalg/einsum.c \
	plugins/aten-cpu/nn/embedding_bag.c \
	plugins/aten-cpu/nn/grid_sample.c \
	plugins/aten-cpu/nn/nested.c \
	plugins/aten-cpu/nn/nested.h \
	plugins/aten-cpu/create/random.c \
	plugins/aten-cpu/create/random.h \
	plugins/aten-cpu/create/factory.h \
	plugins/aten-cpu/nn/rnn_layers.c \
	plugins/aten-cpu/nn/packed.c \
	plugins/aten-cpu/engine/stl_order.h

# The ops under TorchScript, checked against the same results computed another way, and
# their errors in PyTorch's words (t/cases.sh runs a file).
LAYERS_CASES = t/conv_cases.sh t/env_cases.sh t/rnn_layers_cases.sh t/embedding_bag_cases.sh \
	t/attention_cases.sh t/random_cases.sh t/antialias_cases.sh t/einsum_cases.sh \
	t/grid_sample_cases.sh t/nested_cases.sh t/to_tensor_cases.sh t/ties_cases.sh \
	t/overlap_cases.sh
TESTS += $(LAYERS_CASES)
EXTRA_DIST += $(LAYERS_CASES) $(LAYERS_CASES:.sh=.py) \
	t/models/opcheck.py

# Seeded programs draw PyTorch's own numbers (t/data/random: PyTorch 1.13's output).
TESTS += t/random_print.sh
EXTRA_DIST += t/random_print.sh

# torch.nn's modules in the configurations real models use, saved by PyTorch and run to its
# results (needs python3-torch; reuses t/models/check_models.py's comparison).
TESTS += t/nn_modules_sweep.sh
EXTRA_DIST += t/nn_modules_sweep.sh t/nn_modules_sweep.py

# The torch.* and F.* functions PyTorch writes in Python, shipped as TorchScript
# (schemas/torch.functional.py, schemas/torch.nn.functional.py), against PyTorch's results.
TESTS += t/norm_cases.sh t/interpolate_cases.sh
EXTRA_DIST += t/norm_cases.sh t/norm_cases.py t/interpolate_cases.sh t/interpolate_cases.py

# The choice of OpenBLAS's core type (linalg/blas_core.c), compiled into the test alone;
# the core type chosen, forced and reported (`tscript info --backend`), with a fake OpenBLAS
# (t/plugins/fakeblas.c) for a build that lacks one.
check_PROGRAMS += t/blas_core.t
t_blas_core_t_SOURCES = t/blas_core.c t/tap.h plugins/aten-cpu/linalg/blas_core.c
t_blas_core_t_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/plugins/aten-cpu
t_blas_core_t_LDADD =
TESTS += t/openblas_core.sh
EXTRA_DIST += t/openblas_core.sh

# torch.linalg on the LAPACK of the OpenBLAS already loaded (linalg/lapack.[ch]: decomp.c for
# the LU and Cholesky family, spectral.c for QR, SVD, eigh, lstsq, pinv and rank,
# linalg_extra.c for norms, cond, powers, exp, multi_dot, cross) and torch.special
# (pointwise/special.c, special_math.c, bessel.c), with their TorchScript cases.
plugins_aten_cpu_aten_cpu_la_SOURCES += \
	plugins/aten-cpu/linalg/lapack.c \
	plugins/aten-cpu/linalg/lapack.h \
	plugins/aten-cpu/linalg/decomp.c \
	plugins/aten-cpu/linalg/spectral.c \
	plugins/aten-cpu/linalg/linalg_extra.c \
	plugins/aten-cpu/pointwise/special.c \
	plugins/aten-cpu/pointwise/special_math.c \
	plugins/aten-cpu/pointwise/bessel.c \
	plugins/aten-cpu/pointwise/special_math.h
dist_pkgschema_DATA += schemas/aten_linalg.yaml schemas/aten_special.yaml
TESTS += t/linalg_cases.sh t/special_cases.sh
EXTRA_DIST += t/linalg_cases.sh t/linalg_cases.py t/special_cases.sh t/special_cases.py

# The losses, distances and contractions of schemas/aten_loss.yaml: composites as chains of
# kernel calls (engine/chain.[ch]: loss_more.c, distance.c's _euclidean_dist, tensordot.c),
# the per-sample margin losses, ctc, pdist/cdist, max unpooling, channel shuffle, bilinear;
# their TorchScript cases (t/loss_cases.py, with the F.* functions of torch.nn.functional.py).
plugins_aten_cpu_aten_cpu_la_SOURCES += \
	plugins/aten-cpu/engine/chain.c \
	plugins/aten-cpu/engine/chain.h \
	plugins/aten-cpu/nn/ctc.c \
	plugins/aten-cpu/nn/distance.c \
	plugins/aten-cpu/nn/loss_more.c \
	plugins/aten-cpu/nn/unpool.c \
	plugins/aten-cpu/linalg/tensordot.c
dist_pkgschema_DATA += schemas/aten_loss.yaml
TESTS += t/loss_cases.sh
EXTRA_DIST += t/loss_cases.sh t/loss_cases.py

# The second overloads of operators declared elsewhere (schemas/aten_overloads.yaml): the
# named-tensor and Generator? forms, frexp/ldexp of tensors, fill_.Tensor, round_.decimals;
# their TorchScript cases (t/overloads_cases.py).
plugins_aten_cpu_aten_cpu_la_SOURCES += plugins/aten-cpu/shape/overloads.c
dist_pkgschema_DATA += schemas/aten_overloads.yaml
TESTS += t/overloads_cases.sh
EXTRA_DIST += t/overloads_cases.sh t/overloads_cases.py

# The out= forms of schemas/aten_out.yaml: one adaptor that runs each one's functional
# kernel and delivers into the out tensors by PyTorch's rule for that op (out_variants.c);
# t/out_variants_cases.py checks them against PyTorch, t/out_variants.sh that each has a kernel.
plugins_aten_cpu_aten_cpu_la_SOURCES += \
	plugins/aten-cpu/engine/out_variants.c \
	plugins/aten-cpu/engine/out_variants.h
dist_pkgschema_DATA += schemas/aten_out.yaml
TESTS += t/out_variants_cases.sh t/out_variants.sh
EXTRA_DIST += t/out_variants_cases.sh t/out_variants_cases.py t/out_variants.sh
