/* config.h — the runtime's YAML configuration and where files are found (internal).
 *
 * The config file format is described at the top of config.c.
 */
#ifndef TSCRIPT_CONFIG_H
#define TSCRIPT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "tscript/error.h"

/* A growable list of owned strings. */
typedef struct TsStrList {
    size_t n;
    char **items;
} TsStrList;

int ts_strlist_push(TsStrList *l, const char *s, TsError *err);
void ts_strlist_free(TsStrList *l);

/* When a runtime loads its plugins after the first (config key load). */
enum { TS_LOAD_DEFAULT, TS_LOAD_AT_OPEN, TS_LOAD_ON_FIRST_USE };

typedef struct TsConfig {
    char *path;                /* the file, or "(embedded default config)" */
    bool from_file;
    TsStrList plugins;         /* names, or paths (containing '/') */
    TsStrList plugin_where;    /* "config.yaml:3:5" for each plugin entry */
    TsStrList plugin_path;     /* directories */
    TsStrList schema_path;
    char *default_backend;     /* NULL: not set */
    int num_threads;           /* 0: not set */
    int cuda_graphs;           /* 1: capture repeated GPU regions into graphs; 0: not */
    char *blas_core;           /* the OpenBLAS core type aten-cpu loads; NULL: not set */
    char *blas_core_where;     /* "config.yaml:7:12", where the file sets it */
    bool plugins_default;      /* plugins is the default list (no plugins key) */
    int load;                  /* TS_LOAD_*: DEFAULT is ON_FIRST_USE for the default
                                * plugins, AT_OPEN for a list the config gives */
} TsConfig;

/* Parses a config file; relative paths in it are taken relative to its directory. */
int ts_config_load(const char *path, TsConfig *out, TsError *err);
int ts_config_parse(const char *text, size_t len, const char *name, TsConfig *out, TsError *err);
/* The embedded default: plugins prim and aten-cpu, backend cpu. */
int ts_config_default(TsConfig *out, TsError *err);
/* path if not NULL, else $TSCRIPT_CONFIG, else the installed TS_SYSCONFDIR/tscript/config.yaml
 * if it exists, else the embedded default. */
int ts_config_open(const char *path, TsConfig *out, TsError *err);
/* Frees everything; safe on a zeroed or partially filled config. */
void ts_config_free(TsConfig *c);

/* True when the running executable lives inside the build tree (TS_BUILDDIR): the runtime
 * then uses the build tree's plugins and schemas instead of the installed ones. */
bool ts_running_in_build_tree(void);
/* Appends the directories of a colon-separated environment variable (empty parts skipped). */
int ts_strlist_push_env_path(TsStrList *l, const char *var, TsError *err);

#endif
