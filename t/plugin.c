/* plugin.t — loading plugins through config files: the standard plugins from the build tree,
 * a test plugin and the vendor example (whose kernels are called through the table), every
 * way a plugin can fail (each leaving nothing of it registered), a plugin replacing another's
 * kernel (ts_override_kernel), bad configs, the search paths and environment variables, and
 * the `tscript` command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <config.h>
#include "registry/plugin.h"
#include "runtime.h"
#include "tap.h"

#define TEST_PLUGINS TS_TEST_BUILDDIR "/t/plugins/.libs"
/* The embedded default config's plugins: aten-dnnl is among them where configure built it. */
#ifdef TS_HAVE_DNNL
#define DEFAULT_PLUGINS 4
#define DEFAULT_SECOND_LAST "aten-dnnl"
#else
#define DEFAULT_PLUGINS 3
#define DEFAULT_SECOND_LAST "aten-cpu"
#endif
#define TEST_DATA TS_TEST_SRCDIR "/t/data"
#define VENDOR_SRC TS_TEST_SRCDIR "/examples/plugins/vendor"
#define VENDOR_LIBS TS_TEST_BUILDDIR "/examples/plugins/vendor/.libs"

static char tmpdir[] = "/tmp/tscript-plugin-XXXXXX";
static char paths[16][600];
static int n_paths;

/* Writes name in the temp dir; returns its path (valid until the end). */
static const char *write_file(const char *name, const char *text)
{
    char want[600];
    snprintf(want, sizeof want, "%s/%s", tmpdir, name);
    int i = 0;
    while (i < n_paths && strcmp(paths[i], want) != 0)
        i++;
    if (i == n_paths)
        n_paths++;
    char *path = paths[i];
    memcpy(path, want, sizeof want);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static const char *config(const char *text) { return write_file("config.yaml", text); }

/* Opens a runtime from config text that must fail; checks the message contains want. */
static void open_fails(const char *text, TsErrorCode code, const char *want, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(config(text), &err);
    ok(rt == NULL, "%s: the runtime does not open", what);
    is_int(err.code, code, "%s: error code", what);
    like(err.msg, want, "%s: message", what);
    ts_runtime_close(rt);
    ts_error_clear(&err);
}

/* Calls the kernel of op on backend with the stack. */
static int call(TsRuntime *rt, const char *name, const char *overload, const char *backend,
                TsStack *stack, TsError *err)
{
    const TsOperator *op = ts_optable_find(ts_runtime_optable(rt), name, overload);
    const TsKernelEntry *k = op ? ts_operator_kernel(op, backend) : NULL;
    if (!k || !k->fn)
        return ts_error_set(err, TS_ERR_RUNTIME, "no kernel for %s on %s", name, backend);
    TsCall c = { stack, err, NULL, rt, op };
    return k->fn(&c);
}

static void test_standard_plugins(void)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(config("plugins: [prim, aten-cpu]\n"), &err);
    ok(rt != NULL, "prim and aten-cpu load from the build tree");
    if (!rt) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    const TsOperator *add = ts_optable_find(ts_runtime_optable(rt), "aten::add", "Tensor");
    ok(add && ts_operator_kernel(add, "cpu"), "aten::add.Tensor has a cpu kernel");
    is_int(ts_runtime_num_plugins(rt), 2, "two plugins");
    is_str(ts_runtime_plugin_name(rt, 0), "prim", "prim first");
    like(ts_runtime_plugin_path(rt, 1), "/plugins/aten-cpu/.libs/aten-cpu.so",
         "aten-cpu from the build tree");
    ok(ts_runtime_allocator(rt, TS_DEV_CPU) != NULL, "the cpu backend has an allocator");
    is_str(ts_runtime_default_backend(rt), "cpu", "the default backend is cpu");
    ts_runtime_close(rt);

    rt = ts_runtime_open(NULL, &err);
    ok(rt != NULL, "the embedded default config opens");
    if (rt) {
        is_int(ts_runtime_num_plugins(rt), 1, "prim alone at open (the rest on first use)");
        ok(ts_runtime_load_plugins(rt, &err) == 0, "the rest load on request");
        is_int(ts_runtime_num_plugins(rt), DEFAULT_PLUGINS, "with the default plugins");
        is_str(ts_runtime_plugin_name(rt, DEFAULT_PLUGINS - 2), DEFAULT_SECOND_LAST,
               "prim, aten-cpu, aten-dnnl where it is built, fuser-cpu");
        ok(ts_runtime_num_threads(rt) >= 1, "and some threads");
    } else {
        diag("%s", err.msg);
    }
    ts_error_clear(&err);
    ts_runtime_close(rt);

    rt = ts_runtime_open(config(""), &err);
    ok(rt && ts_runtime_num_plugins(rt) == 1 && ts_runtime_num_operators(rt) > 1000 &&
       ts_runtime_num_plugins(rt) == DEFAULT_PLUGINS,
       "an empty config loads the default plugins (on first use: listing the operators)");
    ts_runtime_close(rt);
    rt = ts_runtime_open(config("load: at_open\n"), &err);
    ok(rt && ts_runtime_num_plugins(rt) == DEFAULT_PLUGINS,
       "load: at_open loads the default plugins at open");
    ts_runtime_close(rt);
    rt = ts_runtime_open(config("plugins: []\n"), &err);
    ok(rt && ts_runtime_num_plugins(rt) == 0 && ts_optable_size(ts_runtime_optable(rt)) == 0,
       "plugins: [] loads nothing");
    ts_runtime_close(rt);
    ts_error_clear(&err);
}

