/* emit_env.c — the emitter's Environment: which local names exist, with which types.
 *
 * One frame per block being emitted (the function body, each branch of an if, each loop
 * body). Writing a variable records its type in the current frame and emits prim::Store;
 * reading looks the name up outward and emits prim::Load typed as recorded. SSA conversion
 * (emit_ssa.c) later turns the loads and stores into plain values. A name can also carry a
 * deferred error — a branch join that could not type it ("Type mismatch", "is not defined
 * in the false branch") — which is only reported if the name is used afterwards, as in
 * PyTorch. Blocks that always leave (return/raise) are remembered here too.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"

int ts_emit_error(TsEmitter *e, TsSourceRange r, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ts_error_clear(e->err);
    return ts_error_at(e->err, TS_ERR_RUNTIME, r, "%s", buf);
}

int ts_env_push(TsEmitter *e, TsBlock *block, bool is_loop)
{
    TsFrame *f = calloc(1, sizeof *f);
    if (!f)
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    f->block = block;
    f->is_loop = is_loop;
    f->next = e->env;
    e->env = f;
    return 0;
}

static void frame_free(TsFrame *f)
{
    for (size_t i = 0; i < f->n_vars; i++) {
        free(f->vars[i].error);
        free(f->vars[i].sugar);
    }
    free(f->vars);
    free(f);
}

void ts_env_pop(TsEmitter *e)
{
    TsFrame *f = e->env;
    e->env = f->next;
    frame_free(f);
}

void ts_env_free(TsFrame *f)
{
    while (f) {
        TsFrame *next = f->next;
        frame_free(f);
        f = next;
    }
}

TsVar *ts_env_find_here(const TsFrame *f, const char *name)
{
    for (size_t i = 0; i < f->n_vars; i++)
        if (f->vars[i].name == name)
            return &f->vars[i];
    return NULL;
}

TsVar *ts_env_find(const TsEmitter *e, const char *name)
{
    for (TsFrame *f = e->env; f; f = f->next) {
        TsVar *v = ts_env_find_here(f, name);
        if (v)
            return v;
    }
    return NULL;
}

int ts_env_set(TsEmitter *e, const char *name, const TsType *type, const char *error)
{
    if (!name)    /* the symbol of a name could not be interned */
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    TsFrame *f = e->env;
    TsVar *v = ts_env_find_here(f, name);
    if (!v) {
        if (f->n_vars == f->cap_vars) {
            size_t cap = f->cap_vars ? 2 * f->cap_vars : 8;
            TsVar *nv = realloc(f->vars, cap * sizeof *nv);
            if (!nv)
                return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
            f->vars = nv;
            f->cap_vars = cap;
        }
        v = &f->vars[f->n_vars++];
        v->name = name;
        v->error = NULL;
        v->store_name = name;
        v->sugar = NULL;
    }
    free(v->error);
    v->error = NULL;
    free(v->sugar);
    v->sugar = NULL;
    v->type = type;
    if (error && !(v->error = strdup(error)))
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    return 0;
}

int ts_env_bind_sugar(TsEmitter *e, const char *name, const TsSugared *sv)
{
    if (ts_env_set(e, name, NULL, NULL) != 0)
        return -1;
    TsVar *v = ts_env_find_here(e->env, name);
    if (!(v->sugar = malloc(sizeof *v->sugar)))
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    *v->sugar = *sv;
    return 0;
}

/* A name worth giving to the value ("$tmp" names of the emitter are not). */
static bool meaningful(const char *name) { return name[0] != '$'; }

