/* t/api.c — the embedding API (include/tscript/tscript.h), used as an embedder uses it:
 * built with -I include alone and linked with the installed library's surface
 * (libtscript.la), nothing of core/.
 *
 * Runtimes from settings in memory; scripts compiled from source and from a file, their
 * functions listed, found, described and called (wrong argument counts and types refused in
 * PyTorch's words, exceptions coming back with their class); tensors over the test's own
 * memory (zero copy, strided, released once) and copied; values built and read; a model
 * PyTorch saved (examples/embed/linear.pt) loaded from a path and from memory, its methods
 * listed and called, saved and loaded again; a function saved as a module.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tscript/tscript.h"

static TsRuntime *rt;

static const char source[] =
    "import torch\n"
    "from typing import Dict, List, Tuple\n"
    "\n"
    "def add(a: int, b: int) -> int:\n"
    "    return a + b\n"
    "\n"
    "def shift(a: int, by: int = 10, s: str = 'x') -> str:\n"
    "    return s + str(a + by)\n"
    "\n"
    "def scale(x: torch.Tensor, k: float) -> torch.Tensor:\n"
    "    return x * k\n"
    "\n"
    "def grow(x: torch.Tensor, write: bool) -> torch.Tensor:\n"
    "    y = x + 1\n"
    "    if write:\n"
    "        x[1].mul_(2)\n"
    "    return y\n"
    "\n"
    "def pair(a: int, s: str) -> Tuple[int, str]:\n"
    "    return a, s + '!'\n"
    "\n"
    "def keys(d: Dict[str, int]) -> List[str]:\n"
    "    return sorted(d.keys())\n"
    "\n"
    "def total(xs: List[float]) -> float:\n"
    "    return sum(xs)\n"
    "\n"
    "def check(x: int) -> int:\n"
    "    if x < 0:\n"
    "        raise ValueError('negative: ' + str(x))\n"
    "    return x\n"
    "\n"
    "class Point:\n"
    "    def __init__(self, x: int, y: int):\n"
    "        self.x = x\n"
    "        self.y = y\n"
    "\n"
    "    def norm1(self) -> int:\n"
    "        return abs(self.x) + abs(self.y)\n"
    "\n"
    "def point(x: int, y: int) -> int:\n"
    "    return Point(x, y).norm1()\n";

static int releases;
static void count_release(void *ctx) { releases++; (void)ctx; }

static char *path_in(const char *dir, const char *name)
{
    static char buf[4][1024];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

/* Calls m with the values (borrowed) and returns the result (the caller releases it), or
 * None with a diagnostic. */
static TsValue call(const TsMethod *m, const TsValue *args, size_t n)
{
    TsError err = TS_ERROR_INIT;
    TsValue out;
    if (ts_method_call(m, args, n, &out, &err)) {
        diag("%s: %s", ts_method_name(m), err.msg);
        ts_error_clear(&err);
    }
    return out;
}

static void test_version(void)
{
    is_str(ts_version(), TS_VERSION, "ts_version() is the header's TS_VERSION");
    is_int(ts_abi_version(), TS_ABI_VERSION, "ts_abi_version() is the header's TS_ABI_VERSION");
}