static void test_good_plugin(void)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(config("plugins: [prim, " TEST_PLUGINS "/good.so]\n"
                                           "schema_path: [" TEST_DATA "]\n"
                                           "num_threads: 3\n"
                                           "default_backend: cpu\n"),
                                    &err);
    ok(rt != NULL, "a plugin by path, its schemas on the schema path");
    if (!rt) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    const TsOpTable *t = ts_runtime_optable(rt);
    const TsOperator *twice = ts_optable_find(t, "test::twice", "");
    ok(twice != NULL, "test::twice is declared");
    is_str(twice ? twice->plugin : NULL, "good", "by the good plugin");
    char where[4096] = "";
    if (twice)
        ts_operator_source(twice, where, sizeof where);
    like(where, "t/data/good.yaml:4:11", "in good.yaml");
    TsStack s = { NULL, 0, 0 };
    ts_stack_push(&s, ts_int(21), &err);
    is_int(call(rt, "test::twice", "", "cpu", &s, &err), 0, "call test::twice through the table");
    ok(s.len == 1 && s.data[0].u.i == 42, "it pushes 42");
    ts_stack_drop(&s, s.len);
    ts_stack_push(&s, ts_int(5), &err);
    is_int(call(rt, "test::neg", "int", "cuda", &s, &err), 0,
           "an 'any' kernel serves any backend");
    ok(s.len == 1 && s.data[0].u.i == -5, "it pushes -5");
    ts_stack_free(&s);
    int dev = ts_device_type_lookup("gooddev");
    ok(dev >= 0 && ts_runtime_allocator(rt, dev) != NULL, "the plugin's allocator is registered");
    is_int(ts_runtime_num_threads(rt), 3, "num_threads from the config");
    ts_runtime_close(rt);

    setenv("TSCRIPT_NUM_THREADS", "5", 1);
    rt = ts_runtime_open(config("plugins: []\nnum_threads: 3\n"), &err);
    ok(rt && ts_runtime_num_threads(rt) == 5, "$TSCRIPT_NUM_THREADS wins over the config");
    ts_runtime_close(rt);
    setenv("TSCRIPT_NUM_THREADS", "lots", 1);
    rt = ts_runtime_open(config("plugins: []\n"), &err);
    ok(rt == NULL, "a bad $TSCRIPT_NUM_THREADS fails");
    like(err.msg, "TSCRIPT_NUM_THREADS: expected an integer from 1 to 4096, got 'lots'",
         "saying why");
    ts_error_clear(&err);
    unsetenv("TSCRIPT_NUM_THREADS");

    rt = ts_runtime_open(config("plugins: [good]\nplugin_path: [" TEST_PLUGINS "]\n"
                                "schema_path: [/nonexistent, " TEST_DATA "]\n"),
                         &err);
    ok(rt && ts_optable_find(ts_runtime_optable(rt), "test::twice", ""),
       "a plugin by name on the config's plugin_path");
    ts_runtime_close(rt);
    ts_error_clear(&err);

    setenv("TSCRIPT_PLUGIN_PATH", "/nonexistent::" TEST_PLUGINS, 1);
    setenv("TSCRIPT_SCHEMA_PATH", TEST_DATA, 1);
    setenv("TSCRIPT_CONFIG", config("plugins: [good]\n"), 1);
    rt = ts_runtime_open(NULL, &err);
    ok(rt && ts_optable_find(ts_runtime_optable(rt), "test::twice", ""),
       "$TSCRIPT_CONFIG, $TSCRIPT_PLUGIN_PATH and $TSCRIPT_SCHEMA_PATH");
    if (!rt)
        diag("%s", err.msg);
    ts_runtime_close(rt);
    ts_error_clear(&err);
    unsetenv("TSCRIPT_CONFIG");
    unsetenv("TSCRIPT_PLUGIN_PATH");
    unsetenv("TSCRIPT_SCHEMA_PATH");
}

