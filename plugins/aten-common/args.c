/* args.c — a kernel's arguments bound by its operator's schema (TsCall.op), read with the
 * checks and messages every backend would otherwise restate, and the one way a kernel ends.
 *
 * The interpreter calls a kernel only with values its schema allows, so every check here is
 * the net for embedders who call kernels themselves: a wrong value is an error naming the
 * operator and the argument, never a crash.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tscript/aten.h"

static int pop(TsCall *c, int device_type, size_t n, TsArgs *a)
{
    a->call = c;
    a->device_type = device_type;
    a->n = 0;
    if (!c->op)
        return ts_error_set(c->error, TS_ERR_USAGE, "a kernel was called without its operator "
                            "(TsCall.op is NULL)");
    if (n > TS_ARGS_MAX)
        return ts_error_set(c->error, TS_ERR_LIMIT, "%s: %zu arguments is more than %d",
                            ts_operator_name(c->op), n, TS_ARGS_MAX);
    if (c->stack->len < n)
        return ts_error_set(c->error, TS_ERR_USAGE, "%s: takes %zu arguments but the stack "
                            "holds %zu", ts_operator_name(c->op), n, c->stack->len);
    for (size_t i = n; i-- > 0;)
        a->v[i] = ts_stack_pop(c->stack);
    a->n = n;
    return 0;
}

int ts_args_pop(TsCall *c, int device_type, TsArgs *a)
{
    return pop(c, device_type, c->op ? ts_operator_num_args(c->op) : 0, a);
}

int ts_args_pop_n(TsCall *c, int device_type, size_t n, TsArgs *a)
{
    return pop(c, device_type, n, a);
}

/* The device type of the first tensor among the values, looking into lists (Tensor[]
 * arguments); -1 when there is none. */
static int first_device_type(const TsValue *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i].tag == TS_TAG_TENSOR)
            return ((const TsTensor *)v[i].u.p)->device.type;
        if (v[i].tag == TS_TAG_LIST) {
            int type = first_device_type(((const TsList *)v[i].u.p)->items,
                                         ((const TsList *)v[i].u.p)->len);
            if (type >= 0)
                return type;
        }
    }
    return -1;
}

int ts_args_pop_same_device(TsCall *c, TsArgs *a)
{
    int rc = ts_args_pop(c, -1, a);
    if (!rc)
        a->device_type = first_device_type(a->v, a->n);
    return rc;
}

const char *ts_args_op_name(const TsArgs *a)
{
    return a->call->op ? ts_operator_name(a->call->op) : "?";
}

const char *ts_args_name(const TsArgs *a, size_t i)
{
    const char *name = a->call->op ? ts_operator_arg_name(a->call->op, i) : NULL;
    return name ? name : "?";
}

/* "aten::add: argument 'other' must be WHAT" */
static int wrong(TsArgs *a, size_t i, const char *what)
{
    return ts_error_set(a->call->error, TS_ERR_TYPE, "%s: argument '%s' must be %s",
                        ts_args_op_name(a), ts_args_name(a, i), what);
}

static int missing(TsArgs *a, size_t i)
{
    return ts_error_set(a->call->error, TS_ERR_USAGE, "%s: no argument %zu (it takes %zu)",
                        ts_args_op_name(a), i, a->n);
}

static int check_device(TsArgs *a, size_t i, const TsTensor *t)
{
    if (t->device.type == a->device_type)
        return 0;
    char dev[32];
    ts_device_str(t->device, dev, sizeof dev);
    const char *mine = ts_device_type_name(a->device_type);
    return ts_error_set(a->call->error, TS_ERR_RUNTIME, "%s: the %s kernel got argument '%s' "
                        "on device %s", ts_args_op_name(a), mine ? mine : "?",
                        ts_args_name(a, i), dev);
}

int ts_args_tensor(TsArgs *a, size_t i, TsTensor **out)
{
    *out = NULL;
    if (i >= a->n)
        return missing(a, i);
    if (a->v[i].tag != TS_TAG_TENSOR)
        return wrong(a, i, "a Tensor");
    TsTensor *t = (TsTensor *)a->v[i].u.p;
    if (check_device(a, i, t))
        return a->call->error->code;
    *out = t;
    return 0;
}

