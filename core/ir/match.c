/* match.c — schema matching: which overload a call means, and the node it becomes.
 *
 * The rules are PyTorch's (frontend/schema_matching.cpp), restated:
 *
 *   - Schema arguments are filled in order: the next positional value while there is one and
 *     the argument is not kwarg-only; else a keyword of that name (in aten, "input" also
 *     names "self"); else the default, inserted as a prim::Constant; else "Argument x not
 *     provided.". Left-over positionals are an error unless the schema is vararg ("...");
 *     left-over keywords are "unknown" or "specified twice".
 *   - A value matches an argument when, after binding the argument's type variables (t, t[],
 *     Dict(str, t), Future(t), Optional[t]: a variable keeps its first binding, and a later
 *     one must unify with it) and the implicit conversions below, its type is a subtype of
 *     the argument's type with the variables substituted.
 *   - Conversions that need no permission: a single int/float for "int[N]"/"float[N]" is
 *     repeated N times into a list; a tuple whose elements all fit a list's element type
 *     becomes that list (prim::TupleUnpack + prim::ListConstruct; a literal tuple gives its
 *     elements directly); a tuple converts element-wise to a tuple type; an empty-list
 *     literal (prim::EmptyListLiteral) takes the argument's list type; T passes for
 *     Optional[T].
 *   - Conversions that need allow_conversions (the second pass): Tensor to float / complex /
 *     int / Scalar by aten::FloatImplicit / ComplexImplicit / IntImplicit / ScalarImplicit;
 *     Scalar (number) to float / complex / int by aten::Float / Complex / Int; str to Device
 *     by aten::device; and the trailing positionals packed into a list for the last
 *     positional list argument (zeros(1, 2) for zeros(int[] size)).
 *   - With several overloads, every one is tried without conversions, then every one with;
 *     the first match wins. A single overload is tried once, with conversions.
 *
 * PyTorch leaves the nodes a failed attempt inserted as dead code; here a failed attempt
 * removes them again, so a failure leaves the graph as it was.
 */
#include "ir/match.h"
#include "tscript/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TYPE_VARS 32
#define MAX_TYPE_DEPTH 64

/* A type as PyTorch's repr_str spells it in these messages ("List[int]", "number"). */
static void buf_type(TsBuf *b, const TsType *t)
{
    char small[128];
    size_t n = ts_type_annotation(t, small, sizeof small);
    if (n < sizeof small) {
        ts_buf_add(b, small, n);
        return;
    }
    char *big = malloc(n + 1);
    if (!big) {
        b->failed = TS_ERR_NOMEM;
        return;
    }
    ts_type_annotation(t, big, n + 1);
    ts_buf_add(b, big, n);
    free(big);
}

/* ---- type variables ---------------------------------------------------------------- */
typedef struct TypeEnv {
    size_t n;
    const char *names[MAX_TYPE_VARS];
    const TsType *types[MAX_TYPE_VARS];
} TypeEnv;

static const TsType *env_find(const TypeEnv *env, const char *name)
{
    for (size_t i = 0; i < env->n; i++)
        if (strcmp(env->names[i], name) == 0)
            return env->types[i];
    return NULL;
}

/* The kinds whose contained types are part of the type (and may hold variables). */
static bool is_container(TsTypeKind k)
{
    return k == TS_TYPE_LIST || k == TS_TYPE_DICT || k == TS_TYPE_TUPLE ||
           k == TS_TYPE_OPTIONAL || k == TS_TYPE_UNION || k == TS_TYPE_FUTURE ||
           k == TS_TYPE_RREF;
}

static bool has_free_vars(const TsType *t, int depth)
{
    TsTypeKind k = ts_type_kind(t);
    if (k == TS_TYPE_VAR)
        return true;
    if (!is_container(k) || depth > MAX_TYPE_DEPTH)
        return false;
    for (size_t i = 0; i < ts_type_num_elems(t); i++)
        if (has_free_vars(ts_type_elem(t, i), depth + 1))
            return true;
    return false;
}

static const TsType *unwrap_optional(const TsType *t)
{
    return ts_type_kind(t) == TS_TYPE_OPTIONAL ? ts_type_elem(t, 0) : t;
}

/* The single type every element unifies to (PyTorch's unifyTypeList), or NULL. */
static const TsType *unify_elems(const TsType *tuple)
{
    size_t n = ts_type_num_elems(tuple);
    if (n == 0)
        return NULL;
    const TsType *u = ts_type_elem(tuple, 0);
    for (size_t i = 1; i < n && u; i++)
        u = ts_type_unify(u, ts_type_elem(tuple, i), false);
    return u;
}

/* Binds the variables of formal against actual (PyTorch's matchTypeVariables). Returns
 * false with the reason (no trailing period) in why. */
