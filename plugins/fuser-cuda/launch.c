/* launch.c — running a fusion group on a cuda device: the kernel factory of
 * prim::FusionGroup on the cuda backend, and the kernel it binds.
 *
 * Binding generates the group's kernel source again (codegen.c: it is a function of the
 * Subgraph) and takes its PTX from the cache, where the pass left it. The first call on a
 * device loads the PTX into the device's primary context — the context CUDA's runtime, and
 * so aten-cuda, uses — and every call launches on the per-thread default stream, where
 * aten-cuda runs its work, so that the group's reads and writes are ordered with the
 * operators around it without any synchronization.
 *
 * A call broadcasts each output's inputs to its shape, allocates the outputs (contiguous,
 * from the cuda backend's allocator), and launches once per distinct output shape (usually
 * once), telling the kernel which tensors to read and which outputs to write, and whether
 * everything it reads is contiguous in that shape (the fast path).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fuser.h"

#define THREADS 256
#define MAX_BLOCKS 65535
#define MAX_DEVICES 16

/* A bound group: its kernel, and the kernel's function on each device it ran on. */
typedef struct Bound {
    FcKernel *k;
    const char *ptx;           /* the cache's */
    double mm_limit;           /* fused_mm_limit(), read once at binding */
    pthread_mutex_t lock;      /* loading */
    struct Loaded {
        FcContext ctx;         /* the device's primary context, retained; NULL: not loaded */
        FcModule module;
        FcFunction fn;
    } dev[MAX_DEVICES];
} Bound;

/* Where a piece of a product the kernel computes lies in the product: no tensor holds it. */
typedef struct View {
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS], offset;
} View;

/* A call: its tensor arguments and outputs, and the kernel's parameter. */
typedef struct Call {
    TsCall *c;
    const FcKernel *k;
    bool mm_on[FC_MAX_MM];         /* the kernel computes product m's elements */
    const TsTensor *mm_a[FC_MAX_MM], *mm_b[FC_MAX_MM];  /* its operands (borrowed) */
    TsTensor *mm_out[FC_MAX_MM];   /* else aten::mm's result (owned) */
    View *view;                    /* per slot, for pieces of products computed in the
                                      kernel (slot[s] NULL); NULL when there are none */
    TsTensor *slot[FC_MAX_SLOTS];  /* inputs borrowed, pieces owned */
    TsTensor *out[FC_MAX_SLOTS];   /* owned until pushed */
    int out_dim[FC_MAX_SLOTS];
    int64_t out_sizes[FC_MAX_SLOTS][FC_MAX_RANK];
    uint64_t words[FC_MAX_PARAM_BYTES / 8];
    int device;                /* the cuda device index of the tensors */
} Call;

static int fail(TsCall *c, const char *fmt, size_t i)
{
    return ts_error_set(c->error, TS_ERR_RUNTIME, fmt, i);
}

/* ---- loading --------------------------------------------------------------------------- */

/* The kernel's function on the call's device, its context made current. */
static int function_of(Bound *b, int device, FcFunction *fn, TsError *err)
{
    const FcDriver *d = fc_driver(err);
    if (!d)
        return err->code;
    if (device < 0 || device >= MAX_DEVICES || device >= d->n_devices)
        return ts_error_set(err, TS_ERR_RUNTIME, "prim::FusionGroup (cuda): no CUDA device %d",
                            device);
    struct Loaded *l = &b->dev[device];
    int rc = 0;
    FcResult r;
    pthread_mutex_lock(&b->lock);
    if (!l->ctx) {
        int dev;
        FcContext ctx = NULL;
        if ((r = d->device_get(&dev, device)) || (r = d->primary_ctx_retain(&ctx, dev)))
            rc = fc_driver_error(d, r, "getting the device's context", err);
        else if ((r = d->ctx_set_current(ctx)) || (r = d->module_load_data(&l->module, b->ptx)))
            rc = fc_driver_error(d, r, "loading the fusion kernel", err);
        else if ((r = d->module_get_function(&l->fn, l->module, "fusion"))) {
            rc = fc_driver_error(d, r, "finding the fusion kernel", err);
            d->module_unload(l->module);
        }
        if (!rc)
            l->ctx = ctx;
        else if (ctx)
            d->primary_ctx_release(dev);
    }
    pthread_mutex_unlock(&b->lock);
    if (rc)
        return rc;
    FcContext cur = NULL;
    if ((r = d->ctx_get_current(&cur)) || (cur != l->ctx && (r = d->ctx_set_current(l->ctx))))
        return fc_driver_error(d, r, "making the device's context current", err);
    *fn = l->fn;
    return 0;
}

