/* pickle.c — tests of the pickler (core/serialize/pickle.c): values pickled in C come back
 * the same through ts_unpickle, read the same in Python's pickle (canon.py), load in
 * python3 with torch (pickle.loads, torch.load of an archive written with the zip writer),
 * and a module re-pickled from PyTorch's own archive loads and runs in torch.jit.load.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pickle_env.h"
#include "serialize_util.h"

/* ---- making values ------------------------------------------------------------------ */

static TsValue str(const char *s)
{
    return ts_str_value(ts_str_from_cstr(s, NULL));
}

static TsValue tensor(int dtype, int dim, const int64_t *sizes)
{
    TsTensor *t = ts_tensor_empty(&host, (TsDevice){TS_DEV_CPU, -1}, dtype, dim, sizes, NULL);
    unsigned char *d = ts_tensor_data(t);
    for (size_t i = 0; i < t->storage->nbytes; i++)
        d[i] = (unsigned char)(i * 7 + 1);
    return ts_obj_value(t, TS_TAG_TENSOR);
}

static TsValue list_of(const TsType *elem, size_t n, const TsValue *items)
{
    TsList *l = ts_list_new(elem, n, NULL);
    for (size_t i = 0; i < n; i++)
        ts_list_append(l, items[i], NULL);
    return ts_obj_value(l, TS_TAG_LIST);
}

static void set(TsDict *d, const char *k, TsValue v)
{
    ts_dict_set(d, str(k), v, NULL);
}

/* A dict of one of everything a TorchScript value can be (tensors when with_tensors). */
static TsValue sample(bool with_tensors)
{
    TsDict *d = ts_dict_new(ts_type_str(), ts_type_any(), NULL);
    TsValue ints[] = {ts_int(0), ts_int(255), ts_int(256), ts_int(65535), ts_int(65536),
                      ts_int(-1), ts_int(INT32_MIN), ts_int((int64_t)INT32_MAX + 1),
                      ts_int(INT64_MAX), ts_int(INT64_MIN)};
    set(d, "ints", list_of(ts_type_int(), 10, ints));
    TsValue floats[] = {ts_double(1.5), ts_double(-0.0), ts_double(1e300), ts_double(INFINITY),
                        ts_double(0.1)};
    set(d, "floats", list_of(ts_type_float(), 5, floats));
    TsValue bools[] = {ts_bool(true), ts_bool(false)};
    set(d, "bools", list_of(ts_type_bool(), 2, bools));
    TsValue strs[] = {str("a"), str(""), str("h\xc3\xa9llo \xf0\x9f\x98\x80"), str("a")};
    set(d, "strs", list_of(ts_type_str(), 4, strs));
    TsValue inner[] = {list_of(ts_type_int(), 1, (TsValue[]){ts_int(1)}),
                       list_of(ts_type_int(), 0, NULL)};
    set(d, "nested", list_of(ts_type_list(ts_type_int()), 2, inner));
    TsDict *by_int = ts_dict_new(ts_type_int(), ts_type_list(ts_type_str()), NULL);
    ts_dict_set(by_int, ts_int(7), list_of(ts_type_str(), 1, (TsValue[]){str("x")}), NULL);
    set(d, "by_int", ts_obj_value(by_int, TS_TAG_DICT));
    for (size_t n = 0; n <= 5; n++) {
        TsTuple *t = ts_tuple_new(NULL, n, NULL);
        for (size_t i = 0; i < n; i++)
            t->items[i] = i % 2 ? str("s") : ts_int((int64_t)i);
        char k[16];
        snprintf(k, sizeof k, "tuple%zu", n);
        set(d, k, ts_obj_value(t, TS_TAG_TUPLE));
    }
    set(d, "none", ts_none());
    set(d, "true", ts_bool(true));
    set(d, "big", ts_int(1LL << 40));
    set(d, "neg", ts_int(-5));
    set(d, "complex", ts_obj_value(ts_complex_new(1.5, -2, NULL), TS_TAG_COMPLEX));
    set(d, "cpu", ts_device((TsDevice){TS_DEV_CPU, -1}));
    set(d, "cuda1", ts_device((TsDevice){TS_DEV_CUDA, 1}));
    set(d, "cpu again", ts_device((TsDevice){TS_DEV_CPU, -1}));
    TsValue shared = list_of(ts_type_str(), 1, (TsValue[]){str("shared")});
    ts_value_retain(shared);
    TsTuple *twice = ts_tuple_new(NULL, 2, NULL);
    twice->items[0] = shared;
    twice->items[1] = shared;
    set(d, "twice", ts_obj_value(twice, TS_TAG_TUPLE));
    if (with_tensors) {
        int64_t s23[] = {2, 3}, s4[] = {4};
        TsValue base = tensor(TS_FLOAT32, 2, s23);
        TsTensor *bt = (TsTensor *)base.u.p;
        int64_t row = 3, one = 1;
        TsTensor *view = ts_tensor_new(bt->storage, TS_FLOAT32, 1, &row, &one, 3, NULL);
        view->requires_grad = 1;
        set(d, "base", base);
        set(d, "view", ts_obj_value(view, TS_TAG_TENSOR));
        set(d, "half", tensor(TS_FLOAT16, 1, s4));
        set(d, "long0d", tensor(TS_INT64, 0, NULL));
        set(d, "bool", tensor(TS_BOOL, 1, s4));
        set(d, "cx", tensor(TS_COMPLEX64, 1, s4));
        set(d, "empty", tensor(TS_FLOAT32, 1, (int64_t[]){0}));
        TsValue ts[] = {tensor(TS_INT8, 1, s4), tensor(TS_FLOAT64, 1, s4)};
        set(d, "tensors", list_of(ts_type_tensor(), 2, ts));
        TsDict *named = ts_dict_new(ts_type_str(), ts_type_tensor(), NULL);
        ts_dict_set(named, str("w"), tensor(TS_INT32, 2, s23), NULL);
        set(d, "named", ts_obj_value(named, TS_TAG_DICT));
    }
    return ts_obj_value(d, TS_TAG_DICT);
}

