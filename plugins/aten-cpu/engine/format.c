/* format.c — the cpu backend's tensor printer: the elements as doubles, laid out by
 * aten-common's formatter (ts_aten_format_values), registered as the backend's
 * tscript::format_tensor kernel, which core/value/print.c calls for print() and str().
 */
#include <stdlib.h>
#include <string.h>

#include "engine/elementwise.h"
#include "engine/format.h"

int ts_cpu_format_tensor(const TsTensor *t, TsBuf *out, TsError *err)
{
    int64_t n = ts_tensor_numel(t);
    TsTensor *d = NULL;
    if (n > 0 && ts_aten_promote_types(t->dtype, t->dtype) >= 0 &&
        !(d = ts_cpu_cast(t, TS_FLOAT64, err)))
        return err->code;
    int rc = ts_aten_format_values(d ? (const double *)ts_tensor_data(d) : NULL, t->dim,
                                   t->sizes, t->dtype, "CPU", out, err);
    if (d)
        ts_tensor_release(d);
    return rc;
}

/* tscript::format_tensor(Tensor self) -> str: the hook core/value/print.c calls. */
static int k_format_tensor(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    TsBuf b = TS_BUF_INIT;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc)
        rc = ts_cpu_format_tensor(t, &b, c->error);
    TsStr *str = NULL;
    if (!rc && !(str = ts_str_new(b.p ? b.p : "", b.len, c->error)))
        rc = c->error->code;
    ts_buf_free(&b);
    return ts_args_return(&a, rc, str ? ts_str_value(str) : ts_none());
}

static const TsCpuOp ops[] = {
    { TS_FORMAT_TENSOR_OP, "", k_format_tensor },
};

const TsCpuTable ts_cpu_format_table = { ops, sizeof ops / sizeof ops[0] };
