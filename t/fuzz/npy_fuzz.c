/* t/fuzz/npy_fuzz.c — libFuzzer target for the .npy reader and writer (core/serialize/npy.c).
 *
 * Any input must give a tensor or an error, never a crash, leak, sanitizer report or a read
 * past the input. A tensor read (a contiguous one: Fortran-order files give strided
 * tensors, which the writer refuses) is written again and read back, and must be the same
 * tensor, element for element, in dtype and shape; otherwise the target aborts. Built by
 * t/fuzz/build.sh; seeds: the .npy files in t/data/serialize/npy.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../pickle_env.h"
#include "serialize/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A tensor's dtype, shape and elements, not its strides: a Fortran-order file of an empty
 * tensor, or of one whose other dims are all 1, is contiguous with strides the writer does
 * not keep (it writes C order), and is still the same tensor. */
static char *content_text(const TsTensor *t)
{
    TsBuf b = TS_BUF_INIT;
    ts_buf_printf(&b, "T%d(", t->dtype);
    for (int i = 0; i < t->dim; i++)
        ts_buf_printf(&b, "%s%lld", i ? "," : "", (long long)t->sizes[i]);
    ts_buf_puts(&b, "):");
    if (ts_tensor_numel(t) > 0)
        canon_elements(&b, t, 0, ts_tensor_data(t));
    return ts_buf_take(&b, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    TsError err = TS_ERROR_INIT;
    TsTensor *t = ts_npy_read("fuzz.npy", data, size, &err);
    ts_error_clear(&err);
    if (!t)
        return 0;
    TsBuf b = TS_BUF_INIT;
    if (ts_tensor_is_contiguous(t) && ts_npy_write(t, &b, &err) == 0) {
        TsTensor *again = ts_npy_read("again.npy", b.p, b.len, &err);
        char *x = content_text(t);
        char *y = again ? content_text(again) : NULL;
        if (!y || strcmp(x, y) != 0)
            abort();           /* what the writer writes must read back the same */
        free(x);
        free(y);
        ts_tensor_release(again);
    }
    ts_error_clear(&err);
    ts_buf_free(&b);
    ts_tensor_release(t);
    return 0;
}
