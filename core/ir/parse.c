/* parse.c — reads the canonical graph text (print.c's output, PyTorch's IR text) back into a
 * Graph, so tests and users can write graphs by hand.
 *
 * A recursive-descent parser straight over the text: whitespace and newlines separate
 * tokens, "# ..." runs to the end of the line, and indentation carries no meaning (a node's
 * blocks are the "blockN(...):" sections that follow it, each ending at its "-> (...)").
 * Value names are kept exactly as written and are the scope: a use must name a value
 * already defined. Every node points into the text (its range), and every error says
 * file:line:col and shows the line with a marker.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/graph_internal.h"

#define MAX_DEPTH 200

typedef struct Parser {
    TsSource *src;
    const char *s;
    size_t pos;
    TsError *err;
    int depth;
} Parser;

/* Per graph: the nodes whose kind ends in "_N" (maybe "with" groups), in program order,
 * and how many "with" sections it has taken. */
typedef struct GraphState {
    TsGraph *g;
    TsNode **cands;
    size_t n_cands, cap_cands;
    size_t n_groups;
    bool saw_dynamic, saw_tensor;
} GraphState;

/* ---- errors ------------------------------------------------------------------------ */
__attribute__((format(printf, 4, 5)))
static int fail(Parser *p, size_t start, size_t end, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    size_t line, col;
    ts_source_line_col(p->src, start, &line, &col);
    TsSourceRange r = {p->src, start, end > start ? end : start + 1};
    return ts_error_at(p->err, TS_ERR_SYNTAX, r, "%s:%zu:%zu: %s", p->src->filename, line, col,
                       what);
}

static int nomem(Parser *p)
{
    return ts_error_set(p->err, TS_ERR_NOMEM, "out of memory");
}

