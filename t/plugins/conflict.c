/* conflict.c — declares test::twice with a different schema than the good plugin did;
 * its other declarations must not stay registered (t/plugin.t). */
#include "tscript/plugin.h"

static const char *const schemas[] = { "conflict.yaml", NULL };

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "conflict", schemas, NULL, NULL
};
