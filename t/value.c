/* t/value.c — TsValue and its heap objects: counts, strings, lists, dicts, tuples, objects,
 * enums, capsules, futures, equality, hashing and dynamic types (core/value/value.c and friends). */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tscript/strbuf.h"
#include "tap.h"
#include "tscript/value.h"

static TsValue str(const char *s)
{
    return ts_str_value(ts_str_from_cstr(s, NULL));
}

static int destroyed;
static void count_destroy(void *p)
{
    (void)p;
    destroyed++;
}

static void test_refcounts(void)
{
    TsValue s = str("hello");
    is_int(ts_value_refcount(s), 1, "a new string has one reference");
    ts_value_retain(s);
    is_int(ts_value_refcount(s), 2, "retain adds one");
    ts_value_release(s);
    is_int(ts_value_refcount(s), 1, "release takes one");
    is_int(ts_value_refcount(ts_int(3)), 0, "inline values have no count");
    ts_value_retain(ts_int(3));
    ts_value_release(ts_none());

    TsList *l = ts_list_new(ts_type_str(), 0, NULL);
    ts_value_retain(s);
    ts_list_append(l, s, NULL);
    is_int(ts_value_refcount(s), 2, "a list owns a reference to its element");
    ts_value_release(ts_obj_value(l, TS_TAG_LIST));
    is_int(ts_value_refcount(s), 1, "freeing the list releases it");
    ts_value_release(s);

    /* a capsule nested in a dict in a tuple in a list: destroyed exactly once */
    destroyed = 0;
    TsCapsule *c = ts_capsule_new(&destroyed, count_destroy, NULL);
    TsDict *d = ts_dict_new(ts_type_str(), ts_type_capsule(), NULL);
    ts_dict_set(d, str("k"), ts_obj_value(c, TS_TAG_CAPSULE), NULL);
    TsTuple *t = ts_tuple_new(NULL, 2, NULL);
    t->items[0] = ts_obj_value(d, TS_TAG_DICT);
    t->items[1] = str("x");
    l = ts_list_new(ts_type_any(), 0, NULL);
    TsValue tv = ts_obj_value(t, TS_TAG_TUPLE);
    ts_value_retain(tv);
    ts_list_append(l, tv, NULL);
    ts_list_append(l, tv, NULL);   /* the same tuple twice */
    is_int(ts_value_refcount(tv), 2, "the tuple is held twice");
    ts_value_release(ts_obj_value(l, TS_TAG_LIST));
    is_int(destroyed, 1, "capsule destroyed exactly once");
    TsCapsule *c2 = ts_capsule_new(NULL, NULL, NULL);
    ts_heap_release(&c2->h);
    ok(1, "a capsule without a destroy function frees");
}

static void test_strings(void)
{
    TsError e = TS_ERROR_INIT;
    TsStr *a = ts_str_new("ab\0cd", 5, &e);
    ok(a && a->len == 5 && a->data[5] == 0 && memcmp(a->data, "ab\0cd", 5) == 0,
       "strings hold NUL bytes and end with one");
    TsStr *b = ts_str_from_cstr("ab", &e);
    TsStr *b2 = ts_str_from_cstr("ab", &e);
    ok(ts_str_hash(b) == ts_str_hash(b2), "equal strings hash alike");
    ok(ts_str_hash(a) != ts_str_hash(b), "different strings hash apart");
    TsStr *empty = ts_str_new(NULL, 0, &e);
    ok(empty && empty->len == 0 && empty->data[0] == 0, "the empty string");
    ok(ts_value_equal(ts_str_value(b), ts_str_value(b2)), "strings compare by content");
    ok(!ts_value_is(ts_str_value(b), ts_str_value(b2)), "but are not the same object");
    ok(!ts_value_equal(ts_str_value(a), ts_str_value(b)), "different strings differ");
    ok(!ts_str_new("x", ((size_t)-1) - 4, &e) && e.code == TS_ERR_LIMIT,
       "an impossible length is refused");
    /* hashes of many short strings are spread out */
    char buf[16];
    uint64_t lowbits[256] = {0};
    for (int i = 0; i < 4096; i++) {
        snprintf(buf, sizeof buf, "k%d", i);
        TsStr *s = ts_str_from_cstr(buf, NULL);
        lowbits[ts_str_hash(s) & 255]++;
        ts_heap_release(&s->h);
    }
    int emptyb = 0;
    for (int i = 0; i < 256; i++)
        emptyb += lowbits[i] == 0;
    ok(emptyb < 4, "low hash bits of k0..k4095 cover the buckets (%d empty)", emptyb);
    ts_heap_release(&a->h);
    ts_heap_release(&b->h);
    ts_heap_release(&b2->h);
    ts_heap_release(&empty->h);
    ts_error_clear(&e);
}

