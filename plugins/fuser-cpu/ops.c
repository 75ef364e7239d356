/* ops.c — the pointwise operators the fusers take: which node kinds they are, and their
 * arities. Their arithmetic is fuser-cpu's run.c, written to give bit for bit what aten-cpu's
 * kernels give for float32, so that fusing never changes a result, and fuser-cuda's
 * codegen.c, which writes it as CUDA C.
 */
#include <string.h>

#include "group.h"

static const struct {
    const char *kind;
    size_t n_inputs;           /* the overloads the fuser takes have this many */
    FuOpCode op;
} table[] = {
    { "aten::add", 3, FU_ADD }, { "aten::sub", 3, FU_SUB },
    { "aten::mul", 2, FU_MUL }, { "aten::div", 2, FU_DIV },
    { "aten::neg", 1, FU_NEG }, { "aten::sigmoid", 1, FU_SIGMOID },
    { "aten::tanh", 1, FU_TANH }, { "aten::relu", 1, FU_RELU }, { "aten::exp", 1, FU_EXP },
    { "aten::log", 1, FU_LOG }, { "aten::sqrt", 1, FU_SQRT }, { "aten::rsqrt", 1, FU_RSQRT },
    { "aten::reciprocal", 1, FU_RECIPROCAL }, { "aten::abs", 1, FU_ABS },
};

int fu_op_lookup(const char *kind, size_t n_inputs)
{
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (table[i].n_inputs == n_inputs && strcmp(table[i].kind, kind) == 0)
            return (int)table[i].op;
    return -1;
}

int fu_op_arity(FuOpCode op)
{
    return op <= FU_DIV ? 2 : 1;
}

bool fu_op_has_alpha(FuOpCode op)
{
    return op == FU_ADD || op == FU_SUB;
}
