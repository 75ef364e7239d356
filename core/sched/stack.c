/* stack.c — TsStack, the value stack kernels pop their inputs from and push outputs to.
 *
 * The push/pop fast paths are inline in plugin.h; this file holds the slow paths: growth,
 * dropping values, and freeing.
 */
#include <stdlib.h>

#include "tscript/plugin.h"

int ts_stack_reserve(TsStack *s, size_t n, TsError *err)
{
    if (s->cap - s->len >= n)
        return 0;
    size_t need = s->len + n;
    if (need < s->len || need > ((size_t)-1) / sizeof(TsValue) / 2)
        return ts_error_set(err, TS_ERR_LIMIT, "stack too large");
    size_t cap = s->cap ? s->cap : 16;
    while (cap < need)
        cap *= 2;
    TsValue *d = realloc(s->data, cap * sizeof *d);
    if (!d)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory growing the stack");
    s->data = d;
    s->cap = cap;
    return 0;
}

void ts_stack_drop(TsStack *s, size_t n)
{
    if (n > s->len)
        n = s->len;
    while (n--)
        ts_value_release(s->data[--s->len]);
}

void ts_stack_free(TsStack *s)
{
    ts_stack_drop(s, s->len);
    free(s->data);
    s->data = NULL;
    s->cap = 0;
}
