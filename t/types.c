/* t/types.c — the type system against PyTorch 1.13: hash-consing, the IR and annotation
 * spellings, isSubtypeOf, unifyTypes, nominal types, refined tensors and unions.
 *
 * The tables below were produced by asking torch._C (parse_ir, isSubtypeOf,
 * unify_type_list, UnionType) about the same type strings; a small parser here turns the IR
 * spelling back into TsTypes, so every table row is also a round trip through ts_type_repr.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tscript/tensor.h"
#include "tscript/types.h"
#include "tap.h"

/* ---- a parser for the IR spelling (test-only) ------------------------------ */

typedef struct P {
    const char *s;
    bool bad;
} P;

static void skip_ws(P *p)
{
    while (*p->s == ' ')
        p->s++;
}

static bool eat(P *p, const char *tok)
{
    skip_ws(p);
    size_t n = strlen(tok);
    if (strncmp(p->s, tok, n) != 0)
        return false;
    p->s += n;
    return true;
}

static const char *dtype_names[] = {
    "Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double", "ComplexHalf",
    "ComplexFloat", "ComplexDouble", "Bool", "QInt8", "QUInt8", "QInt32", "BFloat16",
};

static const TsType *parse_type(P *p);

/* "Float(...)" always knows its rank (0 when no sizes are given); "FloatTensor(...)" and
 * "Tensor(...)" know it only when sizes are given, or from empty parentheses. */
static const TsType *parse_tensor_args(P *p, int dtype, bool rank_known)
{
    TsTensorTypeInfo ti = { dtype, -1, -1, -1, NULL, NULL, -1 };
    int64_t sizes[16], strides[16];
    int nstrides = 0;
    if (!eat(p, "("))
        return ts_type_tensor_refined(&ti);
    bool rank_given = rank_known || eat(p, ")");
    ti.dim = 0;
    if (rank_given && !rank_known) {
        ti.sizes = sizes;
        return ts_type_tensor_refined(&ti);
    }
    while (!eat(p, ")")) {
        if (p->bad || !*p->s) {
            p->bad = true;
            return NULL;
        }
        eat(p, ",");
        skip_ws(p);
        if (eat(p, "*")) {
            sizes[ti.dim++] = -1;
        } else if (*p->s >= '0' && *p->s <= '9') {
            sizes[ti.dim++] = strtoll(p->s, (char **)&p->s, 10);
        } else if (eat(p, "strides=[")) {
            while (!eat(p, "]")) {
                eat(p, ",");
                skip_ws(p);
                strides[nstrides++] = strtoll(p->s, (char **)&p->s, 10);
            }
        } else if (eat(p, "requires_grad=")) {
            ti.requires_grad = (int)strtol(p->s, (char **)&p->s, 10);
        } else if (eat(p, "device=")) {
            if (eat(p, "cpu"))
                ti.device_type = TS_DEV_CPU;
            else if (eat(p, "cuda"))
                ti.device_type = TS_DEV_CUDA;
            else
                p->bad = true;
            if (eat(p, ":"))
                ti.device_index = (int)strtol(p->s, (char **)&p->s, 10);
        } else {
            p->bad = true;
        }
    }
    if (!rank_given && ti.dim == 0)
        ti.dim = -1;
    ti.sizes = sizes;
    ti.strides = nstrides ? strides : NULL;
    return ts_type_tensor_refined(&ti);
}

static size_t parse_list(P *p, const TsType **out, size_t max, const char *close)
{
    size_t n = 0;
    while (!eat(p, close)) {
        if (n && !eat(p, ","))
            p->bad = true;
        if (p->bad || n == max || !*p->s) {
            p->bad = true;
            return 0;
        }
        out[n++] = parse_type(p);
    }
    return n;
}

static const TsType *parse_base(P *p)
{
    static const struct { const char *name; const TsType *(*make)(void); } simple[] = {
        { "int", ts_type_int }, { "float", ts_type_float }, { "complex", ts_type_complex },
        { "bool", ts_type_bool }, { "str", ts_type_str }, { "NoneType", ts_type_none },
        { "Any", ts_type_any }, { "Scalar", ts_type_number }, { "Device", ts_type_device },
        { "ScalarType", ts_type_scalartype }, { "Layout", ts_type_layout },
        { "MemoryFormat", ts_type_memoryformat }, { "Stream", ts_type_stream },
        { "Generator", ts_type_generator }, { "Storage", ts_type_storage },
        { "QScheme", ts_type_qscheme }, { "Capsule", ts_type_capsule },
    };
    const TsType *v[16];
    skip_ws(p);
    if (eat(p, "(")) {
        size_t n = parse_list(p, v, 16, ")");
        return ts_type_tuple(n, v);
    }
    if (eat(p, "Dict(")) {
        size_t n = parse_list(p, v, 16, ")");
        p->bad |= n != 2;
        return n == 2 ? ts_type_dict(v[0], v[1]) : NULL;
    }
    if (eat(p, "Union(")) {
        size_t n = parse_list(p, v, 16, ")");
        return ts_type_union(n, v);
    }
    if (eat(p, "Future[") || eat(p, "Future(") || eat(p, "RRef[")) {
        bool rref = p->s[-2] == 'f';
        const TsType *e = parse_type(p);
        if (!eat(p, "]") && !eat(p, ")"))
            p->bad = true;
        return rref ? ts_type_rref(e) : ts_type_future(e);
    }
    /* identifiers: the longest match wins ("Tensor" vs "t", "Int" vs "int") */
    size_t len = 0;
    while ((p->s[len] >= 'a' && p->s[len] <= 'z') || (p->s[len] >= 'A' && p->s[len] <= 'Z')
           || (p->s[len] >= '0' && p->s[len] <= '9') || p->s[len] == '_')
        len++;
    char id[64];
    if (len == 0 || len >= sizeof id) {
        p->bad = true;
        return NULL;
    }
    memcpy(id, p->s, len);
    id[len] = '\0';
    p->s += len;
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
        if (strcmp(id, simple[i].name) == 0)
            return simple[i].make();
    if (strcmp(id, "Tensor") == 0)
        return parse_tensor_args(p, -1, false);
    for (int d = 0; d < (int)(sizeof dtype_names / sizeof dtype_names[0]); d++) {
        size_t dn = strlen(dtype_names[d]);
        if (strncmp(id, dtype_names[d], dn) == 0
            && (id[dn] == '\0' || strcmp(id + dn, "Tensor") == 0))
            return parse_tensor_args(p, d, id[dn] == '\0');
    }
    return ts_type_var(id);
}

