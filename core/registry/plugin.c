/* plugin.c — the plugin loader and the TsRegistry transaction.
 *
 * Loading a plugin: check the file's ELF headers against its size (elf_check.c: a truncated
 * file would kill the process inside dlopen), dlopen(RTLD_NOW | RTLD_LOCAL), find
 * `tscript_plugin`, check its ABI
 * version before reading anything else, load the schema files it names, run its init with
 * a TsRegistry, and commit. The registry stages everything — declared operators in a table
 * of their own, kernels for already committed operators grouped per operator, kernels for
 * operators nobody declared yet (they wait in the table for a later plugin's schema, see
 * optable.h), kernels that replace an earlier plugin's (ts_override_kernel), allocators,
 * graph passes — so a failure anywhere (a schema file, a registration, init)
 * leaves the runtime's table as it was; then the plugin is dlclosed. fini runs only for
 * plugins whose init succeeded.
 */
#include "registry/plugin.h"
#include "registry/elf_check.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Kernels staged for one operator that an earlier plugin declared. */
typedef struct PendingKernels {
    TsOperator *op;
    size_t n;
    TsKernelEntry *kernels;
} PendingKernels;

/* A kernel staged to replace the one an earlier plugin registered for op on its backend. */
typedef struct Override {
    TsOperator *op;
    TsKernelEntry entry;
} Override;

typedef struct StagedAllocator {
    char *backend;
    TsAllocator *allocator;
} StagedAllocator;

struct TsRegistry {
    TsOpTable *table;          /* committed: read, and written only by commit */
    TsAllocatorSlot *allocators;
    char *plugin;
    TsOpTable *staged;         /* the operators this plugin declares */
    PendingKernels *pending;
    size_t n_pending;
    TsWaitingKernel *waiting;  /* kernels for operators not declared yet */
    size_t n_waiting;
    Override *overrides;
    size_t n_overrides;
    StagedAllocator *allocs;
    size_t n_allocs;
    TsPassList passes;         /* graph passes, committed after the table's */
    TsError failure;           /* the first registration error */
};

/* ---- the transaction --------------------------------------------------------- */