/* ---- tokens ------------------------------------------------------------------------ */
static void skip_ws(Parser *p)
{
    for (;;) {
        char c = p->s[p->pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            p->pos++;
        } else if (c == '#') {
            while (p->s[p->pos] && p->s[p->pos] != '\n')
                p->pos++;
        } else {
            return;
        }
    }
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Length of the token at pos, for "found '...'" in messages. */
static size_t token_len(const Parser *p, size_t at)
{
    const char *s = p->s + at;
    if (!*s)
        return 0;
    size_t n = 0;
    if (is_ident_char(*s) || *s == '%') {
        n = 1;
        while (is_ident_char(s[n]) || s[n] == '.' || s[n] == ':')
            n++;
        return n;
    }
    return s[0] == '-' && s[1] == '>' ? 2 : 1;
}

static int expected(Parser *p, const char *what)
{
    size_t n = token_len(p, p->pos);
    if (!n)
        return fail(p, p->pos, p->pos, "expected %s but found end of input", what);
    return fail(p, p->pos, p->pos + n, "expected %s but found '%.*s'", what, (int)(n > 40 ? 40 : n),
                p->s + p->pos);
}

/* Is the next token the punctuation or word tok? Consumes it if so. */
static bool accept(Parser *p, const char *tok)
{
    skip_ws(p);
    size_t n = strlen(tok);
    if (strncmp(p->s + p->pos, tok, n) != 0)
        return false;
    if (is_ident_char(tok[n - 1]) && is_ident_char(p->s[p->pos + n]))
        return false;
    p->pos += n;
    return true;
}

static int expect(Parser *p, const char *tok)
{
    if (accept(p, tok))
        return 0;
    char what[32];
    snprintf(what, sizeof what, "'%s'", tok);
    return expected(p, what);
}

static bool peek_is(Parser *p, const char *tok)
{
    size_t save = p->pos;
    bool yes = accept(p, tok);
    p->pos = save;
    return yes;
}

/* An identifier (with extra characters allowed after the first: "." for qualified names). */
static size_t scan_word(Parser *p, const char *extra)
{
    skip_ws(p);
    const char *s = p->s + p->pos;
    if (!is_ident_start(*s))
        return 0;
    size_t n = 1;
    while (is_ident_char(s[n]) || (s[n] && strchr(extra, s[n])))
        n++;
    return n;
}

static char *take(Parser *p, size_t n)
{
    char *w = strndup(p->s + p->pos, n);
    if (!w)
        nomem(p);
    p->pos += n;
    return w;
}

/* A value reference after '%': letters, digits, '_' and '.'. */
static char *value_name(Parser *p, size_t *start)
{
    skip_ws(p);
    *start = p->pos;
    if (p->s[p->pos] != '%') {
        expected(p, "a value ('%name')");
        return NULL;
    }
    size_t n = 0;
    const char *s = p->s + p->pos + 1;
    while (is_ident_char(s[n]) || s[n] == '.')
        n++;
    if (!n) {
        fail(p, p->pos, p->pos + 1, "expected a value name after '%%'");
        return NULL;
    }
    p->pos++;
    return take(p, n);
}

static TsIrValue *lookup(Parser *p, GraphState *st)
{
    size_t start;
    char *name = value_name(p, &start);
    if (!name)
        return NULL;
    TsNameEntry *e = ts_namemap_find(&st->g->names, name);
    if (!e)
        fail(p, start, p->pos, "undefined value '%%%s'", name);
    free(name);
    return e ? e->value : NULL;
}

/* ---- numbers ----------------------------------------------------------------------- */
typedef struct Number {
    bool is_float;
    int64_t i;
    double f;
} Number;

static int number(Parser *p, Number *out)
{
    skip_ws(p);
    const char *s = p->s + p->pos;
    size_t start = p->pos;
    bool neg = *s == '-';
    const char *q = s + neg;
    if (strncmp(q, "inf", 3) == 0 || strncmp(q, "nan", 3) == 0) {
        out->is_float = true;
        out->f = q[0] == 'i' ? INFINITY : NAN;
        if (neg)
            out->f = -out->f;
        p->pos += (size_t)(q + 3 - s);
        return 0;
    }
    if (!(*q >= '0' && *q <= '9') && !(*q == '.' && q[1] >= '0' && q[1] <= '9'))
        return expected(p, "a number");
    const char *t = q;
    while (*t >= '0' && *t <= '9')
        t++;
    bool is_float = *t == '.' || *t == 'e' || *t == 'E';
    char *end;
    errno = 0;
    if (is_float) {
        out->f = strtod(s, &end);
        out->is_float = true;
    } else {
        out->i = strtoll(s, &end, 10);
        out->is_float = false;
        if (errno == ERANGE)
            return fail(p, start, (size_t)(end - p->s), "integer out of range");
    }
    if (end == s)
        return expected(p, "a number");
    p->pos = (size_t)(end - p->s);
    return 0;
}

/* ---- types ------------------------------------------------------------------------- */
static const TsType *parse_type(Parser *p, GraphState *st, bool whole);

static int type_list(Parser *p, GraphState *st, const char *close, const TsType ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    if (accept(p, close))
        return 0;
    do {
        const TsType *t = parse_type(p, st, false);
        if (!t)
            return p->err->code;
        if (*n == cap) {
            cap = cap ? cap * 2 : 4;
            const TsType **nt = realloc(*out, cap * sizeof *nt);
            if (!nt)
                return nomem(p);
            *out = nt;
        }
        (*out)[(*n)++] = t;
    } while (accept(p, ","));
    return expect(p, close);
}

/* The dtype of "Float" or, with_suffix, of "FloatTensor" (how the printer spells a tensor of
 * known dtype and unknown rank); -1 for any other word. */
static int dtype_by_name(const char *w, bool with_suffix)
{
    size_t n = strlen(w);
    if (with_suffix) {
        if (n <= 6 || strcmp(w + n - 6, "Tensor") != 0)
            return -1;
        n -= 6;
    }
    for (int d = 0; d < TS_DTYPE__COUNT; d++) {
        const char *name = ts_dtype_type_name(d);
        if (name && strlen(name) == n && strncmp(name, w, n) == 0)
            return d;
    }
    return -1;
}

/* "Float(2, *, strides=[3, 1], requires_grad=0, device=cpu)": the parenthesized part after
 * a dtype name or "Tensor". After "FloatTensor", the printer's spelling of a tensor of
 * unknown rank (unranked), only requires_grad and device may follow. */
static const TsType *tensor_refinement(Parser *p, int dtype, bool has_parens, bool unranked)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    TsTensorTypeInfo info = {dtype, -1, -1, -1, NULL, NULL, -1};
    int n_strides = -1;
    if (!has_parens)
        return ts_type_tensor_refined(&info);
    info.dim = 0;
    if (!accept(p, ")")) {
        do {
            skip_ws(p);
            size_t at = p->pos;
            size_t w = scan_word(p, "");
            if (w) {
                char *key = take(p, w);
                if (!key || expect(p, "=") != 0) {
                    free(key);
                    return NULL;
                }
                int rc = 0;
                if (strcmp(key, "strides") == 0) {
                    rc = expect(p, "[");
                    n_strides = 0;
                    while (!rc && !accept(p, "]")) {
                        Number num;
                        if (n_strides && (rc = expect(p, ",")) != 0)
                            break;
                        if ((rc = number(p, &num)) != 0)
                            break;
                        if (n_strides == TS_TENSOR_MAX_DIMS || num.is_float)
                            rc = fail(p, at, p->pos, "bad strides");
                        else
                            strides[n_strides++] = num.i;
                    }
                } else if (strcmp(key, "requires_grad") == 0) {
                    Number num;
                    rc = number(p, &num);
                    if (!rc && (num.is_float || (num.i != 0 && num.i != 1)))
                        rc = fail(p, at, p->pos, "requires_grad must be 0 or 1");
                    info.requires_grad = (int)num.i;
                } else if (strcmp(key, "device") == 0) {
                    size_t dw = scan_word(p, ":0123456789");
                    char *dev = dw ? take(p, dw) : NULL;
                    TsDevice d;
                    TsError derr = TS_ERROR_INIT;
                    if (!dev)
                        rc = expected(p, "a device");
                    else if (ts_device_parse(dev, &d, &derr) != 0)
                        rc = fail(p, p->pos - dw, p->pos, "unknown device '%s'", dev);
                    else {
                        info.device_type = d.type;
                        info.device_index = d.index;
                    }
                    ts_error_clear(&derr);
                    free(dev);
                } else {
                    rc = fail(p, at, at + w, "unknown tensor property '%s'", key);
                }
                free(key);
                if (rc)
                    return NULL;
            } else if (accept(p, "*")) {
                if (info.dim == TS_TENSOR_MAX_DIMS) {
                    fail(p, at, p->pos, "too many dimensions");
                    return NULL;
                }
                sizes[info.dim++] = -1;
            } else {
                Number num;
                if (number(p, &num) != 0)
                    return NULL;
                if (num.is_float || num.i < 0 || info.dim == TS_TENSOR_MAX_DIMS) {
                    fail(p, at, p->pos, "bad tensor size");
                    return NULL;
                }
                sizes[info.dim++] = num.i;
            }
        } while (accept(p, ","));
        if (expect(p, ")") != 0)
            return NULL;
    }
    if (unranked && (info.dim > 0 || n_strides >= 0)) {
        fail(p, p->pos - 1, p->pos, "a tensor of unknown rank has no sizes or strides");
        return NULL;
    }
    if (n_strides >= 0 && n_strides != info.dim) {
        fail(p, p->pos - 1, p->pos, "%d strides for %d dimensions", n_strides, info.dim);
        return NULL;
    }
    if (unranked)
        info.dim = -1;
    info.sizes = sizes;
    info.strides = n_strides >= 0 ? strides : NULL;
    const TsType *t = ts_type_tensor_refined(&info);
    if (!t)
        nomem(p);
    return t;
}

