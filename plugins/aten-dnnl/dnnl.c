/* dnnl.c — the aten-dnnl plugin's entry point (dn.h says what the plugin is).
 *
 * It replaces aten-cpu's cpu kernels of the convolution operators, max_pool2d, batch_norm,
 * the matrix products and the fused attention and encoder layer, so it loads after aten-cpu (ts_override_kernel fails otherwise, naming the
 * operator). It declares the fused operators (dnnl.yaml) and registers the optimizer pass
 * that makes them, which runs before fuser-cpu's when listed before it (fuser-cpu would
 * otherwise take a batch norm's relu into a fusion group). Its caches hold weights of the
 * runtime's models and primitives: they are emptied when the last runtime that loaded the
 * plugin closes.
 */
#include <stdatomic.h>

#include "dn.h"

static atomic_int runtimes;

static int init(TsRegistry *r, TsError *err)
{
    int rc = dn_register_conv(r, err);
    if (!rc)
        rc = dn_register_pool(r, err);
    if (!rc)
        rc = dn_register_norm(r, err);
    if (!rc)
        rc = dn_register_matmul(r, err);
    if (!rc)
        rc = dn_register_attention(r, err);
    if (!rc)
        rc = ts_register_optimizer_pass(r, "aten-dnnl", dn_fuse_pass, NULL, err);
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

static const char *const schemas[] = { "dnnl.yaml", NULL };

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "aten-dnnl", schemas, init, fini
};
