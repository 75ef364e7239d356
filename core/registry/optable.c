/* optable.c — the operator table: schema → {backend → kernel}.
 *
 * Operators live in an array in declaration order (what `tscript ops` lists and what
 * overload resolution tries first). Two open-addressing hash indexes point into it: one by
 * (name, overload) for exact lookups, one by name to the first overload, from which the
 * overloads of a name form a chain in declaration order. The table only grows while plugins
 * load; merging a plugin's staged operators reserves everything first so a commit never
 * half-happens.
 *
 * Beside the operators, the table lists the TorchScript files plugins ship (the
 * torch.nn.functional of the aten plugins, see core/frontend/library.c) and holds the frontend's
 * cache of them, made once on first use.
 */
#include "registry/optable.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_OP SIZE_MAX

/* A TsOperator with the table's bookkeeping; op comes first, so the pointers convert. One
 * allocation holds the slot and, after it, the strings op.plugin and source point to: in the
 * arena of the slot's schema when it has one (a parsed schema: the slot then lives exactly
 * as long as its schema, which slot_free releases last), else malloc'd. */
typedef struct OpSlot {
    TsOperator op;
    char *source;              /* a file, or what declared the operator */
    int line, col;             /* in source, when line > 0 */
    bool in_arena;
    size_t kernel_cap;
    TsKernelEntry kernel0;     /* op.kernels while there is one (most operators have one) */
    size_t next_overload;      /* index of the next overload of the same name, or NO_OP */
    size_t last_overload;      /* on the first overload of a name: the chain's tail */
    uint64_t hash_name;        /* of the schema's name, and of name and overload: kept, */
    uint64_t hash_full;        /* so growing and merging never hash a string again */
} OpSlot;

struct TsOpTable {
    OpSlot **ops;
    size_t n, cap;
    uint32_t *by_full;         /* buckets: op index + 1, 0 = empty; nbuckets a power of 2 */
    uint32_t *by_name;         /* buckets: index + 1 of a name's first overload */
    size_t nbuckets;
    TsWaitingKernel *waiting;  /* kernels for operators not declared yet (optable.h) */
    size_t n_waiting, cap_waiting;
    char **sources;            /* TorchScript files plugins ship, in load order */
    size_t n_sources;
    TsPassList passes;         /* graph passes, in registration order */
    _Atomic(void *) cache;     /* the frontend's, made on first use */
    void (*cache_free)(void *);
    /* Deferred plugins (ts_optable_defer): while settled is false a loader may still grow
     * the table, so lookups read under lock's read side and the loader writes under its
     * write side; once settled, nothing changes and lookups take no lock. */
    atomic_bool settled;
    bool load_failed;          /* set before settled: the loader gives its error again */
    pthread_rwlock_t lock;
    int (*load_rest)(void *ctx, TsError *err);
    void *load_ctx;
};

/* The table this thread is loading deferred plugins into: its own lookups (plugin.c's,
 * and a plugin init's) must not take the read lock under the write lock it holds. */
static _Thread_local const TsOpTable *writing;

/* Takes the read lock when the table may still grow; returns whether it did. */
static bool read_begin(const TsOpTable *t)
{
    if (atomic_load_explicit(&t->settled, memory_order_acquire) || writing == t)
        return false;
    pthread_rwlock_rdlock((pthread_rwlock_t *)&t->lock);
    return true;
}

static void read_end(const TsOpTable *t, bool locked)
{
    if (locked)
        pthread_rwlock_unlock((pthread_rwlock_t *)&t->lock);
}

/* Names are hashed eight bytes at a time (startup hashes ~3000 of them, for declarations
 * and kernels); a name's hash is mixed with its overload's for the full name's. */
static uint64_t mix(uint64_t h)
{
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93u;
    return h ^ h >> 32;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    size_t n = strlen(s);
    for (; n >= 8; s += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15u;
    }
    uint64_t w = 0;
    for (size_t i = 0; i < n; i++)
        w |= (uint64_t)(unsigned char)s[i] << 8 * i;
    return mix((h ^ w ^ (uint64_t)n << 59) * 0x9e3779b97f4a7c15u);
}