static const TsType *singleton(const char *w)
{
    static const struct { const char *name; const TsType *(*get)(void); } table[] = {
        {"int", ts_type_int}, {"float", ts_type_float}, {"complex", ts_type_complex},
        {"bool", ts_type_bool}, {"str", ts_type_str}, {"NoneType", ts_type_none},
        {"Any", ts_type_any}, {"Device", ts_type_device}, {"Scalar", ts_type_number},
        {"ScalarType", ts_type_scalartype}, {"Layout", ts_type_layout},
        {"MemoryFormat", ts_type_memoryformat}, {"Stream", ts_type_stream},
        {"Generator", ts_type_generator}, {"Storage", ts_type_storage},
        {"QScheme", ts_type_qscheme}, {"Capsule", ts_type_capsule},
        {"AnyList", ts_type_any_list}, {"AnyTuple", ts_type_any_tuple},
        {"AnyClassType", ts_type_any_class}, {"AnyEnumType", ts_type_any_enum},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].name, w) == 0)
            return table[i].get();
    return NULL;
}

static const TsType *type_atom(Parser *p, GraphState *st, bool whole)
{
    skip_ws(p);
    size_t at = p->pos;
    const TsType **elems = NULL;
    size_t n = 0;
    const TsType *t = NULL;
    if (accept(p, "(")) {
        if (type_list(p, st, ")", &elems, &n) == 0 && !(t = ts_type_tuple(n, elems)))
            nomem(p);
        free(elems);
        return t;
    }
    size_t w = scan_word(p, ".");
    if (!w) {
        expected(p, "a type");
        return NULL;
    }
    char *word = take(p, w);
    if (!word)
        return NULL;
    int dtype;
    if (strcmp(word, "Dynamic") == 0) {
        if (!whole || peek_is(p, "[") || peek_is(p, "?"))
            fail(p, at, at + w, "'Dynamic' is only supported as a whole value type");
        else if (st->saw_tensor)
            fail(p, at, at + w, "a graph spells the Tensor type 'Tensor' or 'Dynamic', not both");
        else
            t = ts_type_tensor();
        st->saw_dynamic = true;
    } else if (strcmp(word, "Tensor") == 0) {
        st->saw_tensor = true;
        if (st->saw_dynamic)
            fail(p, at, at + w, "a graph spells the Tensor type 'Tensor' or 'Dynamic', not both");
        else if (accept(p, "("))
            t = tensor_refinement(p, -1, true, false);
        else
            t = ts_type_tensor();
    } else if ((t = singleton(word))) {
        /* done */
    } else if ((dtype = dtype_by_name(word, false)) >= 0) {
        /* as in PyTorch, a dtype name starts a refinement: "Float(2, 3)", "Long()" */
        if (expect(p, "(") == 0)
            t = tensor_refinement(p, dtype, true, false);
    } else if ((dtype = dtype_by_name(word, true)) >= 0) {
        bool parens = accept(p, "(");
        t = tensor_refinement(p, dtype, parens, true);
    } else if (strcmp(word, "Dict") == 0 || strcmp(word, "Union") == 0 ||
               strcmp(word, "Future") == 0 || strcmp(word, "RRef") == 0) {
        const char *close = accept(p, "[") ? "]" : (expect(p, "(") == 0 ? ")" : NULL);
        if (close && type_list(p, st, close, &elems, &n) == 0) {
            bool dict = word[0] == 'D', uni = word[0] == 'U';
            if ((dict && n != 2) || (uni && n < 2) || (!dict && !uni && n != 1))
                fail(p, at, p->pos, "wrong number of types in %s", word);
            else if (!(t = dict ? ts_type_dict(elems[0], elems[1])
                          : uni ? ts_type_union(n, elems)
                          : word[0] == 'F' ? ts_type_future(elems[0]) : ts_type_rref(elems[0])))
                nomem(p);
        }
        free(elems);
    } else if (!(t = ts_type_lookup(word))) {
        fail(p, at, at + w, "unknown type '%s'", word);
    }
    free(word);
    return t;
}