/* The path vendors will use: their plugin and schema file, named in a config file. */
static void test_vendor_plugin(void)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(config("plugins: [prim, aten-cpu, " VENDOR_LIBS "/acme.so]\n"
                                           "schema_path: [" VENDOR_SRC "]\n"),
                                    &err);
    ok(rt != NULL, "the vendor example loads through a config file");
    if (!rt) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    const TsOperator *op = ts_optable_find(ts_runtime_optable(rt), "acme::clamp_int", "");
    is_str(op ? op->plugin : NULL, "acme", "acme::clamp_int is declared by acme");
    TsStack s = { NULL, 0, 0 };
    ts_stack_push(&s, ts_int(15), &err);
    ts_stack_push(&s, ts_int(0), &err);
    ts_stack_push(&s, ts_int(10), &err);
    is_int(call(rt, "acme::clamp_int", "", "cpu", &s, &err), 0, "call acme::clamp_int");
    ok(s.len == 1 && s.data[0].u.i == 10, "clamp_int(15, 0, 10) == 10");
    ts_stack_drop(&s, s.len);
    ts_stack_push(&s, ts_int(1), &err);
    ts_stack_push(&s, ts_int(5), &err);
    ts_stack_push(&s, ts_int(2), &err);
    is_int(call(rt, "acme::clamp_int", "", "cpu", &s, &err), TS_ERR_VALUE,
           "a kernel's error comes back through the call");
    like(err.msg, "acme::clamp_int: lo (5) is greater than hi (2)", "with its message");
    ts_error_clear(&err);
    ts_stack_free(&s);
    ts_runtime_close(rt);

    /* the example's own config, with the build directory on $TSCRIPT_PLUGIN_PATH */
    setenv("TSCRIPT_PLUGIN_PATH", VENDOR_LIBS, 1);
    rt = ts_runtime_open(VENDOR_SRC "/config.yaml", &err);
    ok(rt && ts_optable_find(ts_runtime_optable(rt), "acme::saxpy", ""),
       "the example's config.yaml loads acme by name");
    if (!rt)
        diag("%s", err.msg);
    ts_error_clear(&err);
    ts_runtime_close(rt);
    unsetenv("TSCRIPT_PLUGIN_PATH");
}

/* ---- failures, at the plugin level: the table must keep nothing of a failed plugin ---- */

typedef struct Env {
    TsOpTable *table;
    TsAllocatorSlot allocs[TS_DEV__MAX];
    TsPlugin *loaded[8];
    size_t n;
    TsStrList schema_path;
} Env;

static void load_fails(Env *e, const char *path, const char *want, const char *absent,
                       const char *what)
{
    TsError err = TS_ERROR_INIT;
    size_t before = ts_optable_size(e->table);
    TsPlugin *p = NULL;
    int rc = ts_plugin_load(path, &e->schema_path, e->table, e->allocs, e->loaded, e->n, &p,
                            &err);
    ok(rc != 0 && p == NULL, "%s: fails", what);
    like(err.msg, want, "%s: message", what);
    ok(!err.msg || strncmp(err.msg, path, strlen(path)) == 0 || strstr(err.msg, path),
       "%s: the message names the file", what);
    is_int(ts_optable_size(e->table), before, "%s: no operator added", what);
    if (absent)
        ok(ts_optable_find(e->table, absent, "") == NULL, "%s: %s is not registered", what,
           absent);
    const TsOperator *twice = ts_optable_find(e->table, "test::twice", "");
    ok(twice && twice->n_kernels == 1, "%s: no kernel added to test::twice", what);
    ts_error_clear(&err);
    ts_plugin_unload(p);
}

