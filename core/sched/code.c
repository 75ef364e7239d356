/* code.c — linearizing a graph into Code (see code.h for the instruction set).
 *
 * Two passes over the structured graph. The backward pass computes liveness block by block
 * and records, per node, which inputs are at their last use (moved), which outputs are dead
 * as soon as they are defined, and which values must be dropped at the start of an If
 * branch (live into the other branch only) or at a loop's exit (used inside the loop, dead
 * after it). A value defined outside a loop and used inside stays live for the whole loop.
 * The forward pass assigns registers and emits instructions, patching jump targets; then
 * optimize.c shares registers between copies and fuses compare-and-branch pairs.
 *
 * A call that leaves out trailing arguments passes the callee's schema defaults, as
 * constants of the caller's Code.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptrmap.h"
#include "runtime.h"
#include "ir/passes/passes.h"
#include "ir/passes/pure.h"
#include "sched/capture.h"
#include "sched/code.h"
#include "sched/dispatch.h"
#include "sched/spec.h"

/* ---- bitsets over value numbers -------------------------------------------------- */
typedef struct Bits {
    uint64_t *w;
    size_t n;                  /* words */
} Bits;

static int bits_new(Bits *b, size_t nbits, TsError *err)
{
    b->n = (nbits + 63) / 64 + 1;
    b->w = calloc(b->n, sizeof *b->w);
    return b->w ? 0 : ts_error_set(err, TS_ERR_NOMEM, "out of memory building code");
}
static int bits_copy(Bits *dst, const Bits *src, TsError *err)
{
    dst->n = src->n;
    dst->w = malloc(src->n * sizeof *dst->w);
    if (!dst->w)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory building code");
    memcpy(dst->w, src->w, src->n * sizeof *dst->w);
    return 0;
}
static bool bits_test(const Bits *b, size_t i) { return (b->w[i / 64] >> (i % 64)) & 1; }
static void bits_set(Bits *b, size_t i) { b->w[i / 64] |= (uint64_t)1 << (i % 64); }
static void bits_clear(Bits *b, size_t i) { b->w[i / 64] &= ~((uint64_t)1 << (i % 64)); }

/* ---- per-node analysis results ----------------------------------------------------- */
typedef struct NodeInfo {
    const TsNode *node;
    bool *move;                /* per input: last use */
    bool *dead;                /* per output: never used */
    size_t *drops[2];          /* If: value numbers to drop at the start of block i;
                                  Loop: drops[0] at exit */
    size_t n_drops[2];
} NodeInfo;

typedef struct Builder {
    TsRuntime *rt;
    const TsOpTable *table;
    const TsCompUnit *unit;
    TsCode *code;
    TsError *err;
    size_t cap_instrs, cap_operands, cap_consts, cap_kernels, cap_callees, cap_subcodes,
        cap_types, cap_strs;
    size_t n_values;           /* value numbers are < n_values */
    int32_t *opnd;             /* per value number: register << 1, ~constant, or UNSET */
    bool *refs;                /* per value number: its type may hold a reference */
    TsPtrMap infos;            /* node -> its NodeInfo */
    TsSymbol k_constant, k_if, k_loop, a_value, a_name, a_types, a_subgraph;
} Builder;

#define UNSET INT32_MIN

static int oom(Builder *B) { return ts_error_set(B->err, TS_ERR_NOMEM, "out of memory building code"); }

static NodeInfo *info_find(const Builder *B, const TsNode *n)
{
    uintptr_t ni;
    return ts_ptrmap_get(&B->infos, n, &ni) ? (NodeInfo *)ni : NULL;
}

static void info_free(NodeInfo *ni)
{
    if (!ni)
        return;
    free(ni->move);
    free(ni->dead);
    free(ni->drops[0]);
    free(ni->drops[1]);
    free(ni);
}

/* The analysis record of n, created on first request. */
static NodeInfo *info(Builder *B, const TsNode *n)
{
    NodeInfo *ni = info_find(B, n);
    if (ni)
        return ni;
    ni = calloc(1, sizeof *ni);
    if (!ni)
        return NULL;
    ni->node = n;
    ni->move = calloc(n->n_inputs + 1, sizeof *ni->move);
    ni->dead = calloc(n->n_outputs + 1, sizeof *ni->dead);
    if (!ni->move || !ni->dead || ts_ptrmap_put(&B->infos, n, (uintptr_t)ni) < 0) {
        info_free(ni);
        return NULL;
    }
    return ni;
}

static void infos_free(Builder *B)
{
    size_t pos = 0;
    const void *key;
    uintptr_t ni;
    while (ts_ptrmap_next(&B->infos, &pos, &key, &ni))
        info_free((NodeInfo *)ni);
    ts_ptrmap_free(&B->infos);
}

static bool is_const(const Builder *B, const TsIrValue *v) { return v->node->kind == B->k_constant; }

/* ---- liveness (backward) ------------------------------------------------------------ */
static void mark_uses(Builder *B, const TsNode *n, NodeInfo *ni, Bits *live, size_t from)
{
    for (size_t i = n->n_inputs; i-- > from;) {
        const TsIrValue *v = n->inputs[i];
        if (is_const(B, v))
            continue;
        ni->move[i] = !bits_test(live, v->unique);
        bits_set(live, v->unique);
    }
}

static void mark_defs(Builder *B, const TsNode *n, NodeInfo *ni, Bits *live)
{
    (void)B;
    for (size_t i = 0; i < n->n_outputs; i++) {
        size_t u = n->outputs[i]->unique;
        ni->dead[i] = !bits_test(live, u);
        bits_clear(live, u);
    }
}

/* Values used in b (or blocks nested in it) and defined outside it; defs collects what b
 * defines. Dominance makes one forward walk enough. */
static void free_vars(Builder *B, const TsBlock *b, Bits *defs, Bits *fv)
{
    for (size_t i = 0; i < b->param->n_outputs; i++)
        bits_set(defs, b->param->outputs[i]->unique);
    for (const TsNode *n = b->ret->next;; n = n->next) {
        for (size_t i = 0; i < n->n_inputs; i++) {
            const TsIrValue *v = n->inputs[i];
            if (!is_const(B, v) && !bits_test(defs, v->unique))
                bits_set(fv, v->unique);
        }
        if (n == b->ret)
            break;
        for (size_t k = 0; k < n->n_blocks; k++)
            free_vars(B, n->blocks[k], defs, fv);
        for (size_t i = 0; i < n->n_outputs; i++)
            bits_set(defs, n->outputs[i]->unique);
    }
}

/* The value numbers set in a but not in b, as a malloc'd array. */
static int bits_minus(Builder *B, const Bits *a, const Bits *b, size_t **out, size_t *n)
{
    size_t count = 0;
    for (size_t i = 0; i < a->n; i++)
        count += (size_t)__builtin_popcountll(a->w[i] & ~b->w[i]);
    *n = count;
    *out = NULL;
    if (!count)
        return 0;
    *out = malloc(count * sizeof **out);
    if (!*out)
        return oom(B);
    size_t k = 0;
    for (size_t i = 0; i < a->n; i++)
        for (uint64_t w = a->w[i] & ~b->w[i]; w; w &= w - 1)
            (*out)[k++] = i * 64 + (size_t)__builtin_ctzll(w);
    return 0;
}

