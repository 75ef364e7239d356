/* fill.c — filling a cpu tensor of any strides with one element (Tensor.fill_, torch.full,
 * zeros and ones); the element comes from ts_aten_scalar_to_elem.
 */
#include <string.h>

#include "engine/elementwise.h"

/* Stores the pattern n times from p, one element of es bytes at a time (es a constant in
 * each call below, so memcpy becomes a plain store). */
static void fill_run(unsigned char *p, int64_t n, int64_t step, const void *elem, size_t es)
{
    for (int64_t k = 0; k < n; k++)
        memcpy(p + (size_t)(k * step) * es, elem, es);
}

static void fill_span(unsigned char *p, int64_t n, int64_t step, const void *elem, size_t es)
{
    switch (es) {
    case 1: if (step == 1) memset(p, *(const unsigned char *)elem, (size_t)n);
            else fill_run(p, n, step, elem, 1);
            break;
    case 2: fill_run(p, n, step, elem, 2); break;
    case 4: fill_run(p, n, step, elem, 4); break;
    case 8: fill_run(p, n, step, elem, 8); break;
    case 16: fill_run(p, n, step, elem, 16); break;
    default: fill_run(p, n, step, elem, es); break;
    }
}

void ts_cpu_fill(TsTensor *t, const void *elem)
{
    size_t es = ts_dtype_size(t->dtype);
    int64_t numel = ts_tensor_numel(t);
    unsigned char *base = ts_tensor_data(t);
    if (numel == 0 || !base)
        return;
    if (ts_tensor_is_contiguous(t) || t->dim == 0) {
        fill_span(base, numel, 1, elem, es);
        return;
    }
    /* Strided: runs along the last dimension, an odometer over the others. */
    int last = t->dim - 1;
    int64_t idx[TS_TENSOR_MAX_DIMS] = { 0 };
    for (;;) {
        int64_t off = 0;
        for (int k = 0; k < last; k++)
            off += idx[k] * t->strides[k];
        fill_span(base + (size_t)off * es, t->sizes[last], t->strides[last], elem, es);
        int k = last - 1;
        while (k >= 0 && ++idx[k] == t->sizes[k])
            idx[k--] = 0;
        if (k < 0)
            return;
    }
}
