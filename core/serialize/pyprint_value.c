/* pyprint_value.c — constants and types as the python printer writes them.
 *
 * A constant is written as PyTorch's IValue repr writes it, which the importer parses back
 * to the same value: ints, "1." and "0.10000000000000001" for floats (17 significant
 * digits, so every double comes back exactly; "-0." keeps its sign), inf and nan as the
 * names the importer knows, double-quoted strings with C escapes, torch.device("cpu"),
 * qualified enum members (__torch__.m.Color.RED), lists and dicts as literals wrapped in
 * annotate(T, ...) when empty or when their elements do not tell their type, tuples with a
 * trailing comma when they hold one item, named tuples as a call of their class. What no
 * literal can say, a tensor, an object, or any value holding a string that is not ASCII, is
 * written CONSTANTS.cN: the N-th entry of the table the archive's constants.pkl pickles.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "tscript/print.h"
#include "serialize/pyprint_impl.h"

/* Nesting of constant containers the printer follows (the unpickler's own bound). */
enum { MAX_DEPTH = 1000 };

bool pp_is_identifier(const char *s)
{
    if (!*s)
        return false;
    for (size_t i = 0; s[i]; i++) {
        char c = s[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
            return false;
    }
    return true;
}

void pp_type(TsBuf *b, const TsType *t)
{
    size_t n = ts_type_annotation(t, NULL, 0);
    ts_buf_reserve(b, n);
    if (b->failed)
        return;
    ts_type_annotation(t, b->p + b->len, n + 1);
    b->len += n;
}

bool pp_inferable(const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_UNION:
    case TS_TYPE_OPTIONAL:
    case TS_TYPE_NUMBER:
    case TS_TYPE_INTERFACE:
    case TS_TYPE_ANY:
        return false;
    default:
        return true;
    }
}

bool pp_constant_of(const TsIrValue *v, TsValue *out)
{
    if (v->node->kind != ts_symbol("prim::Constant"))
        return false;
    TsError err = TS_ERROR_INIT;
    if (ts_constant_value(v->node, out, &err) != 0) {
        ts_error_clear(&err);
        return false;
    }
    return true;
}

/* ---- the constant table ------------------------------------------------------------- */

static int put_table_ref(TsPyPrinter *p, TsBuf *b, TsValue v, TsError *err)
{
    size_t k = p->n_constants;
    if (v.tag == TS_TAG_TENSOR)   /* a tensor used twice is one entry */
        for (size_t i = 0; i < p->n_constants && k == p->n_constants; i++)
            if (p->constants[i].tag == TS_TAG_TENSOR && p->constants[i].u.p == v.u.p)
                k = i;
    if (k == p->n_constants) {
        if (pp_grow((void **)&p->constants, p->n_constants, &p->cap_constants,
                    sizeof *p->constants, err))
            return -1;
        ts_value_retain(v);
        p->constants[p->n_constants++] = v;
    }
    ts_buf_printf(b, "CONSTANTS.c%zu", k);
    return 0;
}

/* Does v hold a str with a byte outside ASCII, at any depth? */
static bool has_non_ascii(TsValue v, int depth)
{
    if (depth > MAX_DEPTH)
        return false;
    switch ((TsTag)v.tag) {
    case TS_TAG_STR: {
        const TsStr *s = (const TsStr *)v.u.p;
        for (size_t i = 0; i < s->len; i++)
            if ((unsigned char)s->data[i] >= 0x80)
                return true;
        return false;
    }
    case TS_TAG_LIST:
    case TS_TAG_TUPLE: {
        const TsValue *items = v.tag == TS_TAG_LIST ? ((const TsList *)v.u.p)->items
                                                    : ((const TsTuple *)v.u.p)->items;
        size_t n = v.tag == TS_TAG_LIST ? ((const TsList *)v.u.p)->len
                                        : ((const TsTuple *)v.u.p)->len;
        for (size_t i = 0; i < n; i++)
            if (has_non_ascii(items[i], depth + 1))
                return true;
        return false;
    }
    case TS_TAG_DICT: {
        TsValue k, x;
        for (size_t pos = 0; ts_dict_next((const TsDict *)v.u.p, &pos, &k, &x);)
            if (has_non_ascii(k, depth + 1) || has_non_ascii(x, depth + 1))
                return true;
        return false;
    }
    default:
        return false;
    }
}

/* ---- literals ------------------------------------------------------------------------ */

static void put_double(TsBuf *b, double d)
{
    if (d == 0 && signbit(d)) {
        ts_buf_puts(b, "-0.");
        return;
    }
    char buf[40];
    ts_format_double(d, buf, sizeof buf);
    ts_buf_puts(b, buf);
}

static int put_value(TsPyPrinter *p, TsBuf *b, TsValue v, int depth, TsError *err);