static void test_failures(void)
{
    TsError err = TS_ERROR_INIT;
    Env e = { ts_optable_new(&err), { { NULL, NULL } }, { NULL }, 0, { 0, NULL } };
    ts_strlist_push(&e.schema_path, TEST_DATA, &err);
    int rc = ts_plugin_load(TEST_PLUGINS "/good.so", &e.schema_path, e.table, e.allocs, e.loaded,
                            e.n, &e.loaded[e.n], &err);
    ok(rc == 0, "the good plugin loads into a bare table");
    if (rc) {
        diag("%s", err.msg);
        return;
    }
    e.n++;
    size_t ops = ts_optable_size(e.table);

    char missing[600];
    snprintf(missing, sizeof missing, "%s/nothere.so", tmpdir);
    load_fails(&e, missing, "nothere.so: plugin file not found", NULL, "a missing file");
    load_fails(&e, write_file("x.so", "not a shared object\n"), "x.so: cannot load plugin: ",
               NULL, "a text file named x.so");
    load_fails(&e, TEST_PLUGINS "/noentry.so", "not a tscript plugin (no 'tscript_plugin' symbol)",
               NULL, "no entry point");
    load_fails(&e, TEST_PLUGINS "/abi.so",
               "plugin " TEST_PLUGINS "/abi.so was built for ABI v7, this tscript has ABI v5",
               "test::from_the_future", "ABI mismatch");
    load_fails(&e, TEST_PLUGINS "/initfail.so", "initfail.so: init failed: no initfail device found",
               "test::leak", "init failing");
    load_fails(&e, TEST_PLUGINS "/dupkernel.so",
               "plugin 'dupkernel' registers a second kernel for test::twice on backend 'cpu' "
               "(plugin 'good' registered the first)",
               "test::dup_only", "a second kernel across two plugins");
    load_fails(&e, TEST_PLUGINS "/badschema.so", "t/data/good_then_bad.yaml:3:29: ",
               "test::fine", "a bad schema file");
    load_fails(&e, TEST_PLUGINS "/conflict.so",
               "t/data/conflict.yaml:2:9: plugin 'conflict' declares 'test::twice(float x) -> "
               "float', but plugin 'good' declared it as 'test::twice(int x) -> int' (",
               "test::conflict_only", "a clashing declaration");
    load_fails(&e, TEST_PLUGINS "/good.so", "plugin 'good' is already loaded", NULL,
               "the same plugin twice");

    TsStrList none = { 0, NULL };
    char *p = ts_plugin_find("nothere", &none, &err);
    ok(p == NULL, "a plugin name that is nowhere");
    like(err.msg, "plugin 'nothere' not found (tried " TS_TEST_BUILDDIR
                  "/plugins/nothere/.libs/nothere.so)",
         "lists where it looked");
    ts_error_clear(&err);

    is_int(ts_optable_size(e.table), ops, "the table is as the good plugin left it");
    const TsOperator *twice = ts_optable_find(e.table, "test::twice", "");
    const TsKernelEntry *k = twice ? ts_operator_kernel(twice, "cpu") : NULL;
    is_str(k ? k->plugin : NULL, "good", "test::twice still has the good plugin's kernel");
    ts_optable_free(e.table);
    for (size_t i = e.n; i-- > 0;)
        ts_plugin_unload(e.loaded[i]);
    for (size_t i = 0; i < TS_DEV__MAX; i++)
        free(e.allocs[i].plugin);
    ts_strlist_free(&e.schema_path);
}

/* ---- plugins in any order: kernels for operators a later plugin declares ------------- */

static int later_kernel(TsCall *c)
{
    int64_t x = ts_stack_pop(c->stack).u.i;
    return ts_stack_push(c->stack, ts_int(x + 100), c->error);
}

