/* conform.c — values read from an archive made to conform to their declared types (see
 * conform.h). Containers are retyped by ts_pickle_retype (retype.c); this file walks the
 * objects: each attribute conformed to its declared type. The walk is bounded in depth (a
 * pickle can nest values as deep as it likes, the C stack cannot); shared values are
 * visited once (the seen map), and a value met again while it is being visited is a cycle,
 * which reference counting could never free and TorchScript's types cannot express.
 */
#include <stdio.h>
#include <string.h>

#include "serialize/conform.h"
#include "serialize/pickle.h"

enum { MAX_DEPTH = TS_PICKLE_MAX_DEPTH, SEEN_DONE = 1, SEEN_ACTIVE = 2 };

static int walk(TsConform *cf, TsValue v, int depth, TsError *err);

/* Retypes and checks v as t, its failure prefixed with what it is. */
static int retype(TsValue v, const TsType *t, const char *what, TsError *err)
{
    if (ts_pickle_retype(v, t, err) == 0)
        return 0;
    ts_error_prefix(err, "%s: ", what);
    return -1;
}

static int conform_object(TsConform *cf, const TsObject *o, int depth, TsError *err)
{
    size_t n = ts_type_num_fields(o->cls);
    if (n != o->nslots)
        return ts_error_set(err, TS_ERR_TYPE, "an object of %s has %zu attributes where its "
                            "class declares %zu", ts_type_name(o->cls), o->nslots, n);
    for (size_t i = 0; i < n; i++) {
        const TsTypeField *f = ts_type_field(o->cls, i);
        char what[512];
        snprintf(what, sizeof what, "attribute '%s' of %s", f->name, ts_type_name(o->cls));
        TsTypeKind k = ts_type_kind(f->type);
        if (o->slots[i].tag == TS_TAG_NONE && k != TS_TYPE_NONE && k != TS_TYPE_OPTIONAL &&
            k != TS_TYPE_ANY)
            return ts_error_set(err, TS_ERR_VALUE, "%s is never set by the archive", what);
        if (retype(o->slots[i], f->type, what, err) || walk(cf, o->slots[i], depth + 1, err))
            return -1;
    }
    return 0;
}

static int walk(TsConform *cf, TsValue v, int depth, TsError *err)
{
    TsTag tag = (TsTag)v.tag;
    if (tag != TS_TAG_OBJECT && tag != TS_TAG_LIST && tag != TS_TAG_DICT && tag != TS_TAG_TUPLE)
        return 0;
    if (depth > MAX_DEPTH)
        return ts_error_set(err, TS_ERR_LIMIT, "the archive's values nest more than %d deep",
                            MAX_DEPTH);
    uintptr_t state;
    if (ts_ptrmap_get(&cf->seen, v.u.p, &state)) {
        if (state == SEEN_DONE)
            return 0;
        return ts_error_set(err, TS_ERR_VALUE, "the archive's values refer to themselves (a "
                            "cycle), which TorchScript values cannot");
    }
    if (ts_ptrmap_put(&cf->seen, v.u.p, SEEN_ACTIVE) < 0)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    int rc = 0;
    if (tag == TS_TAG_OBJECT) {
        rc = conform_object(cf, (const TsObject *)v.u.p, depth, err);
    } else if (tag == TS_TAG_LIST) {
        const TsList *l = (const TsList *)v.u.p;
        for (size_t i = 0; i < l->len && !rc; i++)
            rc = walk(cf, l->items[i], depth + 1, err);
    } else if (tag == TS_TAG_TUPLE) {
        const TsTuple *tu = (const TsTuple *)v.u.p;
        for (size_t i = 0; i < tu->len && !rc; i++)
            rc = walk(cf, tu->items[i], depth + 1, err);
    } else {
        size_t pos = 0;
        TsValue k, x;
        while (!rc && ts_dict_next((const TsDict *)v.u.p, &pos, &k, &x))
            rc = walk(cf, k, depth + 1, err) || walk(cf, x, depth + 1, err) ? -1 : 0;
    }
    if (rc == 0)
        ts_ptrmap_set(&cf->seen, v.u.p, SEEN_DONE);
    return rc;
}

int ts_conform(TsConform *cf, TsValue v, const TsType *t, const char *what, TsError *err)
{
    return retype(v, t, what, err) || walk(cf, v, 0, err) ? -1 : 0;
}

int ts_conform_objects(TsConform *cf, TsValue v, TsError *err)
{
    return walk(cf, v, 0, err);
}

void ts_conform_free(TsConform *cf)
{
    ts_ptrmap_free(&cf->seen);
}
