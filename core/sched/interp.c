/* interp.c — the InterpreterState and its loop: one dispatch over Code's opcodes
 * (computed goto with GCC and Clang, threading each handler to the next; a switch
 * elsewhere, or with -DTS_INTERP_SWITCH). The fast ops read plain registers holding
 * inline values, so they touch no reference counts.
 *
 * A state holds a register file shared by its frames (each frame owns a window of it), the
 * stack kernels take their inputs from, and the frames themselves; calls push a frame
 * instead of recursing in C. A register that may hold a reference is empty (None) whenever
 * its value is dead: an instruction moves a value out of its register at its last use, and
 * DROP releases values whose last use depends on the path taken.
 *
 * A with-statement's prim::Enter calls the object's __enter__ and keeps the object on the
 * state's entered stack; prim::Exit takes it off and calls __exit__(None, None, None). When
 * an error unwinds the state, the objects still entered get their __exit__ first,
 * innermost first, as PyTorch's interpreter does.
 *
 * torch.jit.fork makes a new state for the fork's subgraph and queues it on the thread
 * pool; aten::wait on an unfinished future suspends the state (its pc stays on the WAIT)
 * and ts_future_then resubmits it when the future completes. A fork's arguments are marked
 * shared first, and containers other threads reach are read and written with the shared
 * lock held (core/value/share.c): around a kernel with a shared argument, in the list, dict and
 * attribute ops; unshared ones, nearly all, cost one flag test. An error formats PyTorch's
 * traceback from the frames, then every register and stack value is released.
 *
 * A kernel may call TorchScript (plugin.h's ts_call_function: sort calls __lt__). The call
 * runs to its end in a state nested in the kernel's, on the kernel's thread and C stack,
 * so nesting is bounded (TS_CALL_MAX_NESTING), and a nested state runs its forks at once
 * rather than wait for a pool thread. The state whose loop runs on a thread is kept in a
 * thread-local, which is how a TsCall is recognised as a running kernel's. A failed call
 * hands the kernel the callee's formatted traceback; if the kernel returns it unchanged,
 * the operator's traceback ends with it, labelled with the callee's exception class.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tscript/print.h"
#include "sched/code.h"
#include "sched/dispatch.h"
#include "sched/interp.h"
#include "sched/spec.h"
#include "sched/threadpool.h"

typedef struct Frame {
    const TsCode *code;
    size_t base;               /* first register of the frame's window */
    uint32_t pc;               /* the instruction running (a CALL while the callee runs) */
} Frame;

/* The forked states a ts_run started, directly or not: ts_run returns only when all have
 * finished, so none outlives the Code it runs or the caller's unit. */
typedef struct RunGroup {
    pthread_mutex_t lock;
    pthread_cond_t done;
    size_t live;
} RunGroup;

/* An object a prim::Enter entered and no prim::Exit has left yet. */
typedef struct Entered {
    TsValue obj;               /* a reference */
    const TsCode *code;        /* where it was entered: the unit its methods are found in */
} Entered;

typedef struct TsInterp {
    TsRuntime *rt;
    RunGroup *group;
    TsValue *regs;
    size_t n_regs, cap_regs;
    Frame *frames;
    size_t depth, cap_frames;
    TsStack stack;
    TsError err;
    char *label;               /* the exception class as printed, when not the code's */
    TsFuture *waiting;         /* suspended on this future (a reference) */
    TsFuture *result;          /* a forked state completes this (a reference) */
    Entered *entered;          /* with-statements open, innermost last */
    size_t n_entered, cap_entered;
    unsigned nesting;          /* kernels' calls into TorchScript this state runs inside */
    struct TsInterp *callee;   /* the state those calls run in, kept for the next one */
    char *callee_label;        /* the exception class of a callee's error, and the message */
    const char *callee_msg;    /* it was moved into err as (see adopt_callee_error) */
    bool wrap;                 /* err.msg is a callee's traceback to put under ours */
    bool no_grad;              /* grad mode off (torch.no_grad()) while this state runs */
} TsInterp;

enum { RUN_DONE, RUN_ERROR, RUN_SUSPENDED };

static TsInterpHook hook;
static void *hook_ctx;

void ts_interp_set_hook(TsInterpHook h, void *ctx)
{
    hook = h;
    hook_ctx = ctx;
}

/* A traceback deeper than twice this shows its outermost and innermost frames only. */
enum { TRACE_ENDS = 10 };

static const char traceback_head[] = "The following operation failed in the TorchScript "
                                     "interpreter.\n";

/* ---- states and frames --------------------------------------------------------------- */
/* Grad mode, as PyTorch's thread-local GradMode: on unless a program turns it off. It is
 * the running state's (a state may move between threads), so run() swaps it in and out;
 * a new state, forked or nested, starts with its creator's. */
static _Thread_local bool no_grad;

bool ts_grad_enabled(void) { return !no_grad; }
void ts_set_grad_enabled(bool on) { no_grad = !on; }

static TsInterp *interp_new(TsRuntime *rt, TsError *err)
{
    TsInterp *st = calloc(1, sizeof *st);
    if (!st) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory starting the interpreter");
    } else {
        st->rt = rt;
        st->no_grad = no_grad;
    }
    return st;
}

static void interp_free(TsInterp *st)
{
    for (size_t i = 0; i < st->n_regs; i++)
        ts_value_release(st->regs[i]);
    free(st->regs);
    free(st->frames);
    ts_stack_free(&st->stack);
    ts_error_clear(&st->err);
    free(st->label);
    if (st->waiting)
        ts_heap_release((TsHeap *)st->waiting);
    if (st->result)
        ts_heap_release((TsHeap *)st->result);
    for (size_t i = 0; i < st->n_entered; i++)
        ts_value_release(st->entered[i].obj);
    free(st->entered);
    if (st->callee)
        interp_free(st->callee);
    free(st->callee_label);
    free(st);
}

/* Pushes a frame for code with empty registers. */
static int push_frame(TsInterp *st, const TsCode *code)
{
    if (st->depth >= TS_INTERP_MAX_DEPTH)
        return ts_error_set(&st->err, TS_ERR_LIMIT,
                            "maximum recursion depth exceeded (%d nested calls)",
                            TS_INTERP_MAX_DEPTH);
    if (st->depth == st->cap_frames) {
        size_t cap = st->cap_frames ? st->cap_frames * 2 : 16;
        Frame *f = realloc(st->frames, cap * sizeof *f);
        if (!f)
            return ts_error_set(&st->err, TS_ERR_NOMEM, "out of memory calling a function");
        st->frames = f;
        st->cap_frames = cap;
    }
    size_t need = st->n_regs + code->n_regs;
    /* regs is never NULL once a frame is pushed, even for register-less code: the loop
     * computes regs + base, and NULL + 0 is undefined in C */
    if (need > st->cap_regs || !st->regs) {
        size_t cap = st->cap_regs ? st->cap_regs : 64;
        while (cap < need)
            cap *= 2;
        TsValue *r = realloc(st->regs, cap * sizeof *r);
        if (!r)
            return ts_error_set(&st->err, TS_ERR_NOMEM, "out of memory calling a function");
        st->regs = r;
        st->cap_regs = cap;
    }
    TsValue *r = st->regs + st->n_regs;
    memset(r, 0, code->n_regs * sizeof *r);
    for (size_t i = 0; i < code->n_preload; i++)
        r[code->preload[2 * i]] = code->consts[code->preload[2 * i + 1]];   /* inline */
    st->frames[st->depth++] = (Frame){code, st->n_regs, 0};
    st->n_regs = need;
    return 0;
}

static void pop_frame(TsInterp *st)
{
    Frame *f = &st->frames[--st->depth];
    for (size_t i = f->base; i < st->n_regs; i++)
        ts_value_release(st->regs[i]);
    st->n_regs = f->base;
}

/* Moves the top n stack values into the first n registers of the top frame. */
static void args_from_stack(TsInterp *st, size_t n)
{
    TsValue *r = st->regs + st->frames[st->depth - 1].base;
    st->stack.len -= n;
    if (n)                     /* with no arguments stack.data may still be NULL */
        memcpy(r, st->stack.data + st->stack.len, n * sizeof *r);
}

/* ---- errors ---------------------------------------------------------------------------- */
typedef struct Text {
    char *p;
    size_t len;
    FILE *f;
} Text;

/* The final "Class: message" line, PyTorch's way: kernel errors are RuntimeErrors whose
 * message may name the Python class (KeyError); raise statements name their class. */
static void put_exception(FILE *f, const TsInterp *st)
{
    const char *msg = st->err.msg ? st->err.msg : "";
    if (st->label) {       /* a callee's traceback (wrap) ends its own line */
        fprintf(f, "%s: %s%s", st->label, msg, st->wrap ? "" : "\n");
        return;
    }
    if (st->err.code == TS_ERR_KEY && strncmp(msg, "KeyError", 8) != 0)
        fprintf(f, "RuntimeError: KeyError: %s\n", msg);
    else
        fprintf(f, "RuntimeError: %s\n", msg);
}

static bool is_traceback(const char *msg)
{
    return msg && strncmp(msg, traceback_head, sizeof traceback_head - 1) == 0;
}