static int64_t list_int(TsList *l, int64_t i)
{
    TsValue v = ts_none();
    ts_list_get(l, i, &v, NULL);
    return v.u.i;
}

static void test_lists(void)
{
    TsError e = TS_ERROR_INIT;
    TsList *l = ts_list_new(ts_type_int(), 2, &e);
    ok(l && l->elem_type == ts_type_int() && l->len == 0 && l->cap >= 2, "new list");
    for (int i = 0; i < 1000; i++)
        ts_list_append(l, ts_int(i), &e);
    is_int((long long)l->len, 1000, "1000 appends");
    is_int(list_int(l, 0) + list_int(l, 999) + list_int(l, -1) + list_int(l, -1000), 0 + 999 +
           999 + 0, "indexing from both ends");
    TsValue v;
    is_int(ts_list_get(l, 1000, &v, &e), TS_ERR_INDEX, "index len is out of range");
    is_str(e.msg, "list index out of range", "PyTorch's message");
    ts_error_clear(&e);
    is_int(ts_list_get(l, -1001, &v, &e), TS_ERR_INDEX, "index -len-1 is out of range");
    is_int(ts_list_get(l, INT64_MIN, &v, &e), TS_ERR_INDEX, "INT64_MIN is out of range");
    is_int(ts_list_set(l, -2, ts_int(-7), &e), 0, "set at -2");
    is_int(list_int(l, 998), -7, "set landed");
    is_int(ts_list_set(l, 5000, ts_int(1), &e), TS_ERR_INDEX, "set out of range");
    is_int(ts_list_pop(l, -1, &v, &e), 0, "pop last");
    is_int(v.u.i, 999, "popped 999");
    is_int(ts_list_pop(l, 0, &v, &e), 0, "pop first");
    is_int(v.u.i, 0, "popped 0");
    is_int(list_int(l, 0), 1, "the rest moved down");
    is_int(ts_list_pop(l, 998, &v, &e), TS_ERR_INDEX, "pop out of range");
    is_str(e.msg, "list index out of range", "with IndexError's message");
    ts_list_clear(l);
    is_int((long long)l->len, 0, "clear empties");
    is_int(ts_list_pop(l, -1, &v, &e), TS_ERR_INDEX, "pop from an empty list fails");
    is_str(e.msg, "pop from empty list", "PyTorch's message");
    /* insert clamps like Python: [1, 2] insert(-100, 9) insert(100, 8) -> [9, 1, 2, 8] */
    ts_list_append(l, ts_int(1), &e);
    ts_list_append(l, ts_int(2), &e);
    ts_list_insert(l, -100, ts_int(9), &e);
    ts_list_insert(l, 100, ts_int(8), &e);
    ts_list_insert(l, -1, ts_int(5), &e);
    ts_list_insert(l, 1, ts_int(4), &e);
    ok(l->len == 6 && list_int(l, 0) == 9 && list_int(l, 1) == 4 && list_int(l, 2) == 1 &&
           list_int(l, 3) == 2 && list_int(l, 4) == 5 && list_int(l, 5) == 8,
       "insert clamps and counts from the end");
    is_int(ts_list_reserve(l, (size_t)-1, &e), TS_ERR_LIMIT, "an impossible reserve fails");
    ok(l->len == 6 && list_int(l, 5) == 8, "and leaves the list alone");
    ts_value_release(ts_obj_value(l, TS_TAG_LIST));

    /* a failed set still takes the value */
    TsList *sl = ts_list_new(ts_type_str(), 0, &e);
    TsValue s = str("owned");
    ts_value_retain(s);
    ts_list_set(sl, 0, s, &e);
    is_int(ts_value_refcount(s), 1, "a failed set releases the value it was given");
    ts_list_append(sl, s, &e);
    TsValue popped;
    ts_list_pop(sl, 0, &popped, &e);
    is_int(ts_value_refcount(popped), 1, "pop gives the list's reference");
    ts_value_release(popped);
    ts_value_release(ts_obj_value(sl, TS_TAG_LIST));
    ts_error_clear(&e);
}

