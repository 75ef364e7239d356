/* optimize.c — passes over a built Code that make its hot paths cheap (see code.h).
 *
 * The builder gives every IR value a register of its own and joins them with MOVES: into
 * an If's outputs at the end of each branch, into a loop's carried values at the end of
 * its body, out of them at its exit. For values of inline types (int, float, bool, None)
 * most of those copies are avoidable: a register-level liveness analysis finds the MOVES
 * whose source and destination never hold different live values at once, and merges their
 * registers (Chaitin's aggressive coalescing), so `x = x + i` in a loop adds in place.
 * Registers that may hold references are left alone: their moves and DROPs carry the
 * release-at-last-use bookkeeping.
 *
 * Then an int compare whose result only feeds the next conditional jump becomes one fused
 * compare-and-branch, and the fast ops get plain register operands: a constant they read
 * is preloaded into a register of its own when a frame is entered, so the interpreter
 * never tests whether an operand is a register or a constant.
 *
 * The int fast path: an int constant that fits int32 becomes an immediate of its op (the
 * _IK ops, INC_I), a loop counter's `i += K` and the compare-and-jump after it become one
 * INC_J*_I; `// 2**K` and `% 2**K` a shift and a mask (the _PK ops, any power of two), and
 * an unused append to a list held in a register LIST_APPEND_R. Last, the fast ops' registers become byte offsets, jumps byte displacements,
 * and every instruction gets its op's label in the interpreter (direct threading).
 */
#include <stdlib.h>
#include <string.h>

#include "sched/code.h"

/* Above these the coalescing and fusion passes are skipped (the code stays correct). */
enum { MAX_REGS = 4096, MAX_WORDS = 1 << 21 };

static bool is_binop(unsigned op) { return op <= TS_OP_NE_F; }   /* ADD_I is 0 */
static bool is_cmp_i(unsigned op) { return op >= TS_OP_LT_I && op <= TS_OP_NE_I; }
static bool is_fused(unsigned op) { return op >= TS_OP_JLT_I && op <= TS_OP_JNE_I; }
static bool is_imm_jump(unsigned op) { return op >= TS_OP_JLT_IK && op <= TS_OP_JNE_IK; }
static bool is_inc_jump(unsigned op) { return op >= TS_OP_INC_JLT_I && op <= TS_OP_INC_JNE_I; }
static bool is_rem_jump(unsigned op) { return op == TS_OP_JREM_EQ_IK || op == TS_OP_JREM_NE_IK; }
static bool is_cond_jump(unsigned op)
{
    return is_fused(op) || is_imm_jump(op) || is_inc_jump(op) || is_rem_jump(op) ||
           op == TS_OP_JUMP_IF_FALSE ||
           op == TS_OP_JUMP_IF_TRUE || op == TS_OP_LOOP_ENTER || op == TS_OP_LOOP_NEXT;
}

/* ---- the register slots of an instruction ----------------------------------------------- */
/* Called once per slot: opnd when it holds an operand (register << 1 | move, or ~constant),
 * else a plain register; use/def say whether the instruction reads or writes it. The int
 * fast path's ops (ADD_IK ..) are made by lower(), the last pass: no analysis visits them. */
typedef void (*SlotFn)(void *ctx, int32_t *slot, bool opnd, bool use, bool def);

static void visit(TsCode *code, TsInstr *in, SlotFn fn, void *ctx)
{
    int32_t *args = code->operands + in->args;
    unsigned op = in->op;
    if (is_binop(op) || op == TS_OP_NOT) {
        fn(ctx, &in->a, true, true, false);
        if (op != TS_OP_NOT)
            fn(ctx, &in->b, true, true, false);
        fn(ctx, &in->c, false, false, true);
        /* the operand lists serve the kernel fallback (errors); fall through to them */
    } else if (is_fused(op)) {
        fn(ctx, &in->a, true, true, false);
        fn(ctx, &in->b, true, true, false);
        return;
    } else if (op == TS_OP_JUMP) {
        return;
    } else if (op == TS_OP_JUMP_IF_FALSE || op == TS_OP_JUMP_IF_TRUE || is_rem_jump(op)) {
        fn(ctx, &in->a, true, true, false);
        return;
    } else if (op == TS_OP_LOOP_ENTER || op == TS_OP_LOOP_NEXT) {
        fn(ctx, &in->a, true, true, false);
        fn(ctx, &in->b, true, true, false);
        fn(ctx, &in->c, false, op == TS_OP_LOOP_NEXT, true);
        if (in->d >= 0)
            fn(ctx, &in->d, false, false, true);
        return;
    } else if (op == TS_OP_DROP) {
        for (size_t i = 0; i < in->n_in; i++)
            fn(ctx, &args[i], false, false, true);
        return;
    }
    for (size_t i = 0; i < in->n_in; i++)
        fn(ctx, &args[i], true, true, false);
    for (size_t i = 0; i < in->n_out; i++)
        fn(ctx, &args[in->n_in + i], false, false, true);
}