/* A line of a traceback: where, in which function. */
typedef struct TraceLine {
    TsSourceRange range;
    const char *fn;
} TraceLine;

/* The lines of frame fr into out (when not NULL), outermost first; returns their count.
 * A frame is one line, the range of the node it is running, unless that node was inlined
 * (ir.h's TsCallSite): then it is the lines the calls it was inlined from would have
 * printed, the frame's function at the outermost call and each callee at the next. */
static size_t frame_lines(const Frame *fr, TraceLine *out)
{
    const TsNode *node = fr->pc < fr->code->n_instrs ? fr->code->instrs[fr->pc].node : NULL;
    TsSourceRange r = { NULL, 0, 0 };
    const TsCallSite *cs = NULL;
    if (node) {
        r = node->range;
        cs = node->callstack;
    }
    size_t n = 1;
    for (const TsCallSite *c = cs; c; c = c->outer)
        n++;
    if (!out)
        return n;
    size_t k = n - 1;
    for (const TsCallSite *c = cs; c; c = c->outer) {
        out[k--] = (TraceLine){ r, c->name };
        r = c->range;
    }
    out[k] = (TraceLine){ r, fr->code->name };
    return n;
}

/* Every frame's lines, outermost first, in a new array (*n of them); NULL out of memory. */
static TraceLine *trace_lines(const TsInterp *st, size_t *n)
{
    size_t total = 0;
    for (size_t i = 0; i < st->depth; i++)
        total += frame_lines(&st->frames[i], NULL);
    TraceLine *lines = malloc((total + 1) * sizeof *lines);
    if (!lines)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < st->depth; i++)
        k += frame_lines(&st->frames[i], lines + k);
    *n = k;
    return lines;
}

/* The lines, outermost first, each as a File line and its excerpt; with original, where
 * their code came from (lines whose origin is unknown are left out). */
static void put_frames(FILE *f, const TraceLine *lines, size_t n, bool original)
{
    for (size_t i = 0; i < n; i++) {
        if (n > 2 * TRACE_ENDS && i == TRACE_ENDS) {
            fprintf(f, "  [%zu frames omitted]\n", n - 2 * TRACE_ENDS);
            i = n - TRACE_ENDS;
        }
        TsSourceRange r = lines[i].range;
        if (original && !(r = ts_source_origin(r)).source)
            continue;
        char *ex = r.source ? ts_source_excerpt(r) : NULL;
        char *nl = ex ? strchr(ex, '\n') : NULL;
        if (nl && strncmp(ex, "  File ", 7) == 0)
            fprintf(f, "%.*s, in %s%s", (int)(nl - ex), ex, lines[i].fn, nl);
        else
            fprintf(f, "  File \"<unknown>\", in %s\n", lines[i].fn);
        free(ex);
    }
}

/* Replaces st->err's message by the traceback of the frames and the exception line. A
 * callee's error (a kernel's call into TorchScript failed) keeps its traceback as the
 * message of that line, as PyTorch prints it. */
static void format_error(TsInterp *st)
{
    if (st->err.code == TS_OK)
        ts_error_set(&st->err, TS_ERR_RUNTIME, "operation failed without a message");
    if (!st->wrap && is_traceback(st->err.msg))
        return;                /* a forked function's error, already formatted */
    Text t = {NULL, 0, NULL};
    t.f = open_memstream(&t.p, &t.len);
    if (!t.f) {
        st->wrap = false;
        return;
    }
    size_t n = 0;
    TraceLine *lines = trace_lines(st, &n);
    if (!lines) {
        fclose(t.f);
        free(t.p);
        st->wrap = false;
        return;
    }
    fputs(traceback_head, t.f);
    /* code loaded from an archive knows where it came from (its .debug_pkl): the frames
     * are shown in the serialized code, then in the original, as PyTorch shows them */
    bool original = false;
    for (size_t i = 0; i < n && !original; i++)
        original = ts_source_origin(lines[i].range).source != NULL;
    fprintf(t.f, "Traceback of TorchScript%s (most recent call last):\n",
            original ? ", serialized code" : "");
    put_frames(t.f, lines, n, false);
    if (original) {
        fputs("\nTraceback of TorchScript, original code (most recent call last):\n", t.f);
        put_frames(t.f, lines, n, true);
    }
    free(lines);
    put_exception(t.f, st);
    st->wrap = false;
    if (fclose(t.f) == 0 && t.p) {
        free(st->err.msg);
        st->err.msg = t.p;
    } else {
        free(t.p);
    }
}

/* Releases everything the state holds after an error. */
static void unwind(TsInterp *st)
{
    while (st->depth)
        pop_frame(st);
    ts_stack_drop(&st->stack, st->stack.len);
}

/* ---- operands -------------------------------------------------------------------------- */
#define OPV(o) ((o) >= 0 ? R[(o) >> 1] : K[~(o)])

/* The value of operand o as a new reference: moved out of its register at a last use. */
static inline TsValue take(TsValue *R, const TsValue *K, int32_t o)
{
    if (o < 0) {
        ts_value_retain(K[~o]);
        return K[~o];
    }
    TsValue v = R[o >> 1];
    if (o & 1)
        R[o >> 1] = ts_none();
    else
        ts_value_retain(v);
    return v;
}

/* Ends a borrowed use of operand o: at its last use the register lets go. */
static inline void consume(TsValue *R, int32_t o)
{
    if (o >= 0 && (o & 1)) {
        ts_value_release(R[o >> 1]);
        R[o >> 1] = ts_none();
    }
}

static inline void store(TsValue *R, int32_t r, TsValue v)
{
    ts_value_release(R[r]);
    R[r] = v;
}

/* Pushes the n_in inputs of in onto the stack. */
/* Inline in run_kernel, with the stack's room checked inline: a kernel call's overhead
 * was mostly the calls around it. The test hook's mask of moved inputs is made only for
 * the hook. */
static inline int gather(TsInterp *st, TsValue *R, const TsValue *K, const TsInstr *in,
                         const int32_t *ops)
{
    TsStack *s = &st->stack;
    size_t n = in->n_in;
    if (s->cap - s->len < n && ts_stack_reserve(s, n, &st->err))
        return -1;
    const int32_t *o = ops + in->args;
    /* indexed, not s->data + s->len: a zero-input kernel may run before the stack ever
     * grew, and NULL + 0 is undefined */
    for (size_t i = 0; i < n; i++)
        s->data[s->len + i] = take(R, K, o[i]);
    s->len += n;
    if (hook && in->node) {
        uint64_t moved = 0;
        for (size_t i = 0; i < n && i < 64; i++)
            if (o[i] >= 0 && (o[i] & 1))
                moved |= (uint64_t)1 << i;
        hook(hook_ctx, in->node, in->n_in, n ? &s->data[s->len - n] : NULL, moved);
    }
    return 0;
}

/* Pops n_out values into the output registers of in. */
static inline void scatter(TsInterp *st, TsValue *R, const TsInstr *in, const int32_t *ops)
{
    for (size_t i = in->n_out; i-- > 0;)
        store(R, ops[in->args + in->n_in + i], ts_stack_pop(&st->stack));
}

/* A kernel failed: if with the error of its call into TorchScript, unchanged, the
 * traceback goes under ours labelled with the callee's exception class. A kernel that
 * recovered from such an error and failed otherwise gets no label. */
static void adopt_callee_error(TsInterp *st)
{
    if (!st->callee_label)
        return;
    if (st->err.msg == st->callee_msg && is_traceback(st->err.msg)) {
        free(st->label);
        st->label = st->callee_label;
        st->wrap = true;
    } else {
        free(st->callee_label);
    }
    st->callee_label = NULL;
    st->callee_msg = NULL;
}

/* Autograd's rule without the graph: an output of a differentiable operator requires grad
 * when grad mode is on and one of its inputs requires grad; floating and complex tensors
 * only. tscript computes no gradients, but programs read the flag (x.requires_grad), and
 * models choose paths by it. */
static bool any_requires_grad(const TsValue *args, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        TsValue v = args[i];
        if (v.tag == TS_TAG_TENSOR && ((const TsTensor *)v.u.p)->requires_grad)
            return true;
        if (v.tag == TS_TAG_LIST) {
            const TsList *l = (const TsList *)v.u.p;
            for (size_t j = 0; j < l->len; j++)
                if (l->items[j].tag == TS_TAG_TENSOR &&
                    ((const TsTensor *)l->items[j].u.p)->requires_grad)
                    return true;
        }
    }
    return false;
}

/* The storage of an argument that is a leaf requiring grad (or a view of one), which an
 * output sharing it is a view of; NULL when there is none. */
static const TsStorage *leaf_storage(const TsValue *args, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const TsTensor *t = args[i].tag == TS_TAG_TENSOR ? (const TsTensor *)args[i].u.p : NULL;
        if (t && t->storage && (t->requires_grad == TS_GRAD_LEAF ||
                                t->requires_grad == TS_GRAD_LEAF_VIEW))
            return t->storage;
    }
    return NULL;
}

/* An output of a differentiable operator whose input requires grad: computed (not a leaf),
 * a view of a leaf when it shares the leaf's storage. One that already requires grad is
 * left as it is: an argument returned as it is (x.contiguous(), an in-place operator's
 * self) keeps what it was. */