static void test_dicts(void)
{
    TsError e = TS_ERROR_INIT;
    enum { N = 300000 };
    TsDict *d = ts_dict_new(ts_type_int(), ts_type_int(), &e);
    ok(ts_dict_key_type(d) == ts_type_int() && ts_dict_value_type(d) == ts_type_int(),
       "key and value types");
    for (int64_t i = 0; i < N; i++)
        ts_dict_set(d, ts_int(i * 7919 % N), ts_int(i), &e);
    is_int((long long)ts_dict_len(d), N, "300k keys");
    TsValue k, v;
    int bad = 0;
    for (int64_t i = 0; i < N; i++)
        if (!ts_dict_get(d, ts_int(i * 7919 % N), &v) || v.u.i != i)
            bad++;
    is_int(bad, 0, "every key found with its value");
    ok(!ts_dict_get(d, ts_int(N), &v) && !ts_dict_get(d, ts_int(-1), NULL), "absent keys");
    size_t pos = 0;
    int64_t n = 0;
    bad = 0;
    while (ts_dict_next(d, &pos, &k, &v))
        if (v.u.i != n++ || k.u.i != v.u.i * 7919 % N)
            bad++;
    ok(bad == 0 && n == N, "iteration in insertion order");
    /* delete the entries inserted at even positions */
    for (int64_t i = 0; i < N; i += 2)
        if (!ts_dict_delete(d, ts_int(i * 7919 % N), NULL))
            bad++;
    is_int(bad, 0, "deletes find their keys");
    is_int((long long)ts_dict_len(d), N / 2, "half left");
    ok(!ts_dict_delete(d, ts_int(0), NULL), "deleting again finds nothing");
    pos = 0;
    n = 1;
    while (ts_dict_next(d, &pos, &k, &v)) {
        if (v.u.i != n)
            bad++;
        n += 2;
    }
    ok(bad == 0 && n == N + 1, "order survives deletes");
    /* re-insert the deleted keys: they go to the end */
    for (int64_t i = 0; i < N; i += 2)
        ts_dict_set(d, ts_int(i * 7919 % N), ts_int(N + i), &e);
    ts_dict_set(d, ts_int(1 * 7919 % N), ts_int(-1), &e);   /* replace keeps the position */
    is_int((long long)ts_dict_len(d), N, "all back");
    pos = 0;
    n = 0;
    int64_t expect_odd = 1, expect_even = 0;
    while (ts_dict_next(d, &pos, &k, &v)) {
        if (n < N / 2) {
            int64_t want = expect_odd == 1 ? -1 : expect_odd;
            if (v.u.i != want)
                bad++;
            expect_odd += 2;
        } else {
            if (v.u.i != N + expect_even)
                bad++;
            expect_even += 2;
        }
        n++;
    }
    ok(bad == 0 && n == N, "re-inserted keys come last; a replaced value keeps its place");
    TsValue out;
    ok(ts_dict_delete(d, ts_int(0), &out) && out.u.i == N, "delete gives the value");
    ts_dict_clear(d);
    is_int((long long)ts_dict_len(d), 0, "clear empties");
    pos = 0;
    ok(!ts_dict_next(d, &pos, &k, &v), "nothing to iterate after clear");
    ts_dict_set(d, ts_int(5), ts_int(6), &e);
    ok(ts_dict_get(d, ts_int(5), &v) && v.u.i == 6, "usable after clear");
    ts_value_release(ts_obj_value(d, TS_TAG_DICT));

    /* string keys compare by content; replace keeps the old key object */
    TsDict *sd = ts_dict_new(ts_type_str(), ts_type_str(), &e);
    TsValue k1 = str("key"), k2 = str("key");
    ts_value_retain(k1);
    ts_value_retain(k2);
    ts_dict_set(sd, k1, str("one"), &e);
    ts_dict_set(sd, k2, str("two"), &e);
    is_int((long long)ts_dict_len(sd), 1, "equal strings are one key");
    pos = 0;
    ts_dict_next(sd, &pos, &k, &v);
    ok(k.u.p == k1.u.p, "the first key object stays (as Python)");
    is_str(((TsStr *)v.u.p)->data, "two", "the value is replaced");
    is_int(ts_value_refcount(k2), 1, "the second key was released");
    TsValue sk = str("key");
    ok(ts_dict_get(sd, sk, &v), "lookup with a third equal string");
    ok(ts_dict_delete(sd, sk, NULL), "delete by content");
    is_int(ts_value_refcount(k1), 1, "delete releases the key");
    ts_value_release(sk);
    ts_value_release(k1);
    ts_value_release(k2);
    ts_value_release(ts_obj_value(sd, TS_TAG_DICT));

    /* the other key kinds */
    TsDict *fd = ts_dict_new(ts_type_float(), ts_type_int(), &e);
    ts_dict_set(fd, ts_double(0.0), ts_int(1), &e);
    ts_dict_set(fd, ts_double(-0.0), ts_int(2), &e);
    ts_dict_set(fd, ts_double(1.5), ts_int(3), &e);
    ts_dict_set(fd, ts_double(NAN), ts_int(4), &e);
    ok(ts_dict_len(fd) == 3 && ts_dict_get(fd, ts_double(0.0), &v) && v.u.i == 2,
       "float keys: -0.0 == 0.0");
    ok(ts_dict_get(fd, ts_double(NAN), &v) && v.u.i == 4, "a NaN key is found by identity");
    ts_value_release(ts_obj_value(fd, TS_TAG_DICT));

    TsDict *bd = ts_dict_new(ts_type_bool(), ts_type_int(), &e);
    ts_dict_set(bd, ts_bool(true), ts_int(1), &e);
    ts_dict_set(bd, ts_bool(false), ts_int(0), &e);
    ok(ts_dict_len(bd) == 2 && ts_dict_get(bd, ts_bool(true), &v) && v.u.i == 1, "bool keys");
    ts_value_release(ts_obj_value(bd, TS_TAG_DICT));

    TsDict *od = ts_dict_new(ts_type_any(), ts_type_int(), &e);
    ts_dict_set(od, ts_none(), ts_int(1), &e);
    ts_dict_set(od, ts_device((TsDevice){TS_DEV_CUDA, 1}), ts_int(2), &e);
    ts_dict_set(od, ts_device((TsDevice){TS_DEV_CUDA, 0}), ts_int(3), &e);
    ts_dict_set(od, ts_obj_value(ts_complex_new(1, 2, &e), TS_TAG_COMPLEX), ts_int(4), &e);
    int64_t zero[1] = {0};
    TsTensor *t1 = ts_tensor_new(NULL, TS_FLOAT32, 1, zero, NULL, 0, &e);
    TsTensor *t2 = ts_tensor_new(NULL, TS_FLOAT32, 1, zero, NULL, 0, &e);
    ts_dict_set(od, ts_obj_value(t1, TS_TAG_TENSOR), ts_int(5), &e);
    ts_dict_set(od, ts_obj_value(t2, TS_TAG_TENSOR), ts_int(6), &e);
    TsComplex *c12 = ts_complex_new(1, 2, &e);
    ok(ts_dict_len(od) == 6, "None, devices, complex and tensors as keys");
    ok(ts_dict_get(od, ts_none(), &v) && v.u.i == 1, "None key");
    ok(ts_dict_get(od, ts_device((TsDevice){TS_DEV_CUDA, 0}), &v) && v.u.i == 3, "device key");
    ok(ts_dict_get(od, ts_obj_value(c12, TS_TAG_COMPLEX), &v) && v.u.i == 4,
       "complex key by value");
    ok(ts_dict_get(od, ts_obj_value(t2, TS_TAG_TENSOR), &v) && v.u.i == 6,
       "tensor keys by identity");
    ts_heap_release(&c12->h);
    ts_value_release(ts_obj_value(od, TS_TAG_DICT));
    ts_error_clear(&e);
}