static const TsType *parse_type(Parser *p, GraphState *st, bool whole)
{
    if (++p->depth > MAX_DEPTH) {
        ts_error_set(p->err, TS_ERR_LIMIT, "IR text nested too deeply");
        return NULL;
    }
    const TsType *t = type_atom(p, st, whole);
    while (t) {
        if (accept(p, "[")) {
            if (expect(p, "]") != 0)
                t = NULL;
            else if (!(t = ts_type_list(t)))
                nomem(p);
        } else if (accept(p, "?")) {
            if (!(t = ts_type_optional(t)))
                nomem(p);
        } else {
            break;
        }
    }
    p->depth--;
    return t;
}

/* ---- attributes ------------------------------------------------------------------- */
static int string_literal(Parser *p, char **out)
{
    skip_ws(p);
    size_t start = p->pos;
    if (p->s[p->pos] != '"')
        return expected(p, "a string");
    size_t cap = 16, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return nomem(p);
    p->pos++;
    for (;;) {
        char c = p->s[p->pos];
        if (!c || c == '\n') {
            free(buf);
            return fail(p, start, p->pos, "unterminated string");
        }
        p->pos++;
        if (c == '"')
            break;
        if (c == '\\') {
            char e = p->s[p->pos++];
            switch (e) {
            case '\\': case '\'': case '"': c = e; break;
            case 'a': c = '\a'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'v': c = '\v'; break;
            default: c = 0;
            }
            if (c) {
                /* a simple escape */
            } else if (e >= '0' && e <= '7') {
                int v = e - '0';
                for (int k = 0; k < 2 && p->s[p->pos] >= '0' && p->s[p->pos] <= '7'; k++)
                    v = v * 8 + (p->s[p->pos++] - '0');
                if (v == 0 || v > 255) {
                    free(buf);
                    return fail(p, start, p->pos, "a string attribute cannot hold byte %d", v);
                }
                c = (char)v;
            } else {
                free(buf);
                return fail(p, p->pos - 2, p->pos, "unknown escape '\\%c'", e ? e : ' ');
            }
        }
        if (len + 2 > cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                return nomem(p);
            }
            buf = nb;
        }
        buf[len++] = c;
    }
    buf[len] = '\0';
    *out = buf;
    return 0;
}