static uint64_t hash_name(const char *name) { return hash_str(14695981039346656037u, name); }
static uint64_t hash_full_from(uint64_t h_name, const char *overload)
{
    return hash_str(h_name, overload);
}
static uint64_t hash_full(const char *name, const char *overload)
{
    return hash_full_from(hash_name(name), overload);
}

TsOpKey ts_op_key(const char *qualname, const char *overload)
{
    TsOpKey k = { qualname, overload ? overload : "", hash_name(qualname), 0 };
    k.hash_full = hash_full_from(k.hash_name, k.overload);
    return k;
}

TsOpTable *ts_optable_new(TsError *err)
{
    TsOpTable *t = calloc(1, sizeof *t);
    if (t && pthread_rwlock_init(&t->lock, NULL) != 0) {
        free(t);
        t = NULL;
    }
    if (!t)
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    else
        atomic_init(&t->settled, true);
    return t;
}

/* ---- deferred plugins ------------------------------------------------------------- */

void ts_optable_defer(TsOpTable *t, int (*load_rest)(void *ctx, TsError *err), void *ctx)
{
    t->load_rest = load_rest;
    t->load_ctx = ctx;
    atomic_store_explicit(&t->settled, false, memory_order_release);
}

bool ts_optable_settled(const TsOpTable *t)
{
    return atomic_load_explicit(&t->settled, memory_order_acquire);
}

int ts_optable_complete(const TsOpTable *t, TsError *err)
{
    if (writing == t || (ts_optable_settled(t) && !t->load_failed))
        return 0;
    return t->load_rest(t->load_ctx, err);
}

void ts_optable_write_begin(TsOpTable *t)
{
    pthread_rwlock_wrlock(&t->lock);
    writing = t;
}

void ts_optable_write_end(TsOpTable *t, bool failed)
{
    writing = NULL;
    t->load_failed = failed;
    atomic_store_explicit(&t->settled, true, memory_order_release);
    pthread_rwlock_unlock(&t->lock);
}

int ts_kernel_entry_init(TsKernelEntry *e, const char *backend, TsKernelFn fn,
                         TsKernelFactory factory, const char *plugin)
{
    /* one allocation for both names: a table holds a thousand kernels */
    size_t nb = strlen(backend) + 1, np = strlen(plugin) + 1;
    char *names = malloc(nb + np);
    *e = (TsKernelEntry){ names, fn, factory, names ? names + nb : NULL, false };
    if (!names)
        return TS_ERR_NOMEM;
    memcpy(e->backend, backend, nb);
    memcpy(e->plugin, plugin, np);
    return 0;
}

/* The same with the names in arena (an operator's, which outlives its kernels). */
static int kernel_entry_init_in(TsKernelEntry *e, TsArena *arena, const char *backend,
                                TsKernelFn fn, TsKernelFactory factory, const char *plugin)
{
    size_t nb = strlen(backend) + 1, np = strlen(plugin) + 1;
    char *names = ts_arena_alloc(arena, nb + np);
    *e = (TsKernelEntry){ names, fn, factory, names ? names + nb : NULL, true };
    if (!names)
        return TS_ERR_NOMEM;
    memcpy(e->backend, backend, nb);
    memcpy(e->plugin, plugin, np);
    return 0;
}

void ts_kernel_entry_clear(TsKernelEntry *e)
{
    if (!e->in_arena)
        free(e->backend);
    memset(e, 0, sizeof *e);
}

static void slot_free(OpSlot *s)
{
    bool in_arena = s->in_arena;
    for (size_t i = 0; i < s->op.n_kernels; i++)
        ts_kernel_entry_clear(&s->op.kernels[i]);
    if (s->op.kernels != &s->kernel0)
        free(s->op.kernels);
    ts_schema_free(s->op.schema);      /* last: it may free the arena s is in */
    if (!in_arena)
        free(s);
}

