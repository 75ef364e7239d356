# t/plugins/passdemo/passdemo.mk — the graph-pass test plugin (passdemo.c), built against the
# public headers only as a vendor's fuser is, and t/ir_pass.sh, which runs its passes through
# `tscript graph` and `tscript run`; included by the top Makefile.am. (t/ir_api.t, in
# core/api/api.mk, and t/ir_passes.t, in core/registry/registry.mk, load it too.)
check_LTLIBRARIES += t/plugins/passdemo/passdemo.la
t_plugins_passdemo_passdemo_la_SOURCES = t/plugins/passdemo/passdemo.c
t_plugins_passdemo_passdemo_la_CPPFLAGS = $(PLUGIN_CPPFLAGS)
t_plugins_passdemo_passdemo_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_passdemo_passdemo_la_LIBADD = libtscript.la -lm

TESTS += t/ir_pass.sh
EXTRA_DIST += t/plugins/passdemo/passdemo.mk t/ir_pass.sh t/data/ir_pass/prog.py