static int analyze_block(Builder *B, const TsBlock *b, Bits *live);

static int analyze_if(Builder *B, const TsNode *n, NodeInfo *ni, Bits *live)
{
    Bits in[2] = {{NULL, 0}, {NULL, 0}};
    int rc = 0;
    for (int k = 0; k < 2 && !rc; k++)
        rc = bits_copy(&in[k], live, B->err) || analyze_block(B, n->blocks[k], &in[k]);
    if (!rc) {
        for (size_t i = 0; i < live->n; i++)
            live->w[i] = in[0].w[i] | in[1].w[i];
        for (int k = 0; k < 2 && !rc; k++)
            rc = bits_minus(B, live, &in[k], &ni->drops[k], &ni->n_drops[k]);
    }
    free(in[0].w);
    free(in[1].w);
    if (!rc)
        mark_uses(B, n, ni, live, 0);
    return rc;
}

static int analyze_loop(Builder *B, const TsNode *n, NodeInfo *ni, Bits *live)
{
    Bits defs = {NULL, 0}, fv = {NULL, 0}, body = {NULL, 0};
    int rc = bits_new(&defs, B->n_values, B->err) || bits_new(&fv, B->n_values, B->err) ||
             bits_copy(&body, live, B->err);
    if (!rc) {
        free_vars(B, n->blocks[0], &defs, &fv);
        for (size_t i = 0; i < body.n; i++)
            body.w[i] |= fv.w[i];
        rc = analyze_block(B, n->blocks[0], &body);
    }
    if (!rc)
        rc = bits_minus(B, &fv, live, &ni->drops[0], &ni->n_drops[0]);
    if (!rc) {
        for (size_t i = 0; i < live->n; i++)
            live->w[i] |= body.w[i];
        mark_uses(B, n, ni, live, 0);
    }
    free(defs.w);
    free(fv.w);
    free(body.w);
    return rc;
}

/* live: the values live after b on entry, live before it on return. */
static int analyze_block(Builder *B, const TsBlock *b, Bits *live)
{
    NodeInfo *ri = info(B, b->ret);
    if (!ri)
        return oom(B);
    mark_uses(B, b->ret, ri, live, 0);
    for (const TsNode *n = b->ret->prev; n != b->ret; n = n->prev) {
        NodeInfo *ni = info(B, n);
        if (!ni)
            return oom(B);
        mark_defs(B, n, ni, live);
        int rc;
        if (n->kind == B->k_if && n->n_blocks == 2)
            rc = analyze_if(B, n, ni, live);
        else if (n->kind == B->k_loop && n->n_blocks == 1)
            rc = analyze_loop(B, n, ni, live);
        else
            rc = (mark_uses(B, n, ni, live, 0), 0);
        if (rc)
            return rc;
    }
    NodeInfo *pi = info(B, b->param);
    if (!pi)
        return oom(B);
    mark_defs(B, b->param, pi, live);
    return 0;
}

/* ---- growing the Code's arrays ------------------------------------------------------ */
static int grow(Builder *B, void *parray, size_t elem, size_t n, size_t *cap, size_t more)
{
    void **array = parray;
    if (n + more <= *cap)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < n + more)
        c *= 2;
    if (c > INT32_MAX / 2)
        return ts_error_set(B->err, TS_ERR_LIMIT, "function too large to run (%zu items)", n);
    void *p = realloc(*array, c * elem);
    if (!p)
        return oom(B);
    *array = p;
    *cap = c;
    return 0;
}

static long add_type(Builder *B, const TsType *t)
{
    TsCode *c = B->code;
    if (grow(B, &c->types, sizeof *c->types, c->n_types, &B->cap_types, 1))
        return -1;
    c->types[c->n_types] = t;
    return (long)c->n_types++;
}

static long add_const(Builder *B, TsValue v)
{
    TsCode *c = B->code;
    if (grow(B, &c->consts, sizeof *c->consts, c->n_consts, &B->cap_consts, 1)) {
        ts_value_release(v);
        return -1;
    }
    c->consts[c->n_consts] = v;
    return (long)c->n_consts++;
}

static int32_t new_reg(Builder *B)
{
    return (int32_t)B->code->n_regs++;
}

/* The operand for a use of v. */
static int32_t use(const Builder *B, const TsIrValue *v, bool move)
{
    int32_t o = B->opnd[v->unique];
    return o < 0 ? o : o | (move ? 1 : 0);
}

static int32_t reg_of(const Builder *B, const TsIrValue *v) { return B->opnd[v->unique] >> 1; }

/* Appends an instruction; returns its index or -1. */
static long emit(Builder *B, TsOpcode op, const TsNode *node)
{
    TsCode *c = B->code;
    if (grow(B, &c->instrs, sizeof *c->instrs, c->n_instrs, &B->cap_instrs, 1))
        return -1;
    TsInstr *in = &c->instrs[c->n_instrs];
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op;
    in->node = node;
    in->a = in->b = in->c = in->d = -1;
    in->args = (uint32_t)c->n_operands;
    return (long)c->n_instrs++;
}

static int push_operand(Builder *B, int32_t o)
{
    TsCode *c = B->code;
    if (grow(B, &c->operands, sizeof *c->operands, c->n_operands, &B->cap_operands, 1))
        return -1;
    c->operands[c->n_operands++] = o;
    return 0;
}

/* An instruction with node n's inputs (moved per ni) and outputs as its operand lists. */
static long emit_node_args(Builder *B, TsOpcode op, const TsNode *n, const NodeInfo *ni,
                           size_t skip)
{
    long at = emit(B, op, n);
    if (at < 0)
        return -1;
    for (size_t i = skip; i < n->n_inputs; i++)
        if (push_operand(B, use(B, n->inputs[i], ni->move[i])))
            return -1;
    for (size_t i = 0; i < n->n_outputs; i++)
        if (push_operand(B, reg_of(B, n->outputs[i])))
            return -1;
    TsInstr *in = &B->code->instrs[at];
    in->n_in = (uint16_t)(n->n_inputs - skip);
    in->n_out = (uint16_t)n->n_outputs;
    return at;
}

static bool holds_ref(const TsType *t);

/* DROP of the registers of the listed value numbers (constants have none). */
static int emit_drops(Builder *B, const size_t *vals, size_t n, const TsNode *node)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (B->opnd[vals[i]] >= 0 && B->refs[vals[i]])
            count++;
    if (!count)
        return 0;
    long at = emit(B, TS_OP_DROP, node);
    if (at < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (B->opnd[vals[i]] >= 0 && B->refs[vals[i]] &&
            push_operand(B, B->opnd[vals[i]] >> 1))
            return -1;
    B->code->instrs[at].n_in = (uint16_t)count;
    return 0;
}