void ts_optable_free(TsOpTable *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        slot_free(t->ops[i]);
    free(t->ops);
    free(t->by_full);
    free(t->by_name);
    for (size_t i = 0; i < t->n_waiting; i++)
        ts_waiting_kernel_clear(&t->waiting[i]);
    free(t->waiting);
    for (size_t i = 0; i < t->n_sources; i++)
        free(t->sources[i]);
    free(t->sources);
    ts_pass_list_free(&t->passes);
    void *cache = atomic_load(&t->cache);
    if (cache)
        t->cache_free(cache);
    pthread_rwlock_destroy(&t->lock);
    free(t);
}

TsPassList *ts_optable_passes(TsOpTable *t) { return &t->passes; }

int ts_optable_run_passes(const TsOpTable *t, int stage, TsGraph *g, const char *fn_name,
                          TsError *err)
{
    if (ts_optable_settled(t) || writing == t)
        return ts_passes_run(&t->passes, stage, g, fn_name, err);
    /* a loader may grow the list while the passes run (one may even load it, by asking
     * for an operator): they run from a copy taken under the read lock (names and
     * contexts stay where they are) */
    bool locked = read_begin(t);
    TsPassList copy = { NULL, t->passes.n, t->passes.n };
    if (copy.n && (copy.items = malloc(copy.n * sizeof *copy.items)))
        memcpy(copy.items, t->passes.items, copy.n * sizeof *copy.items);
    read_end(t, locked);
    if (copy.n && !copy.items)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    int rc = ts_passes_run(&copy, stage, g, fn_name, err);
    free(copy.items);
    return rc;
}

/* ---- TorchScript sources -------------------------------------------------------- */

int ts_optable_add_source(TsOpTable *t, const char *path, TsError *err)
{
    char **s = realloc(t->sources, (t->n_sources + 1) * sizeof *s);
    if (!s)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    t->sources = s;
    if (!(s[t->n_sources] = strdup(path)))
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    t->n_sources++;
    return 0;
}

size_t ts_optable_sources(const TsOpTable *t, const char *const **paths)
{
    TsError ignore = TS_ERROR_INIT;    /* every plugin's: a failure lists the loaded ones' */
    ts_optable_complete(t, &ignore);
    ts_error_clear(&ignore);
    bool locked = read_begin(t);
    *paths = (const char *const *)t->sources;
    size_t n = t->n_sources;
    read_end(t, locked);
    return n;
}

void *ts_optable_cache(const TsOpTable *t, void *(*make)(const TsOpTable *t, TsError *err),
                       void (*destroy)(void *cache), TsError *err)
{
    TsOpTable *m = (TsOpTable *)t;     /* the cache slot is the one mutable part */
    if (ts_optable_complete(t, err))   /* the cache is of every plugin's sources */
        return NULL;
    void *c = atomic_load(&m->cache);
    if (c)
        return c;
    void *fresh = make(t, err), *expected = NULL;
    if (!fresh)
        return NULL;
    if (atomic_compare_exchange_strong(&m->cache, &expected, fresh)) {
        m->cache_free = destroy;       /* by the one thread that stored it: no race */
        return fresh;
    }
    destroy(fresh);                    /* another thread made it first */
    return expected;
}

/* ---- lookups ------------------------------------------------------------------ */

static size_t find_full_hashed(const TsOpTable *t, uint64_t h, const char *name,
                               const char *overload)
{
    if (!t->nbuckets)
        return NO_OP;
    size_t mask = t->nbuckets - 1;
    for (size_t b = h & mask;; b = (b + 1) & mask) {
        size_t e = t->by_full[b];
        if (!e)
            return NO_OP;
        const OpSlot *o = t->ops[e - 1];
        if (o->hash_full == h && strcmp(o->op.schema->name, name) == 0 &&
            strcmp(o->op.schema->overload, overload) == 0)
            return e - 1;
    }
}

static size_t find_full(const TsOpTable *t, const char *name, const char *overload)
{
    return t->nbuckets ? find_full_hashed(t, hash_full(name, overload), name, overload) : NO_OP;
}

