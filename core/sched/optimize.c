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
 */
#include <stdlib.h>
#include <string.h>

#include "sched/code.h"

/* Above these the coalescing and fusion passes are skipped (the code stays correct). */
enum { MAX_REGS = 4096, MAX_WORDS = 1 << 21 };

static bool is_binop(unsigned op) { return op <= TS_OP_NE_F; }   /* ADD_I is 0 */
static bool is_cmp_i(unsigned op) { return op >= TS_OP_LT_I && op <= TS_OP_NE_I; }
static bool is_fused(unsigned op) { return op >= TS_OP_JLT_I && op <= TS_OP_JNE_I; }
static bool is_cond_jump(unsigned op)
{
    return is_fused(op) || op == TS_OP_JUMP_IF_FALSE || op == TS_OP_JUMP_IF_TRUE ||
           op == TS_OP_LOOP_ENTER || op == TS_OP_LOOP_NEXT;
}

/* ---- the register slots of an instruction ----------------------------------------------- */
/* Called once per slot: opnd when it holds an operand (register << 1 | move, or ~constant),
 * else a plain register; use/def say whether the instruction reads or writes it. */
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
    } else if (op == TS_OP_JUMP_IF_FALSE || op == TS_OP_JUMP_IF_TRUE) {
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
static int fuse_and_trim(Opt *O, bool analyzed)
{
    TsCode *c = O->code;
    bool *del = calloc(c->n_instrs + 1, sizeof *del);
    bool *target = calloc(c->n_instrs + 1, sizeof *target);
    uint32_t *newidx = malloc((c->n_instrs + 1) * sizeof *newidx);
    if (!del || !target || !newidx) {
        free(del);
        free(target);
        free(newidx);
        return ts_error_set(O->err, TS_ERR_NOMEM, "out of memory building code");
    }
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
            in->op = (uint16_t)(TS_OP_JLT_I + rel);
            in->target = j->target;
            in->c = -1;
            del[i + 1] = changed = true;
            i++;
        }
        if (changed)
            compact(c, del, newidx);
    }
    free(del);
    free(target);
    free(newidx);
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

static int lower(Opt *O)
{
    TsCode *c = O->code;
    for (size_t i = 0; i < c->n_instrs; i++) {
        TsInstr *in = &c->instrs[i];
        unsigned op = in->op;
        int rc = 0;
        if (is_binop(op) || is_fused(op) || op == TS_OP_LOOP_ENTER || op == TS_OP_LOOP_NEXT)
            rc = lower_operand(O, &in->a) || lower_operand(O, &in->b);
        else if (op == TS_OP_NOT || op == TS_OP_JUMP_IF_FALSE || op == TS_OP_JUMP_IF_TRUE)
            rc = lower_operand(O, &in->a);
        if (rc)
            return -1;
    }
    return 0;
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
    free(O.live_in);
    free(O.tmp);
    free(O.parent);
    free(O.edges);
    return rc;
}