/* ---- storages by key ------------------------------------------------------------------- */
typedef struct Keys {
    TsStorage *s[64];
    size_t n;
} Keys;

static int storage_key(void *ctx, TsStorage *s, TsBuf *key, TsError *err)
{
    Keys *k = ctx;
    if (k->n == 64)
        return ts_error_set(err, TS_ERR_LIMIT, "too many storages");
    ts_storage_retain(s);
    k->s[k->n] = s;
    ts_buf_printf(key, "%zu", k->n++);
    return 0;
}

static void keys_free(Keys *k)
{
    for (size_t i = 0; i < k->n; i++)
        ts_storage_release(k->s[i]);
    k->n = 0;
}

/* Storages of an unpickle come back from the Keys the pickler filled. */
static TsStorage *keyed_storage(void *ctx, int dtype, const char *key, const char *location,
                                int64_t numel, TsError *err)
{
    Keys *k = ctx;
    (void)dtype, (void)location, (void)numel;
    size_t i = (size_t)atoi(key);
    if (i >= k->n) {
        ts_error_set(err, TS_ERR_RUNTIME, "no storage %s", key);
        return NULL;
    }
    ts_storage_retain(k->s[i]);
    return k->s[i];
}

static int pickle_value(TsValue v, Keys *keys, TsBuf *out, TsError *err)
{
    TsPickleEnv env = {keys, storage_key, NULL};
    return ts_pickle(v, &env, out, err);
}

static int unpickle_keyed(const TsBuf *b, Keys *keys, TsValue *out, TsError *err)
{
    TestEnv te = {NULL, 0, 0, 0};
    TsUnpickleEnv env = test_env(&te);
    env.ctx = keys;
    env.load_storage = keyed_storage;
    env.set_state = NULL;
    return ts_unpickle(b->p, b->len, &env, out, err);
}

/* ---- round trips ------------------------------------------------------------------------ */
static void test_round_trip(void)
{
    TsValue v = sample(true);
    Keys keys = {{NULL}, 0};
    TsBuf b = TS_BUF_INIT;
    TsError err = TS_ERROR_INIT;
    if (!ok(pickle_value(v, &keys, &b, &err) == 0, "a dict of every kind of value pickles")) {
        diag("%s", err.msg);
        return;
    }
    ok(b.len > 2 && (unsigned char)b.p[0] == 0x80 && b.p[1] == 2 && b.p[b.len - 1] == '.',
       "as protocol 2, PROTO to STOP");
    is_int(keys.n, 9, "each storage is asked for a key once (the view shares its base's)");
    TsValue back;
    if (!ok(unpickle_keyed(&b, &keys, &back, &err) == 0, "and unpickles")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
    } else {
        char *want = canon_text(v), *got = canon_text(back);
        is_str(got, want, "to the same value, types included");
        free(want);
        free(got);
        TsValue k = str("twice"), t;
        ts_dict_get((TsDict *)back.u.p, k, &t);
        ts_value_release(k);
        const TsTuple *tu = (const TsTuple *)t.u.p;
        ok(tu->items[0].u.p == tu->items[1].u.p, "a list reached twice is one list again");
        TsValue kb = str("base"), kv = str("view"), tb, tv;
        ts_dict_get((TsDict *)back.u.p, kb, &tb);
        ts_dict_get((TsDict *)back.u.p, kv, &tv);
        ok(((TsTensor *)tb.u.p)->storage == ((TsTensor *)tv.u.p)->storage,
           "a view and its base share one storage again");
        ts_value_release(kb);
        ts_value_release(kv);
        ts_value_release(back);
    }
    ts_buf_free(&b);
    keys_free(&keys);
    ts_value_release(v);
}

