/* emit_types.c — type annotations to types.
 *
 * Annotations are expressions: `int`, `List[int]`, `Dict[str, Tensor]`, `Optional[T]`,
 * `Union[...]`, `Tuple[...]`, `torch.Tensor`, `torch.device`, a class, NamedTuple or Enum of
 * the file, `typing.X` / `torch.jit.Future` spellings, and strings holding any of those
 * ("List[int]"). The messages are PyTorch's ("Unknown type name 'X'", "Unknown type
 * constructor Callable").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"
#include "frontend/lexer.h"
#include "frontend/parser.h"

enum { MAX_TYPE_ARGS = 64 };

const char *ts_type_text(const TsType *t, char *buf, size_t size)
{
    ts_type_annotation(t, buf, size);
    return buf;
}

/* The last component of a dotted name (torch.Tensor -> Tensor, typing.List -> List), or
 * NULL when t is neither a NAME nor an attribute. */
static const char *base_name(const TsTree *t)
{
    if (t->kind == TS_TREE_NAME)
        return t->str;
    if (t->kind == TS_TREE_ATTR && t->kids[1])
        return t->kids[1]->str;
    return NULL;
}

static const TsType *type_error(TsError *err, const TsTree *t, const char *fmt,
                                const char *name)
{
    char buf[512];
    snprintf(buf, sizeof buf, fmt, name);
    ts_error_clear(err);
    ts_error_at(err, TS_ERR_RUNTIME, t->range, "%s", buf);
    return NULL;
}

const char *ts_dict_key_error(const TsType *key, char *buf, size_t size)
{
    switch (ts_type_kind(key)) {
    case TS_TYPE_ANY: case TS_TYPE_INT: case TS_TYPE_BOOL: case TS_TYPE_FLOAT:
    case TS_TYPE_COMPLEX: case TS_TYPE_STR: case TS_TYPE_TENSOR: case TS_TYPE_DEVICE:
        return NULL;
    default: {
        char k[256];
        ts_type_repr(key, k, sizeof k);
        snprintf(buf, size, "Cannot create dict for key type '%s', only int, float, complex, "
                 "Tensor, device and string keys are supported", k);
        return buf;
    }
    }
}