static size_t successors(const TsCode *code, size_t i, size_t out[2])
{
    const TsInstr *in = &code->instrs[i];
    if (in->op == TS_OP_RET || in->op == TS_OP_RAISE)
        return 0;
    if (in->op == TS_OP_JUMP) {
        out[0] = in->target;
        return 1;
    }
    size_t n = 0;
    if (is_cond_jump(in->op))
        out[n++] = in->target;
    if (i + 1 < code->n_instrs)
        out[n++] = i + 1;
    return n;
}

/* ---- liveness over registers --------------------------------------------------------------- */
typedef struct Opt {
    TsCode *code;
    const bool *ref;           /* per register of the original numbering */
    size_t n_regs, words;
    uint64_t *live_in;         /* n_instrs rows of `words` */
    uint64_t *tmp;
    size_t *parent;            /* union-find over registers */
    uint64_t *edges;           /* interference matrix, n_regs rows */
    TsError *err;
} Opt;

static bool bit(const uint64_t *w, size_t i) { return (w[i / 64] >> (i % 64)) & 1; }
static void set_bit(uint64_t *w, size_t i) { w[i / 64] |= (uint64_t)1 << (i % 64); }
static void clear_bit(uint64_t *w, size_t i) { w[i / 64] &= ~((uint64_t)1 << (i % 64)); }

static int32_t slot_reg(int32_t v, bool opnd) { return opnd ? (v < 0 ? -1 : v >> 1) : v; }

static void kill_defs(void *ctx, int32_t *slot, bool opnd, bool use, bool def)
{
    (void)use;
    int32_t r = slot_reg(*slot, opnd);
    if (def && r >= 0)
        clear_bit(ctx, (size_t)r);
}

static void gen_uses(void *ctx, int32_t *slot, bool opnd, bool use, bool def)
{
    (void)def;
    int32_t r = slot_reg(*slot, opnd);
    if (use && r >= 0)
        set_bit(ctx, (size_t)r);
}

static void live_out(const Opt *O, size_t i, uint64_t *out)
{
    size_t s[2], n = successors(O->code, i, s);
    memset(out, 0, O->words * sizeof *out);
    for (size_t k = 0; k < n; k++)
        for (size_t w = 0; w < O->words; w++)
            out[w] |= O->live_in[s[k] * O->words + w];
}

static void liveness(Opt *O)
{
    TsCode *c = O->code;
    memset(O->live_in, 0, c->n_instrs * O->words * sizeof *O->live_in);
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = c->n_instrs; i-- > 0;) {
            live_out(O, i, O->tmp);
            visit(c, &c->instrs[i], kill_defs, O->tmp);
            visit(c, &c->instrs[i], gen_uses, O->tmp);
            uint64_t *in = O->live_in + i * O->words;
            if (memcmp(in, O->tmp, O->words * sizeof *in) != 0) {
                memcpy(in, O->tmp, O->words * sizeof *in);
                changed = true;
            }
        }
    }
}

/* ---- interference and coalescing ------------------------------------------------------------ */
static bool candidate(const Opt *O, int32_t r)
{
    return r >= (int32_t)O->code->n_inputs && !O->ref[r];
}

static void add_edge(Opt *O, size_t a, size_t b)
{
    if (a == b)
        return;
    set_bit(O->edges + a * O->words, b);
    set_bit(O->edges + b * O->words, a);
}

typedef struct DefList {
    int32_t r[64];
    size_t n;
    bool overflow;
} DefList;

static void collect_defs(void *ctx, int32_t *slot, bool opnd, bool use, bool def)
{
    (void)use;
    DefList *d = ctx;
    int32_t r = slot_reg(*slot, opnd);
    if (!def || r < 0)
        return;
    if (d->n == 64)
        d->overflow = true;
    else
        d->r[d->n++] = r;
}

/* The register MOVES instruction in copies into dst from (or -1). */
static int32_t move_source(const TsCode *code, const TsInstr *in, int32_t dst)
{
    const int32_t *args = code->operands + in->args;
    for (size_t k = 0; k < in->n_out; k++)
        if (args[in->n_in + k] == dst)
            return slot_reg(args[k], true);
    return -1;
}

