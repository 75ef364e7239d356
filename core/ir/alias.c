/* alias.c — AliasDb: which values of a graph may share memory, and which nodes write it.
 *
 * The model is PyTorch's (the JIT overview, "Alias Analysis in the IR"; alias_analysis.cpp
 * and memory_dag.cpp describe the same): every value of a mutable type gets an element; an
 * element points to the elements whose memory it may refer to. An element that points to
 * nothing is a memory location of its own (fresh memory some node made). A value's memory
 * locations are the leaves it reaches; two values may alias when their locations meet.
 *
 * Wildcards. Each class of mutable type (tensors, lists, dicts, tuples, objects, futures,
 * Any) has one wildcard element: the memory nobody in this graph can follow. Graph inputs,
 * the outputs of calls and forks, whatever goes into a container (list, tuple, dict, an
 * object's attribute) and whatever comes out of one point to their class's wildcard, as
 * PyTorch 1.13 does. Once a value is a wildcard, so is all memory it may refer to: when the
 * graph is analysed, every location a wildcard value reaches is made to point to the
 * wildcard too (a fresh tensor whose view went into a list is no longer private). What a
 * container contains follows from its type: List[Tensor] contains the tensor wildcard, an
 * object or Any contains every wildcard.
 *
 * Writes. A node writes what its schema marks "(a!)" (its contained elements for "t(a!)[]"
 * written elements); a conservative node writes all its inputs and what they contain;
 * aten::wait writes every wildcard (the fork it waits for ran arbitrary code). A node with
 * blocks writes what the nodes inside write.
 *
 * Memory locations are sets of element indexes (bitsets), computed once the graph is
 * analysed and cached per element.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/alias.h"
#include "ptrmap.h"
#include "registry/optable.h"

/* The classes of mutable types, one wildcard each. */
enum {
    CLS_TENSOR, CLS_LIST, CLS_DICT, CLS_TUPLE, CLS_OBJECT, CLS_FUTURE, CLS_ANY, CLS__COUNT
};
#define CLS_ALL ((1u << CLS__COUNT) - 1)

typedef struct Elem {
    int cls;                   /* CLS_* of the value's type */
    size_t *pt;                /* the elements this one may point to */
    size_t n_pt, cap_pt;
    uint64_t *mloc;            /* cached memory locations, or NULL */
} Elem;

typedef struct Write {
    const TsNode *node;
    size_t elem;               /* the element written, or SIZE_MAX: every wildcard */
    bool contained;            /* its contained memory too */
    const TsIrValue *value;    /* whose type says what is contained */
} Write;

struct TsAliasDb {
    const TsGraph *graph;
    Elem *elems;
    size_t n_elems, cap_elems;
    size_t wild[CLS__COUNT];   /* the wildcard elements: 0 .. CLS__COUNT-1 */
    TsPtrMap of_value;         /* TsIrValue * -> element */
    size_t *wild_req;          /* elements set to a wildcard while analysing */
    size_t n_req, cap_req;
    Write *writes;
    size_t n_writes, cap_writes;
    size_t words;              /* bitset length in uint64_t */
    TsPtrMap node_writes;      /* TsNode * -> index into wsets */
    uint64_t **wsets;
    size_t n_wsets;
    uint64_t *written;         /* every location any node writes */
    uint64_t *escaping;        /* wildcards and what the graph's outputs may refer to */
    bool failed;               /* out of memory while analysing */
    bool done;                 /* finished: caches may be used */
};

/* ---- types -------------------------------------------------------------------------- */
static int class_of(const TsType *t);

/* The classes of what a value of type t may contain (not t itself). */
static unsigned contained_classes(const TsType *t)
{
    unsigned m = 0;
    switch (ts_type_kind(t)) {
    case TS_TYPE_LIST: case TS_TYPE_DICT: case TS_TYPE_TUPLE: case TS_TYPE_FUTURE:
    case TS_TYPE_RREF: case TS_TYPE_OPTIONAL: case TS_TYPE_UNION:
        for (size_t i = 0; i < ts_type_num_elems(t); i++) {
            const TsType *e = ts_type_elem(t, i);
            int c = class_of(e);
            bool self = ts_type_kind(t) == TS_TYPE_OPTIONAL || ts_type_kind(t) == TS_TYPE_UNION;
            m |= contained_classes(e) | (c >= 0 && !self ? 1u << c : 0);
        }
        return m;
    case TS_TYPE_ANY: case TS_TYPE_CLASS: case TS_TYPE_MODULE: case TS_TYPE_INTERFACE:
    case TS_TYPE_ANY_LIST: case TS_TYPE_ANY_TUPLE: case TS_TYPE_ANY_CLASS: case TS_TYPE_VAR:
    case TS_TYPE_CAPSULE:
        return CLS_ALL;
    default:
        return 0;
    }
}

