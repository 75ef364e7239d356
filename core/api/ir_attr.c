/* ir_attr.c — a node's attributes through the public IR (tscript/ir.h): by their printed
 * name ("value"), typed getters that say what is wrong, and setters.
 *
 * The core keys attributes by interned "attr::" symbols (PyTorch's attr::value); the
 * public names leave the prefix out, so each call interns "attr::NAME" once. A getter that
 * finds no attribute fails with TS_ERR_KEY, one of another kind with TS_ERR_TYPE naming
 * both kinds, as PyTorch's Node::i() / Node::s() report a missing or mistyped attribute.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

static const char *const kind_names[] = {
    "int", "float", "complex", "str", "Tensor", "Graph", "Type", "IValue",
    "int[]", "float[]", "str[]", "Tensor[]", "Graph[]", "Type[]",
};

/* The interned "attr::NAME", or NULL with err (no name, too long, out of memory). */
static TsSymbol attr_symbol(const char *name, TsError *err)
{
    char buf[256];
    if (!name || !*name) {
        ts_error_set(err, TS_ERR_USAGE, "an attribute needs a name");
        return NULL;
    }
    int w = snprintf(buf, sizeof buf, "attr::%s", name);
    if (w < 0 || (size_t)w >= sizeof buf) {
        ts_error_set(err, TS_ERR_USAGE, "attribute name '%.40s...' is too long", name);
        return NULL;
    }
    TsSymbol s = ts_symbol(buf);
    if (!s)
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    return s;
}

/* The attribute name of n when it is of kind want: else NULL with err. */
static const TsAttr *get(const TsNode *n, const char *name, TsAttrKind want, TsError *err)
{
    if (!n) {
        ts_error_set(err, TS_ERR_USAGE, "no node");
        return NULL;
    }
    TsSymbol s = attr_symbol(name, err);
    const TsAttr *a = s ? ts_node_attr(n, s) : NULL;
    if (s && !a)
        ts_error_set(err, TS_ERR_KEY, "%s has no attribute '%s'", n->kind, name);
    else if (a && a->kind != want) {
        ts_error_set(err, TS_ERR_TYPE, "attribute '%s' of %s is of kind %s, not %s", name,
                     n->kind, kind_names[a->kind], kind_names[want]);
        return NULL;
    }
    return a;
}

size_t ts_node_num_attrs(const TsNode *n) { return n->n_attrs; }

const char *ts_node_attr_name(const TsNode *n, size_t i)
{
    return i < n->n_attrs ? ts_symbol_unqual(n->attrs[i].name) : NULL;
}

int ts_attr_kind(const TsNode *n, const char *name)
{
    TsSymbol s = n ? attr_symbol(name, NULL) : NULL;
    const TsAttr *a = s ? ts_node_attr(n, s) : NULL;
    return a ? (int)a->kind : -1;
}

/* Reads one field of a checked attribute: `out` gets `field` when the kind matches. */
#define GETTER(fn, T, kind, field)                                                         \
    int fn(const TsNode *n, const char *name, T *out, TsError *err)                        \
    {                                                                                      \
        const TsAttr *a = get(n, name, kind, err);                                         \
        if (!a)                                                                            \
            return err && err->code ? (int)err->code : TS_ERR_KEY;                         \
        *out = a->u.field;                                                                 \
        return 0;                                                                          \
    }

GETTER(ts_attr_get_int, int64_t, TS_ATTR_INT, i)
GETTER(ts_attr_get_float, double, TS_ATTR_FLOAT, f)
GETTER(ts_attr_get_str, const char *, TS_ATTR_STR, s)
GETTER(ts_attr_get_tensor, TsTensor *, TS_ATTR_TENSOR, t)
GETTER(ts_attr_get_type, const TsType *, TS_ATTR_TYPE, ty)
GETTER(ts_attr_get_graph, TsGraph *, TS_ATTR_GRAPH, g)
GETTER(ts_attr_get_value, TsValue, TS_ATTR_IVALUE, iv)