TsRegistry *ts_registry_begin(TsOpTable *table, TsAllocatorSlot *allocators, const char *plugin,
                              TsError *err)
{
    TsRegistry *r = calloc(1, sizeof *r);
    if (r) {
        r->table = table;
        r->allocators = allocators;
        r->plugin = strdup(plugin);
        r->staged = ts_optable_new(NULL);
    }
    if (!r || !r->plugin || !r->staged) {
        ts_registry_free(r);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return r;
}

void ts_registry_free(TsRegistry *r)
{
    if (!r)
        return;
    ts_optable_free(r->staged);
    for (size_t i = 0; i < r->n_pending; i++) {
        for (size_t k = 0; k < r->pending[i].n; k++)
            ts_kernel_entry_clear(&r->pending[i].kernels[k]);
        free(r->pending[i].kernels);
    }
    free(r->pending);
    for (size_t i = 0; i < r->n_waiting; i++)
        ts_waiting_kernel_clear(&r->waiting[i]);
    free(r->waiting);
    for (size_t i = 0; i < r->n_overrides; i++)
        ts_kernel_entry_clear(&r->overrides[i].entry);
    free(r->overrides);
    for (size_t i = 0; i < r->n_allocs; i++)
        free(r->allocs[i].backend);
    free(r->allocs);
    ts_pass_list_free(&r->passes);
    free(r->plugin);
    ts_error_clear(&r->failure);
    free(r);
}

const char *ts_registry_plugin_name(const TsRegistry *r) { return r ? r->plugin : NULL; }

const TsError *ts_registry_failure(const TsRegistry *r) { return &r->failure; }

/* Records the first registration error (a copy) and returns its code. */
static int fail(TsRegistry *r, TsError *err)
{
    if (r->failure.code == TS_OK && err && err->code != TS_OK)
        ts_error_set(&r->failure, err->code, "%s", err->msg ? err->msg : "");
    return err ? err->code : TS_ERR_PLUGIN;
}

static const TsOperator *find_any(const TsRegistry *r, const TsOpKey *key)
{
    const TsOperator *op = ts_optable_find_key(r->staged, key);
    return op ? op : ts_optable_find_key(r->table, key);
}

/* Stages one declaration (taking schema, whose key it is) from source (at line:col when
 * line > 0): shared if identical to a known one. */
static int stage_schema(TsRegistry *r, TsSchema *schema, const TsOpKey *keyp,
                        const char *source, int line, int col, TsError *err)
{
    TsOpKey key = keyp ? *keyp : ts_op_key(schema->name, schema->overload);
    const TsOperator *old = find_any(r, &key);
    if (!old) {
        if (ts_optable_add_keyed(r->staged, schema, &key, r->plugin, source, line, col, err)) {
            ts_schema_free(schema);
            return err ? err->code : TS_ERR_NOMEM;
        }
        return 0;
    }
    char *a = ts_schema_to_string(schema), *b = ts_schema_to_string(old->schema);
    int rc = 0;
    if (!a || !b) {
        rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    } else if (strcmp(a, b) != 0) {
        char where[32] = "", first[4096];
        if (line > 0)
            snprintf(where, sizeof where, ":%d:%d", line, col);
        ts_operator_source(old, first, sizeof first);
        rc = ts_error_set(err, TS_ERR_PLUGIN,
                          "%s%s: plugin '%s' declares '%s', but plugin '%s' declared it as "
                          "'%s' (%s)",
                          source, where, r->plugin, a, old->plugin, b, first);
    }
    free(a);
    free(b);
    ts_schema_free(schema);
    return rc;
}

int ts_registry_add_schema_set(TsRegistry *r, TsSchemaSet *set, TsError *err)
{
    const char *path = set->path ? set->path : "";
    int rc = ts_optable_reserve(r->staged, set->n, err);
    for (size_t i = 0; i < set->n; i++) {
        TsSchema *s = set->decls[i].schema;
        set->decls[i].schema = NULL;
        if (rc) {
            ts_schema_free(s);
            continue;
        }
        TsOpKey key = { s->name, s->overload, set->decls[i].hash_name, set->decls[i].hash_full };
        rc = stage_schema(r, s, key.hash_full ? &key : NULL, path, set->decls[i].line,
                          set->decls[i].col, err);
    }
    free(set->decls);
    set->decls = NULL;
    set->n = 0;
    return rc;
}

int ts_registry_load_schema_file(TsRegistry *r, const char *path, TsError *err)
{
    TsSchemaSet set;
    int rc = ts_yaml_schemas_load(path, &set, err);
    if (!rc)
        rc = ts_registry_add_schema_set(r, &set, err);
    ts_schema_set_free(&set);
    return rc;
}

/* A name without "ns::" is in aten, as in a schema file without a namespace. */
int ts_register_schema(TsRegistry *r, const char *schema, TsError *err)
{
    if (!r || !schema)
        return ts_error_set(err, TS_ERR_USAGE, "ts_register_schema: NULL argument");
    size_t offset = 0;
    TsSchema *s = ts_schema_parse(schema, "aten", &offset, err);
    if (!s) {
        ts_error_prefix(err, "plugin '%s': schema '%s' at offset %zu: ", r->plugin, schema,
                        offset);
        return fail(r, err);
    }
    char source[512];
    snprintf(source, sizeof source, "ts_register_schema in plugin '%s'", r->plugin);
    if (stage_schema(r, s, NULL, source, 0, 0, err))
        return fail(r, err);
    return 0;
}

static int add_pending(TsRegistry *r, TsOperator *op, TsKernelEntry e, TsError *err)
{
    PendingKernels *p = NULL;
    for (size_t i = 0; i < r->n_pending; i++)
        if (r->pending[i].op == op)
            p = &r->pending[i];
    if (!p) {
        PendingKernels *np = realloc(r->pending, (r->n_pending + 1) * sizeof *np);
        if (!np)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        r->pending = np;
        p = &np[r->n_pending++];
        *p = (PendingKernels){ op, 0, NULL };
    }
    TsKernelEntry *k = realloc(p->kernels, (p->n + 1) * sizeof *k);
    if (!k)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    p->kernels = k;
    k[p->n++] = e;
    return 0;
}

static const TsKernelEntry *pending_kernel(const TsRegistry *r, const TsOperator *op,
                                           const char *backend)
{
    for (size_t i = 0; i < r->n_pending; i++)
        if (r->pending[i].op == op)
            for (size_t k = 0; k < r->pending[i].n; k++)
                if (strcmp(r->pending[i].kernels[k].backend, backend) == 0)
                    return &r->pending[i].kernels[k];
    return NULL;
}

/* A kernel for an operator no plugin has declared (yet): staged to wait in the table. */
static int add_waiting(TsRegistry *r, const char *qualname, const char *overload,
                       const char *backend, TsKernelFn fn, TsKernelFactory factory,
                       TsError *err)
{
    const TsWaitingKernel *old = ts_optable_find_waiting(r->table, qualname, overload, backend);
    for (size_t i = 0; !old && i < r->n_waiting; i++)
        if (strcmp(r->waiting[i].qualname, qualname) == 0 &&
            strcmp(r->waiting[i].overload, overload) == 0 &&
            strcmp(r->waiting[i].entry.backend, backend) == 0)
            old = &r->waiting[i];
    if (old) {
        char name[256];
        snprintf(name, sizeof name, "%s%s%s", qualname, *overload ? "." : "", overload);
        ts_kernel_dup_error(err, r->plugin, name, backend, old->entry.plugin);
        return fail(r, err);
    }
    TsWaitingKernel *w = realloc(r->waiting, (r->n_waiting + 1) * sizeof *w);
    if (w)
        r->waiting = w;
    if (!w || ts_waiting_kernel_init(&w[r->n_waiting], qualname, overload, backend, fn,
                                     factory, r->plugin)) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return fail(r, err);
    }
    r->n_waiting++;
    return 0;
}