/* The class of a mutable type, or -1 for a type whose values cannot be written. */
static int class_of(const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_TENSOR: return CLS_TENSOR;
    case TS_TYPE_LIST: case TS_TYPE_ANY_LIST: return CLS_LIST;
    case TS_TYPE_DICT: return CLS_DICT;
    case TS_TYPE_TUPLE: return contained_classes(t) ? CLS_TUPLE : -1;
    case TS_TYPE_ANY_TUPLE: return CLS_TUPLE;
    case TS_TYPE_CLASS: case TS_TYPE_MODULE: case TS_TYPE_INTERFACE: case TS_TYPE_ANY_CLASS:
        return CLS_OBJECT;
    case TS_TYPE_FUTURE: case TS_TYPE_RREF: return CLS_FUTURE;
    case TS_TYPE_OPTIONAL: return class_of(ts_type_elem(t, 0));
    case TS_TYPE_UNION: {
        int c = -1;
        for (size_t i = 0; i < ts_type_num_elems(t); i++) {
            int e = class_of(ts_type_elem(t, i));
            if (e >= 0)
                c = c < 0 || c == e ? e : CLS_ANY;
        }
        return c;
    }
    case TS_TYPE_ANY: case TS_TYPE_VAR: case TS_TYPE_CAPSULE: case TS_TYPE_STORAGE:
        return CLS_ANY;
    default:
        return -1;
    }
}

bool ts_alias_is_mutable_type(const TsType *t)
{
    return class_of(t) >= 0;
}

/* ---- building the points-to graph ----------------------------------------------------- */
static size_t new_elem(TsAliasDb *db, int cls)
{
    if (db->n_elems == db->cap_elems) {
        size_t cap = db->cap_elems ? db->cap_elems * 2 : 64;
        Elem *e = realloc(db->elems, cap * sizeof *e);
        if (!e) {
            db->failed = true;
            return SIZE_MAX;
        }
        db->elems = e;
        db->cap_elems = cap;
    }
    db->elems[db->n_elems] = (Elem){ .cls = cls };
    return db->n_elems++;
}

static bool push_size(TsAliasDb *db, size_t **items, size_t *n, size_t *cap, size_t v)
{
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 4;
        size_t *p = realloc(*items, ncap * sizeof *p);
        if (!p) {
            db->failed = true;
            return false;
        }
        *items = p;
        *cap = ncap;
    }
    (*items)[(*n)++] = v;
    return true;
}

/* The element of v, made fresh on first sight; SIZE_MAX for an immutable value. */
static size_t elem_of(TsAliasDb *db, const TsIrValue *v)
{
    int cls = class_of(v->type);
    if (cls < 0)
        return SIZE_MAX;
    uintptr_t e;
    if (ts_ptrmap_get(&db->of_value, v, &e))
        return (size_t)e;
    size_t id = new_elem(db, cls);
    if (id == SIZE_MAX || ts_ptrmap_put(&db->of_value, v, id) < 0) {
        db->failed = true;
        return SIZE_MAX;
    }
    return id;
}

static void point_to(TsAliasDb *db, size_t from, size_t to)
{
    if (from == SIZE_MAX || to == SIZE_MAX || from == to)
        return;
    Elem *e = &db->elems[from];
    for (size_t i = 0; i < e->n_pt; i++)
        if (e->pt[i] == to)
            return;
    push_size(db, &e->pt, &e->n_pt, &e->cap_pt, to);
}

/* from points to its class's wildcard (to every wildcard for Any). */
static void point_to_wildcard(TsAliasDb *db, size_t from)
{
    int cls = db->elems[from].cls;
    for (int c = 0; c < CLS__COUNT; c++)
        if (c == cls || cls == CLS_ANY)
            point_to(db, from, db->wild[c]);
}

static void set_wildcard(TsAliasDb *db, const TsIrValue *v)
{
    size_t e = elem_of(db, v);
    if (e == SIZE_MAX)
        return;
    point_to_wildcard(db, e);
    push_size(db, &db->wild_req, &db->n_req, &db->cap_req, e);
}

static void make_pointer_to(TsAliasDb *db, const TsIrValue *from, const TsIrValue *to)
{
    point_to(db, elem_of(db, from), elem_of(db, to));
}

static void add_write(TsAliasDb *db, const TsNode *n, const TsIrValue *v, bool contained)
{
    size_t e = v ? elem_of(db, v) : SIZE_MAX;
    if (v && e == SIZE_MAX && !(contained && contained_classes(v->type)))
        return;
    if (db->n_writes == db->cap_writes) {
        size_t cap = db->cap_writes ? db->cap_writes * 2 : 16;
        Write *w = realloc(db->writes, cap * sizeof *w);
        if (!w) {
            db->failed = true;
            return;
        }
        db->writes = w;
        db->cap_writes = cap;
    }
    db->writes[db->n_writes++] = (Write){ n, e, contained, v };
}

