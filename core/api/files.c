/* files.c — values in files for the embedding API: torch.save and .npy files read and
 * written (serialize/tensorfile.c does the formats), and a value read from one made to
 * conform to a declared type (serialize/conform.c), as a parameter of a method wants it. */
#include "serialize/conform.h"
#include "serialize/tensorfile.h"
#include "tscript/tscript.h"

/* The API returns the error's code where the core says -1. */
static int status(int rc, const TsError *err)
{
    if (rc == 0)
        return 0;
    return err && err->code ? (int)err->code : TS_ERR_RUNTIME;
}

int ts_value_load(const char *path, TsValue *out, TsError *err)
{
    *out = ts_none();
    if (!path)
        return ts_error_set(err, TS_ERR_USAGE, "ts_value_load: no path");
    return status(ts_tensorfile_load(path, out, err), err);
}

int ts_value_save(const char *path, TsValue v, TsError *err)
{
    if (!path)
        return ts_error_set(err, TS_ERR_USAGE, "ts_value_save: no path");
    return status(ts_tensorfile_save(path, v, err), err);
}

int ts_value_conform(TsValue v, const TsType *t, TsError *err)
{
    if (!t)
        return ts_error_set(err, TS_ERR_USAGE, "ts_value_conform: no type");
    TsConform cf = { 0 };
    int rc = ts_conform(&cf, v, t, "the value", err);
    ts_conform_free(&cf);
    return status(rc, err);
}
