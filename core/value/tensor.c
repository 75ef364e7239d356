/* tensor.c — storages and the metadata of tensors: shape, strides, offset, bounds.
 *
 * A storage owns a block from a backend's allocator (or borrows memory it never frees). A
 * tensor is a strided view of one storage. The core never reads tensor data; what it
 * guarantees is that a tensor's metadata is sound: every element the sizes, strides and
 * offset can address lies inside the storage, and no size computation overflows. Kernels
 * rely on that to index without checks. Up to TS_TENSOR_INLINE_DIMS dimensions live inside
 * the tensor; more go to one heap array (sizes, then strides). Messages follow PyTorch's.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "value/heap.h"
#include "value/objcache.h"

/* ---- storages ----------------------------------------------------------- */
static TsStorage *storage_alloc(void *data, size_t nbytes, TsDevice device,
                                TsAllocator *allocator, TsError *err)
{
    TsStorage *s = ts_objcache_get(TS_OBJ_STORAGE);
    if (!s) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating a storage");
        return NULL;
    }
    ts_heap_init(&s->h, TS_TAG_STORAGE);
    s->data = data;
    s->nbytes = nbytes;
    s->device = device;
    atomic_store_explicit(&s->version, 0, memory_order_relaxed);
    s->allocator = allocator;
    return s;
}

TsStorage *ts_storage_new(TsAllocator *allocator, size_t nbytes, TsDevice device, TsError *err)
{
    char dev[64];
    if (!allocator || !allocator->alloc || !allocator->free) {
        ts_device_str(device, dev, sizeof dev);
        ts_error_set(err, TS_ERR_RUNTIME, "no allocator for device %s", dev);
        return NULL;
    }
    void *data = allocator->alloc(allocator, nbytes, device);
    if (!data && nbytes > 0) {
        if (allocator->why && allocator->why(allocator, device, err))
            return NULL;
        ts_device_str(device, dev, sizeof dev);
        ts_error_set(err, TS_ERR_NOMEM, "%s: failed to allocate %zu bytes on %s: out of memory",
                     allocator->name ? allocator->name : "allocator", nbytes, dev);
        return NULL;
    }
    TsStorage *s = storage_alloc(data, nbytes, device, allocator, err);
    if (!s && data)
        allocator->free(allocator, data, nbytes, device);
    return s;
}

TsStorage *ts_storage_borrow(void *data, size_t nbytes, TsDevice device, TsError *err)
{
    return storage_alloc(data, nbytes, device, NULL, err);
}

/* An external storage's allocator: one per storage, freed with it; freeing runs release. */
typedef struct ExternalAllocator {
    TsAllocator a;
    void (*release)(void *ctx);
    void *ctx;
} ExternalAllocator;

static void external_free(TsAllocator *self, void *ptr, size_t nbytes, TsDevice device)
{
    (void)ptr, (void)nbytes, (void)device;
    ExternalAllocator *ea = (ExternalAllocator *)self;
    if (ea->release)
        ea->release(ea->ctx);
    free(ea);
}

static void *external_alloc(TsAllocator *self, size_t nbytes, TsDevice device)
{
    (void)self, (void)nbytes, (void)device;
    return NULL;   /* never asked: the memory exists already */
}

TsStorage *ts_storage_external(void *data, size_t nbytes, TsDevice device,
                               void (*release)(void *ctx), void *ctx, TsError *err)
{
    /* zeroed: the allocator's optional hooks (copy, why, capture) are absent, not garbage */
    ExternalAllocator *ea = calloc(1, sizeof *ea);
    if (!ea) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating a storage");
        return NULL;
    }
    ea->a.name = "external";
    ea->a.alloc = external_alloc;
    ea->a.free = external_free;
    ea->a.ctx = NULL;
    ea->release = release;
    ea->ctx = ctx;
    /* the storage frees through its allocator only when data is not NULL */
    static char empty[1];
    TsStorage *s = storage_alloc(data ? data : empty, nbytes, device, &ea->a, err);
    if (!s)
        free(ea);
    return s;
}

void ts_storage_retain(TsStorage *s)
{
    ts_heap_retain(&s->h);
}

void ts_storage_release(TsStorage *s)
{
    if (s)
        ts_heap_release(&s->h);
}

unsigned ts_storage_version(const TsStorage *s)
{
    return atomic_load_explicit(&s->version, memory_order_acquire);
}

