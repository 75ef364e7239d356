/* object.c — the fixed-size heap values: tuples, objects of script classes, enum values,
 * complex numbers and capsules.
 *
 * Each is one allocation; tuples, objects and complex numbers come from the small-block
 * cache (objcache.c), and value.c gives them back there. Tuples and objects start with every item None so a half-built one
 * can always be released safely; their destruction (with the other kinds') is in value.c.
 */
#include <stdlib.h>

#include "value/heap.h"
#include "value/objcache.h"

/* Size of a header plus n trailing values, or 0 on overflow. */
static size_t with_values(size_t header, size_t n)
{
    if (n > (((size_t)-1) - header) / sizeof(TsValue))
        return 0;
    return header + n * sizeof(TsValue);
}

TsTuple *ts_tuple_new(const TsType *type, size_t n, TsError *err)
{
    size_t size = with_values(sizeof(TsTuple), n);
    TsTuple *t = size ? ts_small_alloc(size) : NULL;
    if (!t) {
        ts_error_set(err, size ? TS_ERR_NOMEM : TS_ERR_LIMIT,
                     "cannot allocate a tuple of %zu elements%s", n,
                     size ? ": out of memory" : "");
        return NULL;
    }
    ts_heap_init(&t->h, TS_TAG_TUPLE);
    t->type = type;
    t->len = n;
    for (size_t i = 0; i < n; i++)
        t->items[i] = ts_none();
    return t;
}

TsObject *ts_object_new(const TsType *cls, TsError *err)
{
    size_t n = ts_type_num_fields(cls);
    size_t size = with_values(sizeof(TsObject), n);
    TsObject *o = size ? ts_small_alloc(size) : NULL;
    if (!o) {
        ts_error_set(err, size ? TS_ERR_NOMEM : TS_ERR_LIMIT,
                     "cannot allocate an object of %zu attributes%s", n,
                     size ? ": out of memory" : "");
        return NULL;
    }
    ts_heap_init(&o->h, TS_TAG_OBJECT);
    o->cls = cls;
    o->nslots = n;
    for (size_t i = 0; i < n; i++)
        o->slots[i] = ts_none();
    return o;
}

TsEnumValue *ts_enum_value_new(const TsType *type, const char *name, TsValue value,
                               TsError *err)
{
    TsEnumValue *e = malloc(sizeof *e);
    TsStr *s = e ? ts_str_from_cstr(name, err) : NULL;
    if (!s) {
        if (!e)
            ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating enum value %s", name);
        free(e);
        ts_value_release(value);
        return NULL;
    }
    ts_heap_init(&e->h, TS_TAG_ENUM);
    e->type = type;
    e->name = s;
    e->value = value;
    return e;
}

TsComplex *ts_complex_new(double re, double im, TsError *err)
{
    TsComplex *c = ts_small_alloc(sizeof *c);
    if (!c) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating a complex");
        return NULL;
    }
    ts_heap_init(&c->h, TS_TAG_COMPLEX);
    c->re = re;
    c->im = im;
    return c;
}

TsCapsule *ts_capsule_new(void *ptr, void (*destroy)(void *), TsError *err)
{
    TsCapsule *c = malloc(sizeof *c);
    if (!c) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating a capsule");
        return NULL;
    }
    ts_heap_init(&c->h, TS_TAG_CAPSULE);
    c->ptr = ptr;
    c->destroy = destroy;
    return c;
}