static int register_kernel(TsRegistry *r, const char *qualname, const char *overload,
                           const char *backend, TsKernelFn fn, TsKernelFactory factory,
                           TsError *err)
{
    if (!r)
        return ts_error_set(err, TS_ERR_USAGE, "kernel registration without a registry");
    if (!overload)
        overload = "";
    if (!qualname || !*qualname || !backend || !*backend || (!fn && !factory)) {
        ts_error_set(err, TS_ERR_USAGE,
                     "plugin '%s': kernel registration needs a name, a backend and a function",
                     r->plugin);
        return fail(r, err);
    }
    TsOpKey key = ts_op_key(qualname, overload);
    TsOperator *op = ts_optable_find_key(r->staged, &key);
    if (op) {
        if (ts_operator_add_kernel(op, backend, fn, factory, r->plugin, err))
            return fail(r, err);
        return 0;
    }
    op = ts_optable_find_key(r->table, &key);
    if (!op)
        return add_waiting(r, qualname, overload, backend, fn, factory, err);
    const TsKernelEntry *old = ts_operator_kernel_exact(op, backend);
    if (!old)
        old = pending_kernel(r, op, backend);
    if (old) {
        char name[256];
        ts_operator_full_name(op, name, sizeof name);
        ts_kernel_dup_error(err, r->plugin, name, backend, old->plugin);
        return fail(r, err);
    }
    TsKernelEntry e;
    if (ts_kernel_entry_init(&e, backend, fn, factory, r->plugin) ||
        add_pending(r, op, e, err)) {
        ts_kernel_entry_clear(&e);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return fail(r, err);
    }
    return 0;
}

int ts_register_kernel(TsRegistry *r, const char *qualname, const char *overload,
                       const char *backend, TsKernelFn fn, TsError *err)
{
    return register_kernel(r, qualname, overload, backend, fn, NULL, err);
}

