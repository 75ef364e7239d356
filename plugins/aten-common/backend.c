/* backend.c — what the device-independent kernels need from a backend, and their table.
 *
 * The metadata-only kernels (views.h) serve every backend; the one thing they cannot do
 * themselves is copy elements (reshape of a tensor no view expresses), so each backend
 * gives its copy as a hook (TsAtenBackend), kept here by device type, with the hooks the
 * shared random ops fill through (random.c). The library is static and linked into each
 * plugin with hidden symbols: every plugin keeps its own hooks. ts_aten_register_views
 * registers the kernels for a backend by name.
 */
#include "views.h"

/* The hooks by device type; set at plugin init, read by kernels afterwards. */
static const TsAtenBackend *backends[TS_DEV__MAX];

int ts_aten_set_backend(const TsAtenBackend *b, TsError *err)
{
    if (!b || b->device_type < 0 || b->device_type >= TS_DEV__MAX || !b->contiguous_copy)
        return ts_error_set(err, TS_ERR_USAGE, "ts_aten_set_backend: a backend needs a device "
                            "type in [0, %d) and a contiguous_copy hook", TS_DEV__MAX);
    backends[b->device_type] = b;
    return 0;
}

const TsAtenBackend *ts_aten_backend_of(int device_type)
{
    return device_type >= 0 && device_type < TS_DEV__MAX ? backends[device_type] : NULL;
}

TsTensor *ts_aten_backend_copy(TsCall *c, const TsTensor *t)
{
    const TsAtenBackend *b = ts_aten_backend_of(t->device.type);
    if (b)
        return b->contiguous_copy(t, c->error);
    char dev[32];
    ts_device_str(t->device, dev, sizeof dev);
    ts_error_set(c->error, TS_ERR_RUNTIME, "%s: the backend of device %s gave no copy hook "
                 "(ts_aten_set_backend)", c->op ? ts_operator_name(c->op) : "?", dev);
    return NULL;
}

#define TS_ATEN_KERNEL_ROW(Q, O, NAME) { Q, O, ts_aten_k_##NAME },
static const TsAtenKernel kernels[] = { TS_ATEN_VIEW_KERNELS(TS_ATEN_KERNEL_ROW) };
#undef TS_ATEN_KERNEL_ROW

const TsAtenTable ts_aten_view_table = { kernels, sizeof kernels / sizeof kernels[0] };

int ts_aten_register_table(TsRegistry *r, const TsAtenTable *t, const char *backend,
                           TsError *err)
{
    int rc = 0;
    for (size_t i = 0; !rc && i < t->n; i++)
        rc = ts_register_kernel(r, t->ops[i].qualname, t->ops[i].overload, backend,
                                t->ops[i].fn, err);
    return rc;
}

int ts_aten_register_views(TsRegistry *r, const char *backend, TsError *err)
{
    return ts_aten_register_table(r, &ts_aten_view_table, backend, err);
}