/* Values of these types hold no reference: dropping them is a no-op. */
static bool holds_ref(const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_INT: case TS_TYPE_FLOAT: case TS_TYPE_BOOL: case TS_TYPE_NONE:
    case TS_TYPE_DEVICE: case TS_TYPE_SCALARTYPE: case TS_TYPE_LAYOUT:
    case TS_TYPE_MEMORYFORMAT:
        return false;
    default:
        return true;
    }
}

static int emit_dead_outputs(Builder *B, const TsNode *n, const NodeInfo *ni)
{
    size_t vals[64], k = 0;
    for (size_t i = 0; i < n->n_outputs; i++) {
        if (!ni->dead[i] || !holds_ref(n->outputs[i]->type))
            continue;
        vals[k++] = n->outputs[i]->unique;
        if (k == 64) {
            if (emit_drops(B, vals, k, n))
                return -1;
            k = 0;
        }
    }
    return k ? emit_drops(B, vals, k, n) : 0;
}

/* MOVES of `count` inputs of node `from` (starting at input `first`, moved per its info)
 * into the registers of the values dst[0..count). */
static int emit_moves(Builder *B, const TsNode *from, const NodeInfo *fi, size_t first,
                      TsIrValue *const *dst, size_t count)
{
    if (!count)
        return 0;
    long at = emit(B, TS_OP_MOVES, NULL);
    if (at < 0)
        return -1;
    for (size_t i = 0; i < count; i++)
        if (push_operand(B, use(B, from->inputs[first + i], fi->move[first + i])))
            return -1;
    for (size_t i = 0; i < count; i++)
        if (push_operand(B, reg_of(B, dst[i])))
            return -1;
    B->code->instrs[at].n_in = B->code->instrs[at].n_out = (uint16_t)count;
    return 0;
}

/* ---- constants -------------------------------------------------------------------- */
static int materialize(Builder *B, const TsNode *n, TsValue *out)
{
    return ts_constant_value(n, out, B->err);
}

/* ---- registers -------------------------------------------------------------------- */
static void number_block(Builder *B, const TsBlock *b, size_t *max)
{
    for (size_t i = 0; i < b->param->n_outputs; i++)
        if (b->param->outputs[i]->unique > *max)
            *max = b->param->outputs[i]->unique;
    for (const TsNode *n = b->ret->next; n != b->ret; n = n->next) {
        for (size_t i = 0; i < n->n_outputs; i++)
            if (n->outputs[i]->unique > *max)
                *max = n->outputs[i]->unique;
        for (size_t k = 0; k < n->n_blocks; k++)
            number_block(B, n->blocks[k], max);
    }
}

static void set_reg(Builder *B, const TsIrValue *v)
{
    B->opnd[v->unique] = new_reg(B) << 1;
    B->refs[v->unique] = holds_ref(v->type);
}

static int assign_block(Builder *B, const TsBlock *b)
{
    for (size_t i = 0; i < b->param->n_outputs; i++)
        set_reg(B, b->param->outputs[i]);
    for (const TsNode *n = b->ret->next; n != b->ret; n = n->next) {
        if (n->kind == B->k_constant) {
            if (n->n_outputs != 1)
                return ts_error_at(B->err, TS_ERR_RUNTIME, n->range,
                                   "prim::Constant must have one output");
            TsValue v;
            if (materialize(B, n, &v))
                return -1;
            long k = add_const(B, v);
            if (k < 0)
                return -1;
            B->opnd[n->outputs[0]->unique] = ~(int32_t)k;
            continue;
        }
        for (size_t i = 0; i < n->n_outputs; i++)
            set_reg(B, n->outputs[i]);
        for (size_t k = 0; k < n->n_blocks; k++)
            if (assign_block(B, n->blocks[k]))
                return -1;
    }
    return 0;
}

/* ---- operator resolution ------------------------------------------------------------ */
/* Operators whose tensor outputs never require grad (PyTorch's non-differentiable ones
 * with floating outputs: detaching, and making new tensors shaped like another), and the
 * fills of torch.nn.init, which write with autograd off. */
static bool nondifferentiable(const char *kind)
{
    static const char *const ops[] = {
        "aten::detach", "aten::detach_", "aten::zeros_like", "aten::ones_like",
        "aten::empty_like", "aten::full_like", "aten::rand_like", "aten::randn_like",
        "aten::randint_like", "aten::new_zeros", "aten::new_ones", "aten::new_empty",
        "aten::new_full", "aten::new_empty_strided", "aten::requires_grad_", "prim::data",
        "aten::_shape_as_tensor", "aten::_no_grad_uniform_", "aten::_no_grad_normal_",
        "aten::_no_grad_fill_", "aten::_no_grad_zero_", NULL
    };
    for (size_t i = 0; ops[i]; i++)
        if (strcmp(kind, ops[i]) == 0)
            return true;
    return false;
}

static bool differentiable(const TsNode *n)
{
    if (nondifferentiable(n->kind))
        return false;
    bool in = false, out = false;
    for (size_t i = 0; i < n->n_inputs && !in; i++)
        in = ts_type_holds_tensors(n->inputs[i]->type);
    for (size_t i = 0; i < n->n_outputs && !out; i++)
        out = ts_type_holds_tensors(n->outputs[i]->type);
    return in && out;
}

/* The node's operator, else the overload its types choose (dispatch.c), else an error. */
static const TsOperator *resolve_op(Builder *B, const TsNode *n)
{
    if (strcmp(n->kind, TS_CAPTURE_REGION) == 0) {
        const TsOperator *region = ts_capture_operator();
        if (!region)
            ts_error_set(B->err, TS_ERR_NOMEM, "out of memory");
        return region;
    }
    const TsOperator *op = ts_resolve_operator(B->table, n);
    if (op)
        return op;
    if (!ts_optable_settled(B->table)) {            /* a deferred plugin's, perhaps */
        if (ts_optable_complete(B->table, B->err))
            return NULL;
        if ((op = ts_resolve_operator(B->table, n)))
            return op;
    }
    const TsOperator *any[1];
    if (ts_optable_overloads(B->table, n->kind, any, 1) == 0)
        ts_error_at(B->err, TS_ERR_RUNTIME, n->range, "Unknown builtin op: %s", n->kind);
    else
        ts_error_at(B->err, TS_ERR_RUNTIME, n->range,
                    "no overload of %s accepts these argument types", n->kind);
    return NULL;
}

/* Whether a value of type t may be a list, dict or object, or hold one: a kernel taking
 * only tensors and scalars never touches a shared container. */
