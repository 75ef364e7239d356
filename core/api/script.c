/* script.c — TsScript: TorchScript source compiled into a unit, every function and class of
 * it (compile.h's entry NULL), and its functions found by name for calling or saving. */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "frontend/compile.h"
#include "runtime.h"
#include "serialize/save.h"
#include "frontend/source.h"

static TsScript *script_new(TsRuntime *rt, TsSource *src, TsError *err)
{
    if (!src)
        return NULL;
    TsScript *s = calloc(1, sizeof *s);
    if (!s) {
        ts_source_release(src);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
    }
    s->rt = rt;
    s->unit = ts_compile_source(ts_runtime_optable(rt), src, NULL, err);
    ts_source_release(src);
    if (!s->unit) {
        free(s);
        return NULL;
    }
    return s;
}

TsScript *ts_script_compile(TsRuntime *rt, const char *name, const char *source, size_t len,
                            TsError *err)
{
    if (!rt || (!source && len))
        return ts_error_set(err, TS_ERR_USAGE, "ts_script_compile: no %s",
                            rt ? "source" : "runtime"), NULL;
    return script_new(rt, ts_source_new(name ? name : "<string>", source ? source : "", len,
                                        err), err);
}

TsScript *ts_script_compile_file(TsRuntime *rt, const char *path, TsError *err)
{
    if (!rt || !path)
        return ts_error_set(err, TS_ERR_USAGE, "ts_script_compile_file: no %s",
                            rt ? "path" : "runtime"), NULL;
    return script_new(rt, ts_source_read_file(path, err), err);
}

void ts_script_free(TsScript *s)
{
    if (!s)
        return;
    ts_unit_free(s->unit);
    free(s);
}

size_t ts_script_num_functions(const TsScript *s) { return ts_unit_count(s->unit); }

const char *ts_script_function_name(const TsScript *s, size_t i)
{
    return i < ts_unit_count(s->unit) ? ts_unit_function(s->unit, i)->qualname : NULL;
}

/* A free function by its name in the file ("f") or qualified ("__torch__.f"): 0 and *out,
 * or TS_ERR_KEY (TS_ERR_NOMEM). */
static int find_function(TsScript *s, const char *name, TsFunction **out, TsError *err)
{
    TsFunction *f = NULL;
    if (name && strchr(name, '.'))
        f = ts_unit_find(s->unit, name);
    else if (name) {
        size_t n = strlen(name);
        char *q = malloc(sizeof "__torch__." + n);
        if (!q)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        memcpy(q, "__torch__.", sizeof "__torch__." - 1);
        memcpy(q + sizeof "__torch__." - 1, name, n + 1);
        f = ts_unit_find(s->unit, q);
        free(q);
    }
    if (!f || f->owner)
        return ts_error_set(err, TS_ERR_KEY, "the script has no function '%s'",
                            name ? name : "(null)");
    *out = f;
    return 0;
}

TsMethod *ts_script_find_function(TsScript *s, const char *name, TsError *err)
{
    TsFunction *f;
    return find_function(s, name, &f, err) ? NULL
                                           : ts_api_method_new(s->rt, s->unit, f, ts_none(), err);
}

int ts_script_save(TsScript *s, const char *name, const char *path, TsError *err)
{
    TsFunction *f;
    int rc = find_function(s, name, &f, err);
    return rc ? rc : ts_save_function(s->rt, s->unit, f, path, err);
}