/* ---- what each kind of node does ------------------------------------------------------ */
typedef enum Behavior {
    B_SCHEMA,                  /* from the bound operator's schema */
    B_FRESH,                   /* outputs are new memory; nothing written */
    B_CONSTRUCT,               /* a new container holding its inputs */
    B_EXTRACT,                 /* outputs taken out of a container: wildcards */
    B_CAST,                    /* the output is the input */
    B_SETATTR,                 /* writes the object; the value goes into it */
    B_WAIT,                    /* writes every wildcard */
    B_NORM,                    /* batch_norm, instance_norm: write the running stats */
    B_IF, B_LOOP,
    B_CONSERVATIVE             /* reads and writes every input; outputs are wildcards */
} Behavior;

typedef struct KindInfo {
    const char *kind;
    Behavior behavior;
    bool side_effects;
} KindInfo;

static const KindInfo kinds[] = {
    { "prim::Constant", B_FRESH, false },
    { "prim::Uninitialized", B_FRESH, false },
    { "prim::CreateObject", B_FRESH, false },
    { "prim::EmptyListLiteral", B_FRESH, false },
    { "prim::isinstance", B_FRESH, false },
    { "aten::__is__", B_FRESH, false },
    { "aten::__isnot__", B_FRESH, false },
    { "aten::__not__", B_FRESH, false },
    { "prim::Print", B_FRESH, true },
    { "prim::RaiseException", B_FRESH, true },
    { "aten::warn", B_FRESH, true },
    { "prim::ListConstruct", B_CONSTRUCT, false },
    { "prim::TupleConstruct", B_CONSTRUCT, false },
    { "prim::DictConstruct", B_CONSTRUCT, false },
    { "prim::TupleUnpack", B_EXTRACT, false },
    { "prim::TupleIndex", B_EXTRACT, false },
    { "prim::TupleSlice", B_EXTRACT, false },
    { "prim::ListUnpack", B_EXTRACT, false },
    { "prim::GetAttr", B_EXTRACT, false },
    { "prim::unchecked_cast", B_CAST, false },
    { "prim::SetAttr", B_SETATTR, true },
    { "aten::wait", B_WAIT, true },
    { "aten::batch_norm", B_NORM, false },
    { "aten::instance_norm", B_NORM, false },
    { "prim::If", B_IF, false },
    { "prim::Loop", B_LOOP, false },
    { "prim::CallFunction", B_CONSERVATIVE, true },
    { "prim::CallMethod", B_CONSERVATIVE, true },
    { "prim::fork", B_CONSERVATIVE, true },
    { "prim::Enter", B_CONSERVATIVE, true },
    { "prim::Exit", B_CONSERVATIVE, true },
    { "aten::save", B_CONSERVATIVE, true },
    { "aten::manual_seed", B_CONSERVATIVE, true },
    { "aten::set_grad_enabled", B_CONSERVATIVE, true },
};

static const KindInfo *kind_info(const TsNode *n)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(n->kind, kinds[i].kind) == 0)
            return &kinds[i];
    return NULL;
}

static bool has_annotations(const TsSchema *s)
{
    for (size_t i = 0; i < s->n_args; i++)
        if (s->args[i].alias)
            return true;
    for (size_t i = 0; i < s->n_returns; i++)
        if (s->returns[i].alias)
            return true;
    return false;
}

static bool namespace_is(const char *kind, const char *ns)
{
    size_t len = strlen(ns);
    return strncmp(kind, ns, len) == 0 && kind[len] == ':' && kind[len + 1] == ':';
}

static Behavior behavior_of(const TsNode *n)
{
    const KindInfo *k = kind_info(n);
    if (k)
        return k->behavior;
    const TsOperator *op = n->op;
    if (!op || !op->schema || n->n_blocks)
        return B_CONSERVATIVE;
    if (has_annotations(op->schema))
        return B_SCHEMA;
    return namespace_is(n->kind, "aten") || namespace_is(n->kind, "prim") ? B_FRESH
                                                                         : B_CONSERVATIVE;
}

bool ts_alias_node_is_conservative(const TsNode *n)
{
    return behavior_of(n) == B_CONSERVATIVE;
}

/* Operators whose result is not a function of their inputs: random draws, and the state of
 * gradient mode (which prim::Enter/prim::Exit and set_grad_enabled change). */
