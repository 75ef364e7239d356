/* inplace.c — a test plugin with a vendor's in-place operator: mut::scale_ multiplies a
 * contiguous float32 cpu tensor by s where it lies and returns it, declared
 * "mut::scale_(Tensor(a!) self, float s) -> Tensor(a!)" (t/data/inplace.yaml). Nothing in
 * tscript knows the operator: t/mutation/vendor_inplace.py checks that the optimizer keeps
 * its writes in order from the annotation alone. */
#include "tscript/plugin.h"

static int scale_(TsCall *c)
{
    TsValue s = ts_stack_pop(c->stack);
    TsValue self = ts_stack_pop(c->stack);
    TsTensor *t = self.tag == TS_TAG_TENSOR ? (TsTensor *)self.u.p : NULL;
    if (!t || t->dtype != TS_FLOAT32 || !ts_tensor_is_contiguous(t)) {
        ts_value_release(self);
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "mut::scale_: self must be a contiguous float32 tensor");
    }
    float *d = ts_tensor_data(t);
    for (int64_t i = 0, n = ts_tensor_numel(t); i < n; i++)
        d[i] *= (float)s.u.d;
    return ts_stack_push(c->stack, self, c->error);   /* our reference goes back */
}

static int init(TsRegistry *r, TsError *err)
{
    return ts_register_kernel(r, "mut::scale_", "", "cpu", scale_, err) ? err->code : 0;
}

static const char *const schemas[] = { "inplace.yaml", NULL };

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "inplace", schemas, init, NULL
};
