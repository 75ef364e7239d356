/* attr.c — node attributes: named ints, floats, strings, tensors, graphs, types, IValues
 * and lists of them.
 *
 * Attributes keep the order they were first set in (the printer shows them in that order,
 * as PyTorch does); setting an existing name replaces its value in place. A node owns its
 * attributes' payloads: strings and lists are copied, tensors and IValues hold a reference,
 * and graphs belong to the node.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/graph_internal.h"

void ts_attr_clear(TsAttr *a)
{
    switch (a->kind) {
    case TS_ATTR_STR: free(a->u.s); break;
    case TS_ATTR_TENSOR: if (a->u.t) ts_tensor_release(a->u.t); break;
    case TS_ATTR_GRAPH: ts_graph_free(a->u.g); break;
    case TS_ATTR_IVALUE: ts_value_release(a->u.iv); break;
    case TS_ATTR_INTS: free(a->u.is); break;
    case TS_ATTR_FLOATS: free(a->u.fs); break;
    case TS_ATTR_TYPES: free(a->u.tys); break;
    case TS_ATTR_STRS:
        for (size_t i = 0; a->u.ss && i < a->n; i++)
            free(a->u.ss[i]);
        free(a->u.ss);
        break;
    case TS_ATTR_TENSORS:
        for (size_t i = 0; a->u.ts && i < a->n; i++)
            if (a->u.ts[i])
                ts_tensor_release(a->u.ts[i]);
        free(a->u.ts);
        break;
    case TS_ATTR_GRAPHS:
        for (size_t i = 0; a->u.gs && i < a->n; i++)
            ts_graph_free(a->u.gs[i]);
        free(a->u.gs);
        break;
    default: break;
    }
    memset(&a->u, 0, sizeof a->u);
    a->n = 0;
}

static void *dup_array(const void *p, size_t n, size_t size)
{
    void *q = malloc(n ? n * size : 1);
    if (q && n)
        memcpy(q, p, n * size);
    return q;
}

int ts_attr_copy(TsAttr *dst, const TsAttr *src, TsError *err)
{
    *dst = *src;
    memset(&dst->u, 0, sizeof dst->u);
    bool ok = true;
    switch (src->kind) {
    case TS_ATTR_INT: case TS_ATTR_FLOAT: case TS_ATTR_COMPLEX: case TS_ATTR_TYPE:
        dst->u = src->u;
        break;
    case TS_ATTR_STR:
        ok = (dst->u.s = strdup(src->u.s ? src->u.s : "")) != NULL;
        break;
    case TS_ATTR_TENSOR:
        dst->u.t = src->u.t;
        if (dst->u.t)
            ts_tensor_retain(dst->u.t);
        break;
    case TS_ATTR_GRAPH:
        if (!(dst->u.g = ts_graph_copy(src->u.g, err)))
            return err->code;
        break;
    case TS_ATTR_IVALUE:
        dst->u.iv = src->u.iv;
        ts_value_retain(dst->u.iv);
        break;
    case TS_ATTR_INTS:
        ok = (dst->u.is = dup_array(src->u.is, src->n, sizeof *src->u.is)) != NULL;
        break;
    case TS_ATTR_FLOATS:
        ok = (dst->u.fs = dup_array(src->u.fs, src->n, sizeof *src->u.fs)) != NULL;
        break;
    case TS_ATTR_TYPES:
        ok = (dst->u.tys = dup_array(src->u.tys, src->n, sizeof *src->u.tys)) != NULL;
        break;
    case TS_ATTR_STRS:
        dst->n = 0;
        ok = (dst->u.ss = calloc(src->n ? src->n : 1, sizeof *dst->u.ss)) != NULL;
        for (; ok && dst->n < src->n; dst->n++)
            ok = (dst->u.ss[dst->n] = strdup(src->u.ss[dst->n])) != NULL;
        break;
    case TS_ATTR_TENSORS:
        ok = (dst->u.ts = dup_array(src->u.ts, src->n, sizeof *src->u.ts)) != NULL;
        for (size_t i = 0; ok && i < src->n; i++)
            if (src->u.ts[i])
                ts_tensor_retain(src->u.ts[i]);
        break;
    case TS_ATTR_GRAPHS:
        dst->n = 0;
        ok = (dst->u.gs = calloc(src->n ? src->n : 1, sizeof *dst->u.gs)) != NULL;
        for (; ok && dst->n < src->n; dst->n++)
            if (!(dst->u.gs[dst->n] = ts_graph_copy(src->u.gs[dst->n], err))) {
                ts_attr_clear(dst);
                return err->code;
            }
        break;
    }
    if (!ok) {
        ts_attr_clear(dst);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    return 0;
}

static TsAttr *find(const TsNode *n, TsSymbol name)
{
    for (size_t i = 0; i < n->n_attrs; i++)
        if (n->attrs[i].name == name)
            return &n->attrs[i];
    return NULL;
}

const TsAttr *ts_node_attr(const TsNode *n, TsSymbol name)
{
    return find(n, name);
}

/* Stores a (whose payload the node now owns) under its name. */
static int put(TsNode *n, TsAttr *a, TsError *err)
{
    if (!a->name) {    /* callers pass ts_symbol(...), NULL when it could not intern */
        ts_attr_clear(a);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    TsAttr *old = find(n, a->name);
    if (old) {
        ts_attr_clear(old);
        *old = *a;
        return 0;
    }
    TsAttr *na = realloc(n->attrs, (n->n_attrs + 1) * sizeof *na);
    if (!na) {
        ts_attr_clear(a);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    n->attrs = na;
    n->attrs[n->n_attrs++] = *a;
    return 0;
}

int ts_node_set_attr(TsNode *n, const TsAttr *a, TsError *err)
{
    TsAttr copy;
    if (ts_attr_copy(&copy, a, err) != 0)
        return err->code;
    return put(n, &copy, err);
}

static TsAttr attr(TsSymbol name, TsAttrKind kind)
{
    TsAttr a;
    memset(&a, 0, sizeof a);
    a.name = name;
    a.kind = kind;
    return a;
}

int ts_node_set_int(TsNode *n, TsSymbol name, int64_t v, TsError *err)
{
    TsAttr a = attr(name, TS_ATTR_INT);
    a.u.i = v;
    return put(n, &a, err);
}

int ts_node_set_float(TsNode *n, TsSymbol name, double v, TsError *err)
{
    TsAttr a = attr(name, TS_ATTR_FLOAT);
    a.u.f = v;
    return put(n, &a, err);
}

int ts_node_set_str(TsNode *n, TsSymbol name, const char *v, TsError *err)
{
    TsAttr a = attr(name, TS_ATTR_STR);
    if (!(a.u.s = strdup(v)))
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    return put(n, &a, err);
}

int ts_node_set_tensor(TsNode *n, TsSymbol name, TsTensor *v, TsError *err)
{
    TsAttr a = attr(name, TS_ATTR_TENSOR);
    a.u.t = v;
    if (v)
        ts_tensor_retain(v);
    return put(n, &a, err);
}

int ts_node_set_graph(TsNode *n, TsSymbol name, TsGraph *v, TsError *err)
{
    TsAttr a = attr(name, TS_ATTR_GRAPH);
    a.u.g = v;
    return put(n, &a, err);
}

int ts_node_set_type(TsNode *n, TsSymbol name, const TsType *v, TsError *err)
{
    TsAttr a = attr(name, TS_ATTR_TYPE);
    a.u.ty = v;
    return put(n, &a, err);
}

int ts_node_set_ivalue(TsNode *n, TsSymbol name, TsValue v, TsError *err)
{
    TsAttr a = attr(name, TS_ATTR_IVALUE);
    a.u.iv = v;
    ts_value_retain(v);
    return put(n, &a, err);
}

void ts_node_remove_attr(TsNode *n, TsSymbol name)
{
    TsAttr *a = find(n, name);
    if (!a)
        return;
    ts_attr_clear(a);
    size_t i = (size_t)(a - n->attrs);
    memmove(a, a + 1, (n->n_attrs - i - 1) * sizeof *a);
    n->n_attrs--;
}
