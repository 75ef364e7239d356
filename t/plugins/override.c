/* override.c — replaces the good plugin's cpu kernel of test::twice (t/plugin.t): thrice
 * for positive numbers, the replaced kernel's answer for the others, as a faster backend
 * library takes the calls it knows and hands back the rest (plugins/aten-dnnl). */
#include "tscript/plugin.h"

static TsKernelFn replaced;

static int thrice(TsCall *c)
{
    int64_t x = ts_stack_arg(c->stack, 1, 0)->u.i;
    if (x <= 0)
        return replaced(c);
    ts_stack_pop(c->stack);
    return ts_stack_push(c->stack, ts_int(3 * x), c->error);
}

static int init(TsRegistry *r, TsError *err)
{
    return ts_override_kernel(r, "test::twice", "", "cpu", thrice, &replaced, err);
}

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "override", NULL, init, NULL
};
