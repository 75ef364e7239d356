/* spec.c — the ArgumentSpec-keyed specialization cache (see spec.h).
 *
 * A key is one 64-bit word per keyed tensor parameter, packing what PyTorch's ArgumentSpec
 * records of a tensor: dtype, rank, device (type and index) and requires_grad (the
 * tensor's own flag: a fact about the argument whatever the grad mode, so the types it
 * refines stay true inside `with torch.no_grad()` too). Comparing a call's key with the
 * published plans is a few word compares, without a lock: a plan is written whole before
 * the count that publishes it is stored (release), and read after the count is loaded
 * (acquire). Plans are only added, under the cache's lock, and freed with the generic Code.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/log.h"
#include "ir/passes/passes.h"
#include "sched/spec.h"

typedef struct Plan {
    uint64_t key[TS_SPEC_MAX_TENSORS];
    TsCode *code;              /* owned; its graph is the specialized copy */
} Plan;

struct TsSpecCache {
    pthread_mutex_t lock;      /* held while a plan is built and published */
    size_t n_tensors;
    size_t args[TS_SPEC_MAX_TENSORS];  /* the keyed parameters' indices */
    Plan plans[TS_SPEC_MAX];
    size_t n_plans;            /* published plans (atomic: see the header) */
};

/* Not a tensor: cannot be the key of one (dtype and rank are never all ones) */
#define NOT_A_TENSOR UINT64_MAX

static uint64_t key_of(TsValue v)
{
    if (v.tag != TS_TAG_TENSOR)
        return NOT_A_TENSOR;
    const TsTensor *t = (const TsTensor *)v.u.p;
    return (uint64_t)(uint8_t)t->dtype | (uint64_t)(t->requires_grad != 0) << 8 |
           (uint64_t)(uint8_t)t->device.type << 16 |
           (uint64_t)(uint16_t)t->device.index << 24 | (uint64_t)(uint32_t)t->dim << 40;
}

/* The refined Tensor type a key word stands for (NULL: not a tensor, or out of memory) */
static const TsType *type_of_key(uint64_t k)
{
    if (k == NOT_A_TENSOR)
        return NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int dim = (int)(k >> 40);
    if (dim > TS_TENSOR_MAX_DIMS)
        return NULL;
    for (int i = 0; i < dim; i++)
        sizes[i] = -1;
    TsTensorTypeInfo ti = { (int)(k & 0xff), (int)(int8_t)(k >> 16 & 0xff),
                            (int)(int16_t)(k >> 24 & 0xffff), dim, sizes, NULL,
                            (int)(k >> 8 & 1) };
    return ts_type_tensor_refined(&ti);
}

int ts_spec_attach(TsCode *c, const TsFunction *f, TsError *err)
{
    c->specs = NULL;
    const TsGraph *g = f->graph;
    size_t k = 0;
    size_t args[TS_SPEC_MAX_TENSORS];
    for (size_t i = 0; i < ts_graph_num_inputs(g) && k < TS_SPEC_MAX_TENSORS; i++)
        if (ts_type_kind(ts_graph_input(g, i)->type) == TS_TYPE_TENSOR)
            args[k++] = i;
    if (!k)
        return 0;
    TsSpecCache *s = calloc(1, sizeof *s);
    if (!s)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory building code");
    pthread_mutex_init(&s->lock, NULL);
    s->n_tensors = k;
    memcpy(s->args, args, k * sizeof *args);
    c->specs = s;
    return 0;
}

void ts_spec_free(TsSpecCache *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_plans; i++)
        ts_code_free(s->plans[i].code);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

size_t ts_spec_count(const TsFunction *f)
{
    const TsCode *c = __atomic_load_n(&f->code, __ATOMIC_ACQUIRE);
    return c && c->specs ? __atomic_load_n(&c->specs->n_plans, __ATOMIC_ACQUIRE) : 0;
}

TsGraph *ts_spec_graph(TsRuntime *rt, const TsCompUnit *unit, const TsFunction *f,
                       const TsType *const *types, size_t n, TsError *err)
{
    TsGraph *g = ts_graph_copy(f->graph, err);
    if (!g)
        return NULL;
    for (size_t i = 0; i < n && i < ts_graph_num_inputs(g); i++)
        if (types[i])
            ts_graph_input(g, i)->type = types[i];
    TsPassEnv env = { ts_runtime_optable(rt), f->qualname, rt, (TsCompUnit *)unit };
    if (ts_optimize_graph(g, &env, err) == 0)
        return g;
    ts_graph_free(g);
    return NULL;
}

