/* outline.c — TsOutline (inspect.h): a file's top-level statements read from the parser's
 * tree, which the outline keeps (names and string arguments point into it), with each
 * def's and class's decorators as dotted names and string-literal arguments. */
#include <stdlib.h>
#include <string.h>

#include "frontend/ast.h"
#include "frontend/parser.h"
#include "frontend/source.h"
#include "tscript/inspect.h"

struct TsOutline {
    TsTree *tree;              /* the module; owns the strings items point to */
    size_t n;
    TsOutlineItem *items;
    TsDecorator *decorators;   /* every item's, one array */
    size_t n_decorators;
    const char **args;         /* every decorator's, one array */
};

/* "a.b.c" for a NAME or a chain of ATTRs over one, malloc'd; NULL for any other expression
 * (or when out of memory: the decorator then reads as not a name, *nomem set). */
static char *dotted_name(const TsTree *e, bool *nomem)
{
    size_t len = 0;
    const TsTree *t = e;
    for (; t && t->kind == TS_TREE_ATTR; t = t->kids[0])
        len += strlen(t->kids[1]->str) + 1;
    if (!t || t->kind != TS_TREE_NAME)
        return NULL;
    len += strlen(t->str);
    char *s = malloc(len + 1);
    if (!s) {
        *nomem = true;
        return NULL;
    }
    s[len] = '\0';
    for (t = e; t->kind == TS_TREE_ATTR; t = t->kids[0]) {   /* from the right */
        size_t k = strlen(t->kids[1]->str);
        len -= k;
        memcpy(s + len, t->kids[1]->str, k);
        s[--len] = '.';
    }
    memcpy(s, t->str, len);
    return s;
}

static const TsTree *decorators_of(const TsTree *st)
{
    return st->kind == TS_TREE_DEF || st->kind == TS_TREE_CLASS ? st->kids[1] : NULL;
}

/* The positional arguments of a decorator written as a call. */
static size_t call_args(const TsTree *d)
{
    size_t n = 0;
    for (size_t i = 1; d && d->kind == TS_TREE_CALL && i < d->n_kids; i++)
        n += d->kids[i]->kind != TS_TREE_KWARG && d->kids[i]->kind != TS_TREE_STARRED;
    return n;
}

static void fill_decorator(TsDecorator *dd, const TsTree *d, const char **args, bool *nomem)
{
    bool call = d->kind == TS_TREE_CALL;
    dd->name = dotted_name(call ? d->kids[0] : d, nomem);
    dd->is_call = call;
    dd->n_args = 0;
    dd->args = args;
    for (size_t i = 1; call && i < d->n_kids; i++) {
        const TsTree *a = d->kids[i];
        if (a->kind == TS_TREE_KWARG || a->kind == TS_TREE_STARRED)
            continue;
        args[dd->n_args++] = a->kind == TS_TREE_STRING ? a->str : NULL;
    }
}

TsOutline *ts_outline_parse(const char *name, const char *source, size_t len, TsError *err)
{
    if (!source && len)
        return ts_error_set(err, TS_ERR_USAGE, "ts_outline_parse: no source"), NULL;
    TsSource *src = ts_source_new(name ? name : "<string>", source ? source : "", len, err);
    TsTree *m = src ? ts_parse_module(src, err) : NULL;
    ts_source_release(src);
    if (!m)
        return NULL;
    size_t n_dec = 0, n_args = 0;
    for (size_t i = 0; i < m->n_kids; i++) {
        const TsTree *ds = decorators_of(m->kids[i]);
        for (size_t j = 0; ds && j < ds->n_kids; j++)
            n_dec++, n_args += call_args(ds->kids[j]);
    }
    TsOutline *o = calloc(1, sizeof *o);
    if (o) {
        o->tree = m;
        o->items = calloc(m->n_kids ? m->n_kids : 1, sizeof *o->items);
        o->decorators = calloc(n_dec ? n_dec : 1, sizeof *o->decorators);
        o->args = calloc(n_args ? n_args : 1, sizeof *o->args);
    }
    if (!o || !o->items || !o->decorators || !o->args) {
        if (!o)
            ts_tree_free(m);
        ts_outline_free(o);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
    }
    bool nomem = false;
    const char **args = o->args;
    for (size_t i = 0; i < m->n_kids; i++) {
        const TsTree *st = m->kids[i];
        TsOutlineItem *it = &o->items[o->n++];
        size_t col = 0;
        it->kind = st->kind == TS_TREE_DEF ? TS_OUTLINE_FUNCTION
                   : st->kind == TS_TREE_CLASS ? TS_OUTLINE_CLASS : TS_OUTLINE_OTHER;
        it->name = it->kind != TS_OUTLINE_OTHER ? st->kids[0]->str : NULL;
        if (st->range.source)
            ts_source_line_col(st->range.source, st->range.start, &it->line, &col);
        const TsTree *ds = decorators_of(st);
        it->decorators = &o->decorators[o->n_decorators];
        for (size_t j = 0; ds && j < ds->n_kids; j++) {
            TsDecorator *dd = &o->decorators[o->n_decorators++];
            fill_decorator(dd, ds->kids[j], args, &nomem);
            args += dd->n_args;
            it->n_decorators++;
        }
    }
    if (nomem) {
        ts_outline_free(o);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
    }
    return o;
}

size_t ts_outline_size(const TsOutline *o) { return o ? o->n : 0; }

const TsOutlineItem *ts_outline_item(const TsOutline *o, size_t i)
{
    return o && i < o->n ? &o->items[i] : NULL;
}

void ts_outline_free(TsOutline *o)
{
    if (!o)
        return;
    for (size_t i = 0; o->decorators && i < o->n_decorators; i++)
        free((char *)o->decorators[i].name);
    free(o->decorators);
    free(o->args);
    free(o->items);
    ts_tree_free(o->tree);
    free(o);
}
