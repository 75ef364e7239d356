/* types.c — the TorchScript type system: type objects, subtyping, unification, printing.
 *
 * Every type is a TsType owned by one of two global tables, guarded by one mutex because
 * several runtimes (threads) compile at once:
 *   - the structural table hash-conses List/Dict/Tuple/Optional/Union/Future/RRef, type
 *     variables and refined tensors, so equal types are one pointer and type equality is
 *     pointer comparison;
 *   - the nominal table holds classes, modules, enums, interfaces and named tuples by
 *     qualified name.
 * The primitive types (int, Tensor, ...) are static singletons and never freed.
 * ts_types_shutdown() frees both tables. Class and module types are the only mutable
 * ones: attributes are added under the lock while the frontend compiles __init__, and are
 * read without it once the class is finished.
 *
 * The relations follow PyTorch 1.13 (c10 type.cpp / union_type.cpp) as observed from
 * torch._C: isSubtypeOf, unifyTypes, and the IR printer's spelling of each type.
 */
#include "tscript/types.h"

#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tscript/tensor.h"

/* A method's signature as a class declares it or an interface requires it: its arguments,
 * self first, and its return type. Recorded once and never changed, so readers need no
 * lock (ts_type_set_method_sig). */
typedef struct MethodSig {
    char *name;
    size_t n;
    char **arg_names;
    const TsType **arg_types;
    const TsType *ret;
} MethodSig;

struct TsType {
    TsTypeKind kind;
    bool is_module;             /* class or interface that is an nn.Module */
    uint32_t hash;              /* structural types: hash of the key */
    size_t n;                   /* contained types */
    const TsType **elems;
    char *name;                 /* qualified name, or a type variable's name */
    TsTypeField *fields;        /* attrs, named tuple fields, enum members, methods */
    size_t nfields, fields_cap;
    char **methods;             /* classes: the names of their methods (interfaces check them) */
    size_t nmethods, methods_cap;
    MethodSig **sigs;           /* classes and interfaces: recorded method signatures */
    size_t nsigs, sigs_cap;
    const TsType *value_type;   /* enum: the members' value type */
    TsTensorTypeInfo tinfo;     /* TS_TYPE_TENSOR only; sizes/strides owned */
    TsType *chain;              /* next in this type's table bucket */
};

/* A chained hash table of types; a type is in exactly one table. */
typedef struct TsTypeTable {
    TsType **buckets;
    size_t nbuckets;            /* 0 or a power of two */
    size_t count;
} TsTypeTable;

static pthread_mutex_t types_lock = PTHREAD_MUTEX_INITIALIZER;
static TsTypeTable structural;
static TsTypeTable nominal;

/* ---- singletons -------------------------------------------------------- */

#define UNKNOWN_TENSOR { -1, -1, -1, -1, NULL, NULL, -1 }

static TsType singletons[TS_TYPE__COUNT] = {
    [TS_TYPE_ANY] = { .kind = TS_TYPE_ANY },
    [TS_TYPE_NONE] = { .kind = TS_TYPE_NONE },
    [TS_TYPE_INT] = { .kind = TS_TYPE_INT },
    [TS_TYPE_FLOAT] = { .kind = TS_TYPE_FLOAT },
    [TS_TYPE_COMPLEX] = { .kind = TS_TYPE_COMPLEX },
    [TS_TYPE_BOOL] = { .kind = TS_TYPE_BOOL },
    [TS_TYPE_STR] = { .kind = TS_TYPE_STR },
    [TS_TYPE_NUMBER] = { .kind = TS_TYPE_NUMBER },
    [TS_TYPE_TENSOR] = { .kind = TS_TYPE_TENSOR, .tinfo = UNKNOWN_TENSOR },
    [TS_TYPE_DEVICE] = { .kind = TS_TYPE_DEVICE },
    [TS_TYPE_SCALARTYPE] = { .kind = TS_TYPE_SCALARTYPE },
    [TS_TYPE_LAYOUT] = { .kind = TS_TYPE_LAYOUT },
    [TS_TYPE_MEMORYFORMAT] = { .kind = TS_TYPE_MEMORYFORMAT },
    [TS_TYPE_STREAM] = { .kind = TS_TYPE_STREAM },
    [TS_TYPE_GENERATOR] = { .kind = TS_TYPE_GENERATOR },
    [TS_TYPE_STORAGE] = { .kind = TS_TYPE_STORAGE },
    [TS_TYPE_QSCHEME] = { .kind = TS_TYPE_QSCHEME },
    [TS_TYPE_CAPSULE] = { .kind = TS_TYPE_CAPSULE },
    [TS_TYPE_ANY_LIST] = { .kind = TS_TYPE_ANY_LIST },
    [TS_TYPE_ANY_TUPLE] = { .kind = TS_TYPE_ANY_TUPLE },
    [TS_TYPE_ANY_CLASS] = { .kind = TS_TYPE_ANY_CLASS },
    [TS_TYPE_ANY_ENUM] = { .kind = TS_TYPE_ANY_ENUM },
};

const TsType *ts_type_any(void) { return &singletons[TS_TYPE_ANY]; }
const TsType *ts_type_none(void) { return &singletons[TS_TYPE_NONE]; }
const TsType *ts_type_int(void) { return &singletons[TS_TYPE_INT]; }
const TsType *ts_type_float(void) { return &singletons[TS_TYPE_FLOAT]; }
const TsType *ts_type_complex(void) { return &singletons[TS_TYPE_COMPLEX]; }
const TsType *ts_type_bool(void) { return &singletons[TS_TYPE_BOOL]; }
const TsType *ts_type_str(void) { return &singletons[TS_TYPE_STR]; }
const TsType *ts_type_number(void) { return &singletons[TS_TYPE_NUMBER]; }
const TsType *ts_type_tensor(void) { return &singletons[TS_TYPE_TENSOR]; }
const TsType *ts_type_device(void) { return &singletons[TS_TYPE_DEVICE]; }
const TsType *ts_type_scalartype(void) { return &singletons[TS_TYPE_SCALARTYPE]; }
const TsType *ts_type_layout(void) { return &singletons[TS_TYPE_LAYOUT]; }
const TsType *ts_type_memoryformat(void) { return &singletons[TS_TYPE_MEMORYFORMAT]; }
const TsType *ts_type_stream(void) { return &singletons[TS_TYPE_STREAM]; }
const TsType *ts_type_generator(void) { return &singletons[TS_TYPE_GENERATOR]; }
const TsType *ts_type_storage(void) { return &singletons[TS_TYPE_STORAGE]; }
const TsType *ts_type_qscheme(void) { return &singletons[TS_TYPE_QSCHEME]; }
const TsType *ts_type_capsule(void) { return &singletons[TS_TYPE_CAPSULE]; }
const TsType *ts_type_any_list(void) { return &singletons[TS_TYPE_ANY_LIST]; }
const TsType *ts_type_any_tuple(void) { return &singletons[TS_TYPE_ANY_TUPLE]; }
const TsType *ts_type_any_class(void) { return &singletons[TS_TYPE_ANY_CLASS]; }
const TsType *ts_type_any_enum(void) { return &singletons[TS_TYPE_ANY_ENUM]; }

/* ---- hashing and tables ------------------------------------------------ */

static uint32_t hash_bytes(uint32_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;    /* FNV-1a */
    return h;
}

static uint32_t hash_str(const char *s)
{
    return hash_bytes(2166136261u, s, strlen(s));
}