static void test_runtime(void)
{
    TsError err = TS_ERROR_INIT;
    const char good[] = "plugins: [prim, aten-cpu]\nnum_threads: 3\n";
    TsRuntime *r = ts_runtime_open_settings(good, strlen(good), &err);
    ok(r != NULL, "a runtime opens from settings in memory");
    if (r) {
        is_int(ts_runtime_num_threads(r), 3, "num_threads comes from the settings");
        is_str(ts_runtime_default_backend(r), "cpu", "the default backend is cpu");
        is_int(ts_runtime_set_num_threads(r, 0, &err), TS_ERR_VALUE, "0 threads is refused");
        like(err.msg, "from 1 to 4096, got 0", "... saying what is allowed");
        ts_error_clear(&err);
        is_int(ts_runtime_set_num_threads(r, 2, &err), 0, "2 threads are set");
        is_int(ts_runtime_num_threads(r), 2, "... and read back");
        ts_runtime_close(r);
    }
    ts_error_clear(&err);

    const char unknown[] = "plugins: [prim]\nthreads: 2\n";
    r = ts_runtime_open_settings(unknown, strlen(unknown), &err);
    ok(!r && err.code == TS_ERR_CONFIG, "an unknown key in the settings is a config error");
    like(err.msg, "(settings):2:", "... located in the settings");
    ts_runtime_close(r);
    ts_error_clear(&err);

    const char bad[] = "plugins: [prim\n";
    r = ts_runtime_open_settings(bad, strlen(bad), &err);
    ok(!r && err.code == TS_ERR_CONFIG, "malformed YAML settings are a config error");
    ts_error_clear(&err);
    const char missing[] = "plugins: [no-such-plugin]\n";
    r = ts_runtime_open_settings(missing, strlen(missing), &err);
    ok(!r && err.code == TS_ERR_PLUGIN, "a missing plugin fails the open");
    like(err.msg, "no-such-plugin", "... naming it");
    ts_error_clear(&err);
    r = ts_runtime_open_settings(NULL, 5, &err);
    ok(!r && err.code == TS_ERR_USAGE, "no settings text with a length is a usage error");
    ts_error_clear(&err);
}

