/* fuser.c — the fuser-cuda plugin: chains of pointwise operators on cuda tensors fused into
 * one CUDA kernel each, generated as CUDA C and compiled with NVRTC (fuser.h). It declares
 * prim::FusionGroup (as fuser-cpu does: identical declarations are shared), registers its
 * cuda kernel factory, and the pass that makes the groups, which runs on the executor's
 * optimized graphs (so not with TSCRIPT_JIT_DISABLE=1 / --no-opt). It loads NVRTC and the
 * driver only when a group needs them, so it loads, and fuses nothing, on machines without.
 */
#include "fuser.h"

static int init(TsRegistry *r, TsError *err)
{
    int rc = ts_register_schema(r, "prim::FusionGroup(...) -> ...", err);
    if (!rc)
        rc = ts_register_factory(r, "prim::FusionGroup", "", "cuda", fc_kernel_factory, err);
    if (!rc)
        rc = ts_register_optimizer_pass(r, "fuser-cuda", fc_pass, NULL, err);
    return rc;
}

static void fini(void)
{
    fc_program_cache_clear();
}

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "fuser-cuda", NULL, init, fini
};
