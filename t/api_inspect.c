/* t/api_inspect.c — the public API a tool such as the tscript program needs beyond calling
 * (tscript.h and inspect.h), used as an embedder uses it: -I include alone, linked with
 * libtscript.la.
 *
 * The default backend set after opening (and refused for a backend nothing provides);
 * compiling only some functions of a file; a method's argument names and defaults; a
 * model's archive version, attribute kinds and the operators no loaded plugin declares;
 * values written to and read from torch.save and .npy files and conformed to a declared
 * type; whole files read with a limit; the operator table listed and searched; a source
 * file's outline with its decorators. Each with its error paths.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tscript/tscript.h"

static TsRuntime *rt;
static char scratch[256];

static const char *path_in(const char *dir, const char *name)
{
    static char buf[4][1024];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

static void test_default_backend(void)
{
    TsError err = TS_ERROR_INIT;
    is_str(ts_runtime_default_backend(rt), "cpu", "the default backend is cpu");
    is_int(ts_runtime_set_default_backend(rt, "cpu", &err), 0, "cpu can be set");
    is_int(ts_runtime_set_default_backend(rt, "nope", &err), TS_ERR_CONFIG,
           "a backend no plugin provides is refused");
    is_str(err.msg, "'nope' is not a backend any loaded plugin provides", "... in those words");
    ts_error_clear(&err);
    is_int(ts_runtime_set_default_backend(rt, NULL, &err), TS_ERR_CONFIG, "so is no name");
    ts_error_clear(&err);
    is_str(ts_runtime_default_backend(rt), "cpu", "a refused backend leaves the default");
}

static const char entries_src[] =
    "def good(a: int, b: int = 2) -> int:\n"
    "    return a * b\n"
    "\n"
    "def broken(a: int) -> int:\n"
    "    return a + 'x'\n"
    "\n"
    "def opt(s: str = 'hi', n: int = 3, f: float = 0.5) -> str:\n"
    "    return s + str(n) + str(f)\n";

static void test_compile_entries(void)
{
    TsError err = TS_ERROR_INIT;
    size_t len = sizeof entries_src - 1, failed = 99;
    const char *good[] = { "good" };
    TsScript *s = ts_script_compile_entries(rt, "e.py", entries_src, len, good, 1, &failed,
                                            &err);
    ok(s != NULL, "an entry compiles although another function of the file does not");
    TsMethod *m = s ? ts_script_find_function(s, "good", &err) : NULL;
    TsValue out = ts_none(), arg = ts_int(21);
    int64_t v = 0;
    ok(m && ts_method_call(m, &arg, 1, &out, &err) == 0 && ts_value_to_int(out, &v, &err) == 0
       && v == 42, "... and runs, its default filled in");
    if (m) {
        is_str(ts_method_arg_name(m, 0), "a", "argument 0 is named a");
        is_str(ts_method_arg_name(m, 1), "b", "argument 1 is named b");
        ok(ts_method_arg_name(m, 2) == NULL, "no argument 2");
        TsValue d = ts_int(-1);
        ok(!ts_method_arg_default(m, 0, &d) && d.tag == TS_TAG_NONE, "a has no default");
        ok(ts_method_arg_default(m, 1, &d) && ts_value_to_int(d, &v, &err) == 0 && v == 2,
           "b defaults to 2");
        ok(!ts_method_arg_default(m, 2, &d), "past the end: no default");
    }
    ts_method_free(m);
    ok(!s || !ts_script_find_function(s, "broken", &err), "what is not an entry is not there");
    ts_error_clear(&err);
    ts_script_free(s);

    ok(!ts_script_compile(rt, "e.py", entries_src, len, &err), "the whole file does not compile");
    like(err.msg, "e.py", "... the error names the file");
    ts_error_clear(&err);
    const char *both[] = { "good", "broken" };
    failed = 99;
    ok(!ts_script_compile_entries(rt, "e.py", entries_src, len, both, 2, &failed, &err),
       "a failing entry fails the compile");
    is_int((long long)failed, 1, "... and *failed is its index");
    ts_error_clear(&err);
    const char *nope[] = { "nope" };
    ok(!ts_script_compile_entries(rt, "e.py", entries_src, len, nope, 1, NULL, &err),
       "an entry the file lacks");
    is_int(err.code, TS_ERR_KEY, "... is a KeyError");
    is_str(err.msg, "no function 'nope' in the file", "... saying which");
    ts_error_clear(&err);
    const char *null_entry[] = { NULL };
    ok(!ts_script_compile_entries(rt, "e.py", entries_src, len, null_entry, 1, NULL, &err) &&
       err.code == TS_ERR_USAGE, "a NULL entry is a usage error");
    ts_error_clear(&err);
    ok(!ts_script_compile_entries(rt, "e.py", entries_src, len, NULL, 1, NULL, &err) &&
       err.code == TS_ERR_USAGE, "no entries array for n == 1 is a usage error");
    ts_error_clear(&err);
    ok(!ts_script_compile_entries(NULL, "e.py", entries_src, len, good, 1, NULL, &err) &&
       err.code == TS_ERR_USAGE, "no runtime is a usage error");
    ts_error_clear(&err);
    size_t at = (size_t)(strstr(entries_src, "def opt") - entries_src);
    s = ts_script_compile_entries(rt, "o.py", entries_src + at, len - at, NULL, 0, NULL, &err);
    ok(s && ts_script_num_functions(s) == 1, "n == 0 compiles everything");
    m = s ? ts_script_find_function(s, "opt", &err) : NULL;
    TsValue d;
    const char *str = NULL;
    size_t slen = 0;
    double f = 0;
    ok(m && ts_method_arg_default(m, 0, &d) && ts_value_to_str(d, &str, &slen, &err) == 0 &&
       strcmp(str, "hi") == 0, "a str default reads back");
    ok(m && ts_method_arg_default(m, 2, &d) && ts_value_to_double(d, &f, &err) == 0 && f == 0.5,
       "a float default reads back");
    ts_error_clear(&err);
    ts_method_free(m);
    ts_script_free(s);
}

static void test_module_metadata(const char *srcdir)
{
    TsError err = TS_ERROR_INIT;
    TsModule *m = ts_module_load(rt, path_in(srcdir, "examples/embed/linear.pt"), &err);
    if (!ok(m != NULL, "the example model loads")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    is_int(ts_module_version(m), 3, "its archive version is 3");
    TsValue root = ts_module_root(m);
    const TsType *cls = ts_value_type(root);
    long fc = ts_type_field_index(cls, "fc"), training = ts_type_field_index(cls, "training");
    ok(fc >= 0 && ts_module_attr_kind(m, cls, (size_t)fc) == TS_MODULE_SUBMODULE,
       "fc is a submodule");
    ok(training >= 0 && ts_module_attr_kind(m, cls, (size_t)training) == TS_MODULE_ATTR,
       "training is a plain attribute");
    TsValue sub = ts_none();
    const TsType *fc_cls = NULL;
    if (fc >= 0 && root.tag == TS_TAG_OBJECT) {
        sub = ((const TsObject *)root.u.p)->slots[fc];
        fc_cls = ts_value_type(sub);
    }
    long w = fc_cls ? ts_type_field_index(fc_cls, "weight") : -1;
    long b = fc_cls ? ts_type_field_index(fc_cls, "bias") : -1;
    ok(w >= 0 && ts_module_attr_kind(m, fc_cls, (size_t)w) == TS_MODULE_PARAMETER,
       "fc.weight is a parameter");
    ok(b >= 0 && ts_module_attr_kind(m, fc_cls, (size_t)b) == TS_MODULE_PARAMETER,
       "fc.bias is a parameter");
    ok(ts_module_attr_kind(m, cls, 9999) == TS_MODULE_ATTR &&
       ts_module_attr_kind(m, NULL, 0) == TS_MODULE_ATTR &&
       ts_module_attr_kind(m, ts_type_int(), 0) == TS_MODULE_ATTR,
       "a field past the end, no class, or not a class: a plain attribute");
    size_t n = 99;
    char **missing = ts_module_missing_ops(m, &n, &err);
    ok(missing && n == 0, "with aten-cpu loaded no operator is missing");
    ts_free_names(missing, n);
    ts_free_names(NULL, 0);
    ts_module_free(m);

    static const char prim_only[] = "plugins: [prim]\n";
    TsRuntime *bare = ts_runtime_open_settings(prim_only, sizeof prim_only - 1, &err);
    m = bare ? ts_module_load(bare, path_in(srcdir, "examples/embed/linear.pt"), &err) : NULL;
    missing = m ? ts_module_missing_ops(m, &n, &err) : NULL;
    ok(missing && n >= 1, "without aten-cpu the model's aten operators are missing");
    bool linear = false, sorted = true;
    for (size_t i = 0; missing && i < n; i++) {
        linear |= strcmp(missing[i], "aten::linear") == 0;
        sorted &= i == 0 || strcmp(missing[i - 1], missing[i]) < 0;
    }
    ok(linear, "... aten::linear among them");
    ok(sorted, "... sorted, each once");
    ts_free_names(missing, n);
    ts_error_clear(&err);
    ts_module_free(m);
    ts_runtime_close(bare);
}

static void test_files(void)
{
    TsError err = TS_ERROR_INIT;
    float data[6] = { 1, 2, 3, 4, 5, 6 };
    int64_t sizes[2] = { 2, 3 };
    TsTensor *t = ts_tensor_from_copy(data, TS_FLOAT32, 2, sizes, &err);
    TsValue tv = ts_tensor_value(t), back = ts_none();
    const char *npy = path_in(scratch, "t.npy"), *pt = path_in(scratch, "t.pt");
    is_int(ts_value_save(npy, tv, &err), 0, "a tensor saved as .npy");
    TsTensor *bt = NULL;
    ok(ts_value_load(npy, &back, &err) == 0 && ts_value_to_tensor(back, &bt, &err) == 0 &&
       ts_tensor_dim(bt) == 2 && ts_tensor_sizes(bt)[1] == 3 &&
       ((const float *)ts_tensor_data(bt))[5] == 6, "... reads back the same");
    ts_value_release(back);
    is_int(ts_value_save(pt, tv, &err), 0, "a tensor saved as torch.save");
    ok(ts_value_load(pt, &back, &err) == 0 && ts_value_to_tensor(back, &bt, &err) == 0 &&
       ((const float *)ts_tensor_data(bt))[0] == 1, "... reads back the same");
    ts_value_release(back);

    /* a list read from a file is untyped until conformed to what a parameter declares */
    TsValue items[2] = { tv, tv }, list;
    ts_value_retain(tv);
    ts_value_retain(tv);
    const char *lpt = path_in(scratch, "l.pt");
    ok(ts_value_list_new(ts_type_tensor(), items, 2, &list, &err) == 0 &&
       ts_value_save(lpt, list, &err) == 0, "a list of tensors saved");
    ts_value_release(list);
    ok(ts_value_load(lpt, &back, &err) == 0 && ts_value_len(back) == 2, "... read back");
    const TsType *want = ts_type_list(ts_type_tensor());
    is_int(ts_value_conform(back, want, &err), 0, "... conforms to List[Tensor]");
    ok(ts_type_is_subtype_of(ts_value_type(back), want), "... and is one after");
    ts_value_release(back);
    ok(ts_value_load(lpt, &back, &err) == 0, "read again");
    ok(ts_value_conform(back, ts_type_list(ts_type_int()), &err) != 0,
       "it does not conform to List[int]");
    ok(err.msg != NULL, "... with a message: %s", err.msg ? err.msg : "(none)");
    ts_error_clear(&err);
    ok(ts_value_conform(back, NULL, &err) == TS_ERR_USAGE, "no type is a usage error");
    ts_error_clear(&err);
    ts_value_release(back);

    is_int(ts_value_save(path_in(scratch, "x.npy"), ts_int(3), &err), TS_ERR_VALUE,
           "an int cannot be saved as .npy");
    ok(access(path_in(scratch, "x.npy"), F_OK) != 0, "... and no file is left");
    ts_error_clear(&err);
    const char *absent = path_in(scratch, "absent.pt");
    is_int(ts_value_load(absent, &back, &err), TS_ERR_IO, "a missing file");
    like(err.msg, "absent.pt: No such file or directory", "... named, with the reason");
    ok(back.tag == TS_TAG_NONE, "... and *out is None");
    ts_error_clear(&err);
    const char *junk = path_in(scratch, "junk.bin");
    FILE *f = fopen(junk, "wb");
    if (f) {
        fputs("not a tensor file", f);
        fclose(f);
    }
    is_int(ts_value_load(junk, &back, &err), TS_ERR_VALUE, "a file of another format");
    like(err.msg, "neither a torch.save file nor a NumPy .npy", "... says so");
    ts_error_clear(&err);
    ok(ts_value_load(NULL, &back, &err) == TS_ERR_USAGE &&
       ts_value_save(NULL, tv, &err) == TS_ERR_USAGE, "no path is a usage error");
    ts_error_clear(&err);

    size_t len = 0;
    char *text = ts_read_file(junk, TS_SOURCE_MAX, &len, &err);
    ok(text && len == 17 && strcmp(text, "not a tensor file") == 0, "ts_read_file reads it all");
    free(text);
    ok(!ts_read_file(junk, 4, &len, &err) && err.code == TS_ERR_LIMIT,
       "more than max bytes is refused");
    like(err.msg, "larger than 4 bytes, the most read here", "... saying so");
    ts_error_clear(&err);
    ok(!ts_read_file(absent, 100, &len, &err) && err.code == TS_ERR_IO, "a missing file");
    like(err.msg, "absent.pt: No such file or directory", "... named, with the reason");
    ts_error_clear(&err);
    ok(!ts_read_file(scratch, 100, &len, &err) && err.code == TS_ERR_IO, "a directory");
    like(err.msg, "Is a directory", "... says so");
    ts_error_clear(&err);
    ts_value_release(tv);
}

