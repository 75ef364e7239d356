/* shape_prop.c — shape and dtype propagation: refines the type of every tensor value with
 * what is certain about it (dtype, device, rank, sizes, strides, requires_grad).
 *
 * As PyTorch's PropagateInputShapes (shape_analysis.cpp), from the graph inputs' types
 * (refined when the executor specialized the graph to its arguments, core/sched/spec.c)
 * and from constants: a walk in program order computes each node's outputs from its
 * inputs by the operator rules (shape.h). Control flow merges: an If's output is what both
 * branches agree on; a loop-carried value starts as the loop's input and is merged with
 * what the body yields until nothing changes (then the loop's outputs are that), or, after
 * a few rounds, given up as an unrefined Tensor.
 *
 * Writes. A type is a fact about the value for its whole life, but an in-place operator
 * changes the tensor it writes: its requires_grad always may change (x.add_(y) with y
 * requiring grad), and its sizes, rank and even dtype may when the writer is not an
 * ordinary in-place operator on its self (out= variants resize; resize_, unsqueeze_, t_,
 * set_ reshape; a call or an operator of another namespace may do anything). So every value
 * that may be written (AliasDb's has_writers) loses requires_grad, and all its facts when the
 * graph has any writer of the second kind.
 *
 * The pass recomputes every tensor type it derives, so running it twice gives the same
 * graph; values it knows nothing about get the plain Tensor type.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/alias.h"
#include "ir/log.h"
#include "ir/passes/passes.h"
#include "ir/passes/shape.h"
#include "registry/optable.h"
#include "sched/dispatch.h"

/* Rounds of a loop body before its carried values are given up */
enum { LOOP_ROUNDS = 8 };

typedef struct Prop {
    const TsPassEnv *env;
    TsAliasDb *db;
    bool reshaping_writes;     /* some node may change the shape or dtype of what it writes */
    bool oom;
    size_t changed;
} Prop;

/* ---- facts <-> types ---------------------------------------------------------------- */
void ts_shape_unknown(TsShape *s)
{
    s->dtype = s->device_type = s->device_index = s->dim = s->requires_grad = -1;
    s->has_strides = false;
}

bool ts_shape_is_tensor(const TsIrValue *v)
{
    return ts_type_kind(v->type) == TS_TYPE_TENSOR;
}

void ts_shape_of(const TsIrValue *v, TsShape *s)
{
    ts_shape_unknown(s);
    const TsTensorTypeInfo *ti = ts_type_tensor_info(v->type);
    if (!ti)
        return;
    s->dtype = ti->dtype;
    s->device_type = ti->device_type;
    s->device_index = ti->device_index;
    s->requires_grad = ti->requires_grad;
    if (ti->dim < 0 || ti->dim > TS_SHAPE_MAX_DIMS)
        return;
    s->dim = ti->dim;
    for (int i = 0; i < ti->dim; i++)
        s->sizes[i] = ti->sizes[i] >= 0 ? ti->sizes[i] : -1;
    s->has_strides = ti->strides != NULL || ti->dim == 0;
    for (int i = 0; ti->strides && i < ti->dim; i++)
        s->strides[i] = ti->strides[i];
}

const TsType *ts_shape_type(const TsShape *s)
{
    TsTensorTypeInfo ti = { s->dtype, s->device_type, s->device_index, s->dim, NULL, NULL,
                            s->requires_grad };
    if (ti.device_type < 0)
        ti.device_type = ti.device_index = -1;
    if (ti.requires_grad < 0)
        ti.requires_grad = -1;
    if (s->dim > 0) {
        ti.sizes = s->sizes;
        bool complete = true;
        for (int i = 0; i < s->dim; i++)
            complete &= s->sizes[i] >= 0;
        /* strides only beside complete sizes, as PyTorch prints them */
        ti.strides = s->has_strides && complete ? s->strides : NULL;
    }
    return ts_type_tensor_refined(&ti);
}

