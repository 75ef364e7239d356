/* conform.h — values read from an archive made to conform to the types its code declares.
 *
 * A pickle carries no TorchScript types: a list of ints comes back as a List[Any], a dict as
 * a Dict[Any, Any], a NamedTuple as a plain tuple. The importer knows the declared type of
 * every attribute (the class bodies of code/) and of __setstate__'s argument. Conforming a
 * value to it (ts_pickle_retype) gives containers their element types and tuples their
 * names, and checks every value is what the type says; conforming the objects it reaches
 * checks each of their attributes against their class the same way, all the way down. The
 * interpreter trusts types (an int operation reads the int member unchecked), so an archive
 * that lies about a type must be refused here, never run.
 */
#ifndef TSCRIPT_CONFORM_H
#define TSCRIPT_CONFORM_H

#include "ptrmap.h"
#include "tscript/value.h"

typedef struct TsConform {
    TsPtrMap seen;             /* heap values checked (1) or being checked (2) */
} TsConform;

/* Retypes v to t and checks it, then the objects inside it (what names v in messages:
 * "attribute 'x' of __torch__.m.Cls"). */
int ts_conform(TsConform *cf, TsValue v, const TsType *t, const char *what, TsError *err);
/* Checks every object reachable from v: its attributes against its class's declarations
 * (an attribute never set is an error unless its type admits None), and that no value is
 * reachable from itself. */
int ts_conform_objects(TsConform *cf, TsValue v, TsError *err);
void ts_conform_free(TsConform *cf);

#endif