static int faster_kernel(TsCall *c)
{
    int64_t x = ts_stack_pop(c->stack).u.i;
    return ts_stack_push(c->stack, ts_int(x - 100), c->error);
}

static void test_load_order(void)
{
    TsError err = TS_ERROR_INIT;
    TsOpTable *t = ts_optable_new(&err);
    TsAllocatorSlot allocs[TS_DEV__MAX] = { { NULL, NULL } };

    /* a kernel for test::later, which nobody has declared yet, on a backend of its own */
    TsRegistry *r = ts_registry_begin(t, allocs, "vendor", &err);
    is_int(ts_register_kernel(r, "test::later", "", "vendordev", later_kernel, &err), 0,
           "a kernel for an operator no plugin declared yet is accepted");
    is_int(ts_register_kernel(r, "test::later", "", "vendordev", later_kernel, &err),
           TS_ERR_PLUGIN, "a second one for the same backend is not");
    like(err.msg, "plugin 'vendor' registers a second kernel for test::later on backend "
                  "'vendordev' (plugin 'vendor' registered the first)", "naming the plugin");
    ts_error_clear(&err);
    ts_registry_free(r);
    is_int(ts_optable_resolve(t, &err), 0, "a failed transaction leaves no waiting kernel");

    r = ts_registry_begin(t, allocs, "vendor", &err);
    ts_register_kernel(r, "test::later", "", "vendordev", later_kernel, &err);
    is_int(ts_registry_commit(r, &err), 0, "the vendor plugin commits");
    ts_registry_free(r);
    ok(ts_optable_find(t, "test::later", "") == NULL, "test::later is not an operator yet");

    r = ts_registry_begin(t, allocs, "other", &err);
    is_int(ts_register_kernel(r, "test::later", "", "vendordev", later_kernel, &err),
           TS_ERR_PLUGIN, "another plugin's kernel for the same waiting operator and backend");
    like(err.msg, "plugin 'other' registers a second kernel for test::later on backend "
                  "'vendordev' (plugin 'vendor' registered the first)", "names both plugins");
    ts_error_clear(&err);
    ts_registry_free(r);

    r = ts_registry_begin(t, allocs, "owner", &err);
    is_int(ts_register_schema(r, "test::later(int x) -> int", &err), 0,
           "a later plugin declares test::later");
    is_int(ts_register_kernel(r, "test::later", "", "cpu", later_kernel, &err), 0,
           "with a cpu kernel of its own");
    is_int(ts_registry_commit(r, &err), 0, "and commits");
    ts_registry_free(r);
    is_int(ts_optable_resolve(t, &err), 0, "the waiting kernel resolves");
    const TsOperator *op = ts_optable_find(t, "test::later", "");
    const TsKernelEntry *k = op ? ts_operator_kernel_exact(op, "vendordev") : NULL;
    is_str(k ? k->plugin : NULL, "vendor", "test::later has the vendor's kernel on vendordev");
    ok(k && k->fn == later_kernel, "the very function");
    is_str(op ? op->plugin : NULL, "owner", "the owner declared it");
    is_int(op ? (long)op->n_kernels : 0, 2, "two kernels: cpu and vendordev");
    ts_optable_free(t);

    /* the same through configs: the plugin's order does not change the outcome */
    const char *orders[2] = {
        "plugins: [" TEST_PLUGINS "/dupkernel.so, " TEST_PLUGINS "/good.so]\n"
        "schema_path: [" TEST_DATA "]\n",
        "plugins: [" TEST_PLUGINS "/good.so, " TEST_PLUGINS "/dupkernel.so]\n"
        "schema_path: [" TEST_DATA "]\n",
    };
    for (int i = 0; i < 2; i++)
        open_fails(orders[i], TS_ERR_PLUGIN,
                   "plugin 'dupkernel' registers a second kernel for test::twice on backend "
                   "'cpu' (plugin 'good' registered the first)",
                   i ? "a second kernel, loaded after the owner"
                     : "a second kernel, loaded before the owner");
    open_fails("plugins: [" TEST_PLUGINS "/undeclared.so, " TEST_PLUGINS "/good.so]\n"
               "schema_path: [" TEST_DATA "]\n", TS_ERR_PLUGIN,
               "plugin 'undeclared' registers a kernel for test::nope, which no schema declares",
               "a kernel no plugin declares the schema of (error ignored by init)");
}