static size_t find_name_hashed(const TsOpTable *t, uint64_t h, const char *name)
{
    if (!t->nbuckets)
        return NO_OP;
    size_t mask = t->nbuckets - 1;
    for (size_t b = h & mask;; b = (b + 1) & mask) {
        size_t e = t->by_name[b];
        if (!e)
            return NO_OP;
        const OpSlot *o = t->ops[e - 1];
        if (o->hash_name == h && strcmp(o->op.schema->name, name) == 0)
            return e - 1;
    }
}

static size_t find_name(const TsOpTable *t, const char *name)
{
    return t->nbuckets ? find_name_hashed(t, hash_name(name), name) : NO_OP;
}

const TsOperator *ts_optable_find(const TsOpTable *t, const char *qualname, const char *overload)
{
    bool locked = read_begin(t);
    size_t i = find_full(t, qualname, overload ? overload : "");
    const TsOperator *op = i == NO_OP ? NULL : &t->ops[i]->op;
    read_end(t, locked);
    return op;
}

TsOperator *ts_optable_find_key(const TsOpTable *t, const TsOpKey *key)
{
    size_t i = find_full_hashed(t, key->hash_full, key->qualname, key->overload);
    return i == NO_OP ? NULL : &t->ops[i]->op;
}

TsOperator *ts_optable_find_mut(TsOpTable *t, const char *qualname, const char *overload)
{
    size_t i = find_full(t, qualname, overload ? overload : "");
    return i == NO_OP ? NULL : &t->ops[i]->op;
}

size_t ts_optable_overloads(const TsOpTable *t, const char *qualname, const TsOperator **out,
                            size_t max)
{
    bool locked = read_begin(t);
    size_t n = 0;
    for (size_t i = find_name(t, qualname); i != NO_OP; i = t->ops[i]->next_overload) {
        if (n < max)
            out[n] = &t->ops[i]->op;
        n++;
    }
    read_end(t, locked);
    return n < max ? n : max;
}

bool ts_optable_next(const TsOpTable *t, size_t *pos, const TsOperator **op)
{
    bool locked = read_begin(t), more = *pos < t->n;
    if (more)
        *op = &t->ops[(*pos)++]->op;
    read_end(t, locked);
    return more;
}

size_t ts_optable_size(const TsOpTable *t)
{
    bool locked = read_begin(t);
    size_t n = t->n;
    read_end(t, locked);
    return n;
}

const TsKernelEntry *ts_operator_kernel_exact(const TsOperator *op, const char *backend)
{
    for (size_t i = 0; i < op->n_kernels; i++)
        if (strcmp(op->kernels[i].backend, backend) == 0)
            return &op->kernels[i];
    return NULL;
}

const TsKernelEntry *ts_operator_kernel(const TsOperator *op, const char *backend)
{
    const TsKernelEntry *k = backend ? ts_operator_kernel_exact(op, backend) : NULL;
    return k ? k : ts_operator_kernel_exact(op, TS_BACKEND_ANY);
}

void ts_operator_source(const TsOperator *op, char *buf, size_t size)
{
    const OpSlot *s = (const OpSlot *)op;
    if (s->line > 0)
        snprintf(buf, size, "%s:%d:%d", s->source, s->line, s->col);
    else
        snprintf(buf, size, "%s", s->source);
}

void ts_operator_full_name(const TsOperator *op, char *buf, size_t size)
{
    const TsSchema *s = op->schema;
    snprintf(buf, size, "%s%s%s", s->name, *s->overload ? "." : "", s->overload);
}

/* ---- growing ------------------------------------------------------------------ */

/* Puts operator i into both indexes (the name index only if it is its name's first). Returns
 * the index of its name's first overload. */
static size_t index_op(TsOpTable *t, size_t i)
{
    const OpSlot *o = t->ops[i];
    size_t mask = t->nbuckets - 1;
    size_t b = o->hash_full & mask;
    while (t->by_full[b])
        b = (b + 1) & mask;
    t->by_full[b] = (uint32_t)(i + 1);
    size_t head = find_name_hashed(t, o->hash_name, o->op.schema->name);
    if (head != NO_OP)
        return head;
    for (b = o->hash_name & mask; t->by_name[b]; b = (b + 1) & mask)
        ;
    t->by_name[b] = (uint32_t)(i + 1);
    return i;
}

