# plugins/prim/prim.mk — the prim plugin (arithmetic on scalars, lists, dicts, strings,
# math, iteration, hashing, the runtime questions of env.c, module containers' items), its
# schema sets and its tests; included by the top Makefile.am. The plugin sees only the
# public headers.
pkglib_LTLIBRARIES += plugins/prim/prim.la
plugins_prim_prim_la_SOURCES = plugins/prim/prim.c plugins/prim/prim.h plugins/prim/arith.c \
	plugins/prim/lists.c plugins/prim/args.c plugins/prim/list_order.c plugins/prim/dicts.c \
	plugins/prim/math.c plugins/prim/complex.c plugins/prim/str.c plugins/prim/iter.c plugins/prim/hash.c \
	plugins/prim/env.c plugins/prim/modules.c
plugins_prim_prim_la_CPPFLAGS = $(PLUGIN_CPPFLAGS)
plugins_prim_prim_la_LDFLAGS = $(PLUGIN_LDFLAGS)
plugins_prim_prim_la_LIBADD = libtscript.la -lm

dist_pkgschema_DATA += schemas/prim.yaml schemas/prim_containers.yaml schemas/prim_math.yaml \
	schemas/prim_complex.yaml schemas/prim_str.yaml schemas/prim_iter.yaml schemas/prim_env.yaml

# The kernels called directly (t/kernel.h), and str()/print() through them.
check_PROGRAMS += t/prim.t t/prim_str.t t/prim_list.t t/prim_math.t
t_prim_t_SOURCES = t/prim.c t/kernel.h t/tap.h
EXTRA_t_prim_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_prim_str_t_SOURCES = t/prim_str.c t/kernel.h t/tap.h
EXTRA_t_prim_str_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_prim_list_t_SOURCES = t/prim_list.c t/kernel.h t/tap.h
EXTRA_t_prim_list_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
t_prim_math_t_SOURCES = t/prim_math.c t/kernel.h t/tap.h
EXTRA_t_prim_math_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/prim_str_cases.py

# The complex scalar, program by program as PyTorch runs it (t/cases.sh), and the calls
# where PyTorch fails (t/complex_scalar.sh).
TESTS += t/complex_cases.sh t/complex_scalar.sh
EXTRA_DIST += t/complex_cases.sh t/complex_cases.py t/complex_scalar.sh