static const TsType *parse_type(P *p)
{
    const TsType *t = parse_base(p);
    for (;;) {
        if (eat(p, "[]"))
            t = ts_type_list(t);
        else if (eat(p, "?"))
            t = ts_type_optional(t);
        else
            return t;
    }
}

static const TsType *T(const char *s)
{
    P p = { s, false };
    const TsType *t = parse_type(&p);
    skip_ws(&p);
    if (p.bad || *p.s || !t) {
        diag("test parser: cannot parse '%s'", s);
        return NULL;
    }
    return t;
}

static char rbuf[4][512];
static int rslot;

static const char *R(const TsType *t)
{
    char *b = rbuf[rslot++ % 4];
    if (!t)
        return "(null)";
    ts_type_repr(t, b, 512);
    return b;
}

static const char *A(const TsType *t)
{
    char *b = rbuf[rslot++ % 4];
    if (!t)
        return "(null)";
    ts_type_annotation(t, b, 512);
    return b;
}

/* ---- tables from torch ------------------------------------------------------- */

static const struct { const char *in, *ir, *annot; } print_cases[] = {
    { "Tensor", "Tensor", "Tensor" },
    { "int", "int", "int" },
    { "float", "float", "float" },
    { "complex", "complex", "complex" },
    { "bool", "bool", "bool" },
    { "str", "str", "str" },
    { "NoneType", "NoneType", "NoneType" },
    { "Any", "Any", "Any" },
    { "Scalar", "Scalar", "number" },
    { "Device", "Device", "Device" },
    { "Stream", "Stream", "Stream" },
    { "Generator", "Generator", "Generator" },
    { "Storage", "Storage", "Storage" },
    { "QScheme", "QScheme", "QScheme" },
    { "Capsule", "Capsule", "Capsule" },
    { "Tensor[]", "Tensor[]", "List[Tensor]" },
    { "int[][]", "int[][]", "List[List[int]]" },
    { "Dict(str, int)", "Dict(str, int)", "Dict[str, int]" },
    { "Dict(int, Tensor[])", "Dict(int, Tensor[])", "Dict[int, List[Tensor]]" },
    { "(int, Tensor)", "(int, Tensor)", "Tuple[int, Tensor]" },
    { "()", "()", "Tuple[()]" },
    { "(int)", "(int)", "Tuple[int]" },
    { "int?", "int?", "Optional[int]" },
    { "int?[]", "int?[]", "List[Optional[int]]" },
    { "int[]?", "int[]?", "Optional[List[int]]" },
    { "Dict(str, Tensor?)?", "Dict(str, Tensor?)?", "Optional[Dict[str, Optional[Tensor]]]" },
    { "Union(int, str)", "Union(int, str)", "Union[int, str]" },
    { "Union(int, NoneType, str)", "Union(int, NoneType, str)", "Union[int, NoneType, str]" },
    { "Union(Tensor, str, Scalar)", "Union(Tensor, str, Scalar)", "Union[Tensor, str, number]" },
    { "Union(float, int)?", "Union(float, int)?", "Optional[Union[float, int]]" },
    { "Future[int]", "Future[int]", "Future[int]" },
    { "Future[Float(2)]", "Future[Float(2)]", "Future[Tensor]" },
    { "Future[int][]", "Future[int][]", "List[Future[int]]" },
    { "RRef[int]", "RRef[int]", "RRef[int]" },
    { "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)", "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)", "Tensor" },
    { "Float(*, *, device=cpu)", "Float(*, *, device=cpu)", "Tensor" },
    { "Float(2, *)", "Float(2, *)", "Tensor" },
    { "Long(requires_grad=1)", "Long(requires_grad=1)", "Tensor" },
    { "Float()", "Float()", "Tensor" },
    { "Double(3, strides=[1], requires_grad=0, device=cpu)", "Double(3, strides=[1], requires_grad=0, device=cpu)", "Tensor" },
    { "Float(2, 3, device=cuda:0)", "Float(2, 3, device=cuda:0)", "Tensor" },
    { "Half(2)", "Half(2)", "Tensor" },
    { "BFloat16(1)", "BFloat16(1)", "Tensor" },
    { "Bool(1)", "Bool(1)", "Tensor" },
    { "Byte(1)", "Byte(1)", "Tensor" },
    { "Char(1)", "Char(1)", "Tensor" },
    { "Short(1)", "Short(1)", "Tensor" },
    { "Int(1)", "Int(1)", "Tensor" },
    { "ComplexFloat(1)", "ComplexFloat(1)", "Tensor" },
    { "ComplexDouble(1)", "ComplexDouble(1)", "Tensor" },
    { "ComplexHalf(1)", "ComplexHalf(1)", "Tensor" },
    { "QInt8(1)", "QInt8(1)", "Tensor" },
    { "QUInt8(1)", "QUInt8(1)", "Tensor" },
    { "QInt32(1)", "QInt32(1)", "Tensor" },
    { "Long(0)", "Long(0)", "Tensor" },
    { "(int?, Float(2), int[])", "(int?, Float(2), int[])", "Tuple[Optional[int], Tensor, List[int]]" },
    { "Dict(str, Float(2))", "Dict(str, Tensor)", "Dict[str, Tensor]" },
    { "Union((int, Float(2)), str)", "Union((int, Tensor), str)", "Union[Tuple[int, Tensor], str]" },
    { "Float(2)[]?", "Float(2)[]?", "Optional[List[Tensor]]" },
    { "Dict(str, Future[int])", "Dict(str, Future(int))", "Dict[str, Future[int]]" },
    { "(Future[int], int)", "(Future[int], int)", "Tuple[Future[int], int]" },
    { "Union(Future[int], int, NoneType, str)", "Union(Future(int), int, NoneType, str)", "Union[Future[int], int, NoneType, str]" },
    { "Future[(int, str)]", "Future[(int, str)]", "Future[Tuple[int, str]]" },
    { "Future[Dict(str, int)]", "Future[Dict(str, int)]", "Future[Dict[str, int]]" },
    { "Any[]", "Any[]", "List[Any]" },
    { "t", "t", "t" },
    { "t[]", "t[]", "List[t]" },
    { "Dict(str, t)", "Dict(str, t)", "Dict[str, t]" },
};