static const TsType *simple_type(const char *n)
{
    static const struct { const char *name; const TsType *(*fn)(void); } tab[] = {
        { "int", ts_type_int }, { "float", ts_type_float }, { "bool", ts_type_bool },
        { "str", ts_type_str }, { "complex", ts_type_complex }, { "Tensor", ts_type_tensor },
        { "Any", ts_type_any }, { "NoneType", ts_type_none }, { "device", ts_type_device },
        { "dtype", ts_type_int }, { "Device", ts_type_device }, { "number", ts_type_number },
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (strcmp(tab[i].name, n) == 0)
            return tab[i].fn();
    return NULL;
}

static const TsType *parse_type(TsCompiler *c, const TsTree *t, TsError *err, int depth);

/* N of torch's BroadcastingListN (N 1 to 3), else 0. */
static long broadcast_n(const char *ctor)
{
    return ctor && strncmp(ctor, "BroadcastingList", 16) == 0 && ctor[16] >= '1' &&
           ctor[16] <= '3' && !ctor[17] ? ctor[16] - '0' : 0;
}

long ts_broadcast_size(const TsTree *ann)
{
    if (!ann || ann->kind != TS_TREE_SUBSCRIPT || ann->n_kids != 2)
        return -1;
    const char *ctor = base_name(ann->kids[0]);
    if (ctor && strcmp(ctor, "Optional") == 0)
        return ts_broadcast_size(ann->kids[1]);
    return broadcast_n(ctor) ? broadcast_n(ctor) : -1;
}

/* Subscripted constructors: List[T], Dict[K, V], Tuple[...], Optional[T], Union[...]. */
static const TsType *constructor(TsCompiler *c, const TsTree *t, TsError *err, int depth)
{
    const char *ctor = base_name(t->kids[0]);
    const TsTree *const *args = (const TsTree *const *)t->kids + 1;
    size_t n = t->n_kids - 1;
    if (n == 1 && args[0]->kind == TS_TREE_TUPLE) {
        n = args[0]->n_kids;
        args = (const TsTree *const *)args[0]->kids;
    }
    if (!ctor)
        return type_error(err, t, "Unknown type constructor %s", "?");
    if (n > MAX_TYPE_ARGS)
        return type_error(err, t, "too many type arguments to %s", ctor);
    const TsType *elems[MAX_TYPE_ARGS];
    bool empty_tuple = strcmp(ctor, "Tuple") == 0 && n == 1 && args[0]->kind == TS_TREE_TUPLE;
    if (!empty_tuple)
        for (size_t i = 0; i < n; i++)
            if (!(elems[i] = parse_type(c, args[i], err, depth + 1)))
                return NULL;
    if (strcmp(ctor, "List") == 0 || strcmp(ctor, "list") == 0) {
        if (n != 1)
            return type_error(err, t, "%s must have exactly one type argument", "List");
        return ts_type_list(elems[0]);
    }
    if (broadcast_n(ctor)) {
        /* BroadcastingListN[T] (torch.nn.functional's signatures): a List[T] whose
         * parameter a single T also fills, N times (its schema says T[N]) */
        if (n != 1)
            return type_error(err, t, "%s must have exactly one type argument", ctor);
        return ts_type_list(elems[0]);
    }
    if (strcmp(ctor, "Dict") == 0 || strcmp(ctor, "dict") == 0) {
        if (n != 2)
            return type_error(err, t, "%s must have exactly two type arguments", "Dict");
        char buf[512];
        if (ts_dict_key_error(elems[0], buf, sizeof buf))
            return type_error(err, t, "%s", buf);
        return ts_type_dict(elems[0], elems[1]);
    }
    if (strcmp(ctor, "Tuple") == 0 || strcmp(ctor, "tuple") == 0)
        return ts_type_tuple(empty_tuple ? 0 : n, elems);
    if (strcmp(ctor, "Optional") == 0) {
        if (n != 1)
            return type_error(err, t, "%s must have exactly one type argument", "Optional");
        return ts_type_optional(elems[0]);
    }
    if (strcmp(ctor, "Union") == 0)
        return ts_type_union(n, elems);
    if (strcmp(ctor, "Future") == 0 && n == 1)
        return ts_type_future(elems[0]);
    /* an archive's class constants; a program's Final is for a module's class body alone
     * (which Python reads), and PyTorch's frontend knows no such constructor */
    if (strcmp(ctor, "Final") == 0 && n == 1 && (!c || c->archive))
        return elems[0];
    return type_error(err, t, "Unknown type constructor %s", ctor);
}

/* A string annotation: parse its text as an expression. */
static const TsType *string_type(TsCompiler *c, const TsTree *t, TsError *err, int depth)
{
    TsSource *src = ts_source_new("<type annotation>", t->str, t->len, err);
    if (!src)
        return NULL;
    TsTree *e = ts_parse_expression(src, 0, src->len, err);
    const TsType *ty = e ? parse_type(c, e, err, depth + 1) : NULL;
    ts_tree_free(e);
    ts_source_release(src);
    return ty;
}

/* The dotted name of an attribute chain into buf; false when it is not one or too long. */
static bool dotted_name(const TsTree *t, char *buf, size_t size)
{
    if (t->kind == TS_TREE_NAME)
        return (size_t)snprintf(buf, size, "%s", t->str) < size;
    if (t->kind != TS_TREE_ATTR || !dotted_name(t->kids[0], buf, size))
        return false;
    size_t n = strlen(buf);
    return (size_t)snprintf(buf + n, size - n, ".%s", t->kids[1]->str) < size - n;
}

/* In an archive's code a dotted type is a class of the archive: __torch__.m.Cls. */
static const TsType *archive_type(TsCompiler *c, const TsTree *t, TsError *err)
{
    char q[1024];
    if (t->depth > 64 || !dotted_name(t, q, sizeof q))
        return type_error(err, t, "Unknown type name '%s'", "(a dotted name too long)");
    if (strncmp(q, "__torch__.", 10) == 0) {
        TsClassInfo *ci = ts_import_class(c, q, t->range, err);
        if (ci)
            return ci->type;
        if (err->code)
            return NULL;
    }
    if (strcmp(q, "torch.Tensor") == 0)
        return ts_type_tensor();
    ts_error_clear(err);
    ts_error_at(err, TS_ERR_RUNTIME, t->range, "Unknown type name '%s'", q);
    return NULL;
}

static const TsType *parse_type(TsCompiler *c, const TsTree *t, TsError *err, int depth)
{
    if (depth > 32)
        return type_error(err, t, "type annotation nested too deeply%s", "");
    switch (t->kind) {
    case TS_TREE_NONE:
        return ts_type_none();
    case TS_TREE_STRING:
        return string_type(c, t, err, depth);
    case TS_TREE_SUBSCRIPT: {
        const TsType *r = constructor(c, t, err, depth);
        if (!r && !err->code)    /* ts_type_list & co. fail only out of memory */
            ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return r;
    }
    case TS_TREE_NAME:
    case TS_TREE_ATTR: {
        const char *n = base_name(t);
        if (!n)
            break;
        if (c && c->archive && t->kind == TS_TREE_ATTR)
            return archive_type(c, t, err);
        if (t->kind == TS_TREE_NAME && c) {
            const TsGlobal *gl = ts_compiler_global(c, n);
            if (gl && gl->kind == TS_GLOBAL_CLASS) {
                if (ts_compiler_class(c, gl->cls, t->range, err) != 0)
                    return NULL;
                return gl->cls->type;
            }
        }
        const TsType *s = simple_type(n);
        if (s)
            return s;
        if (c && c->archive) {    /* an archive's bare List and Dict hold Tensors */
            if (strcmp(n, "List") == 0)
                return ts_type_list(ts_type_tensor());
            if (strcmp(n, "Dict") == 0)
                return ts_type_dict(ts_type_str(), ts_type_tensor());
        }
        /* a source's bare container constructor: PyTorch asks for its contained types */
        if (strcmp(n, "Dict") == 0)
            return type_error(err, t, "Attempted to use %s without contained types. Please "
                              "add contained type, e.g. Dict[int, int]", n);
        if (strcmp(n, "List") == 0 || strcmp(n, "Optional") == 0 ||
            strcmp(n, "Union") == 0 || strcmp(n, "Tuple") == 0) {
            char fmt[160];
            snprintf(fmt, sizeof fmt, "Attempted to use %%s without a contained type. Please "
                     "add a contained type, e.g. %s[int]", n);
            return type_error(err, t, fmt, n);
        }
        return type_error(err, t, "Unknown type name '%s'", n);
    }
    default:
        break;
    }
    /* PyTorch's names of the kinds */
    const char *kind = t->kind == TS_TREE_ELLIPSIS ? "dots"
                     : t->kind == TS_TREE_INT || t->kind == TS_TREE_FLOAT ? "const"
                     : t->kind == TS_TREE_STRING ? "string"
                     : t->kind == TS_TREE_LIST ? "list-literal"
                     : t->kind == TS_TREE_DICT ? "dict-literal"
                     : t->kind == TS_TREE_CALL ? "apply"
                     : t->kind == TS_TREE_BINARY && ts_token_text(t->op) ? ts_token_text(t->op)
                     : ts_tree_kind_name(t->kind);
    return type_error(err, t, "Expression of type %s cannot be used in a type expression",
                      kind);
}

const TsType *ts_compiler_type(TsCompiler *c, const TsTree *ann, TsError *err)
{
    if (ann->kind == TS_TREE_SUBSCRIPT && ann->n_kids >= 1) {
        const char *ctor = base_name(ann->kids[0]);
        if (ctor && strcmp(ctor, "Callable") == 0)
            return type_error(err, ann, "Unknown type constructor %s", ctor);
    }
    return parse_type(c, ann, err, 0);
}

const TsType *ts_compiler_type_string(TsCompiler *c, const char *text, TsError *err)
{
    TsTree t = { .kind = TS_TREE_STRING, .str = (char *)text, .len = strlen(text) };
    return string_type(c, &t, err, 0);
}

const TsType *ts_emit_type(TsEmitter *e, const TsTree *ann)
{
    return ts_compiler_type(e->c, ann, e->err);
}
