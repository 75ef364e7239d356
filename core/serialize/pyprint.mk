# core/serialize/pyprint.mk — the python printer (our IR as the code/ files of a
# torch.jit.save archive), saving archives with it, and their tests; included by the top
# Makefile.am.
libtscript_core_la_SOURCES += \
	core/serialize/pyprint.h \
	core/serialize/pyprint_impl.h \
	core/serialize/pyprint.c \
	core/serialize/pyprint_graph.c \
	core/serialize/pyprint_value.c \
	core/serialize/pyprint_canon.c \
	core/serialize/save.h \
	core/serialize/save.c

check_PROGRAMS += t/pyprint.t
t_pyprint_t_SOURCES = t/pyprint.c t/pyprint_util.h t/tap.h
t_pyprint_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_pyprint_t_LDADD = $(TEST_LDADD) -lm
t_pyprint_t_LDFLAGS = -no-install
EXTRA_t_pyprint_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/pyprint.todo t/pyprint_golden.py

# PyTorch loads and runs what the printer writes (skipped without python3-torch).
TESTS += t/pyprint_torch.sh
t/pyprint_torch.log: t/pyprint.t$(EXEEXT) t/pyprint_archive.t$(EXEEXT) $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/pyprint_torch.sh t/pyprint_torch.py

# PyTorch's code of the conformance module archives, imported and printed again, is what
# PyTorch printed.
check_PROGRAMS += t/pyprint_archive.t
t_pyprint_archive_t_SOURCES = t/pyprint_archive.c t/pyprint_util.h t/tap.h
t_pyprint_archive_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_pyprint_archive_t_LDADD = $(TEST_LDADD)
t_pyprint_archive_t_LDFLAGS = -no-install
EXTRA_t_pyprint_archive_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