static uint32_t hash_key(const TsType *k)
{
    uint32_t h = hash_bytes(2166136261u, &k->kind, sizeof k->kind);
    h = hash_bytes(h, &k->n, sizeof k->n);
    for (size_t i = 0; i < k->n; i++)
        h = hash_bytes(h, &k->elems[i], sizeof k->elems[i]);
    if (k->name)
        h = hash_bytes(h, k->name, strlen(k->name));
    for (size_t i = 0; i < k->nfields; i++)       /* an op's named returns */
        h = hash_bytes(h, k->fields[i].name, strlen(k->fields[i].name) + 1);
    if (k->kind == TS_TYPE_TENSOR) {
        const TsTensorTypeInfo *ti = &k->tinfo;
        int head[5] = { ti->dtype, ti->device_type, ti->device_index, ti->dim,
                        ti->requires_grad };
        h = hash_bytes(h, head, sizeof head);
        if (ti->dim > 0) {
            h = hash_bytes(h, ti->sizes, (size_t)ti->dim * sizeof *ti->sizes);
            if (ti->strides)
                h = hash_bytes(h, ti->strides, (size_t)ti->dim * sizeof *ti->strides);
        }
    }
    return h;
}

static bool tinfo_equal(const TsTensorTypeInfo *a, const TsTensorTypeInfo *b)
{
    if (a->dtype != b->dtype || a->device_type != b->device_type
        || a->device_index != b->device_index || a->dim != b->dim
        || a->requires_grad != b->requires_grad)
        return false;
    if (a->dim <= 0)
        return true;
    size_t nb = (size_t)a->dim * sizeof(int64_t);
    if (memcmp(a->sizes, b->sizes, nb) != 0)
        return false;
    if (!a->strides || !b->strides)
        return a->strides == b->strides;
    return memcmp(a->strides, b->strides, nb) == 0;
}

static bool key_equal(const TsType *a, const TsType *b)
{
    if (a->kind != b->kind || a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->elems[i] != b->elems[i])
            return false;
    if ((a->name == NULL) != (b->name == NULL))
        return false;
    if (a->name && strcmp(a->name, b->name) != 0)
        return false;
    if (a->nfields != b->nfields)
        return false;
    for (size_t i = 0; i < a->nfields; i++)
        if (strcmp(a->fields[i].name, b->fields[i].name) != 0)
            return false;
    return a->kind != TS_TYPE_TENSOR || tinfo_equal(&a->tinfo, &b->tinfo);
}

static int table_grow(TsTypeTable *tab)
{
    size_t nb = tab->nbuckets ? tab->nbuckets * 2 : 64;
    TsType **b = calloc(nb, sizeof *b);
    if (!b)
        return -1;
    for (size_t i = 0; i < tab->nbuckets; i++) {
        TsType *t = tab->buckets[i];
        while (t) {
            TsType *next = t->chain;
            t->chain = b[t->hash & (nb - 1)];
            b[t->hash & (nb - 1)] = t;
            t = next;
        }
    }
    free(tab->buckets);
    tab->buckets = b;
    tab->nbuckets = nb;
    return 0;
}

static int table_insert(TsTypeTable *tab, TsType *t)
{
    if (tab->count + 1 > tab->nbuckets * 3 / 4 && table_grow(tab) != 0)
        return -1;
    size_t i = t->hash & (tab->nbuckets - 1);
    t->chain = tab->buckets[i];
    tab->buckets[i] = t;
    tab->count++;
    return 0;
}

static void sig_free(MethodSig *m)
{
    if (!m)
        return;
    for (size_t i = 0; m->arg_names && i < m->n; i++)
        free(m->arg_names[i]);
    free(m->arg_names);
    free(m->arg_types);
    free(m->name);
    free(m);
}

static void type_free(TsType *t)
{
    free(t->elems);
    free(t->name);
    for (size_t i = 0; i < t->nfields; i++)
        free((char *)t->fields[i].name);
    free(t->fields);
    for (size_t i = 0; i < t->nmethods; i++)
        free(t->methods[i]);
    free(t->methods);
    for (size_t i = 0; i < t->nsigs; i++)
        sig_free(t->sigs[i]);
    free(t->sigs);
    free((int64_t *)t->tinfo.sizes);
    free((int64_t *)t->tinfo.strides);
    free(t);
}

static void table_free(TsTypeTable *tab)
{
    for (size_t i = 0; i < tab->nbuckets; i++) {
        TsType *t = tab->buckets[i];
        while (t) {
            TsType *next = t->chain;
            type_free(t);
            t = next;
        }
    }
    free(tab->buckets);
    memset(tab, 0, sizeof *tab);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int64_t *dup_dims(const int64_t *v, int dim)
{
    int64_t *d = malloc((size_t)dim * sizeof *d);
    if (d)
        memcpy(d, v, (size_t)dim * sizeof *d);
    return d;
}

/* Returns the one type equal to the stack-built key k, creating it if new (a deep copy). */
static const TsType *intern(const TsType *k)
{
    uint32_t h = hash_key(k);
    const TsType *found = NULL;
    pthread_mutex_lock(&types_lock);
    if (structural.nbuckets) {
        for (TsType *t = structural.buckets[h & (structural.nbuckets - 1)]; t; t = t->chain)
            if (t->hash == h && key_equal(t, k)) {
                found = t;
                break;
            }
    }
    if (found) {
        pthread_mutex_unlock(&types_lock);
        return found;
    }
    TsType *t = calloc(1, sizeof *t);
    bool fail = !t;
    if (t) {
        t->kind = k->kind;
        t->hash = h;
        t->n = k->n;
        t->tinfo = k->tinfo;
        t->tinfo.sizes = t->tinfo.strides = NULL;
        if (k->n) {
            t->elems = malloc(k->n * sizeof *t->elems);
            fail |= !t->elems;
            if (t->elems)
                memcpy(t->elems, k->elems, k->n * sizeof *t->elems);
        }
        if (k->name) {
            t->name = dup_str(k->name);
            fail |= !t->name;
        }
        if (k->nfields) {
            t->fields = calloc(k->nfields, sizeof *t->fields);
            fail |= !t->fields;
            for (size_t i = 0; t->fields && i < k->nfields; i++) {
                t->fields[i].type = k->fields[i].type;
                fail |= !(t->fields[i].name = dup_str(k->fields[i].name));
            }
            if (t->fields)
                t->nfields = t->fields_cap = k->nfields;
        }
        if (k->kind == TS_TYPE_TENSOR && k->tinfo.dim > 0) {
            t->tinfo.sizes = dup_dims(k->tinfo.sizes, k->tinfo.dim);
            fail |= !t->tinfo.sizes;
            if (k->tinfo.strides) {
                t->tinfo.strides = dup_dims(k->tinfo.strides, k->tinfo.dim);
                fail |= !t->tinfo.strides;
            }
        }
        if (!fail)
            fail = table_insert(&structural, t) != 0;
        if (fail) {
            type_free(t);
            t = NULL;
        }
    }
    pthread_mutex_unlock(&types_lock);
    return t;
}

static const TsType *make(TsTypeKind kind, size_t n, const TsType *const *elems)
{
    assert(kind != TS_TYPE_UNION || n >= 2);
    if (n && !elems)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!elems[i])
            return NULL;       /* an inner constructor ran out of memory */
    TsType k = { .kind = kind, .n = n, .elems = (const TsType **)elems };
    return intern(&k);
}

/* ---- structural constructors -------------------------------------------- */

const TsType *ts_type_list(const TsType *elem)
{
    return make(TS_TYPE_LIST, 1, &elem);
}

const TsType *ts_type_dict(const TsType *key, const TsType *value)
{
    const TsType *kv[2] = { key, value };
    return make(TS_TYPE_DICT, 2, kv);
}

const TsType *ts_type_tuple(size_t n, const TsType *const *elems)
{
    return make(TS_TYPE_TUPLE, n, elems);
}

const TsType *ts_type_tuple_fields(size_t n, const char *const *names,
                                   const TsType *const *elems)
{
    if (n == 0 || !names)
        return ts_type_tuple(n, elems);
    TsTypeField small[8];
    TsTypeField *f = n <= 8 ? small : malloc(n * sizeof *f);
    if (!f || !elems)
        return NULL;
    const TsType *t = NULL;
    size_t i;
    for (i = 0; i < n && elems[i] && names[i]; i++) {
        f[i].name = names[i];
        f[i].type = elems[i];
    }
    if (i == n) {
        TsType k = { .kind = TS_TYPE_TUPLE, .n = n, .elems = (const TsType **)elems,
                     .fields = f, .nfields = n };
        t = intern(&k);
    }
    if (f != small)
        free(f);
    return t;
}

