/* tscript/tensor.h — Tensor and Storage: the ABI shared by the core and every backend.
 *
 * A Storage is a reference-counted block of device memory with the allocator that frees it.
 * A Tensor is a strided view of a Storage: dtype, device, sizes, strides, storage offset
 * (in elements) and flags. The core reads and writes only this metadata; tensor data is
 * touched by backends (plugins), which own the kernels and the allocators.
 *
 * Reference counts are atomic: tensors and storages may be shared between threads.
 */
#ifndef TSCRIPT_TENSOR_H
#define TSCRIPT_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tscript/error.h"

/* The header's atomic fields. C++ before C++23 has no <stdatomic.h> (and nvcc compiles
 * headers as C++): there they are the same plain integers, which C++ code reads only with
 * the GCC builtins below (the layout is the same; GCC's and Clang's _Atomic of an int adds
 * no padding or lock). */
#ifdef __cplusplus
typedef unsigned ts_atomic_uint;
typedef unsigned short ts_atomic_ushort;
#define TS_ATOMIC_LOAD_RELAXED(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#else
#include <stdatomic.h>
typedef atomic_uint ts_atomic_uint;
typedef atomic_ushort ts_atomic_ushort;
#define TS_ATOMIC_LOAD_RELAXED(p) atomic_load_explicit((p), memory_order_relaxed)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* PyTorch's ScalarType numbering: programs print these numbers (print(t.dtype)). */
typedef enum TsDType {
    TS_UINT8 = 0,
    TS_INT8 = 1,
    TS_INT16 = 2,
    TS_INT32 = 3,
    TS_INT64 = 4,
    TS_FLOAT16 = 5,
    TS_FLOAT32 = 6,
    TS_FLOAT64 = 7,
    TS_COMPLEX32 = 8,
    TS_COMPLEX64 = 9,
    TS_COMPLEX128 = 10,
    TS_BOOL = 11,
    TS_QINT8 = 12,
    TS_QUINT8 = 13,
    TS_QINT32 = 14,
    TS_BFLOAT16 = 15,
    TS_DTYPE__COUNT
} TsDType;

/* Element size in bytes (0 for an invalid dtype). */
TS_API size_t ts_dtype_size(int dtype);
/* "float", "long", "int", "bool", ... as torch spells them (torch.float32 -> "float"). */
TS_API const char *ts_dtype_name(int dtype);
/* "Float", "Long", "Bool", ... as in "CPUFloatType" and "Float(2, 3)". */
TS_API const char *ts_dtype_type_name(int dtype);
TS_API bool ts_dtype_is_floating(int dtype);
TS_API bool ts_dtype_is_integral(int dtype, bool include_bool);
TS_API bool ts_dtype_is_complex(int dtype);

/* Device types. The first ones are PyTorch's numbers; plugins introduce more by name
 * (ts_device_type_register) and get the next free number. */
typedef enum TsDeviceType {
    TS_DEV_CPU = 0,
    TS_DEV_CUDA = 1,
    TS_DEV_META = 14,
    TS_DEV__BUILTIN_MAX = 32,
    TS_DEV__MAX = 64
} TsDeviceType;

typedef struct TsDevice {
    int16_t type;          /* TsDeviceType or a registered number */
    int16_t index;         /* -1: no index ("cuda"), else "cuda:0" */
} TsDevice;

/* "cpu", "cuda", or the registered name; NULL for an unknown number. */
TS_API const char *ts_device_type_name(int type);
/* The number for a name, or -1. */
TS_API int ts_device_type_lookup(const char *name);
/* Registers a new device type name (a plugin's own backend); returns its number, the
 * existing number if already registered, or -1 with err when the table is full. */
TS_API int ts_device_type_register(const char *name, TsError *err);
/* Parses "cpu", "cuda", "cuda:1" (PyTorch's device string grammar). */
TS_API int ts_device_parse(const char *s, TsDevice *out, TsError *err);
/* The same for a string of len bytes that may hold NUL bytes (a TorchScript str): one is
 * an invalid device string, not the end of it ("cpu\0x" is not "cpu"). */
TS_API int ts_device_parse_n(const char *s, size_t len, TsDevice *out, TsError *err);
/* "cpu", "cuda:0", ...; returns the full length like snprintf. */
TS_API size_t ts_device_str(TsDevice d, char *buf, size_t size);

/* The common header of every reference-counted heap object (see value.h). */
typedef struct TsHeap {
    ts_atomic_uint refcount;
    uint16_t kind;         /* TsTag of the object */
    ts_atomic_ushort flags;  /* TS_HEAP_* (value.h): set once, never cleared */
} TsHeap;