/* ---- a kernel that replaces an earlier plugin's (ts_override_kernel) ---------------- */

static int factory(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                   void (**free_data)(void *), TsError *err)
{
    *fn = later_kernel;
    return 0;
}

/* test::twice through the runtime of config text: its answer for x, or -1000 on failure. */
static int64_t twice_of(const char *text, int64_t x, const char **plugin)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(config(text), &err);
    TsStack s = { NULL, 0, 0 };
    int64_t got = -1000;
    if (rt) {
        const TsOperator *op = ts_optable_find(ts_runtime_optable(rt), "test::twice", "");
        const TsKernelEntry *k = op ? ts_operator_kernel_exact(op, "cpu") : NULL;
        *plugin = k && strcmp(k->plugin, "override") == 0 ? "override" : "good";
        ts_stack_push(&s, ts_int(x), &err);
        if (call(rt, "test::twice", "", "cpu", &s, &err) == 0 && s.len == 1)
            got = s.data[0].u.i;
    }
    if (err.code)
        diag("%s", err.msg);
    ts_stack_free(&s);
    ts_runtime_close(rt);
    ts_error_clear(&err);
    return got;
}

static void test_override(void)
{
    TsError err = TS_ERROR_INIT;
    TsOpTable *t = ts_optable_new(&err);
    TsAllocatorSlot allocs[TS_DEV__MAX] = { { NULL, NULL } };
    TsKernelFn prev = NULL;

    TsRegistry *r = ts_registry_begin(t, allocs, "owner", &err);
    ts_register_schema(r, "test::over(int x) -> int", &err);
    ts_register_schema(r, "test::made(int x) -> int", &err);
    ts_register_kernel(r, "test::over", "", "cpu", later_kernel, &err);
    ts_register_factory(r, "test::made", "", "cpu", factory, &err);
    is_int(ts_registry_commit(r, &err), 0, "the owner commits a kernel and a factory");
    ts_registry_free(r);

    r = ts_registry_begin(t, allocs, "fast", &err);
    is_int(ts_override_kernel(r, "test::over", "", "cuda", later_kernel, &prev, &err),
           TS_ERR_PLUGIN, "no kernel to replace on that backend");
    like(err.msg, "plugin 'fast' replaces the kernel of test::over on backend 'cuda', which no "
                  "plugin loaded before it registered", "says so");
    ts_error_clear(&err);
    is_int(ts_override_kernel(r, "test::made", "", "cpu", later_kernel, &prev, &err),
           TS_ERR_PLUGIN, "a factory cannot be replaced");
    like(err.msg, "a kernel factory of plugin 'owner': only a plain kernel can be replaced",
         "says so");
    ts_error_clear(&err);
    ts_registry_free(r);

    r = ts_registry_begin(t, allocs, "fast", &err);
    is_int(ts_override_kernel(r, "test::over", "", "cpu", faster_kernel, &prev, &err), 0,
           "an override of the owner's cpu kernel is staged");
    ok(prev == later_kernel, "giving back the kernel it replaces");
    is_int(ts_override_kernel(r, "test::over", "", "cpu", faster_kernel, &prev, &err),
           TS_ERR_PLUGIN, "not twice");
    ts_error_clear(&err);
    ts_registry_free(r);
    const TsOperator *op = ts_optable_find(t, "test::over", "");
    const TsKernelEntry *k = op ? ts_operator_kernel_exact(op, "cpu") : NULL;
    ok(k && k->fn == later_kernel && strcmp(k->plugin, "owner") == 0,
       "a transaction that does not commit replaces nothing");

    r = ts_registry_begin(t, allocs, "fast", &err);
    ts_override_kernel(r, "test::over", "", "cpu", faster_kernel, &prev, &err);
    is_int(ts_registry_commit(r, &err), 0, "one that commits");
    ts_registry_free(r);
    k = op ? ts_operator_kernel_exact(op, "cpu") : NULL;
    ok(k && k->fn == faster_kernel && strcmp(k->plugin, "fast") == 0,
       "replaces the kernel, and its plugin's name");
    is_int(op ? (long)op->n_kernels : 0, 1, "still one kernel on the operator");
    ts_optable_free(t);

    /* through configs: listed after the good plugin it takes over; before, it fails */
    const char *plugin = NULL;
    const char *after = "plugins: [" TEST_PLUGINS "/good.so, " TEST_PLUGINS "/override.so]\n"
                        "schema_path: [" TEST_DATA "]\n";
    is_int(twice_of(after, 7, &plugin), 21, "listed after the good plugin, its kernel runs");
    is_str(plugin, "override", "the table names it");
    is_int(twice_of(after, -4, &plugin), -8, "and hands the calls it does not take back");
    is_int(twice_of("plugins: [" TEST_PLUGINS "/good.so]\nschema_path: [" TEST_DATA "]\n", 7,
                    &plugin), 14, "left out of the config, the good plugin's runs");
    open_fails("plugins: [" TEST_PLUGINS "/override.so, " TEST_PLUGINS "/good.so]\n"
               "schema_path: [" TEST_DATA "]\n", TS_ERR_PLUGIN,
               "plugin 'override' replaces the kernel of test::twice on backend 'cpu', which "
               "no plugin loaded before it registered", "listed before the good plugin");
}

