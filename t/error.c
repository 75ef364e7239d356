/* t/error.c — TsError: set, prefix, move, clear, and the exception class names. */
#include <stdlib.h>

#include "tap.h"
#include "tscript/error.h"

int main(void)
{
    TsError e = TS_ERROR_INIT;
    is_int(ts_error_set(&e, TS_ERR_INDEX, "list index %s", "out of range"), TS_ERR_INDEX,
           "set returns its code");
    is_str(e.msg, "list index out of range", "message is formatted");
    ts_error_prefix(&e, "%s:%d:%d: ", "f.yaml", 3, 7);
    is_str(e.msg, "f.yaml:3:7: list index out of range", "prefix goes in front");
    ts_error_set(&e, TS_ERR_KEY, "k");
    is_str(e.msg, "k", "set replaces the old message");
    TsError d = TS_ERROR_INIT;
    ts_error_move(&d, &e);
    ok(e.code == TS_OK && e.msg == NULL, "move leaves the source cleared");
    ok(d.code == TS_ERR_KEY && d.msg && d.msg[0] == 'k', "move carries code and message");
    ts_error_clear(&d);
    ts_error_clear(&d);
    ok(d.code == TS_OK && d.msg == NULL, "clear twice is safe");
    ts_error_prefix(&d, "x");
    ok(d.msg == NULL, "prefix on a cleared error does nothing");
    is_str(ts_error_class(TS_ERR_INDEX), "IndexError", "IndexError class");
    is_str(ts_error_class(TS_ERR_KEY), "KeyError", "KeyError class");
    is_str(ts_error_class(TS_ERR_RUNTIME), "RuntimeError", "RuntimeError class");
    is_str(ts_error_class(TS_ERR_ZERO_DIV), "ZeroDivisionError", "ZeroDivisionError class");
    is_int(ts_error_set(NULL, TS_ERR_VALUE, "no error object"), TS_ERR_VALUE,
           "set with a NULL error still returns the code");
    return done_testing();
}
