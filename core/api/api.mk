# core/api/api.mk — the embedding API (include/tscript/tscript.h): thin wrappers over the
# core that make it usable from the installed headers alone, and its tests; included by the
# top Makefile.am.
libtscript_core_la_SOURCES += \
	core/api/api.h \
	core/api/version.c \
	core/api/runtime.c \
	core/api/script.c \
	core/api/method.c \
	core/api/values.c \
	core/api/tensors.c \
	core/api/files.c \
	core/api/backend_values.c \
	core/api/operators.c \
	core/api/outline.c \
	core/api/ir.c \
	core/api/ir_attr.c

# The API used as an embedder uses it: -I include only, linked with libtscript.la (the
# installed library's surface). t/api_threads.t is the thread-safety test of tscript.h's
# promise (clean under --enable-tsan); t/api_inspect.t what a tool needs beyond calling
# (inspect.h, values in files, compiling some entries, a model's metadata).
API_TEST_CPPFLAGS = -I$(top_srcdir)/include $(TEST_DEFS)
check_PROGRAMS += t/api.t t/api_threads.t t/api_inspect.t
t_api_t_SOURCES = t/api.c t/tap.h
t_api_t_CPPFLAGS = $(API_TEST_CPPFLAGS)
t_api_t_LDADD = libtscript.la
t_api_t_LDFLAGS = -no-install
EXTRA_t_api_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_api_inspect_t_SOURCES = t/api_inspect.c t/tap.h
t_api_inspect_t_CPPFLAGS = $(API_TEST_CPPFLAGS)
t_api_inspect_t_LDADD = libtscript.la
t_api_inspect_t_LDFLAGS = -no-install
EXTRA_t_api_inspect_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
# t/ir_api.t: the public IR (tscript/ir.h) as a plugin or embedder calls it.
check_PROGRAMS += t/ir_api.t
t_ir_api_t_SOURCES = t/ir_api.c t/tap.h
t_ir_api_t_CPPFLAGS = $(API_TEST_CPPFLAGS)
t_ir_api_t_LDADD = libtscript.la
t_ir_api_t_LDFLAGS = -no-install
EXTRA_t_ir_api_t_DEPENDENCIES = $(pkglib_LTLIBRARIES) t/plugins/passdemo/passdemo.la
# t/api_deferred.t: plugins a config defers load on first use (runtime.c), with the
# results, errors and thread-safety of a runtime that loaded them at open.
check_PROGRAMS += t/api_deferred.t
t_api_deferred_t_SOURCES = t/api_deferred.c t/tap.h
t_api_deferred_t_CPPFLAGS = $(API_TEST_CPPFLAGS)
t_api_deferred_t_LDADD = libtscript.la
t_api_deferred_t_LDFLAGS = -no-install
EXTRA_t_api_deferred_t_DEPENDENCIES = $(pkglib_LTLIBRARIES) t/plugins/good.la t/plugins/initfail.la
t_api_threads_t_SOURCES = t/api_threads.c t/tap.h
t_api_threads_t_CPPFLAGS = $(API_TEST_CPPFLAGS)
t_api_threads_t_LDADD = libtscript.la
t_api_threads_t_LDFLAGS = -no-install
EXTRA_t_api_threads_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)

# One visible surface: libtscript exports exactly what the installed headers declare, and
# every plugin needs nothing else (t/visibility.sh, with nm). The installed headers compile
# as C++17, C++20 and (where configure found it) CUDA (t/headers.sh). The embedding
# examples build against an installed prefix with pkg-config and run (t/embed.sh).
TESTS += t/visibility.sh t/headers.sh t/embed.sh
AM_TESTS_ENVIRONMENT += TS_CXX='$(TS_CXX)' NVCC='$(NVCC)' TS_SAN_FLAGS='$(TS_SAN_FLAGS)'; \
	export TS_CXX NVCC TS_SAN_FLAGS;

# t/embed.sh runs from t/embed-dest, a `make install DESTDIR=` made before any test runs
# (check_DATA is built before check-TESTS): installing relinks the libraries in .libs/,
# which must not happen while other tests load them.
check_DATA = t/embed-dest.stamp
t/embed-dest.stamp: libtscript.la $(pkglib_LTLIBRARIES) $(tscriptinclude_HEADERS) tscript.pc
	rm -rf t/embed-dest
	$(MAKE) $(AM_MAKEFLAGS) install DESTDIR='$(abs_builddir)/t/embed-dest' >/dev/null
	touch $@
clean-local: clean-embed-dest
clean-embed-dest:
	rm -rf t/embed-dest t/embed-dest.stamp
.PHONY: clean-embed-dest
EXTRA_DIST += t/visibility.sh t/surface_lib.sh t/headers.sh t/embed.sh examples/embed/embed.c \
	examples/embed/embed.cpp examples/embed/linear.pt examples/embed/make_model.py