static void interference(Opt *O)
{
    TsCode *c = O->code;
    for (size_t i = 0; i < c->n_instrs; i++) {
        TsInstr *in = &c->instrs[i];
        DefList d = {{0}, 0, false};
        visit(c, in, collect_defs, &d);
        live_out(O, i, O->tmp);
        for (size_t k = 0; k < d.n; k++) {
            if (!candidate(O, d.r[k]))
                continue;
            int32_t src = in->op == TS_OP_MOVES ? move_source(c, in, d.r[k]) : -1;
            for (size_t w = 0; w < O->words; w++)
                for (uint64_t bits = O->tmp[w]; bits; bits &= bits - 1) {
                    size_t r = w * 64 + (size_t)__builtin_ctzll(bits);
                    if ((int32_t)r != src)
                        add_edge(O, (size_t)d.r[k], r);
                }
            for (size_t j = 0; j < d.n; j++)   /* written together: never one register */
                add_edge(O, (size_t)d.r[k], (size_t)d.r[j]);
        }
        if (d.overflow)        /* too many outputs to track: keep them all apart */
            for (size_t k = 0; k < in->n_out && in->op != TS_OP_DROP; k++) {
                int32_t r = c->operands[in->args + in->n_in + k];
                for (size_t x = 0; x < O->n_regs; x++)
                    add_edge(O, (size_t)r, x);
            }
    }
}

static size_t find(Opt *O, size_t r)
{
    while (O->parent[r] != r)
        r = O->parent[r] = O->parent[O->parent[r]];
    return r;
}

static void coalesce(Opt *O)
{
    TsCode *c = O->code;
    for (size_t i = 0; i < c->n_instrs; i++) {
        const TsInstr *in = &c->instrs[i];
        if (in->op != TS_OP_MOVES)
            continue;
        const int32_t *args = c->operands + in->args;
        for (size_t k = 0; k < in->n_in; k++) {
            int32_t s0 = slot_reg(args[k], true), d0 = args[in->n_in + k];
            if (s0 < 0 || !candidate(O, s0) || !candidate(O, d0))
                continue;
            size_t s = find(O, (size_t)s0), d = find(O, (size_t)d0);
            if (s == d || bit(O->edges + d * O->words, s))
                continue;
            O->parent[s] = d;
            uint64_t *rs = O->edges + s * O->words, *rd = O->edges + d * O->words;
            for (size_t w = 0; w < O->words; w++) {
                rd[w] |= rs[w];
                for (uint64_t bits = rs[w]; bits; bits &= bits - 1)
                    set_bit(O->edges + (w * 64 + (size_t)__builtin_ctzll(bits)) * O->words, d);
            }
        }
    }
}

/* Renames registers to their representative, numbered densely (arguments keep theirs), and
 * drops move bits on inline registers (nothing to release; a merged register may still be
 * live through another name). */
typedef struct Rename {
    const int32_t *map;
    const bool *ref;
} Rename;

static void rename_slot(void *ctx, int32_t *slot, bool opnd, bool use, bool def)
{
    (void)use;
    (void)def;
    const Rename *rn = ctx;
    int32_t r = slot_reg(*slot, opnd);
    if (r < 0)
        return;
    int32_t m = rn->map[r];
    *slot = opnd ? (m << 1 | (rn->ref[r] ? (*slot & 1) : 0)) : m;
}

static int rename_all(Opt *O)
{
    TsCode *c = O->code;
    int32_t *map = malloc(O->n_regs * sizeof *map);
    if (!map)
        return ts_error_set(O->err, TS_ERR_NOMEM, "out of memory building code");
    int32_t next = 0;
    for (size_t r = 0; r < O->n_regs; r++)
        if (find(O, r) == r)
            map[r] = next++;
    for (size_t r = 0; r < O->n_regs; r++)
        map[r] = map[find(O, r)];
    Rename rn = {map, O->ref};
    for (size_t i = 0; i < c->n_instrs; i++)
        visit(c, &c->instrs[i], rename_slot, &rn);
    c->n_regs = (size_t)next;
    free(map);
    return 0;
}

/* ---- removing instructions ------------------------------------------------------------------ */
/* Drops the instructions marked in del, retargeting jumps to the next one kept. newidx has
 * room for n_instrs + 1 entries. */
