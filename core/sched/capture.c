/* capture.c — the kernel of prim::CaptureRegion (capture.h): run, capture, replay.
 *
 * A region's inputs are tensors and numbers. Each call is keyed by what a capture depends
 * on: per tensor its device, dtype, sizes and strides, per number its value. The first two
 * runs with a key (per thread) run the Subgraph plainly and note where each tensor input's
 * data is; the third captures: an input whose data stayed where it was (weights, typically)
 * is read in place by the capture, every other one is read from a static copy the replay
 * fills; the region runs once with those, recording, and is then replayed on the
 * call's actual inputs. Later calls with the key replay, while the in-place inputs stay
 * where they were; one that moves is never read in place again, and the region is captured
 * anew without it (at most MAX_CAPTURES times per key).
 *
 * Nothing of a region is host-visible but its outputs — the pass admits only operators
 * that compute tensors from tensors (no prints, no reads of a tensor's values into the
 * host, no random draws, no writes to an input) — so a capture that fails halfway (an
 * operator the backend cannot record, such as one that waits for the device) is simply
 * thrown away and the region run again plainly; that key then never captures. Numbers a
 * region returns depend only on its key (sizes, constants), so a capture's are kept.
 *
 * Keys and their captures are per thread (a capture's static buffers serve one replay at a
 * time, and a thread's work runs in order), at most MAX_ENTRIES per region.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/log.h"
#include "registry/schema.h"
#include "runtime.h"
#include "sched/capture.h"
#include "sched/code.h"
#include "sched/interp.h"
#include "tscript/plugin.h"

#define MAX_ENTRIES 32
#define MAX_VALUES 64          /* inputs or outputs of a region the kernel takes */
#define MAX_CAPTURES 4         /* per key: after that many, moving inputs run it plainly */

typedef struct Entry {
    pthread_t thread;
    uint64_t *key;
    size_t key_len;
    unsigned runs;             /* plain runs with the key */
    unsigned captures;         /* captures made (a moved in-place input makes another) */
    bool dead;                 /* capture failed: run plainly from now on */
    void **last;               /* each tensor input's data at the last run */
    bool *moved;               /* tensor input i has been seen at two places: never in place */
    const TsCaptureOps *ops;
    TsCapture *cap;            /* NULL until captured */
    bool *stable;              /* tensor input i is read in place by cap */
    TsValue *kept;             /* cap's run's outputs; None where the output is a tensor */
    bool *is_tensor;           /* output i is a tensor */
} Entry;

typedef struct Region {
    TsGraph *graph;            /* owned copy of the node's Subgraph */
    size_t n_in, n_out;
    pthread_mutex_t lock;      /* code's building, entries' list */
    TsCode *code;              /* the Subgraph's plain Code, built on first run */
    char *name;                /* its name in tracebacks: the function the region is of */
    Entry entries[MAX_ENTRIES];
    size_t n_entries;
} Region;

/* ---- keys ------------------------------------------------------------------------------- */

static bool push(uint64_t *key, size_t *n, size_t cap, uint64_t v)
{
    if (*n >= cap)
        return false;
    key[(*n)++] = v;
    return true;
}

/* The key of args, and the capture ops of their device; 0 when the call cannot capture
 * (a value that is neither tensor nor number, tensors on devices of different types or of
 * one without capture, a tensor that requires grad, no tensor at all, too long a key). */
static size_t key_of(TsRuntime *rt, const TsValue *args, size_t n, uint64_t *key, size_t cap,
                     const TsCaptureOps **ops, size_t *n_tensors)
{
    size_t len = 0, nt = 0;
    int type = -1;
    for (size_t i = 0; i < n; i++) {
        TsValue v = args[i];
        bool ok = push(key, &len, cap, v.tag);
        switch (v.tag) {
        case TS_TAG_INT: case TS_TAG_BOOL: case TS_TAG_NONE:
            ok = ok && push(key, &len, cap, (uint64_t)v.u.i);
            break;
        case TS_TAG_DOUBLE: {
            uint64_t bits;
            memcpy(&bits, &v.u.d, sizeof bits);
            ok = ok && push(key, &len, cap, bits);
            break;
        }
        case TS_TAG_TENSOR: {
            const TsTensor *t = (const TsTensor *)v.u.p;
            if (t->requires_grad || (type >= 0 && t->device.type != type))
                return 0;
            type = t->device.type;
            ok = ok && push(key, &len, cap, (uint64_t)(uint16_t)t->device.type << 32 |
                                                (uint64_t)(uint16_t)t->device.index << 16 |
                                                (uint64_t)(uint16_t)t->dtype);
            ok = ok && push(key, &len, cap, (uint64_t)t->dim);
            for (int d = 0; d < t->dim && ok; d++)
                ok = push(key, &len, cap, (uint64_t)t->sizes[d]) &&
                     push(key, &len, cap, (uint64_t)t->strides[d]);
            nt++;
            break;
        }
        default:
            return 0;
        }
        if (!ok)
            return 0;
    }
    if (type < 0)
        return 0;
    TsAllocator *a = ts_runtime_allocator(rt, type);
    if (!a || !a->capture)
        return 0;
    *ops = a->capture;
    *n_tensors = nt;
    return len;
}