static const char *const nondeterministic[] = {
    "aten::is_grad_enabled",
    "aten::dropout", "aten::feature_dropout", "aten::alpha_dropout",
    "aten::feature_alpha_dropout", "aten::native_dropout", "aten::_fused_dropout",
    "aten::bernoulli", "aten::bernoulli_", "aten::multinomial", "aten::normal",
    "aten::normal_", "aten::poisson", "aten::binomial", "aten::rrelu",
    "aten::rrelu_with_noise", "aten::rand", "aten::rand_like", "aten::randint",
    "aten::randint_like", "aten::randn", "aten::randn_like", "aten::randperm",
    "aten::uniform_", "aten::random_", "aten::exponential_", "aten::geometric_",
    "aten::cauchy_", "aten::log_normal_", "aten::_standard_gamma", "aten::_sample_dirichlet",
    "aten::uniform", "aten::exponential", "aten::geometric", "aten::cauchy",
    "aten::log_normal", "aten::seed", "aten::initial_seed",
};

/* Also every aten::rand* operator (rand, randn, randint, randperm and their variants). */
bool ts_alias_node_is_nondeterministic(const TsNode *n)
{
    if (strncmp(n->kind, "aten::rand", 10) == 0)
        return true;
    for (size_t i = 0; i < sizeof nondeterministic / sizeof *nondeterministic; i++)
        if (strcmp(n->kind, nondeterministic[i]) == 0)
            return true;
    return false;
}

/* An operator that returns nothing and writes nothing is called for an effect the schema
 * cannot say (PyTorch registers such operators as conservative). */
static bool returns_nothing(const TsNode *n)
{
    const TsOperator *op = n->op;
    return op && op->schema && op->schema->n_returns == 0 && !op->schema->is_varret &&
           !ts_schema_is_mutable(op->schema);
}

/* Does an operator of n receive an object whose methods it may call (sorting a list of
 * objects calls their __lt__, which may print, raise or write anything)? */
static bool may_call_back(const TsNode *n)
{
    const unsigned objects = 1u << CLS_OBJECT | 1u << CLS_ANY;
    for (size_t i = 0; n->op && i < n->n_inputs; i++) {
        const TsType *t = n->inputs[i]->type;
        int c = class_of(t);
        if ((contained_classes(t) | (c >= 0 ? 1u << c : 0)) & objects)
            return true;
    }
    return false;
}

bool ts_alias_node_has_side_effects(const TsNode *n)
{
    const KindInfo *k = kind_info(n);
    if (k ? k->side_effects
          : behavior_of(n) == B_CONSERVATIVE || returns_nothing(n) || may_call_back(n))
        return true;
    if (ts_alias_node_is_nondeterministic(n))
        return true;
    for (size_t b = 0; b < n->n_blocks; b++)
        for (const TsNode *m = n->blocks[b]->ret->next; m != n->blocks[b]->ret; m = m->next)
            if (ts_alias_node_has_side_effects(m))
                return true;
    return false;
}

static void analyze_block(TsAliasDb *db, const TsBlock *b);

static void analyze_conservative(TsAliasDb *db, const TsNode *n)
{
    for (size_t i = 0; i < n->n_inputs; i++) {
        add_write(db, n, n->inputs[i], true);
        set_wildcard(db, n->inputs[i]);
    }
    for (size_t i = 0; i < n->n_outputs; i++)
        set_wildcard(db, n->outputs[i]);
}

/* A name of an alias set bound to the inputs annotated with it. */
typedef struct Binding {
    const char *name;
    const TsIrValue *value;
    bool contained;            /* bound to what the value contains ("Tensor(a)[]") */
} Binding;

static bool is_wild_name(const char *s)
{
    return strcmp(s, "*") == 0;
}

/* Every binding of each name of an output's annotation: the output points to those
 * inputs (to a wildcard for "*", for contents, and for a name no input bound). */
static void point_output(TsAliasDb *db, const TsIrValue *out, const TsAlias *a,
                         const Binding *bind, size_t n_bind)
{
    for (size_t k = 0; k < a->n_before; k++) {
        bool found = false;
        for (size_t j = 0; j < n_bind && !is_wild_name(a->before[k]); j++) {
            if (strcmp(bind[j].name, a->before[k]) != 0)
                continue;
            found = true;
            if (bind[j].contained)
                set_wildcard(db, out);
            else
                make_pointer_to(db, out, bind[j].value);
        }
        if (!found)
            set_wildcard(db, out);
    }
    /* The output holds the inputs named for its contents: they escape into it. */
    for (size_t k = 0; a->contained && k < a->contained->n_before; k++)
        for (size_t j = 0; j < n_bind; j++)
            if (strcmp(bind[j].name, a->contained->before[k]) == 0)
                set_wildcard(db, bind[j].value);
}