static void test_objects(void)
{
    TsError e = TS_ERROR_INIT;
    TsType *cls = ts_type_class_new("__torch__.t_value.Point", false, &e);
    ts_type_class_add_attr(cls, "x", ts_type_int(), &e);
    ts_type_class_add_attr(cls, "name", ts_type_str(), &e);
    TsObject *o = ts_object_new(cls, &e);
    ok(o && o->nslots == 2 && o->cls == cls, "an object has one slot per attribute");
    ok(o->slots[0].tag == TS_TAG_NONE && o->slots[1].tag == TS_TAG_NONE, "slots start None");
    o->slots[0] = ts_int(3);
    o->slots[1] = str("p");
    TsValue ov = ts_obj_value(o, TS_TAG_OBJECT);
    ok(ts_value_type(ov) == cls, "an object's type is its class");
    TsObject *o2 = ts_object_new(cls, &e);
    o2->slots[0] = ts_int(3);
    o2->slots[1] = str("p");
    TsValue ov2 = ts_obj_value(o2, TS_TAG_OBJECT);
    ok(!ts_value_equal(ov, ov2) && ts_value_equal(ov, ov), "objects compare by identity");
    ts_value_release(ov);
    ts_value_release(ov2);

    const char *names[2] = {"RED", "GREEN"};
    TsType *color = ts_type_enum_new("__torch__.t_value.Color", ts_type_int(), 2, names, &e);
    TsValue red = ts_obj_value(ts_enum_value_new(color, "RED", ts_int(1), &e), TS_TAG_ENUM);
    TsValue red2 = ts_obj_value(ts_enum_value_new(color, "RED", ts_int(1), &e), TS_TAG_ENUM);
    TsValue green = ts_obj_value(ts_enum_value_new(color, "GREEN", str("g"), &e), TS_TAG_ENUM);
    ok(((TsEnumValue *)red.u.p)->value.u.i == 1, "an enum value keeps its value");
    is_str(((TsEnumValue *)green.u.p)->name->data, "GREEN", "and its name");
    ok(ts_value_equal(red, red2) && !ts_value_equal(red, green), "enums: same type and name");
    ok(ts_value_hash(red) == ts_value_hash(red2), "equal enums hash alike");
    ok(ts_value_type(red) == color, "an enum value's type");
    ts_value_release(red);
    ts_value_release(red2);
    ts_value_release(green);

    TsTuple *t = ts_tuple_new(NULL, 3, &e);
    ok(t && t->len == 3 && t->items[2].tag == TS_TAG_NONE, "a tuple starts as Nones");
    ts_value_release(ts_obj_value(t, TS_TAG_TUPLE));
    TsTuple *t0 = ts_tuple_new(NULL, 0, &e);
    ok(t0 && t0->len == 0, "the empty tuple");
    ts_value_release(ts_obj_value(t0, TS_TAG_TUPLE));
    ok(!ts_tuple_new(NULL, (size_t)-1 / 8, &e) && e.code == TS_ERR_LIMIT,
       "an impossible tuple is refused");

    /* capsules held by several containers are destroyed once, when the last goes */
    destroyed = 0;
    TsValue cap = ts_obj_value(ts_capsule_new(NULL, count_destroy, &e), TS_TAG_CAPSULE);
    TsTuple *holder = ts_tuple_new(NULL, 1, &e);
    ts_value_retain(cap);
    holder->items[0] = cap;
    ts_value_release(cap);
    is_int(destroyed, 0, "not destroyed while a tuple holds it");
    ts_value_release(ts_obj_value(holder, TS_TAG_TUPLE));
    is_int(destroyed, 1, "destroyed once after");
    ts_error_clear(&e);
}