const TsType *ts_type_optional(const TsType *elem)
{
    if (!elem)
        return NULL;
    /* Optional[Optional[T]] and Optional[None] add nothing. */
    if (elem->kind == TS_TYPE_OPTIONAL || elem->kind == TS_TYPE_NONE)
        return elem;
    return make(TS_TYPE_OPTIONAL, 1, &elem);
}

const TsType *ts_type_future(const TsType *elem)
{
    return make(TS_TYPE_FUTURE, 1, &elem);
}

const TsType *ts_type_rref(const TsType *elem)
{
    return make(TS_TYPE_RREF, 1, &elem);
}

const TsType *ts_type_var(const char *name)
{
    if (!name)
        return NULL;
    TsType k = { .kind = TS_TYPE_VAR, .name = (char *)name };
    return intern(&k);
}

const TsType *ts_type_tensor_refined(const TsTensorTypeInfo *info)
{
    if (!info)
        return ts_type_tensor();
    TsType k = { .kind = TS_TYPE_TENSOR, .tinfo = *info };
    TsTensorTypeInfo *ti = &k.tinfo;
    /* Normalize: anything out of range means unknown, so equal refinements hash alike. */
    if (ti->dim < 0 || (ti->dim > 0 && !ti->sizes))
        ti->dim = -1;
    if (ti->dim <= 0)
        ti->sizes = ti->strides = NULL;
    if (ti->dtype < 0 || ti->dtype >= TS_DTYPE__COUNT)
        ti->dtype = -1;
    if (ti->device_type < 0)
        ti->device_type = -1;
    if (ti->device_type < 0 || ti->device_index < 0)
        ti->device_index = -1;
    if (ti->requires_grad != 0 && ti->requires_grad != 1)
        ti->requires_grad = -1;
    if (ti->dtype < 0 && ti->device_type < 0 && ti->dim < 0 && ti->requires_grad < 0)
        return ts_type_tensor();
    int64_t *sizes = NULL;
    if (ti->dim > 0) {
        sizes = dup_dims(ti->sizes, ti->dim);
        if (!sizes)
            return NULL;
        bool strides_known = ti->strides != NULL;
        for (int i = 0; i < ti->dim; i++) {
            if (sizes[i] < 0)
                sizes[i] = -1;
            if (strides_known && ti->strides[i] < 0)
                strides_known = false;   /* partially known strides are not kept */
        }
        ti->sizes = sizes;
        ti->strides = strides_known ? ti->strides : NULL;
    }
    const TsType *t = intern(&k);
    free(sizes);
    return t;
}

/* ---- unions ------------------------------------------------------------- */

/* PyTorch sorts union members by its TypeKind order, then by spelling; we keep its order
 * so that printed unions read the same. */
static int kind_rank(TsTypeKind k)
{
    switch (k) {
    case TS_TYPE_ANY: return 0;
    case TS_TYPE_ENUM: return 1;
    case TS_TYPE_ANY_ENUM: return 2;
    case TS_TYPE_TENSOR: return 3;
    case TS_TYPE_STORAGE: return 4;
    case TS_TYPE_TUPLE: return 5;
    case TS_TYPE_LIST: return 6;
    case TS_TYPE_DICT: return 7;
    case TS_TYPE_NUMBER: return 8;
    case TS_TYPE_FLOAT: return 9;
    case TS_TYPE_COMPLEX: return 10;
    case TS_TYPE_FUTURE: return 11;
    case TS_TYPE_RREF: return 12;
    case TS_TYPE_INT: return 13;
    case TS_TYPE_NONE: return 14;
    case TS_TYPE_STR: return 15;
    case TS_TYPE_GENERATOR: return 16;
    case TS_TYPE_BOOL: return 18;
    case TS_TYPE_OPTIONAL: return 19;
    case TS_TYPE_VAR: return 20;
    case TS_TYPE_DEVICE: return 21;
    case TS_TYPE_STREAM: return 22;
    case TS_TYPE_CLASS: return 24;
    case TS_TYPE_MODULE: return 24;
    case TS_TYPE_CAPSULE: return 26;
    case TS_TYPE_INTERFACE: return 27;
    case TS_TYPE_QSCHEME: return 28;
    case TS_TYPE_LAYOUT: return 29;
    case TS_TYPE_SCALARTYPE: return 30;
    case TS_TYPE_MEMORYFORMAT: return 31;
    case TS_TYPE_ANY_LIST: return 32;
    case TS_TYPE_ANY_TUPLE: return 33;
    case TS_TYPE_ANY_CLASS: return 34;
    case TS_TYPE_UNION: return 36;
    case TS_TYPE__COUNT: break;
    }
    return 99;
}

/* A growable array of types used while building a union. */
typedef struct TypeVec {
    const TsType **v;
    size_t n, cap;
} TypeVec;

static int vec_push(TypeVec *vec, const TsType *t)
{
    if (vec->n == vec->cap) {
        size_t cap = vec->cap ? vec->cap * 2 : 8;
        const TsType **v = realloc(vec->v, cap * sizeof *v);
        if (!v)
            return -1;
        vec->v = v;
        vec->cap = cap;
    }
    vec->v[vec->n++] = t;
    return 0;
}

static int flatten_into(TypeVec *vec, const TsType *t)
{
    if (t->kind == TS_TYPE_UNION) {
        for (size_t i = 0; i < t->n; i++)
            if (flatten_into(vec, t->elems[i]) != 0)
                return -1;
        return 0;
    }
    if (t->kind == TS_TYPE_OPTIONAL)
        return flatten_into(vec, t->elems[0]) || vec_push(vec, ts_type_none());
    return vec_push(vec, t);
}

/* Three spellings, as PyTorch has them:
 *   PRINT_IR     the graph printer's: refined tensors, "int[]", "int?", "Future[int]", "(a, b)";
 *                it spells Dict and Union members the PRINT_STR way;
 *   PRINT_STR    Type::str(): like PRINT_IR but every tensor is "Tensor", "Future(int)";
 *   PRINT_ANNOT  the Python annotation: "List[int]", "Optional[int]", "Tuple[()]". */
typedef enum PrintMode { PRINT_IR, PRINT_STR, PRINT_ANNOT } PrintMode;

static size_t print_type(const TsType *t, char *buf, size_t size, PrintMode mode);

/* Type::str(), the key PyTorch sorts union members by after their kind. */
static char *str_alloc(const TsType *t)
{
    size_t n = print_type(t, NULL, 0, PRINT_STR);
    char *s = malloc(n + 1);
    if (s)
        print_type(t, s, n + 1, PRINT_STR);
    return s;
}

/* Stable insertion sort by (kind rank, spelling); unions are short. */
static int sort_members(TypeVec *vec)
{
    char **names = calloc(vec->n, sizeof *names);
    if (!names)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < vec->n && rc == 0; i++)
        if (!(names[i] = str_alloc(vec->v[i])))
            rc = -1;
    for (size_t i = 1; i < vec->n && rc == 0; i++) {
        const TsType *t = vec->v[i];
        char *name = names[i];
        size_t j = i;
        while (j > 0) {
            int d = kind_rank(vec->v[j - 1]->kind) - kind_rank(t->kind);
            if (d < 0 || (d == 0 && strcmp(names[j - 1], name) <= 0))
                break;
            vec->v[j] = vec->v[j - 1];
            names[j] = names[j - 1];
            j--;
        }
        vec->v[j] = t;
        names[j] = name;
    }
    for (size_t i = 0; i < vec->n; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* Merges members that unify without a union (int and Number -> Number, two tensors ->
 * their common refinement, duplicates -> one). None never merges: it would make an
 * Optional inside the union. Returns -1 on out-of-memory. */
static int coalesce_members(TypeVec *vec)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (size_t i = 0; i < vec->n && !changed; i++)
            for (size_t j = i + 1; j < vec->n && !changed; j++) {
                const TsType *a = vec->v[i], *b = vec->v[j];
                if ((a->kind == TS_TYPE_NONE) != (b->kind == TS_TYPE_NONE))
                    continue;
                const TsType *u = ts_type_unify(a, b, false);
                if (!u)
                    continue;
                vec->v[i] = u;
                memmove(&vec->v[j], &vec->v[j + 1], (vec->n - j - 1) * sizeof *vec->v);
                vec->n--;
                changed = true;
            }
    }
    return 0;
}