void ts_storage_bump_version(TsStorage *s)
{
    atomic_fetch_add_explicit(&s->version, 1, memory_order_release);
}

void ts_tensor_retain(TsTensor *t)
{
    ts_heap_retain(&t->h);
}

void ts_tensor_release(TsTensor *t)
{
    if (t)
        ts_heap_release(&t->h);
}

/* ---- shape checks --------------------------------------------------------- */
/* "[2, 3]" into buf (truncated with "..." if it does not fit). */
static const char *format_dims(char *buf, size_t size, int dim, const int64_t *v)
{
    size_t n = (size_t)snprintf(buf, size, "[");
    for (int i = 0; i < dim && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? ", " : "", (long long)v[i]);
    if (n < size)
        snprintf(buf + n, size - n, "]");
    else
        memcpy(buf + size - 5, "...]", 5);
    return buf;
}

bool ts_contiguous_strides(int dim, const int64_t *sizes, int64_t *strides_out)
{
    int64_t stride = 1, numel = 1;
    for (int i = dim - 1; i >= 0; i--) {
        strides_out[i] = stride;
        /* PyTorch's rule: a size-0 dimension steps like a size-1 one */
        if (__builtin_mul_overflow(stride, sizes[i] > 1 ? sizes[i] : 1, &stride) ||
            __builtin_mul_overflow(numel, sizes[i], &numel))
            return false;
    }
    return true;
}

#define DIMS_BUF 1600      /* 64 dims of up to 20 digits, with separators */

static void copy_dims(int64_t *dst, const int64_t *src, int dim)
{
    if (dim > 0)
        memcpy(dst, src, (size_t)dim * sizeof *dst);
}

/* The checks that need no storage: a real dtype, a rank in range, no negative size. */
static int check_sizes(int dtype, int dim, const int64_t *sizes, TsError *err)
{
    char b[DIMS_BUF];
    if (ts_dtype_size(dtype) == 0)
        return ts_error_set(err, TS_ERR_VALUE, "invalid dtype %d", dtype);
    if (dim < 0 || dim > TS_TENSOR_MAX_DIMS)
        return ts_error_set(err, TS_ERR_LIMIT,
                            "tensor of %d dimensions: between 0 and %d are supported", dim,
                            TS_TENSOR_MAX_DIMS);
    for (int i = 0; i < dim; i++)
        if (sizes[i] < 0)
            return ts_error_set(err, TS_ERR_RUNTIME,
                                "Trying to create tensor with negative dimension %lld: %s",
                                (long long)sizes[i], format_dims(b, sizeof b, dim, sizes));
    return 0;
}

/* Checks a shape against a storage and fills strides_out (contiguous when strides is NULL). */
static int check_shape(const TsStorage *storage, int dtype, int dim, const int64_t *sizes,
                       const int64_t *strides, int64_t offset, int64_t *strides_out,
                       TsError *err)
{
    char b1[DIMS_BUF], b2[DIMS_BUF];
    if (check_sizes(dtype, dim, sizes, err))
        return err ? err->code : TS_ERR_RUNTIME;
    size_t itemsize = ts_dtype_size(dtype);
    if (strides) {
        for (int i = 0; i < dim; i++)
            if (strides[i] < 0)
                return ts_error_set(err, TS_ERR_RUNTIME,
                                    "as_strided: Negative strides are not supported at the "
                                    "moment, got strides: %s",
                                    format_dims(b1, sizeof b1, dim, strides));
        copy_dims(strides_out, strides, dim);
    } else if (!ts_contiguous_strides(dim, sizes, strides_out)) {
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "Storage size calculation overflowed with sizes=%s",
                            format_dims(b1, sizeof b1, dim, sizes));
    }
    if (offset < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "Tensor: invalid storage offset %lld",
                            (long long)offset);
    /* The last addressable element: offset + sum((size - 1) * stride); none if any size is 0. */
    int64_t numel = 1, last = offset;
    bool overflow = false;
    for (int i = 0; i < dim; i++) {
        int64_t step;
        overflow |= __builtin_mul_overflow(numel, sizes[i], &numel);
        if (sizes[i] > 0) {
            overflow |= __builtin_mul_overflow(sizes[i] - 1, strides_out[i], &step);
            overflow |= __builtin_add_overflow(last, step, &last);
        }
    }
    int64_t need = 0;
    if (!overflow && numel > 0) {
        overflow |= __builtin_add_overflow(last, 1, &need);
        overflow |= __builtin_mul_overflow(need, (int64_t)itemsize, &need);
    }
    if (overflow)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "Storage size calculation overflowed with sizes=%s and strides=%s",
                            format_dims(b1, sizeof b1, dim, sizes),
                            format_dims(b2, sizeof b2, dim, strides_out));
    if (numel == 0)        /* addresses nothing: any storage will do */
        return 0;
    size_t have = storage ? storage->nbytes : 0;
    if ((uint64_t)need > have)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize "
                            "%zu requiring a storage size of %lld are out of bounds for storage "
                            "of size %zu",
                            format_dims(b1, sizeof b1, dim, sizes),
                            format_dims(b2, sizeof b2, dim, strides_out), (long long)offset,
                            itemsize, (long long)need, have);
    return 0;
}