static const char *const sub_types[] = {
    "int",
    "float",
    "complex",
    "bool",
    "str",
    "NoneType",
    "Any",
    "Scalar",
    "Tensor",
    "Device",
    "Float(2, 3)",
    "Float(*, *)",
    "Long(2, 3)",
    "Float(2, 3, device=cpu)",
    "Float(2, *, requires_grad=0)",
    "int[]",
    "float[]",
    "Scalar[]",
    "Tensor[]",
    "Float(2)[]",
    "Dict(str, int)",
    "Dict(str, Scalar)",
    "(int, str)",
    "(Scalar, str)",
    "(int, Tensor)",
    "(int, Float(2))",
    "()",
    "(int)",
    "int?",
    "Scalar?",
    "Tensor?",
    "Float(2)?",
    "str?",
    "Union(int, str)",
    "Union(int, NoneType, str)",
    "Union(Tensor, str, Scalar)",
    "Union(float, int)",
    "Union(Tensor, int)",
    "Future[int]",
    "Future[Scalar]",
    "int[]?",
    "(int?, str)",
};
/* sub_matrix[i][j] is 1 when sub_types[i] <: sub_types[j] (torch isSubtypeOf) */
static const char *const sub_matrix[] = {
    "100000110000000000000000000011000111110000",
    "010000110000000000000000000001000001100000",
    "001000110000000000000000000001000001000000",
    "000100100000000000000000000000000000000000",
    "000010100000000000000000000000001111000000",
    "000001100000000000000000000011111010000010",
    "000000100000000000000000000000000000000000",
    "000000110000000000000000000001000001000000",
    "000000101000000000000000000000100001010000",
    "000000100100000000000000000000000000000000",
    "000000101011000000000000000000100001010000",
    "000000101001000000000000000000100001010000",
    "000000101000100000000000000000100001010000",
    "000000101011010000000000000000100001010000",
    "000000101001001000000000000000100001010000",
    "000000100000000100000000000000000000000010",
    "000000100000000010000000000000000000000000",
    "000000100000000001000000000000000000000000",
    "000000100000000000100000000000000000000000",
    "000000100000000000010000000000000000000000",
    "000000100000000000001000000000000000000000",
    "000000100000000000000100000000000000000000",
    "000000100000000000000011000000000000000001",
    "000000100000000000000001000000000000000000",
    "000000100000000000000000100000000000000000",
    "000000100000000000000000110000000000000000",
    "000000100000000000000000001000000000000000",
    "000000100000000000000000000100000000000000",
    "000000100000000000000000000011000010000000",
    "000000100000000000000000000001000000000000",
    "000000100000000000000000000000100000000000",
    "000000100000000000000000000000110000000000",
    "000000100000000000000000000000001010000000",
    "000000100000000000000000000000000111000000",
    "000000100000000000000000000000000010000000",
    "000000100000000000000000000000000001000000",
    "000000110000000000000000000001000001100000",
    "000000100000000000000000000000000001010000",
    "000000100000000000000000000000000000001100",
    "000000100000000000000000000000000000000100",
    "000000100000000000000000000000000000000010",
    "000000100000000000000000000000000000000001",
};
static const struct { const char *a, *b, *plain, *to_union; } unify_cases[] = {
    { "int", "int", "int", "int" },
    { "int", "float", NULL, "Union(float, int)" },
    { "int", "Scalar", "Scalar", "Scalar" },
    { "float", "int", NULL, "Union(float, int)" },
    { "int", "NoneType", "int?", "int?" },
    { "NoneType", "int", "int?", "int?" },
    { "NoneType", "NoneType", "NoneType", "NoneType" },
    { "int?", "int", "int?", "int?" },
    { "int", "int?", "int?", "int?" },
    { "int?", "NoneType", "int?", "int?" },
    { "str?", "int", NULL, "Union(int, NoneType, str)" },
    { "Float(2, 3)", "Float(2, 4)", "Float(2, *)", "Float(2, *)" },
    { "Float(2, 3)", "Long(2, 3)", "Tensor(2, 3)", "Tensor(2, 3)" },
    { "Float(2, 3)", "Float(2)", "FloatTensor", "FloatTensor" },
    { "Float(2, 3, device=cpu)", "Float(2, 3)", "Float(2, 3)", "Float(2, 3)" },
    { "Float(2, 3)", "Tensor", "Tensor", "Tensor" },
    { "Float(2)[]", "Float(3)[]", "Tensor[]", "Tensor[]" },
    { "Float(2)[]", "Tensor[]", "Tensor[]", "Tensor[]" },
    { "int[]", "float[]", NULL, "Union(float[], int[])" },
    { "int[]", "Scalar[]", NULL, "Union(Scalar[], int[])" },
    { "Dict(str, int)", "Dict(str, float)", NULL, "Union(Dict(str, float), Dict(str, int))" },
    { "(int, str)", "(Scalar, str)", "(Scalar, str)", "(Scalar, str)" },
    { "(int, str)", "(float, str)", NULL, "(Union(float, int), str)" },
    { "(int, int)", "(int, str)", NULL, "(int, Union(int, str))" },
    { "(int, str)", "(int, str, int)", NULL, "Union((int, str), (int, str, int))" },
    { "(int, Float(2))", "(int, Float(3))", "(int, Float(*))", "(int, Float(*))" },
    { "(int, NoneType)", "(int, str)", "(int, str?)", "(int, str?)" },
    { "Future[int]", "Future[Scalar]", "Future[Scalar]", "Future[Scalar]" },
    { "Future[int]", "Future[str]", NULL, "Union(Future(int), Future(str))" },
    { "Tensor", "int", NULL, "Union(Tensor, int)" },
    { "str", "int", NULL, "Union(int, str)" },
    { "Any", "int", "Any", "Any" },
    { "Union(int, str)", "int", "Union(int, str)", "Union(int, str)" },
    { "Union(int, str)", "NoneType", "Union(int, str)?", "Union(int, str)?" },
    { "Union(int, str)", "float", NULL, "Union(float, int, str)" },
    { "Float(2)?", "Float(3)", "Float(*)?", "Float(*)?" },
    { "Float(2)?", "Long(2)", "Tensor(2)?", "Tensor(2)?" },
    { "int[]", "str[]", NULL, "Union(int[], str[])" },
    { "int?", "str?", NULL, "Union(int, NoneType, str)" },
    { "Tensor?", "Float(2)", "Tensor?", "Tensor?" },
    { "int", "Union(int, str)", "Union(int, str)", "Union(int, str)" },
    { "()", "()", "()", "()" },
    { "()", "(int)", NULL, "Union((), (int))" },
    { "(int)", "(NoneType)", "(int?)", "(int?)" },
};