static void test_deep(void)
{
    enum { DEPTH = 1000000 };
    TsError e = TS_ERROR_INIT;
    /* [[[...[capsule]...]]] a million deep, built bottom-up */
    destroyed = 0;
    TsValue inner = ts_obj_value(ts_capsule_new(NULL, count_destroy, &e), TS_TAG_CAPSULE);
    for (int i = 0; i < DEPTH; i++) {
        TsList *l = ts_list_new(ts_type_any(), 1, &e);
        ts_list_append(l, inner, &e);
        inner = ts_obj_value(l, TS_TAG_LIST);
    }
    ts_value_release(inner);
    is_int(destroyed, 1, "a list nested a million deep frees without recursion");

    /* dicts, tuples, objects, enums and futures alternating */
    TsValue v = str("leaf");
    for (int i = 0; i < DEPTH / 4; i++) {
        TsDict *d = ts_dict_new(ts_type_int(), ts_type_any(), &e);
        ts_dict_set(d, ts_int(i), v, &e);
        TsTuple *t = ts_tuple_new(NULL, 1, &e);
        t->items[0] = ts_obj_value(d, TS_TAG_DICT);
        TsEnumValue *en = ts_enum_value_new(NULL, "E", ts_obj_value(t, TS_TAG_TUPLE), &e);
        TsFuture *f = ts_future_new(ts_type_any(), &e);
        ts_future_complete(f, ts_obj_value(en, TS_TAG_ENUM), &e);
        v = ts_obj_value(f, TS_TAG_FUTURE);
    }
    ts_value_release(v);
    ok(1, "a deep chain of dicts, tuples, enums and futures frees");

    /* equality of deep lists walks an explicit stack */
    TsValue a = ts_int(1), b = ts_int(1), c = ts_int(2);
    for (int i = 0; i < DEPTH / 10; i++) {
        TsList *la = ts_list_new(ts_type_any(), 0, &e), *lb = ts_list_new(ts_type_any(), 0, &e);
        TsList *lc = ts_list_new(ts_type_any(), 0, &e);
        ts_list_append(la, ts_int(i), &e);
        ts_list_append(la, a, &e);
        ts_list_append(lb, ts_int(i), &e);
        ts_list_append(lb, b, &e);
        ts_list_append(lc, ts_int(i), &e);
        ts_list_append(lc, c, &e);
        a = ts_obj_value(la, TS_TAG_LIST);
        b = ts_obj_value(lb, TS_TAG_LIST);
        c = ts_obj_value(lc, TS_TAG_LIST);
    }
    ok(ts_value_equal(a, b), "deep equal lists are equal");
    ok(!ts_value_equal(a, c), "deep lists differing at the bottom are not");
    ts_value_release(a);
    ts_value_release(b);
    ts_value_release(c);
    ts_error_clear(&e);
}

static TsValue int_list(int n, const int64_t *xs)
{
    TsList *l = ts_list_new(ts_type_int(), 0, NULL);
    for (int i = 0; i < n; i++)
        ts_list_append(l, ts_int(xs[i]), NULL);
    return ts_obj_value(l, TS_TAG_LIST);
}

