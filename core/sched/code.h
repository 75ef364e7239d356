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

#include "function.h"
#include "registry/optable.h"
#include "tscript/tscript.h"

typedef enum TsOpcode {
    /* int and float arithmetic and comparisons on known types: r[c] = o[a] OP o[b] */
    TS_OP_ADD_I, TS_OP_SUB_I, TS_OP_MUL_I, TS_OP_FLOORDIV_I, TS_OP_REM_I,
    TS_OP_LT_I, TS_OP_LE_I, TS_OP_GT_I, TS_OP_GE_I, TS_OP_EQ_I, TS_OP_NE_I,
    TS_OP_ADD_F, TS_OP_SUB_F, TS_OP_MUL_F,
    TS_OP_LT_F, TS_OP_LE_F, TS_OP_GT_F, TS_OP_GE_F, TS_OP_EQ_F, TS_OP_NE_F,
    TS_OP_NOT,              /* r[c] = !o[a] */
    /* control */
    TS_OP_JUMP,             /* pc = target */
    TS_OP_JUMP_IF_FALSE,    /* if !o[a]: pc = target */
    TS_OP_JUMP_IF_TRUE,     /* if o[a]: pc = target */
    TS_OP_LOOP_ENTER,       /* counted loop: r[c] = 0; if !o[a] || o[b] <= 0: pc = target;
                               else r[d] = 0 (when %i is used, d >= 0) */
    TS_OP_LOOP_NEXT,        /* r[c] += 1; if o[a] && r[c] < o[b]: r[d] = r[c], pc = target */
    TS_OP_MOVES,            /* parallel move: n_in operands into n_out registers */
    TS_OP_DROP,             /* release the n_in registers listed */
    TS_OP_RET,              /* return the n_in operands to the caller */
    /* values */
    TS_OP_KERNEL,           /* run a bound kernel through the stack */
    TS_OP_TUPLE_CONSTRUCT, TS_OP_TUPLE_UNPACK, TS_OP_TUPLE_INDEX,
    TS_OP_LIST_CONSTRUCT, TS_OP_LIST_UNPACK, TS_OP_DICT_CONSTRUCT,
    TS_OP_UNINITIALIZED,
    TS_OP_RAISE,            /* prim::RaiseException(msg, cls?) */
    TS_OP_ISINSTANCE,       /* aux: the Code's type list index */
    TS_OP_IS, TS_OP_ISNOT,
    TS_OP_COPY,             /* prim::unchecked_cast and friends: r[out] = o[in] */
    TS_OP_GETATTR, TS_OP_SETATTR, /* d: the slot */
    TS_OP_CREATE_OBJECT,
    TS_OP_CALL,             /* aux: callee index; inputs are the arguments */
    TS_OP_CALL_METHOD,      /* resolved at run time by the object's class (interfaces) */
    TS_OP_FORK,             /* aux: subcode index */
    TS_OP_WAIT,
    TS_OP_PRINT,            /* prim::Print: the inputs as print() writes them, to stdout */
    TS_OP__COUNT
} TsOpcode;

typedef struct TsInstr {
    uint16_t op;               /* TsOpcode */
    uint16_t n_in, n_out;
    int32_t a, b, c, d;        /* fast operands; c is an output register for fast ops */
    uint32_t target;           /* jumps */
    uint32_t args;             /* index of n_in input operands, then n_out output registers */
    uint32_t aux;
    const TsNode *node;        /* for tracebacks and the test hook; NULL for bookkeeping */
} TsInstr;

/* A kernel bound to a node at build time. */
typedef struct TsBoundKernel {
    const TsOperator *op;
    TsKernelFn fn;             /* the kernel for "cpu" (or any) */
    void *data;                /* a factory's state */
    void (*free_data)(void *);
    int tensor_input;          /* first Tensor-typed input (dispatch by its device), or -1 */
    bool fixed_outputs;        /* the kernel must leave exactly n_out values */
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
    const TsCompUnit *unit;
} TsCode;

/* Linearizes graph (of function name, in unit) against rt's operator table. Callees are
 * resolved but not built (see ts_code_prepare). Errors name the node and where it came from. */
TsCode *ts_code_build(TsRuntime *rt, const TsCompUnit *unit, const TsGraph *graph,
                      const char *name, TsError *err);
void ts_code_free(TsCode *code);

/* Builds f's Code and, transitively, the Code of every function it calls, once (thread-safe;
 * no recursion on the C stack however long the call chain). */
int ts_code_prepare(TsRuntime *rt, const TsCompUnit *unit, TsFunction *f, TsError *err);

/* A readable listing of the instructions (for tests and debugging); malloc'd. */
char *ts_code_dump(const TsCode *code);

#endif