static void mark_requires_grad(TsValue v, const TsStorage *leaf, int depth)
{
    if (v.tag == TS_TAG_TENSOR) {
        TsTensor *t = (TsTensor *)v.u.p;
        if ((ts_dtype_is_floating(t->dtype) || ts_dtype_is_complex(t->dtype)) &&
            !t->requires_grad)
            t->requires_grad = leaf && t->storage == leaf ? TS_GRAD_LEAF_VIEW
                                                          : TS_GRAD_COMPUTED;
    } else if ((v.tag == TS_TAG_LIST || v.tag == TS_TAG_TUPLE) && depth < 2) {
        bool locked = ts_shared_lock_if(v);
        size_t n = v.tag == TS_TAG_LIST ? ((TsList *)v.u.p)->len : ((TsTuple *)v.u.p)->len;
        TsValue *items = v.tag == TS_TAG_LIST ? ((TsList *)v.u.p)->items
                                               : ((TsTuple *)v.u.p)->items;
        for (size_t i = 0; i < n; i++)
            mark_requires_grad(items[i], leaf, depth + 1);
        if (locked)
            ts_shared_unlock();
    }
}

/* Autograd's check before an in-place write in grad mode: a leaf that requires grad, or a
 * view of one, cannot be written (its gradient would be lost), and no tensor that requires
 * grad can be resized. */
static int check_leaf_writes(TsInterp *st, const TsOperator *op, const TsValue *args,
                             size_t n, uint64_t writes)
{
    const char *name = op->schema->name;
    bool resize = !strcmp(name, "aten::resize_") || !strcmp(name, "aten::resize_as_");
    for (size_t i = 0; i < n && i < 64; i++) {
        if (!(writes >> i & 1) || args[i].tag != TS_TAG_TENSOR)
            continue;
        int g = ((const TsTensor *)args[i].u.p)->requires_grad;
        if (g && resize)
            return ts_error_set(&st->err, TS_ERR_RUNTIME,
                                "cannot resize variables that require grad");
        if (g == TS_GRAD_LEAF || g == TS_GRAD_LEAF_VIEW)
            return ts_error_set(&st->err, TS_ERR_RUNTIME, "a %sleaf Variable that requires "
                                "grad is being used in an in-place operation.",
                                g == TS_GRAD_LEAF_VIEW ? "view of a " : "");
    }
    return 0;
}

/* share.c's rules for a kernel: when one of the n arguments from base on the stack is
 * shared, takes the shared lock and marks every argument shared (what the kernel stores
 * into the shared one is one of them). 1: locked; 0: nothing shared; -1: error, unlocked. */
static int lock_shared_args(TsInterp *st, size_t base, size_t n)
{
    const TsValue *a = st->stack.data + base;
    size_t i = 0;
    while (i < n && !ts_value_is_shared(a[i]))
        i++;
    if (i == n)
        return 0;
    ts_shared_lock();
    for (i = 0; i < n; i++)
        if (ts_value_share(a[i], &st->err)) {
            ts_shared_unlock();
            return -1;
        }
    return 1;
}

/* After a kernel that ran with the lock: its results are marked too (a container it made
 * and stored into a shared one), then the lock goes. */
static int unlock_shared_results(TsInterp *st, size_t base, int rc)
{
    for (size_t i = base; !rc && i < st->stack.len; i++)
        rc = ts_value_share(st->stack.data[i], &st->err) ? -1 : 0;
    ts_shared_unlock();
    return rc;
}

/* A written tensor's storage gets a new version before the kernel writes (what caches of
 * derived data compare: tscript/tensor.h); a Tensor[] argument's tensors each. */
static void bump_version(TsValue v)
{
    if (v.tag == TS_TAG_TENSOR) {
        TsStorage *s = ((TsTensor *)v.u.p)->storage;
        if (s)
            ts_storage_bump_version(s);
    } else if (v.tag == TS_TAG_LIST) {
        const TsList *l = (const TsList *)v.u.p;
        for (size_t i = 0; i < l->len; i++)
            bump_version(l->items[i]);
    }
}

static void bump_written(const TsValue *args, size_t n, uint64_t writes)
{
    for (size_t i = 0; i < n && i < 64; i++)
        if (writes >> i & 1)
            bump_version(args[i]);
}

static int run_kernel(TsInterp *st, TsValue *R, const TsValue *K, const TsCode *code,
                      const TsInstr *in)
{
    const TsBoundKernel *k = &code->kernels[in->aux];
    if (gather(st, R, K, in, code->operands))
        return -1;
    size_t base = st->stack.len - in->n_in;
    int locked = k->containers ? lock_shared_args(st, base, in->n_in) : 0;
    if (locked < 0)
        return -1;
    TsKernelFn fn = k->dispatch ? ts_dispatch(k, st->stack.data + base, st->rt, &st->err)
                                : k->fn;
    if (!fn) {
        if (locked)
            ts_shared_unlock();
        return -1;
    }
    bool grad = k->grad && !no_grad && any_requires_grad(st->stack.data + base, in->n_in);
    const TsStorage *leaf = grad ? leaf_storage(st->stack.data + base, in->n_in) : NULL;
    if (grad && k->writes && check_leaf_writes(st, k->op, st->stack.data + base, in->n_in,
                                                k->writes)) {
        if (locked)
            ts_shared_unlock();
        return -1;
    }
    if (k->writes)
        bump_written(st->stack.data + base, in->n_in, k->writes);
    TsCall call = {&st->stack, &st->err, k->data, st->rt, k->op};
    int rc = fn(&call);
    if (locked && unlock_shared_results(st, base, rc))
        rc = -1;
    if (rc) {
        if (st->err.code == TS_OK)
            ts_error_set(&st->err, TS_ERR_RUNTIME, "operator failed without a message");
        adopt_callee_error(st);
        return -1;
    }
    if (st->stack.len != base + in->n_out) {
        char full[256];
        ts_operator_full_name(k->op, full, sizeof full);
        return ts_error_set(&st->err, TS_ERR_RUNTIME,
                            "the kernel of %s left %zu values for %u outputs", full,
                            st->stack.len - base, (unsigned)in->n_out);
    }
    if (grad)
        for (size_t i = 0; i < in->n_out; i++)
            mark_requires_grad(st->stack.data[base + i], leaf, 0);
    scatter(st, R, in, code->operands);
    return 0;
}

/* Exception classes a raise statement names ("builtins.ValueError"), by error code. */
static TsErrorCode raise_code(const char *cls)
{
    const char *dot = strrchr(cls, '.');
    const char *name = dot ? dot + 1 : cls;
    for (int c = TS_ERR_RUNTIME; c < TS_ERR__COUNT; c++)
        if (strcmp(ts_error_class((TsErrorCode)c), name) == 0)
            return (TsErrorCode)c;
    return TS_ERR_RUNTIME;
}

static int do_raise(TsInterp *st, TsValue *R, const TsValue *K, const TsInstr *in,
                    const int32_t *ops)
{
    TsValue msg = OPV(ops[in->args]);
    TsValue cls = in->n_in > 1 ? OPV(ops[in->args + 1]) : ts_none();
    const char *m = msg.tag == TS_TAG_STR ? ((TsStr *)msg.u.p)->data : "";
    if (cls.tag == TS_TAG_STR) {
        const char *c = ((TsStr *)cls.u.p)->data;
        ts_error_set(&st->err, raise_code(c), "%s", m);
        char *label = strdup(c);   /* outlives the constant: the state owns it */
        if (label) {
            free(st->label);
            st->label = label;
        }
    } else {
        ts_error_set(&st->err, TS_ERR_RUNTIME, "%s", m);
    }
    return -1;
}

static bool is_instance(const TsCode *code, const TsInstr *in, TsValue v)
{
    const TsType *vt = ts_value_type(v);
    for (int32_t i = 0; i < in->d; i++) {
        const TsType *t = code->types[in->aux + (uint32_t)i];
        if (vt && ts_type_is_subtype_of(vt, t))
            return true;
        if (v.tag == TS_TAG_NONE && ts_type_kind(t) == TS_TYPE_NONE)
            return true;
    }
    return false;
}

/* ---- fork ------------------------------------------------------------------------------ */
static void task_run(void *arg);

/* Values go to another thread: every backend that queues work for later makes this
 * thread's queued work visible first (TS_HANDOFF_OP, plugin.h). Best effort: a failure
 * cannot be reported here and leaves the wait to the backend's own ordering. */
static void handoff(TsInterp *st)
{
    const TsOperator *op = ts_optable_find(ts_runtime_optable(st->rt), TS_HANDOFF_OP, "");
    for (size_t i = 0; op && i < op->n_kernels; i++) {
        if (!op->kernels[i].fn)
            continue;
        TsStack s = { NULL, 0, 0 };
        TsError err = TS_ERROR_INIT;
        TsCall call = { &s, &err, NULL, st->rt, op };
        (void)op->kernels[i].fn(&call);
        ts_stack_free(&s);
        ts_error_clear(&err);
    }
}

