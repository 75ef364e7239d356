/* unpickler.h — the unpickler's machine state, shared by unpickle.c (the opcode loop, the
 * stack, the memo) and unpickle_globals.c (the globals it knows and what calling them
 * does); internal to core/serialize.
 *
 * Besides Python's stack, marks and memo, the machine keeps a Meta for every value it
 * builds that can hold others (lists, dicts, objects, tuples) and for the globals it pushes:
 * its height (how deep values nest inside it, bounded by TS_PICKLE_MAX_DEPTH), whether it
 * is sealed (it was put inside another value, so it may no longer be filled: this is what
 * makes a value containing itself impossible), and whether it is or holds a global (a
 * global may be called, or sit in the argument tuple of a call, but never be a value).
 * Globals live on the stack as capsules over a Global. The machine holds a reference to
 * every value it keeps a Meta for until it ends, so no address is reused by another value
 * while the Meta is keyed by it.
 */
#ifndef TSCRIPT_UNPICKLER_H
#define TSCRIPT_UNPICKLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptrmap.h"
#include "serialize/pickle.h"

typedef enum GlobalKind {
    G_REBUILD_TENSOR,          /* torch._utils._rebuild_tensor_v2 */
    G_REBUILD_PARAMETER,       /* torch._utils._rebuild_parameter */
    G_ORDERED_DICT,            /* collections.OrderedDict */
    G_BUILD_LIST,              /* torch.jit._pickle.build_{int,double,bool,tensor}list */
    G_RESTORE_TYPE_TAG,        /* torch.jit._pickle.restore_type_tag */
    G_COMPLEX,                 /* builtins.complex */
    G_DEVICE,                  /* torch.device */
    G_SIZE,                    /* torch.Size */
    G_STORAGE,                 /* torch.<Dtype>Storage, torch.storage.UntypedStorage */
    G_CLASS,                   /* a __torch__ class: NEWOBJ then BUILD */
    G_ENUM                     /* a __torch__ enum: REDUCE of a value */
} GlobalKind;

typedef struct Global {
    GlobalKind kind;
    int dtype;                 /* G_STORAGE: the storage's; G_BUILD_LIST: the element tag */
    const TsType *type;        /* G_CLASS, G_ENUM */
    char name[];               /* "module.name", for messages */
} Global;

typedef struct Meta {
    TsValue value;             /* held until the end, so its address is never reused */
    uint32_t height;           /* 1 + the height of the deepest value inside; leaves are 0 */
    bool sealed;               /* inside another value: no more items */
    bool global;               /* a global, or a tuple holding one */
} Meta;

typedef struct Unpickler {
    const uint8_t *data;
    size_t size, pos;
    size_t op_at;              /* the offset of the opcode running, for messages */
    const TsUnpickleEnv *env;
    TsError *err;
    TsValue *stack;
    size_t sp, stack_cap;
    size_t *marks;
    size_t nmarks, marks_cap;
    TsValue *memo;             /* TS_TAG_UNINIT where nothing was put */
    size_t memo_len;           /* slots; the highest id put + 1 */
    size_t memo_count;         /* ids put: the next MEMOIZE's id, as Python counts */
    TsPtrMap meta_index;       /* heap object -> index in metas */
    Meta *metas;
    size_t nmeta, meta_cap;
    TsDict *storages;          /* persistent id key -> the 1-D tensor over its storage */
    TsDict *types;             /* restore_type_tag's strings -> the type, as an int */
} Unpickler;

/* Sets the error "pickle: byte N: ..." and returns its code. */
int ts_unpickler_fail(Unpickler *u, TsErrorCode code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Puts "pickle: byte N: " before a message a hook or a core function set. */
int ts_unpickler_failed(Unpickler *u, int code);

/* Pushes v (taking the reference); registers a Meta for it when meta is not NULL. */
int ts_unpickler_push(Unpickler *u, TsValue v, const Meta *meta);
/* The Meta of v, or NULL for a leaf (a scalar, str, tensor, ...). */
Meta *ts_unpickler_meta(Unpickler *u, TsValue v);
/* Puts item inside a value of meta m (NULL: a fresh container): seals it, raises m's
 * height, refuses globals unless allow_global. */
int ts_unpickler_contain(Unpickler *u, Meta *m, TsValue item, bool allow_global);
/* A Global pushed by GLOBAL / STACK_GLOBAL, or NULL if v is none. */
const Global *ts_unpickler_global(TsValue v);

/* GLOBAL module name: pushes what it names, or refuses it. */
int ts_unpickler_find_global(Unpickler *u, const char *module, const char *name);
/* REDUCE: calls the global func with args (both taken). */
int ts_unpickler_reduce(Unpickler *u, TsValue func, TsValue args);
/* NEWOBJ: an object of class cls (args must be empty; both taken). */
int ts_unpickler_newobj(Unpickler *u, TsValue cls, TsValue args);
/* BUILD: applies state to target (state taken; target stays on the stack). */
int ts_unpickler_build(Unpickler *u, TsValue target, TsValue state);
/* BINPERSID: the storage a persistent id names (pid taken). */
int ts_unpickler_persistent(Unpickler *u, TsValue pid);

#endif