static void *host_alloc(TsAllocator *self, size_t nbytes, TsDevice device)
{
    (void)self;
    (void)device;
    return malloc(nbytes ? nbytes : 1);
}

static void host_free(TsAllocator *self, void *ptr, size_t nbytes, TsDevice device)
{
    (void)self;
    (void)nbytes;
    (void)device;
    free(ptr);
}

/* Tensor constants parsed from text ("{1}") live in plain host memory. */
static TsAllocator host_allocator = {"ir-text", host_alloc, host_free, NULL, NULL, NULL, NULL};

static int tensor_literal(Parser *p, TsAttr *a)
{
    Number num;
    if (number(p, &num) != 0 || expect(p, "}") != 0)
        return p->err->code;
    TsDevice cpu = {TS_DEV_CPU, -1};
    TsTensor *t = ts_tensor_empty(&host_allocator, cpu, num.is_float ? TS_FLOAT64 : TS_INT64, 0,
                                  NULL, p->err);
    if (!t)
        return p->err->code;
    if (num.is_float)
        *(double *)ts_tensor_data(t) = num.f;
    else
        *(int64_t *)ts_tensor_data(t) = num.i;
    a->kind = TS_ATTR_TENSOR;
    a->u.t = t;
    return 0;
}

/* Lists hold ints, floats (ints are widened when a float appears) or strings. */
static int list_literal(Parser *p, TsAttr *a)
{
    size_t cap = 0, start = p->pos;
    a->kind = TS_ATTR_INTS;
    a->n = 0;
    if (accept(p, "]"))
        return (a->u.is = malloc(1)) ? 0 : nomem(p);
    do {
        if (a->n == cap) {
            cap = cap ? cap * 2 : 4;
            /* strings, ints and doubles share the one array: size it for the widest */
            size_t elem = sizeof(char *) > sizeof(double) ? sizeof(char *) : sizeof(double);
            void *np = realloc(a->u.ss, cap * elem);
            if (!np)
                return nomem(p);
            a->u.ss = np;
        }
        skip_ws(p);
        if (p->s[p->pos] == '"') {
            if (a->n && a->kind != TS_ATTR_STRS)
                return fail(p, start, p->pos, "a list attribute mixes strings and numbers");
            a->kind = TS_ATTR_STRS;
            if (string_literal(p, &a->u.ss[a->n]) != 0)
                return p->err->code;
            a->n++;
            continue;
        }
        if (a->kind == TS_ATTR_STRS)
            return fail(p, start, p->pos, "a list attribute mixes strings and numbers");
        Number num;
        if (number(p, &num) != 0)
            return p->err->code;
        if (num.is_float && a->kind == TS_ATTR_INTS) {
            for (size_t i = 0; i < a->n; i++)
                a->u.fs[i] = (double)a->u.is[i];
            a->kind = TS_ATTR_FLOATS;
        }
        if (a->kind == TS_ATTR_FLOATS)
            a->u.fs[a->n++] = num.is_float ? num.f : (double)num.i;
        else
            a->u.is[a->n++] = num.i;
    } while (accept(p, ","));
    return expect(p, "]");
}