/* An object pickles as its class, NEWOBJ, a dict of its attributes, BUILD. */
static void test_object(void)
{
    TsType *cls = ts_type_class_new("__torch__.pickled.Thing", false, NULL);
    ts_type_class_add_attr(cls, "a", ts_type_int(), NULL);
    ts_type_class_add_attr(cls, "b", ts_type_list(ts_type_str()), NULL);
    TsObject *o = ts_object_new(cls, NULL);
    o->slots[0] = ts_int(3);
    o->slots[1] = list_of(ts_type_str(), 1, (TsValue[]){str("x")});
    TsValue ov = ts_obj_value(o, TS_TAG_OBJECT);
    TsBuf b = TS_BUF_INIT;
    TsError err = TS_ERROR_INIT;
    ok(ts_pickle(ov, NULL, &b, &err) == 0, "an object pickles without hooks");
    static const char want[] = "\x80\x02" "c__torch__.pickled\nThing\nq\x00)\x81}(X\x01\x00\x00\x00"
                               "aq\x01K\x03X\x01\x00\x00\x00" "bq\x02" "ctorch.jit._pickle\n"
                               "restore_type_tag\nq\x03](X\x01\x00\x00\x00xq\x04" "eX\x09\x00\x00"
                               "\x00List[str]q\x05\x86Rub.";
    ok(b.len == sizeof want - 1 && memcmp(b.p, want, b.len) == 0,
       "as PyTorch writes one: GLOBAL, NEWOBJ, a dict of its attributes, BUILD");
    TestEnv te = {NULL, 0, 0, 0};
    TsUnpickleEnv env = test_env(&te);
    TsValue back;
    /* the test environment puts BUILD's state into the first slot */
    if (ok(ts_unpickle(b.p, b.len, &env, &back, &err) == 0, "and unpickles")) {
        char *got = canon_text(((TsObject *)back.u.p)->slots[0]);
        is_str(got, "{Any,Any|'a':3,'b':[str|'x',],}", "with its attributes");
        free(got);
        ts_value_release(back);
    }
    ts_buf_free(&b);
    ts_value_release(ov);

    TsValue e = ts_obj_value(ts_enum_value_new(color_type(), "GREEN", ts_int(2), NULL), TS_TAG_ENUM);
    ts_pickle(e, NULL, &b, &err);
    ok(b.len > 0 && memcmp(b.p, "\x80\x02" "c__torch__\nColor\nq\x00K\x02R.", b.len) == 0,
       "an enum pickles as its class called with its value");
    ts_buf_free(&b);
    ts_value_release(e);
}