int ts_register_factory(TsRegistry *r, const char *qualname, const char *overload,
                        const char *backend, TsKernelFactory factory, TsError *err)
{
    return register_kernel(r, qualname, overload, backend, NULL, factory, err);
}

int ts_override_kernel(TsRegistry *r, const char *qualname, const char *overload,
                       const char *backend, TsKernelFn fn, TsKernelFn *previous, TsError *err)
{
    if (!r)
        return ts_error_set(err, TS_ERR_USAGE, "kernel registration without a registry");
    if (!qualname || !*qualname || !backend || !*backend || !fn || !previous) {
        ts_error_set(err, TS_ERR_USAGE, "plugin '%s': ts_override_kernel needs a name, a "
                     "backend, a function and where to put the replaced one", r->plugin);
        return fail(r, err);
    }
    char name[256];
    snprintf(name, sizeof name, "%s%s%s", qualname, overload && *overload ? "." : "",
             overload ? overload : "");
    TsOpKey key = ts_op_key(qualname, overload ? overload : "");
    TsOperator *op = ts_optable_find_key(r->table, &key);
    const TsKernelEntry *old = op ? ts_operator_kernel_exact(op, backend) : NULL;
    if (!old) {
        ts_error_set(err, TS_ERR_PLUGIN, "plugin '%s' replaces the kernel of %s on backend "
                     "'%s', which no plugin loaded before it registered", r->plugin, name,
                     backend);
        return fail(r, err);
    }
    if (!old->fn) {
        ts_error_set(err, TS_ERR_PLUGIN, "plugin '%s' replaces the kernel of %s on backend "
                     "'%s', a kernel factory of plugin '%s': only a plain kernel can be "
                     "replaced", r->plugin, name, backend, old->plugin);
        return fail(r, err);
    }
    bool twice = pending_kernel(r, op, backend) != NULL;
    for (size_t i = 0; i < r->n_overrides && !twice; i++)
        twice = r->overrides[i].op == op && strcmp(r->overrides[i].entry.backend, backend) == 0;
    if (twice) {
        ts_kernel_dup_error(err, r->plugin, name, backend, r->plugin);
        return fail(r, err);
    }
    Override *o = realloc(r->overrides, (r->n_overrides + 1) * sizeof *o);
    if (o)
        r->overrides = o;
    if (!o || ts_kernel_entry_init(&o[r->n_overrides].entry, backend, fn, NULL, r->plugin)) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return fail(r, err);
    }
    o[r->n_overrides++].op = op;
    *previous = old->fn;
    return 0;
}

int ts_register_allocator(TsRegistry *r, const char *backend, TsAllocator *allocator,
                          TsError *err)
{
    if (!r)
        return ts_error_set(err, TS_ERR_USAGE, "allocator registration without a registry");
    if (!backend || !*backend || !allocator || !allocator->alloc || !allocator->free) {
        ts_error_set(err, TS_ERR_USAGE,
                     "plugin '%s': an allocator needs a backend name and alloc/free functions",
                     r->plugin);
        return fail(r, err);
    }
    int type = ts_device_type_lookup(backend);
    if (type >= 0 && type < TS_DEV__MAX && r->allocators[type].allocator) {
        ts_error_set(err, TS_ERR_PLUGIN,
                     "plugin '%s' registers a second allocator for backend '%s' (plugin '%s' "
                     "registered the first)",
                     r->plugin, backend, r->allocators[type].plugin);
        return fail(r, err);
    }
    for (size_t i = 0; i < r->n_allocs; i++)
        if (strcmp(r->allocs[i].backend, backend) == 0) {
            ts_error_set(err, TS_ERR_PLUGIN,
                         "plugin '%s' registers two allocators for backend '%s'", r->plugin,
                         backend);
            return fail(r, err);
        }
    StagedAllocator *a = realloc(r->allocs, (r->n_allocs + 1) * sizeof *a);
    char *name = strdup(backend);
    if (!a || !name) {
        if (a)
            r->allocs = a;
        free(name);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return fail(r, err);
    }
    r->allocs = a;
    a[r->n_allocs++] = (StagedAllocator){ name, allocator };
    return 0;
}