static void free_bound(void *p)
{
    Bound *b = p;
    TsError err = TS_ERROR_INIT;
    const FcDriver *d = NULL;
    for (int i = 0; i < MAX_DEVICES; i++) {
        if (!b->dev[i].ctx)
            continue;
        if (!d)
            d = fc_driver(&err);
        int dev;
        if (d && d->ctx_set_current(b->dev[i].ctx) == 0)
            d->module_unload(b->dev[i].module);
        if (d && d->device_get(&dev, i) == 0)
            d->primary_ctx_release(dev);
    }
    ts_error_clear(&err);
    pthread_mutex_destroy(&b->lock);
    fc_kernel_free(b->k);
    free(b);
}

/* ---- the arguments ---------------------------------------------------------------------- */

/* The products the kernel computes itself: those of at most this many multiply-adds (the
 * environment's TSCRIPT_CUDA_FUSED_MM, e.g. 0 for none), where one kernel launch more costs
 * more than each thread's dot products. Bigger ones run aten::mm (cuBLAS) first. */
static double fused_mm_limit(void)
{
    const char *e = getenv("TSCRIPT_CUDA_FUSED_MM");
    return e && *e ? strtod(e, NULL) : (double)(1 << 20);
}

static const TsTensor *input_tensor(const TsValue *a, size_t i)
{
    return (const TsTensor *)a[i].u.p;
}

/* Each product's operands checked as aten::mm checks them, and a big one computed by
 * aten::mm's kernel. The call's n_in arguments are found again after each such call: the
 * pushes may move the stack. */
static int run_products(Call *k, size_t n_in, double limit)
{
    const FcKernel *K = k->k;
    TsCall *c = k->c;
    for (size_t m = 0; m < K->n_mm; m++) {
        const TsValue *a = c->stack->data + c->stack->len - n_in;
        TsTensor *x = (TsTensor *)input_tensor(a, K->mm[m].a);
        TsTensor *y = (TsTensor *)input_tensor(a, K->mm[m].b);
        if (ts_aten_check_product(TS_ATEN_MM, x, y, c->error))
            return c->error->code;
        k->mm_on[m] = (double)x->sizes[0] * (double)x->sizes[1] * (double)y->sizes[1] <= limit;
        if (k->mm_on[m])
            continue;
        const TsOperator *op = ts_runtime_find_operator(c->runtime, "aten::mm", "");
        TsKernelFn fn = op ? ts_operator_kernel_fn(op, "cuda") : NULL;
        if (!fn)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "prim::FusionGroup (cuda): "
                                "aten::mm has no cuda kernel");
        size_t len = c->stack->len;
        ts_tensor_retain(x);
        ts_tensor_retain(y);
        int rc = ts_stack_push(c->stack, ts_obj_value(x, TS_TAG_TENSOR), c->error);
        if (rc)
            ts_tensor_release(y);
        else if (!(rc = ts_stack_push(c->stack, ts_obj_value(y, TS_TAG_TENSOR), c->error))) {
            TsCall sub = { c->stack, c->error, NULL, c->runtime, op };
            rc = fn(&sub);
        }
        if (!rc && (c->stack->len != len + 1 || c->stack->data[len].tag != TS_TAG_TENSOR))
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "prim::FusionGroup (cuda): aten::mm "
                              "returned no tensor");
        if (rc) {              /* the call's arguments stay where they were */
            if (c->stack->len > len)
                ts_stack_drop(c->stack, c->stack->len - len);
            return rc;
        }
        TsValue *top = &c->stack->data[len];
        k->mm_out[m] = (TsTensor *)top->u.p;   /* the reference moves to the call */
        c->stack->len--;
    }
    return 0;
}

/* The shape of a tensor a BroadcastingChunk splits (a product computed in the kernel: its
 * rows by its columns). */
