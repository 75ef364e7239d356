/* codegen.c — a fusion group's Subgraph written as one CUDA C kernel.
 *
 * The kernel is elementwise over the shape of the outputs it writes: a grid-stride loop,
 * one element per thread per step. Each step finds its element's offset in every tensor
 * argument — the element index itself when the launch says all of them are contiguous in
 * the launch's shape (the fast path), else from the sizes and the arguments' strides (0
 * along broadcast dimensions: broadcast and strided views such as chunk's pieces) — loads
 * the arguments the launch needs, computes every value of the Subgraph in registers, in the
 * dtype's arithmetic type (float for float32 and float16, double for float64, as PyTorch
 * computes), and stores the outputs the launch writes.
 *
 * The source depends on the Subgraph's operators and dtype only, never on shapes, so it is
 * also the key of the compiled program (cache.c). The Subgraph comes from an attribute a
 * saved or edited graph could also carry: anything unexpected is an error, never a guess.
 */
#include <stdlib.h>
#include <string.h>

#include "fuser.h"

/* How a dtype is stored and computed. */
typedef struct DtypeCode {
    int dtype;
    const char *store;         /* the element type in memory */
    const char *math;          /* the arithmetic type */
    const char *fn;            /* the suffix of the math functions of that type */
    const char *load, *save;   /* wrap a loaded element / a value stored */
} DtypeCode;

static const DtypeCode dtypes[] = {
    { TS_FLOAT32, "float", "float", "f", "", "" },
    { TS_FLOAT64, "double", "double", "", "", "" },
    { TS_FLOAT16, "unsigned short", "float", "f", "h2f", "f2h" },
};

/* Half precision through the PTX conversions, so that no header is needed. */
static const char half_helpers[] =
    "__device__ __forceinline__ float h2f(unsigned short h)\n"
    "{ float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h)); return f; }\n"
    "__device__ __forceinline__ unsigned short f2h(float f)\n"
    "{ unsigned short h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }\n";

/* The state of one generation: the Subgraph's values in definition order, each a register
 * v<i> in the kernel with the slots it reads. */
typedef struct Gen {
    FcKernel *k;
    const DtypeCode *dt;
    const TsIrValue **vals;
    uint64_t *deps;
    size_t n_vals, cap;
    int n_bcast;               /* BroadcastingChunk nodes so far */
    int *mm_of;                /* per register: 0, or the product (1, 2, ...) it holds */
    TsBuf body;
    TsError *err;
} Gen;

static int bad(TsError *err, const char *what)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "prim::FusionGroup (cuda): %s", what);
}

void fc_kernel_free(FcKernel *k)
{
    if (!k)
        return;
    free(k->is_number);
    free(k->is_float);
    free(k->slots);
    free(k->deps);
    free(k->same_as);
    free(k->source);
    free(k);
}

size_t fc_word_output(const FcKernel *k, size_t o)
{
    return FC_W_SLOTS + k->n_slots * FC_SLOT_WORDS + o;
}

size_t fc_word_number(const FcKernel *k, size_t j)
{
    return fc_word_output(k, k->n_outputs) + j;
}

size_t fc_word_mm(const FcKernel *k, size_t m)
{
    return fc_word_number(k, k->n_numbers) + m * FC_MM_WORDS;
}

/* The register of v, or -1. */
static long reg_of(const Gen *G, const TsIrValue *v)
{
    for (size_t i = G->n_vals; i-- > 0;)
        if (G->vals[i] == v)
            return (long)i;
    return -1;
}

static long define(Gen *G, const TsIrValue *v, uint64_t deps)
{
    if (G->n_vals == G->cap)
        return bad(G->err, "more values than its nodes define"), -1;
    G->vals[G->n_vals] = v;
    G->deps[G->n_vals] = deps;
    return (long)G->n_vals++;
}

static bool is_number(const TsType *t)
{
    TsTypeKind k = ts_type_kind(t);
    return k == TS_TYPE_INT || k == TS_TYPE_FLOAT;
}

/* Is t a tensor of the group's dtype? The first tensor sets it. */
static bool group_tensor(Gen *G, const TsType *t)
{
    if (ts_type_kind(t) != TS_TYPE_TENSOR)
        return false;
    const TsTensorTypeInfo *info = ts_type_tensor_info(t);
    if (!info)
        return false;
    if (!G->dt)
        for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
            if (dtypes[i].dtype == info->dtype)
                G->dt = &dtypes[i];
    return G->dt && info->dtype == G->dt->dtype;
}