static void test_operators(void)
{
    size_t n = ts_runtime_num_operators(rt);
    ok(n > 100, "the operator table lists the plugins' operators (%zu)", n);
    ok(ts_runtime_operator(rt, n) == NULL, "past the end: NULL");
    ok(ts_runtime_num_operators(NULL) == 0 && ts_runtime_operator(NULL, 0) == NULL,
       "no runtime: an empty table");
    const TsOperator *add = ts_runtime_find_operator(rt, "aten::add", "Tensor");
    if (!ok(add != NULL, "aten::add.Tensor is found"))
        return;
    is_str(ts_operator_name(add), "aten::add", "its name");
    is_str(ts_operator_overload(add), "Tensor", "its overload");
    is_str(ts_operator_plugin(add), "aten-cpu", "the plugin that declared it");
    char buf[256];
    static const char want[] =
        "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
    is_int((long long)ts_operator_schema(add, buf, sizeof buf), (long long)strlen(want),
           "the schema's length");
    is_str(buf, want, "the schema as PyTorch prints it");
    char small[10];
    is_int((long long)ts_operator_schema(add, small, sizeof small), (long long)strlen(want),
           "a short buffer still gets the whole length");
    is_str(small, "aten::add", "... and a NUL-terminated prefix");
    bool cpu = false;
    for (size_t i = 0; i < ts_operator_num_kernels(add); i++)
        cpu |= strcmp(ts_operator_kernel_backend(add, i), "cpu") == 0 &&
               strcmp(ts_operator_kernel_plugin(add, i), "aten-cpu") == 0;
    ok(cpu, "aten-cpu registered its cpu kernel");
    ok(ts_operator_kernel_backend(add, ts_operator_num_kernels(add)) == NULL &&
       ts_operator_kernel_plugin(add, ts_operator_num_kernels(add)) == NULL,
       "past the last kernel: NULL");
    const TsOperator *relu = ts_runtime_find_operator(rt, "aten::relu", NULL);
    ok(relu && strcmp(ts_operator_overload(relu), "") == 0, "NULL finds the default overload");
    ok(!ts_runtime_find_operator(rt, "aten::nope", "") &&
       !ts_runtime_find_operator(rt, "aten::add", "Nope") &&
       !ts_runtime_find_operator(rt, NULL, NULL), "an operator no plugin declares: NULL");
    bool listed = false;
    for (size_t i = 0; i < n; i++)
        listed |= ts_runtime_operator(rt, i) == add;
    ok(listed, "the one found is one listed");
}

