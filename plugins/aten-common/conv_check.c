/* conv_check.c — the part of PyTorch's convolution shape check that every backend makes the
 * same way: the weight against the input's rank and channels, the groups, and the bias,
 * with PyTorch's messages. aten-cpu's conv.c and aten-cuda's conv.c check the geometry
 * (padding, stride, dilation, kernel against the input) themselves.
 */
#include "tscript/aten.h"

int ts_aten_check_conv_weight(const TsTensor *x, const TsTensor *w, const TsTensor *b,
                              int64_t groups, bool transposed, TsError *err)
{
    char s1[200], s2[200];
    ts_aten_format_sizes(s1, sizeof s1, w->dim, w->sizes);
    ts_aten_format_sizes(s2, sizeof s2, x->dim, x->sizes);
    if (w->dim != x->dim)
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected %d-dimensional input for "
                            "%d-dimensional weight %s, but got %d-dimensional input of size %s "
                            "instead", (int)w->dim, (int)w->dim, s1, (int)x->dim, s2);
    if (w->sizes[0] < groups)
        return ts_error_set(err, TS_ERR_RUNTIME, "Given groups=%lld, expected weight to be at "
                            "least %lld at dimension 0, but got weight of size %s instead",
                            (long long)groups, (long long)groups, s1);
    if (w->sizes[0] % groups)
        return ts_error_set(err, TS_ERR_RUNTIME, "Given groups=%lld, expected weight to be "
                            "divisible by %lld at dimension 0, but got weight of size [%s] "
                            "instead", (long long)groups, (long long)groups, s1);
    int64_t want_in = transposed ? w->sizes[0] : w->sizes[1] * groups;
    if (x->sizes[1] != want_in) {
        if (transposed)
            return ts_error_set(err, TS_ERR_RUNTIME, "Given transposed=1, weight of size %s, "
                                "expected input%s to have %lld channels, but got %lld channels "
                                "instead", s1, s2, (long long)want_in, (long long)x->sizes[1]);
        return ts_error_set(err, TS_ERR_RUNTIME, "Given groups=%lld, weight of size %s, "
                            "expected input%s to have %lld channels, but got %lld channels "
                            "instead", (long long)groups, s1, s2, (long long)want_in,
                            (long long)x->sizes[1]);
    }
    int64_t want_bias = transposed ? w->sizes[1] * groups : w->sizes[0];
    if (b && (b->dim != 1 || b->sizes[0] != want_bias)) {
        ts_aten_format_sizes(s2, sizeof s2, b->dim, b->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "%sweight of size %s, expected bias to be "
                            "1-dimensional with %lld elements, but got bias of size %s instead",
                            transposed ? "Given transposed=1, " : "Given ", s1,
                            (long long)want_bias, s2);
    }
    return 0;
}