/* A new slot, loaded into a new register for v. */
static int add_slot(Gen *G, const TsIrValue *v, FcSlot slot)
{
    FcKernel *k = G->k;
    if (k->n_slots == FC_MAX_SLOTS)
        return bad(G->err, "too many tensor arguments for one kernel");
    size_t s = k->n_slots++;
    k->slots[s] = slot;
    long r = define(G, v, UINT64_C(1) << s);
    if (r < 0)
        return -1;
    const char *ld = G->dt->load;
    if (!slot.mm)
        ts_buf_printf(&G->body, "    const M v%ld = (a.need >> %zu & 1) ? %s(((const S *)"
                      "a.in[%zu].p)[off[%zu]]) : (M)0;\n", r, s, ld, s, s);
    else                       /* computed by products_block */
        ts_buf_printf(&G->body, "    M v%ld = (M)0;\n", r);
    return 0;
}

/* The pieces of products among slots [first, last): each needed one is the element of the
 * product aten::mm made, or, computed here, its element's row of a times its column of b —
 * every dot product in one loop, so that their loads are in flight together, each lane of
 * the element's warp taking every 32nd term in warp mode, then a shuffle sum. */
static void products_block(Gen *G, size_t first, size_t last, long first_reg)
{
    const FcKernel *k = G->k;
    const char *ld = G->dt->load;
    TsBuf *b = &G->body;
    bool any = false;
    for (size_t s = first; s < last; s++)
        any = any || k->slots[s].mm;
    if (!any)
        return;
    ts_buf_puts(b, "    {\n      long long kmax = 0;\n");
    for (size_t s = first; s < last; s++) {
        int m = k->slots[s].mm - 1;
        long r = first_reg + (long)(s - first);
        if (m < 0)
            continue;
        ts_buf_printf(b,
            "      const S *pa%zu = 0, *pb%zu = 0;\n"
            "      bool u%zu = false;\n"
            "      M acc%zu = (M)0;\n"
            "      if (a.need >> %zu & 1) {\n"
            "        if (a.mm[%d].on) {\n"
            "          const long long o = (long long)(unsigned long long)a.in[%zu].p + off[%zu];\n"
            "          const long long row = o / a.mm[%d].n, col = o - row * a.mm[%d].n;\n"
            "          pa%zu = (const S *)a.mm[%d].a + row * a.mm[%d].as0;\n"
            "          pb%zu = (const S *)a.mm[%d].b + col * a.mm[%d].bs1;\n"
            "          u%zu = true;\n"
            "          kmax = a.mm[%d].k > kmax ? a.mm[%d].k : kmax;\n"
            "        } else {\n"
            "          v%ld = %s(((const S *)a.in[%zu].p)[off[%zu]]);\n"
            "        }\n"
            "      }\n",
            s, s, s, s, s, m, s, s, m, m, s, m, m, s, m, m, s, m, m, r, ld, s, s);
    }
    ts_buf_puts(b, "      for (long long q = lane; q < kmax; q += lanes) {\n");
    for (size_t s = first; s < last; s++) {
        int m = k->slots[s].mm - 1;
        if (m >= 0)
            ts_buf_printf(b, "        if (u%zu && q < a.mm[%d].k) acc%zu += %s(pa%zu[q * "
                          "a.mm[%d].as1]) * %s(pb%zu[q * a.mm[%d].bs0]);\n",
                          s, m, s, ld, s, m, ld, s, m);
    }
    ts_buf_puts(b, "      }\n");
    for (size_t s = first; s < last; s++) {
        long r = first_reg + (long)(s - first);
        if (k->slots[s].mm)
            ts_buf_printf(b, "      if (lanes == 32) acc%zu = warp_sum(acc%zu);\n"
                          "      if (u%zu) v%ld = acc%zu;\n", s, s, s, r, s);
    }
    ts_buf_puts(b, "    }\n");
}

/* A constant's register: its exact value (a double's bits, so that -0.0, inf and nan
 * survive), converted to the arithmetic type as PyTorch converts a wrapped number. */