static bool may_hold_container(const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_TENSOR: case TS_TYPE_INT: case TS_TYPE_FLOAT: case TS_TYPE_BOOL:
    case TS_TYPE_STR: case TS_TYPE_COMPLEX: case TS_TYPE_NUMBER: case TS_TYPE_DEVICE:
    case TS_TYPE_SCALARTYPE: case TS_TYPE_LAYOUT: case TS_TYPE_MEMORYFORMAT:
    case TS_TYPE_QSCHEME: case TS_TYPE_NONE: case TS_TYPE_GENERATOR: case TS_TYPE_STORAGE:
    case TS_TYPE_STREAM:
        return false;
    case TS_TYPE_OPTIONAL:
        return may_hold_container(ts_type_elem(t, 0));
    default:
        return true;
    }
}

static long bind_kernel(Builder *B, const TsNode *n, const TsOperator *op)
{
    char full[256];
    ts_operator_full_name(op, full, sizeof full);
    if (!op->n_kernels) {
        ts_error_at(B->err, TS_ERR_RUNTIME, n->range, "operator %s has no kernel", full);
        return -1;
    }
    TsCode *c = B->code;
    if (grow(B, &c->kernels, sizeof *c->kernels, c->n_kernels, &B->cap_kernels, 1))
        return -1;
    TsBoundKernel *k = &c->kernels[c->n_kernels];
    memset(k, 0, sizeof *k);
    k->op = op;
    const TsKernelEntry *e = ts_dispatch_bind(k, n, B->rt);
    k->fixed_outputs = !op->schema->is_varret;
    k->grad = differentiable(n);
    for (size_t i = 0; i < n->n_inputs && !k->containers; i++)
        k->containers = may_hold_container(n->inputs[i]->type);
    if (e->factory && ts_dispatch_instantiate(k, e, n, B->err))
        return -1;
    return (long)c->n_kernels++;
}

/* Opcodes of operators on known types. */
static const struct {
    const char *name, *overload;
    TsOpcode op;
} fast_ops[] = {
    {"aten::add", "int", TS_OP_ADD_I}, {"aten::sub", "int", TS_OP_SUB_I},
    {"aten::mul", "int", TS_OP_MUL_I}, {"aten::floordiv", "int", TS_OP_FLOORDIV_I},
    {"aten::remainder", "int", TS_OP_REM_I},
    {"aten::lt", "int", TS_OP_LT_I}, {"aten::le", "int", TS_OP_LE_I},
    {"aten::gt", "int", TS_OP_GT_I}, {"aten::ge", "int", TS_OP_GE_I},
    {"aten::eq", "int", TS_OP_EQ_I}, {"aten::ne", "int", TS_OP_NE_I},
    {"aten::add", "float", TS_OP_ADD_F}, {"aten::sub", "float", TS_OP_SUB_F},
    {"aten::mul", "float", TS_OP_MUL_F},
    {"aten::lt", "float", TS_OP_LT_F}, {"aten::le", "float", TS_OP_LE_F},
    {"aten::gt", "float", TS_OP_GT_F}, {"aten::ge", "float", TS_OP_GE_F},
    {"aten::eq", "float", TS_OP_EQ_F}, {"aten::ne", "float", TS_OP_NE_F},
    {"aten::__not__", "", TS_OP_NOT},
    {"aten::__getitem__", "t", TS_OP_LIST_GETITEM}, {"aten::append", "t", TS_OP_LIST_APPEND},
    {"aten::len", "t", TS_OP_LIST_LEN}, {"aten::str", "", TS_OP_STR},
};

/* Dict operators with an opcode: one overload per key type, the overload named by a
 * prefix and the key type (aten::__getitem__.Dict_str). */
static const struct {
    const char *name, *prefix;
    TsOpcode op;
} dict_ops[] = {
    {"aten::__getitem__", "Dict_", TS_OP_DICT_GETITEM},
    {"aten::get", "default_", TS_OP_DICT_GET_DEFAULT},
    {"aten::_set_item", "", TS_OP_DICT_SETITEM},
};

static const char *const dict_key_types[] = {"str", "int", "bool", "float", "complex", "Tensor"};

/* The opcode of op, or KERNEL when it has none. */
static TsOpcode fast_op_of(const TsOperator *op)
{
    const char *name = op->schema->name, *overload = op->schema->overload;
    for (size_t i = 0; i < sizeof fast_ops / sizeof fast_ops[0]; i++)
        if (strcmp(name, fast_ops[i].name) == 0 && strcmp(overload, fast_ops[i].overload) == 0)
            return fast_ops[i].op;
    for (size_t i = 0; i < sizeof dict_ops / sizeof dict_ops[0]; i++) {
        size_t n = strlen(dict_ops[i].prefix);
        if (strcmp(name, dict_ops[i].name) != 0 || strncmp(overload, dict_ops[i].prefix, n) != 0)
            continue;
        for (size_t k = 0; k < sizeof dict_key_types / sizeof dict_key_types[0]; k++)
            if (strcmp(overload + n, dict_key_types[k]) == 0)
                return dict_ops[i].op;
    }
    return TS_OP_KERNEL;
}

static int emit_kernel_node(Builder *B, const TsNode *n, const NodeInfo *ni)
{
    const TsOperator *op = resolve_op(B, n);
    if (!op)
        return -1;
    long k = bind_kernel(B, n, op);
    if (k < 0)
        return -1;
    TsOpcode code = fast_op_of(op);
    long at = emit_node_args(B, code, n, ni, 0);
    if (at < 0)
        return -1;
    TsInstr *in = &B->code->instrs[at];
    in->aux = (uint32_t)k;
    if (code <= TS_OP_NOT) {
        in->a = use(B, n->inputs[0], ni->move[0]);
        if (n->n_inputs > 1)
            in->b = use(B, n->inputs[1], ni->move[1]);
        in->c = reg_of(B, n->outputs[0]);
    }
    if (code == TS_OP_LIST_APPEND && n->n_outputs == 1 && ni->dead[0]) {
        in->d = 1;             /* the list it returns is unused: left unset, nothing to DROP */
        return 0;
    }
    return emit_dead_outputs(B, n, ni);
}

/* ---- emitting nodes ---------------------------------------------------------------- */
static int emit_block(Builder *B, const TsBlock *b);

static void patch(Builder *B, long at, size_t target)
{
    B->code->instrs[at].target = (uint32_t)target;
}

static int emit_if(Builder *B, const TsNode *n, const NodeInfo *ni)
{
    long jf = emit(B, TS_OP_JUMP_IF_FALSE, n);
    if (jf < 0)
        return -1;
    B->code->instrs[jf].a = use(B, n->inputs[0], ni->move[0]);
    long jend = -1;
    for (int k = 0; k < 2; k++) {
        const TsBlock *b = n->blocks[k];
        if (k == 1)
            patch(B, jf, B->code->n_instrs);
        if (emit_drops(B, ni->drops[k], ni->n_drops[k], n) || emit_block(B, b))
            return -1;
        const NodeInfo *ri = info_find(B, b->ret);
        if (emit_moves(B, b->ret, ri, 0, n->outputs, n->n_outputs))
            return -1;
        if (k == 0 && (jend = emit(B, TS_OP_JUMP, NULL)) < 0)
            return -1;
    }
    patch(B, jend, B->code->n_instrs);
    return emit_dead_outputs(B, n, ni);
}

