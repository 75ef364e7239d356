/* program.c — a fusion group's Subgraph as a register program: each value a register, each
 * operator one instruction over blocks of elements. Compiled once, when the interpreter
 * binds the group's node; run.c runs it on every call.
 *
 * The Subgraph is what fuse.c built, but it arrives through a graph attribute a saved or
 * edited graph could also carry, so anything unexpected is an error, never a guess.
 */
#include <stdlib.h>
#include <string.h>

#include "fuser.h"

#define MAX_REGS 4096

static int bad(TsError *err, const char *what)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "prim::FusionGroup: %s", what);
}

void fu_program_free(FuProgram *p)
{
    if (!p)
        return;
    free(p->is_scalar);
    free(p->constant);
    free(p->is_constant);
    free(p->instrs);
    free(p->outputs);
    free(p->deps);
    free(p->piece);
    free(p->pieces);
    free(p);
}

/* The register of v: its slot in vals, which the caller fills in definition order. */
static int reg_of(TsIrValue *const *vals, size_t n, const TsIrValue *v)
{
    for (size_t i = n; i-- > 0;)
        if (vals[i] == v)
            return (int)i;
    return -1;
}

static bool number_value(TsValue v, float *out)
{
    if (v.tag == TS_TAG_INT)
        *out = (float)v.u.i;
    else if (v.tag == TS_TAG_DOUBLE)
        *out = (float)v.u.d;
    else
        return false;
    return true;
}

/* prim::ConstantChunk[chunks=N, dim=D](%input): N piece registers of an input tensor. */
static int compile_chunk(FuProgram *p, const TsNode *n, TsIrValue **vals, size_t *n_regs,
                         TsError *err)
{
    int64_t chunks, dim;
    if (ts_attr_get_int(n, "chunks", &chunks, err) || ts_attr_get_int(n, "dim", &dim, err))
        return -1;
    int src = ts_node_num_inputs(n) == 1 ? reg_of(vals, *n_regs, ts_node_input(n, 0)) : -1;
    if (src < 0 || src >= p->n_inputs || p->is_scalar[src] || chunks < 1 ||
        chunks > FU_MAX_CHUNKS || (size_t)chunks != ts_node_num_outputs(n))
        return bad(err, "a ConstantChunk not of a tensor input into its outputs");
    for (int64_t i = 0; i < chunks; i++) {
        size_t r = (*n_regs)++;
        if (r >= FU_MAX_INPUTS)
            return bad(err, "too many tensor sources");
        vals[r] = ts_node_output(n, (size_t)i);
        p->piece[r] = (int16_t)p->n_pieces;
        p->pieces[p->n_pieces++] = (FuPiece){ (uint16_t)src, i, chunks, dim };
        p->deps[r * FU_DEP_WORDS + r / 64] |= UINT64_C(1) << (r % 64);
    }
    return 0;
}