static void test_errors(void)
{
    TsError err = TS_ERROR_INIT;
    TsBuf b = TS_BUF_INIT;
    TsList *l = ts_list_new(ts_type_any(), 1, NULL);
    TsValue lv = ts_obj_value(l, TS_TAG_LIST);
    ts_value_retain(lv);
    ts_list_append(l, lv, NULL);
    ok(ts_pickle(lv, NULL, &b, &err) != 0, "a list that contains itself is refused");
    like(err.msg, "cannot pickle a value that contains itself", "saying so");
    ts_error_clear(&err);
    ts_list_clear(l);              /* break the cycle to free it */
    ts_value_release(lv);
    ts_buf_free(&b);

    TsValue deep = ts_none();
    for (int i = 0; i < TS_PICKLE_MAX_DEPTH + 1; i++)
        deep = list_of(ts_type_any(), 1, &deep);
    ok(ts_pickle(deep, NULL, &b, &err) != 0, "lists nested %d deep are refused",
       TS_PICKLE_MAX_DEPTH + 1);
    like(err.msg, "nested more than 1000 deep", "saying so");
    ts_error_clear(&err);
    ts_value_release(deep);
    ts_buf_free(&b);

    TsValue t = tensor(TS_FLOAT32, 0, NULL);
    ok(ts_pickle(t, NULL, &b, &err) != 0, "a tensor without a storage_key hook is refused");
    like(err.msg, "no tensors can be pickled here", "saying so");
    ts_error_clear(&err);
    ts_buf_free(&b);
    TsTensor *as_int = ts_tensor_new(((TsTensor *)t.u.p)->storage, TS_INT32, 0, NULL, NULL, 0, NULL);
    TsTuple *two = ts_tuple_new(NULL, 2, NULL);
    two->items[0] = t;
    two->items[1] = ts_obj_value(as_int, TS_TAG_TENSOR);
    Keys keys = {{NULL}, 0};
    TsValue tv = ts_obj_value(two, TS_TAG_TUPLE);
    ok(pickle_value(tv, &keys, &b, &err) != 0, "one storage as two dtypes is refused");
    like(err.msg, "view the same data as different types", "in torch.save's words");
    ts_error_clear(&err);
    ts_buf_free(&b);
    keys_free(&keys);
    ts_value_release(tv);

    TsValue fut = ts_obj_value(ts_future_new(ts_type_int(), NULL), TS_TAG_FUTURE);
    ok(ts_pickle(fut, NULL, &b, &err) != 0, "a Future is refused");
    like(err.msg, "cannot pickle a Future", "saying so");
    ts_error_clear(&err);
    ts_buf_free(&b);
    ts_value_release(fut);
}

/* ---- Python reads it ------------------------------------------------------------------- */
static void test_python_pickle(const char *dir)
{
    TsValue v = sample(false);
    TsBuf b = TS_BUF_INIT;
    TsError err = TS_ERROR_INIT;
    char path[512], cmd[2048], *out = NULL;
    ts_pickle(v, NULL, &b, &err);
    snprintf(path, sizeof path, "%s/sample.pkl", dir);
    spit(path, b.p, b.len);
    ts_buf_free(&b);
    const char *py = python_with("zipfile");
    if (!py) {
        skip("no python3", "Python's pickle machine reads the same value");
    } else {
        snprintf(cmd, sizeof cmd, "%s %s/canon.py --pickle '%s' 2>&1", py, DATA_DIR, path);
        int rc = run(cmd, &out);
        if (out)
            out[strcspn(out, "\n")] = '\0';
        char *want = canon_text(v);
        ok(rc == 0 && out && strcmp(out, want) == 0,
           "Python's pickle machine (canon.py) reads the same value, types included");
        if (rc != 0 || !out || strcmp(out, want) != 0)
            diag("python: %s\n# C:      %s", out, want);
        free(want);
        free(out);
    }
    ts_value_release(v);
    py = python_with("torch");
    if (!py) {
        skip("python3 with torch is not installed", "pickle.loads with torch reads it");
        return;
    }
    snprintf(cmd, sizeof cmd,
             "%s -c 'import pickle, sys, torch, math\n"
             "v = pickle.loads(open(sys.argv[1], \"rb\").read())\n"
             "want = {\"ints\": [0, 255, 256, 65535, 65536, -1, -2**31, 2**31, 2**63 - 1, -2**63],\n"
             "  \"floats\": [1.5, -0.0, 1e300, math.inf, 0.1], \"bools\": [True, False],\n"
             "  \"strs\": [\"a\", \"\", \"h\\u00e9llo \\U0001F600\", \"a\"], \"nested\": [[1], []],\n"
             "  \"by_int\": {7: [\"x\"]}, \"tuple0\": (), \"tuple1\": (0,), \"tuple2\": (0, \"s\"),\n"
             "  \"tuple3\": (0, \"s\", 2), \"tuple4\": (0, \"s\", 2, \"s\"),\n"
             "  \"tuple5\": (0, \"s\", 2, \"s\", 4), \"none\": None, \"true\": True, \"big\": 2**40,\n"
             "  \"neg\": -5, \"complex\": 1.5-2j, \"cpu\": torch.device(\"cpu\"),\n"
             "  \"cuda1\": torch.device(\"cuda:1\"), \"cpu again\": torch.device(\"cpu\"),\n"
             "  \"twice\": ([\"shared\"], [\"shared\"])}\n"
             "assert v == want, (v, want)\n"
             "assert v[\"twice\"][0] is v[\"twice\"][1]\n"
             "assert math.copysign(1, v[\"floats\"][1]) < 0\n"
             "' '%s' 2>&1", py, path);
    out = NULL;
    if (!is_int(run(cmd, &out), 0, "pickle.loads (with torch imported) reads it, equal"))
        diag("%s", out);
    free(out);
}

