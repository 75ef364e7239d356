/* graph.c — CUDA graphs: the "cuda" allocator's TsCaptureOps (tensor.h), by which the
 * executor records the kernels a region of a graph queues once and replays them with one
 * launch, saving each kernel's launch cost.
 *
 * begin makes a private memory pool (alloc.c) and the static inputs from it, makes the pool
 * the thread's capturing pool and starts capturing the thread's stream (TS_CUDA_STREAM,
 * where the plugin's kernels, cuBLAS and the fuser's launches all go). The region then
 * runs: its kernels are recorded, not run, and every tensor it allocates or frees stays in
 * the pool, since each replay writes to the addresses the capture saw.
 *
 * end takes the recorded body and builds the graph that is replayed:
 *
 *     [copy-in kernel] -> [child node: the body] -> [copy-out kernel]
 *
 * copy-in fills the static inputs from a replay's actual inputs (those not stable, which
 * are read where they are), copy-out moves the static outputs into new tensors from the
 * ordinary cache, so a replay's results are the caller's to keep while the next replay
 * overwrites the static ones. A replay sets both nodes' addresses
 * (cudaGraphExecKernelNodeSetParams) and launches the graph; sizes and launch shapes never
 * change, since the inputs must match what was captured. A dense output (its elements fill
 * one span) comes back with its own strides; any other (a strided view, an expanded one)
 * comes back contiguous, copied element by element.
 *
 * The capture is begun in thread-local mode: besides what no capture allows (waiting for
 * the stream, host copies), CUDA then refuses on this thread the calls that are unsafe
 * under a capture (cudaMalloc, cudaFree: not recorded, and possibly synchronizing), so a
 * library that makes one fails the capture and the executor runs the region without one,
 * rather than a replay going wrong; other threads go on untouched (global mode would
 * refuse their cudaMalloc too; relaxed mode would refuse nothing). The one such call that
 * is right here, the pool's cudaMalloc, runs in relaxed mode (alloc.c).
 *
 * Memory: everything the recorded work touches is the pool's until discard (alloc.c): the
 * static inputs and outputs, which the capture holds, and whatever the region allocated and
 * freed. The tensors the capture run returned hold nothing computed (only a replay
 * computes) and go back to the pool when the caller drops them; a static input or output
 * the caller still holds at discard becomes an ordinary block, freed to the cache when the
 * caller lets it go. A region that writes to an input that is not stable writes its static
 * copy, not the caller's tensor: replays lose that write (the executor captures no such
 * region).
 *
 * Threads: begin, end and the run between them happen on one thread. Replays may come from
 * any thread, one at a time (a lock): when the thread changes, the new one's stream first
 * waits for the last replay (an event, recorded once the allocator orders threads' streams
 * with events; before that there is only one thread). discard may run on any thread, but a
 * capture still in progress can only be ended on its own thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cuda.h"
#include "engine/graph.h"

typedef struct Input {
    TsTensor *seen;            /* stable: the input's layout and address as captured (its
                                  memory not kept); else the static tensor the recorded
                                  work reads */
    bool stable;
} Input;

struct TsCapture {
    pthread_mutex_t lock;      /* replays take turns */
    TsCudaPool *pool;
    int device;
    pthread_t thread;          /* who captures, then who replayed last */
    bool capturing;            /* the stream of thread is capturing for this */
    bool recorded;             /* done marks the end of thread's last work on the graph */
    cudaEvent_t done;
    size_t n_in, n_out;
    Input *in;
    TsTensor **out;            /* static outputs: views of the captured ones */
    cudaGraph_t root;
    cudaGraphExec_t exec;
    cudaGraphNode_t copy_in, copy_out;  /* NULL when there is nothing to copy */
    TsCudaCopyIn cin;          /* sizes set by end; addresses by each replay */
    TsCudaCopyOut cout;
};

static int failed(TsError *err, cudaError_t rc)
{
    (void)cudaGetLastError();
    return ts_error_set(err, rc == cudaErrorMemoryAllocation ? TS_ERR_NOMEM : TS_ERR_RUNTIME,
                        "CUDA graph capture failed: %s", cudaGetErrorString(rc));
}

/* ---- layouts ------------------------------------------------------------------------ */

/* Whether t's elements fill one span of memory starting at element 0: strides, taken
 * smallest first, each the product of the sizes before it (dims of size 1 aside). */