/* Points t's sizes/strides at room for dim entries; NULL when out of memory. */
static int64_t *dims_alloc(TsTensor *t, int dim)
{
    if (dim <= TS_TENSOR_INLINE_DIMS)
        return t->inline_dims;
    return malloc(2 * (size_t)dim * sizeof(int64_t));
}

/* Installs checked dims (sizes, strides) into t, freeing its old heap dims. */
static void dims_commit(TsTensor *t, int64_t *buf, int dim, const int64_t *sizes,
                        const int64_t *strides)
{
    int64_t *s = buf, *st = buf == t->inline_dims ? buf + TS_TENSOR_INLINE_DIMS : buf + dim;
    copy_dims(s, sizes, dim);
    copy_dims(st, strides, dim);
    if (t->sizes && t->sizes != t->inline_dims && t->sizes != buf)
        free(t->sizes);
    t->sizes = s;
    t->strides = st;
    t->dim = dim;
}

/* ---- tensors ----------------------------------------------------------------- */
/* A tensor over storage with sizes and strides that check_shape (or the caller) found sound. */
static TsTensor *make_tensor(TsStorage *storage, int dtype, int dim, const int64_t *sizes,
                             const int64_t *strides, int64_t offset, TsError *err)
{
    TsTensor *t = ts_objcache_get(TS_OBJ_TENSOR);
    if (t)      /* all but the inline dims, which dims_commit fills */
        memset(t, 0, offsetof(TsTensor, inline_dims));
    int64_t *buf = t ? dims_alloc(t, dim) : NULL;
    if (!buf) {
        if (t)
            ts_objcache_put(TS_OBJ_TENSOR, t);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating a tensor");
        return NULL;
    }
    ts_heap_init(&t->h, TS_TAG_TENSOR);
    dims_commit(t, buf, dim, sizes, strides);
    t->storage = storage;
    if (storage)
        ts_storage_retain(storage);
    t->offset = offset;
    t->dtype = (int8_t)dtype;
    t->device = storage ? storage->device : (TsDevice){TS_DEV_CPU, -1};
    return t;
}

TsTensor *ts_tensor_new(TsStorage *storage, int dtype, int dim, const int64_t *sizes,
                        const int64_t *strides, int64_t offset, TsError *err)
{
    int64_t st[TS_TENSOR_MAX_DIMS];
    if (check_shape(storage, dtype, dim, sizes, strides, offset, st, err))
        return NULL;
    return make_tensor(storage, dtype, dim, sizes, st, offset, err);
}

TsTensor *ts_tensor_empty(TsAllocator *allocator, TsDevice device, int dtype, int dim,
                          const int64_t *sizes, TsError *err)
{
    int64_t st[TS_TENSOR_MAX_DIMS], numel = 1, nbytes = 0;
    if (check_sizes(dtype, dim, sizes, err))
        return NULL;
    bool overflow = !ts_contiguous_strides(dim, sizes, st);
    for (int i = 0; i < dim && !overflow; i++)
        overflow = __builtin_mul_overflow(numel, sizes[i], &numel);
    if (overflow || __builtin_mul_overflow(numel, (int64_t)ts_dtype_size(dtype), &nbytes)) {
        char b[DIMS_BUF];
        ts_error_set(err, TS_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s",
                     format_dims(b, sizeof b, dim, sizes));
        return NULL;
    }
    TsStorage *s = ts_storage_new(allocator, (size_t)nbytes, device, err);
    if (!s)
        return NULL;
    /* contiguous over a storage of exactly its size: nothing left to check */
    TsTensor *t = make_tensor(s, dtype, dim, sizes, st, 0, err);
    ts_storage_release(s);
    return t;
}