static int add_constant(Gen *G, const TsNode *n)
{
    TsValue c;
    if (ts_constant_value(n, &c, G->err))
        return -1;
    int rc = 0;
    long r = -1;
    if (c.tag != TS_TAG_INT && c.tag != TS_TAG_DOUBLE)
        rc = bad(G->err, "a constant that is not a number");
    else if ((r = define(G, ts_node_output(n, 0), 0)) < 0)
        rc = -1;
    else if (c.tag == TS_TAG_INT)
        ts_buf_printf(&G->body, "    const M v%ld = (M)(long long)0x%llxULL; /* %lld */\n", r,
                      (unsigned long long)c.u.i, (long long)c.u.i);
    else {
        uint64_t bits;
        memcpy(&bits, &c.u.d, sizeof bits);
        ts_buf_printf(&G->body, "    const M v%ld = (M)__longlong_as_double(0x%llxULL); "
                      "/* %.17g */\n", r, (unsigned long long)bits, c.u.d);
    }
    ts_value_release(c);
    return rc;
}

/* prim::ConstantChunk[chunks=N, dim=D](%input): a slot per piece of a tensor input. */
static int add_chunk(Gen *G, const TsNode *n)
{
    int64_t chunks, dim;
    if (ts_attr_get_int(n, "chunks", &chunks, G->err) ||
        ts_attr_get_int(n, "dim", &dim, G->err))
        return -1;
    long src = ts_node_num_inputs(n) == 1 ? reg_of(G, ts_node_input(n, 0)) : -1;
    if (src < 0 || (size_t)src >= G->k->n_inputs || G->k->is_number[src] || chunks < 1 ||
        chunks > FU_MAX_CHUNKS || (size_t)chunks != ts_node_num_outputs(n))
        return bad(G->err, "a ConstantChunk not of a tensor input into its outputs");
    for (int64_t i = 0; i < chunks; i++) {
        if (!group_tensor(G, ts_irvalue_type(ts_node_output(n, (size_t)i))))
            return bad(G->err, "a piece of another dtype");
        if (add_slot(G, ts_node_output(n, (size_t)i), (FcSlot){ (size_t)src, i, chunks, dim,
                                                                  0, 0 }))
            return -1;
    }
    return 0;
}

/* prim::BroadcastingChunk[chunks=N, dim=D](%x0, ..., %xk): a slot per piece of each tensor
 * input, piece c of input j as output j * N + c, each input broadcast to the shape of all
 * of them before it is split (launch.c). */
static int add_broadcasting_chunk(Gen *G, const TsNode *n)
{
    int64_t chunks, dim;
    if (ts_attr_get_int(n, "chunks", &chunks, G->err) ||
        ts_attr_get_int(n, "dim", &dim, G->err))
        return -1;
    size_t k = ts_node_num_inputs(n);
    if (k == 0 || chunks < 1 || chunks > FU_MAX_CHUNKS ||
        ts_node_num_outputs(n) != k * (size_t)chunks)
        return bad(G->err, "a BroadcastingChunk not of tensor inputs into their pieces");
    int id = ++G->n_bcast;
    size_t first = G->k->n_slots;
    long first_reg = (long)G->n_vals;
    for (size_t j = 0; j < k; j++) {
        long src = reg_of(G, ts_node_input(n, j));
        int mm = src >= 0 ? G->mm_of[src] : 0;
        size_t input = mm ? G->k->mm[mm - 1].a : (size_t)src;
        if (src < 0 || (!mm && ((size_t)src >= G->k->n_inputs || G->k->is_number[src])))
            return bad(G->err, "a BroadcastingChunk not of tensor inputs into their pieces");
        for (int64_t c = 0; c < chunks; c++) {
            const TsIrValue *out = ts_node_output(n, j * (size_t)chunks + (size_t)c);
            if (!group_tensor(G, ts_irvalue_type(out)))
                return bad(G->err, "a piece of another dtype");
            if (add_slot(G, out, (FcSlot){ input, c, chunks, dim, id, mm }))
                return -1;
        }
    }
    products_block(G, first, G->k->n_slots, first_reg);
    return 0;
}

/* aten::mm(%a, %b) of two tensor inputs: a product whose pieces a BroadcastingChunk reads
 * (its register holds no element: nothing else may read it). */
static int add_mm(Gen *G, const TsNode *n)
{
    FcKernel *k = G->k;
    long x = ts_node_num_inputs(n) == 2 ? reg_of(G, ts_node_input(n, 0)) : -1;
    long y = ts_node_num_inputs(n) == 2 ? reg_of(G, ts_node_input(n, 1)) : -1;
    if (x < 0 || y < 0 || (size_t)x >= k->n_inputs || (size_t)y >= k->n_inputs ||
        k->is_number[x] || k->is_number[y] || ts_node_num_outputs(n) != 1 ||
        !group_tensor(G, ts_irvalue_type(ts_node_output(n, 0))))
        return bad(G->err, "a product not of two tensor inputs");
    if (k->n_mm == FC_MAX_MM)
        return bad(G->err, "too many products for one kernel");
    long r = define(G, ts_node_output(n, 0), 0);
    if (r < 0)
        return -1;
    G->mm_of[r] = (int)++k->n_mm;
    k->mm[k->n_mm - 1] = (FcMm){ (size_t)x, (size_t)y };
    return 0;
}

