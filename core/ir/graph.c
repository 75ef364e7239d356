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

static int map_put(ValueMap *m, const TsIrValue *k, TsIrValue *v)
{
    return ts_ptrmap_put(m, k, (uintptr_t)v) < 0 ? -1 : 0;
}

static TsIrValue *map_get(const ValueMap *m, const TsIrValue *k)
{
    uintptr_t v;
    return ts_ptrmap_get(m, k, &v) ? (TsIrValue *)v : NULL;
}

static int copy_outputs(TsNode *dst, const TsNode *src, ValueMap *map, TsError *err)
{
    for (size_t i = 0; i < src->n_outputs; i++) {
        const TsIrValue *o = src->outputs[i];
        TsIrValue *v = ts_node_add_output(dst, o->type, err);
        if (!v)
            return err->code;
        v->unique = o->unique;
        if (o->name && ts_irvalue_set_name(v, o->name, true, err) != 0)
            return err->code;
        if (map_put(map, o, v) != 0)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    return 0;
}

static int copy_inputs(TsNode *dst, const TsNode *src, const ValueMap *map, TsError *err)
{
    for (size_t i = 0; i < src->n_inputs; i++) {
        TsIrValue *v = map_get(map, src->inputs[i]);
        if (!v) {
            char buf[32];
            return ts_error_set(err, TS_ERR_RUNTIME,
                                "cannot copy graph: %s uses %%%s before it is defined",
                                src->kind, ts_irvalue_debug_name(src->inputs[i], buf, sizeof buf));
        }
        if (ts_node_add_input(dst, v, err) != 0)
            return err->code;
    }
    return 0;
}

static int copy_block(TsBlock *dst, const TsBlock *src, ValueMap *map, TsError *err);

static int copy_node(TsBlock *into, const TsNode *src, ValueMap *map, TsError *err)
{
    TsNode *n = ts_graph_create(into->graph, src->kind, 0, err);
    if (!n)
        return err->code;
    ts_node_insert_before(n, into->ret);
    if (copy_outputs(n, src, map, err) || copy_inputs(n, src, map, err))
        return err->code;
    for (size_t i = 0; i < src->n_attrs; i++)
        if (ts_node_set_attr(n, &src->attrs[i], err) != 0)
            return err->code;
    ts_node_set_range(n, src->range);
    n->op = src->op;
    for (size_t i = 0; i < src->n_blocks; i++) {
        TsBlock *b = ts_node_add_block(n, err);
        if (!b || copy_block(b, src->blocks[i], map, err) != 0)
            return err->code;
    }
    return 0;
}

static int copy_block(TsBlock *dst, const TsBlock *src, ValueMap *map, TsError *err)
{
    if (copy_outputs(dst->param, src->param, map, err) != 0)
        return err->code;
    for (const TsNode *m = src->ret->next; m != src->ret; m = m->next)
        if (copy_node(dst, m, map, err) != 0)
            return err->code;
    return copy_inputs(dst->ret, src->ret, map, err);
}

TsGraph *ts_graph_copy(const TsGraph *g, TsError *err)
{
    TsGraph *c = ts_graph_new(err);
    if (!c)
        return NULL;
    ValueMap map = {0};
    int rc = copy_block(c->block, g->block, &map, err);
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
