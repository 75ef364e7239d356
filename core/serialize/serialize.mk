# core/serialize/serialize.mk — reading and writing PyTorch's files: the zip container
# (zero-copy reading, writing), the safe unpickler and the pickler, and NumPy's .npy;
# included by the top Makefile.am.
libtscript_core_la_SOURCES += \
	core/serialize/zip.h \
	core/serialize/zip_format.h \
	core/serialize/zip_read.c \
	core/serialize/zip_write.c
libtscript_core_la_CPPFLAGS += $(ZLIB_CFLAGS)
libtscript_core_la_LIBADD += $(ZLIB_LIBS)

check_PROGRAMS += t/zip.t
t_zip_t_SOURCES = t/zip.c t/serialize_util.h t/tap.h
t_zip_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_zip_t_LDADD = $(TEST_LDADD)
t_zip_t_LDFLAGS = -no-install

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
	core/serialize/tensorfile.c \
	core/module.h \
	core/module.c

check_PROGRAMS += t/unpickle.t
t_unpickle_t_SOURCES = t/unpickle.c t/pickle_env.h t/serialize_util.h t/tap.h
t_unpickle_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_unpickle_t_LDADD = $(TEST_LDADD)
t_unpickle_t_LDFLAGS = -no-install

check_PROGRAMS += t/pickle.t
t_pickle_t_SOURCES = t/pickle.c t/pickle_env.h t/serialize_util.h t/tap.h
t_pickle_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_pickle_t_LDADD = $(TEST_LDADD)
t_pickle_t_LDFLAGS = -no-install

check_PROGRAMS += t/npy.t
t_npy_t_SOURCES = t/npy.c t/pickle_env.h t/serialize_util.h t/tap.h
t_npy_t_CPPFLAGS = $(TEST_CPPFLAGS)
t_npy_t_LDADD = $(TEST_LDADD)
t_npy_t_LDFLAGS = -no-install

# Model archives through the CLI: hostile ones refused (t/hostile.py writes them).
TESTS += t/hostile.sh t/upgrade.sh t/models.sh
t/hostile.log t/upgrade.log t/models.log: tscript$(EXEEXT) $(pkglib_LTLIBRARIES)
EXTRA_DIST += t/hostile.sh t/hostile.py t/upgrade.sh t/models.sh t/models/check_models.py