static void leaf_shape(const Call *k, const TsValue *a, const FcSlot *sl, int *dim,
                       const int64_t **sizes, int64_t mm_sizes[2])
{
    const TsTensor *t = input_tensor(a, sl->input);
    if (sl->mm && k->mm_on[sl->mm - 1]) {
        const FcMm *m = &k->k->mm[sl->mm - 1];
        mm_sizes[0] = input_tensor(a, m->a)->sizes[0];
        mm_sizes[1] = input_tensor(a, m->b)->sizes[1];
        *dim = 2;
        *sizes = mm_sizes;
        return;
    }
    if (sl->mm)
        t = k->mm_out[sl->mm - 1];
    *dim = t->dim;
    *sizes = t->sizes;
}

/* The broadcast shape of the tensors BroadcastingChunk id splits (its slots follow each
 * other). */
static int broadcast_inputs(Call *k, const TsValue *a, int id, int *dim, int64_t *sizes)
{
    const FcKernel *K = k->k;
    *dim = 0;
    for (size_t s = 0; s < K->n_slots; s++) {
        const FcSlot *sl = &K->slots[s];
        if (sl->bcast != id || sl->piece != 0)
            continue;
        int d;
        const int64_t *sz;
        int64_t mm_sizes[2];
        leaf_shape(k, a, sl, &d, &sz, mm_sizes);
        if (ts_aten_broadcast_sizes(*dim, sizes, d, sz, dim, sizes, k->c->error))
            return k->c->error->code;
    }
    return 0;
}

/* The piece of a product computed in the kernel: its place in the product (rows by
 * columns, contiguous) broadcast to (dim, sizes), then split. */
static int product_piece(Call *k, const TsValue *a, const FcSlot *sl, int dim,
                         const int64_t *sizes, View *v)
{
    const FcMm *m = &k->k->mm[sl->mm - 1];
    int64_t rows = input_tensor(a, m->a)->sizes[0], cols = input_tensor(a, m->b)->sizes[1];
    v->dim = dim;
    v->offset = 0;
    memcpy(v->sizes, sizes, (size_t)dim * sizeof *sizes);
    for (int d = 0; d < dim; d++) {
        int from_end = dim - 1 - d;      /* 0: the product's columns, 1: its rows */
        int64_t own = from_end == 0 ? cols : from_end == 1 ? rows : 1;
        v->strides[d] = own == 1 ? 0 : from_end == 0 ? 1 : cols;
    }
    return fu_chunk_view(dim, v->sizes, v->strides, &v->offset, sl->piece, sl->chunks,
                         sl->dim, k->c->error);
}

/* Numbers into the parameter; tensors checked. */
static int check_inputs(Call *k, const TsValue *a)
{
    const FcKernel *K = k->k;
    size_t j = 0;
    k->device = -1;
    for (size_t i = 0; i < K->n_inputs; i++) {
        if (K->is_number[i]) {
            uint64_t w;
            if (a[i].tag == TS_TAG_INT && !K->is_float[i]) {
                w = (uint64_t)a[i].u.i;
            } else if (a[i].tag == TS_TAG_DOUBLE || a[i].tag == TS_TAG_INT) {
                double v = a[i].tag == TS_TAG_INT ? (double)a[i].u.i : a[i].u.d;
                memcpy(&w, &v, sizeof w);
            } else {
                return fail(k->c, "prim::FusionGroup: input %zu is not a number", i);
            }
            k->words[fc_word_number(K, j++)] = w;
            continue;
        }
        if (a[i].tag != TS_TAG_TENSOR)
            return fail(k->c, "prim::FusionGroup: input %zu is not a tensor", i);
        const TsTensor *t = (const TsTensor *)a[i].u.p;
        int index = t->device.index < 0 ? 0 : t->device.index;
        if (t->dtype != K->dtype || t->device.type != TS_DEV_CUDA ||
            (k->device >= 0 && index != k->device))
            return fail(k->c, "prim::FusionGroup: input %zu is not a cuda tensor of the "
                        "group's dtype and device", i);
        k->device = index;
    }
    return 0;
}

