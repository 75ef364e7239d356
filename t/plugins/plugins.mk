# t/plugins/plugins.mk — deliberately broken plugins for t/plugin.t (no entry point, a wrong
# ABI version, a failing init, kernels for undeclared or doubly declared operators, a bad
# schema, a conflicting schema), a good one, one that replaces a kernel of the good one, and
# a fake OpenBLAS; built by make check, never installed.
# Included by the top Makefile.am.
check_LTLIBRARIES += \
	t/plugins/good.la \
	t/plugins/noentry.la \
	t/plugins/abi.la \
	t/plugins/initfail.la \
	t/plugins/undeclared.la \
	t/plugins/dupkernel.la \
	t/plugins/badschema.la \
	t/plugins/conflict.la \
	t/plugins/inplace.la \
	t/plugins/override.la \
	t/plugins/fakeblas.la
t_plugins_good_la_SOURCES = t/plugins/good.c
t_plugins_good_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_good_la_LIBADD = libtscript.la
t_plugins_noentry_la_SOURCES = t/plugins/noentry.c
t_plugins_noentry_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_abi_la_SOURCES = t/plugins/abi.c
t_plugins_abi_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_abi_la_LIBADD = libtscript.la
t_plugins_initfail_la_SOURCES = t/plugins/initfail.c
t_plugins_initfail_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_initfail_la_LIBADD = libtscript.la
t_plugins_undeclared_la_SOURCES = t/plugins/undeclared.c
t_plugins_undeclared_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_undeclared_la_LIBADD = libtscript.la
t_plugins_dupkernel_la_SOURCES = t/plugins/dupkernel.c
t_plugins_dupkernel_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_dupkernel_la_LIBADD = libtscript.la
t_plugins_badschema_la_SOURCES = t/plugins/badschema.c
t_plugins_badschema_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_badschema_la_LIBADD = libtscript.la
t_plugins_inplace_la_SOURCES = t/plugins/inplace.c
t_plugins_inplace_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_inplace_la_LIBADD = libtscript.la
t_plugins_conflict_la_SOURCES = t/plugins/conflict.c
t_plugins_conflict_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_conflict_la_LIBADD = libtscript.la
t_plugins_override_la_SOURCES = t/plugins/override.c
t_plugins_override_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
t_plugins_override_la_LIBADD = libtscript.la
# Not a plugin: a stand-in for OpenBLAS with one core type (t/openblas_core.sh).
t_plugins_fakeblas_la_SOURCES = t/plugins/fakeblas.c
t_plugins_fakeblas_la_CFLAGS = $(AM_CFLAGS) $(OPENBLAS_CFLAGS)
t_plugins_fakeblas_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