static void test_equality(void)
{
    TsError e = TS_ERROR_INIT;
    ok(ts_value_equal(ts_int(1), ts_double(1.0)) && ts_value_equal(ts_bool(true), ts_int(1)),
       "1 == 1.0 == True");
    ok(!ts_value_equal(ts_int(INT64_C(9007199254740993)), ts_double(9007199254740992.0)),
       "2**53+1 != 2.0**53 (exact)");
    ok(!ts_value_equal(ts_int(INT64_MAX), ts_double(9223372036854775808.0)),
       "INT64_MAX != 2.0**63");
    ok(!ts_value_equal(ts_double(NAN), ts_double(NAN)), "nan != nan");
    ok(ts_value_is(ts_double(NAN), ts_double(NAN)), "but a NaN is itself");
    ok(ts_value_equal(ts_none(), ts_none()) && !ts_value_equal(ts_none(), ts_int(0)),
       "None == None only");
    ok(ts_value_equal(ts_device((TsDevice){1, 0}), ts_device((TsDevice){1, 0})) &&
           !ts_value_equal(ts_device((TsDevice){1, 0}), ts_device((TsDevice){1, -1})),
       "devices");
    TsValue c1 = ts_obj_value(ts_complex_new(1, 0, &e), TS_TAG_COMPLEX);
    TsValue c2 = ts_obj_value(ts_complex_new(1, 0, &e), TS_TAG_COMPLEX);
    ok(ts_value_equal(c1, c2) && ts_value_equal(c1, ts_int(1)), "complex: 1+0j == 1+0j == 1");
    ok(ts_value_hash(c1) == ts_value_hash(ts_int(1)), "and hashes like 1");
    ts_value_release(c1);
    ts_value_release(c2);

    int64_t xs[3] = {1, 2, 3}, ys[3] = {1, 2, 4};
    TsValue l1 = int_list(3, xs), l2 = int_list(3, xs), l3 = int_list(3, ys);
    TsValue l4 = int_list(2, xs);
    ok(ts_value_equal(l1, l2) && !ts_value_equal(l1, l3) && !ts_value_equal(l1, l4),
       "lists element-wise");
    ok(!ts_value_is(l1, l2) && ts_value_is(l1, l1), "is: identity");
    ok(!ts_value_equal(l1, ts_int(1)), "a list is not an int");

    TsTuple *t1 = ts_tuple_new(NULL, 2, &e), *t2 = ts_tuple_new(NULL, 2, &e);
    t1->items[0] = str("a");
    t1->items[1] = l1;
    t2->items[0] = str("a");
    t2->items[1] = l2;
    TsValue tv1 = ts_obj_value(t1, TS_TAG_TUPLE), tv2 = ts_obj_value(t2, TS_TAG_TUPLE);
    ok(ts_value_equal(tv1, tv2), "tuples of str and list, recursively");
    TsTuple *h1 = ts_tuple_new(NULL, 2, &e), *h2 = ts_tuple_new(NULL, 2, &e);
    h1->items[0] = h2->items[0] = ts_int(7);
    h1->items[1] = str("s");
    h2->items[1] = str("s");
    TsValue hv1 = ts_obj_value(h1, TS_TAG_TUPLE), hv2 = ts_obj_value(h2, TS_TAG_TUPLE);
    ok(ts_value_equal(hv1, hv2) && ts_value_hash(hv1) == ts_value_hash(hv2),
       "equal tuples of int and str hash alike");
    ts_value_release(hv1);
    ts_value_release(hv2);
    ((TsList *)l2.u.p)->items[2] = ts_int(9);
    ok(!ts_value_equal(tv1, tv2), "a changed nested element makes them differ");

    TsDict *d1 = ts_dict_new(ts_type_str(), ts_type_int(), &e);
    TsDict *d2 = ts_dict_new(ts_type_str(), ts_type_int(), &e);
    ts_dict_set(d1, str("a"), ts_int(1), &e);
    ts_dict_set(d1, str("b"), ts_int(2), &e);
    ts_dict_set(d2, str("b"), ts_int(2), &e);
    ts_dict_set(d2, str("a"), ts_int(1), &e);
    TsValue dv1 = ts_obj_value(d1, TS_TAG_DICT), dv2 = ts_obj_value(d2, TS_TAG_DICT);
    ok(ts_value_equal(dv1, dv2), "dicts are equal regardless of order");
    ts_dict_set(d2, str("a"), ts_int(5), &e);
    ok(!ts_value_equal(dv1, dv2), "a different value differs");
    TsValue ka = str("a");
    ts_dict_delete(d2, ka, NULL);
    ts_value_release(ka);
    ts_dict_set(d2, str("c"), ts_int(1), &e);
    ok(!ts_value_equal(dv1, dv2), "a different key differs");

    int64_t zero[1] = {0};
    TsValue ta = ts_obj_value(ts_tensor_new(NULL, TS_FLOAT32, 1, zero, NULL, 0, &e),
                              TS_TAG_TENSOR);
    TsValue tb = ts_obj_value(ts_tensor_new(NULL, TS_FLOAT32, 1, zero, NULL, 0, &e),
                              TS_TAG_TENSOR);
    ok(ts_value_equal(ta, ta) && !ts_value_equal(ta, tb), "tensors by identity");

    /* hashes of equal values agree */
    ok(ts_value_hash(ts_int(1)) == ts_value_hash(ts_double(1.0)) &&
           ts_value_hash(ts_int(1)) == ts_value_hash(ts_bool(true)) &&
           ts_value_hash(ts_double(0.0)) == ts_value_hash(ts_double(-0.0)),
       "1, 1.0, True hash alike; so do 0.0 and -0.0");
    ok(ts_value_hash(ts_int(1)) != ts_value_hash(ts_int(2)), "1 and 2 hash apart");

    /* dynamic types */
    ok(ts_value_type(ts_int(1)) == ts_type_int() && ts_value_type(ts_double(1)) == ts_type_float() &&
           ts_value_type(ts_bool(1)) == ts_type_bool() && ts_value_type(ts_none()) == ts_type_none(),
       "scalar types");
    ok(ts_value_type(l1) == ts_type_list(ts_type_int()), "List[int]");
    ok(ts_value_type(dv1) == ts_type_dict(ts_type_str(), ts_type_int()), "Dict(str, int)");
    const TsType *elems[2] = {ts_type_str(), ts_type_list(ts_type_int())};
    ok(ts_value_type(tv1) == ts_type_tuple(2, elems), "(str, int[])");
    const TsTensorTypeInfo *info = ts_type_tensor_info(ts_value_type(ta));
    ok(info && info->dtype == TS_FLOAT32 && info->device_type == TS_DEV_CPU,
       "a tensor's type is refined by dtype and device");
    ok(ts_value_type(ts_device((TsDevice){0, -1})) == ts_type_device(), "Device");
    TsFuture *f = ts_future_new(ts_type_int(), &e);
    ok(ts_value_type(ts_obj_value(f, TS_TAG_FUTURE)) == ts_type_future(ts_type_int()),
       "Future[int]");
    ts_heap_release((TsHeap *)f);

    ts_value_release(tv1);
    ts_value_release(tv2);
    ts_value_release(l3);
    ts_value_release(l4);
    ts_value_release(dv1);
    ts_value_release(dv2);
    ts_value_release(ta);
    ts_value_release(tb);
    ts_error_clear(&e);
}

