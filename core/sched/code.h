/* code.h — Code: a graph linearized into register instructions (internal to core/sched).
 *
 * As in the JIT overview's Interpreter: every IR value gets a register; an instruction gathers
 * its inputs from registers (moving a value out of its register at its last use, copying it
 * otherwise), runs its operation and stores its outputs. prim::If and prim::Loop become
 * jumps; values whose last use depends on the branch taken are released by DROP
 * instructions at the start of the other branch or at loop exit, so every value dies as soon
 * as it is dead. prim::Constant nodes become a constant table materialized once per Code.
 *
 * An operand is an int32: o >= 0 names register o >> 1, moved out at this use when o & 1;
 * o < 0 names constant ~o (constants are never moved). The hot prims (int/float arithmetic
 * and comparisons, jumps, containers, attributes, calls, fork/wait) have their own opcodes;
 * every other operator runs its kernel through the stack, bound when the Code is built.
 *
 * A Code is immutable once built and shared by every run of its function, on any thread.
 */
#ifndef TSCRIPT_SCHED_CODE_H
#define TSCRIPT_SCHED_CODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "function.h"
#include "registry/optable.h"
#include "tscript/tscript.h"

/* The opcodes, one list for the enum and the listing's names. After ts_code_optimize the
 * fast ops (arithmetic, comparisons, fused compare-and-jumps, JUMP_IF_*, LOOP_*) name plain
 * registers in a, b, c, d, as byte offsets (register * sizeof(TsValue)): constants they read
 * are preloaded into registers of their own, or are immediates (the _IK ops). */
