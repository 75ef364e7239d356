/* tscript/print.h — the text of a value, exactly as PyTorch 1.13's TorchScript prints it.
 *
 * print(x) and str(x) give the same text for every value, so there is one printer:
 *
 *   int          -5                      bool      True / False        None   None
 *   float        3.  0.10000000000000001  1e+20  inf  -inf  nan  (-0.0 prints 0.)
 *   complex      1.+2.j  1.5-2.j  nan+infj
 *   str          its bytes, unquoted, also inside containers
 *   list         [1, 2]   tuple (1, a)  (4,)  ()   dict {a: 1, b: 2}
 *   NamedTuple   as a plain tuple         enum      Enum<Color.GREEN>
 *   object       <__torch__.Foo object at 0x55d0c0a1e2f0>  (str() of an object with
 *                __str__ is the frontend's business: it calls the method)
 *   device       cpu  cuda:0  cuda        future    Future
 *   tensor       whatever the tensor's backend formats (see below)
 *
 * Floats: a finite value that is a whole number in int64's range prints as that integer and a
 * dot; any other prints as C's "%.17g" (what PyTorch's stream with max_digits10 gives), and
 * nan always as "nan" (PyTorch sometimes prints "-nan"; we do not reproduce that).
 *
 * Tensors: the printer does not know tensor data. A backend formats its tensors by
 * registering a kernel for the operator tscript::format_tensor(Tensor self) -> str on its
 * backend name (declared in schemas/prim_str.yaml; a backend loaded without the prim plugin
 * declares the same schema itself, e.g. with ts_register_schema). The kernel pushes the text
 * PyTorch prints, without a trailing newline. The printer finds it through the runtime's
 * operator table, so formatting follows the plugins a runtime loaded. The prim plugin
 * registers the TS_BACKEND_ANY kernel, which (like the printer without a runtime) writes
 * ts_format_tensor_fallback()'s "<Tensor CPUFloatType{2,3}>".
 *
 * Nesting depth is bounded only by memory: the printer keeps its own stack, never the C one.
 */
#ifndef TSCRIPT_PRINT_H
#define TSCRIPT_PRINT_H

#include <stddef.h>

#include "tscript/strbuf.h"
#include "tscript/value.h"

#ifdef __cplusplus
extern "C" {
#endif

struct TsRuntime;

/* The operator a backend implements to format its tensors. */
#define TS_FORMAT_TENSOR_OP "tscript::format_tensor"

/* Appends str(v) to out. rt (may be NULL) supplies tensor formatters. Errors: out of memory,
 * a failing tensor formatter. */
int ts_value_format(struct TsRuntime *rt, TsValue v, TsBuf *out, TsError *err);
/* str(v) as a new string (one reference), or NULL with err. */
TsStr *ts_value_str(struct TsRuntime *rt, TsValue v, TsError *err);
/* str(v) as a malloc'd C string, or NULL with err. */
char *ts_value_to_cstr(struct TsRuntime *rt, TsValue v, TsError *err);
/* The line print(v0, v1, ...) writes: the values separated by spaces, then "\n". */
int ts_print_line(struct TsRuntime *rt, const TsValue *values, size_t n, TsBuf *out,
                  TsError *err);

/* A float's text (see above) into buf, always NUL-terminated; the full length like
 * snprintf. 32 bytes always suffice. */
size_t ts_format_double(double d, char *buf, size_t size);
/* A complex number's text: "1.+2.j". */
void ts_format_complex(double re, double im, TsBuf *out);
/* The text of a tensor no backend formats: "<Tensor CPUFloatType{2,3}>". */
void ts_format_tensor_fallback(const TsTensor *t, TsBuf *out);

#ifdef __cplusplus
}
#endif
#endif
