/* emit_default.c — parameter defaults: evaluated as Python evaluates them when the `def`
 * runs, then converted to the parameter's type as PyTorch converts them.
 *
 * PyTorch takes a default from the Python function object, so any expression Python can
 * evaluate at definition time works there. We evaluate the constant ones: literals,
 * tuples, arithmetic on numbers, string concatenation, math and torch constants (math.pi,
 * torch.float32), members of the file's Enums and the file's module-level constants. Lists
 * and dicts are mutable defaults, which PyTorch refuses. The value then takes the
 * parameter's type (PyTorch's toIValue): an int default of a float parameter is a float, a
 * bool one of an int parameter an int, 1 of a bool parameter True; what does not convert is
 * "Expected a default value of type T on parameter "p"".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"
#include "frontend/lexer.h"

enum { MAX_GLOBAL_DEPTH = 16 };   /* A = B, B = C, ...: and a cycle stops here too */

typedef struct DefaultCtx {
    TsEmitter *e;
    const char *param;
    const char *top;              /* the Python class of the whole default, for messages */
    int depth;
} DefaultCtx;

static int eval(DefaultCtx *c, const TsTree *t, TsValue *out);

static int not_constant(DefaultCtx *c, const TsTree *t)
{
    return ts_emit_error(c->e, t->range, "default arguments must be constants");
}

/* An int literal's magnitude when it is too big for int64: only 2**63 (negated, INT64_MIN)
 * is representable. */
bool ts_literal_is_2_63(const TsTree *t)
{
    char digits[128];
    size_t n = 0;
    for (const char *p = t->str; p && *p && n + 1 < sizeof digits; p++)
        if (*p != '_')
            digits[n++] = *p;
    digits[n] = '\0';
    int base = 10;
    const char *s = digits;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O'))
        base = 8, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, base);
    return errno == 0 && *end == '\0' && v == 1ULL << 63;
}

static int eval_tuple(DefaultCtx *c, const TsTree *t, TsValue *out)
{
    TsTuple *tup = ts_tuple_new(NULL, t->n_kids, c->e->err);
    if (!tup)
        return -1;
    for (size_t i = 0; i < t->n_kids; i++)
        if (eval(c, t->kids[i], &tup->items[i]) != 0) {
            ts_heap_release(&tup->h);
            return -1;
        }
    *out = ts_obj_value(tup, TS_TAG_TUPLE);
    return 0;
}

/* A member of an Enum of the file: Color.RED. */
static int eval_enum(DefaultCtx *c, TsClassInfo *ci, const TsTree *t, TsValue *out)
{
    TsEmitter *e = c->e;
    if (ts_compiler_class(e->c, ci, t->range, e->err) != 0)
        return -1;
    const char *name = t->kids[1]->str;
    for (size_t i = 0; i < ci->n_enum_values; i++) {
        if (strcmp(ts_type_field(ci->type, i)->name, name) != 0)
            continue;
        ts_value_retain(ci->enum_values[i]);
        TsEnumValue *en = ts_enum_value_new(ci->type, name, ci->enum_values[i], e->err);
        if (!en)
            return -1;
        *out = ts_obj_value(en, TS_TAG_ENUM);
        return 0;
    }
    return ts_emit_error(e, t->range, "'%s' has no member '%s'", ci->name, name);
}

/* A name of the file: a module-level constant, or a constant imported by name. */
static int eval_global(DefaultCtx *c, const TsTree *t, TsValue *out)
{
    if (c->e->c->archive && (strcmp(t->str, "inf") == 0 || strcmp(t->str, "nan") == 0)) {
        *out = ts_double(t->str[0] == 'i' ? INFINITY : NAN);   /* the printer's spelling */
        return 0;
    }
    const TsGlobal *g = ts_compiler_global(c->e->c, t->str);
    if (g && g->kind == TS_GLOBAL_VALUE && g->value) {
        if (c->depth >= MAX_GLOBAL_DEPTH)
            return not_constant(c, t);
        c->depth++;
        int rc = eval(c, g->value, out);
        c->depth--;
        return rc;
    }
    if (g && g->kind == TS_GLOBAL_SYMBOL) {   /* from math import pi: str is "math.pi" */
        const char *dot = strrchr(g->str, '.');
        char mod[128];
        snprintf(mod, sizeof mod, "%.*s", (int)(dot - g->str), g->str);
        if (ts_module_constant(mod, dot + 1, out))
            return 0;
    }
    return not_constant(c, t);
}

