/* tscript/value.h — TsValue (PyTorch's IValue): a 16-byte tagged union, and the
 * reference-counted heap objects it can point to.
 *
 * Scalars (None, int, float, bool, device) live inline. Everything else is a heap object that
 * starts with a TsHeap header (atomic refcount + kind): str, complex, list, dict, tuple,
 * object, tensor, future, enum value, capsule. A TsValue owns one reference to its object:
 * ts_value_retain() copies, ts_value_release() drops. Containers own references to their
 * elements.
 *
 * dtype, layout and memory format are ints at run time, as in PyTorch.
 */
#ifndef TSCRIPT_VALUE_H
#define TSCRIPT_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tscript/error.h"
#include "tscript/tensor.h"
#include "tscript/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TsTag {
    TS_TAG_NONE = 0,
    TS_TAG_INT,
    TS_TAG_DOUBLE,
    TS_TAG_BOOL,
    TS_TAG_DEVICE,
    TS_TAG_UNINIT,         /* prim::Uninitialized: a value that must never be read */
    /* heap tags: every tag from here on points to a TsHeap */
    TS_TAG_STR,
    TS_TAG_COMPLEX,
    TS_TAG_LIST,
    TS_TAG_DICT,
    TS_TAG_TUPLE,
    TS_TAG_OBJECT,
    TS_TAG_TENSOR,
    TS_TAG_FUTURE,
    TS_TAG_ENUM,
    TS_TAG_CAPSULE,
    TS_TAG_STORAGE,
    TS_TAG__COUNT
} TsTag;

#define TS_TAG_FIRST_HEAP TS_TAG_STR

typedef struct TsValue {
    union {
        int64_t i;
        double d;
        bool b;
        TsDevice dev;
        TsHeap *p;
    } u;
    uint32_t tag;          /* TsTag */
    uint32_t reserved;
} TsValue;

TS_STATIC_ASSERT(sizeof(TsValue) == 16, "TsValue must stay 16 bytes");

/* ---- heap objects ------------------------------------------------------- */
typedef struct TsStr {
    TsHeap h;
    size_t len;            /* bytes, not counting the NUL */
    uint64_t hash_;        /* private to str.c: the hash once computed, 0 before */
    char data[];           /* UTF-8, NUL-terminated; immutable */
} TsStr;

typedef struct TsComplex {
    TsHeap h;
    double re, im;
} TsComplex;

/* ---- big blocks ----------------------------------------------------------------------
 * Memory for blocks that may be big (arrays, tensor data, caches): n >= TS_BIG_MIN bytes
 * come from a mapping of their own at a 2 MB boundary, advised into transparent huge pages
 * (one page fault per 2 MB instead of 512), smaller ones from malloc. Each call takes the
 * size the block was allocated with (0 with NULL). NULL when out of memory; realloc then
 * leaves p as it was. Big blocks are aligned to 2 MB, small ones as malloc aligns. */
#define TS_BIG_MIN ((size_t)2 << 20)
TS_API void *ts_big_alloc(size_t n);
TS_API void *ts_big_realloc(void *p, size_t old_size, size_t new_size);
TS_API void ts_big_free(void *p, size_t size);
/* The size a block that keeps growing (a list built by append) should ask for when it needs
 * n bytes: n, or from 512 KB on, n rounded up to whole 2 MB huge pages, so that every stretch
 * of it can be a huge page (a huge page is only granted to a 2 MB stretch wholly inside the
 * mapping when it is first touched; a stretch first touched as the partial tail stays in
 * small pages for good). */
TS_API size_t ts_big_grow_size(size_t n);

typedef struct TsList {
    TsHeap h;
    const TsType *elem_type;
    size_t len, cap;
    TsValue *items;
} TsList;

typedef struct TsDict TsDict;          /* ordered (insertion order), see dict.c */

typedef struct TsTuple {
    TsHeap h;
    const TsType *type;    /* NULL: a plain tuple whose type is its elements' */
    size_t len;
    TsValue items[];
} TsTuple;

typedef struct TsObject {
    TsHeap h;
    const TsType *cls;     /* class or module type */
    size_t nslots;
    TsValue slots[];       /* one per attribute, in the class's field order */
} TsObject;

typedef struct TsEnumValue {
    TsHeap h;
    const TsType *type;
    TsStr *name;
    TsValue value;
} TsEnumValue;