const TsType *ts_type_union(size_t n, const TsType *const *members)
{
    if (n == 0 || !members)
        return NULL;
    TypeVec vec = { 0 };
    const TsType *res = NULL;
    for (size_t i = 0; i < n; i++)
        if (!members[i] || flatten_into(&vec, members[i]) != 0)
            goto out;
    if (coalesce_members(&vec) != 0 || sort_members(&vec) != 0)
        goto out;
    if (vec.n == 1) {
        res = vec.v[0];
    } else if (vec.n == 2 && (vec.v[0]->kind == TS_TYPE_NONE || vec.v[1]->kind == TS_TYPE_NONE)) {
        res = ts_type_optional(vec.v[vec.v[0]->kind == TS_TYPE_NONE ? 1 : 0]);
    } else {
        res = make(TS_TYPE_UNION, vec.n, vec.v);
    }
out:
    free(vec.v);
    return res;
}

/* ---- nominal types ------------------------------------------------------ */

static TsType *nominal_find_locked(const char *qualname)
{
    if (!nominal.nbuckets)
        return NULL;
    uint32_t h = hash_str(qualname);
    for (TsType *t = nominal.buckets[h & (nominal.nbuckets - 1)]; t; t = t->chain)
        if (t->hash == h && strcmp(t->name, qualname) == 0)
            return t;
    return NULL;
}

static const char *kind_noun(const TsType *t)
{
    switch (t->kind) {
    case TS_TYPE_TUPLE: return "NamedTuple";
    case TS_TYPE_ENUM: return "enum";
    case TS_TYPE_INTERFACE: return "interface";
    case TS_TYPE_MODULE: return "module";
    default: return "class";
    }
}

/* A new nominal type with n fields, not yet registered. */
static TsType *nominal_alloc(TsTypeKind kind, const char *qualname, size_t n,
                             const char *const *names, const TsType *const *types,
                             TsError *err)
{
    TsType *t = calloc(1, sizeof *t);
    if (!t)
        goto oom;
    t->kind = kind;
    t->hash = hash_str(qualname);
    if (!(t->name = dup_str(qualname)))
        goto oom;
    if (n) {
        t->fields = calloc(n, sizeof *t->fields);
        if (!t->fields)
            goto oom;
        t->fields_cap = n;
    }
    for (size_t i = 0; i < n; i++) {
        if (!names || !names[i]) {
            ts_error_set(err, TS_ERR_USAGE, "%s '%s': field %zu has no name",
                         kind == TS_TYPE_TUPLE ? "NamedTuple" : "type", qualname, i);
            goto fail;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(names[j], names[i]) == 0) {
                ts_error_set(err, TS_ERR_TYPE, "'%s' is defined twice in '%s'", names[i],
                             qualname);
                goto fail;
            }
        if (!(t->fields[i].name = dup_str(names[i])))
            goto oom;
        t->fields[i].type = types ? types[i] : NULL;
        t->nfields++;
    }
    return t;
oom:
    ts_error_set(err, TS_ERR_NOMEM, "out of memory creating type '%s'", qualname);
fail:
    if (t)
        type_free(t);
    return NULL;
}

/* Registers t unless its name is taken; on failure frees t. */
static TsType *nominal_register(TsType *t, TsError *err)
{
    pthread_mutex_lock(&types_lock);
    TsType *old = nominal_find_locked(t->name);
    int rc = old ? 1 : table_insert(&nominal, t);
    pthread_mutex_unlock(&types_lock);
    if (rc == 0)
        return t;
    if (old)
        ts_error_set(err, TS_ERR_RUNTIME, "Can't redefine %s '%s': a %s of that name already exists",
                     kind_noun(t), t->name, kind_noun(old));
    else
        ts_error_set(err, TS_ERR_NOMEM, "out of memory registering type '%s'", t->name);
    type_free(t);
    return NULL;
}

static bool check_name(const char *qualname, TsError *err)
{
    if (qualname && *qualname)
        return true;
    ts_error_set(err, TS_ERR_USAGE, "a nominal type needs a qualified name");
    return false;
}

static bool same_fields(const TsType *t, size_t n, const char *const *names,
                        const TsType *const *types)
{
    if (t->nfields != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!names[i] || strcmp(t->fields[i].name, names[i]) != 0 || t->fields[i].type != types[i])
            return false;
    return true;
}

