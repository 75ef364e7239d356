/* t/fuzz/unpickle_fuzz.c — libFuzzer target for the unpickler (core/serialize/unpickle*.c,
 * retype.c) and, on what it accepts, the pickler.
 *
 * The environment (t/pickle_env.h) answers as an importer would, with bounds: every
 * __torch__ class is one fixed test class, __torch__.Color an enum, storages are zeroed
 * memory of the size the pickle asks (up to 1 MB), annotations go through a small parser.
 * Any input must give a value or an error, never a crash, leak or sanitizer report. A value
 * it gives must also pickle again, and what the pickler writes must unpickle (a depth
 * limit aside): otherwise the pickler wrote something invalid, and the target aborts.
 * Built by t/fuzz/build.sh; seeds: data.pkl and constants.pkl of the archives in
 * t/data/serialize and the pickles of t/unpickle.c.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../pickle_env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const TsType *fixed_class(void *ctx, const char *qualname, TsError *err)
{
    if (strcmp(qualname, "__torch__.Color") == 0 || strcmp(qualname, "__torch__.Unknown") == 0)
        return env_resolve_class(ctx, qualname, err);
    return env_resolve_class(ctx, "__torch__.Fuzz", err);
}

/* The pickler's side: storages get keys "0", "1", ... and come back by them. */
typedef struct Keys {
    TsStorage *s[256];
    size_t n;
} Keys;

static int storage_key(void *ctx, TsStorage *s, TsBuf *key, TsError *err)
{
    Keys *k = ctx;
    if (k->n == 256)
        return ts_error_set(err, TS_ERR_LIMIT, "too many storages");
    ts_storage_retain(s);
    k->s[k->n] = s;
    ts_buf_printf(key, "%zu", k->n++);
    return 0;
}

static TsStorage *keyed_storage(void *ctx, int dtype, const char *key, const char *location,
                                int64_t numel, TsError *err)
{
    Keys *k = ctx;
    size_t i = (size_t)strtoul(key, NULL, 10);
    (void)dtype, (void)location, (void)numel;
    if (i >= k->n) {
        ts_error_set(err, TS_ERR_RUNTIME, "no storage %s", key);
        return NULL;
    }
    ts_storage_retain(k->s[i]);
    return k->s[i];
}

/* set_state for the second unpickle, whose ctx is the Keys. */
static int keys_set_state(void *ctx, TsObject *obj, TsValue state, TsError *err)
{
    TestEnv te = {NULL, 0, 0, 0};
    (void)ctx;
    return env_set_state(&te, obj, state, err);
}

static int slot_state(void *ctx, TsObject *obj, TsValue *state, TsError *err)
{
    (void)ctx, (void)err;
    *state = obj->nslots ? obj->slots[0] : ts_none();
    ts_value_retain(*state);
    return 0;
}

/* Pickles v, and checks that the pickle unpickles. */
static void round_trip(TsValue v)
{
    Keys keys = {{NULL}, 0};
    TsPickleEnv penv = {&keys, storage_key, slot_state};
    TsBuf b = TS_BUF_INIT;
    TsError err = TS_ERROR_INIT;
    if (ts_pickle(v, &penv, &b, &err) == 0) {
        TestEnv te = {NULL, 0, 0, 0};
        TsUnpickleEnv uenv = test_env(&te);
        uenv.ctx = &keys;
        uenv.resolve_class = fixed_class;
        uenv.load_storage = keyed_storage;
        uenv.set_state = keys_set_state;
        TsValue back;
        int rc = ts_unpickle(b.p, b.len, &uenv, &back, &err);
        if (rc != 0 && rc != TS_ERR_LIMIT)
            abort();           /* the pickler wrote a pickle its own unpickler refuses */
        if (rc == 0)
            ts_value_release(back);
    }
    ts_error_clear(&err);
    ts_buf_free(&b);
    for (size_t i = 0; i < keys.n; i++)
        ts_storage_release(keys.s[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static TestEnv env;        /* set_state's ctx: no state of its own */
    TestEnv te = {NULL, 1 << 20, 0, 0};
    TsUnpickleEnv e = test_env(&te);
    e.resolve_class = fixed_class;
    TsError err = TS_ERROR_INIT;
    TsValue v;
    (void)env;
    if (ts_unpickle(data, size, &e, &v, &err) == 0) {
        free(canon_text(v));
        round_trip(v);
        ts_value_release(v);
    }
    ts_error_clear(&err);
    return 0;
}