/* The slots: inputs, and the pieces made. */
static int make_slots(Call *k, const TsValue *a)
{
    const FcKernel *K = k->k;
    for (size_t m = 0; m < K->n_mm && !k->view; m++)
        if (k->mm_on[m] && !(k->view = calloc(K->n_slots, sizeof *k->view)))
            return ts_error_set(k->c->error, TS_ERR_NOMEM, "out of memory");
    int bc_dim = 0, bc_id = 0;
    int64_t bc_sizes[TS_TENSOR_MAX_DIMS];
    for (size_t s = 0; s < K->n_slots; s++) {
        const FcSlot *sl = &K->slots[s];
        TsTensor *t = (TsTensor *)input_tensor(a, sl->input);
        if (sl->bcast && sl->bcast != bc_id && broadcast_inputs(k, a, sl->bcast, &bc_dim,
                                                                 bc_sizes))
            return k->c->error->code;
        if (sl->bcast)
            bc_id = sl->bcast;
        if (sl->mm && k->mm_on[sl->mm - 1]) {
            k->slot[s] = NULL;
            if (product_piece(k, a, sl, bc_dim, bc_sizes, &k->view[s]))
                return k->c->error->code;
            continue;
        }
        if (sl->mm)
            t = k->mm_out[sl->mm - 1];
        if (sl->piece < 0)
            k->slot[s] = t;
        else if (sl->bcast ? !(k->slot[s] = fu_broadcast_piece(t, bc_dim, bc_sizes, sl->piece,
                                                                 sl->chunks, sl->dim,
                                                                 k->c->error))
                           : !(k->slot[s] = fu_chunk_piece(t, sl->piece, sl->chunks, sl->dim,
                                                           k->c->error)))
            return k->c->error->code;
    }
    return 0;
}

/* Slot s's shape: its tensor's, or its view's. */
static void slot_shape(const Call *k, size_t s, int *dim, const int64_t **sizes,
                       const int64_t **strides)
{
    if (k->slot[s]) {
        *dim = k->slot[s]->dim;
        *sizes = k->slot[s]->sizes;
        *strides = k->slot[s]->strides;
    } else {
        *dim = k->view[s].dim;
        *sizes = k->view[s].sizes;
        *strides = k->view[s].strides;
    }
}

/* The outputs' shapes (the broadcast of what each reads), and the outputs allocated. */
static int make_outputs(Call *k)
{
    const FcKernel *K = k->k;
    TsAllocator *cuda = ts_runtime_allocator(k->c->runtime, TS_DEV_CUDA);
    if (!cuda)
        return ts_error_set(k->c->error, TS_ERR_RUNTIME, "prim::FusionGroup (cuda): no cuda "
                            "allocator (a config without aten-cuda?)");
    TsDevice dev = { TS_DEV_CUDA, (int16_t)k->device };
    for (size_t o = 0; o < K->n_outputs; o++) {
        if (K->same_as[o] >= 0) {      /* one value returned twice: one tensor twice */
            k->out[o] = k->out[K->same_as[o]];
            ts_tensor_retain(k->out[o]);
            continue;
        }
        int dim = 0;
        int64_t sizes[TS_TENSOR_MAX_DIMS];
        for (size_t s = 0; s < K->n_slots; s++) {
            if (!(K->deps[o] >> s & 1))
                continue;
            int d;
            const int64_t *sz, *st;
            slot_shape(k, s, &d, &sz, &st);
            if (ts_aten_broadcast_sizes(dim, sizes, d, sz, &dim, sizes, k->c->error))
                return k->c->error->code;
        }
        if (dim > FC_MAX_RANK)
            return fail(k->c, "prim::FusionGroup (cuda): more than %zu dimensions",
                        (size_t)FC_MAX_RANK);
        k->out_dim[o] = dim;
        memcpy(k->out_sizes[o], sizes, (size_t)dim * sizeof *sizes);
        if (!(k->out[o] = ts_tensor_empty(cuda, dev, K->dtype, dim, sizes, k->c->error)))
            return k->c->error->code;
    }
    return 0;
}

/* ---- launching -------------------------------------------------------------------------- */

static bool same_shape(const Call *k, size_t a, size_t b)
{
    return k->out_dim[a] == k->out_dim[b] &&
           memcmp(k->out_sizes[a], k->out_sizes[b],
                  (size_t)k->out_dim[a] * sizeof k->out_sizes[a][0]) == 0;
}