static int emit_loop(Builder *B, const TsNode *n, const NodeInfo *ni)
{
    const TsBlock *body = n->blocks[0];
    size_t n_carried = n->n_outputs;
    if (n->n_inputs != 2 + n_carried || body->param->n_outputs != 1 + n_carried ||
        body->ret->n_inputs != 1 + n_carried)
        return ts_error_at(B->err, TS_ERR_RUNTIME, n->range, "malformed prim::Loop");
    const TsIrValue *max = n->inputs[0], *iv = body->param->outputs[0];
    bool counted = true;
    if (is_const(B, max) && iv->n_uses == 0) {
        TsValue m = B->code->consts[~B->opnd[max->unique]];
        counted = !(m.tag == TS_TAG_INT && m.u.i == INT64_MAX);
    }
    if (emit_moves(B, n, ni, 2, body->param->outputs + 1, n_carried))
        return -1;
    int32_t ctr = counted ? new_reg(B) : -1;
    int32_t ireg = iv->n_uses ? reg_of(B, iv) : -1;
    long enter = emit(B, counted ? TS_OP_LOOP_ENTER : TS_OP_JUMP_IF_FALSE, n);
    if (enter < 0)
        return -1;
    TsInstr *in = &B->code->instrs[enter];
    in->a = use(B, n->inputs[1], ni->move[1]);
    in->b = use(B, max, false);
    in->c = ctr;
    in->d = ireg;
    size_t top = B->code->n_instrs;
    const NodeInfo *pi = info_find(B, body->param);
    for (size_t i = 1; i < body->param->n_outputs; i++) {
        size_t u = body->param->outputs[i]->unique;
        if (pi->dead[i] && emit_drops(B, &u, 1, n))
            return -1;
    }
    if (emit_block(B, body))
        return -1;
    const NodeInfo *ri = info_find(B, body->ret);
    if (emit_moves(B, body->ret, ri, 1, body->param->outputs + 1, n_carried))
        return -1;
    long next = emit(B, counted ? TS_OP_LOOP_NEXT : TS_OP_JUMP_IF_TRUE, n);
    if (next < 0)
        return -1;
    in = &B->code->instrs[next];
    in->a = use(B, body->ret->inputs[0], ri->move[0]);
    in->b = use(B, max, false);
    in->c = ctr;
    in->d = ireg;
    in->target = (uint32_t)top;
    patch(B, enter, B->code->n_instrs);
    /* at exit the carried values move from the body's registers to the loop's outputs */
    if (n_carried) {
        long mv = emit(B, TS_OP_MOVES, NULL);
        if (mv < 0)
            return -1;
        for (size_t i = 0; i < n_carried; i++)
            if (push_operand(B, reg_of(B, body->param->outputs[1 + i]) << 1 | 1))
                return -1;
        for (size_t i = 0; i < n_carried; i++)
            if (push_operand(B, reg_of(B, n->outputs[i])))
                return -1;
        B->code->instrs[mv].n_in = B->code->instrs[mv].n_out = (uint16_t)n_carried;
    }
    if (emit_drops(B, ni->drops[0], ni->n_drops[0], n))
        return -1;
    return emit_dead_outputs(B, n, ni);
}

static const char *attr_str(const Builder *B, const TsNode *n, TsSymbol name)
{
    (void)B;
    const TsAttr *a = ts_node_attr(n, name);
    return a && a->kind == TS_ATTR_STR ? a->u.s : NULL;
}

static long add_callee(Builder *B, TsFunction *f)
{
    TsCode *c = B->code;
    for (size_t i = 0; i < c->n_callees; i++)
        if (c->callees[i] == f)
            return (long)i;
    if (grow(B, &c->callees, sizeof *c->callees, c->n_callees, &B->cap_callees, 1))
        return -1;
    c->callees[c->n_callees] = f;
    return (long)c->n_callees++;
}

static size_t graph_n_inputs(const TsGraph *g) { return ts_graph_block(g)->param->n_outputs; }

static int emit_call(Builder *B, const TsNode *n, const NodeInfo *ni, bool method)
{
    const char *name = attr_str(B, n, B->a_name);
    size_t skip = 0;
    if (!name && !method && n->n_inputs && is_const(B, n->inputs[0])) {
        name = attr_str(B, n->inputs[0]->node, B->a_name);     /* PyTorch's Function input */
        skip = 1;
    }
    if (!name)
        return ts_error_at(B->err, TS_ERR_RUNTIME, n->range, "%s without a name", n->kind);
    TsFunction *f = NULL;
    if (method) {
        if (!n->n_inputs)
            return ts_error_at(B->err, TS_ERR_RUNTIME, n->range, "method call without self");
        TsTypeKind k = ts_type_kind(n->inputs[0]->type);
        if (k != TS_TYPE_CLASS && k != TS_TYPE_MODULE) {
            TsCode *c = B->code;
            if (grow(B, &c->strs, sizeof *c->strs, c->n_strs, &B->cap_strs, 1))
                return -1;
            c->strs[c->n_strs] = name;
            long at = emit_node_args(B, TS_OP_CALL_METHOD, n, ni, 0);
            if (at < 0)
                return -1;
            c->instrs[at].aux = (uint32_t)c->n_strs++;
            return emit_dead_outputs(B, n, ni);
        }
        if (ts_unit_method((TsCompUnit *)B->unit, n->inputs[0]->type, name, &f, B->err) != 0)
            return -1;
    } else {
        f = ts_unit_find_called(B->unit, name);
    }
    if (!f)
        return ts_error_at(B->err, TS_ERR_RUNTIME, n->range, "unknown %s '%s'",
                           method ? "method" : "function", name);
    size_t given = n->n_inputs - skip, want = graph_n_inputs(f->graph);
    /* a method's schema may leave self out: schema argument i is graph input i + shift */
    size_t shift = f->schema && f->schema->n_args <= want ? want - f->schema->n_args : want;
    bool defaults = given < want && given >= shift && shift <= 1;
    for (size_t i = given; i < want && defaults; i++)
        defaults = f->schema->args[i - shift].has_default;
    size_t first_default = defaults ? given : want;
    if (given > want || (given < want && first_default != given))
        return ts_error_at(B->err, TS_ERR_RUNTIME, n->range,
                           "%s() expects %zu arguments but the call passes %zu", f->qualname,
                           want, given);
    if (ts_graph_block(f->graph)->ret->n_inputs != n->n_outputs)
        return ts_error_at(B->err, TS_ERR_RUNTIME, n->range,
                           "%s() returns %zu values but the call takes %zu", f->qualname,
                           ts_graph_block(f->graph)->ret->n_inputs, n->n_outputs);
    long k = add_callee(B, f);
    long at = k < 0 ? -1 : emit(B, TS_OP_CALL, n);
    if (at < 0)
        return -1;
    /* the arguments passed, then the defaults of those left out, then the outputs */
    for (size_t i = skip; i < n->n_inputs; i++)
        if (push_operand(B, use(B, n->inputs[i], ni->move[i])))
            return -1;
    for (size_t i = given; i < want; i++) {
        TsValue d = f->schema->args[i - shift].default_value;
        ts_value_retain(d);
        long kd = add_const(B, d);
        if (kd < 0 || push_operand(B, ~(int32_t)kd))
            return -1;
    }
    for (size_t i = 0; i < n->n_outputs; i++)
        if (push_operand(B, reg_of(B, n->outputs[i])))
            return -1;
    TsInstr *in = &B->code->instrs[at];
    in->n_in = (uint16_t)want;
    in->n_out = (uint16_t)n->n_outputs;
    in->aux = (uint32_t)k;
    return emit_dead_outputs(B, n, ni);
}