static int attr_value(Parser *p, TsAttr *a)
{
    skip_ws(p);
    char c = p->s[p->pos];
    if (c == '"') {
        a->kind = TS_ATTR_STR;
        return string_literal(p, &a->u.s);
    }
    if (accept(p, "["))
        return list_literal(p, a);
    if (accept(p, "{"))
        return tensor_literal(p, a);
    Number num;
    if (number(p, &num) != 0)
        return p->err->code;
    /* complex: "2.j", "3.+2.j", "1.5-2.j" */
    if (p->s[p->pos] == 'j' || ((p->s[p->pos] == '+' || p->s[p->pos] == '-') &&
                                strchr("0123456789.in", p->s[p->pos + 1]))) {
        double re = num.is_float ? num.f : (double)num.i, im = re;
        a->kind = TS_ATTR_COMPLEX;
        if (p->s[p->pos] == 'j') {
            re = 0;
        } else {
            Number imn;
            if (p->s[p->pos] == '+')
                p->pos++;
            if (number(p, &imn) != 0)
                return p->err->code;
            im = imn.is_float ? imn.f : (double)imn.i;
            if (p->s[p->pos] != 'j')
                return expected(p, "'j'");
        }
        p->pos++;
        a->u.c[0] = re;
        a->u.c[1] = im;
        return 0;
    }
    a->kind = num.is_float ? TS_ATTR_FLOAT : TS_ATTR_INT;
    if (num.is_float)
        a->u.f = num.f;
    else
        a->u.i = num.i;
    return 0;
}

static int parse_attrs(Parser *p, TsNode *n)
{
    if (accept(p, "]"))
        return 0;
    do {
        skip_ws(p);
        size_t at = p->pos;
        size_t w = scan_word(p, "");
        if (!w)
            return expected(p, "an attribute name");
        char name[128];
        if (w + 7 > sizeof name)
            return fail(p, at, at + w, "attribute name too long");
        snprintf(name, sizeof name, "attr::%.*s", (int)w, p->s + at);
        p->pos += w;
        if (expect(p, "=") != 0)
            return p->err->code;
        TsAttr a;
        memset(&a, 0, sizeof a);
        a.name = ts_symbol(name);
        if (!a.name)
            return nomem(p);
        if (ts_node_attr(n, a.name))
            return fail(p, at, at + w, "attribute '%.*s' given twice", (int)w, p->s + at);
        int rc = attr_value(p, &a);
        if (rc == 0)
            rc = ts_node_set_attr(n, &a, p->err);
        ts_attr_clear(&a);
        if (rc)
            return rc;
    } while (accept(p, ","));
    return expect(p, "]");
}