typedef struct TsCapsule {
    TsHeap h;
    void *ptr;
    void (*destroy)(void *ptr);
} TsCapsule;

typedef struct TsFuture TsFuture;      /* see future.c */

/* ---- making values ------------------------------------------------------ */
static inline TsValue ts_none(void) { TsValue v = {{0}, TS_TAG_NONE, 0}; return v; }
static inline TsValue ts_int(int64_t i) { TsValue v = {{0}, TS_TAG_INT, 0}; v.u.i = i; return v; }
static inline TsValue ts_double(double d) { TsValue v = {{0}, TS_TAG_DOUBLE, 0}; v.u.d = d; return v; }
static inline TsValue ts_bool(bool b) { TsValue v = {{0}, TS_TAG_BOOL, 0}; v.u.b = b; return v; }
static inline TsValue ts_device(TsDevice d) { TsValue v = {{0}, TS_TAG_DEVICE, 0}; v.u.dev = d; return v; }
static inline TsValue ts_uninit(void) { TsValue v = {{0}, TS_TAG_UNINIT, 0}; return v; }
/* Wraps a heap object, taking over the caller's reference. */
static inline TsValue ts_obj_value(void *obj, TsTag tag)
{
    TsValue v = {{0}, (uint32_t)tag, 0};
    v.u.p = (TsHeap *)obj;
    return v;
}

static inline bool ts_is_heap(TsValue v) { return v.tag >= TS_TAG_FIRST_HEAP; }

/* ---- reference counting ------------------------------------------------- */
TS_API void ts_heap_retain(TsHeap *h);
TS_API void ts_heap_release(TsHeap *h);       /* frees the object at zero */
static inline void ts_value_retain(TsValue v) { if (ts_is_heap(v)) ts_heap_retain(v.u.p); }
static inline void ts_value_release(TsValue v) { if (ts_is_heap(v)) ts_heap_release(v.u.p); }
/* Current count (for tests and the interpreter's test hook); 0 for inline values. */
TS_API unsigned ts_value_refcount(TsValue v);

/* ---- strings ------------------------------------------------------------ */
TS_API TsStr *ts_str_new(const char *data, size_t len, TsError *err);
TS_API TsStr *ts_str_from_cstr(const char *s, TsError *err);
/* A string of len bytes to fill in (data[len] is already the NUL) before anyone else sees
 * it: building a string in place instead of in a buffer that is then copied. */
TS_API TsStr *ts_str_alloc(size_t len, TsError *err);
TS_API TsValue ts_str_value(TsStr *s);        /* takes the reference */
TS_API uint64_t ts_str_hash(const TsStr *s);

/* ---- complex ------------------------------------------------------------ */
TS_API TsComplex *ts_complex_new(double re, double im, TsError *err);

/* ---- lists (mutable; not locked: a shared one only with the shared lock held) ---- */
/* Functions that take a value's reference take it even when they fail (it is released). */
TS_API TsList *ts_list_new(const TsType *elem_type, size_t cap, TsError *err);
TS_API int ts_list_append(TsList *l, TsValue v, TsError *err);           /* takes v's reference */
TS_API int ts_list_insert(TsList *l, int64_t index, TsValue v, TsError *err);
TS_API int ts_list_reserve(TsList *l, size_t cap, TsError *err);
/* Python-style index (negative from the end); IndexError "list index out of range". */
TS_API int ts_list_get(const TsList *l, int64_t index, TsValue *out, TsError *err);  /* borrowed */
TS_API int ts_list_set(TsList *l, int64_t index, TsValue v, TsError *err);           /* takes v */
TS_API int ts_list_pop(TsList *l, int64_t index, TsValue *out, TsError *err);        /* gives ref */
TS_API void ts_list_clear(TsList *l);

/* ---- dicts (ordered by insertion) ---------------------------------------- */
/* Keys: str, int, float, bool, complex, Tensor (by identity), device, None. */
TS_API TsDict *ts_dict_new(const TsType *key_type, const TsType *value_type, TsError *err);
TS_API const TsType *ts_dict_key_type(const TsDict *d);
TS_API const TsType *ts_dict_value_type(const TsDict *d);
/* Gives a dict built untyped (by the unpickler) its static types; the caller has checked
 * every entry against them (ts_pickle_retype). */
TS_API void ts_dict_set_types(TsDict *d, const TsType *key_type, const TsType *value_type);
TS_API size_t ts_dict_len(const TsDict *d);
/* Inserts or replaces; takes both references, even on failure (the old key is kept on
 * replace, as Python). */