static int emit_fork(Builder *B, const TsNode *n, const NodeInfo *ni)
{
    const TsAttr *a = ts_node_attr(n, B->a_subgraph);
    if (!a || a->kind != TS_ATTR_GRAPH || n->n_outputs != 1)
        return ts_error_at(B->err, TS_ERR_RUNTIME, n->range, "prim::fork without a subgraph");
    if (graph_n_inputs(a->u.g) != n->n_inputs)
        return ts_error_at(B->err, TS_ERR_RUNTIME, n->range,
                           "prim::fork passes %zu values to a subgraph of %zu inputs",
                           n->n_inputs, graph_n_inputs(a->u.g));
    TsCode *c = B->code;
    if (grow(B, &c->subcodes, sizeof *c->subcodes, c->n_subcodes, &B->cap_subcodes, 1))
        return -1;
    TsCode *sub = ts_code_build(B->rt, B->unit, a->u.g, c->name, B->err);
    if (!sub)
        return -1;
    c->subcodes[c->n_subcodes] = sub;
    long ty = add_type(B, ts_type_elem(n->outputs[0]->type, 0));
    long at = ty < 0 ? -1 : emit_node_args(B, TS_OP_FORK, n, ni, 0);
    if (at < 0)
        return -1;
    c->instrs[at].aux = (uint32_t)c->n_subcodes++;
    c->instrs[at].d = (int32_t)ty;
    return emit_dead_outputs(B, n, ni);
}

/* Nodes with an opcode of their own, by kind. */
static TsOpcode prim_opcode(const TsNode *n)
{
    static const struct {
        const char *kind;
        TsOpcode op;
    } prims[] = {
        {"prim::TupleConstruct", TS_OP_TUPLE_CONSTRUCT}, {"prim::TupleUnpack", TS_OP_TUPLE_UNPACK},
        {"prim::TupleIndex", TS_OP_TUPLE_INDEX}, {"prim::ListConstruct", TS_OP_LIST_CONSTRUCT},
        {"prim::ListUnpack", TS_OP_LIST_UNPACK}, {"prim::DictConstruct", TS_OP_DICT_CONSTRUCT},
        {"prim::Uninitialized", TS_OP_UNINITIALIZED}, {"prim::RaiseException", TS_OP_RAISE},
        {"prim::isinstance", TS_OP_ISINSTANCE}, {"aten::__is__", TS_OP_IS},
        {"aten::__isnot__", TS_OP_ISNOT}, {"prim::unchecked_cast", TS_OP_COPY},
        {"prim::GetAttr", TS_OP_GETATTR}, {"prim::SetAttr", TS_OP_SETATTR},
        {"prim::CreateObject", TS_OP_CREATE_OBJECT}, {"prim::CallFunction", TS_OP_CALL},
        {"prim::CallMethod", TS_OP_CALL_METHOD}, {"prim::fork", TS_OP_FORK},
        {"aten::wait", TS_OP_WAIT}, {"prim::Print", TS_OP_PRINT},
        {"prim::Enter", TS_OP_ENTER}, {"prim::Exit", TS_OP_EXIT},
    };
    for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
        if (strcmp(n->kind, prims[i].kind) == 0)
            return prims[i].op;
    return TS_OP__COUNT;
}

static int emit_prim(Builder *B, const TsNode *n, const NodeInfo *ni, TsOpcode op)
{
    TsError *err = B->err;
    long at = emit_node_args(B, op, n, ni, 0);
    if (at < 0)
        return -1;
    TsInstr *in = &B->code->instrs[at];
    const TsType *out = n->n_outputs ? n->outputs[0]->type : NULL;
    long t = 0, t2 = 0;
    switch (op) {
    case TS_OP_TUPLE_CONSTRUCT:
        t = add_type(B, ts_type_name(out) ? out : NULL);
        break;
    case TS_OP_LIST_CONSTRUCT:
        if (ts_type_kind(out) != TS_TYPE_LIST || n->n_outputs != 1)
            return ts_error_at(err, TS_ERR_RUNTIME, n->range, "ListConstruct must make a list");
        t = add_type(B, ts_type_elem(out, 0));
        break;
    case TS_OP_DICT_CONSTRUCT:
        if (ts_type_kind(out) != TS_TYPE_DICT || n->n_inputs % 2)
            return ts_error_at(err, TS_ERR_RUNTIME, n->range, "malformed DictConstruct");
        t = add_type(B, ts_type_elem(out, 0));
        t2 = add_type(B, ts_type_elem(out, 1));
        in = &B->code->instrs[at];
        in->d = (int32_t)t2;
        break;
    case TS_OP_CREATE_OBJECT:
        t = add_type(B, out);
        break;
    case TS_OP_ISINSTANCE: {
        const TsAttr *a = ts_node_attr(n, B->a_types);
        if (!a || n->n_inputs != 1)
            return ts_error_at(err, TS_ERR_RUNTIME, n->range, "isinstance without types");
        size_t cnt = a->kind == TS_ATTR_TYPES ? a->n : 1;
        t = B->code->n_types;
        for (size_t i = 0; i < cnt && t2 >= 0; i++)
            t2 = add_type(B, a->kind == TS_ATTR_TYPES ? a->u.tys[i] : a->u.ty);
        in = &B->code->instrs[at];
        in->d = (int32_t)cnt;
        break;
    }
    case TS_OP_GETATTR:
    case TS_OP_SETATTR: {
        const char *name = attr_str(B, n, B->a_name);
        long slot = name && n->n_inputs ? ts_type_field_index(n->inputs[0]->type, name) : -1;
        if (slot < 0)
            return ts_error_at(err, TS_ERR_RUNTIME, n->range, "%s of unknown attribute '%s'",
                               n->kind, name ? name : "");
        in->d = (int32_t)slot;
        break;
    }
    case TS_OP_RAISE:
        if (n->n_inputs < 1 || n->n_inputs > 2)
            return ts_error_at(err, TS_ERR_RUNTIME, n->range, "malformed RaiseException");
        break;
    case TS_OP_TUPLE_INDEX:
    case TS_OP_IS:
    case TS_OP_ISNOT:
        if (n->n_inputs != 2 || n->n_outputs != 1)
            return ts_error_at(err, TS_ERR_RUNTIME, n->range, "%s takes two inputs", n->kind);
        break;
    case TS_OP_COPY:
    case TS_OP_WAIT:
    case TS_OP_ENTER:
    case TS_OP_EXIT:
        if (n->n_inputs != 1 || n->n_outputs != 1)
            return ts_error_at(err, TS_ERR_RUNTIME, n->range, "%s takes one input", n->kind);
        break;
    case TS_OP_TUPLE_UNPACK:
    case TS_OP_LIST_UNPACK:
        if (n->n_inputs != 1)
            return ts_error_at(err, TS_ERR_RUNTIME, n->range, "%s takes one input", n->kind);
        break;
    default:
        break;
    }
    if (t < 0 || t2 < 0)
        return -1;
    B->code->instrs[at].aux = (uint32_t)t;
    return emit_dead_outputs(B, n, ni);
}

