/* backend_values.c — values moved to a backend: what `default_backend: cuda` does to a
 * saved model's storages as they are loaded (module.c) and to the tensors a program is given
 * from files (ts_value_to_backend), as PyTorch's map_location does.
 *
 * A storage moves whole, once: the tensors over it become the same views of the copy, so
 * weights tied to one storage stay tied, and a value's views of one storage stay views of
 * one copy. The bytes cross through the allocators' copy functions (host memory in between
 * where neither side is the host).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "tscript/plugin.h"
#include "tscript/tscript.h"

/* The copies made so far of one value's storages. */
typedef struct Moved {
    TsStorage **from, **to;
    size_t n, cap;
} Moved;

static int copy_bytes(TsStorage *d, const TsStorage *s, TsError *err)
{
    TsAllocator *from = s->device.type == TS_DEV_CPU ? NULL : s->allocator;
    TsAllocator *to = d->device.type == TS_DEV_CPU ? NULL : d->allocator;
    if (s->nbytes == 0)
        return 0;
    if (!(from && from->copy) && !(to && to->copy)) {
        memcpy(d->data, s->data, s->nbytes);
        return 0;
    }
    if (!(from && from->copy))
        return to->copy(to, d->data, s->data, s->nbytes, d->device, true, err);
    if (!(to && to->copy))
        return from->copy(from, d->data, s->data, s->nbytes, s->device, false, err);
    void *host = malloc(s->nbytes);
    if (!host)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    int rc = from->copy(from, host, s->data, s->nbytes, s->device, false, err);
    if (!rc)
        rc = to->copy(to, d->data, host, s->nbytes, d->device, true, err);
    free(host);
    return rc;
}

TsStorage *ts_storage_to_device(TsRuntime *rt, TsStorage *s, TsDevice dev, TsError *err)
{
    if (s->device.type == dev.type) {
        ts_storage_retain(s);
        return s;
    }
    TsAllocator *to = ts_runtime_allocator(rt, dev.type);
    if (!to) {
        ts_error_set(err, TS_ERR_RUNTIME, "no backend '%s' is loaded to move a tensor to",
                     ts_device_type_name(dev.type));
        return NULL;
    }
    TsStorage *d = ts_storage_new(to, s->nbytes, dev, err);
    if (d && copy_bytes(d, s, err)) {
        ts_storage_release(d);
        return NULL;
    }
    return d;
}

static TsTensor *tensor_to(TsRuntime *rt, Moved *m, TsTensor *t, TsDevice dev, TsError *err)
{
    if (!t->storage || t->device.type == dev.type) {
        ts_tensor_retain(t);
        return t;
    }
    TsStorage *d = NULL;
    for (size_t i = 0; i < m->n && !d; i++)
        if (m->from[i] == t->storage)
            d = m->to[i];
    if (!d) {
        if (m->n == m->cap) {
            size_t cap = m->cap ? 2 * m->cap : 8;
            TsStorage **f = realloc(m->from, cap * sizeof *f);
            if (f)
                m->from = f;
            TsStorage **o = f ? realloc(m->to, cap * sizeof *o) : NULL;
            if (o)
                m->to = o;
            if (!f || !o) {
                ts_error_set(err, TS_ERR_NOMEM, "out of memory");
                return NULL;
            }
            m->cap = cap;
        }
        if (!(d = ts_storage_to_device(rt, t->storage, dev, err)))
            return NULL;
        m->from[m->n] = t->storage;
        m->to[m->n++] = d;
    }
    TsTensor *r = ts_tensor_new(d, t->dtype, t->dim, t->sizes, t->strides, t->offset, err);
    if (r)
        r->requires_grad = t->requires_grad;
    return r;
}

/* v with its tensors on dev: a new reference (containers rebuilt, other values shared). */
static int value_to(TsRuntime *rt, Moved *m, TsValue v, TsDevice dev, TsValue *out,
                    TsError *err)
{
    switch (v.tag) {
    case TS_TAG_TENSOR: {
        TsTensor *t = tensor_to(rt, m, (TsTensor *)v.u.p, dev, err);
        *out = ts_obj_value(t, TS_TAG_TENSOR);
        return t ? 0 : -1;
    }
    case TS_TAG_LIST: {
        const TsList *l = (const TsList *)v.u.p;
        TsList *r = ts_list_new(l->elem_type, l->len, err);
        for (size_t i = 0; r && i < l->len; i++) {
            TsValue x;
            if (value_to(rt, m, l->items[i], dev, &x, err) || ts_list_append(r, x, err)) {
                ts_value_release(ts_obj_value(r, TS_TAG_LIST));
                r = NULL;
            }
        }
        *out = ts_obj_value(r, TS_TAG_LIST);
        return r ? 0 : -1;
    }
    case TS_TAG_TUPLE: {
        const TsTuple *tu = (const TsTuple *)v.u.p;
        TsTuple *r = ts_tuple_new(tu->type, tu->len, err);
        for (size_t i = 0; r && i < tu->len; i++)
            if (value_to(rt, m, tu->items[i], dev, &r->items[i], err)) {
                r->items[i] = ts_none();
                ts_value_release(ts_obj_value(r, TS_TAG_TUPLE));
                r = NULL;
            }
        *out = ts_obj_value(r, TS_TAG_TUPLE);
        return r ? 0 : -1;
    }
    case TS_TAG_DICT: {
        const TsDict *d = (const TsDict *)v.u.p;
        TsDict *r = ts_dict_new(ts_dict_key_type(d), ts_dict_value_type(d), err);
        size_t pos = 0;
        TsValue k, x;
        while (r && ts_dict_next(d, &pos, &k, &x)) {
            TsValue y;
            ts_value_retain(k);
            if (value_to(rt, m, x, dev, &y, err)) {
                ts_value_release(k);
            } else if (!ts_dict_set(r, k, y, err)) {
                continue;
            }
            ts_value_release(ts_obj_value(r, TS_TAG_DICT));
            r = NULL;
        }
        *out = ts_obj_value(r, TS_TAG_DICT);
        return r ? 0 : -1;
    }
    default:
        ts_value_retain(v);
        *out = v;
        return 0;
    }
}

int ts_value_to_backend(TsRuntime *rt, TsValue *v, const char *backend, TsError *err)
{
    const char *name = backend ? backend : ts_runtime_default_backend(rt);
    int type = name ? ts_device_type_lookup(name) : -1;
    if (type < 0)
        return ts_error_set(err, TS_ERR_USAGE, "'%s' is not a backend", name ? name : "(null)");
    /* cuda's tensors name their device (cuda:0), as PyTorch's; the others' do not */
    TsDevice dev = { (int16_t)type, type == TS_DEV_CUDA ? (int16_t)0 : (int16_t)-1 };
    Moved m = { NULL, NULL, 0, 0 };
    TsValue out;
    int rc = value_to(rt, &m, *v, dev, &out, err);
    for (size_t i = 0; i < m.n; i++)
        ts_storage_release(m.to[i]);
    free(m.from);
    free(m.to);
    if (rc)
        return err->code ? err->code : TS_ERR_RUNTIME;
    ts_value_release(*v);
    *v = out;
    return 0;
}