/* ---- tests ------------------------------------------------------------------- */

static void test_singletons_and_hash_consing(void)
{
    ok(ts_type_int() == ts_type_int() && ts_type_int() != ts_type_float(), "singletons are unique");
    is_int(ts_type_kind(ts_type_number()), TS_TYPE_NUMBER, "Number kind");
    const TsType *l1 = ts_type_list(ts_type_int()), *l2 = ts_type_list(ts_type_int());
    ok(l1 && l1 == l2, "List[int] is one pointer");
    ok(ts_type_list(ts_type_float()) != l1, "List[float] is another");
    const TsType *e[3] = { ts_type_int(), ts_type_str(), l1 };
    const TsType *t1 = ts_type_tuple(3, e), *t2 = ts_type_tuple(3, e);
    ok(t1 == t2, "tuples hash-cons");
    ok(ts_type_tuple(2, e) != t1, "tuple arity matters");
    ok(ts_type_tuple(0, NULL) == ts_type_tuple(0, NULL), "the empty tuple is one pointer");
    ok(ts_type_dict(ts_type_str(), l1) == ts_type_dict(ts_type_str(), ts_type_list(ts_type_int())),
       "dicts hash-cons");
    ok(ts_type_dict(ts_type_str(), ts_type_int()) != ts_type_dict(ts_type_int(), ts_type_str()),
       "dict key and value are ordered");
    const TsType *o = ts_type_optional(ts_type_int());
    ok(o == ts_type_optional(ts_type_int()), "optionals hash-cons");
    ok(ts_type_optional(o) == o, "Optional[Optional[int]] is int?");
    ok(ts_type_optional(ts_type_none()) == ts_type_none(), "Optional[None] is None");
    ok(ts_type_var("t") == ts_type_var("t") && ts_type_var("t") != ts_type_var("t1"),
       "type variables hash-cons by name");
    is_str(ts_type_var_name(ts_type_var("t1")), "t1", "type variable name");
    ok(ts_type_var_name(ts_type_int()) == NULL, "var name of a non-var is NULL");
    ok(ts_type_future(ts_type_int()) == ts_type_future(ts_type_int()), "futures hash-cons");
    ok(ts_type_rref(ts_type_int()) != ts_type_future(ts_type_int()), "RRef is not Future");
    ok(ts_type_list(NULL) == NULL && ts_type_optional(NULL) == NULL, "NULL element gives NULL");
    ok(T("Dict(str, (int, Tensor?)[])") == T("Dict(str, (int, Tensor?)[])"),
       "nested types built twice are one pointer");

    is_int((long long)ts_type_num_elems(t1), 3, "tuple elems");
    ok(ts_type_elem(t1, 2) == l1 && ts_type_elem(t1, 3) == NULL, "tuple elem access and bound");
    ok(ts_type_elem(ts_type_dict(ts_type_str(), ts_type_int()), 1) == ts_type_int(), "dict value");
    is_int((long long)ts_type_num_elems(ts_type_int()), 0, "int has no elems");
    ok(ts_type_name(l1) == NULL, "structural types have no name");
}

static void test_printing(void)
{
    size_t n = sizeof print_cases / sizeof print_cases[0];
    for (size_t i = 0; i < n; i++) {
        const TsType *t = T(print_cases[i].in);
        is_str(R(t), print_cases[i].ir, "repr %s", print_cases[i].in);
        is_str(A(t), print_cases[i].annot, "annotation %s", print_cases[i].in);
    }
    /* spellings torch's parser cannot read back, taken from its printer */
    TsTensorTypeInfo ti = { TS_FLOAT32, -1, -1, -1, NULL, NULL, -1 };
    is_str(R(ts_type_tensor_refined(&ti)), "FloatTensor", "a dtype-only tensor");
    ti.requires_grad = 0;
    is_str(R(ts_type_tensor_refined(&ti)), "FloatTensor(requires_grad=0)", "rank unknown, grad known");
    ti = (TsTensorTypeInfo){ -1, TS_DEV_CPU, -1, -1, NULL, NULL, -1 };
    is_str(R(ts_type_tensor_refined(&ti)), "Tensor(device=cpu)", "device-only tensor");
    int64_t sz[2] = { 2, 3 };
    ti = (TsTensorTypeInfo){ -1, -1, -1, 2, sz, NULL, -1 };
    is_str(R(ts_type_tensor_refined(&ti)), "Tensor(2, 3)", "sizes without dtype");
    ti = (TsTensorTypeInfo){ -1, -1, -1, 0, NULL, NULL, -1 };
    is_str(R(ts_type_tensor_refined(&ti)), "Tensor()", "0-dim without dtype");

    is_str(R(ts_type_scalartype()), "ScalarType", "ScalarType repr");
    is_str(A(ts_type_scalartype()), "int", "ScalarType annotation");
    is_str(R(ts_type_layout()), "Layout", "Layout repr");
    is_str(R(ts_type_memoryformat()), "MemoryFormat", "MemoryFormat repr");
    is_str(R(ts_type_any_list()), "list", "AnyList repr");
    is_str(R(ts_type_any_tuple()), "tuple", "AnyTuple repr");
    is_str(R(ts_type_optional(ts_type_rref(ts_type_int()))), "RRef[int]?", "RRef optional");

    /* snprintf contract */
    char small[6];
    const TsType *d = T("Dict(str, int)");
    size_t len = ts_type_repr(d, small, sizeof small);
    is_int((long long)len, 14, "repr returns the full length");
    is_str(small, "Dict(", "repr truncates and terminates");
    is_int((long long)ts_type_annotation(d, NULL, 0), 14, "NULL buffer only measures");
    ts_type_repr(d, small, 1);
    is_str(small, "", "size 1 gives an empty string");
}

static void test_subtyping_table(void)
{
    size_t n = sizeof sub_types / sizeof sub_types[0];
    const TsType *ty[64];
    for (size_t i = 0; i < n; i++)
        ty[i] = T(sub_types[i]);
    int bad = 0, checked = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            bool want = sub_matrix[i][j] == '1';
            bool got = ts_type_is_subtype_of(ty[i], ty[j]);
            checked++;
            if (got != want) {
                bad++;
                diag("%s <: %s: got %d, torch says %d", sub_types[i], sub_types[j], got, want);
            }
        }
    ok(bad == 0, "%d subtyping pairs agree with torch's isSubtypeOf", checked);
}