static void compact(TsCode *c, const bool *del, uint32_t *newidx)
{
    uint32_t n = 0;
    for (size_t i = 0; i < c->n_instrs; i++) {
        newidx[i] = n;         /* a dropped instruction's jumps land on the next kept one */
        if (!del[i])
            n++;
    }
    newidx[c->n_instrs] = n;
    n = 0;
    for (size_t i = 0; i < c->n_instrs; i++) {
        if (del[i])
            continue;
        TsInstr in = c->instrs[i];
        if (in.op == TS_OP_JUMP || is_cond_jump(in.op))
            in.target = newidx[in.target];
        c->instrs[n++] = in;
    }
    c->n_instrs = n;
}

/* Removes MOVES pairs that copy a register to itself; an empty MOVES goes away. */
static bool trim_moves(TsCode *c, TsInstr *in)
{
    int32_t *args = c->operands + in->args;
    size_t n = in->n_in, k = 0;
    int32_t buf[2 * 64];
    int32_t *tmp = n <= 64 ? buf : malloc(2 * n * sizeof *tmp);
    if (!tmp)
        return false;
    for (size_t i = 0; i < n; i++)
        if (slot_reg(args[i], true) != args[n + i]) {
            tmp[k] = args[i];
            tmp[n + k++] = args[n + i];
        }
    for (size_t i = 0; i < k; i++) {
        args[i] = tmp[i];
        args[k + i] = tmp[n + i];
    }
    if (tmp != buf)
        free(tmp);
    in->n_in = in->n_out = (uint16_t)k;
    return k == 0;
}

/* ---- fusion ----------------------------------------------------------------------------------- */
/* The scratch of a pass that deletes instructions: marks, jump targets, compact's map. */
typedef struct Edit {
    bool *del, *target;
    uint32_t *newidx;
} Edit;

static void edit_free(Edit *E)
{
    free(E->del);
    free(E->target);
    free(E->newidx);
}

/* in becomes op, jumping where the conditional jump j after it jumped; j goes. */
static void absorb_jump(TsInstr *in, unsigned op, const TsInstr *j, bool *del_j)
{
    in->op = (uint16_t)op;
    in->target = j->target;
    *del_j = true;
}

static int edit_new(Opt *O, Edit *E)
{
    size_t n = O->code->n_instrs + 1;
    E->del = calloc(n, sizeof *E->del);
    E->target = calloc(n, sizeof *E->target);
    E->newidx = malloc(n * sizeof *E->newidx);
    if (E->del && E->target && E->newidx)
        return 0;
    edit_free(E);
    return ts_error_set(O->err, TS_ERR_NOMEM, "out of memory building code");
}

static bool fuse_rem_jump(Opt *O, size_t i, const bool *target, bool *del);

static int fuse_and_trim(Opt *O, bool analyzed)
{
    TsCode *c = O->code;
    Edit E;
    if (edit_new(O, &E))
        return -1;
    bool *del = E.del, *target = E.target;
    uint32_t *newidx = E.newidx;
    for (size_t i = 0; i < c->n_instrs; i++) {
        TsInstr *in = &c->instrs[i];
        if (in->op == TS_OP_MOVES && trim_moves(c, in))
            del[i] = true;
        if (in->op == TS_OP_JUMP || is_cond_jump(in->op))
            target[in->target] = true;
    }
    compact(c, del, newidx);
    /* jumps to the next instruction and compare-jump pairs, until nothing changes */
    static const uint16_t negate[6] = {3, 2, 1, 0, 5, 4};   /* LT LE GT GE EQ NE */
    for (bool changed = true; changed;) {
        changed = false;
        memset(del, 0, (c->n_instrs + 1) * sizeof *del);
        memset(target, 0, (c->n_instrs + 1) * sizeof *target);
        for (size_t i = 0; i < c->n_instrs; i++)
            if (c->instrs[i].op == TS_OP_JUMP || is_cond_jump(c->instrs[i].op))
                target[c->instrs[i].target] = true;
        if (analyzed)
            liveness(O);
        for (size_t i = 0; i < c->n_instrs; i++) {
            TsInstr *in = &c->instrs[i];
            if (in->op == TS_OP_JUMP && in->target == i + 1) {
                del[i] = changed = true;
                continue;
            }
            if (analyzed && fuse_rem_jump(O, i, target, del)) {
                changed = true;
                i++;
                continue;
            }
            if (!analyzed || !is_cmp_i(in->op) || i + 1 >= c->n_instrs || target[i + 1])
                continue;
            TsInstr *j = &c->instrs[i + 1];
            if ((j->op != TS_OP_JUMP_IF_FALSE && j->op != TS_OP_JUMP_IF_TRUE) ||
                slot_reg(j->a, true) != in->c)
                continue;
            live_out(O, i + 1, O->tmp);
            if (bit(O->tmp, (size_t)in->c))
                continue;
            unsigned rel = in->op - TS_OP_LT_I;
            if (j->op == TS_OP_JUMP_IF_FALSE)
                rel = negate[rel];
            absorb_jump(in, TS_OP_JLT_I + rel, j, &del[i + 1]);
            in->c = -1;
            changed = true;
            i++;
        }
        if (changed)
            compact(c, del, newidx);
    }
    edit_free(&E);
    return 0;
}

