/* t/tensor.c — dtypes, devices, storages and tensor metadata (core/value/device.c, core/value/tensor.c). */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tscript/tensor.h"
#include "tscript/value.h"

/* ---- a test allocator that counts ---------------------------------------- */
typedef struct Counts {
    int allocs, frees;
    size_t live_bytes;
    int fail_next;         /* make the next alloc fail */
    int no_reason;         /* count_why finds none: out of memory */
} Counts;

/* TsAllocator.why: a device that is not there, unless told it is memory. */
static int count_why(TsAllocator *self, TsDevice device, TsError *err)
{
    Counts *c = self->ctx;
    (void)device;
    return c->no_reason ? 0 : ts_error_set(err, TS_ERR_RUNTIME, "no counting device");
}

static void *count_alloc(TsAllocator *self, size_t nbytes, TsDevice device)
{
    Counts *c = self->ctx;
    (void)device;
    if (c->fail_next) {
        c->fail_next = 0;
        return NULL;
    }
    c->allocs++;
    c->live_bytes += nbytes;
    return malloc(nbytes ? nbytes : 1);
}

static void count_free(TsAllocator *self, void *ptr, size_t nbytes, TsDevice device)
{
    Counts *c = self->ctx;
    (void)device;
    c->frees++;
    c->live_bytes -= nbytes;
    free(ptr);
}

static const TsDevice cpu = {TS_DEV_CPU, -1};