static void resume_cb(TsFuture *f, void *data)
{
    (void)f;
    TsInterp *st = data;
    TsError err = TS_ERROR_INIT;
    if (ts_threadpool_submit(ts_runtime_num_threads(st->rt), task_run, st, &err)) {
        ts_error_clear(&err);
        task_run(st);          /* no memory to queue it: run it here */
    }
}

static int run(TsInterp *st);

static void group_enter(RunGroup *g)
{
    pthread_mutex_lock(&g->lock);
    g->live++;
    pthread_mutex_unlock(&g->lock);
}

static void group_leave(RunGroup *g)
{
    pthread_mutex_lock(&g->lock);
    if (--g->live == 0)
        pthread_cond_broadcast(&g->done);
    pthread_mutex_unlock(&g->lock);
}

/* Runs a forked state until it finishes (completing its future) or suspends. */
static void task_run(void *arg)
{
    TsInterp *st = arg;
    if (st->waiting) {
        ts_heap_release((TsHeap *)st->waiting);
        st->waiting = NULL;
    }
    int r = run(st);
    handoff(st);               /* it may resume elsewhere, or its waiter reads the result */
    if (r == RUN_SUSPENDED) {
        TsFuture *w = st->waiting;
        ts_heap_retain((TsHeap *)w);   /* the state may be resumed and freed inside */
        TsError err = TS_ERROR_INIT;
        int rc = ts_future_then(w, resume_cb, st, &err);
        ts_heap_release((TsHeap *)w);
        if (!rc)
            return;
        ts_error_move(&st->err, &err);
        unwind(st);
        r = RUN_ERROR;
    }
    TsError ignore = TS_ERROR_INIT;
    if (r == RUN_DONE)
        ts_future_complete(st->result, ts_stack_pop(&st->stack), &ignore);
    else
        ts_future_fail(st->result, &st->err, &ignore);
    ts_error_clear(&ignore);
    RunGroup *g = st->group;
    interp_free(st);
    group_leave(g);
}

static int nesting_error(TsError *err)
{
    return ts_error_set(err, TS_ERR_LIMIT,
                        "maximum recursion depth exceeded (%d nested calls from operators "
                        "into TorchScript)", TS_CALL_MAX_NESTING);
}

/* Forks in a state nested in a kernel's call run at once: the kernel holds its thread, maybe
 * a pool thread, until the call returns, and a queued fork could wait for that thread. */
static int do_fork(TsInterp *st, TsValue *R, const TsValue *K, const TsCode *code,
                   const TsInstr *in)
{
    const TsCode *sub = code->subcodes[in->aux];
    TsFuture *fut = ts_future_new(code->types[in->d], &st->err);
    if (!fut)
        return -1;
    TsInterp *child = interp_new(st->rt, &st->err);
    if (!child) {
        ts_heap_release((TsHeap *)fut);
        return -1;
    }
    ts_heap_retain((TsHeap *)fut);
    child->result = fut;
    child->group = st->group;
    /* another thread reaches the arguments from now on: marked before it can (share.c) */
    for (size_t i = 0; i < in->n_in; i++)
        if (ts_stack_push(&child->stack, take(R, K, code->operands[in->args + i]), &st->err) ||
            ts_value_share(child->stack.data[i], &st->err))
            goto fail;
    if (push_frame(child, sub)) {
        ts_error_move(&st->err, &child->err);
        goto fail;
    }
    args_from_stack(child, in->n_in);
    group_enter(st->group);
    if (st->nesting) {         /* inside a kernel's call: run it now, on this thread */
        child->nesting = st->nesting + 1;
        if (child->nesting > TS_CALL_MAX_NESTING) {
            group_leave(st->group);
            nesting_error(&st->err);
            goto fail;
        }
        task_run(child);
    } else {
        handoff(st);
        if (ts_threadpool_submit(ts_runtime_num_threads(st->rt), task_run, child, &st->err)) {
            group_leave(st->group);
            goto fail;
        }
    }
    store(R, code->operands[in->args + in->n_in], ts_obj_value(fut, TS_TAG_FUTURE));
    return 0;
fail:
    interp_free(child);
    ts_heap_release((TsHeap *)fut);
    return -1;
}

/* Writes the line print() writes for the inputs, then releases those at their last use. */
static int do_print(TsInterp *st, TsValue *R, const TsValue *K, const TsInstr *in,
                    const int32_t *ops)
{
    TsValue vals[32] = { ts_none() };   /* print() of nothing passes it unread */
    TsValue *v = in->n_in <= 32 ? vals : malloc(in->n_in * sizeof *v);
    if (!v)
        return ts_error_set(&st->err, TS_ERR_NOMEM, "out of memory printing");
    for (size_t i = 0; i < in->n_in; i++)
        v[i] = OPV(ops[in->args + i]);
    TsBuf b = TS_BUF_INIT;
    int rc = ts_print_line(st->rt, v, in->n_in, &b, &st->err);
    if (v != vals)
        free(v);
    if (!rc) {
        fwrite(b.p ? b.p : "", 1, b.len, stdout);
        fflush(stdout);
    }
    ts_buf_free(&b);
    for (size_t i = 0; i < in->n_in; i++)
        consume(R, ops[in->args + i]);
    return rc;
}

/* str(i) of an int: its decimal digits, as Python writes them, two digits per divide,
 * written straight into the new string. */
static TsStr *int_str(int64_t i, TsError *err)
{
    static const char pairs[] =
        "0001020304050607080910111213141516171819202122232425262728293031323334353637383940"
        "4142434445464748495051525354555657585960616263646566676869707172737475767778798081"
        "828384858687888990919293949596979899";
    static const uint64_t pow10[20] = {
        1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
        10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
        100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
        100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};
    uint64_t u = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
    /* its digits: log10 from its bit length (1233 / 4096 ~ log10 2), then one compare */
    unsigned t = (unsigned)(64 - __builtin_clzll(u | 1)) * 1233 >> 12;
    size_t n = t + (u >= pow10[t]);
    n += n == 0;
    TsStr *s = ts_str_alloc(n + (i < 0), err);
    if (!s)
        return NULL;
    char *p = s->data + s->len;
    while (u >= 100) {
        unsigned r = (unsigned)(u % 100);
        u /= 100;
        *--p = pairs[2 * r + 1];
        *--p = pairs[2 * r];
    }
    if (u >= 10) {
        *--p = pairs[2 * u + 1];
        *--p = pairs[2 * u];
    } else {
        *--p = (char)('0' + u);
    }
    if (i < 0)
        *--p = '-';
    return s;
}

/* ---- the loop --------------------------------------------------------------------------- */
/* Enters callee's Code with the call instruction's inputs as its arguments. */
static int do_call(TsInterp *st, TsValue *R, const TsValue *K, const TsCode *code,
                   const TsInstr *in, const TsCode *callee)
{
    if (gather(st, R, K, in, code->operands))
        return -1;
    if (push_frame(st, callee))
        return -1;
    args_from_stack(st, in->n_in);
    return 0;
}

/* Records obj (a new reference) as entered by a with-statement. */
static int entered_push(TsInterp *st, const TsCode *code, TsValue obj)
{
    if (st->n_entered == st->cap_entered) {
        size_t cap = st->cap_entered ? st->cap_entered * 2 : 4;
        Entered *e = realloc(st->entered, cap * sizeof *e);
        if (!e)
            return ts_error_set(&st->err, TS_ERR_NOMEM, "out of memory entering a with block");
        st->entered = e;
        st->cap_entered = cap;
    }
    ts_value_retain(obj);
    st->entered[st->n_entered++] = (Entered){obj, code};
    return 0;
}

/* The object's method `name` with n_args arguments (self included), its Code built. */
static const TsCode *method_code(TsInterp *st, const TsCode *code, TsValue self,
                                const char *name, size_t n_args, size_t n_out)
{
    if (self.tag != TS_TAG_OBJECT) {
        ts_error_set(&st->err, TS_ERR_RUNTIME, "method '%s' called on a non-object", name);
        return NULL;
    }
    TsFunction *m;
    if (ts_unit_method((TsCompUnit *)code->unit, ((TsObject *)self.u.p)->cls, name, &m,
                       &st->err) != 0)
        return NULL;
    if (!m) {
        ts_error_set(&st->err, TS_ERR_RUNTIME, "object has no method '%s'", name);
        return NULL;
    }
    if (ts_code_prepare(st->rt, code->unit, m, &st->err))
        return NULL;
    if (m->code->n_inputs != n_args || m->code->n_outputs != n_out) {
        ts_error_set(&st->err, TS_ERR_RUNTIME, "method '%s' takes %zu arguments, not %zu", name,
                     m->code->n_inputs, n_args);
        return NULL;
    }
    return m->code;
}

/* Pushes a frame running obj.__exit__(None, None, None) (taking obj's reference). */
static int call_exit(TsInterp *st, const TsCode *code, TsValue obj, size_t n_out)
{
    const TsCode *callee = method_code(st, code, obj, "__exit__", 4, n_out);
    if (!callee || ts_stack_reserve(&st->stack, 4, &st->err)) {
        ts_value_release(obj);
        return -1;
    }
    st->stack.data[st->stack.len++] = obj;
    for (int i = 0; i < 3; i++)
        st->stack.data[st->stack.len++] = ts_none();
    if (push_frame(st, callee))
        return -1;
    args_from_stack(st, 4);
    return 0;
}

