/* graph.c — the Graph: creation and teardown, its inputs and outputs, the insertion point,
 * constants, and deep copies.
 *
 * The graph owns every node (ts_graph_create registers it in g->all, inserted or not), and
 * through them every block and value, so ts_graph_free frees all of it in one sweep with no
 * need for the lists to be consistent.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/graph_internal.h"
#include "ptrmap.h"

TsGraph *ts_graph_new(TsError *err)
{
    TsGraph *g = calloc(1, sizeof *g);
    if (!g) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    g->block = ts_block_new(g, NULL, err);
    if (!g->block) {
        ts_graph_free(g);
        return NULL;
    }
    g->insert_before = g->block->ret;
    return g;
}

void ts_graph_free(TsGraph *g)
{
    if (!g)
        return;
    while (g->n_all)
        ts_node_free(g->all[g->n_all - 1]);
    free(g->all);
    free(g->block);
    ts_namemap_free(&g->names);
    ts_namemap_free(&g->suffixes);
    free(g);
}

TsBlock *ts_graph_block(const TsGraph *g)
{
    return g->block;
}

TsIrValue *ts_graph_add_input(TsGraph *g, const char *name, const TsType *type, TsError *err)
{
    return ts_block_add_input(g->block, name, type, err);
}

int ts_graph_add_output(TsGraph *g, TsIrValue *v, TsError *err)
{
    return ts_node_add_input(g->block->ret, v, err);
}

void ts_graph_set_insert_point(TsGraph *g, TsNode *before)
{
    g->insert_before = before;
}

void ts_graph_set_insert_end(TsGraph *g, TsBlock *b)
{
    g->insert_before = b->ret;
}

TsNode *ts_graph_insert_point(const TsGraph *g)
{
    return g->insert_before;
}

TsNode *ts_graph_insert(TsGraph *g, TsNode *n)
{
    ts_node_insert_before(n, g->insert_before);
    return n;
}

/* ---- constants ------------------------------------------------------------------ */
static bool list_of(TsValue v, TsTypeKind kind)
{
    const TsList *l = (const TsList *)v.u.p;
    return v.tag == TS_TAG_LIST && l->elem_type && ts_type_kind(l->elem_type) == kind;
}

/* Puts v on a prim::Constant as PyTorch does: scalars, strings and devices as plain
 * attributes, int and float lists as list attributes, anything else as an IValue. */
static int set_constant_attr(TsNode *n, TsValue v, TsError *err)
{
    TsSymbol value = ts_symbol("attr::value");
    if (!value)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    switch ((TsTag)v.tag) {
    case TS_TAG_NONE:
        return 0;
    case TS_TAG_INT:
        return ts_node_set_int(n, value, v.u.i, err);
    case TS_TAG_BOOL:
        return ts_node_set_int(n, value, v.u.b ? 1 : 0, err);
    case TS_TAG_DOUBLE:
        return ts_node_set_float(n, value, v.u.d, err);
    case TS_TAG_STR: {
        /* a str attribute is NUL-terminated: "a\0b" is kept whole as an IValue */
        const TsStr *s = (const TsStr *)v.u.p;
        if (memchr(s->data, 0, s->len))
            break;
        return ts_node_set_str(n, value, s->data, err);
    }
    case TS_TAG_TENSOR:
        return ts_node_set_tensor(n, value, (TsTensor *)v.u.p, err);
    case TS_TAG_DEVICE: {
        char buf[64];
        ts_device_str(v.u.dev, buf, sizeof buf);
        return ts_node_set_str(n, value, buf, err);
    }
    case TS_TAG_COMPLEX: {
        TsAttr a;
        memset(&a, 0, sizeof a);
        a.name = value;
        a.kind = TS_ATTR_COMPLEX;
        a.u.c[0] = ((TsComplex *)v.u.p)->re;
        a.u.c[1] = ((TsComplex *)v.u.p)->im;
        return ts_node_set_attr(n, &a, err);
    }
    default:
        break;
    }
    if (list_of(v, TS_TYPE_INT) || list_of(v, TS_TYPE_FLOAT)) {
        const TsList *l = (const TsList *)v.u.p;
        bool ints = ts_type_kind(l->elem_type) == TS_TYPE_INT;
        TsAttr a;
        memset(&a, 0, sizeof a);
        a.name = value;
        a.kind = ints ? TS_ATTR_INTS : TS_ATTR_FLOATS;
        a.n = l->len;
        void *items = malloc(l->len ? l->len * 8 : 1);
        if (!items)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < l->len; i++) {
            if (ints)
                ((int64_t *)items)[i] = l->items[i].u.i;
            else
                ((double *)items)[i] = l->items[i].u.d;
        }
        if (ints)
            a.u.is = items;
        else
            a.u.fs = items;
        int rc = ts_node_set_attr(n, &a, err);
        free(items);
        return rc;
    }
    return ts_node_set_ivalue(n, value, v, err);
}

