/* factory.h — what aten-cuda's factories share (factory.c): reading the arguments every
 * factory form takes, and building a tensor's elements on the host. random.c's factories
 * (rand, randn, randint, their _like forms, randperm) use both.
 */
#ifndef TS_ATEN_CUDA_FACTORY_H
#define TS_ATEN_CUDA_FACTORY_H

#include "engine/cuda.h"

/* What a factory call asks for. */
typedef struct TsCudaRequest {
    int dtype;                 /* never -1 after ts_cuda_read_request */
    TsDevice device;           /* index -1: the current device */
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    TsTensor *like;            /* the self of *_like and new_* (borrowed), or NULL */
    TsValue fill;              /* fill_value, or None */
} TsCudaRequest;

/* Reads the arguments a factory's schema has by their names (self, size, fill_value, dtype,
 * device, layout) into q, with PyTorch's defaults and checks. */
int ts_cuda_read_request(TsArgs *a, TsCudaRequest *q);

/* A new tensor of dtype on dev holding n elements built on the host by elem(i), copied over
 * in one transfer. */
TsTensor *ts_cuda_from_host(TsDevice dev, int dtype, int dim, const int64_t *sizes, int64_t n,
                            int (*elem)(void *ctx, int64_t i, int dtype, void *out,
                                        TsError *err),
                            void *ctx, TsError *err);

#endif