/* Moves n bytes from src (memory of a) to dst (memory of b); either side NULL or without a
 * copy function is host memory. Device to device goes through the host. */
static int move_bytes(TsAllocator *a, const void *src, TsDevice sdev, TsAllocator *b, void *dst,
                      TsDevice ddev, size_t n, TsError *err)
{
    bool from_dev = a && a->copy, to_dev = b && b->copy;
    if (n == 0)
        return 0;
    if (!from_dev && !to_dev) {
        memcpy(dst, src, n);
        return 0;
    }
    if (!from_dev)
        return b->copy(b, dst, src, n, ddev, true, err);
    if (!to_dev)
        return a->copy(a, dst, src, n, sdev, false, err);
    void *bounce = malloc(n);
    if (!bounce)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    int rc = a->copy(a, bounce, src, n, sdev, false, err);
    if (!rc)
        rc = b->copy(b, dst, bounce, n, ddev, true, err);
    free(bounce);
    return rc;
}

TsTensor *ts_tensor_copy_to(const TsTensor *src, TsAllocator *allocator, TsDevice device,
                            TsError *err)
{
    if (!src || !allocator) {
        ts_error_set(err, TS_ERR_USAGE, "ts_tensor_copy_to: %s",
                     src ? "no allocator" : "no tensor");
        return NULL;
    }
    if (!ts_tensor_is_contiguous(src)) {
        ts_error_set(err, TS_ERR_USAGE, "ts_tensor_copy_to: the tensor is not contiguous");
        return NULL;
    }
    TsTensor *t = ts_tensor_empty(allocator, device, src->dtype, src->dim, src->sizes, err);
    if (!t)
        return NULL;
    size_t n = (size_t)ts_tensor_numel(src) * ts_dtype_size(src->dtype);
    TsAllocator *from = src->storage ? src->storage->allocator : NULL;
    const void *data = ts_tensor_data(src);
    if (n && (!data || move_bytes(from, data, src->device, allocator, ts_tensor_data(t), device,
                                  n, err))) {
        if (!data)
            ts_error_set(err, TS_ERR_USAGE, "ts_tensor_copy_to: a tensor without storage");
        ts_tensor_release(t);
        return NULL;
    }
    return t;
}

int ts_tensor_set_shape(TsTensor *t, int dim, const int64_t *sizes, const int64_t *strides,
                        int64_t offset, TsError *err)
{
    int64_t sz[TS_TENSOR_MAX_DIMS], st[TS_TENSOR_MAX_DIMS];
    if (dim <= TS_TENSOR_MAX_DIMS)     /* sizes may alias t->sizes */
        copy_dims(sz, sizes, dim);
    if (check_shape(t->storage, t->dtype, dim, sz, strides, offset, st, err))
        return err ? err->code : TS_ERR_RUNTIME;
    int64_t *buf;
    if (dim > TS_TENSOR_INLINE_DIMS) {
        buf = malloc(2 * (size_t)dim * sizeof *buf);
        if (!buf)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory reshaping a tensor");
    } else {
        buf = t->inline_dims;
    }
    dims_commit(t, buf, dim, sz, st);
    t->offset = offset;
    return 0;
}

int64_t ts_tensor_numel(const TsTensor *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->dim; i++)
        n *= t->sizes[i];              /* checked not to overflow when the shape was set */
    return n;
}

/* PyTorch's rule: dimensions of size 1 may have any stride; an empty tensor is contiguous. */
bool ts_tensor_is_contiguous(const TsTensor *t)
{
    int64_t expected = 1;
    for (int i = t->dim - 1; i >= 0; i--) {
        if (t->sizes[i] == 0)
            return true;
        if (t->sizes[i] != 1) {
            if (t->strides[i] != expected)
                return false;
            expected *= t->sizes[i];
        }
    }
    return true;
}

/* An empty tensor's offset is unchecked and may lie past the storage; its data pointer is
 * then the storage's start (nothing is read through it). */
void *ts_tensor_data(const TsTensor *t)
{
    if (!t->storage || !t->storage->data)
        return NULL;
    size_t at = (size_t)t->offset * ts_dtype_size(t->dtype);
    if (t->offset < 0 || (size_t)t->offset > t->storage->nbytes || at > t->storage->nbytes)
        return t->storage->data;
    return (char *)t->storage->data + at;
}
