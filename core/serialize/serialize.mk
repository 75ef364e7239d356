# core/serialize/serialize.mk — reading and writing PyTorch's files: the zip container
# (zero-copy reading, writing), the safe unpickler and the pickler, and NumPy's .npy;
# the python printer and saving archives; included by the top Makefile.am.
libtscript_core_la_SOURCES += \
	core/serialize/zip.h \
	core/serialize/zip_format.h \
	core/serialize/zip_read.c \
	core/serialize/zip_write.c
libtscript_core_la_CPPFLAGS += $(ZLIB_CFLAGS)
libtscript_core_la_LIBADD += $(ZLIB_LIBS)

check_PROGRAMS += t/zip.t
t_zip_t_SOURCES = t/zip.c t/serialize_util.h t/tap.h

libtscript_core_la_SOURCES += \
	core/serialize/pickle.h \
	core/serialize/unpickler.h \
	core/serialize/unpickle.c \
	core/serialize/unpickle_globals.c \
	core/serialize/retype.c \
	core/serialize/pickle.c \
	core/serialize/npy.h \
	core/serialize/npy.c \
	core/serialize/conform.h \
	core/serialize/conform.c \
	core/serialize/tensorfile.h \
	core/serialize/tensorfile.c

check_PROGRAMS += t/unpickle.t
t_unpickle_t_SOURCES = t/unpickle.c t/pickle_env.h t/serialize_util.h t/tap.h

check_PROGRAMS += t/pickle.t
t_pickle_t_SOURCES = t/pickle.c t/pickle_env.h t/serialize_util.h t/tap.h

check_PROGRAMS += t/npy.t
t_npy_t_SOURCES = t/npy.c t/pickle_env.h t/serialize_util.h t/tap.h

# Model archives through the CLI: hostile ones refused (t/hostile.py writes them).
TESTS += t/hostile.sh t/upgrade.sh t/models.sh
EXTRA_DIST += t/hostile.sh t/hostile.py t/upgrade.sh t/models.sh t/models/check_models.py

# The python printer (our IR as the code/ files of a torch.jit.save archive) and saving
# archives with it.
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
EXTRA_t_pyprint_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/pyprint.todo t/pyprint_golden.py

# PyTorch loads and runs what the printer writes (skipped without python3-torch).
TESTS += t/pyprint_torch.sh
EXTRA_DIST += t/pyprint_torch.sh t/pyprint_torch.py

# PyTorch's code of the conformance module archives, imported and printed again, is what
# PyTorch printed.
check_PROGRAMS += t/pyprint_archive.t
t_pyprint_archive_t_SOURCES = t/pyprint_archive.c t/pyprint_util.h t/tap.h
EXTRA_t_pyprint_archive_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
