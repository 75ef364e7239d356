/* capture.h — prim::CaptureRegion, the executor's CUDA graphs (internal to the core).
 *
 * With cuda_graphs on (ts_runtime_graphs), the capture_regions pass (core/ir/passes) wraps
 * each run of tensor operators of a plan into a prim::CaptureRegion node whose Subgraph is
 * that run. Its kernel (capture.c) runs the Subgraph as any Code, and, once the same input
 * shapes come again on the same thread, has the inputs' backend capture one run of it
 * (TsAllocator.capture, tscript/tensor.h) and replays that capture from then on: one graph
 * launch instead of a launch per operator.
 */
#ifndef TSCRIPT_SCHED_CAPTURE_H
#define TSCRIPT_SCHED_CAPTURE_H

#include "registry/optable.h"

#define TS_CAPTURE_REGION "prim::CaptureRegion"

/* prim::CaptureRegion(...) -> ..., with the core's kernel factory: the Code builder binds
 * region nodes to it (it is in no runtime's table); NULL only when out of memory. */
const TsOperator *ts_capture_operator(void);

#endif