static int put_items(TsPyPrinter *p, TsBuf *b, const TsValue *items, size_t n, int depth,
                     TsError *err)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            ts_buf_puts(b, ", ");
        if (put_value(p, b, items[i], depth + 1, err))
            return -1;
    }
    return 0;
}

static int put_list(TsPyPrinter *p, TsBuf *b, const TsList *l, int depth, TsError *err)
{
    bool annotate = l->len == 0 || !pp_inferable(l->elem_type);
    if (annotate) {
        ts_buf_puts(b, "annotate(List[");
        pp_type(b, l->elem_type);
        ts_buf_puts(b, "], ");
    }
    ts_buf_puts(b, "[");
    if (put_items(p, b, l->items, l->len, depth, err))
        return -1;
    ts_buf_puts(b, annotate ? "])" : "]");
    return 0;
}

static int put_dict(TsPyPrinter *p, TsBuf *b, const TsDict *d, int depth, TsError *err)
{
    const TsType *kt = ts_dict_key_type(d), *vt = ts_dict_value_type(d);
    bool annotate = ts_dict_len(d) == 0 || !pp_inferable(kt) || !pp_inferable(vt);
    if (annotate) {
        ts_buf_puts(b, "annotate(Dict[");
        pp_type(b, kt);
        ts_buf_puts(b, ", ");
        pp_type(b, vt);
        ts_buf_puts(b, "], ");
    }
    ts_buf_puts(b, "{");
    TsValue k, x;
    for (size_t pos = 0, i = 0; ts_dict_next(d, &pos, &k, &x); i++) {
        if (i)
            ts_buf_puts(b, ", ");
        if (put_value(p, b, k, depth + 1, err))
            return -1;
        ts_buf_puts(b, ": ");
        if (put_value(p, b, x, depth + 1, err))
            return -1;
    }
    ts_buf_puts(b, annotate ? "})" : "}");
    return 0;
}

static int put_value(TsPyPrinter *p, TsBuf *b, TsValue v, int depth, TsError *err)
{
    if (depth > MAX_DEPTH)
        return ts_error_set(err, TS_ERR_LIMIT, "a constant nests too deeply to print");
    if (v.tag == TS_TAG_TENSOR || v.tag == TS_TAG_OBJECT || has_non_ascii(v, depth))
        return put_table_ref(p, b, v, err);
    switch ((TsTag)v.tag) {
    case TS_TAG_NONE:
        ts_buf_puts(b, "None");
        return 0;
    case TS_TAG_INT:
        ts_buf_printf(b, "%" PRId64, v.u.i);
        return 0;
    case TS_TAG_BOOL:
        ts_buf_puts(b, v.u.b ? "True" : "False");
        return 0;
    case TS_TAG_DOUBLE:
        put_double(b, v.u.d);
        return 0;
    case TS_TAG_COMPLEX: {
        const TsComplex *c = (const TsComplex *)v.u.p;
        ts_format_complex(c->re, c->im, b);
        return 0;
    }
    case TS_TAG_STR: {
        const TsStr *s = (const TsStr *)v.u.p;
        ts_ir_put_quoted(b, s->data, s->len, true);
        return 0;
    }
    case TS_TAG_DEVICE: {
        char dev[64];
        ts_device_str(v.u.dev, dev, sizeof dev);
        ts_buf_printf(b, "torch.device(\"%s\")", dev);
        return 0;
    }
    case TS_TAG_ENUM: {
        const TsEnumValue *e = (const TsEnumValue *)v.u.p;
        if (pp_use_type(p, e->type, err))
            return -1;
        ts_buf_printf(b, "%s.%s", ts_type_name(e->type), e->name->data);
        return 0;
    }
    case TS_TAG_LIST:
        return put_list(p, b, (const TsList *)v.u.p, depth, err);
    case TS_TAG_DICT:
        return put_dict(p, b, (const TsDict *)v.u.p, depth, err);
    case TS_TAG_TUPLE: {
        const TsTuple *t = (const TsTuple *)v.u.p;
        if (t->type && ts_type_name(t->type)) {
            if (pp_use_type(p, t->type, err))
                return -1;
            ts_buf_puts(b, ts_type_name(t->type));
        }
        ts_buf_puts(b, "(");
        if (put_items(p, b, t->items, t->len, depth, err))
            return -1;
        ts_buf_puts(b, t->len == 1 ? ",)" : ")");
        return 0;
    }
    default: {
        char ty[128];
        ts_type_annotation(ts_value_type(v), ty, sizeof ty);
        return ts_error_set(err, TS_ERR_TYPE, "cannot save a constant of type %s", ty);
    }
    }
}

int pp_value(TsPyPrinter *p, TsBuf *b, TsValue v, TsError *err)
{
    return put_value(p, b, v, 0, err);
}