static void test_subtyping_extra(void)
{
    const TsType *i = ts_type_int();
    ok(ts_type_is_subtype_of(i, ts_type_scalartype()), "int <: ScalarType");
    ok(ts_type_is_subtype_of(ts_type_scalartype(), i), "ScalarType <: int");
    ok(ts_type_is_subtype_of(ts_type_layout(), i) && ts_type_is_subtype_of(i, ts_type_memoryformat()),
       "Layout and MemoryFormat are ints");
    ok(!ts_type_is_subtype_of(ts_type_layout(), ts_type_scalartype()), "Layout is not ScalarType");
    ok(ts_type_is_subtype_of(ts_type_scalartype(), ts_type_number()), "ScalarType <: Number");
    ok(!ts_type_is_subtype_of(ts_type_bool(), ts_type_number()), "bool is not a Number");
    ok(!ts_type_is_subtype_of(ts_type_bool(), i), "bool is not int");
    ok(ts_type_is_subtype_of(T("int[]"), ts_type_any_list()), "List[int] <: AnyList");
    ok(!ts_type_is_subtype_of(T("(int)"), ts_type_any_list()), "tuple is not a list");
    ok(ts_type_is_subtype_of(T("(int, str)"), ts_type_any_tuple()), "tuple <: AnyTuple");
    ok(ts_type_is_subtype_of(T("()"), ts_type_any_tuple()), "() <: AnyTuple");
    ok(!ts_type_is_subtype_of(ts_type_any_list(), T("int[]")), "AnyList is not List[int]");
    ok(ts_type_is_subtype_of(ts_type_var("t"), ts_type_var("t")), "t <: t");
    ok(!ts_type_is_subtype_of(ts_type_var("t"), ts_type_var("t1")), "t is not t1");
    ok(!ts_type_is_subtype_of(i, ts_type_var("t")), "int is not t");
    ok(ts_type_is_subtype_of(ts_type_var("t"), ts_type_any()), "t <: Any");
    ok(ts_type_is_subtype_of(T("Future[Float(2)]"), T("Future[Tensor]")), "Future is covariant");
    ok(!ts_type_is_subtype_of(T("RRef[Float(2)]"), T("RRef[Tensor]")), "RRef is invariant");
    ok(!ts_type_is_subtype_of(NULL, i) && !ts_type_is_subtype_of(i, NULL), "NULL is no subtype");

    ok(ts_type_equal(T("int"), ts_type_int()), "equal: same pointer");
    ok(!ts_type_equal(T("int"), T("float")), "equal: int vs float");
    ok(ts_type_equal(T("Union(int, str)?"), T("Union(int, str, NoneType)")),
       "Optional[Union[int, str]] equals Union[int, str, None]");
    ok(!ts_type_equal(T("Union(int, str)?"), T("Union(int, str)")), "but not Union[int, str]");
}

static void test_unify_table(void)
{
    size_t n = sizeof unify_cases / sizeof unify_cases[0];
    for (size_t k = 0; k < n; k++) {
        const TsType *a = T(unify_cases[k].a), *b = T(unify_cases[k].b);
        const TsType *u = ts_type_unify(a, b, false);
        is_str(u ? R(u) : NULL, unify_cases[k].plain, "unify %s, %s", unify_cases[k].a,
               unify_cases[k].b);
        u = ts_type_unify(a, b, true);
        is_str(u ? R(u) : NULL, unify_cases[k].to_union, "unify %s, %s to union",
               unify_cases[k].a, unify_cases[k].b);
    }
    ok(ts_type_unify(NULL, ts_type_int(), true) == NULL, "unify with NULL is NULL");
    ok(ts_type_unify(T("(int, str)"), T("(int, str)"), false) == T("(int, str)"),
       "unify of equal types is the same pointer");
}

/* Method signatures: a class fits an interface when each required method's signature fits
 * (PyTorch's FunctionSchema::isSubtypeOf: names equal, arguments contravariant, return
 * covariant), and the reason it does not is PyTorch's. */
static void test_method_sigs(TsError *err)
{
    const char *need[] = { "area" };
    TsType *shape = ts_type_interface_new("__torch__.SigShape", false, 1, need, err);
    const char *an[] = { "self", "k" };
    const TsType *at[] = { shape, ts_type_int() };
    ok(shape && ts_type_set_method_sig(shape, "area", 2, an, at, ts_type_float(), err) == 0,
       "an interface records area(self, int k) -> float");
    static const struct {
        const char *cls, *arg;
        int argk, retk;          /* 0 int, 1 Optional[int], 2 float, 3 Any, 4 str */
        bool fits;
        const char *why;
    } cases[] = {
        { "__torch__.SigSame", "k", 0, 2, true, NULL },
        { "__torch__.SigWider", "k", 1, 2, true, NULL },       /* takes more: fits */
        { "__torch__.SigName", "j", 0, 2, false, "(1) area(__torch__.SigName self, int j) -> float" },
        { "__torch__.SigNarrowArg", "k", 4, 2, false, "(1) area(__torch__.SigNarrowArg self, str k) -> float" },
        { "__torch__.SigAnyRet", "k", 0, 3, false, "(1) area(__torch__.SigAnyRet self, int k) -> Any" },
        { "__torch__.SigIntRet", "k", 0, 0, false, "(2) area(InterfaceType<SigShape> self, int k) -> float" },
    };
    const TsType *kinds[] = { ts_type_int(), ts_type_optional(ts_type_int()), ts_type_float(),
                              ts_type_any(), ts_type_str() };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsType *c = ts_type_class_new(cases[i].cls, false, err);
        const char *cn[] = { "self", cases[i].arg };
        const TsType *ct[] = { c, kinds[cases[i].argk] };
        bool made = c && ts_type_class_add_method(c, "area", err) == 0;
        ok(made && ts_type_is_subtype_of(c, shape), "%s: a class with area, its signature not "
           "yet recorded, fits", cases[i].cls);
        made = made && ts_type_set_method_sig(c, "area", 2, cn, ct, kinds[cases[i].retk], err) == 0;
        ok(made && ts_type_is_subtype_of(c, shape) == cases[i].fits, "%s: %s the interface",
           cases[i].cls, cases[i].fits ? "fits" : "does not fit");
        char *why = made ? ts_type_why_not_implements(c, shape) : NULL;
        if (cases[i].fits) {
            ok(why == NULL, "... and no reason is given");
        } else {
            like(why ? why : "", "Method on class '", "... PyTorch's reason");
            like(why ? why : "", cases[i].why, "... with the signatures");
        }
        free(why);
    }
    TsType *none = ts_type_class_new("__torch__.SigNone", false, err);
    char *why = ts_type_why_not_implements(none, shape);
    is_str(why ? why : "", "Class '__torch__.SigNone' does not have method 'area' but "
           "'__torch__.SigShape' does.\n", "a class without the method: PyTorch's reason");
    free(why);
    /* a signature naming the types themselves: the check ends */
    const char *mneed[] = { "merge" };
    TsType *mi = ts_type_interface_new("__torch__.SigMerge", false, 1, mneed, err);
    TsType *mc = ts_type_class_new("__torch__.SigMerger", false, err);
    const char *mn[] = { "self", "other" };
    const TsType *mit[] = { mi, mi }, *mct[] = { mc, mi };
    bool made = mi && mc && ts_type_set_method_sig(mi, "merge", 2, mn, mit, mi, err) == 0 &&
                ts_type_class_add_method(mc, "merge", err) == 0 &&
                ts_type_set_method_sig(mc, "merge", 2, mn, mct, mc, err) == 0;
    ok(made && ts_type_is_subtype_of(mc, mi), "merge(self, other: I) -> C fits merge(self, "
       "other: I) -> I (the check of C <: I inside it assumes itself)");
    ok(ts_type_set_method_sig((TsType *)ts_type_int(), "f", 0, NULL, NULL, ts_type_int(), err) != 0,
       "a signature on int is refused");
    ts_error_clear(err);
}