/* Is t contiguous with the launch's shape (leading 1s aside)? */
static bool dense_full(const TsTensor *t, int dim, const int64_t *sizes)
{
    int off = dim - t->dim;
    if (off < 0 || !ts_tensor_is_contiguous(t))
        return false;
    for (int d = 0; d < off; d++)
        if (sizes[d] != 1)
            return false;
    for (int d = 0; d < t->dim; d++)
        if (t->sizes[d] != sizes[off + d])
            return false;
    return true;
}

/* Warp mode: any product computed in the kernel. */
static bool warp_mode(const Call *k)
{
    for (size_t m = 0; m < k->k->n_mm; m++)
        if (k->mm_on[m])
            return true;
    return false;
}

/* The parameter of the launch that writes the outputs in write, of output o's shape. */
static int64_t fill_params(Call *k, size_t o, uint64_t write)
{
    const FcKernel *K = k->k;
    int dim = k->out_dim[o];
    const int64_t *sizes = k->out_sizes[o];
    uint64_t need = 0;
    int64_t numel = 1;
    for (size_t q = 0; q < K->n_outputs; q++)
        if (write >> q & 1)
            need |= K->deps[q];
    for (int d = 0; d < dim; d++)
        numel *= sizes[d];
    uint64_t *w = k->words;
    bool contig = true;
    memset(w + FC_W_SIZES, 0, FC_MAX_RANK * sizeof *w);
    for (int d = 0; d < dim; d++)
        w[FC_W_SIZES + d] = (uint64_t)sizes[d];
    for (size_t s = 0; s < K->n_slots; s++) {
        uint64_t *sw = w + FC_W_SLOTS + s * FC_SLOT_WORDS;
        memset(sw, 0, FC_SLOT_WORDS * sizeof *sw);
        if (!(need >> s & 1))
            continue;
        const TsTensor *t = k->slot[s];
        int td;
        const int64_t *tsizes, *tstrides;
        slot_shape(k, s, &td, &tsizes, &tstrides);
        if (t) {
            sw[0] = (uint64_t)(uintptr_t)ts_tensor_data(t);
            contig = contig && dense_full(t, dim, sizes);
        } else {               /* a piece of a product the kernel computes: its offset */
            sw[0] = (uint64_t)k->view[s].offset;
            contig = false;
        }
        int off = dim - td;
        for (int d = off; d < dim; d++)
            sw[1 + d] = tsizes[d - off] == 1 ? 0 : (uint64_t)tstrides[d - off];
    }
    for (size_t m = 0; m < K->n_mm; m++) {
        uint64_t *mw = w + fc_word_mm(K, m);
        memset(mw, 0, FC_MM_WORDS * sizeof *mw);
        if (!k->mm_on[m])
            continue;
        const TsTensor *x = k->mm_a[m], *y = k->mm_b[m];
        mw[FC_MM_ON] = 1;
        mw[FC_MM_A] = (uint64_t)(uintptr_t)ts_tensor_data(x);
        mw[FC_MM_B] = (uint64_t)(uintptr_t)ts_tensor_data(y);
        mw[FC_MM_K] = (uint64_t)x->sizes[1];
        mw[FC_MM_N] = (uint64_t)y->sizes[1];
        mw[FC_MM_AS0] = (uint64_t)x->strides[0];
        mw[FC_MM_AS1] = (uint64_t)x->strides[1];
        mw[FC_MM_BS0] = (uint64_t)y->strides[0];
        mw[FC_MM_BS1] = (uint64_t)y->strides[1];
    }
    for (size_t q = 0; q < K->n_outputs; q++)
        w[fc_word_output(K, q)] =
            write >> q & 1 ? (uint64_t)(uintptr_t)ts_tensor_data(k->out[q]) : 0;
    w[FC_W_NUMEL] = (uint64_t)numel;
    w[FC_W_RANK] = (uint64_t)dim;
    w[FC_W_CONTIG] = contig;
    w[FC_W_WARP] = warp_mode(k);
    w[FC_W_NEED] = need;
    w[FC_W_WRITE] = write;
    return numel;
}