static bool match_type_vars(const TsType *formal, const TsType *actual, TypeEnv *env,
                            TsBuf *why, int depth)
{
    if (!has_free_vars(formal, 0))
        return true;
    if (depth > MAX_TYPE_DEPTH) {
        ts_buf_puts(why, "Types are nested too deeply");
        return false;
    }
    TsTypeKind fk = ts_type_kind(formal), ak = ts_type_kind(actual);
    switch (fk) {
    case TS_TYPE_VAR: {
        const char *name = ts_type_var_name(formal);
        const TsType *bound = env_find(env, name);
        if (!bound) {
            if (env->n == MAX_TYPE_VARS) {
                ts_buf_printf(why, "More than %d type variables", MAX_TYPE_VARS);
                return false;
            }
            env->names[env->n] = name;
            env->types[env->n++] = actual;
            return true;
        }
        /* Either may be the supertype; the binding itself stays as it was. */
        if (ts_type_unify(bound, actual, false))
            return true;
        ts_buf_printf(why, "Type variable '%s' previously matched to type ", name);
        buf_type(why, bound);
        ts_buf_puts(why, " is matched to type ");
        buf_type(why, actual);
        return false;
    }
    case TS_TYPE_LIST:
        if (ak == TS_TYPE_LIST)
            return match_type_vars(ts_type_elem(formal, 0), ts_type_elem(actual, 0), env, why,
                                   depth + 1);
        if (ak == TS_TYPE_TUPLE) {
            const TsType *u = unify_elems(actual);
            if (u)
                return match_type_vars(ts_type_elem(formal, 0), u, env, why, depth + 1);
        }
        ts_buf_puts(why, "Cannot match ");
        buf_type(why, formal);
        ts_buf_puts(why, " to ");
        buf_type(why, actual);
        return false;
    case TS_TYPE_TUPLE:
        if (ak != TS_TYPE_TUPLE) {
            ts_buf_puts(why, "Cannot match a tuple to ");
            buf_type(why, actual);
            return false;
        }
        if (ts_type_num_elems(formal) != ts_type_num_elems(actual)) {
            ts_buf_puts(why, "Cannot match tuples of mismatched size");
            return false;
        }
        for (size_t i = 0; i < ts_type_num_elems(formal); i++)
            if (!match_type_vars(ts_type_elem(formal, i), ts_type_elem(actual, i), env, why,
                                 depth + 1))
                return false;
        return true;
    case TS_TYPE_FUTURE:
    case TS_TYPE_RREF:
        if (ak != fk) {
            ts_buf_printf(why, "Cannot match a %s to ", fk == TS_TYPE_FUTURE ? "future" : "rref");
            buf_type(why, actual);
            return false;
        }
        return match_type_vars(ts_type_elem(formal, 0), ts_type_elem(actual, 0), env, why,
                               depth + 1);
    case TS_TYPE_OPTIONAL:
        if (ak == TS_TYPE_OPTIONAL)
            return match_type_vars(ts_type_elem(formal, 0), ts_type_elem(actual, 0), env, why,
                                   depth + 1);
        /* None is already an optional, of unknown type: it binds nothing. */
        if (!ts_type_is_subtype_of(actual, ts_type_none()))
            return match_type_vars(ts_type_elem(formal, 0), actual, env, why, depth + 1);
        return true;
    case TS_TYPE_DICT:
        if (ak != TS_TYPE_DICT) {
            ts_buf_puts(why, "Cannot match a dict to ");
            buf_type(why, actual);
            return false;
        }
        return match_type_vars(ts_type_elem(formal, 0), ts_type_elem(actual, 0), env, why,
                               depth + 1) &&
               match_type_vars(ts_type_elem(formal, 1), ts_type_elem(actual, 1), env, why,
                               depth + 1);
    default:
        ts_buf_puts(why, "Unhandled free variable container: ");
        buf_type(why, formal);
        return false;
    }
}

/* type with its variables replaced by their bindings; NULL if one is unbound (or out of
 * memory, which the caller cannot tell apart and reports as unbound). */
static const TsType *eval_type_vars(const TsType *t, const TypeEnv *env, int depth)
{
    if (!has_free_vars(t, 0))
        return t;
    TsTypeKind k = ts_type_kind(t);
    if (k == TS_TYPE_VAR)
        return env_find(env, ts_type_var_name(t));
    size_t n = ts_type_num_elems(t);
    if (depth > MAX_TYPE_DEPTH || n > 64)
        return NULL;
    const TsType *e[64];
    for (size_t i = 0; i < n; i++)
        if (!(e[i] = eval_type_vars(ts_type_elem(t, i), env, depth + 1)))
            return NULL;
    switch (k) {
    case TS_TYPE_LIST: return ts_type_list(e[0]);
    case TS_TYPE_DICT: return ts_type_dict(e[0], e[1]);
    case TS_TYPE_TUPLE: return ts_type_tuple(n, e);
    case TS_TYPE_OPTIONAL: return ts_type_optional(e[0]);
    case TS_TYPE_UNION: return ts_type_union(n, e);
    case TS_TYPE_FUTURE: return ts_type_future(e[0]);
    case TS_TYPE_RREF: return ts_type_rref(e[0]);
    default: return NULL;
    }
}

/* ---- one attempt ---------------------------------------------------------------- */
typedef struct Matcher {
    TsGraph *g;
    const TsOpTable *table;    /* to give conversion nodes their operator; may be NULL */
    TsSourceRange range;
    const TsSchema *schema;
    bool allow_conversions;
    TsBuf *why;                  /* failure messages, in PyTorch's form */
    TsError *err;              /* hard failures (out of memory) */
    TypeEnv env;
} Matcher;

/* Results of the steps below: a hard failure sets M->err. */
enum { MATCHED = 0, MISMATCH = 1, FAILED = -1 };

/* Starts a failure message: "\n<schema>:\n". */
static TsBuf *why_start(Matcher *M)
{
    char *s = ts_schema_to_string(M->schema);
    ts_buf_puts(M->why, "\n");
    if (s)
        ts_buf_puts(M->why, s);
    else
        M->why->failed = TS_ERR_NOMEM;
    ts_buf_puts(M->why, ":\n");
    free(s);
    return M->why;
}