/* Runs st to its end on this thread, waiting out the futures it waits on. */
static int run_sync(TsInterp *st)
{
    int r;
    while ((r = run(st)) == RUN_SUSPENDED) {
        TsError ignore = TS_ERROR_INIT;
        ts_future_wait(st->waiting, NULL, &ignore);     /* outcome read again by WAIT */
        ts_error_clear(&ignore);
        ts_heap_release((TsHeap *)st->waiting);
        st->waiting = NULL;
    }
    return r;
}

/* After an error, as PyTorch does: __exit__(None, None, None) of every object still
 * entered, innermost first, each in a state of its own; their errors are ignored. */
static void exit_entered(TsInterp *st)
{
    while (st->n_entered) {
        Entered e = st->entered[--st->n_entered];
        TsInterp *sub = interp_new(st->rt, NULL);
        if (!sub) {
            ts_value_release(e.obj);
            continue;
        }
        sub->group = st->group;
        sub->nesting = st->nesting;
        if (call_exit(sub, e.code, e.obj, 1) == 0)
            run_sync(sub);
        interp_free(sub);
    }
}

/* The state whose loop runs on this thread (the innermost, when kernels' calls nest).
 * libtscript is linked, never dlopened, so the static TLS model is safe and saves a call. */
static _Thread_local TsInterp *running __attribute__((tls_model("initial-exec")));

/* An int into a register: the tag as a store of a constant (ts_int's struct copy loads
 * the tag and reserved word from memory first). reserved is 0 in every value and nothing
 * reads it, so it is left as it is. */
static inline void put_int(TsValue *r, int64_t i)
{
    r->u.i = i;
    r->tag = TS_TAG_INT;
}

/* Every op ends in its own `goto *in->handler`, so the CPU predicts each op's successor by
 * where it comes from. GCC's cross-jumping merges those identical tails into one shared
 * dispatch (a jump more per op, one indirect branch for all): off for this function. On
 * bench/workloads/loop.py (callgrind) it saved 3 instructions an iteration with dispatch
 * through labels[op], 0.3 with handlers; it stays for the branch per op. An attribute for
 * the one function rather than a flag for the file (sched.mk says so). */
#if defined(__GNUC__) && !defined(__clang__) && !defined(TS_INTERP_SWITCH)
#define TS_DISPATCH_TAILS __attribute__((optimize("no-crossjumping")))
#else
#define TS_DISPATCH_TAILS
#endif
static int run_loop(TsInterp *st, void *const **labels_out) TS_DISPATCH_TAILS;

void *const *ts_interp_labels(void)
{
    void *const *labels = NULL;
    run_loop(NULL, &labels);
    return labels;
}

static int run(TsInterp *st)
{
    TsInterp *outer = running;
    bool outer_no_grad = no_grad;
    running = st;
    no_grad = st->no_grad;
    int r = run_loop(st, NULL);
    st->no_grad = no_grad;
    no_grad = outer_no_grad;
    running = outer;
    return r;
}