static int launch_all(Call *k, FcFunction fn)
{
    const FcKernel *K = k->k;
    const FcDriver *d = fc_driver(k->c->error);
    if (!d)
        return k->c->error->code;
    uint64_t done = 0;
    for (size_t o = 0; o < K->n_outputs; o++) {
        if (K->same_as[o] >= 0 || (done >> o & 1))
            continue;
        uint64_t write = 0;
        for (size_t q = o; q < K->n_outputs; q++)
            if (K->same_as[q] < 0 && !(done >> q & 1) && same_shape(k, o, q))
                write |= UINT64_C(1) << q;
        done |= write;
        int64_t numel = fill_params(k, o, write);
        if (numel == 0)
            continue;
        int64_t threads = warp_mode(k) ? numel * 32 : numel;
        int64_t blocks = (threads + THREADS - 1) / THREADS;
        void *params[] = { k->words };
        FcResult r = d->launch_kernel(fn, (unsigned)(blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS),
                                      1, 1, THREADS, 1, 1, 0, FC_STREAM_PER_THREAD, params, NULL);
        if (r)
            return fc_driver_error(d, r, "launching the fusion kernel", k->c->error);
    }
    return 0;
}

/* ---- the kernel ----------------------------------------------------------------------- */

static int k_fusion_group(TsCall *c)
{
    Bound *b = c->data;
    const FcKernel *K = b->k;
    size_t n_in = K->n_inputs;
    if (c->stack->len < n_in)
        return ts_error_set(c->error, TS_ERR_USAGE, "prim::FusionGroup: %zu inputs expected",
                            n_in);
    Call *k = calloc(1, sizeof *k);
    if (!k)
        return ts_error_set(c->error, TS_ERR_NOMEM, "out of memory");
    k->c = c;
    k->k = K;
    FcFunction fn = NULL;
    int rc = check_inputs(k, c->stack->data + c->stack->len - n_in);
    if (!rc)
        rc = run_products(k, n_in, b->mm_limit);
    /* the arguments, where the products' calls left the stack */
    TsValue *a = c->stack->data + c->stack->len - n_in;
    for (size_t m = 0; m < K->n_mm; m++) {
        k->mm_a[m] = input_tensor(a, K->mm[m].a);
        k->mm_b[m] = input_tensor(a, K->mm[m].b);
    }
    if (!rc)
        rc = make_slots(k, a);
    if (!rc)
        rc = function_of(b, k->device, &fn, c->error);
    if (!rc)
        rc = make_outputs(k);
    if (!rc)
        rc = launch_all(k, fn);
    for (size_t s = 0; s < K->n_slots; s++)
        if (K->slots[s].piece >= 0 && k->slot[s])
            ts_tensor_release(k->slot[s]);
    for (size_t m = 0; m < K->n_mm; m++)
        if (k->mm_out[m])
            ts_tensor_release(k->mm_out[m]);
    free(k->view);
    ts_stack_drop(c->stack, n_in);
    for (size_t o = 0; o < K->n_outputs; o++) {
        if (!k->out[o])
            continue;
        if (rc)
            ts_tensor_release(k->out[o]);
        else if ((rc = ts_stack_push(c->stack, ts_obj_value(k->out[o], TS_TAG_TENSOR),
                                     c->error)))
            for (size_t q = o + 1; q < K->n_outputs; q++)
                if (k->out[q])
                    ts_tensor_release(k->out[q]);
    }
    free(k);
    return rc;
}

int fc_kernel_factory(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                      void (**free_data)(void *), TsError *err)
{
    TsGraph *sub = NULL;
    if (fu_bound_subgraph(node, &sub, err))
        return err->code;
    FcKernel *k = fc_codegen(sub, err);
    if (!k)
        return err->code;
    if (fu_check_arity(node, k->n_inputs, k->n_outputs, err)) {
        fc_kernel_free(k);
        return err->code;
    }
    const char *ptx = fc_program_ptx(k->source, err);
    Bound *b = ptx ? calloc(1, sizeof *b) : NULL;
    if (!b) {
        fc_kernel_free(k);
        return ptx ? ts_error_set(err, TS_ERR_NOMEM, "out of memory") : (int)err->code;
    }
    b->k = k;
    b->ptx = ptx;
    b->mm_limit = fused_mm_limit();   /* not a getenv per call */
    pthread_mutex_init(&b->lock, NULL);
    *fn = k_fusion_group;
    *data = b;
    *free_data = free_bound;
    return 0;
}