int ts_env_store(TsEmitter *e, const char *name, TsIrValue *v, TsSourceRange range)
{
    if (!(name = ts_symbol(name)))
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    TsFrame *f = e->env;
    bool fresh = !ts_env_find_here(f, name);
    /* In a branch or loop body, a name of an enclosing block keeps its type there (an
     * empty list display takes that list type), as PyTorch's setSugaredVar checks. */
    TsVar *outer = NULL;
    for (TsFrame *p = f->is_comp ? NULL : f->next; p && !outer; p = p->next)
        outer = ts_env_find_here(p, name);
    if (outer && outer->type) {
        const TsType *lt = outer->type;
        if (ts_type_kind(lt) == TS_TYPE_OPTIONAL)
            lt = ts_type_elem(lt, 0);
        if (ts_type_kind(lt) == TS_TYPE_LIST && v->type == ts_type_list(ts_type_tensor()) &&
            v->node->kind == ts_symbol("prim::ListConstruct") && v->node->n_inputs == 0 &&
            !(v = ts_emit_list(e, ts_type_elem(lt, 0), 0, NULL, range)))
            return -1;
        if (!ts_type_is_subtype_of(v->type, outer->type)) {
            char a[256], b[256];
            ts_type_annotation(outer->type, a, sizeof a);
            ts_type_annotation(v->type, b, sizeof b);
            return ts_emit_error(e, range, "Variable '%s' previously had type %s but is now "
                                 "being assigned to a value of type %s", name, a, b);
        }
    }
    if (!v->name && meaningful(name) && v->node->owning_block == f->block &&
        ts_irvalue_set_name(v, name, false, e->err) != 0)
        return -1;
    if (ts_env_set(e, name, v->type, NULL) != 0)
        return -1;
    TsVar *var = ts_env_find_here(f, name);
    if (f->is_comp && fresh) {
        /* a comprehension's target is its own variable, whatever the enclosing scope
         * calls a name of the same spelling ('$' keeps it apart from user names) */
        char buf[256];
        snprintf(buf, sizeof buf, "%s$comp%d", name, ++e->n_comp_vars);
        if (!(var->store_name = ts_symbol(buf)))
            return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    }
    TsNode *n = ts_emit_node(e, "prim::Store", 1, &v, 0, range);
    if (!n || ts_node_set_str(n, ts_symbol("attr::name"), var->store_name, e->err) != 0)
        return -1;
    return 0;
}

TsIrValue *ts_env_load(TsEmitter *e, const char *name, TsSourceRange range)
{
    if (!(name = ts_symbol(name)))
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory"), NULL;
    TsVar *v = ts_env_find(e, name);
    if (!v) {
        ts_emit_error(e, range, "undefined value %s", name);
        return NULL;
    }
    if (v->sugar)    /* `f = len; f += 1`: the error of using len as a value */
        return ts_sugar_as_value(e, v->sugar, range);
    if (v->error && strncmp(v->error, "undefined value ", 16) == 0)   /* del x */
        return ts_emit_error(e, range, "%s", v->error), NULL;
    if (v->error) {
        ts_error_clear(e->err);
        ts_error_at(e->err, TS_ERR_RUNTIME, range, "%sand was used here", v->error);
        return NULL;
    }
    TsNode *n = ts_emit_node(e, "prim::Load", 0, NULL, 1, range);
    if (!n || ts_node_set_str(n, ts_symbol("attr::name"), v->store_name, e->err) != 0)
        return NULL;
    n->outputs[0]->type = v->type;
    return n->outputs[0];
}

bool ts_env_is_exit(const TsEmitter *e, const TsBlock *b)
{
    for (size_t i = 0; i < e->n_exit_blocks; i++)
        if (e->exit_blocks[i] == b)
            return true;
    return false;
}

int ts_env_mark_exit(TsEmitter *e, TsBlock *b)
{
    if (ts_env_is_exit(e, b))
        return 0;
    if (e->n_exit_blocks == e->cap_exit_blocks) {
        size_t cap = e->cap_exit_blocks ? 2 * e->cap_exit_blocks : 8;
        TsBlock **nb = realloc(e->exit_blocks, cap * sizeof *nb);
        if (!nb)
            return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        e->exit_blocks = nb;
        e->cap_exit_blocks = cap;
    }
    e->exit_blocks[e->n_exit_blocks++] = b;
    return 0;
}