static int run_loop(TsInterp *st, void *const **labels_out)
{
    Frame *fr;
    const TsCode *code;
    const TsInstr *ins, *in;
    const int32_t *ops;
    const TsValue *K;
    TsValue *R;

#define LOAD_FRAME()                                                                        \
    do {                                                                                     \
        fr = &st->frames[st->depth - 1];                                                    \
        code = fr->code;                                                                     \
        ins = code->instrs;                                                                  \
        ops = code->operands;                                                                \
        K = code->consts;                                                                    \
        R = st->regs + fr->base;                                                             \
        in = ins + fr->pc;                                                                   \
    } while (0)
#define SAVE_PC() (fr->pc = (uint32_t)(in - ins))
/* Dispatch: computed goto where the compiler has labels as values, else a switch. */
#if defined(__GNUC__) && !defined(TS_INTERP_SWITCH)
#define VM_DISPATCH() goto *labels[in->op];
#define VM_CASE(name) L_##name:
#define VM_DEFAULT L_BAD:
#define VM_NEXT() goto *in->handler    /* == labels[in->op] (direct threading) */
    static void *const labels[TS_OP__COUNT + 1] = {
#define TS_OPCODE_LABEL(name) &&L_##name,
        TS_OPCODE_LIST(TS_OPCODE_LABEL)
#undef TS_OPCODE_LABEL
        &&L_BAD,
    };
    if (!st) {                 /* ts_interp_labels */
        *labels_out = labels;
        return RUN_DONE;
    }
#else
    if (!st) {
        *labels_out = NULL;
        return RUN_DONE;
    }
#define VM_DISPATCH() switch ((TsOpcode)in->op)
#define VM_CASE(name) case TS_OP_##name:
#define VM_DEFAULT default:
#define VM_NEXT() continue
#endif
/* the fast ops read plain registers (see optimize.c) and hold inline values; their register
 * operands are byte offsets into the frame's registers (a shift less per operand) */
#define RB(off) (*(TsValue *)((char *)R + (off)))
#define IA ((uint64_t)RB(in->a).u.i)
#define IB ((uint64_t)RB(in->b).u.i)
#define SA (RB(in->a).u.i)
#define SB (RB(in->b).u.i)
#define FA (RB(in->a).u.d)
#define FB (RB(in->b).u.d)
/* blocks, not do-while(0): VM_NEXT may be a `continue` of the dispatch loop */
#define INT_OP(expr) { put_int(&RB(in->c), (int64_t)(expr)); in++; VM_NEXT(); }
#define FLOAT_OP(expr) { RB(in->c) = ts_double(expr); in++; VM_NEXT(); }
#define BOOL_OP(expr) { RB(in->c) = ts_bool(expr); in++; VM_NEXT(); }
#define JUMP_IF(cond)                                                                       \
    {                                                                                        \
        in = (const TsInstr *)((const char *)in + ((cond) ? in->jump : (int)sizeof *in));   \
        VM_NEXT();                                                                           \
    }

    LOAD_FRAME();
    for (;;) {
        VM_DISPATCH() {
        VM_CASE(ADD_I) INT_OP(IA + IB);
        VM_CASE(SUB_I) INT_OP(IA - IB);
        VM_CASE(MUL_I) INT_OP(IA * IB);
        VM_CASE(FLOORDIV_I) {
            int64_t a = SA, b = SB;
            if (b == 0 || (a == INT64_MIN && b == -1))
                goto slow_kernel;  /* the kernel says what is wrong, as PyTorch does */
            if (b > 0 && (b & (b - 1)) == 0)           /* floor division by 2**k: a shift */
                INT_OP(a >> __builtin_ctzll((unsigned long long)b));
            int64_t q = a / b;
            if (a % b != 0 && ((a < 0) != (b < 0)))
                q--;
            INT_OP(q);
        }
        VM_CASE(REM_I) {
            int64_t a = SA, b = SB, r;
            if ((uint64_t)a <= UINT32_MAX && b > 0 && b <= (int64_t)UINT32_MAX)
                INT_OP((uint32_t)a % (uint32_t)b);     /* the common case: a short divide */
            if (b > 0 && (b & (b - 1)) == 0)           /* floor mod by 2**k is a mask */
                INT_OP(IA & (uint64_t)(b - 1));
            if (b == 0 || (a == INT64_MIN && b == -1))
                goto slow_kernel;
            r = a % b;
            if (r != 0 && ((r < 0) != (b < 0)))
                r += b;
            INT_OP(r);
        }
        VM_CASE(LT_I) BOOL_OP(SA < SB);
        VM_CASE(LE_I) BOOL_OP(SA <= SB);
        VM_CASE(GT_I) BOOL_OP(SA > SB);
        VM_CASE(GE_I) BOOL_OP(SA >= SB);
        VM_CASE(EQ_I) BOOL_OP(SA == SB);
        VM_CASE(NE_I) BOOL_OP(SA != SB);
        VM_CASE(ADD_F) FLOAT_OP(FA + FB);
        VM_CASE(SUB_F) FLOAT_OP(FA - FB);
        VM_CASE(MUL_F) FLOAT_OP(FA * FB);
        VM_CASE(LT_F) BOOL_OP(FA < FB);
        VM_CASE(LE_F) BOOL_OP(FA <= FB);
        VM_CASE(GT_F) BOOL_OP(FA > FB);
        VM_CASE(GE_F) BOOL_OP(FA >= FB);
        VM_CASE(EQ_F) BOOL_OP(FA == FB);
        VM_CASE(NE_F) BOOL_OP(FA != FB);
        VM_CASE(NOT) BOOL_OP(!RB(in->a).u.b);
        VM_CASE(JLT_I) JUMP_IF(SA < SB);
        VM_CASE(JLE_I) JUMP_IF(SA <= SB);
        VM_CASE(JGT_I) JUMP_IF(SA > SB);
        VM_CASE(JGE_I) JUMP_IF(SA >= SB);
        VM_CASE(JEQ_I) JUMP_IF(SA == SB);
        VM_CASE(JNE_I) JUMP_IF(SA != SB);
        /* the int fast path: K, an int32 immediate in b (in d for INC_J*), see optimize.c */
        VM_CASE(ADD_IK) INT_OP(IA + (uint64_t)(int64_t)in->b);
        VM_CASE(MUL_IK) INT_OP(IA * (uint64_t)(int64_t)in->b);
        VM_CASE(INC_I) {           /* in place: the register holds an int, its tag stands */
            RB(in->a).u.i = (int64_t)(IA + (uint64_t)(int64_t)in->b);
            in++;
            VM_NEXT();
        }
        VM_CASE(FLOORDIV_IK) {     /* K > 0: no zero divisor, no INT64_MIN // -1 */
            int64_t a = SA, k = in->b;
            if ((uint64_t)a <= UINT32_MAX)
                INT_OP((uint32_t)a / (uint32_t)k);
            int64_t q = a / k;
            INT_OP(q - (a < 0 && q * k != a));         /* toward negative infinity */
        }
        VM_CASE(REM_IK) {          /* K > 0: the result is in [0, K) */
            int64_t a = SA, k = in->b;
            if ((uint64_t)a <= UINT32_MAX)
                INT_OP((uint32_t)a % (uint32_t)k);
            int64_t r = a % k;
            INT_OP(r < 0 ? r + k : r);
        }
        /* floor division and modulo by 2**K (K in b): Python's, for negative a too */
        VM_CASE(FLOORDIV_PK) INT_OP(SA >> in->b);
        VM_CASE(REM_PK) INT_OP(IA & (((uint64_t)1 << in->b) - 1));
        VM_CASE(JLT_IK) JUMP_IF(SA < in->b);
        VM_CASE(JLE_IK) JUMP_IF(SA <= in->b);
        VM_CASE(JGT_IK) JUMP_IF(SA > in->b);
        VM_CASE(JGE_IK) JUMP_IF(SA >= in->b);
        VM_CASE(JEQ_IK) JUMP_IF(SA == in->b);
        VM_CASE(JNE_IK) JUMP_IF(SA != in->b);
        /* if r[a] % K OP K2 (K2 in d): K is 2**c when c >= 0 (a mask, Python's modulo
           for negative a too), else K > 0 in b */
#define REM_JUMP_IF(rel)                                                                    \
    {                                                                                        \
        int64_t a = SA, r;                                                                   \
        if (in->c >= 0)                                                                      \
            r = (int64_t)(IA & (((uint64_t)1 << in->c) - 1));                                \
        else if ((uint64_t)a <= UINT32_MAX)                                                  \
            r = (uint32_t)a % (uint32_t)in->b;                                               \
        else if ((r = a % in->b) < 0)                                                        \
            r += in->b;                                                                      \
        JUMP_IF(r rel in->d);                                                                \
    }
        VM_CASE(JREM_EQ_IK) REM_JUMP_IF(==);
        VM_CASE(JREM_NE_IK) REM_JUMP_IF(!=);
#undef REM_JUMP_IF
#define INC_JUMP_IF(rel)                                                                    \
    {                                                                                        \
        int64_t v = (int64_t)(IA + (uint64_t)(int64_t)in->d);                               \
        RB(in->c).u.i = v;     /* c == a: an int already, its tag stands */                 \
        JUMP_IF(v rel SB);                                                                   \
    }
        VM_CASE(INC_JLT_I) INC_JUMP_IF(<);
        VM_CASE(INC_JLE_I) INC_JUMP_IF(<=);
        VM_CASE(INC_JGT_I) INC_JUMP_IF(>);
        VM_CASE(INC_JGE_I) INC_JUMP_IF(>=);
        VM_CASE(INC_JEQ_I) INC_JUMP_IF(==);
        VM_CASE(INC_JNE_I) INC_JUMP_IF(!=);
#undef INC_JUMP_IF
        VM_CASE(JUMP) JUMP_IF(true);
        VM_CASE(JUMP_IF_FALSE) JUMP_IF(!RB(in->a).u.b);
        VM_CASE(JUMP_IF_TRUE) JUMP_IF(RB(in->a).u.b);
        VM_CASE(LOOP_ENTER) {
            put_int(&RB(in->c), 0);
            if (!RB(in->a).u.b || SB <= 0)
                JUMP_IF(true);
            if (in->d >= 0)
                put_int(&RB(in->d), 0);
            in++;
            VM_NEXT();
        }
        VM_CASE(LOOP_NEXT) {
            int64_t i = ++RB(in->c).u.i;
            if (RB(in->a).u.b && i < SB) {
                if (in->d >= 0)
                    put_int(&RB(in->d), i);
                JUMP_IF(true);
            }
            in++;
            VM_NEXT();
        }
        VM_CASE(MOVES) {
            TsValue tmp[16];
            const int32_t *src = ops + in->args, *dst = src + in->n_in;
            if (in->n_in <= 16) {
                for (size_t i = 0; i < in->n_in; i++)
                    tmp[i] = take(R, K, src[i]);
                for (size_t i = 0; i < in->n_in; i++)
                    store(R, dst[i], tmp[i]);
            } else {
                if (gather(st, R, K, in, ops))
                    goto fail;
                scatter(st, R, in, ops);
            }
            in++;
            VM_NEXT();
        }
        VM_CASE(DROP) {
            for (size_t i = 0; i < in->n_in; i++) {
                TsValue *r = &R[ops[in->args + i]];
                ts_value_release(*r);
                *r = ts_none();
            }
            in++;
            VM_NEXT();
        }
        VM_CASE(RET) {
            if (gather(st, R, K, in, ops))
                goto fail;
            pop_frame(st);
            if (st->depth == 0)
                return RUN_DONE;
            LOAD_FRAME();
            scatter(st, R, in, ops);
            in++;
            VM_NEXT();
        }
        VM_CASE(KERNEL)
        slow_kernel:
            if (run_kernel(st, R, K, code, in))
                goto fail;
            in++;
            VM_NEXT();
        VM_CASE(TUPLE_CONSTRUCT) {
            TsTuple *t = ts_tuple_new(code->types[in->aux], in->n_in, &st->err);
            if (!t)
                goto fail;
            for (size_t i = 0; i < in->n_in; i++)
                t->items[i] = take(R, K, ops[in->args + i]);
            store(R, ops[in->args + in->n_in], ts_obj_value(t, TS_TAG_TUPLE));
            in++;
            VM_NEXT();
        }
        VM_CASE(TUPLE_UNPACK) {
            TsValue v = OPV(ops[in->args]);
            if (v.tag != TS_TAG_TUPLE || ((TsTuple *)v.u.p)->len != in->n_out) {
                ts_error_set(&st->err, TS_ERR_VALUE, "cannot unpack %s into %u values",
                             v.tag == TS_TAG_TUPLE ? "a tuple of another size" : "a non-tuple",
                             (unsigned)in->n_out);
                goto fail;
            }
            TsTuple *t = (TsTuple *)v.u.p;
            for (size_t i = 0; i < in->n_out; i++) {
                ts_value_retain(t->items[i]);
                store(R, ops[in->args + 1 + i], t->items[i]);
            }
            consume(R, ops[in->args]);
            in++;
            VM_NEXT();
        }
        VM_CASE(TUPLE_INDEX) {
            TsValue v = OPV(ops[in->args]);
            int64_t i = OPV(ops[in->args + 1]).u.i;
            TsTuple *t = (TsTuple *)v.u.p;
            if (v.tag != TS_TAG_TUPLE) {
                ts_error_set(&st->err, TS_ERR_TYPE, "TupleIndex of a non-tuple");
                goto fail;
            }
            if (i < 0)
                i += (int64_t)t->len;
            if (i < 0 || i >= (int64_t)t->len) {
                ts_error_set(&st->err, TS_ERR_INDEX, "Tuple list index out of range");
                goto fail;
            }
            TsValue item = t->items[i];
            ts_value_retain(item);
            consume(R, ops[in->args]);
            store(R, ops[in->args + 2], item);
            in++;
            VM_NEXT();
        }
        VM_CASE(LIST_CONSTRUCT) {
            TsList *l = ts_list_new(code->types[in->aux], in->n_in, &st->err);
            if (!l)
                goto fail;
            for (size_t i = 0; i < in->n_in; i++)
                l->items[i] = take(R, K, ops[in->args + i]);
            l->len = in->n_in;
            store(R, ops[in->args + in->n_in], ts_obj_value(l, TS_TAG_LIST));
            in++;
            VM_NEXT();
        }
        VM_CASE(LIST_UNPACK) {
            TsValue v = OPV(ops[in->args]);
            TsList *l = (TsList *)v.u.p;
            bool locked = ts_shared_lock_if(v);
            if (v.tag != TS_TAG_LIST || l->len != in->n_out) {
                ts_error_set(&st->err, TS_ERR_VALUE,
                             "Expected %u elements in a list but found %zu",
                             (unsigned)in->n_out, v.tag == TS_TAG_LIST ? l->len : (size_t)0);
                if (locked)
                    ts_shared_unlock();
                goto fail;
            }
            for (size_t i = 0; i < in->n_out; i++) {
                ts_value_retain(l->items[i]);
                store(R, ops[in->args + 1 + i], l->items[i]);
            }
            if (locked)
                ts_shared_unlock();
            consume(R, ops[in->args]);
            in++;
            VM_NEXT();
        }
        VM_CASE(DICT_CONSTRUCT) {
            TsDict *d = ts_dict_new(code->types[in->aux], code->types[in->d], &st->err);
            if (!d)
                goto fail;
            TsValue dv = ts_obj_value(d, TS_TAG_DICT);
            for (size_t i = 0; i + 1 < in->n_in; i += 2) {
                TsValue k = take(R, K, ops[in->args + i]);
                TsValue v = take(R, K, ops[in->args + i + 1]);
                if (ts_dict_set(d, k, v, &st->err)) {
                    ts_value_release(dv);
                    goto fail;
                }
            }
            store(R, ops[in->args + in->n_in], dv);
            in++;
            VM_NEXT();
        }
        /* the list ops leave errors and the test hook to their kernels */
        VM_CASE(LIST_GETITEM) {
            const int32_t *a = ops + in->args;
            TsValue lv = OPV(a[0]);
            if (hook || lv.tag != TS_TAG_LIST || ts_value_is_shared(lv))
                goto slow_kernel;  /* a shared list: the kernel, with the shared lock */
            TsList *l = (TsList *)lv.u.p;
            int64_t i = OPV(a[1]).u.i;
            if (i < 0)
                i += (int64_t)l->len;
            if (i < 0 || i >= (int64_t)l->len)
                goto slow_kernel;
            TsValue item = l->items[i];
            ts_value_retain(item);
            consume(R, a[0]);
            store(R, a[2], item);
            in++;
            VM_NEXT();
        }
        VM_CASE(LIST_APPEND_R) {   /* room in a list this thread alone holds: no call */
            TsValue *lr = &RB(in->a), *er = &RB(in->b);
            TsList *l = (TsList *)lr->u.p;
            if (hook || lr->tag != TS_TAG_LIST || ts_value_is_shared(*lr) || l->len >= l->cap)
                goto list_append;          /* the operand list has it all */
            TsValue v = *er;
            if (in->c)
                *er = ts_none();
            else
                ts_value_retain(v);
            l->items[l->len++] = v;
            in++;
            VM_NEXT();
        }
        VM_CASE(LIST_APPEND)
        list_append: {
            const int32_t *a = ops + in->args;
            TsValue lv = OPV(a[0]);
            if (hook || lv.tag != TS_TAG_LIST || ts_value_is_shared(lv)) {
                if (run_kernel(st, R, K, code, in))
                    goto fail;
                if (in->d > 0)
                    store(R, a[2], ts_none());
                in++;
                VM_NEXT();
            }
            TsList *l = (TsList *)lv.u.p;
            if (l->len < l->cap)    /* room: the common case, no call */
                l->items[l->len++] = take(R, K, a[1]);
            else if (ts_list_append(l, take(R, K, a[1]), &st->err))
                goto fail;
            if (in->d > 0)
                consume(R, a[0]);   /* no output: the list's count is left alone */
            else
                store(R, a[2], take(R, K, a[0]));
            in++;
            VM_NEXT();
        }
        VM_CASE(LIST_LEN) {
            const int32_t *a = ops + in->args;
            TsValue lv = OPV(a[0]);
            if (hook || lv.tag != TS_TAG_LIST || ts_value_is_shared(lv))
                goto slow_kernel;
            int64_t n = (int64_t)((TsList *)lv.u.p)->len;
            consume(R, a[0]);
            store(R, a[1], ts_int(n));
            in++;
            VM_NEXT();
        }
        /* the dict ops too; a key error is the kernel's to word */
        VM_CASE(DICT_GETITEM)
        VM_CASE(DICT_GET_DEFAULT) {
            const int32_t *a = ops + in->args;
            TsValue dv = OPV(a[0]), v;
            if (hook || dv.tag != TS_TAG_DICT || ts_value_is_shared(dv))
                goto slow_kernel;
            bool found = ts_dict_get((TsDict *)dv.u.p, OPV(a[1]), &v);
            bool getitem = in->op == TS_OP_DICT_GETITEM;
            if (!found && getitem)
                goto slow_kernel;
            if (found) {
                ts_value_retain(v);
                if (!getitem)
                    consume(R, a[2]);
            } else {
                v = take(R, K, a[2]);
            }
            consume(R, a[0]);
            consume(R, a[1]);
            store(R, a[getitem ? 2 : 3], v);
            in++;
            VM_NEXT();
        }
        VM_CASE(DICT_SETITEM) {
            const int32_t *a = ops + in->args;
            TsValue dv = OPV(a[0]);
            if (hook || dv.tag != TS_TAG_DICT || ts_value_is_shared(dv))
                goto slow_kernel;
            /* key first: `d[x] = x` borrows x for the key and moves it for the value */
            TsValue key = take(R, K, a[1]);
            if (ts_dict_set((TsDict *)dv.u.p, key, take(R, K, a[2]), &st->err))
                goto fail;
            consume(R, a[0]);
            in++;
            VM_NEXT();
        }
        VM_CASE(STR) {
            const int32_t *a = ops + in->args;
            TsValue v = OPV(a[0]);
            if (hook || v.tag != TS_TAG_INT)
                goto slow_kernel;
            TsStr *s = int_str(v.u.i, &st->err);
            if (!s)
                goto fail;
            consume(R, a[0]);
            store(R, a[1], ts_str_value(s));
            in++;
            VM_NEXT();
        }
        VM_CASE(UNINITIALIZED) {
            store(R, ops[in->args + in->n_in], ts_uninit());
            in++;
            VM_NEXT();
        }
        VM_CASE(RAISE) {
            do_raise(st, R, K, in, ops);
            goto fail;
        }
        VM_CASE(ISINSTANCE) {
            bool b = is_instance(code, in, OPV(ops[in->args]));
            consume(R, ops[in->args]);
            store(R, ops[in->args + 1], ts_bool(b));
            in++;
            VM_NEXT();
        }
        VM_CASE(IS)
        VM_CASE(ISNOT) {
            bool b = ts_value_is(OPV(ops[in->args]), OPV(ops[in->args + 1]));
            consume(R, ops[in->args]);
            consume(R, ops[in->args + 1]);
            store(R, ops[in->args + 2], ts_bool(in->op == TS_OP_IS ? b : !b));
            in++;
            VM_NEXT();
        }
        VM_CASE(COPY) {
            store(R, ops[in->args + 1], take(R, K, ops[in->args]));
            in++;
            VM_NEXT();
        }
        VM_CASE(GETATTR)
        VM_CASE(SETATTR) {
            TsValue v = OPV(ops[in->args]);
            TsObject *o = (TsObject *)v.u.p;
            if (v.tag != TS_TAG_OBJECT || (size_t)in->d >= o->nslots) {
                ts_error_set(&st->err, TS_ERR_RUNTIME, "%s on a value that is not an object",
                             in->node->kind);
                goto fail;
            }
            bool locked = ts_shared_lock_if(v);
            if (in->op == TS_OP_GETATTR) {
                TsValue a = o->slots[in->d];
                ts_value_retain(a);
                if (locked)
                    ts_shared_unlock();
                consume(R, ops[in->args]);
                store(R, ops[in->args + 1], a);
            } else {
                TsValue a = take(R, K, ops[in->args + 1]);
                if (locked && ts_value_share(a, &st->err)) {
                    ts_shared_unlock();
                    ts_value_release(a);
                    goto fail;
                }
                TsValue old = o->slots[in->d];
                o->slots[in->d] = a;
                if (locked)
                    ts_shared_unlock();
                ts_value_release(old);  /* outside the lock: it may free a whole tree */
                consume(R, ops[in->args]);
            }
            in++;
            VM_NEXT();
        }
        VM_CASE(CREATE_OBJECT) {
            TsObject *o = ts_object_new(code->types[in->aux], &st->err);
            if (!o)
                goto fail;
            store(R, ops[in->args], ts_obj_value(o, TS_TAG_OBJECT));
            in++;
            VM_NEXT();
        }
        VM_CASE(CALL)
        VM_CASE(CALL_METHOD) {
            const TsCode *callee;
            if (in->op == TS_OP_CALL) {
                /* prepared with this Code, unless another thread is still building it:
                 * ts_code_prepare then waits for that build */
                TsFunction *fn = code->callees[in->aux];
                callee = __atomic_load_n(&fn->code, __ATOMIC_ACQUIRE);
                if (!callee) {
                    if (ts_code_prepare(st->rt, code->unit, fn, &st->err))
                        goto fail;
                    callee = fn->code;
                }
            } else if (!(callee = method_code(st, code, OPV(ops[in->args]), code->strs[in->aux],
                                            in->n_in, in->n_out)))
                goto fail;
            SAVE_PC();
            if (do_call(st, R, K, code, in, callee))
                goto fail;
            LOAD_FRAME();
            VM_NEXT();
        }
        VM_CASE(ENTER) {
            const int32_t o = ops[in->args];
            const TsCode *callee = method_code(st, code, OPV(o), "__enter__", 1, in->n_out);
            if (!callee || entered_push(st, code, OPV(o)))
                goto fail;
            SAVE_PC();
            if (do_call(st, R, K, code, in, callee))
                goto fail;
            LOAD_FRAME();
            VM_NEXT();
        }
        VM_CASE(EXIT) {
            if (!st->n_entered) {
                ts_error_set(&st->err, TS_ERR_RUNTIME, "prim::Exit without prim::Enter");
                goto fail;
            }
            Entered e = st->entered[--st->n_entered];
            consume(R, ops[in->args]);
            SAVE_PC();
            if (call_exit(st, e.code, e.obj, in->n_out))
                goto fail;
            LOAD_FRAME();
            VM_NEXT();
        }
        VM_CASE(FORK) {
            if (do_fork(st, R, K, code, in))
                goto fail;
            in++;
            VM_NEXT();
        }
        VM_CASE(WAIT) {
            int32_t o = ops[in->args];
            TsValue fv = OPV(o);
            if (fv.tag != TS_TAG_FUTURE) {
                ts_error_set(&st->err, TS_ERR_TYPE, "wait() on a value that is not a Future");
                goto fail;
            }
            TsFuture *f = (TsFuture *)fv.u.p;
            if (!ts_future_done(f)) {
                ts_heap_retain(fv.u.p);
                st->waiting = f;
                SAVE_PC();
                return RUN_SUSPENDED;
            }
            TsValue v;
            if (ts_future_wait(f, &v, &st->err))
                goto fail;
            consume(R, o);
            store(R, ops[in->args + 1], v);
            in++;
            VM_NEXT();
        }
        VM_CASE(PRINT) {
            if (do_print(st, R, K, in, ops))
                goto fail;
            in++;
            VM_NEXT();
        }
        VM_DEFAULT
            ts_error_set(&st->err, TS_ERR_RUNTIME, "bad opcode %u", (unsigned)in->op);
            goto fail;
        }
    }
fail:
    SAVE_PC();
    format_error(st);
    exit_entered(st);
    unwind(st);
    return RUN_ERROR;
#undef LOAD_FRAME
#undef SAVE_PC
#undef VM_DISPATCH
#undef VM_CASE
#undef VM_DEFAULT
#undef VM_NEXT
#undef IA
#undef IB
#undef SA
#undef SB
#undef FA
#undef FB
#undef INT_OP
#undef FLOAT_OP
#undef BOOL_OP
#undef JUMP_IF
}

