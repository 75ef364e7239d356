/* group.h — what the CPU and CUDA fusers share about making a fusion group: which nodes are
 * fusible for a device and a set of dtypes, and turning a run of nodes into one
 * prim::FusionGroup node whose Subgraph holds them (group.c). Each fuser decides which runs
 * to make (fuser-cpu: nodes that already follow each other; fuser-cuda: chains pulled
 * together by moves the AliasDb allows).
 */
#ifndef TS_FUSER_GROUP_H
#define TS_FUSER_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "tscript/plugin.h"

/* The operators the fusers know, with the forms their overloads take (ops.c). */
typedef enum FuOpCode {
    FU_ADD, FU_SUB, FU_MUL, FU_DIV,               /* binary: x op y (add/sub: x +- alpha * y) */
    FU_NEG, FU_SIGMOID, FU_TANH, FU_RELU, FU_EXP, FU_LOG, FU_SQRT, FU_RSQRT, FU_RECIPROCAL,
    FU_ABS,
    FU_OP__COUNT
} FuOpCode;

/* The op of a node kind and input count that the fusers take ("aten::add" with 3 inputs is
 * add.Tensor or add.Scalar), or -1. Whether its inputs' types fit is fu_fusible's business. */
int fu_op_lookup(const char *kind, size_t n_inputs);
/* How many of its inputs are operands (1 or 2); an add/sub has alpha after them. */
int fu_op_arity(FuOpCode op);
bool fu_op_has_alpha(FuOpCode op);

/* The most pieces a folded chunk may have. */
#define FU_MAX_CHUNKS 16

/* The nodes of one group: at most 3 inputs each (x, y, alpha). */
#define FU_MAX_GROUP 64
/* The most nodes a group takes before a folded chunk, and tensors it then chunks. */
#define FU_MAX_PRE 16

/* The tensors a fuser takes: a device type and a set of dtypes (bit 1 << TsDType). */
typedef struct FuTensors {
    int device_type;
    uint32_t dtypes;
} FuTensors;

/* A run in the making: its nodes in block order, following each other, optionally after
 * x.chunk(N, dim) unpacked into its pieces (an LSTM cell's gates): the group then takes x
 * and makes the pieces itself (prim::ConstantChunk in its Subgraph), which saves two
 * operators and a list per call.
 *
 * x may itself be computed in the group by pre nodes (fuser-cuda: `gates = a + b + bias`,
 * whose results nothing outside uses): the chunk then moves to the tensors they read, each
 * broadcast to x's shape first (prim::BroadcastingChunk in the Subgraph, its outputs piece
 * c of input j at j * chunks + c), and the pre nodes are computed once per piece — x, the
 * whole gates, is never written. A pre node may be a product (aten::mm, as `x.mm(w.t())`):
 * it stays whole in the Subgraph, before the BroadcastingChunk, which splits its result. inputs/outputs: the values crossing its boundary, filled
 * by fu_group_subgraph. */
typedef struct FuGroup {
    TsNode *chunk, *unpack;    /* the folded aten::chunk and its prim::ListUnpack, or NULL */
    TsNode *pre[FU_MAX_PRE];   /* the nodes computing the chunk's input, in block order */
    size_t n_pre;
    TsNode *nodes[FU_MAX_GROUP];
    size_t n;
    TsIrValue *inputs[3 * (FU_MAX_GROUP + FU_MAX_PRE)], *outputs[FU_MAX_GROUP];
    size_t n_inputs, n_outputs;
} FuGroup;

/* Is n an operator of ops.c whose tensors are all of one dtype of ts, on ts's device, and
 * whose other operands are ints or floats? */
bool fu_fusible(const TsNode *n, const FuTensors *ts);
/* Is n aten::mm(a, b) of two tensors of one dtype of ts on its device (fuser-cuda takes it
 * as a pre node: the group computes the product's elements itself when it is small)? */
bool fu_mm_fusible(const TsNode *n, const FuTensors *ts);
/* Is n an aten::mm node (of any types)? */
bool fu_is_mm(const TsNode *n);
/* Is n x.chunk(N, dim) with constant N (at most FU_MAX_CHUNKS) and dim, of a tensor ts
 * takes, whose list only unpack (a prim::ListUnpack) unpacks, into pieces of that dtype? */
bool fu_chunk_fusible(const TsNode *n, const TsNode *unpack, const FuTensors *ts);
/* Is n in the group (its chunk and unpack included)? */
bool fu_group_has(const FuGroup *r, const TsNode *n);
/* Is every use of the folded chunk's pieces in the group (a piece used after it would have
 * to be a group output that aliases the group's input)? */
bool fu_group_pieces_inside(const FuGroup *r);
/* The group's boundary (r->inputs, r->outputs) and its Subgraph: its nodes over the group's
 * inputs, with the constants they use copied in. NULL with err when out of memory. */
TsGraph *fu_group_subgraph(FuGroup *r, TsError *err);
/* Replaces the group's nodes by one prim::FusionGroup node with Subgraph sub (taken, freed
 * on failure), placed where the group's first node was. */
int fu_group_replace(TsGraph *g, FuGroup *r, TsGraph *sub, TsError *err);
/* For a kernel factory: the Subgraph of the prim::FusionGroup node being bound (borrowed),
 * and whether what the fuser made of it takes and returns as many values as the node. */
int fu_bound_subgraph(const TsNodeInfo *node, TsGraph **sub, TsError *err);
int fu_check_arity(const TsNodeInfo *node, size_t n_inputs, size_t n_outputs, TsError *err);

/* Piece index of t.chunk(chunks, dim): the view aten::chunk makes, with its errors, and the
 * count prim::ListUnpack would have checked ("Expected 4 elements in a list but found 2"). */
TsTensor *fu_chunk_piece(const TsTensor *t, int64_t index, int64_t chunks, int64_t dim,
                         TsError *err);
/* The piece index of chunks along dim of a view (dim, sizes, strides, *offset), in place:
 * fu_chunk_piece's arithmetic and errors without a tensor. */
int fu_chunk_view(int n, int64_t *sizes, const int64_t *strides, int64_t *offset,
                  int64_t index, int64_t chunks, int64_t dim, TsError *err);
/* The same piece of t expanded to the shape (dim, sizes) first (t broadcasts to it: the
 * caller computed it as the broadcast of t and its fellow inputs): a prim::BroadcastingChunk
 * output. */
TsTensor *fu_broadcast_piece(const TsTensor *t, int dim, const int64_t *sizes, int64_t index,
                             int64_t chunks, int64_t chunk_dim, TsError *err);

#endif
