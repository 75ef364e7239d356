/* tscript/types.h — the TorchScript type system as C objects.
 *
 * Types are immutable and owned by the runtime's type table: structural types (List[int],
 * Optional[Tensor], (int, str), ...) are hash-consed, so two equal types are the same
 * pointer and pointer comparison is type equality. Nominal types (classes, enums,
 * interfaces, modules, named tuples) are identified by their qualified name and are created
 * once through the constructors below. No function here returns a type the caller frees;
 * all types live until ts_types_shutdown() (called when the last runtime closes).
 *
 * Constructors return NULL only on out-of-memory.
 */
#ifndef TSCRIPT_TYPES_H
#define TSCRIPT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tscript/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TsTypeKind {
    TS_TYPE_ANY,
    TS_TYPE_NONE,          /* NoneType */
    TS_TYPE_INT,
    TS_TYPE_FLOAT,
    TS_TYPE_COMPLEX,
    TS_TYPE_BOOL,
    TS_TYPE_STR,
    TS_TYPE_NUMBER,        /* "Scalar" in schemas: int, float or complex */
    TS_TYPE_TENSOR,        /* optionally refined: see TsTensorTypeInfo */
    TS_TYPE_DEVICE,
    TS_TYPE_SCALARTYPE,    /* dtype; an int at run time */
    TS_TYPE_LAYOUT,        /* an int at run time */
    TS_TYPE_MEMORYFORMAT,  /* an int at run time */
    TS_TYPE_STREAM,
    TS_TYPE_GENERATOR,
    TS_TYPE_STORAGE,
    TS_TYPE_QSCHEME,
    TS_TYPE_CAPSULE,
    TS_TYPE_LIST,          /* elems[0] */
    TS_TYPE_DICT,          /* elems[0] key, elems[1] value */
    TS_TYPE_TUPLE,         /* elems[0..n); a NamedTuple has a name and field names */
    TS_TYPE_OPTIONAL,      /* elems[0] */
    TS_TYPE_UNION,         /* elems[0..n), flattened, at least two members */
    TS_TYPE_FUTURE,        /* elems[0] */
    TS_TYPE_RREF,          /* elems[0] */
    TS_TYPE_CLASS,         /* a script class */
    TS_TYPE_ENUM,
    TS_TYPE_INTERFACE,
    TS_TYPE_MODULE,        /* a class type that is an nn.Module */
    TS_TYPE_VAR,           /* a schema type variable: t, t1, ... */
    TS_TYPE_ANY_LIST,      /* AnyListType: any List[T] */
    TS_TYPE_ANY_TUPLE,     /* AnyTupleType: any tuple */
    TS_TYPE_ANY_CLASS,     /* AnyClassType: any class */
    TS_TYPE_ANY_ENUM,      /* AnyEnumType: any enum */
    TS_TYPE__COUNT
} TsTypeKind;

typedef struct TsType TsType;

/* A Tensor type's refinements. A field that is unknown says so:
 * dtype -1, device_type -1, dim -1 (rank unknown), sizes[i] -1 (that size unknown),
 * requires_grad -1. sizes/strides are NULL unless dim >= 0. */
typedef struct TsTensorTypeInfo {
    int dtype;             /* TsDType or -1 */
    int device_type;       /* TsDeviceType or -1 */
    int device_index;      /* -1 for "no index" */
    int dim;
    const int64_t *sizes;
    const int64_t *strides; /* NULL when strides are unknown */
    int requires_grad;     /* 0, 1 or -1 */
} TsTensorTypeInfo;

/* One attribute of a class or module type, or one method of an interface. */
typedef struct TsTypeField {
    const char *name;
    const TsType *type;    /* for an interface method: NULL (the signature is kept elsewhere) */
} TsTypeField;