void ts_shape_set_contiguous(TsShape *s)
{
    s->has_strides = s->dim >= 0;
    int64_t stride = 1;
    for (int i = s->dim; i-- > 0;) {
        if (s->sizes[i] < 0) {
            s->has_strides = false;
            return;
        }
        s->strides[i] = stride;
        int64_t m = s->sizes[i] > 1 ? s->sizes[i] : 1;
        if (i > 0 && stride > INT64_MAX / m) {
            /* a stride past int64 (an empty tensor of huge sizes): not stated */
            s->has_strides = false;
            return;
        }
        stride *= m;
    }
}

/* What both a and b state (into a). */
static void merge(TsShape *a, const TsShape *b)
{
    if (a->dtype != b->dtype)
        a->dtype = -1;
    if (a->device_type != b->device_type || a->device_index != b->device_index)
        a->device_type = a->device_index = -1;
    if (a->requires_grad != b->requires_grad)
        a->requires_grad = -1;
    if (a->dim != b->dim) {
        a->dim = -1;
        a->has_strides = false;
        return;
    }
    for (int i = 0; i < a->dim; i++) {
        if (a->sizes[i] != b->sizes[i])
            a->sizes[i] = -1;
        if (a->has_strides && b->has_strides && a->strides[i] != b->strides[i])
            a->has_strides = false;
    }
    a->has_strides &= b->has_strides;
}

/* ---- writes -------------------------------------------------------------------------- */
/* aten's in-place operators that change their self's sizes, rank, strides or storage
 * rather than its elements */
static bool reshapes_self(const char *kind)
{
    static const char *const ops[] = {
        "aten::resize_", "aten::resize_as_", "aten::resize_as_sparse_", "aten::set_",
        "aten::squeeze_", "aten::unsqueeze_", "aten::t_", "aten::transpose_",
        "aten::swapaxes_", "aten::swapdims_", "aten::as_strided_", "aten::sparse_resize_",
        "aten::sparse_resize_and_clear_", "aten::_resize_output_", "aten::_coalesced_", NULL
    };
    for (size_t i = 0; ops[i]; i++)
        if (strcmp(kind, ops[i]) == 0)
            return true;
    return false;
}

/* May a value of type t be, or hold, a tensor? */
static bool holds_tensor_type(const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_TENSOR: case TS_TYPE_ANY: case TS_TYPE_VAR: case TS_TYPE_UNION:
    case TS_TYPE_CLASS: case TS_TYPE_MODULE: case TS_TYPE_INTERFACE: case TS_TYPE_ANY_LIST:
    case TS_TYPE_ANY_TUPLE: case TS_TYPE_ANY_CLASS: case TS_TYPE_FUTURE: case TS_TYPE_RREF:
    case TS_TYPE_CAPSULE:
        return true;
    case TS_TYPE_OPTIONAL: case TS_TYPE_LIST: case TS_TYPE_DICT: case TS_TYPE_TUPLE:
        for (size_t i = 0; i < ts_type_num_elems(t); i++)
            if (holds_tensor_type(ts_type_elem(t, i)))
                return true;
        return false;
    default:
        return false;
    }
}

/* May n change the sizes, rank, dtype or device of a tensor it writes? An aten in-place
 * operator writing its self (add_, copy_, index_put_, ...) keeps them all; anything else
 * that writes a tensor may not. */
static bool reshaping_writer(const TsNode *n)
{
    if (strcmp(n->kind, "prim::If") == 0 || strcmp(n->kind, "prim::Loop") == 0)
        return false;
    if (strcmp(n->kind, "aten::wait") == 0 || ts_alias_node_is_conservative(n))
        return true;
    const TsOperator *op = n->op;
    if (!op || !op->schema)
        return false;
    const TsSchema *s = op->schema;
    bool aten = strncmp(s->name, "aten::", 6) == 0;
    size_t len = strlen(s->name);
    bool inplace = aten && len > 7 && s->name[len - 1] == '_' && !reshapes_self(s->name);
    for (size_t i = 0; i < s->n_args; i++) {
        const TsAlias *a = s->args[i].alias;
        if (!a)
            continue;
        if (a->contained && a->contained->is_write)
            return true;           /* the tensors inside a list */
        TsTypeKind k = ts_type_kind(s->args[i].type);
        bool tensorish = holds_tensor_type(s->args[i].type) && k != TS_TYPE_LIST &&
                         k != TS_TYPE_DICT;   /* writing a container leaves its tensors be */
        if (a->is_write && tensorish && !(inplace && i == 0))
            return true;
    }
    return false;
}