static void test_runtime_failures(void)
{
    open_fails("plugins: [prim, nothere]\n", TS_ERR_PLUGIN,
               "config.yaml:1:17: plugin 'nothere' not found (tried ", "a missing plugin name");
    char want[700];
    snprintf(want, sizeof want, "config.yaml:1:11: %s/./nothere.so: plugin file not found", tmpdir);
    open_fails("plugins: [./nothere.so]\n", TS_ERR_PLUGIN, want,
               "a relative plugin path is taken from the config's directory");
    open_fails("plugins: [" TEST_PLUGINS "/good.so, " TEST_PLUGINS "/initfail.so]\n"
               "schema_path: [" TEST_DATA "]\n", TS_ERR_PLUGIN,
               "init failed: no initfail device found", "a failing plugin fails the runtime");
    open_fails("plugins: [prim\n", TS_ERR_CONFIG,
               "config.yaml:2:1: did not find expected ',' or ']'", "bad YAML");
    open_fails("plugins: []\nthreads: 4\n", TS_ERR_CONFIG,
               "config.yaml:2:1: unknown key 'threads' (expected plugins, default_backend, "
               "num_threads, cuda_graphs, blas_core, load, plugin_path or schema_path)",
               "an unknown key");
    open_fails("load: later\n", TS_ERR_CONFIG,
               "config.yaml:1:7: 'load' must be at_open or on_first_use", "a bad load setting");
    open_fails("cuda_graphs: maybe\n", TS_ERR_CONFIG,
               "config.yaml:1:14: 'cuda_graphs' must be true or false", "cuda_graphs not a bool");
    open_fails("cuda_graphs: 'true'\n", TS_ERR_CONFIG,
               "config.yaml:1:14: 'cuda_graphs' must be true or false", "cuda_graphs quoted");
    open_fails("num_threads: many\n", TS_ERR_CONFIG,
               "config.yaml:1:14: 'num_threads' must be an integer from 1 to 4096",
               "num_threads not a number");
    open_fails("num_threads: 0\n", TS_ERR_CONFIG, "config.yaml:1:14: 'num_threads' must be",
               "num_threads zero");
    open_fails("num_threads: '4'\n", TS_ERR_CONFIG, "config.yaml:1:14: 'num_threads' must be",
               "num_threads a string");
    open_fails("plugins: prim\n", TS_ERR_CONFIG,
               "config.yaml:1:10: 'plugins' must be a sequence of strings", "plugins a scalar");
    open_fails("plugins: [[prim]]\n", TS_ERR_CONFIG,
               "config.yaml:1:11: 'plugins' entries must be non-empty strings",
               "a plugin entry that is a list");
    open_fails("schema_path: {a: b}\n", TS_ERR_CONFIG,
               "config.yaml:1:14: 'schema_path' must be a sequence of strings",
               "schema_path a mapping");
    open_fails("plugins: []\ndefault_backend: [cpu]\n", TS_ERR_CONFIG,
               "config.yaml:2:18: 'default_backend' must be a backend name",
               "default_backend a list");
    open_fails("plugins: []\ndefault_backend: nodev\n", TS_ERR_CONFIG,
               "default_backend 'nodev' is not a backend any loaded plugin provides",
               "an unknown default backend");
    open_fails("- prim\n", TS_ERR_CONFIG,
               "config.yaml:1:1: a config file must be a mapping of settings", "a list config");
    open_fails("plugins: []\nplugins: [prim]\n", TS_ERR_CONFIG,
               "config.yaml:2:1: duplicate key 'plugins'", "a duplicate key");

    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open("/nonexistent/config.yaml", &err);
    ok(rt == NULL, "a missing config file");
    is_int(err.code, TS_ERR_CONFIG, "is a config error");
    like(err.msg, "/nonexistent/config.yaml: cannot open: ", "naming the file");
    ts_error_clear(&err);
}