/* The dotted name of an attribute chain into buf; false when it is not one or too long. */
static bool dotted(const TsTree *t, char *buf, size_t size)
{
    if (t->kind == TS_TREE_NAME)
        return (size_t)snprintf(buf, size, "%s", t->str) < size;
    if (t->kind != TS_TREE_ATTR || t->depth > 64 || !dotted(t->kids[0], buf, size))
        return false;
    size_t n = strlen(buf);
    return (size_t)snprintf(buf + n, size - n, ".%s", t->kids[1]->str) < size - n;
}

static int eval_attr(DefaultCtx *c, const TsTree *t, TsValue *out)
{
    const TsTree *base = t->kids[0];
    char q[1024];
    if (c->e->c->archive && dotted(base, q, sizeof q) && strncmp(q, "__torch__.", 10) == 0) {
        /* an enum member of the archive: __torch__.m.Color.RED */
        TsClassInfo *ci = ts_import_class(c->e->c, q, t->range, c->e->err);
        if (ci && ci->kind == TS_CLASS_ENUM)
            return eval_enum(c, ci, t, out);
        if (c->e->err->code)
            return -1;
    }
    const TsGlobal *g = base->kind == TS_TREE_NAME ? ts_compiler_global(c->e->c, base->str)
                                                   : NULL;
    if (g && g->kind == TS_GLOBAL_CLASS && g->cls->kind == TS_CLASS_ENUM)
        return eval_enum(c, g->cls, t, out);
    if (g && g->kind == TS_GLOBAL_MODULE && ts_module_constant(g->str, t->kids[1]->str, out))
        return 0;
    return not_constant(c, t);
}

/* torch.device("cpu"): a device (the only call whose value is a constant here). */
static int eval_call(DefaultCtx *c, const TsTree *t, TsValue *out)
{
    const TsTree *f = t->kids[0];
    const TsGlobal *g = f->kind == TS_TREE_ATTR && f->kids[0]->kind == TS_TREE_NAME
                        ? ts_compiler_global(c->e->c, f->kids[0]->str) : NULL;
    if (!g || g->kind != TS_GLOBAL_MODULE || strcmp(g->str, "torch") != 0 ||
        strcmp(f->kids[1]->str, "device") != 0 || t->n_kids != 2 ||
        t->kids[1]->kind != TS_TREE_STRING)
        return not_constant(c, t);
    TsDevice d;
    if (ts_device_parse_n(t->kids[1]->str, t->kids[1]->len, &d, c->e->err) != 0) {
        char *msg = c->e->err->msg ? strdup(c->e->err->msg) : NULL;
        ts_error_clear(c->e->err);
        ts_emit_error(c->e, t->range, "%s", msg ? msg : "invalid device");
        free(msg);
        return -1;
    }
    *out = ts_device(d);
    return 0;
}

static bool is_number(TsValue v)
{
    return v.tag == TS_TAG_INT || v.tag == TS_TAG_DOUBLE || v.tag == TS_TAG_BOOL;
}

static double as_double(TsValue v)
{
    return v.tag == TS_TAG_DOUBLE ? v.u.d : v.tag == TS_TAG_BOOL ? (double)v.u.b
                                                                 : (double)v.u.i;
}

static int64_t as_int(TsValue v)
{
    return v.tag == TS_TAG_BOOL ? (int64_t)v.u.b : v.u.i;
}

static int eval_unary(DefaultCtx *c, const TsTree *t, TsValue *out)
{
    const TsTree *x = t->kids[0];
    if (t->op == TS_TK_NEG && x->kind == TS_TREE_INT && x->flag && ts_literal_is_2_63(x)) {
        *out = ts_int(INT64_MIN);
        return 0;
    }
    TsValue v;
    if (eval(c, x, &v) != 0)
        return -1;
    if (t->op == TS_TK_NOT && !ts_is_heap(v)) {
        *out = ts_bool(!(v.tag == TS_TAG_DOUBLE ? v.u.d != 0 : as_int(v) != 0));
        return 0;
    }
    if (v.tag == TS_TAG_COMPLEX && t->op != '~') {    /* -2j */
        const TsComplex *z = (const TsComplex *)v.u.p;
        TsComplex *r = t->op == TS_TK_NEG ? ts_complex_new(-z->re, -z->im, c->e->err) : NULL;
        if (r || t->op != TS_TK_NEG) {
            *out = r ? ts_obj_value(r, TS_TAG_COMPLEX) : v;
            if (r)
                ts_value_release(v);
            return 0;
        }
        ts_value_release(v);
        return -1;
    }
    if (!is_number(v)) {
        ts_value_release(v);
        return not_constant(c, t);
    }
    if (v.tag == TS_TAG_DOUBLE) {
        if (t->op == '~')
            return not_constant(c, t);
        *out = ts_double(t->op == TS_TK_NEG ? -v.u.d : v.u.d);
        return 0;
    }
    int64_t i = as_int(v);
    if (t->op == TS_TK_NEG && i == INT64_MIN)
        return ts_emit_error(c->e, t->range, "default value out of range for int64");
    *out = ts_int(t->op == TS_TK_NEG ? -i : t->op == '~' ? ~i : i);
    return 0;
}

