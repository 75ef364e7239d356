/* args.c — popping and checking a kernel's arguments, for the prim kernels on containers
 * and the math module.
 *
 * The emitter only binds a call to an overload whose schema the arguments match, so a tag
 * mismatch here means a bug upstream or a kernel called by hand; the check turns that into a
 * TypeError naming the operator instead of a wild read. Every argument is popped before the
 * check, so the caller owns all of them (or none, on failure) and the stack is never left
 * half-consumed.
 */
#include <stdbool.h>

#include "prim.h"

static bool accepts(uint32_t want, TsValue v)
{
    switch (want) {
    case TS_PRIM_ANY:
        return true;
    case TS_PRIM_NUMBER:
        return v.tag == TS_TAG_INT || v.tag == TS_TAG_DOUBLE || v.tag == TS_TAG_BOOL;
    case TS_PRIM_OPT_INT:
        return v.tag == TS_TAG_INT || v.tag == TS_TAG_NONE;
    default:
        return v.tag == want;
    }
}

void ts_prim_release_args(TsValue *argv, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ts_value_release(argv[i]);
}

int ts_prim_pop_args(TsCall *c, const char *op, size_t n, const uint32_t *want, TsValue *argv)
{
    if (c->stack->len < n)
        return ts_error_set(c->error, TS_ERR_TYPE, "%s: expected %zu arguments on the stack",
                            op, n);
    for (size_t i = n; i-- > 0;)
        argv[i] = ts_stack_pop(c->stack);
    for (size_t i = 0; i < n; i++) {
        if (!accepts(want[i], argv[i])) {
            ts_prim_release_args(argv, n);
            return ts_error_set(c->error, TS_ERR_TYPE, "%s: argument %zu has the wrong type",
                                op, i + 1);
        }
    }
    return 0;
}