static void analyze_schema(TsAliasDb *db, const TsNode *n, const TsSchema *s)
{
    size_t cap = 0;
    for (size_t i = 0; i < s->n_args; i++)
        if (s->args[i].alias)
            cap += s->args[i].alias->n_before +
                   (s->args[i].alias->contained ? s->args[i].alias->contained->n_before : 0);
    Binding *bind = cap ? calloc(cap, sizeof *bind) : NULL;
    if (cap && !bind) {
        db->failed = true;
        return;
    }
    size_t n_bind = 0;
    for (size_t i = 0; i < s->n_args && i < n->n_inputs; i++) {
        const TsAlias *a = s->args[i].alias;
        const TsIrValue *v = n->inputs[i];
        if (!a)
            continue;
        for (size_t k = 0; k < a->n_before; k++) {
            if (is_wild_name(a->before[k]))
                set_wildcard(db, v);
            else
                bind[n_bind++] = (Binding){ a->before[k], v, false };
        }
        for (size_t k = 0; k < a->n_after; k++)
            if (is_wild_name(a->after[k]))
                set_wildcard(db, v);
        if (a->is_write)
            add_write(db, n, v, false);
        if (a->contained) {
            for (size_t k = 0; k < a->contained->n_before; k++)
                if (!is_wild_name(a->contained->before[k]))
                    bind[n_bind++] = (Binding){ a->contained->before[k], v, true };
            if (a->contained->is_write)
                add_write(db, n, v, true);
        }
    }
    for (size_t i = 0; i < n->n_outputs; i++) {
        const TsAlias *a = i < s->n_returns ? s->returns[i].alias : NULL;
        if (i >= s->n_returns && !s->is_varret)
            continue;
        if (i >= s->n_returns)
            set_wildcard(db, n->outputs[i]);
        else if (a)
            point_output(db, n->outputs[i], a, bind, n_bind);
    }
    free(bind);
}

static bool is_false_constant(const TsIrValue *v)
{
    const TsAttr *a = v->node->kind == ts_symbol("prim::Constant")
                          ? ts_node_attr(v->node, ts_symbol("attr::value")) : NULL;
    return a && a->kind == TS_ATTR_INT && ts_type_kind(v->type) == TS_TYPE_BOOL && a->u.i == 0;
}

static void analyze_node(TsAliasDb *db, const TsNode *n)
{
    switch (behavior_of(n)) {
    case B_SCHEMA:
        analyze_schema(db, n, ((const TsOperator *)n->op)->schema);
        break;
    case B_FRESH:
        break;
    case B_CONSTRUCT:
        for (size_t i = 0; i < n->n_inputs; i++)
            set_wildcard(db, n->inputs[i]);
        break;
    case B_EXTRACT:
        for (size_t i = 0; i < n->n_outputs; i++)
            set_wildcard(db, n->outputs[i]);
        break;
    case B_CAST:
        for (size_t i = 0; i < n->n_outputs && i < n->n_inputs; i++)
            make_pointer_to(db, n->outputs[i], n->inputs[i]);
        break;
    case B_SETATTR:
        if (n->n_inputs >= 1)
            add_write(db, n, n->inputs[0], false);
        for (size_t i = 1; i < n->n_inputs; i++)
            set_wildcard(db, n->inputs[i]);
        break;
    case B_WAIT:
        for (size_t i = 0; i < n->n_outputs; i++)
            set_wildcard(db, n->outputs[i]);
        add_write(db, n, NULL, false);
        break;
    case B_NORM:
        /* Their schemas say nothing, yet in training (input 5) they update running_mean and
         * running_var (inputs 3 and 4) in place, as PyTorch's alias analysis knows too. */
        if (n->n_inputs > 5 && !is_false_constant(n->inputs[5]))
            for (size_t i = 3; i <= 4; i++)
                add_write(db, n, n->inputs[i], false);
        break;
    case B_IF:
        for (size_t b = 0; b < n->n_blocks; b++) {
            analyze_block(db, n->blocks[b]);
            const TsNode *ret = n->blocks[b]->ret;
            for (size_t i = 0; i < n->n_outputs && i < ret->n_inputs; i++)
                make_pointer_to(db, n->outputs[i], ret->inputs[i]);
        }
        break;
    case B_LOOP: {
        if (n->n_blocks != 1)
            break;
        const TsBlock *body = n->blocks[0];
        const TsNode *param = body->param, *ret = body->ret;
        /* carried value i: loop input i+2, body input i+1, body output i+1, output i */
        for (size_t i = 0; i + 1 < param->n_outputs && i + 2 < n->n_inputs; i++)
            make_pointer_to(db, param->outputs[i + 1], n->inputs[i + 2]);
        analyze_block(db, body);
        for (size_t i = 0; i + 1 < ret->n_inputs; i++) {
            if (i + 1 < param->n_outputs)
                make_pointer_to(db, param->outputs[i + 1], ret->inputs[i + 1]);
            if (i < n->n_outputs) {
                make_pointer_to(db, n->outputs[i], ret->inputs[i + 1]);
                if (i + 2 < n->n_inputs)
                    make_pointer_to(db, n->outputs[i], n->inputs[i + 2]);
            }
        }
        break;
    }
    case B_CONSERVATIVE:
        for (size_t b = 0; b < n->n_blocks; b++)
            analyze_block(db, n->blocks[b]);
        analyze_conservative(db, n);
        break;
    }
    for (size_t i = 0; i < n->n_outputs; i++)
        elem_of(db, n->outputs[i]);
}