/* ---- threads ----------------------------------------------------------------- */
enum { NTHREADS = 4, NFUTURES = 200, SPINS = 200000 };

static TsFuture *futures[NFUTURES];
static atomic_int callbacks_run;

static void on_done(TsFuture *f, void *data)
{
    (void)f;
    (void)data;
    atomic_fetch_add(&callbacks_run, 1);
}

/* Thread k completes futures k, k + NTHREADS, ...; odd ones fail. */
static void *completer(void *arg)
{
    intptr_t k = (intptr_t)arg;
    for (int i = (int)k; i < NFUTURES; i += NTHREADS) {
        if (i % 2 == 0) {
            ts_future_complete(futures[i], ts_int(i * 10), NULL);
        } else {
            TsError fail = TS_ERROR_INIT;
            ts_error_set(&fail, TS_ERR_VALUE, "future %d failed", i);
            ts_future_fail(futures[i], &fail, NULL);
        }
    }
    return NULL;
}

static void *waiter(void *arg)
{
    intptr_t bad = 0;
    (void)arg;
    for (int i = NFUTURES - 1; i >= 0; i--) {
        TsValue v = ts_none();
        TsError e = TS_ERROR_INIT;
        int rc = ts_future_wait(futures[i], &v, &e);
        if (i % 2 == 0 ? rc != 0 || v.u.i != i * 10 : rc != TS_ERR_VALUE || !strstr(e.msg, "failed"))
            bad++;
        ts_error_clear(&e);
    }
    return (void *)bad;
}

