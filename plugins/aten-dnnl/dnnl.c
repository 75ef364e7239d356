/* dnnl.c — the aten-dnnl plugin's entry point (dn.h says what the plugin is).
 *
 * It replaces aten-cpu's cpu kernels of the convolution operators, so it loads after
 * aten-cpu (ts_override_kernel fails otherwise, naming the operator). Its caches hold
 * weights of the runtime's models and primitives: they are emptied when the last runtime
 * that loaded the plugin closes.
 */
#include <stdatomic.h>

#include "dn.h"

static atomic_int runtimes;

static int init(TsRegistry *r, TsError *err)
{
    int rc = dn_register_kernels(r, err);
    if (!rc)
        atomic_fetch_add(&runtimes, 1);
    return rc;
}

static void fini(void)
{
    if (atomic_fetch_sub(&runtimes, 1) == 1) {
        dn_weight_clear();
        dn_prim_clear();
        dn_engine_shutdown();
    }
}

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "aten-dnnl", NULL, init, fini
};