static int emit_node(Builder *B, const TsNode *n)
{
    const NodeInfo *ni = info_find(B, n);
    if (n->kind == B->k_constant)
        return 0;
    if (n->kind == B->k_if && n->n_blocks == 2 && n->n_inputs == 1)
        return emit_if(B, n, ni);
    if (n->kind == B->k_loop && n->n_blocks == 1)
        return emit_loop(B, n, ni);
    if (n->n_blocks)
        return ts_error_at(B->err, TS_ERR_RUNTIME, n->range, "cannot run %s nodes", n->kind);
    TsOpcode op = prim_opcode(n);
    if (op == TS_OP_CALL || op == TS_OP_CALL_METHOD)
        return emit_call(B, n, ni, op == TS_OP_CALL_METHOD);
    if (op == TS_OP_FORK)
        return emit_fork(B, n, ni);
    if (op != TS_OP__COUNT)
        return emit_prim(B, n, ni, op);
    return emit_kernel_node(B, n, ni);
}

static int emit_block(Builder *B, const TsBlock *b)
{
    for (const TsNode *n = b->ret->next; n != b->ret; n = n->next)
        if (emit_node(B, n))
            return -1;
    return 0;
}

/* ---- the whole graph ----------------------------------------------------------------- */
static int build(Builder *B, const TsGraph *g)
{
    const TsBlock *top = ts_graph_block(g);
    size_t max = 0;
    number_block(B, top, &max);
    B->n_values = max + 1;
    B->opnd = malloc(B->n_values * sizeof *B->opnd);
    B->refs = calloc(B->n_values, sizeof *B->refs);
    if (!B->opnd || !B->refs)
        return oom(B);
    for (size_t i = 0; i < B->n_values; i++)
        B->opnd[i] = UNSET;
    if (assign_block(B, top))
        return -1;
    Bits live;
    if (bits_new(&live, B->n_values, B->err))
        return -1;
    int rc = analyze_block(B, top, &live);
    free(live.w);
    if (rc)
        return -1;
    B->code->n_inputs = top->param->n_outputs;
    B->code->n_outputs = top->ret->n_inputs;
    const NodeInfo *pi = info_find(B, top->param);
    for (size_t i = 0; i < top->param->n_outputs; i++)
        if (pi->dead[i] && holds_ref(top->param->outputs[i]->type)) {
            size_t u = top->param->outputs[i]->unique;
            if (emit_drops(B, &u, 1, NULL))
                return -1;
        }
    if (emit_block(B, top))
        return -1;
    long at = emit_node_args(B, TS_OP_RET, top->ret, info_find(B, top->ret), 0);
    if (at < 0)
        return -1;
    B->code->instrs[at].node = NULL;
    bool *ref = calloc(B->code->n_regs + 1, sizeof *ref);
    if (!ref)
        return oom(B);
    for (size_t i = 0; i < B->n_values; i++)
        if (B->opnd[i] >= 0 && B->opnd[i] != UNSET)
            ref[B->opnd[i] >> 1] = B->refs[i];
    rc = ts_code_optimize(B->code, ref, B->err);
    free(ref);
    return rc;
}

/* share.c's rule 2 for constants: every run of a Code, on any thread, reads the same
 * constants, so one that an instruction might write, or let escape where something could,
 * is marked shared. A constant only ever read as an unannotated argument of kernels (the
 * stride list of a conv) cannot be written, its schema says, and stays unshared: those
 * kernels take no lock for it. */
static bool read_only_arg(const TsBoundKernel *k, size_t i)
{
    const TsSchema *s = k->op->schema;
    return i < s->n_args && !s->args[i].alias;
}

static int share_constants(TsCode *c, TsError *err)
{
    if (c->n_consts == 0)
        return 0;
    bool *escapes = calloc(c->n_consts, sizeof *escapes);
    if (!escapes)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory building a function");
    for (size_t j = 0; j < c->n_instrs; j++) {
        const TsInstr *in = &c->instrs[j];
        for (size_t i = 0; i < in->n_in; i++) {
            int32_t o = c->operands[in->args + i];
            if (o < 0 && !(in->op == TS_OP_KERNEL && read_only_arg(&c->kernels[in->aux], i)))
                escapes[~o] = true;
        }
    }
    int rc = 0;
    for (size_t k = 0; k < c->n_consts && !rc; k++)
        if (escapes[k])
            rc = ts_value_share(c->consts[k], err);
    free(escapes);
    return rc;
}

TsCode *ts_code_build(TsRuntime *rt, const TsCompUnit *unit, const TsGraph *graph,
                      const char *name, TsError *err)
{
    Builder B;
    memset(&B, 0, sizeof B);
    B.rt = rt;
    B.table = ts_runtime_optable(rt);
    B.unit = unit;
    B.err = err;
    B.k_constant = ts_symbol("prim::Constant");
    B.k_if = ts_symbol("prim::If");
    B.k_loop = ts_symbol("prim::Loop");
    B.a_value = ts_symbol("attr::value");
    B.a_name = ts_symbol("attr::name");
    B.a_types = ts_symbol("attr::types");
    B.a_subgraph = ts_symbol("attr::Subgraph");
    B.code = calloc(1, sizeof *B.code);
    if (!B.code || !B.k_constant || !B.k_if || !B.k_loop || !B.a_value || !B.a_name ||
        !B.a_types || !B.a_subgraph) {
        free(B.code);
        oom(&B);
        return NULL;
    }
    B.code->name = name ? name : "<graph>";
    B.code->unit = unit;
    int rc = build(&B, graph);
    if (!rc)
        rc = share_constants(B.code, err);
    infos_free(&B);
    free(B.opnd);
    free(B.refs);
    if (rc) {
        ts_code_free(B.code);
        return NULL;
    }
    return B.code;
}