/* ---- nodes and blocks -------------------------------------------------------------- */
/* "%name : Type" (the type may be left out: Tensor), defined as a new output of n. */
static int define(Parser *p, GraphState *st, TsNode *n)
{
    size_t start;
    char *name = value_name(p, &start);
    if (!name)
        return p->err->code;
    int rc = 0;
    const TsType *t = ts_type_tensor();
    if (ts_namemap_find(&st->g->names, name))
        rc = fail(p, start, p->pos, "value '%%%s' is defined twice", name);
    else if (accept(p, ":") && !(t = parse_type(p, st, true)))
        rc = p->err->code;
    TsIrValue *v = rc ? NULL : ts_node_add_output(n, t, p->err);
    if (!rc && (!v || ts_irvalue_set_name(v, name, true, p->err) != 0))
        rc = p->err->code;
    free(name);
    return rc;
}

static int parse_nodes(Parser *p, GraphState *st, TsBlock *b, const char *end);

static int parse_refs(Parser *p, GraphState *st, TsNode *n)
{
    if (expect(p, "(") != 0)
        return p->err->code;
    if (accept(p, ")"))
        return 0;
    do {
        TsIrValue *v = lookup(p, st);
        if (!v || ts_node_add_input(n, v, p->err) != 0)
            return p->err->code;
    } while (accept(p, ","));
    return expect(p, ")");
}

static int parse_block(Parser *p, GraphState *st, TsNode *owner)
{
    TsBlock *b = ts_node_add_block(owner, p->err);
    if (!b || expect(p, "(") != 0)
        return p->err->code;
    if (!accept(p, ")")) {
        do
            if (define(p, st, b->param) != 0)
                return p->err->code;
        while (accept(p, ","));
        if (expect(p, ")") != 0)
            return p->err->code;
    }
    if (expect(p, ":") != 0 || parse_nodes(p, st, b, "->") != 0 || expect(p, "->") != 0)
        return p->err->code;
    return parse_refs(p, st, b->ret);
}

static bool is_group_candidate(const char *kind)
{
    const char *u = strrchr(kind, '_');
    if (!u || !u[1])
        return false;
    for (u++; *u; u++)
        if (*u < '0' || *u > '9')
            return false;
    return true;
}

static int parse_node(Parser *p, GraphState *st, TsBlock *b)
{
    skip_ws(p);
    size_t start = p->pos;
    TsNode *n = ts_graph_create(st->g, ts_symbol("prim::Param"), 0, p->err);
    if (!n)
        return p->err->code;
    ts_node_insert_before(n, b->ret);
    if (!peek_is(p, "=")) {
        do
            if (define(p, st, n) != 0)
                return p->err->code;
        while (accept(p, ","));
    }
    if (expect(p, "=") != 0)
        return p->err->code;
    skip_ws(p);
    size_t at = p->pos, w = scan_word(p, "");
    if (!w || strncmp(p->s + at + w, "::", 2) != 0 || !is_ident_char(p->s[at + w + 2]))
        return expected(p, "an operator ('ns::name')");
    w += 2;
    while (is_ident_char(p->s[at + w]))
        w++;
    char *kind = take(p, w);
    if (!kind)
        return p->err->code;
    n->kind = ts_symbol(kind);
    free(kind);
    if (!n->kind)
        return nomem(p);
    if (accept(p, "[") && parse_attrs(p, n) != 0)
        return p->err->code;
    if (parse_refs(p, st, n) != 0)
        return p->err->code;
    ts_node_set_range(n, (TsSourceRange){p->src, start, p->pos});
    if (is_group_candidate(n->kind)) {
        TsNode **nc = realloc(st->cands, (st->n_cands + 1) * sizeof *nc);
        if (!nc)
            return nomem(p);
        st->cands = nc;
        st->cands[st->n_cands++] = n;
    }
    for (;;) {
        skip_ws(p);
        if (strncmp(p->s + p->pos, "block", 5) != 0 || !is_ident_char(p->s[p->pos + 5]))
            break;
        size_t bw = scan_word(p, "");
        char want[32];
        snprintf(want, sizeof want, "block%zu", n->n_blocks);
        if (bw != strlen(want) || strncmp(p->s + p->pos, want, bw) != 0)
            return expected(p, want);
        p->pos += bw;
        if (++p->depth > MAX_DEPTH)
            return ts_error_set(p->err, TS_ERR_LIMIT, "IR text nested too deeply");
        if (parse_block(p, st, n) != 0)
            return p->err->code;
        p->depth--;
    }
    return 0;
}

