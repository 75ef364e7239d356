/* dupkernel.c — registers a second cpu kernel for test::twice, which the good plugin
 * already implements (t/plugin.t). */
#include "tscript/plugin.h"

static int other_twice(TsCall *c) { return 0; }

static int init(TsRegistry *r, TsError *err)
{
    if (ts_register_schema(r, "test::dup_only(int x) -> int", err) ||
        ts_register_kernel(r, "test::dup_only", "", "cpu", other_twice, err))
        return err->code;
    return ts_register_kernel(r, "test::twice", "", "cpu", other_twice, err);
}

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "dupkernel", NULL, init, NULL
};