/* ---- the command line ----------------------------------------------------------------- */

/* Runs the tscript CLI with args; returns its exit status and its output (stdout+stderr). */
static int run_cli(const char *args, char *out, size_t size)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/tscript %s 2>&1", TS_TEST_BUILDDIR, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_cli(void)
{
    static char out[1 << 16];
    is_int(run_cli("ops aten::add", out, sizeof out), 0, "tscript ops aten::add");
    like(out, "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
         "lists aten::add.Tensor");
    ok(strstr(out, "aten::mul") == NULL, "and nothing that does not match");

    char args[1024];
    snprintf(args, sizeof args, "--config %s ops 'test::*'",
             config("plugins: [" TEST_PLUGINS "/good.so]\nschema_path: [" TEST_DATA "]\n"));
    is_int(run_cli(args, out, sizeof out), 0, "tscript --config FILE ops GLOB");
    is_str(out,
           "good    cpu      test::twice(int x) -> int\n"
           "good    any      test::neg.int(int x) -> int\n",
           "one aligned line per operator: plugin, backends, schema");

    is_int(run_cli("ops no::such_op", out, sizeof out), 1, "no match: exit 1");
    like(out, "no operator matches 'no::such_op'", "with a message");
    is_int(run_cli("", out, sizeof out), 2, "no command: exit 2");
    like(out, "usage: tscript", "with the usage");
    is_int(run_cli("frobnicate", out, sizeof out), 2, "an unknown command: exit 2");
    like(out, "tscript: frobnicate: unknown command", "named");
    is_int(run_cli("--bogus ops", out, sizeof out), 2, "an unknown option: exit 2");
    is_int(run_cli("ops a b", out, sizeof out), 2, "too many arguments: exit 2");
    is_int(run_cli("--config", out, sizeof out), 2, "--config without a file: exit 2");
    is_int(run_cli("--config /nonexistent/c.yaml ops", out, sizeof out), 1,
           "a bad --config: exit 1");
    like(out, "tscript: /nonexistent/c.yaml: cannot open", "with the reason");
    snprintf(args, sizeof args, "--config %s ops", config("plugins: [nothere]\n"));
    is_int(run_cli(args, out, sizeof out), 1, "a config naming a missing plugin: exit 1");
    is_int(run_cli("--version", out, sizeof out), 0, "--version");
    is_str(out, "tscript " TS_VERSION " (plugin ABI v5)\n", "prints the version");
    is_int(run_cli("version", out, sizeof out), 0, "version");
    is_int(run_cli("--help", out, sizeof out), 0, "--help");
    like(out, "\n  ops      list the operator table", "lists the commands");
}

int main(void)
{
    unsetenv("TSCRIPT_CONFIG");
    unsetenv("TSCRIPT_PLUGIN_PATH");
    unsetenv("TSCRIPT_SCHEMA_PATH");
    unsetenv("TSCRIPT_NUM_THREADS");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_standard_plugins();
    test_good_plugin();
    test_vendor_plugin();
    test_failures();
    test_load_order();
    test_override();
    test_runtime_failures();
    test_cli();
    for (int i = 0; i < n_paths; i++)
        unlink(paths[i]);
    rmdir(tmpdir);
    ts_types_shutdown();
    return done_testing();
}