static int parse_nodes(Parser *p, GraphState *st, TsBlock *b, const char *end)
{
    for (;;) {
        skip_ws(p);
        if (peek_is(p, end))
            return 0;
        if (!p->s[p->pos] || (p->s[p->pos] != '%' && p->s[p->pos] != '=')) {
            char what[64];
            snprintf(what, sizeof what, "a node or '%s'", end);
            return expected(p, what);
        }
        if (parse_node(p, st, b) != 0)
            return p->err->code;
    }
}

static TsGraph *parse_graph(Parser *p);

/* "with prim::FusionGroup_0 = graph(...)": the next group of this graph, if it is. */
static int parse_withs(Parser *p, GraphState *st)
{
    for (;;) {
        size_t save = p->pos;
        if (!accept(p, "with"))
            return 0;
        skip_ws(p);
        size_t at = p->pos, w = 0;
        while (is_ident_char(p->s[at + w]) || p->s[at + w] == ':')
            w++;
        char want[256];
        TsNode *group = NULL;
        for (size_t i = 0; i < st->n_cands && !group; i++) {
            snprintf(want, sizeof want, "_%zu", st->n_groups);
            const char *k = st->cands[i]->kind;
            size_t kl = strlen(k), sl = strlen(want);
            if (kl == w && strncmp(k, p->s + at, w) == 0 && kl > sl &&
                strcmp(k + kl - sl, want) == 0)
                group = st->cands[i];
        }
        if (!group) {
            p->pos = save;
            return 0;
        }
        p->pos += w;
        if (expect(p, "=") != 0)
            return p->err->code;
        TsGraph *sub = parse_graph(p);
        if (!sub)
            return p->err->code;
        size_t base = strlen(group->kind) - strlen(want);
        snprintf(want, sizeof want, "%.*s", (int)base, group->kind);
        TsSymbol kind = ts_symbol(want), sg = ts_symbol("attr::Subgraph");
        if (!kind || !sg) {
            ts_graph_free(sub);
            return nomem(p);
        }
        group->kind = kind;
        if (ts_node_set_graph(group, sg, sub, p->err) != 0)
            return p->err->code;
        st->n_groups++;
    }
}

static TsGraph *parse_graph(Parser *p)
{
    if (++p->depth > MAX_DEPTH) {
        ts_error_set(p->err, TS_ERR_LIMIT, "IR text nested too deeply");
        return NULL;
    }
    GraphState st = {0};
    st.g = ts_graph_new(p->err);
    int rc = st.g ? 0 : p->err->code;
    if (!rc && (expect(p, "graph") || expect(p, "(")))
        rc = p->err->code;
    if (!rc && !accept(p, ")")) {
        do
            rc = define(p, &st, st.g->block->param);
        while (!rc && accept(p, ","));
        if (!rc)
            rc = expect(p, ")");
    }
    if (!rc)
        rc = expect(p, ":");
    if (!rc)
        rc = parse_nodes(p, &st, st.g->block, "return");
    if (!rc && !(rc = expect(p, "return")))
        rc = parse_refs(p, &st, st.g->block->ret);
    if (!rc)
        rc = parse_withs(p, &st);
    if (!rc)
        st.g->spell_dynamic = st.saw_dynamic;
    free(st.cands);
    p->depth--;
    if (rc) {
        ts_graph_free(st.g);
        return NULL;
    }
    return st.g;
}

TsGraph *ts_graph_parse(const char *text, const char *filename, TsError *err)
{
    Parser p = {0};
    p.err = err;
    p.src = ts_source_new(filename, text, strlen(text), err);
    if (!p.src)
        return NULL;
    p.s = p.src->text;
    TsGraph *g = parse_graph(&p);
    if (g) {
        skip_ws(&p);
        if (p.s[p.pos]) {
            expected(&p, "end of input");
            ts_graph_free(g);
            g = NULL;
        }
    }
    ts_source_release(p.src);
    return g;
}