#define TS_OPCODE_LIST(X)                                                                   \
    /* int and float arithmetic and comparisons on known types: r[c] = r[a] OP r[b] */      \
    X(ADD_I) X(SUB_I) X(MUL_I) X(FLOORDIV_I) X(REM_I)                                      \
    X(LT_I) X(LE_I) X(GT_I) X(GE_I) X(EQ_I) X(NE_I)                                        \
    X(ADD_F) X(SUB_F) X(MUL_F)                                                             \
    X(LT_F) X(LE_F) X(GT_F) X(GE_F) X(EQ_F) X(NE_F)                                        \
    X(NOT)              /* r[c] = !r[a] */                                                  \
    /* fused int compare-and-branch: if r[a] OP r[b]: pc = target (same order as LT_I..) */ \
    X(JLT_I) X(JLE_I) X(JGT_I) X(JGE_I) X(JEQ_I) X(JNE_I)                                  \
    /* the int fast path (optimize.c lower): an operand that was an int constant fitting   \
       int32 becomes the immediate K, held in b. r[c] = r[a] OP K; REM and FLOORDIV only   \
       for K > 0, where they cannot fail */                                                 \
    X(ADD_IK) X(MUL_IK) X(FLOORDIV_IK) X(REM_IK)                                           \
    /* `// 2**K` and `% 2**K` by a constant power of two (any up to 2**62; K in b): an      \
       arithmetic shift and a mask, which are Python's floor division and modulo */         \
    X(FLOORDIV_PK) X(REM_PK)                                                                \
    X(INC_I)            /* ADD_IK in place (c == a): the int's tag stands, only it changes */\
    /* if r[a] OP K: pc = target (same order as LT_I..) */                                  \
    X(JLT_IK) X(JLE_IK) X(JGT_IK) X(JGE_IK) X(JEQ_IK) X(JNE_IK)                            \
    /* `if a % K == K2` (!=), the remainder used by nothing else: if r[a] % K OP d: pc =  \
       target. K > 0 in b, or c >= 0: K is 2**c (a mask); K2, an int32 immediate, in d */  \
    X(JREM_EQ_IK) X(JREM_NE_IK)                                                             \
    /* a loop's back edge, `i += K; if i < n: continue`, in place: r[c] = r[a] + K (K in   \
       d; c == a); if r[c] OP r[b]: pc = target (same order as LT_I..) */                   \
    X(INC_JLT_I) X(INC_JLE_I) X(INC_JGT_I) X(INC_JGE_I) X(INC_JEQ_I) X(INC_JNE_I)          \
    /* control */                                                                           \
    X(JUMP)             /* pc = target */                                                   \
    X(JUMP_IF_FALSE)    /* if !r[a]: pc = target */                                         \
    X(JUMP_IF_TRUE)     /* if r[a]: pc = target */                                          \
    X(LOOP_ENTER)       /* counted loop: r[c] = 0; if !r[a] || r[b] <= 0: pc = target;      \
                           else r[d] = 0 (when %i is used, d >= 0) */                       \
    X(LOOP_NEXT)        /* r[c] += 1; if r[a] && r[c] < r[b]: r[d] = r[c], pc = target */   \
    X(MOVES)            /* parallel move: n_in operands into n_out registers */             \
    X(DROP)             /* release the n_in registers listed */                             \
    X(RET)              /* return the n_in operands to the caller */                        \
    /* values */                                                                            \
    X(KERNEL)           /* run a bound kernel through the stack */                          \
    X(TUPLE_CONSTRUCT) X(TUPLE_UNPACK) X(TUPLE_INDEX)                                      \
    X(LIST_CONSTRUCT) X(LIST_UNPACK) X(DICT_CONSTRUCT)                                     \
    X(LIST_GETITEM)     /* aten::__getitem__.t(list, int) */                                \
    X(LIST_APPEND)      /* aten::append.t(list, el); d > 0: the output is dead, unset */    \
    X(LIST_APPEND_R)    /* the same, output dead, by optimize.c: the list in register a     \
                           (kept), the item in register b (moved out when c is 1); its      \
                           operand list stays for the general path */                       \
    X(LIST_LEN)         /* aten::len.t(list) */                                             \
    X(DICT_GETITEM)     /* aten::__getitem__.Dict_K(dict, key) */                           \
    X(DICT_GET_DEFAULT) /* aten::get.default_K(dict, key, default) */                       \
    X(DICT_SETITEM)     /* aten::_set_item.K(dict, key, value) */                           \
    X(STR)              /* aten::str(elem): ints here, the rest by the kernel */           \
    X(UNINITIALIZED)                                                                        \
    X(RAISE)            /* prim::RaiseException(msg, cls?) */                               \
    X(ISINSTANCE)       /* aux: the Code's type list index */                               \
    X(IS) X(ISNOT)                                                                          \
    X(COPY)             /* prim::unchecked_cast and friends: r[out] = o[in] */              \
    X(GETATTR) X(SETATTR) /* d: the slot */                                                 \
    X(CREATE_OBJECT)                                                                        \
    X(CALL)             /* aux: callee index; inputs are the arguments (d: defaults from) */\
    X(CALL_METHOD)      /* resolved at run time by the object's class (interfaces) */       \
    X(ENTER)            /* prim::Enter(obj): obj.__enter__(), obj joins the entered stack */\
    X(EXIT)             /* prim::Exit(obj): obj leaves the stack; obj.__exit__(None x3) */  \
    X(FORK)             /* aux: subcode index */                                            \
    X(WAIT)                                                                                 \
    X(PRINT)            /* prim::Print: the inputs as print() writes them, to stdout */

typedef enum TsOpcode {
#define TS_OPCODE_ENUM(name) TS_OP_##name,
    TS_OPCODE_LIST(TS_OPCODE_ENUM)
#undef TS_OPCODE_ENUM
    TS_OP__COUNT
} TsOpcode;

typedef struct TsInstr {
    void *handler;             /* the interpreter's code for op (ts_code_optimize sets it from
                                  ts_interp_labels): dispatch is one indirect jump */
    uint16_t op;               /* TsOpcode */
    uint16_t n_in, n_out;
    int32_t a, b, c, d;        /* fast operands; c is an output register for fast ops */
    uint32_t target;           /* jumps */
    uint32_t args;             /* index of n_in input operands, then n_out output registers */
    uint32_t aux;
    int32_t jump;              /* jumps: the target as a byte offset from this instruction
                                  (ts_code_optimize sets it): a taken branch is one add */
    const TsNode *node;        /* for tracebacks and the test hook; NULL for bookkeeping */
} TsInstr;

