/* nn_out.h — the out= forms of the nn kernels that compute into a new tensor first (pool.c,
 * pool_adaptive.c, nn_extra.c, fold.c): the dtype check each PyTorch kernel makes on an out
 * tensor, in its words, and the copy into it. nn_out.c implements them.
 */
#ifndef TS_ATEN_CPU_NN_OUT_H
#define TS_ATEN_CPU_NN_OUT_H

#include "nn/nn.h"

typedef enum TsNnOutRule {
    TS_NN_OUT_CAST,     /* any dtype the result casts to (pixel_shuffle) */
    TS_NN_OUT_EXPECTED, /* "Expected out tensor to have dtype float, but got double instead" */
    TS_NN_OUT_SCALAR,   /* "expected scalar type Float but found Double" */
    TS_NN_OUT_OUTPUT    /* "expected dtype float for `output` but got dtype double" */
} TsNnOutRule;

/* Checks out against the result's dtype by rule, resizes out to res's shape and copies res
 * into it. res is borrowed. */
int ts_nn_deliver(TsCall *c, const TsTensor *res, TsTensor *out, TsNnOutRule rule);
/* The end of an out= form with nout out tensors (the last nout arguments): releases the
 * other arguments and pushes those in order; or, when rc is set, releases all and returns
 * rc. */
int ts_nn_return_outs(TsArgs *a, size_t nout, int rc);

#endif
