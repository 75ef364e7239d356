/* shape.h — what shape_prop knows about a tensor value, and the operator rules that derive
 * an operator's output facts from its inputs' (shape_rules.c, shape_views.c,
 * shape_factory.c).
 *
 * A TsShape is a TsTensorTypeInfo (tscript/types.h) with room for its sizes: dtype, device,
 * rank, sizes and strides, requires_grad, each -1 where unknown. The rules state only what
 * holds for every run that gets past the operator: an operator they do not know, or inputs
 * whose facts do not decide a field, leave it unknown. They never guess: the refined types
 * are facts that later passes (peephole) rely on.
 */
#ifndef TSCRIPT_IR_PASSES_SHAPE_H
#define TSCRIPT_IR_PASSES_SHAPE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/passes/passes.h"
#include "tscript/tensor.h"

/* shape_prop handles at most this rank (more: unknown rank) */
#define TS_SHAPE_MAX_DIMS 16

/* A rule leaves these for shape_prop to derive from the inputs (see shape_prop.c). */
#define TS_SHAPE_DERIVE (-2)

typedef struct TsShape {
    int dtype;                 /* TsDType, or -1 */
    int device_type;           /* -1 unknown; TS_SHAPE_DERIVE: the inputs' common device */
    int device_index;
    int dim;                   /* rank, or -1 */
    int requires_grad;         /* 0, 1, -1; TS_SHAPE_DERIVE: from the inputs (shape_prop.c) */
    bool has_strides;
    int64_t sizes[TS_SHAPE_MAX_DIMS];   /* -1: that size unknown */
    int64_t strides[TS_SHAPE_MAX_DIMS];
} TsShape;

/* ---- facts (shape_prop.c) ------------------------------------------------------------- */
void ts_shape_unknown(TsShape *s);
/* The facts v's type states (all unknown for a value that is not a Tensor). */
void ts_shape_of(const TsIrValue *v, TsShape *s);
/* The Tensor type refined by s; NULL only when out of memory. */
const TsType *ts_shape_type(const TsShape *s);
/* Contiguous strides for s's known sizes (has_strides false when a size is unknown). */
void ts_shape_set_contiguous(TsShape *s);
/* Is v a Tensor-typed value (refined or not)? */
bool ts_shape_is_tensor(const TsIrValue *v);

/* ---- constants the rules read (shape_rules.c) -------------------------------------------- */
/* The int constant v holds: true and *out, or false. */
bool ts_shape_const_int(const TsIrValue *v, int64_t *out);
bool ts_shape_const_bool(const TsIrValue *v, bool *out);
bool ts_shape_is_none(const TsIrValue *v);
/* Is every use of v a read by an operator that keeps no alias of it (so a list built here
 * keeps what it was built with)? */
bool ts_shape_list_only_read(const TsIrValue *v);
/* An int[] that never changes: a constant list, or a prim::ListConstruct only read. Its
 * elements in out (-1 where not a constant... see known), n; false when v is no such list
 * or longer than TS_SHAPE_MAX_DIMS. known[i] says whether element i is a constant. */
bool ts_shape_int_list(const TsIrValue *v, int64_t *out, bool *known, int *n);
/* A dtype argument: the constant ScalarType (>= 0), -1 for None, -2 when not a constant. */
int ts_shape_const_dtype(const TsIrValue *v);
/* Wraps dim for a tensor of rank dim as PyTorch does (a scalar's dim is 0 or -1): false
 * when out of range. */
bool ts_shape_wrap_dim(int64_t d, int rank, int *out);

/* ---- promotion (shape_rules.c) ------------------------------------------------------------ */
/* c10's promoteTypes over the 13 ordinary dtypes; -1 for a pair it refuses or an unknown. */
int ts_shape_promote(int a, int b);
/* Broadcasts b into a (in place), as PyTorch's infer_size: unknown rank stays unknown. */
void ts_shape_broadcast(TsShape *a, const TsShape *b);

/* ---- the rules -------------------------------------------------------------------------- */
/* Fills out[0 .. n->n_outputs) with the facts of n's outputs (all unknown when no rule
 * knows n; device_type / requires_grad may be TS_SHAPE_DERIVE). env->rt may be NULL. */
void ts_shape_rule(const TsNode *n, const TsPassEnv *env, TsShape *out);
/* The rules by family, each true when it knew n. */
bool ts_shape_rule_pointwise(const TsNode *n, TsShape *out);       /* shape_rules.c */
bool ts_shape_rule_reduce(const TsNode *n, TsShape *out);          /* shape_rules.c */
bool ts_shape_rule_view(const TsNode *n, TsShape *out);            /* shape_views.c */
bool ts_shape_rule_linalg(const TsNode *n, TsShape *out);          /* shape_views.c */
bool ts_shape_rule_window(const TsNode *n, TsShape *out);          /* shape_views.c */
bool ts_shape_rule_factory(const TsNode *n, const TsPassEnv *env, TsShape *out);
                                                                   /* shape_factory.c */

#endif
