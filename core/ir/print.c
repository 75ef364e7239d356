/* print.c — a graph's canonical text, as PyTorch 1.13 prints it (Graph::print).
 *
 *     graph(%x : Tensor,
 *           %n : int):
 *       %3 : int = prim::Constant[value=1]()
 *        = prim::If(%c) # f.py:3:4
 *         block0():
 *           -> ()
 *       return (%3)
 *     with prim::FusionGroup_0 = graph(...
 *
 * Numbers follow c10's IValue printing: a whole double below 1e10 is "1." and any other
 * double has 17 significant digits ("0.10000000000000001"); strings are double-quoted with
 * C escapes and other control bytes in octal. Nodes with a graph attribute attr::Subgraph
 * print as "kind_N" and their graphs follow the main one, numbered in program order.
 * Two documented differences from PyTorch: bytes >= 0x80 in strings are printed as they are
 * (UTF-8 stays readable), and a tensor attribute with more than one element prints as
 * "<Tensor>" rather than its contents.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/graph_internal.h"
#include "tscript/strbuf.h"

/* ---- scalars ---------------------------------------------------------------------- */
static void put_double(TsBuf *b, double d)
{
    int c = fpclassify(d);
    if ((c == FP_NORMAL || c == FP_ZERO) && fabs(d) < 1e10) {
        int64_t i = (int64_t)d;
        if ((double)i == d) {
            ts_buf_printf(b, "%s%" PRId64 ".", i == 0 && signbit(d) ? "-" : "", i);
            return;
        }
    }
    ts_buf_printf(b, "%.17g", d);
}

static void put_complex(TsBuf *b, double re, double im)
{
    put_double(b, re);
    ts_buf_puts(b, signbit(im) ? "-" : "+");
    put_double(b, fabs(im));
    ts_buf_puts(b, "j");
}

void ts_ir_put_quoted(TsBuf *b, const char *s, size_t n, bool code)
{
    ts_buf_puts(b, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\\': ts_buf_puts(b, "\\\\"); break;
        case '\'': ts_buf_puts(b, "\\'"); break;
        case '"': ts_buf_puts(b, "\\\""); break;
        case '\a': ts_buf_puts(b, "\\a"); break;
        case '\b': ts_buf_puts(b, "\\b"); break;
        case '\f': ts_buf_puts(b, "\\f"); break;
        case '\n': ts_buf_puts(b, "\\n"); break;
        case '\r': ts_buf_puts(b, code ? "\\015" : "\\r"); break;
        case '\t': ts_buf_puts(b, "\\t"); break;
        case '\v': ts_buf_puts(b, "\\v"); break;
        default:
            if (c < 0x20 || c == 0x7f)
                ts_buf_printf(b, "\\%03o", c);
            else
                ts_buf_add(b, (const char *)&c, 1);
        }
    }
    ts_buf_puts(b, "\"");
}

static void put_type(TsBuf *b, const TsGraph *g, const TsType *t)
{
    if (g && g->spell_dynamic && t == ts_type_tensor()) {
        ts_buf_puts(b, "Dynamic");
        return;
    }
    char small[256];
    size_t n = ts_type_repr(t, small, sizeof small);
    if (n < sizeof small) {
        ts_buf_add(b, small, n);
        return;
    }
    char *big = malloc(n + 1);
    if (!big) {
        b->failed = TS_ERR_NOMEM;
        return;
    }
    ts_type_repr(t, big, n + 1);
    ts_buf_add(b, big, n);
    free(big);
}

/* A one-element tensor prints as its value in braces, like a boxed scalar (one in host
 * memory: a device's, as a model loaded on cuda has, prints as <Tensor>). */
static void put_tensor(TsBuf *b, const TsTensor *t)
{
    const void *p = t && t->device.type == TS_DEV_CPU ? ts_tensor_data(t) : NULL;
    if (!p || ts_tensor_numel(t) != 1) {
        ts_buf_puts(b, "<Tensor>");
        return;
    }
    switch (t->dtype) {
    case TS_FLOAT64: ts_buf_printf(b, "{%g}", *(const double *)p); return;
    case TS_FLOAT32: ts_buf_printf(b, "{%g}", (double)*(const float *)p); return;
    case TS_INT64: ts_buf_printf(b, "{%" PRId64 "}", *(const int64_t *)p); return;
    case TS_INT32: ts_buf_printf(b, "{%" PRId32 "}", *(const int32_t *)p); return;
    case TS_INT16: ts_buf_printf(b, "{%d}", (int)*(const int16_t *)p); return;
    case TS_INT8: ts_buf_printf(b, "{%d}", (int)*(const int8_t *)p); return;
    case TS_UINT8: case TS_BOOL: ts_buf_printf(b, "{%d}", (int)*(const uint8_t *)p); return;
    default: ts_buf_puts(b, "<Tensor>");
    }
}