/* Python's floor division and modulo on ints; b != 0 and not INT64_MIN / -1. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t floor_mod(int64_t a, int64_t b)
{
    int64_t m = a % b;
    return (m != 0 && (m < 0) != (b < 0)) ? m + b : m;
}

static int int_binary(DefaultCtx *c, const TsTree *t, int64_t a, int64_t b, TsValue *out)
{
    int64_t r = 0;
    bool overflow = false;
    switch (t->op) {
    case '+': overflow = __builtin_add_overflow(a, b, &r); break;
    case '-': overflow = __builtin_sub_overflow(a, b, &r); break;
    case '*': overflow = __builtin_mul_overflow(a, b, &r); break;
    case TS_TK_FLOORDIV:
    case '%':
        if (b == 0)
            return ts_emit_error(c->e, t->range, "integer division or modulo by zero");
        overflow = a == INT64_MIN && b == -1;
        if (!overflow)
            r = t->op == '%' ? floor_mod(a, b) : floor_div(a, b);
        break;
    case TS_TK_POW:
        if (b < 0) {
            *out = ts_double(pow((double)a, (double)b));
            return 0;
        }
        r = 1;   /* by squaring: a huge exponent of 0, 1 or -1 takes no time either */
        for (int64_t base = a; b > 0 && !overflow; b >>= 1) {
            if (b & 1)
                overflow = __builtin_mul_overflow(r, base, &r);
            if (b > 1 && !overflow)
                overflow = __builtin_mul_overflow(base, base, &base);
        }
        break;
    case TS_TK_LSHIFT:
        if (b < 0)
            return ts_emit_error(c->e, t->range, "negative shift count");
        overflow = b > 62 ? a != 0 : (a > (INT64_MAX >> b) || a < (INT64_MIN >> b));
        if (!overflow)
            r = (int64_t)((uint64_t)a << b);
        break;
    case TS_TK_RSHIFT:
        if (b < 0)
            return ts_emit_error(c->e, t->range, "negative shift count");
        r = b > 63 ? (a < 0 ? -1 : 0) : a >> b;
        break;
    case '&': r = a & b; break;
    case '|': r = a | b; break;
    case '^': r = a ^ b; break;
    default: return not_constant(c, t);
    }
    if (overflow)
        return ts_emit_error(c->e, t->range, "default value out of range for int64");
    *out = ts_int(r);
    return 0;
}

static int float_binary(DefaultCtx *c, const TsTree *t, double a, double b, TsValue *out)
{
    double r;
    switch (t->op) {
    case '+': r = a + b; break;
    case '-': r = a - b; break;
    case '*': r = a * b; break;
    case '/':
    case TS_TK_FLOORDIV:
    case '%':
        if (b == 0)
            return ts_emit_error(c->e, t->range, "float division by zero");
        r = t->op == '/' ? a / b : t->op == '%' ? a - floor(a / b) * b : floor(a / b);
        break;
    case TS_TK_POW: r = pow(a, b); break;
    default: return not_constant(c, t);
    }
    *out = ts_double(r);
    return 0;
}

static int eval_binary(DefaultCtx *c, const TsTree *t, TsValue *out)
{
    TsValue a, b;
    if (eval(c, t->kids[0], &a) != 0)
        return -1;
    if (eval(c, t->kids[1], &b) != 0) {
        ts_value_release(a);
        return -1;
    }
    int rc;
    if ((t->op == '+' || t->op == '-') && is_number(a) && b.tag == TS_TAG_COMPLEX) {
        /* 1.5+2.j: a complex constant (how printed code writes one) */
        const TsComplex *y = (const TsComplex *)b.u.p;
        double sign = t->op == '-' ? -1.0 : 1.0;
        TsComplex *z = ts_complex_new(as_double(a) + sign * y->re, sign * y->im, c->e->err);
        ts_value_release(b);
        if (!z)
            return -1;
        *out = ts_obj_value(z, TS_TAG_COMPLEX);
        return 0;
    }
    if (a.tag == TS_TAG_STR && b.tag == TS_TAG_STR && t->op == '+') {
        const TsStr *x = (const TsStr *)a.u.p, *y = (const TsStr *)b.u.p;
        char *buf = malloc(x->len + y->len + 1);
        TsStr *s = NULL;
        if (buf) {
            memcpy(buf, x->data, x->len);
            memcpy(buf + x->len, y->data, y->len);
            s = ts_str_new(buf, x->len + y->len, c->e->err);
            free(buf);
        } else {
            ts_error_set(c->e->err, TS_ERR_NOMEM, "out of memory");
        }
        rc = s ? 0 : -1;
        if (s)
            *out = ts_str_value(s);
    } else if (!is_number(a) || !is_number(b)) {
        rc = not_constant(c, t);
    } else if (a.tag != TS_TAG_DOUBLE && b.tag != TS_TAG_DOUBLE && t->op != '/') {
        rc = int_binary(c, t, as_int(a), as_int(b), out);
    } else {
        rc = float_binary(c, t, as_double(a), as_double(b), out);
    }
    ts_value_release(a);
    ts_value_release(b);
    return rc;
}

