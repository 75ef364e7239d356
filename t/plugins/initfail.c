/* initfail.c — a plugin whose init registers things and then fails: none of it may stay
 * registered (t/plugin.t). */
#include "tscript/plugin.h"

static int leak(TsCall *c) { return 0; }

static int init(TsRegistry *r, TsError *err)
{
    if (ts_register_schema(r, "test::leak(int x) -> int", err) ||
        ts_register_kernel(r, "test::leak", "", "cpu", leak, err) ||
        ts_register_kernel(r, "test::twice", "", "initfaildev", leak, err))
        return err->code;
    return ts_error_set(err, TS_ERR_RUNTIME, "no initfail device found");
}

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "initfail", NULL, init, NULL
};