FuProgram *fu_program_compile(const TsGraph *g, TsError *err)
{
    size_t n_in = ts_graph_num_inputs(g), n_regs = n_in, n_nodes = 0;
    for (TsNode *n = ts_block_first_node(ts_graph_block(g)); n; n = ts_node_next(n))
        n_nodes += ts_node_num_outputs(n) > 1 ? ts_node_num_outputs(n) : 1;
    if (n_in + n_nodes > MAX_REGS || n_in > FU_MAX_INPUTS) {
        bad(err, "too many values");
        return NULL;
    }
    size_t cap = n_in + n_nodes;
    FuProgram *p = calloc(1, sizeof *p);
    TsIrValue **vals = malloc((cap ? cap : 1) * sizeof *vals);
    if (p) {
        p->is_scalar = calloc(cap + 1, sizeof *p->is_scalar);
        p->is_constant = calloc(cap + 1, sizeof *p->is_constant);
        p->constant = calloc(cap + 1, sizeof *p->constant);
        p->instrs = calloc(n_nodes + 1, sizeof *p->instrs);
        p->outputs = calloc(ts_graph_num_outputs(g) + 1, sizeof *p->outputs);
        p->deps = calloc((cap + 1) * FU_DEP_WORDS, sizeof *p->deps);
        p->piece = malloc((cap + 1) * sizeof *p->piece);
        p->pieces = calloc(cap + 1, sizeof *p->pieces);
    }
    if (!p || !vals || !p->is_scalar || !p->is_constant || !p->constant || !p->instrs ||
        !p->outputs || !p->deps || !p->piece || !p->pieces) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        goto fail;
    }
    p->n_inputs = (uint16_t)n_in;
    for (size_t r = 0; r <= cap; r++)
        p->piece[r] = -1;
    for (size_t i = 0; i < n_in; i++) {
        vals[i] = ts_graph_input(g, i);
        p->deps[i * FU_DEP_WORDS + i / 64] |= UINT64_C(1) << (i % 64);
        TsTypeKind k = ts_type_kind(ts_irvalue_type(vals[i]));
        p->is_scalar[i] = k == TS_TYPE_INT || k == TS_TYPE_FLOAT;
        if (!p->is_scalar[i] && k != TS_TYPE_TENSOR) {
            bad(err, "an input that is neither a tensor nor a number");
            goto fail;
        }
    }
    for (TsNode *n = ts_block_first_node(ts_graph_block(g)); n; n = ts_node_next(n)) {
        if (strcmp(ts_node_kind(n), "prim::ConstantChunk") == 0) {
            if (compile_chunk(p, n, vals, &n_regs, err))
                goto fail;
            continue;
        }
        if (ts_node_num_outputs(n) != 1) {
            bad(err, "a node without exactly one output");
            goto fail;
        }
        size_t r = n_regs++;
        vals[r] = ts_node_output(n, 0);
        if (strcmp(ts_node_kind(n), "prim::Constant") == 0) {
            TsValue c;
            if (ts_constant_value(n, &c, err))
                goto fail;
            bool ok = number_value(c, &p->constant[r]);
            ts_value_release(c);
            if (!ok) {
                bad(err, "a constant that is not a number");
                goto fail;
            }
            p->is_constant[r] = p->is_scalar[r] = true;
            continue;
        }
        int op = fu_op_lookup(ts_node_kind(n), ts_node_num_inputs(n));
        if (op < 0) {
            bad(err, "an operator the CPU fuser does not run");
            goto fail;
        }
        FuInstr *in = &p->instrs[p->n_instrs++];
        int a = reg_of(vals, r, ts_node_input(n, 0));
        int b = fu_op_arity((FuOpCode)op) == 2 ? reg_of(vals, r, ts_node_input(n, 1)) : a;
        if (a < 0 || b < 0 || p->is_scalar[a]) {
            bad(err, "an operand defined outside the group, or a number as self");
            goto fail;
        }
        in->op = (uint8_t)op;
        in->a = (uint16_t)a;
        in->b = (uint16_t)b;
        in->out = (uint16_t)r;
        for (size_t w = 0; w < FU_DEP_WORDS; w++)
            p->deps[r * FU_DEP_WORDS + w] = p->deps[(size_t)a * FU_DEP_WORDS + w] |
                                            p->deps[(size_t)b * FU_DEP_WORDS + w];
        in->alpha = 1.0f;
        in->alpha_reg = -1;
        if (fu_op_has_alpha((FuOpCode)op)) {
            int al = reg_of(vals, r, ts_node_input(n, 2));
            if (al < 0 || !p->is_scalar[al]) {
                bad(err, "an alpha that is not a number");
                goto fail;
            }
            if (p->is_constant[al])
                in->alpha = p->constant[al];
            else
                in->alpha_reg = (int16_t)al;
        }
    }
    p->n_regs = (uint16_t)n_regs;
    for (size_t i = 0; i < ts_graph_num_outputs(g); i++) {
        int r = reg_of(vals, n_regs, ts_graph_output(g, i));
        if (r < (int)n_in) {
            bad(err, "an output that no operator of the group computes");
            goto fail;
        }
        p->outputs[p->n_outputs++] = (uint16_t)r;
    }
    free(vals);
    return p;
fail:
    free(vals);
    fu_program_free(p);
    return NULL;
}