/* ---- plain register operands for the fast ops ---------------------------------------------- */
static int preload_reg(Opt *O, int32_t k, int32_t *slot)
{
    TsCode *c = O->code;
    if (ts_is_heap(c->consts[k]))
        return ts_error_set(O->err, TS_ERR_RUNTIME, "a fast instruction reads a heap constant");
    for (size_t i = 0; i < c->n_preload; i++)
        if (c->preload[2 * i + 1] == k) {
            *slot = c->preload[2 * i];
            return 0;
        }
    int32_t *p = realloc(c->preload, (c->n_preload + 1) * 2 * sizeof *p);
    if (!p)
        return ts_error_set(O->err, TS_ERR_NOMEM, "out of memory building code");
    c->preload = p;
    p[2 * c->n_preload] = (int32_t)c->n_regs;
    p[2 * c->n_preload + 1] = k;
    c->n_preload++;
    *slot = (int32_t)c->n_regs++;
    return 0;
}

static int lower_operand(Opt *O, int32_t *slot)
{
    if (*slot >= 0) {
        *slot >>= 1;
        return 0;
    }
    return preload_reg(O, ~*slot, slot);
}

/* ---- the int fast path ---------------------------------------------------------------------- */
/* An int operand read as a constant that fits int32 becomes an immediate of the instruction
 * (the _IK ops): no register load, and `% K` / `// K` with K > 0 skip the zero, sign and
 * INT64_MIN checks a register divisor needs. `i += K` followed by the loop's compare-and-jump
 * on i becomes one INC_J*_I. */
static const uint16_t mirror[6] = {2, 3, 0, 1, 4, 5};   /* a OP b == b MIRROR(OP) a */

/* The immediate an operand names: an int constant within int32. */
static bool imm_of(const TsCode *c, int32_t o, int32_t *k)
{
    if (o >= 0 || c->consts[~o].tag != TS_TAG_INT)
        return false;
    int64_t v = c->consts[~o].u.i;
    if (v < INT32_MIN || v > INT32_MAX)
        return false;
    *k = (int32_t)v;
    return true;
}

/* The s of an operand that is the int constant 2**s (s <= 62), else -1. */
static int pow2_of(const TsCode *c, int32_t o)
{
    if (o >= 0 || c->consts[~o].tag != TS_TAG_INT)
        return -1;
    int64_t v = c->consts[~o].u.i;
    if (v <= 0 || (v & (v - 1)) != 0)
        return -1;
    return __builtin_ctzll((unsigned long long)v);
}

/* The K of `r[a] + K` an ADD_I or SUB_I computes (operands not yet lowered). */
static bool add_imm(const TsCode *c, const TsInstr *in, int32_t *k)
{
    if (in->op == TS_OP_ADD_I)
        return imm_of(c, in->b, k);
    if (in->op != TS_OP_SUB_I || !imm_of(c, in->b, k) || *k == INT32_MIN)
        return false;
    *k = -*k;
    return true;
}

/* ADD_I/SUB_I by K at i, in place (a loop counter: its registers are coalesced), then a
 * fused compare-and-jump reading its result: one INC_J*_I. The compare must not be a jump
 * target (a jump to it would skip the add). */
static bool fuse_increment(TsCode *c, size_t i, const bool *target, bool *del)
{
    TsInstr *in = &c->instrs[i], *j = &c->instrs[i + 1];
    int32_t k;
    if (!is_fused(j->op) || target[i + 1] || slot_reg(in->a, true) != in->c ||
        !add_imm(c, in, &k))
        return false;
    unsigned rel = j->op - TS_OP_JLT_I;
    int32_t bound;
    if (slot_reg(j->a, true) == in->c) {
        bound = j->b;
    } else if (slot_reg(j->b, true) == in->c) {
        bound = j->a;
        rel = mirror[rel];
    } else {
        return false;
    }
    absorb_jump(in, TS_OP_INC_JLT_I + rel, j, &del[i + 1]);
    in->b = bound;
    in->d = k;
    return true;
}