static int register_pass(TsRegistry *r, const char *name, TsGraphPassFn fn, void *ctx,
                         int stage, TsError *err)
{
    if (!r)
        return ts_error_set(err, TS_ERR_USAGE, "pass registration without a registry");
    if (!name || !*name || !fn) {
        ts_error_set(err, TS_ERR_USAGE, "plugin '%s': a graph pass needs a name and a function",
                     r->plugin);
        return fail(r, err);
    }
    const TsGraphPass *old = ts_pass_list_find(ts_optable_passes(r->table), name);
    if (!old)
        old = ts_pass_list_find(&r->passes, name);
    if (old) {
        ts_error_set(err, TS_ERR_PLUGIN,
                     "plugin '%s' registers a second graph pass '%s' (plugin '%s' registered "
                     "the first)", r->plugin, name, old->plugin);
        return fail(r, err);
    }
    if (ts_pass_list_add(&r->passes, name, r->plugin, fn, ctx, stage, err))
        return fail(r, err);
    return 0;
}

int ts_register_pass(TsRegistry *r, const char *name, TsGraphPassFn fn, void *ctx,
                     TsError *err)
{
    return register_pass(r, name, fn, ctx, TS_PASS_COMPILE, err);
}

int ts_register_optimizer_pass(TsRegistry *r, const char *name, TsGraphPassFn fn, void *ctx,
                               TsError *err)
{
    return register_pass(r, name, fn, ctx, TS_PASS_OPTIMIZER, err);
}

int ts_registry_commit(TsRegistry *r, TsError *err)
{
    /* Everything that can fail comes first: device types (registering a name twice is
     * harmless), the plugin name copies, room for the kernels. */
    int types[TS_DEV__MAX];
    char *owners[TS_DEV__MAX] = { NULL };
    int rc = 0;
    if (r->n_allocs > TS_DEV__MAX)
        return ts_error_set(err, TS_ERR_LIMIT, "plugin '%s' registers too many allocators",
                            r->plugin);
    for (size_t i = 0; i < r->n_allocs && !rc; i++) {
        types[i] = ts_device_type_register(r->allocs[i].backend, err);
        if (types[i] < 0 || types[i] >= TS_DEV__MAX)
            rc = err && err->code ? (int)err->code
                                  : ts_error_set(err, TS_ERR_LIMIT, "too many device types");
        else if (r->allocators[types[i]].allocator)
            rc = ts_error_set(err, TS_ERR_PLUGIN,
                              "plugin '%s' registers a second allocator for backend '%s' "
                              "(plugin '%s' registered the first)",
                              r->plugin, r->allocs[i].backend, r->allocators[types[i]].plugin);
        else if (!(owners[i] = strdup(r->plugin)))
            rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < r->n_pending && !rc; i++)
        rc = ts_operator_reserve_kernels(r->pending[i].op, r->pending[i].n, err);
    if (!rc)
        rc = ts_optable_reserve_waiting(r->table, r->n_waiting, err);
    if (!rc)
        rc = ts_pass_list_reserve(ts_optable_passes(r->table), r->passes.n, err);
    if (!rc)
        rc = ts_optable_merge(r->table, r->staged, err);
    if (rc) {
        for (size_t i = 0; i < r->n_allocs; i++)
            free(owners[i]);
        return rc;
    }
    /* From here on nothing fails. */
    for (size_t i = 0; i < r->n_pending; i++) {
        for (size_t k = 0; k < r->pending[i].n; k++)
            ts_operator_push_kernel(r->pending[i].op, r->pending[i].kernels[k]);
        free(r->pending[i].kernels);
    }
    free(r->pending);
    r->pending = NULL;
    r->n_pending = 0;
    for (size_t i = 0; i < r->n_waiting; i++)
        ts_optable_push_waiting(r->table, r->waiting[i]);
    free(r->waiting);
    r->waiting = NULL;
    r->n_waiting = 0;
    for (size_t i = 0; i < r->n_overrides; i++)
        ts_operator_replace_kernel(r->overrides[i].op, r->overrides[i].entry);
    free(r->overrides);
    r->overrides = NULL;
    r->n_overrides = 0;
    ts_pass_list_move(ts_optable_passes(r->table), &r->passes);
    for (size_t i = 0; i < r->n_allocs; i++) {
        r->allocators[types[i]].allocator = r->allocs[i].allocator;
        r->allocators[types[i]].plugin = owners[i];
    }
    return 0;
}

