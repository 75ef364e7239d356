/* ir_passes.c — the graph-pass registry against the core (registry/passes.h, plugin.c):
 * passes run in registration order, one plugin's after another's; a registration that fails
 * leaves nothing of the plugin behind (no pass, no operator); a second name is refused
 * whichever plugin registers it; and the loader's transaction with the passdemo plugin.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ir/ir.h"
#include "registry/plugin.h"

static char order[64];

/* Appends its ctx (a one-letter string) to order. */
static int record(TsGraph *g, void *ctx, TsError *err)
{
    (void)g;
    (void)err;
    strncat(order, ctx, sizeof order - strlen(order) - 1);
    return 0;
}

static int fail_pass(TsGraph *g, void *ctx, TsError *err)
{
    (void)g;
    (void)ctx;
    return ts_error_set(err, TS_ERR_VALUE, "no");
}

static int stage(TsOpTable *t, TsAllocatorSlot *slots, const char *plugin, const char *names,
                 bool commit, TsError *err)
{
    TsRegistry *r = ts_registry_begin(t, slots, plugin, err);
    static const char *const letters[] = { "a", "b", "c", "d", "e" };
    int rc = r ? 0 : -1;
    for (const char *p = names; !rc && *p; p++) {
        char name[16];
        snprintf(name, sizeof name, "%s.%c", plugin, *p);
        rc = ts_register_pass(r, name, record, (void *)letters[*p - 'a'], err);
    }
    if (!rc && commit)
        rc = ts_registry_commit(r, err);
    ts_registry_free(r);
    return rc;
}

int main(void)
{
    TsError err = TS_ERROR_INIT;
    TsAllocatorSlot slots[TS_DEV__MAX] = { { 0 } };
    TsOpTable *t = ts_optable_new(&err);
    const TsPassList *passes = ts_optable_passes(t);

    ok(stage(t, slots, "one", "ba", true, &err) == 0 && stage(t, slots, "two", "c", true, &err) == 0 &&
       passes->n == 3, "two plugins register three passes");
    TsGraph *g = ts_graph_parse("graph(%a : int):\n  return (%a)\n", "g.ir", &err);
    ok(g && ts_passes_run(passes, TS_PASS_COMPILE, g, "__torch__.f", &err) == 0, "they run");
    is_str(order, "bac", "in registration order, plugin by plugin");

    ok(stage(t, slots, "three", "d", false, &err) == 0 && passes->n == 3,
       "a registry freed without its commit adds nothing");
    is_int(stage(t, slots, "four", "e", true, &err) == 0 ? 0 : err.code, 0,
           "a later plugin's passes commit");
    ts_error_clear(&err);
    int rc = stage(t, slots, "one", "a", true, &err);
    ok(rc == TS_ERR_PLUGIN && err.msg &&
       strstr(err.msg, "plugin 'one' registers a second graph pass 'one.a' (plugin 'one' "
                       "registered the first)"), "a name already committed is refused");
    ts_error_clear(&err);
    TsRegistry *r = ts_registry_begin(t, slots, "five", &err);
    ok(ts_register_pass(r, "five.x", record, NULL, &err) == 0 &&
       ts_register_pass(r, "five.x", record, NULL, &err) == TS_ERR_PLUGIN &&
       ts_registry_failure(r)->code == TS_ERR_PLUGIN, "a name staged twice is refused, and "
                                                        "fails the registration");
    ts_error_clear(&err);
    ok(ts_register_pass(r, "", record, NULL, &err) == TS_ERR_USAGE &&
       ts_register_pass(r, "five.y", NULL, NULL, &err) == TS_ERR_USAGE,
       "a pass needs a name and a function");
    ts_error_clear(&err);
    ts_registry_free(r);
    ok(passes->n == 4 && !ts_pass_list_find(passes, "five.x"), "nothing of it is registered");

    /* the loader: passdemo with a duplicate pass fails, leaving neither passes nor ops */
    char path[1024];
    snprintf(path, sizeof path, "%s/t/plugins/passdemo/.libs/passdemo.so", TS_TEST_BUILDDIR);
    TsStrList none = { 0 };
    TsPlugin *p = NULL;
    setenv("PASSDEMO_MODE", "dup", 1);
    rc = ts_plugin_load(path, &none, t, slots, NULL, 0, &p, &err);
    ok(rc == TS_ERR_PLUGIN && !p && err.msg && strstr(err.msg, "second graph pass"),
       "a plugin registering a pass name twice fails to load");
    ts_error_clear(&err);
    ok(passes->n == 4 && !ts_pass_list_find(passes, "passdemo.int_identity") &&
       !ts_optable_find(t, "passdemo::add_relu", ""),
       "none of its passes and none of its operators stay registered");
    unsetenv("PASSDEMO_MODE");
    rc = ts_plugin_load(path, &none, t, slots, NULL, 0, &p, &err);
    ok(rc == 0 && p && passes->n == 6 && ts_optable_find(t, "passdemo::add_relu", "") &&
       strcmp(passes->items[4].name, "passdemo.int_identity") == 0 &&
       strcmp(passes->items[5].plugin, "passdemo") == 0, "loaded cleanly, it adds both");
    if (err.msg)
        diag("%s", err.msg);
    ts_error_clear(&err);

    /* a failing pass stops the run, naming itself; the passes after it do not run */
    ts_optable_free(t);    /* its kernels and passes first, then its code */
    ts_plugin_unload(p);
    t = ts_optable_new(&err);
    r = ts_registry_begin(t, slots, "six", &err);
    ok(ts_register_pass(r, "six.fail", fail_pass, NULL, &err) == 0 &&
       ts_register_pass(r, "six.after", record, "z", &err) == 0 &&
       ts_registry_commit(r, &err) == 0, "a failing pass registered before another");
    ts_registry_free(r);
    order[0] = '\0';
    rc = ts_passes_run(ts_optable_passes(t), TS_PASS_COMPILE, g, "__torch__.g", &err);
    ok(rc == TS_ERR_VALUE && err.msg &&
       strcmp(err.msg, "graph pass 'six.fail' of plugin 'six' failed on __torch__.g: no") == 0 &&
       order[0] == '\0', "the run stops at it, with its code and message, naming it");
    if (err.msg)
        diag("%s", err.msg);
    ts_error_clear(&err);
    ts_graph_free(g);
    ts_optable_free(t);
    return done_testing();
}
