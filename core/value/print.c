/* print.c — str() and print() of every value: see print.h for the rules.
 *
 * Containers are walked with an explicit stack of frames (one per open list, tuple or dict),
 * so a list nested a million deep prints without deep C recursion. Each frame holds a
 * reference to its container, so the walk stays valid even if another reference goes away,
 * and holds the shared lock while it is open when its container is shared (share.c).
 */
#include "tscript/print.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

/* One open container: the next item to print is i (for a dict, pos is the cursor). */
typedef struct Frame {
    TsValue v;
    size_t i, pos;
    bool locked;               /* holds the shared lock (v is shared) */
} Frame;

typedef struct Walk {
    struct TsRuntime *rt;
    TsBuf *out;
    Frame *frames;
    size_t len, cap;
} Walk;

size_t ts_format_double(double d, char *buf, size_t size)
{
    int n;
    if (isnan(d))
        n = snprintf(buf, size, "nan");
    else if (isinf(d))
        n = snprintf(buf, size, d < 0 ? "-inf" : "inf");
    else if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == (double)(int64_t)d)
        n = snprintf(buf, size, "%" PRId64 ".", (int64_t)d);
    else
        n = snprintf(buf, size, "%.17g", d);
    return n < 0 ? 0 : (size_t)n;
}

static void put_double(TsBuf *out, double d)
{
    char buf[40];
    ts_format_double(d, buf, sizeof buf);
    ts_buf_puts(out, buf);
}

void ts_format_complex(double re, double im, TsBuf *out)
{
    put_double(out, re);
    if (!(im < 0))
        ts_buf_putc(out, '+');
    put_double(out, im);
    ts_buf_putc(out, 'j');
}

/* The last component of a qualified name: "__torch__.Color" -> "Color". */
static const char *base_name(const char *qualname)
{
    const char *dot = strrchr(qualname, '.');
    return dot ? dot + 1 : qualname;
}

void ts_format_tensor_fallback(const TsTensor *t, TsBuf *out)
{
    const char *dev = ts_device_type_name(t->device.type);
    const char *dt = ts_dtype_type_name(t->dtype);
    ts_buf_puts(out, "<Tensor ");
    for (const char *c = dev ? dev : "?"; *c; c++)
        ts_buf_putc(out, (char)toupper((unsigned char)*c));
    ts_buf_printf(out, "%sType{", dt ? dt : "?");
    for (int32_t i = 0; i < t->dim; i++)
        ts_buf_printf(out, "%s%" PRId64, i ? "," : "", t->sizes[i]);
    ts_buf_puts(out, "}>");
}

/* Runs the tensor's backend's tscript::format_tensor kernel and appends its text. */
static int put_tensor(Walk *w, TsTensor *t, TsError *err)
{
    const TsOpTable *table = w->rt ? ts_runtime_optable(w->rt) : NULL;
    int rc = table && !ts_optable_settled(table) ? ts_optable_complete(table, err) : 0;
    if (rc)                    /* the tensor's backend may be a deferred plugin's */
        return rc;
    const TsOperator *op = table ? ts_optable_find(table, TS_FORMAT_TENSOR_OP, "") : NULL;
    const TsKernelEntry *k = op ? ts_operator_kernel(op, ts_device_type_name(t->device.type))
                                : NULL;
    if (!k || !k->fn) {
        ts_format_tensor_fallback(t, w->out);
        return 0;
    }
    TsStack s = { NULL, 0, 0 };
    ts_tensor_retain(t);
    rc = ts_stack_push(&s, ts_obj_value(t, TS_TAG_TENSOR), err);
    if (!rc) {
        TsCall call = { &s, err, NULL, w->rt, op };
        rc = k->fn(&call);
        if (!rc && (s.len != 1 || s.data[0].tag != TS_TAG_STR))
            rc = ts_error_set(err, TS_ERR_RUNTIME, "%s on backend '%s' did not return a str",
                              TS_FORMAT_TENSOR_OP, k->backend);
        if (!rc) {
            const TsStr *str = (const TsStr *)s.data[0].u.p;
            ts_buf_add(w->out, str->data, str->len);
        } else if (err && err->code == TS_OK) {
            rc = ts_error_set(err, TS_ERR_RUNTIME, "%s failed", TS_FORMAT_TENSOR_OP);
        }
    }
    ts_stack_free(&s);
    return rc;
}

static int push_frame(Walk *w, TsValue v, TsError *err)
{
    if (w->len == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        Frame *f = realloc(w->frames, cap * sizeof *f);
        if (!f)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory printing a nested value");
        w->frames = f;
        w->cap = cap;
    }
    ts_value_retain(v);
    w->frames[w->len++] = (Frame){ v, 0, 0, ts_shared_lock_if(v) };
    return 0;
}

static void pop_frame(Walk *w)
{
    Frame *f = &w->frames[--w->len];
    if (f->locked)
        ts_shared_unlock();
    ts_value_release(f->v);
}