static bool any_reshaping_writer(const TsBlock *b)
{
    for (const TsNode *n = b->ret->next; n != b->ret; n = n->next) {
        if (reshaping_writer(n)) {
            TS_GRAPH_DEBUG("%s may reshape what it writes", n->kind);
            return true;
        }
        for (size_t i = 0; i < n->n_blocks; i++)
            if (any_reshaping_writer(n->blocks[i]))
                return true;
    }
    return false;
}

/* s weakened to what holds for v over its whole life (see the header). */
static void weaken(const Prop *P, const TsIrValue *v, TsShape *s)
{
    if (!ts_alias_has_writers(P->db, v))
        return;
    if (P->reshaping_writes)
        ts_shape_unknown(s);
    s->requires_grad = -1;
}

/* v's type becomes s (weakened); only Tensor-typed values change. */
static void set_facts(Prop *P, TsIrValue *v, TsShape *s)
{
    if (!ts_shape_is_tensor(v))
        return;
    weaken(P, v, s);
    const TsType *t = ts_shape_type(s);
    if (!t) {
        P->oom = true;
        return;
    }
    if (t != v->type) {
        P->changed++;
        v->type = t;
    }
}

/* ---- deriving what the rules leave to the inputs ---------------------------------------- */
/* The facts of the tensors n reads: its Tensor inputs and the elements of a Tensor[] built
 * here. *all says whether every tensor input was seen (else something is unknown). */
typedef struct Inputs {
    int requires_grad;         /* 0 when every input is known not to, else -1 */
    int device_type, device_index;   /* the one device of them all, or -1 */
} Inputs;

static void see(Inputs *in, bool *first, const TsIrValue *v)
{
    TsShape s;
    ts_shape_of(v, &s);
    if (s.requires_grad != 0)
        in->requires_grad = -1;
    if (*first) {
        in->device_type = s.device_type;
        in->device_index = s.device_index;
        *first = false;
    } else if (s.device_type != in->device_type || s.device_index != in->device_index) {
        in->device_type = in->device_index = -1;
    }
}

static Inputs inputs_of(const TsNode *n)
{
    Inputs in = { 0, -1, -1 };
    bool first = true;
    for (size_t i = 0; i < n->n_inputs; i++) {
        const TsIrValue *v = n->inputs[i];
        TsTypeKind k = ts_type_kind(v->type);
        if (k == TS_TYPE_TENSOR) {
            see(&in, &first, v);
        } else if (k == TS_TYPE_LIST && ts_type_kind(ts_type_elem(v->type, 0)) == TS_TYPE_TENSOR
                   && strcmp(v->node->kind, "prim::ListConstruct") == 0) {
            for (size_t j = 0; j < v->node->n_inputs; j++)
                see(&in, &first, v->node->inputs[j]);
        } else if (holds_tensor_type(v->type)) {
            in.requires_grad = -1;          /* tensors we cannot see */
            in.device_type = in.device_index = -1;
            first = false;
        }
    }
    if (first)                              /* no tensor input: the device is the rule's */
        in.device_type = in.device_index = -1;
    return in;
}

static void derive(const TsNode *n, TsShape *s)
{
    if (s->device_type != TS_SHAPE_DERIVE && s->requires_grad != TS_SHAPE_DERIVE)
        return;
    Inputs in = inputs_of(n);
    if (s->device_type == TS_SHAPE_DERIVE) {
        s->device_type = in.device_type;
        s->device_index = in.device_index;
    }
    if (s->requires_grad == TS_SHAPE_DERIVE) {
        /* only floating and complex tensors require grad */
        bool grad_dtype = s->dtype < 0 || ts_dtype_is_floating(s->dtype) ||
                          ts_dtype_is_complex(s->dtype);
        s->requires_grad = grad_dtype ? in.requires_grad : 0;
    }
}

/* ---- the walk ------------------------------------------------------------------------- */
static void prop_block(Prop *P, TsBlock *b);