void ts_code_free(TsCode *code)
{
    if (!code)
        return;
    for (size_t i = 0; i < code->n_consts; i++)
        ts_value_release(code->consts[i]);
    for (size_t i = 0; i < code->n_kernels; i++)
        if (code->kernels[i].free_data)
            code->kernels[i].free_data(code->kernels[i].data);
    for (size_t i = 0; i < code->n_subcodes; i++)
        ts_code_free(code->subcodes[i]);
    free(code->instrs);
    free(code->operands);
    free(code->consts);
    free(code->kernels);
    free(code->callees);
    free(code->subcodes);
    free(code->types);
    free(code->strs);
    free(code->preload);
    ts_spec_free(code->specs);
    ts_graph_free(code->graph);
    free(code);
}

/* ---- building a function and its callees once ---------------------------------------- */
static pthread_mutex_t prepare_lock = PTHREAD_MUTEX_INITIALIZER;

/* The Code of f: of an optimized copy of its graph (core/ir/passes) unless the runtime's
 * optimizer is off. The graph stays f's; the copy goes to the Code, whose instructions
 * point at its nodes. An optimized function with tensor parameters gets its cache of
 * specialized plans (spec.h). */
static TsCode *build_function(TsRuntime *rt, const TsCompUnit *unit, TsFunction *f,
                              TsError *err)
{
    if (!ts_runtime_optimize(rt))
        return ts_code_build(rt, unit, f->graph, f->name, err);
    TsGraph *g = ts_spec_graph(rt, unit, f, NULL, 0, err);
    TsCode *c = g ? ts_code_build(rt, unit, g, f->name, err) : NULL;
    if (!c) {
        ts_graph_free(g);
        return NULL;
    }
    c->graph = g;
    if (ts_spec_attach(c, f, err)) {
        ts_code_free(c);
        return NULL;
    }
    return c;
}

/* Adds the callees of c and of its fork subgraphs that have no Code yet to the worklist. */
static int queue_callees(const TsCode *c, TsFunction ***work, size_t *n, size_t *cap,
                         TsError *err)
{
    for (size_t i = 0; i < c->n_subcodes; i++)
        if (queue_callees(c->subcodes[i], work, n, cap, err))
            return -1;
    for (size_t i = 0; i < c->n_callees; i++) {
        if (c->callees[i]->code)
            continue;
        if (*n == *cap) {
            size_t nc = *cap ? *cap * 2 : 16;
            TsFunction **w = realloc(*work, nc * sizeof *w);
            if (!w)
                return ts_error_set(err, TS_ERR_NOMEM, "out of memory building code");
            *work = w;
            *cap = nc;
        }
        (*work)[(*n)++] = c->callees[i];
    }
    return 0;
}

/* A Code built by ts_code_prepare and not yet published. */
typedef struct Built {
    TsFunction *f;
    TsCode *code;
} Built;

/* Whether f is among the n of built. */
static bool is_built(const Built *built, size_t n, const TsFunction *f)
{
    for (size_t i = 0; i < n; i++)
        if (built[i].f == f)
            return true;
    return false;
}

/* Builds the Code of f and of every function it reaches that has none, then publishes them
 * all, callees before callers: a thread that finds f's Code on the lock-free path finds its
 * callees' too (one still being built by another thread makes the CALL wait on the lock, see
 * interp.c). A failure publishes nothing, so no Code ever calls a function without one. */
int ts_code_prepare(TsRuntime *rt, const TsCompUnit *unit, TsFunction *f, TsError *err)
{
    if (__atomic_load_n(&f->code, __ATOMIC_ACQUIRE))
        return 0;
    pthread_mutex_lock(&prepare_lock);
    TsFunction **work = NULL;
    Built *built = NULL;
    size_t n = 0, cap = 0, nb = 0, capb = 0;
    int rc = 0;
    for (TsFunction *next = f; next && !rc; next = n ? work[--n] : NULL) {
        if (next->code || is_built(built, nb, next))
            continue;
        if (nb == capb) {
            size_t nc = capb ? capb * 2 : 16;
            Built *b = realloc(built, nc * sizeof *b);
            if (!b) {
                rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory building code");
                break;
            }
            built = b;
            capb = nc;
        }
        TsCode *c = build_function(rt, unit, next, err);
        if (!c) {
            ts_error_prefix(err, "in %s: ", next->qualname);
            rc = -1;
            break;
        }
        built[nb++] = (Built){ next, c };
        rc = queue_callees(c, &work, &n, &cap, err);
    }
    for (size_t i = nb; i-- > 0;) {
        if (rc) {
            ts_code_free(built[i].code);
            continue;
        }
        built[i].f->free_code = ts_code_free;
        __atomic_store_n(&built[i].f->code, built[i].code, __ATOMIC_RELEASE);
    }
    free(work);
    free(built);
    pthread_mutex_unlock(&prepare_lock);
    return rc;
}

int ts_code_prepare_callees(TsRuntime *rt, const TsCompUnit *unit, const TsCode *c,
                            TsError *err)
{
    for (size_t i = 0; i < c->n_subcodes; i++)
        if (ts_code_prepare_callees(rt, unit, c->subcodes[i], err))
            return -1;
    for (size_t i = 0; i < c->n_callees; i++)
        if (ts_code_prepare(rt, unit, c->callees[i], err))
            return -1;
    return 0;
}

/* ---- listing -------------------------------------------------------------------------- */
static const char *const opnames[TS_OP__COUNT] = {
#define TS_OPCODE_NAME(name) #name,
    TS_OPCODE_LIST(TS_OPCODE_NAME)
#undef TS_OPCODE_NAME
};

static void dump_opnd(char **p, size_t *len, FILE *f, int32_t o)
{
    (void)p;
    (void)len;
    if (o < 0)
        fprintf(f, " c%d", ~o);
    else
        fprintf(f, o & 1 ? " move(r%d)" : " r%d", o >> 1);
}

char *ts_code_dump(const TsCode *code)
{
    char *p = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&p, &len);
    if (!f)
        return NULL;
    for (size_t i = 0; i < code->n_preload; i++)
        fprintf(f, "preload r%d = c%d\n", code->preload[2 * i], code->preload[2 * i + 1]);
    for (size_t i = 0; i < code->n_instrs; i++) {
        const TsInstr *in = &code->instrs[i];
        fprintf(f, "%zu %s", i, opnames[in->op]);
        if (in->op == TS_OP_KERNEL) {
            char full[256];
            ts_operator_full_name(code->kernels[in->aux].op, full, sizeof full);
            fprintf(f, " %s", full);
        }
        if (ts_code_dump_fast(f, in))
            ;                  /* the fast ops and jumps (optimize.c lays out their fields) */
        else if (in->op == TS_OP_DROP) {
            for (size_t k = 0; k < in->n_in; k++)
                fprintf(f, " r%d", code->operands[in->args + k]);
        } else {
            for (size_t k = 0; k < in->n_in; k++)
                dump_opnd(&p, &len, f, code->operands[in->args + k]);
            if (in->n_out)
                fprintf(f, " ->");
            for (size_t k = 0; k < in->n_out; k++)
                fprintf(f, " r%d", code->operands[in->args + in->n_in + k]);
        }
        fputc('\n', f);
    }
    fclose(f);
    return p;
}