static void test_nominal(void)
{
    TsError err = TS_ERROR_INIT;
    TsType *foo = ts_type_class_new("__torch__.Foo", false, &err);
    ok(foo != NULL, "class created");
    is_int(ts_type_kind(foo), TS_TYPE_CLASS, "class kind");
    ok(!ts_type_is_module(foo), "a class is not a module");
    is_str(R(foo), "__torch__.Foo", "class repr is its qualified name");
    is_str(A(foo), "__torch__.Foo", "class annotation is its qualified name");
    ok(ts_type_lookup("__torch__.Foo") == foo, "lookup finds the class");
    ok(ts_type_lookup("__torch__.Nope") == NULL, "lookup of an unknown name is NULL");
    ok(ts_type_lookup(NULL) == NULL, "lookup of NULL is NULL");

    is_int(ts_type_class_add_attr(foo, "x", ts_type_int(), &err), 0, "add attr x");
    is_int(ts_type_class_add_attr(foo, "w", T("Tensor"), &err), 0, "add attr w");
    is_int(ts_type_class_add_attr(foo, "x", ts_type_int(), &err), 0, "re-adding x: int is fine");
    is_int((long long)ts_type_num_fields(foo), 2, "two attributes");
    is_int(ts_type_field_index(foo, "w"), 1, "field index of w");
    is_int(ts_type_field_index(foo, "zz"), -1, "absent field");
    ok(ts_type_field(foo, 0)->type == ts_type_int(), "attr type");
    is_str(ts_type_field(foo, 1)->name, "w", "attr name");
    ok(ts_type_field(foo, 2) == NULL, "field out of range");
    int rc = ts_type_class_add_attr(foo, "x", ts_type_str(), &err);
    ok(rc != 0, "re-adding x as str fails");
    like(err.msg, "'x'", "error names the attribute");
    like(err.msg, "has type int but is being assigned a value of type str", "error says the types");
    ts_error_clear(&err);
    rc = ts_type_class_add_attr((TsType *)ts_type_int(), "x", ts_type_int(), &err);
    ok(rc != 0, "adding an attribute to int fails");
    ts_error_clear(&err);

    ok(ts_type_class_new("__torch__.Foo", false, &err) == NULL, "duplicate class rejected");
    like(err.msg, "__torch__.Foo", "duplicate error names the class");
    like(err.msg, "already exists", "duplicate error says why");
    ts_error_clear(&err);
    ok(ts_type_class_new("", false, &err) == NULL && err.code == TS_ERR_USAGE, "empty name rejected");
    ts_error_clear(&err);

    TsType *mod = ts_type_class_new("__torch__.M", true, &err);
    ok(mod && ts_type_is_module(mod) && ts_type_kind(mod) == TS_TYPE_MODULE, "module type");
    is_str(R(mod), "__torch__.M", "module repr");

    ok(ts_type_is_subtype_of(foo, ts_type_any_class()), "class <: AnyClass");
    ok(ts_type_is_subtype_of(foo, ts_type_any()), "class <: Any");
    ok(!ts_type_is_subtype_of(foo, mod), "unrelated classes");

    const char *need_x[] = { "x" }, *need_y[] = { "x", "y" };
    TsType *ix = ts_type_interface_new("__torch__.HasX", false, 1, need_x, &err);
    TsType *ixy = ts_type_interface_new("__torch__.HasXY", false, 2, need_y, &err);
    TsType *mx = ts_type_interface_new("__torch__.ModX", true, 1, need_x, &err);
    ok(ix && ixy && mx, "interfaces created");
    is_int(ts_type_kind(ix), TS_TYPE_INTERFACE, "interface kind");
    is_str(R(ix), "InterfaceType<HasX>", "interface repr (PyTorch's InterfaceType::str)");
    is_str(A(ix), "__torch__.HasX", "interface annotation");
    ok(ts_type_field(ix, 0)->type == NULL, "interface methods have no type here");
    ok(ts_type_is_subtype_of(foo, ix), "class with x <: HasX");
    ok(!ts_type_is_subtype_of(foo, ixy), "class without y is not <: HasXY");
    ok(ts_type_is_subtype_of(ixy, ix), "HasXY <: HasX");
    ok(!ts_type_is_subtype_of(ix, ixy), "HasX is not <: HasXY");
    ok(!ts_type_is_subtype_of(foo, mx), "a plain class does not implement a module interface");
    ts_type_class_add_attr(mod, "x", ts_type_int(), &err);
    ok(ts_type_is_subtype_of(mod, mx), "a module with x implements ModX");
    test_method_sigs(&err);
    const char *dup[] = { "f", "f" };
    ok(ts_type_interface_new("__torch__.Dup", false, 2, dup, &err) == NULL, "duplicate method rejected");
    like(err.msg, "'f' is defined twice", "duplicate method error");
    ts_error_clear(&err);

    const char *members[] = { "RED", "GREEN" };
    TsType *color = ts_type_enum_new("__torch__.Color", ts_type_int(), 2, members, &err);
    ok(color != NULL, "enum created");
    is_str(R(color), "Enum<__torch__.Color>", "enum repr");
    is_str(A(color), "__torch__.Color", "enum annotation");
    ok(ts_type_enum_value_type(color) == ts_type_int(), "enum value type");
    ok(ts_type_enum_value_type(foo) == NULL, "a class has no enum value type");
    is_int(ts_type_field_index(color, "GREEN"), 1, "enum member index");
    is_str(ts_type_name(color), "__torch__.Color", "enum name");
    ok(ts_type_is_subtype_of(color, ts_type_any_enum()), "enum <: AnyEnum");
    ok(!ts_type_is_subtype_of(color, ts_type_any_class()), "enum is not a class");
    ok(ts_type_enum_new("__torch__.Color", ts_type_str(), 2, members, &err) == NULL,
       "duplicate enum rejected");
    ts_error_clear(&err);
    ok(ts_type_enum_new("__torch__.Foo", ts_type_int(), 2, members, &err) == NULL,
       "an enum cannot take a class's name");
    like(err.msg, "class", "the error says what holds the name");
    ts_error_clear(&err);
    ok(ts_type_enum_new("__torch__.E", NULL, 0, NULL, &err) == NULL, "enum needs a value type");
    ts_error_clear(&err);

    const char *pn[] = { "x", "y" };
    const TsType *pt[] = { ts_type_int(), ts_type_tensor() };
    const TsType *point = ts_type_named_tuple("__torch__.Point", 2, pn, pt, &err);
    ok(point != NULL, "named tuple created");
    is_int(ts_type_kind(point), TS_TYPE_TUPLE, "named tuple is a tuple");
    is_str(R(point), "NamedTuple(x : int, y : Tensor)", "named tuple repr");
    is_str(A(point), "__torch__.Point", "named tuple annotation");
    is_str(ts_type_name(point), "__torch__.Point", "named tuple name");
    ok(ts_type_elem(point, 1) == ts_type_tensor(), "named tuple elems");
    is_int(ts_type_field_index(point, "y"), 1, "named tuple field index");
    ok(ts_type_named_tuple("__torch__.Point", 2, pn, pt, &err) == point,
       "same named tuple again is the same type");
    const TsType *pt2[] = { ts_type_int(), ts_type_int() };
    ok(ts_type_named_tuple("__torch__.Point", 2, pn, pt2, &err) == NULL, "mismatched redefinition");
    like(err.msg, "__torch__.Point", "mismatch error names the tuple");
    like(err.msg, "does not match", "mismatch error says why");
    ts_error_clear(&err);
    ok(ts_type_named_tuple("__torch__.Point", 1, pn, pt, &err) == NULL, "fewer fields mismatch");
    ts_error_clear(&err);
    ok(ts_type_lookup("__torch__.Point") == point, "named tuple lookup");

    const TsType *plain = T("(int, Tensor)");
    ok(ts_type_is_subtype_of(point, plain), "NamedTuple <: its plain tuple");
    ok(!ts_type_is_subtype_of(plain, point), "a plain tuple is not a NamedTuple");
    ok(ts_type_is_subtype_of(point, ts_type_any_tuple()), "NamedTuple <: AnyTuple");
    const char *qn[] = { "x", "z" };
    const TsType *other = ts_type_named_tuple("__torch__.Other", 2, qn, pt, &err);
    ok(other && !ts_type_is_subtype_of(point, other), "field names must agree");
    const char *same[] = { "x", "y" };
    const TsType *pt3[] = { ts_type_int(), T("Float(2)") };
    const TsType *fine = ts_type_named_tuple("__torch__.Fine", 2, same, pt3, &err);
    ok(fine && ts_type_is_subtype_of(fine, point), "same names, covariant fields");
    ok(ts_type_unify(point, point, false) == point, "unify a named tuple with itself");
    ok(ts_type_list(point) == ts_type_list(point), "containers of nominal types hash-cons");
    is_str(R(ts_type_list(point)), "NamedTuple(x : int, y : Tensor)[]", "list of named tuples");
    const char *bad_names[] = { "x", NULL };
    ok(ts_type_named_tuple("__torch__.Bad", 2, bad_names, pt, &err) == NULL, "a missing field name");
    ts_error_clear(&err);
    ok(ts_type_lookup("__torch__.Bad") == NULL, "a failed definition leaves no trace");
}