static int eval(DefaultCtx *c, const TsTree *t, TsValue *out);

/* A list of constants; its element type is set when it is converted to the parameter's. */
static int eval_list(DefaultCtx *c, const TsTree *t, TsValue *out)
{
    TsList *l = ts_list_new(ts_type_any(), t->n_kids, c->e->err);
    if (!l)
        return -1;
    for (size_t i = 0; i < t->n_kids; i++) {
        TsValue v;
        if (eval(c, t->kids[i], &v) != 0 || ts_list_append(l, v, c->e->err) != 0) {
            ts_heap_release(&l->h);
            return -1;
        }
    }
    *out = ts_obj_value(l, TS_TAG_LIST);
    return 0;
}

static int eval(DefaultCtx *c, const TsTree *t, TsValue *out)
{
    switch (t->kind) {
    case TS_TREE_INT:
        if (t->flag)
            return ts_emit_error(c->e, t->range, "Integral constant out of range (must fit in "
                                 "a signed 64 bit integer)");
        *out = ts_int(t->ival);
        return 0;
    case TS_TREE_FLOAT: *out = ts_double(t->fval); return 0;
    case TS_TREE_IMAG: {
        TsComplex *z = ts_complex_new(0.0, t->fval, c->e->err);
        if (!z)
            return -1;
        *out = ts_obj_value(z, TS_TAG_COMPLEX);
        return 0;
    }
    case TS_TREE_TRUE: *out = ts_bool(true); return 0;
    case TS_TREE_FALSE: *out = ts_bool(false); return 0;
    case TS_TREE_NONE: *out = ts_none(); return 0;
    case TS_TREE_STRING: {
        TsStr *s = ts_str_new(t->str, t->len, c->e->err);
        if (!s)
            return -1;
        *out = ts_str_value(s);
        return 0;
    }
    case TS_TREE_LIST:
        if (c->e->c->archive)   /* an archive's defaults come from schemas: [0, 0] is fine */
            return eval_list(c, t, out);
        /* fall through */
    case TS_TREE_LIST_COMP:
    case TS_TREE_DICT:
    case TS_TREE_DICT_COMP:
        return ts_emit_error(c->e, t->range, "Mutable default parameters are not supported "
                             "because Python binds them to the function and they persist "
                             "across function calls.\n As a workaround, make the default None "
                             "and instantiate the default parameter within the body of the "
                             "function. Found <class '%s'> on parameter %s", c->top, c->param);
    case TS_TREE_TUPLE: return eval_tuple(c, t, out);
    case TS_TREE_UNARY: return eval_unary(c, t, out);
    case TS_TREE_BINARY: return eval_binary(c, t, out);
    case TS_TREE_NAME: return eval_global(c, t, out);
    case TS_TREE_ATTR: return eval_attr(c, t, out);
    case TS_TREE_CALL: return eval_call(c, t, out);
    default: return not_constant(c, t);
    }
}

/* ---- conversion to the parameter's type ------------------------------------------------- */

static bool convert(TsValue v, const TsType *type, TsError *err, TsValue *out);

static bool convert_tuple(TsValue v, const TsType *type, TsError *err, TsValue *out)
{
    const TsTuple *src = (const TsTuple *)v.u.p;
    if (src->len != ts_type_num_elems(type))
        return false;
    TsTuple *tup = ts_tuple_new(NULL, src->len, err);
    if (!tup)
        return false;
    for (size_t i = 0; i < src->len; i++)
        if (!convert(src->items[i], ts_type_elem(type, i), err, &tup->items[i])) {
            ts_heap_release(&tup->h);   /* the items not converted are still None */
            return false;
        }
    *out = ts_obj_value(tup, TS_TAG_TUPLE);
    return true;
}