int ts_args_opt_tensor(TsArgs *a, size_t i, TsTensor **out)
{
    *out = NULL;
    if (i < a->n && a->v[i].tag == TS_TAG_NONE)
        return 0;
    return ts_args_tensor(a, i, out);
}

int ts_args_int(TsArgs *a, size_t i, int64_t *out)
{
    if (i >= a->n)
        return missing(a, i);
    if (a->v[i].tag == TS_TAG_INT)
        *out = a->v[i].u.i;
    else if (a->v[i].tag == TS_TAG_BOOL)
        *out = a->v[i].u.b;
    else
        return wrong(a, i, "an int");
    return 0;
}

int ts_args_opt_int(TsArgs *a, size_t i, int64_t *out, bool *has)
{
    *has = false;
    if (i < a->n && a->v[i].tag == TS_TAG_NONE)
        return 0;
    *has = true;
    return ts_args_int(a, i, out);
}

int ts_args_float(TsArgs *a, size_t i, double *out)
{
    if (i >= a->n)
        return missing(a, i);
    switch (a->v[i].tag) {
    case TS_TAG_DOUBLE: *out = a->v[i].u.d; return 0;
    case TS_TAG_INT: *out = (double)a->v[i].u.i; return 0;
    case TS_TAG_BOOL: *out = a->v[i].u.b; return 0;
    default: return wrong(a, i, "a float");
    }
}

int ts_args_bool(TsArgs *a, size_t i, bool *out)
{
    if (i >= a->n)
        return missing(a, i);
    if (a->v[i].tag != TS_TAG_BOOL)
        return wrong(a, i, "a bool");
    *out = a->v[i].u.b;
    return 0;
}

int ts_args_int_list(TsArgs *a, size_t i, int64_t *out, int *n, int max)
{
    if (i >= a->n)
        return missing(a, i);
    TsValue v = a->v[i];
    if (v.tag == TS_TAG_INT && max >= 1) {   /* int[1] arguments accept a single int */
        out[0] = v.u.i;
        *n = 1;
        return 0;
    }
    if (v.tag != TS_TAG_LIST)
        return wrong(a, i, "a list of ints");
    const TsList *l = (const TsList *)v.u.p;
    if (l->len > (size_t)max)
        return ts_error_set(a->call->error, TS_ERR_LIMIT, "%s: %zu entries in '%s' is more "
                            "than %d", ts_args_op_name(a), l->len, ts_args_name(a, i), max);
    for (size_t k = 0; k < l->len; k++) {
        if (l->items[k].tag != TS_TAG_INT)
            return wrong(a, i, "a list of ints");
        out[k] = l->items[k].u.i;
    }
    *n = (int)l->len;
    return 0;
}

int ts_args_opt_dtype(TsArgs *a, size_t i, int *dtype)
{
    *dtype = -1;
    if (i >= a->n)
        return missing(a, i);
    TsValue v = a->v[i];
    if (v.tag == TS_TAG_NONE)
        return 0;
    if (v.tag != TS_TAG_INT || v.u.i < 0 || v.u.i >= TS_DTYPE__COUNT ||
        ts_dtype_size((int)v.u.i) == 0)
        return wrong(a, i, "a ScalarType");
    *dtype = (int)v.u.i;
    return 0;
}

int ts_args_dim(TsArgs *a, size_t i, int64_t ndim, bool wrap_scalar, int *out)
{
    int64_t d = 0;
    if (ts_args_int(a, i, &d))
        return a->call->error->code;
    return ts_aten_wrap_dim(d, ndim, wrap_scalar, out, a->call->error);
}

/* A list of tensors on the backend's device, None items allowed when optional. */
static int tensor_list(TsArgs *a, size_t i, bool optional, const TsList **out)
{
    const char *what = optional ? "a list of optional Tensors" : "a list of Tensors";
    *out = NULL;
    if (i >= a->n)
        return missing(a, i);
    if (a->v[i].tag != TS_TAG_LIST)
        return wrong(a, i, what);
    const TsList *l = (const TsList *)a->v[i].u.p;
    for (size_t k = 0; k < l->len; k++) {
        if (optional && l->items[k].tag == TS_TAG_NONE)
            continue;
        if (l->items[k].tag != TS_TAG_TENSOR)
            return wrong(a, i, what);
        if (check_device(a, i, (const TsTensor *)l->items[k].u.p))
            return a->call->error->code;
    }
    *out = l;
    return 0;
}