/* ---- finding plugins and schema files ---------------------------------------------- */

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join(const char *dir, const char *a, const char *b)
{
    size_t n = strlen(dir) + strlen(a) + strlen(b) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s%s", dir, a, b);
    return p;
}

char *ts_plugin_find(const char *name, const TsStrList *plugin_path, TsError *err)
{
    if (!*name || strchr(name, '/'))
        return strdup(name);
    char tried[2048] = "";
    size_t used = 0;
    for (size_t i = 0; i <= plugin_path->n; i++) {
        char *p;
        if (i < plugin_path->n) {
            p = join(plugin_path->items[i], name, ".so");
        } else if (ts_running_in_build_tree()) {
            size_t n = strlen(TS_BUILDDIR) + 2 * strlen(name) + 32;
            p = malloc(n);
            if (p)
                snprintf(p, n, "%s/plugins/%s/.libs/%s.so", TS_BUILDDIR, name, name);
        } else {
            p = join(TS_PKGLIBDIR, name, ".so");
        }
        if (!p) {
            ts_error_set(err, TS_ERR_NOMEM, "out of memory");
            return NULL;
        }
        if (is_file(p))
            return p;
        if (used < sizeof tried) {
            int w = snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", p);
            used += w > 0 ? (size_t)w : 0;
        }
        free(p);
    }
    ts_error_set(err, TS_ERR_PLUGIN, "plugin '%s' not found (tried %s)", name, tried);
    return NULL;
}

/* A schema file a plugin names: absolute as is; else beside the plugin, then on the path. */
static char *find_schema_file(const char *plugin_path, const char *file, const TsStrList *path,
                              TsError *err)
{
    if (file[0] == '/')
        return strdup(file);
    const char *slash = strrchr(plugin_path, '/');
    char *dir = slash ? strndup(plugin_path, (size_t)(slash - plugin_path)) : strdup(".");
    char *p = dir ? join(dir, file, "") : NULL;
    free(dir);
    for (size_t i = 0; p && !is_file(p) && i < path->n; i++) {
        free(p);
        p = join(path->items[i], file, "");
    }
    if (!p) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (!is_file(p)) {
        free(p);
        ts_error_set(err, TS_ERR_IO,
                     "schema file '%s' not found beside the plugin or on the schema path", file);
        return NULL;
    }
    return p;
}

/* ---- loading ------------------------------------------------------------------------ */

/* The name a plugin goes by: its own, else its file name without ".so". */
static char *plugin_name(const TsPluginInfo *info, const char *path)
{
    if (info->name && *info->name)
        return strdup(info->name);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 3 && strcmp(base + n - 3, ".so") == 0)
        n -= 3;
    return strndup(base, n);
}

