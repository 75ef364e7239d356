/* legacy_args.c — the argument helpers of the old kernel style (TsCall, operator name and
 * argument name restated by every kernel), kept only for the aten-cpu folders not yet on
 * the schema-bound TsArgs API (tscript/aten.h). No kernel of shape/ uses them; delete this
 * file with their last user.
 */
#include "shape/shape_ops.h"

int ts_cpu_int_arg(TsError *err, const char *op, const char *arg, TsValue v, int64_t *out)
{
    if (v.tag == TS_TAG_INT) {
        *out = v.u.i;
        return 0;
    }
    if (v.tag == TS_TAG_BOOL) {
        *out = v.u.b;
        return 0;
    }
    return ts_error_set(err, TS_ERR_TYPE, "%s: argument '%s' must be an int", op, arg);
}

int ts_cpu_int_list(TsError *err, const char *op, const char *arg, TsValue v, int64_t *out,
                    int *n, int max)
{
    if (v.tag == TS_TAG_INT) {      /* int[1] arguments accept a single int */
        out[0] = v.u.i;
        *n = 1;
        return 0;
    }
    if (v.tag != TS_TAG_LIST)
        return ts_error_set(err, TS_ERR_TYPE, "%s: argument '%s' must be a list of ints", op, arg);
    const TsList *l = (const TsList *)v.u.p;
    if (l->len > (size_t)max)
        return ts_error_set(err, TS_ERR_LIMIT, "%s: %zu entries in '%s' is more than %d", op,
                            l->len, arg, max);
    for (size_t i = 0; i < l->len; i++) {
        if (l->items[i].tag != TS_TAG_INT)
            return ts_error_set(err, TS_ERR_TYPE, "%s: argument '%s' must be a list of ints", op,
                                arg);
        out[i] = l->items[i].u.i;
    }
    *n = (int)l->len;
    return 0;
}

const TsList *ts_cpu_tensor_list(TsCall *c, const char *op, const char *arg, TsValue v)
{
    if (v.tag != TS_TAG_LIST) {
        ts_error_set(c->error, TS_ERR_TYPE, "%s: argument '%s' must be a list of Tensors", op, arg);
        return NULL;
    }
    const TsList *l = (const TsList *)v.u.p;
    for (size_t i = 0; i < l->len; i++)
        if (!ts_cpu_tensor_arg(c, op, arg, l->items[i]))
            return NULL;
    return l;
}

int ts_cpu_kernel_end(TsCall *c, size_t n, TsValue *argv, TsTensor *result)
{
    ts_cpu_release_args(n, argv);
    return result ? ts_cpu_push_tensor(c, result) : (int)c->error->code;
}
