/* fuse.c — the CPU fusion pass: runs of pointwise float32 operators become
 * prim::FusionGroup nodes.
 *
 * It runs on the executor's optimized copy of a graph (an optimizer pass), where the
 * tensors' dtypes and devices are known from the call's arguments. A node joins a group when
 * it is fusible (group.c) for float32 tensors on the cpu. A group is a run of such nodes
 * that follow each other in their block: nothing moves, so no write can be reordered past a
 * read, and the group runs where its first node ran. A run of one operator is left alone:
 * there is nothing to save.
 */
#include <stdlib.h>

#include "fuser.h"

static const FuTensors cpu_float = { TS_DEV_CPU, 1u << TS_FLOAT32 };

/* A run worth a group: two operators, or one with a folded chunk. */
static int flush(TsGraph *g, FuGroup *r, TsError *err)
{
    if (r->chunk && !fu_group_pieces_inside(r))
        r->chunk = r->unpack = NULL;
    r->n_pre = 0;
    int rc = 0;
    if (r->n >= 2 || (r->chunk && r->n >= 1)) {
        TsGraph *sub = fu_group_subgraph(r, err);
        rc = sub ? fu_group_replace(g, r, sub, err) : -1;
    }
    r->n = 0;
    r->chunk = r->unpack = NULL;
    r->n_pre = 0;
    return rc;
}

static int fuse_block(TsGraph *g, TsBlock *b, TsError *err)
{
    FuGroup *r = malloc(sizeof *r);
    if (!r)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    r->n = 0;
    r->chunk = r->unpack = NULL;
    r->n_pre = 0;
    int rc = 0;
    for (TsNode *n = ts_block_first_node(b), *next; n && !rc; n = next) {
        next = ts_node_next(n);
        /* a chunk ends the run before it, and may start the next */
        if (fu_chunk_fusible(n, next, &cpu_float)) {
            rc = flush(g, r, err);
            r->chunk = n;
            r->unpack = next;
            next = ts_node_next(next);
            continue;
        }
        if (fu_fusible(n, &cpu_float)) {
            r->nodes[r->n++] = n;
            if (r->n == FU_MAX_GROUP)
                rc = flush(g, r, err);
            continue;
        }
        rc = flush(g, r, err);
        for (size_t i = 0; !rc && i < ts_node_num_blocks(n); i++)
            rc = fuse_block(g, ts_node_block(n, i), err);
    }
    if (!rc)
        rc = flush(g, r, err);
    free(r);
    return rc;
}

int fu_pass(TsGraph *g, void *ctx, TsError *err)
{
    (void)ctx;
    return fuse_block(g, ts_graph_block(g), err);
}