static void test_refined_tensors(void)
{
    int64_t sz[2] = { 2, 3 }, st[2] = { 3, 1 };
    TsTensorTypeInfo ti = { TS_FLOAT32, TS_DEV_CPU, -1, 2, sz, st, 0 };
    const TsType *full = ts_type_tensor_refined(&ti);
    is_str(R(full), "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)", "complete tensor");
    ok(full == T("Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"),
       "refined tensors hash-cons");
    sz[0] = 9;
    ok(ts_type_tensor_info(full)->sizes[0] == 2, "info is copied");
    sz[0] = 2;
    const TsTensorTypeInfo *got = ts_type_tensor_info(full);
    ok(got && got->dim == 2 && got->dtype == TS_FLOAT32 && got->strides[0] == 3
       && got->requires_grad == 0 && got->device_type == TS_DEV_CPU, "tensor info read back");
    const TsTensorTypeInfo *plain = ts_type_tensor_info(ts_type_tensor());
    ok(plain && plain->dim == -1 && plain->dtype == -1 && plain->requires_grad == -1
       && plain->device_type == -1 && !plain->sizes, "unrefined Tensor: everything unknown");
    ok(ts_type_tensor_info(ts_type_int()) == NULL, "int has no tensor info");
    TsTensorTypeInfo none = { -1, -1, -1, -1, NULL, NULL, -1 };
    ok(ts_type_tensor_refined(&none) == ts_type_tensor(), "all-unknown refinement is Tensor");
    ok(ts_type_tensor_refined(NULL) == ts_type_tensor(), "NULL info is Tensor");
    TsTensorTypeInfo odd = { 99, -5, 7, -3, NULL, NULL, 5 };
    ok(ts_type_tensor_refined(&odd) == ts_type_tensor(), "out-of-range fields mean unknown");
    int64_t partial_st[2] = { -1, 1 };
    ti.strides = partial_st;
    is_str(R(ts_type_tensor_refined(&ti)), "Float(2, 3, requires_grad=0, device=cpu)",
           "partially known strides are dropped");
    int64_t neg[2] = { -7, 3 };
    ti = (TsTensorTypeInfo){ TS_FLOAT32, -1, -1, 2, neg, NULL, -1 };
    ok(ts_type_tensor_refined(&ti) == T("Float(*, 3)"), "negative sizes are unknown sizes");

    ok(ts_type_is_subtype_of(full, ts_type_tensor()), "refined <: Tensor");
    ok(ts_type_is_subtype_of(full, T("Float(*, *)")), "refined <: less refined");
    ok(ts_type_is_subtype_of(full, T("Float(2, 3)")), "complete <: sizes only");
    ok(!ts_type_is_subtype_of(T("Float(2, 3)"), full), "less refined is not <: more refined");
    ok(!ts_type_is_subtype_of(T("Float(2, 3)"), T("Float(2)")), "rank must agree");
    ok(!ts_type_is_subtype_of(T("Float(2, 3, device=cpu)"), T("Float(2, 3, device=cuda:0)")),
       "device must agree");
    ok(!ts_type_is_subtype_of(T("Float(2, 3, device=cuda:0)"), T("Float(2, 3, device=cuda:1)")),
       "device index must agree");
    ok(ts_type_is_subtype_of(T("Float(2, 3)"), T("Tensor(2, 3)")), "dtype-free refinement");
    ok(!ts_type_is_subtype_of(ts_type_tensor(), full), "Tensor is not <: refined");
    ok(!ts_type_is_subtype_of(T("Float(2)[]"), T("Tensor[]")), "lists of tensors stay invariant");
    is_str(R(ts_type_unify(full, T("Float(2, 4, strides=[4, 1], requires_grad=0, device=cpu)"), false)),
           "Float(2, *, requires_grad=0, device=cpu)", "unify drops differing sizes and strides");
    is_str(R(ts_type_unify(T("Float(2, 3, requires_grad=1)"), T("Float(2, 3, requires_grad=0)"), false)),
           "Float(2, 3)", "unify drops differing requires_grad");
}