/* Inserts a node of kind with the given inputs and typed outputs at the insertion point.
 * overload is set for the conversion operators only: they carry the call's range and, when
 * the table has it, their operator (kind.overload); the prims get neither, as in PyTorch. */
static TsNode *insert_node(Matcher *M, const char *kind, TsIrValue *const *in, size_t n_in,
                           const TsType *const *out, size_t n_out, const char *overload)
{
    TsSymbol sym = ts_symbol(kind);
    if (!sym) {
        ts_error_set(M->err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    TsNode *n = ts_graph_create(M->g, sym, n_out, M->err);
    if (!n)
        return NULL;
    for (size_t i = 0; i < n_out; i++)
        n->outputs[i]->type = out[i];
    for (size_t i = 0; i < n_in; i++) {
        if (ts_node_add_input(n, in[i], M->err) != 0) {
            ts_node_destroy(n, NULL);
            return NULL;
        }
    }
    if (overload) {
        ts_node_set_range(n, M->range);
        if (M->table)
            n->op = ts_optable_find(M->table, kind, overload);
    }
    return ts_graph_insert(M->g, n);
}

static TsIrValue *insert_list(Matcher *M, const TsType *elem, TsIrValue *const *in, size_t n)
{
    const TsType *lt = ts_type_list(elem);
    if (!lt) {
        ts_error_set(M->err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    TsNode *node = insert_node(M, "prim::ListConstruct", in, n, &lt, 1, NULL);
    return node ? node->outputs[0] : NULL;
}

/* The elements of a tuple value: a literal's inputs, else a new prim::TupleUnpack's
 * outputs. *elems points into a node (valid while the node lives). */
static int tuple_elems(Matcher *M, TsIrValue *v, TsIrValue ***elems, size_t *n)
{
    if (v->node->kind == ts_symbol("prim::TupleConstruct")) {
        *elems = v->node->inputs;
        *n = v->node->n_inputs;
        return 0;
    }
    size_t k = ts_type_num_elems(v->type);
    const TsType **types = malloc((k ? k : 1) * sizeof *types);
    if (!types)
        return ts_error_set(M->err, TS_ERR_NOMEM, "out of memory"), -1;
    for (size_t i = 0; i < k; i++)
        types[i] = ts_type_elem(v->type, i);
    TsNode *node = insert_node(M, "prim::TupleUnpack", &v, 1, types, k, NULL);
    free(types);
    if (!node)
        return -1;
    *elems = node->outputs;
    *n = node->n_outputs;
    return 0;
}

/* Is type a list that fits list_type, or a tuple whose every element fits its elements? */
static bool convertible_to_list(const TsType *type, const TsType *list_type)
{
    if (ts_type_kind(list_type) != TS_TYPE_LIST)
        return false;
    if (ts_type_is_subtype_of(type, list_type))
        return true;
    if (ts_type_kind(type) != TS_TYPE_TUPLE)
        return false;
    for (size_t i = 0; i < ts_type_num_elems(type); i++)
        if (!ts_type_is_subtype_of(ts_type_elem(type, i), ts_type_elem(list_type, 0)))
            return false;
    return true;
}

/* The conversions an allowed pass may insert: from what, to what, by which operator. */
typedef struct Conversion {
    bool from_tensor;          /* else from number (Scalar) */
    TsTypeKind to;
    const char *kind, *overload;
} Conversion;

static const Conversion conversions[] = {
    { true, TS_TYPE_FLOAT, "aten::FloatImplicit", "" },
    { true, TS_TYPE_COMPLEX, "aten::ComplexImplicit", "" },
    { true, TS_TYPE_INT, "aten::IntImplicit", "" },
    { true, TS_TYPE_NUMBER, "aten::ScalarImplicit", "" },
    { false, TS_TYPE_FLOAT, "aten::Float", "Scalar" },
    { false, TS_TYPE_COMPLEX, "aten::Complex", "Scalar" },
    { false, TS_TYPE_INT, "aten::Int", "Scalar" },
};

/* PyTorch's tryConvertToType: returns the (possibly new) value, or NULL on a hard
 * failure. The caller checks whether the result fits. */
static TsIrValue *try_convert(Matcher *M, const TsType *concrete, TsIrValue *v, int depth)
{
    if (depth > MAX_TYPE_DEPTH)
        return v;
    TsTypeKind ck = ts_type_kind(concrete);
    /* Converting to Optional[T] is converting to T. */
    if (ck == TS_TYPE_OPTIONAL && ts_type_kind(v->type) != TS_TYPE_OPTIONAL &&
        !ts_type_is_subtype_of(v->type, ts_type_none()))
        return try_convert(M, ts_type_elem(concrete, 0), v, depth + 1);

    if (v->node->kind == ts_symbol("prim::EmptyListLiteral") && ck == TS_TYPE_LIST &&
        !(v = insert_list(M, ts_type_elem(concrete, 0), NULL, 0)))
        return NULL;

    if (ts_type_kind(v->type) == TS_TYPE_TUPLE) {
        const TsType *tuple = v->type;
        const TsType *lt = unwrap_optional(concrete);
        if (convertible_to_list(tuple, lt)) {
            TsIrValue **elems;
            size_t n;
            if (tuple_elems(M, v, &elems, &n) != 0 ||
                !(v = insert_list(M, ts_type_elem(lt, 0), elems, n)))
                return NULL;
        }
        if (ck == TS_TYPE_TUPLE && !ts_type_is_subtype_of(tuple, concrete) &&
            ts_type_num_elems(concrete) == ts_type_num_elems(tuple)) {
            TsIrValue **elems;
            size_t n;
            if (tuple_elems(M, v, &elems, &n) != 0)
                return NULL;
            TsIrValue **src = malloc((n ? n : 1) * sizeof *src);
            TsIrValue **conv = malloc((n ? n : 1) * sizeof *conv);
            const TsType **types = malloc((n ? n : 1) * sizeof *types);
            TsNode *node = NULL;
            const TsType *tt;
            if (!src || !conv || !types) {
                ts_error_set(M->err, TS_ERR_NOMEM, "out of memory");
                goto tuple_done;
            }
            memcpy(src, elems, n * sizeof *src);   /* elems moves if its node's inputs grow */
            for (size_t i = 0; i < n; i++) {
                if (!(conv[i] = try_convert(M, ts_type_elem(concrete, i), src[i], depth + 1)))
                    goto tuple_done;
                types[i] = conv[i]->type;
            }
            if (!(tt = ts_type_tuple(n, types)))
                ts_error_set(M->err, TS_ERR_NOMEM, "out of memory");
            else
                node = insert_node(M, "prim::TupleConstruct", conv, n, &tt, 1, NULL);
        tuple_done:
            free(src);
            free(conv);
            free(types);
            if (!node)
                return NULL;
            v = node->outputs[0];
        }
    }

    if (!M->allow_conversions)
        return v;
    bool from_tensor = ts_type_is_subtype_of(v->type, ts_type_tensor());
    bool from_number = v->type == ts_type_number();
    if (from_tensor || from_number) {
        for (size_t i = 0; i < sizeof conversions / sizeof conversions[0]; i++) {
            const Conversion *c = &conversions[i];
            if (c->from_tensor != from_tensor || c->to != ck)
                continue;
            TsNode *node = insert_node(M, c->kind, &v, 1, &concrete, 1, c->overload);
            if (!node)
                return NULL;
            v = node->outputs[0];
            break;
        }
    }
    if (ts_type_is_subtype_of(v->type, ts_type_str()) &&
        ts_type_is_subtype_of(concrete, ts_type_device())) {
        const TsType *dev = ts_type_device();
        TsNode *node = insert_node(M, "aten::device", &v, 1, &dev, 1, "");
        if (!node)
            return NULL;
        v = node->outputs[0];
    }
    return v;
}

/* PyTorch's tryMatchArgument: *out is the value to pass. */
static int match_argument(Matcher *M, const char *name, const TsType *type, long fixed_size,
                          bool inferred, TsIrValue *v, TsIrValue **out)
{
    /* "int[2] stride=1": a single int (or float) stands for the whole list. */
    const TsType *formal_list = unwrap_optional(type);
    if ((v->type == ts_type_int() || v->type == ts_type_float()) && fixed_size >= 0 &&
        ts_type_kind(formal_list) == TS_TYPE_LIST && ts_type_elem(formal_list, 0) == v->type) {
        TsIrValue *rep[1024];
        size_t n = (size_t)fixed_size < 1024 ? (size_t)fixed_size : 1024;
        for (size_t i = 0; i < n; i++)
            rep[i] = v;
        if (!(v = insert_list(M, v->type, rep, n)))
            return FAILED;
    }

    TsBuf reason = TS_BUF_INIT;
    if (!match_type_vars(type, v->type, &M->env, &reason, 0)) {
        TsBuf *w = why_start(M);
        ts_buf_puts(w, "Could not match type ");
        buf_type(w, v->type);
        ts_buf_puts(w, " to ");
        buf_type(w, type);
        ts_buf_printf(w, " in argument '%s': %s.\n", name, reason.p ? reason.p : "");
        if (reason.failed)
            w->failed = TS_ERR_NOMEM;
        free(reason.p);
        return MISMATCH;
    }
    free(reason.p);
    const TsType *concrete = eval_type_vars(type, &M->env, 0);
    if (!concrete) {
        TsBuf *w = why_start(M);
        ts_buf_puts(w, "Type variables in type ");
        buf_type(w, type);
        ts_buf_puts(w, " could not be inferred from actual type ");
        buf_type(w, v->type);
        return MISMATCH;
    }

    if (!(v = try_convert(M, concrete, v, 0)))
        return FAILED;
    if (!ts_type_is_subtype_of(v->type, concrete)) {
        TsBuf *w = why_start(M);
        ts_buf_puts(w, "Expected a value of type '");
        buf_type(w, type);
        ts_buf_printf(w, "%s' for argument '%s' but instead found type '",
                      inferred ? " (inferred)" : "", name);
        buf_type(w, v->type);
        ts_buf_puts(w, "'.\n");
        char *why = ts_type_why_not_implements(v->type, concrete);
        if (why) {             /* which method of the class does not fit the interface */
            ts_buf_puts(w, why);
            free(why);
        }
        if (inferred)
            ts_buf_printf(w, "Inferred '%s' to be of type 'Tensor' because it was not annotated "
                          "with an explicit type.\n", name);
        if (ts_type_kind(v->type) == TS_TYPE_LIST &&
            ts_type_is_subtype_of(ts_type_elem(v->type, 0), ts_type_tensor()))
            ts_buf_puts(w, "Empty lists default to List[Tensor]. Add a variable annotation to the "
                        "assignment to create an empty list of another type "
                        "(torch.jit.annotate(List[T, []]) where T is the type of elements in "
                        "the list for Python 2)\n");
        return MISMATCH;
    }
    *out = v;
    return MATCHED;
}

/* Packs the positionals from `from` on into one list of elem (zeros(1, 2)). */
static int match_varargs_list(Matcher *M, const TsType *elem, TsIrValue *const *pos,
                              size_t n, TsIrValue **out)
{
    TsIrValue **items = malloc((n ? n : 1) * sizeof *items);
    if (!items)
        return ts_error_set(M->err, TS_ERR_NOMEM, "out of memory"), FAILED;
    for (size_t i = 0; i < n; i++) {
        int rc = match_argument(M, "<varargs>", elem, -1, false, pos[i], &items[i]);
        if (rc != MATCHED) {
            free(items);
            return rc;
        }
    }
    *out = insert_list(M, elem, items, n);
    free(items);
    return *out ? MATCHED : FAILED;
}

/* May the positionals from argument i on be packed into its list? Only for the last
 * positional argument, a plain (not fixed-size, not type-variable) list. */
static bool varargs_as_list(const TsSchema *s, size_t i)
{
    const TsArg *a = &s->args[i];
    bool last = i + 1 == s->n_args || s->args[i + 1].kwarg_only;
    return last && ts_type_kind(a->type) == TS_TYPE_LIST && a->fixed_size < 0 &&
           ts_type_kind(ts_type_elem(a->type, 0)) != TS_TYPE_VAR;
}

static bool is_aten(const TsSchema *s) { return strncmp(s->name, "aten::", 6) == 0; }

/* The keyword argument naming name (in aten, "input" also names "self"), or -1. */
static long find_keyword(const TsNamedValue *kw, size_t n_kw, const char *name, bool aten)
{
    for (size_t i = 0; i < n_kw; i++) {
        if (aten && strcmp(name, "self") == 0 && strcmp(kw[i].name, "input") == 0)
            return (long)i;
        if (strcmp(kw[i].name, name) == 0)
            return (long)i;
    }
    return -1;
}

static bool schema_has_arg(const TsSchema *s, const char *name)
{
    for (size_t i = 0; i < s->n_args; i++)
        if (strcmp(s->args[i].name, name) == 0)
            return true;
    return false;
}

/* A call's arguments, split as PyTorch keeps them. */
typedef struct CallArgs {
    TsIrValue **pos;
    size_t n_pos;
    TsNamedValue *kw;
    size_t n_kw;
    TsIrValue *self;           /* a method call's receiver (named ts_match_self), or NULL */
} CallArgs;

const char ts_match_self[] = "self";

/* The matched inputs and return types of one attempt. */
typedef struct Matched {
    TsIrValue **inputs;
    size_t n_inputs;
    const TsType **returns;
} Matched;

static int push_input(Matcher *M, Matched *r, size_t *cap, TsIrValue *v)
{
    if (r->n_inputs == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        TsIrValue **p = realloc(r->inputs, nc * sizeof *p);
        if (!p)
            return ts_error_set(M->err, TS_ERR_NOMEM, "out of memory"), FAILED;
        r->inputs = p;
        *cap = nc;
    }
    r->inputs[r->n_inputs++] = v;
    return MATCHED;
}

/* The argument loop of PyTorch's tryMatchSchema. */
static int match_args(Matcher *M, const CallArgs *c, bool *used_kw, Matched *r)
{
    const TsSchema *s = M->schema;
    size_t used = 0, cap = 0;
    bool aten = is_aten(s), self_used = false;
    for (size_t i = 0; i < s->n_args; i++) {
        const TsArg *a = &s->args[i];
        TsIrValue *actual = NULL;
        long k;
        if (c->self && !self_used && strcmp(a->name, "self") == 0) {
            actual = c->self;
            self_used = true;
        } else if (!a->kwarg_only && used < c->n_pos) {
            if (M->allow_conversions && varargs_as_list(s, i)) {
                TsIrValue *v = c->pos[used];
                if (ts_type_kind(v->type) != TS_TYPE_LIST &&
                    !convertible_to_list(v->type, unwrap_optional(a->type))) {
                    TsIrValue *list;
                    int rc = match_varargs_list(M, ts_type_elem(unwrap_optional(a->type), 0),
                                                c->pos + used, c->n_pos - used, &list);
                    if (rc != MATCHED)
                        return rc;
                    used = c->n_pos;
                    if (push_input(M, r, &cap, list) != MATCHED)
                        return FAILED;
                    continue;
                }
            }
            actual = c->pos[used++];
        } else if ((k = find_keyword(c->kw, c->n_kw, a->name, aten)) >= 0) {
            if (used_kw[k]) {
                ts_buf_printf(why_start(M), "Argument %s specified twice in schema, submit a bug "
                                         "report!\n", c->kw[k].name);
                return MISMATCH;
            }
            used_kw[k] = true;
            actual = c->kw[k].value;
        } else if (a->has_default) {
            TsSourceRange none = {0};
            if (!(actual = ts_graph_insert_constant(M->g, a->default_value, none, M->err)))
                return FAILED;
        } else {
            ts_buf_printf(why_start(M), "Argument %s not provided.\n", a->name);
            return MISMATCH;
        }
        TsIrValue *v;
        int rc = match_argument(M, a->name, a->type, a->fixed_size, a->inferred, actual, &v);
        if (rc != MATCHED)
            return rc;
        if (push_input(M, r, &cap, v) != MATCHED)
            return FAILED;
    }
    if (s->is_vararg)
        for (; used < c->n_pos; used++)
            if (push_input(M, r, &cap, c->pos[used]) != MATCHED)
                return FAILED;
    if (used < c->n_pos) {
        ts_buf_printf(why_start(M), "Expected at most %zu arguments but found %zu positional "
                                 "arguments.\n", used, c->n_pos);
        return MISMATCH;
    }
    if (c->self && !self_used) {
        ts_buf_puts(why_start(M), "Provided self argument not used in schema.\n");
        return MISMATCH;
    }
    for (size_t i = 0; i < c->n_kw; i++) {
        if (used_kw[i])
            continue;
        ts_buf_printf(why_start(M), "Keyword argument %s %s.\n", c->kw[i].name,
                   schema_has_arg(s, c->kw[i].name) ? "specified twice" : "unknown");
        return MISMATCH;
    }
    return MATCHED;
}

/* The schema's return types with the bindings substituted. */
static int match_returns(Matcher *M, Matched *r)
{
    const TsSchema *s = M->schema;
    r->returns = malloc((s->n_returns ? s->n_returns : 1) * sizeof *r->returns);
    if (!r->returns)
        return ts_error_set(M->err, TS_ERR_NOMEM, "out of memory"), FAILED;
    for (size_t i = 0; i < s->n_returns; i++) {
        r->returns[i] = eval_type_vars(s->returns[i].type, &M->env, 0);
        if (!r->returns[i]) {
            TsBuf *w = why_start(M);
            buf_type(w, s->returns[i].type);
            ts_buf_puts(w, " has unbound type variables.\n");
            return MISMATCH;
        }
    }
    return MATCHED;
}

/* prim::EnumValue's overloads (int, float, str) all take AnyEnumType: the one that matches
 * is the one returning the enum's value type. (PyTorch binds the first, so E.X.value of a
 * str-valued enum called through torch.ops would be typed int, and a str would flow
 * through int-typed code.) */
static int match_enum_value(Matcher *M, const Matched *r)
{
    const TsSchema *s = M->schema;
    if (strcmp(s->name, "prim::EnumValue") != 0 || r->n_inputs != 1 || s->n_returns != 1)
        return MATCHED;
    const TsType *vt = ts_type_enum_value_type(r->inputs[0]->type);
    if (vt && ts_type_equal(vt, s->returns[0].type))
        return MATCHED;
    TsBuf *w = why_start(M);
    ts_buf_puts(w, "Expected an enum whose values are ");
    buf_type(w, s->returns[0].type);
    ts_buf_puts(w, " but found ");
    buf_type(w, r->inputs[0]->type);
    ts_buf_puts(w, ".\n");
    return MISMATCH;
}

/* Removes every node inserted after mark (in reverse, so users go first). */
static void roll_back(TsGraph *g, TsNode *mark)
{
    TsNode *ip = ts_graph_insert_point(g);
    while (ip->prev != mark)
        ts_node_destroy(ip->prev, NULL);
}

/* One attempt at one schema (PyTorch's tryMatchSchema). The graph is unchanged unless it
 * returns MATCHED; on MATCHED the caller owns r's arrays. */
static int try_match(Matcher *M, const CallArgs *c, Matched *r)
{
    const TsSchema *s = M->schema;
    memset(r, 0, sizeof *r);
    M->env.n = 0;
    /* Blocked as in PyTorch (x.view(1) would otherwise read 1 as a dtype), silently. */
    if (strcmp(s->name, "aten::view") == 0 && strcmp(s->overload, "dtype") == 0)
        return MISMATCH;
    TsNode *mark = ts_graph_insert_point(M->g)->prev;
    bool *used_kw = calloc(c->n_kw ? c->n_kw : 1, sizeof *used_kw);
    int rc = used_kw ? match_args(M, c, used_kw, r)
                     : (ts_error_set(M->err, TS_ERR_NOMEM, "out of memory"), FAILED);
    free(used_kw);
    if (rc == MATCHED)
        rc = match_enum_value(M, r);
    if (rc == MATCHED)
        rc = match_returns(M, r);
    if (rc != MATCHED) {
        roll_back(M->g, mark);
        free(r->inputs);
        free(r->returns);
        memset(r, 0, sizeof *r);
    }
    return rc;
}

static int split_args(size_t n, const TsNamedValue *args, CallArgs *c, TsError *err)
{
    memset(c, 0, sizeof *c);
    c->pos = malloc((n ? n : 1) * sizeof *c->pos);
    c->kw = malloc((n ? n : 1) * sizeof *c->kw);
    if (!c->pos || !c->kw) {
        free(c->pos);
        free(c->kw);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        if (!args[i].value) {
            free(c->pos);
            free(c->kw);
            return ts_error_set(err, TS_ERR_USAGE, "argument %zu has no value", i);
        }
        if (args[i].name == ts_match_self && !c->self)
            c->self = args[i].value;
        else if (args[i].name)
            c->kw[c->n_kw++] = args[i];
        else
            c->pos[c->n_pos++] = args[i].value;
    }
    return 0;
}

static void free_args(CallArgs *c)
{
    free(c->pos);
    free(c->kw);
}

/* A mismatch becomes err: the message as PyTorch words it, at range when there is one. */
static int report(TsError *err, TsBuf *why, TsSourceRange range)
{
    if (why->failed)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    return ts_error_at(err, TS_ERR_RUNTIME, range, "%s", why->p ? why->p : "");
}

static int match_one(TsGraph *g, const TsOpTable *table, const TsSchema *schema,
                     const CallArgs *c, TsSourceRange range, Matched *r, TsError *err)
{
    TsBuf why = TS_BUF_INIT;
    Matcher M = { g, table, range, schema, true, &why, err, {0} };
    int rc = try_match(&M, c, r);
    if (rc == MISMATCH)
        report(err, &why, range);
    free(why.p);
    return rc;
}

bool ts_schema_takes_self(const TsSchema *schema, const TsType *self)
{
    for (size_t i = 0; i < schema->n_args; i++) {
        if (strcmp(schema->args[i].name, "self") != 0)
            continue;
        TypeEnv env = { 0 };
        TsBuf why = TS_BUF_INIT;
        const TsType *formal = schema->args[i].type;
        bool ok = match_type_vars(formal, self, &env, &why, 0);
        ts_buf_free(&why);
        const TsType *concrete = ok ? eval_type_vars(formal, &env, 0) : NULL;
        return concrete && ts_type_is_subtype_of(self, concrete);
    }
    return false;
}

int ts_match_schema(TsGraph *g, const TsSchema *schema, size_t n_args,
                    const TsNamedValue *args, TsIrValue ***inputs, size_t *n_inputs,
                    const TsType ***return_types, TsError *err)
{
    CallArgs c;
    if (split_args(n_args, args, &c, err) != 0)
        return -1;
    TsSourceRange none = {0};
    Matched r;
    int rc = match_one(g, NULL, schema, &c, none, &r, err);
    free_args(&c);
    if (rc != MATCHED)
        return -1;
    *inputs = r.inputs;
    *n_inputs = r.n_inputs;
    *return_types = r.returns;
    return 0;
}

/* ---- overloads ----------------------------------------------------------------------- */

/* Levenshtein distance of a and b, or limit + 1 when it is more than limit. */
static size_t edit_distance(const char *a, const char *b, size_t limit)
{
    size_t la = strlen(a), lb = strlen(b);
    if ((la > lb ? la - lb : lb - la) > limit || lb > 255)
        return limit + 1;
    size_t row[256];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0], best;
        row[0] = best = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t v = diag + (a[i - 1] != b[j - 1]);
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            if (up + 1 < v)
                v = up + 1;
            row[j] = v;
            diag = up;
            if (v < best)
                best = v;
        }
        if (best > limit)
            return limit + 1;
    }
    return row[lb];
}

/* "Unknown builtin op", with the names within edit distance 2, nearest first. */
static int report_unknown(const TsOpTable *table, const char *qualname, TsSourceRange range,
                          TsError *err)
{
    enum { MAX_SUGGEST = 64 };
    const char *names[MAX_SUGGEST];
    size_t dist[MAX_SUGGEST], n = 0, pos = 0;
    const TsOperator *op;
    while (n < MAX_SUGGEST && ts_optable_next(table, &pos, &op)) {
        size_t d = edit_distance(qualname, op->schema->name, 2);
        if (d > 2)
            continue;
        bool seen = false;
        for (size_t i = 0; i < n && !seen; i++)
            seen = strcmp(names[i], op->schema->name) == 0;
        if (seen)
            continue;
        size_t at = n++;
        while (at > 0 && dist[at - 1] > d) {       /* stable insertion by distance */
            names[at] = names[at - 1];
            dist[at] = dist[at - 1];
            at--;
        }
        names[at] = op->schema->name;
        dist[at] = d;
    }
    TsBuf b = TS_BUF_INIT;
    ts_buf_printf(&b, "Unknown builtin op: %s.\n", qualname);
    if (n == 0) {
        ts_buf_printf(&b, "Could not find any similar ops to %s. This op may not exist or may "
                       "not be currently supported in TorchScript.\n", qualname);
    } else {
        ts_buf_puts(&b, "Here are some suggestions: \n");
        for (size_t i = 0; i < n; i++)
            ts_buf_printf(&b, "\t%s\n", names[i]);
        if (range.source)
            ts_buf_puts(&b, "\nThe original call is");
    }
    int rc = report(err, &b, range);
    free(b.p);
    return rc;
}

/* Indents every line of s by two spaces (blank lines too), as PyTorch lists candidates. */
static void buf_indented(TsBuf *b, const char *s)
{
    bool line_start = true;
    for (; *s; s++) {
        if (line_start)
            ts_buf_puts(b, "  ");
        ts_buf_add(b, s, 1);
        line_start = *s == '\n';
    }
}

/* Every overload of qualname in declaration order; *ops is malloc'd. */
static size_t overloads(const TsOpTable *table, const char *qualname, const TsOperator ***ops,
                        TsError *err)
{
    size_t cap = 16;
    for (;;) {
        const TsOperator **p = malloc(cap * sizeof *p);
        if (!p) {
            ts_error_set(err, TS_ERR_NOMEM, "out of memory");
            *ops = NULL;
            return 0;
        }
        size_t n = ts_optable_overloads(table, qualname, p, cap);
        if (n < cap) {
            *ops = p;
            return n;
        }
        free(p);
        cap *= 2;
    }
}

static TsNode *emit_node(TsGraph *g, const TsOperator *op, Matched *r, TsSourceRange range,
                         TsError *err)
{
    const TsSchema *s = op->schema;
    TsSymbol kind = ts_symbol(s->name);
    TsNode *n = kind ? ts_graph_create(g, kind, s->n_returns, err) : NULL;
    if (!kind)
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    for (size_t i = 0; n && i < r->n_inputs; i++) {
        if (ts_node_add_input(n, r->inputs[i], err) != 0) {
            ts_node_destroy(n, NULL);
            n = NULL;
        }
    }
    if (n) {
        for (size_t i = 0; i < s->n_returns; i++)
            n->outputs[i]->type = r->returns[i];
        n->op = op;
        ts_node_set_range(n, range);
        ts_graph_insert(g, n);
    }
    return n;
}

/* The first of n schemas the arguments fit, into *chosen and r: one schema once, with
 * conversions (its bare reason on a mismatch); several as PyTorch's matchSchemas tries them,
 * every one without conversions first, then every one with, and on a mismatch the list of
 * candidates with their reasons. exact: the first pass alone, and a mismatch is no error
 * (the caller will look again with more overloads, see ts_graph_insert_op). */
static int match_first(TsGraph *g, const TsOpTable *table, const TsSchema *const *schemas,
                       size_t n, const CallArgs *c, TsSourceRange range, Matched *r,
                       size_t *chosen, bool exact, TsError *err)
{
    *chosen = 0;
    if (n == 1 && !exact)
        return match_one(g, table, schemas[0], c, range, r, err);
    TsBuf why = TS_BUF_INIT;
    int rc = MISMATCH;
    for (int pass = 0; pass < (exact ? 1 : 2) && rc == MISMATCH; pass++) {
        why.len = 0;
        if (why.p)
            why.p[0] = '\0';
        for (size_t i = 0; i < n && rc == MISMATCH; i++) {
            Matcher M = { g, table, range, schemas[i], pass == 1, &why, err, {0} };
            rc = try_match(&M, c, r);
            *chosen = i;
        }
    }
    if (rc == MISMATCH && !exact) {
        TsBuf msg = TS_BUF_INIT;
        ts_buf_puts(&msg, "Arguments for call are not valid.\n"
                       "The following variants are available:\n");
        buf_indented(&msg, why.p ? why.p : "");
        if (why.failed)
            msg.failed = TS_ERR_NOMEM;
        if (range.source)
            ts_buf_puts(&msg, "\nThe original call is");
        report(err, &msg, range);
        free(msg.p);
    }
    free(why.p);
    return rc;
}

int ts_match_schemas(TsGraph *g, const TsSchema *const *schemas, size_t n, size_t n_args,
                     const TsNamedValue *args, TsSourceRange range, TsIrValue ***inputs,
                     size_t *n_inputs, TsError *err)
{
    CallArgs c;
    if (n == 0)
        return ts_error_set(err, TS_ERR_USAGE, "no schema to match");
    if (split_args(n_args, args, &c, err) != 0)
        return -1;
    Matched r;
    size_t chosen;
    int rc = match_first(g, NULL, schemas, n, &c, range, &r, &chosen, false, err);
    free_args(&c);
    if (rc != MATCHED)
        return -1;
    free(r.returns);
    *inputs = r.inputs;
    *n_inputs = r.n_inputs;
    return (int)chosen;
}

/* ts_graph_insert_op against the overloads the table has now. exact: only a match without
 * conversions counts, and finding none (or no overload) is no error: NULL with err clear. */
static TsNode *insert_op(TsGraph *g, const TsOpTable *table, const char *qualname,
                         size_t n_args, const TsNamedValue *args, TsSourceRange range,
                         bool exact, TsError *err)
{
    const TsOperator **ops;
    size_t n_ops = overloads(table, qualname, &ops, err);
    if (!ops)
        return NULL;
    if (n_ops == 0) {
        free(ops);
        if (!exact)
            report_unknown(table, qualname, range, err);
        return NULL;
    }
    const TsSchema **schemas = malloc(n_ops * sizeof *schemas);
    CallArgs c;
    if (!schemas || split_args(n_args, args, &c, err) != 0) {
        if (!schemas)
            ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        free(schemas);
        free(ops);
        return NULL;
    }
    for (size_t i = 0; i < n_ops; i++)
        schemas[i] = ops[i]->schema;
    TsNode *mark = ts_graph_insert_point(g)->prev;
    Matched r = {0};
    size_t chosen = 0;
    int rc = match_first(g, table, schemas, n_ops, &c, range, &r, &chosen, exact, err);
    free(schemas);
    free_args(&c);
    TsNode *n = NULL;
    if (rc == MATCHED) {
        n = emit_node(g, ops[chosen], &r, range, err);
        if (!n)
            roll_back(g, mark);
    }
    free(r.inputs);
    free(r.returns);
    free(ops);
    return n;
}

/* While the table may still grow (deferred plugins, optable.h), a call is taken from the
 * overloads loaded so far only when one fits without conversions: the first plugin's
 * overloads come first in declaration order, so with every plugin loaded the first pass
 * would choose the same one. Anything else (no overload, a mismatch, a match needing a
 * conversion, which a later overload might beat in the first pass) loads the rest first,
 * so that what is chosen, and every error, is what a runtime with all its plugins gives. */
TsNode *ts_graph_insert_op(TsGraph *g, const TsOpTable *table, const char *qualname,
                           size_t n_args, const TsNamedValue *args, TsSourceRange range,
                           TsError *err)
{
    if (table && !ts_optable_settled(table)) {
        TsError quiet = TS_ERROR_INIT;
        TsNode *n = insert_op(g, table, qualname, n_args, args, range, true, &quiet);
        if (quiet.code) {
            if (err)
                ts_error_move(err, &quiet);
            ts_error_clear(&quiet);
            return NULL;
        }
        if (n)
            return n;
        if (ts_optable_complete(table, err))
            return NULL;
    }
    return insert_op(g, table, qualname, n_args, args, range, false, err);
}
