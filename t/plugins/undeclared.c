/* undeclared.c — registers a kernel for an operator no schema declares, and ignores the
 * error: the loader must fail the plugin anyway (t/plugin.t). */
#include "tscript/plugin.h"

static int nope(TsCall *c) { return 0; }

static int init(TsRegistry *r, TsError *err)
{
    ts_register_schema(r, "test::declared(int x) -> int", err);
    ts_register_kernel(r, "test::declared", "", "cpu", nope, err);
    ts_register_kernel(r, "test::nope", "", "cpu", nope, err);
    ts_error_clear(err);
    return 0;
}

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "undeclared", NULL, init, NULL
};
