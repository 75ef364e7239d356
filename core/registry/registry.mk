# core/registry/registry.mk — the operator registry (FunctionSchema parser, YAML schema sets,
# the operator table, plugin loading and its ELF check, the config file and the settings
# plugins read from it) and its tests;
# included by the top Makefile.am.
libtscript_core_la_SOURCES += \
	core/registry/arena.c \
	core/registry/arena.h \
	core/registry/schema.c \
	core/registry/schema.h \
	core/registry/schema_scan.c \
	core/registry/schema_scan.h \
	core/registry/yaml_schemas.c \
	core/registry/yaml_schemas.h \
	core/registry/optable.c \
	core/registry/optable.h \
	core/registry/plugin.c \
	core/registry/plugin.h \
	core/registry/elf_check.c \
	core/registry/elf_check.h \
	core/registry/config.c \
	core/registry/config.h \
	core/registry/settings.c \
	core/registry/settings.h \
	core/registry/passes.c \
	core/registry/passes.h

# The graph-pass registry's order and transaction (with t/plugins/passdemo).
check_PROGRAMS += t/ir_passes.t
t_ir_passes_t_SOURCES = t/ir_passes.c t/tap.h
EXTRA_t_ir_passes_t_DEPENDENCIES = $(pkglib_LTLIBRARIES) t/plugins/passdemo/passdemo.la

check_PROGRAMS += t/schema.t t/yaml.t t/schema_scan.t t/optable.t t/plugin.t t/schema_set.t
t_schema_t_SOURCES = t/schema.c t/tap.h
t_schema_set_t_SOURCES = t/schema_set.c t/tap.h
t_yaml_t_SOURCES = t/yaml.c t/tap.h
t_schema_scan_t_SOURCES = t/schema_scan.c t/tap.h
t_optable_t_SOURCES = t/optable.c t/tap.h
t_plugin_t_SOURCES = t/plugin.c t/tap.h
# t/plugin.t loads the real plugins, the CLI and the deliberately broken test plugins
# (t/plugins/plugins.mk).
EXTRA_t_plugin_t_DEPENDENCIES = $(check_LTLIBRARIES) $(noinst_LTLIBRARIES) \
	$(pkglib_LTLIBRARIES) tscript$(EXEEXT)