static void test_script(void)
{
    TsError err = TS_ERROR_INIT;
    TsScript *s = ts_script_compile(rt, "prog.py", source, strlen(source), &err);
    ok(s != NULL, "TorchScript source compiles");
    if (!s) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    bool has_add = false, has_norm = false;
    for (size_t i = 0; i < ts_script_num_functions(s); i++) {
        has_add |= strcmp(ts_script_function_name(s, i), "__torch__.add") == 0;
        has_norm |= strstr(ts_script_function_name(s, i), "Point.norm1") != NULL;
    }
    ok(has_add && has_norm, "the script lists its functions and methods by qualified name");
    ok(ts_script_function_name(s, ts_script_num_functions(s)) == NULL,
       "past the end there is no name");

    TsMethod *add = ts_script_find_function(s, "add", &err);
    TsMethod *add_q = ts_script_find_function(s, "__torch__.add", &err);
    ok(add && add_q, "a function is found by its name and by its qualified name");
    if (!add || !add_q) {
        ts_method_free(add);
        ts_method_free(add_q);
        ts_script_free(s);
        return;
    }
    char schema[128];
    ts_method_schema(add, schema, sizeof schema);
    is_str(schema, "add(int a, int b) -> int", "its schema is PyTorch's");
    char small[5];
    is_int((long long)ts_method_schema(add, small, sizeof small), 24,
           "the schema's length comes back when the buffer is short");
    is_str(small, "add(", "... and the text is cut, terminated");
    is_str(ts_method_name(add), "__torch__.add", "the method's name is qualified");
    is_int((long long)ts_method_num_args(add), 2, "add takes two arguments");
    ok(ts_method_arg_type(add, 1) == ts_type_int() && ts_method_arg_type(add, 2) == NULL,
       "argument types, and none past the end");
    ok(ts_method_return_type(add) == ts_type_int(), "the return type");

    TsValue args[3] = { ts_int(40), ts_int(2), ts_int(1) }, out;
    TsValue r = call(add, args, 2);
    is_int(r.tag == TS_TAG_INT ? r.u.i : -1, 42, "add(40, 2) is 42");
    r = call(add_q, args, 2);
    is_int(r.tag == TS_TAG_INT ? r.u.i : -1, 42, "... through the qualified name too");

    is_int(ts_method_call(add, args, 3, &out, &err), TS_ERR_TYPE, "three arguments for two");
    is_str(err.msg, "add() expected at most 2 argument(s) but received 3 argument(s). "
           "Declaration: add(int a, int b) -> int", "... refused in PyTorch's words");
    ok(out.tag == TS_TAG_NONE, "... with None for a result");
    ts_error_clear(&err);
    is_int(ts_method_call(add, args, 1, &out, &err), TS_ERR_TYPE, "one argument for two");
    like(err.msg, "add() is missing value for argument 'b'.", "... refused in PyTorch's words");
    ts_error_clear(&err);
    TsValue word;
    ts_value_str_new("x", 1, &word, &err);
    TsValue wrong[2] = { word, ts_int(1) };
    is_int(ts_method_call(add, wrong, 2, &out, &err), TS_ERR_TYPE, "a str for an int");
    like(err.msg, "add() Expected a value of type 'int' for argument 'a' but instead found "
         "type 'str'.", "... refused in PyTorch's words");
    ts_error_clear(&err);
    ts_value_release(word);
    is_int(ts_method_call(add, NULL, 2, &out, &err), TS_ERR_USAGE, "no argument array");
    ts_error_clear(&err);

    /* trailing arguments left out take their defaults, as in a TorchScript call */
    TsMethod *shift = ts_script_find_function(s, "shift", &err);
    ok(shift != NULL, "shift is found");
    if (shift) {
        is_int(ts_method_call(shift, args, 1, &out, &err), 0, "shift(40): both defaults");
        is_str(out.tag == TS_TAG_STR ? ((const TsStr *)out.u.p)->data : "?", "x50",
               "... are used");
        ts_value_release(out);
        is_int(ts_method_call(shift, args, 2, &out, &err), 0, "shift(40, 2): one default");
        is_str(out.tag == TS_TAG_STR ? ((const TsStr *)out.u.p)->data : "?", "x42",
               "... is used");
        ts_value_release(out);
        is_int(ts_method_call(shift, args, 0, &out, &err), TS_ERR_TYPE,
               "shift(): 'a' has no default");
        like(err.msg, "shift() is missing value for argument 'a'.", "... so it is refused");
        ts_error_clear(&err);
        ts_method_free(shift);
    }

    TsMethod *none = ts_script_find_function(s, "nope", &err);
    ok(!none && err.code == TS_ERR_KEY, "an unknown function is a KeyError");
    like(err.msg, "no function 'nope'", "... naming it");
    ts_error_clear(&err);
    none = ts_script_find_function(s, "Point.norm1", &err);
    ok(!none && err.code == TS_ERR_KEY, "a method of a class is not a free function");
    ts_error_clear(&err);

    TsMethod *check = ts_script_find_function(s, "check", &err);
    TsValue neg = ts_int(-3);
    is_int(check ? ts_method_call(check, &neg, 1, &out, &err) : -1, TS_ERR_VALUE,
           "an exception the program raises comes back with its class");
    like(err.msg, "ValueError: negative: -3", "... and PyTorch's message");
    ts_error_clear(&err);

    TsMethod *point = ts_script_find_function(s, "point", &err);
    TsValue xy[2] = { ts_int(-3), ts_int(4) };
    r = point ? call(point, xy, 2) : ts_none();
    is_int(r.tag == TS_TAG_INT ? r.u.i : -1, 7, "a function using a script class runs");

    TsMethod *pair = ts_script_find_function(s, "pair", &err);
    TsValue pa[2] = { ts_int(7), ts_none() };
    ts_value_str_new("hi", 2, &pa[1], &err);
    r = pair ? call(pair, pa, 2) : ts_none();
    ts_value_release(pa[1]);
    is_int((long long)ts_value_len(r), 2, "a tuple comes back with its two items");
    TsValue item;
    int64_t i64 = 0;
    const char *text = NULL;
    size_t len = 0;
    ok(ts_value_item(r, 0, &item, &err) == 0 && ts_value_to_int(item, &i64, &err) == 0 &&
       i64 == 7, "item 0 is the int");
    ok(ts_value_item(r, 1, &item, &err) == 0 && ts_value_to_str(item, &text, &len, &err) == 0 &&
       len == 3 && strcmp(text, "hi!") == 0, "item 1 is the str");
    is_int(ts_value_item(r, 2, &item, &err), TS_ERR_INDEX, "item 2 is out of range");
    ts_error_clear(&err);
    char *repr = ts_value_to_cstr(rt, r, &err);
    is_str(repr, "(7, hi!)", "the tuple prints as TorchScript prints it (str unquoted)");
    free(repr);
    ts_value_release(r);

    ts_method_free(add);
    ts_method_free(add_q);
    ts_method_free(check);
    ts_method_free(point);
    ts_method_free(pair);

    /* containers in and out */
    TsMethod *keys = ts_script_find_function(s, "keys", &err);
    TsValue k[2], v[2] = { ts_int(1), ts_int(2) };
    ts_value_str_new("b", 1, &k[0], &err);
    ts_value_str_new("a", 1, &k[1], &err);
    TsValue d;
    is_int(ts_value_dict_new(ts_type_str(), ts_type_int(), k, v, 2, &d, &err), 0,
           "a Dict[str, int] is built");
    is_int((long long)ts_value_len(d), 2, "... with two entries");
    TsValue key_a, got;
    ts_value_str_new("a", 1, &key_a, &err);
    ok(ts_value_dict_get(d, key_a, &got, &err) == 0 && got.tag == TS_TAG_INT && got.u.i == 2,
       "... d['a'] is 2");
    ts_value_release(key_a);
    ok(ts_value_dict_get(d, ts_int(1), &got, &err) == TS_ERR_KEY, "a missing key is a KeyError");
    ts_error_clear(&err);
    r = keys ? call(keys, &d, 1) : ts_none();
    repr = ts_value_to_cstr(rt, r, &err);
    is_str(repr, "[a, b]", "keys(d) is the sorted List[str]");
    free(repr);
    ts_value_release(r);
    ts_value_release(d);
    ts_method_free(keys);

    TsValue bad_k = ts_int(1), bad_v = ts_int(1);
    is_int(ts_value_dict_new(ts_type_str(), ts_type_int(), &bad_k, &bad_v, 1, &d, &err),
           TS_ERR_TYPE, "an int key for a Dict[str, int] is refused");
    like(err.msg, "expected a value of type 'str' but found type 'int'", "... saying why");
    ts_error_clear(&err);

    TsMethod *total = ts_script_find_function(s, "total", &err);
    TsValue xs[3] = { ts_double(0.5), ts_double(1.5), ts_double(2.0) }, list;
    is_int(ts_value_list_new(ts_type_float(), xs, 3, &list, &err), 0, "a List[float] is built");
    r = total ? call(total, &list, 1) : ts_none();
    double dsum = 0;
    ok(ts_value_to_double(r, &dsum, &err) == 0 && dsum == 4.0, "total(list) is 4.0");
    ts_value_release(list);
    TsValue mixed[2] = { ts_double(1.0), ts_none() };
    ts_value_str_new("x", 1, &mixed[1], &err);
    is_int(ts_value_list_new(ts_type_float(), mixed, 2, &list, &err), TS_ERR_TYPE,
           "a str in a List[float] is refused");
    like(err.msg, "list item 1", "... naming the item");
    ts_error_clear(&err);
    ts_method_free(total);

    /* tensors over the test's memory */
    TsMethod *scale = ts_script_find_function(s, "scale", &err);
    float buf[4] = { 1, 2, 3, 4 };
    int64_t sizes[2] = { 2, 2 };
    releases = 0;
    TsTensor *t = ts_tensor_from_blob(buf, TS_FLOAT32, 2, sizes, NULL, count_release, NULL, &err);
    ok(t != NULL, "a tensor over the caller's buffer");
    if (t && scale) {
        ok(ts_tensor_data(t) == (void *)buf, "... is zero copy");
        is_int(ts_tensor_dtype(t), TS_FLOAT32, "... float32");
        is_int(ts_tensor_dim(t), 2, "... 2-d");
        ok(ts_tensor_sizes(t)[0] == 2 && ts_tensor_sizes(t)[1] == 2 &&
           ts_tensor_strides(t)[0] == 2 && ts_tensor_strides(t)[1] == 1,
           "... sizes [2, 2], contiguous strides [2, 1]");
        ok(ts_tensor_device(t).type == TS_DEV_CPU, "... on the CPU");
        TsValue a[2] = { ts_tensor_value(t), ts_double(10) };
        buf[3] = 5;                          /* seen by the tensor: it is the same memory */
        r = call(scale, a, 2);
        TsTensor *y = NULL;
        ok(ts_value_to_tensor(r, &y, &err) == 0 && ts_tensor_dtype(y) == TS_FLOAT32,
           "scale returns a float tensor");
        const float *p = y ? (const float *)ts_tensor_data(y) : NULL;
        ok(p && p[0] == 10 && p[1] == 20 && p[2] == 30 && p[3] == 50,
           "... computed over the buffer as it is now");
        ts_value_release(r);
        is_int(releases, 0, "the buffer is not released while the tensor lives");
        ts_value_release(a[0]);
        is_int(releases, 1, "... and released once when it dies");
    }

    /* a strided view of the buffer: elements 0 and 2 */
    float sbuf[4] = { 1, 100, 2, 100 };
    int64_t ssize = 2, sstride = 2;
    t = ts_tensor_from_blob(sbuf, TS_FLOAT32, 1, &ssize, &sstride, NULL, NULL, &err);
    if (t && scale) {
        ok(ts_tensor_strides(t)[0] == 2, "a strided tensor over the buffer keeps its stride");
        TsValue a[2] = { ts_tensor_value(t), ts_double(3) };
        r = call(scale, a, 2);
        TsTensor *y = NULL;
        ts_value_to_tensor(r, &y, &err);
        const float *p = y ? (const float *)ts_tensor_data(y) : NULL;
        ok(p && p[0] == 3 && p[1] == 6, "... and the program reads only its elements");
        ts_value_release(r);
        ts_value_release(a[0]);
    } else {
        ok(0, "a strided tensor over the buffer");
        ts_error_clear(&err);
    }

    /* the storage's version moves with each write the program makes, through a view too */
    TsMethod *grow = ts_script_find_function(s, "grow", &err);
    float gbuf[2] = { 1, 2 };
    int64_t two = 2;
    t = ts_tensor_from_blob(gbuf, TS_FLOAT32, 1, &two, NULL, NULL, NULL, &err);
    if (t && grow) {
        TsValue a[2] = { ts_tensor_value(t), ts_bool(false) };
        is_int(ts_storage_version(t->storage), 0, "a new storage's version is 0");
        ts_value_release(call(grow, a, 2));
        is_int(ts_storage_version(t->storage), 0, "reading it leaves the version");
        a[1] = ts_bool(true);
        ts_value_release(call(grow, a, 2));
        ok(ts_storage_version(t->storage) != 0 && gbuf[1] == 4,
           "a write through a view (x[1].mul_(2)) moves it");
        unsigned ver = ts_storage_version(t->storage);
        ts_storage_bump_version(t->storage);
        ok(ts_storage_version(t->storage) != ver, "so does ts_storage_bump_version");
        ts_value_release(a[0]);
    } else {
        ok(0, "grow");
        ts_error_clear(&err);
    }
    ts_method_free(grow);

    double dbuf[3] = { 1.5, 2.5, 3.5 };
    int64_t three = 3;
    t = ts_tensor_from_copy(dbuf, TS_FLOAT64, 1, &three, &err);
    ok(t && ts_tensor_data(t) != (void *)dbuf, "a copied tensor has its own memory");
    dbuf[0] = 0;
    ok(t && ((const double *)ts_tensor_data(t))[0] == 1.5, "... unchanged when the source is");
    TsValue tv = ts_tensor_value(t);
    repr = ts_value_to_cstr(rt, tv, &err);
    like(repr, "CPUDoubleType{3}", "... and prints as a PyTorch tensor");
    free(repr);
    ts_value_release(tv);
    ts_method_free(scale);

    /* shapes refused, the release never called */
    releases = 0;
    int64_t neg_size[2] = { 2, -1 };
    ok(!ts_tensor_from_blob(buf, TS_FLOAT32, 2, neg_size, NULL, count_release, NULL, &err) &&
       err.code == TS_ERR_RUNTIME, "a negative size is refused");
    like(err.msg, "negative dimension -1", "... in PyTorch's words");
    ts_error_clear(&err);
    ok(!ts_tensor_from_blob(buf, 99, 1, sizes, NULL, count_release, NULL, &err) &&
       err.code == TS_ERR_VALUE, "a bad dtype is refused");
    ts_error_clear(&err);
    int64_t huge[2] = { INT64_MAX / 2, 4 };
    ok(!ts_tensor_from_blob(buf, TS_FLOAT32, 2, huge, NULL, count_release, NULL, &err),
       "sizes whose extent overflows are refused");
    like(err.msg, "overflow", "... as an overflow");
    ts_error_clear(&err);
    int64_t neg_stride = -1;
    ok(!ts_tensor_from_blob(buf, TS_FLOAT32, 1, &three, &neg_stride, count_release, NULL, &err),
       "a negative stride is refused");
    ts_error_clear(&err);
    ok(!ts_tensor_from_blob(buf, TS_FLOAT32, 65, NULL, NULL, count_release, NULL, &err) &&
       err.code == TS_ERR_LIMIT, "65 dimensions are refused");
    ts_error_clear(&err);
    ok(!ts_tensor_from_blob(NULL, TS_FLOAT32, 1, &three, NULL, count_release, NULL, &err) &&
       err.code == TS_ERR_USAGE, "no data for 3 elements is refused");
    ts_error_clear(&err);
    is_int(releases, 0, "no refused tensor called the release");
    int64_t zero = 0;
    t = ts_tensor_from_blob(NULL, TS_FLOAT32, 1, &zero, NULL, NULL, NULL, &err);
    ok(t != NULL, "an empty tensor needs no data");
    ts_value_release(ts_tensor_value(t));

    ts_script_free(s);

    /* compile errors */
    const char broken[] = "def f(x: int) -> int:\n    return x +\n";
    s = ts_script_compile(rt, "broken.py", broken, strlen(broken), &err);
    ok(!s && err.code != TS_OK, "a syntax error fails the compile");
    like(err.msg, "broken.py", "... naming the file");
    ts_error_clear(&err);
    const char typo[] = "def f(x: int) -> int:\n    return y\n";
    s = ts_script_compile(rt, "typo.py", typo, strlen(typo), &err);
    ok(!s, "an undefined name fails the compile");
    like(err.msg, "undefined value y", "... in PyTorch's words");
    ts_error_clear(&err);
    s = ts_script_compile_file(rt, "/nonexistent/x.py", &err);
    ok(!s && err.code == TS_ERR_IO, "a missing file fails with an I/O error");
    ts_error_clear(&err);
    ok(!ts_script_compile(NULL, "x.py", "", 0, &err) && err.code == TS_ERR_USAGE,
       "no runtime is a usage error");
    ts_error_clear(&err);
}

