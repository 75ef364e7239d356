/* api.h — the objects of the embedding API (tscript.h) as the core sees them (internal).
 *
 * The public API wraps what the core already has: a TsScript is a compilation unit with the
 * runtime whose operator table compiled it; a TsMethod pairs a compiled function with the
 * unit it runs in and, for a module's method, the bound self. Both are immutable once made,
 * which is what lets many threads call one method at once.
 */
#ifndef TSCRIPT_API_H
#define TSCRIPT_API_H

#include "function.h"
#include "tscript/tscript.h"

struct TsScript {
    TsRuntime *rt;
    TsCompUnit *unit;          /* owned */
};

struct TsMethod {
    TsRuntime *rt;
    TsCompUnit *unit;          /* borrowed from its script or module */
    TsFunction *f;
    TsValue self;              /* a module method's root object (owned), else None */
};

/* A method handle for f (self retained unless None); NULL with err when out of memory. */
TsMethod *ts_api_method_new(TsRuntime *rt, TsCompUnit *unit, TsFunction *f, TsValue self,
                            TsError *err);

#endif
