/* norm_check.c — the part of batch_norm, layer_norm and group_norm that every backend checks
 * the same way: the input's rank and dtype, the affine and running vectors against the
 * channels or normalized_shape, and group_norm's groups, with PyTorch's messages.
 * aten-cpu's norm.c and aten-cuda's norm.c compute the normalization.
 */
#include "tscript/aten.h"

/* PyTorch's message for a kernel that has no dtype of t's: the norms are floating only. */
static int check_float(const char *kernel, const TsTensor *t, TsError *err)
{
    if (ts_dtype_is_floating(t->dtype))
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel,
                        ts_dtype_type_name(t->dtype));
}

int ts_aten_check_batch_norm(const TsTensor *x, TsTensor *const *vecs, bool training,
                             TsError *err)
{
    static const char *const names[4] = { "weight", "bias", "running_mean", "running_var" };
    if (x->dim < 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "batch_norm: expected an input with at "
                            "least 2 dimensions (N, C, ...), but got %dD", (int)x->dim);
    if (check_float("batch_norm", x, err))
        return err->code;
    int64_t ch = x->sizes[1];
    for (int i = 0; i < 4; i++) {
        if (!vecs[i]) {
            if (i >= 2 && !training)
                return ts_error_set(err, TS_ERR_RUNTIME, "%s must be defined in evaluation "
                                    "mode", names[i]);
            continue;
        }
        if (ts_tensor_numel(vecs[i]) != ch)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s should contain %lld elements not "
                                "%lld", names[i], (long long)ch,
                                (long long)ts_tensor_numel(vecs[i]));
        if (vecs[i]->dim != 1)
            return ts_error_set(err, TS_ERR_RUNTIME, "batch_norm: %s must be 1-dimensional",
                                names[i]);
        if (i >= 2 && training && !ts_dtype_is_floating(vecs[i]->dtype))
            return ts_error_set(err, TS_ERR_RUNTIME, "batch_norm: %s must be a floating "
                                "point tensor", names[i]);
    }
    return 0;
}

/* weight and bias of layer_norm: normalized_shape's shape. */
static int ln_affine_check(const char *what, const TsTensor *t, int nd, const int64_t *ns,
                           TsError *err)
{
    char s1[256], s2[256];
    bool same = t->dim == nd;
    for (int i = 0; same && i < nd; i++)
        same = t->sizes[i] == ns[i];
    if (same)
        return 0;
    ts_aten_format_sizes(s1, sizeof s1, t->dim, t->sizes);
    ts_aten_format_sizes(s2, sizeof s2, nd, ns);
    return ts_error_set(err, TS_ERR_RUNTIME, "Expected %s to be of same shape as "
                        "normalized_shape, but got %s of shape %s and normalized_shape = %s",
                        what, what, s1, s2);
}

int ts_aten_check_layer_norm(const TsTensor *x, int nd, const int64_t *ns, const TsTensor *w,
                             const TsTensor *b, TsError *err)
{
    char s1[256], s2[256];
    if (nd == 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected normalized_shape to be at least "
                            "1-dimensional, i.e., containing at least one element, but got "
                            "normalized_shape = []");
    if ((w && ln_affine_check("weight", w, nd, ns, err)) ||
        (b && ln_affine_check("bias", b, nd, ns, err)))
        return err->code;
    bool match = x->dim >= nd;
    for (int i = 0; match && i < nd; i++)
        match = x->sizes[x->dim - nd + i] == ns[i];
    if (!match) {
        ts_aten_format_sizes(s1, sizeof s1, nd, ns);
        ts_aten_format_sizes(s2, sizeof s2, x->dim, x->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "Given normalized_shape=%s, expected input "
                            "with shape [*, %s, but got input of size%s", s1, s1 + 1, s2);
    }
    return check_float("LayerNormKernelImpl", x, err);
}

int ts_aten_check_group_norm(const TsTensor *x, int64_t groups, const TsTensor *w,
                             const TsTensor *b, TsError *err)
{
    char s1[256], s2[256];
    if (x->dim < 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "group_norm: expected an input with at least "
                            "2 dimensions (N, C, ...), but got %dD", (int)x->dim);
    int64_t ch = x->sizes[1];
    ts_aten_format_sizes(s2, sizeof s2, x->dim, x->sizes);
    if (groups <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "group_norm: num_groups must be positive, "
                            "but got %lld", (long long)groups);
    if (ch % groups)
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected number of channels in input to be "
                            "divisible by num_groups, but got input of shape %s and "
                            "num_groups=%lld", s2, (long long)groups);
    const TsTensor *aff[2] = { w, b };
    for (int i = 0; i < 2; i++)
        if (aff[i] && (aff[i]->dim != 1 || aff[i]->sizes[0] != ch)) {
            ts_aten_format_sizes(s1, sizeof s1, aff[i]->dim, aff[i]->sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected %s to be a vector of size equal "
                                "to the number of channels in input, but got %s of shape %s "
                                "and input of shape %s", i ? "bias" : "weight",
                                i ? "bias" : "weight", s1, s2);
        }
    return check_float("GroupNormKernelImpl", x, err);
}
