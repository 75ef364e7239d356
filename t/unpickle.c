/* unpickle.c — tests of the safe unpickler (core/serialize/unpickle*.c, retype.c).
 *
 * Archives PyTorch 1.13 wrote (committed fixtures, and fresh ones made at test time when
 * python3 has torch) must unpickle to exactly what t/data/serialize/canon.py reads from the
 * same bytes with Python's own pickle machine. Hand-written pickles cover each opcode and
 * each hostile input: globals outside the list, tensors reaching past their storage,
 * cyclic and deeply nested values, bad memo ids, unknown opcodes, STOP with the wrong
 * stack, truncation at every length.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pickle_env.h"
#include "serialize_util.h"

#define P(lit) lit, sizeof(lit) - 1

/* A pickle (P gives its bytes and length), what to expect (a canonical text or a part of
 * the error message), and the test's name. */
typedef struct Case {
    const char *data;
    size_t n;
    const char *want, *what;
} Case;

static int unpickle(const char *data, size_t n, TestEnv *env, TsValue *out, TsError *err)
{
    TsUnpickleEnv e = test_env(env);
    return ts_unpickle(data, n, &e, out, err);
}

static void expect_canon(const char *data, size_t n, const char *want, const char *what)
{
    TestEnv env = {NULL, 1 << 20, 0, 0};
    TsError err = TS_ERROR_INIT;
    TsValue v;
    if (unpickle(data, n, &env, &v, &err)) {
        ok(0, "%s", what);
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    char *text = canon_text(v);
    is_str(text, want, "%s", what);
    free(text);
    ts_value_release(v);
}

static void expect_error(const char *data, size_t n, const char *want, const char *what)
{
    TestEnv env = {NULL, 1 << 20, 0, 0};
    TsError err = TS_ERROR_INIT;
    TsValue v;
    if (!ok(unpickle(data, n, &env, &v, &err) != 0, "%s: refused", what))
        ts_value_release(v);
    like(err.msg, want, "%s: says so", what);
    ts_error_clear(&err);
}

static void expect_all(void (*expect)(const char *, size_t, const char *, const char *),
                       const Case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        expect(cases[i].data, cases[i].n, cases[i].want, cases[i].what);
}

/* ---- archives PyTorch wrote --------------------------------------------------------------- */
/* Unpickles NAME.pt's data.pkl and compares with the canonical text in want_path. */
static void check_archive(const char *dir, const char *name, const char *want_path)
{
    char path[512];
    TsError err = TS_ERROR_INIT;
    snprintf(path, sizeof path, "%s/%s.pt", dir, name);
    TestEnv env = {ts_zip_open_file(path, &err), 0, 0, 0};
    if (!env.zip) {
        ok(0, "%s opens", name);
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    snprintf(path, sizeof path, "%sdata.pkl", ts_zip_prefix(env.zip));
    long at = ts_zip_find(env.zip, path);
    const void *data = NULL;
    size_t size = 0;
    void *owned = NULL;
    TsValue v;
    if (at < 0 || ts_zip_read(env.zip, (size_t)at, true, &data, &size, &owned, &err) ||
        unpickle(data, size, &env, &v, &err)) {
        ok(0, "%s: data.pkl unpickles", name);
        diag("%s", err.msg);
    } else {
        size_t n;
        char *want = (char *)slurp(want_path, &n), *got = canon_text(v);
        if (want) {
            want = realloc(want, n + 1);
            want[n && want[n - 1] == '\n' ? n - 1 : n] = '\0';
        }
        is_str(got, want, "%s: data.pkl unpickles to what Python's pickle reads", name);
        free(want);
        free(got);
        ts_value_release(v);
    }
    ts_error_clear(&err);
    free(owned);
    ts_zip_release(env.zip);
}

static void test_fixtures(void)
{
    static const char *const names[] = {"module", "state_dict", "values2", "values5"};
    for (size_t i = 0; i < 4; i++) {
        char want[512];
        snprintf(want, sizeof want, "%s/%s.canon", DATA_DIR, names[i]);
        check_archive(DATA_DIR, names[i], want);
    }
}

/* Fresh archives from this machine's torch, checked against canon.py on them. */
static void test_fresh_archives(const char *dir)
{
    const char *py = python_with("torch");
    char cmd[1024];
    if (!py) {
        skip("python3 with torch is not installed", "archives made by torch now");
        return;
    }
    snprintf(cmd, sizeof cmd, "%s %s/make_fixtures.py %s 2>&1", py, DATA_DIR, dir);
    char *out = NULL;
    if (!is_int(run(cmd, &out), 0, "make_fixtures.py makes archives with this torch")) {
        diag("%s", out);
        free(out);
        return;
    }
    free(out);
    static const char *const names[] = {"module", "state_dict", "values2", "values5"};
    for (size_t i = 0; i < 4; i++) {
        char want[512];
        snprintf(want, sizeof want, "%s/%s.canon", dir, names[i]);
        check_archive(dir, names[i], want);
    }
}

/* Tensors that shared a storage in PyTorch share one here, and it is the mapped entry. */
static void test_sharing(void)
{
    TsError err = TS_ERROR_INIT;
    char path[512];
    snprintf(path, sizeof path, "%s/values5.pt", DATA_DIR);
    TestEnv env = {ts_zip_open_file(path, &err), 0, 0, 0};
    long at = env.zip ? ts_zip_find(env.zip, "values5/data.pkl") : -1;
    const void *data;
    size_t size;
    void *owned = NULL;
    TsValue v = ts_none();
    if (!ok(at >= 0 && !ts_zip_read(env.zip, (size_t)at, true, &data, &size, &owned, &err) &&
            !unpickle(data, size, &env, &v, &err) && v.tag == TS_TAG_DICT,
            "values5.pt unpickles to a dict")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        ts_zip_release(env.zip);
        return;
    }
    TsValue k1 = ts_str_value(ts_str_from_cstr("slice", NULL));
    TsValue k2 = ts_str_value(ts_str_from_cstr("again", NULL));
    TsValue a, b;
    ts_dict_get((TsDict *)v.u.p, k1, &a);
    ts_dict_get((TsDict *)v.u.p, k2, &b);
    const TsTensor *ta = (const TsTensor *)a.u.p, *tb = (const TsTensor *)b.u.p;
    ok(ta->storage == tb->storage, "two tensors over one storage share one storage");
    long d0 = ts_zip_find(env.zip, "values5/data/1");
    const void *entry = NULL;
    ts_zip_read(env.zip, (size_t)d0, false, &entry, &size, &owned, &err);
    ok(ta->storage->data == entry, "and it is the archive's entry, mapped, not a copy");
    ts_value_release(k1);
    ts_value_release(k2);
    ts_value_release(v);
    ts_zip_release(env.zip);
}

/* ---- opcodes --------------------------------------------------------------------------- */
static void test_opcodes(void)
{
    static const Case canon_cases[] = {
        {P("\x80\x02K\x07."),
         "7", "BININT1"},
        {P("\x80\x02M\x34\x12."),
         "4660", "BININT2"},
        {P("\x80\x02J\xfe\xff\xff\xff."),
         "-2", "BININT (signed)"},
        {P("\x80\x02\x8a\x01\xff."),
         "-1", "LONG1 of one byte, negative"},
        {P("\x80\x02\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80."),
         "-9223372036854775808", "LONG1 of 8 bytes: INT64_MIN"},
        {P("\x80\x02\x8a\x00."),
         "0", "LONG1 of no bytes"},
        {P("\x80\x02\x8b\x02\x00\x00\x00\x00\x01."),
         "256", "LONG4"},
        {P("\x80\x02G?\xf8\x00\x00\x00\x00\x00\x00."),
         "f:1.5", "BINFLOAT (big-endian)"},
        {P("\x80\x02N\x88\x89\x87."),
         "(None,True,False,)", "NONE NEWTRUE NEWFALSE TUPLE3"},
        {P("\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00\x8c\x02hi."),
         "'hi'", "FRAME and SHORT_BINUNICODE"},
        {P("\x80\x04\x8d\x03\x00\x00\x00\x00\x00\x00\x00" "abc."),
         "'abc'", "BINUNICODE8"},
        {P("\x80\x02X\x02\x00\x00\x00\xc3\xa9."),
         "'\\xc3\\xa9'", "BINUNICODE, UTF-8"},
        {P("\x80\x02(K\x01K\x02l."),
         "[Any|1,2,]", "MARK ... LIST"},
        {P("\x80\x02(X\x01\x00\x00\x00" "aK\x01" "d."),
         "{Any,Any|'a':1,}", "MARK ... DICT"},
        {P("\x80\x02]K\x05" "a."),
         "[Any|5,]", "APPEND"},
        {P("\x80\x02}K\x01K\x02sK\x03K\x04s."),
         "{Any,Any|1:2,3:4,}", "SETITEM"},
        {P("\x80\x02)K\x01\x85K\x01K\x02\x86\x87."),
         "((),(1,),(1,2,),)", "EMPTY_TUPLE TUPLE1 TUPLE2"},
        {P("\x80\x04]\x94(K\x01" "e\x94h\x00\x86."),
         "([Any|1,],[Any|1,],)", "MEMOIZE and BINGET"},
        {P("\x80\x02]r\x01\x00\x00\x00j\x01\x00\x00\x00\x86."),
         "([Any|],[Any|],)", "LONG_BINPUT and LONG_BINGET"},
        {P("\x80\x02" "c__builtin__\ncomplex\nG?\xf0\x00\x00\x00\x00\x00\x00K\x02\x86R."),
         "c:(1,2)", "__builtin__.complex"},
        {P("\x80\x02" "ctorch\ndevice\nX\x04\x00\x00\x00" "cudaK\x01\x86R."),
         "dev:cuda:1", "torch.device('cuda', 1)"},
        {P("\x80\x02" "ctorch\nSize\nK\x02K\x03\x86\x85R."),
         "(2,3,)", "torch.Size"},
        {P("\x80\x02" "ccollections\nOrderedDict\n)R(K\x01K\x02u}X\x09\x00\x00\x00_metadata"
                   "}sb."),
         "{Any,Any|1:2,}", "an OrderedDict, its _metadata dropped"},
        {P("\x80\x02" "ctorch.jit._pickle\nbuild_intlist\n(](K\x01K\x02" "etR."),
         "[int|1,2,]", "build_intlist types the list"},
        {P("\x80\x02" "ctorch.jit._pickle\nrestore_type_tag\n}(X\x01\x00\x00\x00" "a"
                   "ctorch.jit._pickle\nbuild_intlist\n(](K\x01" "etRuX\x14\x00\x00\x00"
                   "Dict[str, List[int]]\x86R."),
         "{str,List[int]|'a':[int|1,],}", "restore_type_tag types a dict"},
        {P("\x80\x02" "ctorch.jit._pickle\nrestore_type_tag\n](]K\x01" "a]K\x02" "aeX\x0f\x00"
                   "\x00\x00List[List[int]]\x86R."),
         "[List[int]|[int|1,],[int|2,],]", "restore_type_tag types the untyped lists inside"},
        {P("\x80\x02" "c__torch__\nColor\nK\x02R."),
         "E(__torch__.Color|2)", "an enum: REDUCE of the class with the bare value"},
        {P("\x80\x02" "c__torch__\nThing\n)\x81}X\x01\x00\x00\x00xK\x01sb."),
         "O(__torch__.Thing|{Any,Any|'x':1,})", "an object: NEWOBJ then BUILD"},
    };
    expect_all(expect_canon, canon_cases, sizeof canon_cases / sizeof *canon_cases);

    /* memo sharing: one list met twice is one list */
    TestEnv env = {NULL, 0, 0, 0};
    TsValue v;
    TsError err = TS_ERROR_INIT;
    if (!unpickle(P("\x80\x02]q\x00(K\x01" "eh\x00\x86."), &env, &v, &err)) {
        const TsTuple *t = (const TsTuple *)v.u.p;
        ok(t->items[0].u.p == t->items[1].u.p, "a memoized value is shared, not copied");
        ts_value_release(v);
    } else {
        ok(0, "a memoized value is shared");
        diag("%s", err.msg);
        ts_error_clear(&err);
    }
}

/* A pickle of one float tensor over a FloatStorage of numel 4: SIZE, STRIDE and OFFSET
 * are pickle fragments. */
#define TENSOR_BODY(OFFSET, SIZE, STRIDE) \
    "ctorch._utils\n_rebuild_tensor_v2\n(" \
    "(X\x07\x00\x00\x00storagectorch\nFloatStorage\nX\x01\x00\x00\x00" "0X\x03\x00\x00\x00" "cpuK\x04tQ" \
    OFFSET SIZE STRIDE "\x89" "ccollections\nOrderedDict\n)RtR"
#define TENSOR(OFFSET, SIZE, STRIDE) "\x80\x02" TENSOR_BODY(OFFSET, SIZE, STRIDE) "."

static void test_tensors(void)
{
    expect_canon(P(TENSOR("K\x01", "(K\x02t", "(K\x01t")), "T6(2)(1)1rg0:0000000000000000",
                 "a tensor over a synthetic storage");
    expect_canon(P(TENSOR("K\x00", "(K\x02K\x02t", "(K\x00K\x01t")),
                 "T6(2,2)(0,1)0rg0:00000000000000000000000000000000", "a zero stride (expanded)");
    static const Case error_cases[] = {
        {P(TENSOR("K\x00", "(K\x05t", "(K\x01t")),
         "out of bounds for storage of size 16", "a size reaching past the storage"},
        {P(TENSOR("K\x04", "(K\x01t", "(K\x01t")),
         "out of bounds", "an offset past the storage"},
        {P(TENSOR("K\x00", "(K\x02t", "(K\x64t")),
         "out of bounds", "a stride past the storage"},
        {P(TENSOR("K\x00", "(J\xff\xff\xff\xfft", "(K\x01t")),
         "negative dimension", "a negative size"},
        {P(TENSOR("J\xff\xff\xff\xff", "(K\x01t", "(K\x01t")),
         "invalid storage offset", "a negative offset"},
        {P(TENSOR("K\x00", "(K\x02K\x02t", "(\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x40K\x01t")),
         "overflowed", "a stride whose product overflows"},
        {P(TENSOR("K\x00", "(K\x02K\x02t", "(K\x01t")),
         "2 sizes but 1 strides", "sizes and strides of different lengths"},
        {P(TENSOR("X\x01\x00\x00\x00" "a", "(K\x01t", "(K\x01t")),
         "expected an int offset", "an offset that is not an int"},
    };
    expect_all(expect_error, error_cases, sizeof error_cases / sizeof *error_cases);

    TestEnv env = {NULL, 1 << 20, 4, 0};
    TsError err = TS_ERROR_INIT;
    TsValue v;
    ok(unpickle(P(TENSOR("K\x00", "(K\x01t", "(K\x01t")), &env, &v, &err) != 0,
       "a storage whose size differs from the persistent id's numel is refused");
    like(err.msg, "storage '0' has 20 bytes, but the pickle says 4 elements of 4 bytes", "saying so");
    ts_error_clear(&err);

    static const Case more_errors[] = {
        {P("\x80\x02(X\x07\x00\x00\x00storagectorch\nFloatStorage\nX\x01\x00\x00\x00" "0"
                   "X\x03\x00\x00\x00" "cpuK\x04tQ(X\x07\x00\x00\x00storagectorch\nLongStorage\n"
                   "X\x01\x00\x00\x00" "0X\x03\x00\x00\x00" "cpuK\x04tQ\x86."),
         "storage '0' is given two dtypes or sizes", "one storage key with two dtypes"},
        {P("\x80\x02(X\x04\x00\x00\x00" "fileX\x01\x00\x00\x00" "0tQ."),
         "a persistent id that is not ('storage'", "a persistent id of another kind"},
        {P("\x80\x02(X\x07\x00\x00\x00storagectorch\nFloatStorage\nX\x01\x00\x00\x00" "0"
                   "X\x03\x00\x00\x00" "cpu\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x40tQQ."),
         "too large", "a storage whose byte size overflows"},
    };
    expect_all(expect_error, more_errors, sizeof more_errors / sizeof *more_errors);
    expect_canon(P("\x80\x02(X\x07\x00\x00\x00storagectorch\nBoolStorage\nX\x01\x00\x00\x00" "0"
                   "X\x03\x00\x00\x00" "cpuK\x03tQ."), "T11(3)(1)0rg0:000000",
                 "a storage alone is a 1-D tensor over it");
    expect_canon(P("\x80\x02" "ctorch._utils\n_rebuild_parameter\n(" TENSOR_BODY("K\x00", "(K\x01t",
                   "(K\x01t") "\x88}tR."), "T6(1)(1)0rg1:00000000", "_rebuild_parameter");
}

/* ---- hostile pickles ------------------------------------------------------------------ */
static void test_globals_refused(void)
{
    static const Case error_cases[] = {
        {P("\x80\x02" "cos\nsystem\nX\x04\x00\x00\x00true\x85R."),
         "pickle: byte 2: Unsupported class os.system", "GLOBAL os.system"},
        {P("\x80\x02" "cposix\nsystem\nX\x04\x00\x00\x00true\x85R."),
         "Unsupported class posix.system", "GLOBAL posix.system"},
        {P("\x80\x04\x8c\x02os\x8c\x06system\x93."),
         "pickle: byte 14: Unsupported class os.system", "STACK_GLOBAL os.system"},
        {P("\x80\x02" "cbuiltins\neval\n."),
         "Unsupported class builtins.eval", "builtins.eval"},
        {P("\x80\x02" "c__builtin__\ngetattr\n."),
         "Unsupported class __builtin__.getattr", "__builtin__.getattr"},
        {P("\x80\x02" "ctorch\nload\n."),
         "Unsupported class torch.load", "torch.load"},
        {P("\x80\x02" "ctorch.serialization\n_get_layout\n."),
         "Unsupported class", "a torch function that is not on the list"},
        {P("\x80\x02" "ctorch._utils\n_rebuild_qtensor\n."),
         "Unsupported class torch._utils._rebuild_qtensor (quantized tensors are not supported)", "quantized tensors"},
        {P("\x80\x02" "c__torch__\nUnknown\n."),
         "no class __torch__.Unknown in this archive", "a __torch__ class the archive lacks (the hook's error)"},
        {P("\x80\x02" "ctorch\nFloatStorage\n."),
         "a global (a class or function) used as a value", "a global as the result"},
        {P("\x80\x02]ctorch\ndevice\na."),
         "used as a value", "a global in a list"},
        {P("\x80\x02K\x01)R."),
         "REDUCE calls a value that is not a global", "REDUCE of an int"},
        {P("\x80\x02" "ctorch\ndevice\nX\x05\x00\x00\x00" "cpu\x00x\x85R."),
         "expected a device string", "a device string with a NUL"},
        {P("\x80\x02" "ctorch\ndevice\nX\x04\x00\x00\x00" "cudaJ\xff\xff\xff\xff\x86R."),
         "a bad device index", "a negative device index"},
        {P("\x80\x02" "c__builtin__\ncomplex\nX\x01\x00\x00\x00" "aK\x02\x86R."),
         "expected two numbers", "complex of a str"},
        {P("\x80\x02" "ctorch\nFloatStorage\n)R."),
         "is called", "a storage class called"},
        {P("\x80\x02" "c__torch__\nThing\nK\x01R."),
         "is called", "REDUCE on a class"},
        {P("\x80\x02" "ctorch\ndevice\n)\x81."),
         "NEWOBJ of torch.device", "NEWOBJ of a function"},
        {P("\x80\x02" "c__torch__\nColor\nK\x09R."),
         "no member of __torch__.Color", "an enum value with no member"},
        {P("\x80\x02" "ctorch.jit._pickle\nbuild_intlist\n(](K\x01X\x01\x00\x00\x00xetR."),
         "build_intlist: element 1 is not of the list's type", "build_intlist of a str"},
        {P("\x80\x02" "ctorch.jit._pickle\nrestore_type_tag\n}(X\x01\x00\x00\x00" "aX\x01\x00"
                   "\x00\x00" "buX\x0e\x00\x00\x00" "Dict[str, int]\x86R."),
         "expected int, got a str", "restore_type_tag over a value of another type"},
        {P("\x80\x02" "ctorch.jit._pickle\nrestore_type_tag\n]X\x08\x00\x00\x00List[int\x86R."),
         "cannot parse the type 'List[int'", "restore_type_tag of a bad annotation"},
        {P("\x80\x02" "ctorch.jit._pickle\nrestore_type_tag\n]X\x0e\x00\x00\x00" "Dict[str, int]"
                   "\x86R."),
         "a list tagged Dict[str, int]", "a list tagged as a dict"},
        {P("\x80\x02}]K\x01s."),
         "a dict key must be", "a list as a dict key"},
    };
    expect_all(expect_error, error_cases, sizeof error_cases / sizeof *error_cases);
}

static void test_malformed(void)
{
    static const Case error_cases[] = {
        {P("\x80\x02\xff"),
         "pickle: byte 2: unknown opcode 0xff", "an unknown opcode"},
        {P("\x80\x02\x00"),
         "unknown opcode 0x00", "opcode 0"},
        {P("\x80\x03" "C\x02" "ab."),
         "SHORT_BINBYTES (bytes are not supported)", "bytes"},
        {P("\x80\x04\x8f."),
         "EMPTY_SET (sets are not supported)", "a set"},
        {P("\x80\x02I1\n."),
         "INT (protocol 0)", "a protocol 0 opcode"},
        {P("\x80\x02."),
         "STOP with 0 values on the stack (expected 1)", "STOP with an empty stack"},
        {P("\x80\x02K\x01K\x02."),
         "STOP with 2 values on the stack", "STOP with two values"},
        {P("\x80\x02(K\x01."),
         "STOP inside a MARK", "STOP inside a MARK"},
        {P("\x80\x02K\x01"),
         "the pickle ends without STOP", "no STOP"},
        {P(""),
         "pickle: byte 0: the pickle ends without STOP", "an empty pickle"},
        {P("\x80\x02J\x01\x00"),
         "the pickle ends inside an opcode", "a truncated operand"},
        {P("\x80\x02X\xff\xff\xff\xff" "ab."),
         "a string of 4294967295 bytes runs past the end", "a string longer than the pickle"},
        {P("\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\x7f."),
         "runs past the end", "a BINUNICODE8 of 2^63 bytes"},
        {P("\x80\x02X\x02\x00\x00\x00\xc0\xaf."),
         "not valid UTF-8", "an overlong UTF-8 form"},
        {P("\x80\x02X\x03\x00\x00\x00\xed\xa0\x80."),
         "not valid UTF-8", "a UTF-8 surrogate"},
        {P("\x80\x01K\x01."),
         "pickle protocol 1 is not supported", "protocol 1"},
        {P("\x80\x06K\x01."),
         "pickle protocol 6 is not supported", "protocol 6"},
        {P("K\x01\x80\x02."),
         "pickle protocol 2 is not supported (2 to 5 are, as the first", "PROTO not first"},
        {P("\x80\x02K\x01r\xff\xff\xff\xff."),
         "memo id 4294967295 is past the pickle's size", "a memo id past the pickle's size"},
        {P("\x80\x02h\x05."),
         "memo id 5 was never put", "BINGET of an id never put"},
        {P("\x80\x02q\x00."),
         "nothing on the stack to memoize", "BINPUT of an empty stack"},
        {P("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x80\x00."),
         "an int of 9 bytes", "an int wider than 64 bits"},
        {P("\x80\x02\x95\xff\x00\x00\x00\x00\x00\x00\x00K\x01."),
         "a frame runs past the end", "a FRAME longer than the pickle"},
        {P("\x80\x02K\x01" "e."),
         "no mark to end", "APPENDS without a MARK"},
        {P("\x80\x02(K\x01" "e."),
         "APPENDS without a list", "APPENDS with nothing below the mark"},
        {P("\x80\x02K\x01(K\x01" "e."),
         "APPEND on a value that is not a list", "APPENDS to an int"},
        {P("\x80\x02}(K\x01u."),
         "SETITEMS with a key and no value", "SETITEMS of an odd count"},
        {P("\x80\x02K\x01" "a."),
         "APPEND without a list and a value", "APPEND of one value"},
        {P("\x80\x02(\x86."),
         "TUPLE2 with 0 values", "TUPLE2 across a mark"},
        {P("\x80\x02K\x01" "b."),
         "BUILD without a value to build", "BUILD of one value"},
        {P("\x80\x02]}b."),
         "BUILD of a value that is not an object", "BUILD of a list"},
        {P("\x80\x02" "c\nx\n."),
         "a global's name of 0 bytes", "an empty GLOBAL module"},
        {P("\x80\x02" "cos system\nx\n."),
         "a global's name with byte 0x20", "a GLOBAL with a space"},
        {P("\x80\x04\x8c\x03o\ns\x8c\x01x\x93."),
         "a global's name with byte 0x0a", "a STACK_GLOBAL name with a newline"},
        {P("\x80\x02" "cos"),
         "the pickle ends inside a GLOBAL", "a GLOBAL cut short"},
        {P("\x80\x04K\x01K\x02\x93."),
         "STACK_GLOBAL needs two strs", "STACK_GLOBAL of ints"},
        {P("\x80\x02" "ctorch._utils\n_rebuild_tensor_v2\nK\x01R."),
         "its arguments are not a tuple", "a call whose arguments are not a tuple"},
        {P("\x80\x02" "ctorch._utils\n_rebuild_parameter\n)R."),
         "takes 3 arguments, got 0", "a call with too few arguments"},
    };
    expect_all(expect_error, error_cases, sizeof error_cases / sizeof *error_cases);
}

/* Values that would contain themselves are refused, and no reference leaks (valgrind). */
static void test_cycles(void)
{
    static const Case error_cases[] = {
        {P("\x80\x02]q\x00h\x00" "a."),
         "a list is changed after it was put inside another value", "a list appended to itself"},
        {P("\x80\x02}q\x00K\x01h\x00s."),
         "a dict is changed after", "a dict holding itself"},
        {P("\x80\x02]q\x00]q\x01h\x00" "ah\x01" "a."),
         "a list is changed after", "two lists holding each other"},
        {P("\x80\x02" "c__torch__\nThing\n)\x81q\x00h\x00" "b."),
         "an object is built after it was put", "an object whose state is itself"},
        {P("\x80\x02" "c__torch__\nThing\n)\x81q\x00}X\x01\x00\x00\x00xh\x00sb."),
         "an object is built after", "an object whose state holds it"},
        {P("\x80\x02]q\x00(h\x00t\x85h\x00K\x01" "a."),
         "a list is changed after", "a list filled after a tuple took it"},
    };
    expect_all(expect_error, error_cases, sizeof error_cases / sizeof *error_cases);
}

/* Nesting: 1000 deep is fine, 100 000 deep is an error, never a stack overflow. */
static void test_nesting(void)
{
    size_t deep = 100000;
    char *p = malloc(deep * 2 + 8);
    /* N empty lists, then N - 1 APPENDs: each list goes inside the one below it */
    for (size_t n = 1000; n <= deep; n = n == 1000 ? 1001 : deep) {
        size_t k = 0;
        p[k++] = '\x80';
        p[k++] = 2;
        for (size_t i = 0; i < n; i++)
            p[k++] = ']';
        for (size_t i = 1; i < n; i++)
            p[k++] = 'a';
        p[k++] = '.';
        TestEnv env = {NULL, 0, 0, 0};
        TsError err = TS_ERROR_INIT;
        TsValue v;
        int rc = unpickle(p, k, &env, &v, &err);
        if (n == 1000) {
            ok(rc == 0, "lists nested 1000 deep unpickle");
            if (!rc)
                ts_value_release(v);
        } else {
            ok(rc != 0, "lists nested %zu deep are refused", n);
            like(err.msg, "values nest more than 1000 deep", "saying so");
        }
        ts_error_clear(&err);
        if (n == deep)
            break;
    }
    /* tuples: one value, then TUPLE1 100 000 times */
    size_t k = 0;
    p[k++] = '\x80';
    p[k++] = 2;
    p[k++] = 'N';
    for (size_t i = 0; i < deep; i++)
        p[k++] = '\x85';
    p[k++] = '.';
    expect_error(p, k, "values nest more than 1000 deep", "tuples nested 100000 deep");
    free(p);
}

/* Every cut of a real pickle fails with a message; every byte flipped fails or works. */
static void test_damaged(void)
{
    char path[512];
    TsError err = TS_ERROR_INIT;
    snprintf(path, sizeof path, "%s/module.pt", DATA_DIR);
    TestEnv env = {ts_zip_open_file(path, &err), 0, 0, 0};
    long at = env.zip ? ts_zip_find(env.zip, "module/data.pkl") : -1;
    const void *data;
    size_t size;
    void *owned = NULL;
    if (!ok(at >= 0 && !ts_zip_read(env.zip, (size_t)at, true, &data, &size, &owned, &err),
            "module.pt's data.pkl to damage"))
        return;
    int failed = 0, silent = 0, worked = 0;
    for (size_t n = 0; n < size; n++) {
        TsValue v;
        if (unpickle(data, n, &env, &v, &err)) {
            failed++;
            silent += err.msg == NULL;
        } else {
            ts_value_release(v);
        }
        ts_error_clear(&err);
    }
    is_int(failed, size, "data.pkl cut at each of its %zu lengths is refused", size);
    is_int(silent, 0, "each time with a message");
    unsigned char *b = malloc(size);
    failed = silent = 0;
    for (size_t i = 0; i < size; i++) {
        memcpy(b, data, size);
        b[i] ^= 0x41;
        TsValue v;
        if (unpickle((char *)b, size, &env, &v, &err)) {
            failed++;
            silent += err.msg == NULL;
        } else {
            worked++;
            ts_value_release(v);
        }
        ts_error_clear(&err);
    }
    ok(failed > 0, "data.pkl with one byte flipped: %d refused, %d still load", failed, worked);
    is_int(silent, 0, "every refusal has a message");
    free(b);
    ts_zip_release(env.zip);
}

static void test_no_hooks(void)
{
    char path[512];
    TsError err = TS_ERROR_INIT;
    snprintf(path, sizeof path, "%s/module.pt", DATA_DIR);
    TsZip *z = ts_zip_open_file(path, &err);
    long at = ts_zip_find(z, "module/data.pkl");
    const void *data;
    size_t size;
    void *owned = NULL;
    TsValue v;
    ts_zip_read(z, (size_t)at, true, &data, &size, &owned, &err);
    ok(ts_unpickle(data, size, NULL, &v, &err) != 0, "without hooks a module is refused");
    like(err.msg, "Unsupported class __torch__.Model (no classes can be loaded here)",
         "naming the class");
    ts_error_clear(&err);
    expect_canon(P("\x80\x02}(X\x01\x00\x00\x00" "aK\x01u."), "{Any,Any|'a':1,}",
                 "plain values need no hooks");
    ok(ts_unpickle(P(TENSOR("K\x00", "(K\x01t", "(K\x01t")), NULL, &v, &err) != 0,
       "without load_storage a tensor is refused");
    like(err.msg, "no tensor storages can be loaded here", "saying so");
    ts_error_clear(&err);
    ts_zip_release(z);
}

/* ---- ts_pickle_retype ------------------------------------------------------------------- */
static void test_retype(void)
{
    TsError err = TS_ERROR_INIT;
    TsList *l = ts_list_new(ts_type_any(), 2, NULL);
    ts_list_append(l, ts_int(1), NULL);
    ts_list_append(l, ts_none(), NULL);
    TsValue lv = ts_obj_value(l, TS_TAG_LIST);
    ok(ts_pickle_retype(lv, ts_type_list(ts_type_int()), &err) != 0, "None is not an int");
    like(err.msg, "expected int, got a None", "saying so");
    ts_error_clear(&err);
    ok(ts_pickle_retype(lv, ts_type_list(ts_type_optional(ts_type_int())), &err) == 0 &&
       l->elem_type == ts_type_optional(ts_type_int()), "but fits List[Optional[int]], now its type");
    ok(ts_pickle_retype(lv, ts_type_list(ts_type_float()), &err) != 0,
       "a typed list is not typed again");
    ts_error_clear(&err);

    const char *names[] = {"x", "y"};
    const TsType *types[] = {ts_type_int(), ts_type_list(ts_type_optional(ts_type_int()))};
    const TsType *nt = ts_type_named_tuple("__torch__.RetypePoint", 2, names, types, NULL);
    TsTuple *t = ts_tuple_new(NULL, 2, NULL);
    t->items[0] = ts_int(3);
    t->items[1] = lv;
    TsValue tv = ts_obj_value(t, TS_TAG_TUPLE);
    ok(ts_pickle_retype(tv, nt, &err) == 0 && t->type == nt,
       "a plain tuple becomes the NamedTuple its type names");
    const TsType *members[] = {ts_type_str(), nt};
    ok(ts_pickle_retype(tv, ts_type_union(2, members), &err) == 0, "a Union picks the member that fits");
    ok(ts_pickle_retype(ts_int(1), ts_type_union(2, members), &err) != 0, "and refuses a value no member fits");
    ts_error_clear(&err);
    ts_value_release(tv);
}

int main(void)
{
    const char *dir = make_tmpdir();
    test_fixtures();
    test_sharing();
    test_opcodes();
    test_tensors();
    test_globals_refused();
    test_malformed();
    test_cycles();
    test_nesting();
    test_damaged();
    test_no_hooks();
    test_retype();
    if (dir)
        test_fresh_archives(dir);
    cleanup_tmpdir();
    return done_testing();
}