/* A list attribute of a constant as the list value it was made from. */
static int list_value(const TsAttr *a, TsValue *out, TsError *err)
{
    bool ints = a->kind == TS_ATTR_INTS;
    TsList *l = ts_list_new(ints ? ts_type_int() : ts_type_float(), a->n, err);
    if (!l)
        return -1;
    for (size_t i = 0; i < a->n; i++)
        if (ts_list_append(l, ints ? ts_int(a->u.is[i]) : ts_double(a->u.fs[i]), err)) {
            ts_heap_release(&l->h);
            return -1;
        }
    *out = ts_obj_value(l, TS_TAG_LIST);
    return 0;
}

int ts_constant_value(const TsNode *n, TsValue *out, TsError *err)
{
    *out = ts_none();
    if (n->kind != ts_symbol("prim::Constant"))
        return ts_error_set(err, TS_ERR_TYPE, "%s is not a prim::Constant", n->kind);
    const TsAttr *a = ts_node_attr(n, ts_symbol("attr::value"));
    const TsType *t = n->n_outputs ? n->outputs[0]->type : NULL;
    if (!a)
        return 0;
    switch (a->kind) {
    case TS_ATTR_INT:
        *out = ts_type_kind(t) == TS_TYPE_BOOL ? ts_bool(a->u.i != 0) : ts_int(a->u.i);
        return 0;
    case TS_ATTR_FLOAT:
        *out = ts_double(a->u.f);
        return 0;
    case TS_ATTR_COMPLEX: {
        TsComplex *c = ts_complex_new(a->u.c[0], a->u.c[1], err);
        *out = c ? ts_obj_value(c, TS_TAG_COMPLEX) : ts_none();
        return c ? 0 : -1;
    }
    case TS_ATTR_STR: {
        if (ts_type_kind(t) == TS_TYPE_DEVICE) {
            TsDevice d;
            if (ts_device_parse(a->u.s, &d, err))
                return -1;
            *out = ts_device(d);
            return 0;
        }
        TsStr *s = ts_str_from_cstr(a->u.s, err);
        *out = s ? ts_str_value(s) : ts_none();
        return s ? 0 : -1;
    }
    case TS_ATTR_TENSOR:
        ts_heap_retain(&a->u.t->h);
        *out = ts_obj_value(a->u.t, TS_TAG_TENSOR);
        return 0;
    case TS_ATTR_IVALUE:
        ts_value_retain(a->u.iv);
        *out = a->u.iv;
        return 0;
    case TS_ATTR_INTS:
    case TS_ATTR_FLOATS:
        return list_value(a, out, err);
    default:
        return ts_error_at(err, TS_ERR_RUNTIME, n->range, "unsupported constant attribute");
    }
}

TsIrValue *ts_graph_insert_constant(TsGraph *g, TsValue v, TsSourceRange range, TsError *err)
{
    if (v.tag == TS_TAG_UNINIT) {
        ts_error_set(err, TS_ERR_USAGE, "an uninitialized value cannot be a constant");
        return NULL;
    }
    const TsType *type = ts_value_type(v);
    TsNode *n = ts_graph_create(g, ts_symbol("prim::Constant"), 1, err);
    if (!n)
        return NULL;
    if (set_constant_attr(n, v, err) != 0 || !type) {
        if (!type)
            ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        ts_node_destroy(n, NULL);
        return NULL;
    }
    n->outputs[0]->type = type;
    ts_node_set_range(n, range);
    ts_graph_insert(g, n);
    return n->outputs[0];
}

/* ---- copies ----------------------------------------------------------------------- */
/* Old value -> new value, by address. */
typedef TsPtrMap ValueMap;

/* One copying job: a whole graph (ts_graph_copy keeps value numbers and names as they
 * are) or nodes cloned into a graph (ts_node_clone: fresh numbers, names taken as
 * ts_irvalue_set_name takes them, and values of that graph outside the copy kept). */
typedef struct Copier {
    ValueMap *map;
    TsGraph *into;
    bool clone;
    TsError *err;
} Copier;

static TsIrValue *map_get(const ValueMap *m, const TsIrValue *k)
{
    uintptr_t v;
    return ts_ptrmap_get(m, k, &v) ? (TsIrValue *)v : NULL;
}

/* A clone takes the name from the value it copies (which becomes "name.N"), so it passes
 * a copy of the name: the original's string goes with the rename. A name of digits (kept
 * as parsed, "%25") is no name a new value may take: the clone goes by its number. */
