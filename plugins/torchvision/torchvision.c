/* torchvision.c — the torchvision plugin's entry point: torchvision 0.14's custom operators
 * (the ones its scriptable models and torchvision.ops call) with CPU kernels.
 *
 * Loading this plugin is tscript's `torch.ops.load_library("libtorchvision.so")`: programs
 * and saved models that call torch.ops.torchvision.nms / roi_align / ... run unchanged. The
 * schemas are torchvision's exact strings (schemas/torchvision.yaml). Only the forward
 * operators are here: tscript runs inference, and nothing calls the _*_backward ones.
 * The plugin uses the public ABI alone (<tscript/plugin.h>), as any vendor's would.
 */
#include "tv.h"

/* torchvision::_cuda_version() -> int: -1, as a torchvision built without CUDA answers. */
static int cuda_version(TsCall *c)
{
    return ts_stack_push(c->stack, ts_int(-1), c->error);
}

static const struct {
    const char *qualname;
    const char *backend;
    TsKernelFn fn;
} kernels[] = {
    { "torchvision::nms", "cpu", tv_nms },
    { "torchvision::roi_align", "cpu", tv_roi_align },
    { "torchvision::ps_roi_align", "cpu", tv_ps_roi_align },
    { "torchvision::roi_pool", "cpu", tv_roi_pool },
    { "torchvision::ps_roi_pool", "cpu", tv_ps_roi_pool },
    { "torchvision::deform_conv2d", "cpu", tv_deform_conv2d },
    { "torchvision::_cuda_version", TS_BACKEND_ANY, cuda_version },
};

static int init(TsRegistry *r, TsError *err)
{
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        int rc = ts_register_kernel(r, kernels[i].qualname, "", kernels[i].backend,
                                    kernels[i].fn, err);
        if (rc)
            return rc;
    }
    return 0;
}

static const char *const schema_files[] = { "torchvision.yaml", NULL };

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "torchvision", schema_files, init, NULL
};
