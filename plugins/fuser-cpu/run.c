/* run.c — running a fusion group: its program over blocks of the broadcast shape.
 *
 * Each call broadcasts the tensor inputs' shapes, allocates the outputs (contiguous), and
 * walks the elements BLOCK at a time: a register is a pointer to BLOCK floats — straight
 * into an input's memory where the input is contiguous and of the full shape, a buffer
 * filled once where it is a single element or a number, a buffer gathered per block
 * otherwise (broadcast or strided views such as chunk's), and straight into an output's
 * memory where the instruction computes an output. Intermediates never leave the block's
 * buffers, which stay in the first-level cache. Large groups split their blocks over the
 * runtime's threads.
 *
 * The arithmetic is aten-cpu's float32 arithmetic, expression for expression (its
 * binary.c and unary.c, and vmath.h's tanh), so a fused result equals the unfused one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuser.h"
#include "vmath.h"

#define BLOCK 512
#define PARALLEL_GRAIN (64 * BLOCK)
#define STACK_FLOATS 2048      /* 8 KB of registers on the C stack */
#define STACK_REGS 64
#define STACK_BYTES 4096       /* a call's own arrays */

/* How a register gets its block in the pass being run. */
enum { R_NONE, R_DENSE, R_SPLAT, R_GATHER, R_TEMP, R_OUT };

/* A call, and the pass of it being run: the outputs of one shape, and the instructions they
 * need (outputs of different shapes, as in `a + b, row * 2`, each get their own pass). */
typedef struct Call {
    const FuProgram *p;
    TsTensor **in;             /* n_regs: the tensor sources, inputs and the pieces of a
                                  folded chunk (views made per call); NULL for the rest */
    float *scalar;             /* n_regs: number inputs and constants, as float32 */
    TsTensor **out;            /* n_outputs */
    int dim;                   /* the pass's shape */
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int64_t numel;
    uint8_t *how;              /* n_regs */
    uint8_t *active;           /* n_instrs: computed in this pass */
    int *out_of;               /* n_regs: the output a register writes in this pass, or -1 */
    size_t rank;               /* the largest rank of the inputs: per-input arrays' length */
    int64_t *bstrides;         /* n_inputs * rank: broadcast strides */
} Call;

/* ---- the arithmetic ------------------------------------------------------------------- */

/* eval is compiled for AVX-512 and AVX2 machines too, picked at load (GCC's target_clones),
 * without contracting a * b + c into one fused multiply-add: aten-cpu's loops (baseline
 * x86-64, no FMA) round each operation, and a fused result must equal theirs bit for bit.
 * Vector width alone changes no element's result. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__)
#define FU_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), \
                                 optimize("vect-cost-model=dynamic", "fp-contract=off")))
#else
#define FU_CLONES TS_VM_VECTORIZE
#endif

FU_CLONES static void eval(const FuInstr *in, float *o, const float *a, const float *b,
                           const float *alpha_block, int64_t n)
{
    switch ((FuOpCode)in->op) {
    case FU_ADD:
    case FU_SUB:
        if (alpha_block) {
            float s = in->op == FU_SUB ? -1.0f : 1.0f;
            for (int64_t k = 0; k < n; k++)
                o[k] = a[k] + (s * alpha_block[0]) * b[k];
        } else {
            float al = in->op == FU_SUB ? -in->alpha : in->alpha;
            for (int64_t k = 0; k < n; k++)
                o[k] = a[k] + al * b[k];
        }
        return;
    case FU_MUL: for (int64_t k = 0; k < n; k++) o[k] = a[k] * b[k]; return;
    case FU_DIV: for (int64_t k = 0; k < n; k++) o[k] = a[k] / b[k]; return;
    case FU_NEG: for (int64_t k = 0; k < n; k++) o[k] = -a[k]; return;
    case FU_SIGMOID: for (int64_t k = 0; k < n; k++) o[k] = ts_sigmoidf(a[k]); return;
    case FU_TANH: for (int64_t k = 0; k < n; k++) o[k] = ts_tanhf(a[k]); return;
    case FU_RELU:
        for (int64_t k = 0; k < n; k++)
            o[k] = a[k] > 0 || a[k] != a[k] ? a[k] : 0;
        return;
    case FU_EXP: for (int64_t k = 0; k < n; k++) o[k] = expf(a[k]); return;
    case FU_LOG:      /* +NaN below 0, as aten-cpu's log (PyTorch's sign) */
        for (int64_t k = 0; k < n; k++)
            o[k] = a[k] < 0 ? NAN : logf(a[k]);
        return;
    case FU_SQRT: for (int64_t k = 0; k < n; k++) o[k] = sqrtf(a[k]); return;
    case FU_RSQRT: for (int64_t k = 0; k < n; k++) o[k] = 1 / sqrtf(a[k]); return;
    case FU_RECIPROCAL: for (int64_t k = 0; k < n; k++) o[k] = 1 / a[k]; return;
    case FU_ABS: for (int64_t k = 0; k < n; k++) o[k] = fabsf(a[k]); return;
    case FU_OP__COUNT: return;
    }
}