static void analyze_block(TsAliasDb *db, const TsBlock *b)
{
    for (size_t i = 0; i < b->param->n_outputs; i++)
        elem_of(db, b->param->outputs[i]);
    for (const TsNode *n = b->ret->next; n != b->ret && !db->failed; n = n->next)
        analyze_node(db, n);
}

/* ---- memory locations ------------------------------------------------------------------ */
static uint64_t *bits_new(TsAliasDb *db)
{
    uint64_t *b = calloc(db->words ? db->words : 1, sizeof *b);
    if (!b)
        db->failed = true;
    return b;
}

static void bit_set(uint64_t *b, size_t i) { b[i / 64] |= (uint64_t)1 << (i % 64); }
static bool bit_test(const uint64_t *b, size_t i) { return b[i / 64] >> (i % 64) & 1; }

static void bits_or(const TsAliasDb *db, uint64_t *dst, const uint64_t *src)
{
    for (size_t i = 0; i < db->words; i++)
        dst[i] |= src[i];
}

static bool bits_meet(const TsAliasDb *db, const uint64_t *a, const uint64_t *b)
{
    for (size_t i = 0; i < db->words; i++)
        if (a[i] & b[i])
            return true;
    return false;
}

/* The leaves element e reaches, into out; seen is scratch (cleared by the caller). */
static void collect_leaves(const TsAliasDb *db, size_t e, uint64_t *out, uint64_t *seen)
{
    if (bit_test(seen, e))
        return;
    bit_set(seen, e);
    const Elem *el = &db->elems[e];
    if (el->n_pt == 0) {
        bit_set(out, e);
        return;
    }
    for (size_t i = 0; i < el->n_pt; i++)
        collect_leaves(db, el->pt[i], out, seen);
}

/* The memory locations of element e: cached once the analysis is done; NULL on OOM. */
static const uint64_t *mlocs(TsAliasDb *db, size_t e)
{
    if (db->done && db->elems[e].mloc)
        return db->elems[e].mloc;
    uint64_t *out = bits_new(db), *seen = bits_new(db);
    if (out && seen)
        collect_leaves(db, e, out, seen);
    free(seen);
    if (!out || db->failed) {
        free(out);
        return NULL;
    }
    if (db->done)
        return db->elems[e].mloc = out;
    free(db->elems[e].mloc);
    return db->elems[e].mloc = out;
}

/* Adds to out the locations of v and of everything it may contain. */
static void add_value_locs(TsAliasDb *db, const TsIrValue *v, bool contained, uint64_t *out)
{
    uintptr_t e;
    if (ts_ptrmap_get(&db->of_value, v, &e)) {
        const uint64_t *m = mlocs(db, (size_t)e);
        if (m)
            bits_or(db, out, m);
    }
    if (!contained)
        return;
    unsigned cls = contained_classes(v->type);
    if (cls & 1u << CLS_ANY)
        cls = CLS_ALL;
    for (int c = 0; c < CLS__COUNT; c++)
        if (cls & 1u << c)
            bit_set(out, db->wild[c]);
}

/* Every location a wildcard value reaches becomes part of the wildcard: repeated until no
 * new location is found (each round turns leaves into pointers, so it ends). */
static void spread_wildcards(TsAliasDb *db)
{
    for (bool changed = true; changed && !db->failed;) {
        changed = false;
        for (size_t r = 0; r < db->n_req && !db->failed; r++) {
            const uint64_t *m = mlocs(db, db->wild_req[r]);
            /* the set bits, a word at a time: most words of a big graph's set are zero */
            for (size_t w = 0; m && w < db->words; w++)
                for (uint64_t bits = m[w]; bits; bits &= bits - 1) {
                    size_t e = w * 64 + (size_t)__builtin_ctzll(bits);
                    if (e < CLS__COUNT || e >= db->n_elems)
                        continue;
                    point_to_wildcard(db, e);
                    changed = true;
                }
        }
    }
    for (size_t e = 0; e < db->n_elems; e++) {
        free(db->elems[e].mloc);
        db->elems[e].mloc = NULL;
    }
}

/* The write set of node n, made on first use. */
static uint64_t *wset_of(TsAliasDb *db, const TsNode *n)
{
    uintptr_t i;
    if (ts_ptrmap_get(&db->node_writes, n, &i))
        return db->wsets[i];
    uint64_t **grown = realloc(db->wsets, (db->n_wsets + 1) * sizeof *grown);
    if (!grown) {
        db->failed = true;
        return NULL;
    }
    db->wsets = grown;
    uint64_t *b = bits_new(db);
    if (!b || ts_ptrmap_put(&db->node_writes, n, db->n_wsets) < 0) {
        free(b);
        db->failed = true;
        return NULL;
    }
    return db->wsets[db->n_wsets++] = b;
}