static void test_script_file(void)
{
    TsError err = TS_ERROR_INIT;
    char path[] = "/tmp/tscript-api-XXXXXX.py";
    int fd = mkstemps(path, 3);
    const char prog[] = "def twice(x: int) -> int:\n    return 2 * x\n";
    ok(fd >= 0 && write(fd, prog, strlen(prog)) == (ssize_t)strlen(prog), "a program file");
    close(fd);
    TsScript *s = ts_script_compile_file(rt, path, &err);
    TsMethod *m = s ? ts_script_find_function(s, "twice", &err) : NULL;
    TsValue a = ts_int(21);
    TsValue r = m ? call(m, &a, 1) : ts_none();
    is_int(r.tag == TS_TAG_INT ? r.u.i : -1, 42, "a function compiled from a file runs");

    /* saved as a module (PlaceholderModule.forward), loaded and run again */
    char saved[] = "/tmp/tscript-api-XXXXXX.pt";
    fd = mkstemps(saved, 3);
    close(fd);
    is_int(s ? ts_script_save(s, "twice", saved, &err) : -1, 0, "the function is saved");
    TsModule *mod = ts_module_load(rt, saved, &err);
    TsMethod *fwd = mod ? ts_module_find_method(mod, "forward", &err) : NULL;
    r = fwd ? call(fwd, &a, 1) : ts_none();
    is_int(r.tag == TS_TAG_INT ? r.u.i : -1, 42, "... and runs as the forward of the archive");
    is_int(s ? ts_script_save(s, "nope", saved, &err) : -1, TS_ERR_KEY,
           "saving an unknown function is a KeyError");
    ts_error_clear(&err);
    ts_method_free(fwd);
    ts_module_free(mod);
    ts_method_free(m);
    ts_script_free(s);
    unlink(path);
    unlink(saved);
}