static bool dense(const TsTensor *t)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS], expect = 1;
    int n = 0;
    for (int d = 0; d < t->dim; d++) {
        if (t->sizes[d] == 0)
            return true;
        if (t->sizes[d] == 1)
            continue;
        int k = n++;
        for (; k > 0 && strides[k - 1] > t->strides[d]; k--) {
            strides[k] = strides[k - 1];
            sizes[k] = sizes[k - 1];
        }
        strides[k] = t->strides[d];
        sizes[k] = t->sizes[d];
    }
    for (int k = 0; k < n; k++) {
        if (strides[k] != expect)
            return false;
        expect *= sizes[k];
    }
    return true;
}

static size_t nbytes_of(const TsTensor *t)
{
    return (size_t)ts_tensor_numel(t) * ts_dtype_size(t->dtype);
}

/* Same dtype, device, sizes and strides (a stride along a dim of size 1, or of a tensor of
 * no elements, walks nothing and may differ). */
static bool same_layout(const TsTensor *a, const TsTensor *b)
{
    if (a->dtype != b->dtype || a->dim != b->dim || a->device.type != b->device.type ||
        a->device.index != b->device.index)
        return false;
    bool empty = false;
    for (int d = 0; d < a->dim; d++) {
        if (a->sizes[d] != b->sizes[d])
            return false;
        empty = empty || a->sizes[d] == 0;
    }
    for (int d = 0; d < a->dim && !empty; d++)
        if (a->sizes[d] > 1 && a->strides[d] != b->strides[d])
            return false;
    return true;
}

/* A new tensor with t's layout and device at t's address: over t's storage (kept: the
 * static outputs), or over a borrowed one (the stable inputs, whose memory their caller
 * keeps where it is for each replay; holding it here would keep the next calls' tensors
 * from landing at the same address, and the input would never be stable again). */
static TsTensor *view_of(const TsTensor *t, bool keep, TsError *err)
{
    TsStorage *s = t->storage;
    if (s && !keep && (s = ts_storage_borrow(s->data, s->nbytes, s->device, err)) == NULL)
        return NULL;
    TsTensor *v = ts_tensor_new(s, t->dtype, t->dim, t->sizes, t->strides, t->offset, err);
    if (!keep)
        ts_storage_release(s);
    if (v)
        v->device = t->device;     /* an empty tensor may have no storage to say it */
    return v;
}

/* A tensor of t's sizes and dtype over new memory of exactly its elements: with t's
 * strides when strided, else contiguous (t dense: same strides, one span). */
static TsTensor *like(const TsTensor *t, bool strided, TsError *err)
{
    TsStorage *s = ts_storage_new(&ts_cuda_allocator, nbytes_of(t), t->device, err);
    TsTensor *r = s ? ts_tensor_new(s, t->dtype, t->dim, t->sizes, strided ? t->strides : NULL,
                                    0, err)
                    : NULL;
    ts_storage_release(s);
    return r;
}

/* ---- begin -------------------------------------------------------------------------- */

static int check_input(const TsTensor *t, bool stable, int device, size_t i, TsError *err)
{
    if (!t || t->device.type != TS_DEV_CUDA || t->device.index != device)
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: input %zu is not a "
                            "tensor on the current device (cuda:%d)", i, device);
    if (!ts_dtype_size(t->dtype) || (!t->storage && ts_tensor_numel(t) > 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: input %zu has no data",
                            i);
    if (!stable && !dense(t))
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: input %zu is not "
                            "dense (its elements do not fill one span of memory)", i);
    return 0;
}

static void discard(TsCapture *c);

/* The capture object with its pool and the inputs as the region will see them. */
static TsCapture *prepare(size_t n, TsTensor *const *in, const bool *stable, int device,
                          TsError *err)
{
    TsCapture *c = calloc(1, sizeof *c);
    if (!c || (c->in = calloc(n ? n : 1, sizeof *c->in)) == NULL ||
        (c->pool = ts_cuda_pool_new()) == NULL) {
        free(c ? c->in : NULL);
        free(c);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory starting a CUDA graph capture");
        return NULL;
    }
    pthread_mutex_init(&c->lock, NULL);
    c->device = device;
    c->thread = pthread_self();
    c->n_in = n;
    ts_cuda_pool_capture(c->pool);      /* the static inputs are the pool's too */
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        c->in[i].stable = stable[i];
        c->in[i].seen = stable[i] ? view_of(in[i], false, err) : like(in[i], true, err);
        rc = c->in[i].seen ? 0 : err->code;
    }
    ts_cuda_pool_capture(NULL);
    if (rc) {
        discard(c);
        return NULL;
    }
    return c;
}

