/* fuser.h — what the CPU fuser's files share: the pointwise operators it fuses, the program
 * a fusion group compiles to, and the pass and kernel entry points.
 *
 * A fusion group (prim::FusionGroup, its Subgraph attribute a graph of pointwise float32
 * operators) runs as one pass over memory: its outputs are computed a block of elements at
 * a time, every intermediate staying in a block-sized buffer in cache, where the unfused
 * graph would run one kernel per operator, each reading and writing whole tensors and
 * allocating its result.
 */
#ifndef TS_FUSER_CPU_H
#define TS_FUSER_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "tscript/aten.h"
#include "group.h"

/* ---- programs (program.c) ------------------------------------------------------------- */

/* A register holds a block of float32 elements, or one scalar (a number input or constant,
 * converted to float32 as PyTorch converts a wrapped number for a float32 tensor). Inputs
 * come first, then what the Subgraph's nodes define, in order. */
typedef struct FuInstr {
    uint8_t op;                /* FuOpCode */
    uint16_t a, b;             /* operand registers (b unused for unary ops) */
    uint16_t out;
    float alpha;               /* add/sub: the (constant) alpha, sub's negated */
    int16_t alpha_reg;         /* a non-constant alpha's register, else -1 */
} FuInstr;

/* A register's dependencies on the group's inputs, a bit per input. */
#define FU_DEP_WORDS 4
#define FU_MAX_INPUTS (64 * FU_DEP_WORDS)

/* A piece of an input split by prim::ConstantChunk (aten::chunk folded into the group): a
 * view made on each call, as aten::chunk would make it. */
typedef struct FuPiece {
    uint16_t src;              /* the input register split */
    int64_t index, chunks, dim;
} FuPiece;

typedef struct FuProgram {
    uint16_t n_inputs;         /* registers 0..n_inputs-1: the group's inputs */
    uint16_t n_regs;
    uint16_t n_instrs, n_outputs;
    bool *is_scalar;           /* n_regs: a scalar register (inputs that are numbers) */
    float *constant;           /* n_regs: a constant register's value */
    bool *is_constant;         /* n_regs */
    FuInstr *instrs;
    uint16_t *outputs;         /* the registers the group returns */
    uint64_t *deps;            /* n_regs * FU_DEP_WORDS: the tensor sources (inputs and
                                  pieces, by register) each register reads */
    int16_t *piece;            /* n_regs: the register's FuPiece, else -1 */
    FuPiece *pieces;
    uint16_t n_pieces;
} FuProgram;

/* Compiles a fusion group's Subgraph into a program; NULL with err set when the graph holds
 * anything the fuser did not put there. */
FuProgram *fu_program_compile(const TsGraph *g, TsError *err);
void fu_program_free(FuProgram *p);

/* ---- running (run.c) ---------------------------------------------------------------- */

/* The kernel factory of prim::FusionGroup on the cpu backend. */
int fu_kernel_factory(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                      void (**free_data)(void *), TsError *err);

/* ---- the pass (fuse.c) --------------------------------------------------------------- */

/* Groups runs of fusible pointwise operators into prim::FusionGroup nodes. */
int fu_pass(TsGraph *g, void *ctx, TsError *err);

#endif