static void put_ivalue(TsBuf *b, TsValue v)
{
    switch ((TsTag)v.tag) {
    case TS_TAG_NONE: ts_buf_puts(b, "None"); return;
    case TS_TAG_INT: ts_buf_printf(b, "%" PRId64, v.u.i); return;
    case TS_TAG_DOUBLE: put_double(b, v.u.d); return;
    case TS_TAG_BOOL: ts_buf_puts(b, v.u.b ? "True" : "False"); return;
    case TS_TAG_DEVICE: {
        char dev[64];
        ts_device_str(v.u.dev, dev, sizeof dev);
        ts_buf_printf(b, "torch.device(\"%s\")", dev);
        return;
    }
    case TS_TAG_STR: {
        const TsStr *s = (const TsStr *)v.u.p;
        ts_ir_put_quoted(b, s->data, s->len, false);
        return;
    }
    case TS_TAG_COMPLEX: {
        const TsComplex *c = (const TsComplex *)v.u.p;
        put_complex(b, c->re, c->im);
        return;
    }
    case TS_TAG_TENSOR: put_tensor(b, (const TsTensor *)v.u.p); return;
    case TS_TAG_LIST: {
        const TsList *l = (const TsList *)v.u.p;
        ts_buf_puts(b, "[");
        for (size_t i = 0; i < l->len; i++) {
            if (i)
                ts_buf_puts(b, ", ");
            put_ivalue(b, l->items[i]);
        }
        ts_buf_puts(b, "]");
        return;
    }
    case TS_TAG_TUPLE: {
        const TsTuple *t = (const TsTuple *)v.u.p;
        ts_buf_puts(b, "(");
        for (size_t i = 0; i < t->len; i++) {
            if (i)
                ts_buf_puts(b, ", ");
            put_ivalue(b, t->items[i]);
        }
        ts_buf_puts(b, t->len == 1 ? ",)" : ")");
        return;
    }
    case TS_TAG_DICT: {
        const TsDict *d = (const TsDict *)v.u.p;
        TsValue key, val;
        ts_buf_puts(b, "{");
        for (size_t pos = 0, i = 0; ts_dict_next(d, &pos, &key, &val); i++) {
            if (i)
                ts_buf_puts(b, ", ");
            put_ivalue(b, key);
            ts_buf_puts(b, ": ");
            put_ivalue(b, val);
        }
        ts_buf_puts(b, "}");
        return;
    }
    case TS_TAG_ENUM: {
        const TsEnumValue *e = (const TsEnumValue *)v.u.p;
        ts_buf_printf(b, "Enum<%s.%s>", ts_type_name(e->type), e->name->data);
        return;
    }
    default:
        ts_buf_puts(b, "<object>");
    }
}

/* ---- attributes ------------------------------------------------------------------- */
static void put_attr_value(TsBuf *b, const TsAttr *a)
{
    switch (a->kind) {
    case TS_ATTR_INT: ts_buf_printf(b, "%" PRId64, a->u.i); return;
    case TS_ATTR_FLOAT: put_double(b, a->u.f); return;
    case TS_ATTR_COMPLEX: put_complex(b, a->u.c[0], a->u.c[1]); return;
    case TS_ATTR_STR: ts_ir_put_quoted(b, a->u.s, strlen(a->u.s), false); return;
    case TS_ATTR_TENSOR: put_tensor(b, a->u.t); return;
    case TS_ATTR_GRAPH: ts_buf_puts(b, "<Graph>"); return;
    case TS_ATTR_TYPE: put_type(b, NULL, a->u.ty); return;
    case TS_ATTR_IVALUE: put_ivalue(b, a->u.iv); return;
    case TS_ATTR_TENSORS: ts_buf_puts(b, "[<Tensors>]"); return;
    case TS_ATTR_GRAPHS: ts_buf_puts(b, "[<Graphs>]"); return;
    default: break;
    }
    ts_buf_puts(b, "[");
    for (size_t i = 0; i < a->n; i++) {
        if (i)
            ts_buf_puts(b, ", ");
        switch (a->kind) {
        case TS_ATTR_INTS: ts_buf_printf(b, "%" PRId64, a->u.is[i]); break;
        case TS_ATTR_FLOATS: put_double(b, a->u.fs[i]); break;
        case TS_ATTR_STRS: ts_ir_put_quoted(b, a->u.ss[i], strlen(a->u.ss[i]), false); break;
        case TS_ATTR_TYPES: put_type(b, NULL, a->u.tys[i]); break;
        default: break;
        }
    }
    ts_buf_puts(b, "]");
}

static void put_attrs(TsBuf *b, const TsNode *n, TsSymbol skip)
{
    ts_buf_puts(b, "[");
    size_t printed = 0;
    for (size_t i = 0; i < n->n_attrs; i++) {
        const TsAttr *a = &n->attrs[i];
        if (a->name == skip)
            continue;
        if (printed++)
            ts_buf_puts(b, ", ");
        ts_buf_puts(b, ts_symbol_unqual(a->name));
        ts_buf_puts(b, "=");
        put_attr_value(b, a);
    }
    ts_buf_puts(b, "]");
}