static TsCapture *begin(size_t n, TsTensor *const *in, const bool *stable,
                        TsTensor **static_in, TsError *err)
{
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    for (size_t i = 0; i < n; i++)
        static_in[i] = NULL;
    if (ts_cuda_ready(err))
        return NULL;
    if (ts_cuda_pool_capturing() ||
        cudaStreamIsCapturing(TS_CUDA_STREAM, &status) != cudaSuccess ||
        status != cudaStreamCaptureStatusNone) {
        (void)cudaGetLastError();
        ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: this thread is already "
                     "capturing");
        return NULL;
    }
    if (n > TS_CUDA_GRAPH_MAX_IN) {
        ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: %zu inputs (at most %d)", n,
                     TS_CUDA_GRAPH_MAX_IN);
        return NULL;
    }
    int device = ts_cuda_current_device().index;
    for (size_t i = 0; i < n; i++)
        if (check_input(in[i], stable[i], device, i, err))
            return NULL;
    TsCapture *c = prepare(n, in, stable, device, err);
    if (!c)
        return NULL;
    cudaError_t rc = cudaStreamBeginCapture(TS_CUDA_STREAM, cudaStreamCaptureModeThreadLocal);
    if (rc != cudaSuccess) {
        failed(err, rc);
        discard(c);
        return NULL;
    }
    c->capturing = true;
    ts_cuda_pool_capture(c->pool);
    for (size_t i = 0; i < n; i++)
        if (!stable[i]) {
            ts_tensor_retain(c->in[i].seen);
            static_in[i] = c->in[i].seen;
        }
    return c;
}

/* ---- end ---------------------------------------------------------------------------- */

/* Ends the capture on its thread: the recorded body (NULL when it failed). Whatever the
 * outcome, the stream and the thread's allocations are back to normal after it. */
static cudaError_t stop(TsCapture *c, cudaGraph_t *body)
{
    *body = NULL;
    cudaError_t rc = cudaStreamEndCapture(TS_CUDA_STREAM, body);
    if (rc != cudaSuccess && *body) {
        (void)cudaGraphDestroy(*body);
        *body = NULL;
    }
    if (rc == cudaSuccess && !*body)
        rc = cudaErrorStreamCaptureInvalidated;
    c->capturing = false;
    ts_cuda_pool_capture(NULL);
    return rc;
}

/* The input whose storage t's storage is (a view of an input shares its storage). */
static bool is_input(const TsCapture *c, const TsTensor *t)
{
    for (size_t i = 0; i < c->n_in; i++) {
        const TsStorage *s = c->in[i].seen->storage;
        if (s && (s == t->storage || s->data == t->storage->data))
            return true;
    }
    return false;
}

/* t's dims in order without those of size 1, neighbours merged where they walk memory as
 * one dim; their count, or -1 when more than TS_CUDA_MAX_DIMS remain. */
static int merged_dims(const TsTensor *t, int64_t *sizes, int64_t *strides)
{
    int n = 0;
    for (int d = 0; d < t->dim; d++) {
        if (t->sizes[d] == 1)
            continue;
        if (n > 0 && strides[n - 1] == t->strides[d] * t->sizes[d]) {
            sizes[n - 1] *= t->sizes[d];
            strides[n - 1] = t->strides[d];
        } else if (n == TS_CUDA_MAX_DIMS) {
            return -1;
        } else {
            sizes[n] = t->sizes[d];
            strides[n++] = t->strides[d];
        }
    }
    return n;
}

/* Checks output j and describes its copy-out (its destination set by each replay). */
static int add_output(TsCapture *c, size_t j, const TsTensor *t, TsError *err)
{
    if (!t || t->device.type != TS_DEV_CUDA || t->device.index != c->device || !t->storage)
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: output %zu is not a "
                            "tensor on the capturing device", j);
    if (is_input(c, t))
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: output %zu is an input "
                            "or a view of one", j);
    if (!ts_cuda_pool_owns(c->pool, t->storage->data))
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: output %zu was not "
                            "made by the captured work", j);
    for (size_t k = 0; k < j; k++)
        if (c->out[k]->storage->data == t->storage->data)
            return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: outputs %zu and %zu "
                                "share memory", k, j);
    TsCudaGather *g = &c->cout.out[j];
    memset(g, 0, sizeof *g);
    g->src = ts_tensor_data(t);
    if (dense(t)) {
        g->n = (int64_t)nbytes_of(t);
    } else {
        int dim = merged_dims(t, g->sizes, g->strides);
        if (dim < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: output %zu has too "
                                "many dimensions to copy (at most %d after merging)", j,
                                TS_CUDA_MAX_DIMS);
        g->dim = dim;
        g->n = ts_tensor_numel(t);
        g->elem = (int32_t)ts_dtype_size(t->dtype);
    }
    c->out[j] = view_of(t, true, err);
    return c->out[j] ? 0 : err->code;
}