/* ---- reading inputs ------------------------------------------------------------------- */

/* Elements [start, start + n) of the broadcast shape from an input with broadcast strides
 * bs (0 along broadcast dims), row-major. */
TS_VM_VECTORIZE static void gather(float *dst, const float *base, const int64_t *bs, int dim,
                   const int64_t *sizes, int64_t start, int64_t n)
{
    int64_t idx[TS_TENSOR_MAX_DIMS], off = 0, rest = start;
    for (int d = dim; d-- > 0;) {
        idx[d] = rest % sizes[d];
        rest /= sizes[d];
        off += idx[d] * bs[d];
    }
    int last = dim - 1;
    while (n > 0) {
        int64_t run = sizes[last] - idx[last];
        if (run > n)
            run = n;
        int64_t s = bs[last];
        if (s == 1) {
            memcpy(dst, base + off, (size_t)run * sizeof *dst);
        } else if (s == 0) {
            for (int64_t k = 0; k < run; k++)
                dst[k] = base[off];
        } else {
            for (int64_t k = 0; k < run; k++)
                dst[k] = base[off + k * s];
        }
        dst += run;
        n -= run;
        off += run * s;
        idx[last] += run;
        for (int d = last; d > 0 && idx[d] == sizes[d]; d--) {
            off -= idx[d] * bs[d];
            idx[d] = 0;
            idx[d - 1]++;
            off += bs[d - 1];
        }
    }
}

static bool dense_full(const TsTensor *t, const Call *k)
{
    if (ts_tensor_numel(t) != k->numel || !ts_tensor_is_contiguous(t))
        return false;
    /* the same element order as the broadcast shape: same sizes, leading 1s aside */
    int off = k->dim - t->dim;
    if (off < 0)
        return false;
    for (int d = 0; d < t->dim; d++)
        if (t->sizes[d] != k->sizes[off + d])
            return false;
    return true;
}

/* ---- one chunk of blocks ------------------------------------------------------------- */

