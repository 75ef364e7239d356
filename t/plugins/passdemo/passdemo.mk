# t/plugins/passdemo/passdemo.mk — the graph-pass test plugin (passdemo.c), built against the
# public headers only as a vendor's fuser is, and the tests of the public IR: t/ir_pass.sh
# (the plugin's passes through `tscript graph` and `tscript run`), t/ir_api.t (tscript/ir.h
# called directly, as an embedder or plugin would) and t/ir_passes.t (the pass registry's
# transaction and order, against the core); included by the top Makefile.am.
check_LTLIBRARIES += t/plugins/passdemo/passdemo.la
t_plugins_passdemo_passdemo_la_SOURCES = t/plugins/passdemo/passdemo.c
t_plugins_passdemo_passdemo_la_CPPFLAGS = $(PLUGIN_CPPFLAGS)
t_plugins_passdemo_passdemo_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_passdemo_passdemo_la_LIBADD = libtscript.la -lm

check_PROGRAMS += t/ir_api.t t/ir_passes.t
t_ir_api_t_SOURCES = t/ir_api.c t/tap.h
t_ir_api_t_CPPFLAGS = -I$(top_srcdir)/include $(TEST_DEFS)
t_ir_api_t_LDADD = libtscript.la
t_ir_api_t_LDFLAGS = -no-install
EXTRA_t_ir_api_t_DEPENDENCIES = $(pkglib_LTLIBRARIES) t/plugins/passdemo/passdemo.la
t_ir_passes_t_SOURCES = t/ir_passes.c t/tap.h
t_ir_passes_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_ir_passes_t_LDADD = $(TEST_LDADD)
t_ir_passes_t_LDFLAGS = -no-install
EXTRA_t_ir_passes_t_DEPENDENCIES = $(pkglib_LTLIBRARIES) t/plugins/passdemo/passdemo.la

TESTS += t/ir_pass.sh
t/ir_pass.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES) t/plugins/passdemo/passdemo.la
EXTRA_DIST += t/plugins/passdemo/passdemo.mk t/ir_pass.sh t/data/ir_pass/prog.py