const TsType *ts_type_named_tuple(const char *qualname, size_t n, const char *const *names,
                                  const TsType *const *types, TsError *err)
{
    if (!check_name(qualname, err))
        return NULL;
    if (n && (!names || !types)) {
        ts_error_set(err, TS_ERR_USAGE, "NamedTuple '%s' needs field names and types", qualname);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (!types[i]) {
            ts_error_set(err, TS_ERR_USAGE, "NamedTuple '%s': field %zu has no type", qualname, i);
            return NULL;
        }
    pthread_mutex_lock(&types_lock);
    const TsType *old = nominal_find_locked(qualname);
    pthread_mutex_unlock(&types_lock);
    if (old) {
        if (old->kind == TS_TYPE_TUPLE && same_fields(old, n, names, types))
            return old;
        ts_error_set(err, TS_ERR_RUNTIME,
                     "NamedTuple '%s' does not match the earlier definition of that name",
                     qualname);
        return NULL;
    }
    TsType *t = nominal_alloc(TS_TYPE_TUPLE, qualname, n, names, types, err);
    if (!t)
        return NULL;
    if (n) {
        t->elems = malloc(n * sizeof *t->elems);
        if (!t->elems) {
            type_free(t);
            ts_error_set(err, TS_ERR_NOMEM, "out of memory creating type '%s'", qualname);
            return NULL;
        }
        memcpy(t->elems, types, n * sizeof *t->elems);
        t->n = n;
    }
    /* Another thread may have raced us to the name: retry the match on its version. */
    TsError e2 = TS_ERROR_INIT;
    TsType *reg = nominal_register(t, &e2);
    if (reg)
        return reg;
    if (e2.code == TS_ERR_NOMEM) {
        ts_error_move(err, &e2);
        return NULL;
    }
    ts_error_clear(&e2);
    return ts_type_named_tuple(qualname, n, names, types, err);
}

TsType *ts_type_class_new(const char *qualname, bool is_module, TsError *err)
{
    if (!check_name(qualname, err))
        return NULL;
    TsType *t = nominal_alloc(is_module ? TS_TYPE_MODULE : TS_TYPE_CLASS, qualname, 0, NULL,
                              NULL, err);
    if (!t)
        return NULL;
    t->is_module = is_module;
    return nominal_register(t, err);
}

int ts_type_class_add_attr(TsType *cls, const char *name, const TsType *type, TsError *err)
{
    if (!cls || (cls->kind != TS_TYPE_CLASS && cls->kind != TS_TYPE_MODULE))
        return ts_error_set(err, TS_ERR_USAGE, "attributes can only be added to a class type");
    if (!name || !*name || !type)
        return ts_error_set(err, TS_ERR_USAGE, "class '%s': an attribute needs a name and a type",
                            cls->name);
    int rc = 0;
    pthread_mutex_lock(&types_lock);
    long i = ts_type_field_index(cls, name);
    if (i >= 0) {
        if (cls->fields[i].type != type) {
            char had[256], got[256];
            ts_type_annotation(cls->fields[i].type, had, sizeof had);
            ts_type_annotation(type, got, sizeof got);
            rc = ts_error_set(err, TS_ERR_RUNTIME,
                              "Attribute '%s' of class '%s' has type %s but is being assigned "
                              "a value of type %s", name, cls->name, had, got);
        }
    } else {
        if (cls->nfields == cls->fields_cap) {
            size_t cap = cls->fields_cap ? cls->fields_cap * 2 : 8;
            TsTypeField *f = realloc(cls->fields, cap * sizeof *f);
            if (!f)
                rc = TS_ERR_NOMEM;
            else {
                cls->fields = f;
                cls->fields_cap = cap;
            }
        }
        char *copy = rc == 0 ? dup_str(name) : NULL;
        if (!copy)
            rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory adding attribute '%s'", name);
        else
            cls->fields[cls->nfields++] = (TsTypeField){ copy, type };
    }
    pthread_mutex_unlock(&types_lock);
    return rc;
}

int ts_type_class_add_method(TsType *cls, const char *name, TsError *err)
{
    if (!cls || (cls->kind != TS_TYPE_CLASS && cls->kind != TS_TYPE_MODULE))
        return ts_error_set(err, TS_ERR_USAGE, "methods can only be added to a class type");
    if (ts_type_has_method(cls, name))
        return 0;
    int rc = 0;
    pthread_mutex_lock(&types_lock);
    if (cls->nmethods == cls->methods_cap) {
        size_t cap = cls->methods_cap ? cls->methods_cap * 2 : 8;
        char **m = realloc(cls->methods, cap * sizeof *m);
        if (m) {
            cls->methods = m;
            cls->methods_cap = cap;
        } else {
            rc = TS_ERR_NOMEM;
        }
    }
    char *copy = rc == 0 ? dup_str(name) : NULL;
    if (!copy)
        rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory adding method '%s'", name);
    else
        cls->methods[cls->nmethods++] = copy;
    pthread_mutex_unlock(&types_lock);
    return rc;
}

bool ts_type_has_method(const TsType *t, const char *name)
{
    for (size_t i = 0; t && i < t->nmethods; i++)
        if (strcmp(t->methods[i], name) == 0)
            return true;
    return false;
}

size_t ts_type_num_methods(const TsType *t)
{
    return t ? t->nmethods : 0;
}

const char *ts_type_method_name(const TsType *t, size_t i)
{
    return t && i < t->nmethods ? t->methods[i] : NULL;
}

static const MethodSig *find_sig(const TsType *t, const char *name)
{
    pthread_mutex_lock(&types_lock);
    const MethodSig *m = NULL;
    for (size_t i = 0; i < t->nsigs && !m; i++)
        if (strcmp(t->sigs[i]->name, name) == 0)
            m = t->sigs[i];
    pthread_mutex_unlock(&types_lock);
    return m;
}

int ts_type_set_method_sig(TsType *t, const char *method, size_t n,
                           const char *const *arg_names, const TsType *const *arg_types,
                           const TsType *ret, TsError *err)
{
    if (!t || !method || !ret || (n && (!arg_names || !arg_types)) ||
        (t->kind != TS_TYPE_CLASS && t->kind != TS_TYPE_MODULE && t->kind != TS_TYPE_INTERFACE))
        return ts_error_set(err, TS_ERR_USAGE, "method signatures belong to classes and "
                            "interfaces");
    if (find_sig(t, method))
        return 0;              /* recorded once: a method's signature does not change */
    MethodSig *m = calloc(1, sizeof *m);
    if (m) {
        m->n = n;
        m->ret = ret;
        m->name = dup_str(method);
        m->arg_names = calloc(n ? n : 1, sizeof *m->arg_names);
        m->arg_types = malloc((n ? n : 1) * sizeof *m->arg_types);
    }
    bool good = m && m->name && m->arg_names && m->arg_types;
    for (size_t i = 0; good && i < n; i++) {
        m->arg_types[i] = arg_types[i];
        good = arg_types[i] && (m->arg_names[i] = dup_str(arg_names[i] ? arg_names[i] : ""));
    }
    int rc = 0;
    pthread_mutex_lock(&types_lock);
    if (good && t->nsigs == t->sigs_cap) {
        size_t cap = t->sigs_cap ? t->sigs_cap * 2 : 4;
        MethodSig **grown = realloc(t->sigs, cap * sizeof *grown);
        if (grown) {
            t->sigs = grown;
            t->sigs_cap = cap;
        } else {
            good = false;
        }
    }
    if (good)
        t->sigs[t->nsigs++] = m;
    pthread_mutex_unlock(&types_lock);
    if (!good) {
        sig_free(m);
        rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory recording method '%s'", method);
    }
    return rc;
}

TsType *ts_type_enum_new(const char *qualname, const TsType *value_type, size_t n,
                         const char *const *member_names, TsError *err)
{
    if (!check_name(qualname, err))
        return NULL;
    if (!value_type) {
        ts_error_set(err, TS_ERR_USAGE, "enum '%s' needs a value type", qualname);
        return NULL;
    }
    if (n && !member_names) {
        ts_error_set(err, TS_ERR_USAGE, "enum '%s' needs member names", qualname);
        return NULL;
    }
    TsType *t = nominal_alloc(TS_TYPE_ENUM, qualname, n, member_names, NULL, err);
    if (!t)
        return NULL;
    t->value_type = value_type;
    for (size_t i = 0; i < n; i++)
        t->fields[i].type = value_type;
    return nominal_register(t, err);
}

TsType *ts_type_interface_new(const char *qualname, bool is_module, size_t n,
                              const char *const *method_names, TsError *err)
{
    if (!check_name(qualname, err))
        return NULL;
    if (n && !method_names) {
        ts_error_set(err, TS_ERR_USAGE, "interface '%s' needs method names", qualname);
        return NULL;
    }
    TsType *t = nominal_alloc(TS_TYPE_INTERFACE, qualname, n, method_names, NULL, err);
    if (!t)
        return NULL;
    t->is_module = is_module;
    return nominal_register(t, err);
}

const TsType *ts_type_lookup(const char *qualname)
{
    if (!qualname)
        return NULL;
    pthread_mutex_lock(&types_lock);
    const TsType *t = nominal_find_locked(qualname);
    pthread_mutex_unlock(&types_lock);
    return t;
}

/* ---- inspection --------------------------------------------------------- */

TsTypeKind ts_type_kind(const TsType *t)
{
    return t ? t->kind : TS_TYPE__COUNT;
}

size_t ts_type_num_elems(const TsType *t)
{
    return t ? t->n : 0;
}

const TsType *ts_type_elem(const TsType *t, size_t i)
{
    return t && i < t->n ? t->elems[i] : NULL;
}

static bool is_nominal(const TsType *t)
{
    switch (t->kind) {
    case TS_TYPE_CLASS: case TS_TYPE_MODULE: case TS_TYPE_ENUM: case TS_TYPE_INTERFACE:
        return true;
    case TS_TYPE_TUPLE:
        return t->name != NULL;
    default:
        return false;
    }
}

const char *ts_type_name(const TsType *t)
{
    return t && is_nominal(t) ? t->name : NULL;
}

const char *ts_type_var_name(const TsType *t)
{
    return t && t->kind == TS_TYPE_VAR ? t->name : NULL;
}

size_t ts_type_num_fields(const TsType *t)
{
    return t ? t->nfields : 0;
}

const TsTypeField *ts_type_field(const TsType *t, size_t i)
{
    return t && i < t->nfields ? &t->fields[i] : NULL;
}

long ts_type_field_index(const TsType *t, const char *name)
{
    if (!t || !name)
        return -1;
    for (size_t i = 0; i < t->nfields; i++)
        if (strcmp(t->fields[i].name, name) == 0)
            return (long)i;
    return -1;
}

const TsType *ts_type_enum_value_type(const TsType *t)
{
    return t && t->kind == TS_TYPE_ENUM ? t->value_type : NULL;
}

bool ts_type_is_module(const TsType *t)
{
    return t && t->is_module;
}

const TsTensorTypeInfo *ts_type_tensor_info(const TsType *t)
{
    return t && t->kind == TS_TYPE_TENSOR ? &t->tinfo : NULL;
}

/* ---- subtyping ---------------------------------------------------------- */

static bool is_intlike(TsTypeKind k)
{
    return k == TS_TYPE_INT || k == TS_TYPE_SCALARTYPE || k == TS_TYPE_LAYOUT
        || k == TS_TYPE_MEMORYFORMAT;
}

/* a is at least as refined as b: every field b knows, a knows with the same value. */
static bool tensor_refines(const TsTensorTypeInfo *a, const TsTensorTypeInfo *b)
{
    if (b->dtype >= 0 && a->dtype != b->dtype)
        return false;
    if (b->device_type >= 0 && (a->device_type != b->device_type
                                || a->device_index != b->device_index))
        return false;
    if (b->requires_grad >= 0 && a->requires_grad != b->requires_grad)
        return false;
    if (b->dim < 0)
        return true;
    if (a->dim != b->dim)
        return false;
    for (int i = 0; i < b->dim; i++)
        if (b->sizes[i] >= 0 && a->sizes[i] != b->sizes[i])
            return false;
    if (b->strides && (!a->strides
                       || memcmp(a->strides, b->strides, (size_t)b->dim * sizeof(int64_t)) != 0))
        return false;
    return true;
}

/* A class method's signature have fits the one an interface requires, want, as PyTorch's
 * FunctionSchema::isSubtypeOf rules: the same arguments after self, by name, each of want's
 * types a subtype of have's (contravariant), have's return a subtype of want's. */
static bool sig_fits(const MethodSig *have, const MethodSig *want)
{
    if (have->n != want->n)
        return false;
    for (size_t i = 1; i < have->n; i++)
        if (strcmp(have->arg_names[i], want->arg_names[i]) != 0 ||
            !ts_type_is_subtype_of(want->arg_types[i], have->arg_types[i]))
            return false;
    return ts_type_is_subtype_of(have->ret, want->ret);
}

/* The pairs being checked on this thread: a method whose signature names the class or the
 * interface again (`def merge(self, other: Shape) -> Shape`) is assumed to fit while its
 * own pair is checked, so the check ends. */
enum { MAX_CHECKING = 16 };
static _Thread_local const TsType *checking[MAX_CHECKING][2];
static _Thread_local int n_checking;

/* Every method interface b requires is present in a, with a signature that fits where
 * both are recorded (a class's methods are recorded as they compile). */
static bool implements(const TsType *a, const TsType *b)
{
    if (b->is_module && !a->is_module)
        return false;
    for (int i = 0; i < n_checking; i++)
        if (checking[i][0] == a && checking[i][1] == b)
            return true;
    if (n_checking == MAX_CHECKING)
        return true;
    checking[n_checking][0] = a;
    checking[n_checking][1] = b;
    n_checking++;
    bool ok = true;
    for (size_t i = 0; i < b->nfields && ok; i++) {
        const char *name = b->fields[i].name;
        if (ts_type_field_index(a, name) >= 0)
            continue;
        if (!ts_type_has_method(a, name)) {
            ok = false;
            break;
        }
        const MethodSig *want = find_sig(b, name), *have = find_sig(a, name);
        ok = !want || !have || sig_fits(have, want);
    }
    n_checking--;
    return ok;
}



static bool tuple_subtype(const TsType *a, const TsType *b)
{
    if (a->n != b->n)
        return false;
    if (b->nfields) {
        /* A named tuple accepts only tuples with the same field names. */
        if (a->nfields != b->nfields)
            return false;
        for (size_t i = 0; i < b->nfields; i++)
            if (strcmp(a->fields[i].name, b->fields[i].name) != 0)
                return false;
    }
    for (size_t i = 0; i < a->n; i++)
        if (!ts_type_is_subtype_of(a->elems[i], b->elems[i]))
            return false;
    return true;
}

static bool is_unionish(const TsType *t)
{
    return t->kind == TS_TYPE_UNION || t->kind == TS_TYPE_OPTIONAL;
}

bool ts_type_is_subtype_of(const TsType *a, const TsType *b)
{
    if (!a || !b)
        return false;
    if (a == b || b->kind == TS_TYPE_ANY)
        return true;
    if (a->kind == TS_TYPE_OPTIONAL)
        return ts_type_is_subtype_of(ts_type_none(), b) && ts_type_is_subtype_of(a->elems[0], b);
    if (a->kind == TS_TYPE_UNION) {
        for (size_t i = 0; i < a->n; i++)
            if (!ts_type_is_subtype_of(a->elems[i], b))
                return false;
        return true;
    }
    if (b->kind == TS_TYPE_OPTIONAL)
        return a->kind == TS_TYPE_NONE || ts_type_is_subtype_of(a, b->elems[0]);
    if (b->kind == TS_TYPE_UNION) {
        for (size_t i = 0; i < b->n; i++)
            if (ts_type_is_subtype_of(a, b->elems[i]))
                return true;
        return false;
    }
    switch (a->kind) {
    case TS_TYPE_INT:
    case TS_TYPE_SCALARTYPE:
    case TS_TYPE_LAYOUT:
    case TS_TYPE_MEMORYFORMAT:
        /* dtype, layout and memory format are ints at run time, in both directions */
        return b->kind == TS_TYPE_NUMBER || (is_intlike(b->kind)
                                              && (a->kind == TS_TYPE_INT || b->kind == TS_TYPE_INT));
    case TS_TYPE_FLOAT:
    case TS_TYPE_COMPLEX:
        return b->kind == TS_TYPE_NUMBER;
    case TS_TYPE_TENSOR:
        return b->kind == TS_TYPE_TENSOR && tensor_refines(&a->tinfo, &b->tinfo);
    case TS_TYPE_TUPLE:
        return b->kind == TS_TYPE_ANY_TUPLE || (b->kind == TS_TYPE_TUPLE && tuple_subtype(a, b));
    case TS_TYPE_LIST:
        return b->kind == TS_TYPE_ANY_LIST;
    case TS_TYPE_FUTURE:
        return b->kind == TS_TYPE_FUTURE && ts_type_is_subtype_of(a->elems[0], b->elems[0]);
    case TS_TYPE_CLASS:
    case TS_TYPE_MODULE:
        return b->kind == TS_TYPE_ANY_CLASS || (b->kind == TS_TYPE_INTERFACE && implements(a, b));
    case TS_TYPE_INTERFACE:
        return b->kind == TS_TYPE_INTERFACE && implements(a, b);
    case TS_TYPE_ENUM:
        return b->kind == TS_TYPE_ANY_ENUM;
    default:
        return false;
    }
}

bool ts_type_equal(const TsType *a, const TsType *b)
{
    if (a == b)
        return true;
    /* Optional[Union[int, str]] and Union[int, str, None] are one type spelled twice. */
    return a && b && is_unionish(a) && is_unionish(b) && ts_type_is_subtype_of(a, b)
        && ts_type_is_subtype_of(b, a);
}

/* ---- unification -------------------------------------------------------- */

static int64_t merge_dim(int64_t a, int64_t b)
{
    return a == b ? a : -1;
}

/* The most refined tensor type both a and b are subtypes of. */
static const TsType *tensor_merge(const TsTensorTypeInfo *a, const TsTensorTypeInfo *b)
{
    TsTensorTypeInfo m = UNKNOWN_TENSOR;
    m.dtype = a->dtype == b->dtype ? a->dtype : -1;
    if (a->device_type == b->device_type && a->device_index == b->device_index) {
        m.device_type = a->device_type;
        m.device_index = a->device_index;
    }
    m.requires_grad = a->requires_grad == b->requires_grad ? a->requires_grad : -1;
    int64_t *sizes = NULL;
    if (a->dim == b->dim && a->dim > 0) {
        sizes = malloc((size_t)a->dim * sizeof *sizes);
        if (!sizes)
            return NULL;
        for (int i = 0; i < a->dim; i++)
            sizes[i] = merge_dim(a->sizes[i], b->sizes[i]);
        m.sizes = sizes;
        if (a->strides && b->strides
            && memcmp(a->strides, b->strides, (size_t)a->dim * sizeof(int64_t)) == 0)
            m.strides = a->strides;
    }
    if (a->dim == b->dim)
        m.dim = a->dim;
    const TsType *t = ts_type_tensor_refined(&m);
    free(sizes);
    return t;
}

/* t with every refined tensor inside replaced by Tensor (named tuples are left alone). */
static const TsType *unshaped(const TsType *t)
{
    if (t->kind == TS_TYPE_TENSOR)
        return ts_type_tensor();
    if (t->n == 0 || is_nominal(t))
        return t;
    const TsType *small[4];
    const TsType **e = t->n <= 4 ? small : malloc(t->n * sizeof *e);
    if (!e)
        return NULL;
    bool same = true;
    for (size_t i = 0; i < t->n; i++) {
        e[i] = unshaped(t->elems[i]);
        same &= e[i] == t->elems[i];
    }
    const TsType *r;
    if (same)
        r = t;
    else if (t->kind == TS_TYPE_UNION)
        r = ts_type_union(t->n, e);
    else if (t->kind == TS_TYPE_OPTIONAL)
        r = ts_type_optional(e[0]);
    else
        r = make(t->kind, t->n, e);
    if (e != small)
        free(e);
    return r;
}

/* Two tuples of one length unify element by element, with unions where the caller allows
 * them: the elements of a list literal [(1, 2), (1, "a")] make (int, Union[int, str]), as
 * torch's unifyTypes does; without unions (the two branches of an if) they do not unify. */
static const TsType *unify_impl(const TsType *a, const TsType *b, bool default_to_union)
{
    if (ts_type_is_subtype_of(a, b))
        return b;
    if (ts_type_is_subtype_of(b, a))
        return a;
    if (a->kind == TS_TYPE_TENSOR && b->kind == TS_TYPE_TENSOR)
        return tensor_merge(&a->tinfo, &b->tinfo);
    if (a->kind == TS_TYPE_NONE)
        return ts_type_optional(b);
    if (b->kind == TS_TYPE_NONE)
        return ts_type_optional(a);
    if (a->kind == TS_TYPE_OPTIONAL || b->kind == TS_TYPE_OPTIONAL) {
        const TsType *opt = a->kind == TS_TYPE_OPTIONAL ? a : b;
        const TsType *other = opt == a ? b : a;
        const TsType *e = ts_type_unify(opt->elems[0], other, false);
        if (e)
            return ts_type_optional(e);
    }
    if (a->kind == TS_TYPE_TUPLE && b->kind == TS_TYPE_TUPLE) {
        if (a->n != b->n)
            return NULL;
        const TsType *small[8];
        const TsType **e = a->n <= 8 ? small : malloc(a->n * sizeof *e);
        if (!e)
            return NULL;
        const TsType *r = NULL;
        size_t i;
        for (i = 0; i < a->n; i++)
            if (!(e[i] = ts_type_unify(a->elems[i], b->elems[i], default_to_union)))
                break;
        if (i == a->n)
            r = ts_type_tuple(a->n, e);
        if (e != small)
            free(e);
        return r;
    }
    if (a->kind == TS_TYPE_FUTURE && b->kind == TS_TYPE_FUTURE) {
        const TsType *e = ts_type_unify(a->elems[0], b->elems[0], false);
        if (e)
            return ts_type_future(e);
    }
    /* Mutable containers of differently refined tensors unify to containers of Tensor. */
    const TsType *ua = unshaped(a), *ub = unshaped(b);
    if (!ua || !ub)
        return NULL;
    if (ts_type_is_subtype_of(ua, ub))
        return ub;
    if (ts_type_is_subtype_of(ub, ua))
        return ua;
    return NULL;
}

const TsType *ts_type_unify(const TsType *a, const TsType *b, bool default_to_union)
{
    if (!a || !b)
        return NULL;
    const TsType *r = unify_impl(a, b, default_to_union);
    if (!r && default_to_union) {
        const TsType *m[2] = { a, b };
        r = ts_type_union(2, m);
    }
    return r;
}

/* ---- printing ----------------------------------------------------------- */

/* A snprintf-like writer: keeps what fits, counts everything. */
typedef struct Out {
    char *buf;
    size_t size;
    size_t len;
} Out;

static void out_str(Out *o, const char *s)
{
    size_t n = strlen(s);
    if (o->len + 1 < o->size) {
        size_t room = o->size - 1 - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}

__attribute__((format(printf, 2, 3)))
static void out_fmt(Out *o, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    out_str(o, tmp);
}

static void out_device(Out *o, int type, int index)
{
    const char *name = ts_device_type_name(type);
    if (name)
        out_str(o, name);
    else
        out_fmt(o, "device%d", type);
    if (index >= 0)
        out_fmt(o, ":%d", index);
}


/* "Float(2, *, strides=[3, 1], requires_grad=0, device=cpu)". A tensor of unknown rank
 * is "FloatTensor" (or "Tensor") with parentheses only for what else is known; a known
 * rank always gets them, so a 0-dim float is "Float()". */
static void out_tensor(Out *o, const TsTensorTypeInfo *ti)
{
    const char *dtype = ti->dtype >= 0 ? ts_dtype_type_name(ti->dtype) : NULL;
    out_str(o, dtype ? dtype : "Tensor");
    if (dtype && ti->dim < 0)
        out_str(o, "Tensor");
    bool open = ti->dim >= 0;
    const char *sep = "";
    if (open)
        out_str(o, "(");
    for (int i = 0; i < ti->dim; i++) {
        out_str(o, sep);
        if (ti->sizes[i] >= 0)
            out_fmt(o, "%lld", (long long)ti->sizes[i]);
        else
            out_str(o, "*");
        sep = ", ";
    }
    if (ti->strides && ti->dim > 0) {
        out_str(o, sep);
        out_str(o, "strides=[");
        for (int i = 0; i < ti->dim; i++)
            out_fmt(o, i ? ", %lld" : "%lld", (long long)ti->strides[i]);
        out_str(o, "]");
    }
    if (ti->requires_grad >= 0) {
        out_str(o, open ? sep : "(");
        out_fmt(o, "requires_grad=%d", ti->requires_grad);
        open = true;
        sep = ", ";
    }
    if (ti->device_type >= 0) {
        out_str(o, open ? sep : "(");
        out_str(o, "device=");
        out_device(o, ti->device_type, ti->device_index);
        open = true;
    }
    if (open)
        out_str(o, ")");
}

static void out_type(Out *o, const TsType *t, PrintMode mode);

static void out_list(Out *o, const TsType *const *v, size_t n, PrintMode mode)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            out_str(o, ", ");
        out_type(o, v[i], mode);
    }
}