/* Is register r the constant 1 (an alpha that changes nothing)? */
static bool is_one(const Gen *G, long r)
{
    const TsNode *d = ts_irvalue_node(G->vals[r]);
    TsValue c;
    if (strcmp(ts_node_kind(d), "prim::Constant") != 0 || ts_constant_value(d, &c, NULL))
        return false;
    bool one = (c.tag == TS_TAG_INT && c.u.i == 1) || (c.tag == TS_TAG_DOUBLE && c.u.d == 1.0);
    ts_value_release(c);
    return one;
}

/* One operator of ops.c as a C expression over registers x, y (and alpha). */
static int add_op(Gen *G, const TsNode *n, FuOpCode op)
{
    long x = reg_of(G, ts_node_input(n, 0));
    long y = fu_op_arity(op) == 2 ? reg_of(G, ts_node_input(n, 1)) : x;
    long al = fu_op_has_alpha(op) ? reg_of(G, ts_node_input(n, 2)) : x;
    if (x < 0 || y < 0 || al < 0 || G->deps[x] == 0 || ts_node_num_outputs(n) != 1 ||
        !group_tensor(G, ts_irvalue_type(ts_node_output(n, 0))))
        return bad(G->err, "an operand defined outside the group, or a number as self");
    if (G->mm_of[x] || G->mm_of[y] || G->mm_of[al])
        return bad(G->err, "a product read other than through a BroadcastingChunk");
    if (fu_op_has_alpha(op) && G->deps[al] != 0)
        return bad(G->err, "an alpha that is not a number");
    long r = define(G, ts_node_output(n, 0), G->deps[x] | G->deps[y]);
    if (r < 0)
        return -1;
    const char *f = G->dt->fn;
    TsBuf *b = &G->body;
    ts_buf_printf(b, "    const M v%ld = ", r);
    switch (op) {
    case FU_ADD:
    case FU_SUB:
        if (is_one(G, al))
            ts_buf_printf(b, "v%ld %c v%ld", x, op == FU_ADD ? '+' : '-', y);
        else
            ts_buf_printf(b, "v%ld %c v%ld * v%ld", x, op == FU_ADD ? '+' : '-', al, y);
        break;
    case FU_MUL: ts_buf_printf(b, "v%ld * v%ld", x, y); break;
    case FU_DIV: ts_buf_printf(b, "v%ld / v%ld", x, y); break;
    case FU_NEG: ts_buf_printf(b, "-v%ld", x); break;
    case FU_SIGMOID: ts_buf_printf(b, "(M)1 / ((M)1 + exp%s(-v%ld))", f, x); break;
    case FU_TANH: ts_buf_printf(b, "tanh%s(v%ld)", f, x); break;
    /* nan stays nan, as clamp_min(0) keeps it */
    case FU_RELU: ts_buf_printf(b, "v%ld > (M)0 || v%ld != v%ld ? v%ld : (M)0", x, x, x, x); break;
    case FU_EXP: ts_buf_printf(b, "exp%s(v%ld)", f, x); break;
    case FU_LOG: ts_buf_printf(b, "log%s(v%ld)", f, x); break;
    case FU_SQRT: ts_buf_printf(b, "sqrt%s(v%ld)", f, x); break;
    case FU_RSQRT: ts_buf_printf(b, "rsqrt%s(v%ld)", f, x); break;
    case FU_RECIPROCAL: ts_buf_printf(b, "(M)1 / v%ld", x); break;
    case FU_ABS: ts_buf_printf(b, "fabs%s(v%ld)", f, x); break;
    case FU_OP__COUNT: return bad(G->err, "an unknown operator");
    }
    ts_buf_puts(b, ";\n");
    return 0;
}

