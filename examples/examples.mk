# examples/examples.mk — the examples the README shows: TorchScript programs with the output
# PyTorch printed, a model saved by PyTorch with its input, and the vendor plugin
# (examples/plugins/vendor/README.md), built with everything and never installed; t/examples.sh
# runs them all. The embedding examples (examples/embed/) are core/api/api.mk's.
noinst_LTLIBRARIES += examples/plugins/vendor/acme.la
examples_plugins_vendor_acme_la_SOURCES = examples/plugins/vendor/acme.c
examples_plugins_vendor_acme_la_CPPFLAGS = $(PLUGIN_CPPFLAGS)
examples_plugins_vendor_acme_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS) -no-undefined \
	-export-symbols-regex '^tscript_plugin$$'
examples_plugins_vendor_acme_la_LIBADD = libtscript.la

TESTS += t/examples.sh
EXTRA_DIST += t/examples.sh examples/lstm.py examples/lstm.out examples/mlp.py \
	examples/mlp.out examples/attention.py examples/attention.out \
	examples/model/make_model.py examples/model/model.pt examples/model/input.npy \
	examples/model/model.out \
	examples/plugins/vendor/acme.yaml examples/plugins/vendor/config.yaml \
	examples/plugins/vendor/README.md