/* linear.pt: relu(fc(x)) * 2 with fc's weight [[.1 .2 .3 .4] [-.1 0 .1 0]], bias [.5 -.5]. */
static void check_linear(TsModule *m, const char *how)
{
    TsError err = TS_ERROR_INIT;
    TsMethod *fwd = ts_module_find_method(m, "forward", &err);
    ok(fwd != NULL, "%s: forward is found", how);
    if (!fwd) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    float in[4] = { 1, 2, 3, 4 };
    int64_t sizes[2] = { 1, 4 };
    TsValue x = ts_tensor_value(ts_tensor_from_blob(in, TS_FLOAT32, 2, sizes, NULL, NULL, NULL,
                                                    &err));
    TsValue r = call(fwd, &x, 1);
    TsTensor *y = NULL;
    ok(ts_value_to_tensor(r, &y, &err) == 0 && ts_tensor_dim(y) == 2 &&
       ts_tensor_sizes(y)[0] == 1 && ts_tensor_sizes(y)[1] == 2, "%s: forward gives 1x2", how);
    const float *p = y ? (const float *)ts_tensor_data(y) : NULL;
    ok(p && p[0] > 7 - 1e-5 && p[0] < 7 + 1e-5 && p[1] == 0,
       "%s: forward(x) is [7, 0], as PyTorch computes it", how);
    ts_error_clear(&err);
    ts_value_release(r);
    ts_value_release(x);
    ts_method_free(fwd);
}