/* Writes an archive: NAME/data.pkl, NAME/data/<key> for each storage, NAME/version, and
 * the entries of src other than its data.pkl and data/ (code, constants) when src is set. */
static int write_archive(const char *path, const char *name, const TsBuf *pkl, const Keys *keys,
                         TsZip *src, TsError *err)
{
    TsZipWriter *w = ts_zip_writer_open(path, err);
    char entry[512];
    int rc = w ? 0 : -1;
    snprintf(entry, sizeof entry, "%s/data.pkl", name);
    if (!rc)
        rc = ts_zip_writer_add(w, entry, pkl->p, pkl->len, err);
    for (size_t i = 0; i < keys->n && !rc; i++) {
        snprintf(entry, sizeof entry, "%s/data/%zu", name, i);
        rc = ts_zip_writer_add(w, entry, keys->s[i]->data, keys->s[i]->nbytes, err);
    }
    for (size_t i = 0; src && i < ts_zip_count(src) && !rc; i++) {
        const char *n = ts_zip_entry(src, i)->name + strlen(ts_zip_prefix(src));
        const void *data;
        size_t size;
        void *owned;
        if (strcmp(n, "data.pkl") == 0 || strncmp(n, "data/", 5) == 0)
            continue;
        snprintf(entry, sizeof entry, "%s/%s", name, n);
        if (!(rc = ts_zip_read(src, i, true, &data, &size, &owned, err)))
            rc = ts_zip_writer_add(w, entry, data, size, err);
        free(owned);
    }
    if (!src && !rc)
        rc = ts_zip_writer_add(w, "sample/version", "3\n", 2, err);
    if (w)
        rc = rc ? (ts_zip_writer_abort(w), rc) : ts_zip_writer_close(w, err);
    return rc;
}

static void test_torch_load(const char *dir)
{
    const char *py = python_with("torch");
    if (!py) {
        skip("python3 with torch is not installed", "torch.load reads a pickle with tensors");
        return;
    }
    TsValue v = sample(true);
    Keys keys = {{NULL}, 0};
    TsBuf b = TS_BUF_INIT;
    TsError err = TS_ERROR_INIT;
    char path[512], cmd[4096], *out = NULL;
    snprintf(path, sizeof path, "%s/sample.pt", dir);
    int rc = pickle_value(v, &keys, &b, &err);
    if (!rc)
        rc = write_archive(path, "sample", &b, &keys, NULL, &err);
    if (!ok(rc == 0, "a pickle with tensors goes into an archive")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
    }
    /* the bytes each tensor was filled with: byte i of its storage is i * 7 + 1 */
    snprintf(cmd, sizeof cmd,
             "%s -c 'import sys, torch\n"
             "v = torch.load(sys.argv[1])\n"
             "def filled(dtype, *shape):\n"
             "    n = torch.empty(shape, dtype=dtype).numel() * torch.empty(0, dtype=dtype).element_size()\n"
             "    raw = torch.tensor([(i * 7 + 1) %% 256 for i in range(n)], dtype=torch.uint8)\n"
             "    return raw.view(dtype).reshape(shape)\n"
             "base = filled(torch.float32, 2, 3)\n"
             "assert torch.equal(v[\"base\"], base) and not v[\"base\"].requires_grad\n"
             "assert torch.equal(v[\"view\"], base[1]) and v[\"view\"].requires_grad\n"
             "assert v[\"view\"].storage().data_ptr() == v[\"base\"].storage().data_ptr()\n"
             "for k, dt, shape in [(\"half\", torch.float16, (4,)), (\"long0d\", torch.int64, ()),\n"
             "                     (\"bool\", torch.bool, (4,)), (\"cx\", torch.complex64, (4,))]:\n"
             "    assert v[k].dtype == dt and v[k].shape == shape, k\n"
             "    assert torch.equal(v[k].view(torch.uint8) if shape else v[k].reshape(1).view(torch.uint8),\n"
             "                       filled(dt, *shape).reshape(-1).view(torch.uint8)) or dt == torch.bool, k\n"
             "assert v[\"empty\"].shape == (0,)\n"
             "assert torch.equal(v[\"tensors\"][0], filled(torch.int8, 4))\n"
             "assert torch.equal(v[\"tensors\"][1], filled(torch.float64, 4))\n"
             "assert torch.equal(v[\"named\"][\"w\"], filled(torch.int32, 2, 3))\n"
             "assert v[\"ints\"][-1] == -2**63 and v[\"strs\"][2] == \"h\\u00e9llo \\U0001F600\"\n"
             "' '%s' 2>&1", py, path);
    if (!is_int(run(cmd, &out), 0, "torch.load reads it: tensors, views, dtypes, values"))
        diag("%s", out);
    free(out);
    ts_buf_free(&b);
    keys_free(&keys);
    ts_value_release(v);
}

