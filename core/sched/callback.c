/* callback.c — the plugin ABI's way from a kernel into TorchScript (plugin.h): finding a
 * method or function of the running program, reading its signature, and calling it.
 *
 * A TsFunction is the compiled function itself; its signature is its schema's. The call
 * checks what a kernel hands it against that signature (the interpreter trusts the types of
 * its registers, so a wrong value must not get in), then runs in a state nested in the
 * kernel's (interp.c's ts_interp_call).
 */
#include "sched/interp.h"

const TsFunction *ts_call_find(TsCall *call, const TsType *cls, const char *name)
{
    const TsCompUnit *u = ts_interp_kernel_unit(call);
    if (!u || !name)
        return NULL;
    return cls ? ts_unit_find_method(u, cls, name) : ts_unit_find(u, name);
}

/* Functions built from IR text (tests) have no schema: their graph says the same. */
size_t ts_function_num_args(const TsFunction *f)
{
    return f->schema ? f->schema->n_args : ts_graph_block(f->graph)->param->n_outputs;
}

const TsType *ts_function_arg_type(const TsFunction *f, size_t i)
{
    if (i >= ts_function_num_args(f))
        return NULL;
    return f->schema ? f->schema->args[i].type
                     : ts_graph_block(f->graph)->param->outputs[i]->type;
}

const TsType *ts_function_return_type(const TsFunction *f)
{
    if (f->schema)
        return f->schema->n_returns ? f->schema->returns[0].type : ts_type_none();
    const TsNode *ret = ts_graph_block(f->graph)->ret;
    return ret->n_inputs ? ret->inputs[0]->type : ts_type_none();
}

/* Whether v can be passed for a parameter of type t. */
static bool fits(TsValue v, const TsType *t)
{
    if (v.tag == TS_TAG_OBJECT && ((const TsObject *)v.u.p)->cls == t)
        return true;           /* the common case, a method's self: no type to build */
    const TsType *vt = ts_value_type(v);
    return vt == t || ts_type_is_subtype_of(vt, t);
}

int ts_call_function(TsCall *call, const TsFunction *f, const TsValue *args, size_t n,
                     TsValue *out)
{
    *out = ts_none();
    if (!f)
        return ts_error_set(call->error, TS_ERR_USAGE, "ts_call_function: no function");
    size_t want = ts_function_num_args(f);
    if (n != want)
        return ts_error_set(call->error, TS_ERR_TYPE, "%s() takes %zu arguments but %zu were "
                            "given", f->name, want, n);
    for (size_t i = 0; i < n; i++) {
        const TsType *t = ts_function_arg_type(f, i);
        if (!fits(args[i], t)) {
            char name[128];
            ts_type_annotation(t, name, sizeof name);
            return ts_error_set(call->error, TS_ERR_TYPE, "%s(): argument %zu is not a "
                                "value of type '%s'", f->name, i + 1, name);
        }
    }
    /* the interpreter builds and runs it; nothing a kernel holds is mutated */
    return ts_interp_call(call, (TsFunction *)f, args, n, out);
}
