# plugins/aten-cpu/layers.mk — the layers and ops real models call beyond aten_nn.yaml, their
# schemas (schemas/aten_layers.yaml, schemas/prim_env.yaml) and their TorchScript cases;
# t/models/opcheck.py lists the operators the models need (t/models/check_models.py runs
# them against PyTorch); both need python3-torch. Included by the top Makefile.am.
#   conv.h, conv_transpose.c   convolutions of every rank, transposed and generic (conv.c)
#   rnn_layers.c               multi-layer lstm/gru/rnn_tanh/rnn_relu, padded and packed
#   embedding_bag.c            nn.EmbeddingBag
#   attention.c, nested.[ch]   the MultiheadAttention/TransformerEncoder fast paths
#   einsum.c, grid_sample.c    einsum; grid_sampler and affine grids
#   stl_order.h                libstdc++'s sort/partial_sort/nth_element, for sort.c's ties
#   random.[ch]                the generator dropout, bernoulli_, uniform_ and randperm share
#   plugins/prim/env.c         grad mode, autocast, warnings, a device's type
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

dist_pkgschema_DATA += schemas/aten_layers.yaml schemas/prim_env.yaml schemas/torch.nn.functional.py \
	schemas/torch.functional.py

# The prim plugin's questions to the runtime (grad mode, warnings, device type).
plugins_prim_prim_la_SOURCES += plugins/prim/env.c

# The ops under TorchScript, checked against the same results computed another way, and
# their errors in PyTorch's words (t/cases.sh runs a file).
LAYERS_CASES = t/conv_cases.sh t/env_cases.sh t/rnn_layers_cases.sh t/embedding_bag_cases.sh \
	t/attention_cases.sh t/random_cases.sh t/antialias_cases.sh t/einsum_cases.sh \
	t/grid_sample_cases.sh t/nested_cases.sh t/to_tensor_cases.sh t/ties_cases.sh \
	t/overlap_cases.sh
TESTS += $(LAYERS_CASES)
$(LAYERS_CASES:.sh=.log): tscript$(EXEEXT) $(pkglib_LTLIBRARIES) t/cases.sh
EXTRA_DIST += plugins/aten-cpu/layers.mk $(LAYERS_CASES) $(LAYERS_CASES:.sh=.py) \
	t/models/opcheck.py

# The torch.* and F.* functions PyTorch writes in Python, shipped as TorchScript
# (schemas/torch.functional.py, schemas/torch.nn.functional.py), against PyTorch's results.
TESTS += t/norm_cases.sh t/interpolate_cases.sh
t/norm_cases.log t/interpolate_cases.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES) t/cases.sh
EXTRA_DIST += t/norm_cases.sh t/norm_cases.py t/interpolate_cases.sh t/interpolate_cases.py
