/* abi.c — a plugin built for a future ABI (v7): the loader must refuse it before reading
 * anything past the version (t/plugin.t). */
#include "tscript/plugin.h"

static int init(TsRegistry *r, TsError *err)
{
    return ts_register_schema(r, "test::from_the_future(int x) -> int", err);
}

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = { 7, "abi", NULL, init, NULL };