int ts_attr_get_ints(const TsNode *n, const char *name, const int64_t **out, size_t *len,
                     TsError *err)
{
    const TsAttr *a = get(n, name, TS_ATTR_INTS, err);
    if (!a)
        return err && err->code ? (int)err->code : TS_ERR_KEY;
    *out = a->u.is;
    *len = a->n;
    return 0;
}

int ts_attr_get_floats(const TsNode *n, const char *name, const double **out, size_t *len,
                       TsError *err)
{
    const TsAttr *a = get(n, name, TS_ATTR_FLOATS, err);
    if (!a)
        return err && err->code ? (int)err->code : TS_ERR_KEY;
    *out = a->u.fs;
    *len = a->n;
    return 0;
}

/* ---- writing ----------------------------------------------------------------------------- */

/* The symbol to store under, checking the node too. */
static TsSymbol set_symbol(const TsNode *n, const char *name, TsError *err)
{
    if (!n) {
        ts_error_set(err, TS_ERR_USAGE, "no node");
        return NULL;
    }
    return attr_symbol(name, err);
}

#define FAILED(err) ((err) && (err)->code ? (int)(err)->code : TS_ERR_USAGE)

int ts_attr_set_int(TsNode *n, const char *name, int64_t v, TsError *err)
{
    TsSymbol s = set_symbol(n, name, err);
    return s ? ts_node_set_int(n, s, v, err) : FAILED(err);
}

int ts_attr_set_float(TsNode *n, const char *name, double v, TsError *err)
{
    TsSymbol s = set_symbol(n, name, err);
    return s ? ts_node_set_float(n, s, v, err) : FAILED(err);
}

int ts_attr_set_str(TsNode *n, const char *name, const char *v, TsError *err)
{
    if (!v)
        return ts_error_set(err, TS_ERR_USAGE, "ts_attr_set_str: no string");
    TsSymbol s = set_symbol(n, name, err);
    return s ? ts_node_set_str(n, s, v, err) : FAILED(err);
}

int ts_attr_set_tensor(TsNode *n, const char *name, TsTensor *v, TsError *err)
{
    if (!v)
        return ts_error_set(err, TS_ERR_USAGE, "ts_attr_set_tensor: no tensor");
    TsSymbol s = set_symbol(n, name, err);
    return s ? ts_node_set_tensor(n, s, v, err) : FAILED(err);
}

int ts_attr_set_type(TsNode *n, const char *name, const TsType *v, TsError *err)
{
    if (!v)
        return ts_error_set(err, TS_ERR_USAGE, "ts_attr_set_type: no type");
    TsSymbol s = set_symbol(n, name, err);
    return s ? ts_node_set_type(n, s, v, err) : FAILED(err);
}

int ts_attr_set_graph(TsNode *n, const char *name, TsGraph *v, TsError *err)
{
    if (!v || v == ts_node_graph(n)) {
        return ts_error_set(err, TS_ERR_USAGE, "ts_attr_set_graph: %s",
                            v ? "a node cannot hold its own graph" : "no graph");
    }
    TsSymbol s = set_symbol(n, name, err);
    if (!s) {
        ts_graph_free(v);
        return FAILED(err);
    }
    return ts_node_set_graph(n, s, v, err);
}

int ts_attr_set_ints(TsNode *n, const char *name, const int64_t *v, size_t len, TsError *err)
{
    if (len && !v)
        return ts_error_set(err, TS_ERR_USAGE, "ts_attr_set_ints: no items");
    TsSymbol s = set_symbol(n, name, err);
    if (!s)
        return FAILED(err);
    TsAttr a;
    memset(&a, 0, sizeof a);
    a.name = s;
    a.kind = TS_ATTR_INTS;
    a.n = len;
    a.u.is = (int64_t *)v;   /* ts_node_set_attr copies the items */
    return ts_node_set_attr(n, &a, err);
}

int ts_attr_remove(TsNode *n, const char *name, TsError *err)
{
    TsSymbol s = set_symbol(n, name, err);
    if (!s)
        return FAILED(err);
    if (!ts_node_attr(n, s))
        return ts_error_set(err, TS_ERR_KEY, "%s has no attribute '%s'", n->kind, name);
    ts_node_remove_attr(n, s);
    return 0;
}