static void test_module(const char *srcdir)
{
    TsError err = TS_ERROR_INIT;
    const char *model = path_in(srcdir, "examples/embed/linear.pt");
    TsModule *m = ts_module_load(rt, model, &err);
    ok(m != NULL, "a model PyTorch saved loads");
    if (!m) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    const char *names[4];
    size_t n = ts_module_method_names(m, names, 4);
    ok(n == 1 && strcmp(names[0], "forward") == 0, "its methods are listed: forward");
    TsValue root = ts_module_root(m);
    ok(root.tag == TS_TAG_OBJECT, "its root is an object");

    TsMethod *fwd = ts_module_find_method(m, "forward", &err);
    char schema[128];
    if (fwd)
        ts_method_schema(fwd, schema, sizeof schema);
    is_str(fwd ? schema : NULL, "forward(__torch__.Linear self, Tensor x) -> Tensor",
           "forward's schema is PyTorch's, self included");
    is_int(fwd ? (long long)ts_method_num_args(fwd) : -1, 1, "... and a call passes one argument");
    ok(fwd && ts_method_arg_type(fwd, 0) && ts_type_kind(ts_method_arg_type(fwd, 0)) ==
       ts_type_kind(ts_type_tensor()), "... a Tensor");
    ts_method_free(fwd);
    check_linear(m, "from a path");

    TsMethod *none = ts_module_find_method(m, "backward", &err);
    ok(!none && err.code == TS_ERR_KEY, "a method the module lacks is a KeyError");
    like(err.msg, "no method 'backward'", "... naming it");
    ts_error_clear(&err);

    char saved[] = "/tmp/tscript-api-XXXXXX.pt";
    int fd = mkstemps(saved, 3);
    close(fd);
    is_int(ts_module_save(m, saved, &err), 0, "the module is saved");
    ts_error_clear(&err);
    ts_module_free(m);
    m = ts_module_load(rt, saved, &err);
    ok(m != NULL, "... and loads again");
    if (m)
        check_linear(m, "saved by tscript");
    ts_module_free(m);
    unlink(saved);

    /* from memory */
    FILE *f = fopen(model, "rb");
    static char data[1 << 16];
    size_t size = f ? fread(data, 1, sizeof data, f) : 0;
    if (f)
        fclose(f);
    m = ts_module_load_memory(rt, "linear.pt", data, size, &err);
    ok(m != NULL, "a model loads from memory");
    if (m)
        check_linear(m, "from memory");
    ts_module_free(m);
    ts_error_clear(&err);
    m = ts_module_load_memory(rt, "half.pt", data, size / 2, &err);
    ok(!m && err.code != TS_OK, "half an archive is refused");
    like(err.msg, "half.pt", "... naming it");
    ts_error_clear(&err);
    m = ts_module_load(rt, path_in(srcdir, "README"), &err);
    ok(!m && err.code != TS_OK, "a file that is no archive is refused");
    ts_error_clear(&err);
}

