# plugins/torchvision/torchvision.mk — the torchvision plugin (torchvision 0.14's custom
# operators), its schema set, its example config, and its tests; included by the top
# Makefile.am. The plugin sees only the public headers (-I include), as a vendor's would.
pkglib_LTLIBRARIES += plugins/torchvision/torchvision.la
plugins_torchvision_torchvision_la_SOURCES = plugins/torchvision/torchvision.c \
	plugins/torchvision/tv.h plugins/torchvision/instantiate.h plugins/torchvision/args.c \
	plugins/torchvision/nms.c plugins/torchvision/roi.h plugins/torchvision/roi.c \
	plugins/torchvision/bilinear.h \
	plugins/torchvision/roi_align.c plugins/torchvision/roi_align_t.h \
	plugins/torchvision/roi_pool.c plugins/torchvision/roi_pool_t.h \
	plugins/torchvision/deform_conv2d.c plugins/torchvision/deform_conv2d_t.h
plugins_torchvision_torchvision_la_CPPFLAGS = $(PLUGIN_CPPFLAGS)
plugins_torchvision_torchvision_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_torchvision_torchvision_la_LIBADD = libtscript.la -lm

dist_pkgschema_DATA += schemas/torchvision.yaml
torchvisiondir = $(pkgdatadir)/torchvision
dist_torchvision_DATA = plugins/torchvision/config.yaml plugins/torchvision/README.md

# The tests run the built program with the plugin: build both first, even under make -j.
TORCHVISION_TESTS = t/torchvision_cases.sh t/torchvision_defined.sh \
	t/torchvision_compare.sh t/torchvision_load.sh
TESTS += $(TORCHVISION_TESTS)
EXTRA_DIST += $(TORCHVISION_TESTS) t/torchvision_cases.py t/torchvision_defined.py \
	t/torchvision_compare.py