/* The Subgraph's inputs: numbers by value, tensors as slots. */
static int add_inputs(Gen *G, const TsGraph *sub)
{
    FcKernel *k = G->k;
    size_t n_numbers = 0;
    for (size_t i = 0; i < k->n_inputs; i++) {
        const TsIrValue *v = ts_graph_input(sub, i);
        const TsType *t = ts_irvalue_type(v);
        if (is_number(t)) {
            k->is_number[i] = 1;
            k->is_float[i] = ts_type_kind(t) == TS_TYPE_FLOAT;
            long r = define(G, v, 0);
            if (r < 0)
                return -1;
            /* the word's offset is known once the slots are: NUM(j) in the source */
            ts_buf_printf(&G->body, k->is_float[i]
                                        ? "    const M v%ld = (M)__longlong_as_double(NUM(%zu));\n"
                                        : "    const M v%ld = (M)NUM(%zu);\n",
                          r, n_numbers++);
        } else if (!group_tensor(G, t)) {
            return bad(G->err, "an input that is neither a number nor a tensor of the group's "
                       "dtype (float32, float64 or float16)");
        } else if (add_slot(G, v, (FcSlot){ i, -1, 0, 0, 0, 0 })) {
            return -1;
        }
    }
    return 0;
}

static int add_outputs(Gen *G, const TsGraph *sub)
{
    FcKernel *k = G->k;
    for (size_t o = 0; o < k->n_outputs; o++) {
        const TsIrValue *v = ts_graph_output(sub, o);
        long r = reg_of(G, v);
        if (r < 0 || G->deps[r] == 0 || !group_tensor(G, ts_irvalue_type(v)))
            return bad(G->err, "an output that no operator of the group computes");
        k->deps[o] = G->deps[r];
        k->same_as[o] = -1;
        for (size_t q = 0; q < o && k->same_as[o] < 0; q++)
            if (ts_graph_output(sub, q) == v)
                k->same_as[o] = (int)q;
        if (k->same_as[o] < 0)
            ts_buf_printf(&G->body, "    if ((a.write >> %zu & 1) && lane == 0) "
                          "((S *)a.out[%zu])[i] = %s(v%ld);\n", o, o, G->dt->save, r);
    }
    return 0;
}

/* The source around the body: the parameter struct, the loop and the offsets. */
static char *wrap(Gen *G, size_t n_numbers)
{
    const FcKernel *k = G->k;
    TsBuf s = TS_BUF_INIT;
    ts_buf_printf(&s, "/* tscript fuser-cuda: %s */\n", G->dt->store);
    if (G->dt->dtype == TS_FLOAT16)
        ts_buf_puts(&s, half_helpers);
    ts_buf_printf(&s,
        "typedef %s S;\ntypedef %s M;\n"
        "struct In { const void *p; long long st[%d]; };\n"
        "struct Args {\n"
        "    long long numel, rank, contig, warp;\n"
        "    unsigned long long need, write;\n"
        "    long long sizes[%d];\n"
        "    In in[%zu];\n"
        "    void *out[%zu];\n",
        G->dt->store, G->dt->math, FC_MAX_RANK, FC_MAX_RANK, k->n_slots, k->n_outputs);
    if (n_numbers)
        ts_buf_printf(&s, "    long long num[%zu];\n", n_numbers);
    if (k->n_mm)
        ts_buf_printf(&s, "    struct { long long on; const void *a, *b; long long k, n, as0, as1, "
                      "bs0, bs1; } mm[%zu];\n", k->n_mm);
    ts_buf_printf(&s,
        "};\n"
        "#define NUM(j) a.num[j]\n"
        "__device__ __forceinline__ M warp_sum(M v)\n"
        "{\n"
        "#pragma unroll\n"
        "  for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);\n"
        "  return v;\n"
        "}\n"
        "extern \"C\" __global__ void __launch_bounds__(256) fusion(const Args a)\n"
        "{\n"
        "  /* warp mode: element i is warp i's, every lane computing it alike but for its\n"
        "     share of the dot products; lane 0 stores it */\n"
        "  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  const int lanes = a.warp ? 32 : 1;\n"
        "  const int lane = a.warp ? (int)(threadIdx.x & 31) : 0;\n"
        "  const long long step = (long long)gridDim.x * blockDim.x / lanes;\n"
        "  for (long long i = tid / lanes; i < a.numel; i += step) {\n"
        "    long long off[%zu];\n"
        "    if (a.contig) {\n"
        "#pragma unroll\n"
        "      for (int s = 0; s < %zu; s++) off[s] = i;\n"
        "    } else {\n"
        "#pragma unroll\n"
        "      for (int s = 0; s < %zu; s++) off[s] = 0;\n"
        "      long long rest = i;\n"
        "      for (int d = (int)a.rank - 1; d >= 0; d--) {\n"
        "        const long long q = rest / a.sizes[d], x = rest - q * a.sizes[d];\n"
        "        rest = q;\n"
        "#pragma unroll\n"
        "        for (int s = 0; s < %zu; s++) off[s] += x * a.in[s].st[d];\n"
        "      }\n"
        "    }\n",
        k->n_slots, k->n_slots, k->n_slots, k->n_slots);
    ts_buf_add(&s, G->body.p, G->body.len);
    ts_buf_puts(&s, "  }\n}\n");
    return ts_buf_take(&s, G->err);
}