static const char outline_src[] =
    "import unittest\n"
    "from unittest import skip\n"
    "\n"
    "@unittest.expectedFailure\n"
    "def test_a(x: int = 1) -> int:\n"
    "    return x\n"
    "\n"
    "@skip(\"needs CUDA\")\n"
    "@unittest.skip(reason='kw')\n"
    "@a.b.c(1, 'two', name='x')\n"
    "@f()(2)\n"
    "def test_b():\n"
    "    pass\n"
    "\n"
    "class Point:\n"
    "    x: int\n"
    "\n"
    "x = broken syntax is fine here ? no\n";

static void test_outline(void)
{
    TsError err = TS_ERROR_INIT;
    /* the last line is a syntax error: first the file without it */
    size_t good = (size_t)(strstr(outline_src, "x = broken") - outline_src);
    TsOutline *o = ts_outline_parse("o.py", outline_src, good, &err);
    if (!ok(o != NULL, "a file's outline")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    is_int((long long)ts_outline_size(o), 5, "five top-level statements");
    const TsOutlineItem *it = ts_outline_item(o, 0);
    ok(it && it->kind == TS_OUTLINE_OTHER && !it->name && it->n_decorators == 0 && it->line == 1,
       "an import: other, no name, line 1");
    it = ts_outline_item(o, 2);
    ok(it && it->kind == TS_OUTLINE_FUNCTION && strcmp(it->name, "test_a") == 0,
       "a def with its name");
    ok(it && it->n_decorators == 1 && strcmp(it->decorators[0].name,
       "unittest.expectedFailure") == 0 && !it->decorators[0].is_call,
       "... its decorator's dotted name, not a call");
    it = ts_outline_item(o, 3);
    ok(it && it->n_decorators == 4, "four decorators, in source order");
    if (it && it->n_decorators == 4) {
        const TsDecorator *d = it->decorators;
        ok(strcmp(d[0].name, "skip") == 0 && d[0].is_call && d[0].n_args == 1 &&
           strcmp(d[0].args[0], "needs CUDA") == 0, "skip(\"needs CUDA\"): its string argument");
        ok(strcmp(d[1].name, "unittest.skip") == 0 && d[1].n_args == 0,
           "a keyword argument is left out");
        ok(strcmp(d[2].name, "a.b.c") == 0 && d[2].n_args == 2 && d[2].args[0] == NULL &&
           strcmp(d[2].args[1], "two") == 0, "a.b.c(1, 'two'): NULL for the non-string");
        ok(d[3].name == NULL && d[3].is_call && d[3].n_args == 1,
           "a call of a call has no dotted name");
    }
    it = ts_outline_item(o, 4);
    ok(it && it->kind == TS_OUTLINE_CLASS && strcmp(it->name, "Point") == 0 && it->line == 15,
       "a class, its name and line");
    ok(ts_outline_item(o, 5) == NULL, "past the end: NULL");
    ts_outline_free(o);
    ts_outline_free(NULL);

    o = ts_outline_parse("o.py", outline_src, sizeof outline_src - 1, &err);
    ok(!o && err.code != 0, "a syntax error: NULL");
    like(err.msg, "o.py", "... the message names the file");
    ts_error_clear(&err);
    o = ts_outline_parse(NULL, "", 0, &err);
    ok(o && ts_outline_size(o) == 0, "an empty source has an empty outline");
    ts_outline_free(o);
    ok(!ts_outline_parse("x.py", NULL, 3, &err) && err.code == TS_ERR_USAGE,
       "no source with a length is a usage error");
    ts_error_clear(&err);
    ok(ts_outline_size(NULL) == 0 && ts_outline_item(NULL, 0) == NULL, "a NULL outline is empty");
}

int main(void)
{
    const char *srcdir = getenv("TS_SRCDIR") ? getenv("TS_SRCDIR") : TS_TEST_SRCDIR;
    unsetenv("TSCRIPT_NUM_THREADS");
    unsetenv("TSCRIPT_CONFIG");
    snprintf(scratch, sizeof scratch, "%s/api_inspect.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR")
                                                                              : "/tmp");
    if (!mkdtemp(scratch)) {
        printf("Bail out! cannot make a scratch directory\n");
        return 1;
    }
    TsError err = TS_ERROR_INIT;
    rt = ts_runtime_open(NULL, &err);
    if (!rt) {
        printf("Bail out! %s\n", err.msg);
        return 1;
    }
    test_default_backend();
    test_compile_entries();
    test_module_metadata(srcdir);
    test_files();
    test_operators();
    test_outline();
    ts_runtime_close(rt);
    static const char *const files[] = { "t.npy", "t.pt", "l.pt", "junk.bin", "x.npy" };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        unlink(path_in(scratch, files[i]));
    rmdir(scratch);
    return done_testing();
}
