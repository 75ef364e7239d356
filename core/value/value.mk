# core/value/value.mk — the value model (values and their reference counts, strings, lists,
# dicts, objects, futures, tensors and storages, dtypes and devices, the type system,
# printing, sharing between threads) and its tests; included by the top Makefile.am.
libtscript_core_la_SOURCES += \
	core/value/heap.h \
	core/value/types.c \
	core/value/device.c \
	core/value/value.c \
	core/value/str.c \
	core/value/print.c \
	core/value/print.h \
	core/value/list.c \
	core/value/bigmem.c \
	core/value/dict.c \
	core/value/share.c \
	core/value/object.c \
	core/value/future.c \
	core/value/tensor.c \
	core/value/objcache.c \
	core/value/objcache.h

check_PROGRAMS += t/types.t t/value.t t/dict.t t/tensor.t t/print.t t/bigmem.t
t_types_t_SOURCES = t/types.c t/tap.h
t_value_t_SOURCES = t/value.c t/tap.h
t_dict_t_SOURCES = t/dict.c t/tap.h
t_bigmem_t_SOURCES = t/bigmem.c t/tap.h
t_tensor_t_SOURCES = t/tensor.c t/tap.h
t_print_t_SOURCES = t/print.c t/tap.h
EXTRA_t_print_t_DEPENDENCIES = $(pkglib_LTLIBRARIES)
# Strings, dicts and lists under many updates, and shared with forks (the heap work).
TESTS += t/heap_cases.sh
EXTRA_DIST += t/heap_cases.sh t/heap_cases.py
