/* runtime.c — TsRuntime: one loaded configuration.
 *
 * Opening reads the config (config.c), builds the plugin and schema search paths, loads the
 * plugins in the order the config lists them into a fresh operator table (plugin.c), attaches
 * the kernels that waited for a later plugin's schema (optable.h), and settles the default
 * backend (the device type factory functions dispatch to, see tscript/plugin.h) and the
 * thread count. Closing frees the table first (it
 * points into the plugins' code), then runs each plugin's fini and dlcloses it, last loaded
 * first; the last runtime to close frees the global type tables (types.h).
 *
 * Deferred plugins (config `load: on_first_use`, the default plugins' default): opening
 * loads the first plugin alone and keeps what loading the rest needs (a Deferred); the
 * operator table calls load_rest the first time someone finds it lacking (optable.h), and
 * the runtime itself when asked for an allocator no loaded plugin registered, its plugins
 * or its operators. The rest load in config order under the table's write lock, as one
 * step that runs once: a failure is kept and given again to every later caller, with the
 * plugins loaded before the failing one left loaded (each plugin's load is all or nothing).
 *
 * Search paths: plugins — the config's plugin_path, then $TSCRIPT_PLUGIN_PATH, then the
 * build tree (when the program runs from it) or the installed plugin directory; schemas — the
 * config's schema_path, then $TSCRIPT_SCHEMA_PATH, then TS_SRCDIR/schemas (build tree) or
 * TS_PKGDATADIR/schemas.
 */
#include "value/objcache.h"
#include "runtime.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/log.h"
#include "registry/config.h"
#include "registry/plugin.h"
#include "registry/settings.h"
#include "sched/parallel.h"

#define MAX_THREADS 4096

/* Runtimes open in the process: the last to close frees the global type tables. */
static atomic_int open_runtimes;

/* What loading the deferred plugins needs, kept from open. */
typedef struct Deferred {
    pthread_mutex_t lock;      /* one loader at a time; held while it runs */
    TsConfig config;           /* the config (its plugins, their places, blas_core) */
    TsStrList plugin_path, schema_path;
    size_t next;               /* the first of config.plugins not loaded */
    atomic_bool done;          /* load_rest ran (rc, err: its result) */
    int rc;
    TsError err;
} Deferred;

struct TsRuntime {
    TsOpTable *table;
    Deferred *deferred;        /* NULL when every plugin loaded at open */
    TsPlugin **plugins;
    size_t n_plugins;
    TsAllocatorSlot allocators[TS_DEV__MAX];
    char *default_backend;
    int default_type;          /* its device type */
    int num_threads;
    bool optimize;             /* run the optimizer (core/ir/passes) before building Code */
    bool graphs;               /* capture repeated GPU regions (config cuda_graphs) */
};

static int build_paths(const TsConfig *c, TsStrList *plugin_path, TsStrList *schema_path,
                       TsError *err)
{
    for (size_t i = 0; i < c->plugin_path.n; i++)
        if (ts_strlist_push(plugin_path, c->plugin_path.items[i], err))
            return TS_ERR_NOMEM;
    for (size_t i = 0; i < c->schema_path.n; i++)
        if (ts_strlist_push(schema_path, c->schema_path.items[i], err))
            return TS_ERR_NOMEM;
    if (ts_strlist_push_env_path(plugin_path, "TSCRIPT_PLUGIN_PATH", err) ||
        ts_strlist_push_env_path(schema_path, "TSCRIPT_SCHEMA_PATH", err))
        return TS_ERR_NOMEM;
    const char *builtin = ts_running_in_build_tree() ? TS_SRCDIR "/schemas"
                                                     : TS_PKGDATADIR "/schemas";
    return ts_strlist_push(schema_path, builtin, err);
}

/* Loads plugins [from, to) of c. */
static int load_range(TsRuntime *rt, const TsConfig *c, const TsStrList *plugin_path,
                      const TsStrList *schema_path, size_t from, size_t to, TsError *err)
{
    int rc = 0;
    for (size_t i = from; i < to && !rc; i++) {
        char *path = ts_plugin_find(c->plugins.items[i], plugin_path, err);
        rc = path ? ts_plugin_load(path, schema_path, rt->table, rt->allocators, rt->plugins,
                                   rt->n_plugins, &rt->plugins[rt->n_plugins], err)
                  : TS_ERR_PLUGIN;
        free(path);
        if (rc)
            ts_error_prefix(err, "%s: ", c->plugin_where.items[i]);
        else
            rt->n_plugins++;
    }
    return rc;
}

static void deferred_free(Deferred *d)
{
    if (!d)
        return;
    pthread_mutex_destroy(&d->lock);
    ts_config_free(&d->config);
    ts_strlist_free(&d->plugin_path);
    ts_strlist_free(&d->schema_path);
    ts_error_clear(&d->err);
    free(d);
}