static int fuse_increments(Opt *O)
{
    TsCode *c = O->code;
    Edit E;
    if (edit_new(O, &E))
        return -1;
    for (size_t i = 0; i < c->n_instrs; i++)
        if (c->instrs[i].op == TS_OP_JUMP || is_cond_jump(c->instrs[i].op))
            E.target[c->instrs[i].target] = true;
    bool changed = false;
    for (size_t i = 0; i + 1 < c->n_instrs; i++)
        if (fuse_increment(c, i, E.target, E.del)) {
            changed = true;
            i++;
        }
    if (changed)
        compact(c, E.del, E.newidx);
    edit_free(&E);
    return 0;
}

/* A binop or fused compare whose operand is an immediate: its _IK form, else false. */
static bool to_imm(const TsCode *c, TsInstr *in)
{
    unsigned op = in->op;
    int32_t k;
    if (op == TS_OP_ADD_I || op == TS_OP_MUL_I || is_fused(op)) {
        if (!imm_of(c, in->b, &k)) {   /* K OP x: commute (compares mirror) */
            if (!imm_of(c, in->a, &k))
                return false;
            in->a = in->b;
            if (is_fused(op))
                op = TS_OP_JLT_I + mirror[op - TS_OP_JLT_I];
        }
        in->op = (uint16_t)(op == TS_OP_ADD_I ? TS_OP_ADD_IK
                            : op == TS_OP_MUL_I ? TS_OP_MUL_IK
                                                : TS_OP_JLT_IK + (op - TS_OP_JLT_I));
    } else if (op == TS_OP_SUB_I) {
        if (!add_imm(c, in, &k))
            return false;
        in->op = TS_OP_ADD_IK;
    } else if (op == TS_OP_FLOORDIV_I || op == TS_OP_REM_I) {
        int s = pow2_of(c, in->b);
        if (s >= 0) {                          /* a shift or a mask: no divide */
            in->op = op == TS_OP_REM_I ? TS_OP_REM_PK : TS_OP_FLOORDIV_PK;
            k = s;
        } else if (!imm_of(c, in->b, &k) || k <= 0) {   /* K <= 0 keeps the checks (and errors) */
            return false;
        } else {
            in->op = op == TS_OP_REM_I ? TS_OP_REM_IK : TS_OP_FLOORDIV_IK;
        }
    } else {
        return false;
    }
    in->b = k;
    return true;
}

/* `if a % K == K2` (or !=): REM_I by a constant K > 0 whose result only feeds the fused
 * compare-and-jump after it against an int32 constant becomes one JREM_*_IK (analyzed code
 * only: the remainder must be dead after the jump). K a power of two is a mask. */
static bool fuse_rem_jump(Opt *O, size_t i, const bool *target, bool *del)
{
    TsCode *c = O->code;
    TsInstr *in = &c->instrs[i];
    if (in->op != TS_OP_REM_I || i + 1 >= c->n_instrs || target[i + 1])
        return false;
    TsInstr *j = &c->instrs[i + 1];
    if (j->op != TS_OP_JEQ_I && j->op != TS_OP_JNE_I)
        return false;
    int32_t other, k = 0, k2;
    if (slot_reg(j->a, true) == in->c)
        other = j->b;
    else if (slot_reg(j->b, true) == in->c)
        other = j->a;
    else
        return false;
    int s = pow2_of(c, in->b);
    if (!imm_of(c, other, &k2) || (s < 0 && (!imm_of(c, in->b, &k) || k <= 0)))
        return false;
    live_out(O, i + 1, O->tmp);
    if (bit(O->tmp, (size_t)in->c))
        return false;
    absorb_jump(in, j->op == TS_OP_JEQ_I ? TS_OP_JREM_EQ_IK : TS_OP_JREM_NE_IK, j, &del[i + 1]);
    in->b = k;
    in->c = s;
    in->d = k2;
    return true;
}

/* An append whose result is unused, to a list that stays in its register: LIST_APPEND_R
 * with plain registers (an inline constant item preloaded), no operand decoding on the fast
 * path. A heap constant (a str) keeps the general op: preloaded registers are not counted. */
static int lower_append(Opt *O, TsInstr *in)
{
    const int32_t *a = O->code->operands + in->args;
    if (in->d <= 0 || a[0] < 0 || (a[0] & 1) ||
        (a[1] < 0 && ts_is_heap(O->code->consts[~a[1]])))   /* registers hold no heap constants */
        return 0;
    in->a = a[0];
    in->b = a[1];
    in->c = a[1] >= 0 && (a[1] & 1);
    if (lower_operand(O, &in->a) || lower_operand(O, &in->b))
        return -1;
    in->op = TS_OP_LIST_APPEND_R;
    return 0;
}