static FcKernel *kernel_new(const TsGraph *sub)
{
    FcKernel *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->n_inputs = ts_graph_num_inputs(sub);
    k->n_outputs = ts_graph_num_outputs(sub);
    k->is_number = calloc(k->n_inputs + 1, 1);
    k->is_float = calloc(k->n_inputs + 1, 1);
    k->slots = calloc(FC_MAX_SLOTS, sizeof *k->slots);
    k->deps = calloc(k->n_outputs + 1, sizeof *k->deps);
    k->same_as = calloc(k->n_outputs + 1, sizeof *k->same_as);
    if (!k->is_number || !k->is_float || !k->slots || !k->deps || !k->same_as) {
        fc_kernel_free(k);
        return NULL;
    }
    return k;
}

static int gen_body(Gen *G, const TsGraph *sub)
{
    if (add_inputs(G, sub))
        return -1;
    for (TsNode *n = ts_block_first_node(ts_graph_block(sub)); n; n = ts_node_next(n)) {
        const char *kind = ts_node_kind(n);
        int op;
        if (strcmp(kind, "prim::Constant") == 0) {
            if (add_constant(G, n))
                return -1;
        } else if (strcmp(kind, "prim::ConstantChunk") == 0) {
            if (add_chunk(G, n))
                return -1;
        } else if (strcmp(kind, "prim::BroadcastingChunk") == 0) {
            if (add_broadcasting_chunk(G, n))
                return -1;
        } else if (strcmp(kind, "aten::mm") == 0) {
            if (add_mm(G, n))
                return -1;
        } else if ((op = fu_op_lookup(kind, ts_node_num_inputs(n))) >= 0) {
            if (add_op(G, n, (FuOpCode)op))
                return -1;
        } else {
            return bad(G->err, "an operator the CUDA fuser does not run");
        }
    }
    if (G->k->n_outputs == 0 || G->k->n_outputs > FC_MAX_SLOTS)
        return bad(G->err, "no outputs, or more than one kernel writes");
    return add_outputs(G, sub);
}

FcKernel *fc_codegen(const TsGraph *sub, TsError *err)
{
    Gen G = { .err = err, .body = TS_BUF_INIT };
    G.cap = ts_graph_num_inputs(sub);
    for (TsNode *n = ts_block_first_node(ts_graph_block(sub)); n; n = ts_node_next(n))
        G.cap += ts_node_num_outputs(n);
    G.k = kernel_new(sub);
    G.vals = malloc((G.cap + 1) * sizeof *G.vals);
    G.deps = malloc((G.cap + 1) * sizeof *G.deps);
    G.mm_of = calloc(G.cap + 1, sizeof *G.mm_of);
    int rc = !G.k || !G.vals || !G.deps || !G.mm_of
                 ? ts_error_set(err, TS_ERR_NOMEM, "out of memory")
                 : gen_body(&G, sub);
    if (!rc && ts_buf_check(&G.body, err))
        rc = -1;
    if (!rc && G.k->n_slots == 0)
        rc = bad(err, "no tensor input");
    size_t n_numbers = 0;
    for (size_t i = 0; !rc && i < G.k->n_inputs; i++)
        n_numbers += G.k->is_number[i];
    if (!rc) {
        G.k->n_numbers = n_numbers;
        G.k->n_words = fc_word_mm(G.k, G.k->n_mm);
        if (G.k->n_words * 8 > FC_MAX_PARAM_BYTES)
            rc = bad(err, "too many tensor arguments for one kernel's parameters");
    }
    if (!rc) {
        G.k->dtype = G.dt->dtype;
        if (!(G.k->source = wrap(&G, n_numbers)))
            rc = -1;
    }
    ts_buf_free(&G.body);
    free(G.vals);
    free(G.deps);
    free(G.mm_of);
    if (rc) {
        fc_kernel_free(G.k);
        return NULL;
    }
    return G.k;
}