static void test_dtypes(void)
{
    /* torch.empty(0, dtype=d).element_size() and the short aliases torch.float, torch.long */
    static const struct { int dt; size_t size; const char *name, *type_name; } want[] = {
        {TS_UINT8, 1, "uint8", "Byte"},       {TS_INT8, 1, "int8", "Char"},
        {TS_INT16, 2, "short", "Short"},      {TS_INT32, 4, "int", "Int"},
        {TS_INT64, 8, "long", "Long"},        {TS_FLOAT16, 2, "half", "Half"},
        {TS_FLOAT32, 4, "float", "Float"},    {TS_FLOAT64, 8, "double", "Double"},
        {TS_COMPLEX32, 4, "chalf", "ComplexHalf"},
        {TS_COMPLEX64, 8, "cfloat", "ComplexFloat"},
        {TS_COMPLEX128, 16, "cdouble", "ComplexDouble"},
        {TS_BOOL, 1, "bool", "Bool"},         {TS_QINT8, 1, "qint8", "QInt8"},
        {TS_QUINT8, 1, "quint8", "QUInt8"},   {TS_QINT32, 4, "qint32", "QInt32"},
        {TS_BFLOAT16, 2, "bfloat16", "BFloat16"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        is_int((long long)ts_dtype_size(want[i].dt), (long long)want[i].size, "size of %s",
               want[i].name);
        is_str(ts_dtype_name(want[i].dt), want[i].name, "name of dtype %d", want[i].dt);
        is_str(ts_dtype_type_name(want[i].dt), want[i].type_name, "type name of %s",
               want[i].name);
    }
    is_int((long long)ts_dtype_size(16), 0, "dtype 16 has no size");
    is_int((long long)ts_dtype_size(-1), 0, "dtype -1 has no size");
    ok(ts_dtype_name(99) == NULL && ts_dtype_type_name(-3) == NULL, "invalid dtypes: no names");
    ok(ts_dtype_is_floating(TS_FLOAT32) && ts_dtype_is_floating(TS_BFLOAT16) &&
           ts_dtype_is_floating(TS_FLOAT16) && !ts_dtype_is_floating(TS_INT64) &&
           !ts_dtype_is_floating(TS_COMPLEX64),
       "is_floating as torch's dtype.is_floating_point");
    ok(ts_dtype_is_integral(TS_UINT8, false) && ts_dtype_is_integral(TS_INT64, false) &&
           !ts_dtype_is_integral(TS_BOOL, false) && ts_dtype_is_integral(TS_BOOL, true) &&
           !ts_dtype_is_integral(TS_FLOAT64, true),
       "is_integral, with and without bool");
    ok(ts_dtype_is_complex(TS_COMPLEX32) && ts_dtype_is_complex(TS_COMPLEX128) &&
           !ts_dtype_is_complex(TS_FLOAT64) && !ts_dtype_is_complex(77),
       "is_complex");
}

static void parse_ok(const char *s, int type, int index, const char *printed)
{
    TsError e = TS_ERROR_INIT;
    TsDevice d = {-5, -5};
    char buf[64];
    int rc = ts_device_parse(s, &d, &e);
    ok(rc == 0 && d.type == type && d.index == index, "parse '%s' -> %d:%d", s, type, index);
    if (rc)
        diag("%s", e.msg);
    ts_device_str(d, buf, sizeof buf);
    is_str(buf, printed, "'%s' prints as '%s'", s, printed);
    ts_error_clear(&e);
}

static void parse_bad(const char *s, const char *msg)
{
    TsError e = TS_ERROR_INIT;
    TsDevice d;
    int rc = ts_device_parse(s, &d, &e);
    ok(rc == TS_ERR_RUNTIME, "'%s' is rejected as a RuntimeError", s);
    is_str(e.msg, msg, "message for '%s'", s);
    ts_error_clear(&e);
}

static void test_devices(void)
{
    const char *expected =
        "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
        "ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start of device "
        "string: ";
    char msg[512];

    parse_ok("cpu", TS_DEV_CPU, -1, "cpu");
    parse_ok("cuda", TS_DEV_CUDA, -1, "cuda");
    parse_ok("cuda:0", TS_DEV_CUDA, 0, "cuda:0");
    parse_ok("cuda:10", TS_DEV_CUDA, 10, "cuda:10");
    parse_ok("cpu:1", TS_DEV_CPU, 1, "cpu:1");
    parse_ok("meta", TS_DEV_META, -1, "meta");
    parse_ok("xla:3", 9, 3, "xla:3");
    parse_ok("privateuseone:0", 19, 0, "privateuseone:0");
    parse_ok("cuda:32767", TS_DEV_CUDA, 32767, "cuda:32767");

    parse_bad("", "Device string must not be empty");
    parse_bad("cuda:x", "Invalid device string: 'cuda:x'");
    parse_bad("cpu:", "Invalid device string: 'cpu:'");
    parse_bad("cpu:-1", "Invalid device string: 'cpu:-1'");
    parse_bad("cpu:01", "Invalid device string: 'cpu:01'");
    parse_bad("cuda:00", "Invalid device string: 'cuda:00'");
    parse_bad("cuda: 1", "Invalid device string: 'cuda: 1'");
    parse_bad("cuda:1 ", "Invalid device string: 'cuda:1 '");
    parse_bad(" cpu", "Invalid device string: ' cpu'");
    parse_bad("cuda:1:2", "Invalid device string: 'cuda:1:2'");
    parse_bad("cuda0", "Invalid device string: 'cuda0'");
    parse_bad("cu-da", "Invalid device string: 'cu-da'");
    parse_bad(":0", "Invalid device string: ':0'");
    parse_bad("cuda:+1", "Invalid device string: 'cuda:+1'");
    parse_bad("cud:x", "Invalid device string: 'cud:x'");
    snprintf(msg, sizeof msg, "%scud", expected);
    parse_bad("cud", msg);
    snprintf(msg, sizeof msg, "%sCPU", expected);
    parse_bad("CPU", msg);
    snprintf(msg, sizeof msg, "%smetal", expected);
    parse_bad("metal", msg);
    parse_bad("cuda:99999999999",
              "Could not parse device index '99999999999' in device string 'cuda:99999999999'");
    parse_bad("cuda:32768", "Could not parse device index '32768' in device string 'cuda:32768'");

    is_str(ts_device_type_name(TS_DEV_CPU), "cpu", "type 0 is cpu");
    is_str(ts_device_type_name(TS_DEV_META), "meta", "type 14 is meta");
    is_str(ts_device_type_name(11), "metal", "type 11 prints as metal");
    ok(ts_device_type_name(25) == NULL && ts_device_type_name(-1) == NULL &&
           ts_device_type_name(TS_DEV__MAX) == NULL,
       "unused and out-of-range numbers have no name");
    is_int(ts_device_type_lookup("cuda"), TS_DEV_CUDA, "lookup cuda");
    is_int(ts_device_type_lookup("nope"), -1, "lookup of an unknown name");

    /* plugins' own device types */
    TsError e = TS_ERROR_INIT;
    int npu = ts_device_type_register("npu", &e);
    ok(npu >= TS_DEV__BUILTIN_MAX && npu < TS_DEV__MAX, "npu registered as %d", npu);
    is_int(ts_device_type_register("npu", &e), npu, "registering again returns the same number");
    is_int(ts_device_type_register("cuda", &e), TS_DEV_CUDA, "a builtin name keeps its number");
    is_int(ts_device_type_lookup("npu"), npu, "lookup finds it");
    is_str(ts_device_type_name(npu), "npu", "and its name");
    parse_ok("npu:2", npu, 2, "npu:2");
    TsDevice d;
    ts_device_parse("bogus", &d, &e);
    like(e.msg, "privateuseone, npu device type", "the error lists registered names too");
    is_int(ts_device_type_register("bad:name", &e), -1, "a name with ':' is rejected");
    like(e.msg, "invalid device type name 'bad:name'", "with a message");
    is_int(ts_device_type_register("", &e), -1, "an empty name is rejected");
    is_int(ts_device_type_register("x23456789012345678901234567890123", &e), -1,
           "an overlong name is rejected");
    int last = npu;
    char name[16];
    for (int i = 0; i < TS_DEV__MAX; i++) {
        snprintf(name, sizeof name, "dev_%c%c", 'a' + i / 26, 'a' + i % 26);
        int n = ts_device_type_register(name, &e);
        if (n < 0)
            break;
        last = n;
    }
    is_int(last, TS_DEV__MAX - 1, "registration fills the table");
    is_int(e.code, TS_ERR_LIMIT, "then fails with a limit error");
    like(e.msg, "all 32 slots are taken", "saying why");
    ts_error_clear(&e);
}

static void test_storage(void)
{
    Counts c = {0};
    TsAllocator a = {"counting", count_alloc, count_free, &c, NULL, NULL, NULL};
    TsError e = TS_ERROR_INIT;
    TsStorage *s = ts_storage_new(&a, 64, cpu, &e);
    ok(s && s->nbytes == 64 && s->allocator == &a && s->data, "storage from an allocator");
    is_int(c.allocs, 1, "allocator called once");
    ts_storage_retain(s);
    ts_storage_release(s);
    is_int(c.frees, 0, "not freed while referenced");
    ts_storage_release(s);
    is_int(c.frees, 1, "freed once at zero");
    is_int((long long)c.live_bytes, 0, "with its size");

    c.fail_next = 1;
    ok(ts_storage_new(&a, 100, cpu, &e) == NULL && e.code == TS_ERR_NOMEM,
       "a failing allocator gives NOMEM");
    like(e.msg, "counting: failed to allocate 100 bytes on cpu", "naming allocator and size");
    /* an allocator that can say why it failed */
    TsAllocator w = a;
    w.why = count_why;
    c.fail_next = 1;
    ok(ts_storage_new(&w, 100, cpu, &e) == NULL && e.code == TS_ERR_RUNTIME,
       "a failing allocator with a reason gives the reason's error");
    like(e.msg, "no counting device", "its message, not out of memory");
    c.fail_next = 1;
    c.no_reason = 1;
    ok(ts_storage_new(&w, 100, cpu, &e) == NULL && e.code == TS_ERR_NOMEM,
       "one whose reason is none (0) is out of memory");
    c.no_reason = 0;
    ok(ts_storage_new(NULL, 8, cpu, &e) == NULL, "no allocator: error");
    like(e.msg, "no allocator for device cpu", "message");
    ts_error_clear(&e);

    char buf[32];
    TsStorage *b = ts_storage_borrow(buf, sizeof buf, cpu, &e);
    ok(b && b->data == buf && b->allocator == NULL, "borrowed storage");
    int64_t sz[1] = {8};
    TsTensor *t = ts_tensor_new(b, TS_INT32, 1, sz, NULL, 0, &e);
    ok(t && ts_tensor_data(t) == buf, "tensor over borrowed memory");
    ts_storage_release(b);
    is_int(ts_value_refcount(ts_obj_value(b, TS_TAG_STORAGE)), 1, "tensor holds the storage");
    ts_tensor_release(t);          /* frees the storage, never buf */
    is_int(c.frees, 1, "the test allocator saw no extra frees");
}

static void test_bounds(void)
{
    Counts c = {0};
    TsAllocator a = {"counting", count_alloc, count_free, &c, NULL, NULL, NULL};
    TsError e = TS_ERROR_INIT;
    TsStorage *s = ts_storage_new(&a, 16, cpu, &e);   /* 4 floats */
    int64_t sz2[2] = {2, 3}, st2[2] = {3, 1};
    int64_t sz1[1] = {2}, st1[1] = {1};

    TsTensor *t = ts_tensor_new(s, TS_FLOAT32, 2, sz2, st2, 0, &e);
    ok(!t, "2x3 floats do not fit 16 bytes");
    is_str(e.msg, "setStorage: sizes [2, 3], strides [3, 1], storage offset 0, and itemsize 4 "
                  "requiring a storage size of 24 are out of bounds for storage of size 16",
           "PyTorch's message");
    ok(!ts_tensor_new(s, TS_FLOAT32, 1, sz1, st1, 3, &e), "offset 3 + 2 elements is too far");
    like(e.msg, "storage offset 3, and itemsize 4 requiring a storage size of 20", "message");
    t = ts_tensor_new(s, TS_FLOAT32, 1, sz1, st1, 2, &e);
    ok(t != NULL, "offset 2 + 2 elements fits exactly");
    ok(t && ts_tensor_data(t) == (char *)s->data + 8, "data pointer includes the offset");
    ts_tensor_release(t);
    int64_t neg[1] = {-1};
    ok(!ts_tensor_new(s, TS_FLOAT32, 1, sz1, neg, 1, &e), "negative stride rejected");
    is_str(e.msg, "as_strided: Negative strides are not supported at the moment, got strides: "
                  "[-1]", "message");
    ok(!ts_tensor_new(s, TS_FLOAT32, 1, neg, st1, 0, &e), "negative size rejected");
    is_str(e.msg, "Trying to create tensor with negative dimension -1: [-1]", "message");
    ok(!ts_tensor_new(s, TS_FLOAT32, 1, sz1, st1, -1, &e), "negative offset rejected");
    is_str(e.msg, "Tensor: invalid storage offset -1", "message");
    int64_t big[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
    ok(!ts_tensor_new(s, TS_FLOAT32, 2, big, NULL, 0, &e), "overflowing sizes rejected");
    is_str(e.msg, "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]",
           "message");
    int64_t hs[1] = {3}, hst[1] = {INT64_MAX / 2};
    ok(!ts_tensor_new(s, TS_FLOAT32, 1, hs, hst, 0, &e), "overflowing strides rejected");
    like(e.msg, "Storage size calculation overflowed with sizes=[3] and strides=", "message");
    int64_t one[1] = {INT64_MAX / 4 + 1}, ost[1] = {1};
    ok(!ts_tensor_new(s, TS_FLOAT32, 1, one, ost, 0, &e),
       "element count times itemsize overflowing is rejected");
    ok(!ts_tensor_new(s, 99, 1, sz1, st1, 0, &e) && e.code == TS_ERR_VALUE, "bad dtype");
    int64_t many[TS_TENSOR_MAX_DIMS + 1];
    for (int i = 0; i <= TS_TENSOR_MAX_DIMS; i++)
        many[i] = 1;
    ok(!ts_tensor_new(s, TS_FLOAT32, TS_TENSOR_MAX_DIMS + 1, many, NULL, 0, &e) &&
           e.code == TS_ERR_LIMIT,
       "more than %d dims rejected", TS_TENSOR_MAX_DIMS);
    ok(!ts_tensor_new(s, TS_FLOAT32, -1, many, NULL, 0, &e), "negative dim rejected");
    t = ts_tensor_new(s, TS_FLOAT32, TS_TENSOR_MAX_DIMS, many, NULL, 0, &e);
    ok(t && t->dim == TS_TENSOR_MAX_DIMS && ts_tensor_numel(t) == 1, "64 dims of size 1");
    ts_tensor_release(t);

    /* zero-size tensors: valid with any storage, even none */
    int64_t z[2] = {0, 5}, zst[2] = {1, 1};
    t = ts_tensor_new(s, TS_FLOAT32, 2, z, zst, 100, &e);
    ok(t && ts_tensor_numel(t) == 0, "0x5 with offset 100 over a small storage (torch allows)");
    ok(t && ts_tensor_data(t) == s->data, "its data pointer stays inside the storage");
    ts_tensor_release(t);
    t = ts_tensor_new(NULL, TS_INT64, 2, z, NULL, 0, &e);
    ok(t && t->storage == NULL && ts_tensor_data(t) == NULL, "empty tensor without storage");
    ok(t && t->strides[0] == 5 && t->strides[1] == 1, "contiguous strides of 0x5 are [5, 1]");
    ok(t && ts_tensor_is_contiguous(t), "an empty tensor is contiguous");
    ts_tensor_release(t);
    ok(!ts_tensor_new(NULL, TS_INT64, 1, sz1, NULL, 0, &e), "non-empty tensor needs storage");
    like(e.msg, "out of bounds for storage of size 0", "message");
    t = ts_tensor_new(s, TS_FLOAT32, 0, NULL, NULL, 3, &e);
    ok(t && ts_tensor_numel(t) == 1 && t->dim == 0, "a scalar (dim 0) at offset 3");
    ts_tensor_release(t);
    ok(!ts_tensor_new(s, TS_FLOAT32, 0, NULL, NULL, 4, &e), "a scalar past the end");

    ts_storage_release(s);
    is_int(c.frees, 1, "storage freed once its tensors are gone");
    ts_error_clear(&e);
}

static void test_shapes(void)
{
    Counts c = {0};
    TsAllocator a = {"counting", count_alloc, count_free, &c, NULL, NULL, NULL};
    TsError e = TS_ERROR_INIT;
    int64_t sz[3] = {2, 3, 4};
    TsTensor *t = ts_tensor_empty(&a, cpu, TS_FLOAT64, 3, sz, &e);
    ok(t && t->storage->nbytes == 2 * 3 * 4 * 8, "empty allocates numel * itemsize");
    ok(t && t->strides[0] == 12 && t->strides[1] == 4 && t->strides[2] == 1, "contiguous");
    ok(t && t->sizes == t->inline_dims, "3 dims are inline");
    is_int(ts_tensor_numel(t), 24, "numel");
    ok(ts_tensor_is_contiguous(t), "is contiguous");
    ok(t->device.type == TS_DEV_CPU && t->dtype == TS_FLOAT64, "device and dtype");

    /* transpose the last two dims: not contiguous */
    int64_t tsz[3] = {2, 4, 3}, tst[3] = {12, 1, 4};
    ok(ts_tensor_set_shape(t, 3, tsz, tst, 0, &e) == 0, "set_shape to a transpose");
    ok(!ts_tensor_is_contiguous(t), "a transpose is not contiguous");
    /* size-1 dims may have any stride */
    int64_t s1[3] = {1, 4, 1}, st1[3] = {99, 1, 7};
    ok(ts_tensor_set_shape(t, 3, s1, st1, 0, &e) == 0 && ts_tensor_is_contiguous(t),
       "size-1 dims ignore their strides");
    int64_t ex[2] = {4, 3}, exst[2] = {0, 1};
    ok(ts_tensor_set_shape(t, 2, ex, exst, 0, &e) == 0 && !ts_tensor_is_contiguous(t),
       "an expanded (stride 0) tensor is not contiguous");

    /* heap dims and back */
    int64_t s7[7] = {1, 2, 1, 3, 1, 4, 1};
    ok(ts_tensor_set_shape(t, 7, s7, NULL, 0, &e) == 0, "7 dims");
    ok(t->sizes != t->inline_dims && t->dim == 7, "7 dims live on the heap");
    ok(t->strides[5] == 1 && t->strides[3] == 4 && t->strides[0] == 24, "contiguous strides");
    ok(ts_tensor_set_shape(t, 7, t->sizes, NULL, 0, &e) == 0 && t->sizes[6] == 1 &&
           t->sizes[5] == 4,
       "set_shape from its own sizes");
    int64_t s6[6] = {2, 2, 2, 3, 1, 1};
    ok(ts_tensor_set_shape(t, 6, s6, NULL, 0, &e) == 0 && t->dim == 6, "heap to heap");
    ok(ts_tensor_set_shape(t, 1, (int64_t[]){24}, NULL, 0, &e) == 0 &&
           t->sizes == t->inline_dims,
       "back to inline");
    ok(ts_tensor_set_shape(t, 1, (int64_t[]){25}, NULL, 0, &e) == TS_ERR_RUNTIME,
       "set_shape past the storage fails");
    ok(t->dim == 1 && t->sizes[0] == 24, "and leaves the shape as it was");
    ok(ts_tensor_set_shape(t, 1, (int64_t[]){12}, (int64_t[]){2}, 1, &e) == 0,
       "every other element from offset 1 fits");
    ok(ts_tensor_set_shape(t, 1, (int64_t[]){12}, (int64_t[]){2}, 2, &e) != 0,
       "from offset 2 it does not");
    ok(ts_tensor_set_shape(t, 65, s7, NULL, 0, &e) == TS_ERR_LIMIT, "65 dims rejected");
    ts_tensor_release(t);
    is_int(c.allocs, 1, "one allocation");
    is_int(c.frees, 1, "one free");

    int64_t bad[2] = {INT64_C(1) << 31, INT64_C(1) << 31};
    ok(!ts_tensor_empty(&a, cpu, TS_FLOAT64, 2, bad, &e), "2^62 doubles overflow bytes");
    like(e.msg, "Storage size calculation overflowed", "message");
    ok(!ts_tensor_empty(&a, cpu, TS_FLOAT64, 1, (int64_t[]){-2}, &e), "negative size");
    c.fail_next = 1;
    ok(!ts_tensor_empty(&a, cpu, TS_FLOAT64, 1, sz, &e) && e.code == TS_ERR_NOMEM,
       "allocator failure is reported");
    t = ts_tensor_empty(&a, cpu, TS_FLOAT32, 1, (int64_t[]){0}, &e);
    ok(t && ts_tensor_numel(t) == 0, "an empty tensor from empty()");
    ts_tensor_release(t);
    is_int(c.allocs - c.frees, 0, "no storage leaked");

    int64_t strides[3];
    ok(ts_contiguous_strides(3, (int64_t[]){2, 0, 3}, strides) && strides[0] == 3 &&
           strides[1] == 3 && strides[2] == 1,
       "contiguous strides of 2x0x3 are [3, 3, 1] as torch");
    ok(!ts_contiguous_strides(3, (int64_t[]){INT64_MAX, 2, 2}, strides),
       "contiguous strides report overflow");
    ts_error_clear(&e);
}

int main(void)
{
    test_dtypes();
    test_devices();
    test_storage();
    test_bounds();
    test_shapes();
    return done_testing();
}