static void entry_clear_capture(Entry *e)
{
    if (e->cap)
        e->ops->discard(e->cap);
    e->cap = NULL;
    free(e->stable);
    e->stable = NULL;
    free(e->is_tensor);
    e->is_tensor = NULL;
}

/* This thread's entry for key, made if there is room; NULL otherwise. */
static Entry *entry_for(Region *r, const uint64_t *key, size_t len, size_t n_tensors)
{
    pthread_t self = pthread_self();
    pthread_mutex_lock(&r->lock);
    Entry *found = NULL;
    for (size_t i = 0; i < r->n_entries && !found; i++) {
        Entry *e = &r->entries[i];
        if (pthread_equal(e->thread, self) && e->key_len == len &&
            memcmp(e->key, key, len * sizeof *key) == 0)
            found = e;
    }
    if (!found && r->n_entries < MAX_ENTRIES) {
        Entry *e = &r->entries[r->n_entries];
        memset(e, 0, sizeof *e);
        e->key = malloc(len * sizeof *key);
        e->last = calloc(n_tensors ? n_tensors : 1, sizeof *e->last);
        e->moved = calloc(n_tensors ? n_tensors : 1, sizeof *e->moved);
        if (e->key && e->last && e->moved) {
            memcpy(e->key, key, len * sizeof *key);
            e->key_len = len;
            e->thread = self;
            r->n_entries++;
            found = e;
        } else {
            free(e->key);
            free(e->last);
            free(e->moved);
        }
    }
    pthread_mutex_unlock(&r->lock);
    return found;
}

/* ---- running ---------------------------------------------------------------------------- */

static int plain(Region *r, TsCall *call, const TsValue *args, TsValue *out)
{
    return ts_interp_run_code(call, r->code, args, r->n_in, out);
}

/* Notes where each tensor input is; one seen somewhere else than last time has moved. */
static void note_places(Entry *e, TsTensor *const *in, size_t nt, bool first)
{
    for (size_t k = 0; k < nt; k++) {
        void *at = ts_tensor_data(in[k]);
        if (!first && at != e->last[k])
            e->moved[k] = true;
        e->last[k] = at;
    }
}

static size_t tensors_of(const TsValue *args, size_t n, TsTensor **t)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (args[i].tag == TS_TAG_TENSOR)
            t[k++] = (TsTensor *)args[i].u.p;
    return k;
}

/* Do the in-place inputs sit where the capture read them? Those that do not are marked
 * moved. */
static bool still_in_place(Entry *e, TsTensor *const *t, size_t nt)
{
    bool all = true;
    for (size_t k = 0; k < nt; k++)
        if (e->stable[k] && ts_tensor_data(t[k]) != e->last[k]) {
            e->moved[k] = true;
            all = false;
        }
    return all;
}

/* Replays e's capture on the call's tensor inputs in (nt of them). */
static int replay(Region *r, Entry *e, TsCall *call, TsTensor *const *in, size_t nt,
                  TsValue *out)
{
    TsTensor *res[MAX_VALUES];
    int rc = e->ops->replay(e->cap, nt, in, res, call->error);
    if (rc)
        return rc;
    size_t k = 0;
    for (size_t i = 0; i < r->n_out; i++) {
        if (e->is_tensor[i]) {
            out[i] = ts_obj_value(res[k++], TS_TAG_TENSOR);
        } else {
            out[i] = e->kept[i];
            ts_value_retain(out[i]);
        }
    }
    return 0;
}

/* Captures one run of the region and replays it on args: 0 with out set; -1 when it cannot
 * be captured (call->error may hold why; the caller clears it); or a replay's error. */