/* PyTorch prints a union's Number member last, whatever its sorted place. */
static void out_union(Out *o, const TsType *t, PrintMode mode)
{
    bool annot = mode == PRINT_ANNOT;
    PrintMode inner = annot ? PRINT_ANNOT : PRINT_STR;
    out_str(o, annot ? "Union[" : "Union(");
    bool first = true, number = false;
    for (size_t i = 0; i < t->n; i++) {
        if (t->elems[i]->kind == TS_TYPE_NUMBER) {
            number = true;
            continue;
        }
        if (!first)
            out_str(o, ", ");
        out_type(o, t->elems[i], inner);
        first = false;
    }
    if (number) {
        if (!first)
            out_str(o, ", ");
        out_str(o, annot ? "number" : "Scalar");
    }
    out_str(o, annot ? "]" : ")");
}

static void out_tuple(Out *o, const TsType *t, PrintMode mode)
{
    if (t->name && mode == PRINT_ANNOT) {
        out_str(o, t->name);
        return;
    }
    if (t->nfields && mode != PRINT_ANNOT) {   /* an op's named returns have no name */
        out_str(o, "NamedTuple(");
        for (size_t i = 0; i < t->n; i++) {
            if (i)
                out_str(o, ", ");
            out_str(o, t->fields[i].name);
            out_str(o, " : ");
            out_type(o, t->elems[i], mode);
        }
        out_str(o, ")");
        return;
    }
    if (mode == PRINT_ANNOT) {
        out_str(o, "Tuple[");
        if (t->n == 0)
            out_str(o, "()");
        out_list(o, (const TsType *const *)t->elems, t->n, mode);
        out_str(o, "]");
    } else {
        out_str(o, "(");
        out_list(o, (const TsType *const *)t->elems, t->n, mode);
        out_str(o, ")");
    }
}