static void prop_if(Prop *P, TsNode *n)
{
    for (size_t i = 0; i < n->n_blocks; i++)
        prop_block(P, n->blocks[i]);
    for (size_t i = 0; i < n->n_outputs; i++) {
        TsShape s, o;
        ts_shape_unknown(&s);
        for (size_t b = 0; b < n->n_blocks; b++) {
            const TsNode *ret = n->blocks[b]->ret;
            if (i >= ret->n_inputs) {
                ts_shape_unknown(&s);
                break;
            }
            ts_shape_of(ret->inputs[i], b ? &o : &s);
            if (b)
                merge(&s, &o);
        }
        if (n->n_blocks != 2)
            ts_shape_unknown(&s);
        set_facts(P, n->outputs[i], &s);
    }
}

/* carried value i: loop input i+2, body input i+1, body output i+1, loop output i */
static void prop_loop(Prop *P, TsNode *n)
{
    if (n->n_blocks != 1) {
        for (size_t i = 0; i < n->n_outputs; i++) {
            TsShape s;
            ts_shape_unknown(&s);
            set_facts(P, n->outputs[i], &s);
        }
        return;
    }
    TsBlock *body = n->blocks[0];
    TsNode *param = body->param, *ret = body->ret;
    size_t carried = n->n_outputs;
    bool sane = param->n_outputs == carried + 1 && ret->n_inputs == carried + 1 &&
                n->n_inputs == carried + 2;
    for (size_t i = 0; sane && i < carried; i++) {
        TsShape s;
        ts_shape_of(n->inputs[i + 2], &s);
        set_facts(P, param->outputs[i + 1], &s);
    }
    for (int round = 0; sane; round++) {
        prop_block(P, body);
        bool stable = true;
        for (size_t i = 0; i < carried; i++) {
            TsIrValue *p = param->outputs[i + 1];
            if (!ts_shape_is_tensor(p))
                continue;
            TsShape s, o;
            ts_shape_of(p, &s);
            ts_shape_of(ret->inputs[i + 1], &o);
            merge(&s, &o);
            if (round >= LOOP_ROUNDS)
                ts_shape_unknown(&s);      /* widen: the plain Tensor is stable */
            const TsType *before = p->type;
            set_facts(P, p, &s);
            stable &= p->type == before;
        }
        if (stable || P->oom)
            break;
    }
    if (!sane)
        prop_block(P, body);
    for (size_t i = 0; i < carried; i++) {
        TsShape s;
        if (sane)
            ts_shape_of(param->outputs[i + 1], &s);
        else
            ts_shape_unknown(&s);
        set_facts(P, n->outputs[i], &s);
    }
}

/* The pieces of a tensor split by chunk, split or unbind, unpacked from the list the
 * operator returned (x.chunk(4, 1) in an LSTM cell): each has the tensor's dtype, device and
 * requires_grad, and its rank (one less for unbind); the sizes are left unknown. Only for a
 * list nothing writes, so that its items are the operator's. */
static bool prop_unpack_split(Prop *P, TsNode *n)
{
    if (n->n_inputs != 1)
        return false;
    const TsIrValue *list = n->inputs[0];
    const TsNode *d = list->node;
    static const char *const keep_rank[] = {
        "aten::chunk", "aten::split", "aten::split_with_sizes", "aten::unsafe_chunk",
        "aten::unsafe_split", "aten::unsafe_split_with_sizes", "aten::tensor_split", NULL
    };
    int drop = -1;
    for (size_t i = 0; keep_rank[i] && drop < 0; i++)
        if (strcmp(d->kind, keep_rank[i]) == 0)
            drop = 0;
    if (strcmp(d->kind, "aten::unbind") == 0)
        drop = 1;
    if (drop < 0 || d->n_inputs == 0 || !ts_shape_is_tensor(d->inputs[0]) ||
        ts_alias_has_writers(P->db, list))
        return false;
    TsShape self;
    ts_shape_of(d->inputs[0], &self);
    for (size_t i = 0; i < n->n_outputs; i++) {
        TsShape s;
        ts_shape_unknown(&s);
        s.dtype = self.dtype;
        s.device_type = self.device_type;
        s.device_index = self.device_index;
        s.requires_grad = self.requires_grad;
        if (self.dim >= drop) {
            s.dim = self.dim - drop;
            for (int k = 0; k < s.dim; k++)
                s.sizes[k] = -1;
        }
        set_facts(P, n->outputs[i], &s);
    }
    return true;
}