static int lower(Opt *O)
{
    TsCode *c = O->code;
    if (fuse_increments(O))
        return -1;
    for (size_t i = 0; i < c->n_instrs; i++) {
        TsInstr *in = &c->instrs[i];
        int rc = 0;
        if (in->op == TS_OP_LIST_APPEND) {
            rc = lower_append(O, in);
        } else if (to_imm(c, in) || is_inc_jump(in->op)) {
            rc = lower_operand(O, &in->a) ||
                 (is_inc_jump(in->op) && lower_operand(O, &in->b));
            if (in->op == TS_OP_ADD_IK && in->a == in->c)
                in->op = TS_OP_INC_I;
        } else if (is_binop(in->op) || is_fused(in->op) || in->op == TS_OP_LOOP_ENTER ||
                 in->op == TS_OP_LOOP_NEXT)
            rc = lower_operand(O, &in->a) || lower_operand(O, &in->b);
        else if (in->op == TS_OP_NOT || in->op == TS_OP_JUMP_IF_FALSE ||
                 in->op == TS_OP_JUMP_IF_TRUE || is_rem_jump(in->op))
            rc = lower_operand(O, &in->a);
        if (rc)
            return -1;
    }
    return 0;
}

/* ---- jumps to conditional jumps --------------------------------------------------------------- */
/* A conditional jump with plain register operands (after lower()), which a copy can run. */
static bool copyable_jump(const TsInstr *t)
{
    unsigned op = t->op;
    return is_fused(op) || is_imm_jump(op) || is_inc_jump(op) || is_rem_jump(op) ||
           op == TS_OP_LOOP_NEXT || op == TS_OP_JUMP_IF_FALSE || op == TS_OP_JUMP_IF_TRUE;
}

/* A JUMP to a conditional jump T becomes a copy of T and, after it, a JUMP to T's fall-
 * through, which runs only when the copy falls through. The end of an if's then-branch
 * jumps over the else-branch to the loop's back edge: the copy saves a dispatch per
 * iteration there. An optimization only: without memory the code stays as it is. */
static int thread_jumps(TsCode *c)
{
    size_t n = c->n_instrs, extra = 0;
    for (size_t i = 0; i < n; i++)
        if (c->instrs[i].op == TS_OP_JUMP && copyable_jump(&c->instrs[c->instrs[i].target]))
            extra++;
    if (!extra || n + extra > UINT32_MAX)
        return 0;
    TsInstr *out = malloc((n + extra) * sizeof *out);
    uint32_t *newidx = malloc((n + 1) * sizeof *newidx);
    if (!out || !newidx) {
        free(out);
        free(newidx);
        return 0;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const TsInstr *in = &c->instrs[i];
        newidx[i] = (uint32_t)m;
        m += in->op == TS_OP_JUMP && copyable_jump(&c->instrs[in->target]) ? 2 : 1;
    }
    newidx[n] = (uint32_t)m;
    m = 0;
    for (size_t i = 0; i < n; i++) {
        TsInstr in = c->instrs[i];
        if (in.op == TS_OP_JUMP && copyable_jump(&c->instrs[in.target])) {
            TsInstr t = c->instrs[in.target];
            t.target = newidx[t.target];
            out[m++] = t;
            in.target = newidx[in.target + 1];
        } else if (is_cond_jump(in.op) || in.op == TS_OP_JUMP) {
            in.target = newidx[in.target];
        }
        out[m++] = in;
    }
    free(newidx);
    free(c->instrs);
    c->instrs = out;
    c->n_instrs = m;
    return 0;
}

/* ---- byte offsets --------------------------------------------------------------------------- */
/* The register fields of op, after lower(): 1 a, 2 b, 4 c, 8 d (LOOP_*: when d >= 0). */
static unsigned reg_fields(const TsInstr *in)
{
    unsigned op = in->op;
    if (op == TS_OP_NOT)
        return 1 | 4;
    if (is_binop(op) || is_inc_jump(op))
        return 1 | 2 | 4;
    if (is_fused(op))
        return 1 | 2;
    if (op >= TS_OP_ADD_IK && op <= TS_OP_INC_I)
        return 1 | 4;
    if (is_imm_jump(op) || is_rem_jump(op) || op == TS_OP_JUMP_IF_FALSE ||
        op == TS_OP_JUMP_IF_TRUE)
        return 1;
    if (op == TS_OP_LOOP_ENTER || op == TS_OP_LOOP_NEXT)
        return 1 | 2 | 4 | (in->d >= 0 ? 8 : 0);
    if (op == TS_OP_LIST_APPEND_R)
        return 1 | 2;
    return 0;
}