/* ---- singletons -------------------------------------------------------- */
TS_API const TsType *ts_type_any(void);
TS_API const TsType *ts_type_none(void);
TS_API const TsType *ts_type_int(void);
TS_API const TsType *ts_type_float(void);
TS_API const TsType *ts_type_complex(void);
TS_API const TsType *ts_type_bool(void);
TS_API const TsType *ts_type_str(void);
TS_API const TsType *ts_type_number(void);
TS_API const TsType *ts_type_tensor(void);      /* the unrefined Tensor */
TS_API const TsType *ts_type_device(void);
TS_API const TsType *ts_type_scalartype(void);
TS_API const TsType *ts_type_layout(void);
TS_API const TsType *ts_type_memoryformat(void);
TS_API const TsType *ts_type_stream(void);
TS_API const TsType *ts_type_generator(void);
TS_API const TsType *ts_type_storage(void);
TS_API const TsType *ts_type_qscheme(void);
TS_API const TsType *ts_type_capsule(void);
TS_API const TsType *ts_type_any_list(void);
TS_API const TsType *ts_type_any_tuple(void);
TS_API const TsType *ts_type_any_class(void);
TS_API const TsType *ts_type_any_enum(void);

/* ---- structural (hash-consed) ------------------------------------------ */
TS_API const TsType *ts_type_list(const TsType *elem);
TS_API const TsType *ts_type_dict(const TsType *key, const TsType *value);
TS_API const TsType *ts_type_tuple(size_t n, const TsType *const *elems);
/* A tuple whose elements have names but that has no name itself: the result of an operator
 * whose returns are all named, as max.dim's (Tensor values, Tensor indices). It prints as a
 * tuple ("Tuple[Tensor, Tensor]" as an annotation, "NamedTuple(values : Tensor, ...)" in
 * graphs), t.values reads a field, and it is a subtype of the plain tuple of its elements.
 * names NULL (or n 0): the plain tuple. */
TS_API const TsType *ts_type_tuple_fields(size_t n, const char *const *names,
                                          const TsType *const *elems);
TS_API const TsType *ts_type_optional(const TsType *elem);   /* Optional[Optional[T]] is T? */
TS_API const TsType *ts_type_future(const TsType *elem);
TS_API const TsType *ts_type_rref(const TsType *elem);
TS_API const TsType *ts_type_var(const char *name);
/* Union: flattens nested unions, drops duplicates and members subsumed by another;
 * a single remaining member is returned as itself; exactly two members T and None give
 * ts_type_optional(T) (kind TS_TYPE_OPTIONAL, printed "T?"), as torch treats Union[T, None]
 * as Optional[T]. Members are ordered as PyTorch orders them. */
TS_API const TsType *ts_type_union(size_t n, const TsType *const *members);
/* A Tensor refined by info (copied). All-unknown info returns ts_type_tensor(). */
TS_API const TsType *ts_type_tensor_refined(const TsTensorTypeInfo *info);

/* ---- nominal ------------------------------------------------------------ */
/* NamedTuple: qualified name ("__torch__.Point"), field names and types.
 * Two calls with the same name return the same type if the fields agree, else NULL with err. */
TS_API const TsType *ts_type_named_tuple(const char *qualname, size_t n, const char *const *names,
                                  const TsType *const *types, TsError *err);
/* Class / module types are created empty and filled in by the frontend while it compiles
 * __init__; they are the only mutable types. A second create of the same name fails. */
TS_API TsType *ts_type_class_new(const char *qualname, bool is_module, TsError *err);
TS_API int ts_type_class_add_attr(TsType *cls, const char *name, const TsType *type, TsError *err);
/* Records that a class has a method of this name (an interface's methods are checked by
 * name against them). */
TS_API int ts_type_class_add_method(TsType *cls, const char *name, TsError *err);
TS_API bool ts_type_has_method(const TsType *t, const char *name);
/* A class's methods by name, in the order they were recorded (NULL past the end). */
TS_API size_t ts_type_num_methods(const TsType *t);
TS_API const char *ts_type_method_name(const TsType *t, size_t i);
/* Records the signature of a class's method or of a method an interface requires: its
 * arguments (names and types, self first) and its return type. Recorded once per method.
 * An interface accepts a class only when every method it requires that has a recorded
 * signature has one in the class that fits, as PyTorch's rule: the same argument names
 * after self, each of the interface's argument types a subtype of the class's, the class's
 * return type a subtype of the interface's. */