/* The graph a replay launches: copy-in -> body -> copy-out, instantiated. */
static cudaError_t build(TsCapture *c, cudaGraph_t body)
{
    struct cudaKernelNodeParams np;
    void *args[1];
    cudaGraphNode_t child = NULL;
    cudaError_t rc = cudaGraphCreate(&c->root, 0);
    for (size_t i = 0; i < c->n_in; i++) {
        if (c->in[i].stable)
            continue;
        TsCudaSpan *s = &c->cin.span[c->cin.n++];
        s->dst = ts_tensor_data(c->in[i].seen);
        s->src = s->dst;                 /* until a replay sets the input's */
        s->nbytes = (int64_t)nbytes_of(c->in[i].seen);
    }
    if (rc == cudaSuccess && c->cin.n) {
        ts_cuda_copy_in_node(&c->cin, args, &np);
        rc = cudaGraphAddKernelNode(&c->copy_in, c->root, NULL, 0, &np);
    }
    if (rc == cudaSuccess)
        rc = cudaGraphAddChildGraphNode(&child, c->root, c->copy_in ? &c->copy_in : NULL,
                                        c->copy_in ? 1 : 0, body);
    if (rc == cudaSuccess && c->n_out) {
        c->cout.n = (int)c->n_out;
        ts_cuda_copy_out_node(&c->cout, args, &np);
        rc = cudaGraphAddKernelNode(&c->copy_out, c->root, &child, 1, &np);
    }
    if (rc == cudaSuccess)
        rc = cudaGraphInstantiate(&c->exec, c->root, 0);
    return rc;
}

/* Marks the end of this thread's work on the graph for a replay on another thread: an
 * event when events order threads (shared), else nothing is needed (one thread). */
static void mark_done(TsCapture *c, bool shared)
{
    c->thread = pthread_self();
    c->recorded = false;
    if (!shared)
        return;
    if (!c->done && cudaEventCreateWithFlags(&c->done, cudaEventDisableTiming) != cudaSuccess)
        c->done = NULL;
    if (c->done && cudaEventRecord(c->done, TS_CUDA_STREAM) == cudaSuccess) {
        c->recorded = true;
        return;
    }
    (void)cudaGetLastError();
    (void)cudaStreamSynchronize(TS_CUDA_STREAM);  /* then there is nothing to wait for */
    (void)cudaGetLastError();
}

static int end(TsCapture *c, size_t n_out, TsTensor *const *out, TsError *err)
{
    if (!c->capturing || !pthread_equal(c->thread, pthread_self()))
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture failed: this thread is "
                            "not capturing it");
    cudaGraph_t body = NULL;
    cudaError_t crc = stop(c, &body);
    if (crc != cudaSuccess)
        return failed(err, crc);
    int rc = 0;
    if (n_out > TS_CUDA_GRAPH_MAX_OUT)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph capture: %zu outputs (at most %d)",
                          n_out, TS_CUDA_GRAPH_MAX_OUT);
    else if (n_out && (c->out = calloc(n_out, sizeof *c->out)) == NULL)
        rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory ending a CUDA graph capture");
    c->n_out = rc ? 0 : n_out;
    for (size_t j = 0; j < c->n_out && !rc; j++)
        rc = add_output(c, j, out[j], err);
    if (!rc && (crc = build(c, body)) != cudaSuccess)
        rc = failed(err, crc);
    (void)cudaGraphDestroy(body);       /* the root holds its own copy */
    if (!rc)
        mark_done(c, ts_cuda_alloc_shared());
    return rc;
}

/* ---- replay ------------------------------------------------------------------------- */

static int check_replay_input(const TsCapture *c, size_t i, const TsTensor *t, TsError *err)
{
    const Input *in = &c->in[i];
    if (!t || !same_layout(t, in->seen) || (!t->storage && ts_tensor_numel(t) > 0) ||
        (in->stable && ts_tensor_data(t) != ts_tensor_data(in->seen)))
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph replay: input %zu is not as "
                            "captured (dtype, device, sizes, strides%s)", i,
                            in->stable ? " or address" : "");
    return 0;
}