TS_API int ts_dict_set(TsDict *d, TsValue key, TsValue value, TsError *err);
/* Borrowed value, or false when absent. */
TS_API bool ts_dict_get(const TsDict *d, TsValue key, TsValue *out);
/* Removes key; gives the value's reference to *out (or drops it if out is NULL).
 * Returns false when absent. */
TS_API bool ts_dict_delete(TsDict *d, TsValue key, TsValue *out);
TS_API void ts_dict_clear(TsDict *d);
/* Iteration in insertion order: pos starts at 0; returns false at the end. Borrowed. */
TS_API bool ts_dict_next(const TsDict *d, size_t *pos, TsValue *key, TsValue *value);

/* ---- tuples (immutable once built) --------------------------------------- */
/* n items, each None; fill with items[i] = v (taking references) before sharing. */
TS_API TsTuple *ts_tuple_new(const TsType *type, size_t n, TsError *err);

/* ---- objects of script classes ------------------------------------------- */
TS_API TsObject *ts_object_new(const TsType *cls, TsError *err);  /* slots start as None */

/* ---- enum values ---------------------------------------------------------- */
/* Takes value's reference, even on failure. */
TS_API TsEnumValue *ts_enum_value_new(const TsType *type, const char *name, TsValue value, TsError *err);

/* ---- capsules: plugin-owned opaque pointers ------------------------------ */
/* destroy(ptr) runs once, when the last reference goes; on failure ptr stays the caller's. */
TS_API TsCapsule *ts_capsule_new(void *ptr, void (*destroy)(void *), TsError *err);

/* ---- futures -------------------------------------------------------------- */
TS_API TsFuture *ts_future_new(const TsType *elem_type, TsError *err);
TS_API const TsType *ts_future_elem_type(const TsFuture *f);
/* Completes with a value (taken) or an error (moved). A second completion is an error. */
TS_API int ts_future_complete(TsFuture *f, TsValue value, TsError *err);
TS_API int ts_future_fail(TsFuture *f, TsError *failure, TsError *err);
TS_API bool ts_future_done(const TsFuture *f);
/* Blocks until done; then copies the value (new reference) or the error. */
TS_API int ts_future_wait(TsFuture *f, TsValue *out, TsError *err);
/* Runs cb(f, data) once the future is done: at once if it already is, else on the thread
 * that completes it. */
TS_API int ts_future_then(TsFuture *f, void (*cb)(TsFuture *f, void *data), void *data, TsError *err);

/* ---- values several threads reach (core/value/share.c says why and how) -------------- */
/* A list, dict, object or future that more than one thread may reach is shared, and so is
 * everything reachable from it; the flag is set once and never cleared. The contents of a
 * shared container are read and written only with the shared lock held: one lock for all
 * of them, recursive on a thread. The interpreter holds it around a kernel any of whose
 * arguments is shared; a kernel that reads inside a container nested in its arguments (the
 * lists of a list of lists) takes it for each one that is shared, with ts_shared_lock_if. */
#define TS_HEAP_SHARED 1u
static inline bool ts_value_is_shared(TsValue v)
{
    return ts_is_heap(v) && (TS_ATOMIC_LOAD_RELAXED(&v.u.p->flags) & TS_HEAP_SHARED);
}
/* Marks v and everything it reaches shared: before handing one value to several threads
 * (TS_ERR_NOMEM when marking containers nested very deep runs out of memory). */
TS_API int ts_value_share(TsValue v, TsError *err);
TS_API void ts_shared_lock(void);
TS_API void ts_shared_unlock(void);
/* Takes the shared lock when v is shared; returns whether it did (then unlock after). */
static inline bool ts_shared_lock_if(TsValue v)
{
    if (!ts_value_is_shared(v))
        return false;
    ts_shared_lock();
    return true;
}

/* ---- generic operations ---------------------------------------------------- */
/* Python equality (==) for values of the same TorchScript type; tensors by identity. */
TS_API bool ts_value_equal(TsValue a, TsValue b);
/* Identity (is): same object, or equal inline scalars. */
TS_API bool ts_value_is(TsValue a, TsValue b);
TS_API uint64_t ts_value_hash(TsValue v);
/* The dynamic type of a value (List's element type, a tensor refined by dtype/device/...). */
TS_API const TsType *ts_value_type(TsValue v);

#ifdef __cplusplus
}
#endif
#endif