int ts_args_tensor_list(TsArgs *a, size_t i, const TsList **out)
{
    return tensor_list(a, i, false, out);
}

int ts_args_opt_tensor_list(TsArgs *a, size_t i, const TsList **out)
{
    return tensor_list(a, i, true, out);
}

int ts_args_tensor_array(TsArgs *a, size_t i, TsTensor ***out, size_t *n)
{
    const TsList *l;
    *out = NULL;
    int rc = ts_args_tensor_list(a, i, &l);
    if (rc)
        return rc;
    TsTensor **ts = malloc(sizeof *ts * (l->len ? l->len : 1));
    if (!ts)
        return ts_error_set(a->call->error, TS_ERR_NOMEM, "%s: out of memory",
                            ts_args_op_name(a));
    for (size_t k = 0; k < l->len; k++)
        ts[k] = (TsTensor *)l->items[k].u.p;
    *n = l->len;
    *out = ts;
    return 0;
}

int ts_args_str(TsArgs *a, size_t i, const TsStr **out)
{
    *out = NULL;
    if (i >= a->n)
        return missing(a, i);
    if (a->v[i].tag != TS_TAG_STR)
        return wrong(a, i, "a str");
    *out = (const TsStr *)a->v[i].u.p;
    return 0;
}

void ts_args_release(TsArgs *a)
{
    for (size_t i = 0; i < a->n; i++)
        ts_value_release(a->v[i]);
    a->n = 0;
}

int ts_args_fail(TsArgs *a, int rc)
{
    ts_args_release(a);
    return rc;
}

/* The error of a helper that returned no result without saying why. */
static int no_result(TsArgs *a)
{
    if (a->call->error->code)
        return (int)a->call->error->code;
    return ts_error_set(a->call->error, TS_ERR_RUNTIME, "%s: no result", ts_args_op_name(a));
}

int ts_args_return_values(TsArgs *a, int rc, size_t n, TsValue *v)
{
    ts_args_release(a);
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = ts_stack_push(a->call->stack, v[i], a->call->error);
        else
            ts_value_release(v[i]);
    }
    return rc;
}

int ts_args_return_tensors(TsArgs *a, int rc, size_t n, TsTensor **t)
{
    for (size_t i = 0; !rc && i < n; i++)
        if (!t[i])
            rc = no_result(a);
    ts_args_release(a);
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = ts_stack_push(a->call->stack, ts_obj_value(t[i], TS_TAG_TENSOR),
                               a->call->error);
        else if (t[i])
            ts_tensor_release(t[i]);
    }
    return rc;
}

int ts_args_return_list(TsArgs *a, int rc, TsList *l)
{
    if (!rc && !l)
        rc = no_result(a);
    return ts_args_return(a, rc, l ? ts_obj_value(l, TS_TAG_LIST) : ts_none());
}

int ts_args_return(TsArgs *a, int rc, TsValue v)
{
    ts_args_release(a);
    if (rc) {
        ts_value_release(v);
        return rc;
    }
    return ts_stack_push(a->call->stack, v, a->call->error);
}

int ts_args_return_tensor(TsArgs *a, int rc, TsTensor *t)
{
    if (!rc && !t)      /* a helper that failed without saying so */
        rc = no_result(a);
    return ts_args_return(a, rc, t ? ts_obj_value(t, TS_TAG_TENSOR) : ts_none());
}

int ts_args_return_arg(TsArgs *a, int rc, size_t out_index)
{
    TsValue v = ts_none();
    if (!rc && out_index >= a->n)
        rc = missing(a, out_index);
    if (!rc) {
        v = a->v[out_index];
        a->v[out_index] = ts_none();
    }
    return ts_args_return(a, rc, v);
}