/* The table's loader (ts_optable_defer): the plugins after the first, once. */
static int load_rest(void *ctx, TsError *err)
{
    TsRuntime *rt = ctx;
    Deferred *d = rt->deferred;
    pthread_mutex_lock(&d->lock);
    if (!atomic_load(&d->done)) {
        ts_optable_write_begin(rt->table);
        ts_settings_publish(&d->config);     /* this runtime's blas_core, for their init */
        d->rc = load_range(rt, &d->config, &d->plugin_path, &d->schema_path, d->next,
                           d->config.plugins.n, &d->err);
        if (!d->rc)
            d->rc = ts_optable_resolve(rt->table, &d->err);
        ts_optable_write_end(rt->table, d->rc != 0);
        atomic_store(&d->done, true);
    }
    int rc = d->rc;
    if (rc)
        ts_error_set(err, d->err.code, "%s", d->err.msg ? d->err.msg : "plugin load failed");
    pthread_mutex_unlock(&d->lock);
    return rc;
}

/* Whether to load only the first plugin now (config load:, see config.c). Not when the
 * default backend is not cpu (a later plugin provides it), nor with one plugin or none. */
static bool defers(const TsConfig *c)
{
    bool on_first_use = c->load == TS_LOAD_ON_FIRST_USE ||
                        (c->load == TS_LOAD_DEFAULT && c->plugins_default);
    return on_first_use && c->plugins.n > 1 &&
           (!c->default_backend || strcmp(c->default_backend, "cpu") == 0);
}