/* Sets the copy nodes' addresses for in and the new outputs out, and launches. */
static cudaError_t launch(TsCapture *c, TsTensor *const *in, TsTensor **out)
{
    struct cudaKernelNodeParams np;
    void *args[1];
    cudaError_t rc = cudaSuccess;
    for (size_t i = 0, k = 0; i < c->n_in; i++)
        if (!c->in[i].stable)
            c->cin.span[k++].src = ts_tensor_data(in[i]);
    for (size_t j = 0; j < c->n_out; j++)
        c->cout.out[j].dst = ts_tensor_data(out[j]);
    if (c->copy_in) {
        ts_cuda_copy_in_node(&c->cin, args, &np);
        rc = cudaGraphExecKernelNodeSetParams(c->exec, c->copy_in, &np);
    }
    if (rc == cudaSuccess && c->copy_out) {
        ts_cuda_copy_out_node(&c->cout, args, &np);
        rc = cudaGraphExecKernelNodeSetParams(c->exec, c->copy_out, &np);
    }
    if (rc == cudaSuccess && c->recorded && !pthread_equal(c->thread, pthread_self()))
        rc = cudaStreamWaitEvent(TS_CUDA_STREAM, c->done, 0);
    if (rc == cudaSuccess)
        rc = cudaGraphLaunch(c->exec, TS_CUDA_STREAM);
    return rc;
}

static int replay(TsCapture *c, size_t n, TsTensor *const *in, TsTensor **out, TsError *err)
{
    for (size_t j = 0; j < c->n_out; j++)
        out[j] = NULL;
    if (!c->exec)
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph replay: the capture did not end");
    if (n != c->n_in)
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph replay: %zu inputs, captured "
                            "with %zu", n, c->n_in);
    for (size_t i = 0; i < n; i++)
        if (check_replay_input(c, i, in[i], err))
            return err->code;
    if (ts_cuda_pool_capturing())
        return ts_error_set(err, TS_ERR_RUNTIME, "CUDA graph replay: this thread is "
                            "capturing");
    TsDevice dev = { TS_DEV_CUDA, (int16_t)c->device };
    int rc = ts_cuda_use_device(dev, err);
    if (rc)
        return rc;
    pthread_mutex_lock(&c->lock);
    bool shared = ts_cuda_alloc_shared();
    for (size_t j = 0; j < c->n_out && !rc; j++)
        if ((out[j] = like(c->out[j], c->cout.out[j].elem == 0, err)) == NULL)
            rc = err->code;
    cudaError_t crc = rc ? cudaSuccess : launch(c, in, out);
    if (crc != cudaSuccess)
        rc = ts_cuda_check(crc, "CUDA graph replay", err);
    if (!rc)
        mark_done(c, shared);
    pthread_mutex_unlock(&c->lock);
    for (size_t j = 0; j < c->n_out && rc; j++) {
        ts_tensor_release(out[j]);
        out[j] = NULL;
    }
    return rc;
}

/* ---- discard ------------------------------------------------------------------------ */

/* Everything of c, at any step. The graph's blocks go back to the cache as freed by the
 * thread that queued the last work on them: that thread reuses them in its stream's order,
 * any other waits for the device first (alloc.c), so nothing here waits. A graph still
 * running when its exec is destroyed finishes first (CUDA frees it then). */
static void discard(TsCapture *c)
{
    if (!c)
        return;
    if (c->capturing) {
        if (!pthread_equal(c->thread, pthread_self()))
            return;    /* only its thread can end it: leaked rather than freed under it */
        cudaGraph_t body = NULL;
        (void)stop(c, &body);
        (void)cudaGetLastError();
    }
    if (c->exec)
        (void)cudaGraphExecDestroy(c->exec);
    if (c->root)
        (void)cudaGraphDestroy(c->root);
    if (c->done)
        (void)cudaEventDestroy(c->done);
    (void)cudaGetLastError();
    /* released before the pool goes: blocks no one else holds return to it */
    for (size_t i = 0; i < c->n_in; i++)
        ts_tensor_release(c->in[i].seen);
    for (size_t j = 0; j < c->n_out; j++)
        ts_tensor_release(c->out[j]);
    ts_cuda_pool_free(c->pool, c->thread);
    pthread_mutex_destroy(&c->lock);
    free(c->in);
    free(c->out);
    free(c);
}

const TsCaptureOps ts_cuda_capture_ops = { begin, end, replay, discard };
