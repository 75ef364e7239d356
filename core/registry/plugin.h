/* plugin.h — loading plugins, and the registration transaction behind TsRegistry
 * (internal to the core; the vendor's side is tscript/plugin.h).
 *
 * A TsRegistry stages what one plugin declares and registers — operators from its schema
 * files, kernels, factories, allocators — against a committed operator table, and commits
 * only when everything succeeded. The loader wraps that around dlopen and the plugin's init.
 */
#ifndef TSCRIPT_REGISTRY_PLUGIN_H
#define TSCRIPT_REGISTRY_PLUGIN_H

#include <stdbool.h>

#include "registry/config.h"
#include "registry/optable.h"
#include "registry/yaml_schemas.h"
#include "tscript/plugin.h"

/* A backend's allocator and the plugin that registered it; indexed by device type. */
typedef struct TsAllocatorSlot {
    TsAllocator *allocator;
    char *plugin;
} TsAllocatorSlot;

/* ---- the transaction ------------------------------------------------------- */

/* Starts staging for plugin against table and allocators (TS_DEV__MAX slots). */
TsRegistry *ts_registry_begin(TsOpTable *table, TsAllocatorSlot *allocators, const char *plugin,
                              TsError *err);
/* Stages the declarations of a loaded set (its schemas move into the registry; the set is
 * left empty). An identical re-declaration of a known operator is shared; a different schema
 * for the same name and overload is an error naming both files and plugins. */
int ts_registry_add_schema_set(TsRegistry *r, TsSchemaSet *set, TsError *err);
/* Loads and stages a schema file. */
int ts_registry_load_schema_file(TsRegistry *r, const char *path, TsError *err);
/* The first registration error of the transaction (code TS_OK if none): registration
 * errors fail the plugin even if its init ignores them. */
const TsError *ts_registry_failure(const TsRegistry *r);
/* Moves everything staged into the table and the allocator slots, all or nothing. */
int ts_registry_commit(TsRegistry *r, TsError *err);
/* Frees the registry and whatever it still stages (nothing after a commit). */
void ts_registry_free(TsRegistry *r);

/* ---- plugins ------------------------------------------------------------- */

typedef struct TsPlugin {
    char *path;
    char *name;
    void *handle;
    const TsPluginInfo *info;
} TsPlugin;

/* Where a plugin named name lives: DIR/NAME.so for each dir of plugin_path, then the build
 * tree's plugins/NAME/.libs/NAME.so when the program runs from the build tree, else
 * PKGLIBDIR/NAME.so. A malloc'd path, or NULL with an error listing what was tried. */
char *ts_plugin_find(const char *name, const TsStrList *plugin_path, TsError *err);

/* Loads the plugin at path: dlopen, entry point, ABI check, its schema files (relative names
 * beside the plugin, then on schema_path), init, commit. loaded are the plugins already in
 * the table (a second plugin of the same name is an error). On failure nothing of the plugin
 * stays registered and the error names the file and the reason. */
int ts_plugin_load(const char *path, const TsStrList *schema_path, TsOpTable *table,
                   TsAllocatorSlot *allocators, TsPlugin *const *loaded, size_t n_loaded,
                   TsPlugin **out, TsError *err);
/* Calls fini and unloads. The operator table must no longer hold its kernels. */
void ts_plugin_unload(TsPlugin *p);

#endif