/* Schema files and init, inside the transaction. Sets *init_ok when init returned 0. */
static int run_registration(TsRegistry *r, const char *path, const TsPluginInfo *info,
                            const TsStrList *schema_path, bool *init_ok, TsError *err)
{
    for (const char *const *f = info->schema_files; f && *f; f++) {
        char *file = find_schema_file(path, *f, schema_path, err);
        if (!file)
            return err ? err->code : TS_ERR_IO;
        /* a .py file is TorchScript the frontend compiles on demand (core/frontend/library.c) */
        size_t len = strlen(file);
        int rc = len > 3 && strcmp(file + len - 3, ".py") == 0
                     ? ts_optable_add_source(r->staged, file, err)
                     : ts_registry_load_schema_file(r, file, err);
        free(file);
        if (rc)
            return rc;
    }
    if (!info->init) {
        *init_ok = true;
        return 0;
    }
    TsError ierr = TS_ERROR_INIT;
    int rc = info->init(r, &ierr);
    *init_ok = rc == 0;
    const TsError *failure = ts_registry_failure(r);
    if (failure->code != TS_OK) {
        ts_error_set(err, failure->code, "%s", failure->msg);
        ts_error_clear(&ierr);
        return failure->code;
    }
    if (rc) {
        if (ierr.code != TS_OK && ierr.msg)
            ts_error_set(err, TS_ERR_PLUGIN, "init failed: %s", ierr.msg);
        else
            ts_error_set(err, TS_ERR_PLUGIN, "init failed (returned %d) without a message", rc);
        ts_error_clear(&ierr);
        return TS_ERR_PLUGIN;
    }
    ts_error_clear(&ierr);
    return ts_registry_commit(r, err);
}

int ts_plugin_load(const char *path, const TsStrList *schema_path, TsOpTable *table,
                   TsAllocatorSlot *allocators, TsPlugin *const *loaded, size_t n_loaded,
                   TsPlugin **out, TsError *err)
{
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0)
        return ts_error_set(err, TS_ERR_PLUGIN, "%s: plugin file not found", path);
    if (ts_elf_check(path, err))   /* a truncated file would die of SIGBUS inside dlopen */
        return err ? err->code : TS_ERR_PLUGIN;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        return ts_error_set(err, TS_ERR_PLUGIN, "%s: cannot load plugin: %s", path, dlerror());
    const TsPluginInfo *info = dlsym(handle, TS_PLUGIN_SYMBOL);
    if (!info) {
        dlclose(handle);
        return ts_error_set(err, TS_ERR_PLUGIN, "%s: not a tscript plugin (no '%s' symbol)",
                            path, TS_PLUGIN_SYMBOL);
    }
    if (info->abi_version != TS_PLUGIN_ABI_VERSION) {
        unsigned v = info->abi_version;
        dlclose(handle);
        return ts_error_set(err, TS_ERR_PLUGIN,
                            "plugin %s was built for ABI v%u, this tscript has ABI v%u", path, v,
                            TS_PLUGIN_ABI_VERSION);
    }
    TsPlugin *p = calloc(1, sizeof *p);
    if (p) {
        p->path = strdup(path);
        p->name = plugin_name(info, path);
        p->handle = handle;
        p->info = info;
    }
    if (!p || !p->path || !p->name) {
        if (p) {
            free(p->path);
            free(p->name);
        }
        free(p);
        dlclose(handle);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n_loaded; i++)
        if (strcmp(loaded[i]->name, p->name) == 0) {
            ts_error_set(err, TS_ERR_PLUGIN, "%s: plugin '%s' is already loaded (from %s)",
                         path, p->name, loaded[i]->path);
            p->info = NULL;                        /* no fini: init never ran */
            ts_plugin_unload(p);
            return TS_ERR_PLUGIN;
        }
    TsRegistry *r = ts_registry_begin(table, allocators, p->name, err);
    bool init_ok = false;
    int rc = r ? run_registration(r, path, info, schema_path, &init_ok, err) : TS_ERR_NOMEM;
    ts_registry_free(r);
    if (rc) {
        ts_error_prefix(err, "%s: ", path);
        if (!init_ok)
            p->info = NULL;
        ts_plugin_unload(p);
        return rc;
    }
    *out = p;
    return 0;
}

void ts_plugin_unload(TsPlugin *p)
{
    if (!p)
        return;
    if (p->info && p->info->fini)
        p->info->fini();
    if (p->handle)
        dlclose(p->handle);
    free(p->path);
    free(p->name);
    free(p);
}