static void test_values(void)
{
    TsError err = TS_ERROR_INIT;
    int64_t i = 0;
    double d = 0;
    bool b = false;
    ok(ts_value_to_int(ts_int(5), &i, &err) == 0 && i == 5, "an int reads as an int");
    ok(ts_value_to_double(ts_int(5), &d, &err) == 0 && d == 5.0, "... and as a float");
    ok(ts_value_to_double(ts_double(2.5), &d, &err) == 0 && d == 2.5, "a float reads");
    ok(ts_value_to_bool(ts_bool(true), &b, &err) == 0 && b, "a bool reads");
    is_int(ts_value_to_int(ts_bool(true), &i, &err), TS_ERR_TYPE, "a bool is not an int");
    is_str(err.msg, "expected a value of type 'int' but found type 'bool'", "... saying so");
    ts_error_clear(&err);
    is_int(ts_value_to_bool(ts_int(1), &b, &err), TS_ERR_TYPE, "an int is not a bool");
    ts_error_clear(&err);
    TsTensor *t;
    is_int(ts_value_to_tensor(ts_none(), &t, &err), TS_ERR_TYPE, "None is not a tensor");
    like(err.msg, "found type 'NoneType'", "... saying what it is");
    ts_error_clear(&err);
    TsValue s;
    ok(ts_value_str_new("h\0i", 3, &s, &err) == 0 && ts_value_len(s) == 3,
       "a str keeps every byte it is given");
    ts_value_release(s);
    TsValue items[2] = { ts_int(1), ts_none() }, tup;
    ok(ts_value_tuple_new(items, 2, &tup, &err) == 0 && ts_value_len(tup) == 2, "a tuple");
    char *repr = ts_value_to_cstr(NULL, tup, &err);
    is_str(repr, "(1, None)", "... prints as TorchScript prints it");
    free(repr);
    ts_value_release(tup);
    is_int((long long)ts_value_len(ts_int(3)), 0, "an int has no length");

    /* ts_value_to_backend: cpu tensors stay themselves on the cpu; a name that is no
     * backend is refused and leaves the value as it was */
    float data[4] = { 1, 2, 3, 4 };
    int64_t four = 4;
    TsTensor *x = ts_tensor_from_copy(data, TS_FLOAT32, 1, &four, &err);
    TsValue pair[2] = { ts_tensor_value(x), ts_int(7) }, v;
    ts_tensor_retain(x);
    ok(x && ts_value_tuple_new(pair, 2, &v, &err) == 0, "a tuple of a tensor and an int");
    ok(ts_value_to_backend(rt, &v, "cpu", &err) == 0, "moves to the cpu backend");
    TsValue first = ts_none();
    ok(ts_value_item(v, 0, &first, &err) == 0 && first.u.p == (void *)x,
       "... a cpu tensor there is the same tensor");
    ok(ts_value_to_backend(rt, &v, NULL, &err) == 0, "moves to the default backend (cpu)");
    TsValue before = v;
    is_int(ts_value_to_backend(rt, &v, "nodev", &err), TS_ERR_USAGE, "an unknown backend");
    like(err.msg, "'nodev' is not a backend", "... named");
    ok(v.u.p == before.u.p, "... leaves the value as it was");
    ts_error_clear(&err);
    ts_value_release(v);
    ts_tensor_release(x);
}

int main(void)
{
    const char *srcdir = getenv("TS_SRCDIR") ? getenv("TS_SRCDIR") : TS_TEST_SRCDIR;
    unsetenv("TSCRIPT_NUM_THREADS");
    unsetenv("TSCRIPT_CONFIG");
    TsError err = TS_ERROR_INIT;
    rt = ts_runtime_open(NULL, &err);
    if (!rt) {
        printf("Bail out! %s\n", err.msg);
        return 1;
    }
    test_version();
    test_runtime();
    test_values();
    test_script();
    test_script_file();
    test_module(srcdir);
    ts_runtime_close(rt);
    return done_testing();
}