/* ---- graphs ------------------------------------------------------------------------- */
typedef struct Groups {
    const TsNode **items;
    size_t n, cap;
    bool failed;
} Groups;

static void put_ref(TsBuf *b, const TsIrValue *v)
{
    char num[32];
    ts_buf_puts(b, "%");
    ts_buf_puts(b, ts_irvalue_debug_name(v, num, sizeof num));
}

static void put_refs(TsBuf *b, TsIrValue *const *vs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            ts_buf_puts(b, ", ");
        put_ref(b, vs[i]);
    }
}

static void put_typed(TsBuf *b, const TsGraph *g, TsIrValue *const *vs, size_t n, const char *sep)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            ts_buf_puts(b, sep);
        put_ref(b, vs[i]);
        ts_buf_puts(b, " : ");
        put_type(b, g, vs[i]->type);
    }
}

static void indent(TsBuf *b, size_t level)
{
    for (size_t i = 0; i < level; i++)
        ts_buf_puts(b, "  ");
}

static const TsAttr *subgraph_attr(const TsNode *n)
{
    const TsAttr *a = ts_node_attr(n, ts_symbol("attr::Subgraph"));
    return a && a->kind == TS_ATTR_GRAPH && a->u.g ? a : NULL;
}

static void put_node(TsBuf *b, const TsNode *n, size_t level, Groups *groups, bool source)
{
    const TsGraph *g = n->graph;
    indent(b, level);
    put_typed(b, g, n->outputs, n->n_outputs, ", ");
    ts_buf_puts(b, " = ");
    if (subgraph_attr(n)) {
        ts_buf_printf(b, "%s_%zu", n->kind, groups->n);
        if (n->n_attrs > 1 && n->kind != ts_symbol("prim::DifferentiableGraph"))
            put_attrs(b, n, ts_symbol("attr::Subgraph"));
        if (groups->n == groups->cap) {
            size_t ncap = groups->cap ? groups->cap * 2 : 4;
            const TsNode **ni = realloc(groups->items, ncap * sizeof *ni);
            if (!ni) {
                groups->failed = true;
                return;
            }
            groups->items = ni;
            groups->cap = ncap;
        }
        groups->items[groups->n++] = n;
    } else {
        ts_buf_puts(b, n->kind);
        if (n->n_attrs)
            put_attrs(b, n, NULL);
    }
    ts_buf_puts(b, "(");
    put_refs(b, n->inputs, n->n_inputs);
    ts_buf_puts(b, ")");
    if (source && n->range.source) {
        size_t line, col;
        ts_source_line_col(n->range.source, n->range.start, &line, &col);
        ts_buf_printf(b, " # %s:%zu:%zu", n->range.source->filename, line, col);
    }
    ts_buf_puts(b, "\n");
    for (size_t i = 0; i < n->n_blocks; i++) {
        const TsBlock *blk = n->blocks[i];
        indent(b, level + 1);
        ts_buf_printf(b, "block%zu(", i);
        put_typed(b, g, blk->param->outputs, blk->param->n_outputs, ", ");
        ts_buf_puts(b, "):\n");
        for (const TsNode *m = blk->ret->next; m != blk->ret; m = m->next)
            put_node(b, m, level + 2, groups, source);
        indent(b, level + 2);
        ts_buf_puts(b, "-> (");
        put_refs(b, blk->ret->inputs, blk->ret->n_inputs);
        ts_buf_puts(b, ")\n");
    }
}

static void put_graph(TsBuf *b, const TsGraph *g, bool source)
{
    const TsBlock *top = g->block;
    Groups groups = {0};
    ts_buf_puts(b, "graph(");
    put_typed(b, g, top->param->outputs, top->param->n_outputs, ",\n      ");
    ts_buf_puts(b, "):\n");
    for (const TsNode *m = top->ret->next; m != top->ret; m = m->next)
        put_node(b, m, 1, &groups, source);
    ts_buf_puts(b, "  return (");
    put_refs(b, top->ret->inputs, top->ret->n_inputs);
    ts_buf_puts(b, ")\n");
    for (size_t i = 0; i < groups.n; i++) {
        ts_buf_printf(b, "with %s_%zu = ", groups.items[i]->kind, i);
        put_graph(b, subgraph_attr(groups.items[i])->u.g, source);
    }
    if (groups.failed)
        b->failed = TS_ERR_NOMEM;
    free(groups.items);
}

void ts_graph_print(const TsGraph *g, bool print_source, TsBuf *out)
{
    put_graph(out, g, print_source);
}

char *ts_graph_to_string(const TsGraph *g, bool print_source)
{
    TsBuf b = TS_BUF_INIT;
    put_graph(&b, g, print_source);
    return ts_buf_take(&b, NULL);
}