/* The test environment keeps BUILD's state in slot 0: pickling gives it back as the state.
 * An attribute dict's keys are typed str, as PyTorch's own attribute dicts are. */
static int slot_state(void *ctx, TsObject *obj, TsValue *state, TsError *err)
{
    (void)ctx, (void)err;
    *state = obj->slots[0];
    if (state->tag == TS_TAG_DICT)
        ts_dict_set_types((TsDict *)state->u.p, ts_type_str(), ts_type_any());
    ts_value_retain(*state);
    return 0;
}

/* PyTorch's module.pt: unpickled here, pickled again, run by torch.jit.load. */
static void test_jit_load(const char *dir)
{
    const char *py = python_with("torch");
    if (!py) {
        skip("python3 with torch is not installed", "torch.jit.load runs a module re-pickled here");
        return;
    }
    char path[512], cmd[2048], *out = NULL;
    TsError err = TS_ERROR_INIT;
    snprintf(path, sizeof path, "%s/module.pt", DATA_DIR);
    TestEnv te = {ts_zip_open_file(path, &err), 0, 0, 0};
    TsUnpickleEnv uenv = test_env(&te);
    long at = te.zip ? ts_zip_find(te.zip, "module/data.pkl") : -1;
    const void *data;
    size_t size;
    void *owned = NULL;
    TsValue v;
    if (at < 0 || ts_zip_read(te.zip, (size_t)at, true, &data, &size, &owned, &err) ||
        ts_unpickle(data, size, &uenv, &v, &err)) {
        ok(0, "module.pt unpickles");
        diag("%s", err.msg);
        return;
    }
    Keys keys = {{NULL}, 0};
    TsPickleEnv penv = {&keys, storage_key, slot_state};
    TsBuf b = TS_BUF_INIT;
    snprintf(path, sizeof path, "%s/repickled.pt", dir);
    int rc = ts_pickle(v, &penv, &b, &err);
    if (!rc)
        rc = write_archive(path, "module", &b, &keys, te.zip, &err);
    if (!ok(rc == 0, "module.pt's value pickles again into a new archive"))
        diag("%s", err.msg);
    ts_error_clear(&err);
    snprintf(cmd, sizeof cmd,
             "%s -c 'import sys, torch\n"
             "a, b = torch.jit.load(sys.argv[1]), torch.jit.load(sys.argv[2])\n"
             "x = torch.ones(4, 3)\n"
             "assert torch.equal(a(x), b(x))\n"
             "for k in [\"ints\", \"floats\", \"bools\", \"strs\", \"nested\", \"by_int\", \"pair\",\n"
             "          \"maybe\", \"nothing\", \"text\", \"dev\", \"z\"]:\n"
             "    assert getattr(a, k) == getattr(b, k), k\n"
             "for k in [\"row\", \"bf\", \"cx\", \"flags\", \"t64\"]:\n"
             "    x, y = getattr(a, k), getattr(b, k)\n"
             "    assert torch.equal(x, y) and x.stride() == y.stride(), k\n"
             "assert b.row.storage().data_ptr() == b.lin.weight.storage().data_ptr()\n"
             "assert b.keeper.k == 3\n"
             "assert torch.equal(a.by_name[\"w\"], b.by_name[\"w\"])\n"
             "' %s/module.pt '%s' 2>&1", py, DATA_DIR, path);
    if (!is_int(run(cmd, &out), 0, "torch.jit.load runs it, with the same attributes and output"))
        diag("%s", out);
    free(out);
    free(owned);
    ts_buf_free(&b);
    keys_free(&keys);
    ts_value_release(v);
    ts_zip_release(te.zip);
}

int main(void)
{
    const char *dir = make_tmpdir();
    if (!dir) {
        printf("1..0 # SKIP cannot make a temporary directory\n");
        return 0;
    }
    test_round_trip();
    test_object();
    test_errors();
    test_python_pickle(dir);
    test_torch_load(dir);
    test_jit_load(dir);
    cleanup_tmpdir();
    return done_testing();
}