/* Appends a value that holds no other values, or opens a container (pushes its frame). */
static int put_value(Walk *w, TsValue v, TsError *err)
{
    TsBuf *out = w->out;
    switch ((TsTag)v.tag) {
    case TS_TAG_NONE:
        ts_buf_puts(out, "None");
        return 0;
    case TS_TAG_INT:
        ts_buf_printf(out, "%" PRId64, v.u.i);
        return 0;
    case TS_TAG_DOUBLE:
        put_double(out, v.u.d);
        return 0;
    case TS_TAG_BOOL:
        ts_buf_puts(out, v.u.b ? "True" : "False");
        return 0;
    case TS_TAG_DEVICE: {
        char buf[64];
        ts_device_str(v.u.dev, buf, sizeof buf);
        ts_buf_puts(out, buf);
        return 0;
    }
    case TS_TAG_UNINIT:
        ts_buf_puts(out, "Uninitialized");
        return 0;
    case TS_TAG_STR: {
        const TsStr *s = (const TsStr *)v.u.p;
        ts_buf_add(out, s->data, s->len);
        return 0;
    }
    case TS_TAG_COMPLEX: {
        const TsComplex *c = (const TsComplex *)v.u.p;
        ts_format_complex(c->re, c->im, out);
        return 0;
    }
    case TS_TAG_LIST:
        ts_buf_putc(out, '[');
        return push_frame(w, v, err);
    case TS_TAG_TUPLE:
        ts_buf_putc(out, '(');
        return push_frame(w, v, err);
    case TS_TAG_DICT:
        ts_buf_putc(out, '{');
        return push_frame(w, v, err);
    case TS_TAG_OBJECT: {
        const TsObject *o = (const TsObject *)v.u.p;
        const char *name = ts_type_name(o->cls);
        ts_buf_printf(out, "<%s object at %p>", name ? name : "object", (const void *)o);
        return 0;
    }
    case TS_TAG_ENUM: {
        const TsEnumValue *e = (const TsEnumValue *)v.u.p;
        const char *name = ts_type_name(e->type);
        ts_buf_printf(out, "Enum<%s.", name ? base_name(name) : "?");
        ts_buf_add(out, e->name->data, e->name->len);
        ts_buf_putc(out, '>');
        return 0;
    }
    case TS_TAG_TENSOR:
        return put_tensor(w, (TsTensor *)v.u.p, err);
    case TS_TAG_FUTURE:
        ts_buf_puts(out, "Future");
        return 0;
    case TS_TAG_CAPSULE:
        ts_buf_puts(out, "Capsule");
        return 0;
    case TS_TAG_STORAGE:
        ts_buf_puts(out, "Storage");
        return 0;
    case TS_TAG__COUNT:
        break;
    }
    return ts_error_set(err, TS_ERR_RUNTIME, "cannot print a value with tag %u", v.tag);
}

/* Prints the next item of the top frame, or closes it. */
static int step(Walk *w, TsError *err)
{
    Frame *f = &w->frames[w->len - 1];
    TsBuf *out = w->out;
    size_t n = 0;
    const TsValue *items = NULL;
    if (f->v.tag == TS_TAG_LIST) {
        const TsList *l = (const TsList *)f->v.u.p;
        n = l->len;
        items = l->items;
    } else if (f->v.tag == TS_TAG_TUPLE) {
        const TsTuple *t = (const TsTuple *)f->v.u.p;
        n = t->len;
        items = t->items;
    } else {
        TsValue key, value;
        if (!ts_dict_next((const TsDict *)f->v.u.p, &f->pos, &key, &value)) {
            ts_buf_putc(out, '}');
            goto close;
        }
        if (f->i++)
            ts_buf_puts(out, ", ");
        if (key.tag == TS_TAG_LIST || key.tag == TS_TAG_TUPLE || key.tag == TS_TAG_DICT)
            return ts_error_set(err, TS_ERR_RUNTIME, "cannot print a dict with container keys");
        int rc = put_value(w, key, err);
        if (rc)
            return rc;
        ts_buf_puts(out, ": ");
        return put_value(w, value, err);
    }
    if (f->i < n) {
        if (f->i)
            ts_buf_puts(out, ", ");
        return put_value(w, items[f->i++], err);
    }
    if (f->v.tag == TS_TAG_LIST)
        ts_buf_putc(out, ']');
    else
        ts_buf_puts(out, n == 1 ? ",)" : ")");
close:
    pop_frame(w);
    return 0;
}

int ts_value_format(struct TsRuntime *rt, TsValue v, TsBuf *out, TsError *err)
{
    Walk w = { rt, out, NULL, 0, 0 };
    int rc = put_value(&w, v, err);
    while (!rc && w.len && !out->failed)
        rc = step(&w, err);
    while (w.len)
        pop_frame(&w);
    free(w.frames);
    return rc ? rc : ts_buf_check(out, err);
}

char *ts_value_to_cstr(struct TsRuntime *rt, TsValue v, TsError *err)
{
    TsBuf b = TS_BUF_INIT;
    if (ts_value_format(rt, v, &b, err)) {
        ts_buf_free(&b);
        return NULL;
    }
    return ts_buf_take(&b, err);
}

TsStr *ts_value_str(struct TsRuntime *rt, TsValue v, TsError *err)
{
    if (v.tag == TS_TAG_STR) {
        ts_heap_retain(v.u.p);
        return (TsStr *)v.u.p;
    }
    TsBuf b = TS_BUF_INIT;
    TsStr *s = NULL;
    if (!ts_value_format(rt, v, &b, err))
        s = ts_str_new(b.p ? b.p : "", b.len, err);
    ts_buf_free(&b);
    return s;
}

int ts_print_line(struct TsRuntime *rt, const TsValue *values, size_t n, TsBuf *out,
                  TsError *err)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            ts_buf_putc(out, ' ');
        int rc = ts_value_format(rt, values[i], out, err);
        if (rc)
            return rc;
    }
    ts_buf_putc(out, '\n');
    return ts_buf_check(out, err);
}