static void test_unions(void)
{
    const TsType *i = ts_type_int(), *s = ts_type_str(), *n = ts_type_none();
    const TsType *is[2] = { i, s }, *si[2] = { s, i };
    const TsType *u = ts_type_union(2, is);
    ok(u && u == ts_type_union(2, si), "member order does not matter");
    is_int(ts_type_kind(u), TS_TYPE_UNION, "union kind");
    is_int((long long)ts_type_num_elems(u), 2, "two members");
    const TsType *nested[3] = { u, i, T("Union(float, str)") };
    is_str(R(ts_type_union(3, nested)), "Union(float, int, str)", "nested unions flatten and dedup");
    const TsType *single[2] = { i, i };
    ok(ts_type_union(2, single) == i, "a union of one type is that type");
    ok(ts_type_union(1, &i) == i, "a one-member union is the member");
    const TsType *in[2] = { i, n };
    ok(ts_type_union(2, in) == T("int?"), "Union[int, None] is int?");
    const TsType *ni[2] = { n, i };
    ok(ts_type_union(2, ni) == ts_type_optional(i), "Union[None, int] is int?");
    const TsType *oi[2] = { ts_type_optional(i), s };
    is_str(R(ts_type_union(2, oi)), "Union(int, NoneType, str)", "optionals flatten into unions");
    const TsType *num[3] = { i, ts_type_number(), ts_type_float() };
    ok(ts_type_union(3, num) == ts_type_number(), "int and float are subsumed by Number");
    const TsType *nums[3] = { ts_type_number(), s, ts_type_bool() };
    is_str(R(ts_type_union(3, nums)), "Union(str, bool, Scalar)", "Scalar prints last");
    is_str(A(ts_type_union(3, nums)), "Union[str, bool, number]", "number annotation prints last");
    const TsType *anyu[2] = { i, ts_type_any() };
    ok(ts_type_union(2, anyu) == ts_type_any(), "Any swallows a union");
    const TsType *tens[3] = { T("Float(2)"), T("Float(3)"), i };
    is_str(R(ts_type_union(3, tens)), "Union(Tensor, int)", "tensor members merge");
    is_str(R(ts_type_elem(ts_type_union(3, tens), 0)), "Float(*)", "to their common refinement");
    const TsType *bad[2] = { i, NULL };
    ok(ts_type_union(2, bad) == NULL, "a NULL member gives NULL");
    ok(ts_type_union(0, NULL) == NULL, "an empty union is NULL");
    ok(ts_type_is_subtype_of(T("int?"), T("Union(int, NoneType, str)")), "Optional <: wider union");
    ok(ts_type_is_subtype_of(u, T("Union(int, NoneType, str)")), "union subset");
    ok(!ts_type_is_subtype_of(T("Union(int, NoneType, str)"), u), "union superset is not a subtype");
}

/* Several threads build the same types at once: they must agree on every pointer. */
#define NTHREADS 4
static const TsType *thread_results[NTHREADS][3];

static void *thread_main(void *arg)
{
    const TsType **out = arg;
    for (int k = 0; k < 200; k++) {
        const TsType *l = ts_type_list(ts_type_optional(ts_type_int()));
        const TsType *e[2] = { l, ts_type_str() };
        out[0] = l;
        out[1] = ts_type_tuple(2, e);
        out[2] = ts_type_union(2, e);
    }
    return NULL;
}

static void test_threads(void)
{
    pthread_t th[NTHREADS];
    for (int k = 0; k < NTHREADS; k++)
        pthread_create(&th[k], NULL, thread_main, thread_results[k]);
    for (int k = 0; k < NTHREADS; k++)
        pthread_join(th[k], NULL);
    bool same = true;
    for (int k = 1; k < NTHREADS; k++)
        for (int j = 0; j < 3; j++)
            same &= thread_results[k][j] == thread_results[0][j] && thread_results[k][j];
    ok(same, "threads building the same types get the same pointers");
}

static void test_shutdown_and_restart(void)
{
    ts_types_shutdown();
    ok(ts_type_lookup("__torch__.Foo") == NULL, "shutdown forgets nominal types");
    TsError err = TS_ERROR_INIT;
    TsType *foo = ts_type_class_new("__torch__.Foo", false, &err);
    ok(foo != NULL, "a name is free again after shutdown");
    is_str(R(ts_type_list(foo)), "__torch__.Foo[]", "types work after shutdown");
    ok(ts_type_int() == ts_type_int(), "singletons survive shutdown");
}

int main(void)
{
    test_singletons_and_hash_consing();
    test_printing();
    test_subtyping_table();
    test_subtyping_extra();
    test_unify_table();
    test_nominal();
    test_refined_tensors();
    test_unions();
    test_threads();
    test_shutdown_and_restart();
    ts_types_shutdown();
    return done_testing();
}