/* The fast ops name registers by byte offset (the interpreter adds it to the frame's base
 * with no shift), jumps their target by byte offset from themselves (a taken branch is
 * one add), and every instruction the interpreter's code for it (direct threading). */
static int to_bytes(TsCode *c, TsError *err)
{
    if (c->n_instrs > (size_t)INT32_MAX / sizeof(TsInstr) ||
        c->n_regs > (size_t)INT32_MAX / sizeof(TsValue))
        return ts_error_set(err, TS_ERR_RUNTIME, "function too large to run");
    void *const *labels = ts_interp_labels();
    for (size_t i = 0; i < c->n_instrs; i++) {
        TsInstr *in = &c->instrs[i];
        in->handler = labels ? labels[in->op] : NULL;
        unsigned f = reg_fields(in);
        int32_t *field[4] = {&in->a, &in->b, &in->c, &in->d};
        for (unsigned k = 0; k < 4; k++)
            if (f & (1u << k))
                *field[k] *= (int32_t)sizeof(TsValue);
        if (in->op == TS_OP_JUMP || is_cond_jump(in->op))
            in->jump = (int32_t)(((int64_t)in->target - (int64_t)i) * (int64_t)sizeof *in);
    }
    return 0;
}

bool ts_code_dump_fast(FILE *f, const TsInstr *in)
{
    unsigned op = in->op, regs = reg_fields(in);
    if (!regs && op != TS_OP_JUMP)
        return false;
    const int32_t sz = (int32_t)sizeof(TsValue);
    bool imm = (op >= TS_OP_ADD_IK && op <= TS_OP_INC_I) || is_imm_jump(op);
    if (op == TS_OP_LIST_APPEND_R) {
        fprintf(f, " r%d r%d%s", in->a / sz, in->b / sz, in->c ? " (moved)" : "");
        return true;
    }
    if (regs & 1)
        fprintf(f, " r%d", in->a / sz);
    if (is_rem_jump(op)) {     /* r[a] % K OP K2 */
        if (in->c >= 0)
            fprintf(f, " #2**%d #%d -> %u", in->c, in->d, in->target);
        else
            fprintf(f, " #%d #%d -> %u", in->b, in->d, in->target);
        return true;
    }
    if (op == TS_OP_FLOORDIV_PK || op == TS_OP_REM_PK)
        fprintf(f, " #2**%d", in->b);
    else if (imm)
        fprintf(f, " #%d", in->b);
    if (is_inc_jump(op))       /* r[c] = r[a] + K; r[c] OP r[b] */
        fprintf(f, " #%d -> r%d, r%d", in->d, in->c / sz, in->b / sz);
    else if (regs & 2)
        fprintf(f, " r%d", in->b / sz);
    if (op == TS_OP_JUMP || is_cond_jump(op))
        fprintf(f, " -> %u", in->target);
    else
        fprintf(f, " -> r%d", in->c / sz);
    return true;
}

int ts_code_optimize(TsCode *code, const bool *ref, TsError *err)
{
    Opt O;
    memset(&O, 0, sizeof O);
    O.code = code;
    O.ref = ref;
    O.err = err;
    O.n_regs = code->n_regs;
    O.words = (code->n_regs + 63) / 64 + 1;
    bool analyze = code->n_regs <= MAX_REGS && code->n_instrs * O.words <= MAX_WORDS;
    int rc = 0;
    if (analyze) {
        O.live_in = malloc((code->n_instrs + 1) * O.words * sizeof *O.live_in);
        O.tmp = malloc(O.words * sizeof *O.tmp);
        O.parent = malloc(O.n_regs * sizeof *O.parent);
        O.edges = calloc(O.n_regs * O.words, sizeof *O.edges);
        if (!O.live_in || !O.tmp || !O.parent || !O.edges)
            analyze = false;   /* no memory for the analysis: run the code as built */
    }
    if (analyze) {
        for (size_t r = 0; r < O.n_regs; r++)
            O.parent[r] = r;
        liveness(&O);
        interference(&O);
        coalesce(&O);
        rc = rename_all(&O);
        O.n_regs = code->n_regs;
    }
    if (!rc)
        rc = fuse_and_trim(&O, analyze);
    if (!rc)
        rc = lower(&O);
    if (!rc)
        rc = thread_jumps(code);
    if (!rc)
        rc = to_bytes(code, err);
    free(O.live_in);
    free(O.tmp);
    free(O.parent);
    free(O.edges);
    return rc;
}