static int capture(Region *r, Entry *e, const TsCaptureOps *ops, TsCall *call,
                   const TsValue *args, TsTensor *const *in, size_t nt, TsValue *out)
{
    TsTensor *statics[MAX_VALUES] = { NULL };
    bool *stable = calloc(nt ? nt : 1, sizeof *stable);
    bool *is_tensor = calloc(r->n_out ? r->n_out : 1, sizeof *is_tensor);
    TsValue *kept = calloc(r->n_out ? r->n_out : 1, sizeof *kept);
    if (!stable || !is_tensor || !kept) {
        free(stable);
        free(is_tensor);
        free(kept);
        return -1;
    }
    for (size_t k = 0; k < nt; k++)
        stable[k] = !e->moved[k] && ts_tensor_data(in[k]) == e->last[k];
    e->captures++;
    TsCapture *c = ops->begin(nt, in, stable, statics, call->error);
    int rc = c ? 0 : -1;
    TsValue run_args[MAX_VALUES], res[MAX_VALUES];
    if (!rc) {
        size_t k = 0;
        for (size_t i = 0; i < r->n_in; i++) {
            run_args[i] = args[i];
            if (args[i].tag == TS_TAG_TENSOR) {
                if (statics[k])
                    run_args[i] = ts_obj_value(statics[k], TS_TAG_TENSOR);
                k++;
            }
        }
        rc = plain(r, call, run_args, res) ? -1 : 0;
    }
    if (!rc) {
        TsTensor *outs[MAX_VALUES];
        size_t no = 0;
        for (size_t i = 0; i < r->n_out; i++) {
            is_tensor[i] = res[i].tag == TS_TAG_TENSOR;
            if (is_tensor[i]) {
                outs[no++] = (TsTensor *)res[i].u.p;
                kept[i] = ts_none();
            } else {
                kept[i] = res[i];
                ts_value_retain(kept[i]);
            }
        }
        rc = ops->end(c, no, outs, call->error) ? -1 : 0;
        for (size_t i = 0; i < r->n_out; i++)
            ts_value_release(res[i]);
    }
    for (size_t k = 0; k < nt; k++)
        if (statics[k])
            ts_tensor_release(statics[k]);
    if (rc) {
        if (c)
            ops->discard(c);
        for (size_t i = 0; i < r->n_out; i++)
            ts_value_release(kept[i]);
        free(stable);
        free(is_tensor);
        free(kept);
        return -1;
    }
    e->ops = ops;
    e->cap = c;
    e->stable = stable;
    e->is_tensor = is_tensor;
    e->kept = kept;
    if (replay(r, e, call, in, nt, out)) {
        /* the recording does not run: a backend that took it and cannot run it */
        entry_clear_capture(e);
        return -1;
    }
    return 0;
}

static void drop_kept(Region *r, Entry *e)
{
    if (e->kept)
        for (size_t i = 0; i < r->n_out; i++)
            ts_value_release(e->kept[i]);
    free(e->kept);
    e->kept = NULL;
}

static int run_region(Region *r, TsCall *call, const TsValue *args, TsValue *out)
{
    TsRuntime *rt = call->runtime;
    uint64_t key[256];
    const TsCaptureOps *ops = NULL;
    size_t nt = 0, len = ts_runtime_graphs(rt) && r->n_in <= MAX_VALUES &&
                                 r->n_out <= MAX_VALUES
                             ? key_of(rt, args, r->n_in, key, 256, &ops, &nt)
                             : 0;
    Entry *e = len ? entry_for(r, key, len, nt) : NULL;
    if (!e || e->dead)
        return plain(r, call, args, out);
    TsTensor *in[MAX_VALUES];
    tensors_of(args, r->n_in, in);
    if (e->cap) {
        if (still_in_place(e, in, nt))
            return replay(r, e, call, in, nt, out);
        entry_clear_capture(e);    /* an in-place input moved: capture again without it */
        drop_kept(r, e);
    }
    if (e->runs >= 2 && e->captures < MAX_CAPTURES) {
        int rc = capture(r, e, ops, call, args, in, nt, out);
        if (rc == 0) {
            TS_GRAPH_UPDATE("captured a region of %zu inputs and %zu outputs (capture %u of "
                            "its key)", r->n_in, r->n_out, e->captures);
            return 0;
        }
        TS_GRAPH_UPDATE("a region cannot be captured, it runs plainly: %s",
                        call->error->msg ? call->error->msg : "(no reason given)");
        ts_error_clear(call->error);
        drop_kept(r, e);
        e->dead = true;
        return plain(r, call, args, out);
    }
    int rc = plain(r, call, args, out);
    if (!rc) {
        note_places(e, in, nt, e->runs == 0);
        e->runs++;
    }
    return rc;
}