/* An allocator belongs to a backend. alloc returns NULL on failure. */
typedef struct TsAllocator {
    const char *name;
    void *(*alloc)(struct TsAllocator *self, size_t nbytes, TsDevice device);
    void (*free)(struct TsAllocator *self, void *ptr, size_t nbytes, TsDevice device);
    void *ctx;             /* the backend's own state */
    /* Moves nbytes between host memory and this backend's memory at device: into the
     * device's memory (dst) when to_device, else out of it (src). NULL for a backend whose
     * memory the host reads and writes itself (cpu; memcpy then does). 0, or an error code
     * with err set ("no CUDA device"). ts_tensor_copy_to calls it. */
    int (*copy)(struct TsAllocator *self, void *dst, const void *src, size_t nbytes,
                TsDevice device, bool to_device, TsError *err);
    /* Why alloc just failed on device, when it is not a lack of memory: sets err and returns
     * its code ("no CUDA device"); 0 when memory ran out. NULL for a backend whose failures
     * are always that. ts_storage_new asks it after a failed alloc. */
    int (*why)(struct TsAllocator *self, TsDevice device, TsError *err);
    /* Capturing queued work into a graph that replays it (CUDA graphs); NULL for a backend
     * that cannot. The executor uses it where the config asks (cuda_graphs: true). */
    const struct TsCaptureOps *capture;
} TsAllocator;

typedef struct TsStorage {
    TsHeap h;
    void *data;
    size_t nbytes;
    TsDevice device;
    ts_atomic_uint version; /* ts_storage_version (in what was padding: the layout is v5's) */
    TsAllocator *allocator; /* frees data; NULL when the memory is borrowed */
} TsStorage;

/* Storage over new memory from allocator; NULL with err when allocation fails. */
TS_API TsStorage *ts_storage_new(TsAllocator *allocator, size_t nbytes, TsDevice device, TsError *err);
/* Storage over memory the caller keeps alive longer than the storage (never freed by it). */
TS_API TsStorage *ts_storage_borrow(void *data, size_t nbytes, TsDevice device, TsError *err);
/* Storage over memory someone else owns (a mapped file, a caller's buffer): zero copy; when
 * the storage dies, release(ctx) runs once. On failure release is not called. */
TS_API TsStorage *ts_storage_external(void *data, size_t nbytes, TsDevice device,
                               void (*release)(void *ctx), void *ctx, TsError *err);
TS_API void ts_storage_retain(TsStorage *s);
TS_API void ts_storage_release(TsStorage *s);

/* The storage's version: 0 when made, and changed before every write to its elements that
 * runs through the interpreter (a kernel called for an operator whose schema writes a Tensor
 * argument, "Tensor(a!) self": add_, copy_, out=, ...; a view's write counts for its
 * storage), as PyTorch's version counter. A kernel that keeps something derived from a
 * tensor's elements between calls (a weight reordered for a library: plugins/aten-dnnl)
 * keeps the storage (retained, so that its address is not reused) and the version it read,
 * and derives again when the version moved. Whoever changes elements the interpreter does
 * not see change (a caller writing into memory it lent with ts_tensor_from_blob, between
 * calls) calls ts_storage_bump_version. */
TS_API unsigned ts_storage_version(const TsStorage *s);
TS_API void ts_storage_bump_version(TsStorage *s);

/* A tensor's requires_grad, with autograd's notion of a leaf (tscript computes no gradients,
 * but programs read x.is_leaf, and an in-place write to a leaf that requires grad is an
 * error): any nonzero value requires grad. A tensor made by the user (a parameter,
 * torch.tensor(..., requires_grad=True), x.requires_grad_()) is a leaf; one that an operator
 * computed from a tensor requiring grad is not, and a view of a leaf is told apart for the
 * error's wording. */
enum { TS_GRAD_NONE = 0, TS_GRAD_LEAF = 1, TS_GRAD_COMPUTED = 2, TS_GRAD_LEAF_VIEW = 3 };

#define TS_TENSOR_INLINE_DIMS 5
#define TS_TENSOR_MAX_DIMS 64

typedef struct TsTensor {
    TsHeap h;
    TsStorage *storage;    /* NULL only for a tensor with no elements and no storage yet */
    int64_t offset;        /* storage offset, in elements */
    int64_t *sizes;        /* dim entries: inline_dims or heap */
    int64_t *strides;      /* dim entries, in elements */
    int32_t dim;
    int8_t dtype;          /* TsDType */
    uint8_t requires_grad; /* TS_GRAD_*: 0 when it does not require grad */
    uint16_t flags;        /* backend-defined bits */
    TsDevice device;
    int64_t inline_dims[2 * TS_TENSOR_INLINE_DIMS];
} TsTensor;

