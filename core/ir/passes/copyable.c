/* copyable.c — which nodes a pass may duplicate (the inliner, the loop unroller).
 *
 * Copying a node is safe when what it does depends only on its inputs. A few kernels keep
 * state per node instead: aten::warn prints its warning the first time its node runs, as
 * PyTorch's interpreter warns once per warn node (plugins/prim/env.c binds a flag to each
 * node). Two copies would warn twice where the program warned once, so code holding such
 * a node is not copied.
 */
#include "ir/passes/passes.h"

static bool keeps_node_state(const TsNode *n)
{
    return n->kind == ts_symbol("aten::warn");
}

bool ts_block_copyable(const TsBlock *b)
{
    for (const TsNode *n = b->ret->next; n != b->ret; n = n->next) {
        if (keeps_node_state(n))
            return false;
        for (size_t i = 0; i < n->n_blocks; i++)
            if (!ts_block_copyable(n->blocks[i]))
                return false;
    }
    return true;
}