static int run_chunk(void *ctx, int64_t begin, int64_t end, TsError *err)
{
    const Call *k = ctx;
    const FuProgram *p = k->p;
    /* a small tensor's registers are only as long as the tensor */
    size_t blk = k->numel < BLOCK ? (size_t)k->numel : BLOCK;
    /* small groups over small tensors (an LSTM step at batch 1) keep their registers on
     * the stack: a malloc per call is a tenth of such a call */
    float stack_buf[STACK_FLOATS];
    const float *stack_reg[STACK_REGS];
    size_t need = (size_t)p->n_regs * blk;
    bool small = need <= STACK_FLOATS && p->n_regs <= STACK_REGS;
    float *buf = small ? stack_buf : malloc(need * sizeof *buf);
    const float **reg = small ? stack_reg : malloc((size_t)p->n_regs * sizeof *reg);
    if (!buf || !reg) {
        if (!small) {
            free(buf);
            free(reg);
        }
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    for (size_t r = 0; r < p->n_regs; r++)
        if (k->how[r] == R_SPLAT) {
            for (size_t i = 0; i < blk; i++)
                buf[r * blk + i] = k->scalar[r];
            reg[r] = buf + r * blk;
        }
    for (int64_t start = begin * BLOCK; start < end * BLOCK && start < k->numel;
         start += BLOCK) {
        int64_t n = k->numel - start < BLOCK ? k->numel - start : BLOCK;
        for (size_t r = 0; r < p->n_regs; r++) {
            const TsTensor *t = k->in[r];
            if (k->how[r] == R_DENSE)
                reg[r] = (const float *)ts_tensor_data(t) + start;
            else if (k->how[r] == R_GATHER) {
                gather(buf + r * blk, ts_tensor_data(t), k->bstrides + r * k->rank,
                       k->dim, k->sizes, start, n);
                reg[r] = buf + r * blk;
            }
        }
        for (size_t i = 0; i < p->n_instrs; i++) {
            if (!k->active[i])
                continue;
            const FuInstr *in = &p->instrs[i];
            float *o = k->how[in->out] == R_OUT
                           ? (float *)ts_tensor_data(k->out[k->out_of[in->out]]) + start
                           : buf + (size_t)in->out * blk;
            eval(in, o, reg[in->a], reg[in->b], in->alpha_reg >= 0 ? reg[in->alpha_reg] : NULL,
                 n);
            reg[in->out] = o;
        }
    }
    if (!small) {
        free(buf);
        free(reg);
    }
    return 0;
}

/* ---- the kernel ------------------------------------------------------------------------ */

static int bad_input(TsCall *c, size_t i, const char *why)
{
    return ts_error_set(c->error, TS_ERR_RUNTIME, "prim::FusionGroup: input %zu %s", i, why);
}

/* Piece r of a folded chunk (group.c). */
static int make_piece(TsCall *c, Call *k, size_t r)
{
    const FuPiece *pc = &k->p->pieces[k->p->piece[r]];
    k->in[r] = fu_chunk_piece(k->in[pc->src], pc->index, pc->chunks, pc->dim, c->error);
    return k->in[r] ? 0 : (int)c->error->code;
}

/* The inputs: numbers into k->scalar, tensors into k->in, checked; then the pieces. */
static int read_inputs(TsCall *c, Call *k, const TsValue *a)
{
    const FuProgram *p = k->p;
    for (size_t r = 0; r < p->n_regs; r++)
        k->scalar[r] = p->constant[r];
    for (size_t i = 0; i < p->n_inputs; i++) {
        k->in[i] = NULL;
        if (p->is_scalar[i]) {
            if (a[i].tag == TS_TAG_INT)
                k->scalar[i] = (float)(double)a[i].u.i;
            else if (a[i].tag == TS_TAG_DOUBLE)
                k->scalar[i] = (float)a[i].u.d;
            else
                return bad_input(c, i, "is not a number");
            continue;
        }
        if (a[i].tag != TS_TAG_TENSOR)
            return bad_input(c, i, "is not a tensor");
        TsTensor *t = (TsTensor *)a[i].u.p;
        if (t->dtype != TS_FLOAT32 || t->device.type != TS_DEV_CPU)
            return bad_input(c, i, "is not a float32 tensor on the cpu");
        k->in[i] = t;
    }
    for (size_t r = p->n_inputs; r < p->n_regs; r++)
        if (p->piece[r] >= 0 && make_piece(c, k, r))
            return c->error->code;
    return 0;
}

/* Shapes that do not broadcast, found over the group's inputs at once: the error the
 * unfused graph gives instead, that of its first operator (in program order) whose two
 * operands do not broadcast, which PyTorch words with that operator's own a and b. */
static int explain_broadcast(TsCall *c, const Call *k)
{
    const FuProgram *p = k->p;
    int *dims = calloc(p->n_regs, sizeof *dims);
    int64_t *shapes = calloc((size_t)p->n_regs * TS_TENSOR_MAX_DIMS, sizeof *shapes);
    if (!dims || !shapes) {
        free(dims);
        free(shapes);
        return c->error->code;         /* keep the error found */
    }
    for (size_t r = 0; r < p->n_regs; r++)
        if (k->in[r]) {                /* scalars and temporaries start as 0-dim */
            dims[r] = k->in[r]->dim;
            memcpy(shapes + r * TS_TENSOR_MAX_DIMS, k->in[r]->sizes,
                   (size_t)k->in[r]->dim * sizeof *shapes);
        }
    TsError why = TS_ERROR_INIT;
    bool found = false;
    for (size_t i = 0; i < p->n_instrs && !found; i++) {
        const FuInstr *in = &p->instrs[i];
        int64_t *out = shapes + (size_t)in->out * TS_TENSOR_MAX_DIMS;
        const int64_t *a = shapes + (size_t)in->a * TS_TENSOR_MAX_DIMS;
        if (fu_op_arity((FuOpCode)in->op) < 2) {
            memmove(out, a, (size_t)dims[in->a] * sizeof *out);
            dims[in->out] = dims[in->a];
        } else if (ts_aten_broadcast_sizes(dims[in->a], a, dims[in->b],
                                           shapes + (size_t)in->b * TS_TENSOR_MAX_DIMS,
                                           &dims[in->out], out, &why)) {
            found = true;
        }
    }
    free(dims);
    free(shapes);
    if (!found)
        return c->error->code;
    ts_error_clear(c->error);
    int rc = ts_error_set(c->error, why.code, "%s", why.msg);
    ts_error_clear(&why);
    return rc;
}

/* The shape of output o: the broadcast of the tensor inputs it depends on. scratch holds
 * n_inputs tensor pointers. */
static int output_shape(TsCall *c, const Call *k, size_t o, TsTensor **scratch, int *dim,
                        int64_t *sizes)
{
    const FuProgram *p = k->p;
    const uint64_t *dep = p->deps + (size_t)p->outputs[o] * FU_DEP_WORDS;
    int nt = 0;
    for (size_t i = 0; i < p->n_regs && i < FU_MAX_INPUTS; i++)
        if (k->in[i] && (dep[i / 64] >> (i % 64) & 1))
            scratch[nt++] = k->in[i];
    if (ts_aten_broadcast_shape(nt, scratch, dim, sizes, c->error))
        return explain_broadcast(c, k);
    return 0;
}

static bool same_sizes(int da, const int64_t *a, int db, const int64_t *b)
{
    if (da != db)
        return false;
    for (int d = 0; d < da; d++)
        if (a[d] != b[d])
            return false;
    return true;
}

/* Sets up the pass over k->dim/k->sizes for the outputs marked in member: which
 * instructions run, how each needed register gets its block. */
static void plan_pass(Call *k, const uint8_t *member)
{
    const FuProgram *p = k->p;
    uint8_t *need = k->how;    /* first as "needed", then overwritten with how */
    memset(need, 0, p->n_regs);
    for (size_t o = 0; o < p->n_outputs; o++)
        if (member[o])
            need[p->outputs[o]] = 1;
    for (size_t i = p->n_instrs; i-- > 0;) {
        const FuInstr *in = &p->instrs[i];
        k->active[i] = need[in->out];
        if (!k->active[i])
            continue;
        need[in->a] = need[in->b] = 1;
        if (in->alpha_reg >= 0)
            need[in->alpha_reg] = 1;
    }
    k->numel = 1;
    for (int d = 0; d < k->dim; d++)
        k->numel *= k->sizes[d];
    for (size_t r = 0; r < p->n_regs; r++) {
        k->out_of[r] = -1;
        if (!need[r]) {
            k->how[r] = R_NONE;
            continue;
        }
        const TsTensor *t = k->in[r];
        if (p->is_scalar[r] || (t && ts_tensor_numel(t) == 1 && k->numel != 1)) {
            k->how[r] = R_SPLAT;
            if (t)
                k->scalar[r] = *(const float *)ts_tensor_data(t);
        } else if (!t) {
            k->how[r] = R_TEMP;
        } else if (dense_full(t, k)) {
            k->how[r] = R_DENSE;
        } else {
            k->how[r] = R_GATHER;
            int64_t *bs = k->bstrides + r * k->rank;
            int off = k->dim - t->dim;
            for (int d = 0; d < k->dim; d++)
                bs[d] = d < off || t->sizes[d - off] == 1 ? 0 : t->strides[d - off];
        }
    }
    for (size_t o = 0; o < p->n_outputs; o++)
        if (member[o] && k->out_of[p->outputs[o]] < 0) {
            k->out_of[p->outputs[o]] = (int)o;
            k->how[p->outputs[o]] = R_OUT;
        }
}

/* Computes every output: one pass per distinct output shape (usually one). */
static int run_passes(TsCall *c, Call *k, TsTensor **scratch, int *out_dim,
                      int64_t *out_sizes, uint8_t *member)
{
    const FuProgram *p = k->p;
    size_t n_out = p->n_outputs;
    TsAllocator *cpu = ts_runtime_allocator(c->runtime, TS_DEV_CPU);
    if (!cpu)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "no cpu allocator");
    TsDevice dev = { TS_DEV_CPU, -1 };
    for (size_t o = 0; o < n_out; o++) {
        int64_t *sz = out_sizes + o * k->rank;
        if (output_shape(c, k, o, scratch, &out_dim[o], sz))
            return c->error->code;
        size_t first = o;      /* one register returned twice: the same tensor twice */
        for (size_t q = 0; q < o && first == o; q++)
            if (p->outputs[q] == p->outputs[o])
                first = q;
        if (first != o) {
            k->out[o] = k->out[first];
            ts_tensor_retain(k->out[o]);
        } else if (!(k->out[o] = ts_tensor_empty(cpu, dev, TS_FLOAT32, out_dim[o], sz,
                                                 c->error))) {
            return c->error->code;
        }
    }
    memset(member, 0, n_out);
    for (size_t o = 0; o < n_out; o++) {
        if (member[o])
            continue;
        k->dim = out_dim[o];
        memcpy(k->sizes, out_sizes + o * k->rank, k->rank * sizeof *k->sizes);
        uint8_t *mine = member + n_out;   /* this pass's outputs */
        memset(mine, 0, n_out);
        for (size_t q = o; q < n_out; q++)
            if (!member[q] && same_sizes(out_dim[q], out_sizes + q * k->rank,
                                         k->dim, k->sizes))
                member[q] = mine[q] = 1;
        plan_pass(k, mine);
        if (k->numel == 0)
            continue;
        int64_t blocks = (k->numel + BLOCK - 1) / BLOCK;
        int rc = ts_parallel_for(0, blocks, PARALLEL_GRAIN / BLOCK, run_chunk, k, c->error);
        if (rc)
            return rc;
    }
    return 0;
}