static void record_writes(TsAliasDb *db)
{
    uint64_t *w = bits_new(db);
    for (size_t i = 0; w && i < db->n_writes && !db->failed; i++) {
        const Write *wr = &db->writes[i];
        memset(w, 0, db->words * sizeof *w);
        if (!wr->value)
            for (int c = 0; c < CLS__COUNT; c++)
                bit_set(w, db->wild[c]);
        else
            add_value_locs(db, wr->value, wr->contained, w);
        bits_or(db, db->written, w);
        /* the node and every node whose blocks hold it */
        for (const TsNode *n = wr->node; n && !db->failed;
             n = n->owning_block ? n->owning_block->owning_node : NULL) {
            uint64_t *s = wset_of(db, n);
            if (s)
                bits_or(db, s, w);
        }
    }
    free(w);
}

TsAliasDb *ts_alias_db_new(const TsGraph *g, TsError *err)
{
    TsAliasDb *db = calloc(1, sizeof *db);
    if (!db) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    db->graph = g;
    for (int c = 0; c < CLS__COUNT; c++)
        db->wild[c] = new_elem(db, c);
    const TsBlock *top = ts_graph_block(g);
    for (size_t i = 0; i < top->param->n_outputs; i++)
        set_wildcard(db, top->param->outputs[i]);
    analyze_block(db, top);
    db->words = (db->n_elems + 63) / 64;
    if (!db->failed)
        spread_wildcards(db);
    db->done = true;
    db->written = bits_new(db);
    db->escaping = bits_new(db);
    if (!db->failed) {
        record_writes(db);
        for (int c = 0; c < CLS__COUNT; c++)
            bit_set(db->escaping, db->wild[c]);
        for (size_t i = 0; i < top->ret->n_inputs; i++)
            add_value_locs(db, top->ret->inputs[i], true, db->escaping);
    }
    if (db->failed) {
        ts_alias_db_free(db);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return db;
}

void ts_alias_db_free(TsAliasDb *db)
{
    if (!db)
        return;
    for (size_t i = 0; i < db->n_elems; i++) {
        free(db->elems[i].pt);
        free(db->elems[i].mloc);
    }
    for (size_t i = 0; i < db->n_wsets; i++)
        free(db->wsets[i]);
    free(db->wsets);
    free(db->elems);
    free(db->wild_req);
    free(db->writes);
    free(db->written);
    free(db->escaping);
    ts_ptrmap_free(&db->of_value);
    ts_ptrmap_free(&db->node_writes);
    free(db);
}

/* ---- queries ------------------------------------------------------------------------------
 * The database is read-only for callers; the caches it fills are its own business, so the
 * queries cast const away to fill them (a query that runs out of memory answers "yes, they
 * may": the conservative answer). */
typedef struct Locs {
    uint64_t *bits;
} Locs;

static bool locs_of(const TsAliasDb *cdb, const TsIrValue *const *vs, size_t n, bool contained,
                    Locs *out)
{
    TsAliasDb *db = (TsAliasDb *)cdb;
    out->bits = calloc(db->words ? db->words : 1, sizeof *out->bits);
    if (!out->bits)
        return false;
    for (size_t i = 0; i < n; i++)
        add_value_locs(db, vs[i], contained, out->bits);
    return true;
}

static bool values_meet(const TsAliasDb *db, const TsIrValue *a, const TsIrValue *b,
                        bool contained)
{
    if (!contained && (class_of(a->type) < 0 || class_of(b->type) < 0))
        return false;
    Locs la, lb;
    bool oka = locs_of(db, &a, 1, contained, &la), okb = locs_of(db, &b, 1, contained, &lb);
    bool meet = !oka || !okb || bits_meet(db, la.bits, lb.bits);
    free(la.bits);
    free(lb.bits);
    return meet;
}

bool ts_alias_may_alias(const TsAliasDb *db, const TsIrValue *a, const TsIrValue *b)
{
    return values_meet(db, a, b, false);
}

bool ts_alias_may_contain_alias(const TsAliasDb *db, const TsIrValue *a, const TsIrValue *b)
{
    return values_meet(db, a, b, true);
}

bool ts_alias_has_writers(const TsAliasDb *db, const TsIrValue *v)
{
    if (class_of(v->type) < 0)
        return false;
    Locs l;
    if (!locs_of(db, &v, 1, false, &l))
        return true;
    bool w = bits_meet(db, l.bits, db->written);
    free(l.bits);
    return w;
}

bool ts_alias_node_has_writers(const TsAliasDb *db, const TsNode *n)
{
    for (size_t i = 0; i < n->n_inputs; i++)
        if (ts_alias_has_writers(db, n->inputs[i]))
            return true;
    for (size_t i = 0; i < n->n_outputs; i++)
        if (ts_alias_has_writers(db, n->outputs[i]))
            return true;
    return false;
}

static const uint64_t *writes_of(const TsAliasDb *db, const TsNode *n)
{
    uintptr_t i;
    return ts_ptrmap_get(&db->node_writes, n, &i) ? db->wsets[i] : NULL;
}

bool ts_alias_writes_to_alias(const TsAliasDb *db, const TsNode *n,
                              const TsIrValue *const *values, size_t n_values)
{
    const uint64_t *w = writes_of(db, n);
    if (!w)
        return false;
    Locs l;
    if (!locs_of(db, values, n_values, false, &l))
        return true;
    bool hit = bits_meet(db, w, l.bits);
    free(l.bits);
    return hit;
}

bool ts_alias_writes_to_escaping(const TsAliasDb *db, const TsNode *n)
{
    const uint64_t *w = writes_of(db, n);
    return w && bits_meet(db, w, db->escaping);
}

/* ---- moving nodes ---------------------------------------------------------------------- */
/* What n (and the nodes in its blocks) reads: its inputs and what they contain. */
static bool add_reads(const TsAliasDb *db, const TsNode *n, uint64_t *out)
{
    Locs l;
    if (!locs_of(db, (const TsIrValue *const *)n->inputs, n->n_inputs, true, &l))
        return false;
    bits_or(db, out, l.bits);
    free(l.bits);
    for (size_t b = 0; b < n->n_blocks; b++)
        for (const TsNode *m = n->blocks[b]->ret->next; m != n->blocks[b]->ret; m = m->next)
            if (!add_reads(db, m, out))
                return false;
    return true;
}

/* Does m use a value that n (or a node inside it) defines? */
static bool uses_output_of(const TsNode *m, const TsNode *n)
{
    for (size_t i = 0; i < m->n_inputs; i++) {
        const TsNode *def = m->inputs[i]->node;
        if (def == n || ts_node_is_within(def, n))
            return true;
    }
    for (size_t b = 0; b < m->n_blocks; b++)
        for (const TsNode *k = m->blocks[b]->ret->next; k != m->blocks[b]->ret; k = k->next)
            if (uses_output_of(k, n))
                return true;
    return false;
}

/* May a and b swap places? No data dependence either way, no write of one meeting a read
 * or write of the other, not both with side effects. */
static bool independent(const TsAliasDb *db, const TsNode *a, const TsNode *b)
{
    if (uses_output_of(a, b) || uses_output_of(b, a))
        return false;
    if (ts_alias_node_has_side_effects(a) && ts_alias_node_has_side_effects(b))
        return false;
    const uint64_t *wa = writes_of(db, a), *wb = writes_of(db, b);
    if (!wa && !wb)
        return true;
    uint64_t *ra = calloc(db->words ? db->words : 1, sizeof *ra);
    uint64_t *rb = calloc(db->words ? db->words : 1, sizeof *rb);
    bool ok = ra && rb && add_reads(db, a, ra) && add_reads(db, b, rb);
    if (ok && wa)
        ok = !bits_meet(db, wa, rb) && !(wb && bits_meet(db, wa, wb));
    if (ok && wb)
        ok = !bits_meet(db, wb, ra);
    free(ra);
    free(rb);
    return ok;
}

/* Moves n to just after (after) or before target in the same block, if every node it passes
 * is independent of it. */
static bool try_move(const TsAliasDb *db, TsNode *n, TsNode *target, bool after)
{
    if (!n->owning_block || n->owning_block != target->owning_block)
        return false;
    if (n == target)
        return true;
    bool forward = ts_node_is_before(n, target);
    /* the nodes passed: forward, from n's next up to the new place; backward likewise */
    TsNode *first = forward ? n->next : (after ? target->next : target);
    TsNode *last = forward ? (after ? target : target->prev) : n->prev;
    if (forward ? (!after && target == n->next) : (after && target == n->prev))
        return true;
    for (TsNode *m = first;; m = m->next) {
        if (m == n->owning_block->ret || !independent(db, n, m))
            return false;
        if (m == last)
            break;
    }
    if (after)
        ts_node_move_after(n, target);
    else
        ts_node_move_before(n, target);
    return true;
}

bool ts_alias_move_after_topologically_valid(const TsAliasDb *db, TsNode *n, TsNode *target)
{
    return db && n && target && try_move(db, n, target, true);
}

bool ts_alias_move_before_topologically_valid(const TsAliasDb *db, TsNode *n, TsNode *target)
{
    return db && n && target && try_move(db, n, target, false);
}
