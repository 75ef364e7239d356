/* badschema.c — names a schema file with a malformed declaration (t/plugin.t). */
#include "tscript/plugin.h"

static int init(TsRegistry *r, TsError *err) { return 0; }

static const char *const schemas[] = { "good_then_bad.yaml", NULL };

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "badschema", schemas, init, NULL
};