/* ---- running a function ------------------------------------------------------------------ */
static int finish_outputs(TsInterp *st, size_t n, TsValue *out, TsError *err)
{
    if (n == 1) {
        *out = ts_stack_pop(&st->stack);
        return 0;
    }
    if (n == 0) {
        *out = ts_none();
        return 0;
    }
    TsTuple *t = ts_tuple_new(NULL, n, err);
    if (!t)
        return err->code;
    for (size_t i = n; i-- > 0;)
        t->items[i] = ts_stack_pop(&st->stack);
    *out = ts_obj_value(t, TS_TAG_TUPLE);
    return 0;
}

int ts_run(TsRuntime *rt, TsCompUnit *u, TsFunction *f, TsValue *args, size_t n,
           TsValue *out, TsError *err)
{
    *out = ts_none();
    TsInterp *st = NULL;
    const TsCode *code = NULL;
    int rc = ts_code_prepare(rt, u, f, err);
    if (!rc && f->code->n_inputs != n)
        rc = ts_error_set(err, TS_ERR_TYPE, "%s() takes %zu arguments but %zu were given",
                          f->name, f->code->n_inputs, n);
    /* the plan for these arguments' dtypes, ranks and devices (spec.h) */
    if (!rc && !(code = ts_spec_select(rt, u, f, args, n, err)))
        rc = err->code;
    if (!rc && !(st = interp_new(rt, err)))
        rc = err->code;
    if (!rc && ts_stack_reserve(&st->stack, n, err))
        rc = err->code;
    if (rc) {
        for (size_t i = 0; i < n; i++)
            ts_value_release(args[i]);
        if (st)
            interp_free(st);
        return rc;
    }
    for (size_t i = 0; i < n; i++)
        st->stack.data[st->stack.len++] = args[i];
    if (push_frame(st, code)) {
        ts_error_move(err, &st->err);
        interp_free(st);
        return err->code;
    }
    args_from_stack(st, n);
    RunGroup group = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    st->group = &group;
    int r;
    while ((r = run(st)) == RUN_SUSPENDED) {
        TsError ignore = TS_ERROR_INIT;
        ts_future_wait(st->waiting, NULL, &ignore);     /* outcome read again by WAIT */
        ts_error_clear(&ignore);
        ts_heap_release((TsHeap *)st->waiting);
        st->waiting = NULL;
    }
    if (r == RUN_ERROR) {
        ts_error_move(err, &st->err);
        rc = err->code;
    } else {
        rc = finish_outputs(st, code->n_outputs, out, err);
    }
    interp_free(st);
    pthread_mutex_lock(&group.lock);
    while (group.live)
        pthread_cond_wait(&group.done, &group.lock);
    pthread_mutex_unlock(&group.lock);
    pthread_cond_destroy(&group.done);
    pthread_mutex_destroy(&group.lock);
    return rc;
}