static void test_futures(void)
{
    TsError e = TS_ERROR_INIT;
    atomic_store(&callbacks_run, 0);
    for (int i = 0; i < NFUTURES; i++) {
        futures[i] = ts_future_new(ts_type_int(), &e);
        ts_future_then(futures[i], on_done, NULL, &e);
    }
    pthread_t w[2], c[NTHREADS];
    for (int i = 0; i < 2; i++)
        pthread_create(&w[i], NULL, waiter, NULL);
    for (intptr_t i = 0; i < NTHREADS; i++)
        pthread_create(&c[i], NULL, completer, (void *)i);
    intptr_t bad = 0;
    for (int i = 0; i < 2; i++) {
        void *r;
        pthread_join(w[i], &r);
        bad += (intptr_t)r;
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(c[i], NULL);
    is_int((long long)bad, 0, "two waiters see every value and every error");
    is_int(atomic_load(&callbacks_run), NFUTURES, "each callback ran once on completion");
    ok(ts_future_done(futures[0]) && ts_future_done(futures[NFUTURES - 1]), "all done");
    ts_future_then(futures[0], on_done, NULL, &e);
    is_int(atomic_load(&callbacks_run), NFUTURES + 1, "a callback on a done future runs at once");
    is_int(ts_future_complete(futures[0], ts_int(1), &e), TS_ERR_RUNTIME,
           "completing twice is an error");
    like(e.msg, "already completed", "saying so");
    TsError fail = TS_ERROR_INIT;
    ts_error_set(&fail, TS_ERR_RUNTIME, "late");
    is_int(ts_future_fail(futures[1], &fail, &e), TS_ERR_RUNTIME, "failing twice is an error");
    ok(fail.msg == NULL, "the failure is consumed either way");
    TsValue v;
    ok(ts_future_wait(futures[0], &v, &e) == 0 && v.u.i == 0, "the first value stays");
    ok(ts_future_elem_type(futures[0]) == ts_type_int(), "element type");
    for (int i = 0; i < NFUTURES; i++)
        ts_heap_release((TsHeap *)futures[i]);

    /* a future owns its value */
    TsFuture *f = ts_future_new(ts_type_str(), &e);
    TsValue s = str("v");
    ts_value_retain(s);
    ts_future_complete(f, s, &e);
    ok(!ts_future_done(f) == 0 && ts_value_refcount(s) == 2, "the future holds the value");
    ts_future_wait(f, &v, &e);
    is_int(ts_value_refcount(s), 3, "wait hands out a new reference");
    ts_value_release(v);
    ts_heap_release((TsHeap *)f);
    is_int(ts_value_refcount(s), 1, "freeing the future releases it");
    ts_value_release(s);
    TsFuture *unfinished = ts_future_new(ts_type_int(), &e);
    ts_future_then(unfinished, on_done, NULL, &e);
    ts_heap_release((TsHeap *)unfinished);
    ok(1, "a future never completed frees with its pending callback");
    ts_error_clear(&e);
}

static TsValue shared;

static void *hammer(void *arg)
{
    (void)arg;
    for (int i = 0; i < SPINS; i++) {
        ts_value_retain(shared);
        if (i % 3 == 0) {
            ts_value_retain(shared);
            ts_value_release(shared);
        }
        ts_value_release(shared);
    }
    for (int i = 0; i < 1000; i++)
        ts_value_retain(shared);       /* kept: checked by the main thread */
    return NULL;
}

static void test_concurrent_counts(void)
{
    shared = str("shared");
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&th[i], NULL, hammer, NULL);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    is_int(ts_value_refcount(shared), 1 + NTHREADS * 1000,
           "%d threads retaining and releasing one object keep the count exact", NTHREADS);
    for (int i = 0; i < NTHREADS * 1000; i++)
        ts_value_release(shared);
    is_int(ts_value_refcount(shared), 1, "back to one");
    ts_value_release(shared);
}

/* ts_buf_printf formats the plain conversions itself and hands the rest to vsnprintf. */
static void test_buf_printf(void)
{
    TsBuf b = TS_BUF_INIT;
    ts_buf_printf(&b, "%" PRId64 "|%" PRId64 "|%d", INT64_MIN, INT64_MAX, 0);
    is_str(b.p, "-9223372036854775808|9223372036854775807|0", "ints of every width");
    b.len = 0;
    ts_buf_printf(&b, "%s=%u%%%c %zu %lld %llu %lu %i", "k", 4000000000u, '!', (size_t)7,
                  -3LL, 18446744073709551615ULL, 5UL, -1);
    is_str(b.p, "k=4000000000%! 7 -3 18446744073709551615 5 -1", "strings, chars, unsigned");
    ts_buf_printf(&b, "+%5d|%.2f|%x|%s", 42, 1.5, 255u, "tail");
    is_str(b.p, "k=4000000000%! 7 -3 18446744073709551615 5 -1+   42|1.50|ff|tail",
           "widths, floats and hex go to vsnprintf, appended after what was there");
    b.len = 0;
    ts_buf_printf(&b, "%-100s|", "x");
    ok(b.len == 101 && b.p[100] == '|' && b.p[101] == '\0', "a long result grows the buffer");
    b.len = 0;
    ts_buf_printf(&b, "no conversions");
    ts_buf_printf(&b, "%s", "");
    is_str(b.p, "no conversions", "a plain text, then an empty string");
    is_int(ts_buf_check(&b, NULL), 0, "the buffer never failed");
    ts_buf_free(&b);
}

int main(void)
{
    test_buf_printf();
    test_refcounts();
    test_strings();
    test_lists();
    test_dicts();
    test_objects();
    test_deep();
    test_equality();
    test_futures();
    test_concurrent_counts();
    ts_types_shutdown();
    return done_testing();
}