static int k_fusion_group(TsCall *c)
{
    const FuProgram *p = c->data;
    size_t n_in = p->n_inputs, n_out = p->n_outputs, regs = p->n_regs + 1u;
    if (c->stack->len < n_in)
        return ts_error_set(c->error, TS_ERR_USAGE, "prim::FusionGroup: %zu inputs expected",
                            n_in);
    TsValue *a = c->stack->data + c->stack->len - n_in;
    Call k;
    memset(&k, 0, sizeof k);
    k.p = p;
    /* the call's arrays in one allocation, largest alignment first */
    for (size_t i = 0; i < n_in; i++)
        if (a[i].tag == TS_TAG_TENSOR && (size_t)((TsTensor *)a[i].u.p)->dim > k.rank)
            k.rank = (size_t)((TsTensor *)a[i].u.p)->dim;
    size_t nbs = regs * (k.rank + 1), nos = (n_out + 1) * (k.rank + 1);
    size_t bytes = (nbs + nos) * sizeof(int64_t) +
                   (2 * regs + n_out + 1) * sizeof(TsTensor *) +
                   (regs + n_out + 1) * (sizeof(float) + sizeof(int)) +
                   regs + p->n_instrs + 2 * n_out + 2;
    /* every array is written before it is read; the outputs are cleared below, for the
     * failure path's sake */
    _Alignas(16) char stack_mem[STACK_BYTES];
    char *mem = bytes <= sizeof stack_mem ? stack_mem : malloc(bytes);
    int *out_dim = NULL;
    int64_t *out_sizes = NULL;
    TsTensor **scratch = NULL;
    uint8_t *member = NULL;
    if (mem) {
        k.bstrides = (int64_t *)mem;
        out_sizes = k.bstrides + nbs;
        k.in = (TsTensor **)(out_sizes + nos);
        scratch = k.in + regs;
        k.out = scratch + regs;
        k.scalar = (float *)(k.out + n_out + 1);
        k.out_of = (int *)(k.scalar + regs);
        out_dim = k.out_of + regs;
        k.how = (uint8_t *)(out_dim + n_out + 1);
        k.active = k.how + regs;
        member = k.active + p->n_instrs + 1;
        memset(k.out, 0, (n_out + 1) * sizeof *k.out);
        memset(k.in, 0, regs * sizeof *k.in);
    }
    int rc = mem ? read_inputs(c, &k, a)
                 : ts_error_set(c->error, TS_ERR_NOMEM, "out of memory");
    if (!rc)
        rc = run_passes(c, &k, scratch, out_dim, out_sizes, member);
    ts_stack_drop(c->stack, n_in);
    for (size_t r = n_in; mem && r < p->n_regs; r++)   /* the pieces' views */
        if (k.in[r])
            ts_tensor_release(k.in[r]);
    for (size_t o = 0; o < n_out; o++) {
        TsValue v = k.out && k.out[o] ? ts_obj_value(k.out[o], TS_TAG_TENSOR) : ts_none();
        if (rc)
            ts_value_release(v);
        else if ((rc = ts_stack_push(c->stack, v, c->error)))
            for (size_t q = o + 1; q < n_out; q++)
                if (k.out[q])
                    ts_tensor_release(k.out[q]);
    }
    if (mem != stack_mem)
        free(mem);
    return rc;
}

static void free_program(void *p)
{
    fu_program_free(p);
}

int fu_kernel_factory(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                      void (**free_data)(void *), TsError *err)
{
    TsGraph *sub = NULL;
    if (fu_bound_subgraph(node, &sub, err))
        return err->code;
    FuProgram *p = fu_program_compile(sub, err);
    if (!p)
        return err->code;
    if (fu_check_arity(node, p->n_inputs, p->n_outputs, err)) {
        fu_program_free(p);
        return err->code;
    }
    *fn = k_fusion_group;
    *data = p;
    *free_data = free_program;
    return 0;
}
