/* args.c — the failures of popping a kernel's arguments (prim.h's ts_prim_pop_args, inline,
 * does the popping and checking).
 *
 * The emitter only binds a call to an overload whose schema the arguments match, so a tag
 * mismatch here means a bug upstream or a kernel called by hand; the check turns that into a
 * TypeError naming the operator instead of a wild read. Every argument is popped before the
 * check, so the caller owns all of them (or none, on failure) and the stack is never left
 * half-consumed.
 */
#include <stdbool.h>

#include "prim.h"

int ts_prim_bad_args(TsCall *c, const char *op, size_t n, const uint32_t *want, TsValue *argv)
{
    if (!argv)
        return ts_error_set(c->error, TS_ERR_TYPE, "%s: expected %zu arguments on the stack",
                            op, n);
    size_t bad = 0;
    while (bad < n && ts_prim_accepts(want[bad], argv[bad]))
        bad++;
    ts_prim_release_args(argv, n);
    return ts_error_set(c->error, TS_ERR_TYPE, "%s: argument %zu has the wrong type", op,
                        bad + 1);
}