/* A kernel bound to a node at build time. */
typedef struct TsBoundKernel {
    const TsOperator *op;
    TsKernelFn fn;             /* the default backend's kernel (sched/dispatch.h) */
    void *data;                /* a factory's state */
    void (*free_data)(void *);
    const TsKernelEntry *entry; /* the entry fn came from */
    int bound_type;            /* the device type fn is the kernel of, or -1 */
    int tensor_input;          /* first Tensor-typed input (dispatch by its device), or -1 */
    int tensors_input;         /* else the first Tensor? or Tensor[] input, or -1 */
    int device_input;          /* the first Device or Device? input, or -1 */
    bool dispatch;             /* false: fn for every call (a lone TS_BACKEND_ANY kernel) */
    bool makes_tensors;        /* a return is a Tensor or holds tensors */
    bool fixed_outputs;        /* the kernel must leave exactly n_out values */
    bool containers;           /* an input may be (or hold) a list, dict or object: the
                                * interpreter checks for shared ones (core/value/share.c) */
    bool grad;                 /* differentiable: its float outputs require grad when an
                                * input does and grad mode is on (autograd's rule) */
    uint64_t writes;           /* bit i: input i is a tensor (or tensors) the kernel writes,
                                * whose storage's version the interpreter moves first */
} TsBoundKernel;

typedef struct TsCode {
    const char *name;          /* the function's unqualified name, for tracebacks */
    TsInstr *instrs;
    size_t n_instrs;
    int32_t *operands;
    size_t n_operands;
    size_t n_regs;             /* registers 0 .. n_inputs-1 hold the arguments */
    size_t n_inputs, n_outputs;
    TsValue *consts;
    size_t n_consts;
    TsBoundKernel *kernels;
    size_t n_kernels;
    TsFunction **callees;
    size_t n_callees;
    struct TsCode **subcodes;  /* prim::fork subgraphs */
    size_t n_subcodes;
    const TsType **types;      /* isinstance type lists, future/list/dict/tuple/class types */
    size_t n_types;
    const char **strs;         /* method names of run-time dispatched calls */
    size_t n_strs;
    int32_t *preload;          /* pairs (register, constant): set when a frame is entered */
    size_t n_preload;
    const TsCompUnit *unit;
    TsGraph *graph;            /* owned: the optimized copy of the function's graph that the
                                  instructions' nodes belong to; NULL when the Code runs the
                                  function's own graph (optimizer off, fork subcodes) */
    struct TsSpecCache *specs; /* owned: a function's generic Code's plans specialized to
                                  its tensor arguments (spec.h), or NULL */
} TsCode;

/* Linearizes graph (of function name, in unit) against rt's operator table. Callees are
 * resolved but not built (see ts_code_prepare). Errors name the node and where it came from. */
TsCode *ts_code_build(TsRuntime *rt, const TsCompUnit *unit, const TsGraph *graph,
                      const char *name, TsError *err);
void ts_code_free(TsCode *code);

/* Builds f's Code and, transitively, the Code of every function it calls, once (thread-safe;
 * no recursion on the C stack however long the call chain). */
int ts_code_prepare(TsRuntime *rt, const TsCompUnit *unit, TsFunction *f, TsError *err);

/* Prepares (ts_code_prepare) every function c and its fork subcodes call that has no Code
 * yet: for a Code built outside ts_code_prepare (a specialized plan, spec.c). */
int ts_code_prepare_callees(TsRuntime *rt, const TsCompUnit *unit, const TsCode *c,
                            TsError *err);

/* The passes over a built Code (optimize.c): coalesces the registers of MOVES where their
 * lives do not overlap (If outputs and loop-carried values of inline types share one
 * register), fuses int compares with the jumps that consume them, and gives the fast ops
 * plain register operands (preloading the constants they read). ref[r] says whether
 * register r may hold a reference (such registers are never coalesced). */
int ts_code_optimize(TsCode *code, const bool *ref, TsError *err);

/* The interpreter's label for each opcode where it dispatches by computed goto (interp.c),
 * else NULL (it switches on op). */
void *const *ts_interp_labels(void);

/* A readable listing of the instructions (for tests and debugging); malloc'd. */
char *ts_code_dump(const TsCode *code);

/* Writes the operands of a fast op or jump for ts_code_dump (optimize.c lays out their
 * fields: byte offsets, immediates); false for any other op. */
bool ts_code_dump_fast(FILE *f, const TsInstr *in);

#endif