static int k_region(TsCall *call)
{
    Region *r = call->data;
    TsStack *s = call->stack;
    if (!__atomic_load_n(&r->code, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&r->lock);
        if (!r->code) {
            const char *of = ts_interp_kernel_function(call);
            free(r->name);
            r->name = strdup(of ? of : "capture region");
            TsCode *c = r->name ? ts_code_build(call->runtime, ts_interp_kernel_unit(call),
                                                r->graph, r->name, call->error)
                                : NULL;
            if (!r->name)
                ts_error_set(call->error, TS_ERR_NOMEM, "out of memory");
            __atomic_store_n(&r->code, c, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&r->lock);
        if (!r->code) {
            ts_stack_drop(s, r->n_in);
            return call->error->code ? call->error->code : TS_ERR_RUNTIME;
        }
    }
    TsValue out[MAX_VALUES];
    int rc = r->n_out > MAX_VALUES
                 ? ts_error_set(call->error, TS_ERR_LIMIT, "a capture region of %zu outputs "
                                "(at most %d)", r->n_out, MAX_VALUES)
                 : run_region(r, call, ts_stack_arg(s, r->n_in, 0), out);
    ts_stack_drop(s, r->n_in);
    if (rc)
        return rc;
    if (ts_stack_reserve(s, r->n_out, call->error)) {
        for (size_t i = 0; i < r->n_out; i++)
            ts_value_release(out[i]);
        return TS_ERR_NOMEM;
    }
    for (size_t i = 0; i < r->n_out; i++)
        s->data[s->len++] = out[i];
    return 0;
}

static void region_free(void *p)
{
    Region *r = p;
    for (size_t i = 0; i < r->n_entries; i++) {
        Entry *e = &r->entries[i];
        entry_clear_capture(e);
        drop_kept(r, e);
        free(e->key);
        free(e->last);
        free(e->moved);
    }
    if (r->code)
        ts_code_free(r->code);
    free(r->name);
    ts_graph_free(r->graph);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

static int factory(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                   void (**free_data)(void *), TsError *err)
{
    TsGraph *sub = NULL;
    if (!node->node || ts_attr_get_graph(node->node, "Subgraph", &sub, err))
        return ts_error_set(err, TS_ERR_RUNTIME, "%s without a Subgraph", TS_CAPTURE_REGION);
    if (ts_graph_num_inputs(sub) != node->n_inputs || ts_graph_num_outputs(sub) != node->n_outputs)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: its Subgraph takes %zu and returns %zu "
                            "values, the node %zu and %zu", TS_CAPTURE_REGION,
                            ts_graph_num_inputs(sub), ts_graph_num_outputs(sub),
                            node->n_inputs, node->n_outputs);
    Region *r = calloc(1, sizeof *r);
    if (!r)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (!(r->graph = ts_graph_copy(sub, err))) {
        free(r);
        return err->code;
    }
    r->n_in = node->n_inputs;
    r->n_out = node->n_outputs;
    pthread_mutex_init(&r->lock, NULL);
    *fn = k_region;
    *data = r;
    *free_data = region_free;
    return 0;
}

/* The operator lives in a table of its own, made once per process: not in a runtime's,
 * which holds what its plugins declared. */
static TsOpTable *own;
static pthread_once_t own_once = PTHREAD_ONCE_INIT;

static void make_own(void)
{
    TsError err = TS_ERROR_INIT;
    size_t at = 0;
    TsOpTable *t = ts_optable_new(&err);
    TsSchema *s = t ? ts_schema_parse(TS_CAPTURE_REGION "(...) -> ...", NULL, &at, &err) : NULL;
    if (s && ts_optable_add(t, s, "core", "core/sched/capture.c", &err)) {
        ts_schema_free(s);
        s = NULL;
    }
    TsOperator *op = s ? ts_optable_find_mut(t, TS_CAPTURE_REGION, "") : NULL;
    if (op && ts_operator_add_kernel(op, TS_BACKEND_ANY, NULL, factory, "core", &err))
        op = NULL;
    if (op)
        own = t;
    else if (t)
        ts_optable_free(t);
    ts_error_clear(&err);
}

const TsOperator *ts_capture_operator(void)
{
    pthread_once(&own_once, make_own);
    return own ? ts_optable_find(own, TS_CAPTURE_REGION, "") : NULL;
}