/* A backend's capture of the work a run of a region of a graph queues on the calling
 * thread, replayed later on new inputs of the same shapes, dtypes, strides and devices.
 * The executor drives it on one thread:
 *
 *     c = begin(n, in, stable, static_in)   then the region runs on the inputs it says
 *     end(c, n_out, out)                    the region's tensor outputs
 *     replay(c, n, in, out) ...             each computes, on the actual inputs
 *     discard(c)                            on any failure, and when the plan dies
 *
 * Nothing runs while capturing: the work is recorded, and only a replay computes. */
typedef struct TsCapture TsCapture;
typedef struct TsCaptureOps {
    /* Starts capturing the calling thread's work. in: the region's n tensor inputs
     * (borrowed). stable[i]: in[i]'s memory is read where it is, at every replay (the
     * caller keeps its address fixed); for the others the capture makes a static tensor of
     * the same sizes, strides and dtype, *static_in[i] (a new reference; NULL for stable
     * ones), which the recorded work reads and each replay first fills from its in[i]. The
     * caller runs the region on static_in[i] where set, in[i] otherwise. NULL with err set
     * when this cannot be captured (then nothing has started). */
    TsCapture *(*begin)(size_t n, TsTensor *const *in, const bool *stable,
                        TsTensor **static_in, TsError *err);
    /* Stops capturing: out are the region's n_out tensor outputs (borrowed). 0, or an error
     * code with err set when the capture failed (an operation that cannot be recorded, such
     * as one that waits for the device) or an output cannot be replayed into a new tensor
     * (one that is an input or a view of one). The caller then discards. */
    int (*end)(TsCapture *c, size_t n_out, TsTensor *const *out, TsError *err);
    /* Runs the recorded work on in (as at begin: stable ones at their captured addresses)
     * and sets out[0..n_out-1] to new tensors (new references) holding this run's outputs,
     * with the sizes, strides and dtypes the captured outputs had. */
    int (*replay)(TsCapture *c, size_t n, TsTensor *const *in, TsTensor **out, TsError *err);
    /* Ends a capture in progress if there is one and frees everything of c; any thread. */
    void (*discard)(TsCapture *c);
} TsCaptureOps;

/* A tensor over storage (retained) with the given sizes and strides (copied). strides NULL:
 * contiguous. Checks that every element it can address lies inside the storage. */
TS_API TsTensor *ts_tensor_new(TsStorage *storage, int dtype, int dim, const int64_t *sizes,
                        const int64_t *strides, int64_t offset, TsError *err);
/* A new contiguous tensor with fresh storage from allocator (uninitialized data). */
TS_API TsTensor *ts_tensor_empty(TsAllocator *allocator, TsDevice device, int dtype, int dim,
                          const int64_t *sizes, TsError *err);
/* A copy of the contiguous tensor src on another backend: same dtype and sizes, new storage
 * from allocator at device, the bytes moved by the allocators' copy functions (src's
 * storage's out to the host, allocator's in from it; memcpy where a side has none). This is
 * how .to(device) crosses backends: the source's kernel converts the dtype on its own
 * device, then calls this. NULL with err (TS_ERR_USAGE for a src that is not contiguous). */
TS_API TsTensor *ts_tensor_copy_to(const TsTensor *src, TsAllocator *allocator, TsDevice device,
                                   TsError *err);
TS_API void ts_tensor_retain(TsTensor *t);
TS_API void ts_tensor_release(TsTensor *t);

/* Replaces sizes and strides (strides NULL: contiguous). Fails when the new shape would
 * address memory outside the storage. */
TS_API int ts_tensor_set_shape(TsTensor *t, int dim, const int64_t *sizes, const int64_t *strides,
                        int64_t offset, TsError *err);
TS_API int64_t ts_tensor_numel(const TsTensor *t);
TS_API bool ts_tensor_is_contiguous(const TsTensor *t);
/* Pointer to element 0 (storage data + offset * element size); NULL without storage. */
TS_API void *ts_tensor_data(const TsTensor *t);
/* Contiguous strides for sizes; returns false if numel would overflow int64. */
TS_API bool ts_contiguous_strides(int dim, const int64_t *sizes, int64_t *strides_out);

#ifdef __cplusplus
}
#endif
#endif