static int load_plugins(TsRuntime *rt, TsConfig *c, TsError *err)
{
    TsStrList plugin_path = { 0, NULL }, schema_path = { 0, NULL };
    int rc = build_paths(c, &plugin_path, &schema_path, err);
    if (!rc && c->plugins.n) {
        rt->plugins = calloc(c->plugins.n, sizeof *rt->plugins);
        if (!rt->plugins)
            rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    size_t now = defers(c) ? 1 : c->plugins.n;
    if (!rc)
        rc = load_range(rt, c, &plugin_path, &schema_path, 0, now, err);
    if (!rc && now < c->plugins.n && ts_optable_has_waiting(rt->table)) {
        /* the first plugin's kernels wait for a later one's schemas: load them all now */
        rc = load_range(rt, c, &plugin_path, &schema_path, now, c->plugins.n, err);
        now = c->plugins.n;
    }
    if (!rc)
        rc = ts_optable_resolve(rt->table, err);
    if (!rc && now < c->plugins.n) {
        Deferred *d = calloc(1, sizeof *d);
        if (!d || pthread_mutex_init(&d->lock, NULL) != 0) {
            free(d);
            rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        } else {
            d->config = *c;              /* takes the config: open does not free it */
            memset(c, 0, sizeof *c);
            d->plugin_path = plugin_path;
            d->schema_path = schema_path;
            plugin_path = (TsStrList){ 0, NULL };
            schema_path = (TsStrList){ 0, NULL };
            d->next = now;
            atomic_init(&d->done, false);
            rt->deferred = d;
            ts_optable_defer(rt->table, load_rest, rt);
        }
    }
    ts_strlist_free(&plugin_path);
    ts_strlist_free(&schema_path);
    return rc;
}

int ts_runtime_load_plugins(TsRuntime *rt, TsError *err)
{
    return rt ? ts_optable_complete(rt->table, err) : 0;
}

static int settle_threads(TsRuntime *rt, const TsConfig *c, TsError *err)
{
    const char *env = getenv("TSCRIPT_NUM_THREADS");
    if (env && *env) {
        char *end;
        long n = strtol(env, &end, 10);
        if (*end || n < 1 || n > MAX_THREADS)
            return ts_error_set(err, TS_ERR_CONFIG,
                                "TSCRIPT_NUM_THREADS: expected an integer from 1 to %d, got '%s'",
                                MAX_THREADS, env);
        rt->num_threads = (int)n;
    } else if (c->num_threads > 0) {
        rt->num_threads = c->num_threads;
    } else {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        rt->num_threads = n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
    }
    return 0;
}

/* TSCRIPT_JIT_DISABLE=1 runs every function's graph as the frontend built it, as PyTorch's
 * switches for disabling the optimizer do; 0 or unset optimizes. */
static int settle_optimize(TsRuntime *rt, TsError *err)
{
    const char *env = getenv("TSCRIPT_JIT_DISABLE");
    if (!env || !*env || strcmp(env, "0") == 0)
        rt->optimize = true;
    else if (strcmp(env, "1") == 0)
        rt->optimize = false;
    else
        return ts_error_set(err, TS_ERR_CONFIG, "TSCRIPT_JIT_DISABLE: expected 0 or 1, got '%s'",
                            env);
    return 0;
}

TsRuntime *ts_runtime_open(const char *config_path, TsError *err)
{
    TsConfig c;
    if (ts_config_open(config_path, &c, err))
        return NULL;
    return ts_runtime_open_config(&c, err);
}

TsRuntime *ts_runtime_open_config(TsConfig *config, TsError *err)
{
    TsConfig c = *config;
    TsRuntime *rt = calloc(1, sizeof *rt);
    int rc = rt ? 0 : ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (rt)
        atomic_fetch_add(&open_runtimes, 1);
    if (!rc && !(rt->table = ts_optable_new(err)))
        rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (!rc)
        rc = ts_log_check_env(err);
    if (!rc)
        rc = settle_threads(rt, &c, err);
    if (!rc)
        rc = settle_optimize(rt, err);
    if (!rc)
        rt->graphs = c.cuda_graphs == 1;
    if (!rc) {
        ts_parallel_set_num_threads(rt->num_threads);
        ts_settings_publish(&c);      /* before the plugins' init, which may read them */
    }
    if (!rc)
        rc = load_plugins(rt, &c, err);
    const char *where = c.path ? c.path : rt && rt->deferred ? rt->deferred->config.path : "";
    if (!rc && (rc = ts_runtime_set_default_backend(
                    rt, c.default_backend ? c.default_backend : "cpu", err)))
        ts_error_prefix(err, "%s: default_backend ", where);
    ts_config_free(&c);
    if (rc) {
        ts_runtime_close(rt);
        return NULL;
    }
    return rt;
}

void ts_runtime_close(TsRuntime *rt)
{
    if (!rt)
        return;
    ts_optable_free(rt->table);
    for (size_t i = rt->n_plugins; i-- > 0;)
        ts_plugin_unload(rt->plugins[i]);
    free(rt->plugins);
    deferred_free(rt->deferred);
    for (size_t i = 0; i < TS_DEV__MAX; i++)
        free(rt->allocators[i].plugin);
    free(rt->default_backend);
    free(rt);
    if (atomic_fetch_sub(&open_runtimes, 1) == 1)
        ts_types_shutdown();
    ts_objcache_flush();
}

const TsOpTable *ts_runtime_optable(const TsRuntime *rt) { return rt->table; }

const char *ts_runtime_default_backend(const TsRuntime *rt) { return rt->default_backend; }

int ts_runtime_default_device_type(const TsRuntime *rt)
{
    return rt ? rt->default_type : TS_DEV_CPU;
}

/* A backend this runtime provides: cpu (where kernels run without a device plugin, on host
 * memory), or one whose allocator a loaded plugin registered. */
int ts_runtime_set_default_backend(TsRuntime *rt, const char *name, TsError *err)
{
    int type = name ? ts_device_type_lookup(name) : -1;
    if (type >= 0 && type != TS_DEV_CPU && ts_runtime_load_plugins(rt, err))
        return err ? err->code : TS_ERR_PLUGIN;
    if (type < 0 || (type != TS_DEV_CPU && !ts_runtime_allocator(rt, type)))
        return ts_error_set(err, TS_ERR_CONFIG,
                            "'%s' is not a backend any loaded plugin provides",
                            name ? name : "(null)");
    char *copy = strdup(name);
    if (!copy)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    free(rt->default_backend);
    rt->default_backend = copy;
    rt->default_type = type;
    return 0;
}

int ts_runtime_num_threads(const TsRuntime *rt) { return rt->num_threads; }

bool ts_runtime_optimize(const TsRuntime *rt) { return rt->optimize; }

void ts_runtime_set_optimize(TsRuntime *rt, bool on)
{
    if (rt)
        rt->optimize = on;
}

bool ts_runtime_graphs(const TsRuntime *rt) { return rt && rt->graphs; }

void ts_runtime_set_graphs(TsRuntime *rt, bool on)
{
    if (rt)
        rt->graphs = on;
}

int ts_runtime_set_num_threads(TsRuntime *rt, int n, TsError *err)
{
    if (n < 1 || n > MAX_THREADS)
        return ts_error_set(err, TS_ERR_VALUE, "set_num_threads: expected an integer from 1 "
                            "to %d, got %d", MAX_THREADS, n);
    rt->num_threads = n;
    ts_parallel_set_num_threads(n);
    return 0;
}

size_t ts_runtime_num_plugins(const TsRuntime *rt) { return rt->n_plugins; }

const char *ts_runtime_plugin_name(const TsRuntime *rt, size_t i)
{
    return i < rt->n_plugins ? rt->plugins[i]->name : NULL;
}

const char *ts_runtime_plugin_path(const TsRuntime *rt, size_t i)
{
    return i < rt->n_plugins ? rt->plugins[i]->path : NULL;
}

TsAllocator *ts_runtime_allocator(struct TsRuntime *rt, int device_type)
{
    if (!rt || device_type < 0 || device_type >= TS_DEV__MAX)
        return NULL;
    if (!ts_optable_settled(rt->table)) {
        /* a tensor is to be made: its backend may be a deferred plugin's (a failure shows
         * where the caller reports the missing allocator, and at the next operator) */
        TsError ignore = TS_ERROR_INIT;
        ts_optable_complete(rt->table, &ignore);
        ts_error_clear(&ignore);
    }
    return rt->allocators[device_type].allocator;
}
