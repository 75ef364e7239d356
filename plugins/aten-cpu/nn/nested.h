/* nested.h — aten-cpu's stand-in for PyTorch's nested tensors (nested.c), as far as
 * nn.TransformerEncoder uses them: a batch of sequences of different lengths.
 *
 * A nested tensor here is a dense [batch, max length, features] tensor whose rows past each
 * sequence's length are zero, marked with TS_CPU_NESTED, with the lengths stored in its own
 * storage just past the elements. Only nested.c makes them and only the ops that know them
 * (to_padded_tensor, _transformer_encoder_layer_fwd, prim::is_nested) read the lengths; any
 * other op sees the padded tensor.
 */
#ifndef TS_ATEN_CPU_NESTED_H
#define TS_ATEN_CPU_NESTED_H

#include "engine/elementwise.h"

/* A new nested tensor of dtype: batch sequences of the given lengths (each <= len), feat
 * features, all elements zero. */
TsTensor *ts_cpu_nested_new(TsError *err, int dtype, int64_t batch, int64_t len, int64_t feat,
                            const int64_t *lengths);
/* The lengths of a nested tensor (batch entries, borrowed), or NULL when t is not one. */
const int64_t *ts_cpu_nested_lengths(const TsTensor *t);

#endif