static const char *simple_names[TS_TYPE__COUNT] = {
    [TS_TYPE_ANY] = "Any", [TS_TYPE_NONE] = "NoneType", [TS_TYPE_INT] = "int",
    [TS_TYPE_FLOAT] = "float", [TS_TYPE_COMPLEX] = "complex", [TS_TYPE_BOOL] = "bool",
    [TS_TYPE_STR] = "str", [TS_TYPE_NUMBER] = "Scalar", [TS_TYPE_TENSOR] = "Tensor",
    [TS_TYPE_DEVICE] = "Device", [TS_TYPE_SCALARTYPE] = "ScalarType",
    [TS_TYPE_LAYOUT] = "Layout", [TS_TYPE_MEMORYFORMAT] = "MemoryFormat",
    [TS_TYPE_STREAM] = "Stream", [TS_TYPE_GENERATOR] = "Generator",
    [TS_TYPE_STORAGE] = "Storage", [TS_TYPE_QSCHEME] = "QScheme",
    [TS_TYPE_CAPSULE] = "Capsule", [TS_TYPE_ANY_LIST] = "list",
    [TS_TYPE_ANY_TUPLE] = "tuple", [TS_TYPE_ANY_CLASS] = "AnyClassType",
    [TS_TYPE_ANY_ENUM] = "AnyEnumType",
};