/* Rebuilds both indexes with nbuckets buckets (a power of two above twice the ops). */
static int rehash(TsOpTable *t, size_t nbuckets, TsError *err)
{
    uint32_t *full = calloc(nbuckets, sizeof *full), *names = calloc(nbuckets, sizeof *names);
    if (!full || !names) {
        free(full);
        free(names);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    free(t->by_full);
    free(t->by_name);
    t->by_full = full;
    t->by_name = names;
    t->nbuckets = nbuckets;
    for (size_t i = 0; i < t->n; i++)
        index_op(t, i);
    return 0;
}

/* Room for n more operators: after this, insert() cannot fail. */
int ts_optable_reserve(TsOpTable *t, size_t n, TsError *err)
{
    size_t need = t->n + n;
    if (need < t->n || need > UINT32_MAX / 4)
        return ts_error_set(err, TS_ERR_LIMIT, "operator table too large");
    if (need > t->cap) {
        size_t cap = t->cap ? t->cap : 64;
        while (cap < need)
            cap *= 2;
        OpSlot **ops = realloc(t->ops, cap * sizeof *ops);
        if (!ops)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        t->ops = ops;
        t->cap = cap;
    }
    if (need * 2 > t->nbuckets) {
        size_t nb = t->nbuckets ? t->nbuckets : 128;
        while (need * 2 > nb)
            nb *= 2;
        return rehash(t, nb, err);
    }
    return 0;
}

static void insert(TsOpTable *t, OpSlot *slot)
{
    assert(t->n < t->cap && (t->n + 1) * 2 <= t->nbuckets);
    size_t i = t->n++;
    t->ops[i] = slot;
    slot->next_overload = NO_OP;
    slot->last_overload = i;
    size_t head = index_op(t, i);
    if (head != i) {
        OpSlot *h = t->ops[head];
        t->ops[h->last_overload]->next_overload = i;
        h->last_overload = i;
    }
}

int ts_optable_add(TsOpTable *t, TsSchema *schema, const char *plugin, const char *source,
                   TsError *err)
{
    TsOpKey key = ts_op_key(schema->name, schema->overload);
    return ts_optable_add_keyed(t, schema, &key, plugin, source, 0, 0, err);
}

int ts_optable_add_keyed(TsOpTable *t, TsSchema *schema, const TsOpKey *key, const char *plugin,
                         const char *source, int line, int col, TsError *err)
{
    if (find_full_hashed(t, key->hash_full, schema->name, schema->overload) != NO_OP)
        return ts_error_set(err, TS_ERR_PLUGIN, "%s%s%s is already declared", schema->name,
                            *schema->overload ? "." : "", schema->overload);
    plugin = plugin ? plugin : "";
    source = source ? source : "";
    size_t np = strlen(plugin) + 1, ns = strlen(source) + 1;
    if (ts_optable_reserve(t, 1, err))
        return err ? err->code : TS_ERR_NOMEM;
    /* in the schema's arena, zeroed, with the strings the set's other operators have
     * there already shared; or malloc'd, strings and all */
    TsArena *a = schema->arena;
    bool share = a && a->op_plugin && strcmp(a->op_plugin, plugin) == 0 &&
                 strcmp(a->op_source, source) == 0;
    size_t extra = share ? 0 : np + ns;
    OpSlot *slot = a ? ts_arena_alloc(a, sizeof *slot + extra) : calloc(1, sizeof *slot + extra);
    if (!slot)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    slot->in_arena = a != NULL;
    if (share) {
        slot->op.plugin = (char *)a->op_plugin;
        slot->source = (char *)a->op_source;
    } else {
        slot->op.plugin = memcpy((char *)(slot + 1), plugin, np);
        slot->source = memcpy((char *)(slot + 1) + np, source, ns);
        if (a)
            a->op_plugin = slot->op.plugin, a->op_source = slot->source;
    }
    slot->line = line, slot->col = col;
    slot->op.schema = schema;
    slot->hash_name = key->hash_name;
    slot->hash_full = key->hash_full;
    insert(t, slot);
    return 0;
}

int ts_optable_merge(TsOpTable *dst, TsOpTable *src, TsError *err)
{
    for (size_t i = 0; i < src->n; i++) {
        const TsSchema *s = src->ops[i]->op.schema;
        if (find_full_hashed(dst, src->ops[i]->hash_full, s->name, s->overload) != NO_OP)
            return ts_error_set(err, TS_ERR_PLUGIN, "%s%s%s is already declared", s->name,
                                *s->overload ? "." : "", s->overload);
    }
    if (ts_optable_reserve(dst, src->n, err))
        return err ? err->code : TS_ERR_NOMEM;
    char **sources = realloc(dst->sources, (dst->n_sources + src->n_sources + 1) *
                                           sizeof *sources);
    if (!sources)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    dst->sources = sources;
    for (size_t i = 0; i < src->n_sources; i++)
        dst->sources[dst->n_sources++] = src->sources[i];
    src->n_sources = 0;
    for (size_t i = 0; i < src->n; i++)
        insert(dst, src->ops[i]);
    src->n = 0;
    free(src->by_full);        /* src is empty: no indexes until it grows again */
    free(src->by_name);
    src->by_full = src->by_name = NULL;
    src->nbuckets = 0;
    return 0;
}

/* ---- kernels ------------------------------------------------------------------ */

int ts_operator_reserve_kernels(TsOperator *op, size_t n, TsError *err)
{
    OpSlot *s = (OpSlot *)op;
    if (op->n_kernels + n <= s->kernel_cap)
        return 0;
    size_t cap = op->n_kernels + n;
    if (cap < n || cap > SIZE_MAX / sizeof(TsKernelEntry))
        return ts_error_set(err, TS_ERR_LIMIT, "too many kernels");
    if (cap == 1) {
        op->kernels = &s->kernel0;
        s->kernel_cap = 1;
        return 0;
    }
    bool inline_ = op->kernels == &s->kernel0;
    TsKernelEntry *k = realloc(inline_ ? NULL : op->kernels, cap * sizeof *k);
    if (!k)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (inline_)
        k[0] = s->kernel0;
    op->kernels = k;
    s->kernel_cap = cap;
    return 0;
}

void ts_operator_push_kernel(TsOperator *op, TsKernelEntry entry)
{
    assert(op->n_kernels < ((OpSlot *)op)->kernel_cap);
    op->kernels[op->n_kernels++] = entry;
}

void ts_operator_replace_kernel(TsOperator *op, TsKernelEntry entry)
{
    for (size_t i = 0; i < op->n_kernels; i++)
        if (strcmp(op->kernels[i].backend, entry.backend) == 0) {
            ts_kernel_entry_clear(&op->kernels[i]);
            op->kernels[i] = entry;
            return;
        }
    assert(!"no kernel to replace");
}

int ts_kernel_dup_error(TsError *err, const char *plugin, const char *name, const char *backend,
                        const char *first)
{
    return ts_error_set(err, TS_ERR_PLUGIN,
                        "plugin '%s' registers a second kernel for %s on backend '%s' "
                        "(plugin '%s' registered the first)",
                        plugin, name, backend, first);
}

int ts_operator_add_kernel(TsOperator *op, const char *backend, TsKernelFn fn,
                           TsKernelFactory factory, const char *plugin, TsError *err)
{
    const TsKernelEntry *old = ts_operator_kernel_exact(op, backend);
    if (old) {
        char name[256];
        ts_operator_full_name(op, name, sizeof name);
        return ts_kernel_dup_error(err, plugin, name, backend, old->plugin);
    }
    TsKernelEntry e;
    TsArena *arena = ((OpSlot *)op)->in_arena ? op->schema->arena : NULL;
    if ((arena ? kernel_entry_init_in(&e, arena, backend, fn, factory, plugin)
               : ts_kernel_entry_init(&e, backend, fn, factory, plugin)) ||
        ts_operator_reserve_kernels(op, 1, err)) {
        ts_kernel_entry_clear(&e);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    ts_operator_push_kernel(op, e);
    return 0;
}

/* ---- kernels waiting for their schema ----------------------------------------- */

int ts_waiting_kernel_init(TsWaitingKernel *w, const char *qualname, const char *overload,
                           const char *backend, TsKernelFn fn, TsKernelFactory factory,
                           const char *plugin)
{
    size_t nq = strlen(qualname) + 1, no = strlen(overload) + 1;
    memset(w, 0, sizeof *w);
    char *names = malloc(nq + no);
    if (!names || ts_kernel_entry_init(&w->entry, backend, fn, factory, plugin)) {
        free(names);
        memset(w, 0, sizeof *w);
        return TS_ERR_NOMEM;
    }
    w->qualname = memcpy(names, qualname, nq);
    w->overload = memcpy(names + nq, overload, no);
    return 0;
}

void ts_waiting_kernel_clear(TsWaitingKernel *w)
{
    free(w->qualname);
    ts_kernel_entry_clear(&w->entry);
    memset(w, 0, sizeof *w);
}

const TsWaitingKernel *ts_optable_find_waiting(const TsOpTable *t, const char *qualname,
                                               const char *overload, const char *backend)
{
    for (size_t i = 0; i < t->n_waiting; i++) {
        const TsWaitingKernel *w = &t->waiting[i];
        if (strcmp(w->qualname, qualname) == 0 && strcmp(w->overload, overload) == 0 &&
            strcmp(w->entry.backend, backend) == 0)
            return w;
    }
    return NULL;
}

int ts_optable_reserve_waiting(TsOpTable *t, size_t n, TsError *err)
{
    if (t->n_waiting + n <= t->cap_waiting)
        return 0;
    size_t cap = t->n_waiting + n;
    if (cap < n || cap > SIZE_MAX / 2 / sizeof(TsWaitingKernel))
        return ts_error_set(err, TS_ERR_LIMIT, "too many kernels");
    cap = cap < 16 ? 16 : cap * 2;
    TsWaitingKernel *w = realloc(t->waiting, cap * sizeof *w);
    if (!w)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    t->waiting = w;
    t->cap_waiting = cap;
    return 0;
}

void ts_optable_push_waiting(TsOpTable *t, TsWaitingKernel w)
{
    assert(t->n_waiting < t->cap_waiting);
    t->waiting[t->n_waiting++] = w;
}

bool ts_optable_has_waiting(const TsOpTable *t) { return t->n_waiting > 0; }

int ts_optable_resolve(TsOpTable *t, TsError *err)
{
    /* Everything that can fail first: each operator exists, has no kernel for the backend
     * (two waiting kernels for one operator and backend were refused at registration), and
     * has room for all its waiting kernels. */
    for (size_t i = 0; i < t->n_waiting; i++) {
        const TsWaitingKernel *w = &t->waiting[i];
        TsOperator *op = ts_optable_find_mut(t, w->qualname, w->overload);
        if (!op)
            return ts_error_set(err, TS_ERR_PLUGIN,
                                "plugin '%s' registers a kernel for %s%s%s, which no schema "
                                "declares",
                                w->entry.plugin, w->qualname, *w->overload ? "." : "",
                                w->overload);
        const TsKernelEntry *old = ts_operator_kernel_exact(op, w->entry.backend);
        if (old) {
            char name[256];
            ts_operator_full_name(op, name, sizeof name);
            return ts_kernel_dup_error(err, w->entry.plugin, name, w->entry.backend,
                                       old->plugin);
        }
        size_t n = 0;
        for (size_t j = 0; j < t->n_waiting; j++)
            n += strcmp(t->waiting[j].qualname, w->qualname) == 0 &&
                 strcmp(t->waiting[j].overload, w->overload) == 0;
        if (ts_operator_reserve_kernels(op, n, err))
            return err ? err->code : TS_ERR_NOMEM;
    }
    for (size_t i = 0; i < t->n_waiting; i++) {
        TsWaitingKernel *w = &t->waiting[i];
        ts_operator_push_kernel(ts_optable_find_mut(t, w->qualname, w->overload), w->entry);
        free(w->qualname);
    }
    free(t->waiting);
    t->waiting = NULL;
    t->n_waiting = t->cap_waiting = 0;
    return 0;
}
