# core/core.mk — the libraries, the core's own files (the runtime, errors, compilation units,
# loaded modules, string buffers, pointer maps, the random generator's state) and the
# installed headers; included by the top Makefile.am. The other core directories add their
# sources to libtscript_core.la.
#
# The core is compiled once, into the convenience library libtscript_core.la, with
# -fvisibility=hidden: only what the installed headers declare TS_API is exported.
#   libtscript.la        the installed library: that core, exporting the public API alone;
#   libtscript_core.la   also linked statically by the unit tests, the benchmarks and the
#                        fuzz targets, which reach core internals, and by the CLI, which
#                        calls only the public API (cli/cli.mk says why it links statically);
#   libtscript_test.la   test-only code (FileCheck), for the tests alone.
lib_LTLIBRARIES += libtscript.la
noinst_LTLIBRARIES += libtscript_core.la libtscript_test.la
libtscript_la_SOURCES =
libtscript_la_LIBADD = libtscript_core.la
libtscript_la_LDFLAGS = -version-info 1:0:0 -no-undefined
libtscript_test_la_SOURCES =
libtscript_test_la_CPPFLAGS = $(CORE_CPPFLAGS)
libtscript_core_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libtscript_core_la_CPPFLAGS = $(CORE_CPPFLAGS) $(PATH_DEFS) $(YAML_CFLAGS)
libtscript_core_la_LIBADD = $(YAML_LIBS)
libtscript_core_la_SOURCES = \
	core/error.c \
	core/strbuf.c \
	core/strbuf.h \
	core/ptrmap.c \
	core/ptrmap.h \
	core/runtime.c \
	core/runtime.h \
	core/function.c \
	core/function.h \
	core/module.c \
	core/module.h \
	core/random.c

tscriptincludedir = $(includedir)/tscript
tscriptinclude_HEADERS = \
	include/tscript/tscript.h \
	include/tscript/export.h \
	include/tscript/inspect.h \
	include/tscript/strbuf.h \
	include/tscript/print.h \
	include/tscript/random.h \
	include/tscript/error.h \
	include/tscript/types.h \
	include/tscript/value.h \
	include/tscript/tensor.h \
	include/tscript/plugin.h \
	include/tscript/aten.h \
	include/tscript/ir.h

pkgconfig_DATA = tscript.pc

check_PROGRAMS += t/error.t t/random.t
t_error_t_SOURCES = t/error.c t/tap.h
t_random_t_SOURCES = t/random.c t/tap.h