/* ---- kernels' calls into TorchScript (plugin.h) ------------------------------------------ */
/* The state running the kernel that was handed call, or NULL (not on this thread, or not a
 * TsCall of the interpreter's). */
static TsInterp *kernel_state(const TsCall *call)
{
    TsInterp *st = running;
    return st && call && call->stack == &st->stack && call->error == &st->err ? st : NULL;
}

const char *ts_interp_kernel_function(const TsCall *call)
{
    TsInterp *st = kernel_state(call);
    return st && st->depth ? st->frames[st->depth - 1].code->name : NULL;
}

const TsCompUnit *ts_interp_kernel_unit(const TsCall *call)
{
    TsInterp *st = kernel_state(call);
    return st && st->depth ? st->frames[st->depth - 1].code->unit : NULL;
}

/* The callee's error becomes the kernel's: code and traceback, and the exception class it
 * printed, for the operator's own traceback (adopt_callee_error). */
static void take_callee_error(TsInterp *st, TsInterp *sub)
{
    ts_error_move(&st->err, &sub->err);
    free(st->callee_label);
    st->callee_label = sub->label ? sub->label : strdup("RuntimeError");
    sub->label = NULL;
    st->callee_msg = st->callee_label ? st->err.msg : NULL;
}

/* Runs code on args (borrowed) in the nested state of the kernel running call; its
 * outputs are left on that state's stack for the caller to take. */
static int nested_run(TsInterp *st, const TsCode *code, const TsValue *args, size_t n)
{
    if (st->nesting >= TS_CALL_MAX_NESTING)
        return nesting_error(&st->err);
    if (!st->callee && !(st->callee = interp_new(st->rt, &st->err)))
        return st->err.code;
    TsInterp *sub = st->callee;    /* idle: only this state's kernels use it */
    sub->group = st->group;
    sub->nesting = st->nesting + 1;
    if (ts_stack_reserve(&sub->stack, n, &st->err))
        return st->err.code;
    for (size_t i = 0; i < n; i++) {
        ts_value_retain(args[i]);
        sub->stack.data[sub->stack.len++] = args[i];
    }
    if (push_frame(sub, code)) {
        ts_stack_drop(&sub->stack, sub->stack.len);
        ts_error_move(&st->err, &sub->err);
        return st->err.code;
    }
    args_from_stack(sub, n);
    if (run_sync(sub) == RUN_ERROR) {
        take_callee_error(st, sub);
        return st->err.code;
    }
    return 0;
}

int ts_interp_call(TsCall *call, TsFunction *f, const TsValue *args, size_t n, TsValue *out)
{
    *out = ts_none();
    TsInterp *st = kernel_state(call);
    if (!st)
        return ts_error_set(call->error, TS_ERR_USAGE,
                            "ts_call_function: only a kernel the interpreter is running may "
                            "call TorchScript, with the TsCall it was given");
    const TsCompUnit *unit = st->frames[st->depth - 1].code->unit;
    if (ts_code_prepare(st->rt, unit, f, &st->err))
        return st->err.code;
    int rc = nested_run(st, f->code, args, n);
    if (rc)
        return rc;
    TsInterp *sub = st->callee;
    rc = finish_outputs(sub, f->code->n_outputs, out, &st->err);
    ts_stack_drop(&sub->stack, sub->stack.len);
    return rc;
}

int ts_interp_run_code(TsCall *call, const TsCode *code, const TsValue *args, size_t n,
                       TsValue *out)
{
    TsInterp *st = kernel_state(call);
    if (!st)
        return ts_error_set(call->error, TS_ERR_USAGE, "ts_interp_run_code: not in a kernel");
    int rc = nested_run(st, code, args, n);
    if (rc) {
        /* the region's traceback is the operator's own (its nodes carry the calls they
         * were inlined from): it replaces the one the kernel's node would get, not nests */
        free(st->callee_label);
        st->callee_label = NULL;
        st->callee_msg = NULL;
        return rc;
    }
    TsStack *stack = &st->callee->stack;
    if (stack->len != code->n_outputs) {
        ts_stack_drop(stack, stack->len);
        return ts_error_set(&st->err, TS_ERR_RUNTIME, "internal error: a region left %zu "
                            "values for %zu outputs", stack->len, code->n_outputs);
    }
    for (size_t i = 0; i < code->n_outputs; i++)
        out[i] = stack->data[i];
    stack->len = 0;
    return 0;
}