static int set_name(const Copier *c, TsIrValue *v, const char *name)
{
    if (!c->clone)
        return ts_irvalue_set_name(v, name, true, c->err);
    if (name[strspn(name, "0123456789")] == '\0')
        return 0;
    char *copy = strdup(name);
    if (!copy)
        return ts_error_set(c->err, TS_ERR_NOMEM, "out of memory");
    int rc = ts_irvalue_set_name(v, copy, false, c->err);
    free(copy);
    return rc;
}

static int copy_outputs(const Copier *c, TsNode *dst, const TsNode *src)
{
    for (size_t i = 0; i < src->n_outputs; i++) {
        const TsIrValue *o = src->outputs[i];
        TsIrValue *v = ts_node_add_output(dst, o->type, c->err);
        if (!v)
            return c->err->code;
        if (!c->clone)
            v->unique = o->unique;
        if (o->name && set_name(c, v, o->name) != 0)
            return c->err->code;
        if (ts_ptrmap_put(c->map, o, (uintptr_t)v) < 0)
            return ts_error_set(c->err, TS_ERR_NOMEM, "out of memory");
    }
    return 0;
}

static int copy_inputs(const Copier *c, TsNode *dst, const TsNode *src)
{
    for (size_t i = 0; i < src->n_inputs; i++) {
        TsIrValue *v = map_get(c->map, src->inputs[i]);
        if (!v && c->clone && src->inputs[i]->node->graph == c->into)
            v = src->inputs[i];
        if (!v) {
            char buf[32];
            return ts_error_set(c->err, TS_ERR_RUNTIME,
                                "cannot copy graph: %s uses %%%s before it is defined",
                                src->kind, ts_irvalue_debug_name(src->inputs[i], buf, sizeof buf));
        }
        if (ts_node_add_input(dst, v, c->err) != 0)
            return c->err->code;
    }
    return 0;
}

static int copy_block(const Copier *c, TsBlock *dst, const TsBlock *src);

/* A copy of src inserted before `before`, or NULL with c->err. */
static TsNode *copy_node(const Copier *c, TsNode *before, const TsNode *src)
{
    TsNode *n = ts_graph_create(c->into, src->kind, 0, c->err);
    if (!n)
        return NULL;
    ts_node_insert_before(n, before);
    if (copy_outputs(c, n, src) || copy_inputs(c, n, src))
        return NULL;
    for (size_t i = 0; i < src->n_attrs; i++)
        if (ts_node_set_attr(n, &src->attrs[i], c->err) != 0)
            return NULL;
    ts_node_set_range(n, src->range);
    ts_node_set_callstack(n, src->callstack);
    n->op = src->op;
    for (size_t i = 0; i < src->n_blocks; i++) {
        TsBlock *b = ts_node_add_block(n, c->err);
        if (!b || copy_block(c, b, src->blocks[i]) != 0)
            return NULL;
    }
    return n;
}

static int copy_block(const Copier *c, TsBlock *dst, const TsBlock *src)
{
    if (copy_outputs(c, dst->param, src->param) != 0)
        return c->err->code;
    for (const TsNode *m = src->ret->next; m != src->ret; m = m->next)
        if (!copy_node(c, dst->ret, m))
            return c->err->code;
    return copy_inputs(c, dst->ret, src->ret);
}

TsNode *ts_node_clone(TsGraph *g, const TsNode *src, TsPtrMap *map, TsError *err)
{
    Copier c = { map, g, true, err };
    return copy_node(&c, ts_graph_insert_point(g), src);
}

TsGraph *ts_graph_copy(const TsGraph *g, TsError *err)
{
    TsGraph *c = ts_graph_new(err);
    if (!c)
        return NULL;
    ValueMap map = {0};
    Copier cp = { &map, c, false, err };
    int rc = copy_block(&cp, c->block, g->block);
    ts_ptrmap_free(&map);
    if (rc != 0) {
        ts_graph_free(c);
        return NULL;
    }
    c->next_unique = g->next_unique > c->next_unique ? g->next_unique : c->next_unique;
    c->spell_dynamic = g->spell_dynamic;
    for (size_t i = 0; i < g->suffixes.cap; i++) {
        const TsNameEntry *e = &g->suffixes.slots[i];
        if (!ts_namemap_is_live(e))
            continue;
        TsNameEntry *ne = ts_namemap_insert(&c->suffixes, e->key);
        if (!ne) {
            ts_graph_free(c);
            ts_error_set(err, TS_ERR_NOMEM, "out of memory");
            return NULL;
        }
        ne->number = e->number;
    }
    return c;
}
