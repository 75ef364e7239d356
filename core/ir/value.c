/* value.c — IR values: numbering, debug names, and use lists.
 *
 * A value's debug name is unique in its graph. Setting a name that another value holds takes
 * it, and the old holder is renamed "base.N", as PyTorch's Value::setDebugName does: a name
 * that already ends in ".<digits>" has that number as its starting suffix and the rest as its
 * base; the graph remembers, per base, one past the last suffix it handed out, and the next
 * rename of that base starts after it; a candidate that is taken is skipped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/graph_internal.h"

#define TS_NAME_TOMBSTONE ((char *)&ts_namemap_free)

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

TsNameEntry *ts_namemap_find(const TsNameMap *m, const char *key)
{
    if (!m->cap)
        return NULL;
    size_t j = hash_str(key) & (m->cap - 1);
    for (;;) {
        TsNameEntry *e = &m->slots[j];
        if (!e->key)
            return NULL;
        if (e->key != TS_NAME_TOMBSTONE && strcmp(e->key, key) == 0)
            return e;
        j = (j + 1) & (m->cap - 1);
    }
}

static int namemap_rehash(TsNameMap *m, size_t ncap)
{
    TsNameEntry *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    size_t used = 0;
    for (size_t i = 0; i < m->cap; i++) {
        TsNameEntry *e = &m->slots[i];
        if (!e->key || e->key == TS_NAME_TOMBSTONE)
            continue;
        size_t j = hash_str(e->key) & (ncap - 1);
        while (ns[j].key)
            j = (j + 1) & (ncap - 1);
        ns[j] = *e;
        used++;
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    m->used = used;
    return 0;
}

TsNameEntry *ts_namemap_insert(TsNameMap *m, const char *key)
{
    TsNameEntry *e = ts_namemap_find(m, key);
    if (e)
        return e;
    if ((m->used + 1) * 2 > m->cap && namemap_rehash(m, m->cap ? m->cap * 2 : 16) != 0)
        return NULL;
    char *copy = strdup(key);
    if (!copy)
        return NULL;
    size_t j = hash_str(key) & (m->cap - 1);
    while (m->slots[j].key && m->slots[j].key != TS_NAME_TOMBSTONE)
        j = (j + 1) & (m->cap - 1);
    if (!m->slots[j].key)
        m->used++;
    e = &m->slots[j];
    e->key = copy;
    e->value = NULL;
    e->number = 0;
    return e;
}

void ts_namemap_remove(TsNameMap *m, const char *key)
{
    TsNameEntry *e = ts_namemap_find(m, key);
    if (!e)
        return;
    free(e->key);
    e->key = TS_NAME_TOMBSTONE;
    e->value = NULL;
}

bool ts_namemap_is_live(const TsNameEntry *e)
{
    return e->key && e->key != TS_NAME_TOMBSTONE;
}

void ts_namemap_free(TsNameMap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key != TS_NAME_TOMBSTONE)
            free(m->slots[i].key);
    free(m->slots);
    m->slots = NULL;
    m->cap = m->used = 0;
}

TsIrValue *ts_irvalue_new(TsNode *n, size_t offset, const TsType *type, TsError *err)
{
    TsIrValue *v = calloc(1, sizeof *v);
    if (!v) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    v->node = n;
    v->offset = offset;
    v->type = type ? type : ts_type_tensor();
    v->unique = n->graph->next_unique++;
    return v;
}

static void unname(TsGraph *g, TsIrValue *v)
{
    if (!v->name)
        return;
    ts_namemap_remove(&g->names, v->name);
    free(v->name);
    v->name = NULL;
}

void ts_irvalue_free(TsGraph *g, TsIrValue *v)
{
    if (!v)
        return;
    unname(g, v);
    free(v->uses);
    free(v);
}

bool ts_ir_name_is_number(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* Gives v the name, which no value holds. */
static int take_name(TsGraph *g, TsIrValue *v, const char *name, TsError *err)
{
    char *copy = strdup(name);
    TsNameEntry *e = copy ? ts_namemap_insert(&g->names, name) : NULL;
    if (!e) {
        free(copy);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    e->value = v;
    v->name = copy;
    return 0;
}

/* The name the old holder of `name` moves to, and the graph's note for its base. */
static char *next_free_name(TsGraph *g, const char *name, TsError *err)
{
    size_t len = strlen(name);
    const char *dot = strrchr(name, '.');
    size_t base_len = len, suffix = 1;
    if (dot && dot[1] && ts_ir_name_is_number(dot + 1) && strlen(dot + 1) < 19) {
        base_len = (size_t)(dot - name);
        suffix = (size_t)strtoull(dot + 1, NULL, 10);
    }
    char *base = strndup(name, base_len);
    char *cand = base ? malloc(base_len + 24) : NULL;
    if (!cand) {
        free(base);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    TsNameEntry *note = ts_namemap_find(&g->suffixes, base);
    if (note && note->number + 1 > suffix)
        suffix = note->number + 1;
    do
        snprintf(cand, base_len + 24, "%s.%zu", base, suffix++);
    while (ts_namemap_find(&g->names, cand));
    note = ts_namemap_insert(&g->suffixes, base);
    free(base);
    if (!note) {
        free(cand);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    note->number = suffix;
    return cand;
}

int ts_irvalue_set_name(TsIrValue *v, const char *name, bool exact, TsError *err)
{
    TsGraph *g = v->node->graph;
    if (name && !exact && ts_ir_name_is_number(name))
        return ts_error_set(err, TS_ERR_VALUE, "Invalid name: '%s'", name);
    unname(g, v);
    if (!name || !*name)
        return 0;
    TsNameEntry *held = ts_namemap_find(&g->names, name);
    if (held) {
        TsIrValue *old = held->value;
        char *moved = next_free_name(g, name, err);
        if (!moved)
            return err->code;
        unname(g, old);
        int rc = take_name(g, old, moved, err);
        free(moved);
        if (rc)
            return rc;
    }
    if (exact && ts_ir_name_is_number(name) && strlen(name) < 19) {
        size_t num = (size_t)strtoull(name, NULL, 10);
        if (g->next_unique <= num)
            g->next_unique = num + 1;
    }
    return take_name(g, v, name, err);
}

static int add_use(TsIrValue *v, TsNode *user, size_t offset)
{
    if (v->n_uses == v->cap_uses) {
        size_t ncap = v->cap_uses ? v->cap_uses * 2 : 4;
        TsUse *nu = realloc(v->uses, ncap * sizeof *nu);
        if (!nu)
            return -1;
        v->uses = nu;
        v->cap_uses = ncap;
    }
    v->uses[v->n_uses].user = user;
    v->uses[v->n_uses].offset = offset;
    v->n_uses++;
    return 0;
}

int ts_irvalue_replace_all_uses_with(TsIrValue *v, TsIrValue *with, TsError *err)
{
    return ts_irvalue_replace_uses_after(v, NULL, with, err);
}

/* Moves the uses of v for which keep() is false to with; uses keep their order. The space
 * for with's new uses is reserved first, so nothing can fail half way. */
int ts_irvalue_replace_uses_after(TsIrValue *v, TsNode *after, TsIrValue *with,
                                  TsError *err)
{
    if (v == with)
        return 0;
    if (ts_irvalue_reserve_uses(with, v->n_uses) != 0)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    size_t kept = 0;
    for (size_t i = 0; i < v->n_uses; i++) {
        TsUse u = v->uses[i];
        if (after && !ts_node_is_before(after, u.user)) {
            v->uses[kept++] = u;
            continue;
        }
        u.user->inputs[u.offset] = with;
        with->uses[with->n_uses++] = u;
    }
    v->n_uses = kept;
    return 0;
}

int ts_irvalue_reserve_uses(TsIrValue *v, size_t n)
{
    if (n > SIZE_MAX / sizeof *v->uses - v->n_uses)
        return -1;
    size_t need = v->n_uses + n;
    if (need <= v->cap_uses)
        return 0;
    TsUse *nu = realloc(v->uses, need * sizeof *nu);
    if (!nu)
        return -1;
    v->uses = nu;
    v->cap_uses = need;
    return 0;
}

int ts_irvalue_add_use(TsIrValue *v, TsNode *user, size_t offset)
{
    return add_use(v, user, offset);
}