static bool convert_list(TsValue v, const TsType *type, TsError *err, TsValue *out)
{
    const TsList *src = (const TsList *)v.u.p;
    const TsType *et = ts_type_elem(type, 0);
    TsList *l = ts_list_new(et, src->len, err);
    if (!l)
        return false;
    for (size_t i = 0; i < src->len; i++) {
        TsValue x;
        if (!convert(src->items[i], et, err, &x) || ts_list_append(l, x, err) != 0) {
            ts_heap_release(&l->h);
            return false;
        }
    }
    *out = ts_obj_value(l, TS_TAG_LIST);
    return true;
}

/* v as a value of type (a new reference), or false. */
static bool convert(TsValue v, const TsType *type, TsError *err, TsValue *out)
{
    switch (ts_type_kind(type)) {
    case TS_TYPE_ANY:
        ts_value_retain(v);
        *out = v;
        return true;
    case TS_TYPE_OPTIONAL:
        if (v.tag == TS_TAG_NONE) {
            *out = v;
            return true;
        }
        return convert(v, ts_type_elem(type, 0), err, out);
    case TS_TYPE_UNION:
        for (size_t i = 0; i < ts_type_num_elems(type); i++)
            if (convert(v, ts_type_elem(type, i), err, out))
                return true;
        return false;
    case TS_TYPE_NONE:
        *out = v;
        return v.tag == TS_TAG_NONE;
    case TS_TYPE_INT:
    case TS_TYPE_SCALARTYPE:
    case TS_TYPE_LAYOUT:
    case TS_TYPE_MEMORYFORMAT:
        *out = ts_int(as_int(v));
        return v.tag == TS_TAG_INT || v.tag == TS_TAG_BOOL;
    case TS_TYPE_FLOAT:
        *out = ts_double(as_double(v));
        return is_number(v);
    case TS_TYPE_BOOL:
        *out = ts_bool(as_int(v) != 0);
        return v.tag == TS_TAG_BOOL || v.tag == TS_TAG_INT;
    case TS_TYPE_NUMBER:
    case TS_TYPE_COMPLEX:
        if (v.tag == TS_TAG_COMPLEX) {
            ts_value_retain(v);
            *out = v;
            return true;
        }
        if (ts_type_kind(type) == TS_TYPE_NUMBER || !is_number(v)) {
            *out = v;
            return is_number(v);
        }
        TsComplex *z = ts_complex_new(as_double(v), 0.0, err);   /* a: complex = 2 */
        *out = z ? ts_obj_value(z, TS_TAG_COMPLEX) : ts_none();
        return z != NULL;
    case TS_TYPE_STR:
        ts_value_retain(v);
        *out = v;
        return v.tag == TS_TAG_STR;
    case TS_TYPE_TUPLE:
        return v.tag == TS_TAG_TUPLE && convert_tuple(v, type, err, out);
    case TS_TYPE_LIST:
        return v.tag == TS_TAG_LIST && convert_list(v, type, err, out);
    case TS_TYPE_DEVICE:
        *out = v;
        return v.tag == TS_TAG_DEVICE;
    case TS_TYPE_ENUM:
        if (v.tag != TS_TAG_ENUM || ((const TsEnumValue *)v.u.p)->type != type)
            return false;
        ts_value_retain(v);
        *out = v;
        return true;
    default:
        return false;
    }
}

int ts_emit_default(TsEmitter *e, const TsTree *t, const char *param, const TsType *type,
                    bool inferred, TsValue *out)
{
    DefaultCtx c = { .e = e, .param = param,
                     .top = t->kind == TS_TREE_TUPLE ? "tuple"
                            : t->kind == TS_TREE_DICT || t->kind == TS_TREE_DICT_COMP ? "dict"
                            : "list" };
    TsValue v;
    if (eval(&c, t, &v) != 0)
        return -1;
    bool ok = convert(v, type, e->err, out);
    ts_value_release(v);
    if (ok)
        return 0;
    if (e->err->code != TS_OK)
        return -1;
    if (ts_type_kind(type) == TS_TYPE_TENSOR && v.tag == TS_TAG_NONE)
        return ts_emit_error(e, t->range, "Unsupported value kind: Tensor");
    char b[256];
    ts_type_text(type, b, sizeof b);
    if (inferred)
        return ts_emit_error(e, t->range, "Expected a default value of type %s (inferred) on "
                             "parameter \"%s\".Because \"%s\" was not annotated with an "
                             "explicit type it is assumed to be type '%s'.", b, param, param,
                             b);
    return ts_emit_error(e, t->range, "Expected a default value of type %s on parameter "
                         "\"%s\".", b, param);
}
