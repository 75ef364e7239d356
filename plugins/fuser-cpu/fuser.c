/* fuser.c — the fuser-cpu plugin: pointwise float32 operators fused into one pass over
 * memory on the CPU (fuser.h). PyTorch ships its CPU fuser off; the default config loads
 * this one. It declares prim::FusionGroup (any inputs, any outputs: the group's Subgraph
 * says which), registers its cpu kernel factory, and the pass that makes the groups, which
 * runs on the executor's optimized graphs (so not with TSCRIPT_JIT_DISABLE=1 / --no-opt).
 */
#include "fuser.h"

static int init(TsRegistry *r, TsError *err)
{
    int rc = ts_register_schema(r, "prim::FusionGroup(...) -> ...", err);
    if (!rc)
        rc = ts_register_factory(r, "prim::FusionGroup", "", "cpu", fu_kernel_factory, err);
    if (!rc)
        rc = ts_register_optimizer_pass(r, "fuser-cpu", fu_pass, NULL, err);
    return rc;
}

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "fuser-cpu", NULL, init, NULL
};