TS_API int ts_type_set_method_sig(TsType *t, const char *method, size_t n,
                                  const char *const *arg_names,
                                  const TsType *const *arg_types, const TsType *ret,
                                  TsError *err);
/* Why class a is no subtype of interface b, in PyTorch's words (lines ending in '\n':
 * "Class 'A' does not have method 'f' but 'I' does." or "Method on class 'A' (1) is not
 * compatible with interface 'I' (2)" and both signatures); malloc'd, NULL when there is
 * no such reason. */
TS_API char *ts_type_why_not_implements(const TsType *a, const TsType *b);
/* Enum: members' names; values are kept by the frontend (a TsValue per member). */
TS_API TsType *ts_type_enum_new(const char *qualname, const TsType *value_type, size_t n,
                         const char *const *member_names, TsError *err);
/* Interface: a name and the methods it requires (by name). */
TS_API TsType *ts_type_interface_new(const char *qualname, bool is_module, size_t n,
                              const char *const *method_names, TsError *err);
/* Finds a nominal type by qualified name, or NULL. */
TS_API const TsType *ts_type_lookup(const char *qualname);

/* ---- inspection --------------------------------------------------------- */
TS_API TsTypeKind ts_type_kind(const TsType *t);                 /* TS_TYPE__COUNT for NULL */
TS_API size_t ts_type_num_elems(const TsType *t);             /* contained types */
TS_API const TsType *ts_type_elem(const TsType *t, size_t i);
TS_API const char *ts_type_name(const TsType *t);             /* nominal/named tuple name or NULL */
TS_API const char *ts_type_var_name(const TsType *t);         /* TS_TYPE_VAR only */
TS_API size_t ts_type_num_fields(const TsType *t);            /* class attrs, named tuple fields, enum members, interface methods */
TS_API const TsTypeField *ts_type_field(const TsType *t, size_t i);
TS_API long ts_type_field_index(const TsType *t, const char *name);   /* -1 if absent */
TS_API const TsType *ts_type_enum_value_type(const TsType *t);
TS_API bool ts_type_is_module(const TsType *t);
/* NULL for non-tensor types; for unrefined Tensor all fields unknown. */
TS_API const TsTensorTypeInfo *ts_type_tensor_info(const TsType *t);

/* ---- relations ---------------------------------------------------------- */
/* The Language Reference's subtyping: T <: Any, T <: Optional[T], None <: Optional[T],
 * int/float/complex <: Number, tuples covariantly, List/Dict invariant, refined Tensor <:
 * Tensor, class <: interface when it has the methods, members <: Union, ... */
TS_API bool ts_type_is_subtype_of(const TsType *a, const TsType *b);
TS_API bool ts_type_equal(const TsType *a, const TsType *b);
/* The type both branches of a join can take, or NULL when there is none (the caller reports
 * "Type mismatch"). Optional[T] and None unify to Optional[T]; T and None to Optional[T];
 * refined tensors unify to the common refinement; tuples element-wise; lists and dicts
 * only when elements unify to the same type. With default_to_union, unrelated types give
 * Union[a, b] (used for list literals like [1, "x"]). */
TS_API const TsType *ts_type_unify(const TsType *a, const TsType *b, bool default_to_union);

/* ---- printing ----------------------------------------------------------- */
/* PyTorch's IR spelling ("Tensor[]", "Dict(str, int)", "(int, Tensor)", "int?",
 * "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"), into buf (always
 * NUL-terminated). Returns the full length, like snprintf. */
TS_API size_t ts_type_repr(const TsType *t, char *buf, size_t size);
/* The Python annotation spelling ("List[int]", "Dict[str, int]", "Tuple[int, Tensor]",
 * "Optional[int]") used in error messages and schemas' python form. */
TS_API size_t ts_type_annotation(const TsType *t, char *buf, size_t size);

/* Frees every type. Only after the last user is gone. */
TS_API void ts_types_shutdown(void);

#ifdef __cplusplus
}
#endif
#endif