static void prop_node(Prop *P, TsNode *n)
{
    if (strcmp(n->kind, "prim::ListUnpack") == 0 && prop_unpack_split(P, n))
        return;
    if (strcmp(n->kind, "prim::If") == 0) {
        prop_if(P, n);
        return;
    }
    if (strcmp(n->kind, "prim::Loop") == 0) {
        prop_loop(P, n);
        return;
    }
    for (size_t i = 0; i < n->n_blocks; i++)
        prop_block(P, n->blocks[i]);
    bool any = false;
    for (size_t i = 0; i < n->n_outputs && !any; i++)
        any = ts_shape_is_tensor(n->outputs[i]);
    if (!any)
        return;
    TsShape small[2];
    TsShape *out = n->n_outputs <= 2 ? small : malloc(n->n_outputs * sizeof *out);
    if (!out) {
        P->oom = true;
        return;
    }
    for (size_t i = 0; i < n->n_outputs; i++)
        ts_shape_unknown(&out[i]);
    if (n->n_blocks == 0)
        ts_shape_rule(n, P->env, out);
    for (size_t i = 0; i < n->n_outputs; i++) {
        derive(n, &out[i]);
        set_facts(P, n->outputs[i], &out[i]);
    }
    if (out != small)
        free(out);
}

static void prop_block(Prop *P, TsBlock *b)
{
    for (TsNode *n = b->ret->next; n != b->ret && !P->oom; n = n->next)
        prop_node(P, n);
}

/* The nodes bound below, to unbind when done. */
typedef struct Bound {
    TsNode **nodes;
    size_t n, cap;
    bool oom;
} Bound;

/* Binds the nodes whose operator a rewrite of their inputs made them forget (ir/node.c) to
 * the overload the executor would pick for them (ts_resolve_operator): the rules and the
 * alias analysis read their schemas. They are unbound again afterwards, so that the other
 * passes see the graph as they would without this one. */
static void bind_operators(const TsOpTable *ops, TsBlock *b, Bound *bound)
{
    for (TsNode *n = b->ret->next; n != b->ret && !bound->oom; n = n->next) {
        if (!n->op && n->n_blocks == 0 && (n->op = ts_resolve_operator(ops, n))) {
            if (bound->n == bound->cap) {
                size_t cap = bound->cap ? 2 * bound->cap : 32;
                TsNode **m = realloc(bound->nodes, cap * sizeof *m);
                if (!m) {
                    n->op = NULL;
                    bound->oom = true;
                    return;
                }
                bound->nodes = m;
                bound->cap = cap;
            }
            bound->nodes[bound->n++] = n;
        }
        for (size_t i = 0; i < n->n_blocks; i++)
            bind_operators(ops, n->blocks[i], bound);
    }
}

int ts_pass_shape_prop(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    Prop P = { env, NULL, false, false, 0 };
    if (!TS_OPT_ALLOWED)
        return 0;
    Bound bound = { NULL, 0, 0, false };
    if (env->ops)
        bind_operators(env->ops, ts_graph_block(g), &bound);
    P.oom = bound.oom;
    if (!P.oom && !(P.db = ts_alias_db_new(g, err)))
        P.oom = true;
    TsBlock *top = ts_graph_block(g);
    P.reshaping_writes = P.db && any_reshaping_writer(top);
    /* a graph input that the graph writes keeps only what writes cannot change */
    for (size_t i = 0; P.db && i < top->param->n_outputs; i++) {
        TsShape s;
        ts_shape_of(top->param->outputs[i], &s);
        set_facts(&P, top->param->outputs[i], &s);
    }
    if (P.db)
        prop_block(&P, top);
    ts_alias_db_free(P.db);
    for (size_t i = 0; i < bound.n; i++)
        bound.nodes[i]->op = NULL;
    free(bound.nodes);
    if (P.oom)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory propagating shapes");
    if (P.changed)
        TS_GRAPH_UPDATE("refined %zu tensor types of %s", P.changed,
                        env->fn_name ? env->fn_name : "a function");
    TS_GRAPH_DUMP("after shape_prop", g);
    return 0;
}