/* "Future[int]" (IR, annotation) or "Future(int)" (str). */
static void out_wrapped(Out *o, const char *name, const TsType *elem, PrintMode mode)
{
    out_str(o, name);
    out_str(o, mode == PRINT_STR ? "(" : "[");
    out_type(o, elem, mode);
    out_str(o, mode == PRINT_STR ? ")" : "]");
}

static void out_type(Out *o, const TsType *t, PrintMode mode)
{
    bool annot = mode == PRINT_ANNOT;
    switch (t->kind) {
    case TS_TYPE_NUMBER:
        out_str(o, annot ? "number" : "Scalar");
        break;
    case TS_TYPE_SCALARTYPE:
    case TS_TYPE_LAYOUT:
    case TS_TYPE_MEMORYFORMAT:
        out_str(o, annot ? "int" : simple_names[t->kind]);
        break;
    case TS_TYPE_TENSOR:
        if (mode == PRINT_IR)
            out_tensor(o, &t->tinfo);
        else
            out_str(o, "Tensor");
        break;
    case TS_TYPE_LIST:
        if (annot) {
            out_wrapped(o, "List", t->elems[0], mode);
        } else {
            out_type(o, t->elems[0], mode);
            out_str(o, "[]");
        }
        break;
    case TS_TYPE_DICT:
        out_str(o, annot ? "Dict[" : "Dict(");
        out_list(o, (const TsType *const *)t->elems, 2, annot ? PRINT_ANNOT : PRINT_STR);
        out_str(o, annot ? "]" : ")");
        break;
    case TS_TYPE_TUPLE:
        out_tuple(o, t, mode);
        break;
    case TS_TYPE_OPTIONAL:
        if (annot) {
            out_wrapped(o, "Optional", t->elems[0], mode);
        } else {
            out_type(o, t->elems[0], mode);
            out_str(o, "?");
        }
        break;
    case TS_TYPE_UNION:
        out_union(o, t, mode);
        break;
    case TS_TYPE_FUTURE:
        out_wrapped(o, "Future", t->elems[0], mode);
        break;
    case TS_TYPE_RREF:
        out_wrapped(o, "RRef", t->elems[0], mode);
        break;
    case TS_TYPE_ENUM:
        if (annot) {
            out_str(o, t->name);
        } else {
            out_str(o, "Enum<");
            out_str(o, t->name);
            out_str(o, ">");
        }
        break;
    case TS_TYPE_INTERFACE:
        if (annot) {
            out_str(o, t->name);
        } else {       /* PyTorch's InterfaceType::str(): the unqualified name */
            const char *dot = strrchr(t->name, '.');
            out_str(o, "InterfaceType<");
            out_str(o, dot ? dot + 1 : t->name);
            out_str(o, ">");
        }
        break;
    case TS_TYPE_CLASS:
    case TS_TYPE_MODULE:
    case TS_TYPE_VAR:
        out_str(o, t->name);
        break;
    default:
        out_str(o, simple_names[t->kind] ? simple_names[t->kind] : "<unknown type>");
        break;
    }
}

/* "area(__torch__.Square self, int k) -> float": PyTorch's schema spelling. */
static void out_sig(Out *o, const MethodSig *m)
{
    out_str(o, m->name);
    out_str(o, "(");
    for (size_t i = 0; i < m->n; i++) {
        if (i)
            out_str(o, ", ");
        out_type(o, m->arg_types[i], PRINT_IR);
        out_str(o, " ");
        out_str(o, m->arg_names[i]);
    }
    out_str(o, ") -> ");
    out_type(o, m->ret, PRINT_IR);
}

static size_t print_type(const TsType *t, char *buf, size_t size, PrintMode mode)
{
    Out o = { buf, size, 0 };
    if (t)
        out_type(&o, t, mode);
    else
        out_str(&o, "<null>");
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return o.len;
}

char *ts_type_why_not_implements(const TsType *a, const TsType *b)
{
    if (!a || !b || b->kind != TS_TYPE_INTERFACE ||
        (a->kind != TS_TYPE_CLASS && a->kind != TS_TYPE_MODULE && a->kind != TS_TYPE_INTERFACE))
        return NULL;
    for (size_t i = 0; i < b->nfields; i++) {
        const char *name = b->fields[i].name;
        if (ts_type_field_index(a, name) >= 0)
            continue;
        const MethodSig *want = find_sig(b, name), *have = find_sig(a, name);
        Out o = { NULL, 0, 0 };
        for (int pass = 0; pass < 2; pass++) {     /* measure, then write */
            if (!ts_type_has_method(a, name)) {
                out_str(&o, "Class '");
                out_str(&o, a->name);
                out_str(&o, "' does not have method '");
                out_str(&o, name);
                out_str(&o, "' but '");
                out_str(&o, b->name);
                out_str(&o, "' does.\n");
            } else if (want && have && !sig_fits(have, want)) {
                out_str(&o, "Method on class '");
                out_str(&o, a->name);
                out_str(&o, "' (1) is not compatible with interface '");
                out_str(&o, b->name);
                out_str(&o, "' (2)\n  (1) ");
                out_sig(&o, have);
                out_str(&o, "\n  (2) ");
                out_sig(&o, want);
                out_str(&o, "\n");
            } else {
                break;
            }
            if (pass == 1) {
                o.buf[o.len < o.size ? o.len : o.size - 1] = '\0';
                return o.buf;
            }
            size_t len = o.len;
            o = (Out){ malloc(len + 1), len + 1, 0 };
            if (!o.buf)
                return NULL;
        }
    }
    return NULL;
}

size_t ts_type_repr(const TsType *t, char *buf, size_t size)
{
    return print_type(t, buf, size, PRINT_IR);
}

size_t ts_type_annotation(const TsType *t, char *buf, size_t size)
{
    return print_type(t, buf, size, PRINT_ANNOT);
}

void ts_types_shutdown(void)
{
    pthread_mutex_lock(&types_lock);
    table_free(&structural);
    table_free(&nominal);
    pthread_mutex_unlock(&types_lock);
}