/* "(Float(*, *, requires_grad=0, device=cpu), Long(...))" for the log */
static void describe(const TsType *const *types, size_t n, char *buf, size_t size)
{
    size_t at = (size_t)snprintf(buf, size, "(");
    for (size_t i = 0; i < n && at < size; i++) {
        if (i)
            at += (size_t)snprintf(buf + at, size - at, ", ");
        if (at < size)
            at += ts_type_repr(types[i] ? types[i] : ts_type_tensor(), buf + at, size - at);
    }
    if (at < size)
        snprintf(buf + at, size - at, ")");
}

/* Builds the plan for key (the lock held): its Code, whose callees are prepared too. */
static TsCode *build_plan(TsRuntime *rt, const TsCompUnit *unit, TsFunction *f,
                          const TsSpecCache *s, const uint64_t *key, TsError *err)
{
    size_t n_inputs = ts_graph_num_inputs(f->graph);
    const TsType *small[16];
    const TsType **types = n_inputs <= 16 ? small : calloc(n_inputs, sizeof *types);
    if (!types) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory building code");
        return NULL;
    }
    memset(types, 0, (n_inputs < 16 ? 16 : n_inputs) * sizeof *types);
    for (size_t i = 0; i < s->n_tensors; i++)
        types[s->args[i]] = type_of_key(key[i]);
    TsGraph *g = ts_spec_graph(rt, unit, f, types, n_inputs, err);
    TsCode *c = g ? ts_code_build(rt, unit, g, f->name, err) : NULL;
    if (c) {
        c->graph = g;
        if (ts_code_prepare_callees(rt, unit, c, err)) {
            ts_code_free(c);
            c = NULL;
        }
    } else {
        ts_graph_free(g);
    }
    if (c && ts_log_enabled(__FILE__, TS_LOG_DUMP)) {
        char desc[1024];
        describe(types, n_inputs, desc, sizeof desc);
        ts_log(__FILE__, __LINE__, TS_LOG_DUMP, "%s: plan %zu for %s", f->qualname,
               s->n_plans + 1, desc);
    }
    if (types != small)
        free(types);
    return c;
}

static const TsCode *find(TsSpecCache *s, const uint64_t *key, size_t n_plans)
{
    for (size_t p = 0; p < n_plans; p++)
        if (memcmp(s->plans[p].key, key, s->n_tensors * sizeof *key) == 0)
            return s->plans[p].code;
    return NULL;
}

const TsCode *ts_spec_select(TsRuntime *rt, const TsCompUnit *unit, TsFunction *f,
                             const TsValue *args, size_t n, TsError *err)
{
    TsCode *generic = __atomic_load_n(&f->code, __ATOMIC_ACQUIRE);
    TsSpecCache *s = generic->specs;
    if (!s)
        return generic;
    uint64_t key[TS_SPEC_MAX_TENSORS];
    for (size_t i = 0; i < s->n_tensors; i++)
        key[i] = s->args[i] < n ? key_of(args[s->args[i]]) : NOT_A_TENSOR;
    size_t n_plans = __atomic_load_n(&s->n_plans, __ATOMIC_ACQUIRE);
    const TsCode *c = find(s, key, n_plans);
    if (c || n_plans == TS_SPEC_MAX)
        return c ? c : generic;
    pthread_mutex_lock(&s->lock);
    n_plans = s->n_plans;      /* another thread may have built it meanwhile */
    c = find(s, key, n_plans);
    if (!c && n_plans < TS_SPEC_MAX) {
        TsCode *built = build_plan(rt, unit, f, s, key, err);
        if (built) {
            memcpy(s->plans[n_plans].key, key, s->n_tensors * sizeof *key);
            s->plans[n_plans].code = built;
            __atomic_store_n(&s->n_plans, n_plans + 1, __ATOMIC_RELEASE);
        }
        c = built;
    } else if (!c) {
        c = generic;
    }
    pthread_mutex_unlock(&s->lock);
    return c;
}
