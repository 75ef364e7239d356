/* tensors.c — tensors over an embedding program's memory (zero copy, with its release
 * callback) or over a copy of it, and their metadata read through functions, so that a
 * program needs no struct layout of tensor.h.
 *
 * The extent a shape addresses is computed with checked arithmetic before any storage is
 * made, so a bad shape fails without calling the program's release; a release wrapper
 * armed only once the tensor exists keeps that promise when allocation fails later.
 */
#include <stdlib.h>
#include <string.h>

#include "tscript/tscript.h"

typedef struct Release {
    void (*fn)(void *ctx);
    void *ctx;
    bool armed;                /* set once the tensor exists */
} Release;

static void run_release(void *p)
{
    Release *r = p;
    if (r->armed && r->fn)
        r->fn(r->ctx);
    free(r);
}

/* The bytes the shape addresses from element 0, or an error. */
static int extent(int dtype, int dim, const int64_t *sizes, const int64_t *strides,
                  size_t *nbytes, TsError *err)
{
    size_t item = ts_dtype_size(dtype);
    if (item == 0)
        return ts_error_set(err, TS_ERR_VALUE, "invalid dtype %d", dtype);
    if (dim < 0 || dim > TS_TENSOR_MAX_DIMS)
        return ts_error_set(err, TS_ERR_LIMIT, "tensor of %d dimensions: between 0 and %d "
                            "are supported", dim, TS_TENSOR_MAX_DIMS);
    if (dim > 0 && !sizes)
        return ts_error_set(err, TS_ERR_USAGE, "a tensor of %d dimensions needs sizes", dim);
    int64_t last = 0;          /* the offset of the last element, in elements */
    bool empty = false;
    for (int i = 0; i < dim; i++) {
        if (sizes[i] < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "Trying to create tensor with negative "
                                "dimension %lld", (long long)sizes[i]);
        if (strides && strides[i] < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "as_strided: Negative strides are not "
                                "supported at the moment");
        empty |= sizes[i] == 0;
    }
    int64_t stride = 1;
    for (int i = dim; i-- > 0 && !empty;) {
        int64_t s = strides ? strides[i] : stride, step;
        if (__builtin_mul_overflow(sizes[i] - 1, s, &step) ||
            __builtin_add_overflow(last, step, &last) ||
            (!strides && __builtin_mul_overflow(stride, sizes[i], &stride)))
            return ts_error_set(err, TS_ERR_RUNTIME, "Storage size calculation overflowed");
    }
    uint64_t n;
    if (empty)
        n = 0;
    else if (__builtin_mul_overflow((uint64_t)last + 1, (uint64_t)item, &n) || n > SIZE_MAX)
        return ts_error_set(err, TS_ERR_RUNTIME, "Storage size calculation overflowed");
    *nbytes = (size_t)n;
    return 0;
}

TsTensor *ts_tensor_from_blob(void *data, int dtype, int dim, const int64_t *sizes,
                              const int64_t *strides, void (*release)(void *ctx), void *ctx,
                              TsError *err)
{
    size_t nbytes;
    if (extent(dtype, dim, sizes, strides, &nbytes, err))
        return NULL;
    if (!data && nbytes)
        return ts_error_set(err, TS_ERR_USAGE, "ts_tensor_from_blob: no data"), NULL;
    Release *r = malloc(sizeof *r);
    if (!r)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
    *r = (Release){ release, ctx, false };
    TsDevice cpu = { TS_DEV_CPU, -1 };
    TsStorage *s = ts_storage_external(data, nbytes, cpu, run_release, r, err);
    if (!s) {
        free(r);
        return NULL;
    }
    TsTensor *t = ts_tensor_new(s, dtype, dim, sizes, strides, 0, err);
    ts_storage_release(s);     /* the tensor holds it; without one, r goes unarmed */
    if (t)
        r->armed = true;
    return t;
}

static void free_copy(void *p) { free(p); }

TsTensor *ts_tensor_from_copy(const void *data, int dtype, int dim, const int64_t *sizes,
                              TsError *err)
{
    size_t nbytes;
    if (extent(dtype, dim, sizes, NULL, &nbytes, err))
        return NULL;
    if (!data && nbytes)
        return ts_error_set(err, TS_ERR_USAGE, "ts_tensor_from_copy: no data"), NULL;
    size_t cap = nbytes + 63 < nbytes ? 0 : (nbytes + 63) / 64 * 64;
    void *copy = cap || !nbytes ? aligned_alloc(64, cap ? cap : 64) : NULL;
    if (!copy)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory copying %zu bytes", nbytes), NULL;
    if (nbytes)
        memcpy(copy, data, nbytes);
    TsTensor *t = ts_tensor_from_blob(copy, dtype, dim, sizes, NULL, free_copy, copy, err);
    if (!t)
        free(copy);
    return t;
}

int ts_tensor_dtype(const TsTensor *t) { return t->dtype; }
int ts_tensor_dim(const TsTensor *t) { return t->dim; }
const int64_t *ts_tensor_sizes(const TsTensor *t) { return t->sizes; }
const int64_t *ts_tensor_strides(const TsTensor *t) { return t->strides; }
TsDevice ts_tensor_device(const TsTensor *t) { return t->device; }
